// SPDX-License-Identifier: GPL-2.0
/*
 * clocktest.c - libmttclock (tools/lib/clock) against synthetic devices
 * whose line ref = a * dev + b is known: bounds drawn from it with random
 * positive delays (a fixed seed), then the fit must contain the truth:
 * drift_lo <= drift <= drift_hi, the truth inside the exact band
 * (mttclk_band) and within mttclk_bound_at() of the middle line at every
 * point checked, the middle line satisfying every bound; hand-made
 * conflicts name the right bounds; touching bounds, a single exchange,
 * one-sided and empty sets; a million bounds in a hull of fixed size;
 * bounds in any order give the same fit; small random sets against a
 * brute force over every line through two bounds.  TAP.
 *
 * The only tolerance: EPS ns for long double -> double rounding of the
 * fit's a, b and bounds (0.5 ns more where mttclk_map() rounds).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttclock/clock.h"
#include "tap.h"

#define EPS 1e-3L

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* a positive delay, 1 ns .. max ns, most of them short */
static int64_t delay(uint64_t *s, int64_t max)
{
	uint64_t m = (uint64_t)max;

	return 1 + (int64_t)((rnd(s) % m) * (rnd(s) % m) / m);
}

struct truth {
	double ppm;
	int64_t off;	/* b */
	int64_t dev0;	/* the device's time at the start */
};

static long double true_ref(const struct truth *t, int64_t dev)
{
	return dev + (long double)t->ppm * 1e-6L * dev + t->off;
}

struct bnd {
	int down;
	int64_t dev, ref;
	uint64_t id;
};

/*
 * n exchanges (down at t2, up at t3 = t2 + 10 us) and 10 up records
 * between two exchanges, over span ns; ids: 2k down, 2k + 1 up of
 * exchange k, 1000000 + r the up records.  Returns the count.
 */
static size_t gen(const struct truth *t, int64_t span, size_t n,
		  int64_t maxdelay, uint64_t seed, struct bnd *b)
{
	size_t k, r, m = 0;

	for (k = 0; k < n; k++) {
		int64_t t2 = t->dev0 + (int64_t)((long double)span * k / n);

		b[m++] = (struct bnd){ 1, t2,
			(int64_t)floorl(true_ref(t, t2)) - delay(&seed, maxdelay),
			2 * k };
		b[m++] = (struct bnd){ 0, t2 + 10000,
			(int64_t)ceill(true_ref(t, t2 + 10000)) +
			delay(&seed, maxdelay), 2 * k + 1 };
		for (r = 0; r < 10; r++) {
			int64_t d = t2 + 20000 + (int64_t)(r * span / n / 11);

			b[m] = (struct bnd){ 0, d,
				(int64_t)ceill(true_ref(t, d)) +
				delay(&seed, maxdelay), 1000000 + m };
			m++;
		}
	}
	return m;
}

static int add(struct mttclk *c, const struct bnd *b)
{
	return b->down ? mttclk_add_down(c, b->ref, b->dev, b->id) :
			 mttclk_add_up(c, b->dev, b->ref, b->id);
}

static long double mid(const struct mttclk_fit *f, int64_t dev)
{
	return dev + (long double)(f->a - 1) * dev + f->b;
}

/* the fit against the truth at 101 points of the span and 2 outside */
static void check_truth(const char *name, const struct mttclk *c,
			const struct mttclk_fit *f, const struct truth *t,
			const struct bnd *b, size_t n, int all_kept)
{
	int in_band = 1, in_bound = 1, chord = 1, bound_ok = 1, sat = 1;
	long double worst = 0;
	size_t i;

	ok(f->status == MTTCLK_OK, "%s: status OK (%d)", name, f->status);
	ok(f->drift_lo_ppm <= t->ppm && t->ppm <= f->drift_hi_ppm,
	   "%s: %.6f <= true %.1f ppm <= %.6f", name, f->drift_lo_ppm,
	   t->ppm, f->drift_hi_ppm);
	ok(f->n_up + f->n_down == n, "%s: %zu bounds counted", name, n);
	for (i = 0; i <= 102; i++) {
		int64_t span = f->dev_last - f->dev_first;
		int64_t dev = f->dev_first - span / 10 +
			      (int64_t)((long double)span * 1.2L * i / 102);
		long double tr = true_ref(t, dev), m = mid(f, dev);
		double below, above, bat = mttclk_bound_at(f, dev);

		if (mttclk_band(c, f, dev, &below, &above) ||
		    tr < m + below - EPS || tr > m + above + EPS)
			in_band = 0;
		if (fabsl(tr - mttclk_map(f, dev)) > bat + 0.5L + EPS)
			in_bound = 0;
		if (fmaxl(above, -below) > bat + EPS)
			chord = 0;
		if (dev >= f->dev_first && dev <= f->dev_last &&
		    bat > f->bound_ns + EPS)
			bound_ok = 0;
		if (fabsl(tr - m) > worst)
			worst = fabsl(tr - m);
	}
	ok(in_band, "%s: the truth is inside the exact band at 103 points",
	   name);
	ok(in_bound,
	   "%s: |map - truth| <= mttclk_bound_at() at 103 points (worst %.1Lf ns, bound %.1f)",
	   name, worst, f->bound_ns);
	ok(chord, "%s: the exact band is within mttclk_bound_at()", name);
	ok(bound_ok && f->bound_ns == fmax(f->bound_first_ns, f->bound_last_ns),
	   "%s: bound_ns = max(first %.1f, last %.1f), the largest in the span",
	   name, f->bound_first_ns, f->bound_last_ns);
	if (!all_kept)
		return;
	for (i = 0; i < n; i++) {
		long double m = mid(f, b[i].dev);

		if (b[i].down ? m < b[i].ref - EPS : m > b[i].ref + EPS)
			sat = 0;
	}
	ok(sat, "%s: the middle line satisfies every bound", name);
}

static struct mttclk *load(const struct bnd *b, size_t n)
{
	struct mttclk *c = mttclk_new();
	size_t i;
	int bad = 0;

	for (i = 0; i < n; i++)
		if (add(c, &b[i]))
			bad++;
	ok(c && !bad, "%zu bounds added", n);
	return c;
}

#define NEX 2000
static struct bnd bs[NEX * 12];

static void synthetic(void)
{
	static const struct truth ts[] = {
		{ 500, 0, 0 },
		{ 500, 1000000000000LL, 10000000000000LL },
		{ -120, -500000000000LL, 10000000000000LL },
		{ 0, 1000000000000LL, 3600000000000LL },
		{ 37.25, 123456789, -7200000000000LL },
	};
	size_t k;

	for (k = 0; k < sizeof(ts) / sizeof(*ts); k++) {
		const struct truth *t = &ts[k];
		struct mttclk_fit f;
		struct mttclk *c;
		char name[96];
		size_t n;

		/* 10 s, delays up to 100 us */
		n = gen(t, 10000000000LL, NEX, 100000, 42 + k, bs);
		snprintf(name, sizeof(name), "%+g ppm, b %lld, from %lld",
			 t->ppm, (long long)t->off, (long long)t->dev0);
		c = load(bs, n);
		ok(!mttclk_solve(c, &f), "%s: solved", name);
		check_truth(name, c, &f, t, bs, n, 1);
		ok(fabs(f.drift_ppm - t->ppm) < 0.05 &&
		   f.drift_hi_ppm - f.drift_lo_ppm < 0.1,
		   "%s: drift %.6f ppm, within 0.05 of the truth (tight bounds over 10 s)",
		   name, f.drift_ppm);
		mttclk_free(c);
	}
}

static void touching(void)
{
	struct mttclk *c = mttclk_new();
	struct mttclk_fit f;
	int64_t d, dev0 = 5000000000000LL;

	/* every bound exactly on ref = dev + (dev - dev0) / 2000 + 7 */
	for (d = 0; d <= 2000000000; d += 2000000) {
		mttclk_add_up(c, dev0 + d, dev0 + d + d / 2000 + 7, (uint64_t)d);
		mttclk_add_down(c, dev0 + d + 2000 + d / 2000 + 1 + 7,
				dev0 + d + 2000,
				(uint64_t)d + 1);
	}
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_OK, "touching bounds: OK");
	ok(f.drift_lo_ppm == 500 && f.drift_hi_ppm == 500 &&
	   fabs(f.drift_ppm - 500) < 1e-9,
	   "touching bounds: drift exactly 500 ppm (%.12f .. %.12f)",
	   f.drift_lo_ppm, f.drift_hi_ppm);
	ok(f.bound_ns <= 1e-6, "touching bounds: bound 0 (%g ns)", f.bound_ns);
	ok(mttclk_map(&f, dev0 + 1000000000) == dev0 + 1000000000 + 500000 + 7,
	   "touching bounds: the line itself");
	mttclk_free(c);
}

static void single_exchange(void)
{
	struct mttclk *c = mttclk_new();
	struct mttclk_fit f;

	/* t1 = 1000, t2 = 5000500, t3 = 5010500, t4 = 13000 */
	mttclk_add_down(c, 1000, 5000500, 1);
	mttclk_add_up(c, 5010500, 13000, 1);
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_OK, "one exchange: OK");
	ok(f.drift_ppm == 0 && f.drift_lo_ppm == -MTTCLK_MAX_DRIFT_PPM &&
	   f.drift_hi_ppm == MTTCLK_MAX_DRIFT_PPM,
	   "one exchange: drift 0 within the assumed +-%g ppm",
	   MTTCLK_MAX_DRIFT_PPM);
	ok(mttclk_map(&f, 5000500) == 2000,
	   "one exchange: t2 maps to t2 - theta (NTP's offset)");
	ok(fabs(f.bound_first_ns - 1010) < 1e-6 &&
	   fabs(f.bound_last_ns - 1010) < 1e-6 && f.bound_ns == f.bound_last_ns,
	   "one exchange: bound = round trip / 2 + 1000 ppm of the turnaround (%.3f)",
	   f.bound_ns);
	mttclk_free(c);
}

static void conflicts(void)
{
	const struct truth t = { -120, 1000000000000LL, 10000000000000LL };
	struct mttclk *c = mttclk_new();
	struct mttclk_fit f;
	int64_t dev;
	size_t n;

	/* a down bound above the up hull, nearer the first up bound */
	mttclk_add_up(c, 0, 100, 10);
	mttclk_add_up(c, 1000, 1100, 11);
	mttclk_add_down(c, 550, 400, 20);
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_CONFLICT && f.conflict_up_id == 10 &&
	   f.conflict_down_id == 20,
	   "conflict: a down bound above two up bounds: ids %llu, %llu",
	   (unsigned long long)f.conflict_up_id,
	   (unsigned long long)f.conflict_down_id);
	ok(isinf(f.bound_ns) && isinf(mttclk_bound_at(&f, 500)),
	   "conflict: bound infinite");
	mttclk_free(c);

	c = mttclk_new();
	mttclk_add_up(c, 5000, 5010, 1);
	mttclk_add_down(c, 5020, 5000, 2);
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_CONFLICT && f.conflict_up_id == 1 &&
	   f.conflict_down_id == 2, "conflict: up and down at one device time");
	mttclk_free(c);

	/* a good set, then one up bound 50 us before the truth */
	n = gen(&t, 10000000000LL, 200, 100000, 7, bs);
	c = load(bs, n);
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_OK, "conflict: the set alone is OK");
	dev = t.dev0 + 5000001234LL;
	mttclk_add_up(c, dev, (int64_t)true_ref(&t, dev) - 50000, 777777);
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_CONFLICT && f.conflict_up_id == 777777 &&
	   f.conflict_down_id % 2 == 0 && f.conflict_down_id < 400,
	   "conflict: a record arriving before it was sent: up %llu, down %llu",
	   (unsigned long long)f.conflict_up_id,
	   (unsigned long long)f.conflict_down_id);
	mttclk_free(c);

	/* a down bound 50 us after the truth */
	c = load(bs, n);
	dev = t.dev0 + 3000004321LL;
	mttclk_add_down(c, (int64_t)true_ref(&t, dev) + 50000, dev, 888888);
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_CONFLICT && f.conflict_down_id == 888888 &&
	   (f.conflict_up_id >= 1000000 ||
	    (f.conflict_up_id % 2 == 1 && f.conflict_up_id < 400)),
	   "conflict: a command received before it was sent: up %llu, down %llu",
	   (unsigned long long)f.conflict_up_id,
	   (unsigned long long)f.conflict_down_id);
	mttclk_free(c);
}

static void any_order(void)
{
	const struct truth t = { 500, 1000000000000LL, 10000000000000LL };
	struct mttclk *c, *d;
	struct mttclk_fit f, g;
	uint64_t seed = 99;
	size_t n, i;

	n = gen(&t, 10000000000LL, NEX, 100000, 3, bs);
	c = load(bs, n);
	for (i = n - 1; i > 0; i--) {
		size_t j = rnd(&seed) % (i + 1);
		struct bnd tmp = bs[i];

		bs[i] = bs[j];
		bs[j] = tmp;
	}
	d = load(bs, n);
	mttclk_solve(c, &f);
	mttclk_solve(d, &g);
	ok(mttclk_hull_points(c) == mttclk_hull_points(d),
	   "shuffled: the same hull (%zu points)", mttclk_hull_points(c));
	ok(g.status == MTTCLK_OK && g.drift_lo_ppm == f.drift_lo_ppm &&
	   g.drift_hi_ppm == f.drift_hi_ppm && g.drift_ppm == f.drift_ppm &&
	   g.dev_first == f.dev_first && g.dev_last == f.dev_last,
	   "shuffled: the same slopes and span");
	ok(fabs(g.b - f.b) < 1e-3 && fabs(g.bound_ns - f.bound_ns) < 1e-6,
	   "shuffled: the same line and bound");
	check_truth("shuffled", d, &g, &t, bs, n, 1);
	mttclk_free(c);
	mttclk_free(d);
}

static void one_sided(void)
{
	const struct truth t = { 500, 1000000000000LL, 10000000000000LL };
	struct mttclk *u = mttclk_new(), *w = mttclk_new();
	struct mttclk_fit f, g;
	int below = 1, above = 1;
	size_t n, i;

	n = gen(&t, 10000000000LL, NEX, 1000, 5, bs);
	for (i = 0; i < n; i++)
		add(bs[i].down ? w : u, &bs[i]);
	mttclk_solve(u, &f);
	mttclk_solve(w, &g);
	for (i = 0; i < n; i++) {
		if (!bs[i].down && mid(&f, bs[i].dev) > bs[i].ref + EPS)
			below = 0;
		if (bs[i].down && mid(&g, bs[i].dev) < bs[i].ref - EPS)
			above = 0;
	}
	ok(f.status == MTTCLK_ONE_SIDED && isinf(f.bound_ns) &&
	   isinf(f.bound_first_ns) && isinf(mttclk_bound_at(&f, t.dev0)) &&
	   isinf(f.drift_hi_ppm) && f.n_down == 0,
	   "up bounds only: ONE_SIDED, bound infinite");
	ok(below, "up bounds only: the line is below every up bound");
	ok(fabs(f.drift_ppm - 500) < 1,
	   "up bounds only: drift %.4f ppm (the hull's tangent at mid-span)",
	   f.drift_ppm);
	ok(g.status == MTTCLK_ONE_SIDED && isinf(g.bound_ns) && g.n_up == 0,
	   "down bounds only: ONE_SIDED, bound infinite");
	ok(above, "down bounds only: the line is above every down bound");
	ok(fabs(g.drift_ppm - 500) < 1, "down bounds only: drift %.4f ppm",
	   g.drift_ppm);
	mttclk_free(u);
	mttclk_free(w);
}

static void empty_and_errors(void)
{
	struct mttclk *c = mttclk_new();
	struct mttclk_fit f;
	double lo, hi;

	ok(!mttclk_solve(c, &f) && f.status == MTTCLK_EMPTY &&
	   isinf(f.bound_ns) && f.n_up == 0 && mttclk_map(&f, 12345) == 12345,
	   "no bounds: EMPTY, bound infinite, the identity");
	ok(mttclk_add_up(NULL, 0, 0, 0) == -EINVAL &&
	   mttclk_solve(NULL, &f) == -EINVAL && mttclk_solve(c, NULL) == -EINVAL,
	   "NULL: -EINVAL");
	ok(mttclk_add_up(c, 1, INT64_MIN, 0) == -ERANGE,
	   "ref - dev overflowing: -ERANGE");
	ok(!mttclk_add_up(c, 0, 10, 1) &&
	   mttclk_add_up(c, MTTCLK_RANGE_NS, MTTCLK_RANGE_NS, 2) == -ERANGE &&
	   mttclk_add_down(c, 10 + MTTCLK_RANGE_NS, 0, 3) == -ERANGE &&
	   mttclk_add_up(c, 1 - MTTCLK_RANGE_NS, 10, 4) == 0,
	   "2^61 ns from the first bound: -ERANGE, just inside accepted");
	mttclk_solve(c, &f);
	ok(f.n_up == 2 && f.n_down == 0, "refused bounds are not counted");
	mttclk_add_down(c, 0, 5, 5);
	ok(mttclk_band(c, &f, 0, &lo, &hi) == -EINVAL,
	   "mttclk_band with a stale fit: -EINVAL");
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_OK && !mttclk_band(c, &f, 0, &lo, &hi) &&
	   lo <= 0 && hi >= 0, "mttclk_band with a fresh fit");
	mttclk_free(c);
	mttclk_free(NULL);
}

/* 1e6 up bounds, 1e5 exchanges: the hull, not the count, sets the memory */
#define HULL_CEIL 64
static void million(void)
{
	const struct truth t = { 500, 1000000000000LL, 10000000000000LL };
	struct mttclk *c = mttclk_new();
	size_t at[4] = { 0 }, i, k = 0, max = 0;
	uint64_t seed = 1234;
	struct mttclk_fit f;
	int bad = 0;

	for (i = 1; i <= 1000000; i++) {
		int64_t dev = t.dev0 + (int64_t)i * 10000;

		bad |= mttclk_add_up(c, dev, (int64_t)ceill(true_ref(&t, dev)) +
				     delay(&seed, 100000), i);
		if (i % 10 == 0)
			bad |= mttclk_add_down(c, (int64_t)floorl(true_ref(&t, dev + 5000)) -
					       delay(&seed, 100000), dev + 5000, i);
		if (mttclk_hull_points(c) > max)
			max = mttclk_hull_points(c);
		if (i == 1000 || i == 10000 || i == 100000 || i == 1000000)
			at[k++] = mttclk_hull_points(c);
	}
	ok(!bad, "1.1e6 bounds added");
	diag("hull points after 1e3, 1e4, 1e5, 1e6 up bounds: %zu %zu %zu %zu (max %zu)",
	     at[0], at[1], at[2], at[3], max);
	ok(max <= HULL_CEIL, "1.1e6 bounds: never more than %d hull points held (%zu)",
	   HULL_CEIL, max);
	mttclk_solve(c, &f);
	ok(f.status == MTTCLK_OK && f.n_up == 1000000 && f.n_down == 100000 &&
	   f.drift_lo_ppm <= 500 && f.drift_hi_ppm >= 500,
	   "1.1e6 bounds: OK, the drift inside [%.6f, %.6f]", f.drift_lo_ppm,
	   f.drift_hi_ppm);
	mttclk_free(c);
}

/*
 * Small random sets against a brute force written from the definition:
 * the feasible lines form a polygon in (slope, offset) whose corners are
 * lines through two bounds, so the lines through every pair that satisfy
 * every bound (an exact integer test) contain its corners: the set is
 * feasible iff one exists, the slope range and the band at any device
 * time are their extremes.  Sets where no pair limits a slope (where the
 * library assumes a maximum drift) are checked for status only.
 */
#define BF_SETS 3000
#define BF_MAX 14
/* device times 1 ms apart, offsets in ns: drifts of tens of ppm */
#define BF_XS 1000000

static int bf_sat(const struct bnd *p, const struct bnd *q, const struct bnd *b,
		  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* > 0: b[i] above the line p -> q (p.dev < q.dev) */
		__extension__ __int128 cr =
			(__int128)(q->dev - p->dev) * ((b[i].ref - b[i].dev) - (p->ref - p->dev)) -
			(__int128)((q->ref - q->dev) - (p->ref - p->dev)) * (b[i].dev - p->dev);

		if (b[i].down ? cr > 0 : cr < 0)
			return 0;
	}
	return 1;
}

/* a line through two bounds: ref - dev = y0 + s * (dev - x0) */
struct bf_line {
	long double s;
	int64_t x0, y0;
};

/* every line through two bounds that satisfies all n; their count */
static size_t bf_lines(const struct bnd *b, size_t n, struct bf_line *out)
{
	size_t i, j, nf = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int64_t yi = b[i].ref - b[i].dev, yj = b[j].ref - b[j].dev;

			if (b[i].dev >= b[j].dev || !bf_sat(&b[i], &b[j], b, n))
				continue;
			out[nf++] = (struct bf_line){
				(long double)(yj - yi) / (b[j].dev - b[i].dev),
				b[i].dev, yi };
		}
	return nf;
}

/* the brute force's band at dev against mttclk_band() */
static int bf_band_ok(const struct mttclk *c, const struct mttclk_fit *f,
		      const struct bf_line *l, size_t nf, int64_t dev)
{
	long double ymin = INFINITY, ymax = -INFINITY, m = mid(f, dev);
	double below, above;
	size_t i;

	for (i = 0; i < nf; i++) {
		long double y = dev + l[i].y0 + l[i].s * (dev - l[i].x0);

		ymin = fminl(ymin, y);
		ymax = fmaxl(ymax, y);
	}
	return !mttclk_band(c, f, dev, &below, &above) &&
	       fabsl(m + below - ymin) <= EPS && fabsl(m + above - ymax) <= EPS;
}

/* |got - want| within a millionth (ppm) */
static int near_ppm(double got, long double want)
{
	return fabsl(got - want) <= 1e-6L * fabsl(want) + 1e-6L;
}

static void brute_force(void)
{
	int status_ok = 1, slopes_ok = 1, band_ok = 1, ids_ok = 1, sat_ok = 1;
	int nconf = 0, nok = 0, nopen = 0;
	struct bf_line lines[BF_MAX * BF_MAX];
	uint64_t seed = 2026;
	struct bnd b[BF_MAX];
	size_t set;

	for (set = 0; set < BF_SETS; set++) {
		size_t n = 4 + rnd(&seed) % (BF_MAX - 3), i, j, k, nf;
		long double slo = INFINITY, shi = -INFINITY;
		int has_lo = 0, has_hi = 0, distinct = 0, ups = 0;
		struct mttclk *c = mttclk_new();
		struct mttclk_fit f;

		for (i = 0; i < n; i++) {
			int64_t x = (int64_t)(rnd(&seed) % 40);
			int down = i % 2 ? (int)(rnd(&seed) % 2) : (i / 2) % 2;
			int64_t y = down ? -(int64_t)(rnd(&seed) % 120) + 20 :
					   (int64_t)(rnd(&seed) % 120) - 20;

			b[i] = (struct bnd){ down, 1000000000000LL + x * BF_XS,
					     1000000000000LL + x * BF_XS + y, i };
			ups += !down;
			add(c, &b[i]);
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				distinct |= b[i].dev != b[j].dev;
				if (!b[i].down && b[j].down) {
					has_hi |= b[i].dev > b[j].dev;
					has_lo |= b[i].dev < b[j].dev;
				}
			}
		if (!distinct || !ups || ups == (int)n) {
			mttclk_free(c);
			continue;
		}
		mttclk_solve(c, &f);
		nf = bf_lines(b, n, lines);
		for (i = 0; i < nf; i++) {
			slo = fminl(slo, lines[i].s);
			shi = fmaxl(shi, lines[i].s);
		}
		if ((f.status == MTTCLK_CONFLICT) != !nf)
			status_ok = 0;
		if (f.status == MTTCLK_CONFLICT) {
			nconf++;
			if (f.conflict_up_id >= n || f.conflict_down_id >= n ||
			    b[f.conflict_up_id].down || !b[f.conflict_down_id].down)
				ids_ok = 0;
		} else if (!has_lo || !has_hi) {
			nopen++;
		} else {
			nok++;
			if (!near_ppm(f.drift_lo_ppm, slo * 1e6L) ||
			    !near_ppm(f.drift_hi_ppm, shi * 1e6L))
				slopes_ok = 0;
			for (k = 0; k < 12; k++)
				if (!bf_band_ok(c, &f, lines, nf, 1000000000000LL +
						((int64_t)k * 5 - 10) * BF_XS))
					band_ok = 0;
			for (i = 0; i < n; i++) {
				long double m = mid(&f, b[i].dev);

				if (b[i].down ? m < b[i].ref - EPS : m > b[i].ref + EPS)
					sat_ok = 0;
			}
		}
		mttclk_free(c);
	}
	diag("brute force: %d conflicts, %d with both slopes limited, %d open",
	     nconf, nok, nopen);
	ok(status_ok, "brute force: CONFLICT exactly when no line satisfies every bound");
	ok(ids_ok && nconf > 100,
	   "brute force: each conflict names an up and a down bound of the set (%d)", nconf);
	ok(slopes_ok && nok > 100,
	   "brute force: drift_lo/hi are the extreme feasible slopes (%d sets)", nok);
	ok(band_ok,
	   "brute force: mttclk_band() is the exact band, at 12 device times in and around the span");
	ok(sat_ok, "brute force: the middle line satisfies every bound");
}

/*
 * Up bounds on a convex curve (a delay of 1 + k^2 ns, k the distance
 * from mid-span in steps): every one is a hull vertex, until the hull is full; the
 * truth must stay inside what the capped hull reports.
 */
static void capped(void)
{
	const struct truth t = { -120, 1000000000000LL, 10000000000000LL };
	struct mttclk *c = mttclk_new();
	struct mttclk_fit f;
	uint64_t seed = 77;
	size_t i, n = 0, max = 0;
	int bad = 0;

	for (i = 0; i < 20000; i++) {
		int64_t dev = t.dev0 + (int64_t)i * 500000;
		int64_t k = (int64_t)i - 10000;

		bs[n] = (struct bnd){ 0, dev, (int64_t)ceill(true_ref(&t, dev)) +
				      1 + k * k, 1000000 + i };
		bad |= add(c, &bs[n++]);
		if (i % 100 == 0) {
			bs[n] = (struct bnd){ 1, dev + 1000,
				(int64_t)floorl(true_ref(&t, dev + 1000)) -
				delay(&seed, 1000), i };
			bad |= add(c, &bs[n++]);
		}
		if (mttclk_hull_points(c) > max)
			max = mttclk_hull_points(c);
	}
	ok(!bad, "capped: %zu bounds added", n);
	ok(max >= MTTCLK_HULL_MAX && max <= MTTCLK_HULL_MAX + 200,
	   "capped: the up hull filled, never more than %d + the 200 down bounds held (%zu)",
	   MTTCLK_HULL_MAX, max);
	mttclk_solve(c, &f);
	check_truth("capped", c, &f, &t, bs, n, 0);
	mttclk_free(c);
}

int main(void)
{
	synthetic();
	touching();
	single_exchange();
	conflicts();
	any_order();
	one_sided();
	empty_and_errors();
	million();
	brute_force();
	capped();
	return done_testing();
}
