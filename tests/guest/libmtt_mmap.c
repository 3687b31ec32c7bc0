// SPDX-License-Identifier: GPL-2.0
/*
 * libmtt_mmap - guest program for t-65-libmtt-mmap: THREADS threads of
 * one process trace through libmtt to the STM device DEV, component
 * NAME, and each reads back its own channel's mapped MMIO window (libmtt
 * built in, so its internal mttl_chan_window() is at hand).  After each
 * of a UINT32 trace with a hint and a string mtt_print, the window must
 * hold exactly the frame libmtt writes with write(2): the same encoder's
 * frame, with the CPU, trace id and timestamp read back from the window
 * (the only fields the program cannot know); the same after a 200-byte
 * mtt_data_raw, each frame stored from the window's start.  Threads
 * stay alive until all are done so the channels, hence the windows,
 * differ.  Prints "OK mapped=<threads with a window> sent=<frames>" or
 * the first failure; with $MTT_IO=write no thread may have a window.
 *
 *   libmtt_mmap DEV NAME THREADS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mtt.h>

#include "internal/frame.h"
#include "internal/libmtt.h"

#define BLOB	200

struct arg {
	mtt_comp_handle_t h;
	unsigned int t;
	pthread_barrier_t *bar;
	const char *fail;
	int mapped;
	uintptr_t win;
};

static uint32_t get32(const volatile uint8_t *w, size_t off)
{
	return (uint32_t)w[off] | (uint32_t)w[off + 1] << 8 |
	       (uint32_t)w[off + 2] << 16 | (uint32_t)w[off + 3] << 24;
}

/* Does the window hold r's frame (target, trace id, ts from it)? */
static int window_is(struct mttl_comp *c, struct mttl_rec *r)
{
	uint8_t want[MTT_FRAME_PREAMBLE_BYTES + 16 + BLOB + MTT_FRAME_HINT_BYTES];
	volatile void *wv;
	const volatile uint8_t *w;
	size_t len, n, i;

	if (!mttl_chan_window(c, &wv, &len))
		return 0;
	w = wv;
	r->target = get32(w, 0) & MTT_FRAME_TARGET_CPU_MAX;
	r->trace_id = get32(w, 12);
	r->ts = get32(w, 24) | (uint64_t)get32(w, 28) << 32;
	n = mttl_frame_len(r);
	if (n > sizeof(want) || n > len)
		return 0;
	mttl_frame_put(want, r);
	for (i = 0; i < n; i++)
		if (w[i] != want[i])
			return 0;
	return 1;
}

static void *thread(void *p)
{
	uint8_t blob[BLOB];
	struct arg *a = p;
	struct mttl_comp *c = mttl_comp(a->h);
	char hint[12], text[32];
	uint32_t v = 1000 + a->t;
	struct mttl_rec r = {
		.cmd = MTT_FRAME_CMD_TRACE, .comp = c->id, .level = MTT_LEVEL_INFO,
		.flags = MTT_FRAME_F_CTXT | MTT_FRAME_F_TS64 | MTT_FRAME_F_LEVEL | MTT_FRAME_F_HINT,
		.type_info = MTT_TRACEITEM_UINT32, .payload = &v,
		.hint = hint, .ctx = mttl_tid(),
	};
	volatile void *wv = NULL;
	size_t len;

	snprintf(hint, sizeof(hint), "m%u", a->t);
	snprintf(text, sizeof(text), "print from %u", a->t);
	pthread_barrier_wait(a->bar);
	if (mtt_trace(a->h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, hint)) {
		a->fail = "mtt_trace";
		goto out;
	}
	a->mapped = mttl_chan_window(c, &wv, &len);
	a->win = (uintptr_t)wv;
	if (a->mapped && !window_is(c, &r)) {
		a->fail = "the window after mtt_trace";
		goto out;
	}
	if (mtt_print(a->h, MTT_LEVEL_DEBUG, "print from %u", a->t)) {
		a->fail = "mtt_print";
		goto out;
	}
	r.flags &= ~MTT_FRAME_F_HINT;
	r.hint = NULL;
	r.level = MTT_LEVEL_DEBUG;
	r.type_info = MTTL_TI_STRING | (uint32_t)strlen(text);
	r.payload = text;
	if (a->mapped && !window_is(c, &r)) {
		a->fail = "the window after mtt_print";
		goto out;
	}
	for (len = 0; len < BLOB; len++)
		blob[len] = (uint8_t)(len * 7 + a->t);
	if (mtt_data_raw(c->id, MTT_LEVEL_INFO, BLOB, blob)) {
		a->fail = "mtt_data_raw";
		goto out;
	}
	r.cmd = MTT_FRAME_CMD_RAW;
	r.level = MTT_LEVEL_INFO;
	r.type_info = MTTL_TI_BLOB | BLOB;
	r.payload = blob;
	if (a->mapped && !window_is(c, &r))
		a->fail = "the window after mtt_data_raw";
out:
	pthread_barrier_wait(a->bar);
	return NULL;
}

int main(int argc, char **argv)
{
	mtt_init_param_t p;
	mtt_comp_handle_t h;
	mtt_comp_info_t info;
	pthread_barrier_t bar;
	struct arg a[16];
	pthread_t th[16];
	unsigned int n, i, j, mapped = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: libmtt_mmap DEV NAME THREADS\n");
		return 2;
	}
	n = (unsigned int)atoi(argv[3]);
	if (!n || n > 16) {
		fprintf(stderr, "THREADS: 1..16\n");
		return 2;
	}
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", argv[1]);
	if (mtt_initialize(&p) ||
	    mtt_open(MTT_COMPONENTID_ANY, argv[2], &h)) {
		printf("FAIL init/open\n");
		return 1;
	}
	pthread_barrier_init(&bar, NULL, n);
	for (i = 0; i < n; i++) {
		a[i] = (struct arg){ .h = h, .t = i, .bar = &bar };
		pthread_create(&th[i], NULL, thread, &a[i]);
	}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < n; i++) {
		if (a[i].fail) {
			printf("FAIL thread %u: %s\n", i, a[i].fail);
			return 1;
		}
		mapped += a[i].mapped;
		for (j = 0; j < i; j++)
			if (a[i].mapped && a[i].win == a[j].win) {
				printf("FAIL threads %u and %u share a window\n",
				       j, i);
				return 1;
			}
	}
	mtt_get_component_info(h, &info);
	mtt_close(h);
	printf("OK mapped=%u sent=%llu\n", mapped,
	       (unsigned long long)info.stat[0]);
	return 0;
}
