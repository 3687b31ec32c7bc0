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
 * The implementations behind wire_crc32c(), for the tests and the
 * benchmark.  wire_crc32c_table(): the byte table, on every target.
 * wire_crc32c_hw_name(): the CPU instruction this build has a path for
 * ("SSE4.2 crc32" on x86-64, "ARMv8 CRC32C" on arm64 hosts with glibc),
 * NULL where it has none (the firmware, other targets: the table only).
 * wire_crc32c_hw(): that path where the running CPU has the instruction,
 * NULL otherwise.  wire_crc32c_impl(): the one wire_crc32c() is bound
 * to (the instruction when the CPU has it, else the table), chosen once
 * when the program or library is loaded (crc32c_hw.c says how).
 */
typedef uint32_t wire_crc32c_fn(uint32_t crc, const void *p, size_t n);
uint32_t wire_crc32c_table(uint32_t crc, const void *p, size_t n);
const char *wire_crc32c_hw_name(void);
wire_crc32c_fn *wire_crc32c_hw(void);
wire_crc32c_fn *wire_crc32c_impl(void);

#endif
