// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rvencap.c - RISC-V trace encapsulation writer (mttfw/rvencap.h), from
 * the specification: header byte (length 4:0, flow 6:5, extend 7), then
 * least significant bit first the srcID, the timestamp (extend) and the
 * payload; length = ceil((payload bits + srcID bits % 8) / 8), at most
 * 31; padding in the top bits of the last byte, zero.  Flow is 0.
 */
#include "mttfw/fwstring.h"

#include "mttfw/rvencap.h"

#define RV_MAX_PAYLOAD	31
#define RV_EXTEND	0x80u
#define RV_NULL_IDLE	0x00u
#define RV_NULL_ALIGN	0x80u

struct bitw {
	uint8_t *p;
	unsigned int pos;
};

static void bits(struct bitw *w, uint64_t v, unsigned int n)
{
	unsigned int i;

	if (!(w->pos & 7) && !(n & 7)) {
		/* on a byte boundary, whole bytes: a byte at a time */
		for (i = 0; i < n; i += 8, w->pos += 8)
			w->p[w->pos >> 3] = (uint8_t)(v >> i);
		return;
	}
	for (i = 0; i < n; i++, w->pos++) {
		if (!(w->pos & 7))
			w->p[w->pos >> 3] = 0;
		w->p[w->pos >> 3] |= (uint8_t)((v >> i & 1) << (w->pos & 7));
	}
}

static void sync_seq(struct mttfw_rv_link *l)
{
	uint8_t s[31 + 8 + 2 + 1];
	unsigned int n = 31 + l->ts_bytes + l->srcid_bits / 8;

	memset(s, RV_NULL_IDLE, n);
	s[n] = RV_NULL_ALIGN;
	l->write(l->ctx, s, n + 1);
	l->since_sync = 0;
	l->synced = 1;
}

void mttfw_rv_sync(struct mttfw_rv_link *l)
{
	unsigned long fl = l->lock ? l->lock(l->ctx) : 0;

	sync_seq(l);
	if (l->unlock)
		l->unlock(l->ctx, fl);
}

void mttfw_rv_put(void *ctx, const uint8_t *p, size_t n)
{
	const struct mttfw_rv_src *src = ctx;
	struct mttfw_rv_link *l = src->link;
	unsigned int w = l->srcid_bits, part = w % 8 ? 1 : 0;
	unsigned int max = RV_MAX_PAYLOAD - part;
	int first = 1;

	while (n) {
		uint8_t pkt[1 + 2 + 8 + RV_MAX_PAYLOAD];
		unsigned int k = n < max ? (unsigned int)n : max, i;
		int ext = first && l->ts_bytes && l->now;
		struct bitw bw = { pkt + 1, 0 };
		unsigned long fl = l->lock ? l->lock(l->ctx) : 0;

		bits(&bw, src->srcid, w);
		if (ext)
			bits(&bw, l->now(l->ctx), 8 * l->ts_bytes);
		if (!(bw.pos & 7)) {
			memcpy(bw.p + bw.pos / 8, p, k);
			bw.pos += 8 * k;
		} else {
			for (i = 0; i < k; i++)
				bits(&bw, p[i], 8);
		}
		pkt[0] = (uint8_t)((k + part) | (ext ? RV_EXTEND : 0));
		if (!l->synced ||
		    (l->sync_interval && l->since_sync >= l->sync_interval))
			sync_seq(l);
		l->write(l->ctx, pkt, 1 + (bw.pos + 7) / 8);
		l->since_sync += 1 + (bw.pos + 7) / 8;
		if (l->unlock)
			l->unlock(l->ctx, fl);
		p += k;
		n -= k;
		first = 0;
	}
}
