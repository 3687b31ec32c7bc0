// SPDX-License-Identifier: GPL-2.0
/*
 * libmtt_threads - guest program for t-64-libmtt: THREADS threads of one
 * process trace COUNT values each through libmtt at once (released by a
 * barrier, and kept alive until all are done so each keeps its own
 * channel), component NAME, to the STM device DEV.  Thread t traces
 * 0..COUNT-1 as UINT32 with hint "t<t>", then one mtt_print.  Prints
 * "OK sent=<n>" or the first error.
 *
 *   libmtt_threads DEV NAME THREADS COUNT
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mtt.h>

struct arg {
	mtt_comp_handle_t h;
	unsigned int t, count;
	pthread_barrier_t *bar;
	mtt_return_t err;
};

static void *writer(void *p)
{
	struct arg *a = p;
	char hint[12];
	uint32_t i;

	snprintf(hint, sizeof(hint), "t%u", a->t);
	pthread_barrier_wait(a->bar);
	for (i = 0; i < a->count && !a->err; i++)
		a->err = mtt_trace(a->h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32,
				   &i, hint);
	if (!a->err)
		a->err = mtt_print(a->h, MTT_LEVEL_DEBUG, "done %u", a->t);
	/* keep the channel (closed at thread exit) until all are done, so
	 * no thread gets a channel another one used */
	pthread_barrier_wait(a->bar);
	return NULL;
}

int main(int argc, char **argv)
{
	mtt_init_param_t p;
	mtt_comp_handle_t h;
	mtt_comp_info_t info;
	pthread_barrier_t bar;
	struct arg *a;
	pthread_t *th;
	unsigned int n, count, i;
	mtt_return_t r;

	if (argc != 5) {
		fprintf(stderr, "usage: libmtt_threads DEV NAME THREADS COUNT\n");
		return 2;
	}
	n = (unsigned int)atoi(argv[3]);
	count = (unsigned int)atoi(argv[4]);
	if (!n || n > 64) {
		fprintf(stderr, "THREADS: 1..64\n");
		return 2;
	}
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", argv[1]);
	r = mtt_initialize(&p);
	if (!r)
		r = mtt_open(MTT_COMPONENTID_ANY, argv[2], &h);
	if (r) {
		printf("FAIL init/open 0x%x\n", r);
		return 1;
	}
	a = calloc(n, sizeof(*a));
	th = calloc(n, sizeof(*th));
	if (!a || !th)
		return 1;
	pthread_barrier_init(&bar, NULL, n);
	for (i = 0; i < n; i++) {
		a[i] = (struct arg){ .h = h, .t = i, .count = count, .bar = &bar };
		pthread_create(&th[i], NULL, writer, &a[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		if (a[i].err && !r)
			r = a[i].err;
	}
	mtt_get_component_info(h, &info);
	mtt_close(h);
	if (r) {
		printf("FAIL trace 0x%x\n", r);
		return 1;
	}
	printf("OK sent=%llu\n", (unsigned long long)info.stat[0]);
	return 0;
}
