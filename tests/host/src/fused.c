// SPDX-License-Identifier: GPL-2.0
/*
 * fused.c - the STP decoder's fused path (a decoder given
 * mttd_msg_stp_fn feeds the message layer without events) against the
 * event path (events handed to mttd_msg_push() by a callback of our
 * own): the same messages, stream events and counters, whole and in
 * random chunks, with small and default message limits, on
 * swstm-shaped streams (long D64 runs, tails, FLAG or marked ends,
 * messages left open, interleaved channels, NULLs, GERR/MERR) and on
 * the same streams with bits flipped.  Built and run under ASan + UBSan.
 */
#include <stdlib.h>
#include <string.h>

#include "stpenc.h"
#include "tap.h"
#include "testutil.h"

struct log {
	uint8_t *b;
	size_t n, cap;
};

static void put(struct log *l, const void *p, size_t n)
{
	if (l->n + n > l->cap) {
		l->cap = 2 * (l->n + n);
		l->b = realloc(l->b, l->cap);
		if (!l->b)
			abort();
	}
	memcpy(l->b + l->n, p, n);
	l->n += n;
}

static void on_msg(void *ctx, const struct mttd_msg *m)
{
	struct log *l = ctx;
	uint64_t h[4] = { m->offset, m->ts, m->len,
			  (uint64_t)m->master << 48 | (uint64_t)m->channel << 32 |
			  (uint64_t)m->flags << 8 | m->end };

	put(l, h, sizeof(h));
	put(l, m->data, m->len);
}

static void on_event(void *ctx, const struct mttd_msg_event *e)
{
	struct log *l = ctx;
	uint64_t h[3] = { e->offset, e->value,
			  (uint64_t)e->master << 48 | (uint64_t)e->channel << 32 |
			  (uint64_t)e->kind << 24 | (uint64_t)e->reason << 16 |
			  (uint64_t)e->err << 8 | e->first };

	put(l, h, sizeof(h));
}

static void push(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	mttd_msg_push(ctx, ev, n);
}

static uint64_t r(uint64_t *rng, uint64_t n)
{
	return rnd64(rng) % n;
}

static void sync_block(struct stpenc *e)
{
	stpenc_pad(e);
	stpenc_async(e);
	stpenc_packet(e, MTTD_OP_VERSION, 3, 0, 0, 0, 0);
}

/* one message on the current channel, in some of the ways it can look */
static void message(struct stpenc *e, uint64_t *rng, uint64_t ts)
{
	static const unsigned int dn[] = {
		MTTD_OP_D8, MTTD_OP_D16, MTTD_OP_D32, MTTD_OP_D64, MTTD_OP_D4
	};
	static const unsigned int dnts[] = {
		MTTD_OP_D8TS, MTTD_OP_D16TS, MTTD_OP_D32TS, MTTD_OP_D64TS,
		MTTD_OP_D4TS
	};
	static const unsigned int dnm[] = {
		MTTD_OP_D8M, MTTD_OP_D16M, MTTD_OP_D32M, MTTD_OP_D64M,
		MTTD_OP_D4M, MTTD_OP_D8MTS, MTTD_OP_D64MTS
	};
	unsigned int k = (unsigned int)r(rng, 48), t, i;

	stpenc_packet(e, r(rng, 5) ? dnts[r(rng, 5)] : dn[r(rng, 5)],
		      rnd64(rng), 0, 0, ts, -1);
	for (i = 0; i < k; i++) {
		stpenc_packet(e, MTTD_OP_D64, rnd64(rng), 0, 0, 0, 0);
		if (!r(rng, 30))
			stpenc_nib(e, 0);	/* a NULL inside the run */
	}
	for (t = (unsigned int)r(rng, 4); t; t--)
		stpenc_packet(e, dn[r(rng, 5)], rnd64(rng), 0, 0, 0, 0);
	switch (r(rng, 6)) {
	case 0:
		stpenc_packet(e, dnm[r(rng, 7)], rnd64(rng), 0, 0, ts + 1, -1);
		break;
	case 1:
		break;			/* left open */
	case 2:
		stpenc_packet(e, MTTD_OP_FLAG_TS, 0, 0, 0, ts + 2, -1);
		break;
	default:
		stpenc_packet(e, MTTD_OP_FLAG, 0, 0, 0, 0, 0);
		break;
	}
}

static void generate(struct stpenc *e, uint64_t seed)
{
	uint64_t rng = seed * 0x9e3779b97f4a7c15ULL + 1, ts = 1000;
	unsigned int i, n = 20 + (unsigned int)r(&rng, 200);

	stpenc_init(e, 3);
	sync_block(e);
	for (i = 0; i < n; i++) {
		if (!r(&rng, 60))
			sync_block(e);
		if (!r(&rng, 3))
			stpenc_packet(e, r(&rng, 8) ? MTTD_OP_M8 : MTTD_OP_M16,
				      r(&rng, 4), 0, 0, 0, 0);
		if (r(&rng, 4))
			stpenc_packet(e, r(&rng, 8) ? MTTD_OP_C8 : MTTD_OP_C16,
				      r(&rng, 8), 0, 0, 0, 0);
		if (!r(&rng, 40))
			stpenc_packet(e, r(&rng, 2) ? MTTD_OP_GERR : MTTD_OP_MERR,
				      r(&rng, 256), 0, 0, 0, 0);
		ts += 1 + r(&rng, 1000);
		message(e, &rng, ts);
	}
	stpenc_pad(e);
}

struct result {
	struct log log;
	struct mttd_stp_stats st;
	struct mttd_msg_stats ms;
};

/* chunk 0: whole */
static struct result run(const uint8_t *buf, size_t len, int fused,
			    size_t chunk, uint64_t seed, size_t max_len)
{
	struct result res;
	struct mttd_msg_config mc = { .max_len = max_len,
				      .max_open = max_len ? 4 : 0 };
	struct mttd_msgdec *m = mttd_msg_new(&mc);
	struct mttd_msg_sink sink = { on_msg, on_event, &res.log };
	struct mttd_stp_config cfg = {
		.fn = fused ? mttd_msg_stp_fn : push, .ctx = m,
	};
	struct mttd_stp *d = mttd_stp_new(&cfg);

	memset(&res, 0, sizeof(res));
	if (!m || !d)
		abort();
	mttd_msg_add_sink(m, &sink);
	tu_feed(d, buf, len, chunk, chunk ? &seed : NULL);
	mttd_stp_finish(d);
	res.st = *mttd_stp_stats(d);
	res.ms = *mttd_msg_stats(m);
	mttd_stp_free(d);
	mttd_msg_free(m);
	return res;
}

static int same(const struct result *a, const struct result *b)
{
	return a->log.n == b->log.n &&
	       (!a->log.n || !memcmp(a->log.b, b->log.b, a->log.n)) &&
	       !memcmp(&a->st, &b->st, sizeof(a->st)) &&
	       !memcmp(&a->ms, &b->ms, sizeof(a->ms));
}

int main(void)
{
	static const size_t max_len[] = { 0, 64, 200 };
	int good[2] = { 1, 1 };
	uint64_t seed, msgs = 0;

	for (seed = 1; seed <= 240; seed++) {
		struct stpenc e;
		int flip = seed % 2 == 0;
		size_t len, l;
		uint8_t *buf;

		generate(&e, seed);
		len = stpenc_bytes(&e);
		buf = malloc(len);
		if (!buf)
			abort();
		memcpy(buf, e.buf, len);
		stpenc_free(&e);
		if (flip) {
			uint64_t rng = seed, i;

			for (i = 0; i < 1 + len / 300; i++)
				buf[r(&rng, len)] ^= (uint8_t)(1u << r(&rng, 8));
		}
		for (l = 0; l < 3; l++) {
			struct result ev = run(buf, len, 0, 0, 0, max_len[l]);
			struct result fw = run(buf, len, 1, 0, 0, max_len[l]);
			struct result fc = run(buf, len, 1, 1 + seed % 50,
						  seed, max_len[l]);

			if (good[flip] && (!same(&ev, &fw) || !same(&ev, &fc))) {
				diag("seed %llu, max_len %zu: the fused path "
				     "differs (%s)", (unsigned long long)seed,
				     max_len[l], same(&ev, &fw) ? "chunked" :
				     "whole");
				good[flip] = 0;
			}
			msgs += ev.ms.messages;
			free(ev.log.b);
			free(fw.log.b);
			free(fc.log.b);
		}
		free(buf);
	}
	ok(msgs > 10000, "streams hold messages (%llu)",
	   (unsigned long long)msgs);
	ok(good[0], "fused path: same messages, events and counters as the "
	   "event path (120 streams, 3 message limits, whole and chunked)");
	ok(good[1], "... and on the same kind of streams with bits flipped");
	return done_testing();
}
