// SPDX-License-Identifier: GPL-2.0
/*
 * frametest.c - golden tests of the framing layers (mttdecode/framing.h) on
 * captures written out by hand below: CoreSight frames with immediate and
 * delayed ID changes, aux bits, an ID change in byte 14, FSYNC barriers,
 * HSYNC, ID detection, the probe; Intel TH MSC blocks with valid_dw,
 * empty blocks, a unit that is not a descriptor, a wrapped window, a cut
 * capture, the probe.  Each capture is also fed in every chunk size from
 * 1 to 64 bytes and must give the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/framing.h"
#include "tap.h"

struct sink {
	uint8_t b[4096];
	size_t n;
};

static void on_bytes(void *ctx, const uint8_t *p, size_t n)
{
	struct sink *s = ctx;

	if (s->n + n <= sizeof(s->b))
		memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* the bytes a CoreSight capture gives with chunks of 'chunk' (0: whole) */
static struct sink cs_run(const uint8_t *p, size_t n, unsigned int id,
			  unsigned int flags, size_t chunk,
			  struct mttd_cs_stats *st)
{
	struct sink s = { .n = 0 };
	struct mttd_cs_config cfg = { on_bytes, &s, id, flags };
	struct mttd_cs *c = mttd_cs_new(&cfg);
	size_t off = 0;

	if (!c)
		abort();
	while (off < n) {
		size_t k = chunk && chunk < n - off ? chunk : n - off;

		mttd_cs_feed(c, p + off, k);
		off += k;
	}
	mttd_cs_finish(c);
	if (st)
		*st = *mttd_cs_stats(c);
	mttd_cs_free(c);
	return s;
}

static struct sink msc_run(const uint8_t *p, size_t n, size_t chunk,
			   struct mttd_msc_stats *st)
{
	struct sink s = { .n = 0 };
	struct mttd_msc_config cfg = { on_bytes, &s };
	struct mttd_msc *m = mttd_msc_new(&cfg);
	size_t off = 0;

	if (!m)
		abort();
	while (off < n) {
		size_t k = chunk && chunk < n - off ? chunk : n - off;

		mttd_msc_feed(m, p + off, k);
		off += k;
	}
	mttd_msc_finish(m);
	if (st)
		*st = *mttd_msc_stats(m);
	mttd_msc_free(m);
	return s;
}

static int same(const struct sink *s, const uint8_t *want, size_t n)
{
	return s->n == n && !memcmp(s->b, want, n);
}

/* every chunking gives want */
static void cs_chunks(const uint8_t *p, size_t n, unsigned int id,
		      unsigned int flags, const uint8_t *want, size_t nw,
		      const char *name)
{
	size_t c;
	int good = 1;

	for (c = 1; c <= 64; c++) {
		struct sink s = cs_run(p, n, id, flags, c, NULL);

		good &= same(&s, want, nw);
	}
	ok(good, "%s: the same bytes in chunks of 1..64", name);
}

static void msc_chunks(const uint8_t *p, size_t n, const uint8_t *want,
		       size_t nw, const char *name)
{
	size_t c;
	int good = 1;

	for (c = 1; c <= 64; c++) {
		struct sink s = msc_run(p, n, c, NULL);

		good &= same(&s, want, nw);
	}
	ok(good, "%s: the same bytes in chunks of 1..64", name);
}

/* frame 1: ID 0x10 then AA; data BB (bit 0 from aux); CC; delayed
 * change to 0x20 (DD still 0x10's); 0x20's 66 77; immediate change to
 * 0x10 then EE; 12 34; 57 (bit 0 from aux) 78; change to 0x20 in byte
 * 14.  Frame 2: 0x20's data, then a change to 0x10 and 99. */
static const uint8_t frames[32] = {
	0x21, 0xaa, 0xba, 0xcc, 0x41, 0xdd, 0x66, 0x77,
	0x21, 0xee, 0x12, 0x34, 0x56, 0x78, 0x41, 0x46,
	0x10, 0x11, 0x21, 0x99, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
static const uint8_t want10[] = {
	0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x12, 0x34, 0x57, 0x78, 0x99,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00,
};
static const uint8_t want20[] = { 0x66, 0x77, 0x10, 0x11 };

static void coresight(void)
{
	static const uint8_t fsync4[16] = {
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
	};
	uint8_t buf[128];
	struct mttd_cs_stats st;
	struct sink s;
	struct mttd_cs_config bad = { on_bytes, NULL, 0x70, 0 };
	unsigned int id = 0;
	size_t n;

	s = cs_run(frames, 32, 0x10, 0, 0, &st);
	ok(same(&s, want10, sizeof(want10)), "cs: ID 0x10's bytes");
	is_u64(st.frames, 2, "cs: 2 frames");
	is_u64(st.id_changes, 5, "cs: 5 ID changes");
	is_u64(st.data, sizeof(want10), "cs: data count");
	is_u64(st.other, sizeof(want20), "cs: other IDs' count");
	ok(st.ids[0] == (1ull << 0x10 | 1ull << 0x20) && !st.ids[1],
	   "cs: IDs seen 0x10 and 0x20");
	cs_chunks(frames, 32, 0x10, 0, want10, sizeof(want10), "cs");
	s = cs_run(frames, 32, 0x20, 0, 0, NULL);
	ok(same(&s, want20, sizeof(want20)), "cs: ID 0x20's bytes");

	/* barrier frames before, between and after */
	memcpy(buf, fsync4, 16);
	memcpy(buf + 16, frames, 16);
	memcpy(buf + 32, fsync4, 16);
	memcpy(buf + 48, frames + 16, 16);
	memcpy(buf + 64, fsync4, 16);
	s = cs_run(buf, 80, 0x10, 0, 0, &st);
	ok(same(&s, want10, sizeof(want10)) && st.fsyncs == 12,
	   "cs: barrier frames skipped (%llu FSYNCs)",
	   (unsigned long long)st.fsyncs);
	cs_chunks(buf, 80, 0x10, 0, want10, sizeof(want10), "cs barriers");

	/* TPIU: junk, FSYNC, frame with an HSYNC at offset 6, FSYNC, frame */
	n = 0;
	memcpy(buf, "\x12\x34\xff\xff\x56", 5);
	n = 5;
	memcpy(buf + n, fsync4, 4);
	n += 4;
	memcpy(buf + n, frames, 6);
	n += 6;
	buf[n++] = 0xff;
	buf[n++] = 0x7f;
	memcpy(buf + n, frames + 6, 10);
	n += 10;
	memcpy(buf + n, fsync4, 4);
	n += 4;
	memcpy(buf + n, frames + 16, 16);
	n += 16;
	s = cs_run(buf, n, 0x10, MTTD_CS_HSYNC, 0, &st);
	ok(same(&s, want10, sizeof(want10)) && st.hsyncs == 1 &&
	   st.fsyncs == 2 && st.unsynced == 5,
	   "cs hsync: junk, FSYNCs and the HSYNC removed");
	cs_chunks(buf, n, 0x10, MTTD_CS_HSYNC, want10, sizeof(want10),
		  "cs hsync");
	s = cs_run(buf, n, 0x10, MTTD_CS_FSYNC, 0, NULL);
	ok(!same(&s, want10, sizeof(want10)),
	   "cs fsync: without MTTD_CS_HSYNC the HSYNC is taken as data");

	/* detection: 0x20 carries junk, 0x33 an ASYNC (F x 22, 0) */
	{
		static const uint8_t det[32] = {
			0x41, 0x01, 0x02, 0x03, 0x67, 0xff, 0xfe, 0xff,
			0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xf8,
			0xfe, 0x0f, 0x30, 0x12, 0x00, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		};
		static const uint8_t want33[] = {
			0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			0xff, 0xff, 0x0f, 0x30, 0x12, 0x00, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		};

		s = cs_run(det, 32, 0, 0, 0, &st);
		ok(st.trace_id == 0x33, "cs: trace ID 0x%x detected",
		   st.trace_id);
		ok(same(&s, want33, sizeof(want33)),
		   "cs: passed on from the ASYNC (%zu bytes)", s.n);
		cs_chunks(det, 32, 0, 0, want33, sizeof(want33),
			  "cs detection");
		ok(mttd_cs_probe(det, 32, &id) && id == 0x33,
		   "cs probe: ID 0x33");
	}
	ok(!mttd_cs_probe(frames, 32, NULL), "cs probe: no ASYNC, no");
	memset(buf, 0xff, 32);
	buf[11] = 0x0f;
	ok(!mttd_cs_probe(buf, 32, NULL), "cs probe: raw STP, no");
	ok(!mttd_cs_new(&bad), "cs: trace ID 0x70 refused");
	bad.trace_id = 1;
	bad.flags = 4;
	ok(!mttd_cs_new(&bad), "cs: unknown flags refused");
	bad.flags = 0;
	bad.fn = NULL;
	ok(!mttd_cs_new(&bad) && !mttd_cs_new(NULL), "cs: no callback refused");
	/* a frame cut short */
	s = cs_run(frames, 20, 0x10, 0, 0, &st);
	ok(st.truncated == 4 && st.frames == 1, "cs: 4 bytes of a cut frame");
}

/* block: size 'units' * 64, sw/hw tags, 'len' data bytes of value 'fill' */
static size_t block(uint8_t *p, uint32_t units, uint32_t sw, uint32_t hw,
		    uint32_t len, uint8_t fill)
{
	memset(p, 0, units * 64);
	put32(p, sw);
	put32(p + 4, units);
	put32(p + 32, hw);
	put32(p + 36, len ? (64 + len) / 4 : 0);
	put32(p + 40, 0x1000 + fill);
	memset(p + 64, fill, len);
	memset(p + 64 + len, 0xee, units * 64 - 64 - len);	/* not valid */
	return units * 64;
}

static void msc(void)
{
	static uint8_t cap[1024], want[512];
	struct mttd_msc_stats st;
	struct mttd_msc_config bad = { NULL, NULL };
	struct sink s;
	size_t n = 0, nw = 0;

	/* 8 valid bytes, an empty block, a unit that is no descriptor, a
	 * full block ending the window */
	n += block(cap + n, 2, 0, 0, 8, 0x11);
	n += block(cap + n, 2, 0, 0, 0, 0x22);
	memset(cap + n, 0x5a, 64);
	n += 64;
	n += block(cap + n, 2, 1, 0, 64, 0x33);
	memset(want, 0x11, 8);
	memset(want + 8, 0x33, 64);
	nw = 72;
	s = msc_run(cap, n, 0, &st);
	ok(same(&s, want, nw), "msc: valid bytes only");
	ok(st.blocks == 3 && st.bad == 1 && st.windows == 1 &&
	   !st.wrapped && !st.truncated && st.last_ts == 0x1033,
	   "msc: 3 blocks, 1 bad unit, 1 window");
	msc_chunks(cap, n, want, nw, "msc");
	ok(mttd_msc_probe(cap, n), "msc probe: yes");
	ok(!mttd_msc_probe(cap + 256, n - 256), "msc probe: not at a bad unit");

	/* wrapped: the newest data (C, short) in block 0, then A, B */
	n = 0;
	n += block(cap + n, 2, 0, 2, 32, 0xcc);
	n += block(cap + n, 2, 0, 2, 64, 0xaa);
	n += block(cap + n, 2, 1, 0, 64, 0xbb);
	n += block(cap + n, 2, 1, 0, 4, 0xdd);	/* the next window */
	memset(want, 0xaa, 64);
	memset(want + 64, 0xbb, 64);
	memset(want + 128, 0xcc, 32);
	memset(want + 160, 0xdd, 4);
	nw = 164;
	s = msc_run(cap, n, 0, &st);
	ok(same(&s, want, nw), "msc wrapped: oldest block first");
	ok(st.wrapped == 1 && st.windows == 2, "msc wrapped: counted");
	msc_chunks(cap, n, want, nw, "msc wrapped");

	/* cut inside the held part: still passed on at the end */
	s = msc_run(cap, 100, 0, &st);
	ok(same(&s, want + 128, 32) && st.truncated,
	   "msc cut: what was held is passed on, the cut counted");

	/* probe */
	ok(!mttd_msc_probe(frames, 32), "msc probe: short input, no");
	memset(cap, 0xff, 128);
	ok(!mttd_msc_probe(cap, 128), "msc probe: raw STP, no");
	block(cap, 2, 0, 0, 8, 0x11);
	block(cap + 128, 4, 0, 0, 8, 0x11);
	ok(!mttd_msc_probe(cap, 256), "msc probe: block sizes differ, no");
	ok(!mttd_msc_new(&bad) && !mttd_msc_new(NULL),
	   "msc: no callback refused");
}

int main(void)
{
	coresight();
	msc();
	return done_testing();
}
