/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ring.h - bounded lock-free multi-producer, single-consumer ring of
 * profile records: each slot has a sequence number; a producer claims a
 * position with a CAS on the head (ring_claim()), fills the slot and
 * publishes it by storing its sequence (ring_publish()); the single
 * consumer (the Linux writer thread, or a firmware's UART interrupt)
 * takes slots in order.  Full: the claim fails (the caller counts an
 * overflow).  No locks, no allocation (the caller gives the slots): safe
 * from the instrumentation hooks, signal handlers and interrupt handlers
 * of any priority, however they nest.  Freestanding C11.
 *
 * A slot holds the record raw, as the hook saw it (the function's
 * address, the two clock reads, the depth): the consumer turns it into
 * the wire's record (bias, mask, times relative to the start, the
 * duration), so that work is off the hooks' path.
 */
#ifndef MPROFDEV_RING_H
#define MPROFDEV_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct ring_rec {
	uintptr_t fn;		/* the hook's function address */
	uint32_t entry;		/* the clock at entry, at exit */
	uint32_t exit;
	uint32_t depth;
};

struct ring_slot {
	atomic_size_t seq;
	struct ring_rec r;
};

struct ring {
	struct ring_slot *slot;
	size_t mask;
	_Alignas(64) atomic_size_t head;	/* next position to claim */
	_Alignas(64) atomic_size_t tail;	/* written by the consumer only */
};

/* a ring over slot[0 .. 2^order) */
void ring_init(struct ring *q, struct ring_slot *slot, unsigned int order);
/* claim the next slot for its record, or NULL: the ring is full */
struct ring_slot *ring_claim(struct ring *q);
int ring_pop(struct ring *q, struct ring_rec *r);

/*
 * Publish a claimed slot.  Its sequence is still the position it was
 * claimed at (nobody else writes it until it is published: producers
 * wait for their own position, the consumer for position + 1), so the
 * slot itself says what to store.
 */
static inline void ring_publish(struct ring_slot *s)
{
	size_t pos = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, pos + 1, memory_order_release);
}

/* records claimed since ring_init() (successful claims, wrapping) */
static inline size_t ring_claimed(struct ring *q)
{
	return atomic_load_explicit(&q->head, memory_order_relaxed);
}

/* records queued (approximate while producers run) */
static inline size_t ring_used(struct ring *q)
{
	return ring_claimed(q) -
	       atomic_load_explicit(&q->tail, memory_order_relaxed);
}

#endif
