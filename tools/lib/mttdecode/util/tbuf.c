// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tbuf.c - bounded growable text buffer (see tbuf.h).
 */
#include <stdlib.h>
#include <string.h>

#include "internal/tbuf.h"

void mttd__tb_init(struct mttd__tbuf *b, size_t max)
{
	memset(b, 0, sizeof(*b));
	b->max = max;
}

void mttd__tb_fini(struct mttd__tbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void mttd__tb_reset(struct mttd__tbuf *b)
{
	b->len = 0;
	b->cut = 0;
}

/* room for n more bytes (+1 for a NUL) within max; returns what fits */
static size_t room(struct mttd__tbuf *b, size_t n)
{
	size_t want;

	if (n > b->max - b->len) {
		n = b->max - b->len;
		b->cut = 1;
	}
	want = b->len + n + 1;
	if (want > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *np;

		while (cap < want)
			cap *= 2;
		if (cap > b->max + 1)
			cap = b->max + 1;
		np = realloc(b->p, cap);
		if (!np) {
			b->oom = 1;
			b->cut = 1;
			return b->cap > b->len + 1 ? b->cap - b->len - 1 : 0;
		}
		b->p = np;
		b->cap = cap;
	}
	return n;
}

void mttd__tb_put(struct mttd__tbuf *b, const void *s, size_t n)
{
	size_t k = room(b, n);

	if (k) {
		memcpy(b->p + b->len, s, k);
		b->len += k;
	}
}

void mttd__tb_putc(struct mttd__tbuf *b, char c)
{
	mttd__tb_put(b, &c, 1);
}

void mttd__tb_puts(struct mttd__tbuf *b, const char *s)
{
	mttd__tb_put(b, s, strlen(s));
}

void mttd__tb_fill(struct mttd__tbuf *b, char c, size_t n)
{
	size_t k = room(b, n);

	if (k) {
		memset(b->p + b->len, c, k);
		b->len += k;
	}
}

static const char hexd[] = "0123456789abcdef";

void mttd__tb_hex(struct mttd__tbuf *b, uint64_t v, unsigned int digits)
{
	char tmp[18];
	unsigned int n = 0, i;

	do {
		tmp[n++] = hexd[v & 0xf];
		v >>= 4;
	} while (v || n < digits);
	mttd__tb_put(b, "0x", 2);
	for (i = 0; i < n / 2; i++) {
		char t = tmp[i];

		tmp[i] = tmp[n - 1 - i];
		tmp[n - 1 - i] = t;
	}
	mttd__tb_put(b, tmp, n);
}

void mttd__tb_dec(struct mttd__tbuf *b, uint64_t v)
{
	char tmp[20];
	unsigned int n = 20;

	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	mttd__tb_put(b, tmp + n, 20 - n);
}

void mttd__tb_hexbytes(struct mttd__tbuf *b, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n && !b->cut; i++) {
		char t[2] = { hexd[p[i] >> 4], hexd[p[i] & 0xf] };

		mttd__tb_put(b, t, 2);
	}
}

const char *mttd__tb_str(struct mttd__tbuf *b)
{
	if (!b->p) {
		room(b, 0);
		if (!b->p)
			return "";
	}
	b->p[b->len] = 0;
	return b->p;
}
