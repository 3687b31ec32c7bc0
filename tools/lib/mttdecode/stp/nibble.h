/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nibble.h - reading STPv2 nibble fields out of a byte buffer (internal).
 *
 * A "window" is 16 consecutive stream nibbles starting at nibble q, held
 * in a uint64_t in stream order: the first nibble in bits [3:0], the next
 * in [7:4] and so on.  That is simply the little-endian load of the bytes,
 * shifted by one nibble when q is odd.  STPv2 fields are most significant
 * nibble first, so turning the first n nibbles of a window into a value is
 * a nibble reversal (bswap + swap within bytes) and a shift.
 *
 * ld16() reads 9 bytes from byte q/2: callers guarantee they are readable.
 */
#ifndef MTTD_NIBBLE_H
#define MTTD_NIBBLE_H

#include <stdint.h>
#include <string.h>

static inline uint64_t mttd__le64(const uint8_t *b)
{
	uint64_t v;

	memcpy(&v, b, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* 16 nibbles from nibble q, stream order, first nibble in bits [3:0] */
static inline uint64_t mttd__ld16(const uint8_t *p, uint64_t q)
{
	const uint8_t *b = p + (q >> 1);
	unsigned int s = (unsigned int)(q & 1) << 2;

	/* the 9th byte supplies the 16th nibble when q is odd; the double
	 * shift keeps both shift counts below 64 */
	return (mttd__le64(b) >> s) | (((uint64_t)b[8] << 60) << (4 - s));
}

/* 15 nibbles from nibble q (bits [63:60] are not meaningful) */
static inline uint64_t mttd__ld15(const uint8_t *p, uint64_t q)
{
	return mttd__le64(p + (q >> 1)) >> ((q & 1) << 2);
}

/* one nibble */
static inline unsigned int mttd__nib(const uint8_t *p, uint64_t q)
{
	return (p[q >> 1] >> ((q & 1) << 2)) & 0xf;
}

static inline uint64_t mttd__nibrev(uint64_t x)
{
	const uint64_t m = 0x0f0f0f0f0f0f0f0fULL;

	x = __builtin_bswap64(x);
	return ((x >> 4) & m) | ((x & m) << 4);
}

/* The first n (0..16) nibbles of window w as an MSB-first value. */
static inline uint64_t mttd__take(uint64_t w, unsigned int n)
{
	return (mttd__nibrev(w) >> ((64 - 4 * n) & 63)) & -(uint64_t)(n != 0);
}

/* The number of trailing F nibbles of an n-nibble field. */
static inline unsigned int mttd__tail_f(uint64_t v, unsigned int n)
{
	unsigned int t;

	if (!n)
		return 0;
	v = ~v;
	t = v ? (unsigned int)__builtin_ctzll(v) >> 2 : 16;
	return t < n ? t : n;
}

#endif
