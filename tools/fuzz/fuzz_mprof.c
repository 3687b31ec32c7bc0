// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_mprof.c - libFuzzer target for the MiniProfiler host side
 * (tools/lib/mprof): the response parser must give the same events whatever
 * the chunking (the first byte picks the chunk sizes), never read out of
 * bounds or leak; the collected records then go through the analysis
 * (call tree, statistics) and every report writer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mprof/mprof.h"

struct hash {
	uint64_t h;
	uint64_t n;
};

static void mix(struct hash *x, uint64_t v)
{
	x->h = (x->h ^ v) * 0x100000001b3ull;
	x->n++;
}

static void on_event(void *ctx, const struct mprof_event *ev)
{
	struct hash *x = ctx;
	size_t i;

	mix(x, ev->kind);
	mix(x, ev->offset);
	mix(x, ev->type);
	mix(x, ev->len);
	if (ev->kind == MPROF_EV_PACKET)
		for (i = 0; i < ev->len; i++)
			mix(x, ev->payload[i]);
}

static struct hash run(const uint8_t *d, size_t n, size_t chunk,
		       struct mprof_collect *c)
{
	struct hash x = { 0xcbf29ce484222325ull, 0 };
	size_t i;

	if (mprof_collect_init(c, on_event, &x))
		abort();
	for (i = 0; i < n; i += chunk)
		if (mprof_collect_feed(c, d + i, n - i < chunk ? n - i : chunk))
			abort();
	mprof_collect_finish(c);
	return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mprof_collect a, b;
	struct hash ha, hb;
	size_t chunk;
	FILE *f;

	if (!size)
		return 0;
	chunk = (size_t)(data[0] % 17) + 1;
	data++;
	size--;
	ha = run(data, size, size ? size : 1, &a);
	hb = run(data, size, chunk, &b);
	if (ha.h != hb.h || ha.n != hb.n)
		abort();	/* chunking changed the events */
	if (a.records != b.records || a.bad_version != b.bad_version)
		abort();
	mprof_collect_free(&b);
	if (mprof_profile_analyse(&a.prof))
		abort();
	f = fopen("/dev/null", "w");
	if (f) {
		mprof_write_text(f, &a.prof);
		mprof_write_folded(f, &a.prof);
		mprof_write_chrome(f, &a.prof);
		mprof_write_html(f, &a.prof, "fuzz");
		fclose(f);
	}
	mprof_collect_free(&a);
	return 0;
}
