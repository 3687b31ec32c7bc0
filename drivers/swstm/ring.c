// SPDX-License-Identifier: GPL-2.0
/*
 * swstm packet ring: a bounded multi-producer ring of fixed 32-byte
 * slots, each carrying a sequence number.
 *
 * Positions (tail, slot sequence numbers, and head >> SWSTM_LOST_BITS)
 * count up forever, modulo 2^(BITS_PER_LONG - SWSTM_LOST_BITS): always
 * compare them with swstm_pos_diff().  A position p lives in slot
 * p & mask.  For the slot of position p:
 *
 *   seq == p		free: the producer that claims p may fill it
 *   seq == p + 1	committed: holds the packet of position p
 *   seq == p + nslots	consumed: free for the producer of p + nslots
 *
 * A producer reads head, checks seq == head (acquire), claims the
 * position with a cmpxchg on head, fills the slot and commits with a
 * store-release of seq = p + 1.  A consumer (the reader, or a producer
 * discarding the oldest packet in overwrite mode) reads tail, checks
 * seq == tail + 1 (acquire), claims with a cmpxchg on tail, copies or
 * discards the slot and releases it with a store-release of
 * seq = p + nslots.  The acquire/release pairs order the slot's plain
 * contents between the producer and the consumer of one position; the
 * cmpxchgs give each position exactly one producer and one consumer.
 *
 * Lost packets: a producer that must drop its packet adds one to the low
 * bits of head (a cmpxchg on the value it saw), and the producer that
 * claims that position takes the count with the same cmpxchg that claims
 * it.  So the count lands on the first packet stored after the drops,
 * whatever happens to either producer afterwards; the reader turns it
 * into a GERR marker exactly there.
 *
 * Producers never wait: every loop is bounded, and a packet that cannot
 * be stored in SWSTM_TRIES attempts is dropped and counted.
 */
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "swstm.h"

/* attempts of a producer before it drops its packet */
#define SWSTM_TRIES	16

/* Process context. @bytes is a power of two, a multiple of a slot. */
int swstm_ring_init(struct swstm_ring *ring, size_t bytes)
{
	unsigned long i, n = bytes / sizeof(struct swstm_slot);

	BUILD_BUG_ON(sizeof(struct swstm_slot) != SWSTM_SLOT_SIZE);

	ring->slots = vzalloc(bytes);
	if (!ring->slots)
		return -ENOMEM;
	ring->stats = alloc_percpu(struct swstm_stats);
	if (!ring->stats) {
		vfree(ring->slots);
		ring->slots = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ring->slots[i].seq = i;
	ring->mask = n - 1;
	ring->overwrite = false;
	atomic_long_set(&ring->drops, 0);
	atomic_long_set(&ring->head, 0);
	atomic_long_set(&ring->tail, 0);
	ring->consumed = 0;
	return 0;
}

/* Process context, no producer or consumer left. */
void swstm_ring_free(struct swstm_ring *ring)
{
	free_percpu(ring->stats);
	vfree(ring->slots);
	ring->stats = NULL;
	ring->slots = NULL;
}

/* Difference a - b of two positions (they wrap before unsigned long). */
static inline long swstm_pos_diff(unsigned long a, unsigned long b)
{
	return (long)((a - b) << SWSTM_LOST_BITS) >> SWSTM_LOST_BITS;
}

static inline unsigned long swstm_head_pos(unsigned long head)
{
	return head >> SWSTM_LOST_BITS;
}

static inline unsigned long swstm_head_lost(unsigned long head)
{
	return head & SWSTM_LOST_MAX;
}

/*
 * Overwrite mode, ring full: discard the oldest packet.  Any context.
 * Returns true if the producer should retry (a slot was freed, or the
 * ring moved under it), false if the oldest packet is still being
 * written, in which case the producer drops its own packet instead.
 */
static notrace bool swstm_ring_discard(struct swstm_ring *ring)
{
	unsigned long pos = atomic_long_read(&ring->tail);
	struct swstm_slot *slot = &ring->slots[pos & ring->mask];
	/* pairs with the producer's commit of this slot */
	unsigned long seq = smp_load_acquire(&slot->seq);
	long diff = swstm_pos_diff(seq, pos + 1);

	if (diff > 0)		/* consumed under us: tail moved on */
		return true;
	if (diff < 0)		/* being written, or the ring emptied */
		return !swstm_pos_diff(swstm_head_pos(atomic_long_read(&ring->head)),
				       pos);
	if (!atomic_long_try_cmpxchg(&ring->tail, &pos, pos + 1))
		return true;
	/* hand the slot to the producer of pos + nslots */
	smp_store_release(&slot->seq, pos + ring->mask + 1);
	atomic_long_inc(&ring->drops);
	return true;
}

/*
 * Record one dropped packet at the current head position.  Any context;
 * bounded.  @head is the value last seen.  A saturated count stays so.
 */
static notrace void swstm_ring_mark_lost(struct swstm_ring *ring,
					 unsigned long head)
{
	unsigned int tries;

	atomic_long_inc(&ring->drops);
	for (tries = 0; tries < SWSTM_TRIES; tries++) {
		if (swstm_head_lost(head) == SWSTM_LOST_MAX)
			return;
		if (atomic_long_try_cmpxchg_relaxed(&ring->head, &head,
						    head + 1))
			return;
	}
}

/*
 * Store one packet.  Any context, NMI included: no locks, no allocation,
 * bounded retries.  A timestamped packet is stamped once it has its place
 * in the ring, so stamps follow ring order except across an interrupt
 * that lands between the claim and the clock read.  Returns true if
 * stored, false if dropped (counted, and reported by the next stored
 * packet's lost count).
 */
notrace bool swstm_ring_write(struct swstm_ring *ring, unsigned int master,
			      unsigned int channel, unsigned int type,
			      unsigned int flags, unsigned int size,
			      const u8 *payload)
{
	unsigned long head, pos, seq;
	struct swstm_stats *st;
	struct swstm_slot *slot;
	unsigned int tries;
	long diff;

	head = atomic_long_read(&ring->head);
	for (tries = 0; tries < SWSTM_TRIES; tries++) {
		pos = swstm_head_pos(head);
		slot = &ring->slots[pos & ring->mask];
		/* pairs with the release by the slot's last consumer */
		seq = smp_load_acquire(&slot->seq);
		diff = swstm_pos_diff(seq, pos);
		if (!diff) {
			unsigned long next = (pos + 1) << SWSTM_LOST_BITS;

			/*
			 * Claim pos and take the drops recorded at it.  The
			 * acquire above already orders our stores to the slot
			 * after its previous consumer's reads; the cmpxchg
			 * only has to pick one winner.
			 */
			if (atomic_long_try_cmpxchg_relaxed(&ring->head, &head,
							    next))
				goto claimed;
			continue;	/* head now holds the current value */
		}
		if (diff < 0) {
			unsigned long old = pos - ring->mask - 1;

			/*
			 * The slot still holds position pos - nslots.  If that
			 * has been claimed by a consumer, it is being freed
			 * right now: try again.  Else the ring is full.
			 */
			if (swstm_pos_diff(atomic_long_read(&ring->tail), old) > 0)
				cpu_relax();
			else if (!READ_ONCE(ring->overwrite) ||
				 !swstm_ring_discard(ring))
				break;
		}
		head = atomic_long_read(&ring->head);
	}
	swstm_ring_mark_lost(ring, head);
	return false;

claimed:
	/* taken after the claim, so timestamps rise in stream order */
	slot->ts = flags & STP_PACKET_TIMESTAMPED ? ktime_get_mono_fast_ns() : 0;
	slot->master = master;
	slot->channel = channel;
	slot->type = type;
	slot->flags = flags;
	slot->size = size;
	memcpy(slot->payload, payload, size);
	slot->lost = swstm_head_lost(head);
	/* commit: the slot's contents are visible to whoever sees pos + 1 */
	smp_store_release(&slot->seq, pos + 1);

	st = this_cpu_ptr(ring->stats);
	local64_inc(&st->packets);
	local64_add(size, &st->bytes);
	return true;
}

/*
 * Take the oldest packet.  Process context, one reader at a time
 * (serialised by the sink), concurrent with producers and overwriters.
 * @lost receives the packets lost just before this one: those the slot
 * records plus those overwriters consumed since the reader's last slot.
 * Returns false if there is nothing to take (empty, or the oldest
 * packet is still being written).
 */
bool swstm_ring_read(struct swstm_ring *ring, struct swstm_slot *out,
		     unsigned long *lost)
{
	unsigned long pos = atomic_long_read(&ring->tail);
	struct swstm_slot *slot;
	unsigned long seq;
	long diff;

	for (;;) {
		slot = &ring->slots[pos & ring->mask];
		/* pairs with the producer's commit of this slot */
		seq = smp_load_acquire(&slot->seq);
		diff = swstm_pos_diff(seq, pos + 1);
		if (diff < 0)
			return false;
		if (!diff) {
			if (atomic_long_try_cmpxchg(&ring->tail, &pos, pos + 1))
				break;
			continue;	/* an overwriter took it */
		}
		pos = atomic_long_read(&ring->tail);
	}
	*out = *slot;
	/* our reads of the slot are done: hand it to the next producer */
	smp_store_release(&slot->seq, pos + ring->mask + 1);
	*lost = swstm_pos_diff(pos, ring->consumed) + out->lost;
	ring->consumed = pos + 1;
	return true;
}

/* Any context: the oldest packet is committed and can be read. */
bool swstm_ring_readable(struct swstm_ring *ring)
{
	unsigned long pos = atomic_long_read(&ring->tail);
	struct swstm_slot *slot = &ring->slots[pos & ring->mask];

	/* pairs with the producer's commit of this slot */
	return !swstm_pos_diff(smp_load_acquire(&slot->seq), pos + 1);
}

/*
 * Reader, ring found empty: packets dropped since the last stored one
 * would otherwise wait for the next packet to be reported; take them
 * now.  Also counts slots overwritten since the reader's last slot.
 * Process context, the reader only.
 */
unsigned long swstm_ring_idle_lost(struct swstm_ring *ring)
{
	unsigned long tail = atomic_long_read(&ring->tail);
	unsigned long head = atomic_long_read(&ring->head);
	unsigned long lost;

	/* a packet in flight will carry the count itself */
	if (swstm_pos_diff(swstm_head_pos(head), tail))
		return 0;
	lost = swstm_pos_diff(tail, ring->consumed);
	ring->consumed = tail;
	/* take the drops recorded at the head; a new claim takes them */
	while (swstm_head_lost(head) &&
	       !atomic_long_try_cmpxchg(&ring->head, &head,
					head & ~(unsigned long)SWSTM_LOST_MAX)) {
		if (swstm_pos_diff(swstm_head_pos(head), tail))
			return lost;
	}
	return lost + swstm_head_lost(head);
}

/* Process context: packets stored so far. */
u64 swstm_ring_packets(struct swstm_ring *ring)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += local64_read(&per_cpu_ptr(ring->stats, cpu)->packets);
	return sum;
}

/* Process context: payload bytes stored so far. */
u64 swstm_ring_bytes(struct swstm_ring *ring)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += local64_read(&per_cpu_ptr(ring->stats, cpu)->bytes);
	return sum;
}
