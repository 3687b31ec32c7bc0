// SPDX-License-Identifier: GPL-2.0
/*
 * par.c - mttdecode -j on a big capture (MIB MiB, 1024 by default) of
 * each input kind (raw STP, SyS-T over STP, the reference printer's hex
 * lines of corpus.c), written into DIR and deleted after: wall clock, CPU
 * time and peak RSS of -j1, -j2 at the default --segment S, at S/4 and
 * at S/2 (median of 3 rounds, alternating), the speed-up, and a cost
 * model fitted from the CPU times of -j1, -j2 at S and at S/4 that gives
 * the wall clock at N cores (1, 2 and 64 printed; 1 and 2 beside the
 * measured figures) and the CPU time of -j2 at S/2 (beside the measured:
 * a run the fit did not see).
 *
 * The model (performance.rst, "Every core"), for an input of L bytes cut
 * into P pieces of S bytes after a first window of F bytes, warm-ups of
 * W bytes, an output of E bytes per byte of input, a piece's output cap
 * of 3 S:
 *
 *   c   CPU per byte of -j1 (its CPU time / L);
 *   g   CPU per byte a worker decodes at -j2 (c times the cost of two
 *       cores decoding at once: shared caches, memory, SMT);
 *   m   CPU per piece on the main thread (state compare, handing the
 *       output on), fixed;
 *   h   the share of a piece its worker decodes, the rest, (1 - h) S,
 *       decoded in order on the main thread: 1 when the output fits
 *       the cap, as mttdecode makes pieces smaller when E > 3 (S' =
 *       S x 3 / (9/8 E), piece_size() in tools/mttdecode/par.c; S below
 *       is that size): min(1, 3 S / (E S')).
 *
 * CPU(-j2, S) = F c + P ((S + W) g + m): two segment sizes give g and m.
 * Wall clock at N > 1 cores (N workers and the main thread):
 *
 *   T(N) = F c + max(P ((S + W) g + m) / N, P (m + (1 - h) S g))
 *
 * (all the work spread over N cores, or the main thread's chain,
 * whichever is longer); T(1) = L c (-j1 does not cut the file).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "systenc.h"

#define ROUNDS 3
#define MIB (1u << 20)
/* as tools/mttdecode/par.c and input.c have them */
#define WARM (64u << 10)
#define WARM_SYST (1u << 20)	/* hex lines too */
#define SEG (4u << 20)
#define SEG_SYST (8u << 20)	/* hex lines too */
#define FIRST (4u << 20)
#define CAP_K 3.0

enum { RAW, SYST, HEX, NINPUTS };	/* the inputs */

/* "--collateral=" and the hex lines' collateral */
static char coll_arg[4200];

struct kind {
	const char *name;
	int input;		/* RAW, SYST or HEX */
	int quiet;		/* --no-output */
	const char *args[4];
};

static const struct kind kinds[] = {
	{ "raw STP to text", RAW, 0, { NULL } },
	{ "SyS-T, --no-output", SYST, 1, { "--syst", "--no-output", NULL } },
	{ "SyS-T to text", SYST, 0, { "--syst", NULL } },
	{ "SyS-T to JSON", SYST, 0, { "--syst", "--format=json", NULL } },
	{ "hex lines to text", HEX, 0, { coll_arg, NULL } },
	{ "hex lines to CSV", HEX, 0, { coll_arg, "--format=csv", NULL } },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* bytes of output per byte of input, on the first 32 MiB of path */
static double expansion(const char *exe, const char *path,
			const char *const *args, const char *dir)
{
	char part[4096];
	const char *argv[12];
	uint64_t in = 0, out = 0;
	int fds[2], n = 0, st;
	FILE *src, *dst;
	char buf[1 << 16];
	size_t k;
	pid_t pid;

	snprintf(part, sizeof(part), "%s/bench-par-head.stp", dir);
	src = fopen(path, "rb");
	dst = fopen(part, "wb");
	while (src && dst && in < 32u * MIB &&
	       (k = fread(buf, 1, sizeof(buf), src)) > 0) {
		fwrite(buf, 1, k, dst);
		in += k;
	}
	if (src)
		fclose(src);
	if (!dst || fclose(dst) || pipe(fds))
		return -1;
	argv[n++] = exe;
	argv[n++] = "-j1";
	while (*args && n < 10)
		argv[n++] = *args++;
	argv[n++] = part;
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t r = read(fds[0], buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		out += (uint64_t)r;
	}
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		out = 0;
	unlink(part);
	return in ? (double)out / (double)in : -1;
}

struct runs {
	double wall[ROUNDS], cpu[ROUNDS];
	long rss;
};

static int one(const char *exe, const char *path, const struct kind *k,
	       const char *j, const char *seg, struct runs *r, int round)
{
	const char *args[8];
	struct best b = BEST_INIT;
	long rss;
	int n = 0, i;

	args[n++] = j;
	if (seg)
		args[n++] = seg;
	for (i = 0; k->args[i]; i++)
		args[n++] = k->args[i];
	args[n] = NULL;
	if (cli_run(exe, path, args, &b, &rss))
		return -1;
	r->wall[round] = b.wall;
	r->cpu[round] = b.cpu;
	if (rss > r->rss)
		r->rss = rss;
	return 0;
}

/* a piece's size for --segment s and an output of e bytes a byte */
static double piece(double s, double e)
{
	double p = s * CAP_K * 8 / (9 * e);

	p -= (double)((uint64_t)p % 4096);
	return p < 4096 ? 4096 : p;
}

/* T(N) of the model above (S at least 4 MiB: F is 4 MiB) */
static double model_t(double n, double len, double s, double w, double c,
		      double g, double m, double h)
{
	double p = (len - FIRST) / s, all, chain;

	if (n <= 1)
		return len * c;
	all = p * ((s + w) * g + m) / n;
	chain = p * (m + (1 - h) * s * g);
	return FIRST * c + (all > chain ? all : chain);
}

/* CPU of -j2 at --segment seg (pieces of s) by the model */
static double model_cpu(double len, double seg, double s, double w,
			double c, double g, double m)
{
	double f = seg < FIRST ? seg : FIRST;	/* the first window */

	return f * c + (len - f) / s * ((s + w) * g + m);
}

static int kind_part(const char *exe, const char *path, double len,
		     const struct kind *k, const char *dir)
{
	/* -j1; -j2 at S, S/4 (the fit) and S/2 (held out) */
	static const double div[4] = { 1, 1, 4, 2 };
	double seg = k->input != RAW ? SEG_SYST : SEG;
	double w = k->input != RAW ? WARM_SYST : WARM;
	double wall[4], cpu[4], s[4], f[4], c, y1, y2, g, m, h, e;
	char arg[4][40];
	struct runs r[4];
	int i, round;

	memset(r, 0, sizeof(r));
	for (i = 1; i < 4; i++)
		snprintf(arg[i], sizeof(arg[i]), "--segment=%.0f", seg / div[i]);
	for (round = 0; round < ROUNDS; round++)
		for (i = 0; i < 4; i++)
			if (one(exe, path, k, i ? "-j2" : "-j1", i ? arg[i] : NULL,
				&r[i], round))
				return -1;
	e = k->quiet ? 0 : expansion(exe, path, k->args, dir);
	for (i = 0; i < 4; i++) {
		wall[i] = median(r[i].wall, ROUNDS);
		cpu[i] = median(r[i].cpu, ROUNDS);
		/* the pieces as mttdecode cuts them; the first window */
		s[i] = e > CAP_K ? piece(seg / div[i], e) : seg / div[i];
		f[i] = seg / div[i] < FIRST ? seg / div[i] : FIRST;
	}
	h = e * s[1] > CAP_K * seg ? CAP_K * seg / (e * s[1]) : 1;
	/* per piece CPU at -j2, the first window's taken off */
	c = cpu[0] / len;
	y1 = (cpu[1] - f[1] * c) / ((len - f[1]) / s[1]);
	y2 = (cpu[2] - f[2] * c) / ((len - f[2]) / s[2]);
	g = (y1 - y2) / (s[1] - s[2]);
	m = y1 - (s[1] + w) * g;
	if (m < 0)
		m = 0;	/* within the noise: no fixed cost seen */
	printf("  %-20s -j1 %6.2f s (CPU %5.2f) %6ld KiB | -j2 %6.2f s "
	       "(CPU %5.2f) x%.2f %6ld KiB | S/4 %6.2f s x%.2f %6ld KiB\n",
	       k->name, wall[0], cpu[0], r[0].rss, wall[1], cpu[1],
	       wall[0] / wall[1], r[1].rss, wall[2], wall[0] / wall[2],
	       r[2].rss);
	printf("  %-20s model: c %.3f ns/B, g %.3f ns/B (x%.2f), m %.2f ms "
	       "a piece, out %.2f B/B, pieces %.2f MiB, h %.2f\n", "",
	       c * 1e9, g * 1e9, g / c, m * 1e3, e, s[1] / MIB, h);
	printf("  %-20s held out, -j2 at S/2: CPU predicted %5.2f s, "
	       "measured %5.2f s (wall %5.2f s, %ld KiB)\n", "",
	       model_cpu(len, seg / 2, s[3], w, c, g, m), cpu[3], wall[3],
	       r[3].rss);
	printf("  %-20s wall (model from CPU times) -j1 predicted %6.2f s "
	       "measured %6.2f s; -j2 predicted %6.2f s measured %6.2f s; "
	       "64 cores %6.3f s: x%.1f\n", "",
	       model_t(1, len, s[1], w, c, g, m, h), wall[0],
	       model_t(2, len, s[1], w, c, g, m, h), wall[1],
	       model_t(64, len, s[1], w, c, g, m, h),
	       len * c / model_t(64, len, s[1], w, c, g, m, h));
	return 0;
}

/* 1 GiB and more of hex lines, written a piece at a time, and their
 * collateral: 0, or -1 */
static int write_hex(const char *path, const char *coll, size_t bytes,
		     double *len)
{
	struct systenc e;
	uint64_t ts = CORPUS_TS0;
	FILE *f = fopen(path, "wb");
	int r = !f || corpus_coll(coll);

	systenc_init(&e);
	*len = 0;
	while (!r && *len < (double)bytes) {
		e.len = 0;
		corpus_build(&e, 16u * MIB, &ts);
		r = e.oom || fwrite(e.buf, 1, e.len, f) != e.len;
		*len += (double)e.len;
	}
	systenc_free(&e);
	if (f && fclose(f))
		r = 1;
	return r ? -1 : 0;
}

static void unlink_all(char path[][4096], const char *coll)
{
	unsigned int i;

	for (i = 0; i < NINPUTS; i++)
		unlink(path[i]);
	unlink(coll);
}

int par_bench(const char *exe, const char *dir, size_t mib,
	      const char *which)
{
	static const char *const sfx[NINPUTS] = { "raw.stp", "syst.stp",
						  "hex.txt" };
	char path[NINPUTS][4096], coll[4096];
	double len[NINPUTS] = { 0 };
	int want[NINPUTS] = { 0 };
	unsigned int i;
	int r = 0;

	for (i = 0; i < NKINDS; i++)
		if (strstr(kinds[i].name, which))
			want[kinds[i].input] = 1;

	for (i = 0; i < NINPUTS; i++)
		snprintf(path[i], sizeof(path[i]), "%s/bench-par-%s", dir,
			 sfx[i]);
	snprintf(coll, sizeof(coll), "%s/bench-par-hex.xml", dir);
	snprintf(coll_arg, sizeof(coll_arg), "--collateral=%s", coll);
	for (i = 0; i < NINPUTS && !r; i++) {
		struct stpenc e;
		FILE *f;

		if (!want[i])
			continue;
		if (i == HEX) {
			r = write_hex(path[i], coll, mib << 20, &len[i]);
			break;
		}
		stpenc_init(&e, 3);
		if (i == SYST)
			build_syst(&e, mib << 20);
		else
			build_stp(&e, mib << 20);
		len[i] = (double)stpenc_bytes(&e);
		f = e.oom ? NULL : fopen(path[i], "wb");
		if (!f || fwrite(e.buf, 1, stpenc_bytes(&e), f) !=
		    stpenc_bytes(&e) || fclose(f))
			r = -1;
		stpenc_free(&e);
	}
	if (r) {
		fprintf(stderr, "bench: cannot write %s\n", path[i]);
		unlink_all(path, coll);
		return -1;
	}
	printf("\nmttdecode -j on %.0f MB of raw STP, %.0f MB of SyS-T over "
	       "STP and %.0f MB of the reference printer's hex lines, %ld "
	       "CPUs online: median of %d alternating rounds of -j1, -j2 "
	       "(--segment S: 4 MiB raw, 8 MiB SyS-T and hex lines), -j2 at "
	       "S/4 and at S/2 (held out of the fit); speed-up xN of wall "
	       "clock, peak RSS\n", len[RAW] / 1e6, len[SYST] / 1e6,
	       len[HEX] / 1e6, sysconf(_SC_NPROCESSORS_ONLN), ROUNDS);
	for (i = 0; i < NKINDS && !r; i++) {
		double la[1] = { -1 };

		if (!strstr(kinds[i].name, which))
			continue;
		getloadavg(la, 1);
		printf("  (load average %.1f)\n", la[0]);
		r = kind_part(exe, path[kinds[i].input], len[kinds[i].input],
			      &kinds[i], dir);
	}
	unlink_all(path, coll);
	return r;
}
