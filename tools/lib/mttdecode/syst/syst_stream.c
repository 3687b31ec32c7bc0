// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_stream.c - SyS-T messages back to back in a plain byte stream
 * (UART style): bytes are gathered in a bounded buffer, each message is
 * framed by syst_frame.c and decoded; a message that cannot be framed
 * starts a byte-by-byte hunt for the next plausible header, reported as
 * one RESYNC event when it ends.
 */
#include <stdlib.h>

#include "syst_internal.h"

#define BUF_CAP (256u << 10)	/* > 2 x the largest message */

struct mttd_syst_stream {
	struct mttd_syst *s;
	uint8_t *buf;
	size_t cap;		/* grown up to BUF_CAP */
	size_t len;		/* valid bytes */
	size_t pos;		/* next unconsumed byte */
	uint64_t base;		/* stream offset of buf[0] */
	int hunting;
	uint64_t hunt_start;
	int finished;
};

struct mttd_syst_stream *mttd_syst_stream_new(struct mttd_syst *s)
{
	struct mttd_syst_stream *st;

	if (!s)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->s = s;
	return st;
}

void mttd_syst_stream_free(struct mttd_syst_stream *st)
{
	if (!st)
		return;
	free(st->buf);
	free(st);
}

static void deliver(struct mttd_syst_stream *st, size_t n)
{
	struct mttd_syst_src src = { .offset = st->base + st->pos };
	size_t k = n;

	if (st->s->max_len && k > st->s->max_len) {
		k = st->s->max_len;
		src.flags = MTTD_SYST_F_TRUNCATED;
	}
	mttd_syst_decode(st->s, &src, st->buf + st->pos, k);
	st->pos += n;
}

static void end_hunt(struct mttd_syst_stream *st)
{
	uint64_t at = st->base + st->pos;

	st->hunting = 0;
	mttd__syst_event(st->s, MTTD_SYST_EV_RESYNC, st->hunt_start,
			 at - st->hunt_start);
}

/* decode what the buffer holds; final: no more bytes will come */
static void run(struct mttd_syst_stream *st, int final)
{
	for (;;) {
		size_t avail = st->len - st->pos;
		long r;

		if (st->hunting) {
			while (avail >= 4 &&
			       !mttd__syst_plausible(st->buf + st->pos)) {
				st->pos++;
				avail--;
			}
			if (avail < 4) {
				if (!final)
					return;
				st->pos = st->len;
				end_hunt(st);
				return;
			}
			end_hunt(st);
		}
		if (!avail)
			return;
		r = mttd__syst_frame(st->s, st->buf + st->pos, avail, final);
		if (r > 0 && (size_t)r <= avail) {
			deliver(st, (size_t)r);
			continue;
		}
		if (r >= 0) {
			if (final)
				deliver(st, avail);	/* the rest, cut */
			return;
		}
		st->hunting = 1;
		st->hunt_start = st->base + st->pos;
		st->pos++;
	}
}

static void compact(struct mttd_syst_stream *st)
{
	size_t rest = st->len - st->pos;

	if (st->pos && rest)
		memmove(st->buf, st->buf + st->pos, rest);
	st->base += st->pos;
	st->len = rest;
	st->pos = 0;
}

int mttd_syst_stream_feed(struct mttd_syst_stream *st, const void *p,
			  size_t n)
{
	const uint8_t *b = p;

	if (st->finished)
		return -1;
	while (n) {
		size_t k = BUF_CAP - st->len;

		if (k > n)
			k = n;
		if (st->len + k > st->cap) {
			size_t cap = st->cap ? st->cap : 4096;
			uint8_t *nb;

			while (cap < st->len + k)
				cap *= 2;
			if (cap > BUF_CAP)
				cap = BUF_CAP;
			nb = realloc(st->buf, cap);
			if (!nb)
				return -1;
			st->buf = nb;
			st->cap = cap;
		}
		memcpy(st->buf + st->len, b, k);
		st->len += k;
		b += k;
		n -= k;
		run(st, 0);
		compact(st);
	}
	return 0;
}

int mttd_syst_stream_finish(struct mttd_syst_stream *st)
{
	if (st->finished)
		return -1;
	st->finished = 1;
	run(st, 1);
	compact(st);
	return 0;
}

size_t mttd_syst_probe(struct mttd_syst *s, const void *p, size_t n,
		       int final, int *clean)
{
	const uint8_t *b = p;
	size_t pos = 0, k = 0;
	long r;

	*clean = 0;
	while (pos < n) {
		r = mttd__syst_frame(s, b + pos, n - pos, final);
		if (r < 0)
			return k;		/* cannot be framed */
		if (!r || (size_t)r > n - pos)
			break;			/* cut by the end of the bytes */
		k++;
		pos += (size_t)r;
	}
	*clean = 1;
	return k;
}
