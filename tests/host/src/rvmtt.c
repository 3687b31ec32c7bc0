// SPDX-License-Identifier: GPL-2.0
/*
 * rvmtt.c - the MTT frames of RISC-V trace encapsulation srcIDs
 * (mttd_rv_mtt_new(), tools/lib/mttdecode/riscv/riscv_mtt.c): streams
 * written with the test encoder (tests/host/enc/rvenc.c, from the
 * encapsulation spec), frames written here from the frame table of
 * Documentation/mtt.rst.  Two MTT srcIDs interleaved with frames cut
 * across packets and a srcID that is not MTT, for srcID widths 3, 8, 12
 * and 16; damage before a frame and a frame cut at the end; a frame split
 * at every byte; the calls' errors; and memory running short at each
 * allocation in turn (linked with --wrap=malloc,calloc,realloc; LSan
 * checks that nothing leaks).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "rvenc.h"
#include "tap.h"
#include "testutil.h"

/* The allocator as the library sees it: the nth call from arming fails. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static long alloc_left = -1;	/* calls until one fails; -1: never */
static int alloc_failed;

static int fail_now(void)
{
	if (alloc_left < 0)
		return 0;
	if (alloc_left-- == 0) {
		alloc_failed = 1;
		return 1;
	}
	return 0;
}

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

static uint64_t seed = 0x7276;

static unsigned int rnd(unsigned int n)
{
	return (unsigned int)(rnd64(&seed) % n);
}

static void put32(uint8_t *p, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * A TRACE frame (mtt.rst, "On the wire"): sync and version 1.0, flags
 * CTXT|TS64|LEVEL, component 5, trace id id, a payload of plen bytes
 * ('a'..'z': never a sync word) NUL-padded to 4.  Its length.
 */
static size_t frame(uint8_t *b, uint32_t id, size_t plen)
{
	size_t n, i;

	put32(b, 0xeee01000u | 2);
	put32(b + 4, 0x7);
	put32(b + 8, 5);
	put32(b + 12, id);
	put32(b + 16, (uint32_t)plen);
	put32(b + 20, 1234);		/* CTXT */
	put32(b + 24, 0x11223344);	/* TS64, low word first */
	put32(b + 28, 0);
	put32(b + 32, 0x20);		/* LEVEL */
	for (i = 0; i < plen; i++)
		b[36 + i] = (uint8_t)('a' + (id + i) % 26);
	n = 36 + plen;
	while (n % 4)
		b[n++] = 0;
	return n;
}

/* a source: its byte stream, what went into packets, what it must give */
struct src {
	uint32_t id;
	int mtt;
	uint8_t b[2048];
	size_t len, sent;
	size_t garbage;		/* leading bytes that are not a frame */
	size_t cut;		/* trailing bytes of a frame cut short */
	size_t nf;
	size_t f_off[16], f_len[16];
	uint32_t f_id[16];
	uint64_t packets;
};

static void src_fill(struct src *s, uint32_t id, int mtt, size_t garbage,
		     size_t frames, size_t cut)
{
	uint8_t tmp[256];
	size_t i;

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->mtt = mtt;
	if (!mtt) {
		s->len = 100 + rnd(100);
		for (i = 0; i < s->len; i++)
			s->b[i] = (uint8_t)rnd(256);
		return;
	}
	s->garbage = garbage;
	memset(s->b, 0x55, garbage);
	s->len = garbage;
	for (i = 0; i < frames; i++) {
		s->f_id[i] = 0x1000u * id + (uint32_t)i;
		s->f_off[i] = s->len;
		s->f_len[i] = frame(s->b + s->len, s->f_id[i], rnd(90));
		s->len += s->f_len[i];
	}
	s->nf = frames;
	if (cut) {
		frame(tmp, 0xdead, 60);
		memcpy(s->b + s->len, tmp, cut);
		s->cut = cut;
		s->len += cut;
	}
}

/* the lines a packet of s with bytes [a, b) of its stream must give */
static void src_expect(const struct src *s, size_t a, size_t b,
		       struct strbuf *want)
{
	size_t j;

	for (j = 0; s->mtt && j < s->nf; j++) {
		size_t end = s->f_off[j] + s->f_len[j];

		if (end <= a || end > b)
			continue;
		if (!j && s->garbage)
			sb_printf(want, "S %u @0 %zu\n", s->id, s->garbage);
		sb_printf(want, "F %u @%zu 0x%x\n", s->id, s->f_off[j],
			  s->f_id[j]);
	}
}

struct out {
	struct strbuf got;
	uint64_t next[3];	/* per source: the offset that must come */
	uint32_t ids[3];
	int order_ok;
};

static void out_at(struct out *o, uint32_t srcid, uint64_t off, uint64_t n)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (o->ids[i] == srcid)
			break;
	if (i == 3 || o->next[i] != off)
		o->order_ok = 0;
	else
		o->next[i] += n;
}

/* the callbacks' own allocations are not the library's: never failed */
static void on_frame(void *ctx, uint32_t srcid, const struct mttd_mtt_frame *f,
		     uint64_t off)
{
	struct out *o = ctx;
	long armed = alloc_left;

	alloc_left = -1;
	sb_printf(&o->got, "F %u @%llu 0x%x\n", srcid, (unsigned long long)off,
		  f->trace_id);
	alloc_left = armed;
	out_at(o, srcid, off, f->len);
}

static void on_skip(void *ctx, uint32_t srcid, uint64_t off, uint64_t n)
{
	struct out *o = ctx;
	long armed = alloc_left;

	alloc_left = -1;
	sb_printf(&o->got, "S %u @%llu %llu\n", srcid, (unsigned long long)off,
		  (unsigned long long)n);
	alloc_left = armed;
	out_at(o, srcid, off, n);
}

/* the decoders: the packets (no srcID in swstm's layout), then ours */
struct run {
	struct mttd_rv_mtt *dx;
	uint64_t taken, ignored, nomem, other;
};

static void on_stp(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	(void)ctx;
	(void)ev;
	(void)n;
}

static void on_pkt(void *ctx, const struct mttd_rv_packet *p, uint64_t off)
{
	struct run *r = ctx;
	int rc = mttd_rv_mtt_push(r->dx, p);

	(void)off;
	if (rc == 1)
		r->taken++;
	else if (!rc)
		r->ignored++;
	else if (rc == -ENOMEM)
		r->nomem++;
	else
		r->other++;
}

/* the stream of src[0..3) interleaved, packets of 1..max bytes */
static void encode(struct rvenc *e, struct src *s, struct strbuf *want)
{
	unsigned int max = e->w % 8 ? 30 : 31;

	rvenc_sync(e);
	for (;;) {
		unsigned int k = rnd(3), i, n;
		struct src *x;

		for (i = 0; i < 3 && s[(k + i) % 3].sent == s[(k + i) % 3].len;
		     i++)
			;
		if (i == 3)
			break;
		x = &s[(k + i) % 3];
		n = 1 + rnd(max);
		if (n > x->len - x->sent)
			n = (unsigned int)(x->len - x->sent);
		if (!rnd(8))
			rvenc_sync(e);
		rvenc_raw(e, rnd(4), e->t && rnd(2), x->id, rnd64(&seed),
			  x->b + x->sent, 8 * n);
		src_expect(x, x->sent, x->sent + n, want);
		x->sent += n;
		x->packets++;
	}
	for (;;) {	/* the end: cut frames, by srcID */
		struct src *lo = NULL;
		unsigned int i;

		for (i = 0; i < 3; i++)
			if (s[i].cut && (!lo || s[i].id < lo->id))
				lo = &s[i];
		if (!lo)
			break;
		sb_printf(want, "S %u @%zu %zu\n", lo->id, lo->len - lo->cut,
			  lo->cut);
		lo->cut = 0;
	}
}

static void set_bit(uint8_t *map, uint32_t id)
{
	map[id / 8] |= (uint8_t)(1u << (id % 8));
}

/*
 * Decode e's stream in chunks of 1..97 bytes into o; fail_at: the
 * allocation (from mttd_rv_mtt_new() on) that fails, -1 none.  The
 * demultiplexer's result: 0, or -1 if its mttd_rv_mtt_new() failed.
 */
static int decode_rv(const struct rvenc *e, const uint8_t *map, struct out *o,
		     struct run *r, long fail_at)
{
	static uint8_t none[8192];
	struct mttd_rv_config c = {
		.fn = on_stp, .ctx = r, .srcid_bits = e->w, .ts_bytes = e->t,
		.pkt_fn = on_pkt, .stp_srcids = none,
	};
	struct mttd_rv *rv = mttd_rv_new(&c);
	uint64_t cs = 99;
	size_t at = 0;

	memset(r, 0, sizeof(*r));
	alloc_failed = 0;
	alloc_left = fail_at;
	r->dx = mttd_rv_mtt_new(map, e->w, on_frame, on_skip, o);
	if (!rv || !r->dx) {
		alloc_left = -1;
		mttd_rv_free(rv);
		return -1;
	}
	while (at < e->len) {
		size_t n = 1 + rnd64(&cs) % 97;

		if (n > e->len - at)
			n = e->len - at;
		mttd_rv_feed(rv, e->buf + at, n);
		at += n;
	}
	mttd_rv_finish(rv);
	if (mttd_rv_mtt_finish(r->dx))
		r->other++;
	alloc_left = -1;
	mttd_rv_mtt_free(r->dx);
	mttd_rv_free(rv);
	return 0;
}

static void out_init(struct out *o, const struct src *s)
{
	unsigned int i;

	memset(o, 0, sizeof(*o));
	o->order_ok = 1;
	for (i = 0; i < 3; i++)
		o->ids[i] = s[i].id;
}

/* each MTT source's bytes given out exactly once, in order */
static int all_bytes(const struct out *o, const struct src *s)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (s[i].mtt && o->next[i] != s[i].len)
			return 0;
	return o->order_ok;
}

/*
 * Width w, timestamps t: srcIDs 0 and 2^w - 1 carry MTT (0 with 7
 * garbage bytes first and a cut frame last), srcID 2 does not.
 */
static void test_interleaved(unsigned int w, unsigned int t)
{
	static uint8_t map[8192];
	struct strbuf want = { 0 };
	struct src s[3];
	struct rvenc e;
	struct out o;
	struct run r;
	char name[128];

	rvenc_init(&e, w, t);
	src_fill(&s[0], 0, 1, 7, 6, 30);
	src_fill(&s[1], (1u << w) - 1, 1, 0, 8, 0);
	src_fill(&s[2], 2, 0, 0, 0, 0);
	encode(&e, s, &want);
	memset(map, 0, sizeof(map));
	set_bit(map, s[0].id);
	set_bit(map, s[1].id);
	out_init(&o, s);
	ok(!e.oom && !decode_rv(&e, map, &o, &r, -1),
	   "w=%u t=%u: %zu bytes decoded", w, t, e.len);
	snprintf(name, sizeof(name), "w=%u t=%u: srcIDs %u and %u: every "
		 "frame at its offset, the garbage and the cut frame skipped",
		 w, t, s[0].id, s[1].id);
	is_str(o.got.s ? o.got.s : "", want.s, name);
	ok(r.taken == s[0].packets + s[1].packets &&
	   r.ignored == s[2].packets && !r.nomem && !r.other,
	   "w=%u t=%u: %llu packets taken, srcID 2's %llu ignored", w, t,
	   (unsigned long long)r.taken, (unsigned long long)r.ignored);
	ok(all_bytes(&o, s), "w=%u t=%u: each srcID's bytes given once, in "
	   "order", w, t);
	sb_free(&want);
	sb_free(&o.got);
	rvenc_free(&e);
}

/* one packet of srcid with n bytes of p, through the packet parser */
static int push_bytes(struct mttd_rv_mtt *d, unsigned int w, uint32_t srcid,
		      const uint8_t *p, size_t n)
{
	struct mttd_rv_packet pkt;
	struct rvenc e;
	int rc;

	rvenc_init(&e, w, 0);
	rvenc_raw(&e, 0, 0, srcid, 0, p, (unsigned int)(8 * n));
	rc = mttd_rv_packet_parse(e.buf, e.len, w, 0, &pkt) == (long)e.len ?
	     mttd_rv_mtt_push(d, &pkt) : -100;
	rvenc_free(&e);
	return rc;
}

/* srcID 1's frame cut after each of its bytes; srcID 4's whole frame
 * and a packet of srcID 3 (not MTT) between the two sides */
static void test_every_cut(unsigned int w)
{
	uint8_t a[256], b[64], map[32] = { 0 };
	size_t max = w % 8 ? 30 : 31, la, lb, c, at, bad = 0;
	char want[128];

	la = frame(a, 0xa1, 33);
	lb = frame(b, 0xb1, 0) - 16;	/* no CTXT, TS64, LEVEL */
	put32(b + 4, 0);
	put32(b + 16, 0);
	set_bit(map, 1);
	set_bit(map, 4);
	snprintf(want, sizeof(want), "F 4 @0 0xb1\nF 1 @0 0xa1\n");
	for (c = 1; c < la; c++) {
		struct out o = { .ids = { 1, 4, 3 }, .order_ok = 1 };
		struct mttd_rv_mtt *d = mttd_rv_mtt_new(map, w, on_frame,
							on_skip, &o);
		int rc = 0;

		for (at = 0; at < c; at += max)
			rc |= push_bytes(d, w, 1, a + at,
					 c - at < max ? c - at : max) != 1;
		rc |= push_bytes(d, w, 4, b, lb) != 1;
		rc |= push_bytes(d, w, 3, a, 8) != 0;
		for (at = c; at < la; at += max)
			rc |= push_bytes(d, w, 1, a + at,
					 la - at < max ? la - at : max) != 1;
		rc |= mttd_rv_mtt_finish(d);
		if (rc || !o.got.s || strcmp(o.got.s, want) || !o.order_ok ||
		    o.next[0] != la || o.next[1] != lb) {
			if (!bad)
				diag("cut at %zu: %s", c, o.got.s ? o.got.s : "");
			bad++;
		}
		mttd_rv_mtt_free(d);
		sb_free(&o.got);
	}
	ok(!bad, "w=%u: a %zu-byte frame cut after each of its bytes: one "
	   "frame, srcID 4's first (%zu wrong)", w, la, bad);
}

static void test_calls(void)
{
	uint8_t map[32] = { 0 }, f[64];
	struct out o = { .ids = { 5, 6, 7 }, .order_ok = 1 };
	struct mttd_rv_packet null = { .size = 1 };
	struct mttd_rv_mtt *d;
	size_t n = frame(f, 7, 0) - 16;

	put32(f + 4, 0);
	put32(f + 16, 0);
	errno = 0;
	ok(!mttd_rv_mtt_new(map, 17, on_frame, on_skip, &o) && errno == EINVAL,
	   "a srcID width above 16: NULL, EINVAL");
	mttd_rv_mtt_free(NULL);
	d = mttd_rv_mtt_new(map, 8, NULL, NULL, NULL);
	ok(d && push_bytes(d, 8, 5, f, n) == 0,
	   "no srcID in the map: a packet is not taken");
	mttd_rv_mtt_free(d);
	set_bit(map, 0);
	d = mttd_rv_mtt_new(map, 8, on_frame, on_skip, &o);
	ok(mttd_rv_mtt_push(d, &null) == 0, "a null packet is not taken");
	ok(mttd_rv_mtt_push(NULL, &null) == -EINVAL &&
	   mttd_rv_mtt_push(d, NULL) == -EINVAL, "NULL arguments: -EINVAL");
	ok(push_bytes(d, 8, 0, f, n) == 1 && mttd_rv_mtt_finish(d) == 0,
	   "srcID 0 in the map: taken, finished");
	ok(push_bytes(d, 8, 0, f, n) == -EINVAL &&
	   mttd_rv_mtt_finish(d) == -EINVAL && mttd_rv_mtt_finish(NULL) ==
	   -EINVAL, "a push or a finish after finishing: -EINVAL");
	mttd_rv_mtt_free(d);
	d = mttd_rv_mtt_new(NULL, 3, on_frame, on_skip, &o);
	ok(push_bytes(d, 3, 7, f, n) == 1 && push_bytes(d, 3, 6, f, n) == 1,
	   "no map: every srcID taken");
	null.length = 1;
	null.srcid = 8;
	null.payload_bits = 8;
	ok(mttd_rv_mtt_push(d, &null) == 0,
	   "a srcID wider than the width is not taken");
	mttd_rv_mtt_finish(d);
	mttd_rv_mtt_free(d);
	is_str(o.got.s ? o.got.s : "", "F 0 @0 0x7\nF 7 @0 0x7\nF 6 @0 0x7\n",
	       "the frames, with their srcIDs");
	sb_free(&o.got);
}

/*
 * Memory short at each allocation in turn, from mttd_rv_mtt_new() on:
 * NULL from it, or -ENOMEM from pushes; each frame given is one of the
 * stream's at its offset; each srcID's bytes are still given out once,
 * in order (the lost ones as skipped); LSan finds no leak at exit.
 */
static void test_nomem(void)
{
	static uint8_t map[8192];
	struct strbuf want = { 0 };
	struct src s[3];
	struct rvenc e;
	long k;
	unsigned int bad = 0, nulls = 0, nomems = 0;

	rvenc_init(&e, 8, 2);
	src_fill(&s[0], 9, 1, 0, 4, 12);
	src_fill(&s[1], 200, 1, 3, 4, 0);
	src_fill(&s[2], 2, 0, 0, 0, 0);
	encode(&e, s, &want);
	memset(map, 0, sizeof(map));
	set_bit(map, 9);
	set_bit(map, 200);
	for (k = 0; k < 1000; k++) {
		struct out o;
		struct run r;
		char *line, *save = NULL;

		out_init(&o, s);
		if (decode_rv(&e, map, &o, &r, k)) {
			nulls++;
			continue;
		}
		if (!alloc_failed) {
			sb_free(&o.got);
			break;
		}
		nomems += r.nomem ? 1 : 0;
		/* every frame line is one of the wanted ones */
		for (line = strtok_r(o.got.s, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (line[0] == 'F' && !strstr(want.s, line))
				bad++;
		if (r.other || r.taken + r.nomem != s[0].packets + s[1].packets ||
		    r.ignored != s[2].packets || !all_bytes(&o, s)) {
			diag("failing allocation %ld: %llu taken, %llu -ENOMEM",
			     k, (unsigned long long)r.taken,
			     (unsigned long long)r.nomem);
			bad++;
		}
		sb_free(&o.got);
	}
	ok(k > 2 && k < 1000 && !bad, "memory short at each of %ld "
	   "allocations: NULL from new %u times, -ENOMEM from a push in %u "
	   "runs; frames at their offsets, every byte given once", k, nulls,
	   nomems);
	ok(nulls >= 2 && nomems >= 2, "both kinds of failure were seen");
	{
		struct out o;
		struct run r;

		out_init(&o, s);
		decode_rv(&e, map, &o, &r, -1);
		is_str(o.got.s ? o.got.s : "", want.s,
		       "with memory: the whole result");
		sb_free(&o.got);
	}
	sb_free(&want);
	rvenc_free(&e);
}

int main(void)
{
	static const unsigned int widths[][2] = {
		{ 8, 0 }, { 8, 4 }, { 3, 2 }, { 3, 0 }, { 12, 1 }, { 16, 8 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		test_interleaved(widths[i][0], widths[i][1]);
	test_every_cut(8);
	test_every_cut(3);
	test_calls();
	test_nomem();
	return done_testing();
}
