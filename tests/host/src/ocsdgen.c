// SPDX-License-Identifier: GPL-2.0
/*
 * ocsdgen.c - writes a random STPv2 stream that OpenCSD 1.3.3 can decode
 * (no M16, USER, TIME, XSYNC, FREQ_TS, FREQ_40; VERSION 3 or 4 only; M8
 * and C8 again after every GERR) for the OpenCSD agreement test.
 * usage: ocsdgen SEED PACKETS >FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include "stpenc.h"
#include "testutil.h"

static const unsigned int data_ops[] = {
	MTTD_OP_D4, MTTD_OP_D8, MTTD_OP_D16, MTTD_OP_D32, MTTD_OP_D64,
	MTTD_OP_D4M, MTTD_OP_D8M, MTTD_OP_D16M, MTTD_OP_D32M, MTTD_OP_D64M,
	MTTD_OP_D4TS, MTTD_OP_D8TS, MTTD_OP_D16TS, MTTD_OP_D32TS,
	MTTD_OP_D64TS, MTTD_OP_D4MTS, MTTD_OP_D8MTS, MTTD_OP_D16MTS,
	MTTD_OP_D32MTS, MTTD_OP_D64MTS,
};

int main(int argc, char **argv)
{
	uint64_t rng = argc > 1 ? strtoull(argv[1], NULL, 0) * 7919 + 1 : 1;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000, i;
	struct stpenc e;
	uint64_t ts = 0;

	stpenc_init(&e, 3);
	for (i = 0; i < n; i++) {
		unsigned int k = (unsigned int)(rnd64(&rng) % 100), op;
		int tsn = rnd64(&rng) % 5 ? -1 : 16;
		uint64_t v = rnd64(&rng);

		if (i == 0 || k < 2) {
			stpenc_pad(&e);
			stpenc_async(&e);
			e.version = 3 + (unsigned int)(rnd64(&rng) & 1);
			stpenc_packet(&e, MTTD_OP_VERSION, e.version, 0, 0, 0, 0);
			if (i == 0)
				stpenc_packet(&e, MTTD_OP_FREQ, 1000000000, 0,
					      0, 0, 0);
			stpenc_packet(&e, MTTD_OP_M8, v >> 8, 0, 0, 0, 0);
			stpenc_packet(&e, MTTD_OP_C8, v >> 16, 0, 0, 0, 0);
			continue;
		}
		/* below 2^31: OpenCSD 1.3.3 decodes Gray code bits >= 31
		 * wrongly (an int shifted by up to 63 in gray_to_bin) */
		ts += rnd64(&rng) % 4 ? rnd64(&rng) % 5000 :
		      rnd64(&rng) >> (rnd64(&rng) % 64);
		ts &= 0x7fffffff;
		if (k < 10)
			op = MTTD_OP_M8;
		else if (k < 18)
			op = MTTD_OP_C8;
		else if (k < 21)
			op = MTTD_OP_C16;
		else if (k < 22)
			op = MTTD_OP_MERR;
		else if (k < 23)
			op = MTTD_OP_GERR;
		else if (k < 27)
			op = MTTD_OP_FLAG;
		else if (k < 29)
			op = MTTD_OP_FLAG_TS;
		else if (k < 31)
			op = MTTD_OP_TRIG_TS;
		else if (k < 34) {
			stpenc_nib(&e, 0);	/* NULL */
			continue;
		} else {
			op = data_ops[rnd64(&rng) % 20];
		}
		stpenc_packet(&e, op, v, 0, 0, ts, tsn);
		if (op == MTTD_OP_GERR) {
			stpenc_packet(&e, MTTD_OP_M8, v >> 8, 0, 0, 0, 0);
			stpenc_packet(&e, MTTD_OP_C8, v >> 16, 0, 0, 0, 0);
		}
	}
	stpenc_pad(&e);
	if (e.oom || fwrite(e.buf, 1, stpenc_bytes(&e), stdout) !=
	    stpenc_bytes(&e))
		return 1;
	stpenc_free(&e);
	return 0;
}
