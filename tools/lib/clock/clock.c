// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * clock.c - libmttclock: offset and drift of one device clock against the
 * reference clock from send-before-receive bounds, by the convex-hull
 * method (Duda, Harrus, Haddad, Bernard, "Estimating global time in
 * distributed systems", ICDCS 1987).  Documentation/clock-sync.rst.
 *
 * Coordinates: x = dev - dev0 and y = (ref - dev) - off0, relative to the
 * first bound added, as exact int64 ns; a candidate line is y = s * x + c
 * with s = a - 1.  An up bound (x, u) wants s * x + c <= u: only the lower
 * convex hull of the up points matters.  A down bound (x, d) wants
 * s * x + c >= d: only the upper hull of the down points, kept here as
 * the lower hull of (x, -d) so that one hull routine serves both.  Hull
 * geometry is exact (128-bit cross products); the lines derived from it
 * are computed in long double.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mttclock/clock.h"
#include "wire/wide.h"


struct pt {
	int64_t x, y;
	uint64_t id;
};

/* a lower convex hull: x strictly increasing, strictly convex */
struct hull {
	struct pt *p;
	size_t n, cap;
};

struct mttclk {
	int have_origin;
	int64_t dev0, off0;
	int64_t xmin, xmax;
	uint64_t n_up, n_down;
	struct hull up;		/* (x, u) */
	struct hull down;	/* (x, -d) */
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

/*
 * The sign of the cross product: > 0 when o -> a -> b turns left (b above
 * the line o -> a when a.x > o.x), exact (wire/wide.h: also where the
 * compiler has no __int128, 32-bit Arm).
 */
static int cross(int64_t ox, int64_t oy, int64_t ax, int64_t ay,
		 int64_t bx, int64_t by)
{
	return wide_cmp_mul_s64(ax - ox, by - oy, ay - oy, bx - ox);
}

static int cross_pt(const struct pt *o, const struct pt *a,
		    const struct pt *b)
{
	return cross(o->x, o->y, a->x, a->y, b->x, b->y);
}

/* the cross product's value, for a distance (never for a sign) */
static long double cross_pt_ld(const struct pt *o, const struct pt *a,
			       const struct pt *b)
{
	return wide_sub_mul_ld(a->x - o->x, b->y - o->y, a->y - o->y,
			       b->x - o->x);
}

/* the first index whose x is >= x */
static size_t lower_index(const struct hull *h, int64_t x)
{
	size_t lo = 0, hi = h->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->p[mid].x < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The hull is full: drop the inner vertex that lies least far below the
 * segment joining its neighbours (the chain stays convex).  Fewer bounds
 * only widen the feasible set: the truth stays inside, the bound grows
 * by at most that distance near that vertex.
 */
static void hull_drop_one(struct hull *h)
{
	long double best = INFINITY;
	size_t k, at = 1;

	for (k = 1; k + 1 < h->n; k++) {
		const struct pt *l = &h->p[k - 1], *r = &h->p[k + 1];
		long double gap = -cross_pt_ld(l, r, &h->p[k]) /
				  (r->x - l->x);

		if (gap < best) {
			best = gap;
			at = k;
		}
	}
	memmove(h->p + at, h->p + at + 1, (h->n - at - 1) * sizeof(*h->p));
	h->n--;
}

/*
 * Insert q into the lower hull h, at any x (in nondecreasing x it is the
 * monotone chain's append, amortised O(1); elsewhere O(h->n) for the
 * move).  A point on or above the hull is a redundant bound: dropped.
 */
static int hull_insert(struct hull *h, const struct pt *q)
{
	size_t k = lower_index(h, q->x), lo, hi;

	if (k < h->n && h->p[k].x == q->x) {
		if (h->p[k].y <= q->y)
			return 0;
		memmove(h->p + k, h->p + k + 1, (h->n - k - 1) * sizeof(*h->p));
		h->n--;
	}
	if (k > 0 && k < h->n && cross_pt(&h->p[k - 1], &h->p[k], q) >= 0)
		return 0;
	lo = k;
	while (lo >= 2 && cross_pt(&h->p[lo - 2], &h->p[lo - 1], q) <= 0)
		lo--;
	hi = k;
	while (hi + 1 < h->n && cross_pt(q, &h->p[hi], &h->p[hi + 1]) <= 0)
		hi++;
	if (lo == hi && h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;

		if (cap > MTTCLK_HULL_MAX + 1)
			cap = MTTCLK_HULL_MAX + 1;
		struct pt *p = realloc(h->p, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->p = p;
		h->cap = cap;
	}
	memmove(h->p + lo + 1, h->p + hi, (h->n - hi) * sizeof(*h->p));
	h->p[lo] = *q;
	h->n = lo + 1 + (h->n - hi);
	if (h->n > MTTCLK_HULL_MAX)
		hull_drop_one(h);
	return 0;
}

static int add(struct mttclk *c, int64_t dev, int64_t ref, uint64_t id,
	       int down)
{
	int64_t off, dev0, off0;
	struct pt q;
	int r;

	if (!c)
		return -EINVAL;
	if (__builtin_sub_overflow(ref, dev, &off))
		return -ERANGE;
	dev0 = c->have_origin ? c->dev0 : dev;
	off0 = c->have_origin ? c->off0 : off;
	if (__builtin_sub_overflow(dev, dev0, &q.x) ||
	    __builtin_sub_overflow(off, off0, &q.y) ||
	    q.x <= -MTTCLK_RANGE_NS || q.x >= MTTCLK_RANGE_NS ||
	    q.y <= -MTTCLK_RANGE_NS || q.y >= MTTCLK_RANGE_NS)
		return -ERANGE;
	q.id = id;
	if (down)
		q.y = -q.y;
	r = hull_insert(down ? &c->down : &c->up, &q);
	if (r)
		return r;
	if (!c->have_origin) {
		c->have_origin = 1;
		c->dev0 = dev0;
		c->off0 = off0;
		c->xmin = q.x;
		c->xmax = q.x;
	}
	if (q.x < c->xmin)
		c->xmin = q.x;
	if (q.x > c->xmax)
		c->xmax = q.x;
	if (down)
		c->n_down++;
	else
		c->n_up++;
	return 0;
}

int mttclk_add_up(struct mttclk *c, int64_t dev_ns, int64_t ref_ns,
		  uint64_t id)
{
	return add(c, dev_ns, ref_ns, id, 0);
}

int mttclk_add_down(struct mttclk *c, int64_t ref_ns, int64_t dev_ns,
		    uint64_t id)
{
	return add(c, dev_ns, ref_ns, id, 1);
}

size_t mttclk_hull_points(const struct mttclk *c)
{
	return c ? c->up.n + c->down.n : 0;
}

/* a slope as an exact fraction num / den, den > 0 */
struct frac {
	int64_t num, den;
	uint64_t up_id, down_id;
};

static int frac_less(const struct frac *a, const struct frac *b)
{
	return wide_cmp_mul_s64(a->num, b->den, b->num, a->den) < 0;
}

/*
 * The extreme feasible slopes: every line below every up point and
 * above every down point has hi.num/hi.den >= s >= lo.num/lo.den (2D LP
 * duality: for a given s, c exists iff every (up, down) pair allows it).
 * *has_lo, *has_hi: 0 when no pair limits that side.  O(up.n * down.n).
 */
static void slope_limits(const struct mttclk *c, struct frac *lo,
			 int *has_lo, struct frac *hi, int *has_hi)
{
	size_t i, j;

	*has_lo = 0;
	*has_hi = 0;
	for (j = 0; j < c->down.n; j++) {
		const struct pt *d = &c->down.p[j];

		for (i = 0; i < c->up.n; i++) {
			const struct pt *u = &c->up.p[i];
			/* u - d, d stored negated; both below 2^61 */
			struct frac f = { u->y + d->y, u->x - d->x,
					  u->id, d->id };

			if (u->x > d->x) {
				if (!*has_hi || frac_less(&f, hi))
					*hi = f;
				*has_hi = 1;
			} else if (u->x < d->x) {
				f.num = -f.num;
				f.den = -f.den;
				if (!*has_lo || frac_less(lo, &f))
					*lo = f;
				*has_lo = 1;
			}
		}
	}
}

static long double frac_value(const struct frac *f)
{
	return (long double)f->num / (long double)f->den;
}

/*
 * Is q strictly above the lower hull h (within its x range)?  If so,
 * *by is how far (ns) and *near_id the id of the nearer (in x) end of
 * the hull segment under q.
 */
static int above_hull(const struct hull *h, int64_t qx, int64_t qy,
		      long double *by, uint64_t *near_id)
{
	size_t k;
	const struct pt *l, *r;

	if (!h->n || qx < h->p[0].x || qx > h->p[h->n - 1].x)
		return 0;
	k = lower_index(h, qx);
	if (h->p[k].x == qx) {
		*by = (long double)qy - h->p[k].y;
		*near_id = h->p[k].id;
		return qy > h->p[k].y;
	}
	l = &h->p[k - 1];
	r = &h->p[k];
	if (cross(l->x, l->y, r->x, r->y, qx, qy) <= 0)
		return 0;
	*by = (long double)qy - (l->y + (long double)(r->y - l->y) *
				 (qx - l->x) / (r->x - l->x));
	*near_id = qx - l->x <= r->x - qx ? l->id : r->id;
	return 1;
}

/*
 * The bounds conflict: name a down bound above the up bounds' hull, or an
 * up bound below the down bounds' hull, whichever is farthest off, and
 * the nearer of the two bounds of the other kind around it.  When the
 * hulls cross, such a vertex exists (the gap between the hulls is concave
 * over their common x range, so it is largest at a vertex); fall back on
 * the limiting pairs otherwise.
 */
static void conflict_ids(const struct mttclk *c, const struct frac *lo,
			 const struct frac *hi, struct mttclk_fit *fit)
{
	long double worst = 0, by;
	uint64_t near;
	size_t i;

	fit->conflict_up_id = lo->up_id;
	fit->conflict_down_id = hi->down_id;
	for (i = 0; i < c->down.n; i++) {
		const struct pt *d = &c->down.p[i];

		if (above_hull(&c->up, d->x, -d->y, &by, &near) && by > worst) {
			worst = by;
			fit->conflict_up_id = near;
			fit->conflict_down_id = d->id;
		}
	}
	for (i = 0; i < c->up.n; i++) {
		const struct pt *u = &c->up.p[i];

		if (above_hull(&c->down, u->x, -u->y, &by, &near) && by > worst) {
			worst = by;
			fit->conflict_up_id = u->id;
			fit->conflict_down_id = near;
		}
	}
}

/* the feasible set's extreme slopes and its middle line, long double */
struct band {
	long double slo, shi;	/* slope range */
	long double cmin_lo, cmax_lo, cmin_hi, cmax_hi;	/* c range at each */
	long double sm, cm;	/* the middle line */
};

/* the lowest c at slope s (down bounds) */
static long double c_min(const struct mttclk *c, long double s)
{
	long double m = -INFINITY;
	size_t j;

	for (j = 0; j < c->down.n; j++) {
		long double v = -(long double)c->down.p[j].y -
				s * c->down.p[j].x;

		if (v > m)
			m = v;
	}
	return m;
}

/* the highest c at slope s (up bounds) */
static long double c_max(const struct mttclk *c, long double s)
{
	long double m = INFINITY;
	size_t i;

	for (i = 0; i < c->up.n; i++) {
		long double v = (long double)c->up.p[i].y - s * c->up.p[i].x;

		if (v < m)
			m = v;
	}
	return m;
}

/* 0, or MTTCLK_CONFLICT with the ids in fit; both hulls not empty */
static int band_of(const struct mttclk *c, struct band *b,
		   struct mttclk_fit *fit)
{
	const long double maxd = MTTCLK_MAX_DRIFT_PPM * 1e-6L;
	struct frac lo = { 0, 1, 0, 0 }, hi = { 0, 1, 0, 0 };
	int has_lo, has_hi;
	size_t i, j;

	slope_limits(c, &lo, &has_lo, &hi, &has_hi);
	/* an up and a down bound at one device time */
	for (j = 0, i = 0; j < c->down.n && i < c->up.n;) {
		const struct pt *d = &c->down.p[j], *u = &c->up.p[i];

		if (d->x == u->x && u->y < -d->y) {
			fit->conflict_up_id = u->id;
			fit->conflict_down_id = d->id;
			return MTTCLK_CONFLICT;
		}
		if (d->x < u->x)
			j++;
		else
			i++;
	}
	if (has_lo && has_hi && frac_less(&hi, &lo)) {
		conflict_ids(c, &lo, &hi, fit);
		return MTTCLK_CONFLICT;
	}
	b->slo = has_lo ? frac_value(&lo) : -maxd;
	b->shi = has_hi ? frac_value(&hi) : maxd;
	/*
	 * A side the bounds leave open: assume |drift| <= the maximum on
	 * both sides (a single exchange bounds the slope on one side only,
	 * and loosely); where the bounds contradict the assumption, they win.
	 */
	if (!has_lo || !has_hi) {
		if (b->slo < -maxd)
			b->slo = -maxd;
		if (b->shi > maxd)
			b->shi = maxd;
		if (b->slo > b->shi) {
			if (has_lo)
				b->shi = b->slo;
			else
				b->slo = b->shi;
		}
	}
	b->cmin_lo = c_min(c, b->slo);
	b->cmax_lo = c_max(c, b->slo);
	b->cmin_hi = c_min(c, b->shi);
	b->cmax_hi = c_max(c, b->shi);
	/* Duda's middle: the mean of the two extreme lines */
	b->sm = (b->slo + b->shi) / 2;
	b->cm = (b->cmin_lo + b->cmax_lo + b->cmin_hi + b->cmax_hi) / 4;
	return 0;
}

static void band_take(long double s, long double cc, long double x,
		      long double *ymin, long double *ymax)
{
	long double y = s * x + cc;

	if (y < *ymin)
		*ymin = y;
	if (y > *ymax)
		*ymax = y;
}

/*
 * The exact band at x: the feasible (s, c) form a convex polygon whose
 * vertices are the four corners at the extreme slopes and, between them,
 * one line per hull edge whose slope is inside (slo, shi); a linear
 * function of (s, c) is extreme at a vertex.  Relative to the middle.
 */
static void band_at(const struct mttclk *c, const struct band *b,
		    long double x, long double *below, long double *above)
{
	long double ymin = INFINITY, ymax = -INFINITY, mid;
	size_t k;

	band_take(b->slo, b->cmin_lo, x, &ymin, &ymax);
	band_take(b->slo, b->cmax_lo, x, &ymin, &ymax);
	band_take(b->shi, b->cmin_hi, x, &ymin, &ymax);
	band_take(b->shi, b->cmax_hi, x, &ymin, &ymax);
	for (k = 0; k + 1 < c->up.n; k++) {
		const struct pt *l = &c->up.p[k], *r = &c->up.p[k + 1];
		long double e = (long double)(r->y - l->y) / (r->x - l->x);

		if (e > b->slo && e < b->shi)
			band_take(e, l->y - e * l->x, x, &ymin, &ymax);
	}
	for (k = 0; k + 1 < c->down.n; k++) {
		const struct pt *l = &c->down.p[k], *r = &c->down.p[k + 1];
		long double e = -(long double)(r->y - l->y) / (r->x - l->x);

		if (e > b->slo && e < b->shi)
			band_take(e, -l->y - e * l->x, x, &ymin, &ymax);
	}
	mid = b->sm * x + b->cm;
	*below = ymin - mid;
	*above = ymax - mid;
}

static long double bound_of(const struct mttclk *c, const struct band *b,
			    long double x)
{
	long double below, above;

	band_at(c, b, x, &below, &above);
	return above > -below ? above : -below;
}

/*
 * One side only: the hull's supporting line at the middle of the span
 * (of all lines on the right side of the bounds, the one whose mean
 * distance to the hull over the span is least).  h is a lower hull;
 * its line is y = *s * x + *cc.
 */
static void support_line(const struct hull *h, long double xm,
			 long double *s, long double *cc)
{
	size_t k;

	if (h->n == 1) {
		*s = 0;
		*cc = h->p[0].y;
		return;
	}
	k = lower_index(h, (int64_t)ceill(xm));
	if (k == 0)
		k = 1;
	if (k >= h->n)
		k = h->n - 1;
	*s = (long double)(h->p[k].y - h->p[k - 1].y) /
	     (h->p[k].x - h->p[k - 1].x);
	if (h->p[k].x == xm && k + 1 < h->n)
		*s = (*s + (long double)(h->p[k + 1].y - h->p[k].y) /
		      (h->p[k + 1].x - h->p[k].x)) / 2;
	*cc = h->p[k].y - *s * h->p[k].x;
}

static void set_line(const struct mttclk *c, struct mttclk_fit *fit,
		     long double s, long double cc)
{
	/* b with the slope a carries, so that map() is exact near dev0 */
	fit->a = (double)(1 + s);
	fit->b = (double)(c->off0 + cc - (long double)(fit->a - 1) * c->dev0);
	fit->drift_ppm = (double)(s * 1e6L);
}

int mttclk_solve(const struct mttclk *c, struct mttclk_fit *fit)
{
	struct band b;
	long double s, cc;

	if (!c || !fit)
		return -EINVAL;
	memset(fit, 0, sizeof(*fit));
	fit->a = 1;
	fit->n_up = c->n_up;
	fit->n_down = c->n_down;
	fit->drift_lo_ppm = -INFINITY;
	fit->drift_hi_ppm = INFINITY;
	fit->bound_ns = INFINITY;
	fit->bound_first_ns = INFINITY;
	fit->bound_last_ns = INFINITY;
	if (!c->have_origin) {
		fit->status = MTTCLK_EMPTY;
		return 0;
	}
	fit->dev_first = c->dev0 + c->xmin;
	fit->dev_last = c->dev0 + c->xmax;
	if (!c->down.n || !c->up.n) {
		long double xm = c->xmin + (long double)(c->xmax - c->xmin) / 2;

		fit->status = MTTCLK_ONE_SIDED;
		support_line(c->up.n ? &c->up : &c->down, xm, &s, &cc);
		if (!c->up.n) {
			s = -s;
			cc = -cc;
		}
		set_line(c, fit, s, cc);
		return 0;
	}
	if (band_of(c, &b, fit)) {
		fit->status = MTTCLK_CONFLICT;
		fit->drift_ppm = NAN;
		fit->drift_lo_ppm = NAN;
		fit->drift_hi_ppm = NAN;
		return 0;
	}
	fit->status = MTTCLK_OK;
	set_line(c, fit, b.sm, b.cm);
	fit->drift_lo_ppm = (double)(b.slo * 1e6L);
	fit->drift_hi_ppm = (double)(b.shi * 1e6L);
	/* the distance to the band's edges is convex in x: largest at an end */
	fit->bound_first_ns = (double)bound_of(c, &b, c->xmin);
	fit->bound_last_ns = (double)bound_of(c, &b, c->xmax);
	fit->bound_ns = fit->bound_first_ns > fit->bound_last_ns ?
			fit->bound_first_ns : fit->bound_last_ns;
	return 0;
}

int mttclk_band(const struct mttclk *c, const struct mttclk_fit *fit,
		int64_t dev_ns, double *below_ns, double *above_ns)
{
	struct mttclk_fit tmp;
	struct band b;
	long double below, above;

	if (!c || !fit || !below_ns || !above_ns || fit->status != MTTCLK_OK ||
	    fit->n_up != c->n_up || fit->n_down != c->n_down ||
	    band_of(c, &b, &tmp))
		return -EINVAL;
	band_at(c, &b, (long double)dev_ns - c->dev0, &below, &above);
	*below_ns = (double)below;
	*above_ns = (double)above;
	return 0;
}

int64_t mttclk_map(const struct mttclk_fit *fit, int64_t dev_ns)
{
	long double r;

	if (!fit)
		return dev_ns;
	r = (long double)dev_ns + (long double)(fit->a - 1) * dev_ns + fit->b;
	if (!(r < 9223372036854775807.0L))
		return INT64_MAX;
	if (!(r > -9223372036854775807.0L))
		return INT64_MIN;
	return llroundl(r);
}

double mttclk_bound_at(const struct mttclk_fit *fit, int64_t dev_ns)
{
	long double half_spread, t;

	if (!fit || fit->status != MTTCLK_OK)
		return INFINITY;
	/*
	 * Convex in dev: under the chord inside, at most half the slope
	 * range's growth outside.
	 */
	half_spread = ((long double)fit->drift_hi_ppm - fit->drift_lo_ppm) *
		      1e-6L / 2;
	if (dev_ns < fit->dev_first)
		return (double)(fit->bound_first_ns + half_spread *
				((long double)fit->dev_first - dev_ns));
	if (dev_ns > fit->dev_last)
		return (double)(fit->bound_last_ns + half_spread *
				((long double)dev_ns - fit->dev_last));
	if (fit->dev_last == fit->dev_first)
		return fit->bound_first_ns;
	t = ((long double)dev_ns - fit->dev_first) /
	    ((long double)fit->dev_last - fit->dev_first);
	return (double)(fit->bound_first_ns +
			t * (fit->bound_last_ns - fit->bound_first_ns));
}
