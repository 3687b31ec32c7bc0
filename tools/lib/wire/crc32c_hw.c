// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * crc32c_hw.c - CRC-32C with the CPU's instruction: SSE4.2 crc32 on
 * x86-64, the ARMv8 CRC32C instructions on arm64, eight bytes a step.
 * Built only where lib/wire/Build.mk defines WIRE_CRC32C_HW (x86-64 and
 * arm64 hosts with glibc); crc.c, plain C, keeps the table for every
 * other target (the firmware's) and as the fallback here.
 *
 * wire_crc32c() is a GNU indirect function: its resolver runs once, when
 * the program or libmttdecode.so is loaded (relocated), and binds the
 * symbol to the instruction or to the table.  No state of ours is kept:
 * the binding is the loader's relocation, as for any other function.
 * The resolver calls nothing (CPUID on x86-64; on arm64 glibc hands it
 * AT_HWCAP), so it is safe however early it runs: in a static program
 * glibc's start-up applies the IRELATIVE relocations after reading the
 * auxiliary vector and the CPU's features, before any constructor; in a
 * shared library or a dynamic program ld.so runs it while relocating,
 * before the sanitizers are set up when they are used.
 */
#include "wire/crc.h"

#ifdef WIRE_CRC32C_HW
#include <string.h>

/* as crc.c's: never instrumented (-finstrument-functions) */
#define NO_INSTR __attribute__((no_instrument_function))
/* runs before the sanitizers are set up, when they are used */
#define EARLY NO_INSTR __attribute__((no_sanitize("address", "undefined")))

#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>

#define HW_NAME "SSE4.2 crc32"
#define HW_TARGET __attribute__((target("sse4.2")))
#define CRC_U64(c, v) (uint32_t)_mm_crc32_u64(c, v)
#define CRC_U32(c, v) _mm_crc32_u32(c, v)
#define CRC_U8(c, v) _mm_crc32_u8(c, v)
/* what the resolver is given: nothing here */
#define HWCAP_NOW() 0ul

/* CPUID leaf 1 (there on every x86-64 CPU), ECX bit 20; the macro, not
 * __get_cpuid(), which a sanitizer would instrument */
static EARLY int cpu_has(unsigned long hwcap)
{
	unsigned int a, b, c, d;

	(void)hwcap;
	__cpuid(1, a, b, c, d);
	(void)a;
	(void)b;
	(void)d;
	return (c & bit_SSE4_2) != 0;
}
#elif defined(__aarch64__)
#include <arm_acle.h>
#include <sys/auxv.h>

#define HW_NAME "ARMv8 CRC32C"
#ifdef __clang__
/* clang's <arm_acle.h> hides __crc32c* without -march=...+crc: its
 * builtins, which the target attribute allows */
#define HW_TARGET __attribute__((target("crc")))
#define CRC_U64(c, v) __builtin_arm_crc32cd(c, v)
#define CRC_U32(c, v) __builtin_arm_crc32cw(c, v)
#define CRC_U8(c, v) __builtin_arm_crc32cb(c, v)
#else
#define HW_TARGET __attribute__((target("+crc")))
#define CRC_U64(c, v) __crc32cd(c, v)
#define CRC_U32(c, v) __crc32cw(c, v)
#define CRC_U8(c, v) __crc32cb(c, v)
#endif
#define HWCAP_NOW() getauxval(AT_HWCAP)

/* AT_HWCAP's CRC32 bit: the CRC32 and CRC32C instructions */
static EARLY int cpu_has(unsigned long hwcap)
{
	return (hwcap & HWCAP_CRC32) != 0;
}
#else
#error "WIRE_CRC32C_HW: only for x86-64 and arm64 (lib/wire/Build.mk)"
#endif

/* only called where cpu_has() says the CPU has the instruction */
static NO_INSTR HW_TARGET uint32_t crc32c_hw(uint32_t crc, const void *p,
					    size_t n)
{
	const uint8_t *b = p;
	uint32_t c = ~crc;

	for (; n >= 8; b += 8, n -= 8) {
		uint64_t v;

		memcpy(&v, b, sizeof(v));
		c = CRC_U64(c, v);
	}
	if (n >= 4) {
		uint32_t v;

		memcpy(&v, b, sizeof(v));
		c = CRC_U32(c, v);
		b += 4;
		n -= 4;
	}
	while (n--)
		c = CRC_U8(c, *b++);
	return ~c;
}

static EARLY wire_crc32c_fn *pick(unsigned long hwcap)
{
	return cpu_has(hwcap) ? crc32c_hw : wire_crc32c_table;
}

#if defined(__x86_64__)
EARLY __attribute__((used)) static wire_crc32c_fn *resolve_crc32c(void)
{
	return pick(0);
}
#else
/* glibc passes AT_HWCAP (with _IFUNC_ARG_HWCAP) to arm64 resolvers */
EARLY __attribute__((used)) static wire_crc32c_fn *
resolve_crc32c(uint64_t hwcap)
{
	return pick((unsigned long)hwcap);
}
#endif

uint32_t wire_crc32c(uint32_t crc, const void *p, size_t n)
	__attribute__((ifunc("resolve_crc32c")));

const char *wire_crc32c_hw_name(void)
{
	return HW_NAME;
}

wire_crc32c_fn *wire_crc32c_hw(void)
{
	return cpu_has(HWCAP_NOW()) ? crc32c_hw : NULL;
}

wire_crc32c_fn *wire_crc32c_impl(void)
{
	return pick(HWCAP_NOW());
}
#else
/* another target: crc.c is wire_crc32c() and says there is no other */
typedef int wire_crc32c_hw_unused;
#endif
