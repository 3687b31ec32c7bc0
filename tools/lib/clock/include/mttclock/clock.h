/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttclock/clock.h - libmttclock: one target's clock on the session's
 * reference clock, from send-before-receive bounds (the convex-hull
 * method of Duda et al., 1987).  Documentation/clock-sync.rst, mttclock(3).
 *
 * The device's ns map to reference ns as ref = a * dev + b.  An "up"
 * bound (the device sent at dev_ns, the host had it by ref_ns) says
 * a * dev_ns + b <= ref_ns; a "down" bound (the host sent at ref_ns, the
 * device had it at dev_ns) says ref_ns <= a * dev_ns + b.  Wire time is
 * the caller's: already subtracted from an up bound's ref_ns, added to a
 * down bound's.
 */
#ifndef MTTCLOCK_CLOCK_H
#define MTTCLOCK_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mttclk_fit.status */
#define MTTCLK_OK		0	/* a middle line and a finite bound */
#define MTTCLK_ONE_SIDED	1	/* only up (or only down) bounds */
#define MTTCLK_CONFLICT		2	/* no line satisfies every bound */
#define MTTCLK_EMPTY		3	/* no bound at all */

/*
 * The drift assumed where the bounds leave the slope open on one side
 * (a single two-way exchange, or every down bound after every up
 * bound): the open side becomes +-MTTCLK_MAX_DRIFT_PPM.
 */
#define MTTCLK_MAX_DRIFT_PPM	1000.0

/*
 * Each hull holds at most this many bounds (memory: 24 bytes each); past
 * it, the inner bound that constrains least is dropped (the bound can
 * only grow).  Random delays keep a few dozen; a steadily changing
 * drift keeps its whole curve.
 */
#define MTTCLK_HULL_MAX		1024

/* Relative to the first bound added, |dev| and |ref - dev| stay below this */
#define MTTCLK_RANGE_NS		((int64_t)1 << 61)

struct mttclk;

struct mttclk_fit {
	int status;		/* MTTCLK_* */
	double a, b;		/* ref = a * dev + b, the middle line */
	double drift_ppm;	/* (a - 1) * 1e6 of the middle line */
	double drift_lo_ppm, drift_hi_ppm;	/* the extreme feasible slopes */
	/* max over [dev_first, dev_last]; INFINITY unless MTTCLK_OK */
	double bound_ns;
	double bound_first_ns, bound_last_ns;	/* at dev_first, dev_last */
	int64_t dev_first, dev_last;
	uint64_t n_up, n_down;
	uint64_t conflict_up_id, conflict_down_id;	/* MTTCLK_CONFLICT */
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

/*
 * The exact feasible band at dev_ns around fit's middle line (fit from
 * mttclk_solve(c) with no bound added since): every line that satisfies
 * every bound maps dev_ns into [map + *below_ns, map + *above_ns]
 * (*below_ns <= 0 <= *above_ns).  0, or -EINVAL (no fit with
 * MTTCLK_OK).
 */
int mttclk_band(const struct mttclk *c, const struct mttclk_fit *fit,
		int64_t dev_ns, double *below_ns, double *above_ns);

/* Points held (up hull + down hull): the estimator's memory, for tests */
size_t mttclk_hull_points(const struct mttclk *c);

#ifdef __cplusplus
}
#endif

#endif
