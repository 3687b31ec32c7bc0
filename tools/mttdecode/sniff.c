// SPDX-License-Identifier: GPL-2.0
/*
 * sniff.c - telling the kind of an input from its first bytes
 * (--input=auto), once per input, before any of it is decoded:
 *
 *  - Intel TH MSC blocks or CoreSight frames (frame.c), before all else;
 *  - MTT: the first word is an MTT sync word (version 1.0);
 *  - STP: an ASYNC (21 nibbles F then a 0 nibble, at any nibble);
 *  - reference printer text: "SYS-T RAW DATA:";
 *    whichever of these two comes first wins;
 *  - neither within SNIFF_MAX bytes (or the whole input): plain SyS-T
 *    when messages frame back to back from the first byte to the end of
 *    what was read (mttd_syst_probe()); else STP, whose decoder goes on
 *    hunting for an ASYNC (and the input is reported as not synchronised
 *    if it never finds one).
 */
#include <string.h>

#include "cli.h"

static const char marker[] = "SYS-T RAW DATA:";

/* offset of the first ASYNC in p[0..n), or n */
static size_t find_async(const uint8_t *p, size_t n)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		uint8_t b = p[i];
		int hi_f;

		if (b == 0xff) {
			run++;
			continue;
		}
		/* 21 F nibbles and a 0 nibble end here (low nibble first) */
		hi_f = i > run && (p[i - run - 1] >> 4) == 0xf;
		if ((b == 0x0f && run >= 10) ||
		    (!(b & 0x0f) && (run >= 11 || (run == 10 && hi_f))))
			return i - run - (run == 10 && b != 0x0f);
		run = 0;
	}
	return n;
}

/* offset of the first text marker in p[0..n), or n */
static size_t find_marker(const uint8_t *p, size_t n)
{
	const size_t k = sizeof(marker) - 1;
	const uint8_t *c = p, *end = p + n;

	while ((size_t)(end - c) >= k &&
	       (c = memchr(c, 'S', (size_t)(end - c) - k + 1))) {
		if (!memcmp(c, marker, k))
			return (size_t)(c - p);
		c++;
	}
	return n;
}

int sniff_kind(struct app *a, const uint8_t *p, size_t n, int final)
{
	/* p[0..scanned) held neither: look again only from where one that
	 * ends past it could start (an ASYNC may start 12 bytes earlier) */
	size_t from = a->sniff_scanned > 16 ? a->sniff_scanned - 16 : 0;
	size_t as = from + find_async(p + from, n - from);
	size_t tx = from + find_marker(p + from, n - from);
	int clean, fr = sniff_frame(p, n, final);

	if (fr != -1)
		return fr;	/* framed (frame.c), or too short to tell */
	a->sniff_scanned = n;
	/* a raw MTT file: a sync word at offset 0 */
	if (mttd_mtt_frame_len(p, n) > 0)
		return IN_MTT;
	if (as < n || tx < n)
		return as < tx ? IN_STP : IN_SYSTTEXT;
	if (!final && n < SNIFF_MAX)
		return IN_AUTO;
	if (mttd_syst_probe(a->syst, p, n, final, &clean) && clean)
		return IN_SYST;
	return IN_STP;
}
