// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_mtt.c - libFuzzer target for the native MTT frame layer.  Each
 * input is parsed as one frame (every field and the rendered value
 * folded into a hash, invariants checked: payload and hint inside the
 * frame, value text NUL-terminated at any buffer size) and decoded as a
 * raw stream of frames, whole and in pseudo-random chunks: the frames and
 * skipped runs must be the same, and cover every input byte exactly once.
 * Component names are learned from every frame.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "fuzz_hash.h"

struct run {
	uint64_t h;
	uint64_t bytes;		/* frame and skipped bytes seen */
	uint64_t next;		/* offset expected next */
	struct mttd_mtt_names *names;
};

static void check_frame(const uint8_t *p, size_t n,
			const struct mttd_mtt_frame *f, uint64_t *h)
{
	char small[5], big[512];
	size_t need;

	if (f->len > n || f->payload < p ||
	    f->payload + f->payload_len > p + f->len ||
	    strlen(f->hint) > MTT_FRAME_HINT_BYTES)
		abort();
	need = mttd_mtt_value(f, small, sizeof(small));
	if (strlen(small) >= sizeof(small))
		abort();
	mttd_mtt_value(f, big, sizeof(big));
	if (need < sizeof(big) && strlen(big) != need)
		abort();
	fuzz_mix(h, big, strlen(big));
	fuzz_mix64(h, f->cmd ^ f->flags ^ f->comp ^ f->trace_id ^ f->type_info);
	fuzz_mix64(h, f->ts ^ f->ctx ^ f->level ^ (uint64_t)f->crc_ok);
}

static void on_frame(void *ctx, const struct mttd_mtt_frame *f, uint64_t off)
{
	struct run *r = ctx;

	if (off != r->next)
		abort();
	r->next = off + f->len;
	r->bytes += f->len;
	mttd_mtt_names_learn(r->names, f);
	fuzz_mix64(&r->h, off);
	fuzz_mix(&r->h, f->payload, f->payload_len);
	fuzz_mix(&r->h, f->hint, strlen(f->hint));
	if (mttd_mtt_value_name(r->names, f))
		fuzz_mix64(&r->h, 1);
	if (mttd_mtt_comp_name(r->names, f->comp))
		fuzz_mix64(&r->h, 2);
}

static void on_skip(void *ctx, uint64_t off, uint64_t n)
{
	struct run *r = ctx;

	if (off != r->next || !n)
		abort();
	r->next = off + n;
	r->bytes += n;
	fuzz_mix64(&r->h, off ^ (n << 32));
}

static uint64_t stream(const uint8_t *p, size_t n, uint64_t seed)
{
	struct run r = { 0 };
	struct mttd_mtt_stream *s;
	size_t off = 0;

	r.names = mttd_mtt_names_new(NULL);
	s = mttd_mtt_stream_new(on_frame, on_skip, &r);
	if (!s || !r.names)
		abort();
	while (off < n) {
		size_t k = n - off;
		uint8_t *copy;

		if (seed) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			k = 1 + (size_t)(seed >> 33) % (k < 97 ? k : 97);
		}
		copy = malloc(k);	/* a buffer of its own size */
		memcpy(copy, p + off, k);
		mttd_mtt_stream_push(s, copy, k);
		free(copy);
		off += k;
	}
	mttd_mtt_stream_finish(s);
	mttd_mtt_stream_free(s);
	mttd_mtt_names_free(r.names);
	if (r.bytes != n)
		abort();
	return r.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n)
{
	struct mttd_mtt_frame f;
	uint64_t h = 0;
	long r = mttd_mtt_parse(p, n, &f);

	if (r > 0)
		check_frame(p, n, &f, &h);
	if (mttd_mtt_is_frame(p, n) != (r > 0 && (size_t)r == n))
		abort();
	if (stream(p, n, 0) != stream(p, n, n * 2654435761u + 1))
		abort();
	fuzz_mix64(&h, (uint64_t)r);
	return h == 42 ? 0 : 0;
}
