/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spec_crc16.h - the MiniProfiler's response CRC as the protocol text
 * states it ("CRC16-CCITT: Polynomial 0x1021, initial value 0xFFFF",
 * most significant bit first, no final XOR), bit by bit, written apart
 * from the library's (tools/lib/wire/crc.c) for the tests' own device
 * emulator and response checks.
 */
#ifndef SPEC_CRC16_H
#define SPEC_CRC16_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t spec_crc16(const uint8_t *p, size_t n)
{
	uint16_t c = 0xffff;
	int b;

	while (n--) {
		c ^= (uint16_t)(*p++ << 8);
		for (b = 0; b < 8; b++)
			c = c & 0x8000 ? (uint16_t)(c << 1 ^ 0x1021) :
					 (uint16_t)(c << 1);
	}
	return c;
}

#endif
