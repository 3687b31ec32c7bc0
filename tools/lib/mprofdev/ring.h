/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ring.h - bounded lock-free multi-producer, single-consumer ring of
 * profile records: each slot has a sequence number; a producer claims a
 * position with a CAS on the head and publishes the slot by storing its
 * sequence; the single consumer (the writer thread) takes slots in
 * order.  Full: the push fails (the caller counts an overflow).  No
 * locks, no allocation after init: safe from the instrumentation hooks
 * and signal handlers.
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
	_Alignas(64) size_t tail;		/* consumer only */
};

int ring_init(struct ring *q, unsigned int order);
void ring_free(struct ring *q);
int ring_push(struct ring *q, const struct mprof_record *r);
int ring_pop(struct ring *q, struct mprof_record *r);
/* records queued (approximate while producers run) */
size_t ring_used(struct ring *q);

#endif
