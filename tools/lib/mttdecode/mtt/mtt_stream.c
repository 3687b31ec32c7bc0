// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mtt_stream.c - a raw file of native MTT frames back to back, fed in
 * chunks of any size.  At each offset a frame is taken when its first
 * word is a version 1.0 sync word; otherwise the reader moves on one
 * byte (bytes that were not frames are reported as skipped), so it
 * resynchronises on the next sync word after damage.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttframe.h"

struct mttd_mtt_stream {
	mttd_mtt_frame_fn fn;
	mttd_mtt_skip_fn skip;
	void *ctx;
	uint8_t *buf;		/* unconsumed bytes */
	size_t len, cap;
	uint64_t offset;	/* stream offset of buf[0] */
	uint64_t skip_at;	/* start of the skipped run */
	uint64_t skipped;	/* its length */
};

struct mttd_mtt_stream *mttd_mtt_stream_new(mttd_mtt_frame_fn fn,
					    mttd_mtt_skip_fn skip, void *ctx)
{
	struct mttd_mtt_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->fn = fn;
	s->skip = skip;
	s->ctx = ctx;
	return s;
}

void mttd_mtt_stream_free(struct mttd_mtt_stream *s)
{
	if (!s)
		return;
	free(s->buf);
	free(s);
}

static void flush_skip(struct mttd_mtt_stream *s)
{
	if (s->skipped && s->skip)
		s->skip(s->ctx, s->skip_at, s->skipped);
	s->skipped = 0;
}

static void skip1(struct mttd_mtt_stream *s, uint64_t at)
{
	if (!s->skipped)
		s->skip_at = at;
	s->skipped++;
}

/* Consume what can be decided in buf; final: no more bytes come. */
static void run(struct mttd_mtt_stream *s, int final)
{
	size_t i = 0;

	while (i < s->len) {
		struct mttd_mtt_frame f;
		long r = mttd_mtt_parse(s->buf + i, s->len - i, &f);

		if (r > 0) {
			flush_skip(s);
			if (s->fn)
				s->fn(s->ctx, &f, s->offset + i);
			i += (size_t)r;
			continue;
		}
		if (r < 0 && !final)
			break;		/* need more bytes */
		skip1(s, s->offset + i);
		i++;
	}
	if (i && s->len > i)
		memmove(s->buf, s->buf + i, s->len - i);
	s->len -= i;
	s->offset += i;
	if (final)
		flush_skip(s);
}

int mttd_mtt_stream_push(struct mttd_mtt_stream *s, const uint8_t *p,
			 size_t n)
{
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		uint8_t *b;

		while (cap < s->len + n)
			cap *= 2;
		b = realloc(s->buf, cap);
		if (!b)
			return -1;
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	run(s, 0);
	return 0;
}

void mttd_mtt_stream_finish(struct mttd_mtt_stream *s)
{
	run(s, 1);
}
