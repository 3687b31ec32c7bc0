// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_rv.c - libFuzzer target for the RISC-V trace encapsulation decoder
 * (mttdecode/riscv.h), the message layer on top of it, and the packet
 * parser.  The first two bytes choose the widths (srcID bits = byte 0 %
 * 17, timestamp bytes = byte 1 % 9), null events (byte 0 bit 7), an
 * unframed stream (byte 1 bit 7) and which srcIDs are swstm's (byte 1
 * bit 6: the even ones, else all); the rest is the stream.  Packets not
 * handed on as STP are hashed too.  It is
 * decoded whole, in pseudo-random chunks (each in a buffer of its own
 * size, so reading past a chunk is caught by ASan) and, up to 4 KiB, one
 * byte at a time; the three hashes of every event and message must
 * match, else the target aborts.  mttd_rv_packet_parse() is run at every
 * offset (of inputs up to 1 KiB) on at most 48 bytes, and must report a
 * size that fits what it was given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "fuzz_hash.h"

struct run {
	uint64_t h;
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
		fuzz_mix64(&r->h, (uint64_t)e->master << 48 |
			   (uint64_t)e->channel << 32 |
			   (uint64_t)e->type << 24 | (uint64_t)e->op << 16 |
			   (uint64_t)e->nibbles << 8 | e->flags);
		fuzz_mix64(&r->h, (uint64_t)e->tsn << 8 | e->aux);
		if (e->type == MTTD_EV_PACKET && e->nibbles > 16)
			abort();
		mttd_msg_push(r->msg, e, 1);
	}
}

static void on_pkt(void *ctx, const struct mttd_rv_packet *p, uint64_t off)
{
	struct run *r = ctx;

	fuzz_mix64(&r->h, off);
	fuzz_mix64(&r->h, p->ts);
	fuzz_mix64(&r->h, (uint64_t)p->srcid << 32 | p->flow << 24 |
		   p->extend << 16 | p->length << 8 | p->payload_bits);
	if (p->size < 2 || p->size > 42 || !p->length ||
	    p->payload_bits > 8 * sizeof(p->payload))
		abort();
	fuzz_mix(&r->h, p->payload, (p->payload_bits + 7) / 8);
}

static void on_msg(void *ctx, const struct mttd_msg *m)
{
	struct run *r = ctx;

	fuzz_mix64(&r->h, m->offset);
	fuzz_mix64(&r->h, m->ts);
	fuzz_mix64(&r->h, (uint64_t)m->master << 48 |
		   (uint64_t)m->channel << 32 | m->flags << 8 | m->end);
	fuzz_mix64(&r->h, m->len);
	if (m->len > 64)
		abort();
	fuzz_mix(&r->h, m->data, m->len);
}

static void on_mev(void *ctx, const struct mttd_msg_event *e)
{
	struct run *r = ctx;

	fuzz_mix64(&r->h, e->offset);
	fuzz_mix64(&r->h, e->value);
	fuzz_mix64(&r->h, (uint64_t)e->master << 48 |
		   (uint64_t)e->channel << 32 | (uint64_t)e->kind << 24 |
		   (uint64_t)e->reason << 16 | (uint64_t)e->err << 8 |
		   e->first);
}

/* fuzz_feed()'s feed: the decoder's own result is checked at the end */
static int feed_rv(void *d, const uint8_t *p, size_t n)
{
	mttd_rv_feed(d, p, n);
	return 0;
}

/* mode 0: whole; 1: random chunks; 2: single bytes */
static uint64_t decode(const uint8_t *data, size_t size, int mode,
		       unsigned int w, unsigned int t, unsigned int flags,
		       const uint8_t *map)
{
	struct run r = { .h = 0xcbf29ce484222325ULL };
	struct mttd_msg_config mc = { .max_len = 64, .max_open = 4 };
	struct mttd_msg_sink sink = { on_msg, on_mev, &r };
	struct mttd_rv_config cfg = {
		.fn = on_events, .ctx = &r, .flags = flags,
		.srcid_bits = w, .ts_bytes = t, .pkt_fn = on_pkt,
		.stp_srcids = map,
	};
	const struct mttd_rv_counts *cnt;
	const struct mttd_stp_stats *st;
	struct mttd_rv *d;

	r.msg = mttd_msg_new(&mc);
	d = mttd_rv_new(&cfg);
	if (!r.msg || !d)
		abort();
	mttd_msg_add_sink(r.msg, &sink);
	fuzz_feed(mode, 67, data, size, d, feed_rv);
	mttd_rv_finish(d);
	if (mttd_rv_feed(d, data, size) != -1 || mttd_rv_finish(d) != -1)
		abort();
	st = mttd_rv_stats(d);
	if (st->bytes != size || st->unsynced_nibbles > 2 * size)
		abort();
	fuzz_mix64(&r.h, st->unsynced_nibbles);
	fuzz_mix64(&r.h, st->nulls);
	fuzz_mix64(&r.h, st->syncs);
	cnt = mttd_rv_counts(d);
	if (cnt->not_stp > cnt->encap)
		abort();
	fuzz_mix64(&r.h, cnt->encap);
	fuzz_mix64(&r.h, cnt->alignment);
	mttd_rv_free(d);
	mttd_msg_free(r.msg);
	return r.h;
}

static void parse_all(const uint8_t *data, size_t size, unsigned int w,
		      unsigned int t)
{
	struct mttd_rv_packet p;
	size_t off;

	for (off = 0; off < size; off++) {
		/* a packet is at most 1 + 2 + 8 + 31 bytes */
		size_t n = size - off < 48 ? size - off : 48;
		uint8_t *copy = malloc(n);
		long r;

		if (!copy)
			abort();
		memcpy(copy, data + off, n);
		r = mttd_rv_packet_parse(copy, n, w, t, &p);
		free(copy);
		if (r > 0 && ((size_t)r > n || (size_t)r != p.size ||
			      p.payload_bits > 8 * sizeof(p.payload)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t evens[8192];
	unsigned int w, t, flags;
	const uint8_t *map;
	uint64_t whole;

	if (size < 2)
		return 0;
	w = data[0] % 17;
	t = data[1] % 9;
	flags = (data[0] & 0x80) ? MTTD_RV_NULLS : 0;
	if (data[1] & 0x80)
		flags |= MTTD_RV_UNFRAMED;
	memset(evens, 0x55, sizeof(evens));
	map = (data[1] & 0x40) ? evens : NULL;
	data += 2;
	size -= 2;
	whole = decode(data, size, 0, w, t, flags, map);
	if (decode(data, size, 1, w, t, flags, map) != whole)
		abort();
	if (size <= 4096 && decode(data, size, 2, w, t, flags, map) != whole)
		abort();
	if (size <= 1024)
		parse_all(data, size, w, t);
	return 0;
}
