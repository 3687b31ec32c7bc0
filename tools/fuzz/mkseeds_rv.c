// SPDX-License-Identifier: GPL-2.0
/*
 * mkseeds_rv.c - writes the seed files of fuzz/corpus-rv/ for fuzz_rv
 * ("make -C tools seeds"): swstm-style RISC-V encapsulation streams for a
 * few srcID / timestamp widths, each prefixed by the two width bytes
 * fuzz_rv reads, with periodic syncs, every packet kind, a loss, a bad
 * packet and a cut-off end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rvenc.h"

static int write_seed(const char *dir, const char *name,
		      const struct rvenc *e)
{
	char path[4096];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	bad = fwrite(e->buf, 1, e->len, f) != e->len;
	return fclose(f) || bad ? -1 : 0;
}

static void stream(struct rvenc *e, unsigned int w, unsigned int t,
		   int bad, int cut)
{
	static const char text[] = "seed text over riscv encapsulation";
	uint64_t ts = 5000;
	unsigned int i;

	rvenc_init(e, w, t);
	rvenc_byte(e, (uint8_t)w);	/* fuzz_rv: srcID bits = b0 % 17 */
	rvenc_byte(e, (uint8_t)t);	/* timestamp bytes = b1 % 9 */
	for (i = 0; i < 24; i++) {
		unsigned int m = i % 3 ? 1 : 300, c = i * 37 % 1000;
		uint64_t v = 0;

		if (i % 8 == 0)
			rvenc_sync(e);
		memcpy(&v, text + i % 24, 8);
		ts += 17 * i + 3;
		rvenc_packet(e, RVK_DATA, 0, 1, m, c, v, 8, ts);
		rvenc_packet(e, RVK_DATA, 0, 0, m, c, v & 0xffff, 2, 0);
		rvenc_packet(e, RVK_DATA, 1, 0, m, c, v & 0xff, 1, 0);
		if (i == 5)
			rvenc_packet(e, RVK_FLAG, 0, 1, m, c, 0, 0, ts + 1);
		if (i == 9)
			rvenc_packet(e, RVK_GERR, 0, 0, 0, 0, 3, 1, 0);
		if (i == 11)
			rvenc_packet(e, RVK_TRIG, 0, 1, m, c, 0x42, 1, ts + 2);
		if (i == 12)
			rvenc_packet(e, RVK_MERR, 0, 0, m, 0, 1, 1, 0);
		if (bad && i == 14) {
			uint8_t pl[2] = { 7, 0 };

			rvenc_raw(e, 0, 0, 0, 0, pl, 16);
		}
	}
	if (cut)
		e->len -= 3;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		unsigned int w, t;
		int bad, cut;
	} seeds[] = {
		{ "w16-t8.rv", 16, 8, 0, 0 },
		{ "w8-t0.rv", 8, 0, 0, 0 },
		{ "w4-t1.rv", 4, 1, 0, 0 },
		{ "w0-t2.rv", 0, 2, 1, 0 },
		{ "w11-t3-cut.rv", 11, 3, 0, 1 },
	};
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: mkseeds_rv DIR\n");
		return 1;
	}
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct rvenc e;

		stream(&e, seeds[i].w, seeds[i].t, seeds[i].bad,
		       seeds[i].cut);
		if (e.oom || write_seed(argv[1], seeds[i].name, &e)) {
			fprintf(stderr, "mkseeds_rv: %s: cannot write\n",
				seeds[i].name);
			return 1;
		}
		rvenc_free(&e);
	}
	return 0;
}
