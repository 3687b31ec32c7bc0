/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simd.h - whether the SIMD fast paths are compiled in (internal).
 * MTTD_SSE2 is 1 when the compiler targets SSE2 and the build did not ask
 * for the portable fallbacks with -DMTTD_NO_SIMD (which is how
 * tests/host/nosimd.t tests them on x86-64), else 0.  Every SIMD path
 * tests this one macro, so one flag switches them all.
 */
#ifndef MTTD_SIMD_H
#define MTTD_SIMD_H

#if defined(__SSE2__) && !defined(MTTD_NO_SIMD)
#define MTTD_SSE2 1
#include <emmintrin.h>
#else
#define MTTD_SSE2 0
#endif

/*
 * MTTD_AVX2_RT: paths in AVX2 (target attributes) that the code takes
 * when the CPU has it, which it asks at run time (__builtin_cpu_supports,
 * GCC and clang on x86-64); the SSE2 paths are the fallback.  Off with
 * MTTD_NO_SIMD too.
 */
#if MTTD_SSE2 && defined(__x86_64__)
#define MTTD_AVX2_RT 1
#else
#define MTTD_AVX2_RT 0
#endif

/* the initializer of 32 bytes of c: a vector constant kept in a table */
#define MTTD_REP32(c) { c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, \
			c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c }

#endif
