/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tbuf.h - a growable text buffer with an upper bound (internal).  Writes
 * past the bound are dropped and remembered in .cut; the buffer is never
 * NUL-terminated implicitly (mttd__tb_str() does that).
 */
#ifndef MTTD_TBUF_H
#define MTTD_TBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct mttd__tbuf {
	char *p;
	size_t len;
	size_t cap;
	size_t max;	/* bytes of text kept at most */
	int cut;	/* something was dropped */
	int oom;	/* an allocation failed */
};

void mttd__tb_init(struct mttd__tbuf *b, size_t max);
void mttd__tb_fini(struct mttd__tbuf *b);
void mttd__tb_reset(struct mttd__tbuf *b);
/* mttd__tb_put() when the bytes do not fit the room there is (grows it
 * or cuts) */
void mttd__tb_put_slow(struct mttd__tbuf *b, const void *s, size_t n);
void mttd__tb_putc_slow(struct mttd__tbuf *b, char c);

/* n bytes: inline when they fit what is allocated (and the NUL after
 * them), which is nearly always; also within max then, as cap <= max + 1 */
static inline void mttd__tb_put(struct mttd__tbuf *b, const void *s, size_t n)
{
	if (n < b->cap - b->len) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	} else {
		mttd__tb_put_slow(b, s, n);
	}
}

static inline void mttd__tb_putc(struct mttd__tbuf *b, char c)
{
	if (1 < b->cap - b->len)
		b->p[b->len++] = c;
	else
		mttd__tb_putc_slow(b, c);
}

/* inline, so that the length of a literal is known at compile time */
static inline void mttd__tb_puts(struct mttd__tbuf *b, const char *s)
{
	mttd__tb_put(b, s, strlen(s));
}
/* n copies of c */
void mttd__tb_fill(struct mttd__tbuf *b, char c, size_t n);
/* "0x" and v in lowercase hex, at least digits digits */
void mttd__tb_hex(struct mttd__tbuf *b, uint64_t v, unsigned int digits);
void mttd__tb_dec(struct mttd__tbuf *b, uint64_t v);

/* "00" "01" ... "99" */
extern const char mttd__digits2[200];

/* v in decimal, right-aligned at the end of tmp[20], two digits a
 * step; returns where it starts */
static inline char *mttd__dec_back(char tmp[20], uint64_t v)
{
	char *e = tmp + 20;

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		e -= 2;
		memcpy(e, mttd__digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		e -= 2;
		memcpy(e, mttd__digits2 + 2 * v, 2);
	} else {
		*--e = (char)('0' + v);
	}
	return e;
}
/* bytes as lowercase hex pairs */
void mttd__tb_hexbytes(struct mttd__tbuf *b, const uint8_t *p, size_t n);
/* NUL-terminate (the NUL is not counted in len) and return p */
const char *mttd__tb_str(struct mttd__tbuf *b);

#endif
