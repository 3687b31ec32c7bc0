// SPDX-License-Identifier: GPL-2.0
/*
 * mttframe.c - golden tests of the native MTT frame decoder
 * (tools/lib/mttdecode/mtt/): frames written out by hand from mtt.md and
 * Documentation/mtt.rst, every type_info rendering, levels and
 * severities, the CRC, names from META frames and collateral, and raw
 * streams with damage, cut frames and every chunking.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "tap.h"

/*
 * The example of Documentation/mtt.rst: mtt_trace(component 3, INFO,
 * UINT32, &4242, "signal0") by thread 100 on CPU 1 at 0x100000002 ns,
 * trace id 0xc0de0000.  52 bytes.
 */
static const uint8_t golden[] = {
	0x01, 0x10, 0xe0, 0xee,		/* sync 0xeee, v1.0, target 1 */
	0x0f, 0x00, 0x00, 0x00,		/* TRACE | CTXT|TS64|LEVEL|HINT */
	0x03, 0x00, 0x00, 0x00,		/* component 3 */
	0x00, 0x00, 0xde, 0xc0,		/* trace id */
	0x04, 0x00, 0x00, 0x05,		/* type_info UINT32, 4 bytes */
	0x64, 0x00, 0x00, 0x00,		/* context 100 */
	0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,	/* ts */
	0x00, 0x00, 0x00, 0x20,		/* level INFO */
	0x92, 0x10, 0x00, 0x00,		/* 4242 */
	's', 'i', 'g', 'n', 'a', 'l', '0', 0, 0, 0, 0, 0,	/* hint */
};

/* A frame with just the preamble and payload (no optional words). */
static size_t mk(uint8_t *b, uint32_t flags, uint32_t ti, const void *pl)
{
	uint32_t w[5] = { 0xeee01000u, flags, 7, 0, ti };
	size_t n = ti & 0xffff, i;

	for (i = 0; i < 5; i++) {
		b[i * 4] = (uint8_t)w[i];
		b[i * 4 + 1] = (uint8_t)(w[i] >> 8);
		b[i * 4 + 2] = (uint8_t)(w[i] >> 16);
		b[i * 4 + 3] = (uint8_t)(w[i] >> 24);
	}
	memcpy(b + 20, pl, n);
	while (n & 3)
		b[20 + n++] = 0;
	return 20 + n;
}

static void value_is(uint32_t ti, const void *pl, const char *want)
{
	uint8_t b[256];
	struct mttd_mtt_frame f;
	char v[256], name[128];
	size_t n = mk(b, 0, ti, pl);

	ok(mttd_mtt_parse(b, n, &f) == (long)n, "type 0x%08x parses", ti);
	mttd_mtt_value(&f, v, sizeof(v));
	snprintf(name, sizeof(name), "type 0x%08x renders as %s", ti, want);
	is_str(v, want, name);
}

static void test_golden(void)
{
	struct mttd_mtt_frame f;
	char v[64], lb[11];

	ok(mttd_mtt_frame_len(golden, 8) == 48,
	   "from two words: at least 48 (the payload size is in word 4)");
	ok(mttd_mtt_frame_len(golden, sizeof(golden)) == 52, "length 52");
	ok(mttd_mtt_is_frame(golden, sizeof(golden)), "is one frame");
	ok(!mttd_mtt_is_frame(golden, sizeof(golden) - 1), "one byte short: no");
	ok(mttd_mtt_parse(golden, sizeof(golden) - 1, &f) == -1,
	   "a cut frame: -1");
	ok(mttd_mtt_parse(golden, sizeof(golden), &f) == 52, "parses");
	is_u64(f.target, 1, "target");
	is_u64(f.version, 0x10, "version 1.0");
	is_u64(f.cmd, MTT_FRAME_CMD_TRACE, "TRACE");
	is_u64(f.flags, 0x0f, "flags");
	is_u64(f.comp, 3, "component id (word 2)");
	is_u64(f.trace_id, 0xc0de0000u, "trace id (word 3)");
	is_u64(f.type_info, 0x05000004u, "type_info (word 4)");
	is_u64(f.ctx, 100, "context");
	is_u64(f.ts, 0x100000002ull, "timestamp, low word first");
	is_u64(f.level, 0x20000000u, "level");
	is_u64(f.payload_len, 4, "payload length");
	is_str(f.hint, "signal0", "hint");
	is_u64((uint64_t)(int64_t)f.crc_ok, (uint64_t)-1, "no CRC");
	mttd_mtt_value(&f, v, sizeof(v));
	is_str(v, "4242", "value");
	is_str(mttd_mtt_level_name(f.level, lb), "INFO", "level name");
	is_str(mttd_mtt_cmd_name(f.cmd), "TRACE", "command name");
}

static void test_not_frames(void)
{
	uint8_t b[sizeof(golden)];
	struct mttd_mtt_frame f;

	memcpy(b, golden, sizeof(b));
	b[1] = 0x20;	/* version 2.0 */
	ok(mttd_mtt_frame_len(b, sizeof(b)) == 0, "version 2.0: not a frame");
	memcpy(b, golden, sizeof(b));
	b[3] = 0xef;
	ok(mttd_mtt_parse(b, sizeof(b), &f) == 0, "bad sync: not a frame");
	ok(mttd_mtt_frame_len(golden, 7) == -1, "7 bytes: cannot tell");
	/* a SyS-T header can never look like a sync word (bits 31:30) */
	memcpy(b, "\x42\x00\x80\x01", 4);
	ok(mttd_mtt_frame_len(b, sizeof(b)) == 0, "SyS-T header: no");
}

static void test_values(void)
{
	static const uint8_t u8 = 0xff;
	static const uint8_t i16[] = { 0x00, 0x80 };
	static const uint8_t i32[] = { 0xfb, 0xff, 0xff, 0xff };
	static const uint8_t u64[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					0xff, 0xff };
	static const uint8_t f32[] = { 0x00, 0x00, 0xc0, 0x3f };	/* 1.5 */
	static const uint8_t f64[] = { 0, 0, 0, 0, 0, 0, 0x0a, 0x40 }; /* 3.25 */
	static const uint8_t one[] = { 1, 0, 0, 0 };
	static const uint8_t zero[] = { 0, 0, 0, 0 };
	static const uint8_t p32[] = { 0x92, 0x10, 0, 0 };
	static const uint8_t v16[] = { 1, 0, 2, 0, 0xff, 0xff };
	static const uint8_t dump[] = { 1, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde };
	static const uint8_t fv[] = { 0, 0, 0xc0, 0x3f, 0, 0, 0x80, 0xbf };

	value_is(0x01000001, &u8, "255");
	value_is(0x02000001, &u8, "-1");
	value_is(0x03000002, i16, "32768");
	value_is(0x04000002, i16, "-32768");
	value_is(0x05000004, i32, "4294967291");
	value_is(0x06000004, i32, "-5");
	value_is(0x07000008, u64, "18446744073709551615");
	value_is(0x08000008, u64, "-1");
	value_is(0x09000004, f32, "1.5");
	value_is(0x0a000008, f64, "3.25");
	value_is(0x0b000004, one, "true");
	value_is(0x0b000004, zero, "false");
	value_is(0x05040004, p32, "0x00001092");		/* PTR32 */
	value_is(0x03010006, v16, "[1, 2, 65535]");		/* vector */
	value_is(0x04010006, v16, "[1, 2, -1]");
	value_is(0x05050008, dump, "[0x00000001, 0xdeadbeef]");	/* DUMP */
	value_is(0x09010008, fv, "[1.5, -1]");
	value_is(0x01020004, "hi\n\"", "\"hi\\n\\\"\"");		/* STRING */
	value_is(0x01020005, "ab\0cd", "\"ab\"");		/* to the NUL */
	value_is(0x01010003, "abc", "[97, 98, 99]");		/* BLOB */
	value_is(0x00000003, "abc", "61 62 63");	/* no type: hex */
	value_is(0x05000003, "abc", "61 62 63");	/* size mismatch */
	value_is(0x05000000, "", "-");			/* a marker */
}

static void test_numbers(void)
{
	static const uint8_t v16[] = { 1, 0, 0xfe, 0xff };
	uint8_t b[64];
	struct mttd_mtt_frame f;
	double d = 0;

	mttd_mtt_parse(b, mk(b, 0, 0x04010004, v16), &f);
	is_u64(mttd_mtt_count(&f), 2, "two INT16 elements");
	ok(mttd_mtt_number(&f, 1, &d) && d == -2, "element 1 is -2");
	ok(!mttd_mtt_number(&f, 2, &d), "no element 2");
	mttd_mtt_parse(b, mk(b, 0, 0x01020002, "hi"), &f);
	ok(!mttd_mtt_number(&f, 0, &d), "a string is not a number");
}

static void test_levels(void)
{
	static const struct {
		uint32_t level;
		const char *name;
		unsigned int sev;
	} t[] = {
		{ 0x80000000u, "ERROR", 2 }, { 0x40000000u, "WARNING", 3 },
		{ 0x20000000u, "INFO", 4 }, { 0x10000000u, "DEBUG", 7 },
		{ 0x08000000u, "ASSERT", 1 }, { 0x04000000u, "CALLSTACK", 7 },
		{ 0x00010000u, "API_ENTRY", 7 }, { 0x00020000u, "API_RETURN", 7 },
		{ 0x00040000u, "CURSORC", 7 }, { 0x00080000u, "CURSORD", 7 },
		{ 0x00000001u, "USER0", 5 }, { 0x00000080u, "USER7", 5 },
		{ 0x00000100u, "USER8", 6 }, { 0x00008000u, "USER15", 6 },
		{ 0, "NONE", 4 }, { 0xa0000000u, "0xa0000000", 2 },
	};
	char b[11], name[64];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(name, sizeof(name), "level 0x%08x is %s",
			 t[i].level, t[i].name);
		is_str(mttd_mtt_level_name(t[i].level, b), t[i].name, name);
		snprintf(name, sizeof(name), "level %s -> SyS-T severity %u",
			 t[i].name, t[i].sev);
		is_u64(mttd_mtt_severity(t[i].level), t[i].sev, name);
	}
}

/* CRC-16/CCITT-FALSE, written apart from the library's */
static uint16_t crc16(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffff;

	while (n--) {
		unsigned int k;

		c ^= (uint32_t)*p++ << 8;
		for (k = 0; k < 8; k++) {
			c <<= 1;
			if (c & 0x10000)
				c ^= 0x11021;
		}
	}
	return (uint16_t)c;
}

static void test_crc_tstv(void)
{
	uint8_t b[64];
	struct mttd_mtt_frame f;
	size_t n = mk(b, MTT_FRAME_F_CRC, 0x05000004, "\x01\0\0\0");
	uint16_t c;

	is_u64(crc16((const uint8_t *)"123456789", 9), 0x29b1,
	       "test CRC-16/CCITT-FALSE check value");
	c = crc16(b, n);
	b[n] = (uint8_t)c;
	b[n + 1] = (uint8_t)(c >> 8);
	b[n + 2] = b[n + 3] = 0;
	ok(mttd_mtt_parse(b, n + 4, &f) == (long)n + 4 && f.crc_ok == 1,
	   "CRC word after the payload checks");
	b[n] ^= 1;
	ok(mttd_mtt_parse(b, n + 4, &f) == (long)n + 4 && f.crc_ok == 0,
	   "a wrong CRC is flagged");

	/* TSTV: seconds and microseconds */
	n = mk(b, MTT_FRAME_F_TSTV, 0, "");
	memcpy(b + 20, "\x02\0\0\0\x03\0\0\0", 8);
	ok(mttd_mtt_parse(b, 28, &f) == 28 && f.ts == 2000003000ull,
	   "TSTV: 2 s 3 us");
	(void)n;
}

static void test_names(void)
{
	static const char xml[] =
		"<?xml version=\"1.0\"?>\n"
		"<syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">"
		"<syst:Client Name=\"mtt\"><syst:Modules>"
		"<syst:Module ID=\"9\"><![CDATA[from_xml]]></syst:Module>"
		"</syst:Modules><syst:Catalog32>"
		"<syst:Format ID=\"0x1234\"><![CDATA[dict_name]]></syst:Format>"
		"</syst:Catalog32></syst:Client></syst:Collateral>";
	struct mttd_coll *c = mttd_coll_new();
	struct mttd_mtt_names *n;
	struct mttd_mtt_frame f;
	uint8_t b[64];
	char err[128];

	ok(c && !mttd_coll_load_mem(c, xml, sizeof(xml) - 1, "t", err,
				    sizeof(err)), "collateral loads");
	n = mttd_mtt_names_new(c);
	ok(n != NULL, "names");
	mttd_mtt_parse(b, mk(b, MTT_FRAME_CMD_META, 0x01020004, "comp"), &f);
	ok(mttd_mtt_names_learn(n, &f), "META frame names component 7");
	is_str(mttd_mtt_comp_name(n, 7), "comp", "component 7 is \"comp\"");
	is_str(mttd_mtt_comp_name(n, 9), "from_xml",
	       "component 9 named by the collateral");
	ok(mttd_mtt_comp_name(n, 8) == NULL, "component 8 has no name");
	mttd_mtt_parse(b, mk(b, MTT_FRAME_F_DICT, 0, ""), &f);
	ok(mttd_mtt_value_name(n, &f) == NULL, "DICT key 0: no text");
	b[12] = 0x34;
	b[13] = 0x12;
	mttd_mtt_parse(b, 20, &f);
	is_str(mttd_mtt_value_name(n, &f), "dict_name",
	       "DICT key 0x1234 named by Catalog32");
	mttd_mtt_parse(golden, sizeof(golden), &f);
	is_str(mttd_mtt_value_name(n, &f), "signal0", "the hint names a value");
	mttd_mtt_names_free(n);
	mttd_coll_free(c);
}

/* stream test: frames and skips as text */
struct rec {
	char s[4096];
	size_t len;
};

static void on_frame(void *ctx, const struct mttd_mtt_frame *f, uint64_t off)
{
	struct rec *r = ctx;

	r->len += (size_t)snprintf(r->s + r->len, sizeof(r->s) - r->len,
				   "F@%llu c%u n%zu;", (unsigned long long)off,
				   f->comp, f->len);
}

static void on_skip(void *ctx, uint64_t off, uint64_t n)
{
	struct rec *r = ctx;

	r->len += (size_t)snprintf(r->s + r->len, sizeof(r->s) - r->len,
				   "S@%llu n%llu;", (unsigned long long)off,
				   (unsigned long long)n);
}

static void run(const uint8_t *p, size_t n, size_t chunk, struct rec *r)
{
	struct mttd_mtt_stream *s = mttd_mtt_stream_new(on_frame, on_skip, r);
	size_t i;

	r->len = 0;
	r->s[0] = 0;
	for (i = 0; i < n; i += chunk)
		mttd_mtt_stream_push(s, p + i, n - i < chunk ? n - i : chunk);
	mttd_mtt_stream_finish(s);
	mttd_mtt_stream_free(s);
}

static void test_stream(void)
{
	static const char want[] =
		"S@0 n3;F@3 c3 n52;S@55 n52;F@107 c3 n52;F@159 c3 n52;"
		"S@211 n30;";
	uint8_t buf[512];
	size_t n = 0, k;
	struct rec r, r1;
	int same = 1;

	memcpy(buf, "xyz", 3);			/* garbage first */
	n = 3;
	memcpy(buf + n, golden, 52);		/* a frame */
	n += 52;
	memcpy(buf + n, golden, 52);		/* one with a damaged sync */
	buf[n + 2] = 0x00;
	n += 52;
	memcpy(buf + n, golden, 52);
	n += 52;
	memcpy(buf + n, golden, 52);
	n += 52;
	memcpy(buf + n, golden, 30);		/* cut at the end */
	n += 30;
	run(buf, n, n, &r);
	is_str(r.s, want, "damaged stream: frames and skipped runs");
	for (k = 1; k <= 64 && same; k++) {
		run(buf, n, k, &r1);
		same = !strcmp(r1.s, r.s);
		if (!same)
			diag("chunk %zu: %s", k, r1.s);
	}
	ok(same, "every chunking from 1 to 64 bytes gives the same result");
	run(buf, 0, 1, &r);
	is_str(r.s, "", "an empty stream gives nothing");
}

int main(void)
{
	test_golden();
	test_not_frames();
	test_values();
	test_numbers();
	test_levels();
	test_crc_tstv();
	test_names();
	test_stream();
	return done_testing();
}
