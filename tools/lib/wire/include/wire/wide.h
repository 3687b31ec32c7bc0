/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * wire/wide.h - the few products wider than 64 bits the tools need, exact
 * on every target: with the compiler's __int128 where it has one (64-bit
 * targets: the code is what it was), in 32-bit pieces where it has not
 * (32-bit Arm, armhf: GCC has no __int128 there).  Header only.
 * The 32-bit pieces are checked against __int128 on the host by
 * tests/host/wide.t (WIRE_WIDE_PORTABLE).
 */
#ifndef WIRE_WIDE_H
#define WIRE_WIDE_H

#include <stdint.h>

/* WIRE_WIDE_PORTABLE: the 32-bit pieces on any target (the host test) */
#if defined(__SIZEOF_INT128__) && !defined(WIRE_WIDE_PORTABLE)
#define WIRE_WIDE_INT128 1
__extension__ typedef unsigned __int128 wire_u128;
__extension__ typedef __int128 wire_i128;
#else
#define WIRE_WIDE_INT128 0
#endif

/*
 * wide_mul_u64: the 128-bit product of a and b, as its high and low
 * 64 bits, from four 32-bit products.
 */
static inline void wide_mul_u64(uint64_t a, uint64_t b, uint64_t *hi,
				uint64_t *lo)
{
	uint64_t al = (uint32_t)a, ah = a >> 32;
	uint64_t bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	*lo = (mid << 32) | (uint32_t)ll;
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/*
 * wide_mul_div_u64: *q = a * b / c rounded down, the product exact.
 * Return: 0, or -1 when the quotient does not fit 64 bits (or c is 0),
 * *q then UINT64_MAX.
 */
static inline int wide_mul_div_u64(uint64_t a, uint64_t b, uint64_t c,
				   uint64_t *q)
{
#if WIRE_WIDE_INT128
	wire_u128 v;

	if (!c) {
		*q = UINT64_MAX;
		return -1;
	}
	v = (wire_u128)a * b / c;
	*q = v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
	return v > UINT64_MAX ? -1 : 0;
#else
	uint64_t hi, lo, r = 0, quo = 0;
	int i;

	wide_mul_u64(a, b, &hi, &lo);
	/* the quotient fits 64 bits iff the high half is below c */
	if (!c || hi >= c) {
		*q = UINT64_MAX;
		return -1;
	}
	/* long division of hi:lo by c, a bit at a time; r < c throughout */
	r = hi;
	for (i = 63; i >= 0; i--) {
		uint64_t top = r >> 63;

		r = (r << 1) | ((lo >> i) & 1);
		quo <<= 1;
		if (top || r >= c) {
			r -= c;
			quo |= 1;
		}
	}
	*q = quo;
	return 0;
#endif
}

/*
 * wide_cmp_mul_s64: the sign of a * b - c * d (-1, 0 or 1), exact.
 */
static inline int wide_cmp_mul_s64(int64_t a, int64_t b, int64_t c, int64_t d)
{
#if WIRE_WIDE_INT128
	wire_i128 x = (wire_i128)a * b - (wire_i128)c * d;

	return (x > 0) - (x < 0);
#else
	/* each product as a sign and a 128-bit magnitude */
	int sx = (a < 0) != (b < 0) && a && b ? -1 : (a && b);
	int sy = (c < 0) != (d < 0) && c && d ? -1 : (c && d);
	uint64_t xh, xl, yh, yl;
	int mag;

	if (sx != sy)
		return sx > sy ? 1 : -1;
	if (!sx)
		return 0;
	wide_mul_u64(a < 0 ? -(uint64_t)a : (uint64_t)a,
		     b < 0 ? -(uint64_t)b : (uint64_t)b, &xh, &xl);
	wide_mul_u64(c < 0 ? -(uint64_t)c : (uint64_t)c,
		     d < 0 ? -(uint64_t)d : (uint64_t)d, &yh, &yl);
	mag = xh != yh ? (xh > yh ? 1 : -1) : (xl > yl) - (xl < yl);
	return sx > 0 ? mag : -mag;
#endif
}

/*
 * wide_sub_mul_ld: a * b - c * d as a long double (exact with __int128
 * up to the long double's precision; else the two products rounded
 * first), for magnitudes, never for signs (wide_cmp_mul_s64).
 */
static inline long double wide_sub_mul_ld(int64_t a, int64_t b, int64_t c,
					  int64_t d)
{
#if WIRE_WIDE_INT128
	return (long double)((wire_i128)a * b - (wire_i128)c * d);
#else
	return (long double)a * b - (long double)c * d;
#endif
}

#endif
