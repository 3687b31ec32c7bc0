// SPDX-License-Identifier: GPL-2.0
/*
 * crc.c - CRC-32C throughput of each implementation behind wire_crc32c()
 * (libwire's wire/crc.h, internal to the tools): the byte table, the
 * CPU's instruction when the build has a path for it and the CPU has it
 * (SSE4.2 crc32, ARMv8 CRC32C), and wire_crc32c() itself (the one the
 * loader bound), each as a ratio to the table measured in the same round
 * (CPU time, a fixed amount of work): the median over the rounds and
 * their range.  Pieces of 64 bytes (a SyS-T message's size) and of
 * 4 KiB.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "wire/crc.h"

#define CRC_ROUNDS 9
#define CRC_BYTES (32u << 20)	/* per implementation and round */
#define CRC_BUF (256u << 10)	/* the data, fed again and again */

struct crc_impl {
	const char *name;
	wire_crc32c_fn *f;
};

/* CRC_BYTES through f in pieces of size, each from the CRC so far: CPU
 * seconds; the CRC goes to *sink, so nothing is left out */
static double crc_time(wire_crc32c_fn *f, const uint8_t *buf, size_t size,
		       uint32_t *sink)
{
	double c0 = cpu_now();
	uint32_t c = 0;
	size_t done, at;

	for (done = 0; done < CRC_BYTES; done += CRC_BUF)
		for (at = 0; at < CRC_BUF; at += size)
			c = f(c, buf + at, size);
	*sink ^= c;
	return cpu_now() - c0;
}

static void crc_size(const struct crc_impl *v, int nv, const uint8_t *buf,
		     size_t size)
{
	double t[3][CRC_ROUNDS], ratio[3][CRC_ROUNDS];
	uint32_t sink = 0;
	int r, w;

	printf("CRC-32C, %u MiB in pieces of %zu B, %d rounds (CPU time; "
	       "ratio to the table of the same round: median, range):\n",
	       CRC_BYTES >> 20, size, CRC_ROUNDS);
	for (r = 0; r < CRC_ROUNDS; r++)
		for (w = 0; w < nv; w++)
			t[w][r] = crc_time(v[w].f, buf, size, &sink);
	for (w = 0; w < nv; w++) {
		double lo = 1e9, hi = 0, mbs[CRC_ROUNDS];

		for (r = 0; r < CRC_ROUNDS; r++) {
			ratio[w][r] = t[0][r] / t[w][r];
			mbs[r] = CRC_BYTES / 1e6 / t[w][r];
			lo = ratio[w][r] < lo ? ratio[w][r] : lo;
			hi = ratio[w][r] > hi ? ratio[w][r] : hi;
		}
		printf("  %-28s %7.0f MB/s  x%.2f (x%.2f to x%.2f)\n",
		       v[w].name, median(mbs, CRC_ROUNDS),
		       median(ratio[w], CRC_ROUNDS), lo, hi);
	}
	if (sink == 0x5a5a5a5au)
		printf("  (sink %08x)\n", (unsigned int)sink);
}

int crc_bench(void)
{
	const char *hw_name = wire_crc32c_hw_name();
	wire_crc32c_fn *hw = wire_crc32c_hw();
	struct crc_impl v[3];
	uint8_t *buf = malloc(CRC_BUF);
	int nv = 0;
	size_t i;

	if (!buf)
		return -1;
	for (i = 0; i < CRC_BUF; i++)
		buf[i] = (uint8_t)rnd();
	v[nv++] = (struct crc_impl){ "table", wire_crc32c_table };
	if (hw)
		v[nv++] = (struct crc_impl){ hw_name, hw };
	else
		printf("CRC-32C: %s%s: the table only\n", hw_name ? hw_name :
		       "no instruction path in this build",
		       hw_name ? " not on this CPU" : "");
	v[nv++] = (struct crc_impl){ wire_crc32c_impl() == hw && hw ?
				     "wire_crc32c (bound to it)" :
				     "wire_crc32c (the table)", wire_crc32c };
	crc_size(v, nv, buf, 64);
	crc_size(v, nv, buf, 4096);
	free(buf);
	return 0;
}
