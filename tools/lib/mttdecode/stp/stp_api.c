// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stp_api.c - the STPv2 decoder object: creation, feed() with the carry
 * buffer that makes any chunking decode alike, finish(), statistics.
 *
 * feed() decodes the old carry (a packet cut by the previous buffer's
 * end) with the first bytes of the new buffer appended, then the body of
 * the new buffer on the unchecked fast path, then copies the buffer's
 * last bytes into the carry and decodes whatever complete packets they
 * hold.  So when feed() returns, every complete packet has been delivered
 * and at most one partial packet is kept.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/msg.h"
#include "internal/state.h"
#include "stp_internal.h"

struct mttd_stp *mttd_stp_new(const struct mttd_stp_config *cfg)
{
	struct mttd_stp *d;
	unsigned int v;

	if (!cfg || !cfg->fn)
		return NULL;
	v = cfg->version ? cfg->version : 3;
	if (v < 2 || v > 4)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->fn = cfg->fn;
	d->ctx = cfg->ctx;
	if (cfg->fn == mttd_msg_stp_fn && cfg->ctx)
		d->msg = cfg->ctx;
	d->flags = cfg->flags;
	d->version = (uint8_t)v;
	d->state = ST_HUNT;
	return d;
}

void mttd_stp_free(struct mttd_stp *d)
{
	free(d);
}

const struct mttd_stp_stats *mttd_stp_stats(const struct mttd_stp *d)
{
	return &d->st;
}

void mttd__flush(struct mttd_stp *d)
{
	if (d->nev) {
		uint32_t n = d->nev;

		d->nev = 0;
		d->fn(d->ctx, d->ev, n);
	}
}

/* Drop carry bytes before nibble c (relative to carry[0]). */
static void carry_consume(struct mttd_stp *d, uint64_t c)
{
	uint32_t drop = (uint32_t)(c >> 1);

	if (c >= (uint64_t)d->clen * 2) {
		d->cbyte += d->clen;
		d->clen = 0;
		d->cnp = 0;
		return;
	}
	memmove(d->carry, d->carry + drop, d->clen - drop);
	d->clen -= drop;
	d->cbyte += drop;
	d->cnp = (uint32_t)(c & 1);
}

static void carry_pad(struct mttd_stp *d)
{
	memset(d->carry + d->clen, 0, MTTD_CARRY_PAD);
}

/*
 * Finish the carried packet with bytes from p.  Returns the nibble of p
 * where decoding continues, or UINT64_MAX if all of p went into the carry.
 */
static uint64_t carry_in(struct mttd_stp *d, const uint8_t *p, size_t len)
{
	size_t used = 0;

	while (used < len) {
		uint32_t old = d->clen;
		size_t take = len - used;
		uint64_t c;

		if (take > MTTD_CARRY_CAP - old)
			take = MTTD_CARRY_CAP - old;
		memcpy(d->carry + old, p + used, take);
		d->clen = old + (uint32_t)take;
		carry_pad(d);
		c = mttd__run_checked(d, d->carry, d->cbyte * 2, d->cnp,
				      (uint64_t)old * 2, (uint64_t)d->clen * 2);
		if (c >= (uint64_t)old * 2) {
			/* past the old bytes: continue in p */
			uint64_t at = used * 2 + (c - (uint64_t)old * 2);

			d->cbyte += old + take;
			d->clen = 0;
			d->cnp = 0;
			return at;
		}
		used += take;
		carry_consume(d, c);
		/* MTTD_CARRY_CAP is over twice the longest packet, so only
		 * a short p ends up all in the carry.  Safety net, never
		 * reached: a full carry that still holds no whole packet
		 * drops sync (hunting always moves on) instead of looping. */
		if (used < len && d->clen == MTTD_CARRY_CAP) {
			mttd__desync(d, d->cbyte * 2 + d->cnp,
				     MTTD_ERR_RESERVED_OP);
		}
	}
	return UINT64_MAX;
}

int mttd_stp_feed(struct mttd_stp *d, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t base, np = 0, c;
	size_t tail;

	if (d->finished)
		return -1;
	if (!len)
		return 0;
	base = d->st.bytes * 2;
	d->st.bytes += len;

	if (d->clen) {
		np = carry_in(d, p, len);
		if (np == UINT64_MAX) {
			mttd__flush(d);
			return 0;
		}
	}
	if (len > MTTD_MARGIN && np < (uint64_t)(len - MTTD_MARGIN) * 2)
		np = mttd__run_fast(d, p, base, np,
				    (uint64_t)(len - MTTD_MARGIN) * 2,
				    (uint64_t)len * 2);

	/* the last bytes go through the carry */
	tail = len - (size_t)(np >> 1);
	d->cbyte = (base >> 1) + (np >> 1);
	d->clen = (uint32_t)tail;
	d->cnp = (uint32_t)(np & 1);
	memcpy(d->carry, p + (np >> 1), tail);
	carry_pad(d);
	c = mttd__run_checked(d, d->carry, d->cbyte * 2, d->cnp,
			      (uint64_t)tail * 2, (uint64_t)tail * 2);
	carry_consume(d, c);
	mttd__flush(d);
	return 0;
}

int mttd_stp_finish(struct mttd_stp *d)
{
	uint64_t end, skipped = 0;

	if (d->finished)
		return -1;
	d->finished = 1;
	end = d->st.bytes * 2;
	if (d->state == ST_SYNCED && d->clen &&
	    (uint64_t)d->clen * 2 > d->cnp) {
		uint64_t at = d->cbyte * 2 + d->cnp;

		mttd__event(d, MTTD_EV_TRUNCATED, 0, at, end - at);
		d->st.truncated = 1;
	} else if (d->state == ST_FRUN) {
		mttd__event(d, MTTD_EV_TRUNCATED, 0, d->frun_start,
			    end - d->frun_start);
		d->st.truncated = 1;
	} else if (d->state == ST_HUNT) {
		skipped = end > d->hunt_start ? end - d->hunt_start : 0;
		d->st.unsynced_nibbles += skipped;
	}
	mttd__event(d, MTTD_EV_END, 0, end, (skipped + 1) / 2);
	mttd__flush(d);
	return 0;
}

#define PUT(b, x) mttd__blob_put((b), &(x), sizeof(x))

void mttd__stp_state(const struct mttd_stp *d, struct mttd__blob *b)
{
	PUT(b, d->st.bytes);
	PUT(b, d->finished);
	PUT(b, d->flags);
	PUT(b, d->state);
	PUT(b, d->ts);
	PUT(b, d->last_v);
	PUT(b, d->last_n);
	PUT(b, d->version);
	PUT(b, d->master);
	PUT(b, d->channel);
	/* dead while in sync: set again before they are read */
	if (d->state != ST_SYNCED) {
		PUT(b, d->frun);
		PUT(b, d->frun_t);
		PUT(b, d->frun_start);
		PUT(b, d->hunt_start);
	}
	PUT(b, d->cbyte);
	PUT(b, d->clen);
	PUT(b, d->cnp);
	mttd__blob_put(b, d->carry, d->clen);
	/* feed() delivers every event before it returns */
	PUT(b, d->nev);
	if (d->nev)
		PUT(b, d);	/* never equal to another decoder's */
}

void mttd__stp_start_at(struct mttd_stp *d, uint64_t off)
{
	d->st.bytes = off;
	d->cbyte = off;
	d->hunt_start = off * 2;
}
