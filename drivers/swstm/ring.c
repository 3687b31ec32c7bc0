// SPDX-License-Identifier: GPL-2.0
/*
 * swstm ring: a bounded multi-producer ring of records.  A record is
 * the packets one writer staged (main.c): usually a whole message, a
 * struct swstm_rec header and its packet stream, in consecutive slots of
 * SWSTM_SLOT_SIZE bytes; the stream may wrap from the last slot to the
 * first.  A writer reserves a whole record with one cmpxchg.
 *
 * Two words rule it: head, the next position a producer claims, and
 * tail, the next position to consume, always the first slot of a
 * record.  Each holds a position shifted left by SWSTM_LOST_BITS and, in
 * the low bits, a count of lost packets saturated at SWSTM_LOST_MAX.
 * Both are 64-bit words (swstm_word_t, on a 32-bit kernel too, see
 * swstm.h): positions count up forever, modulo 2^(64 - SWSTM_LOST_BITS),
 * always compare them with swstm_pos_diff().  Position p lives in slot
 * p & mask.  Each slot has a word in @seq, apart from the slot's bytes:
 * once the record starting at p is committed, seq[p & mask] holds
 * (p + 1) << SWSTM_LOST_BITS with the record's lost count in the low
 * bits.  The other slots of a record leave their seq word alone, so a
 * seq word only ever holds a record start's position: stale words are
 * older positions, and no payload byte, whatever a writer puts there,
 * can look like a commit.
 *
 * Producer: reads head, then tail.  If the k slots of its record fit
 * (position p + k - tail <= nslots), the records that last used them
 * have been consumed, so they are free.  The producer claims [p, p + k)
 * with a cmpxchg on head, which also takes head's lost count, fills the
 * slots and commits the record with a store-release of seq[p & mask].
 * If the ring is full it drops its record (or, in overwrite mode,
 * discards the oldest one and tries again).
 *
 * Consumer (the reader, or a producer discarding the oldest record):
 * reads tail, checks that the record at its position p is committed
 * (seq[p & mask] holds p + 1, acquire), reads what it needs (the header,
 * and for the reader the stream), then claims the record with a cmpxchg
 * of tail to p + k.  That cmpxchg is also the release of the slots: a
 * consumer never touches them after it, so there is no window in which
 * a consumer holds a slot and producers must wait for it (a preempted
 * reader cannot make writers drop).  If the cmpxchg fails, what it read
 * may belong to a later record being written: it is thrown away, and
 * the record size it read is bounded, so a torn header cannot make it
 * read out of bounds.
 *
 * Ordering (Documentation/ordering.rst, "The ring", has each pairing
 * and what a weakly ordered CPU would do without it): the producer's
 * store-release of seq and the consumer's load-acquire of it order the
 * record's contents from producer to consumer.  The consumer's fully
 * ordered tail cmpxchg and the producer's load-acquire of tail order
 * the consumer's reads of the slots before the next producer's writes
 * to them.  A producer reads head before tail (smp_rmb()), so that it
 * never sees a tail older than the one the head it read was claimed
 * against.  Positions do not repeat in practice (2^56 slots), so a
 * cmpxchg that succeeds proves that nobody moved the word in between.
 *
 * Lost packets, counted exactly where they happen.  The unit of loss is
 * a record: a record that does not fit is dropped whole (never a part
 * of it), and counted as the number of packets it held; the counts, the
 * drops attribute and the GERR marker stay in packets.
 *  - a producer that drops its record adds its packet count to the low
 *    bits of head with a cmpxchg on the value it saw; the producer that
 *    claims that position takes the count with the same cmpxchg that
 *    claims it, and stores it in its record's seq word.
 *  - a consumer that discards a record (overwrite mode) moves the
 *    record's own lost count, plus its packets, into the low bits of
 *    tail with the cmpxchg that claims it; the reader takes them with
 *    the cmpxchg that claims the next record.
 * So the reader gets, with each record, the number of packets lost just
 * before it, and turns it into a GERR marker exactly there.
 *
 * Nobody waits: producers and consumers never spin on another's
 * progress.  A loop goes round again only when another producer or
 * consumer changed head or tail in the meantime (lock-free), and never
 * because a slot is held.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "swstm.h"

/*
 * Records are copied in 16-byte chunks: the stream starts 16 bytes into
 * a slot and its slots end on a 32-byte boundary, so a chunk never
 * crosses the record's end nor the ring's, and every buffer a stream is
 * copied from or to has room for a whole last chunk.  (A copy loop of
 * this size runs about as fast as memcpy() natively; under emulators
 * that run "rep movsb" a byte at a time it is several times faster.)
 */
#define SWSTM_CHUNK	16

/* Process context. @bytes is a power of two, at least 4 KiB. */
int swstm_ring_init(struct swstm_ring *ring, size_t bytes)
{
	unsigned long i, n = bytes / SWSTM_SLOT_SIZE;

	BUILD_BUG_ON(sizeof(struct swstm_rec) != SWSTM_CHUNK);
	BUILD_BUG_ON(SWSTM_STREAM_MAX % SWSTM_CHUNK);

	ring->data = vzalloc(bytes);
	ring->seq = vmalloc_array(n, sizeof(*ring->seq));
	ring->stats = alloc_percpu(struct swstm_stats);
	if (!ring->data || !ring->seq || !ring->stats) {
		swstm_ring_free(ring);
		return -ENOMEM;
	}
	/* not committed: a position below the slot's first one */
	for (i = 0; i < n; i++)
		swstm_seq_init(&ring->seq[i], (swstm_word_t)i << SWSTM_LOST_BITS);
	ring->mask = n - 1;
	/* a record takes at most a quarter of the ring */
	ring->stream_max = min_t(size_t, SWSTM_STREAM_MAX,
				 bytes / 4 - sizeof(struct swstm_rec));
	ring->overwrite = false;
	atomic_long_set(&ring->drops, 0);
	swstm_aw_set(&ring->head, 0);
	swstm_aw_set(&ring->tail, 0);
	return 0;
}

/* Process context, no producer or consumer left. */
void swstm_ring_free(struct swstm_ring *ring)
{
	free_percpu(ring->stats);
	vfree(ring->seq);
	vfree(ring->data);
	ring->stats = NULL;
	ring->seq = NULL;
	ring->data = NULL;
}

/* Difference a - b of two positions (they wrap before a ring word). */
static inline swstm_sword_t swstm_pos_diff(swstm_word_t a, swstm_word_t b)
{
	return (swstm_sword_t)((a - b) << SWSTM_LOST_BITS) >> SWSTM_LOST_BITS;
}

/* position of a head, tail or seq word */
static inline swstm_word_t swstm_word_pos(swstm_word_t word)
{
	return word >> SWSTM_LOST_BITS;
}

/* lost count of a head, tail or seq word */
static inline unsigned long swstm_word_lost(swstm_word_t word)
{
	return word & SWSTM_LOST_MAX;
}

/* a head or tail word: position @pos with @lost packets lost (saturated) */
static inline swstm_word_t swstm_word(swstm_word_t pos, unsigned long lost)
{
	return pos << SWSTM_LOST_BITS | min_t(unsigned long, lost, SWSTM_LOST_MAX);
}

/* slots taken by a record of @len stream bytes */
static inline unsigned long swstm_rec_slots(unsigned int len)
{
	return DIV_ROUND_UP(sizeof(struct swstm_rec) + len, SWSTM_SLOT_SIZE);
}

/*
 * Does the record at @pos hold position + 1 in its seq word?  0 if so,
 * < 0 if not committed yet, > 0 if consumed and the slot reused.  *@seq
 * receives the word.  Any context.
 */
static inline swstm_sword_t swstm_rec_state(struct swstm_ring *ring,
					    swstm_word_t pos, swstm_word_t *seq)
{
	/*
	 * Pairs with the commit's store-release in swstm_ring_put(): the
	 * record's header and stream are read after (ordering.rst).
	 */
	*seq = swstm_seq_load_acquire(&ring->seq[pos & ring->mask]);
	return swstm_pos_diff(swstm_word_pos(*seq), pos + 1);
}

/* the header of the record at @pos, bounded for a torn read */
static inline void swstm_rec_peek(struct swstm_ring *ring, swstm_word_t pos,
				  struct swstm_rec *rec)
{
	/* may be a later record's if tail moved: the claim then fails */
	data_race(memcpy(rec, ring->data + (pos & ring->mask) * SWSTM_SLOT_SIZE,
			 sizeof(*rec)));
	rec->len = min_t(unsigned int, rec->len, ring->stream_max);
}

/*
 * Overwrite mode, ring found full with tail word @tail: discard the
 * oldest record.  Any context.  Returns true if the producer should try
 * again (a record was freed, or tail moved on: someone else freed one),
 * false if the oldest record is still being written, in which case the
 * producer drops its own record instead.  The discarded packets and the
 * losses they carried go into tail's lost count, for the reader.
 */
static notrace bool swstm_ring_discard(struct swstm_ring *ring,
				       swstm_word_t tail)
{
	swstm_word_t pos = swstm_word_pos(tail), seq;
	swstm_sword_t diff = swstm_rec_state(ring, pos, &seq);
	struct swstm_rec rec;

	if (diff > 0)		/* consumed and reused: tail moved on */
		return true;
	if (diff < 0)		/* not committed yet: tail cannot have moved */
		return false;
	swstm_rec_peek(ring, pos, &rec);
	/*
	 * Fully ordered: the header read above is done before the slots
	 * are free; pairs with the tail load-acquire in swstm_ring_put().
	 */
	if (swstm_aw_try_cmpxchg(&ring->tail, &tail,
				 swstm_word(pos + swstm_rec_slots(rec.len),
					    swstm_word_lost(tail) +
					    swstm_word_lost(seq) +
					    rec.npkts)))
		atomic_long_add(rec.npkts, &ring->drops);
	return true;
}

/* copy @len bytes to the ring at byte offset @off, wrapping at its end */
static notrace void swstm_ring_copy_in(struct swstm_ring *ring,
				       unsigned long off, const u8 *src,
				       unsigned int len)
{
	unsigned long size = (ring->mask + 1) * SWSTM_SLOT_SIZE;
	unsigned int i;

	for (i = 0; i < len; i += SWSTM_CHUNK) {
		if (off == size)
			off = 0;
		memcpy(ring->data + off, src + i, SWSTM_CHUNK);
		off += SWSTM_CHUNK;
	}
}

/* copy @len bytes from the ring at byte offset @off, wrapping at its end */
static void swstm_ring_copy_out(struct swstm_ring *ring, unsigned long off,
				u8 *dst, unsigned int len)
{
	unsigned long size = (ring->mask + 1) * SWSTM_SLOT_SIZE;
	unsigned int i;

	for (i = 0; i < len; i += SWSTM_CHUNK) {
		if (off == size)
			off = 0;
		/* may be torn if an overwriter took the record: then unused */
		data_race(memcpy(dst + i, ring->data + off, SWSTM_CHUNK));
		off += SWSTM_CHUNK;
	}
}

/**
 * swstm_ring_put() - store a record with one reservation
 * @ring:	the ring
 * @rec:	its header: master, channel, len (<= stream_max), npkts;
 *		@rec->ts nonzero asks for a timestamp, which is stored there
 * @stream:	its packet stream, @rec->len bytes
 * @bytes:	payload bytes in the stream, for the statistics
 *
 * Any context, NMI included: no locks, no allocation, no waiting for
 * anyone.  A timestamp is taken once the record has its place in the
 * ring, so stamps follow ring order except across an interrupt that
 * lands between the claim and the clock read.
 * Context: any; called with preemption disabled.
 * Return: true if stored, false if dropped whole because the ring was
 * full (counted, and reported by the next stored record's lost count).
 */
notrace bool swstm_ring_put(struct swstm_ring *ring, struct swstm_rec *rec,
			    const u8 *stream, unsigned int bytes)
{
	swstm_word_t head, tail, pos;
	unsigned long k = swstm_rec_slots(rec->len), off;
	struct swstm_stats *st;

	head = swstm_aw_read(&ring->head);
	for (;;) {
		pos = swstm_word_pos(head);
		/*
		 * Tail after head: a full ring is seen only if it was full.
		 * Pairs with the tail load-acquire below, as the producer
		 * that wrote the head we read ran it before its claim
		 * (ordering.rst, "The full check").
		 */
		smp_rmb();
		/*
		 * Pairs with the consumers' fully ordered tail cmpxchg in
		 * swstm_ring_read() and swstm_ring_discard(): their reads
		 * of the slots are done before we write them.
		 */
		tail = swstm_aw_read_acquire(&ring->tail);
		if (swstm_pos_diff(pos + k, swstm_word_pos(tail)) <=
		    (swstm_sword_t)ring->mask + 1) {
			/*
			 * Claim [pos, pos + k) and take the drops recorded
			 * at pos.  The acquire above orders our stores to
			 * the slots after their last consumer's reads; the
			 * cmpxchg only has to pick one winner (relaxed:
			 * ordering.rst, "The claim").  Failing means
			 * another producer got pos (or a drop was
			 * recorded): head now holds the current value.
			 */
			if (swstm_aw_try_cmpxchg_relaxed(&ring->head, &head,
							 swstm_word(pos + k, 0)))
				break;
			continue;
		}
		/* full: make room, or drop our record */
		if (READ_ONCE(ring->overwrite) && swstm_ring_discard(ring, tail)) {
			head = swstm_aw_read(&ring->head);
			continue;
		}
		/*
		 * Record the drop at the head position, saturated; relaxed:
		 * the count travels in head itself, the claim takes it
		 * (ordering.rst, "Loss counts").
		 */
		if (swstm_word_lost(head) == SWSTM_LOST_MAX ||
		    swstm_aw_try_cmpxchg_relaxed(&ring->head, &head,
						 swstm_word(pos, swstm_word_lost(head) +
							    rec->npkts))) {
			atomic_long_add(rec->npkts, &ring->drops);
			return false;
		}
		/* head moved: room may have been made, look again */
	}

	/* taken after the claim, so timestamps rise in stream order */
	if (rec->ts)
		rec->ts = ktime_get_mono_fast_ns();
	off = (pos & ring->mask) * SWSTM_SLOT_SIZE;
	memcpy(ring->data + off, rec, sizeof(*rec));
	swstm_ring_copy_in(ring, off + sizeof(*rec), stream, rec->len);
	/*
	 * Commit: the record is visible to whoever sees pos + 1.  Pairs
	 * with the load-acquire in swstm_rec_state() (ordering.rst).
	 */
	swstm_seq_store_release(&ring->seq[pos & ring->mask],
				swstm_word(pos + 1, swstm_word_lost(head)));

	st = this_cpu_ptr(ring->stats);
	local64_add(rec->npkts, &st->packets);
	local64_add(bytes, &st->bytes);
	return true;
}

/*
 * Take the oldest record: its header into @out, its stream right after
 * it (@out must have room for stream_max bytes there).  Process context,
 * one reader at a time (serialised by the sink), concurrent with
 * producers and overwriters.  @lost receives the packets lost just
 * before it: those its seq word records plus those overwriters
 * discarded (and the losses they carried) since the reader's last
 * record.  Returns false if there is nothing to take (empty, or the
 * oldest record is still being written).
 *
 * The header in @out is written only when a record is taken (true): a
 * copy that lost its claim to an overwriter belongs to a record counted
 * as lost, or to one being written over it, and must never reach the
 * encoder.  The stream bytes after @out are scratch space until then:
 * the caller has used up the record they held.
 */
bool swstm_ring_read(struct swstm_ring *ring, struct swstm_rec *out,
		     unsigned long *lost)
{
	swstm_word_t tail = swstm_aw_read(&ring->tail);
	swstm_word_t pos, seq;
	unsigned long off;
	struct swstm_rec rec;
	swstm_sword_t diff;

	for (;;) {
		pos = swstm_word_pos(tail);
		diff = swstm_rec_state(ring, pos, &seq);
		if (diff < 0)
			return false;
		if (!diff) {
			/*
			 * Copy, then claim: the claim releases the slots,
			 * so the reader never holds one.  If an overwriter
			 * took pos first, the copy may be torn: drop it.
			 */
			swstm_rec_peek(ring, pos, &rec);
			off = (pos & ring->mask) * SWSTM_SLOT_SIZE + sizeof(rec);
			swstm_ring_copy_out(ring, off, (u8 *)(out + 1), rec.len);
			/*
			 * Fully ordered: the copy is done before the slots
			 * are free; pairs with the tail load-acquire in
			 * swstm_ring_put() (ordering.rst).
			 */
			if (swstm_aw_try_cmpxchg(&ring->tail, &tail,
						 swstm_word(pos + swstm_rec_slots(rec.len),
							    0)))
				break;
			continue;	/* tail holds the current value */
		}
		tail = swstm_aw_read(&ring->tail);
	}
	/* ours now: publish it */
	*out = rec;
	*lost = swstm_word_lost(tail) + swstm_word_lost(seq);
	return true;
}

/* Any context: the oldest record is committed and can be read. */
bool swstm_ring_readable(struct swstm_ring *ring)
{
	swstm_word_t seq;

	return !swstm_rec_state(ring, swstm_word_pos(swstm_aw_read(&ring->tail)),
				&seq);
}

/*
 * Reader, ring found empty: losses would otherwise wait for the next
 * packet to be reported; take them now.  They are the packets dropped
 * at the head position and those discarded since the reader's last
 * slot.  Process context, the reader only.
 */
unsigned long swstm_ring_idle_lost(struct swstm_ring *ring)
{
	swstm_word_t tail = swstm_aw_read(&ring->tail);
	swstm_word_t head = swstm_aw_read(&ring->head);
	swstm_word_t pos = swstm_word_pos(tail);
	unsigned long lost = 0;

	/*
	 * A packet in flight will carry the counts itself.  head and tail
	 * are read unordered: each cmpxchg below checks its own word
	 * (ordering.rst, "Loss counts").
	 */
	if (swstm_pos_diff(swstm_word_pos(head), pos))
		return 0;
	/* if this fails, the ring filled up since: the next claim takes it */
	if (swstm_word_lost(tail) &&
	    swstm_aw_try_cmpxchg(&ring->tail, &tail, swstm_word(pos, 0)))
		lost = swstm_word_lost(tail);
	/* take the drops recorded at the head; a new claim takes them */
	while (swstm_word_lost(head)) {
		if (swstm_aw_try_cmpxchg(&ring->head, &head,
					 swstm_word(pos, 0))) {
			lost += swstm_word_lost(head);
			break;
		}
		if (swstm_pos_diff(swstm_word_pos(head), pos))
			break;
	}
	return lost;
}

/* Any context: slots in use, records being written or read included. */
unsigned long swstm_ring_queued(struct swstm_ring *ring)
{
	swstm_word_t tail = swstm_aw_read(&ring->tail);
	swstm_sword_t n = swstm_pos_diff(swstm_word_pos(swstm_aw_read(&ring->head)),
					 swstm_word_pos(tail));

	return clamp_t(swstm_sword_t, n, 0, ring->mask + 1);
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
