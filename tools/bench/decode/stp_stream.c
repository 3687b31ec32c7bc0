// SPDX-License-Identifier: GPL-2.0
/*
 * stp_stream.c - a raw STPv2 stream shaped like the software STM device's
 * output: ASYNC/VERSION/FREQ every 64 KiB, messages of 8..256 bytes on 32
 * channels of 4 masters (DnTS first, D64 body, D32/D16/D8 tail, FLAG),
 * nanosecond timestamps.
 */
#include "bench.h"

void sync_block(struct stpenc *e)
{
	stpenc_pad(e);
	stpenc_async(e);
	stpenc_packet(e, MTTD_OP_VERSION, 3, 0, 0, 0, 0);
	stpenc_packet(e, MTTD_OP_FREQ, 1000000000, 0, 0, 0, 0);
}

/* one message of len bytes on (m, c) the way the kernel writes it */
static void message(struct stpenc *e, unsigned int len, uint64_t ts)
{
	static const unsigned int dn[4] = {
		MTTD_OP_D8, MTTD_OP_D16, MTTD_OP_D32, MTTD_OP_D64
	};
	static const unsigned int dnts[4] = {
		MTTD_OP_D8TS, MTTD_OP_D16TS, MTTD_OP_D32TS, MTTD_OP_D64TS
	};
	int first = 1;

	while (len) {
		unsigned int k = len >= 8 ? 3 : len >= 4 ? 2 : len >= 2 ? 1 : 0;
		uint64_t v = ((uint64_t)rnd() << 32 | rnd()) &
			     (k == 3 ? ~0ULL : (1ULL << (8u << k)) - 1);

		stpenc_packet(e, first ? dnts[k] : dn[k], v, 0, 0, ts, -1);
		first = 0;
		len -= 1u << k;
	}
	stpenc_packet(e, MTTD_OP_FLAG, 0, 0, 0, 0, 0);
}

void build_stp(struct stpenc *e, size_t bytes)
{
	uint64_t ts = 1000000, next_sync = 0;
	unsigned int m = 0, c = 0;

	while (stpenc_bytes(e) < bytes && !e->oom) {
		unsigned int nm, nc;

		if (stpenc_bytes(e) >= next_sync) {
			sync_block(e);
			next_sync += 65536;
			m = c = 0x10000;	/* unknown: force M8/C8 */
			e->ts = 0;
		}
		nm = rnd() % 4;
		nc = rnd() % 8;
		if (nm != m) {
			stpenc_packet(e, MTTD_OP_M8, nm, 0, 0, 0, 0);
			m = nm;
			c = 0;
		}
		if (nc != c) {
			stpenc_packet(e, MTTD_OP_C8, nc, 0, 0, 0, 0);
			c = nc;
		}
		ts += 100 + rnd() % 10000;
		message(e, 8 + rnd() % 249, ts);
	}
	stpenc_pad(e);
}
