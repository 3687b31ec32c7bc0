// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * crc.c - CRC-16/CCITT-FALSE, CRC-32 and CRC-32C (see wire/crc.h).  The
 * tables are computed by the preprocessor: constant data, nothing
 * to initialise at run time, safe from any context on a device.  Plain
 * C for every target; on x86-64 and arm64 hosts with glibc the build
 * defines WIRE_CRC32C_HW and crc32c_hw.c provides wire_crc32c(), the
 * CPU's CRC-32C instruction when it has one, this file's table otherwise.
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

/* CRC-16/CCITT-FALSE: most significant bit first, the byte in the top;
 * FS8: the register after eight bits of zeros, FB8: after byte c */
#define FB1(c) ((((c) << 1) ^ (0x1021u & (0u - (((c) >> 15) & 1u)))) & 0xffffu)
#define FS8(c) FB1(FB1(FB1(FB1(FB1(FB1(FB1(FB1((uint32_t)(c)))))))))
#define FB8(c) FS8((uint32_t)(c) << 8)
#define CRC16_BYTE(n) (uint16_t)FB8(n)

/*
 * Four bytes at a time: table k holds the register after a byte n then
 * k zero bytes (starting from 0).  The CRC is linear, so an entry is the
 * XOR of the values of n's set bits; each bit's value after k zero bytes
 * is an enum constant computed from the one after k - 1 (the macros stay
 * small: a bit is eight steps of FB1, not 8 * (k + 1)).
 */
#define BITS8(P, F) P##0 = F(0), P##1 = F(1), P##2 = F(2), P##3 = F(3), \
	P##4 = F(4), P##5 = F(5), P##6 = F(6), P##7 = F(7)
#define K0(i) FB8(1u << (i))
#define K1(i) FS8(K0_##i)
#define K2(i) FS8(K1_##i)
#define K3(i) FS8(K2_##i)
enum { BITS8(K0_, K0) };
enum { BITS8(K1_, K1) };
enum { BITS8(K2_, K2) };
enum { BITS8(K3_, K3) };
#define KBIT(P, n, i) (((n) >> (i) & 1) ? (unsigned int)P##i : 0u)
#define KBYTE(P, n) (uint16_t)(KBIT(P, n, 0) ^ KBIT(P, n, 1) ^ \
	KBIT(P, n, 2) ^ KBIT(P, n, 3) ^ KBIT(P, n, 4) ^ KBIT(P, n, 5) ^ \
	KBIT(P, n, 6) ^ KBIT(P, n, 7))
#define CRC16_Z1(n) KBYTE(K1_, n)
#define CRC16_Z2(n) KBYTE(K2_, n)
#define CRC16_Z3(n) KBYTE(K3_, n)

static const uint16_t crc16_table[256] = { R256(CRC16_BYTE) };
static const uint16_t crc16_z1[256] = { R256(CRC16_Z1) };
static const uint16_t crc16_z2[256] = { R256(CRC16_Z2) };
static const uint16_t crc16_z3[256] = { R256(CRC16_Z3) };

/* four bytes in stream order, the first in the top */
static inline NO_INSTR uint32_t be32_at(const uint8_t *b)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t v;

	__builtin_memcpy(&v, b, 4);
	return __builtin_bswap32(v);
#else
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
#endif
}

static const uint32_t crc32_table[256] = { R256(CRC32_BYTE) };
static const uint32_t crc32c_table[256] = { R256(CRC32C_BYTE) };

NO_INSTR uint16_t wire_crc16_ccitt(uint16_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		crc = (uint16_t)(crc << 8) ^ crc16_table[(crc >> 8) ^ *b++];
	return crc;
}

NO_INSTR uint16_t wire_crc16_ccitt_x4(uint16_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t c = crc;

	/* the register's two bytes meet the first two of each four; each
	 * byte of the sum then goes through the table of the zero bytes
	 * that follow it in the four */
	for (; n >= 4; n -= 4, b += 4) {
		uint32_t x = c << 16 ^ be32_at(b);

		c = (uint32_t)crc16_z3[x >> 24] ^ crc16_z2[(x >> 16) & 0xff] ^
		    crc16_z1[(x >> 8) & 0xff] ^ crc16_table[x & 0xff];
	}
	return wire_crc16_ccitt((uint16_t)c, b, n);
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

#ifndef WIRE_CRC32C_HW
/* no instruction path in this build: the table is wire_crc32c() */
NO_INSTR uint32_t wire_crc32c(uint32_t crc, const void *p, size_t n)
{
	return reflected(crc32c_table, crc, p, n);
}

const char *wire_crc32c_hw_name(void)
{
	return NULL;
}

wire_crc32c_fn *wire_crc32c_hw(void)
{
	return NULL;
}

wire_crc32c_fn *wire_crc32c_impl(void)
{
	return wire_crc32c_table;
}
#endif
