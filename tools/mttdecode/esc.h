/* SPDX-License-Identifier: GPL-2.0 */
/*
 * esc.h - writing trace text safely: as text for a terminal or inside a
 * JSON string.  Text from a trace can hold any bytes; valid UTF-8
 * sequences pass through, everything else is escaped so the output stays
 * valid UTF-8 (and valid JSON).  CSV cells are written by fmt_csv.c.
 */
#ifndef MTTD_CLI_ESC_H
#define MTTD_CLI_ESC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal/simd.h"
#include "out.h"

/* length of the valid UTF-8 multi-byte sequence at p (2..4), or 0 */
unsigned int utf8_seq(const uint8_t *p, size_t n);

/*
 * text: printable ASCII and valid UTF-8 as is; \n \r \t \\ (and \" when
 * quotes is set) escaped; other bytes \xNN.
 */
void esc_text(struct out *o, const void *s, size_t n, int quotes);
/* as esc_text() without quotes, into b, which has room for 4 * n bytes
 * (what n bytes escape to at most); returns the end */
char *put_esc_text(char *b, const void *s, size_t n);
/* JSON string content: \" \\ \n \r \t \b \f, other controls and bytes
 * that are not valid UTF-8 as \u00NN */
void esc_json(struct out *o, const void *s, size_t n);
/* a JSON string with its quotes, or null for NULL */
void json_str(struct out *o, const char *s);

#if MTTD_SSE2
static inline void copy16(char *b, const char *s)
{
	_mm_storeu_si128((__m128i *)b, _mm_loadu_si128((const __m128i *)s));
}
#endif

/*
 * A text that needs no escaping in any format (a message text flagged
 * MTTD_SYST_F_PLAIN: the same as text, in JSON and as a CSV cell), n
 * bytes at s, nothing readable past them, to b: 32 bytes a step, the
 * last 32 as two stores overlapping the ones before; 16 to 31 bytes, two
 * overlapping copies of 16; under 16, of 8 or 4, or bytes.
 * Writes only b[0..n).
 */
static inline char *put_plain(char *b, const char *s, size_t n)
{
	size_t i = 0;

	if (n >= 16) {
#if MTTD_SSE2
		if (n < 32) {
			copy16(b, s);
			copy16(b + n - 16, s + n - 16);
			return b + n;
		}
		/* 32 bytes a step, as the library's scan for plain bytes
		 * (mttd__plain_run) steps over the same text just before:
		 * the loop ends after as many steps as that one, which the
		 * branch predictor can tell from its history */
		for (; i + 32 <= n; i += 32) {
			copy16(b + i, s + i);
			copy16(b + i + 16, s + i + 16);
		}
		if (i != n) {
			copy16(b + n - 32, s + n - 32);
			copy16(b + n - 16, s + n - 16);
		}
		return b + n;
#else
		memcpy(b, s, n);
		return b + n;
#endif
	}
	if (n >= 8) {
		memcpy(b, s, 8);
		memcpy(b + n - 8, s + n - 8, 8);
		return b + n;
	}
	if (n >= 4) {
		memcpy(b, s, 4);
		memcpy(b + n - 4, s + n - 4, 4);
		return b + n;
	}
	for (; i < n; i++)
		b[i] = s[i];
	return b + n;
}

/*
 * A JSON string's text or a CSV cell's: if plain (the message's text
 * flagged MTTD_SYST_F_PLAIN) and within one reservation of o, written
 * as it is: 1; else 0, and the caller escapes it.
 */
static inline int out_plain(struct out *o, int plain, const char *s,
			    size_t n)
{
	if (!plain || n > OUT_BUF / 2)
		return 0;
	out_end(o, put_plain(out_room(o, n), s, n));
	return 1;
}

#endif
