// SPDX-License-Identifier: GPL-2.0
/*
 * Building native MTT frames (include/uapi/linux/mtt_frame.h) in per-CPU
 * buffers and sending them: mtt_trace(), mtt_print(), mtt_data_raw() and
 * the META frame that names a component.
 *
 * Each CPU has MTT_NEST preallocated frame buffers, one per nesting
 * depth: a trace point interrupted by an IRQ or NMI that traces too
 * keeps its buffer, the interrupting one takes the next.  Nothing on
 * this path allocates, locks or sleeps.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <uapi/linux/mtt_frame.h>

#include "mtt_internal.h"

/* context id, 64-bit timestamp, level */
#define MTT_HEAD_BYTES		(MTT_FRAME_PREAMBLE_BYTES + 16)
#define MTT_HEAD_FLAGS		(MTT_FRAME_F_CTXT | MTT_FRAME_F_TS64 | \
				 MTT_FRAME_F_LEVEL)
/* Largest payload: what is left with a hint. */
#define MTT_PAYLOAD_MAX		(MTT_BUF_BYTES - MTT_HEAD_BYTES - \
				 MTT_FRAME_HINT_BYTES)

/**
 * struct mtt_cpu - one CPU's frame buffers
 * @depth:	buffers in use (trace points in progress on this CPU)
 * @buf:	MTT_NEST buffers of MTT_BUF_BYTES bytes
 */
struct mtt_cpu {
	unsigned int	depth;
	u8		*buf;
};

static struct mtt_cpu __percpu *mtt_cpus;

/**
 * struct mtt_slot - a frame buffer taken by one trace point
 * @buf:	the buffer (8-byte aligned)
 * @cpu:	the CPU it belongs to
 * @depth:	its nesting depth
 */
struct mtt_slot {
	u8		*buf;
	unsigned int	cpu;
	unsigned int	depth;
};

/*
 * Take this CPU's next buffer; false when nested too deep.  Context: any,
 * preemption disabled.  An interrupt in between takes and gives back its
 * own buffer before this one resumes, so the counter needs no atomics.
 */
static bool notrace mtt_slot_get(struct mtt_slot *s)
{
	struct mtt_cpu *mc = this_cpu_ptr(mtt_cpus);

	s->depth = this_cpu_inc_return(mtt_cpus->depth) - 1;
	/*
	 * The count before the buffer: only this CPU touches them, so a
	 * compiler barrier is enough; pairs with mtt_slot_put()'s
	 * (Documentation/ordering.rst, "Frame buffers").
	 */
	barrier();
	if (s->depth >= MTT_NEST)
		return false;
	s->cpu = smp_processor_id();
	s->buf = mc->buf + s->depth * MTT_BUF_BYTES;
	return true;
}

/* Give the buffer back.  Context: any, preemption disabled. */
static void notrace mtt_slot_put(void)
{
	/* the buffer before the count; pairs with mtt_slot_get()'s */
	barrier();
	this_cpu_dec(mtt_cpus->depth);
}

/*
 * Write the preamble and the optional words: context id (the thread's,
 * 0 in hard IRQ and NMI context), monotonic timestamp in ns, and the
 * level unless this is a META frame.  Return the header length.
 * Context: any.
 */
static unsigned int notrace mtt_head(u8 *buf, unsigned int cpu, u32 cmd,
				     u32 flags, u32 comp_id, u32 trace_id,
				     u32 type_info, u32 level)
{
	__le32 *w = (__le32 *)buf;
	__le64 ts = cpu_to_le64(ktime_get_mono_fast_ns());
	u32 ctxt = in_hardirq() || in_nmi() ? 0 : task_pid_nr(current);

	flags |= MTT_HEAD_FLAGS;
	if (cmd == MTT_FRAME_CMD_META)
		flags &= ~MTT_FRAME_F_LEVEL;
	w[0] = cpu_to_le32(MTT_FRAME_WORD0(min_t(unsigned int, cpu,
						 MTT_FRAME_TARGET_CPU_MAX)));
	w[1] = cpu_to_le32(cmd | flags);
	w[2] = cpu_to_le32(comp_id);
	w[3] = cpu_to_le32(trace_id);
	w[4] = cpu_to_le32(type_info);
	w[5] = cpu_to_le32(ctxt);
	memcpy(&w[6], &ts, sizeof(ts));
	if (!(flags & MTT_FRAME_F_LEVEL))
		return MTT_HEAD_BYTES - 4;
	w[8] = cpu_to_le32(level);
	return MTT_HEAD_BYTES;
}

/* Zero-pad @len to a multiple of 4.  Context: any. */
static unsigned int notrace mtt_pad(u8 *buf, unsigned int len)
{
	while (len & 3)
		buf[len++] = 0;
	return len;
}

/*
 * Append @hint in exactly MTT_FRAME_HINT_BYTES bytes: cut, or NUL-padded.
 * Context: any.
 */
static unsigned int notrace mtt_put_hint(u8 *buf, unsigned int len,
					 const char *hint)
{
	size_t n = strnlen(hint, MTT_FRAME_HINT_BYTES);

	memcpy(buf + len, hint, n);
	memset(buf + len + n, 0, MTT_FRAME_HINT_BYTES - n);
	return len + MTT_FRAME_HINT_BYTES;
}

/*
 * Send the frame in @s, count it and give the buffer back.
 * Context: any, preemption disabled.
 */
static mtt_return_t notrace mtt_finish(struct mtt_comp *c,
				       struct mtt_slot *s, unsigned int len)
{
	int ret;

	ret = mtt_send(c, s->buf, len, s->cpu, s->depth);
	mtt_slot_put();
	if (ret < 0) {
		this_cpu_inc(c->stats->dropped);
		return MTT_ERR_CONNECTION;
	}
	this_cpu_inc(c->stats->sent);
	return MTT_ERR_NONE;
}

/*
 * One frame: header, @size bytes of @data, the hint if any.
 * Context: any, NMI included.
 */
static mtt_return_t notrace mtt_emit(struct mtt_comp *c, u32 cmd, u32 level,
				     u32 type_info, const void *data,
				     unsigned int size, const char *hint,
				     unsigned long ip)
{
	u32 flags = hint && *hint ? MTT_FRAME_F_HINT : 0;
	u32 trace_id = (u32)ip;
	struct mtt_slot s;
	mtt_return_t ret;
	unsigned int len;

	/* dict mode: the hint's dictionary id instead, when it has one */
	if (flags && READ_ONCE(mtt_hints_dict)) {
		u32 id = mtt_dict_id(hint);

		if (id) {
			flags = MTT_FRAME_F_DICT;
			trace_id = id;
		}
	}

	preempt_disable_notrace();
	if (!mtt_slot_get(&s)) {
		mtt_slot_put();
		this_cpu_inc(c->stats->dropped);
		preempt_enable_notrace();
		return MTT_ERR_OTHER;
	}
	len = mtt_head(s.buf, s.cpu, cmd, flags, c->id, trace_id, type_info,
		       level);
	memcpy(s.buf + len, data, size);
	len = mtt_pad(s.buf, len + size);
	if (flags & MTT_FRAME_F_HINT)
		len = mtt_put_hint(s.buf, len, hint);
	ret = mtt_finish(c, &s, len);
	preempt_enable_notrace();
	return ret;
}

/**
 * __mtt_trace() - send a trace that passed the filters (see mtt_trace())
 * @comp:	the component
 * @level:	its level
 * @type_info:	type, flags and payload size (at most 4048 bytes)
 * @data:	payload
 * @hint:	name of the value or NULL
 *
 * Context: any, NMI included; never sleeps or allocates.
 * Return: MTT_ERR_NONE; MTT_ERR_PARAM for a bad size or NULL data;
 * MTT_ERR_CONNECTION when the source is not linked or the class refused;
 * MTT_ERR_OTHER when nested too deep on this CPU.
 */
mtt_return_t notrace __mtt_trace(struct mtt_component *comp, u32 level,
				 u32 type_info, const void *data,
				 const char *hint)
{
	unsigned int size = MTT_TYPE_SIZE(type_info);

	if (size > MTT_PAYLOAD_MAX || (size && !data))
		return MTT_ERR_PARAM;
	return mtt_emit(to_mtt_comp(comp), MTT_FRAME_CMD_TRACE, level, type_info,
			data, size, hint, _RET_IP_);
}
EXPORT_SYMBOL_GPL(__mtt_trace);

/**
 * __mtt_print() - send formatted text that passed the filters
 * @comp:	the component
 * @level:	its level
 * @fmt:	printf format (vsnprintf's), the text is cut to 4048 bytes
 *
 * The payload is the text without a NUL, type_info STRING(length).
 * Context: any, NMI included.
 * Return: as __mtt_trace().
 */
mtt_return_t notrace __mtt_print(struct mtt_component *comp, u32 level,
				 const char *fmt, ...)
{
	struct mtt_comp *c = to_mtt_comp(comp);
	struct mtt_slot s;
	mtt_return_t ret;
	unsigned int len;
	va_list args;
	int n;

	preempt_disable_notrace();
	if (!mtt_slot_get(&s)) {
		mtt_slot_put();
		this_cpu_inc(c->stats->dropped);
		preempt_enable_notrace();
		return MTT_ERR_OTHER;
	}
	va_start(args, fmt);
	n = vscnprintf(s.buf + MTT_HEAD_BYTES, MTT_PAYLOAD_MAX + 1, fmt,
		       args);
	va_end(args);
	len = mtt_head(s.buf, s.cpu, MTT_FRAME_CMD_TRACE, 0, c->id, (u32)_RET_IP_,
		       MTT_TRACEITEM_STRING(n), level);
	len = mtt_pad(s.buf, len + n);
	ret = mtt_finish(c, &s, len);
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_GPL(__mtt_print);

/**
 * mtt_data_raw() - send bytes as a RAW frame of a component given by id
 * @componentid: the component's id
 * @level:	level, filtered like a trace
 * @length:	bytes at @data (at most 4048)
 * @data:	payload; type_info BLOB(@length)
 *
 * Context: any, NMI included.
 * Return: MTT_ERR_NONE (sent or filtered out), MTT_ERR_PARAM (no such
 * component, bad length), MTT_ERR_CONNECTION (nothing sent) where RCU is
 * not watching, or as __mtt_trace().
 */
mtt_return_t notrace mtt_data_raw(const u32 componentid, const u32 level,
				  const u32 length, const void *data)
{
	mtt_return_t ret = MTT_ERR_PARAM;
	struct mtt_comp *c;

	if (length > MTT_PAYLOAD_MAX || (length && !data))
		return MTT_ERR_PARAM;
	/*
	 * The list is read under RCU, which protects nothing where RCU is
	 * not watching this CPU (a function-trace callback in the idle
	 * loop or in entry code): mtt_close()'s synchronize_rcu() would not
	 * wait for us.  Refused there, as stm_source_write() refuses.
	 */
	if (unlikely(!rcu_is_watching()))
		return MTT_ERR_CONNECTION;
	rcu_read_lock();
	list_for_each_entry_rcu(c, &mtt_components, entry) {
		if (c->id != componentid)
			continue;
		ret = MTT_ERR_NONE;
		if (mtt_level_on(&c->pub, level))
			ret = mtt_emit(c, MTT_FRAME_CMD_RAW, level,
				       MTT_TRACEITEM_BLOB(length), data,
				       length, NULL, _RET_IP_);
		break;
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(mtt_data_raw);

/*
 * A META frame naming @c: type_info STRING(length of the name), the
 * name as payload, level 0.  Sent at mtt_open() and when the source is
 * linked.  Context: process.
 */
void mtt_send_meta(struct mtt_comp *c)
{
	unsigned int n = strlen(c->name);

	mtt_emit(c, MTT_FRAME_CMD_META, 0, MTT_TRACEITEM_STRING(n), c->name, n,
		 NULL, 0);
}

/* Context: process (module init). */
int mtt_frames_init(void)
{
	int cpu;

	mtt_cpus = alloc_percpu(struct mtt_cpu);
	if (!mtt_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct mtt_cpu *mc = per_cpu_ptr(mtt_cpus, cpu);

		mc->buf = kmalloc_node(MTT_NEST * MTT_BUF_BYTES, GFP_KERNEL,
				       cpu_to_node(cpu));
		if (!mc->buf) {
			mtt_frames_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/* Context: process (module exit, or a failed init). */
void mtt_frames_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(per_cpu_ptr(mtt_cpus, cpu)->buf);
	free_percpu(mtt_cpus);
	mtt_cpus = NULL;
}
