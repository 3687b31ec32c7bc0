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
 * mttdecode's text lines), in alternating pairs; each pair's ratio is
 * the printer's CPU time (user + system) over mttdecode's.  Printed: the
 * median ratio of PAIRS pairs, its range, and each side's median.
 *
 * usage: bench-printer MTTDECODE SYSTPRINT [MB]
 *        bench-printer --write FILE COLLATERAL [MB]   (only the corpus)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "systenc.h"

#define PAIRS 5

static int write_file(const char *path, const struct systenc *e)
{
	FILE *f = fopen(path, "w");
	int r;

	if (!f)
		return -1;
	r = fwrite(e->buf, 1, e->len, f) != e->len;
	return fclose(f) || r ? -1 : 0;
}

/* PAIRS alternating runs of the printer and mttdecode; the ratios */
static int pairs(const char *name, const char *mttd, const char *const *ma,
		 const char *prn, const char *const *pa, const char *file,
		 size_t len, uint64_t msgs)
{
	double rat[PAIRS], pc[PAIRS], mc[PAIRS], lo = 1e9, hi = 0;
	int i;

	for (i = 0; i < PAIRS; i++) {
		struct best bp = BEST_INIT, bm = BEST_INIT;
		long rss;

		if (cli_run(prn, file, pa, &bp, &rss) ||
		    cli_run(mttd, file, ma, &bm, &rss))
			return -1;
		pc[i] = bp.cpu;
		mc[i] = bm.cpu;
		rat[i] = bp.cpu / bm.cpu;
		lo = rat[i] < lo ? rat[i] : lo;
		hi = rat[i] > hi ? rat[i] : hi;
	}
	printf("  %-5s printer %7.3f s  mttdecode %6.3f s (%5.1f MB/s, "
	       "%5.2f M msg/s)  x%.1f (x%.1f to x%.1f over %d pairs; "
	       "target x20)\n", name, median(pc, PAIRS), median(mc, PAIRS),
	       (double)len / 1e6 / median(mc, PAIRS),
	       (double)msgs / 1e6 / median(mc, PAIRS), median(rat, PAIRS),
	       lo, hi, PAIRS);
	return 0;
}

int main(int argc, char **argv)
{
	int wr = argc > 3 && !strcmp(argv[1], "--write");
	size_t mb = argc > 3 + wr ? strtoul(argv[3 + wr], NULL, 0) : 32;
	char file[] = "/tmp/mttdecode-prn-XXXXXX";
	char coll[] = "/tmp/mttdecode-prc-XXXXXX";
	struct systenc e;
	uint64_t msgs, ts = CORPUS_TS0;
	int r, fd;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-printer MTTDECODE SYSTPRINT "
			"[MB]\n       bench-printer --write FILE COLLATERAL "
			"[MB]\n");
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
	       "SHORT, RAW, BUILD, CLOCK; half with CRC-32C); CPU time, "
	       "printer over mttdecode -j1\n", (double)e.len / 1e6,
	       (double)msgs / 1e6);
	if (!r) {
		const char *const mcsv[] = { "-j1", "-f", "csv",
					     "--collateral", coll, NULL };
		const char *const mtxt[] = { "-j1", "--collateral", coll,
					     NULL };
		const char *const pcsv[] = { "-c", coll, NULL };
		const char *const ptxt[] = { "-p", "-c", coll, NULL };

		r = pairs("CSV", argv[1], mcsv, argv[2], pcsv, file, e.len,
			  msgs) ||
		    pairs("text", argv[1], mtxt, argv[2], ptxt, file, e.len,
			  msgs);
	}
	systenc_free(&e);
	unlink(file);
	unlink(coll);
	if (r)
		fprintf(stderr, "bench-printer: failed\n");
	return r ? 1 : 0;
}
