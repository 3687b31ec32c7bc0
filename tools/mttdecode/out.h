/*
 * out.h - buffered output to a file descriptor with the few number and
 * string formatters the printers need (no stdio on the hot path).
 */
#ifndef MTTD_CLI_OUT_H
#define MTTD_CLI_OUT_H

#include <stddef.h>
#include <stdint.h>

#define OUT_BUF (1u << 16)

struct out {
	int fd;
	int err;	/* errno of the first failed write, 0 if none */
	size_t len;
	char buf[OUT_BUF];
};

void out_init(struct out *o, int fd);
/* write everything buffered; 0 or -1 (o->err set) */
int out_flush(struct out *o);

/* make room for n (<= OUT_BUF) bytes */
static inline char *out_room(struct out *o, size_t n)
{
	if (o->len + n > OUT_BUF)
		out_flush(o);
	return o->buf + o->len;
}

void out_mem(struct out *o, const void *p, size_t n);
void out_str(struct out *o, const char *s);
void out_char(struct out *o, char c);
void out_u64(struct out *o, uint64_t v);
/* v right-aligned in width columns */
void out_u64_w(struct out *o, uint64_t v, unsigned int width);
void out_str_w(struct out *o, const char *s, unsigned int width);
/* the low n nibbles of v, most significant first, lowercase */
void out_hexn(struct out *o, uint64_t v, unsigned int n);
/* bytes as lowercase hex */
void out_hexbytes(struct out *o, const uint8_t *p, size_t n);

#endif
