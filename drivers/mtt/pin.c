// SPDX-License-Identifier: GPL-2.0
/*
 * Pinning a component through a policy node "mtt/<component name>".
 *
 * Upstream's source API never tells a source which policy node it got:
 * the class looks the node up by the source's name when the source is
 * linked, walking '/'-separated names down nested nodes and taking the
 * deepest one that exists.  So each component is also an stm_source
 * named "mtt/<name>" (sysfs shows it as /sys/class/stm_source/mtt!<name>,
 * '/' being turned into '!'), with one channel.  While that source is
 * linked, the component's frames go out through it, on the master and
 * channel of node mtt/<name> (or of mtt when there is no such node);
 * otherwise through the shared source "mtt" as before.
 *
 * Unlinking: a writer reads c->pin.linked, then calls stm_source_write()
 * on whichever source it chose.  Our class calls the unlink callback
 * first (the route goes back to "mtt" at once), then drops the link and
 * waits for an RCU grace period before it frees the channel, so a writer
 * that chose the pinned source just before either finishes before the
 * channel is freed or finds no link (-ENODEV: the frame counts as
 * dropped).  Upstream's class frees the channel first and calls the
 * callback last; its stm_source_write() then refuses the write
 * (-ENODEV) as soon as the channel count reads 0, which is all upstream
 * offers any of its own sources (Documentation/mtt.rst).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/stm.h>

#include "mtt_internal.h"

#define to_pin_comp(d) container_of(d, struct mtt_comp, pin.src)

/*
 * The source is linked: the component's frames go through it from now
 * on, starting with a META frame naming the component.
 * Context: process (the class's link lock held).
 */
static int mtt_pin_link(struct stm_source_data *data)
{
	struct mtt_comp *c = to_pin_comp(data);

	/*
	 * The class set the source's link up before calling us: a writer
	 * that sees @linked sees the link.  Pairs with smp_load_acquire()
	 * in mtt_send() (Documentation/ordering.rst, "MTT pinning").
	 */
	smp_store_release(&c->pin.linked, true);
	mtt_send_meta(c);
	return 0;
}

/*
 * The source is being (our class) or has been (upstream's) unlinked:
 * back to the shared source.  Context: process (the class's link lock).
 */
static void mtt_pin_unlink(struct stm_source_data *data)
{
	WRITE_ONCE(to_pin_comp(data)->pin.linked, false);
}

/**
 * mtt_pin_register() - register the component's own source "mtt/<name>"
 * @c:	the component, not yet registered
 *
 * Context: process, mtt_mutex not held (the class takes its link lock).
 * Return: 0 or -errno (the component then always uses "mtt").
 */
int mtt_pin_register(struct mtt_comp *c)
{
	int err;

	snprintf(c->pin.name, sizeof(c->pin.name), "mtt/%s", c->name);
	c->pin.src.name = c->pin.name;
	c->pin.src.nr_chans = 1;
	c->pin.src.link = mtt_pin_link;
	c->pin.src.unlink = mtt_pin_unlink;
	err = stm_source_register_device(NULL, &c->pin.src);
	if (err)
		pr_warn("%s: no source %s (%d): it uses mtt only\n", c->name,
			c->pin.name, err);
	c->pin.registered = !err;
	return err;
}

/**
 * mtt_pin_unregister() - unregister the component's own source
 * @c:	the component; its trace points have stopped
 *
 * Unlinks the source if it is linked.
 * Context: process, mtt_mutex not held.
 */
void mtt_pin_unregister(struct mtt_comp *c)
{
	if (!c->pin.registered)
		return;
	stm_source_unregister_device(&c->pin.src);
	c->pin.registered = false;
	WRITE_ONCE(c->pin.linked, false);
}
