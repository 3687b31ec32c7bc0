// SPDX-License-Identifier: GPL-2.0
/*
 * rvtest.c - the RISC-V trace encapsulation decoder (mttdecode/riscv.h):
 * the public byte-exact vectors (encoder and packet parser), round trips
 * of every swstm packet kind mixed with packets of other sources (any
 * flow, srcID, extend, payload of 1..248 bits) and null runs, for every
 * srcID width 0..16 and timestamp width 0..8, framed and unframed;
 * chunking, random cut points and corrupted bytes (back in sync at the
 * first sync sequence after the damage), the headers the specification
 * rules out, the issue's example, and messages through the message
 * layer.  The streams come from tests/host/enc/rvenc.c, written from the
 * specification.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "rvenc.h"
#include "tap.h"
#include "testutil.h"

/* one packet as expected or decoded: STP, or encapsulated as it is */
struct pk {
	uint64_t off, value, ts;
	uint32_t srcid;		/* encap */
	unsigned int bits;	/* encap: payload bits */
	uint16_t master, channel;
	uint8_t op, flags, flow, encap;
	uint8_t payload[31];	/* encap */
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
			.flow = (e->flags & MTTD_PKT_FLOW) ? e->aux : 0xff,
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

static void on_pkt(void *ctx, const struct mttd_rv_packet *rp,
		   uint64_t off)
{
	struct collect *c = ctx;
	struct pk p = {
		.off = c->base + off, .ts = rp->extend ? rp->ts : 0,
		.srcid = rp->srcid, .bits = rp->payload_bits,
		.flags = (uint8_t)rp->extend, .flow = (uint8_t)rp->flow,
		.encap = 1,
	};

	memcpy(p.payload, rp->payload, sizeof(p.payload));
	pk_add(c->l, &p);
}

/* how a test runs the decoder */
struct rvmode {
	unsigned int flags;		/* MTTD_RV_* */
	const uint8_t *stp_srcids;	/* NULL: every srcID */
	struct mttd_rv_counts *cnt;	/* the counts afterwards, if not NULL */
};

/* decode buf[0..len) in chunks of 1..chunk (0: whole) */
static void rv_decode_m(const uint8_t *buf, size_t len, unsigned int w,
			unsigned int t, size_t chunk, uint64_t seed,
			uint64_t base, struct pklist *out,
			struct mttd_stp_stats *st, const struct rvmode *m)
{
	struct collect c = { .l = out, .base = base };
	struct mttd_rv_config cfg = {
		.fn = on_ev, .ctx = &c, .srcid_bits = w, .ts_bytes = t,
		.pkt_fn = on_pkt, .flags = m ? m->flags : 0,
		.stp_srcids = m ? m->stp_srcids : NULL,
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
	if (m && m->cnt)
		*m->cnt = *mttd_rv_counts(d);
	mttd_rv_free(d);
}

static void rv_decode(const uint8_t *buf, size_t len, unsigned int w,
		      unsigned int t, size_t chunk, uint64_t seed,
		      uint64_t base, struct pklist *out,
		      struct mttd_stp_stats *st)
{
	rv_decode_m(buf, len, w, t, chunk, seed, base, out, st, NULL);
}

static int pk_eq(const struct pk *a, const struct pk *b)
{
	return a->off == b->off && a->value == b->value && a->ts == b->ts &&
	       a->master == b->master && a->channel == b->channel &&
	       a->op == b->op && a->flags == b->flags && a->flow == b->flow &&
	       a->encap == b->encap && a->srcid == b->srcid &&
	       a->bits == b->bits &&
	       !memcmp(a->payload, b->payload, sizeof(a->payload));
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
			diag("packet at %llu: %s op %u m%u c%u v=%llx ts=%llx f=%u flow %u srcid %u bits %u; expected at %llu %s op %u m%u c%u v=%llx ts=%llx f=%u flow %u srcid %u bits %u",
			     (unsigned long long)a->p[i].off,
			     a->p[i].encap ? "encap" : "stp", a->p[i].op,
			     a->p[i].master, a->p[i].channel,
			     (unsigned long long)a->p[i].value,
			     (unsigned long long)a->p[i].ts, a->p[i].flags,
			     a->p[i].flow, a->p[i].srcid, a->p[i].bits,
			     (unsigned long long)b->p[j].off,
			     b->p[j].encap ? "encap" : "stp", b->p[j].op,
			     b->p[j].master, b->p[j].channel,
			     (unsigned long long)b->p[j].value,
			     (unsigned long long)b->p[j].ts, b->p[j].flags,
			     b->p[j].flow, b->p[j].srcid, b->p[j].bits);
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

/* what build() mixes in with swstm's packets */
struct mix {
	/*
	 * packets of other sources: 0 none; 1 on odd srcIDs (swstm's
	 * channels even, so its srcIDs are even: the decoder is told so);
	 * 2 on any srcID, payloads swstm never writes (a reserved kind)
	 */
	int foreign;
	int unframed;	/* null runs end with a null.alignment, flow 0 */
};

/* a packet of another source: flow, srcID, extend, 1..248 payload bits */
static void foreign(struct rvenc *e, uint64_t *seed, int mode,
		    struct pklist *exp)
{
	unsigned int w = e->w, t = e->t, r = w % 8, i;
	unsigned int maxbits = 248 - r, nbits, length;
	uint32_t srcid = (uint32_t)(rnd64(seed) % (1u << w));
	unsigned int flow = (unsigned int)(rnd64(seed) % 4);
	int extend = t ? (int)(rnd64(seed) & 1) : 0;
	uint64_t ts = rnd64(seed);
	uint8_t pl[31];
	struct pk p = { .off = e->len };

	if (t < 8)
		ts &= (1ull << (8 * t)) - 1;
	if (mode == 1)
		srcid |= 1;
	nbits = mode == 2 ? 8 + (unsigned int)(rnd64(seed) % (maxbits - 7)) :
			    1 + (unsigned int)(rnd64(seed) % maxbits);
	for (i = 0; i < sizeof(pl); i++)
		pl[i] = (uint8_t)rnd64(seed);
	if (mode == 2)
		pl[0] = (uint8_t)((pl[0] & 0xf8) | (5 + pl[1] % 3));
	rvenc_raw(e, flow, extend, srcid, ts, pl, nbits);
	/* what the decoder gives: the payload bits, padding zero */
	length = (nbits + r + 7) / 8;
	for (i = 0; i < nbits; i++)
		p.payload[i / 8] |= (uint8_t)(pl[i / 8] & (1u << (i % 8)));
	p.encap = 1;
	p.flow = (uint8_t)flow;
	p.srcid = srcid;
	p.flags = (uint8_t)extend;
	p.ts = extend ? ts : 0;
	p.bits = 8 * length - r;
	pk_add(exp, &p);
}

/* 1..4 null packets between packets */
static void null_run(struct rvenc *e, uint64_t *seed, int unframed)
{
	unsigned int k = 1 + (unsigned int)(rnd64(seed) % 4), i;

	for (i = 0; i < k; i++) {
		if (unframed)
			rvenc_byte(e, i + 1 == k ? 0x80 : 0x00);
		else
			rvenc_byte(e, (uint8_t)(rnd64(seed) & 0xe0));
	}
}

/*
 * A stream of swstm packets for widths w, t: a sync, then @count packets
 * of every kind and flag and flow, sources from 0/0 to 65535/65535, a
 * sync every @every packets; with @mx other sources' packets and null
 * runs in between.  The expected packets in @exp, sync starts in @syncs.
 */
static void build(struct rvenc *e, unsigned int w, unsigned int t,
		  unsigned int count, unsigned int every, uint64_t seed,
		  struct pklist *exp, uint64_t *syncs, size_t *nsyncs,
		  const struct mix *mx)
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
		unsigned int other = (r >> 24) % 16;
		uint64_t v = rnd64(&seed);
		struct pk p = { .off = 0 };

		if (kind > RVK_GERR)
			kind = RVK_GERR;
		if (i % every == 0) {
			syncs[(*nsyncs)++] = e->len;
			rvenc_sync(e);
		}
		if (mx->foreign && other < 5 && (mx->foreign == 2 || w)) {
			foreign(e, &seed, mx->foreign, exp);
			continue;
		}
		if (mx->foreign && other == 5) {
			null_run(e, &seed, mx->unframed);
			continue;
		}
		if (mx->foreign == 1)
			c &= ~1u;
		e->flow = (r >> 28) % 4;
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
		p.flow = (uint8_t)e->flow;
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
		p.flags |= MTTD_PKT_FLOW;
		if (tsf && kind != RVK_MERR && kind != RVK_GERR) {
			p.flags |= MTTD_PKT_TS;
			p.ts = t ? ts - base : 0;
		}
		pk_add(exp, &p);
	}
	e->flow = 0;
}

/* the srcIDs of mix 1 (2^16 bits): the even ones carry swstm's layout */
static void even_srcids(uint8_t *map)
{
	memset(map, 0x55, 8192);
}

static size_t count_encap(const struct pklist *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		n += l->p[i].encap;
	return n;
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
	/* swstm alone; other sources on odd srcIDs; other sources on any
	 * srcID (payloads swstm never writes), unframed; odd, unframed */
	static const struct mix mixes[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 1, 1 },
	};
	static const char *const names[] = {
		"swstm packets alone",
		"mixed with other sources on srcIDs not swstm's (any flow, extend, 1..248 payload bits) and null runs",
		"mixed with other sources on every srcID (payloads swstm never writes), unframed stream",
		"mixed with other sources on srcIDs not swstm's, unframed stream",
	};
	uint8_t *map = malloc(8192);
	unsigned int k;

	if (!map)
		abort();
	even_srcids(map);
	for (k = 0; k < sizeof(mixes) / sizeof(mixes[0]); k++) {
		const struct mix *mx = &mixes[k];
		unsigned int w, t, bad = 0, badsync = 0, badchunk = 0;
		size_t nencap = 0;
		uint64_t syncs[64];
		size_t nsyncs;

		for (w = 0; w <= 16; w++) {
			for (t = 0; t <= 8; t++) {
				struct pklist exp = { 0 }, got = { 0 };
				struct pklist got2 = { 0 };
				struct mttd_rv_counts cnt;
				struct rvmode m = {
					.flags = mx->unframed ? MTTD_RV_UNFRAMED : 0,
					.stp_srcids = mx->foreign == 1 ? map : NULL,
					.cnt = &cnt,
				};
				struct mttd_stp_stats st;
				struct rvenc e;
				size_t ne;

				build(&e, w, t, 400, 50, 1 + w * 16 + t + k,
				      &exp, syncs, &nsyncs, mx);
				ne = count_encap(&exp);
				nencap += ne;
				rv_decode_m(e.buf, e.len, w, t, 0, 0, 0, &got,
					    &st, &m);
				if (!same_from(&got, &exp, 0) || got.desyncs ||
				    got.truncs || got.ends != 1) {
					diag("srcID %u bits, T=%u: round trip differs",
					     w, t);
					bad++;
				}
				if ((mx->foreign ? st.syncs < nsyncs :
				     st.syncs != nsyncs) ||
				    st.packets != exp.n - ne ||
				    cnt.encap != ne ||
				    cnt.not_stp != (mx->foreign == 2 ? ne : 0) ||
				    cnt.alignment || st.bytes != e.len ||
				    st.unsynced_nibbles) {
					diag("srcID %u bits, T=%u: syncs %llu packets %llu encap %llu",
					     w, t, (unsigned long long)st.syncs,
					     (unsigned long long)st.packets,
					     (unsigned long long)cnt.encap);
					badsync++;
				}
				rv_decode_m(e.buf, e.len, w, t, 7, 99 + t, 0,
					    &got2, NULL, &m);
				if (!same_from(&got2, &exp, 0) || got2.desyncs)
					badchunk++;
				free(exp.p);
				free(got.p);
				free(got2.p);
				rvenc_free(&e);
			}
		}
		ok(!bad && (!mx->foreign || nencap > 1000),
		   "%s: round trip of 400 packets (every kind, flag, size, flow; masters and channels 0..65535; %zu of other sources) for srcID 0..16 bits x T 0..8 bytes",
		   names[k], nencap);
		ok(!badsync, "%s: every sync seen, every packet counted as what it is, nothing skipped (153 width pairs)",
		   names[k]);
		ok(!badchunk, "%s: random chunks of 1..7 bytes decode alike (153 width pairs)",
		   names[k]);
	}
	free(map);
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
	static const unsigned int ws[] = { 0, 3, 8, 11, 16, 5, 8, 12 };
	static const unsigned int ts[] = { 0, 1, 8, 3, 2, 8, 0, 4 };
	unsigned int k, i, badcut = 0, badcorr = 0, cuts = 0, corrs = 0;
	uint64_t seed = 12345;
	uint8_t *map = malloc(8192);

	if (!map)
		abort();
	even_srcids(map);
	for (k = 0; k < sizeof(ws) / sizeof(ws[0]); k++) {
		unsigned int w = ws[k], t = ts[k];
		/* other sources mixed in: on odd srcIDs, or (no srcID) with
		 * payloads swstm never writes; the last two unframed */
		struct mix mx = { w ? 1 : 2, k >= 6 };
		struct rvmode m = {
			.flags = mx.unframed ? MTTD_RV_UNFRAMED : 0,
			.stp_srcids = mx.foreign == 1 ? map : NULL,
		};
		struct pklist exp = { 0 };
		uint64_t syncs[64];
		size_t nsyncs;
		struct rvenc e;

		build(&e, w, t, 600, 40, 77 + k, &exp, syncs, &nsyncs, &mx);
		clear_ts(&exp);
		for (i = 0; i < 60; i++) {
			struct pklist got = { 0 };
			uint64_t cut = rnd64(&seed) % e.len;
			uint64_t from = sync_after(syncs, nsyncs, cut,
						   rvenc_sync_len(&e), e.len);

			rv_decode_m(e.buf + cut, e.len - cut, w, t, 0, 0, cut,
				    &got, NULL, &m);
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
			rv_decode_m(e.buf, e.len, w, t, 0, 0, 0, &got, NULL,
				    &m);
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
	free(map);
	ok(!badcut, "%u random cut points in mixed streams: in sync at the first sync sequence after the cut, every packet after it exact", cuts);
	ok(!badcorr, "%u corrupted bytes in mixed streams: back in sync at the next sync sequence at the latest, every packet after it exact", corrs);
}

/* The issue's example: --srcid-bits=8 --ts-bytes=0, a sync, a 15-byte
 * packet of flow 1 srcID 5, then swstm's D8M "A" on srcID 2 (source
 * 0x102: master 0, channel 258, one source byte) */
static void test_issue_example(void)
{
	struct pklist got = { 0 };
	struct mttd_stp_stats st;
	struct mttd_rv_counts cnt;
	struct rvmode m = { .cnt = &cnt };
	uint8_t buf[64];
	unsigned int i;

	memset(buf, 0, 32);
	buf[32] = 0x80;
	buf[33] = 0x2f;
	buf[34] = 0x05;
	for (i = 1; i <= 15; i++)
		buf[34 + i] = (uint8_t)i;
	memcpy(buf + 50, "\x03\x02\x28\x01\x41", 5);
	rv_decode_m(buf, 55, 8, 0, 0, 0, 0, &got, &st, &m);
	ok(got.n == 2 && got.p[0].encap && got.p[0].off == 33 &&
	   got.p[0].flow == 1 && got.p[0].srcid == 5 &&
	   got.p[0].bits == 120 && got.p[0].payload[0] == 1 &&
	   got.p[0].payload[14] == 15 && !got.p[0].flags &&
	   !got.p[1].encap && got.p[1].off == 50 &&
	   got.p[1].op == MTTD_OP_D8M && got.p[1].value == 0x41 &&
	   got.p[1].master == 0 && got.p[1].channel == 258 &&
	   got.p[1].flow == 0 && !got.desyncs && st.packets == 1 &&
	   cnt.encap == 1 && cnt.not_stp == 1,
	   "issue example: 00 x32, 80 | 2f 05 01..0f | 03 02 28 01 41 gives the 15-byte packet of flow 1, srcID 5, then the D8M, no desync");
	free(got.p);
}

static void test_bad_packets(void)
{
	struct pklist got = { 0 };
	struct mttd_rv_counts cnt;
	struct rvmode m = { .cnt = &cnt };
	struct mttd_stp_stats st;
	struct rvenc e;
	uint8_t pl[2] = { 0x07, 0 };	/* reserved kind 7 */
	uint8_t *map = calloc(1, 8192);

	if (!map)
		abort();
	rvenc_init(&e, 8, 0);
	rvenc_sync(&e);
	rvenc_raw(&e, 0, 0, 1, 0, pl, 16);
	rvenc_packet(&e, RVK_DATA, 1, 1, 0, 1, 0x41, 1, 0);
	rv_decode_m(e.buf, e.len, 8, 0, 0, 0, 0, &got, NULL, &m);
	ok(!got.desyncs && got.n == 2 && got.p[0].encap &&
	   got.p[0].srcid == 1 && got.p[0].bits == 16 &&
	   got.p[1].value == 0x41 && cnt.not_stp == 1,
	   "a reserved packet kind on an STP srcID: delivered as the packet it is, the next packet decoded, no loss");
	free(got.p);
	memset(&got, 0, sizeof(got));
	m.stp_srcids = map;	/* no srcID is swstm's */
	rv_decode_m(e.buf, e.len, 8, 0, 0, 0, 0, &got, &st, &m);
	ok(!got.desyncs && got.n == 2 && got.p[0].encap && got.p[1].encap &&
	   got.p[1].srcid == 1 && got.p[1].bits == 16 &&
	   got.p[1].payload[0] == 0x18 && got.p[1].payload[1] == 0x41 &&
	   !st.packets && cnt.encap == 2 && !cnt.not_stp,
	   "a swstm packet on a srcID not named as swstm's: delivered as it is");
	free(got.p);
	rvenc_free(&e);
	m.stp_srcids = NULL;

	/* extend set with T = 0: impossible; lost up to the next sync */
	memset(&got, 0, sizeof(got));
	rvenc_init(&e, 8, 0);
	rvenc_sync(&e);
	rvenc_byte(&e, 0x82);
	rvenc_byte(&e, 0x01);
	rvenc_byte(&e, 0x08);
	rvenc_packet(&e, RVK_DATA, 1, 1, 0, 1, 0x41, 1, 0);
	rvenc_sync(&e);
	rvenc_packet(&e, RVK_DATA, 1, 1, 0, 1, 0x42, 1, 0);
	rv_decode_m(e.buf, e.len, 8, 0, 0, 0, 0, &got, &st, &m);
	ok(got.desyncs == 1 && got.first_desync == 33 && got.n == 1 &&
	   got.p[0].value == 0x42 && got.syncs == 2 &&
	   st.unsynced_nibbles == 2 * (e.len - 33 - 4 - 33),
	   "extend with no timestamp field: a desync, the bytes up to the next sync skipped, then decoded");
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
	free(map);
}

/* one marked D8 of value v on master 0 channel 1 */
static void one(struct rvenc *e, uint64_t v)
{
	rvenc_packet(e, RVK_DATA, 1, 0, 0, 1, v, 1, 0);
}

/*
 * The shape of an unframed test stream: srcID bits and timestamp bytes;
 * then sync, D8 0x41, byte b1, D8 0x42, n2 times byte b2, D8 0x43, sync,
 * D8 0x44.
 */
struct unframed_shape {
	unsigned int srcid_bits, ts_bytes;
	uint8_t b1, b2;
	unsigned int n2;
};

/* @e initialised and filled with the stream of shape @sh */
static void unframed_stream(struct rvenc *e, const struct unframed_shape *sh)
{
	unsigned int i;

	rvenc_init(e, sh->srcid_bits, sh->ts_bytes);
	rvenc_sync(e);
	one(e, 0x41);
	rvenc_byte(e, sh->b1);
	one(e, 0x42);
	for (i = 0; i < sh->n2; i++)
		rvenc_byte(e, sh->b2);
	one(e, 0x43);
	rvenc_sync(e);
	one(e, 0x44);
}

/* @got (emptied first): the stream in @e, of shape @sh, decoded with @flags */
static void unframed_decode(const struct rvenc *e,
			    const struct unframed_shape *sh, unsigned int flags,
			    struct pklist *got, struct mttd_rv_counts *cnt)
{
	struct rvmode m = { .flags = flags, .cnt = cnt };

	memset(got, 0, sizeof(*got));
	rv_decode_m(e->buf, e->len, sh->srcid_bits, sh->ts_bytes, 0, 0, 0, got,
		    NULL, &m);
}

/* 0x42 and 0x43 lost in one desync, 0x41 and 0x44 decoded, one alignment */
static int middle_lost(const struct pklist *got,
		       const struct mttd_rv_counts *cnt)
{
	return got->n == 2 && got->p[0].value == 0x41 &&
	       got->p[1].value == 0x44 && got->desyncs == 1 &&
	       cnt->alignment == 1;
}

/* the null.alignment rule of unframed streams */
static void test_unframed(void)
{
	/* a packet after a null.idle: lost up to the next sync */
	static const struct unframed_shape idle = {
		.srcid_bits = 8, .ts_bytes = 1, .b1 = 0x00, .b2 = 0x80, .n2 = 1,
	};
	/* a null with flow 1; a sync of null.idle only */
	static const struct unframed_shape flow1 = {
		.srcid_bits = 0, .ts_bytes = 0, .b1 = 0xa0, .b2 = 0x00, .n2 = 40,
	};
	struct pklist got;
	struct mttd_rv_counts cnt;
	struct rvenc e;

	unframed_stream(&e, &idle);
	unframed_decode(&e, &idle, MTTD_RV_UNFRAMED, &got, &cnt);
	ok(middle_lost(&got, &cnt) && got.first_desync == 39,
	   "unframed: a packet after a null.idle is a loss up to the next sync");
	free(got.p);
	unframed_decode(&e, &idle, 0, &got, &cnt);
	ok(got.n == 4 && !got.desyncs,
	   "framed: the same stream has no loss (null.alignment not required)");
	free(got.p);
	rvenc_free(&e);

	unframed_stream(&e, &flow1);
	unframed_decode(&e, &flow1, MTTD_RV_UNFRAMED, &got, &cnt);
	ok(middle_lost(&got, &cnt) && got.syncs == 2,
	   "unframed: a null of flow 1 is a loss; 40 null.idle with no null.alignment are no sync");
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
	test_issue_example();
	test_bad_packets();
	test_unframed();
	test_messages();
	return done_testing();
}
