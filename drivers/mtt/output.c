// SPDX-License-Identifier: GPL-2.0
/*
 * The stm_source "mtt" and its channels.  The source asks for nr_chans
 * channels of the "mtt" policy node (upstream's source API only: the
 * protocol of the node frames what we send).  The first channels belong
 * to components (mtt_open() spreads them, sysfs pins them); the last
 * ones are per-CPU, per-context overflow channels: a frame goes out on
 * its component's channel (or, while the component's own source
 * "mtt/<name>" is linked, on that source's channel: pin.c) unless
 * another writer (another CPU, or the context this one interrupted) is
 * in the middle of a frame there, so two frames never interleave on one
 * channel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stm.h>

#include "mtt_internal.h"

static unsigned int nr_chans = 64;
module_param(nr_chans, uint, 0444);
MODULE_PARM_DESC(nr_chans,
		 "channels the source takes from the 'mtt' policy node (8..1024)");

/* Component channels: offsets 0 .. mtt_nr_comp_chans - 1. */
unsigned int mtt_nr_comp_chans;
/* Overflow channels: cpu * MTT_NEST + depth, after the component ones. */
static unsigned int mtt_nr_ovf_chans;
/* Busy bits of the component channels (any context, atomic bitops). */
static unsigned long *mtt_chan_busy;
/* Components per component channel (mtt_mutex). */
static unsigned int *mtt_chan_users;

static int mtt_link(struct stm_source_data *data);

static struct stm_source_data mtt_source = {
	.name	= "mtt",
	.link	= mtt_link,
};

/*
 * Linked: name every component in the stream (a META frame each).
 * Context: process, the class's link mutex held.
 */
static int mtt_link(struct stm_source_data *data)
{
	struct mtt_comp *c;

	mutex_lock(&mtt_mutex);
	list_for_each_entry(c, &mtt_components, entry)
		mtt_send_meta(c);
	mutex_unlock(&mtt_mutex);
	return 0;
}

/* The least used component channel.  Context: process, mtt_mutex held. */
unsigned int mtt_chan_pick(void)
{
	unsigned int i, best = 0;

	for (i = 1; i < mtt_nr_comp_chans; i++)
		if (mtt_chan_users[i] < mtt_chan_users[best])
			best = i;
	return best;
}

/* Context: process, mtt_mutex held. */
void mtt_chan_get(unsigned int chan)
{
	mtt_chan_users[chan]++;
}

/* Context: process, mtt_mutex held. */
void mtt_chan_put(unsigned int chan)
{
	/* a put without its get: a component's channel given back twice */
	if (!WARN_ON_ONCE(!mtt_chan_users[chan]))
		mtt_chan_users[chan]--;
}

/**
 * mtt_send() - send one complete frame for a component
 * @c:		the component
 * @frame:	the frame
 * @len:	its length
 * @cpu:	this CPU
 * @depth:	this CPU's trace nesting depth (0..MTT_NEST - 1)
 *
 * Context: any, NMI included, preemption disabled; never sleeps.
 * Return: bytes sent or -errno.
 */
int notrace mtt_send(struct mtt_comp *c, const void *frame, size_t len,
		     unsigned int cpu, unsigned int depth)
{
	unsigned int chan = READ_ONCE(c->chan);
	unsigned int ovf;
	int ret;

	/*
	 * Pairs with smp_store_release() in mtt_pin_link()
	 * (Documentation/ordering.rst, "MTT pinning")
	 */
	if (smp_load_acquire(&c->pin.linked)) {
		/*
		 * Pinned: its own source's only channel, if free.  The
		 * busy bits are try-locks: acquire here pairs with the
		 * previous owner's clear_bit_unlock(), so frames on one
		 * channel are stored one after the other (ordering.rst).
		 */
		if (!test_and_set_bit_lock(0, &c->pin.busy)) {
			ret = stm_source_write(&c->pin.src, 0, frame, len);
			/* release: pairs with test_and_set_bit_lock() */
			clear_bit_unlock(0, &c->pin.busy);
			return ret;
		}
	} else if (!test_and_set_bit_lock(chan, mtt_chan_busy)) {
		/* as the pin's bit above */
		ret = stm_source_write(&mtt_source, chan, frame, len);
		clear_bit_unlock(chan, mtt_chan_busy);
		return ret;
	}
	ovf = cpu * MTT_NEST + depth;
	if (ovf >= mtt_nr_ovf_chans)
		return -EBUSY;
	return stm_source_write(&mtt_source, mtt_nr_comp_chans + ovf, frame,
				len);
}

/* Context: process (module init). */
int mtt_output_init(void)
{
	unsigned int want = num_possible_cpus() * MTT_NEST;
	int err;

	if (nr_chans < 8 || nr_chans > 1024) {
		pr_err("nr_chans=%u: must be 8..1024\n", nr_chans);
		return -EINVAL;
	}
	mtt_nr_ovf_chans = min(want, nr_chans / 2);
	mtt_nr_comp_chans = nr_chans - mtt_nr_ovf_chans;
	mtt_chan_busy = bitmap_zalloc(mtt_nr_comp_chans, GFP_KERNEL);
	mtt_chan_users = kcalloc(mtt_nr_comp_chans, sizeof(*mtt_chan_users),
				 GFP_KERNEL);
	if (!mtt_chan_busy || !mtt_chan_users) {
		err = -ENOMEM;
		goto err_free;
	}
	mtt_source.nr_chans = nr_chans;
	err = stm_source_register_device(NULL, &mtt_source);
	if (err)
		goto err_free;
	return 0;

err_free:
	bitmap_free(mtt_chan_busy);
	kfree(mtt_chan_users);
	return err;
}

/* Context: process (module exit). */
void mtt_output_exit(void)
{
	stm_source_unregister_device(&mtt_source);
	bitmap_free(mtt_chan_busy);
	kfree(mtt_chan_users);
}
