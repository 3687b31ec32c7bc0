/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz targets: FNV-1a folding of decoder output, and their
 * feeds, whole or in pieces.
 */
#ifndef FUZZ_HASH_H
#define FUZZ_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Feed data[0..size) to @feed(@ctx, piece, n): whole (@mode 0), in pieces
 * of 1..@max bytes (mode 1) or byte by byte (mode 2), each piece copied
 * into a buffer of its own (so ASan sees a read past it).  A feed that
 * returns non-zero aborts the run.
 */
static inline void fuzz_feed(int mode, size_t max, const uint8_t *data,
			     size_t size, void *ctx,
			     int (*feed)(void *ctx, const uint8_t *p, size_t n))
{
	uint64_t seed = size * 0x9e3779b97f4a7c15ULL + 1;
	size_t off = 0;

	if (mode == 0) {
		if (feed(ctx, data, size))
			abort();
		return;
	}
	while (off < size) {
		size_t n = mode == 1 ? fuzz_chunk(&seed, max, size - off) : 1;
		uint8_t *copy = malloc(n);

		if (!copy)
			abort();
		memcpy(copy, data + off, n);
		if (feed(ctx, copy, n))
			abort();
		free(copy);
		off += n;
	}
}

#endif
