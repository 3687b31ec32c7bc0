// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * state.c - the byte string the decoders write their state into (see
 * state.h); each decoder's own part is next to its definition.
 */
#include <stdlib.h>
#include <string.h>

#include "internal/state.h"

void mttd__blob_put(struct mttd__blob *b, const void *s, size_t n)
{
	if (b->oom || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void mttd__blob_free(struct mttd__blob *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int mttd__blob_eq(const struct mttd__blob *a, const struct mttd__blob *b)
{
	return !a->oom && !b->oom && a->len == b->len &&
	       (!a->len || !memcmp(a->p, b->p, a->len));
}
