// SPDX-License-Identifier: GPL-2.0
/*
 * mprofproto.c - MiniProfiler host side: CRC16-CCITT, the 12-byte
 * commands, the seed's "Example Packet Dumps" decoded to the values it
 * states and re-encoded byte for byte, the parser under every chunking,
 * garbage, CRC and end-marker errors, truncation and a packet hidden in
 * a corrupted one, version checks, and the call tree / statistics /
 * folded stacks of a known profile.
 */
#include <stdlib.h>
#include <string.h>

#include "mprof/mprof.h"
#include "wire/crc.h"
#include "tap.h"

struct evlog {
	char s[8192];
	size_t len;
};

static void log_ev(void *ctx, const struct mprof_event *ev)
{
	static const char *const k[] = { "PKT", "GARBAGE", "CRC", "END", "TRUNC" };
	struct evlog *l = ctx;

	l->len += (size_t)snprintf(l->s + l->len, sizeof(l->s) - l->len,
				   "%s@%llu t=%u n=%zu;", k[ev->kind],
				   (unsigned long long)ev->offset, ev->type,
				   ev->len);
}

static void parse(const uint8_t *b, size_t n, size_t chunk, struct evlog *l,
		  struct mprof_parser_stats *st)
{
	struct mprof_parser *p = mprof_parser_new(log_ev, l, 0);
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i += chunk)
		mprof_parser_feed(p, b + i, n - i < chunk ? n - i : chunk);
	mprof_parser_finish(p);
	*st = *mprof_parser_stats(p);
	mprof_parser_free(p);
}

static size_t hex(uint8_t *out, const char *s)
{
	size_t n = 0;

	while (*s) {
		char *end;
		unsigned long v = strtoul(s, &end, 16);

		if (end == s)
			break;
		out[n++] = (uint8_t)v;
		s = end;
	}
	return n;
}

/* a response from its header and payload bytes (seed notation: the
 * CRC "XX XX" computed, then 0A) */
static size_t frame(uint8_t *out, const char *hdr_payload)
{
	size_t n = hex(out, hdr_payload);

	mprof_put16(out + n, wire_crc16_ccitt(WIRE_CRC16_START, out, n));
	out[n + 2] = MPROF_RSP_END;
	return n + 3;
}

static const char seed_meta[] =
	"AA 55 03 1C 00 00 09 FB 0A 40 42 0F 00 EF BE AD DE "
	"76 31 2E 30 2E 30 00 00 00 00 00 00 00 00 00 00";
static const char seed_prof[] =
	"AA 55 05 1F 00 01 02 00 "
	"00 01 00 08 E8 03 00 00 D0 07 00 00 00 00 "
	"20 02 00 08 F4 01 00 00 2C 01 00 00 01 00";

static void test_commands(void)
{
	uint8_t c[MPROF_CMD_LEN], want[MPROF_CMD_LEN];
	unsigned int cmd;

	is_u64(wire_crc16_ccitt(WIRE_CRC16_START, (const uint8_t *)"123456789", 9), 0x29b1,
	       "CRC16-CCITT check value (poly 0x1021, init 0xffff)");
	mprof_cmd_encode(c, MPROF_CMD_START, NULL, 0);
	hex(want, "55 01 00 00 00 00 00 00 00 00 00 56");
	ok(!memcmp(c, want, sizeof(c)), "START_PROFILING is the seed's 55 01 ... 56");
	mprof_cmd_encode(c, MPROF_CMD_GET_METADATA, NULL, 0);
	hex(want, "55 05 00 00 00 00 00 00 00 00 00 5A");
	ok(!memcmp(c, want, sizeof(c)), "GET_METADATA is the seed's 55 05 ... 5A");
	for (cmd = 1; cmd <= 6; cmd++) {
		mprof_cmd_encode(c, (uint8_t)cmd, NULL, 0);
		if (c[11] != (uint8_t)(0x55 + cmd) || !mprof_cmd_valid(c))
			break;
	}
	ok(cmd == 7, "every command: checksum 0x55 + code, valid");
	mprof_cmd_encode(c, MPROF_CMD_SET_CONFIG, (const uint8_t *)"\x01\x02\x03", 3);
	hex(want, "55 06 03 01 02 03 00 00 00 00 00 64");
	ok(!memcmp(c, want, sizeof(c)), "SET_CONFIG with 3 payload bytes, zero padded");
	ok(mprof_cmd_encode(c, 6, want, 9) == -1, "a 9-byte payload is refused");
	c[4] ^= 1;
	ok(!mprof_cmd_valid(c), "a corrupted command fails its checksum");
}

static void test_seed_dumps(void)
{
	uint8_t b[512], re[512], pl[64];
	struct mprof_metadata m;
	struct mprof_record r;
	struct mprof_parser_stats st;
	struct evlog l;
	unsigned int version, count;
	size_t n;

	n = frame(b, seed_meta);
	is_u64(n, 36, "METADATA dump: 8 + 28 bytes");
	parse(b, n, n, &l, &st);
	is_str(l.s, "PKT@0 t=3 n=28;", "METADATA dump parses as one packet");
	ok(!mprof_metadata_get(&m, b + 5, 28), "METADATA payload decodes");
	/* Seed erratum: its comment says 168000000, but the bytes it shows,
	 * 00 09 FB 0A, are 0x0AFB0900 = 184224000 little-endian (168 MHz
	 * is 00 7A 03 0A).  The bytes are decoded as they are. */
	is_u64(m.mcu_clock_hz, 184224000,
	       "mcu_clock_hz: the dump's bytes 00 09 FB 0A = 184224000 (seed comment: 168000000)");
	mprof_put32(pl, 168000000);
	ok(!memcmp(pl, "\x00\x7a\x03\x0a", 4),
	   "168000000 (the seed's stated value) is 00 7A 03 0A on the wire");
	is_u64(m.timer_freq, 1000000, "timer_freq = 1000000");
	is_u64(m.elf_build_id, 0xdeadbeef, "build_id = 0xDEADBEEF");
	is_str(m.fw_version, "v1.0.0", "fw_version = \"v1.0.0\"");
	mprof_metadata_put(pl, &m);
	ok(mprof_rsp_encode(re, sizeof(re), MPROF_RSP_METADATA, pl, 28) == n &&
	   !memcmp(re, b, n), "METADATA re-encodes byte for byte");

	n = frame(b, seed_prof);
	is_u64(n, 39, "PROFILE_DATA dump: 8 + 31 bytes");
	parse(b, n, 1, &l, &st);
	is_str(l.s, "PKT@0 t=5 n=31;", "PROFILE_DATA dump parses (byte by byte)");
	ok(!mprof_profile_check(b + 5, 31, &version, &count) && version == 1 &&
	   count == 2, "version 1, record count 2");
	mprof_record_get(&r, b + 8);
	ok(r.func_addr == 0x08000100 && r.entry_time == 1000 &&
	   r.duration_us == 2000 && r.depth == 0,
	   "record 1: 0x08000100, 1000 us, 2000 us, depth 0");
	mprof_record_get(&r, b + 8 + 14);
	ok(r.func_addr == 0x08000220 && r.entry_time == 500 &&
	   r.duration_us == 300 && r.depth == 1,
	   "record 2: 0x08000220, 500 us, 300 us, depth 1");
	pl[0] = 1;
	mprof_put16(pl + 1, 2);
	mprof_record_get(&r, b + 8);
	mprof_record_put(pl + 3, &r);
	mprof_record_get(&r, b + 22);
	mprof_record_put(pl + 17, &r);
	ok(mprof_rsp_encode(re, sizeof(re), MPROF_RSP_PROFILE_DATA, pl, 31) == n &&
	   !memcmp(re, b, n), "PROFILE_DATA re-encodes byte for byte");
}

static void test_stream_errors(void)
{
	uint8_t b[4096], tmp[256];
	struct mprof_parser_stats st;
	struct evlog whole, l;
	size_t n = 0, k, chunk;
	int same = 1;

	memcpy(b, "\x01\x02\xaa\x03", 4);	/* garbage, a lone AA */
	n = 4;
	n += frame(b + n, seed_meta);			/* @4 */
	k = frame(b + n, seed_prof);			/* @40: CRC error */
	b[n + 10] ^= 0x40;
	n += k;
	k = frame(b + n, "AA 55 01 00 00");		/* @79: bad end marker */
	b[n + k - 1] = 0x0b;
	n += k;
	n += frame(b + n, "AA 55 04 0A 00 01 02 00 00 00 0F 00 00 00 32");	/* @87 STATUS */
	/* @105: a header announcing 200 bytes hiding an ACK, cut short */
	hex(b + n, "AA 55 05 C8 00 01");
	n += 6;
	n += frame(b + n, "AA 55 01 00 00");		/* @111 */
	parse(b, n, n, &whole, &st);
	is_str(whole.s,
	       "GARBAGE@0 t=0 n=4;PKT@4 t=3 n=28;CRC@40 t=5 n=31;GARBAGE@42 t=0 n=37;"
	       "END@79 t=1 n=0;GARBAGE@81 t=0 n=6;PKT@87 t=4 n=10;TRUNC@105 t=5 n=14;"
	       "GARBAGE@107 t=0 n=4;PKT@111 t=1 n=0;",
	       "garbage, CRC error, bad end, truncation: reported, resynchronised");
	ok(st.packets == 3 && st.crc_errors == 1 && st.end_errors == 1 &&
	   st.truncated == 1 && st.garbage_bytes == 51 && st.garbage_runs == 4,
	   "counters: 3 packets, 1 CRC, 1 end, 1 truncated, 51 garbage bytes");
	for (chunk = 1; chunk < 40; chunk++) {
		parse(b, n, chunk, &l, &st);
		same &= !strcmp(l.s, whole.s);
	}
	ok(same, "the same events for every chunk size 1..39");
	/* an ACK header announcing 65535 bytes is not waited for */
	{
		struct mprof_parser *pp;

		memset(&l, 0, sizeof(l));
		pp = mprof_parser_new(log_ev, &l, 0);
		hex(tmp, "AA 55 01 FF FF");
		k = 5 + frame(tmp + 5, "AA 55 01 00 00");
		mprof_parser_feed(pp, tmp, k);
		is_str(l.s, "GARBAGE@0 t=0 n=5;PKT@5 t=1 n=0;",
		       "an impossible length (ACK of 65535 bytes) is skipped at once");
		mprof_parser_free(pp);
	}
	/* a STATUS decodes */
	{
		struct mprof_status s;

		k = frame(tmp, "AA 55 04 0A 00 01 02 00 00 00 0F 00 00 00 32");
		ok(!mprof_status_get(&s, tmp + 5, 10) && s.is_profiling == 1 &&
		   s.buffer_overflows == 2 && s.records_captured == 15 &&
		   s.buffer_usage_percent == 50, "STATUS: profiling, 2 overflows, 15 records, 50%%");
	}
}

static void test_versions(void)
{
	uint8_t b[256];
	struct mprof_collect c;
	size_t n;

	mprof_collect_init(&c, NULL, NULL);
	n = frame(b, "AA 55 05 11 00 02 01 00 00 01 00 08 E8 03 00 00 D0 07 00 00 00 00");
	mprof_collect_feed(&c, b, n);
	n = frame(b, "AA 55 05 10 00 01 02 00 00 01 00 08 E8 03 00 00 D0 07 00 00 00");
	mprof_collect_feed(&c, b, n);
	n = frame(b, seed_prof);
	mprof_collect_feed(&c, b, n);
	mprof_collect_finish(&c);
	ok(c.bad_version == 1 && c.bad_payload == 1 && c.records == 2 &&
	   c.prof.nrec == 2, "version 2 skipped, bad count skipped, version 1 taken");
	mprof_collect_free(&c);
}

static void add(struct mprof_profile *p, uint32_t f, uint32_t t, uint32_t d,
		uint16_t depth)
{
	struct mprof_record r = { f, t, d, depth };

	mprof_profile_add(p, &r);
}

static void test_profile(void)
{
	struct mprof_profile p;
	const struct mprof_func_stats **v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* main 0..100 calls a 10..30 (which calls b 12..20) and a 40..60;
	 * records in exit order, as a device sends them */
	mprof_profile_init(&p);
	add(&p, 0x300, 12, 8, 2);
	add(&p, 0x200, 10, 20, 1);
	add(&p, 0x200, 40, 20, 1);
	add(&p, 0x100, 0, 100, 0);
	ok(!mprof_profile_analyse(&p), "analysis");
	v = mprof_profile_sorted(&p);
	ok(v && !strcmp(v[0]->name, "0x00000100") && v[0]->calls == 1 &&
	   v[0]->total_us == 100 && v[0]->self_us == 60,
	   "main: 1 call, total 100, self 60");
	ok(v && v[1]->calls == 2 && v[1]->total_us == 40 && v[1]->self_us == 32 &&
	   v[1]->min_us == 20 && v[1]->max_us == 20, "a: 2 calls, total 40, self 32");
	ok(v && v[2]->calls == 1 && v[2]->self_us == 8, "b: 1 call, self 8");
	free(v);
	is_u64(p.nnodes, 4, "tree: root, main, main;a, main;a;b");
	is_u64(p.orphans, 0, "no call with a missing caller");
	is_u64(p.span_us, 100, "span 100 us");
	f = open_memstream(&buf, &len);
	mprof_write_folded(f, &p);
	fclose(f);
	is_str(buf, "0x00000100 60\n0x00000100;0x00000200 32\n"
	       "0x00000100;0x00000200;0x00000300 8\n", "folded stacks");
	free(buf);
	f = open_memstream(&buf, &len);
	mprof_write_chrome(f, &p);
	fclose(f);
	ok(strstr(buf, "{\"name\":\"0x00000200\",\"cat\":\"function\",\"ph\":\"X\",\"ts\":40,\"dur\":20,") != NULL,
	   "Chrome trace: a complete event per call");
	free(buf);
	mprof_profile_free(&p);
}

int main(void)
{
	test_commands();
	test_seed_dumps();
	test_stream_errors();
	test_versions();
	test_profile();
	return done_testing();
}
