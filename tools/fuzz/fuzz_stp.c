// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_stp.c - libFuzzer target for the STPv2 decoder and the message
 * layer.  The input is a raw STP stream.  It is decoded three times: in
 * one piece, in pseudo-random chunks (each copied into a buffer of its
 * own size, so reading past a chunk is caught by ASan) and, for inputs up
 * to 4 KiB, one byte at a time.  Every event and message is folded into a
 * hash; the three hashes must match, else the target aborts.  Small
 * message limits make truncation and eviction happen often.  Then it is
 * decoded whole and in chunks through the fused path (the decoder given
 * mttd_msg_stp_fn, which feeds the message layer without events): the
 * messages, stream events and counters must be those of the event path.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "fuzz_hash.h"

struct run {
	uint64_t h;		/* events, messages and stream events */
	uint64_t hm;		/* messages and stream events only */
	struct mttd_msgdec *msg;
};

static void on_events(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	struct run *r = ctx;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct mttd_stp_event *e = &ev[i];

		fuzz_mix64(&r->h, e->nib);
		fuzz_mix64(&r->h, e->value);
		fuzz_mix64(&r->h, e->ts);
		fuzz_mix64(&r->h, (uint64_t)e->master << 48 | (uint64_t)e->channel << 32 |
		      (uint64_t)e->type << 24 | (uint64_t)e->op << 16 |
		      (uint64_t)e->nibbles << 8 | e->flags);
		fuzz_mix64(&r->h, (uint64_t)e->tsn << 8 | e->aux);
		if (e->type == MTTD_EV_PACKET && e->nibbles > 16)
			abort();
		/* one at a time: messages interleave with events the same
		 * way whatever the batching */
		mttd_msg_push(r->msg, e, 1);
	}
}

static void on_msg(void *ctx, const struct mttd_msg *m)
{
	struct run *r = ctx;

	fuzz_mix64(&r->hm, m->offset);
	fuzz_mix64(&r->hm, m->ts);
	fuzz_mix64(&r->hm, (uint64_t)m->master << 48 | (uint64_t)m->channel << 32 |
	      m->flags << 8 | m->end);
	fuzz_mix64(&r->hm, m->len);
	if (m->len > 64)
		abort();
	fuzz_mix(&r->hm, m->data, m->len);
	fuzz_mix64(&r->h, r->hm);
}

static void on_mev(void *ctx, const struct mttd_msg_event *e)
{
	struct run *r = ctx;

	fuzz_mix64(&r->hm, e->offset);
	fuzz_mix64(&r->hm, e->value);
	fuzz_mix64(&r->hm, (uint64_t)e->master << 48 | (uint64_t)e->channel << 32 |
	      (uint64_t)e->kind << 24 | (uint64_t)e->reason << 16 |
	      (uint64_t)e->err << 8 | e->first);
	fuzz_mix64(&r->h, r->hm);
}

/* fuzz_feed()'s feed: the decoder's own result is checked at the end */
static int feed_stp(void *d, const uint8_t *p, size_t n)
{
	mttd_stp_feed(d, p, n);
	return 0;
}

/*
 * mode 0: whole; 1: random chunks; 2: single bytes.  fused: the decoder
 * feeds the message layer itself (no events seen here).  *hm gets the
 * hash of the messages, stream events and both layers' counters.
 */
static uint64_t decode(const uint8_t *data, size_t size, int mode,
		       unsigned int flags, int fused, uint64_t *hm)
{
	struct run r = { .h = 0xcbf29ce484222325ULL,
			 .hm = 0xcbf29ce484222325ULL };
	struct mttd_msg_config mc = { .max_len = 64, .max_open = 4 };
	struct mttd_msg_sink sink = { on_msg, on_mev, &r };
	struct mttd_stp_config cfg = { .fn = on_events, .ctx = &r,
				       .flags = flags };
	struct mttd_stp *d;

	r.msg = mttd_msg_new(&mc);
	if (fused) {
		cfg.fn = mttd_msg_stp_fn;
		cfg.ctx = r.msg;
	}
	d = mttd_stp_new(&cfg);
	if (!r.msg || !d)
		abort();
	mttd_msg_add_sink(r.msg, &sink);
	fuzz_feed(mode, 67, data, size, d, feed_stp);
	mttd_stp_finish(d);
	if (mttd_stp_feed(d, data, size) != -1 || mttd_stp_finish(d) != -1)
		abort();
	fuzz_mix64(&r.h, mttd_stp_stats(d)->unsynced_nibbles);
	fuzz_mix64(&r.h, mttd_stp_stats(d)->nulls);
	fuzz_mix(&r.hm, mttd_stp_stats(d), sizeof(struct mttd_stp_stats));
	fuzz_mix(&r.hm, mttd_msg_stats(r.msg), sizeof(struct mttd_msg_stats));
	*hm = r.hm;
	mttd_stp_free(d);
	mttd_msg_free(r.msg);
	return r.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int flags = (size & 1) ? MTTD_STP_NULLS : 0;
	uint64_t hm, fm;
	uint64_t whole = decode(data, size, 0, flags, 0, &hm);

	if (decode(data, size, 1, flags, 0, &fm) != whole)
		abort();
	if (size <= 4096 && decode(data, size, 2, flags, 0, &fm) != whole)
		abort();
	decode(data, size, 0, flags, 1, &fm);
	if (fm != hm)
		abort();
	decode(data, size, 1, flags, 1, &fm);
	if (fm != hm)
		abort();
	return 0;
}
