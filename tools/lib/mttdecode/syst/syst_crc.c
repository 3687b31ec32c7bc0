// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_crc.c - CRC-32C (Castagnoli): reflected polynomial 0x82F63B78,
 * initial value and final XOR 0xFFFFFFFF, as SyS-T messages carry it.
 * The byte table is computed by the preprocessor (constant data, no
 * initialisation at run time).
 */
#include <stdint.h>

#include "mttdecode/syst.h"

#define POLY 0x82f63b78u
/* one bit step of the reflected CRC */
#define B1(c) (((c) >> 1) ^ (POLY & (0u - ((c) & 1u))))
#define B8(c) B1(B1(B1(B1(B1(B1(B1(B1((uint32_t)(c)))))))))
#define R4(n) B8(n), B8((n) + 1), B8((n) + 2), B8((n) + 3)
#define R16(n) R4(n), R4((n) + 4), R4((n) + 8), R4((n) + 12)
#define R64(n) R16(n), R16((n) + 16), R16((n) + 32), R16((n) + 48)

static const uint32_t table[256] = {
	R64(0), R64(64), R64(128), R64(192)
};

uint32_t mttd_crc32c(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t c = 0xffffffffu;

	while (n--)
		c = table[(c ^ *b++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}
