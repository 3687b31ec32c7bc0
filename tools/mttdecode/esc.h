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

#endif
