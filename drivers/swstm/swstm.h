/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swstm: a software STM device.  Writers (the STM class, in any context)
 * store raw STP packets in a lock-free ring of fixed 32-byte slots; the
 * reader of the sink char device encodes them into a MIPI STPv2 byte
 * stream.  This header is shared by main.c (module, stm_data callbacks),
 * ring.c (the ring), encode.c (the STPv2 encoder) and sink.c (the sink
 * misc device).
 */
#ifndef _SWSTM_H_
#define _SWSTM_H_

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/irq_work.h>
#include <linux/miscdevice.h>
#include <linux/smp.h>
#include <linux/stm.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <asm/local64.h>

/*
 * The ring (ring.c) is lock-free and written from NMI context: it needs
 * cmpxchg that is safe against NMIs, and 64-bit words, so that a head or
 * tail word holds a position that does not wrap in practice next to its
 * lost count.  See the architecture list in Documentation/swstm.rst.
 *
 * A ring word (head, tail, a slot's seq) is a swstm_word_t.  On a 64-bit
 * kernel it is an unsigned long (atomic_long_t, plain loads and stores
 * of seq), and local64_t is a plain local_t.  A 32-bit kernel takes the
 * same 64-bit words through atomic64_t, which must then be the
 * architecture's own and free of locks (ARMv7: ldrexd/strexd, the same
 * exclusive-monitor loop as its NMI-safe cmpxchg), not the spinlock
 * table of CONFIG_GENERIC_ATOMIC64; local64_t is an atomic64_t there.
 */
#if !defined(CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG) || \
	(!defined(CONFIG_64BIT) && defined(CONFIG_GENERIC_ATOMIC64))
#error "swstm needs NMI-safe cmpxchg and, on 32-bit, lock-free atomic64_t"
#endif

#ifdef CONFIG_64BIT
#define swstm_word_t			unsigned long
#define swstm_sword_t			long
#define swstm_seq_t			unsigned long
#define swstm_aword_t			atomic_long_t
#define swstm_aw_read			atomic_long_read
#define swstm_aw_read_acquire		atomic_long_read_acquire
#define swstm_aw_set			atomic_long_set
#define swstm_aw_try_cmpxchg		atomic_long_try_cmpxchg
#define swstm_aw_try_cmpxchg_relaxed	atomic_long_try_cmpxchg_relaxed
#define swstm_seq_init(p, v)		(*(p) = (v))
/*
 * A record's commit check (swstm_rec_state()): pairs with the commit
 * below; Documentation/ordering.rst, "Commit and consume".
 */
#define swstm_seq_load_acquire(p)	smp_load_acquire(p)
/* a record's commit (swstm_ring_put()): pairs with the check above */
#define swstm_seq_store_release(p, v)	smp_store_release(p, v)
#else
#define swstm_word_t			u64
#define swstm_sword_t			s64
#define swstm_seq_t			atomic64_t
#define swstm_aword_t			atomic64_t
#define swstm_aw_read			atomic64_read
#define swstm_aw_read_acquire		atomic64_read_acquire
#define swstm_aw_set			atomic64_set
#define swstm_aw_try_cmpxchg		atomic64_try_cmpxchg
#define swstm_aw_try_cmpxchg_relaxed	atomic64_try_cmpxchg_relaxed
#define swstm_seq_init(p, v)		atomic64_set(p, v)
/* as above: ldrexd (or ldrd) then dmb ish on ARMv7 */
#define swstm_seq_load_acquire(p)	atomic64_read_acquire(p)
/* as above: dmb ish then a strexd loop (or strd) on ARMv7 */
#define swstm_seq_store_release(p, v)	atomic64_set_release(p, v)
#endif

#define SWSTM_SLOT_SIZE		32
#define SWSTM_MAX_PAYLOAD	8
/* a record's lost count saturates here, as the GERR marker does */
#define SWSTM_LOST_MAX		0xff
/* low bits of ring->head holding the drops at the head position */
#define SWSTM_LOST_BITS		8
/* packet stream bytes of one record at most (a 4095-byte write fits) */
#define SWSTM_STREAM_MAX	4800
/* staging buffers per CPU: task, softirq, hardirq, NMI */
#define SWSTM_LEVELS		4

/*
 * A record's packet stream is, for each packet, a descriptor byte and
 * the packet's payload bytes (0, 1, 2, 4 or 8).  Descriptor: the type
 * (enum stp_packet_type) in bits 2:0, log2 of the payload size in bits
 * 4:3, a payload in bit 5, marked in bit 6, timestamped in bit 7.
 */
#define SWSTM_D_TYPE		0x07
#define SWSTM_D_LOG_SHIFT	3
#define SWSTM_D_PAYLOAD		0x20
#define SWSTM_D_MARKED		0x40
#define SWSTM_D_TS		0x80

/**
 * struct swstm_rec - header of a record: packets of one master/channel
 * @ts:		timestamp (ns, ktime_get_mono_fast_ns()) of the record's
 *		timestamped packets, taken when it entered the ring
 * @master:	STP master
 * @channel:	STP channel
 * @len:	bytes of packet stream after the header
 * @npkts:	packets in the stream
 *
 * A record is this header and its packet stream, in consecutive ring
 * slots; the stream follows the header directly.
 */
struct swstm_rec {
	u64	ts;
	u16	master;
	u16	channel;
	u16	len;
	u16	npkts;
};

/**
 * struct swstm_slot - one packet as the encoders see it
 * @ts:		timestamp (ns), timestamped only
 * @master:	STP master
 * @channel:	STP channel
 * @type:	enum stp_packet_type
 * @flags:	enum stp_packet_flags
 * @size:	payload bytes used, 0..8
 * @payload:	packet data, little-endian as written
 */
struct swstm_slot {
	u64		ts;
	u16		master;
	u16		channel;
	u8		type;
	u8		flags;
	u8		size;
	u8		payload[SWSTM_MAX_PAYLOAD];
};

/**
 * struct swstm_stage - packets of a message being staged (main.c)
 * @busy:	a writer on this CPU is using the buffer (see main.c)
 * @master:	master of the staged packets
 * @channel:	channel of the staged packets
 * @len:	bytes of @stream used; 0 when nothing is staged
 * @npkts:	packets staged (its payload bytes: @len - @npkts, one
 *		descriptor byte a packet)
 * @since:	jiffies when the first staged packet came
 * @stream:	the packet stream of the record to be (8-byte aligned)
 */
struct swstm_stage {
	bool		busy;
	u16		master;
	u16		channel;
	u16		len;
	u16		npkts;
	unsigned long	since;
	u8		stream[SWSTM_STREAM_MAX] __aligned(8);
};

/**
 * struct swstm_cpu - one CPU's staging buffers and their flusher
 * @stage:	a buffer for each context level (task, softirq, hardirq, NMI)
 * @flush_csd:	IPI that flushes the buffers on this CPU (the sink's request)
 * @flush_pending: bit 0 set while @flush_csd is queued or running: only
 *		its owner may queue it (see swstm_stage_check())
 * @sw:		the device
 */
struct swstm_cpu {
	struct swstm_stage	stage[SWSTM_LEVELS];
	call_single_data_t	flush_csd;
	unsigned long		flush_pending;
	struct swstm_dev	*sw;
} ____cacheline_aligned;

/* per-CPU write-side counters; local64_t updates are NMI-safe */
struct swstm_stats {
	local64_t	packets;
	local64_t	bytes;
};

/**
 * struct swstm_ring - bounded multi-producer ring of records
 * @data:	the slots, a power-of-two count of SWSTM_SLOT_SIZE bytes
 * @seq:	one word per slot: (position + 1) << SWSTM_LOST_BITS, with
 *		the record's lost count in the low bits, once the record
 *		starting at that position is committed (see ring.c)
 * @mask:	number of slots - 1
 * @stream_max:	packet stream bytes of one record at most
 * @stats:	per-CPU packet and byte counts of stored packets
 * @overwrite:	full ring: false drops new records, true drops the oldest
 * @drops:	packets lost in total (rejected or overwritten)
 * @head:	next position a producer claims, shifted left by
 *		SWSTM_LOST_BITS, with the packets dropped at that position
 *		(saturated) in the low bits: whoever claims the position
 *		takes the count in the same cmpxchg, so a loss is marked
 *		exactly where it happened
 * @tail:	next position to consume (by the reader or an overwriter),
 *		always a record's first slot, shifted left by
 *		SWSTM_LOST_BITS, with the packets discarded by overwriters
 *		since the reader's last record, and the losses those
 *		carried (saturated), in the low bits: the reader takes the
 *		count with the cmpxchg that claims its next record
 */
struct swstm_ring {
	u8				*data;
	swstm_seq_t			*seq;
	unsigned long			mask;
	unsigned int			stream_max;
	struct swstm_stats __percpu	*stats;
	bool				overwrite;
	atomic_long_t			drops;

	swstm_aword_t			head ____cacheline_aligned_in_smp;
	swstm_aword_t			tail ____cacheline_aligned_in_smp;
};

/**
 * struct swstm_enc - state of the STPv2 encoder of one reader
 * @buf:	output bytes; bytes [@rd, @wr) are ready for the user, and if
 *		@half is set, the low nibble of buf[@wr] is already emitted
 * @cap:	size of @buf
 * @rd:		first byte not yet copied to the user
 * @wr:		first incomplete byte
 * @half:	a nibble is pending in buf[@wr]
 * @master_ok:	@master is what a decoder currently knows
 * @chan_ok:	@channel is what a decoder currently knows
 * @ts_ok:	@last_ts is what a decoder currently knows
 * @master:	current master
 * @channel:	current channel
 * @last_ts:	last timestamp emitted
 * @ts_floor:	highest timestamp emitted since open
 * @out:	bytes emitted in total
 * @sync_at:	@out when the last ASYNC started
 * @synced:	at least one ASYNC was emitted
 * @sync_interval: bytes between periodic syncs, 0 = only at open
 * @riscv:	emit RISC-V encapsulation (encode_riscv.c), not STPv2
 * @srcid_bits:	RISC-V: srcID width in bits, 0..16
 * @ts_bytes:	RISC-V: timestamp width in bytes, 0..8
 * @rec:	the record being encoded: header and stream
 * @rec_pos:	next packet's offset in @rec's stream
 * @rec_lost:	packets lost before @rec, not yet emitted
 */
struct swstm_enc {
	u8		*buf;
	size_t		cap;
	size_t		rd;
	size_t		wr;
	bool		half;
	bool		master_ok;
	bool		chan_ok;
	bool		ts_ok;
	u16		master;
	u16		channel;
	u64		last_ts;
	u64		ts_floor;
	u64		out;
	u64		sync_at;
	bool		synced;
	unsigned int	sync_interval;
	bool		riscv;
	u8		srcid_bits;
	u8		ts_bytes;
	struct swstm_rec *rec;
	unsigned int	rec_pos;
	unsigned long	rec_lost;
};

/*
 * The most bytes one slot can add to the output, a sync included: for
 * RISC-V a sync (at most 42 bytes), a loss packet and a packet (at most
 * 14 and 25 bytes).
 */
#define SWSTM_ENC_MAX		96

/*
 * Output format of a device's sink, one word so that a reader sees one
 * consistent setting: SWSTM_FMT_* in bits 7:0, srcID bits in 15:8,
 * timestamp bytes in 23:16 (RISC-V only).
 */
#define SWSTM_FMT_STP		0
#define SWSTM_FMT_RISCV		1
#define SWSTM_RV_MAX_SRCID	16
#define SWSTM_RV_MAX_TS		8
#define SWSTM_FORMAT(fmt, bits, ts)	((fmt) | (bits) << 8 | (ts) << 16)
#define SWSTM_FORMAT_FMT(f)		((f) & 0xff)
#define SWSTM_FORMAT_SRCID(f)		(((f) >> 8) & 0xff)
#define SWSTM_FORMAT_TS(f)		(((f) >> 16) & 0xff)

/**
 * struct swstm_dev - one software STM device and its sink
 * @stm:	the STM class device description
 * @ring:	packet ring
 * @misc:	the sink char device; parent of the STM device
 * @wq:		readers and pollers of the sink wait here
 * @wake_work:	wakes @wq; queued from the write path (NMI-safe)
 * @waiting:	a reader waits for data: the write path must wake it
 * @reader:	bit 0 set while the sink is open
 * @bytes_read:	STP bytes copied to readers
 * @format:	output format for the next open, SWSTM_FORMAT()
 * @cpus:	staging buffers, one struct swstm_cpu per possible CPU id
 * @stage_timer: asks CPUs to flush staged packets a waiting reader needs
 * @flush_ipis:	flush requests (IPIs) sent and not yet done
 * @name:	STM device name, "swstm.N"
 * @sink_name:	sink device name, "swstm.N-sink"
 */
struct swstm_dev {
	struct stm_data		stm;
	struct swstm_ring	ring;
	struct miscdevice	misc;
	wait_queue_head_t	wq;
	struct irq_work		wake_work;
	bool			waiting;
	unsigned long		reader;
	atomic64_t		bytes_read;
	unsigned int		format;
	struct swstm_cpu	*cpus;
	struct timer_list	stage_timer;
	atomic_t		flush_ipis;
	char			name[16];
	char			sink_name[24];
};

/* ring.c */
int swstm_ring_init(struct swstm_ring *ring, size_t bytes);
void swstm_ring_free(struct swstm_ring *ring);
bool swstm_ring_put(struct swstm_ring *ring, struct swstm_rec *rec,
		    const u8 *stream, unsigned int bytes);
bool swstm_ring_read(struct swstm_ring *ring, struct swstm_rec *out,
		     unsigned long *lost);
bool swstm_ring_readable(struct swstm_ring *ring);
unsigned long swstm_ring_idle_lost(struct swstm_ring *ring);
unsigned long swstm_ring_queued(struct swstm_ring *ring);
u64 swstm_ring_packets(struct swstm_ring *ring);
u64 swstm_ring_bytes(struct swstm_ring *ring);

/* encode.c */
void swstm_enc_init(struct swstm_enc *enc, u8 *buf, size_t cap,
		    struct swstm_rec *rec, unsigned int sync_interval,
		    unsigned int format);
bool swstm_enc_next(struct swstm_enc *enc, struct swstm_ring *ring,
		    struct swstm_slot *pkt, unsigned long *lost);
void swstm_enc_fill(struct swstm_enc *enc, struct swstm_ring *ring,
		    size_t want);

/* encode_riscv.c */
void swstm_rv_fill(struct swstm_enc *enc, struct swstm_ring *ring,
		   size_t want);

/* sink.c */
int swstm_sink_register(struct swstm_dev *sw);
void swstm_sink_unregister(struct swstm_dev *sw);
void swstm_sink_kick(struct swstm_dev *sw);

/* main.c */
extern unsigned int swstm_sync_interval;
void swstm_stage_check(struct swstm_dev *sw);
unsigned int swstm_default_format(void);

#endif /* _SWSTM_H_ */
