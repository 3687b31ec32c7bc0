// SPDX-License-Identifier: GPL-2.0
/*
 * p_sys-t: MIPI SyS-T framing for the STM class.
 *
 * A write that is one native MTT frame (Documentation/mtt.rst) becomes a
 * RAW message of subtype 0x31 with that frame as payload, its severity
 * from the frame's level and its unit from the component id.
 * Every other write becomes one SyS-T STRING/GENERIC message on the writer's
 * channel: a 32-bit header in a timestamped STP packet, the policy node's
 * GUID (or an origin in the header instead), optionally the payload
 * length, optionally a SyS-T timestamp, the payload as given (no NUL
 * added), optionally a CRC-32C, then an STP FLAG.  When the node asks for
 * it, a CLOCK/TRANSPORT_SYNC message goes out first every
 * clocksync_interval milliseconds.
 *
 * The node's settings are copied when an output (an fd's channels or a
 * linked source) is opened; later changes to the node apply to later
 * opens only.  The write path runs in any context, NMI included: it
 * neither allocates nor locks, and the per-output interval state is
 * updated with cmpxchg().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/configfs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uuid.h>
#include <linux/mtt.h>
#include <linux/mtt_ptcl.h>

#include "stm.h"

/* SyS-T message header (u32, little-endian on the wire) */
#define SYST_HDR_TYPE		GENMASK(3, 0)
#define SYST_HDR_SEVERITY	GENMASK(6, 4)
#define SYST_HDR_LEN		BIT(9)
#define SYST_HDR_CHK		BIT(10)
#define SYST_HDR_TS		BIT(11)
#define SYST_HDR_ORIGIN		GENMASK(22, 12)
#define SYST_HDR_GUID		BIT(23)
#define SYST_HDR_SUBTYPE	GENMASK(29, 24)

#define SYST_TYPE_STRING	2
#define SYST_TYPE_RAW		6
#define SYST_TYPE_CLOCK		8
#define SYST_STRING_GENERIC	1
#define SYST_CLOCK_SYNC		1

#define SYST_SEVERITY_MAX	0
#define SYST_SEVERITY_FATAL	1
#define SYST_SEVERITY_ERROR	2
#define SYST_SEVERITY_WARNING	3
#define SYST_SEVERITY_INFO	4
#define SYST_SEVERITY_USER1	5
#define SYST_SEVERITY_USER2	6
#define SYST_SEVERITY_DEBUG	7
#define SYST_HDR_UNIT		GENMASK(15, 12)

/* origin: module (7 bits) << 4 | unit (4 bits); -1: send the GUID */
#define SYST_ORIGIN_NONE	(-1)
#define SYST_MODULE_MAX		127
#define SYST_UNIT_MAX		15

/* CRC-32C (Castagnoli), reflected */
#define SYST_CRC32C_POLY	0x82f63b78

/**
 * struct sys_t_policy_node - p_sys-t settings of one policy node
 * @uuid:		GUID sent with every data message
 * @do_len:		send the payload length
 * @crc:		append a CRC-32C
 * @severity:		SyS-T severity of data messages, 0..7
 * @origin:		(module << 4) | unit sent instead of the GUID, or
 *			SYST_ORIGIN_NONE
 * @ts_interval:	ms between SyS-T timestamps, 0 = never
 * @clocksync_interval:	ms between clock sync messages, 0 = never
 */
struct sys_t_policy_node {
	uuid_t		uuid;
	bool		do_len;
	bool		crc;
	u8		severity;
	int		origin;
	unsigned int	ts_interval;
	unsigned int	clocksync_interval;
};

/**
 * struct sys_t_output - per-output state, fixed at open but for the stamps
 * @node:		the node's settings, copied at open
 * @header:		data message header without the TS bit
 * @clock_header:	clock sync message header
 * @ts_interval:	@node.ts_interval in microseconds
 * @clocksync_interval:	@node.clocksync_interval in microseconds
 * @ts_last:		when the last timestamp went out (us, cmpxchg)
 * @clocksync_last:	when the last clock sync went out (us, cmpxchg)
 */
struct sys_t_output {
	struct sys_t_policy_node	node;
	u32				header;
	u32				clock_header;
	unsigned long			ts_interval;
	unsigned long			clocksync_interval;
	unsigned long			ts_last;
	unsigned long			clocksync_last;
};

/* Serialises node attribute access with the copy at output open. */
static DEFINE_MUTEX(sys_t_node_mutex);

static u32 sys_t_crc_table[256];

/* Fill the CRC-32C table.  Context: module init. */
static void __init sys_t_crc_init(void)
{
	unsigned int i, bit;

	for (i = 0; i < 256; i++) {
		u32 v = i;

		for (bit = 0; bit < 8; bit++)
			v = (v >> 1) ^ ((v & 1) ? SYST_CRC32C_POLY : 0);
		sys_t_crc_table[i] = v;
	}
}

/*
 * Continue a CRC-32C (no initial or final inversion here) over @len bytes.
 * Context: any.
 */
static u32 notrace sys_t_crc(u32 crc, const void *buf, size_t len)
{
	const u8 *p = buf;

	while (len--)
		crc = (crc >> 8) ^ sys_t_crc_table[(crc ^ *p++) & 0xff];
	return crc;
}

/* Monotonic time in microseconds for interval checks.  Context: any. */
static unsigned long notrace sys_t_now(void)
{
	return (unsigned long)div_u64(ktime_get_mono_fast_ns(), NSEC_PER_USEC);
}

/*
 * True if @interval (us, 0 = never) has elapsed since *@last; the one
 * caller that moves *@last to @now wins.  Context: any.
 */
static bool notrace sys_t_due(unsigned long *last, unsigned long interval,
			      unsigned long now)
{
	unsigned long old;

	if (!interval)
		return false;
	old = READ_ONCE(*last);
	if (!time_after_eq(now, old + interval))
		return false;
	/* one winner; nothing is published with it (ordering.rst) */
	return cmpxchg(last, old, now) == old;
}

/* One message being sent: where to, and its running CRC. */
struct sys_t_msg {
	struct stm_data	*data;
	unsigned int	master;
	unsigned int	channel;
	bool		first;
	bool		do_crc;
	u32		crc;
};

/*
 * Send the @nseg pieces at @seg (fields of the message, the payload last)
 * in one run, each as the packets of a write of its own, the message's
 * first packet timestamped; add the bytes sent to the CRC.  Context: any.
 * Return: bytes sent or -errno.
 */
static ssize_t notrace sys_t_send(struct sys_t_msg *msg,
				  const struct stm_run_seg *seg,
				  unsigned int nseg)
{
	unsigned int i;
	ssize_t sz;
	size_t left;

	sz = stm_data_writev(msg->data, msg->master, msg->channel, msg->first,
			     seg, nseg);
	msg->first = false;
	if (sz <= 0 || !msg->do_crc)
		return sz;
	for (i = 0, left = sz; i < nseg && left; i++) {
		size_t n = min(seg[i].len, left);

		msg->crc = sys_t_crc(msg->crc, seg[i].buf, n);
		left -= n;
	}
	return sz;
}

/* End a message: the CRC if enabled, then an STP FLAG.  Context: any. */
static int notrace sys_t_end(struct sys_t_msg *msg)
{
	static const u8 nil;
	ssize_t sz;

	if (msg->do_crc) {
		__le32 crc = cpu_to_le32(~msg->crc);

		sz = stm_data_write(msg->data, msg->master, msg->channel,
				    false, &crc, sizeof(crc));
		if (sz < 0)
			return sz;
	}
	sz = msg->data->packet(msg->data, msg->master, msg->channel,
			       STP_PACKET_FLAG, 0, 0, &nil);
	return sz < 0 ? sz : 0;
}

/*
 * CLOCK/TRANSPORT_SYNC: the SyS-T clock (CLOCK_REALTIME in ns, the same
 * clock as the timestamps of data messages) and its frequency, 1 GHz.
 * Context: any.
 */
static int notrace sys_t_clock_sync(struct sys_t_output *op,
				    struct sys_t_msg *msg)
{
	__le32 hdr = cpu_to_le32(op->clock_header);
	__le64 payload[2];
	const struct stm_run_seg seg[] = {
		{ .buf = &hdr, .len = sizeof(hdr) },
		{ .buf = payload, .len = sizeof(payload) },
	};
	ssize_t sz;

	payload[0] = cpu_to_le64(ktime_get_real_fast_ns());
	payload[1] = cpu_to_le64(NSEC_PER_SEC);

	msg->first = true;
	msg->crc = ~0U;
	sz = sys_t_send(msg, seg, ARRAY_SIZE(seg));
	if (sz < 0)
		return sz;
	if (sz != sizeof(hdr) + sizeof(payload))
		return -EIO;
	return sys_t_end(msg);
}

/* SyS-T severity of an MTT level word: its highest set bit decides. */
static u32 notrace sys_t_mtt_severity(u32 level)
{
	int bit = fls(level) - 1;

	switch (bit) {
	case 31:
		return SYST_SEVERITY_ERROR;
	case 30:
		return SYST_SEVERITY_WARNING;
	case 27:
		return SYST_SEVERITY_FATAL;
	case 28:
	case 26:
	case 16 ... 19:		/* cursors: API entry, return, ... */
		return SYST_SEVERITY_DEBUG;
	case 8 ... 15:
		return SYST_SEVERITY_USER2;
	case 0 ... 7:
		return SYST_SEVERITY_USER1;
	default:		/* INFO, none, other bits */
		return SYST_SEVERITY_INFO;
	}
}

/*
 * The header of a message carrying the MTT frame @buf: RAW/MTT, severity
 * from the frame's level, the component id in the unit (or, with a GUID,
 * in the whole origin field).  Context: any.
 */
static u32 notrace sys_t_mtt_header(u32 header, const char *buf)
{
	u32 comp = mtt_frame_comp(buf);
	u32 level = mtt_frame_level(buf);

	header &= ~(SYST_HDR_TYPE | SYST_HDR_SUBTYPE | SYST_HDR_SEVERITY);
	header |= FIELD_PREP(SYST_HDR_TYPE, SYST_TYPE_RAW) |
		  FIELD_PREP(SYST_HDR_SUBTYPE, MTT_FRAME_SYST_PROTOCOL) |
		  FIELD_PREP(SYST_HDR_SEVERITY, sys_t_mtt_severity(level));
	if (header & SYST_HDR_GUID) {
		header &= ~SYST_HDR_ORIGIN;
		header |= FIELD_PREP(SYST_HDR_ORIGIN, comp & 0x7ff);
	} else {
		header &= ~SYST_HDR_UNIT;
		header |= FIELD_PREP(SYST_HDR_UNIT, comp & 0xf);
	}
	return header;
}

/**
 * sys_t_write() - send one SyS-T message
 * @data:	the STM device
 * @output:	the writer's output, opened by sys_t_output_open()
 * @chan:	channel offset within @output
 * @buf:	payload
 * @count:	its length; cut to 65535 bytes when the length is sent
 * @source:	unused
 *
 * Context: any, NMI included; never sleeps, allocates or locks.
 * Return: payload bytes sent or -errno.
 */
static ssize_t notrace sys_t_write(struct stm_data *data,
				   struct stm_output *output,
				   unsigned int chan, const char *buf,
				   size_t count, struct stm_source_data *source)
{
	struct sys_t_output *op = output->pdrv_private;
	struct sys_t_msg msg = {
		.data		= data,
		.master		= output->master,
		.channel	= output->channel + chan,
		.first		= true,
		.crc		= ~0U,
	};
	struct stm_run_seg seg[5];
	unsigned int nseg, i;
	unsigned long now;
	size_t fields;
	__le16 len;
	__le32 hdr;
	__le64 ts;
	ssize_t sz;
	u32 header;
	int err;

	if (!op)
		return -EINVAL;
	msg.do_crc = op->node.crc;
	/* no clock read per message unless an interval asks for it */
	now = op->ts_interval | op->clocksync_interval ? sys_t_now() : 0;

	if (sys_t_due(&op->clocksync_last, op->clocksync_interval, now)) {
		err = sys_t_clock_sync(op, &msg);
		if (err)
			return err;
		msg.first = true;
		msg.crc = ~0U;
	}

	header = op->header;
	/* An MTT frame (the mtt source, libmtt) becomes a RAW/MTT message. */
	if (mtt_frame_ok(buf, count))
		header = sys_t_mtt_header(header, buf);
	if (sys_t_due(&op->ts_last, op->ts_interval, now))
		header |= SYST_HDR_TS;
	if (op->node.do_len)
		count = min_t(size_t, count, U16_MAX);

	/*
	 * header, [GUID], [length], [timestamp], payload in one run (the
	 * packets of a write per field), then [CRC], FLAG
	 */
	hdr = cpu_to_le32(header);
	seg[0].buf = &hdr;
	seg[0].len = sizeof(hdr);
	nseg = 1;
	if (header & SYST_HDR_GUID) {
		seg[nseg].buf = op->node.uuid.b;
		seg[nseg++].len = UUID_SIZE;
	}
	if (header & SYST_HDR_LEN) {
		len = cpu_to_le16(count);
		seg[nseg].buf = &len;
		seg[nseg++].len = sizeof(len);
	}
	if (header & SYST_HDR_TS) {
		ts = cpu_to_le64(ktime_get_real_fast_ns());
		seg[nseg].buf = &ts;
		seg[nseg++].len = sizeof(ts);
	}
	for (fields = 0, i = 0; i < nseg; i++)
		fields += seg[i].len;
	seg[nseg].buf = buf;
	seg[nseg++].len = count;

	sz = sys_t_send(&msg, seg, nseg);
	if (sz < 0)
		return sz;
	/* a field cut short, or none of the payload sent */
	if (sz < fields || (count && sz == fields))
		return -EIO;
	err = sys_t_end(&msg);
	return err ? err : sz - fields;
}

/* Data message header for a node's settings. */
static u32 sys_t_data_header(const struct sys_t_policy_node *pn)
{
	u32 h = FIELD_PREP(SYST_HDR_TYPE, SYST_TYPE_STRING) |
		FIELD_PREP(SYST_HDR_SUBTYPE, SYST_STRING_GENERIC) |
		FIELD_PREP(SYST_HDR_SEVERITY, pn->severity);

	if (pn->origin == SYST_ORIGIN_NONE)
		h |= SYST_HDR_GUID;
	else
		h |= FIELD_PREP(SYST_HDR_ORIGIN, pn->origin);
	if (pn->do_len)
		h |= SYST_HDR_LEN;
	if (pn->crc)
		h |= SYST_HDR_CHK;
	return h;
}

/* Clock sync header: severity MAX, never a GUID, the origin if set. */
static u32 sys_t_clock_header(const struct sys_t_policy_node *pn)
{
	u32 h = FIELD_PREP(SYST_HDR_TYPE, SYST_TYPE_CLOCK) |
		FIELD_PREP(SYST_HDR_SUBTYPE, SYST_CLOCK_SYNC) |
		FIELD_PREP(SYST_HDR_SEVERITY, SYST_SEVERITY_MAX);

	if (pn->origin != SYST_ORIGIN_NONE)
		h |= FIELD_PREP(SYST_HDR_ORIGIN, pn->origin);
	if (pn->crc)
		h |= SYST_HDR_CHK;
	return h;
}

static unsigned long sys_t_ms_to_us(unsigned int ms)
{
	return min_t(u64, (u64)ms * USEC_PER_MSEC, LONG_MAX);
}

/*
 * Copy the node's settings into a new output.  The first message after
 * open carries a timestamp (and is preceded by a clock sync) when the
 * respective interval is set.  Context: process.
 */
static int sys_t_output_open(void *priv, struct stm_output *output)
{
	struct sys_t_policy_node *pn = priv;
	struct sys_t_output *op;
	unsigned long now;

	op = kzalloc(sizeof(*op), GFP_KERNEL);
	if (!op)
		return -ENOMEM;

	mutex_lock(&sys_t_node_mutex);
	op->node = *pn;
	mutex_unlock(&sys_t_node_mutex);

	op->header = sys_t_data_header(&op->node);
	op->clock_header = sys_t_clock_header(&op->node);
	op->ts_interval = sys_t_ms_to_us(op->node.ts_interval);
	op->clocksync_interval = sys_t_ms_to_us(op->node.clocksync_interval);
	now = sys_t_now();
	op->ts_last = now - op->ts_interval;
	op->clocksync_last = now - op->clocksync_interval;

	output->pdrv_private = op;
	return 0;
}

/* Free what sys_t_output_open() allocated; called once.  Context: process. */
static void sys_t_output_close(struct stm_output *output)
{
	kfree(output->pdrv_private);
	output->pdrv_private = NULL;
}

/* Defaults of a new node.  Context: process (configfs mkdir). */
static void sys_t_policy_node_init(void *priv)
{
	struct sys_t_policy_node *pn = priv;

	uuid_gen(&pn->uuid);
	pn->do_len = false;
	pn->crc = false;
	pn->severity = SYST_SEVERITY_INFO;
	pn->origin = SYST_ORIGIN_NONE;
	pn->ts_interval = 0;
	pn->clocksync_interval = 0;
}

static struct sys_t_policy_node *to_sys_t_node(struct config_item *item)
{
	return to_pdrv_policy_node(item);
}

/* configfs attributes; all run in process context. */

static ssize_t sys_t_policy_uuid_show(struct config_item *item, char *page)
{
	struct sys_t_policy_node *pn = to_sys_t_node(item);
	ssize_t ret;

	mutex_lock(&sys_t_node_mutex);
	ret = sprintf(page, "%pU\n", &pn->uuid);
	mutex_unlock(&sys_t_node_mutex);
	return ret;
}

/*
 * "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx": the first 36 bytes are parsed
 * and anything after them (a newline, or more) is ignored, as upstream.
 */
static ssize_t sys_t_policy_uuid_store(struct config_item *item,
				       const char *page, size_t count)
{
	struct sys_t_policy_node *pn = to_sys_t_node(item);
	uuid_t uuid;

	if (count < UUID_STRING_LEN || uuid_parse(page, &uuid))
		return -EINVAL;

	mutex_lock(&sys_t_node_mutex);
	uuid_copy(&pn->uuid, &uuid);
	mutex_unlock(&sys_t_node_mutex);
	return count;
}

static ssize_t sys_t_bool_show(const bool *val, char *page)
{
	ssize_t ret;

	mutex_lock(&sys_t_node_mutex);
	ret = sprintf(page, "%d\n", *val);
	mutex_unlock(&sys_t_node_mutex);
	return ret;
}

/* kstrtobool() syntax: 0/1, y/n, on/off */
static ssize_t sys_t_bool_store(bool *val, const char *page, size_t count)
{
	bool v;

	if (kstrtobool(page, &v))
		return -EINVAL;
	mutex_lock(&sys_t_node_mutex);
	*val = v;
	mutex_unlock(&sys_t_node_mutex);
	return count;
}

static ssize_t sys_t_ms_show(const unsigned int *val, char *page)
{
	ssize_t ret;

	mutex_lock(&sys_t_node_mutex);
	ret = sprintf(page, "%u\n", *val);
	mutex_unlock(&sys_t_node_mutex);
	return ret;
}

/* milliseconds, decimal, 0 = never */
static ssize_t sys_t_ms_store(unsigned int *val, const char *page,
			      size_t count)
{
	unsigned int ms;

	if (kstrtouint(page, 10, &ms))
		return -EINVAL;
	mutex_lock(&sys_t_node_mutex);
	*val = ms;
	mutex_unlock(&sys_t_node_mutex);
	return count;
}

static ssize_t sys_t_policy_do_len_show(struct config_item *item, char *page)
{
	return sys_t_bool_show(&to_sys_t_node(item)->do_len, page);
}

static ssize_t sys_t_policy_do_len_store(struct config_item *item,
					 const char *page, size_t count)
{
	return sys_t_bool_store(&to_sys_t_node(item)->do_len, page, count);
}

static ssize_t sys_t_policy_crc_show(struct config_item *item, char *page)
{
	return sys_t_bool_show(&to_sys_t_node(item)->crc, page);
}

static ssize_t sys_t_policy_crc_store(struct config_item *item,
				      const char *page, size_t count)
{
	return sys_t_bool_store(&to_sys_t_node(item)->crc, page, count);
}

static ssize_t sys_t_policy_ts_interval_show(struct config_item *item,
					     char *page)
{
	return sys_t_ms_show(&to_sys_t_node(item)->ts_interval, page);
}

static ssize_t sys_t_policy_ts_interval_store(struct config_item *item,
					      const char *page, size_t count)
{
	return sys_t_ms_store(&to_sys_t_node(item)->ts_interval, page, count);
}

static ssize_t sys_t_policy_clocksync_interval_show(struct config_item *item,
						    char *page)
{
	return sys_t_ms_show(&to_sys_t_node(item)->clocksync_interval, page);
}

static ssize_t
sys_t_policy_clocksync_interval_store(struct config_item *item,
				      const char *page, size_t count)
{
	return sys_t_ms_store(&to_sys_t_node(item)->clocksync_interval, page,
			      count);
}

static ssize_t sys_t_policy_severity_show(struct config_item *item,
					  char *page)
{
	struct sys_t_policy_node *pn = to_sys_t_node(item);
	ssize_t ret;

	mutex_lock(&sys_t_node_mutex);
	ret = sprintf(page, "%u\n", pn->severity);
	mutex_unlock(&sys_t_node_mutex);
	return ret;
}

/* 0 (MAX) .. 7 (DEBUG) */
static ssize_t sys_t_policy_severity_store(struct config_item *item,
					   const char *page, size_t count)
{
	struct sys_t_policy_node *pn = to_sys_t_node(item);
	u8 sev;

	if (kstrtou8(page, 10, &sev) || sev > SYST_SEVERITY_DEBUG)
		return -EINVAL;
	mutex_lock(&sys_t_node_mutex);
	pn->severity = sev;
	mutex_unlock(&sys_t_node_mutex);
	return count;
}

static ssize_t sys_t_policy_origin_show(struct config_item *item, char *page)
{
	struct sys_t_policy_node *pn = to_sys_t_node(item);
	ssize_t ret;

	mutex_lock(&sys_t_node_mutex);
	if (pn->origin == SYST_ORIGIN_NONE)
		ret = sprintf(page, "none\n");
	else
		ret = sprintf(page, "%d:%d\n", pn->origin >> 4,
			      pn->origin & SYST_UNIT_MAX);
	mutex_unlock(&sys_t_node_mutex);
	return ret;
}

/* "MODULE:UNIT" (0..127:0..15) or "none" (send the GUID) */
static ssize_t sys_t_policy_origin_store(struct config_item *item,
					 const char *page, size_t count)
{
	struct sys_t_policy_node *pn = to_sys_t_node(item);
	unsigned int module, unit;
	int origin;
	char tail;

	if (sysfs_streq(page, "none")) {
		origin = SYST_ORIGIN_NONE;
	} else {
		int n = sscanf(page, "%u:%u%c", &module, &unit, &tail);

		if (n < 2 || (n == 3 && tail != '\n') ||
		    module > SYST_MODULE_MAX || unit > SYST_UNIT_MAX)
			return -EINVAL;
		origin = module << 4 | unit;
	}

	mutex_lock(&sys_t_node_mutex);
	pn->origin = origin;
	mutex_unlock(&sys_t_node_mutex);
	return count;
}

CONFIGFS_ATTR(sys_t_policy_, uuid);
CONFIGFS_ATTR(sys_t_policy_, do_len);
CONFIGFS_ATTR(sys_t_policy_, ts_interval);
CONFIGFS_ATTR(sys_t_policy_, clocksync_interval);
CONFIGFS_ATTR(sys_t_policy_, crc);
CONFIGFS_ATTR(sys_t_policy_, severity);
CONFIGFS_ATTR(sys_t_policy_, origin);

static struct configfs_attribute *sys_t_policy_attrs[] = {
	&sys_t_policy_attr_uuid,
	&sys_t_policy_attr_do_len,
	&sys_t_policy_attr_ts_interval,
	&sys_t_policy_attr_clocksync_interval,
	&sys_t_policy_attr_crc,
	&sys_t_policy_attr_severity,
	&sys_t_policy_attr_origin,
	NULL,
};

static const struct stm_protocol_driver sys_t_pdrv = {
	.owner			= THIS_MODULE,
	.name			= "p_sys-t",
	.priv_sz		= sizeof(struct sys_t_policy_node),
	.write			= sys_t_write,
	.policy_attr		= sys_t_policy_attrs,
	.policy_node_init	= sys_t_policy_node_init,
	.output_open		= sys_t_output_open,
	.output_close		= sys_t_output_close,
};

static int __init sys_t_stm_init(void)
{
	static const char check[] = "123456789";

	sys_t_crc_init();
	/* the CRC-32C check value */
	if (~sys_t_crc(~0U, check, sizeof(check) - 1) != 0xe3069283) {
		pr_err("CRC-32C self-test failed\n");
		return -EINVAL;
	}
	return stm_register_protocol(&sys_t_pdrv);
}
module_init(sys_t_stm_init);

static void __exit sys_t_stm_exit(void)
{
	stm_unregister_protocol(&sys_t_pdrv);
}
module_exit(sys_t_stm_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("MIPI SyS-T STM framing protocol driver (out-of-tree)");
