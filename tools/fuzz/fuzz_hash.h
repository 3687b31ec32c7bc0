/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz targets: FNV-1a folding of decoder output, and the
 * piece sizes of their chunked feeds.
 */
#ifndef FUZZ_HASH_H
#define FUZZ_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline void fuzz_mix(uint64_t *h, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ULL;
}

static inline void fuzz_mix64(uint64_t *h, uint64_t v)
{
	fuzz_mix(h, &v, sizeof(v));
}

/*
 * The size of the next piece of a chunked feed: one xorshift64 step of
 * *@seed, 1 + that modulo @max, at most @left.
 */
static inline size_t fuzz_chunk(uint64_t *seed, size_t max, size_t left)
{
	size_t n;

	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	n = 1 + *seed % max;
	return n < left ? n : left;
}

#endif
