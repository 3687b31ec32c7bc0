/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock_standin.h - stand-in until h-clk lands: the API of libmttclock
 * (<mttclock/clock.h>, issue 21's contract section 4), so that merge.c
 * is written against it; the lead replaces this header and
 * clock_standin.c by the library.  Device ns -> reference ns as
 * ref = a * dev + b; "up" bounds a * dev + b <= ref, "down" bounds
 * ref <= a * dev + b (wire time already taken off or added by the
 * caller).
 */
#ifndef MTTD_CLOCK_STANDIN_H
#define MTTD_CLOCK_STANDIN_H

#include <stdint.h>

enum { MTTCLK_OK, MTTCLK_ONE_SIDED, MTTCLK_CONFLICT, MTTCLK_EMPTY };

struct mttclk;

struct mttclk_fit {
	int status;		/* MTTCLK_* */
	double a, b;		/* ref = a * dev + b, the middle line */
	double drift_ppm;	/* (a - 1) * 1e6 */
	double drift_lo_ppm, drift_hi_ppm;	/* extreme feasible slopes */
	double bound_ns;	/* max half-width over [dev_first, dev_last];
				 * INFINITY unless MTTCLK_OK */
	double bound_first_ns, bound_last_ns;
	int64_t dev_first, dev_last;
	uint64_t n_up, n_down;
	uint64_t conflict_up_id, conflict_down_id;
};

struct mttclk *mttclk_new(void);
void mttclk_free(struct mttclk *c);
int mttclk_add_up(struct mttclk *c, int64_t dev_ns, int64_t ref_ns,
		  uint64_t id);
int mttclk_add_down(struct mttclk *c, int64_t ref_ns, int64_t dev_ns,
		    uint64_t id);
int mttclk_solve(const struct mttclk *c, struct mttclk_fit *fit);
int64_t mttclk_map(const struct mttclk_fit *fit, int64_t dev_ns);
double mttclk_bound_at(const struct mttclk_fit *fit, int64_t dev_ns);

#endif
