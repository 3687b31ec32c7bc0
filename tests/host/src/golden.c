// SPDX-License-Identifier: GPL-2.0
/*
 * golden.c - decoder golden tests.  Every byte string below was derived
 * by hand from the STPv2 rules (nibble n0 in bits [3:0], n1 in [7:4]; so
 * nibbles "6 2" make byte 0x26; fields most significant nibble first),
 * never produced by an encoder.  The nibble sequence is in each comment.
 * Each case is also decoded in every two-chunk split, one byte at a time
 * and in random chunks, which must all give the same events.
 *
 * P  = ASYNC + VERSION 3: F x21, 0 | F 0 0 3
 *    = ff ff ff ff ff ff ff ff ff ff 0f 0f 30   (13 bytes, 26 nibbles)
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"

#define P "ff ff ff ff ff ff ff ff ff ff 0f 0f 30 "
#define P4 "ff ff ff ff ff ff ff ff ff ff 0f 0f 40 "	/* VERSION 4 */
#define P2 "ff ff ff ff ff ff ff ff ff ff 0f 0f 20 "	/* VERSION 2 */
#define PE "ASYNC@0 m0 c0\nVERSION@11 m0 c0 v=3\n"
#define PE4 "ASYNC@0 m0 c0\nVERSION@11 m0 c0 v=4\n"
#define PE2 "ASYNC@0 m0 c0\nVERSION@11 m0 c0 v=2\n"

struct gcase {
	const char *name;
	const char *bytes;
	const char *want;
};

static const struct gcase cases[] = {
	{ "sync only", P, PE "END@13 skip=0\n" },
	{ "nothing before the first ASYNC",
	  /* garbage 12 34 56 78 9a, then P, D8 ab: 4 a b 0 */
	  "12 34 56 78 9a " P "a4 0b",
	  "ASYNC@5 m0 c0 skip=5\nVERSION@16 m0 c0 v=3\nD8@18 m0 c0 v=ab\n"
	  "END@20 skip=0\n" },
	{ "no ASYNC at all", "12 34 ff ff 00",
	  "END@5 skip=5\n" },
	{ "ASYNC with more than 21 F and odd alignment",
	  /* 0 (garbage), F x25, 0, F 0 0 3, 4 a b */
	  "f0 ff ff ff ff ff ff ff ff ff ff ff ff f0 00 43 ba",
	  "ASYNC@0 m0 c0 skip=1\nVERSION@13 m0 c0 v=3\nD8@15 m0 c0 v=ab\n"
	  "END@17 skip=0\n" },
	{ "nibble order: D32 0x21542d53",
	  /* 6 2 1 5 4 2 d 5 3 | 0 */
	  P "26 51 24 5d 03",
	  PE "D32@13 m0 c0 v=21542d53\nEND@18 skip=0\n" },
	{ "D4 D8 D16 D64",
	  /* c 9 | 4 a b | 5 1 2 3 4 | 7 0123456789abcdef | 0 */
	  P "9c a4 5b 21 43 07 21 43 65 87 a9 cb ed 0f",
	  PE "D4@13 m0 c0 v=9\nD8@14 m0 c0 v=ab\nD16@15 m0 c0 v=1234\n"
	  "D64@18 m0 c0 v=0123456789abcdef\nEND@27 skip=0\n" },
	{ "M8, C16 then C8 replaces the low byte",
	  /* 1 0 1 | F 3 1 2 3 4 | 3 5 6 */
	  P "01 f1 13 32 34 65",
	  PE "M8@13 m1 c0\nC16@14 m1 c4660\nC8@17 m1 c4694\nEND@19 skip=0\n" },
	{ "M16",
	  /* F 1 b e e f */
	  P "1f eb fe", PE "M16@13 m48879 c0\nEND@16 skip=0\n" },
	{ "MERR resets the channel",
	  /* 1 0 5 | 3 0 7 | 2 3 3 | 4 a b */
	  P "01 35 70 32 43 ba",
	  PE "M8@13 m5 c0\nC8@14 m5 c7\nMERR@16 m5 c7 v=33\n"
	  "D8@17 m5 c0 v=ab\nEND@19 skip=0\n" },
	{ "GERR resets master and channel",
	  /* 1 0 5 | 3 0 7 | F 2 f f | 4 a b | 0 */
	  P "01 35 70 2f ff a4 0b",
	  PE "M8@13 m5 c0\nC8@14 m5 c7\nGERR@16 m5 c7 v=ff\n"
	  "D8@18 m0 c0 v=ab\nEND@20 skip=0\n" },
	{ "VERSION resets master and channel",
	  /* 1 0 5 | 3 0 7 | F 0 0 3 | 4 a b | 0 */
	  P "01 35 70 0f 30 a4 0b",
	  PE "M8@13 m5 c0\nC8@14 m5 c7\nVERSION@16 m0 c0 v=3\n"
	  "D8@18 m0 c0 v=ab\nEND@20 skip=0\n" },
	{ "marked, timestamped and both",
	  /* F 8 1 2 | F 9 1 2 3 4 | F a 12345678 | F b 1122334455667788 |
	   * F d 7 0 */
	  P "8f 21 9f 21 43 af 21 43 65 87 bf 11 22 33 44 55 66 77 88 df 07",
	  PE "D8M@13 m0 c0 v=12 M\nD16M@15 m0 c0 v=1234 M\n"
	  "D32M@18 m0 c0 v=12345678 M\nD64M@23 m0 c0 v=1122334455667788 M\n"
	  "D4M@32 m0 c0 v=7 M\nEND@34 skip=0\n" },
	{ "DnTS and DnMTS",
	  /* F 4 1 2 1 1 | F 5 1 2 3 4 2 0 2 0 | F 6 2 1 5 4 2 d 5 3 1 3 |
	   * F 7 8000000000000001 1 4 | F c 3 1 5 0 | 8 a b 1 6 0 |
	   * 9 a b c d 1 7 0 | a 01020304 1 8 0 | b 0102030405060708 0 |
	   * d 1 1 9 */
	  P "4f 21 11 5f 21 43 02 02 6f 12 45 d2 35 31 "
	  "7f 08 00 00 00 00 00 00 10 41 cf 13 05 a8 1b 06 a9 cb 1d 07 "
	  "0a 01 02 03 14 08 0b 01 02 03 04 05 06 07 08 1d 91",
	  PE "D8TS@13 m0 c0 v=12 ts=1\nD16TS@16 m0 c0 v=1234 ts=2\n"
	  "D32TS@21 m0 c0 v=21542d53 ts=3\n"
	  "D64TS@27 m0 c0 v=8000000000000001 ts=4\n"
	  "D4TS@37 m0 c0 v=3 ts=5\nD8MTS@40 m0 c0 v=ab M ts=6\n"
	  "D16MTS@43 m0 c0 v=abcd M ts=7\nD32MTS@47 m0 c0 v=01020304 M ts=8\n"
	  "D64MTS@53 m0 c0 v=0102030405060708 M ts=8\n"
	  "D4MTS@62 m0 c0 v=1 M ts=9\nEND@64 skip=0\n" },
	{ "every timestamp length, natural binary",
	  /* E E 0123456789abcdef | E D fedcba98765432 | E C 1x12 |
	   * E B 2x11 0 | E A 3x10 | E 9 4x9 0 | E 8 5x8 | E 7 6x7 0 |
	   * E 6 7x6 | E 5 8x5 0 | E 4 9x4 | E 3 aaa 0 | E 2 bb | E 1 c 0 |
	   * E 0 */
	  P "ee 10 32 54 76 98 ba dc fe de ef cd ab 89 67 45 23 "
	  "ce 11 11 11 11 11 11 be 22 22 22 22 22 02 ae 33 33 33 33 33 "
	  "9e 44 44 44 44 04 8e 55 55 55 55 7e 66 66 66 06 6e 77 77 77 "
	  "5e 88 88 08 4e 99 99 3e aa 0a 2e bb 1e 0c 0e",
	  PE "FLAG_TS@13 m0 c0 ts=123456789abcdef\n"
	  "FLAG_TS@22 m0 c0 ts=1fedcba98765432\n"
	  "FLAG_TS@30 m0 c0 ts=1fe111111111111\n"
	  "FLAG_TS@37 m0 c0 ts=1fe122222222222\n"
	  "FLAG_TS@44 m0 c0 ts=1fe123333333333\n"
	  "FLAG_TS@50 m0 c0 ts=1fe123444444444\n"
	  "FLAG_TS@56 m0 c0 ts=1fe123455555555\n"
	  "FLAG_TS@61 m0 c0 ts=1fe123456666666\n"
	  "FLAG_TS@66 m0 c0 ts=1fe123456777777\n"
	  "FLAG_TS@70 m0 c0 ts=1fe123456788888\n"
	  "FLAG_TS@74 m0 c0 ts=1fe123456789999\n"
	  "FLAG_TS@77 m0 c0 ts=1fe123456789aaa\n"
	  "FLAG_TS@80 m0 c0 ts=1fe123456789abb\n"
	  "FLAG_TS@82 m0 c0 ts=1fe123456789abc\n"
	  "FLAG_TS@84 m0 c0 ts=1fe123456789abc\nEND@85 skip=0\n" },
	{ "Gray code timestamps (VERSION 4)",
	  /* E E 0000000000000007 | E 1 4 0 | E 1 c 0 | E 2 3 4 */
	  P4 "ee 00 00 00 00 00 00 00 70 1e 04 1e 0c 2e 43",
	  PE4 "FLAG_TS@13 m0 c0 ts=5\nFLAG_TS@22 m0 c0 ts=7\n"
	  "FLAG_TS@24 m0 c0 ts=8\nFLAG_TS@26 m0 c0 ts=27\nEND@28 skip=0\n" },
	{ "natural binary delta timestamps (VERSION 2)",
	  /* E 2 1 0 | E 1 5 0 | E 0 | E E 0000000000000100 */
	  P2 "2e 01 1e 05 0e ee 00 00 00 00 00 00 10 00",
	  PE2 "FLAG_TS@13 m0 c0 ts=10\nFLAG_TS@15 m0 c0 ts=15\n"
	  "FLAG_TS@17 m0 c0 ts=15\nFLAG_TS@18 m0 c0 ts=115\nEND@27 skip=0\n" },
	{ "FLAG, FLAG_TS with L=0, NULL_TS",
	  /* F E | E 0 | F 0 1 1 9 0 */
	  P "ef 0e 0f 11 09",
	  PE "FLAG@13 m0 c0\nFLAG_TS@14 m0 c0 ts=0\nNULL_TS@15 m0 c0 ts=9\n"
	  "END@18 skip=0\n" },
	{ "USER, TIME, TRIG, XSYNC, DIP",
	  /* F 0 2 2 a b c 0 | F 0 3 0 5 1 7 0 | F 0 4 1 3 2 4 2 |
	   * F 0 5 2 3 1 9 1 5 0 | F 0 6 4 2 0 | F 0 7 4 2 1 1 0 |
	   * F 0 a 1 2 0 | F 0 b 1 2 1 4 0 | F 0 F 2 */
	  P "0f 22 ba 0c 0f 03 15 07 0f 14 23 24 0f 25 13 19 05 "
	  "0f 46 02 0f 47 12 01 0f 1a 02 0f 1b 12 04 0f 2f",
	  PE "USER@13 m0 c0 v=abc\nUSER_TS@17 m0 c0 v=5 ts=7\n"
	  "TIME@21 m0 c0 v=42 a=13\nTIME_TS@25 m0 c0 v=9 a=23 ts=5\n"
	  "TRIG@30 m0 c0 v=42\nTRIG_TS@33 m0 c0 v=42 ts=1\n"
	  "XSYNC@37 m0 c0 v=12\nXSYNC_TS@40 m0 c0 v=12 ts=4\n"
	  "DIP@44 m0 c0\nEND@46 skip=0\n" },
	{ "FREQ, FREQ_TS, FREQ_40, FREQ_40_TS",
	  /* F 0 8 3b9aca00 0 | F 0 9 00000064 1 3 0 |
	   * F 0 F 0 0102030405 | F 0 F 1 00000000ff 1 2 */
	  P "0f 38 9b ca 0a 00 0f 09 00 00 60 14 03 "
	  "0f 0f 10 20 30 40 50 0f 1f 00 00 00 00 ff 21",
	  PE "FREQ@13 m0 c0 v=3b9aca00\nFREQ_TS@19 m0 c0 v=00000064 ts=3\n"
	  "FREQ_40@26 m0 c0 v=0102030405\n"
	  "FREQ_40_TS@33 m0 c0 v=00000000ff ts=2\nEND@41 skip=0\n" },
	{ "reserved opcode F0C, resync at the next ASYNC",
	  /* F 0 C 0 | P | 4 a b 0 */
	  P "0f 0c " P "a4 0b",
	  PE "DESYNC(reserved opcode)@13\nASYNC@15 m0 c0 skip=2\n"
	  "VERSION@26 m0 c0 v=3\nD8@28 m0 c0 v=ab\nEND@30 skip=0\n" },
	{ "reserved opcodes F0D F0E F0F3, never resynced",
	  /* F 0 D 0 | F 0 E 0 | F 0 F 3 */
	  P "0f 0d 0f 0e 0f 3f",
	  PE "DESYNC(reserved opcode)@13\nEND@19 skip=6\n" },
	{ "timestamp length 0xF",
	  /* E F | 4 a b 0 */
	  P "fe a4 0b", PE "DESYNC(bad timestamp length)@13\nEND@16 skip=3\n" },
	{ "unsupported VERSION 5",
	  /* F 0 0 5 | 4 a b 0 */
	  P "0f 50 a4 0b",
	  PE "VERSION@13 m0 c0 v=5\nDESYNC(unsupported VERSION)@15\n"
	  "END@17 skip=2\n" },
	{ "FF run too short",
	  /* F x10, 0 | 4 a b */
	  P "ff ff ff ff ff 40 ba",
	  PE "DESYNC(bad ASYNC)@13\nEND@20 skip=7\n" },
	{ "packet cut short runs into an ASYNC",
	  /* 6 1 2 | F x21 0 | F 0 0 3 | 4 a b */
	  P "16 f2 ff ff ff ff ff ff ff ff ff ff f0 00 43 ba",
	  PE "D32@13 m0 c0 v=12ffffff\n"
	  "DESYNC(packet overlapping ASYNC)@14\nASYNC@14 m0 c0\n"
	  "VERSION@25 m0 c0 v=3\nD8@27 m0 c0 v=ab\nEND@29 skip=0\n" },
	{ "timestamp error inside an ASYNC: rescanned",
	  /* F 7 1 2 | F x21 0 | F 0 0 3 | 4 a b 0 */
	  P "7f 21 ff ff ff ff ff ff ff ff ff ff 0f 0f 30 a4 0b",
	  PE "DESYNC(bad timestamp length)@13\nASYNC@15 m0 c0 skip=2\n"
	  "VERSION@26 m0 c0 v=3\nD8@28 m0 c0 v=ab\nEND@30 skip=0\n" },
	{ "truncated packet at the end",
	  /* 6 1 2 3 */
	  P "16 32", PE "TRUNC@13 n=4\nEND@15 skip=0\n" },
	{ "truncated ASYNC at the end",
	  /* F x6 */
	  P "ff ff ff", PE "TRUNC@13 n=6\nEND@16 skip=0\n" },
	{ "timestamps survive a resync",
	  /* E 2 4 2 | P | E 1 7 0 */
	  P "2e 24 " P "1e 07",
	  PE "FLAG_TS@13 m0 c0 ts=42\nASYNC@15 m0 c0\nVERSION@26 m0 c0 v=3\n"
	  "FLAG_TS@28 m0 c0 ts=47\nEND@30 skip=0\n" },
};

static void run_case(const struct gcase *c)
{
	struct decode_opts o = { 0 };
	struct strbuf whole, part;
	uint8_t *b;
	size_t n = hex(c->bytes, &b), i;
	int same = 1;
	uint8_t *copy = malloc(n ? n : 1);

	memcpy(copy, b, n);
	whole = decode(copy, n, &o);
	is_str(whole.s, c->want, c->name);

	/* one byte at a time, random chunks, every two-chunk split */
	o.chunk = 1;
	part = decode(copy, n, &o);
	same &= !strcmp(part.s, whole.s);
	sb_free(&part);
	for (o.seed = 1; o.seed < 20; o.seed++) {
		o.chunk = 7;
		part = decode(copy, n, &o);
		same &= !strcmp(part.s, whole.s);
		sb_free(&part);
	}
	o.seed = 0;
	for (i = 1; i < n; i++) {
		o.chunk = i;
		part = decode(copy, n, &o);
		same &= !strcmp(part.s, whole.s);
		sb_free(&part);
	}
	ok(same, "%s: same events for any chunking", c->name);
	sb_free(&whole);
	free(copy);
}

static void null_count(void)
{
	uint8_t *b;
	/* P, then 0 0 0 | 4 a b (3 NULLs), then 0 0 0 0 */
	size_t n = hex(P "00 a4 0b 00 00", &b);
	struct mttd_stp_stats st = decode_stats(b, n);
	struct decode_opts o = { .flags = MTTD_STP_NULLS };
	struct strbuf s;

	is_u64(st.nulls, 3 + 4, "NULL packets are counted");
	is_u64(st.packets, 3, "ASYNC, VERSION, D8 counted as packets");
	s = decode(b, n, &o);
	is_str(s.s, PE "NULL@13 m0 c0\nNULL@13 m0 c0\n"
	       "D8@14 m0 c0 v=ab\nNULL@15 m0 c0\nNULL@16 m0 c0\nNULL@16 m0 c0\n"
	       "NULL@17 m0 c0\nNULL@17 m0 c0\nEND@18 skip=0\n",
	       "NULL packets delivered on request");
	sb_free(&s);
}

static void unsynced_count(void)
{
	uint8_t *b;
	size_t n = hex("11 22 33 " P "0f 0c 00 00 " P, &b);
	struct mttd_stp_stats st = decode_stats(b, n);

	is_u64((st.unsynced_nibbles + 1) / 2, 3 + 4, "unsynced bytes counted");
	is_u64(st.syncs, 2, "two ASYNCs");
	is_u64(st.desyncs, 1, "one desync");
}

static void api_misuse(void)
{
	struct mttd_stp_config bad = { 0 };
	struct mttd_stp_config v9 = { .fn = (mttd_stp_fn)abort, .version = 9 };
	struct mttd_stp_config good = { .fn = (mttd_stp_fn)abort };
	struct mttd_stp *d;

	ok(mttd_stp_new(NULL) == NULL, "new(NULL) fails");
	ok(mttd_stp_new(&bad) == NULL, "new without a callback fails");
	ok(mttd_stp_new(&v9) == NULL, "new with version 9 fails");
	d = mttd_stp_new(&good);
	ok(d && mttd_stp_feed(d, "", 0) == 0, "empty feed is fine");
	ok(d && mttd_stp_feed(d, "\x12", 1) == 0, "feed garbage is fine");
	mttd_stp_free(d);
	ok(!strcmp(mttd_op_name(MTTD_OP_FREQ_40_TS), "FREQ_40_TS") &&
	   !strcmp(mttd_op_name(999), "?"), "op names");
	ok(!strcmp(mttd_version(), MTTD_VERSION_STRING), "version string");
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	null_count();
	unsynced_count();
	api_misuse();
	return done_testing();
}
