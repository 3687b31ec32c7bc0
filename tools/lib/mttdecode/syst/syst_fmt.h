/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syst_fmt.h - rendering a printf-style format with arguments packed the
 * SyS-T way (internal): arguments follow each other without alignment;
 * int, char, wint_t and '*' widths/precisions are 32 bits; long, size_t,
 * ptrdiff_t and pointers are 32 or 64 bits (ptr); long long and intmax_t
 * 64 bits; every floating type a 64-bit double; %s strings are inline
 * and NUL-terminated.  The format is never trusted: an argument that is
 * not in the buffer renders as "<?>" and sets .missing; widths and
 * precisions are capped; unknown conversions are copied as text.
 */
#ifndef MTTD_SYST_FMT_H
#define MTTD_SYST_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/syst.h"
#include "internal/tbuf.h"

#define MTTD_FMT_MAX_WIDTH 512	/* widths and precisions are capped */

struct mttd__args {
	const uint8_t *p;	/* argument bytes */
	size_t n;
	size_t pos;		/* next argument byte */
	unsigned int ptr;	/* 4 or 8 */
	int missing;		/* an argument was not in the buffer */
	struct mttd_syst_msg *m;/* numeric arguments are recorded here */
	int plain;		/* mttd__fmt_run(): what it wrote into tb
				 * is all plain bytes (internal/plain.h) */
	int avx2;		/* for mttd__plain_run() */
};

/*
 * Render fmt[0..flen) (it ends early at a NUL) into tb, taking arguments
 * from a.  With tb NULL only the arguments are consumed (to find where
 * they end).
 */
void mttd__fmt(struct mttd__tbuf *tb, const char *fmt, size_t flen,
	       struct mttd__args *a);

struct mttd__fmtc;

/*
 * Render a format compiled by mttd__fmt_compile() into tb (not NULL):
 * the same text, arguments and .missing as mttd__fmt() of the format;
 * .plain set when every byte it wrote is plain (the literals are known
 * so when compiled, digits always are; other conversions' output is
 * looked at).
 */
void mttd__fmt_run(struct mttd__tbuf *tb, const struct mttd__fmtc *c,
		   struct mttd__args *a);

/* append a code point as UTF-8 (U+FFFD for invalid ones) */
void mttd__utf8(struct mttd__tbuf *tb, uint32_t cp);

#endif
