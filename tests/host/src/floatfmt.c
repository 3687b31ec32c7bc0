// SPDX-License-Identifier: GPL-2.0
/*
 * floatfmt.c - every double a SyS-T PRINTF message carries, rendered by
 * libmttdecode, against the C library's printf() of the same format and
 * value (the MIPI reference printer renders doubles with the host's
 * printf(), so this is the printer's text).  Messages come from the
 * spec-written encoder (tests/host/enc/systenc.c).  Values: rounding edge
 * cases (ties at every precision, k/2^j, values just below a power of
 * ten, -0, subnormals, 2^53, 2^63, 2^64, the largest double, infinities,
 * NaN), random doubles at every scale and random bit patterns; formats:
 * %f at precisions 0..17 and beyond, with a width, %F, and formats the
 * C library still does (flags, %e, %g).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/syst.h"
#include "systenc.h"
#include "tap.h"

static const char *const fmts[] = {
	"%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f",
	"%.7f", "%.9f", "%.10f", "%.12f", "%.15f", "%.16f", "%.17f", "%.18f",
	"%.25f", "%12.3f", "%3.1f", "%F", "%.2F", "%+.2f", "%-12.4f|",
	"%08.3f", "% f", "%#.0f", "%e", "%.3g", "%.20g",
};
#define NFMT (sizeof(fmts) / sizeof(fmts[0]))

struct got {
	char text[512];
	int n;
};

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	struct got *g = ctx;
	size_t n = m->text_len < sizeof(g->text) - 1 ? m->text_len :
		   sizeof(g->text) - 1;

	memcpy(g->text, m->text, n);
	g->text[n] = 0;
	g->n++;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double from_bits(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

/* the edge cases, then random values: the i-th value */
static double value(size_t i, size_t *nedge)
{
	static const double edge[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 3.5, 0.125, 0.375, -0.625,
		0.25, 0.75, 0.05, 0.15, 0.35, 1e-7, 5e-7, 4.9999995e-7,
		9.9999995, 9.5, 99.95, 999.9995, 0.9999999999, 1e15 + 0.5,
		4503599627370495.5, 9007199254740992.0, 9007199254740991.0,
		9223372036854775808.0, 9223372036854774784.0,
		18446744073709551616.0, 18446744073709549568.0, 1e300,
		DBL_MIN, DBL_TRUE_MIN, DBL_MAX, -DBL_MAX, 123456.7890125,
		1.0000000000000002, 0.1, 0.2, 0.3, 2.675, 1.005, 1.115,
		1e-300, 3.0e-5, 0.0001220703125, 1099511627776.5,
	};
	size_t ne = sizeof(edge) / sizeof(edge[0]);

	*nedge = ne + 3;
	if (i < ne)
		return edge[i];
	if (i == ne)
		return INFINITY;
	if (i == ne + 1)
		return -INFINITY;
	if (i == ne + 2)
		return NAN;
	switch (i % 4) {
	case 0:		/* a tie at some precision: k / 2^j */
		return (double)(int64_t)(rnd64() % 2000001 - 1000000) /
		       (double)(1ull << (rnd64() % 24));
	case 1:		/* any scale */
		return (double)(int64_t)(rnd64() >> 11) /
		       pow(10.0, (double)(rnd64() % 40) - 5.0) *
		       ((rnd64() & 1) ? 1 : -1);
	case 2:		/* any bits */
		return from_bits(rnd64());
	default:	/* exponents near 2^-60 .. 2^64 */
		return from_bits((rnd64() & 0x800fffffffffffffull) |
				 (uint64_t)(1023 - 60 + rnd64() % 124) << 52);
	}
}

int main(void)
{
	struct got g = { .n = 0 };
	struct mttd_syst_config cfg = { .fn = on_msg, .ctx = &g };
	struct mttd_syst *s = mttd_syst_new(&cfg);
	struct mttd_syst_src src = { .offset = 0 };
	struct systenc pl, msg;
	size_t i, f, nedge = 0, count = 0, bad[NFMT] = { 0 };
	const size_t nval = 40000;

	if (!s)
		return 1;
	systenc_init(&pl);
	systenc_init(&msg);
	for (i = 0; i < nval; i++) {
		double d = value(i, &nedge);

		for (f = 0; f < NFMT; f++) {
			char want[512];
			int before = g.n;

			pl.len = msg.len = 0;
			/* PRINTF_32: the format, NUL, the double */
			systenc_put(&pl, fmts[f], strlen(fmts[f]) + 1);
			systenc_f64(&pl, d);
			systenc_msg(&msg, SYSTENC_TYPE(2) | SYSTENC_SUB(11) |
				    SYSTENC_SEV(4), 0, &pl);
			if (pl.oom || msg.oom)
				return 1;
			mttd_syst_decode(s, &src, msg.buf, msg.len);
			snprintf(want, sizeof(want), fmts[f], d);
			count++;
			if (g.n == before + 1 && !strcmp(g.text, want))
				continue;
			if (bad[f]++ < 3)
				diag("%s of %a: got \"%s\", printf \"%s\"",
				     fmts[f], d, g.n == before + 1 ? g.text :
				     "(no message)", want);
		}
	}
	ok(nedge > 0, "%zu edge cases first, then random values", nedge);
	for (f = 0; f < NFMT; f++)
		ok(!bad[f], "%-8s as printf() for %zu values (%zu differ)",
		   fmts[f], nval, bad[f]);
	ok(count == nval * NFMT, "%zu messages decoded and compared", count);
	systenc_free(&pl);
	systenc_free(&msg);
	mttd_syst_free(s);
	return done_testing();
}
