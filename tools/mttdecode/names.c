// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - names that come back on many lines (policy nodes, collateral
 * clients and modules, severities) escaped as text once: a small cache,
 * direct-mapped by the address of the name, so that the one-pass line
 * writers copy them instead of escaping them again.  The names live as
 * long as the app (policy, collateral, the library's tables); a
 * collision only escapes again.  Each field of a line has its own cache,
 * so that looking up one field's name cannot evict another's.
 */
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "esc.h"

/* the miss path of name_esc() (cli.h): escape s into c */
const struct name_cache *name_esc_fill(struct name_cache *c,
				       const char *s)
{
	char tmp[4 * 256];
	size_t n, len;

	n = strlen(s);
	if (n > 256)
		return NULL;
	len = (size_t)(put_esc_text(tmp, s, n) - tmp);
	if (len > NAME_MAX_ESC)
		return NULL;
	memcpy(c->str, tmp, len);
	c->len = len;
	c->key = s;
	return c;
}
