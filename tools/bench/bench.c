// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - decoder throughput and memory.  Figures are printed, not
 * checked; throughput is computed from CPU time (user + system) so that a
 * busy machine does not understate what one core does, wall-clock figures
 * are shown alongside.
 *
 *  1. raw STP (stp_stream.c, MIB MiB): the library alone (packets;
 *     packets + messages) and mttdecode --no-output, text and JSON;
 *  2. SyS-T over STP (syst_stream.c, MIB/2 MiB): the library (STP,
 *     messages and SyS-T decoding, no output) and mttdecode --syst with
 *     --no-output, text, CSV, JSON and Chrome output: MB/s of STP in and
 *     SyS-T messages per second out, peak RSS;
 *  3. peak RSS of mttdecode --syst --format=json for two stream sizes
 *     (MIB/8 and MIB/2 MiB): constant memory shows as equal figures.
 *
 * usage: bench [PATH-TO-mttdecode] [MIB]
 *        bench --write FILE [MIB]       (only write the STP stream)
 *        bench --write-syst FILE [MIB]  (only write the SyS-T stream)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static void noop(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	*(size_t *)ctx += n + ev[n - 1].op;
}

static void count_syst(void *ctx, const struct mttd_syst_msg *m)
{
	*(uint64_t *)ctx += 1 + (m->text_len & 1);
}

/* mode 0: packets, 1: + messages, 2: + SyS-T */
static void lib_run(const uint8_t *buf, size_t len, int mode,
		    struct best *b)
{
	size_t sink = 0;
	uint64_t n = 0;
	struct mttd_msgdec *m = mttd_msg_new(NULL);
	struct mttd_syst_config yc = { .fn = count_syst, .ctx = &n };
	struct mttd_syst *y = mttd_syst_new(&yc);
	struct mttd_msg_sink ys;
	struct mttd_stp_config cfg = {
		.fn = mode ? mttd_msg_stp_fn : noop,
		.ctx = mode ? (void *)m : (void *)&sink,
	};
	struct mttd_stp *d = mttd_stp_new(&cfg);
	const size_t chunk = 1 << 20;
	double w0 = now(), c0 = cpu_now();
	size_t off;

	if (mode == 2) {
		mttd_syst_sink(y, &ys);
		mttd_msg_add_sink(m, &ys);
	}
	for (off = 0; off < len; off += chunk)
		mttd_stp_feed(d, buf + off, len - off < chunk ? len - off :
			      chunk);
	mttd_stp_finish(d);
	keep_best(b, cpu_now() - c0, now() - w0);
	mttd_stp_free(d);
	mttd_msg_free(m);
	mttd_syst_free(y);
}

static int write_stream(const char *file, const struct stpenc *e)
{
	FILE *f = fopen(file, "wb");
	size_t len = stpenc_bytes(e);

	if (!f || fwrite(e->buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "bench: cannot write %s\n", file);
		return 1;
	}
	return 0;
}

static int cli_rates(const char *exe, const char *path, size_t len,
		     uint64_t msgs, const char *const *const *runs,
		     const char *const *names, int n, int reps)
{
	int i, k;

	for (i = 0; i < n; i++) {
		struct best b = BEST_INIT;
		long rss = 0, r;

		for (k = 0; k < reps; k++) {
			if (cli_run(exe, path, runs[i], &b, &r)) {
				fprintf(stderr, "bench: %s failed\n", exe);
				return -1;
			}
			if (r > rss)
				rss = r;
		}
		print_rate(names[i], len, &b);
		if (msgs)
			printf("  %5.2f M msg/s", (double)msgs / 1e6 / b.cpu);
		printf("  peak RSS %ld KiB\n", rss);
	}
	return 0;
}

static int stp_part(const char *exe, size_t mib)
{
	static const char *const none[] = { "--no-output", NULL };
	static const char *const text[] = { NULL };
	static const char *const json[] = { "--format=json", NULL };
	static const char *const *const runs[] = { none, text, json };
	static const char *const names[] = {
		"mttdecode --no-output:       ",
		"mttdecode text > /dev/null:  ",
		"mttdecode json > /dev/null:  ",
	};
	struct best best[2] = { BEST_INIT, BEST_INIT };
	struct stpenc e;
	char path[32];
	size_t len;
	int i, r;

	stpenc_init(&e, 3);
	build_stp(&e, mib << 20);
	if (e.oom)
		return -1;
	len = stpenc_bytes(&e);
	printf("raw STP: %.1f MB (messages of 8..256 bytes, 32 channels)\n",
	       (double)len / 1e6);
	for (i = 0; i < 10; i++)
		lib_run(e.buf, len, i & 1, &best[i & 1]);
	print_rate("library, packets only:        ", len, &best[0]);
	printf("\n");
	print_rate("library, packets + messages:  ", len, &best[1]);
	printf("\n");
	if (!exe) {
		stpenc_free(&e);
		return 0;
	}
	r = temp_file(&e, path);
	/* give the stream back first: a forked child's peak RSS would
	 * include it */
	stpenc_free(&e);
	if (!r)
		r = cli_rates(exe, path, len, 0, runs, names, 3, 5);
	unlink(path);
	return r;
}

static int syst_part(const char *exe, size_t mib)
{
	char coll[32], cl[48];
	const char *const none[] = { "--syst", "--no-output", NULL };
	const char *const text[] = { "--syst", "--collateral", cl, NULL };
	const char *const csv[] = { "--format=csv", "--collateral", cl, NULL };
	const char *const json[] = { "--syst", "--format=json",
				     "--collateral", cl, NULL };
	const char *const chrome[] = { "--syst", "--format=chrome",
				       "--collateral", cl, NULL };
	const char *const *const runs[] = { none, text, csv, json, chrome };
	static const char *const names[] = {
		"mttdecode --syst --no-output:",
		"mttdecode --syst text:       ",
		"mttdecode --format=csv:      ",
		"mttdecode --syst json:       ",
		"mttdecode --syst chrome:     ",
	};
	struct best b = BEST_INIT;
	struct stpenc e;
	uint64_t msgs;
	char path[32];
	size_t len;
	int i, r;

	stpenc_init(&e, 3);
	msgs = build_syst(&e, mib << 20);
	if (e.oom)
		return -1;
	len = stpenc_bytes(&e);
	printf("\nSyS-T over STP: %.1f MB, %.2f M messages (p_sys-t shaped: "
	       "GUID, length, text; SHORT32, CATALOG, PRINTF, CLOCK mixed in)\n",
	       (double)len / 1e6, (double)msgs / 1e6);
	for (i = 0; i < 5; i++)
		lib_run(e.buf, len, 2, &b);
	print_rate("library, STP + SyS-T decode:  ", len, &b);
	printf("  %5.2f M msg/s\n", (double)msgs / 1e6 / b.cpu);
	if (!exe) {
		stpenc_free(&e);
		return 0;
	}
	if (write_collateral(coll))
		return -1;
	snprintf(cl, sizeof(cl), "%s", coll);
	r = temp_file(&e, path);
	stpenc_free(&e);
	if (!r)
		r = cli_rates(exe, path, len, msgs, runs, names, 5, 3);
	unlink(path);
	unlink(coll);
	return r;
}

/* peak RSS at two stream sizes */
static int memory_part(const char *exe, size_t mib)
{
	static const char *const json[] = { "--syst", "--format=json", NULL };
	size_t sizes[2] = { mib / 8 ? mib / 8 : 1, mib / 2 ? mib / 2 : 1 };
	long rss[2];
	size_t len[2];
	int i;

	for (i = 0; i < 2; i++) {
		struct best b = BEST_INIT;
		struct stpenc e;
		char path[32];
		int r;

		stpenc_init(&e, 3);
		build_syst(&e, sizes[i] << 20);
		len[i] = stpenc_bytes(&e);
		r = e.oom ? -1 : temp_file(&e, path);
		stpenc_free(&e);
		if (r)
			return -1;
		r = cli_run(exe, path, json, &b, &rss[i]);
		unlink(path);
		if (r)
			return -1;
	}
	printf("\npeak RSS, mttdecode --syst --format=json: %ld KiB for %.0f MB,"
	       " %ld KiB for %.0f MB\n", rss[0], (double)len[0] / 1e6, rss[1],
	       (double)len[1] / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	int wr = argc > 2 && !strcmp(argv[1], "--write");
	int wrs = argc > 2 && !strcmp(argv[1], "--write-syst");
	const char *exe = argc > 1 ? argv[1 + (wr || wrs)] : NULL;
	size_t mib = argc > 2 + (wr || wrs) ?
		     strtoul(argv[2 + (wr || wrs)], NULL, 0) : 256;

	if (wr || wrs) {
		struct stpenc e;
		int r;

		stpenc_init(&e, 3);
		if (wr)
			build_stp(&e, mib << 20);
		else
			build_syst(&e, mib << 20);
		r = e.oom ? 1 : write_stream(exe, &e);
		stpenc_free(&e);
		return r;
	}
	if (stp_part(exe, mib) || syst_part(exe, mib / 2) ||
	    (exe && memory_part(exe, mib))) {
		fprintf(stderr, "bench: failed\n");
		return 1;
	}
	return 0;
}
