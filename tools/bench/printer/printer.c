// SPDX-License-Identifier: GPL-2.0
/*
 * printer.c - mttdecode against the MIPI SyS-T reference printer on the
 * printer's own kind of input: "SYS-T RAW DATA:" hex lines of catalog
 * messages (32- and 64-bit IDs, 32- and 64-bit integer, double and string
 * arguments), strings, BUILD, CLOCK, RAW and SHORT messages, half of them
 * with a CRC-32C, some with a timestamp, and the collateral that
 * describes them (bench/decode/corpus.c; the messages are encoded by
 * tests/host/enc/systenc.c, written from the SyS-T specification).
 *
 * Both commands decode the same file to /dev/null, CSV (the printer's
 * default; mttdecode -f csv) and text (the printer's -p, payload only;
 * mttdecode's text lines), in ROUNDS rounds.  A round runs the printer
 * once and mttdecode REPS times (10, or the fourth argument) on the file,
 * which of the two goes first alternating from round to round:
 * mttdecode takes some 35 ms for 32 MB, a few scheduler ticks, so one run
 * of it moves by more than the few percent a change of its code makes;
 * REPS runs summed take some 0.35 s.  Each side's figure is MB of input
 * a second of CPU time (user + system, from wait4): the printer's run,
 * mttdecode's REPS runs together.  The round's ratio is ours over the
 * printer's; printed: each side's median and range over the rounds, and
 * the median and range of the rounds' ratios.
 *
 * --ab: two builds of mttdecode timed the same way against each other
 * (REPS runs of each a round, in turn), B's MB/s over A's, from the
 * summed runs and from each round's fastest run (interference only adds
 * CPU time: the fastest run is the steadier figure on a loaded machine,
 * fair here because both sides are taken the same way; not against the
 * printer's one run).
 *
 * usage: bench-printer MTTDECODE SYSTPRINT [MB [REPS]]
 *        bench-printer --ab MTTDECODE_A MTTDECODE_B [MB [REPS]]
 *        bench-printer --write FILE COLLATERAL [MB]   (only the corpus)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "systenc.h"

#define ROUNDS 7
#define REPS_MAX 1000

static int write_file(const char *path, const struct systenc *e)
{
	FILE *f = fopen(path, "w");
	int r;

	if (!f)
		return -1;
	r = fwrite(e->buf, 1, e->len, f) != e->len;
	return fclose(f) || r ? -1 : 0;
}

/* a command timed: its runs a round, CPU time summed */
struct side {
	const char *label, *exe;
	const char *const *args;
	int reps;
};

/* the CPU time of s's runs on file: summed into *cpu, the fastest run's
 * into *min */
static int run_side(const struct side *s, const char *file, double *cpu,
		    double *min)
{
	int k;

	*cpu = 0;
	*min = 1e9;
	for (k = 0; k < s->reps; k++) {
		struct best b = BEST_INIT;
		long rss;

		if (cli_run(s->exe, file, s->args, &b, &rss))
			return -1;
		*cpu += b.cpu;
		*min = b.cpu < *min ? b.cpu : *min;
	}
	return 0;
}

/* "M (L to H)" of v[0..n): median and range, each with pre before it
 * and unit after it */
static void print_spread(const char *pre, const char *unit, double *v,
			 int n)
{
	double lo = v[0], hi = v[0];
	int i;

	for (i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	printf("%s%.*f%s (%s%.*f to %s%.*f%s)", pre, *pre ? 2 : 1,
	       median(v, n), unit, pre, *pre ? 2 : 1, lo, pre, *pre ? 2 : 1,
	       hi, unit);
}

/* ROUNDS rounds, each side's runs in turn (p first, then q first);
 * len bytes of input, msgs messages; the ratio is q's MB/s over p's,
 * what says which.  When both sides run more than once (two builds of
 * mttdecode), the ratio of their fastest runs too. */
static int rounds(const char *name, const struct side *p,
		  const struct side *q, const char *file, size_t len,
		  uint64_t msgs, const char *what)
{
	double rat[ROUNDS], rate[2][ROUNDS], cpu[2][ROUNDS];
	double fast[2][ROUNDS], frat[ROUNDS];
	double mb = (double)len / 1e6;
	const struct side *sd[2] = { p, q };
	int i, j, k;

	for (i = 0; i < ROUNDS; i++) {
		for (k = 0; k < 2; k++) {
			j = k ^ (i & 1);	/* who goes first alternates */
			if (run_side(sd[j], file, &cpu[j][i], &fast[j][i]))
				return -1;
			rate[j][i] = mb * sd[j]->reps / cpu[j][i];
			fast[j][i] = mb / fast[j][i];
		}
		rat[i] = rate[1][i] / rate[0][i];
		frat[i] = fast[1][i] / fast[0][i];
	}
	for (j = 0; j < 2; j++) {
		double c = median(cpu[j], ROUNDS) / sd[j]->reps;

		printf("  %-5s %-9s ", j ? "" : name, sd[j]->label);
		print_spread("", " MB/s", rate[j], ROUNDS);
		if (sd[j]->reps == 1)
			printf(", one run a round (%.3f s; %.2f M msg/s)\n",
			       c, (double)msgs / 1e6 / c);
		else
			printf(", %d runs a round summed (%.3f s a run; "
			       "%.2f M msg/s)\n", sd[j]->reps, c,
			       (double)msgs / 1e6 / c);
	}
	printf("        %s, round by round: ", what);
	print_spread("x", "", rat, ROUNDS);
	printf(" over %d rounds\n", ROUNDS);
	if (p->reps == 1 || q->reps == 1)
		return 0;
	for (j = 0; j < 2; j++) {
		printf("        %-9s ", sd[j]->label);
		print_spread("", " MB/s", fast[j], ROUNDS);
		printf(", the fastest run of each round\n");
	}
	printf("        %s, fastest runs, round by round: ", what);
	print_spread("x", "", frat, ROUNDS);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int wr = argc > 3 && !strcmp(argv[1], "--write");
	int ab = argc > 3 && !strcmp(argv[1], "--ab");
	int o = wr || ab;	/* the arguments after the option */
	size_t mb = argc > 3 + o ? strtoul(argv[3 + o], NULL, 0) : 32;
	int reps = !wr && argc > 4 + o ? atoi(argv[4 + o]) : 10;
	char file[] = "/tmp/mttdecode-prn-XXXXXX";
	char coll[] = "/tmp/mttdecode-prc-XXXXXX";
	struct systenc e;
	uint64_t msgs, ts = CORPUS_TS0;
	int r, fd;

	if (argc < 3 + o || (!o && argv[1][0] == '-') || reps < 1 ||
	    reps > REPS_MAX) {
		fprintf(stderr, "usage: bench-printer MTTDECODE SYSTPRINT "
			"[MB [REPS]]\n       bench-printer --ab MTTDECODE_A "
			"MTTDECODE_B [MB [REPS]]\n       bench-printer --write "
			"FILE COLLATERAL [MB]\n");
		return 2;
	}
	systenc_init(&e);
	msgs = corpus_build(&e, mb * 1000000, &ts);
	if (e.oom)
		return 1;
	if (wr) {
		r = write_file(argv[2], &e) || corpus_coll(argv[3]);
		systenc_free(&e);
		return r;
	}
	fd = mkstemp(file);
	if (fd >= 0)
		close(fd);
	fd = mkstemp(coll);
	if (fd >= 0)
		close(fd);
	r = write_file(file, &e) || corpus_coll(coll);
	printf("\nthe MIPI reference printer's kind of input: %.1f MB of "
	       "\"SYS-T RAW DATA:\" lines, %.2f M messages (catalog, string, "
	       "SHORT, RAW, BUILD, CLOCK; half with CRC-32C) with their "
	       "collateral, to /dev/null; MB of input a second of CPU time, "
	       "%s\n", (double)e.len / 1e6, (double)msgs / 1e6,
	       ab ? "two builds of mttdecode -j1" :
	       "the printer against mttdecode -j1");
	if (!r) {
		const char *const mcsv[] = { "-j1", "-f", "csv",
					     "--collateral", coll, NULL };
		const char *const mtxt[] = { "-j1", "--collateral", coll,
					     NULL };
		const char *const pcsv[] = { "-c", coll, NULL };
		const char *const ptxt[] = { "-p", "-c", coll, NULL };
		struct side pc = { "printer", argv[2], pcsv, 1 };
		struct side pt = { "printer", argv[2], ptxt, 1 };
		struct side mc = { "mttdecode", argv[1 + ab], mcsv, reps };
		struct side mt = { "mttdecode", argv[1 + ab], mtxt, reps };
		const char *what = "ratio ours / printer's (target x20)";

		if (ab) {	/* two mttdecode builds, B over A */
			pc = mc;
			pt = mt;
			pc.label = pt.label = "A";
			mc.label = mt.label = "B";
			mc.exe = mt.exe = argv[3];	/* A is argv[2] */
			what = "B / A";
		}
		r = rounds("CSV", &pc, &mc, file, e.len, msgs, what) ||
		    rounds("text", &pt, &mt, file, e.len, msgs, what);
	}
	systenc_free(&e);
	unlink(file);
	unlink(coll);
	if (r)
		fprintf(stderr, "bench-printer: failed\n");
	return r ? 1 : 0;
}
