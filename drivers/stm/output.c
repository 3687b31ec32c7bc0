// SPDX-License-Identifier: GPL-2.0
/*
 * Outputs: assigning a master/channel range to a writer by policy,
 * freeing it, and the write path from an output through its protocol
 * to the device's packet callback.
 */
#include <linux/bitmap.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "stm.h"

/*
 * Find @width free channels in [first, last] of one master, starting at a
 * multiple of roundup_pow_of_two(@width).  Bounded by the range size.
 * Return: the first channel or -ENOSPC.
 */
static long stm_find_chans(unsigned long *map, unsigned int first,
			   unsigned int last, unsigned int width)
{
	unsigned long align = roundup_pow_of_two(width) - 1;
	unsigned long pos;

	if (last - first + 1 < width)
		return -ENOSPC;

	pos = bitmap_find_next_zero_area(map, (unsigned long)last + 1, first,
					 width, align);
	if (pos > last || pos + width - 1 > last)
		return -ENOSPC;
	return pos;
}

/* Context: process, stm->chan_mutex held. */
static int stm_alloc_chans(struct stm_device *stm,
			   const struct stp_node_ranges *r, unsigned int width,
			   unsigned int *master, unsigned int *channel)
{
	unsigned int m;

	for (m = r->first_master; m <= r->last_master; m++) {
		unsigned long **map = &stm->masters[m - stm->sw_start];
		long c;

		if (!*map) {
			*map = bitmap_zalloc(stm->sw_nchannels, GFP_KERNEL);
			if (!*map)
				return -ENOMEM;
		}

		c = stm_find_chans(*map, r->first_channel, r->last_channel,
				   width);
		if (c >= 0) {
			bitmap_set(*map, c, width);
			*master = m;
			*channel = c;
			return 0;
		}
	}
	return -ENOSPC;
}

static void stm_free_chans(struct stm_device *stm, unsigned int master,
			   unsigned int channel, unsigned int width)
{
	mutex_lock(&stm->chan_mutex);
	bitmap_clear(stm->masters[master - stm->sw_start], channel, width);
	mutex_unlock(&stm->chan_mutex);
}

struct stm_assign_ctx {
	struct stm_output	*output;
	unsigned int		width;
};

/*
 * Lookup callback: runs with the policy node and stp_policy_mutex held,
 * so stm->pdrv is the protocol of the node's policy.
 */
static int stm_output_open(struct stm_device *stm,
			   const struct stp_node_ranges *r, void *pdrv_priv,
			   void *arg)
{
	struct stm_assign_ctx *ctx = arg;
	struct stm_output *output = ctx->output;
	const struct stm_protocol_driver *pdrv = stm->pdrv;
	unsigned int master, channel;
	int err;

	if (!pdrv)
		return -ENODEV;
	if (r->first_master < stm->sw_start || r->last_master > stm->sw_end ||
	    r->first_master > r->last_master ||
	    r->last_channel >= stm->sw_nchannels ||
	    r->first_channel > r->last_channel)
		return -ERANGE;

	mutex_lock(&stm->chan_mutex);
	err = stm_alloc_chans(stm, r, ctx->width, &master, &channel);
	mutex_unlock(&stm->chan_mutex);
	if (err)
		return err;

	/* The policy holds a reference; the output takes its own. */
	__module_get(pdrv->owner);
	output->master = master;
	output->channel = channel;
	output->pdrv = pdrv;
	output->pdrv_private = NULL;

	if (pdrv->output_open) {
		err = pdrv->output_open(pdrv_priv, output);
		if (err) {
			module_put(pdrv->owner);
			output->pdrv = NULL;
			stm_free_chans(stm, master, channel, ctx->width);
			return err;
		}
	}

	output->nr_chans = ctx->width;
	return 0;
}

/**
 * stm_assign_first_policy() - assign channels by the first id that exists
 * @stm:	device
 * @output:	unassigned output (nr_chans == 0)
 * @ids:	NULL-terminated policy ids to try in order
 * @width:	number of channels
 *
 * Context: process.
 * Return: 0; -EINVAL if no id has a policy node; -ENOSPC if the node's
 * ranges are full; -ENODEV without a protocol; other -errno.
 */
int stm_assign_first_policy(struct stm_device *stm, struct stm_output *output,
			    const char * const *ids, unsigned int width)
{
	struct stm_assign_ctx ctx = { .output = output, .width = width };
	int err = -EINVAL;

	if (output->nr_chans)
		return -EBUSY;

	for (; *ids; ids++) {
		err = stp_policy_node_lookup(stm, *ids, stm_output_open, &ctx);
		if (err != -ENOENT)
			return err;
	}
	return -EINVAL;
}

/**
 * stm_output_free() - give back an output's channels and protocol state
 * @stm:	device
 * @output:	output; nothing happens if it is unassigned
 *
 * The caller guarantees no writer still uses @output.
 * Context: process.
 */
void stm_output_free(struct stm_device *stm, struct stm_output *output)
{
	const struct stm_protocol_driver *pdrv = output->pdrv;
	unsigned int width = output->nr_chans;

	if (!width)
		return;

	output->nr_chans = 0;
	if (pdrv->output_close)
		pdrv->output_close(output);
	output->pdrv_private = NULL;
	output->pdrv = NULL;
	module_put(pdrv->owner);

	stm_free_chans(stm, output->master, output->channel, width);
}

/**
 * stm_output_write() - frame and send a message on an output's channel
 * @stm:	device
 * @output:	assigned output
 * @chan:	channel offset within the output
 * @buf:	message
 * @count:	its length
 * @source:	the stm_source writing, or NULL for the char device
 *
 * Context: any, NMI included; never sleeps.
 * Return: bytes sent or -errno (-ENODEV once the device is gone).
 */
ssize_t notrace stm_output_write(struct stm_device *stm,
				 struct stm_output *output, unsigned int chan,
				 const char *buf, size_t count,
				 struct stm_source_data *source)
{
	struct stm_data *data;
	ssize_t ret;

	preempt_disable_notrace();
	data = rcu_dereference_sched(stm->data);
	if (unlikely(!data))
		ret = -ENODEV;
	else
		ret = output->pdrv->write(data, output, chan, buf, count,
					  source);
	preempt_enable_notrace();
	return ret;
}

/*
 * @count bytes at @buf as DATA packets on master @m, channel @c, one
 * call of the device's packet() each; the first stamped if @flags has
 * STP_PACKET_TIMESTAMPED, the last marked if @mark_last.
 * Context: any; never sleeps.  Return: bytes sent or -errno.
 */
static __always_inline ssize_t stm_data_packets(struct stm_data *data,
						unsigned int m, unsigned int c,
						unsigned int flags,
						bool mark_last, const u8 *buf,
						size_t count)
{
	size_t pos = 0;

	while (pos < count) {
		unsigned int sz = 1U << stm_data_run_lg(count - pos);
		ssize_t sent;

		if (mark_last && pos + sz == count)
			flags |= STP_PACKET_MARKED;

		sent = data->packet(data, m, c, STP_PACKET_DATA, flags, sz,
				    buf + pos);
		if (sent <= 0)
			return pos ? pos : (sent ? sent : -EIO);
		pos += min_t(size_t, sent, sz);
		flags = 0;
	}
	return pos;
}

/*
 * stm_data_packets() in a frame of its own: stm_data_send()'s fallback,
 * kept out of its frame (a device with data_run pays nothing for it).
 */
static noinline notrace ssize_t
stm_data_packets_call(struct stm_data *data, unsigned int m, unsigned int c,
		      unsigned int flags, bool mark_last, const u8 *buf,
		      size_t count)
{
	return stm_data_packets(data, m, c, flags, mark_last, buf, count);
}

/*
 * The device's data_run (ours) on the @nseg pieces at @seg; nothing sent
 * of a run that has bytes is an error.  Context: any; never sleeps.
 * Return: bytes sent or -errno.
 */
static __always_inline ssize_t stm_data_run(struct stm_data *data,
					    unsigned int m, unsigned int c,
					    unsigned int flags,
					    const struct stm_run_seg *seg,
					    unsigned int nseg)
{
	ssize_t sent = data->data_run(data, m, c, flags, seg, nseg);
	unsigned int i;

	for (i = 0; !sent && i < nseg; i++)
		if (seg[i].len)
			return -EIO;
	return sent;
}

/*
 * As stm_data_packets(), in one call where the device takes a run (ours);
 * inline in its two callers (stm_data_write() and stm_data_write_marked()).
 */
static __always_inline ssize_t stm_data_send(struct stm_data *data,
					     unsigned int m, unsigned int c,
					     bool ts_first, bool mark_last,
					     const u8 *buf, size_t count)
{
	unsigned int flags = ts_first ? STP_PACKET_TIMESTAMPED : 0;

	if (data->data_run) {
		const struct stm_run_seg seg = { .buf = buf, .len = count };

		if (mark_last)
			flags |= STP_PACKET_MARKED;
		return stm_data_run(data, m, c, flags, &seg, 1);
	}
	return stm_data_packets_call(data, m, c, flags, mark_last, buf, count);
}

/*
 * Send @count bytes as DATA packets on master @m, channel @c; the first
 * packet is timestamped if @ts_first.  Context: any; never sleeps.
 */
ssize_t notrace stm_data_write(struct stm_data *data, unsigned int m,
			       unsigned int c, bool ts_first, const void *buf,
			       size_t count)
{
	return stm_data_send(data, m, c, ts_first, false, buf, count);
}
EXPORT_SYMBOL_GPL(stm_data_write);

/* As stm_data_write(), and the last packet is marked: end of message. */
ssize_t notrace stm_data_write_marked(struct stm_data *data, unsigned int m,
				      unsigned int c, bool ts_first,
				      const void *buf, size_t count)
{
	return stm_data_send(data, m, c, ts_first, true, buf, count);
}
EXPORT_SYMBOL_GPL(stm_data_write_marked);

/*
 * Ours: as stm_data_write(), for a message's fields in one run of @nseg
 * pieces: the packets of one stm_data_write() per piece, in one call of
 * the device's data_run (a call per packet without it).
 * Context: any; never sleeps.  Return: bytes sent or -errno.
 */
ssize_t notrace stm_data_writev(struct stm_data *data, unsigned int m,
				unsigned int c, bool ts_first,
				const struct stm_run_seg *seg, unsigned int nseg)
{
	unsigned int flags = ts_first ? STP_PACKET_TIMESTAMPED : 0;
	size_t pos = 0;
	unsigned int i;
	ssize_t sent;

	if (data->data_run)
		return stm_data_run(data, m, c, flags, seg, nseg);
	for (i = 0; i < nseg; i++) {
		if (!seg[i].len)
			continue;
		sent = stm_data_packets(data, m, c, flags, false, seg[i].buf,
					seg[i].len);
		if (sent < 0)
			return pos ? pos : sent;
		pos += sent;
		if (sent < seg[i].len)
			break;
		flags = 0;
	}
	return pos;
}
EXPORT_SYMBOL_GPL(stm_data_writev);
