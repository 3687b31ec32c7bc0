// SPDX-License-Identifier: GPL-2.0
/*
 * rvtest.c - the RISC-V trace encapsulation decoder (mttdecode/riscv.h):
 * the public byte-exact vectors (encoder and packet parser), round trips
 * of every packet kind for every srcID width 0..16 and timestamp width
 * 0..8, chunking, random cut points and corrupted bytes (back in sync at
 * the first sync sequence after the damage), bad packets, and messages
 * through the message layer.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "rvenc.h"
#include "tap.h"
#include "testutil.h"

/* one packet as expected or decoded */
struct pk {
	uint64_t off, value, ts;
	uint16_t master, channel;
	uint8_t op, flags;
};

struct pklist {
	struct pk *p;
	size_t n, cap;
	size_t syncs, desyncs, truncs, ends;
	uint64_t first_desync;	/* offset of the first DESYNC */
	uint64_t last_desync;
};

static void pk_add(struct pklist *l, const struct pk *p)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->p = realloc(l->p, l->cap * sizeof(*l->p));
		if (!l->p)
			abort();
	}
	l->p[l->n++] = *p;
}

struct collect {
	struct pklist *l;
	uint64_t base;		/* added to offsets */
	struct mttd_msgdec *msg;
};

static void on_ev(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	struct collect *c = ctx;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct mttd_stp_event *e = &ev[i];
		struct pk p = {
			.off = c->base + e->nib / 2, .value = e->value,
			.ts = e->ts, .master = e->master, .channel = e->channel,
			.op = e->op, .flags = e->flags,
		};

		if (c->msg)
			mttd_msg_push(c->msg, e, 1);
		switch (e->type) {
		case MTTD_EV_PACKET:
			if (e->op == MTTD_OP_ASYNC)
				c->l->syncs++;
			else if (e->op != MTTD_OP_NULL)
				pk_add(c->l, &p);
			break;
		case MTTD_EV_DESYNC:
			if (!c->l->desyncs++)
				c->l->first_desync = p.off;
			c->l->last_desync = p.off;
			break;
		case MTTD_EV_TRUNCATED:
			c->l->truncs++;
			break;
		case MTTD_EV_END:
			c->l->ends++;
			break;
		}
	}
}

/* decode buf[0..len) in chunks of 1..chunk (0: whole) */
static void rv_decode(const uint8_t *buf, size_t len, unsigned int w,
		      unsigned int t, size_t chunk, uint64_t seed,
		      uint64_t base, struct pklist *out,
		      struct mttd_stp_stats *st)
{
	struct collect c = { .l = out, .base = base };
	struct mttd_rv_config cfg = {
		.fn = on_ev, .ctx = &c, .srcid_bits = w, .ts_bytes = t,
	};
	struct mttd_rv *d = mttd_rv_new(&cfg);
	size_t i = 0;

	if (!d)
		abort();
	while (i < len) {
		size_t k = len - i;

		if (chunk) {
			size_t m = seed ? 1 + rnd64(&seed) % chunk : chunk;

			if (k > m)
				k = m;
		}
		mttd_rv_feed(d, buf + i, k);
		i += k;
	}
	mttd_rv_finish(d);
	if (st)
		*st = *mttd_rv_stats(d);
	mttd_rv_free(d);
}

static int pk_eq(const struct pk *a, const struct pk *b)
{
	return a->off == b->off && a->value == b->value && a->ts == b->ts &&
	       a->master == b->master && a->channel == b->channel &&
	       a->op == b->op && a->flags == b->flags;
}

/* a, b equal over packets at offsets >= from; diag the first difference */
static int same_from(const struct pklist *a, const struct pklist *b,
		     uint64_t from)
{
	size_t i = 0, j = 0;

	while (i < a->n && a->p[i].off < from)
		i++;
	while (j < b->n && b->p[j].off < from)
		j++;
	if (a->n - i != b->n - j) {
		diag("%zu packets from offset %llu, expected %zu", a->n - i,
		     (unsigned long long)from, b->n - j);
		return 0;
	}
	for (; i < a->n; i++, j++) {
		if (!pk_eq(&a->p[i], &b->p[j])) {
			diag("packet at %llu: op %u m%u c%u v=%llx ts=%llx f=%u; expected at %llu op %u m%u c%u v=%llx ts=%llx f=%u",
			     (unsigned long long)a->p[i].off, a->p[i].op,
			     a->p[i].master, a->p[i].channel,
			     (unsigned long long)a->p[i].value,
			     (unsigned long long)a->p[i].ts, a->p[i].flags,
			     (unsigned long long)b->p[j].off, b->p[j].op,
			     b->p[j].master, b->p[j].channel,
			     (unsigned long long)b->p[j].value,
			     (unsigned long long)b->p[j].ts, b->p[j].flags);
			return 0;
		}
	}
	return 1;
}

static int vec_eq(const struct rvenc *e, const char *want)
{
	uint8_t *w;
	size_t n = hex(want, &w);

	return e->len == n && !memcmp(e->buf, w, n);
}

static void test_vectors(void)
{
	static const uint8_t pl[] = { 0x73, 0, 0, 0, 0, 0x19, 0x41, 0, 0x08 };
	struct mttd_rv_packet p;
	struct rvenc e;
	uint8_t *b;
	size_t n;

	rvenc_init(&e, 8, 1);
	rvenc_raw(&e, 2, 1, 0x31, 0x8d, pl, 72);
	ok(vec_eq(&e, "C9 31 8D 73 00 00 00 00 19 41 00 08"),
	   "vector 1 (8-bit srcID 0x31, T=1): test encoder byte-exact");
	rvenc_free(&e);
	rvenc_init(&e, 4, 1);
	rvenc_raw(&e, 2, 1, 3, 0x8d, pl, 72);
	ok(vec_eq(&e, "CA D3 38 07 00 00 00 90 11 04 80 00"),
	   "vector 2 (4-bit srcID 3, T=1): test encoder byte-exact");
	rvenc_free(&e);

	n = hex("C9 31 8D 73 00 00 00 00 19 41 00 08", &b);
	ok(mttd_rv_packet_parse(b, n, 8, 1, &p) == 12 && p.length == 9 &&
	   p.flow == 2 && p.extend == 1 && p.srcid == 0x31 && p.ts == 0x8d &&
	   p.payload_bits == 72 && !memcmp(p.payload, pl, 9),
	   "vector 1 parsed: extend 1, flow 2, length 9, srcID 0x31, ts 0x8D, 9 payload bytes");
	ok(mttd_rv_packet_parse(b, n - 1, 8, 1, &p) == 0,
	   "vector 1 less its last byte: more bytes needed");
	n = hex("CA D3 38 07 00 00 00 90 11 04 80 00", &b);
	ok(mttd_rv_packet_parse(b, n, 4, 1, &p) == 12 && p.length == 10 &&
	   p.flow == 2 && p.extend == 1 && p.srcid == 3 && p.ts == 0x8d &&
	   p.payload_bits == 76 && !memcmp(p.payload, pl, 9) &&
	   p.payload[9] == 0,
	   "vector 2 parsed: length 10, srcID 3, ts 0x8D, the same 9 payload bytes, zero padding");
	n = hex("20", &b);
	ok(mttd_rv_packet_parse(b, n, 8, 1, &p) == 1 && p.length == 0 &&
	   p.flow == 1 && p.extend == 0, "20 = null.idle, flow 1");
	n = hex("E0", &b);
	ok(mttd_rv_packet_parse(b, n, 8, 1, &p) == 1 && p.length == 0 &&
	   p.flow == 3 && p.extend == 1, "E0 = null.alignment, flow 3");
	n = hex("C9 31 8D 73", &b);
	ok(mttd_rv_packet_parse(b, n, 8, 0, &p) == -1 &&
	   mttd_rv_packet_parse(b, n, 17, 1, &p) == -1 &&
	   mttd_rv_packet_parse(b, n, 8, 9, &p) == -1,
	   "extend with no timestamp, srcID > 16 bits, T > 8: refused");
}

/*
 * A stream of swstm packets for widths w, t: a sync, then @count packets
 * of every kind and flag, sources from 0/0 to 65535/65535, a sync every
 * @every packets; the expected packets in @exp, sync starts in @syncs.
 */
static void build(struct rvenc *e, unsigned int w, unsigned int t,
		  unsigned int count, unsigned int every, uint64_t seed,
		  struct pklist *exp, uint64_t *syncs, size_t *nsyncs)
{
	static const uint16_t masters[] = { 0, 7, 255, 256, 1, 65535, 3 };
	static const uint16_t chans[] = { 0, 3, 256, 0x1234, 65535, 200 };
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	uint64_t ts = 0x123456789abcdull, base = 0;
	uint64_t tmask = t >= 8 ? ~0ull : ((1ull << (8 * t)) - 1);
	int first = 1;
	unsigned int i;

	rvenc_init(e, w, t);
	*nsyncs = 0;
	for (i = 0; i < count; i++) {
		unsigned int r = (unsigned int)rnd64(&seed);
		unsigned int kind = r % 8 < 4 ? RVK_DATA : r % 8 - 3;
		int marked = r >> 4 & 1, tsf = r >> 5 & 1;
		unsigned int m = masters[(r >> 8) % 7];
		unsigned int c = chans[(r >> 12) % 6];
		unsigned int n = kind == RVK_DATA ? sizes[(r >> 16) % 4] :
				 kind == RVK_FLAG ? 0 : 1;
		uint64_t v = rnd64(&seed);
		struct pk p = { .off = 0 };

		if (kind > RVK_GERR)
			kind = RVK_GERR;
		if (i % every == 0) {
			syncs[(*nsyncs)++] = e->len;
			rvenc_sync(e);
		}
		if (n < 8)
			v &= (1ull << (8 * n)) - 1;
		/*
		 * small steps between timestamped packets (T = 1 wraps every
		 * 256 ns); the decoder knows the low 8T bits of the first one
		 * and unwraps from there
		 */
		if (tsf) {
			ts += 1 + (r >> 20) % 200;
			if (first)
				base = ts & ~tmask;
			first = 0;
		}
		p.off = e->len;
		rvenc_packet(e, kind, marked, tsf, m, c, v, n, ts);
		p.value = v;
		p.master = (uint16_t)m;
		p.channel = (uint16_t)c;
		switch (kind) {
		case RVK_DATA:
			p.op = (uint8_t)(n == 1 ? MTTD_OP_D8 : n == 2 ?
					 MTTD_OP_D16 : n == 4 ? MTTD_OP_D32 :
					 MTTD_OP_D64);
			if (marked && tsf)
				p.op = (uint8_t)(p.op - MTTD_OP_D8 + MTTD_OP_D8MTS);
			else if (marked)
				p.op = (uint8_t)(p.op - MTTD_OP_D8 + MTTD_OP_D8M);
			else if (tsf)
				p.op = (uint8_t)(p.op - MTTD_OP_D8 + MTTD_OP_D8TS);
			p.flags = MTTD_PKT_DATA | (marked ? MTTD_PKT_MARKED : 0);
			break;
		case RVK_FLAG:
			p.op = tsf ? MTTD_OP_FLAG_TS : MTTD_OP_FLAG;
			break;
		case RVK_TRIG:
			p.op = tsf ? MTTD_OP_TRIG_TS : MTTD_OP_TRIG;
			break;
		case RVK_MERR:
			p.op = MTTD_OP_MERR;
			break;
		default:
			p.op = MTTD_OP_GERR;
			break;
		}
		if (tsf && kind != RVK_MERR && kind != RVK_GERR) {
			p.flags |= MTTD_PKT_TS;
			p.ts = t ? ts - base : 0;
		}
		pk_add(exp, &p);
	}
}

/* the timestamps a decoder can know only from the first one on: none
 * when it starts mid-stream with T < 8 (unwrapping needs a start), so
 * cut and corruption tests compare with timestamps cleared */
static void clear_ts(struct pklist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		l->p[i].ts = 0;
}

static void test_roundtrips(void)
{
	unsigned int w, t, bad = 0, badsync = 0, badchunk = 0;
	uint64_t syncs[64];
	size_t nsyncs;

	for (w = 0; w <= 16; w++) {
		for (t = 0; t <= 8; t++) {
			struct pklist exp = { 0 }, got = { 0 }, got2 = { 0 };
			struct mttd_stp_stats st;
			struct rvenc e;

			build(&e, w, t, 400, 50, 1 + w * 16 + t, &exp, syncs,
			      &nsyncs);
			rv_decode(e.buf, e.len, w, t, 0, 0, 0, &got, &st);
			if (!same_from(&got, &exp, 0) || got.desyncs ||
			    got.truncs || got.ends != 1) {
				diag("srcID %u bits, T=%u: round trip differs", w, t);
				bad++;
			}
			if (st.syncs != nsyncs || st.packets != exp.n ||
			    st.bytes != e.len || st.unsynced_nibbles) {
				diag("srcID %u bits, T=%u: stats syncs %llu packets %llu",
				     w, t, (unsigned long long)st.syncs,
				     (unsigned long long)st.packets);
				badsync++;
			}
			rv_decode(e.buf, e.len, w, t, 7, 99 + t, 0, &got2, NULL);
			if (!same_from(&got2, &exp, 0) || got2.desyncs)
				badchunk++;
			free(exp.p);
			free(got.p);
			free(got2.p);
			rvenc_free(&e);
		}
	}
	ok(!bad, "round trip of 400 packets (every kind, flag, size; masters and channels 0..65535) for srcID 0..16 bits x T 0..8 bytes");
	ok(!badsync, "every sync seen, every packet counted, nothing skipped (153 width pairs)");
	ok(!badchunk, "random chunks of 1..7 bytes decode alike (153 width pairs)");
}

/* the first sync that starts at or after @pos; its end */
static uint64_t sync_after(const uint64_t *syncs, size_t n, uint64_t pos,
			   unsigned int len, uint64_t end)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (syncs[i] >= pos)
			return syncs[i] + len;
	return end;
}

static void test_cuts_and_corruption(void)
{
	static const unsigned int ws[] = { 0, 3, 8, 11, 16, 5 };
	static const unsigned int ts[] = { 0, 1, 8, 3, 2, 8 };
	unsigned int k, i, badcut = 0, badcorr = 0, cuts = 0, corrs = 0;
	uint64_t seed = 12345;

	for (k = 0; k < sizeof(ws) / sizeof(ws[0]); k++) {
		unsigned int w = ws[k], t = ts[k];
		struct pklist exp = { 0 };
		uint64_t syncs[64];
		size_t nsyncs;
		struct rvenc e;

		build(&e, w, t, 600, 40, 77 + k, &exp, syncs, &nsyncs);
		clear_ts(&exp);
		for (i = 0; i < 60; i++) {
			struct pklist got = { 0 };
			uint64_t cut = rnd64(&seed) % e.len;
			uint64_t from = sync_after(syncs, nsyncs, cut,
						   rvenc_sync_len(&e), e.len);

			rv_decode(e.buf + cut, e.len - cut, w, t, 0, 0, cut,
				  &got, NULL);
			clear_ts(&got);
			cuts++;
			if (!same_from(&got, &exp, from) ||
			    (got.desyncs && got.last_desync >= from) ||
			    (from < e.len && !got.syncs)) {
				diag("srcID %u, T %u: cut at %llu", w, t,
				     (unsigned long long)cut);
				badcut++;
			}
			free(got.p);
		}
		for (i = 0; i < 60; i++) {
			struct pklist got = { 0 };
			uint64_t pos = rnd64(&seed) % e.len;
			uint8_t old = e.buf[pos];
			uint64_t from = sync_after(syncs, nsyncs, pos + 1,
						   rvenc_sync_len(&e), e.len);

			e.buf[pos] = (uint8_t)(old ^ (1 + rnd64(&seed) % 255));
			rv_decode(e.buf, e.len, w, t, 0, 0, 0, &got, NULL);
			e.buf[pos] = old;
			clear_ts(&got);
			corrs++;
			if (!same_from(&got, &exp, from) ||
			    (got.desyncs && got.last_desync >= from)) {
				diag("srcID %u, T %u: byte %llu corrupted", w,
				     t, (unsigned long long)pos);
				badcorr++;
			}
			free(got.p);
		}
		free(exp.p);
		rvenc_free(&e);
	}
	ok(!badcut, "%u random cut points: in sync at the first sync sequence after the cut, every packet after it exact", cuts);
	ok(!badcorr, "%u corrupted bytes: back in sync at the next sync sequence, every packet after it exact", corrs);
}

static void test_bad_packets(void)
{
	struct pklist got = { 0 };
	struct rvenc e;
	uint8_t pl[2] = { 0x07, 0 };	/* reserved kind 7 */

	rvenc_init(&e, 8, 0);
	rvenc_sync(&e);
	rvenc_raw(&e, 0, 0, 1, 0, pl, 16);
	rvenc_packet(&e, RVK_DATA, 1, 1, 0, 1, 0x41, 1, 0);
	rvenc_sync(&e);
	rvenc_packet(&e, RVK_DATA, 1, 1, 0, 1, 0x42, 1, 0);
	rv_decode(e.buf, e.len, 8, 0, 0, 0, 0, &got, NULL);
	ok(got.desyncs == 1 && got.n == 1 && got.p[0].value == 0x42 &&
	   got.syncs == 2,
	   "a reserved packet kind: desync, the packets up to the next sync skipped, then decoded");
	free(got.p);
	rvenc_free(&e);

	memset(&got, 0, sizeof(got));
	rvenc_init(&e, 8, 2);
	rvenc_sync(&e);
	rvenc_packet(&e, RVK_DATA, 0, 1, 2, 9, 0x11223344, 4, 0x1234);
	rv_decode(e.buf, e.len - 1, 8, 2, 0, 0, 0, &got, NULL);
	ok(got.truncs == 1 && got.n == 0 && got.ends == 1,
	   "a stream cut inside a packet: reported truncated");
	free(got.p);
	rvenc_free(&e);
}

static void test_messages(void)
{
	static const char text[] = "hello, RISC-V!";	/* 14 bytes */
	struct pklist got = { 0 };
	struct collect c = { .l = &got };
	struct mttd_rv_config cfg = {
		.fn = on_ev, .ctx = &c, .srcid_bits = 12, .ts_bytes = 4,
	};
	struct mttd_msg_sink sink = { tu_on_msg, tu_on_mev, NULL };
	struct strbuf sb = { 0 };
	struct mttd_rv *d;
	struct rvenc e;
	uint64_t v;

	c.msg = mttd_msg_new(NULL);
	sink.ctx = &sb;
	mttd_msg_add_sink(c.msg, &sink);
	d = mttd_rv_new(&cfg);
	rvenc_init(&e, 12, 4);
	rvenc_sync(&e);
	memcpy(&v, text, 8);
	rvenc_packet(&e, RVK_DATA, 0, 1, 5, 300, v, 8, 0x100000123ull);
	v = 0;
	memcpy(&v, text + 8, 4);
	rvenc_packet(&e, RVK_DATA, 0, 0, 5, 300, v, 4, 0);
	v = 0;
	memcpy(&v, text + 12, 2);
	rvenc_packet(&e, RVK_DATA, 1, 0, 5, 300, v, 2, 0);
	rvenc_packet(&e, RVK_GERR, 0, 0, 0, 0, 3, 1, 0);
	mttd_rv_feed(d, e.buf, e.len);
	mttd_rv_finish(d);
	if (!ok(sb.s && strstr(sb.s, "MSG m5 c300 ts=291 \"68656c6c6f2c20524953432d5621\" complete") &&
	   strstr(sb.s, "LOSS gerr"),
	   "a message over three packets (T = 4 bytes: ts 0x100000123 seen as 0x123), and a GERR loss, through the message layer"))
		printf("# got:\n%s", sb.s ? sb.s : "");
	mttd_rv_free(d);
	mttd_msg_free(c.msg);
	sb_free(&sb);
	free(got.p);
	rvenc_free(&e);
}

int main(void)
{
	test_vectors();
	test_roundtrips();
	test_cuts_and_corruption();
	test_bad_packets();
	test_messages();
	return done_testing();
}
