/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plain.h - how many bytes at the start of a text need no escaping in
 * any output format (internal): printable ASCII, 0x20 to 0x7e, other
 * than '"' and '\\'.  The decoder flags a message's text that is all
 * such bytes (MTTD_SYST_F_PLAIN), so that a printer can copy it as it
 * is instead of passing it through its escaper.
 */
#ifndef MTTD_PLAIN_H
#define MTTD_PLAIN_H

#include <stddef.h>
#include <stdint.h>

static inline int mttd__plain_byte(uint8_t c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/*
 * The length of the run of plain bytes at s[0..n): 32 bytes a step in
 * AVX2 when avx2 (the caller asked the CPU once, as mttd_syst_new()
 * does), else 16 in SSE2, else 8 in a word; the last step overlaps the
 * one before instead of a tail byte by byte.  Reads only s[0..n).
 */
size_t mttd__plain_run(const void *s, size_t n, int avx2);

#endif
