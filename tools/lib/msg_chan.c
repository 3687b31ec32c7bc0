// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * msg_chan.c - the table of open messages: slots, hash, open-order list
 * and the bounded per-message byte buffers.
 */
#include <stdlib.h>

#include "msg_chan.h"

#define BUF_MIN		256
#define BUF_KEEP	4096	/* larger buffers are freed on close */

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

static uint32_t hash(const struct mttd__chans *t, uint32_t key)
{
	return (uint32_t)((key * 0x9e3779b1u) >> 7) & t->mask;
}

int32_t mttd__chans_find(const struct mttd__chans *t, uint32_t key)
{
	int32_t i = t->bucket[hash(t, key)];

	while (i >= 0 && t->slot[i].key != key)
		i = t->slot[i].hnext;
	return i;
}

int32_t mttd__chans_open(struct mttd__chans *t, uint32_t key)
{
	int32_t i = t->free_head;
	struct mttd__slot *s;
	uint32_t h = hash(t, key);

	if (i < 0)
		return -1;
	s = &t->slot[i];
	t->free_head = s->next;
	s->key = key;
	s->hnext = t->bucket[h];
	t->bucket[h] = i;
	s->prev = t->tail;
	s->next = -1;
	if (t->tail >= 0)
		t->slot[t->tail].next = i;
	else
		t->head = i;
	t->tail = i;
	t->nopen++;
	s->len = 0;
	s->truncated = 0;
	return i;
}

void mttd__chans_close(struct mttd__chans *t, int32_t i)
{
	struct mttd__slot *s = &t->slot[i];
	int32_t *pp = &t->bucket[hash(t, s->key)];

	while (*pp != i)
		pp = &t->slot[*pp].hnext;
	*pp = s->hnext;
	if (s->prev >= 0)
		t->slot[s->prev].next = s->next;
	else
		t->head = s->next;
	if (s->next >= 0)
		t->slot[s->next].prev = s->prev;
	else
		t->tail = s->prev;
	t->nopen--;
	if (s->cap > BUF_KEEP) {
		free(s->buf);
		s->buf = NULL;
		s->cap = 0;
	}
	s->next = t->free_head;
	t->free_head = i;
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
