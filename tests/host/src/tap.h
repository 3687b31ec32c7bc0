/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - minimal TAP producer for the C host tests: ok(), is_str(),
 * is_u64(), diag(), done_testing() (plan printed at the end).
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline int is_str(const char *got, const char *want, const char *name)
{
	int r = ok(!strcmp(got, want), "%s", name);

	if (!r) {
		diag("got:\n%s", got);
		diag("expected:\n%s", want);
	}
	return r;
}

static inline int is_u64(uint64_t got, uint64_t want, const char *name)
{
	int r = ok(got == want, "%s", name);

	if (!r)
		diag("got %llu, expected %llu", (unsigned long long)got,
		     (unsigned long long)want);
	return r;
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
