// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * crc.c - CRC-16/CCITT-FALSE, CRC-32 and CRC-32C (see wire/crc.h).  The
 * byte tables are computed by the preprocessor: constant data, nothing
 * to initialise at run time, safe from any context on a device.  Plain
 * C for every target; on x86-64 hosts the build defines WIRE_CRC32C_X86
 * and crc32c_x86.c provides wire_crc32c(), the CPU's crc32 instruction
 * when it has one, this file's table otherwise.
 */
#include "wire/crc.h"

#ifdef __GNUC__
#define NO_INSTR __attribute__((no_instrument_function))
#else
#define NO_INSTR
#endif

/* R256(F): F(0), F(1), ... F(255), a table's initialiser */
#define R4(F, n) F(n), F((n) + 1), F((n) + 2), F((n) + 3)
#define R16(F, n) R4(F, n), R4(F, (n) + 4), R4(F, (n) + 8), R4(F, (n) + 12)
#define R64(F, n) R16(F, n), R16(F, (n) + 16), R16(F, (n) + 32), \
	R16(F, (n) + 48)
#define R256(F) R64(F, 0), R64(F, 64), R64(F, 128), R64(F, 192)

/* reflected CRCs: one bit, then one byte (eight bits) of polynomial P */
#define RB1(P, c) (((c) >> 1) ^ ((P) & (0u - ((c) & 1u))))
#define RB8(P, c) RB1(P, RB1(P, RB1(P, RB1(P, RB1(P, RB1(P, RB1(P, \
	RB1(P, (uint32_t)(c)))))))))
#define CRC32_BYTE(n) RB8(0xedb88320u, n)
#define CRC32C_BYTE(n) RB8(0x82f63b78u, n)

/* CRC-16/CCITT-FALSE: most significant bit first, the byte in the top */
#define FB1(c) ((((c) << 1) ^ (0x1021u & (0u - (((c) >> 15) & 1u)))) & 0xffffu)
#define FB8(c) FB1(FB1(FB1(FB1(FB1(FB1(FB1(FB1((uint32_t)(c) << 8))))))))
#define CRC16_BYTE(n) (uint16_t)FB8(n)

static const uint16_t crc16_table[256] = { R256(CRC16_BYTE) };
static const uint32_t crc32_table[256] = { R256(CRC32_BYTE) };
static const uint32_t crc32c_table[256] = { R256(CRC32C_BYTE) };

NO_INSTR uint16_t wire_crc16_ccitt(uint16_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		crc = (uint16_t)(crc << 8) ^ crc16_table[(crc >> 8) ^ *b++];
	return crc;
}

/* a reflected table CRC over n bytes, XORs inside */
static NO_INSTR uint32_t reflected(const uint32_t *table, uint32_t crc,
				   const uint8_t *b, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

NO_INSTR uint32_t wire_crc32(uint32_t crc, const void *p, size_t n)
{
	return reflected(crc32_table, crc, p, n);
}

NO_INSTR uint32_t wire_crc32c_table(uint32_t crc, const void *p, size_t n)
{
	return reflected(crc32c_table, crc, p, n);
}

#ifndef WIRE_CRC32C_X86
NO_INSTR uint32_t wire_crc32c(uint32_t crc, const void *p, size_t n)
{
	return reflected(crc32c_table, crc, p, n);
}
#endif
