// SPDX-License-Identifier: GPL-2.0
/*
 * sergen.c - the streams a serial target sends in
 * tests/host/mttcontrol-serial.t, written from the specifications (never
 * from the project's encoders), to stdout:
 *
 *   sergen mtt N GARBAGE
 *	N native MTT frames as Documentation/mtt.rst ("On the wire") lays
 *	them out: word 0 0xEEE01000 | target 3, word 1 TRACE with no
 *	optional word, component 7, trace id i, type_info UINT32 (4 bytes),
 *	the value i; 24 bytes each.  After frame N / 2, GARBAGE bytes 0x11
 *	(damage: one skipped run).
 *   sergen rv N
 *	RISC-V trace encapsulation, srcID 8 bits, timestamp 4 bytes, as a
 *	UART carries it (unframed): one synchronisation (31 + 4 + 1
 *	null.idle bytes and a null.alignment), then N packets with a
 *	timestamp, srcID 1 and 2 in turn, each a 4-byte payload, through
 *	the spec-written test encoder (tests/host/enc/rvenc.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rvenc.h"

static void put32(FILE *f, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		fputc((int)((v >> (8 * i)) & 0xff), f);
}

static int mtt(unsigned long n, unsigned long garbage)
{
	unsigned long i, g;

	for (i = 0; i < n; i++) {
		if (i == n / 2)
			for (g = 0; g < garbage; g++)
				fputc(0x11, stdout);
		put32(stdout, 0xeee01000u | 3);	/* sync, v1.0, target 3 */
		put32(stdout, 0);		/* TRACE, no flags */
		put32(stdout, 7);		/* component */
		put32(stdout, (uint32_t)i);	/* trace id */
		put32(stdout, 0x05000004u);	/* UINT32, 4 bytes */
		put32(stdout, (uint32_t)(1000 + i));
	}
	return 0;
}

static int rv(unsigned long n)
{
	struct rvenc e;
	unsigned long i;
	uint8_t pl[4];
	int k;

	rvenc_init(&e, 8, 4);
	rvenc_sync(&e);
	for (i = 0; i < n; i++) {
		for (k = 0; k < 4; k++)
			pl[k] = (uint8_t)(i >> (8 * k));
		rvenc_raw(&e, 0, 1, 1 + (uint32_t)(i & 1), 100 * i, pl, 32);
	}
	if (e.oom || fwrite(e.buf, 1, e.len, stdout) != e.len) {
		rvenc_free(&e);
		return 1;
	}
	rvenc_free(&e);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "mtt"))
		return mtt(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "rv"))
		return rv(strtoul(argv[2], NULL, 0));
	fprintf(stderr, "usage: sergen mtt N GARBAGE | sergen rv N\n");
	return 2;
}
