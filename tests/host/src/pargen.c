// SPDX-License-Identifier: GPL-2.0
/*
 * pargen.c - a raw STP capture with everything that makes decoding a
 * piece depend on what came before, for par.t (mttdecode -j against -j1):
 * ASYNC/VERSION/FREQ every 4 KiB (FREQ changing now and then, VERSION 2,
 * 3 and 4 in turn), messages of 1..300 bytes on 32 channels of 4 masters
 * ended by FLAG, a marked packet or not at all, a message kept open over
 * hundreds of KiB, GERR and MERR, USER, TIME, TRIG, NULL runs, packets
 * cut short (a lost piece of stream), garbage (loss of sync, then resync),
 * and a last packet cut by the end of the file.
 *
 * usage: pargen FILE BYTES SEED
 */
#include <stdio.h>
#include <stdlib.h>

#include "mttdecode/stp.h"
#include "stpenc.h"

static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static uint64_t rnd64(void)
{
	return (uint64_t)rnd() << 32 | rnd();
}

static const unsigned int dn[4] = {
	MTTD_OP_D8, MTTD_OP_D16, MTTD_OP_D32, MTTD_OP_D64
};
static const unsigned int dnts[4] = {
	MTTD_OP_D8TS, MTTD_OP_D16TS, MTTD_OP_D32TS, MTTD_OP_D64TS
};
static const unsigned int dnm[4] = {
	MTTD_OP_D8M, MTTD_OP_D16M, MTTD_OP_D32M, MTTD_OP_D64M
};

static void message(struct stpenc *e, unsigned int len, uint64_t ts)
{
	unsigned int end = rnd() % 8;	/* 0..5 FLAG, 6 marked, 7 open */
	int first = 1;

	while (len) {
		unsigned int k = len >= 8 ? 3 : len >= 4 ? 2 : len >= 2 ? 1 : 0;
		uint64_t v = rnd64() & (k == 3 ? ~0ULL : (1ULL << (8u << k)) - 1);
		unsigned int op = first ? dnts[k] : dn[k];

		len -= 1u << k;
		if (!len && end == 6 && !first)
			op = dnm[k];
		stpenc_packet(e, op, v, 0, 0, ts, -1);
		first = 0;
	}
	if (end < 6)
		stpenc_packet(e, MTTD_OP_FLAG, 0, 0, 0, 0, 0);
}

static void sync_block(struct stpenc *e, unsigned int *m, unsigned int *c,
		       unsigned int n)
{
	stpenc_pad(e);
	stpenc_async(e);
	/* the timestamp format changes every 64 blocks */
	e->version = 2 + (n / 64) % 3;
	stpenc_packet(e, MTTD_OP_VERSION, e->version, 0, 0, 0, 0);
	stpenc_packet(e, MTTD_OP_FREQ, 1000000000u + (n / 100) * 1000, 0, 0,
		      0, 0);
	*m = *c = 0x10000;
	e->ts = 0;
}

int main(int argc, char **argv)
{
	struct stpenc e;
	uint64_t ts = 5000, next_sync = 0, open_until = 0;
	unsigned int m = 0, c = 0, blocks = 0;
	size_t bytes;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: pargen FILE BYTES SEED\n");
		return 2;
	}
	bytes = strtoul(argv[2], NULL, 0);
	rng = strtoull(argv[3], NULL, 0) * 0x9e3779b97f4a7c15ULL | 1;
	stpenc_init(&e, 3);
	while (stpenc_bytes(&e) < bytes && !e.oom) {
		unsigned int nm = rnd() % 4, nc = rnd() % 8, r = rnd() % 1000;

		if (stpenc_bytes(&e) >= next_sync) {
			sync_block(&e, &m, &c, blocks++);
			next_sync += 4096;
		}
		/* one message stays open for a long time on m3 c9 */
		if (r < 20) {
			if (!open_until)
				open_until = stpenc_bytes(&e) + 300000;
			if (stpenc_bytes(&e) < open_until) {
				stpenc_packet(&e, MTTD_OP_M8, 3, 0, 0, 0, 0);
				stpenc_packet(&e, MTTD_OP_C8, 9, 0, 0, 0, 0);
				stpenc_packet(&e, MTTD_OP_D64, rnd64(), 0, 0, 0,
					      0);
			} else {
				stpenc_packet(&e, MTTD_OP_M8, 3, 0, 0, 0, 0);
				stpenc_packet(&e, MTTD_OP_C8, 9, 0, 0, 0, 0);
				stpenc_packet(&e, MTTD_OP_FLAG, 0, 0, 0, 0, 0);
				if (stpenc_bytes(&e) > open_until + 200000)
					open_until = 0;
			}
			m = 3;
			c = 9;
			continue;
		}
		if (r < 23) {
			stpenc_packet(&e, MTTD_OP_GERR, rnd() % 300, 0, 0, 0, 0);
		} else if (r < 26) {
			stpenc_packet(&e, MTTD_OP_MERR, rnd() % 256, 0, 0, 0, 0);
		} else if (r < 29) {
			stpenc_packet(&e, MTTD_OP_USER, rnd64(), 1 + rnd() % 16,
				      0, 0, 0);
		} else if (r < 31) {
			stpenc_packet(&e, MTTD_OP_TIME_TS, rnd64() >> 8, 14,
				      0x12, ts, -1);
		} else if (r < 33) {
			stpenc_packet(&e, MTTD_OP_TRIG_TS, rnd() & 0xff, 0, 0,
				      ts, -1);
		} else if (r < 36) {
			unsigned int k = 1 + rnd() % 40;

			while (k--)
				stpenc_nib(&e, 0);
		} else if (r < 39 && e.nib > 64) {
			/* a lost piece: the last nibbles are overwritten */
			e.nib -= 1 + rnd() % 40;
		} else if (r < 41) {
			unsigned int k = 1 + rnd() % 64;

			while (k--)
				stpenc_val(&e, rnd(), 2);
		}
		if (nm != m) {
			stpenc_packet(&e, MTTD_OP_M8, nm, 0, 0, 0, 0);
			m = nm;
			c = 0;
		}
		if (nc != c) {
			stpenc_packet(&e, MTTD_OP_C8, nc, 0, 0, 0, 0);
			c = nc;
		}
		ts += 50 + rnd() % 5000;
		message(&e, 1 + rnd() % 300, ts);
	}
	/* end inside a packet */
	stpenc_op(&e, MTTD_OP_D64);
	stpenc_val(&e, rnd(), 5);
	f = fopen(argv[1], "wb");
	if (e.oom || !f || fwrite(e.buf, 1, stpenc_bytes(&e), f) !=
	    stpenc_bytes(&e) || fclose(f)) {
		fprintf(stderr, "pargen: cannot write %s\n", argv[1]);
		return 1;
	}
	stpenc_free(&e);
	return 0;
}
