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
 *   sergen rvmtt N
 *	The same encapsulation, sync first: srcID 1 carries N of the MTT
 *	frames of "sergen mtt" (target 3, component 7, trace id and value
 *	1000 + i), each in two packets of 12 payload bytes, with one packet
 *	of 5 bytes 0x11 after frame N / 2 (damage: one skipped run in
 *	srcID 1's frames) and a second sync after frame N / 4 (a UART's
 *	encoder repeats them: no loss); after every fourth frame, srcID 2
 *	has a packet of 4 bytes that is no MTT frame.
 *   sergen syst N
 *	N SyS-T STRING messages (severity 3, a 16-bit length, payload
 *	"msg" and the message's number), back to back as a UART carries
 *	them, through tests/host/enc/systenc.c.
 *   sergen mprof
 *	MiniProfiler responses as the protocol text lays them out (AA 55,
 *	type, 16-bit length, payload, CRC16-CCITT of all that, 0A; the
 *	seed's METADATA and PROFILE_DATA of two records): METADATA,
 *	PROFILE_DATA, the same PROFILE_DATA with its CRC damaged, STATUS
 *	(not profiling, 3 overflows, 2 records); 36 + 39 + 39 + 18 bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rvenc.h"
#include "spec_crc16.h"
#include "systenc.h"

static void le32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* frame i: 24 bytes */
static void frame(uint8_t *f, unsigned long i)
{
	le32(f, 0xeee01000u | 3);	/* sync, v1.0, target 3 */
	le32(f + 4, 0);			/* TRACE, no flags */
	le32(f + 8, 7);			/* component */
	le32(f + 12, (uint32_t)i);	/* trace id */
	le32(f + 16, 0x05000004u);	/* UINT32, 4 bytes */
	le32(f + 20, (uint32_t)(1000 + i));
}

static int mtt(unsigned long n, unsigned long garbage)
{
	unsigned long i, g;
	uint8_t f[24];

	for (i = 0; i < n; i++) {
		if (i == n / 2)
			for (g = 0; g < garbage; g++)
				fputc(0x11, stdout);
		frame(f, i);
		fwrite(f, 1, sizeof(f), stdout);
	}
	return 0;
}

static int rvmtt(unsigned long n)
{
	static const uint8_t junk[5] = { 0x11, 0x11, 0x11, 0x11, 0x11 };
	struct rvenc e;
	unsigned long i;
	uint8_t f[24];

	rvenc_init(&e, 8, 4);
	rvenc_sync(&e);
	for (i = 0; i < n; i++) {
		if (i == n / 4)
			rvenc_sync(&e);
		if (i == n / 2)
			rvenc_raw(&e, 0, 1, 1, 10 * i, junk, 40);
		frame(f, i);
		rvenc_raw(&e, 0, 1, 1, 10 * i, f, 96);
		rvenc_raw(&e, 0, 1, 1, 10 * i + 1, f + 12, 96);
		if (i % 4 == 3)
			rvenc_raw(&e, 0, 1, 2, 10 * i + 2, f + 20, 32);
	}
	if (e.oom || fwrite(e.buf, 1, e.len, stdout) != e.len) {
		rvenc_free(&e);
		return 1;
	}
	rvenc_free(&e);
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

static int syst(unsigned long n)
{
	struct systenc out, pl;
	unsigned long i;
	int ret;

	systenc_init(&out);
	for (i = 0; i < n; i++) {
		systenc_init(&pl);
		systenc_put(&pl, "msg", 3);
		systenc_le(&pl, i, 1);
		systenc_msg(&out, SYSTENC_TYPE(2) | SYSTENC_SEV(3) |
			    SYSTENC_SUB(1) | SYSTENC_LEN, 0, &pl);
		systenc_free(&pl);
	}
	ret = out.oom || fwrite(out.buf, 1, out.len, stdout) != out.len;
	systenc_free(&out);
	return ret;
}

/* one response: hex header and payload, then the CRC16-CCITT of them
 * (little-endian) and 0A; bad: the CRC's low byte flipped */
static void response(const char *hex, int bad)
{
	uint8_t b[128];
	size_t n = 0;
	uint16_t crc;
	char *end;

	while (*hex) {
		unsigned long v = strtoul(hex, &end, 16);

		if (end == hex)
			break;
		b[n++] = (uint8_t)v;
		hex = end;
	}
	crc = spec_crc16(b, n);
	if (bad)
		crc ^= 0x00ff;
	b[n++] = (uint8_t)crc;
	b[n++] = (uint8_t)(crc >> 8);
	b[n++] = 0x0a;
	fwrite(b, 1, n, stdout);
}

static int mprof(void)
{
	static const char meta[] =
		"AA 55 03 1C 00 00 09 FB 0A 40 42 0F 00 EF BE AD DE "
		"76 31 2E 30 2E 30 00 00 00 00 00 00 00 00 00 00";
	static const char prof[] =
		"AA 55 05 1F 00 01 02 00 "
		"00 01 00 08 E8 03 00 00 D0 07 00 00 00 00 "
		"20 02 00 08 F4 01 00 00 2C 01 00 00 01 00";
	static const char status[] =
		"AA 55 04 0A 00 00 03 00 00 00 02 00 00 00 00";

	response(meta, 0);
	response(prof, 0);
	response(prof, 1);
	response(status, 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "mtt"))
		return mtt(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "rv"))
		return rv(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "rvmtt"))
		return rvmtt(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "syst"))
		return syst(strtoul(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "mprof"))
		return mprof();
	fprintf(stderr, "usage: sergen mtt N GARBAGE | rv N | rvmtt N | syst N | mprof\n");
	return 2;
}
