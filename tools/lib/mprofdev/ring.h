/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ring.h - bounded lock-free multi-producer, single-consumer ring of
 * profile records: each slot has a sequence number; a producer claims a
 * position with a CAS on the head and publishes the slot by storing its
 * sequence; the single consumer (the Linux writer thread, or a
 * firmware's UART interrupt) takes slots in order.  Full: the push fails
 * (the caller counts an overflow).  No locks, no allocation (the caller
 * gives the slots): safe from the instrumentation hooks, signal handlers
 * and interrupt handlers of any priority, however they nest.
 * Freestanding C11.
 */
#ifndef MPROFDEV_RING_H
#define MPROFDEV_RING_H

#include <stdatomic.h>
#include <stddef.h>

#include "wire/mprof_wire.h"

struct ring_slot {
	atomic_size_t seq;
	struct mprof_record r;
};

struct ring {
	struct ring_slot *slot;
	size_t mask;
	_Alignas(64) atomic_size_t head;	/* next position to claim */
	_Alignas(64) atomic_size_t tail;	/* written by the consumer only */
};

/* a ring over slot[0 .. 2^order) */
void ring_init(struct ring *q, struct ring_slot *slot, unsigned int order);
int ring_push(struct ring *q, const struct mprof_record *r);
int ring_pop(struct ring *q, struct mprof_record *r);
/* records queued (approximate while producers run) */
size_t ring_used(struct ring *q);

#endif
