/* SPDX-License-Identifier: GPL-2.0 */
/*
 * out.h - buffered output to a file descriptor with the few number and
 * string formatters the printers need (no stdio on the hot path).
 */
#ifndef MTTD_CLI_OUT_H
#define MTTD_CLI_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUT_BUF (1u << 16)

struct out {
	int fd;		/* < 0: kept in mem instead (out_init_mem) */
	int err;	/* errno of the first failed write, 0 if none */
	size_t len;
	char *buf;	/* OUT_BUF bytes: own, or mem + mem_len */
	char *mem;	/* fd < 0: everything flushed so far */
	size_t mem_len;
	size_t mem_cap;
	uint64_t written;	/* bytes written to fd so far */
	char own[OUT_BUF];
};

void out_init(struct out *o, int fd);
/* output collected in memory (o->mem, o->mem_len after out_flush) */
void out_init_mem(struct out *o);
void out_free_mem(struct out *o);
/* forget what is in memory (after out_flush()) */
void out_mem_clear(struct out *o);
/* write everything buffered; 0 or -1 (o->err set) */
int out_flush(struct out *o);

/* make room for n (<= OUT_BUF) bytes */
static inline char *out_room(struct out *o, size_t n)
{
	if (o->len + n > OUT_BUF)
		out_flush(o);
	return o->buf + o->len;
}

/*
 * Direct writers: reserve room with out_room(), write with the put_*
 * helpers (each returns the new end), then out_end() the pointer.
 */
static inline void out_end(struct out *o, char *p)
{
	o->len = (size_t)(p - o->buf);
}

static inline char *put_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#define put_lit(p, s) put_mem((p), (s), sizeof(s) - 1)

extern const char out_digits2[200];	/* "00" "01" ... "99" */

/* v in decimal, right-aligned at the end of tmp[20]; returns the length */
static inline unsigned int fmt_u64(char tmp[20], uint64_t v)
{
	char *e = tmp + 20;

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		e -= 2;
		memcpy(e, out_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		e -= 2;
		memcpy(e, out_digits2 + 2 * v, 2);
	} else {
		*--e = (char)('0' + v);
	}
	return (unsigned int)(tmp + 20 - e);
}

/* decimal, at most 20 characters */
static inline char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	unsigned int n = fmt_u64(tmp, v);

	return put_mem(p, tmp + 20 - n, n);
}

/* decimal right-aligned in width columns (width <= 20) */
static inline char *put_u64_w(char *p, uint64_t v, unsigned int width)
{
	char tmp[20];
	unsigned int n = fmt_u64(tmp, v);

	if (width > n) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	return put_mem(p, tmp + 20 - n, n);
}

/* more than fits in the buffer's free space */
void out_mem_slow(struct out *o, const void *p, size_t n);

static inline void out_mem(struct out *o, const void *p, size_t n)
{
	if (o->len + n <= OUT_BUF) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
	} else {
		out_mem_slow(o, p, n);
	}
}

/* inline, so that the length of a literal is known at compile time */
static inline void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static inline void out_char(struct out *o, char c)
{
	if (o->len == OUT_BUF)
		out_flush(o);
	o->buf[o->len++] = c;
}

/* n bytes, large ones written straight from p (after what is buffered) */
void out_big(struct out *o, const void *p, size_t n);

void out_u64(struct out *o, uint64_t v);
/* the low n nibbles of v, most significant first, lowercase */
void out_hexn(struct out *o, uint64_t v, unsigned int n);
/* bytes as lowercase hex */
void out_hexbytes(struct out *o, const uint8_t *p, size_t n);
/* the same with another table of 256 digit pairs (e.g. uppercase) */
void out_hexpairs(struct out *o, const uint8_t *p, size_t n,
		  const char pairs[512]);

#endif
