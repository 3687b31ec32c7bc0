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

NO_INSTR struct ring_slot *ring_claim(struct ring *q)
{
	size_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);

	for (;;) {
		struct ring_slot *s = &q->slot[pos & q->mask];
		size_t seq = atomic_load_explicit(&s->seq,
						  memory_order_acquire);

		if (seq == pos) {
			/* the CAS fails when another producer (a
			 * handler, a thread) claimed meanwhile, or
			 * spuriously (weak: an exception between ldrex
			 * and strex): retry at the head it read into pos */
			if (atomic_compare_exchange_weak_explicit(&q->head,
					&pos, pos + 1, memory_order_relaxed,
					memory_order_relaxed))
				return s;
		} else if ((ptrdiff_t)(seq - pos) < 0) {
			return NULL;	/* full */
		} else {
			pos = atomic_load_explicit(&q->head,
						   memory_order_relaxed);
		}
	}
}

NO_INSTR int ring_pop(struct ring *q, struct ring_rec *r)
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
