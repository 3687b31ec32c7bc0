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

void mttd__tb_put_slow(struct mttd__tbuf *b, const void *s, size_t n)
{
	size_t k = room(b, n);

	if (k) {
		memcpy(b->p + b->len, s, k);
		b->len += k;
	}
}

void mttd__tb_putc_slow(struct mttd__tbuf *b, char c)
{
	mttd__tb_put_slow(b, &c, 1);
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
	char tmp[20];
	unsigned int n = sizeof(tmp);

	do {
		tmp[--n] = hexd[v & 0xf];
		v >>= 4;
	} while (v || sizeof(tmp) - n < digits);
	tmp[--n] = 'x';
	tmp[--n] = '0';
	mttd__tb_put(b, tmp + n, sizeof(tmp) - n);
}

const char mttd__digits2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

void mttd__tb_dec(struct mttd__tbuf *b, uint64_t v)
{
	/* the digits end at tmp + 20; 32 bytes readable from their start
	 * (one constant-size copy, no memcpy() call) */
	char tmp[52];
	const char *s = mttd__dec_back(tmp, v);

	mttd__tb_put32(b, s, (size_t)(tmp + 20 - s));
}

/* bytes as hex pairs, the room made first for all that fit within max:
 * the same bytes as putting a pair at a time (a pair cut at max or at
 * a failed allocation leaves its first digit) */
void mttd__tb_hexbytes(struct mttd__tbuf *b, const uint8_t *p, size_t n)
{
	size_t i, k, r;
	char *o;

	if (b->cut || !n)
		return;
	k = n > (b->max - b->len) / 2 ? (b->max - b->len) / 2 : n;
	r = 2 * k < b->cap - b->len ? 2 * k : room(b, 2 * k);
	o = b->p + b->len;
	for (i = 0; i < r / 2; i++) {
		o[2 * i] = hexd[p[i] >> 4];
		o[2 * i + 1] = hexd[p[i] & 0xf];
	}
	if (r & 1)
		o[r - 1] = hexd[p[r / 2] >> 4];
	b->len += r;
	/* max reached: the next pair is cut there */
	for (i = k; i < n && !b->cut; i++) {
		char t[2] = { hexd[p[i] >> 4], hexd[p[i] & 0xf] };

		mttd__tb_put(b, t, 2);
	}
}

const char *mttd__tb_str_slow(struct mttd__tbuf *b)
{
	if (!b->p) {
		room(b, 0);
		if (!b->p)
			return "";
	}
	b->p[b->len] = 0;
	return b->p;
}
