/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * msg_chan.h - the table of open messages, one per (master, channel)
 * (internal).
 *
 * A fixed array of max_open slots, a chained hash from the 32-bit key
 * (master << 16 | channel) to a slot, and a list of open slots in the
 * order they were opened (the head is the one to evict).  Message bytes
 * live in a per-slot buffer grown by doubling up to max_len.
 */
#ifndef MTTD_MSG_CHAN_H
#define MTTD_MSG_CHAN_H

#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

struct mttd__slot {
	uint8_t *buf;
	uint32_t len;
	uint32_t cap;
	uint32_t key;
	int32_t hnext;		/* hash chain */
	int32_t prev;		/* open list (next: also the free list) */
	int32_t next;
	uint64_t offset;
	uint64_t ts;
	uint8_t has_ts;
	uint8_t truncated;
};

struct mttd__chans {
	struct mttd__slot *slot;
	int32_t *bucket;
	uint32_t mask;		/* buckets - 1 */
	uint32_t max_open;
	uint32_t max_len;
	uint32_t nopen;
	int32_t head;		/* oldest open */
	int32_t tail;
	int32_t free_head;
};

int mttd__chans_init(struct mttd__chans *t, uint32_t max_open,
		     uint32_t max_len);
void mttd__chans_fini(struct mttd__chans *t);

/*
 * Find, open and close are inline: the message layer opens and closes a
 * slot for every message, and a call into another file cost about as
 * much as their work.
 */
#define MTTD_CHANS_BUF_KEEP	4096	/* larger buffers are freed on close */

static inline uint32_t mttd__chans_hash(const struct mttd__chans *t,
					uint32_t key)
{
	return (uint32_t)((key * 0x9e3779b1u) >> 7) & t->mask;
}

/* slot index or -1 */
static inline int32_t mttd__chans_find(const struct mttd__chans *t,
				       uint32_t key)
{
	int32_t i = t->bucket[mttd__chans_hash(t, key)];

	while (i >= 0 && t->slot[i].key != key)
		i = t->slot[i].hnext;
	return i;
}

/* a free slot for key, appended to the open list; needs nopen < max_open */
static inline int32_t mttd__chans_open(struct mttd__chans *t, uint32_t key)
{
	int32_t i = t->free_head;
	struct mttd__slot *s;
	uint32_t h = mttd__chans_hash(t, key);

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

static inline void mttd__chans_close(struct mttd__chans *t, int32_t i)
{
	struct mttd__slot *s = &t->slot[i];
	int32_t *pp = &t->bucket[mttd__chans_hash(t, s->key)];

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
	if (s->cap > MTTD_CHANS_BUF_KEEP) {
		free(s->buf);
		s->buf = NULL;
		s->cap = 0;
	}
	s->next = t->free_head;
	t->free_head = i;
}

/* Append n (1..8) bytes of v, least significant first, growing the
 * buffer or truncating; the slow path of mttd__append. */
void mttd__append_slow(struct mttd__chans *t, struct mttd__slot *s,
		       uint64_t v, unsigned int n);

/*
 * The fast path: one 8-byte little-endian store at buf + len (only the
 * first n bytes count), when 8 bytes fit below cap.  Returns 0 if not.
 */
static inline int mttd__put8(uint8_t *buf, uint32_t len, uint32_t cap,
			     uint64_t v)
{
	if (len + 8 > cap)
		return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(buf + len, &v, 8);
	return 1;
}

static inline void mttd__append(struct mttd__chans *t, struct mttd__slot *s,
				uint64_t v, unsigned int n)
{
	if (mttd__put8(s->buf, s->len, s->cap, v))
		s->len += n;
	else
		mttd__append_slow(t, s, v, n);
}

#endif
