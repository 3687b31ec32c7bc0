// SPDX-License-Identifier: GPL-2.0
/*
 * property.c - randomised tests against the test-only encoder
 * (tests/host/enc/stpenc.c):
 *  - random packet sequences (every opcode, every timestamp length, all
 *    three timestamp formats, NULLs, repeated ASYNC/VERSION) decode to
 *    exactly the packets that were encoded;
 *  - feeding in random chunks or one byte at a time changes nothing;
 *  - after garbage of any kind the decoder resynchronises on the next
 *    ASYNC and decodes what follows exactly;
 *  - random and mutated input never crashes (run under ASan/UBSan).
 */
#include <stdlib.h>
#include <string.h>

#include "stpenc.h"
#include "tap.h"
#include "testutil.h"

struct want {
	uint8_t op, nibbles, flags;
	uint16_t master, channel;
	uint64_t value, ts;
};

struct gen {
	struct stpenc e;
	struct want *w;
	size_t nw, cap;
	uint64_t rng, ts;
	unsigned int master, channel;
	int fresh_ts;		/* next timestamp must be sent whole */
	int abs_only;		/* VERSION 3 and 4 only */
	size_t nulls;
};

static void add(struct gen *g, unsigned int op, uint64_t v,
		unsigned int nibbles, unsigned int flags)
{
	if (g->nw == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->w = realloc(g->w, g->cap * sizeof(*g->w));
		if (!g->w)
			abort();
	}
	g->w[g->nw++] = (struct want){
		.op = (uint8_t)op, .nibbles = (uint8_t)nibbles,
		.flags = (uint8_t)flags, .master = (uint16_t)g->master,
		.channel = (uint16_t)g->channel, .value = v, .ts = g->ts,
	};
}

static uint64_t r(struct gen *g, uint64_t n)
{
	return rnd64(&g->rng) % n;
}

static uint64_t mask(unsigned int nibbles)
{
	return nibbles >= 16 ? ~0ULL : (1ULL << (4 * nibbles)) - 1;
}

static void sync_block(struct gen *g, unsigned int version)
{
	if (r(g, 2))
		stpenc_pad(&g->e);
	stpenc_async(&g->e);
	add(g, MTTD_OP_ASYNC, 0, 0, 0);
	g->e.version = version;
	stpenc_packet(&g->e, MTTD_OP_VERSION, version, 0, 0, 0, 0);
	g->master = g->channel = 0;
	add(g, MTTD_OP_VERSION, version, 1, 0);
	g->fresh_ts = 1;
}

static int is_data(unsigned int op)
{
	return (op >= MTTD_OP_D8 && op <= MTTD_OP_D4MTS) ||
	       (op >= MTTD_OP_D8TS && op <= MTTD_OP_D4M);
}

static int is_marked(unsigned int op)
{
	return (op >= MTTD_OP_D8MTS && op <= MTTD_OP_D64MTS) ||
	       op == MTTD_OP_D4MTS || (op >= MTTD_OP_D8M &&
	       op <= MTTD_OP_D64M) || op == MTTD_OP_D4M;
}

/* one random packet (not ASYNC) */
static void one(struct gen *g)
{
	unsigned int op, n = 0, aux = 0, flags = 0;
	int p, tsn = -1;
	uint64_t v;

	do {
		op = (unsigned int)r(g, MTTD_OP_COUNT);
	} while (op == MTTD_OP_ASYNC || op == MTTD_OP_NULL);
	if (op == MTTD_OP_VERSION) {
		sync_block(g, g->abs_only ? 3 + (unsigned int)r(g, 2) :
			   2 + (unsigned int)r(g, 3));
		return;
	}
	p = stpenc_payload(op);
	if (op == MTTD_OP_USER || op == MTTD_OP_USER_TS) {
		n = 1 + (unsigned int)r(g, 16);
	} else if (op == MTTD_OP_TIME || op == MTTD_OP_TIME_TS) {
		static const unsigned int lens[] = {
			0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16
		};
		n = lens[r(g, 15)];
		aux = (unsigned int)r(g, 256);
	} else {
		n = (unsigned int)p;
	}
	v = rnd64(&g->rng) & mask(n);
	if (op == MTTD_OP_M8 || op == MTTD_OP_M16) {
		g->master = (unsigned int)v;
		g->channel = 0;
	} else if (op == MTTD_OP_C8) {
		g->channel = (g->channel & 0xff00) | (unsigned int)v;
	} else if (op == MTTD_OP_C16) {
		g->channel = (unsigned int)v;
	}
	if (stpenc_has_ts(op)) {
		uint64_t step = r(g, 8) == 0 ? rnd64(&g->rng) :
				r(g, 3) == 0 ? 0 : r(g, 1u << (4 * r(g, 8)));

		if (g->e.version == 2 && step > (1ULL << 62))
			step >>= 2;
		g->ts += step;
		flags |= MTTD_PKT_TS;
		if (g->fresh_ts)
			tsn = 16;
		else if (r(g, 4) == 0)
			tsn = 16;	/* longer than needed is fine */
		g->fresh_ts = 0;
	}
	if (is_data(op))
		flags |= MTTD_PKT_DATA;
	if (is_marked(op))
		flags |= MTTD_PKT_MARKED;
	stpenc_packet(&g->e, op, v, n, aux, g->ts, tsn);
	add(g, op, v, n, flags);
	if (op == MTTD_OP_MERR)
		g->channel = 0;
	if (op == MTTD_OP_GERR)
		g->master = g->channel = 0;
	if (r(g, 6) == 0) {
		unsigned int k = 1 + (unsigned int)r(g, 5), i;

		for (i = 0; i < k; i++)
			stpenc_nib(&g->e, 0);
		g->nulls += k;
	}
}

/* version: of every VERSION packet, 3 or 4 (absolute timestamps), or 0
 * for any of 2, 3, 4 */
static void generate(struct gen *g, uint64_t seed, size_t packets,
		     unsigned int version)
{
	size_t i;

	memset(g, 0, sizeof(*g));
	g->rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	stpenc_init(&g->e, 3);
	g->abs_only = version != 0;
	sync_block(g, version ? version : 2 + (unsigned int)r(g, 3));
	for (i = 0; i < packets; i++) {
		if (r(g, 200) == 0)
			sync_block(g, g->e.version);
		one(g);
	}
	stpenc_pad(&g->e);
}

struct got {
	struct mttd_stp_event *ev;
	size_t n, cap;
};

static void collect(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	struct got *c = ctx;

	if (c->n + n > c->cap) {
		c->cap = 2 * (c->n + n);
		c->ev = realloc(c->ev, c->cap * sizeof(*c->ev));
		if (!c->ev)
			abort();
	}
	memcpy(c->ev + c->n, ev, n * sizeof(*ev));
	c->n += n;
}

static struct got run(const uint8_t *buf, size_t len, size_t chunk,
		      uint64_t seed)
{
	struct got c = { 0 };
	struct mttd_stp_config cfg = { .fn = collect, .ctx = &c };
	struct mttd_stp *d = mttd_stp_new(&cfg);
	size_t off = 0;

	while (off < len) {
		size_t k = chunk ? 1 + rnd64(&seed) % chunk : len;

		if (k > len - off)
			k = len - off;
		mttd_stp_feed(d, buf + off, k);
		off += k;
	}
	mttd_stp_finish(d);
	mttd_stp_free(d);
	return c;
}

static int same_events(const struct got *a, const struct got *b)
{
	return a->n == b->n &&
	       !memcmp(a->ev, b->ev, a->n * sizeof(*a->ev));
}

/* compare decoded packets (from index i0) with the wanted list */
static int matches(const struct got *c, size_t i0, const struct want *w,
		   size_t nw, char *why, size_t whylen)
{
	size_t i, k = 0;

	for (i = i0; i < c->n; i++) {
		const struct mttd_stp_event *e = &c->ev[i];

		if (e->type == MTTD_EV_END)
			continue;
		if (e->type != MTTD_EV_PACKET || k >= nw) {
			snprintf(why, whylen, "event %zu: unexpected type %u",
				 i, e->type);
			return 0;
		}
		/* ASYNC: its channel and skipped-byte count depend on what
		 * came before it; only the op is checked */
		if (e->op == MTTD_OP_ASYNC && w[k].op == MTTD_OP_ASYNC) {
			k++;
			continue;
		}
		if (e->op != w[k].op || e->value != w[k].value ||
		    e->nibbles != w[k].nibbles || e->flags != w[k].flags ||
		    e->master != w[k].master || e->channel != w[k].channel ||
		    ((e->flags & MTTD_PKT_TS) && e->ts != w[k].ts)) {
			snprintf(why, whylen,
				 "packet %zu: got %s m%u c%u v=%llx f=%x ts=%llx, "
				 "want %s m%u c%u v=%llx f=%x ts=%llx", k,
				 mttd_op_name(e->op), e->master, e->channel,
				 (unsigned long long)e->value, e->flags,
				 (unsigned long long)e->ts,
				 mttd_op_name(w[k].op), w[k].master,
				 w[k].channel, (unsigned long long)w[k].value,
				 w[k].flags, (unsigned long long)w[k].ts);
			return 0;
		}
		k++;
	}
	if (k != nw) {
		snprintf(why, whylen, "%zu packets decoded, %zu wanted", k, nw);
		return 0;
	}
	return 1;
}

static void roundtrip(void)
{
	int all = 1, chunks = 1, nulls = 1;
	uint64_t seed;
	char why[512] = "";

	for (seed = 1; seed <= 300; seed++) {
		struct gen g;
		struct got whole, part, bytes;

		generate(&g, seed, 20 + seed * 3, 0);
		whole = run(g.e.buf, stpenc_bytes(&g.e), 0, 0);
		if (all && !matches(&whole, 0, g.w, g.nw, why, sizeof(why))) {
			diag("seed %llu: %s", (unsigned long long)seed, why);
			all = 0;
		}
		part = run(g.e.buf, stpenc_bytes(&g.e), 1 + seed % 40, seed);
		bytes = run(g.e.buf, stpenc_bytes(&g.e), 1, 0);
		if (chunks && (!same_events(&whole, &part) ||
			       !same_events(&whole, &bytes))) {
			diag("seed %llu: chunking changed the events",
			     (unsigned long long)seed);
			chunks = 0;
		}
		{
			struct mttd_stp_stats st = decode_stats(g.e.buf,
				stpenc_bytes(&g.e));

			/* the pads before ASYNC and at the end are NULLs too */
			if (st.nulls < g.nulls) {
				diag("seed %llu: %llu NULLs, >= %zu wanted",
				     (unsigned long long)seed,
				     (unsigned long long)st.nulls, g.nulls);
				nulls = 0;
			}
		}
		free(whole.ev);
		free(part.ev);
		free(bytes.ev);
		free(g.w);
		stpenc_free(&g.e);
	}
	ok(all, "random packets decode to what was encoded (300 streams)");
	ok(chunks, "random chunks and single bytes give the same events");
	ok(nulls, "NULL packets are counted");
}

/* garbage between two valid streams: the second decodes exactly */
static void resync(void)
{
	int good = 1, chunks = 1;
	uint64_t seed;
	char why[512] = "";

	for (seed = 1; seed <= 400 && good; seed++) {
		struct gen a, b;
		uint64_t rng = seed;
		size_t la, lg, lb, i, n;
		uint8_t *buf;
		struct got got, part;
		unsigned int kind = (unsigned int)(seed % 4);

		generate(&a, seed, 30, 0);
		/* absolute timestamps: a delta (VERSION 2) cannot be
		 * recovered after a gap */
		generate(&b, seed + 1000, 30, 3 + (unsigned int)(seed & 1));
		la = stpenc_bytes(&a.e);
		lb = stpenc_bytes(&b.e);
		lg = 1 + rnd64(&rng) % 64;
		buf = malloc(la + lg + lb);
		/* a cut at a random place, then garbage of one kind */
		la = 1 + rnd64(&rng) % la;
		memcpy(buf, a.e.buf, la);
		for (i = 0; i < lg; i++) {
			uint8_t x = (uint8_t)rnd64(&rng);

			buf[la + i] = kind == 0 ? x : kind == 1 ? 0xff :
				      kind == 2 ? (x | 0x0f) : (x & 0xf0);
		}
		memcpy(buf + la + lg, b.e.buf, lb);
		n = la + lg + lb;
		/* b's ASYNC is the last one starting at or before b's first
		 * byte (a run of garbage Fs merges with it) */
		got = run(buf, n, 0, 0);
		for (i = got.n; i > 0; i--)
			if (got.ev[i - 1].type == MTTD_EV_PACKET &&
			    got.ev[i - 1].op == MTTD_OP_ASYNC &&
			    got.ev[i - 1].nib / 2 <= la + lg)
				break;
		if (!i || !matches(&got, i - 1, b.w, b.nw, why, sizeof(why))) {
			diag("seed %llu (garbage kind %u): %s",
			     (unsigned long long)seed, kind,
			     i ? why : "no ASYNC found");
			good = 0;
		}
		part = run(buf, n, 1 + seed % 13, seed);
		if (!same_events(&got, &part))
			chunks = 0;
		free(got.ev);
		free(part.ev);
		free(buf);
		free(a.w);
		free(b.w);
		stpenc_free(&a.e);
		stpenc_free(&b.e);
	}
	ok(good, "after a cut and garbage the next ASYNC resynchronises");
	ok(chunks, "... with the same events in any chunking");
}

/* random bytes and mutated streams: no crash, chunking invariant */
static void chaos(void)
{
	int chunks = 1;
	uint64_t seed;

	for (seed = 1; seed <= 300; seed++) {
		uint64_t rng = seed;
		size_t n = 1 + rnd64(&rng) % 3000, i;
		uint8_t *buf = malloc(n);
		struct got whole, part;

		if (seed & 1) {
			for (i = 0; i < n; i++)
				buf[i] = (uint8_t)rnd64(&rng);
		} else {
			struct gen g;

			generate(&g, seed, 100, 0);
			n = stpenc_bytes(&g.e);
			buf = realloc(buf, n);
			memcpy(buf, g.e.buf, n);
			for (i = 0; i < 1 + n / 50; i++)
				buf[rnd64(&rng) % n] ^= (uint8_t)(1u <<
							(rnd64(&rng) % 8));
			free(g.w);
			stpenc_free(&g.e);
		}
		whole = run(buf, n, 0, 0);
		part = run(buf, n, 1 + seed % 29, seed);
		if (!same_events(&whole, &part)) {
			diag("seed %llu: chunking changed the events",
			     (unsigned long long)seed);
			chunks = 0;
		}
		free(whole.ev);
		free(part.ev);
		free(buf);
	}
	ok(chunks, "random and mutated input: same events in any chunking");
}

int main(void)
{
	roundtrip();
	resync();
	chaos();
	return done_testing();
}
