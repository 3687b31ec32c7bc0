// SPDX-License-Identifier: GPL-2.0
/*
 * timesync.c - the TIME_SYNC clock exchange on the wire (our extension:
 * Documentation/miniprofiler.rst and mtt.rst, "Clock exchanges"), run
 * by tests/host/time-sync.t: every byte below is spelled out from those
 * tables, never produced by the project's encoders.  The MiniProfiler
 * command and response payload against libwire's encode and parse
 * helpers; a capture written here (PROFILE_DATA, TIME_SYNC across the
 * 2^32 us wrap, PROFILE_DATA) through libmprof: the exchange's seq, raw
 * and unwrapped times and end offset, on the records' timeline, and its
 * event line; an MTT reply frame and a NACK through libmttdecode.  With
 * a directory argument, it writes both captures there (capture.mprof,
 * capture.bin) for the mttdecode checks of time-sync.t.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mprof/mprof.h"
#include "mttdecode/mttframe.h"
#include "spec_crc16.h"
#include "tap.h"

/* 55 | 07 | length 4 | seq 0x12345678 LE | padding | sum of the 11 */
static const uint8_t cmd_bytes[12] = { 0x55, 0x07, 0x04, 0x78, 0x56, 0x34,
				       0x12, 0, 0, 0, 0, 0x74 };
/* seq 0x12345678, t_rx 0xfffffff0, t_tx 0x00000010 (the timer wrapped) */
static const uint8_t rsp_payload[12] = { 0x78, 0x56, 0x34, 0x12,
					 0xf0, 0xff, 0xff, 0xff,
					 0x10, 0, 0, 0 };

/* a response frame: AA 55 | type | len LE | payload | CRC LE | 0A */
static size_t frame(uint8_t *out, uint8_t type, const uint8_t *pl, size_t n)
{
	uint16_t c;

	out[0] = 0xaa;
	out[1] = 0x55;
	out[2] = type;
	out[3] = (uint8_t)n;
	out[4] = (uint8_t)(n >> 8);
	memcpy(out + 5, pl, n);
	c = spec_crc16(out, 5 + n);
	out[5 + n] = (uint8_t)c;
	out[6 + n] = (uint8_t)(c >> 8);
	out[7 + n] = 0x0a;
	return n + 8;
}

/* PROFILE_DATA v1 with one record (addr 0x1000, entry, duration, 0) */
static size_t one_record(uint8_t *out, uint32_t entry, uint32_t dur)
{
	uint8_t pl[3 + 14] = { 1, 1, 0, 0x00, 0x10, 0, 0 };
	int i;

	for (i = 0; i < 4; i++) {
		pl[7 + i] = (uint8_t)(entry >> (8 * i));
		pl[11 + i] = (uint8_t)(dur >> (8 * i));
	}
	return frame(out, 0x05, pl, sizeof(pl));
}

static void wire(void)
{
	struct mprof_time_sync t;
	uint8_t b[12];

	mprof_time_sync_cmd(b, 0x12345678);
	ok(!memcmp(b, cmd_bytes, 12) && mprof_cmd_valid(cmd_bytes),
	   "mprof_time_sync_cmd(): the spelled-out command, and a valid one");
	ok(!mprof_time_sync_get(&t, rsp_payload, 12) && t.seq == 0x12345678 &&
	   t.t_rx == 0xfffffff0u && t.t_tx == 0x10,
	   "mprof_time_sync_get(): seq, t_rx, t_tx of the spelled payload");
	memset(b, 0xee, sizeof(b));
	mprof_time_sync_put(b, &t);
	ok(!memcmp(b, rsp_payload, 12), "mprof_time_sync_put(): the same bytes back");
	ok(mprof_time_sync_get(&t, rsp_payload, 11) == -1,
	   "a payload of 11 bytes is refused");
}

static size_t mprof_capture(uint8_t *cap)
{
	size_t n = 0;

	n += one_record(cap + n, 0xffffff00u, 0x10);	/* 25 bytes */
	n += frame(cap + n, 0x06, rsp_payload, 12);	/* 20 bytes */
	n += one_record(cap + n, 0x20, 5);
	return n;
}

static void profile(void)
{
	struct mprof_collect c;
	uint8_t cap[128];
	size_t n = mprof_capture(cap);
	const struct mprof_sync *y;

	ok(!mprof_collect_init(&c, NULL, NULL) &&
	   !mprof_collect_feed(&c, cap, n), "libmprof takes the capture");
	mprof_collect_finish(&c);
	ok(c.prof.nrec == 2 && c.prof.nsync == 1 && !c.bad_payload,
	   "2 records, 1 exchange");
	y = c.prof.sync;
	ok(y && y->seq == 0x12345678 && y->t_rx == 0xfffffff0u &&
	   y->t_tx == 0x10 && y->end == 25 + 20 && y->after == 1,
	   "the exchange: seq, raw times, end offset 45, after record 1");
	ok(!mprof_profile_analyse(&c.prof), "analysed");
	is_u64(y->rx_us, 0xfffffff0u, "t_rx unwrapped: before the wrap");
	is_u64(y->tx_us, 0x100000010ull, "t_tx unwrapped: after it");
	is_u64(c.prof.entry[1], 0x100000020ull,
	       "the next record's entry on the same 64-bit line");
	mprof_collect_free(&c);
}

static void event_line(void)
{
	struct mprof_event ev = { .kind = MPROF_EV_PACKET, .offset = 25,
				  .type = 0x06, .payload = rsp_payload,
				  .len = 12 };
	char *s = NULL;
	size_t sz = 0;
	FILE *f = open_memstream(&s, &sz);

	mprof_write_event(f, 0, NULL, &ev);
	mprof_write_event(f, 1, NULL, &ev);
	fclose(f);
	is_str(s, "@25 TIME_SYNC seq=305419896 t_rx=4294967280 t_tx=16 end=45\n"
	       "{\"kind\":\"time_sync\",\"offset\":25,\"seq\":305419896,\"t_rx\":4294967280,\"t_tx\":16,\"end_offset\":45}\n",
	       "the event as a text line and a JSON line");
	free(s);
	ok(!strcmp(mprof_type_name(6), "TIME_SYNC") &&
	   !strcmp(mprof_cmd_name(7), "TIME_SYNC"), "type 6 and command 7 named");
}

/* the MTT reply: word 0 sync|1.0|target 0x50, word 1 TIME_SYNC | RET |
 * RETV | TS64, component, seq 9, type_info two u64, TS64 3000, t_rx
 * 1000, t_tx 2000 */
static const uint8_t mtt_reply[44] = {
	0x50, 0x10, 0xe0, 0xee, 0x02, 0x30, 0x00, 0x07,
	0xff, 0xff, 0xff, 0xff, 0x09, 0, 0, 0,
	0x10, 0x00, 0x01, 0x07, 0xb8, 0x0b, 0, 0, 0, 0, 0, 0,
	0xe8, 0x03, 0, 0, 0, 0, 0, 0,
	0xd0, 0x07, 0, 0, 0, 0, 0, 0,
};
/* the NACK of an older target: NACK | RET, FN_UNIMPLEMENTED as PTR32 */
static const uint8_t mtt_nack[24] = {
	0x50, 0x10, 0xe0, 0xee, 0x00, 0xa0, 0x00, 0x07,
	0xff, 0xff, 0xff, 0xff, 0x09, 0, 0, 0,
	0x04, 0x00, 0x04, 0x05, 0x07, 0, 0, 0,
};

static void mtt(void)
{
	struct mttd_mtt_frame f;
	struct mttd_mtt_time_sync t;

	ok(mttd_mtt_parse(mtt_reply, sizeof(mtt_reply), &f) == 44 &&
	   mttd_mtt_time_sync(&f, &t) && t.seq == 9 && t.t_rx == 1000 &&
	   t.t_tx == 2000 && f.ts == 3000,
	   "MTT reply: seq 9, t_rx 1000, t_tx 2000 (frame TS 3000)");
	ok(!strcmp(mttd_mtt_cmd_name(f.cmd), "TIME_SYNC"), "named TIME_SYNC");
	ok(mttd_mtt_parse(mtt_nack, sizeof(mtt_nack), &f) == 24 &&
	   !mttd_mtt_time_sync(&f, &t) && (f.flags & MTT_FRAME_F_NACK),
	   "the NACK of a target that predates it: no exchange");
}

static void write_file(const char *dir, const char *name, const void *p,
		       size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		ok(0, "write %s", path);
}

int main(int argc, char **argv)
{
	wire();
	profile();
	event_line();
	mtt();
	if (argc > 1) {
		uint8_t cap[128], bin[2 * 44 + 24];

		write_file(argv[1], "capture.mprof", cap, mprof_capture(cap));
		memcpy(bin, mtt_reply, 44);
		memcpy(bin + 44, mtt_nack, 24);
		write_file(argv[1], "capture.bin", bin, 44 + 24);
	}
	return done_testing();
}
