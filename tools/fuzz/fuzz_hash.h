/* SPDX-License-Identifier: GPL-2.0 */
/* FNV-1a folding of decoder output, shared by the fuzz targets. */
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

#endif
