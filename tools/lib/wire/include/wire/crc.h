/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * wire/crc.h - the CRCs that the wire formats carry, one implementation
 * of each (CRC-16 also four bytes at a time, for a device's hot path),
 * for the host libraries and the device side alike.
 *
 * Each takes the CRC so far and continues it over N more bytes, so a
 * message can be fed in pieces; the first call passes the start value
 * given below.  Check values (the CRC of the nine bytes "123456789"):
 * tests/host/crc.t.
 */
#ifndef WIRE_CRC_H
#define WIRE_CRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * CRC-16/CCITT-FALSE (polynomial 0x1021, most significant bit first,
 * start 0xffff, no final XOR; check 0x29b1): MTT frames, MiniProfiler
 * responses.
 */
#define WIRE_CRC16_START 0xffffu
uint16_t wire_crc16_ccitt(uint16_t crc, const void *p, size_t n);
/*
 * The same CRC four bytes at a time, for a device's hot path (libmttfw's
 * crc16 option): about half the instructions of the byte table (a
 * Cortex-M4 at -O1: 17 a word against 8 a byte), for three more tables
 * of 512 bytes (1.5 KB of ROM, linked only where it is called).
 */
uint16_t wire_crc16_ccitt_x4(uint16_t crc, const void *p, size_t n);

/*
 * CRC-32 (ISO-HDLC, as zlib's: reflected polynomial 0xedb88320, start
 * and final XOR 0xffffffff; check 0xcbf43926): the MiniProfiler's CRC
 * of .text.  The XORs are inside: start with 0.
 */
uint32_t wire_crc32(uint32_t crc, const void *p, size_t n);

/*
 * CRC-32C (Castagnoli: reflected polynomial 0x82f63b78, start and final
 * XOR 0xffffffff; check 0xe3069283): SyS-T messages.  The XORs are
 * inside: start with 0.
 */
uint32_t wire_crc32c(uint32_t crc, const void *p, size_t n);

/*
 * The implementations behind wire_crc32c(), for tests: the byte table
 * (every target); on x86-64 hosts the SSE4.2 crc32 instruction (only
 * where wire_crc32c_sse42_ok() says the CPU has it), which
 * wire_crc32c() takes when it can (chosen once, when the program is
 * loaded).
 */
uint32_t wire_crc32c_table(uint32_t crc, const void *p, size_t n);
int wire_crc32c_sse42_ok(void);
uint32_t wire_crc32c_sse42(uint32_t crc, const void *p, size_t n);

#endif
