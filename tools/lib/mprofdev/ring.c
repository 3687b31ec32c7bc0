// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ring.c - the lock-free record ring (see ring.h).  Freestanding.
 */
#include "ring.h"

#define NO_INSTR __attribute__((no_instrument_function))

NO_INSTR void ring_init(struct ring *q, struct ring_slot *slot,
			unsigned int order)
{
	size_t i, n = (size_t)1 << order;

	q->slot = slot;
	for (i = 0; i < n; i++)
		atomic_init(&q->slot[i].seq, i);
	q->mask = n - 1;
	atomic_init(&q->head, 0);
	atomic_init(&q->tail, 0);
}

NO_INSTR int ring_push(struct ring *q, const struct mprof_record *r)
{
	size_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
	struct ring_slot *s;

	for (;;) {
		size_t seq;

		s = &q->slot[pos & q->mask];
		seq = atomic_load_explicit(&s->seq, memory_order_acquire);
		if (seq == pos) {
			if (atomic_compare_exchange_weak_explicit(&q->head,
					&pos, pos + 1, memory_order_relaxed,
					memory_order_relaxed))
				break;
		} else if ((ptrdiff_t)(seq - pos) < 0) {
			return -1;	/* full */
		} else {
			pos = atomic_load_explicit(&q->head,
						   memory_order_relaxed);
		}
	}
	s->r = *r;
	atomic_store_explicit(&s->seq, pos + 1, memory_order_release);
	return 0;
}

NO_INSTR int ring_pop(struct ring *q, struct mprof_record *r)
{
	size_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
	struct ring_slot *s = &q->slot[tail & q->mask];

	if (atomic_load_explicit(&s->seq, memory_order_acquire) != tail + 1)
		return -1;	/* empty, or the next slot not yet published */
	*r = s->r;
	atomic_store_explicit(&s->seq, tail + q->mask + 1,
			      memory_order_release);
	atomic_store_explicit(&q->tail, tail + 1, memory_order_relaxed);
	return 0;
}

NO_INSTR size_t ring_used(struct ring *q)
{
	size_t h = atomic_load_explicit(&q->head, memory_order_relaxed);

	return h - atomic_load_explicit(&q->tail, memory_order_relaxed);
}
