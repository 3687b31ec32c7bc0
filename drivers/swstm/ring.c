// SPDX-License-Identifier: GPL-2.0
/*
 * swstm packet ring: a bounded multi-producer ring of fixed 32-byte
 * slots.
 *
 * Two words rule it: head, the next position a producer claims, and
 * tail, the next position to consume.  Each holds a position shifted
 * left by SWSTM_LOST_BITS and, in the low bits, a count of lost packets
 * saturated at SWSTM_LOST_MAX.  Positions count up forever, modulo
 * 2^(BITS_PER_LONG - SWSTM_LOST_BITS): always compare them with
 * swstm_pos_diff().  Position p lives in slot p & mask; the slot's seq
 * is p + 1 once the packet of p is committed.
 *
 * Producer: reads head, then tail.  If fewer than nslots positions
 * separate them, the packet that last used the slot of head's position
 * p (position p - nslots) has been consumed, so the slot is free.  The
 * producer claims p with a cmpxchg on head, which also takes head's lost
 * count, fills the slot and commits it with a store-release of
 * seq = p + 1.  If the ring is full it drops its packet (or, in
 * overwrite mode, discards the oldest one and tries again).
 *
 * Consumer (the reader, or a producer discarding the oldest packet):
 * reads tail, checks that the slot of its position p is committed
 * (seq == p + 1, acquire), reads what it needs from the slot, then
 * claims p with a cmpxchg on tail.  That cmpxchg is also the release of
 * the slot: a consumer never touches the slot after it, so there is no
 * window in which a consumer holds a slot and producers must wait for
 * it (a preempted reader cannot make writers drop).  If the cmpxchg
 * fails, what it read may belong to a later packet being written: it
 * is thrown away.
 *
 * Ordering: the producer's store-release of seq and the consumer's
 * load-acquire of it order the slot's contents from producer to
 * consumer.  The consumer's fully ordered tail cmpxchg and the
 * producer's load-acquire of tail order the consumer's reads of the
 * slot before the next producer's writes to it.  Positions do not
 * repeat in practice (2^56 packets), so a cmpxchg that succeeds proves
 * that nobody moved the word in between.
 *
 * Lost packets, counted exactly where they happen:
 *  - a producer that drops its packet adds one to the low bits of head
 *    with a cmpxchg on the value it saw; the producer that claims that
 *    position takes the count with the same cmpxchg that claims it, and
 *    stores it in its slot's @lost.
 *  - a consumer that discards a packet (overwrite mode) moves the
 *    slot's own @lost, plus one for the packet itself, into the low bits
 *    of tail with the cmpxchg that claims it; the reader takes them with
 *    the cmpxchg that claims the next slot.
 * So the reader gets, with each packet, the number of packets lost just
 * before it, and turns it into a GERR marker exactly there.
 *
 * Nobody waits: producers and consumers never spin on another's
 * progress.  A loop goes round again only when another producer or
 * consumer changed head or tail in the meantime (lock-free), and never
 * because a slot is held.
 */
#include <linux/compiler.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "swstm.h"

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
	/* not committed: seq != position + 1 */
	for (i = 0; i < n; i++)
		ring->slots[i].seq = i;
	ring->mask = n - 1;
	ring->overwrite = false;
	atomic_long_set(&ring->drops, 0);
	atomic_long_set(&ring->head, 0);
	atomic_long_set(&ring->tail, 0);
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

/* position of a head or tail word */
static inline unsigned long swstm_word_pos(unsigned long word)
{
	return word >> SWSTM_LOST_BITS;
}

/* lost count of a head or tail word */
static inline unsigned long swstm_word_lost(unsigned long word)
{
	return word & SWSTM_LOST_MAX;
}

/* a head or tail word: position @pos with @lost packets lost (saturated) */
static inline unsigned long swstm_word(unsigned long pos, unsigned long lost)
{
	return pos << SWSTM_LOST_BITS | min_t(unsigned long, lost, SWSTM_LOST_MAX);
}

/*
 * Overwrite mode, ring found full with tail word @tail: discard the
 * oldest packet.  Any context.  Returns true if the producer should try
 * again (a slot was freed, or tail moved on: someone else freed one),
 * false if the oldest packet is still being written, in which case the
 * producer drops its own packet instead.  The discarded packet and the
 * losses it carried go into tail's lost count, for the reader.
 */
static notrace bool swstm_ring_discard(struct swstm_ring *ring,
				       unsigned long tail)
{
	unsigned long pos = swstm_word_pos(tail);
	struct swstm_slot *slot = &ring->slots[pos & ring->mask];
	/* pairs with the producer's commit of this slot */
	unsigned long seq = smp_load_acquire(&slot->seq);
	long diff = swstm_pos_diff(seq, pos + 1);
	unsigned long lost;

	if (diff > 0)		/* consumed and reused: tail moved on */
		return true;
	if (diff < 0)		/* not committed yet: tail cannot have moved */
		return false;
	/* may be a later packet's if tail moved: then the cmpxchg fails */
	lost = data_race(slot->lost);
	if (atomic_long_try_cmpxchg(&ring->tail, &tail,
				    swstm_word(pos + 1, swstm_word_lost(tail) +
					       1 + lost)))
		atomic_long_inc(&ring->drops);
	return true;
}

/*
 * Store one packet.  Any context, NMI included: no locks, no allocation,
 * no waiting for anyone.  A timestamped packet is stamped once it has
 * its place in the ring, so stamps follow ring order except across an
 * interrupt that lands between the claim and the clock read.  Returns
 * true if stored, false if dropped because the ring was full (counted,
 * and reported by the next stored packet's lost count).
 */
notrace bool swstm_ring_write(struct swstm_ring *ring, unsigned int master,
			      unsigned int channel, unsigned int type,
			      unsigned int flags, unsigned int size,
			      const u8 *payload)
{
	unsigned long head, tail, pos;
	struct swstm_stats *st;
	struct swstm_slot *slot;

	head = atomic_long_read(&ring->head);
	for (;;) {
		pos = swstm_word_pos(head);
		/* tail after head: a full ring is seen only if it was full */
		smp_rmb();
		/* pairs with the consumers' tail cmpxchg: slot reads done */
		tail = atomic_long_read_acquire(&ring->tail);
		if (swstm_pos_diff(pos, swstm_word_pos(tail)) <= (long)ring->mask) {
			/*
			 * Claim pos and take the drops recorded at it.  The
			 * acquire above orders our stores to the slot after
			 * its last consumer's reads; the cmpxchg only has to
			 * pick one winner.  Failing means another producer
			 * got pos (or a drop was recorded): head now holds
			 * the current value, try again.
			 */
			if (atomic_long_try_cmpxchg_relaxed(&ring->head, &head,
							    swstm_word(pos + 1, 0)))
				break;
			continue;
		}
		/* full: make room, or drop our packet */
		if (READ_ONCE(ring->overwrite) && swstm_ring_discard(ring, tail)) {
			head = atomic_long_read(&ring->head);
			continue;
		}
		/* record the drop at the head position, saturated */
		if (swstm_word_lost(head) == SWSTM_LOST_MAX ||
		    atomic_long_try_cmpxchg_relaxed(&ring->head, &head, head + 1)) {
			atomic_long_inc(&ring->drops);
			return false;
		}
		/* head moved: room may have been made, look again */
	}

	slot = &ring->slots[pos & ring->mask];
	/* taken after the claim, so timestamps rise in stream order */
	slot->ts = flags & STP_PACKET_TIMESTAMPED ? ktime_get_mono_fast_ns() : 0;
	slot->master = master;
	slot->channel = channel;
	slot->type = type;
	slot->flags = flags;
	slot->size = size;
	memcpy(slot->payload, payload, size);
	slot->lost = swstm_word_lost(head);
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
 * records plus those overwriters discarded (and the losses they carried)
 * since the reader's last slot.  Returns false if there is nothing to
 * take (empty, or the oldest packet is still being written).
 */
bool swstm_ring_read(struct swstm_ring *ring, struct swstm_slot *out,
		     unsigned long *lost)
{
	unsigned long tail = atomic_long_read(&ring->tail);
	struct swstm_slot *slot;
	unsigned long pos;
	long diff;

	for (;;) {
		pos = swstm_word_pos(tail);
		slot = &ring->slots[pos & ring->mask];
		/* pairs with the producer's commit of this slot */
		diff = swstm_pos_diff(smp_load_acquire(&slot->seq), pos + 1);
		if (diff < 0)
			return false;
		if (!diff) {
			/*
			 * Copy, then claim: the claim releases the slot, so
			 * the reader never holds one.  If an overwriter took
			 * pos first, the copy may be torn: drop it.
			 */
			data_race(memcpy(out, slot, sizeof(*out)));
			if (atomic_long_try_cmpxchg(&ring->tail, &tail,
						    swstm_word(pos + 1, 0)))
				break;
			continue;	/* tail holds the current value */
		}
		tail = atomic_long_read(&ring->tail);
	}
	*lost = swstm_word_lost(tail) + out->lost;
	return true;
}

/* Any context: the oldest packet is committed and can be read. */
bool swstm_ring_readable(struct swstm_ring *ring)
{
	unsigned long pos = swstm_word_pos(atomic_long_read(&ring->tail));
	struct swstm_slot *slot = &ring->slots[pos & ring->mask];

	/* pairs with the producer's commit of this slot */
	return !swstm_pos_diff(smp_load_acquire(&slot->seq), pos + 1);
}

/*
 * Reader, ring found empty: losses would otherwise wait for the next
 * packet to be reported; take them now.  They are the packets dropped
 * at the head position and those discarded since the reader's last
 * slot.  Process context, the reader only.
 */
unsigned long swstm_ring_idle_lost(struct swstm_ring *ring)
{
	unsigned long tail = atomic_long_read(&ring->tail);
	unsigned long head = atomic_long_read(&ring->head);
	unsigned long pos = swstm_word_pos(tail);
	unsigned long lost = 0;

	/* a packet in flight will carry the counts itself */
	if (swstm_pos_diff(swstm_word_pos(head), pos))
		return 0;
	/* if this fails, the ring filled up since: the next claim takes it */
	if (swstm_word_lost(tail) &&
	    atomic_long_try_cmpxchg(&ring->tail, &tail, swstm_word(pos, 0)))
		lost = swstm_word_lost(tail);
	/* take the drops recorded at the head; a new claim takes them */
	while (swstm_word_lost(head)) {
		if (atomic_long_try_cmpxchg(&ring->head, &head,
					    swstm_word(pos, 0))) {
			lost += swstm_word_lost(head);
			break;
		}
		if (swstm_pos_diff(swstm_word_pos(head), pos))
			break;
	}
	return lost;
}

/* Any context: packets in the ring, being written or read included. */
unsigned long swstm_ring_queued(struct swstm_ring *ring)
{
	unsigned long tail = atomic_long_read(&ring->tail);
	long n = swstm_pos_diff(swstm_word_pos(atomic_long_read(&ring->head)),
				swstm_word_pos(tail));

	return clamp_t(long, n, 0, ring->mask + 1);
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
