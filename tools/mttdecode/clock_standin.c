// SPDX-License-Identifier: GPL-2.0
/*
 * clock_standin.c - stand-in until h-clk lands (libmttclock, the
 * convex-hull estimator of Documentation/clock-sync.rst).  Not the
 * method, only enough of it for merge.c and its tests: the up bounds'
 * lower hull and the down bounds' upper hull (points in nondecreasing
 * device time; one out of order is dropped, counted all the same); the
 * slope is the up hull's edge over the middle of the device times (1 with
 * one point), kept within +-1000 ppm; with down bounds the offset is the middle of what both
 * hulls leave at that slope, the half-width constant, CONFLICT when
 * nothing is left.  drift_lo_ppm = drift_hi_ppm = drift_ppm: the slope's
 * feasible range is not searched.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "clock_standin.h"

#define MAX_DRIFT 1e-3	/* 1000 ppm */

struct pt {
	int64_t x, y;
	uint64_t id;
};

struct hull {
	struct pt *p;
	size_t n, cap;
	int64_t last_x;
	int any;
};

struct mttclk {
	struct hull up, down;	/* lower hull of up, upper hull of down */
	uint64_t n_up, n_down;
	int64_t first, last;
	int any;
};

struct mttclk *mttclk_new(void)
{
	return calloc(1, sizeof(struct mttclk));
}

void mttclk_free(struct mttclk *c)
{
	if (!c)
		return;
	free(c->up.p);
	free(c->down.p);
	free(c);
}

/* > 0: o, a, b turn left (counter-clockwise) */
static __int128 cross(const struct pt *o, const struct pt *a,
		      const struct pt *b)
{
	return (__int128)(a->x - o->x) * (b->y - o->y) -
	       (__int128)(a->y - o->y) * (b->x - o->x);
}

/* lower (sign 1) or upper (sign -1) hull; 0 or -errno */
static int hull_add(struct hull *h, int64_t x, int64_t y, uint64_t id,
		    int sign)
{
	struct pt q = { x, y, id };

	if (h->any && x < h->last_x)
		return 0;
	h->any = 1;
	h->last_x = x;
	if (h->n && h->p[h->n - 1].x == x) {
		/* the same time: keep the tighter one */
		if ((sign > 0) == (y < h->p[h->n - 1].y))
			h->n--;
		else
			return 0;
	}
	while (h->n >= 2 &&
	       sign * cross(&h->p[h->n - 2], &h->p[h->n - 1], &q) <= 0)
		h->n--;
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		struct pt *p = realloc(h->p, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->p = p;
		h->cap = cap;
	}
	h->p[h->n++] = q;
	return 0;
}

static void span(struct mttclk *c, int64_t x)
{
	if (!c->any || x < c->first)
		c->first = x;
	if (!c->any || x > c->last)
		c->last = x;
	c->any = 1;
}

int mttclk_add_up(struct mttclk *c, int64_t dev_ns, int64_t ref_ns,
		  uint64_t id)
{
	c->n_up++;
	span(c, dev_ns);
	return hull_add(&c->up, dev_ns, ref_ns, id, 1);
}

int mttclk_add_down(struct mttclk *c, int64_t ref_ns, int64_t dev_ns,
		    uint64_t id)
{
	c->n_down++;
	span(c, dev_ns);
	return hull_add(&c->down, dev_ns, ref_ns, id, -1);
}

/* the extreme of y - a * x over h's points: min (sign 1) or max */
static double extreme(const struct hull *h, double a, int sign,
		      uint64_t *id)
{
	double best = 0;
	size_t i;

	for (i = 0; i < h->n; i++) {
		double v = (double)h->p[i].y - a * (double)h->p[i].x;

		if (!i || (sign > 0 ? v < best : v > best)) {
			best = v;
			*id = h->p[i].id;
		}
	}
	return best;
}

int mttclk_solve(const struct mttclk *c, struct mttclk_fit *f)
{
	const struct hull *u = &c->up;
	double mid = ((double)c->first + (double)c->last) / 2, hi, lo;
	uint64_t uid = 0, did = 0;
	size_t i;

	*f = (struct mttclk_fit){ .status = MTTCLK_EMPTY, .a = 1,
				  .bound_ns = INFINITY,
				  .bound_first_ns = INFINITY,
				  .bound_last_ns = INFINITY,
				  .dev_first = c->first, .dev_last = c->last,
				  .n_up = c->n_up, .n_down = c->n_down };
	if (!u->n)
		return 0;
	for (i = 0; i + 1 < u->n; i++)
		if ((double)u->p[i + 1].x >= mid)
			break;
	if (i + 1 < u->n)
		f->a = (double)(u->p[i + 1].y - u->p[i].y) /
		       (double)(u->p[i + 1].x - u->p[i].x);
	/* one side does not bound the slope: keep it to a crystal's */
	if (f->a < 1 - MAX_DRIFT)
		f->a = 1 - MAX_DRIFT;
	if (f->a > 1 + MAX_DRIFT)
		f->a = 1 + MAX_DRIFT;
	f->drift_ppm = (f->a - 1) * 1e6;
	f->drift_lo_ppm = f->drift_hi_ppm = f->drift_ppm;
	hi = extreme(u, f->a, 1, &uid);
	f->b = hi;
	f->status = MTTCLK_ONE_SIDED;
	if (!c->down.n)
		return 0;
	lo = extreme(&c->down, f->a, -1, &did);
	if (lo > hi) {
		f->status = MTTCLK_CONFLICT;
		f->conflict_up_id = uid;
		f->conflict_down_id = did;
		return 0;
	}
	f->status = MTTCLK_OK;
	f->b = (hi + lo) / 2;
	f->bound_ns = f->bound_first_ns = f->bound_last_ns = (hi - lo) / 2;
	return 0;
}

int64_t mttclk_map(const struct mttclk_fit *f, int64_t dev_ns)
{
	double v = f->a * (double)dev_ns + f->b;

	return (int64_t)(v < 0 ? v - 0.5 : v + 0.5);
}

double mttclk_bound_at(const struct mttclk_fit *f, int64_t dev_ns)
{
	(void)dev_ns;
	return f->bound_ns;
}
