/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the benchmark's files share: random numbers, CPU and
 * wall-clock timing, running the mttdecode command, the streams.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/mttdecode.h"
#include "stpenc.h"

uint32_t rnd(void);
double now(void);		/* wall clock, s */
double cpu_now(void);		/* this process's CPU time, s */

/* best (lowest) CPU and wall times seen */
struct best {
	double cpu, wall;
};
#define BEST_INIT { 1e9, 1e9 }
void keep_best(struct best *b, double cpu, double wall);
/* the median of v[0..n) (sorts v) */
double median(double *v, int n);
/* "<name> N MB/s (wall clock N MB/s)" for len bytes */
void print_rate(const char *name, size_t len, const struct best *b);

/* run exe [args] file with stdout to /dev/null: its CPU time (user +
 * system) and wall time into b, its peak RSS (KiB) into *rss_kb */
int cli_run(const char *exe, const char *file, const char *const *args,
	    struct best *b, long *rss_kb);
/* the stream in a temporary file; its path in path[32] */
int temp_file(const struct stpenc *e, char path[32]);

/* stp_stream.c: software-STM shaped raw STP of about bytes bytes */
void build_stp(struct stpenc *e, size_t bytes);
void sync_block(struct stpenc *e);
/* syst_stream.c: Linux p_sys-t shaped SyS-T over STP; returns the number
 * of SyS-T messages */
uint64_t build_syst(struct stpenc *e, size_t bytes);
/* collateral for the catalog messages of build_syst, written to path */
int write_collateral(char path[32]);

/* corpus.c: the reference printer's kind of input: hex lines appended
 * to out until it holds bytes bytes, *ts carried from one call to the
 * next (CORPUS_TS0 first); the message count.  Its collateral, written
 * to path: 0, or -1 */
struct systenc;
#define CORPUS_TS0 1000000u
uint64_t corpus_build(struct systenc *out, size_t bytes, uint64_t *ts);
int corpus_coll(const char *path);

/* crc.c: CRC-32C throughput of each implementation, ratio to the table */
int crc_bench(void);

/* par.c: mttdecode -j on captures of mib MiB written into dir; only the
 * kinds whose names hold which ("": all) */
int par_bench(const char *exe, const char *dir, size_t mib,
	      const char *which);

#endif
