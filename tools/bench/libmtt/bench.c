// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - "make bench": nanoseconds per libmtt trace call, filtered
 * out (the inline level test) and enabled (a UINT32 with a hint, framed
 * and written to /dev/null, so the figure is libmtt plus one write(2)).
 * Figures are printed, not asserted.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mtt.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double per_call(mtt_comp_handle_t h, uint32_t level, unsigned long n)
{
	volatile uint32_t v = 0;
	double t0 = now();
	unsigned long i;

	for (i = 0; i < n; i++) {
		uint32_t x = v + (uint32_t)i;

		if (mtt_trace(h, level, MTT_TRACEITEM_UINT32, &x, "bench"))
			return -1;
	}
	return (now() - t0) / (double)n;
}

int main(void)
{
	mtt_init_param_t p;
	mtt_comp_handle_t h;
	double on, off;

	memset(&p, 0, sizeof(p));
	strcpy(p.name, "/dev/null");
	if (mtt_initialize(&p) || mtt_open(MTT_COMPONENTID_ANY, "bench", &h))
		return 1;
	mtt_set_component_filter(h, MTT_LEVEL_ERROR, NULL);
	per_call(h, MTT_LEVEL_INFO, 1000000);		/* warm up */
	off = per_call(h, MTT_LEVEL_INFO, 100000000);
	on = per_call(h, MTT_LEVEL_ERROR, 200000);
	if (on < 0) {
		fprintf(stderr, "bench: writing to /dev/null failed\n");
		return 1;
	}
	printf("libmtt mtt_trace filtered out: %.2f ns/call\n", off);
	printf("libmtt mtt_trace enabled (UINT32 + hint, write to /dev/null): %.0f ns/call\n", on);
	mtt_close(h);
	return 0;
}
