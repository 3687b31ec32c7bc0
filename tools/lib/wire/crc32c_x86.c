// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * crc32c_x86.c - CRC-32C with the SSE4.2 crc32 instruction (x86-64
 * hosts only: the build defines WIRE_CRC32C_X86 there; crc.c, plain C,
 * keeps the table for every other target and as the fallback here).
 *
 * wire_crc32c() is a GNU indirect function: its resolver runs once, when
 * the program is loaded, asks CPUID (leaf 1, ECX bit 20) and binds the
 * symbol to the instruction or to the table.  No state of ours is kept.
 */
#include "wire/crc.h"

#ifdef WIRE_CRC32C_X86
#include <cpuid.h>
#include <nmmintrin.h>
#include <string.h>

typedef uint32_t crc_fn(uint32_t crc, const void *p, size_t n);

/* as crc.c's: never instrumented (-finstrument-functions) */
#define NO_INSTR __attribute__((no_instrument_function))
/* runs before the sanitizers are set up, when they are used */
#define EARLY NO_INSTR __attribute__((no_sanitize("address", "undefined")))

EARLY int wire_crc32c_sse42_ok(void)
{
	unsigned int a, b, c, d;

	/* leaf 1 is there on every x86-64 CPU; the macro, not
	 * __get_cpuid(), which a sanitizer would instrument */
	__cpuid(1, a, b, c, d);
	(void)a;
	(void)b;
	(void)d;
	return (c & bit_SSE4_2) != 0;
}

NO_INSTR __attribute__((target("sse4.2")))
uint32_t wire_crc32c_sse42(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t c = ~crc;

	for (; n >= 8; b += 8, n -= 8) {
		uint64_t v;

		memcpy(&v, b, sizeof(v));
		c = _mm_crc32_u64(c, v);
	}
	if (n >= 4) {
		uint32_t v;

		memcpy(&v, b, sizeof(v));
		c = _mm_crc32_u32((uint32_t)c, v);
		b += 4;
		n -= 4;
	}
	while (n--)
		c = _mm_crc32_u8((uint32_t)c, *b++);
	return ~(uint32_t)c;
}

EARLY __attribute__((used)) static crc_fn *resolve_crc32c(void)
{
	return wire_crc32c_sse42_ok() ? wire_crc32c_sse42 : wire_crc32c_table;
}

uint32_t wire_crc32c(uint32_t crc, const void *p, size_t n)
	__attribute__((ifunc("resolve_crc32c")));
#else
/* another target: the table in crc.c is wire_crc32c() */
typedef int wire_crc32c_x86_unused;
#endif
