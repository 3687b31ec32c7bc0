// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_framing.c - libFuzzer target for the framing layers (Intel TH MSC
 * unframer, CoreSight deformatter).  The first byte chooses the layer and
 * its settings: bits 1:0 MSC (0) or CoreSight aligned (1), FSYNC (2),
 * HSYNC (3); bits 7:2 the CoreSight trace ID (0: detected).  The rest is
 * the capture, unframed three times: whole, in pseudo-random chunks
 * (each copied into a buffer of its own size) and, up to 4 KiB, one byte
 * at a time.  The bytes passed on and the counters are folded into a
 * hash; the three must match, and no layer may pass on more bytes than
 * it was given.  mttd_msc_probe() and mttd_cs_probe() run on the capture
 * too.  Seeds: fuzz/corpus-framing/ (framegen captures of fuzz/corpus
 * streams behind their mode byte).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "fuzz_hash.h"

struct run {
	uint64_t h;
	uint64_t n;
};

static void on_bytes(void *ctx, const uint8_t *p, size_t n)
{
	struct run *r = ctx;

	if (!n)
		abort();
	r->n += n;
	fuzz_mix(&r->h, p, n);
}

static int feed(void *o, int msc, const uint8_t *p, size_t n)
{
	return msc ? mttd_msc_feed(o, p, n) : mttd_cs_feed(o, p, n);
}

/* the decoder a run feeds, for fuzz_feed() */
struct framing {
	void *o;
	int msc;
};

static int feed_framing(void *ctx, const uint8_t *p, size_t n)
{
	const struct framing *f = ctx;

	return feed(f->o, f->msc, p, n);
}

/* mode 0: whole; 1: random chunks; 2: single bytes */
static uint64_t unframe(uint8_t sel, const uint8_t *data, size_t size,
			int mode)
{
	static const unsigned int flags[] = {
		0, 0, MTTD_CS_FSYNC, MTTD_CS_HSYNC
	};
	struct run r = { .h = 0xcbf29ce484222325ULL };
	struct mttd_msc_config mc = { .fn = on_bytes, .ctx = &r };
	struct mttd_cs_config cc = {
		.fn = on_bytes, .ctx = &r, .flags = flags[sel & 3],
		.trace_id = (sel >> 2) > MTTD_CS_MAX_ID ? 0 : sel >> 2,
	};
	int msc = !(sel & 3);
	void *o = msc ? (void *)mttd_msc_new(&mc) : (void *)mttd_cs_new(&cc);
	struct framing f = { o, msc };

	if (!o)
		abort();
	fuzz_feed(mode, 97, data, size, &f, feed_framing);
	if (msc) {
		const struct mttd_msc_stats *s = mttd_msc_stats(o);

		if (mttd_msc_finish(o) || mttd_msc_finish(o) != -1 ||
		    mttd_msc_feed(o, data, size) != -1)
			abort();
		if (r.n > size || s->data != r.n || s->bytes != size)
			abort();
		fuzz_mix64(&r.h, s->blocks << 32 ^ s->windows << 16 ^
			   s->wrapped << 8 ^ s->bad);
		fuzz_mix64(&r.h, s->truncated ^ s->last_ts);
		mttd_msc_free(o);
	} else {
		const struct mttd_cs_stats *s = mttd_cs_stats(o);

		if (mttd_cs_finish(o) || mttd_cs_finish(o) != -1 ||
		    mttd_cs_feed(o, data, size) != -1)
			abort();
		if (r.n > size || s->data != r.n || s->bytes != size ||
		    s->data + s->other > size)
			abort();
		fuzz_mix64(&r.h, s->frames ^ s->fsyncs << 20 ^ s->hsyncs << 40);
		fuzz_mix64(&r.h, s->id_changes ^ s->other << 20 ^
			   (uint64_t)s->trace_id << 56);
		fuzz_mix64(&r.h, s->unsynced ^ s->truncated << 8 ^
			   s->reserved << 16 ^ s->ids[0] ^ s->ids[1]);
		mttd_cs_free(o);
	}
	return r.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int id = 0;
	uint64_t whole;
	uint8_t sel;

	if (!size)
		return 0;
	sel = data[0];
	data++;
	size--;
	(void)mttd_msc_probe(data, size);
	if (mttd_cs_probe(data, size, &id) && (!id || id > MTTD_CS_MAX_ID))
		abort();
	whole = unframe(sel, data, size, 0);
	if (unframe(sel, data, size, 1) != whole)
		abort();
	if (size <= 4096 && unframe(sel, data, size, 2) != whole)
		abort();
	return 0;
}
