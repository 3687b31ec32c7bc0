// SPDX-License-Identifier: GPL-2.0
/*
 * alt_bench - what one traced event costs a program, through libmtt and
 * through what a user would trace with instead (make bench, in the VM:
 * tests/guest/bench_alt.sh; Documentation/performance.rst).  One thread,
 * pinned to CPU, sends W events untimed, then N timed, of each SIZE,
 * the same printable payload every time, by METHOD:
 *
 *   mtt-write  libmtt's mtt_data_raw() with MTT_IO=write: one write(2) of
 *              the MTT frame to DEV (libmtt's device: "swstm.0", or a
 *              file path)
 *   mtt-mmap   the same with MTT_IO=mmap: the frame stored into the
 *              channel's mapped MMIO window (a device with a page of
 *              MMIO per channel)
 *   marker     write(2) of the payload to ftrace's trace_marker (PATH)
 *   lttng      an LTTng-UST tracepoint, altbench:event, the payload a
 *              sequence of bytes (alt_bench_tp.h); only in the build with
 *              -DALT_LTTNG (`make -C tests bench-lttng`: alt_bench_lttng)
 *   clock      no event: one clock_gettime(CLOCK_MONOTONIC), the read
 *              libmtt and LTTng-UST make for each event's timestamp
 *
 *   alt_bench -m METHOD -s SIZE[,SIZE...] -n N [-w W] [-c CPU]
 *             [-d DEV] [-i NAME] [-o PATH]
 *
 *   -d DEV   libmtt's device [swstm.0]
 *   -i NAME  libmtt's component, the policy node's name [altbench]
 *   -o PATH  trace_marker [/sys/kernel/tracing/trace_marker]
 *   -w W     untimed events before the timed ones, per size [N / 10]
 *   -c CPU   the CPU to run on [0]; -1: not pinned
 *
 * Prints one line per size:
 *
 *   alt METHOD SIZE sent=S failed=F ns=NS cpu=NS [on=0|1]
 *
 * S = W + N events attempted, F of them refused (a short or failed
 * write, a libmtt error, libmtt's dropped count), NS the timed N's
 * CLOCK_MONOTONIC and thread CPU time per event; "on" (lttng): whether
 * the tracepoint was enabled (a session listening) when the run began.
 * Whether the events arrived is for the caller to count in the trace.
 * Exit 0, 1 on a failure to set up, 2 on bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mtt.h>

#ifdef ALT_LTTNG
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "alt_bench_tp.h"
#endif

#define MAX_SIZES	16
#define MAX_SIZE	4096

enum method { M_MTT_WRITE, M_MTT_MMAP, M_MARKER, M_LTTNG, M_CLOCK };

static const char *const method_name[] = {
	[M_MTT_WRITE] = "mtt-write",
	[M_MTT_MMAP] = "mtt-mmap",
	[M_MARKER] = "marker",
	[M_LTTNG] = "lttng",
	[M_CLOCK] = "clock",
};

struct opts {
	enum method m;
	unsigned int sizes[MAX_SIZES], nsizes;
	unsigned long n, w;
	int w_set, cpu;
	const char *dev, *comp, *marker;
};

struct out {
	mtt_comp_handle_t h;
	uint32_t id;
	int fd;
};

static uint8_t payload[MAX_SIZE];

static void usage(void)
{
	fprintf(stderr,
		"usage: alt_bench -m mtt-write|mtt-mmap|marker|lttng|clock -s SIZE[,SIZE...] -n N\n"
		"                 [-w W] [-c CPU] [-d DEV] [-i NAME] [-o PATH]\n");
}

/* a whole decimal number in [lo, hi], else -1 */
static long number(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	return v;
}

static int parse_sizes(struct opts *o, const char *arg)
{
	char buf[256], *tok, *comma;
	long v;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	o->nsizes = 0;
	for (tok = buf; tok; tok = comma) {
		comma = strchr(tok, ',');
		if (comma)
			*comma++ = '\0';
		v = number(tok, 1, MAX_SIZE);
		if (v < 0 || o->nsizes == MAX_SIZES)
			return -1;
		o->sizes[o->nsizes++] = (unsigned int)v;
	}
	return 0;
}

static int parse(struct opts *o, int argc, char **argv)
{
	int c, have_m = 0;
	unsigned int i;
	long v;

	*o = (struct opts){ .cpu = 0, .dev = "swstm.0", .comp = "altbench",
			    .marker = "/sys/kernel/tracing/trace_marker" };
	while ((c = getopt(argc, argv, "m:s:n:w:c:d:i:o:")) != -1) {
		switch (c) {
		case 'm':
			for (i = 0; i < sizeof(method_name) / sizeof(method_name[0]); i++)
				if (!strcmp(optarg, method_name[i]))
					break;
			if (i == sizeof(method_name) / sizeof(method_name[0]))
				return -1;
			o->m = (enum method)i;
			have_m = 1;
			break;
		case 's':
			if (parse_sizes(o, optarg))
				return -1;
			break;
		case 'n':
			v = number(optarg, 1, 100000000);
			if (v < 0)
				return -1;
			o->n = (unsigned long)v;
			break;
		case 'w':
			v = number(optarg, 0, 100000000);
			if (v < 0)
				return -1;
			o->w = (unsigned long)v;
			o->w_set = 1;
			break;
		case 'c':
			v = strcmp(optarg, "-1") ? number(optarg, 0, 4095) : -2;
			if (v == -1)
				return -1;
			o->cpu = v == -2 ? -1 : (int)v;
			break;
		case 'd':
			o->dev = optarg;
			break;
		case 'i':
			o->comp = optarg;
			break;
		case 'o':
			o->marker = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc || !have_m || !o->nsizes || !o->n)
		return -1;
	if (!o->w_set)
		o->w = o->n / 10;
	return 0;
}

static int setup(const struct opts *o, struct out *out)
{
	mtt_init_param_t p;
	mtt_comp_info_t info;

	switch (o->m) {
	case M_MTT_WRITE:
	case M_MTT_MMAP:
		if (setenv("MTT_IO", o->m == M_MTT_MMAP ? "mmap" : "write", 1))
			return -1;
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "%s", o->dev);
		if (mtt_initialize(&p) ||
		    mtt_open(MTT_COMPONENTID_ANY, o->comp, &out->h) ||
		    mtt_set_core_filter(MTT_LEVEL_ALL, NULL) ||
		    mtt_set_component_filter(out->h, MTT_LEVEL_ALL, NULL) ||
		    mtt_get_component_info(out->h, &info)) {
			fprintf(stderr, "alt_bench: libmtt on %s, component %s: cannot set up\n",
				o->dev, o->comp);
			return -1;
		}
		out->id = info.id;
		return 0;
	case M_MARKER:
		out->fd = open(o->marker, O_WRONLY | O_CLOEXEC);
		if (out->fd < 0) {
			fprintf(stderr, "alt_bench: %s: %s\n", o->marker, strerror(errno));
			return -1;
		}
		return 0;
	case M_LTTNG:
#ifdef ALT_LTTNG
		return 0;
#else
		fprintf(stderr, "alt_bench: lttng is in alt_bench_lttng (make -C tests bench-lttng)\n");
		return -1;
#endif
	case M_CLOCK:
		return 0;
	}
	return -1;
}

/* send one event of size bytes; 0, or -1 if it was refused */
static inline int send_one(const struct opts *o, const struct out *out,
			   unsigned int size)
{
	struct timespec ts;

	switch (o->m) {
	case M_MTT_WRITE:
	case M_MTT_MMAP:
		return mtt_data_raw(out->id, MTT_LEVEL_INFO, size, payload) ? -1 : 0;
	case M_MARKER:
		return write(out->fd, payload, size) == (ssize_t)size ? 0 : -1;
	case M_LTTNG:
#ifdef ALT_LTTNG
		lttng_ust_tracepoint(altbench, event, payload, size);
		return 0;
#else
		return -1;
#endif
	case M_CLOCK:
		return clock_gettime(CLOCK_MONOTONIC, &ts) ? -1 : 0;
	}
	return -1;
}

static uint64_t ns_of(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* libmtt's dropped count of the component (0 for the other methods) */
static uint64_t dropped(const struct opts *o, const struct out *out)
{
	mtt_comp_info_t info;

	if (o->m != M_MTT_WRITE && o->m != M_MTT_MMAP)
		return 0;
	if (mtt_get_component_info(out->h, &info))
		return 0;
	return info.stat[1];
}

int main(int argc, char **argv)
{
	struct opts o;
	struct out out = { .fd = -1 };
	unsigned long i, failed;
	uint64_t t0, t1, c0, c1, d0;
	unsigned int k, size;
	cpu_set_t set;
	int on = -1;

	if (parse(&o, argc, argv)) {
		usage();
		return 2;
	}
	for (i = 0; i < MAX_SIZE; i++)
		payload[i] = (uint8_t)('a' + i % 26);
	if (o.cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(o.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "alt_bench: CPU %d: %s\n", o.cpu, strerror(errno));
			return 1;
		}
	}
	if (setup(&o, &out))
		return 1;
	for (k = 0; k < o.nsizes; k++) {
		size = o.sizes[k];
		failed = 0;
		d0 = dropped(&o, &out);
#ifdef ALT_LTTNG
		if (o.m == M_LTTNG)
			on = lttng_ust_tracepoint_enabled(altbench, event) ? 1 : 0;
#endif
		for (i = 0; i < o.w; i++)
			failed += send_one(&o, &out, size) ? 1 : 0;
		t0 = ns_of(CLOCK_MONOTONIC);
		c0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
		for (i = 0; i < o.n; i++)
			failed += send_one(&o, &out, size) ? 1 : 0;
		c1 = ns_of(CLOCK_THREAD_CPUTIME_ID);
		t1 = ns_of(CLOCK_MONOTONIC);
		/* libmtt counts a refused frame as dropped and returns an
		 * error: take the larger of the two, not their sum */
		if (dropped(&o, &out) - d0 > failed)
			failed = dropped(&o, &out) - d0;
		printf("alt %s %u sent=%lu failed=%lu ns=%.1f cpu=%.1f",
		       method_name[o.m], size, o.w + o.n, failed,
		       (double)(t1 - t0) / (double)o.n,
		       (double)(c1 - c0) / (double)o.n);
		if (on >= 0)
			printf(" on=%d", on);
		printf("\n");
		fflush(stdout);
	}
	if (o.m == M_MTT_WRITE || o.m == M_MTT_MMAP)
		mtt_close(out.h);
	if (out.fd >= 0)
		close(out.fd);
	return 0;
}
