/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stp_ts.h - STPv2 timestamp arithmetic (internal).
 *
 * A timestamped packet carries a length nibble L and then L' nibbles
 * (L 0..12 -> L' = L, 0xD -> 14, 0xE -> 16, 0xF is an error).  How they
 * update the previous timestamp depends on the last VERSION packet:
 *   3: natural binary, the nibbles replace the low 4*L' bits;
 *   4: Gray code, the same replacement done on the Gray-coded value;
 *   2: natural binary delta, the nibbles are added.
 * L' = 0 leaves the timestamp unchanged in every format.
 */
#ifndef MTTD_STP_TS_H
#define MTTD_STP_TS_H

#include <stdint.h>

#include "nibble.h"

#define MTTD_TS_LEN_BAD 0xff

/* nibble count for each length code; MTTD_TS_LEN_BAD for 0xF */
extern const uint8_t mttd__ts_len[16];

static inline uint64_t mttd__gray2bin(uint64_t g)
{
	g ^= g >> 1;
	g ^= g >> 2;
	g ^= g >> 4;
	g ^= g >> 8;
	g ^= g >> 16;
	g ^= g >> 32;
	return g;
}

static inline uint64_t mttd__bin2gray(uint64_t b)
{
	return b ^ (b >> 1);
}

/* low 4*n bits set, n = 0..16 */
static inline uint64_t mttd__nibmask(unsigned int n)
{
	return n >= 16 ? ~0ULL : (1ULL << (4 * n)) - 1;
}

static inline uint64_t mttd__ts_merge(uint64_t prev, uint64_t raw,
				      unsigned int n, unsigned int version)
{
	uint64_t m = mttd__nibmask(n);

	switch (version) {
	case 2:
		return prev + raw;
	case 4:
		return mttd__gray2bin((mttd__bin2gray(prev) & ~m) | raw);
	default:
		return (prev & ~m) | raw;
	}
}

/*
 * The timestamp-coded field at nibble *q (a length nibble, then that many
 * nibbles): sets *n and *raw and moves *q past it.  Returns 0 if the
 * length nibble is 0xF.  Reads up to 9 bytes from byte (*q + 1) / 2.
 */
static inline int mttd__ts_field(const uint8_t *p, uint64_t *q,
				 unsigned int *n, uint64_t *raw)
{
	*n = mttd__ts_len[mttd__nib(p, *q)];
	if (*n == MTTD_TS_LEN_BAD)
		return 0;
	*raw = mttd__take(mttd__ld16(p, *q + 1), *n);
	*q += 1 + *n;
	return 1;
}

#endif
