// SPDX-License-Identifier: GPL-2.0
/*
 * systmix.c - writes an STPv2 stream (to stdout) of one of these kinds,
 * each SyS-T message built here from the SyS-T specification's header
 * layout ([3:0] type, [6:4] severity, 8 location, 9 length, 10 CRC-32C,
 * 11 timestamp, [22:12] origin/unit, 23 GUID, [29:24] subtype), the MTT
 * frames from Documentation/mtt.rst's wire format:
 *
 *   demo     what make demo records through p_sys-t nodes: the console
 *            (GUID A), the shell on "default" (GUID B), a node with an
 *            origin (5:3, no GUID), and MTT (MTT's GUID) sending a META
 *            frame (component 3 "sample") and a TRACE of component 4
 *            (named only by the collateral) as RAW:0x31 messages
 *   basic    p_basic text writes: not SyS-T
 *   short    only 4-byte writes (each would frame as a SHORT32)
 *   crc      SyS-T strings with a CRC-32C, all right
 *   badcrc   the same, the second one's CRC wrong
 *   badlen   a SyS-T string whose length field says 5 for 6 bytes
 *   mixed    two SyS-T strings, then a p_basic text write
 *   slices   SyS-T STRING:ENTER/EXIT on m1 c0: f at 1000 us .. 4000 us,
 *            g inside it 2000 .. 3000 us (STP times in ns); MTT TRACE
 *            frames of component 3, thread 100, as whole STP messages on
 *            m6 c0: API_ENTRY "api" at 5000 us, INFO "x" = 7 at 5500 us,
 *            API_RETURN "api" at 6000 us (frame times in ns)
 *   view N   for the HTML viewer (html-view.t), i = 0 .. N-1: a SyS-T
 *            string (GUID B) on m1 c0 at (i + 1) us, "needle i" ERROR
 *            when i % 10 == 0, else "msg i" INFO ("msg 5 </script><!--"
 *            for i = 5); an MTT TRACE frame
 *            (component 3, CPU 1, thread 100) on m6 c0, INFO, "temp" =
 *            i % 8 at (i + 1) us + 500 ns; when i % 4 == 0 an API_ENTRY
 *            "work" at (i + 1) us + 200 ns and its API_RETURN at + 700
 *            ns (STP and frame times alike)
 *   chans N  N p_basic text writes "word <i>", each on a channel of its own
 *            (m<1 + i / 256> c<i % 256>, i = 0 .. N-1) at (i + 1) us
 *
 * Usage: systmix KIND [N].  systmix.t, coll-origin.t, html-view.t
 * decode them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "stpenc.h"

#define GUID_BIT	(1u << 23)
#define LEN_BIT		(1u << 9)
#define CHK_BIT		(1u << 10)

static const uint8_t guid_a[16] = {	/* {11111111-2222-4333-8444-555555555555} */
	0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x43, 0x33,
	0x84, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55,
};
static const uint8_t guid_b[16] = {	/* {22222222-3333-4444-8555-666666666666} */
	0x22, 0x22, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44,
	0x85, 0x55, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
};
static const uint8_t guid_mtt[16] = {	/* {cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223} */
	0xcd, 0x6b, 0x9e, 0xbf, 0x0b, 0x3a, 0x4b, 0x7d,
	0xac, 0x9a, 0x4f, 0xe1, 0x8a, 0x92, 0x32, 0x23,
};

/* CRC-32C (Castagnoli, reflected 0x82F63B78, init and final xor ~0),
 * bit by bit */
static uint32_t crc32c(const uint8_t *p, size_t n)
{
	uint32_t c = ~0u;
	unsigned int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82f63b78u & -(c & 1u));
	}
	return ~c;
}

static void chan(struct stpenc *e, unsigned int m, unsigned int c)
{
	stpenc_packet(e, MTTD_OP_M8, m, 0, 0, 0, 0);
	stpenc_packet(e, MTTD_OP_C8, c, 0, 0, 0, 0);
}

/* p[0..n) as one STP message (its first word in the D32TS) */
static void msg(struct stpenc *e, const uint8_t *p, size_t n, uint64_t ts)
{
	uint32_t w = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;

	stpenc_syst_msg(e, w, p + 4, n - 4, ts);
}

/*
 * A SyS-T message: header h, the GUID when h has bit 23, a length field
 * of len (the payload's when len < 0) when h has bit 9, the payload, a
 * CRC-32C (plus bad) when h has bit 10.
 */
static void syst(struct stpenc *e, uint32_t h, const uint8_t *guid,
		 long len, const void *pl, size_t n, uint32_t bad,
		 uint64_t ts)
{
	uint8_t b[512];
	size_t q = 4;
	uint32_t c;

	b[0] = (uint8_t)h;
	b[1] = (uint8_t)(h >> 8);
	b[2] = (uint8_t)(h >> 16);
	b[3] = (uint8_t)(h >> 24);
	if (h & GUID_BIT) {
		memcpy(b + q, guid, 16);
		q += 16;
	}
	if (h & LEN_BIT) {
		unsigned int l = len < 0 ? (unsigned int)n : (unsigned int)len;

		b[q++] = (uint8_t)l;
		b[q++] = (uint8_t)(l >> 8);
	}
	memcpy(b + q, pl, n);
	q += n;
	if (h & CHK_BIT) {
		c = crc32c(b, q) + bad;
		b[q++] = (uint8_t)c;
		b[q++] = (uint8_t)(c >> 8);
		b[q++] = (uint8_t)(c >> 16);
		b[q++] = (uint8_t)(c >> 24);
	}
	msg(e, b, q, ts);
}

/* STRING:GENERIC INFO header, with a GUID or an origin */
#define STR_GUID	(0x01000042u | GUID_BIT)
#define STR_ERROR	(0x01000022u | GUID_BIT)
#define STR_ORIGIN(mod, unit) (0x01000042u | ((mod) << 4 | (unit)) << 12)
/* RAW, protocol 0x31 (MTT), INFO, GUID, unit = component */
#define RAW_MTT(comp)	(0x31000046u | GUID_BIT | (comp) << 12)

static void put32(uint8_t *b, size_t *at, uint32_t v)
{
	b[(*at)++] = (uint8_t)v;
	b[(*at)++] = (uint8_t)(v >> 8);
	b[(*at)++] = (uint8_t)(v >> 16);
	b[(*at)++] = (uint8_t)(v >> 24);
}

/*
 * An MTT frame into b, CPU 1: w1 = command | flags (CTXT 1, TS64 2,
 * LEVEL 4, HINT 8: those fields follow the preamble in this order), the
 * payload pl[0..n) NUL-padded to 4, the hint in 12 bytes; its length.
 */
static size_t frame(uint8_t *b, uint32_t w1, uint32_t comp, uint32_t tid,
		    uint32_t type, uint32_t ctx, uint64_t ts, uint32_t level,
		    const void *pl, size_t n, const char *hint)
{
	size_t at = 0;

	put32(b, &at, 0xeee01001u);
	put32(b, &at, w1);
	put32(b, &at, comp);
	put32(b, &at, tid);
	put32(b, &at, type | (uint32_t)n);
	if (w1 & 1)
		put32(b, &at, ctx);
	if (w1 & 2) {
		put32(b, &at, (uint32_t)ts);
		put32(b, &at, (uint32_t)(ts >> 32));
	}
	if (w1 & 4)
		put32(b, &at, level);
	memset(b + at, 0, (n + 3) / 4 * 4 + 12);
	memcpy(b + at, pl, n);
	at += (n + 3) / 4 * 4;
	if (w1 & 8) {
		memcpy(b + at, hint, strlen(hint) < 12 ? strlen(hint) : 12);
		at += 12;
	}
	return at;
}

/* TRACE, CTXT|TS64|LEVEL|HINT, UINT32 v, thread ctx, trace id 0xc0de0000 */
static size_t trace(uint8_t *b, uint32_t comp, uint32_t level, uint64_t ts,
		    uint32_t ctx, const char *hint, uint32_t v)
{
	const uint8_t le[4] = {
		(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
		(uint8_t)(v >> 24),
	};

	return frame(b, 0x0000000fu, comp, 0xc0de0000u, 0x05000000u, ctx, ts,
		     level, le, 4, hint);
}

static void text(struct stpenc *e, const char *s, uint64_t ts)
{
	msg(e, (const uint8_t *)s, strlen(s), ts);
}

/* the "view N" kind */
static void view(struct stpenc *e, unsigned long nrec)
{
	uint8_t b[64];
	char t[32];
	unsigned long i;
	uint64_t us;
	size_t n;

	for (i = 0; i < nrec; i++) {
		us = (i + 1) * 1000;
		chan(e, 1, 0);
		snprintf(t, sizeof(t), "%s %lu%s", i % 10 ? "msg" : "needle", i,
			 i == 5 ? " </script><!--" : "");
		syst(e, i % 10 ? STR_GUID : STR_ERROR, guid_b, 0, t,
		     strlen(t), 0, us);
		chan(e, 6, 0);
		n = trace(b, 3, 0x20000000u, us + 500, 100, "temp",
			  (uint32_t)(i % 8));
		msg(e, b, n, us + 500);
		if (i % 4)
			continue;
		n = trace(b, 3, 0x00010000u, us + 200, 100, "work", 1);
		msg(e, b, n, us + 200);
		n = trace(b, 3, 0x00020000u, us + 700, 100, "work", 0);
		msg(e, b, n, us + 700);
	}
}

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "";
	struct stpenc e;
	uint8_t b[64];
	size_t n;
	int i;

	stpenc_init(&e, 3);
	stpenc_async(&e);
	stpenc_packet(&e, MTTD_OP_VERSION, 3, 0, 0, 0, 0);
	if (!strcmp(kind, "demo")) {
		chan(&e, 4, 0);
		syst(&e, STR_GUID, guid_a, 0, "demo: console line", 18, 0,
		     1000);
		chan(&e, 1, 0);
		syst(&e, STR_GUID, guid_b, 0, "shell: sensor reading 1", 23,
		     0, 2000);
		chan(&e, 5, 1);
		syst(&e, STR_ORIGIN(5u, 3u), NULL, 0, "origin node", 11, 0,
		     3000);
		/* META (CTXT|TS64): component 3 is "sample"; a TRACE of
		 * component 4, INFO, 4242, "signal0" */
		chan(&e, 6, 0);
		n = frame(b, 0x40000003u, 3, 0, 0x01020000u, 100,
			  0x100000001ull, 0, "sample", 6, NULL);
		syst(&e, RAW_MTT(3u), guid_mtt, 0, b, n, 0, 4000);
		n = trace(b, 4, 0x20000000u, 0x100000002ull, 100, "signal0",
			  4242);
		syst(&e, RAW_MTT(4u), guid_mtt, 0, b, n, 0, 5000);
	} else if (!strcmp(kind, "basic")) {
		chan(&e, 1, 0);
		text(&e, "hello world\n", 1000);
		text(&e, "abc ", 2000);
		text(&e, "second line\n", 3000);
	} else if (!strcmp(kind, "short")) {
		chan(&e, 1, 0);
		for (i = 0; i < 3; i++)
			text(&e, "abc ", 1000 + 1000 * (uint64_t)i);
	} else if (!strcmp(kind, "crc") || !strcmp(kind, "badcrc")) {
		chan(&e, 1, 0);
		for (i = 0; i < 3; i++)
			syst(&e, STR_GUID | CHK_BIT, guid_b, 0, "crc'd", 5,
			     i == 1 && kind[0] == 'b', 1000 + 1000 * (uint64_t)i);
	} else if (!strcmp(kind, "badlen")) {
		chan(&e, 1, 0);
		syst(&e, STR_GUID, guid_b, 0, "first", 5, 0, 1000);
		syst(&e, STR_GUID | LEN_BIT, guid_b, 5, "sixsix", 6, 0, 2000);
	} else if (!strcmp(kind, "mixed")) {
		chan(&e, 1, 0);
		syst(&e, STR_GUID, guid_b, 0, "one", 3, 0, 1000);
		syst(&e, STR_GUID, guid_b, 0, "two", 3, 0, 2000);
		text(&e, "hello world\n", 3000);
	} else if (!strcmp(kind, "slices")) {
		chan(&e, 1, 0);
		syst(&e, 0x02000042u, NULL, 0, "f", 2, 0, 1000000);
		syst(&e, 0x02000042u, NULL, 0, "g", 2, 0, 2000000);
		syst(&e, 0x03000042u, NULL, 0, "g", 2, 0, 3000000);
		syst(&e, 0x03000042u, NULL, 0, "f", 2, 0, 4000000);
		chan(&e, 6, 0);
		n = trace(b, 3, 0x00010000u, 5000000, 100, "api", 1);
		msg(&e, b, n, 5000000);
		n = trace(b, 3, 0x20000000u, 5500000, 100, "x", 7);
		msg(&e, b, n, 5500000);
		n = trace(b, 3, 0x00020000u, 6000000, 100, "api", 0);
		msg(&e, b, n, 6000000);
	} else if (!strcmp(kind, "chans") && argc > 2) {
		unsigned long k, nch = strtoul(argv[2], NULL, 0);
		char w[32];

		for (k = 0; k < nch; k++) {
			chan(&e, 1 + (unsigned int)k / 256,
			     (unsigned int)k % 256);
			snprintf(w, sizeof(w), "word %lu", k);
			text(&e, w, (k + 1) * 1000);
		}
	} else if (!strcmp(kind, "view") && argc > 2) {
		view(&e, strtoul(argv[2], NULL, 0));
	} else {
		fprintf(stderr, "systmix: unknown kind \"%s\"\n", kind);
		return 2;
	}
	if (e.oom || fwrite(e.buf, 1, stpenc_bytes(&e), stdout) !=
	    stpenc_bytes(&e))
		return 1;
	stpenc_free(&e);
	return 0;
}
