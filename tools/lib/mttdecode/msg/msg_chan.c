// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * msg_chan.c - the table of open messages: slots, hash, open-order list
 * and the bounded per-message byte buffers.
 */
#include <stdlib.h>

#include "internal/msg_chan.h"

#define BUF_MIN		256

int mttd__chans_init(struct mttd__chans *t, uint32_t max_open,
		     uint32_t max_len)
{
	uint32_t nb = 16, i;

	while (nb < 2 * max_open)
		nb <<= 1;
	t->slot = calloc(max_open, sizeof(*t->slot));
	t->bucket = malloc(nb * sizeof(*t->bucket));
	if (!t->slot || !t->bucket) {
		free(t->slot);
		free(t->bucket);
		return -1;
	}
	for (i = 0; i < nb; i++)
		t->bucket[i] = -1;
	for (i = 0; i < max_open; i++)
		t->slot[i].next = i + 1 < max_open ? (int32_t)i + 1 : -1;
	t->mask = nb - 1;
	t->max_open = max_open;
	t->max_len = max_len;
	t->nopen = 0;
	t->head = t->tail = -1;
	t->free_head = 0;
	return 0;
}

void mttd__chans_fini(struct mttd__chans *t)
{
	uint32_t i;

	if (!t->slot)
		return;
	for (i = 0; i < t->max_open; i++)
		free(t->slot[i].buf);
	free(t->slot);
	free(t->bucket);
	t->slot = NULL;
	t->bucket = NULL;
}

void mttd__append_slow(struct mttd__chans *t, struct mttd__slot *s,
		       uint64_t v, unsigned int n)
{
	unsigned int i;

	if (s->len + n > s->cap && s->cap < t->max_len) {
		uint32_t cap = s->cap ? s->cap : BUF_MIN;
		uint8_t *nb;

		while (cap < s->len + n + 8 && cap < t->max_len)
			cap *= 2;
		if (cap > t->max_len)
			cap = t->max_len;
		nb = realloc(s->buf, cap);
		if (nb) {
			s->buf = nb;
			s->cap = cap;
		}
	}
	for (i = 0; i < n; i++) {
		if (s->len >= s->cap) {
			s->truncated = 1;
			return;
		}
		s->buf[s->len++] = (uint8_t)(v >> (8 * i));
	}
}
