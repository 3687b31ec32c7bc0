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
 *  3. the MIPI reference printer's own input ("SYS-T RAW DATA:" hex
 *     lines of the same SyS-T messages): messages per second;
 *  4. mttdecode -j: wall clock at -j1 and -j2 (and every CPU), speed-up;
 *  5. peak RSS of every output format for two stream sizes (MIB/4 and
 *     MIB/2 MiB), -j1 and -j2: constant memory shows as equal figures.
 *
 * Each single-core figure is printed with its target from issue 11 and
 * the ratio to it ("x1.40": 40% above the target).  Single-core runs use
 * -j1; CPU time, not wall clock, so other load on the machine does not
 * count against them (it still shows in caches and frequency: repeat
 * runs and look at the best).
 *
 *  0. CRC-32C: the table, the CPU's instruction (SSE4.2, ARMv8 CRC32C)
 *     and wire_crc32c() in pieces of 64 B and 4 KiB, each as a ratio to
 *     the table in the same round (crc.c);
 *
 *  6. (--par) mttdecode -j on a capture of 1 GiB of each kind, with a
 *     cost model that predicts 64 cores (par.c).
 *
 * usage: bench [PATH-TO-mttdecode] [MIB]
 *        bench --par PATH-TO-mttdecode DIR [MIB [WHICH]]  (6. only; the
 *                       captures in DIR, deleted after; WHICH: only the
 *                       kinds whose names hold it, e.g. "hex lines")
 *        bench --crc                    (0. only)
 *        bench --write FILE [MIB]       (only write the STP stream)
 *        bench --write-syst FILE [MIB]  (only write the SyS-T stream)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* " (target T unit: xR)" for a figure v; nothing without a target */
static void target(double v, double t, const char *unit)
{
	if (t > 0)
		printf("  (target %.0f %s: x%.2f)", t, unit, v / t);
}

static int cli_rates(const char *exe, const char *path, size_t len,
		     uint64_t msgs, const char *const *const *runs,
		     const char *const *names, const double *mbs_target,
		     const double *msgs_target, int n, int reps)
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
		target((double)len / 1e6 / b.cpu, mbs_target[i], "MB/s");
		if (msgs) {
			printf("  %5.2f M msg/s", (double)msgs / 1e6 / b.cpu);
			target((double)msgs / 1e6 / b.cpu, msgs_target[i],
			       "M msg/s");
		}
		printf("  peak RSS %ld KiB\n", rss);
	}
	return 0;
}

/* ---- the reference printer's input ---- */

struct hexw {
	FILE *f;
	uint64_t n;
};

static void hex_line(void *ctx, const struct mttd_msg *m)
{
	static const char hd[] = "0123456789abcdef";
	struct hexw *h = ctx;
	size_t i;

	fputs("SYS-T RAW DATA: ", h->f);
	for (i = 0; i < m->len; i++) {
		putc(hd[m->data[i] >> 4], h->f);
		putc(hd[m->data[i] & 15], h->f);
	}
	putc('\n', h->f);
	h->n++;
}

/* the SyS-T messages of the STP capture in stp as the MIPI reference
 * printer's input lines, in a temporary file (path); the message count */
static int64_t write_hex(const char *stp, char path[32])
{
	struct hexw h = { NULL, 0 };
	struct mttd_msg_sink sink = { .msg = hex_line, .ctx = &h };
	struct mttd_msgdec *m = mttd_msg_new(NULL);
	struct mttd_stp_config cfg = { .fn = mttd_msg_stp_fn, .ctx = m };
	struct mttd_stp *d = mttd_stp_new(&cfg);
	FILE *in = fopen(stp, "rb");
	static uint8_t buf[1 << 16];
	size_t n;
	int fd;

	snprintf(path, 32, "/tmp/mttdecode-bench-XXXXXX");
	fd = mkstemp(path);
	h.f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!m || !d || !in || !h.f)
		return -1;
	mttd_msg_add_sink(m, &sink);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		mttd_stp_feed(d, buf, n);
	mttd_stp_finish(d);
	mttd_stp_free(d);
	mttd_msg_free(m);
	fclose(in);
	return fclose(h.f) ? -1 : (int64_t)h.n;
}

static int hex_part(const char *exe, const char *stp, const char *coll)
{
	const char *const text[] = { "-j1", "--input=systtext",
				     "--collateral", coll, NULL };
	const char *const *const runs[] = { text };
	static const char *const names[] = { "mttdecode --input=systtext: " };
	static const double mbs[1], msgs[] = { 4 };
	char path[32];
	int64_t n = write_hex(stp, path);
	struct stat st;
	int r;

	if (n < 0 || stat(path, &st)) {
		fprintf(stderr, "bench: cannot write the hex lines\n");
		return -1;
	}
	printf("\nthe reference printer's input: the same messages as "
	       "\"SYS-T RAW DATA: <hex>\" lines, %.1f MB\n",
	       (double)st.st_size / 1e6);
	r = cli_rates(exe, path, (size_t)st.st_size, (uint64_t)n, runs, names,
		      mbs, msgs, 1, 3);
	unlink(path);
	return r;
}

/* ---- -j ---- */

static int par_part(const char *exe, const char *path, size_t len)
{
	static const char *const j1[] = { "-j1", NULL };
	static const char *const j2[] = { "-j2", NULL };
	static const char *const jall[] = { NULL };
	static const char *const *const runs[] = { j1, j2, jall };
	static const char *const names[] = { "-j1", "-j2", "-j (every CPU)" };
	struct best b[3] = { BEST_INIT, BEST_INIT, BEST_INIT };
	long rss[3] = { 0, 0, 0 }, r;
	int i, k;

	/* alternate, so that load from elsewhere hits each alike */
	for (k = 0; k < 5; k++)
		for (i = 0; i < 3; i++) {
			if (cli_run(exe, path, runs[i], &b[i], &r))
				return -1;
			if (r > rss[i])
				rss[i] = r;
		}
	printf("\nmttdecode -j, text from raw STP, %ld CPUs online: best wall "
	       "clock of 5 alternating runs; CPU: all threads; work: CPU of -j1 "
	       "/ CPU (1.00: no work added by -j)\n",
	       sysconf(_SC_NPROCESSORS_ONLN));
	for (i = 0; i < 3; i++)
		printf("  %-15s %6.3f s %6.0f MB/s  speed-up x%.2f  CPU %6.3f s "
		       " work x%.2f  peak RSS %ld KiB\n", names[i], b[i].wall,
		       (double)len / 1e6 / b[i].wall, b[0].wall / b[i].wall,
		       b[i].cpu, b[0].cpu / b[i].cpu, rss[i]);
	return 0;
}

static int stp_part(const char *exe, size_t mib)
{
	static const char *const none[] = { "-j1", "--no-output", NULL };
	static const char *const text[] = { "-j1", NULL };
	static const char *const json[] = { "-j1", "--format=json", NULL };
	static const char *const *const runs[] = { none, text, json };
	static const char *const names[] = {
		"mttdecode --no-output:       ",
		"mttdecode text > /dev/null:  ",
		"mttdecode json > /dev/null:  ",
	};
	static const double mbs[] = { 2000, 400, 0 }, no[3];
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
		r = cli_rates(exe, path, len, 0, runs, names, mbs, no, 3, 5);
	if (!r)
		r = par_part(exe, path, len);
	unlink(path);
	return r;
}

static int syst_part(const char *exe, size_t mib)
{
	char coll[32], cl[48];
	const char *const none[] = { "-j1", "--syst", "--no-output", NULL };
	const char *const text[] = { "-j1", "--syst", "--collateral", cl,
				     NULL };
	const char *const csv[] = { "-j1", "--format=csv", "--collateral", cl,
				    NULL };
	const char *const json[] = { "-j1", "--syst", "--format=json",
				     "--collateral", cl, NULL };
	const char *const chrome[] = { "-j1", "--syst", "--format=chrome",
				       "--collateral", cl, NULL };
	static const double mbs[] = { 0, 1000, 0, 0, 0 }, no[5];
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
		r = cli_rates(exe, path, len, msgs, runs, names, mbs, no, 5, 3);
	if (!r)
		r = hex_part(exe, path, cl);
	unlink(path);
	unlink(coll);
	return r;
}

/* peak RSS of every output format at two stream sizes, -j1 and -j2 */
static int memory_part(const char *exe, size_t mib)
{
	static const char *const fmts[][4] = {
		{ "--no-output", NULL },
		{ "--format=text", NULL },
		{ "--format=json", NULL },
		{ "--format=csv", NULL },
		{ "--format=chrome", NULL },
		{ "--syst", "--format=text", NULL },
		{ "--syst", "--format=json", NULL },
		{ "--syst", "--format=chrome", NULL },
	};
	static const char *const names[] = {
		"--no-output", "text", "json", "csv", "chrome", "--syst text",
		"--syst json", "--syst chrome",
	};
	size_t sizes[2] = { mib / 4 ? mib / 4 : 1, mib / 2 ? mib / 2 : 1 };
	char path[2][32];
	size_t len[2];
	int i, f, j, r = 0;

	for (i = 0; i < 2; i++) {
		struct stpenc e;

		stpenc_init(&e, 3);
		build_syst(&e, sizes[i] << 20);
		len[i] = stpenc_bytes(&e);
		r = e.oom ? -1 : temp_file(&e, path[i]);
		stpenc_free(&e);
		if (r)
			return -1;
	}
	printf("\npeak RSS (KiB) on SyS-T over STP of %.0f MB and %.0f MB: "
	       "equal figures mean memory does not grow with the input\n",
	       (double)len[0] / 1e6, (double)len[1] / 1e6);
	for (f = 0; f < (int)(sizeof(fmts) / sizeof(fmts[0])) && !r; f++) {
		printf("  %-24s", names[f]);
		for (j = 1; j <= 2 && !r; j++) {
			const char *args[6];
			char jn[8];
			long rss[2];
			int k = 0, a;

			snprintf(jn, sizeof(jn), "-j%d", j);
			args[k++] = jn;
			for (a = 0; fmts[f][a]; a++)
				args[k++] = fmts[f][a];
			args[k] = NULL;
			for (i = 0; i < 2 && !r; i++) {
				struct best b = BEST_INIT;

				r = cli_run(exe, path[i], args, &b, &rss[i]);
			}
			if (!r)
				printf("  -j%d: %6ld %6ld", j, rss[0], rss[1]);
		}
		printf("\n");
	}
	unlink(path[0]);
	unlink(path[1]);
	return r;
}

int main(int argc, char **argv)
{
	int wr = argc > 2 && !strcmp(argv[1], "--write");
	int wrs = argc > 2 && !strcmp(argv[1], "--write-syst");
	const char *exe = argc > 1 ? argv[1 + (wr || wrs)] : NULL;
	size_t mib = argc > 2 + (wr || wrs) ?
		     strtoul(argv[2 + (wr || wrs)], NULL, 0) : 256;

	if (argc > 1 && !strcmp(argv[1], "--crc"))
		return crc_bench() ? 1 : 0;
	if (argc > 3 && !strcmp(argv[1], "--par"))
		return par_bench(argv[2], argv[3], argc > 4 ?
				 strtoul(argv[4], NULL, 0) : 1024,
				 argc > 5 ? argv[5] : "") ? 1 : 0;
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
	if (crc_bench() || stp_part(exe, mib) || syst_part(exe, mib / 2) ||
	    (exe && memory_part(exe, mib))) {
		fprintf(stderr, "bench: failed\n");
		return 1;
	}
	return 0;
}
