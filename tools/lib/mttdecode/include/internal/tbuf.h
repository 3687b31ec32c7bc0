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
static inline void mttd__tb_reset(struct mttd__tbuf *b)
{
	b->len = 0;
	b->cut = 0;
}
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

/* n bytes from s, which can be read 32 bytes far: one constant-size
 * copy of 32 when n is at most that and the room after them is there
 * (the bytes past n are overwritten by the next put or ignored) */
static inline void mttd__tb_put32(struct mttd__tbuf *b, const void *s,
				  size_t n)
{
	if (n <= 32 && 32 < b->cap - b->len) {
		memcpy(b->p + b->len, s, 32);
		b->len += n;
	} else {
		mttd__tb_put(b, s, n);
	}
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

/* v in decimal, right-aligned at the end of tmp[20], returns where it
 * starts: eight digits a step while v has more (one 64-bit division,
 * then 32-bit ones: four pairs), then two a step in 32 bits */
static inline char *mttd__dec_back(char tmp[20], uint64_t v)
{
	char *e = tmp + 20;
	uint32_t w;

	while (v >= 100000000) {
		uint32_t lo = (uint32_t)(v % 100000000);
		uint32_t hi4 = lo / 10000, lo4 = lo % 10000;

		v /= 100000000;
		memcpy(e - 2, mttd__digits2 + 2 * (lo4 % 100), 2);
		memcpy(e - 4, mttd__digits2 + 2 * (lo4 / 100), 2);
		memcpy(e - 6, mttd__digits2 + 2 * (hi4 % 100), 2);
		memcpy(e - 8, mttd__digits2 + 2 * (hi4 / 100), 2);
		e -= 8;
	}
	w = (uint32_t)v;
	while (w >= 100) {
		uint32_t r = w % 100;

		w /= 100;
		e -= 2;
		memcpy(e, mttd__digits2 + 2 * r, 2);
	}
	if (w >= 10) {
		e -= 2;
		memcpy(e, mttd__digits2 + 2 * w, 2);
	} else {
		*--e = (char)('0' + w);
	}
	return e;
}
/* bytes as lowercase hex pairs */
void mttd__tb_hexbytes(struct mttd__tbuf *b, const uint8_t *p, size_t n);
/* NUL-terminate (the NUL is not counted in len) and return p; the
 * NUL's room is always there once anything was allocated */
const char *mttd__tb_str_slow(struct mttd__tbuf *b);
static inline const char *mttd__tb_str(struct mttd__tbuf *b)
{
	if (!b->p)
		return mttd__tb_str_slow(b);
	b->p[b->len] = 0;
	return b->p;
}

#endif
