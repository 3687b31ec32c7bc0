// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * plain.c - the run of bytes that need no escaping (internal/plain.h).
 *
 * A byte is plain when it is 0x20..0x7e and not '"' or '\\'.  Vector
 * steps add 0x60 to each byte (wrapping): 0x20..0x7e become 0x80..0xde,
 * -128..-34 as signed bytes, and every other byte -33..127; so one
 * signed compare with -34 finds the bytes out of range, two compares
 * for equality the quote and the backslash.
 */
#include <string.h>

#include "internal/plain.h"
#include "internal/simd.h"

#if MTTD_SSE2
/* the constants of the vector steps, 32 bytes each (the SSE2 steps use
 * the first 16), taken from memory as operands: the compiler would
 * otherwise build each with a broadcast, and again after the loop */
static const uint8_t kv[4][32] __attribute__((aligned(32))) = {
	MTTD_REP32(0x60), MTTD_REP32((uint8_t)-34), MTTD_REP32('"'),
	MTTD_REP32('\\'),
};

/* bit i set: byte i of p[0..16) is not plain; k: kv */
static inline unsigned int bad16(const uint8_t *p, const uint8_t *k)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i r = _mm_cmpgt_epi8(_mm_add_epi8(x, _mm_load_si128(
					(const __m128i *)(const void *)k)),
				   _mm_load_si128(
					(const __m128i *)(const void *)(k + 32)));
	__m128i q = _mm_cmpeq_epi8(x, _mm_load_si128(
					(const __m128i *)(const void *)(k + 64)));
	__m128i b = _mm_cmpeq_epi8(x, _mm_load_si128(
					(const __m128i *)(const void *)(k + 96)));

	return (unsigned int)_mm_movemask_epi8(
		_mm_or_si128(r, _mm_or_si128(q, b)));
}

/* n >= 16 */
static size_t run16(const uint8_t *p, size_t n)
{
	const uint8_t *k = &kv[0][0];
	size_t i;
	unsigned int m;

	/* k's values unknown to the compiler: its loads stay loads */
	__asm__("" : "+r"(k));
	for (i = 0; i + 16 <= n; i += 16) {
		m = bad16(p + i, k);
		if (m)
			return i + (unsigned int)__builtin_ctz(m);
	}
	if (i == n)
		return n;
	/* the last 16: those before i among them are plain */
	m = bad16(p + n - 16, k);
	return m ? n - 16 + (unsigned int)__builtin_ctz(m) : n;
}
#endif

#if MTTD_AVX2_RT
#include <immintrin.h>

/* bit i set: byte i of p[0..32) is not plain; k: kv */
__attribute__((target("avx2")))
static inline unsigned int bad32(const uint8_t *p, const __m256i *k)
{
	__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
	__m256i r = _mm256_cmpgt_epi8(_mm256_add_epi8(x, k[0]), k[1]);
	__m256i q = _mm256_cmpeq_epi8(x, k[2]);
	__m256i b = _mm256_cmpeq_epi8(x, k[3]);

	return (unsigned int)_mm256_movemask_epi8(
		_mm256_or_si256(r, _mm256_or_si256(q, b)));
}

/* n >= 32 */
__attribute__((target("avx2")))
static size_t run32(const uint8_t *p, size_t n)
{
	const __m256i *k = (const __m256i *)(const void *)kv;
	size_t i;
	unsigned int m;

	/* k's values unknown to the compiler: its loads stay loads */
	__asm__("" : "+r"(k));
	for (i = 0; i + 32 <= n; i += 32) {
		m = bad32(p + i, k);
		if (m)
			return i + (unsigned int)__builtin_ctz(m);
	}
	if (i == n)
		return n;
	m = bad32(p + n - 32, k);
	return m ? n - 32 + (unsigned int)__builtin_ctz(m) : n;
}
#endif

size_t mttd__plain_run(const void *s, size_t n, int avx2)
{
	const uint8_t *p = s;
	size_t i = 0;

#if MTTD_AVX2_RT
	if (avx2 && n >= 32)
		return run32(p, n);
#else
	(void)avx2;
#endif
#if MTTD_SSE2
	if (n >= 16)
		return run16(p, n);
#endif
	while (i + 8 <= n) {
		const uint64_t ones = 0x0101010101010101ull;
		const uint64_t highs = 0x8080808080808080ull;
		uint64_t v, q, b;

		memcpy(&v, p + i, 8);
		q = v ^ (ones * '"');
		b = v ^ (ones * '\\');
		/* some byte below 0x20, above 0x7e, '"' or '\\' (exact
		 * for whether there is one; which one, the bytes say) */
		if (((v - ones * 0x20) & ~v & highs) |
		    (((v + ones * 1) | v) & highs) |
		    ((q - ones) & ~q & highs) | ((b - ones) & ~b & highs))
			break;
		i += 8;
	}
	while (i < n && mttd__plain_byte(p[i]))
		i++;
	return i;
}
