// SPDX-License-Identifier: GPL-2.0
/*
 * widetest.c - libwire's wire/wide.h in its 32-bit pieces
 * (WIRE_WIDE_PORTABLE, what 32-bit Arm builds, where GCC has no __int128)
 * against __int128 on this host: wide_mul_u64(), wide_mul_div_u64() (the
 * quotient, and whether it fits 64 bits) and wide_cmp_mul_s64() (the sign
 * of a * b - c * d) on edge values (0, 1, powers of two and their
 * neighbours, INT64_MIN, INT64_MAX, UINT64_MAX) in every combination and
 * on a million random ones of every width; wide_sub_mul_ld() within a
 * relative 2^-50.  Each function is one check: the first difference is
 * printed.
 */
#define WIRE_WIDE_PORTABLE
#include <stdint.h>

#include "tap.h"
#include "wire/wide.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

#define ABSL(x) ((x) < 0 ? -(x) : (x))

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* xorshift64*, then cut to a random width, so that small values come up */
static uint64_t rnd(void)
{
	uint64_t x;

	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	x = rng * 0x2545f4914f6cdd1dull;
	return x >> (x % 64);
}

static uint64_t edges[64];
static int nedges;

static void add_edges(void)
{
	int i;

	edges[nedges++] = 0;
	edges[nedges++] = 1;
	edges[nedges++] = UINT64_MAX;
	edges[nedges++] = (uint64_t)INT64_MAX;
	edges[nedges++] = (uint64_t)INT64_MIN;
	edges[nedges++] = 1000000000u;
	for (i = 16; i < 64; i += 8) {
		edges[nedges++] = (1ull << i) - 1;
		edges[nedges++] = 1ull << i;
		edges[nedges++] = (1ull << i) + 1;
	}
	edges[nedges++] = 0xffffffffull;
	edges[nedges++] = 0x100000001ull;
}

static int bad_mul, bad_div, bad_cmp, bad_ld;

static void one(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	u128 p = (u128)a * b, v;
	i128 x;
	uint64_t hi, lo, q;
	int r, want, sign;
	long double ld, ref;

	wide_mul_u64(a, b, &hi, &lo);
	if ((hi != (uint64_t)(p >> 64) || lo != (uint64_t)p) && !bad_mul++)
		diag("wide_mul_u64(%#llx, %#llx)", (unsigned long long)a,
		     (unsigned long long)b);

	r = wide_mul_div_u64(a, b, c, &q);
	if (c) {
		v = p / c;
		want = v > UINT64_MAX ? -1 : 0;
		if ((r != want || q != (want ? UINT64_MAX : (uint64_t)v)) &&
		    !bad_div++)
			diag("wide_mul_div_u64(%#llx, %#llx, %#llx): %d %#llx",
			     (unsigned long long)a, (unsigned long long)b,
			     (unsigned long long)c, r, (unsigned long long)q);
	} else if ((r != -1 || q != UINT64_MAX) && !bad_div++) {
		diag("wide_mul_div_u64(..., 0): %d", r);
	}

	x = (i128)(int64_t)a * (int64_t)b - (i128)(int64_t)c * (int64_t)d;
	sign = (x > 0) - (x < 0);
	if (wide_cmp_mul_s64((int64_t)a, (int64_t)b, (int64_t)c,
			     (int64_t)d) != sign && !bad_cmp++)
		diag("wide_cmp_mul_s64(%lld, %lld, %lld, %lld)",
		     (long long)a, (long long)b, (long long)c, (long long)d);

	ld = wide_sub_mul_ld((int64_t)a, (int64_t)b, (int64_t)c, (int64_t)d);
	ref = (long double)(int64_t)a * (int64_t)b -
	      (long double)(int64_t)c * (int64_t)d;
	if (ABSL(ld - ref) > ABSL(ref) * 0x1p-50L + 0x1p-50L && !bad_ld++)
		diag("wide_sub_mul_ld(%lld, %lld, %lld, %lld)", (long long)a,
		     (long long)b, (long long)c, (long long)d);
}

int main(void)
{
	long n = 0;
	int i, j, k;

	add_edges();
	for (i = 0; i < nedges; i++)
		for (j = 0; j < nedges; j++)
			for (k = 0; k < nedges; k++) {
				one(edges[i], edges[j], edges[k], edges[(i + j) % nedges]);
				one(edges[i], edges[j], edges[k], edges[k]);
				n += 2;
			}
	for (i = 0; i < 1000000; i++, n++)
		one(rnd(), rnd(), rnd(), rnd());
	/* products that tie: a * b == c * d with other factors */
	for (i = 0; i < 100000; i++, n++) {
		uint64_t a = rnd() >> 33, b = rnd() >> 33, s = (rnd() % 7) + 1;

		one(a * s, b, a, b * s);
		one(-(a * s), b, a, -(b * s));
	}
	diag("%ld cases", n);
	ok(!bad_mul, "wide_mul_u64: the 128-bit product, as __int128's");
	ok(!bad_div, "wide_mul_div_u64: the quotient and whether it fits, as __int128's");
	ok(!bad_cmp, "wide_cmp_mul_s64: the sign of a * b - c * d, as __int128's");
	ok(!bad_ld, "wide_sub_mul_ld: a * b - c * d as a long double, within 2^-50");
	return done_testing();
}
