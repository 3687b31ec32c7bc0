// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cs_deformat.c - the CoreSight trace formatter undone: 16-byte frames
 * unpacked into (trace ID, byte) pairs, the bytes of one ID passed on
 * (see mttdecode/framing.h for the frame layout).
 *
 * A frame is collected: an FSYNC where it starts is dropped (four bytes)
 * as soon as it is there and collection goes on; once the frame is
 * whole, with MTTD_CS_HSYNC each HSYNC halfword is dropped the same way;
 * otherwise the frame is unpacked.
 * With MTTD_CS_FSYNC nothing is collected before the first FSYNC.
 * With trace ID 0 (auto) each ID's bytes are watched for an STP ASYNC
 * (21 F nibbles then a 0 nibble, low nibble first); the first ID to
 * complete one is chosen and passed on from the bytes holding it.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/framing.h"

#define FRAME 16
#define NO_ID 0xffu		/* no ID change seen yet */
#define OUTBUF 4096
#define TAIL 12			/* bytes an ASYNC can span */

struct watch {			/* an ID's bytes, before one is chosen */
	uint8_t run;		/* F nibbles in a row (up to 21) */
	uint8_t n;		/* bytes in tail */
	uint8_t tail[TAIL];	/* its last bytes, oldest first */
};

struct mttd_cs {
	mttd_bytes_fn fn;
	void *ctx;
	unsigned int flags;
	unsigned int want;	/* the ID passed on; 0 while none */
	struct mttd_cs_stats st;
	uint8_t frame[FRAME];
	size_t flen;
	unsigned int cur;	/* the current ID, or NO_ID */
	int synced;		/* an FSYNC was seen (MTTD_CS_FSYNC) */
	uint32_t hunt;		/* last 4 bytes while hunting an FSYNC */
	int done;
	size_t nout;
	uint8_t out[OUTBUF];
	struct watch w[MTTD_CS_MAX_ID + 1];
};

static void flush(struct mttd_cs *c)
{
	if (c->nout && c->fn)
		c->fn(c->ctx, c->out, c->nout);
	c->nout = 0;
}

static void put_out(struct mttd_cs *c, uint8_t b)
{
	c->st.data++;
	c->out[c->nout++] = b;
	if (c->nout == OUTBUF)
		flush(c);
}

/* byte b of ID id while no ID is chosen: 1 if it completes an ASYNC */
static int watch(struct watch *w, uint8_t b)
{
	int i, hit = 0;

	if (w->n == TAIL) {
		memmove(w->tail, w->tail + 1, TAIL - 1);
		w->n--;
	}
	w->tail[w->n++] = b;
	for (i = 0; i < 2; i++) {
		unsigned int nib = i ? b >> 4 : b & 0xf;

		if (nib == 0xf) {
			if (w->run < 21)
				w->run++;
		} else {
			if (!nib && w->run >= 21)
				hit = 1;
			w->run = 0;
		}
	}
	return hit;
}

static void put(struct mttd_cs *c, unsigned int id, uint8_t b)
{
	if (c->want && id == c->want) {
		put_out(c, b);
		return;
	}
	c->st.other++;
	if (c->want || !id || id > MTTD_CS_MAX_ID)
		return;
	if (watch(&c->w[id], b)) {
		struct watch *w = &c->w[id];
		unsigned int i;

		c->want = id;
		c->st.trace_id = id;
		c->st.other -= w->n;
		for (i = 0; i < w->n; i++)
			put_out(c, w->tail[i]);
	}
}

static void set_id(struct mttd_cs *c, unsigned int id)
{
	c->cur = id;
	c->st.id_changes++;
	c->st.ids[id >> 6] |= 1ull << (id & 63);
	if (id > MTTD_CS_MAX_ID)
		c->st.reserved++;
}

static void unpack(struct mttd_cs *c, const uint8_t *f)
{
	unsigned int aux = f[15], j;

	c->st.frames++;
	for (j = 0; j < 8; j++) {
		uint8_t e = f[2 * j];
		unsigned int bit = (aux >> j) & 1;
		int odd = j < 7;	/* a data byte follows */

		if (e & 1) {
			if (odd && bit) {	/* after the next byte */
				put(c, c->cur, f[2 * j + 1]);
				set_id(c, e >> 1);
				continue;
			}
			set_id(c, e >> 1);
		} else {
			put(c, c->cur, (uint8_t)((e & 0xfe) | bit));
		}
		if (odd)
			put(c, c->cur, f[2 * j + 1]);
	}
}

/* drop k bytes from the frame's start */
static void drop(struct mttd_cs *c, size_t at, size_t k)
{
	memmove(c->frame + at, c->frame + at + k, c->flen - at - k);
	c->flen -= k;
}

static int is_fsync(const uint8_t *p)
{
	return p[0] == 0xff && p[1] == 0xff && p[2] == 0xff && p[3] == 0x7f;
}

/* the frame is complete: 1 if it was unpacked, 0 if an HSYNC was
 * dropped */
static int frame_done(struct mttd_cs *c)
{
	size_t i;

	if (c->flags & MTTD_CS_HSYNC) {
		for (i = 0; i < FRAME; i += 2) {
			if (c->frame[i] == 0xff && c->frame[i + 1] == 0x7f) {
				c->st.hsyncs++;
				drop(c, i, 2);
				return 0;
			}
		}
	}
	unpack(c, c->frame);
	c->flen = 0;
	return 1;
}

static void feed(struct mttd_cs *c, const uint8_t *p, size_t len)
{
	while (len) {
		if (!c->synced) {
			c->hunt = c->hunt << 8 | *p++;
			len--;
			if (c->hunt == 0xffffff7fu) {
				c->synced = 1;
				c->st.fsyncs++;
				c->st.unsynced -= 3;
			} else {
				c->st.unsynced++;
			}
			continue;
		}
		{
			size_t k = FRAME - c->flen;

			if (k > len)
				k = len;
			memcpy(c->frame + c->flen, p, k);
			c->flen += k;
			p += k;
			len -= k;
			for (;;) {
				if (c->flen >= 4 && is_fsync(c->frame)) {
					c->st.fsyncs++;
					drop(c, 0, 4);
				} else if (c->flen < FRAME || frame_done(c)) {
					break;
				}
			}
		}
	}
}

struct mttd_cs *mttd_cs_new(const struct mttd_cs_config *cfg)
{
	struct mttd_cs *c;

	if (!cfg || !cfg->fn || cfg->trace_id > MTTD_CS_MAX_ID ||
	    (cfg->flags & ~(MTTD_CS_FSYNC | MTTD_CS_HSYNC)))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->fn = cfg->fn;
	c->ctx = cfg->ctx;
	c->flags = cfg->flags;
	if (c->flags & MTTD_CS_HSYNC)
		c->flags |= MTTD_CS_FSYNC;
	c->want = cfg->trace_id;
	c->st.trace_id = c->want;
	c->cur = NO_ID;
	c->synced = !(c->flags & MTTD_CS_FSYNC);
	return c;
}

void mttd_cs_free(struct mttd_cs *c)
{
	free(c);
}

const struct mttd_cs_stats *mttd_cs_stats(const struct mttd_cs *c)
{
	return &c->st;
}

int mttd_cs_feed(struct mttd_cs *c, const void *buf, size_t len)
{
	if (c->done)
		return -1;
	c->st.bytes += len;
	feed(c, buf, len);
	flush(c);
	return 0;
}

int mttd_cs_finish(struct mttd_cs *c)
{
	if (c->done)
		return -1;
	c->done = 1;
	c->st.truncated = c->flen;
	c->flen = 0;
	return 0;
}

int mttd_cs_probe(const void *buf, size_t len, unsigned int *trace_id)
{
	struct mttd_cs *c;
	int ok;

	/* the ASYNC is 21 F nibbles of one ID's data, ten 0xff data bytes
	 * at least, and a data byte 0xff is a frame byte 0xff (odd
	 * offsets) or 0xfe (even ones, its bit 0 from the aux byte): a
	 * buffer with neither (text, for one) is not looked at further */
	if (!memchr(buf, 0xff, len) && !memchr(buf, 0xfe, len))
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return 0;
	c->cur = NO_ID;
	c->synced = 1;
	feed(c, buf, len);
	ok = c->want && !c->st.reserved;
	if (ok && trace_id)
		*trace_id = c->want;
	free(c);
	return ok;
}
