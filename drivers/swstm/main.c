// SPDX-License-Identifier: GPL-2.0
/*
 * swstm: a software STM (System Trace Module) device.
 *
 * Each of nr_devs devices registers an STM device "swstm.N" with the STM
 * class; what the class writes to it comes out, encoded as a MIPI STPv2
 * stream, from the sink /dev/swstm.N-sink.  See Documentation/swstm.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <uapi/linux/stm.h>

#include "swstm.h"

#define SWSTM_MAX_DEVS		16
#define SWSTM_MAX_CHANNELS	65536
#define SWSTM_MIN_SINK		SZ_4K
#define SWSTM_MAX_SINK		SZ_256M
#define SWSTM_MAX_SYNC		SZ_1G

static unsigned int nr_devs = 1;
module_param(nr_devs, uint, 0444);
MODULE_PARM_DESC(nr_devs, "number of swstm devices, 1..16 (default 1)");

static unsigned int master_min;
module_param(master_min, uint, 0444);
MODULE_PARM_DESC(master_min, "first STP master (default 0)");

static unsigned int master_max = 15;
module_param(master_max, uint, 0444);
MODULE_PARM_DESC(master_max, "last STP master, up to 65535 (default 15)");

static unsigned int nr_channels = 256;
module_param(nr_channels, uint, 0444);
MODULE_PARM_DESC(nr_channels, "channels per master, 1..65536 (default 256)");

static unsigned int sink_size = SZ_1M;
module_param(sink_size, uint, 0444);
MODULE_PARM_DESC(sink_size,
		 "sink buffer bytes, 4KiB..256MiB, rounded up to a power of two (default 1MiB)");

unsigned int swstm_sync_interval = 4096;
module_param_named(sync_interval, swstm_sync_interval, uint, 0444);
MODULE_PARM_DESC(sync_interval,
		 "STP bytes between ASYNC/VERSION/FREQ, 0 = only at open (default 4096)");

static char format[8] = "stp";
module_param_string(format, format, sizeof(format), 0444);
MODULE_PARM_DESC(format,
		 "sink stream format of every device at load: stp (MIPI STPv2, default) or riscv (RISC-V trace encapsulation)");

static unsigned int srcid_bits = 16;
module_param(srcid_bits, uint, 0444);
MODULE_PARM_DESC(srcid_bits, "riscv format: srcID bits at load, 0..16 (default 16)");

static unsigned int ts_bytes = 8;
module_param(ts_bytes, uint, 0444);
MODULE_PARM_DESC(ts_bytes, "riscv format: timestamp bytes at load, 0..8 (default 8)");

#ifdef STM_DATA_HAS_RUN
static bool data_run = true;
module_param(data_run, bool, 0444);
MODULE_PARM_DESC(data_run, "take a message's DATA packets in one call (our class's stm_data::data_run; N: a call per packet)");
#endif

static struct swstm_dev *swstm_devs[SWSTM_MAX_DEVS];

/* The SWSTM_FORMAT() word of the module parameters (checked at init). */
unsigned int swstm_default_format(void)
{
	unsigned int fmt = strcmp(format, "riscv") ? SWSTM_FMT_STP :
			   SWSTM_FMT_RISCV;

	return SWSTM_FORMAT(fmt, srcid_bits, ts_bytes);
}

/*
 * Staging.  A message reaches the device one STP packet at a time
 * (stm_data::packet, at most 8 bytes of payload each).  Rather than one
 * ring reservation per packet, the packets of a message are staged in a
 * buffer of the CPU and context level (task, softirq, hardirq, NMI) of
 * the writer, and the whole message goes into the ring as one record,
 * with one reservation, when it ends: at a FLAG, a marked DATA packet
 * (our class's p_basic and p_mtt end messages so), or a TRIG, MERR or
 * GERR.  Staged packets also go when the master or channel changes or
 * the buffer is full, so a record is always packets of one channel in
 * the order written.
 *
 * A buffer belongs to one context level of one CPU, so only a writer in
 * a context nested in it can interrupt its user, and the nested one
 * completes before the user resumes.  @busy marks the buffer in use: a
 * nested writer that finds it so (an exception or a tracing hook inside
 * swstm_packet(), an NMI during a flush request) stores its packet
 * directly as a record of its own.  A plain flag is enough for that:
 * everything that touches it runs on this CPU, strictly nested.
 *
 * Staging needs the writer to stay on its CPU from a message's first
 * packet to its last.  Our class calls protocols with preemption
 * disabled; a writer that calls with preemption enabled (upstream's
 * class writes from the char device so) may move between packets, so
 * its packets are stored at once, each as a record of its own.
 *
 * Nothing stays staged for long: a message that never ends (a writer
 * that gives up half-way) is flushed by the next packet on that buffer
 * for another channel, or, when the sink's reader finds the ring empty,
 * by an IPI the reader sends to CPUs whose buffers have held packets
 * for a tick or more (swstm_stage_check()).
 */

/*
 * Context level of a caller whose preemption count is @pc: 0 task,
 * 1 softirq, 2 hardirq, 3 NMI.  PREEMPT_RT counts softirqs in the task,
 * not in the preemption count.
 */
static __always_inline unsigned int swstm_level(unsigned long pc)
{
	if (unlikely(pc & (NMI_MASK | HARDIRQ_MASK)))
		return pc & NMI_MASK ? 3 : 2;
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return in_serving_softirq() ? 1 : 0;
	return pc & SOFTIRQ_OFFSET ? 1 : 0;
}

/*
 * Take @st for this context.  False if it is in use: by the context this
 * one interrupted, which resumes only after we return.
 * Context: preemption disabled.
 */
static __always_inline bool swstm_stage_claim(struct swstm_stage *st)
{
	if (unlikely(READ_ONCE(st->busy)))
		return false;
	WRITE_ONCE(st->busy, true);
	/*
	 * The flag before the buffer, for a context that interrupts us.
	 * Only this CPU touches @st while it runs (a compiler barrier is
	 * enough; pairs with swstm_stage_release(); ordering.rst, "The
	 * owner CPU").
	 */
	barrier();
	return true;
}

/* Give @st back.  Context: as swstm_stage_claim(), which took it. */
static __always_inline void swstm_stage_release(struct swstm_stage *st)
{
	/* the buffer before the flag; pairs with swstm_stage_claim() */
	barrier();
	WRITE_ONCE(st->busy, false);
}

/*
 * Store the staged packets of @st as one record and empty @st.
 * Context: any, preemption disabled, @st held (busy) by the caller.
 */
static notrace void swstm_stage_flush(struct swstm_dev *sw,
				      struct swstm_stage *st, bool ts)
{
	struct swstm_rec rec = {
		.ts		= ts,
		.master		= st->master,
		.channel	= st->channel,
		.len		= st->len,
		.npkts		= st->npkts,
	};

	if (swstm_ring_put(&sw->ring, &rec, st->stream, st->len - st->npkts))
		swstm_sink_kick(sw);
	st->len = 0;
}

/* Begin a record for @master/@channel in the empty @st.  Context: as below. */
static __always_inline void swstm_stage_start(struct swstm_stage *st,
					      unsigned int master,
					      unsigned int channel)
{
	st->master = master;
	st->channel = channel;
	st->npkts = 0;
	st->since = jiffies;
}

/*
 * Append a packet (descriptor @d, @n payload bytes) to @st's stream.
 * Context: any, preemption disabled, @st held; room checked.
 */
static __always_inline void swstm_stage_add(struct swstm_stage *st,
					    unsigned int d,
					    const unsigned char *payload,
					    unsigned int n)
{
	u8 *p = st->stream + st->len;

	*p++ = d;
	switch (n) {
	case 8:
		memcpy(p, payload, 8);
		break;
	case 4:
		memcpy(p, payload, 4);
		break;
	case 2:
		memcpy(p, payload, 2);
		break;
	case 1:
		*p = *payload;
		break;
	}
	st->len += 1 + n;
	st->npkts++;
}

/*
 * A packet that cannot be staged (its buffer is in use by the context
 * this one interrupted): a record of its own.  Context: any, preemption
 * disabled.
 */
static noinline notrace void
swstm_packet_direct(struct swstm_dev *sw, unsigned int master,
		    unsigned int channel, unsigned int d,
		    const unsigned char *payload, unsigned int n)
{
	struct {
		struct swstm_rec	rec;
		/* whole 16-byte chunks are copied (ring.c) */
		u8			stream[16];
	} r = {
		.rec = {
			.ts		= !!(d & SWSTM_D_TS),
			.master		= master,
			.channel	= channel,
			.len		= 1 + n,
			.npkts		= 1,
		},
	};

	r.stream[0] = d;
	memcpy(r.stream + 1, payload, n);
	if (swstm_ring_put(&sw->ring, &r.rec, r.stream, n))
		swstm_sink_kick(sw);
}

/* does @st hold a timestamped packet?  (only its first one can be) */
static inline bool swstm_stage_ts(const struct swstm_stage *st)
{
	return st->stream[0] & SWSTM_D_TS;
}

/*
 * swstm_packet() for every packet but the middle ones of a message:
 * validates and stages it, stores the record at the end of a message.
 * Context: as swstm_packet().
 */
static noinline notrace ssize_t swstm_packet_slow(struct swstm_dev *sw,
						  unsigned int master,
						  unsigned int channel,
						  unsigned int packet,
						  unsigned int flags,
						  unsigned int size,
						  const unsigned char *payload)
{
	struct swstm_stage *st;
	unsigned int n, d;
	bool end, now;

	if (packet == STP_PACKET_DATA && size >= 8) {
		n = 8;
		d = 3 << SWSTM_D_LOG_SHIFT;
	} else {
		switch (packet) {
		case STP_PACKET_DATA:
			if (!size)
				return -EINVAL;
			/* 4, 2 or 1: size is below 8 here */
			n = rounddown_pow_of_two(size);
			break;
		case STP_PACKET_FLAG:
			n = 0;
			break;
		case STP_PACKET_TRIG:
		case STP_PACKET_MERR:
		case STP_PACKET_GERR:
			n = min(size, 1U);
			break;
		default:
			return -EINVAL;
		}
		d = n ? ilog2(n) << SWSTM_D_LOG_SHIFT : 0;
	}
	if (n)
		d |= SWSTM_D_PAYLOAD;
	d |= packet;
	if (flags & STP_PACKET_MARKED)
		d |= SWSTM_D_MARKED;
	if (flags & STP_PACKET_TIMESTAMPED)
		d |= SWSTM_D_TS;
	/* end of a message: a FLAG, a marked DATA packet, or a lone packet */
	end = packet != STP_PACKET_DATA || (flags & STP_PACKET_MARKED);
	/* a writer that may move to another CPU cannot stage */
	now = preemptible();

	preempt_disable_notrace();
	st = sw->cpus[raw_smp_processor_id()].stage;
	st += swstm_level(preempt_count());
	if (!swstm_stage_claim(st)) {
		swstm_packet_direct(sw, master, channel, d, payload, n);
		goto out;
	}

	if (st->len) {
		/*
		 * One record: one channel, one timestamp (its first packet
		 * is the only one stamped), room for this packet.
		 */
		if (st->master != master || st->channel != channel ||
		    (d & SWSTM_D_TS) ||
		    st->len + 1 + n > sw->ring.stream_max)
			swstm_stage_flush(sw, st, swstm_stage_ts(st));
	}
	if (!st->len)
		swstm_stage_start(st, master, channel);
	swstm_stage_add(st, d, payload, n);
	if (end || now)
		swstm_stage_flush(sw, st, swstm_stage_ts(st));
	swstm_stage_release(st);
out:
	preempt_enable_notrace();
	return n;
}

/*
 * stm_data::packet.  Any context, NMI included: no locks, no allocation,
 * no sleeping.  Stages the packet (see above); a full sink drops a
 * whole record (the stream marks it) but the packet is still reported
 * consumed, as hardware would.  Most packets are the 8-byte middle
 * packets of a message from a caller that disabled preemption: they
 * only append 9 bytes to a staging buffer, here.
 */
static notrace ssize_t swstm_packet(struct stm_data *data, unsigned int master,
				    unsigned int channel, unsigned int packet,
				    unsigned int flags, unsigned int size,
				    const unsigned char *payload)
{
	struct swstm_dev *sw = container_of(data, struct swstm_dev, stm);
	unsigned long pc = preempt_count();
	struct swstm_stage *st;
	u8 *p;

	/*
	 * pc != 0: preemption is off, so the caller stays on this CPU until
	 * we return, and the fast path needs no preempt_disable() of its own.
	 */
	if (unlikely(packet != STP_PACKET_DATA || size < 8 || flags || !pc))
		goto slow;
	st = &sw->cpus[raw_smp_processor_id()].stage[swstm_level(pc)];
	/* one register for it (gcc would otherwise compute it twice) */
	OPTIMIZER_HIDE_VAR(st);
	if (unlikely(!swstm_stage_claim(st)))
		goto slow;
	/* the middle of a staged message, with room for this packet */
	if (unlikely(!st->len || st->master != master ||
		     st->channel != channel ||
		     st->len + 1 + 8 > sw->ring.stream_max)) {
		swstm_stage_release(st);
		goto slow;
	}
	p = st->stream + st->len;
	*p = SWSTM_D_PAYLOAD | 3 << SWSTM_D_LOG_SHIFT | STP_PACKET_DATA;
	memcpy(p + 1, payload, 8);
	st->len += 1 + 8;
	st->npkts++;
	swstm_stage_release(st);
	return 8;

slow:
	return swstm_packet_slow(sw, master, channel, packet, flags, size,
				 payload);
}

#ifdef STM_DATA_HAS_RUN
/*
 * Append @k 8-byte DATA packets from @src to @st's stream: the middle of
 * a run, in a loop of its own with the stream position in a register
 * (swstm_stage_add() reloads @st->len after every store through a u8
 * pointer, which may alias it).
 * Context: any, preemption disabled, @st held; room for @k checked.
 */
static __always_inline void swstm_stage_add8(struct swstm_stage *st,
					     const unsigned char *src,
					     unsigned int k)
{
	u8 *p = st->stream + st->len;
	unsigned int i;

	for (i = 0; i < k; i++, p += 9, src += 8) {
		*p = SWSTM_D_PAYLOAD | 3 << SWSTM_D_LOG_SHIFT | STP_PACKET_DATA;
		memcpy(p + 1, src, 8);
	}
	st->len += 9 * k;
	st->npkts += k;
}

/*
 * swstm_data_run()'s packets one call of swstm_packet_slow() each, as
 * without the run: for a writer that may move to another CPU, or a
 * buffer held by the context this one interrupted.  Context: any.
 */
static noinline notrace ssize_t
swstm_run_one_by_one(struct swstm_dev *sw, unsigned int master,
		     unsigned int channel, unsigned int flags,
		     const struct stm_run_seg *seg, unsigned int nseg,
		     size_t total)
{
	size_t done = 0;
	unsigned int i;

	for (i = 0; i < nseg; i++) {
		const unsigned char *buf = seg[i].buf;
		size_t count = seg[i].len, pos = 0;

		while (pos < count) {
			unsigned int f = done ? 0 :
					 flags & STP_PACKET_TIMESTAMPED;
			unsigned int n = 1U << stm_data_run_lg(count - pos);
			ssize_t sent;

			if (done + n == total)
				f |= flags & STP_PACKET_MARKED;
			sent = swstm_packet_slow(sw, master, channel,
						 STP_PACKET_DATA, f, n,
						 buf + pos);
			if (sent <= 0)
				return done ? done : sent;
			pos += n;
			done += n;
		}
	}
	return done;
}

/*
 * swstm_data_run()'s body, inlined twice: for one piece (p_basic, p_mtt;
 * @nseg a constant there: swstm_run1()) and for several (p_sys-t's
 * fields: swstm_runv()).
 * Context: as swstm_data_run().
 */
static __always_inline ssize_t swstm_run(struct swstm_dev *sw,
					 unsigned int master,
					 unsigned int channel,
					 unsigned int flags,
					 const struct stm_run_seg *seg,
					 unsigned int nseg)
{
	unsigned long pc = preempt_count();
	unsigned int i, n, d, lg;
	struct swstm_stage *st;
	size_t total = 0, done = 0;

	for (i = 0; i < nseg; i++)
		total += seg[i].len;
	if (unlikely(!total))
		return 0;
	/* pc != 0: preemption is off, we stay on this CPU (swstm_packet()) */
	if (unlikely(!pc))
		goto one_by_one;
	st = &sw->cpus[raw_smp_processor_id()].stage[swstm_level(pc)];
	if (unlikely(!swstm_stage_claim(st)))
		goto one_by_one;
	/* one record: one channel, its first packet the only one stamped */
	if (st->len && (st->master != master || st->channel != channel ||
			(flags & STP_PACKET_TIMESTAMPED)))
		swstm_stage_flush(sw, st, swstm_stage_ts(st));
	for (i = 0; i < nseg; i++) {
		const unsigned char *buf = seg[i].buf;
		size_t count = seg[i].len, pos = 0;

		while (pos < count) {
			/*
			 * The middle 8-byte packets of a started record:
			 * neither the run's first (stamped) nor its last
			 * (marked) one, as many as the record has room for.
			 */
			if (done && st->len && count - pos > 8) {
				n = min_t(size_t, (count - pos - 1) / 8,
					  (sw->ring.stream_max - st->len) / 9);
				if (n) {
					swstm_stage_add8(st, buf + pos, n);
					pos += 8 * n;
					done += 8 * n;
					continue;
				}
			}
			lg = stm_data_run_lg(count - pos);
			n = 1U << lg;
			d = SWSTM_D_PAYLOAD | lg << SWSTM_D_LOG_SHIFT |
			    STP_PACKET_DATA;
			if (!done && (flags & STP_PACKET_TIMESTAMPED))
				d |= SWSTM_D_TS;
			if (done + n == total && (flags & STP_PACKET_MARKED))
				d |= SWSTM_D_MARKED;
			if (unlikely(st->len + 1 + n > sw->ring.stream_max))
				swstm_stage_flush(sw, st, swstm_stage_ts(st));
			if (!st->len)
				swstm_stage_start(st, master, channel);
			swstm_stage_add(st, d, buf + pos, n);
			pos += n;
			done += n;
		}
	}
	/* a marked packet ends the message: the record goes to the ring */
	if (flags & STP_PACKET_MARKED)
		swstm_stage_flush(sw, st, swstm_stage_ts(st));
	swstm_stage_release(st);
	return done;

one_by_one:
	return swstm_run_one_by_one(sw, master, channel, flags, seg, nseg,
				    total);
}

/*
 * swstm_run() of one piece, and of several: each its own frame (the
 * caller only picks one, a tail call).  Context: as swstm_data_run().
 */
static noinline notrace ssize_t swstm_run1(struct swstm_dev *sw,
					   unsigned int master,
					   unsigned int channel,
					   unsigned int flags,
					   const struct stm_run_seg *seg)
{
	return swstm_run(sw, master, channel, flags, seg, 1);
}

static noinline notrace ssize_t swstm_runv(struct swstm_dev *sw,
					   unsigned int master,
					   unsigned int channel,
					   unsigned int flags,
					   const struct stm_run_seg *seg,
					   unsigned int nseg)
{
	return swstm_run(sw, master, channel, flags, seg, nseg);
}

/*
 * stm_data::data_run (our class only): the @nseg pieces at @seg on
 * @master/@channel, staged as swstm_packet() would stage the class's
 * packets one by one (the same records, the same packets: each piece cut
 * on its own), with one claim of the buffer.  Where that cannot stage (a
 * writer that may move to another CPU, or the buffer held by the context
 * this one interrupted), the packets go through swstm_packet_slow() one
 * by one, as they would without the run.
 * Context: any, NMI included; never sleeps.
 */
static notrace ssize_t swstm_data_run(struct stm_data *data,
				      unsigned int master,
				      unsigned int channel,
				      unsigned int flags,
				      const struct stm_run_seg *seg,
				      unsigned int nseg)
{
	struct swstm_dev *sw = container_of(data, struct swstm_dev, stm);

	if (nseg == 1)
		return swstm_run1(sw, master, channel, flags, seg);
	return swstm_runv(sw, master, channel, flags, seg, nseg);
}
#endif

/*
 * Store what this CPU's buffers hold (the sink's reader asked for it).
 * A buffer in use by the context this interrupted is left for its user.
 * Context: hard irq on the CPU of @info (an IPI, or the asking CPU's
 * own call with interrupts disabled).
 */
static void swstm_stage_flush_cpu(void *info)
{
	struct swstm_cpu *c = info;
	struct swstm_stage *st;
	unsigned int i;

	preempt_disable_notrace();
	for (i = 0; i < SWSTM_LEVELS; i++) {
		st = &c->stage[i];
		if (!READ_ONCE(st->len) || !swstm_stage_claim(st))
			continue;
		if (st->len)
			swstm_stage_flush(c->sw, st, swstm_stage_ts(st));
		swstm_stage_release(st);
	}
	preempt_enable_notrace();
}

/* swstm_stage_flush_cpu() as the sink's request.  Context: as it. */
static void swstm_stage_flush_ipi(void *info)
{
	struct swstm_cpu *c = info;
	struct swstm_dev *sw = c->sw;

	swstm_stage_flush_cpu(c);
	/*
	 * The next request may be queued from here on (the csd itself is
	 * released only after we return: a request that comes before
	 * that gets -EBUSY and gives the bit back, swstm_stage_check()).
	 * Release: the flush is done before anyone sees the bit clear;
	 * pairs with test_and_set_bit() in swstm_stage_check()
	 * (ordering.rst, "Flush requests").
	 */
	clear_bit_unlock(0, &c->flush_pending);
	/*
	 * Our last access to @info (the kernel's csd_unlock() of
	 * @c->flush_csd follows our return).  Unordered: module exit
	 * waits for this count, then orders everything with a synchronous
	 * call on each online CPU (swstm_stage_fini()).
	 */
	atomic_dec(&sw->flush_ipis);
}

/*
 * The sink's reader found the ring empty: ask every CPU whose buffers
 * have held packets for a tick or more to store them, and if some hold
 * packets for less, look again a little later (the reader waits).
 * Context: process or timer (softirq); reads other CPUs' buffers only
 * to decide whom to ask.
 */
void swstm_stage_check(struct swstm_dev *sw)
{
	bool fresh = false;
	unsigned int i;
	int cpu;

	for_each_online_cpu(cpu) {
		struct swstm_cpu *c = &sw->cpus[cpu];
		bool stale = false;

		for (i = 0; i < SWSTM_LEVELS; i++) {
			struct swstm_stage *st = &c->stage[i];

			/* racy: only decides whom to ask; the IPI rechecks */
			if (!data_race(READ_ONCE(st->len)))
				continue;
			/* racy as well: a wrong guess costs an IPI or a tick */
			if (time_after(jiffies, data_race(READ_ONCE(st->since))))
				stale = true;
			else
				fresh = true;
		}
		if (!stale)
			continue;
		/*
		 * Callers are not serialised (the stage timer, poll, a
		 * waiting read's condition, an O_NONBLOCK read outside the
		 * reader's lock), and smp_call_function_single_async()
		 * checks and marks the csd busy in two steps: two callers
		 * could both queue it, which links it into the target's
		 * call queue twice (a loop there: a hard lockup).  So only
		 * the caller that sets the pending bit may queue the csd;
		 * the bit is fully ordered (test_and_set_bit()) and given
		 * back by the handler once the flush is done, or here if
		 * the csd could not be queued (clear_bit_unlock() there
		 * and below pairs with this; ordering.rst, "Flush
		 * requests").  A request not sent now is retried by the
		 * timer while a reader waits.
		 */
		if (test_and_set_bit(0, &c->flush_pending)) {
			fresh = true;
			continue;
		}
		atomic_inc(&sw->flush_ipis);
		/*
		 * -EBUSY: the handler gave the bit back but the csd is not
		 * released yet; -ENXIO: the CPU went offline (its buffers
		 * are flushed by the hotplug callback)
		 */
		if (smp_call_function_single_async(cpu, &c->flush_csd)) {
			/* pairs with test_and_set_bit() above, as the IPI's */
			clear_bit_unlock(0, &c->flush_pending);
			atomic_dec(&sw->flush_ipis);
			fresh = true;
		}
	}
	if (fresh && READ_ONCE(sw->waiting))
		mod_timer(&sw->stage_timer, jiffies + 2);
}

/* timer: look at the buffers again for a waiting reader.  Softirq. */
static void swstm_stage_timer(struct timer_list *t)
{
	struct swstm_dev *sw = from_timer(sw, t, stage_timer);

	if (READ_ONCE(sw->waiting))
		swstm_stage_check(sw);
}

/* Module init. */
static int swstm_stage_init(struct swstm_dev *sw)
{
	int cpu;

	sw->cpus = vzalloc(array_size(nr_cpu_ids, sizeof(*sw->cpus)));
	if (!sw->cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		sw->cpus[cpu].sw = sw;
		INIT_CSD(&sw->cpus[cpu].flush_csd, swstm_stage_flush_ipi,
			 &sw->cpus[cpu]);
	}
	timer_setup(&sw->stage_timer, swstm_stage_timer, 0);
	return 0;
}

/*
 * Store what the buffers of @c, a CPU that runs nothing (offline or
 * dead), still hold.  Context: process, on another CPU.
 */
static void swstm_stage_flush_offline(struct swstm_dev *sw,
				      struct swstm_cpu *c)
{
	unsigned int i;

	for (i = 0; i < SWSTM_LEVELS; i++) {
		if (!c->stage[i].len)
			continue;
		preempt_disable();
		swstm_stage_flush(sw, &c->stage[i],
				  swstm_stage_ts(&c->stage[i]));
		preempt_enable();
	}
}

/*
 * Module exit, once no writer is left: store what is still staged (a
 * reader may still read it until the sink goes) and stop the flushers.
 */
static void swstm_stage_fini(struct swstm_dev *sw)
{
	int cpu;

	del_timer_sync(&sw->stage_timer);
	/*
	 * The sink is closed: no new request; wait for those on their way.
	 * The count is unordered: what orders their last accesses before
	 * the free is the synchronous call below, or for a CPU that is
	 * offline the CPU hotplug core (ordering.rst, "Flush requests").
	 */
	while (atomic_read(&sw->flush_ipis))
		cpu_relax();
	for_each_possible_cpu(cpu) {
		struct swstm_cpu *c = &sw->cpus[cpu];

		/* a CPU flushes its own buffers; an offline one uses none */
		if (cpu_online(cpu) &&
		    !smp_call_function_single(cpu, swstm_stage_flush_cpu, c, 1))
			continue;
		swstm_stage_flush_offline(sw, c);
	}
}

/* our dynamic CPU hotplug state (module init), 0 if none */
static int swstm_cpuhp_state;

/*
 * CPU hotplug: @cpu is dead.  Store the packets its buffers still hold
 * (the reader asks online CPUs only, so they would wait for the CPU to
 * come back, or for the module to go).  The teardown of a "prepare"
 * state runs on the controlling CPU once @cpu has stopped: nothing
 * touches its buffers any more, and a flush request on its way was run
 * by @cpu before it stopped.  Context: process, CPU hotplug locked.
 */
static int swstm_cpu_dead(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < nr_devs; i++)
		if (swstm_devs[i])
			swstm_stage_flush_offline(swstm_devs[i],
						  &swstm_devs[i]->cpus[cpu]);
	return 0;
}

/* Module init. */
static int swstm_dev_create(unsigned int id, size_t ring_bytes)
{
	struct swstm_dev *sw;
	int err;

	sw = kzalloc(sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return -ENOMEM;
	snprintf(sw->name, sizeof(sw->name), "swstm.%u", id);
	snprintf(sw->sink_name, sizeof(sw->sink_name), "swstm.%u-sink", id);
	sw->format = swstm_default_format();

	err = swstm_ring_init(&sw->ring, ring_bytes);
	if (err)
		goto err_free;
	err = swstm_stage_init(sw);
	if (err)
		goto err_ring;
	err = swstm_sink_register(sw);
	if (err)
		goto err_ring;

	sw->stm.name = sw->name;
	sw->stm.sw_start = master_min;
	sw->stm.sw_end = master_max;
	sw->stm.sw_nchannels = nr_channels;
	sw->stm.sw_mmiosz = 0;
	sw->stm.packet = swstm_packet;
#ifdef STM_DATA_HAS_RUN
	if (data_run)
		sw->stm.data_run = swstm_data_run;
#endif
	err = stm_register_device(sw->misc.this_device, &sw->stm, THIS_MODULE);
	if (err)
		goto err_sink;

	swstm_devs[id] = sw;
	return 0;

err_sink:
	swstm_sink_unregister(sw);
err_ring:
	vfree(sw->cpus);
	swstm_ring_free(&sw->ring);
err_free:
	kfree(sw);
	return err;
}

/* Module init (error path) and exit. */
static void swstm_dev_destroy(unsigned int id)
{
	struct swstm_dev *sw = swstm_devs[id];

	/* no packet() call is in flight once this returns */
	stm_unregister_device(&sw->stm);
	swstm_stage_fini(sw);
	swstm_sink_unregister(sw);
	vfree(sw->cpus);
	swstm_ring_free(&sw->ring);
	kfree(sw);
	swstm_devs[id] = NULL;
}

static int __init swstm_check_params(void)
{
	if (nr_devs < 1 || nr_devs > SWSTM_MAX_DEVS) {
		pr_err("nr_devs=%u: must be 1..%u\n", nr_devs, SWSTM_MAX_DEVS);
		return -EINVAL;
	}
	if (master_min > master_max || master_max > STP_MASTER_MAX) {
		pr_err("master_min=%u master_max=%u: need master_min <= master_max <= %u\n",
		       master_min, master_max, STP_MASTER_MAX);
		return -EINVAL;
	}
	if (nr_channels < 1 || nr_channels > SWSTM_MAX_CHANNELS) {
		pr_err("nr_channels=%u: must be 1..%u\n", nr_channels,
		       SWSTM_MAX_CHANNELS);
		return -EINVAL;
	}
	if (sink_size < SWSTM_MIN_SINK || sink_size > SWSTM_MAX_SINK) {
		pr_err("sink_size=%u: must be %u..%u bytes\n", sink_size,
		       SWSTM_MIN_SINK, SWSTM_MAX_SINK);
		return -EINVAL;
	}
	if (swstm_sync_interval > SWSTM_MAX_SYNC) {
		pr_err("sync_interval=%u: must be 0..%u bytes\n",
		       swstm_sync_interval, SWSTM_MAX_SYNC);
		return -EINVAL;
	}
	if (strcmp(format, "stp") && strcmp(format, "riscv")) {
		pr_err("format=%s: must be stp or riscv\n", format);
		return -EINVAL;
	}
	if (srcid_bits > SWSTM_RV_MAX_SRCID || ts_bytes > SWSTM_RV_MAX_TS) {
		pr_err("srcid_bits=%u ts_bytes=%u: must be 0..%u and 0..%u\n",
		       srcid_bits, ts_bytes, SWSTM_RV_MAX_SRCID,
		       SWSTM_RV_MAX_TS);
		return -EINVAL;
	}
	return 0;
}

static int __init swstm_init(void)
{
	unsigned int i;
	int err;

	err = swstm_check_params();
	if (err)
		return err;

	for (i = 0; i < nr_devs; i++) {
		err = swstm_dev_create(i, roundup_pow_of_two(sink_size));
		if (err) {
			pr_err("swstm.%u: cannot create device: %d\n", i, err);
			goto err_destroy;
		}
	}
	/* no callback for CPUs already up: their buffers are in use */
	err = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "swstm:dead",
					NULL, swstm_cpu_dead);
	if (err < 0) {
		pr_err("cannot set up the CPU hotplug callback: %d\n", err);
		goto err_destroy;
	}
	swstm_cpuhp_state = err;
	return 0;

err_destroy:
	while (i--)
		swstm_dev_destroy(i);
	return err;
}

static void __exit swstm_exit(void)
{
	unsigned int i;

	/* before the devices go: the callback uses them */
	cpuhp_remove_state_nocalls(swstm_cpuhp_state);
	for (i = nr_devs; i--; )
		swstm_dev_destroy(i);
}

module_init(swstm_init);
module_exit(swstm_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Software STM device: STP packets to an STPv2 sink");
