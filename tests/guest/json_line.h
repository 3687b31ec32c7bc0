/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_line.h - readers of the flat JSON lines mttdecode writes, for the
 * guest checkers (syst_check, mtt_check): a key's value, as a number or
 * a string pointed into the line, and hex "data" cells decoded to bytes.
 * Enough for mttdecode's own output (one object a line, no nesting, no
 * escaped quotes in the values read); not a JSON parser.
 */
#ifndef GUEST_JSON_LINE_H
#define GUEST_JSON_LINE_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/mttdecode/include/internal/hex.h"	/* mttd_hexval(), the decoder's own */

/* Where the value of "key" starts in line, or NULL. */
static inline const char *json_val(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(line, pat);
	return p ? p + strlen(pat) : NULL;
}

/* A decimal number value into *v; 0, or -1 if absent or not a number. */
static inline int json_num(const char *line, const char *key,
			   unsigned long long *v)
{
	const char *p = json_val(line, key);

	if (!p || !isdigit((unsigned char)*p))
		return -1;
	*v = strtoull(p, NULL, 10);
	return 0;
}

/* A string value, pointed into line; its length in *len. */
static inline const char *json_str(const char *line, const char *key,
				   size_t *len)
{
	const char *p = json_val(line, key), *e;

	if (!p || *p != '"')
		return NULL;
	e = strchr(p + 1, '"');
	if (!e)
		return NULL;
	*len = (size_t)(e - p - 1);
	return p + 1;
}

/* Does the value of key start with val (e.g. "\"mtt\"")? */
static inline int json_is(const char *line, const char *key, const char *val)
{
	const char *p = json_val(line, key);

	return p && !strncmp(p, val, strlen(val));
}

/* Decode n hex digits into out; the bytes, or -1 if malformed. */
static inline long unhex(const char *s, size_t n, unsigned char *out)
{
	size_t i;

	if (n % 2)
		return -1;
	for (i = 0; i < n / 2; i++) {
		int hi = mttd_hexval(s[2 * i]), lo = mttd_hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

#endif
