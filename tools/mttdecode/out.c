// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - buffered output: write(2) in 64 KiB blocks, integer and hex
 * formatting by hand.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

static const char hexd[] = "0123456789abcdef";

void out_init(struct out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->len = 0;
	o->written = 0;
	o->buf = o->own;
}

/* memory mode: the printers write straight into mem, no copy; buf is
 * mem + mem_len with OUT_BUF bytes of room (own when that failed) */
static int mem_room(struct out *o)
{
	if (o->mem_cap - o->mem_len < OUT_BUF) {
		size_t cap = o->mem_cap ? o->mem_cap : OUT_BUF * 16;
		char *p;

		while (cap - o->mem_len < OUT_BUF)
			cap *= 2;
		p = realloc(o->mem, cap);
		if (!p) {
			if (!o->err)
				o->err = ENOMEM;
			o->buf = o->own;
			return -1;
		}
		o->mem = p;
		o->mem_cap = cap;
	}
	o->buf = o->mem + o->mem_len;
	return 0;
}

void out_init_mem(struct out *o)
{
	out_init(o, -1);
	o->mem = NULL;
	o->mem_len = o->mem_cap = 0;
}

void out_free_mem(struct out *o)
{
	free(o->mem);
	o->mem = NULL;
	o->mem_len = o->mem_cap = 0;
	o->buf = o->own;
	o->len = 0;
}

static int flush_mem(struct out *o)
{
	size_t n = o->len;

	o->len = 0;
	if (o->mem && o->buf == o->mem + o->mem_len) {
		o->mem_len += n;	/* written in place */
		mem_room(o);
	} else if (!mem_room(o)) {
		/* written to own: before there was memory, or after a
		 * failure to get more */
		memcpy(o->buf, o->own, n);
		o->mem_len += n;
		mem_room(o);
	}
	return o->err ? -1 : 0;
}

void out_mem_clear(struct out *o)
{
	o->len = 0;
	o->mem_len = 0;
	o->buf = o->mem ? o->mem : o->own;
}

static void write_all(struct out *o, const char *p, size_t n)
{
	size_t done = 0;

	while (done < n && !o->err) {
		ssize_t r = write(o->fd, p + done, n - done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			break;
		}
		done += (size_t)r;
	}
	o->written += done;
}

int out_flush(struct out *o)
{
	if (o->fd < 0)
		return flush_mem(o);
	write_all(o, o->buf, o->len);
	o->len = 0;
	return o->err ? -1 : 0;
}

void out_big(struct out *o, const void *p, size_t n)
{
	if (o->fd < 0 || n < OUT_BUF) {
		out_mem(o, p, n);
		return;
	}
	out_flush(o);
	write_all(o, p, n);
}

void out_mem_slow(struct out *o, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t k = n < OUT_BUF ? n : OUT_BUF;

		memcpy(out_room(o, k), s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

const char out_digits2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

void out_u64(struct out *o, uint64_t v)
{
	out_end(o, put_u64(out_room(o, 20), v));
}

void out_hexn(struct out *o, uint64_t v, unsigned int n)
{
	char *b = out_room(o, n);
	unsigned int i;

	for (i = 0; i < n; i++)
		b[i] = hexd[(v >> (4 * (n - 1 - i))) & 0xf];
	o->len += n;
}

/* "00" "01" ... "ff" */
#define HD(v) (char)((v) < 10 ? '0' + (v) : 'a' + (v) - 10)
#define H1(x) HD((x) >> 4), HD((x) & 0xf)
#define H4(x) H1(x), H1((x) + 1), H1((x) + 2), H1((x) + 3)
#define H16(x) H4(x), H4((x) + 4), H4((x) + 8), H4((x) + 12)
#define H64(x) H16(x), H16((x) + 16), H16((x) + 32), H16((x) + 48)
static const char hex2[512] = { H64(0), H64(64), H64(128), H64(192) };

void out_hexpairs(struct out *o, const uint8_t *p, size_t n,
		  const char pairs[512])
{
	while (n) {
		size_t k = n < OUT_BUF / 2 ? n : OUT_BUF / 2, i;
		char *b = out_room(o, 2 * k);

		for (i = 0; i < k; i++)
			memcpy(b + 2 * i, pairs + 2 * p[i], 2);
		o->len += 2 * k;
		p += k;
		n -= k;
	}
}

void out_hexbytes(struct out *o, const uint8_t *p, size_t n)
{
	out_hexpairs(o, p, n, hex2);
}
