// SPDX-License-Identifier: GPL-2.0
/*
 * p_mtt: native Multi-Target Trace framing for the STM class.
 *
 * A write that is one complete MTT frame (the mtt source, libmtt) goes
 * out unchanged as one STP message: the first packet timestamped, the
 * last one marked.  Any other write (console, ftrace, heartbeat, plain
 * /dev/<stm> writes) is wrapped into TRACE frames carrying the bytes as a
 * STRING: context id (thread id, 0 in hard IRQ and NMI), a monotonic
 * timestamp, component id 0, trace id 0; writes longer than 65535 bytes
 * become several frames.
 */
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/mtt.h>
#include <linux/mtt_ptcl.h>

#include "stm.h"

#define MTT_WRAP_FLAGS	(MTT_FRAME_F_CTXT | MTT_FRAME_F_TS64)
#define MTT_WRAP_WORDS	(MTT_FRAME_PREAMBLE_WORDS + 3)

/*
 * One wrapped frame of @n payload bytes (n <= 0xffff) on @m/@c.
 * Context: any, NMI included, preemption disabled.
 * Return: @n or -errno.
 */
static ssize_t notrace mtt_wrap(struct stm_data *data, unsigned int m,
				unsigned int c, const u8 *buf, size_t n)
{
	__le32 head[MTT_WRAP_WORDS];
	__le64 ts = cpu_to_le64(ktime_get_mono_fast_ns());
	u32 ctxt = in_hardirq() || in_nmi() ? 0 : task_pid_nr(current);
	size_t body = n & ~(size_t)3, tail = n & 3;
	u8 last[4] = { 0 };
	ssize_t sz;

	head[0] = cpu_to_le32(MTT_FRAME_WORD0(min_t(unsigned int,
						    smp_processor_id(),
						    MTT_FRAME_TARGET_CPU_MAX)));
	head[1] = cpu_to_le32(MTT_FRAME_CMD_TRACE | MTT_WRAP_FLAGS);
	head[2] = 0;
	head[3] = 0;
	head[4] = cpu_to_le32(MTT_TRACEITEM_STRING(n));
	head[5] = cpu_to_le32(ctxt);
	memcpy(&head[6], &ts, sizeof(ts));

	/* The last packet (marked) is the payload's padded tail, or the
	 * end of the payload, or the end of the header.
	 */
	if (!n)
		return stm_data_write_marked(data, m, c, true, head,
					     sizeof(head)) < 0 ? -EIO : 0;
	sz = stm_data_write(data, m, c, true, head, sizeof(head));
	if (sz != sizeof(head))
		return sz < 0 ? sz : -EIO;
	if (!tail)
		return stm_data_write_marked(data, m, c, false, buf, n);
	if (body) {
		sz = stm_data_write(data, m, c, false, buf, body);
		if (sz != body)
			return sz < 0 ? sz : -EIO;
	}
	memcpy(last, buf + body, tail);
	sz = stm_data_write_marked(data, m, c, false, last, sizeof(last));
	return sz < 0 ? sz : n;
}

/* Context: any, NMI included; never sleeps. */
static ssize_t notrace mtt_pdrv_write(struct stm_data *data,
				      struct stm_output *output,
				      unsigned int chan, const char *buf,
				      size_t count,
				      struct stm_source_data *source)
{
	unsigned int m = output->master, c = output->channel + chan;
	size_t pos = 0;
	ssize_t sz;

	if (mtt_frame_ok(buf, count))
		return stm_data_write_marked(data, m, c, true, buf, count);

	do {
		size_t n = min_t(size_t, count - pos, MTT_TYPE_SIZE_MASK);

		sz = mtt_wrap(data, m, c, (const u8 *)buf + pos, n);
		if (sz < 0)
			return pos ? pos : sz;
		pos += n;
	} while (pos < count);
	return pos;
}

static const struct stm_protocol_driver mtt_pdrv = {
	.owner	= THIS_MODULE,
	.name	= "p_mtt",
	.write	= mtt_pdrv_write,
};

static int __init mtt_pdrv_init(void)
{
	return stm_register_protocol(&mtt_pdrv);
}
module_init(mtt_pdrv_init);

static void __exit mtt_pdrv_exit(void)
{
	stm_unregister_protocol(&mtt_pdrv);
}
module_exit(mtt_pdrv_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("STM protocol driver: native MTT frames (out-of-tree)");
