// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * riscv_mtt.c - the MTT frames of RISC-V trace encapsulation (see
 * mttd_rv_mtt_new() in mttdecode/riscv.h): the packets of the srcIDs
 * that carry native MTT frames, each srcID's payload bytes its own raw
 * stream of frames, delivered with that srcID.
 *
 * One entry per srcID of the map, made when the demultiplexer is, sorted
 * by srcID (found by binary search); a srcID's stream of frames
 * (mtt_stream.c) is made with its first bytes.  When memory runs short
 * for a srcID, the bytes its stream held and the packet's are reported
 * as skipped and the stream is dropped: the next packet starts a new
 * one, which resynchronises on the next sync word, so a loss never
 * joins the two sides of a gap into one frame, and offsets keep
 * counting every byte the srcID sent.
 */
#include <errno.h>
#include <stdlib.h>

#include "mttdecode/mttframe.h"
#include "mttdecode/riscv.h"

struct rv_mtt_src {
	uint32_t srcid;
	struct mttd_mtt_stream *s;	/* NULL: no bytes yet, or a loss */
	uint64_t base;		/* the srcID's offset of s's first byte */
	uint64_t bytes;		/* bytes of the srcID so far */
};

struct mttd_rv_mtt {
	mttd_rv_mtt_frame_fn fn;
	mttd_rv_mtt_skip_fn skip;
	void *ctx;
	unsigned int bits;
	int finished;
	size_t n;
	struct rv_mtt_src *src;		/* n, by srcID */
	struct rv_mtt_src *cur;		/* the one being pushed or ended */
};

static int in_map(const uint8_t *map, uint32_t id)
{
	return !map || (map[id / 8] >> (id % 8) & 1);
}

struct mttd_rv_mtt *mttd_rv_mtt_new(const uint8_t *srcid_map,
				    unsigned int srcid_bits,
				    mttd_rv_mtt_frame_fn fn,
				    mttd_rv_mtt_skip_fn skip, void *ctx)
{
	uint32_t id, ids;
	struct mttd_rv_mtt *d;
	size_t n = 0;

	if (srcid_bits > MTTD_RV_MAX_SRCID_BITS) {
		errno = EINVAL;
		return NULL;
	}
	ids = (uint32_t)1 << srcid_bits;
	for (id = 0; id < ids; id++)
		n += (size_t)in_map(srcid_map, id);
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->src = n ? calloc(n, sizeof(*d->src)) : NULL;
	if (n && !d->src) {
		free(d);
		return NULL;
	}
	d->fn = fn;
	d->skip = skip;
	d->ctx = ctx;
	d->bits = srcid_bits;
	for (id = 0; id < ids; id++)
		if (in_map(srcid_map, id))
			d->src[d->n++].srcid = id;
	return d;
}

void mttd_rv_mtt_free(struct mttd_rv_mtt *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		mttd_mtt_stream_free(d->src[i].s);
	free(d->src);
	free(d);
}

static struct rv_mtt_src *find(struct mttd_rv_mtt *d, uint32_t id)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->src[mid].srcid == id)
			return &d->src[mid];
		if (d->src[mid].srcid < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void on_frame(void *ctx, const struct mttd_mtt_frame *f,
		     uint64_t offset)
{
	struct mttd_rv_mtt *d = ctx;

	if (d->fn)
		d->fn(d->ctx, d->cur->srcid, f, d->cur->base + offset);
}

static void on_skip(void *ctx, uint64_t offset, uint64_t bytes)
{
	struct mttd_rv_mtt *d = ctx;

	if (d->skip)
		d->skip(d->ctx, d->cur->srcid, d->cur->base + offset, bytes);
}

/* the end of e's stream: what it holds delivered, cut frames skipped */
static void end_stream(struct mttd_rv_mtt *d, struct rv_mtt_src *e)
{
	if (!e->s)
		return;
	d->cur = e;
	mttd_mtt_stream_finish(e->s);
	mttd_mtt_stream_free(e->s);
	e->s = NULL;
}

/* memory ran short: e's stream ends, n more bytes of it are skipped */
static int lost(struct mttd_rv_mtt *d, struct rv_mtt_src *e, size_t n)
{
	end_stream(d, e);
	if (n && d->skip)
		d->skip(d->ctx, e->srcid, e->bytes, n);
	e->bytes += n;
	return -ENOMEM;
}

int mttd_rv_mtt_push(struct mttd_rv_mtt *d, const struct mttd_rv_packet *pkt)
{
	struct rv_mtt_src *e;
	size_t n;

	if (!d || !pkt || d->finished)
		return -EINVAL;
	if (!pkt->length || pkt->srcid >> d->bits)
		return 0;
	e = find(d, pkt->srcid);
	if (!e)
		return 0;
	/* whole bytes: the bits beyond pad a srcID not a multiple of 8 */
	n = pkt->payload_bits / 8;
	if (n > sizeof(pkt->payload))
		n = sizeof(pkt->payload);
	if (!e->s) {
		e->s = mttd_mtt_stream_new(on_frame, on_skip, d);
		if (!e->s)
			return lost(d, e, n);
		e->base = e->bytes;
	}
	d->cur = e;
	if (mttd_mtt_stream_push(e->s, pkt->payload, n))
		return lost(d, e, n);
	e->bytes += n;
	return 1;
}

int mttd_rv_mtt_finish(struct mttd_rv_mtt *d)
{
	size_t i;

	if (!d || d->finished)
		return -EINVAL;
	d->finished = 1;
	for (i = 0; i < d->n; i++)
		end_stream(d, &d->src[i]);
	return 0;
}
