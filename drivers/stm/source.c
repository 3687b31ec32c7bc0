// SPDX-License-Identifier: GPL-2.0
/*
 * The stm_source class: kernel trace sources (console, heartbeat, ftrace,
 * ...) that are linked to an STM device at run time through their
 * stm_source_link sysfs attribute, and their write path.
 */
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <stm_compat.h>
#include "stm.h"

/*
 * Take @src off @stm: no new writer finds the link, writers in flight are
 * waited for, then the device is told and the channels are freed.
 * Context: process, stm_link_mutex held.
 */
static void stm_source_detach(struct stm_source_device *src,
			      struct stm_device *stm)
{
	struct stm_data *data;

	RCU_INIT_POINTER(src->link, NULL);
	list_del_init(&src->link_entry);
	synchronize_rcu();

	data = stm_data_get(stm);
	if (data && data->unlink)
		data->unlink(data, src->output.master, src->output.channel);
	stm_data_put(stm);

	stm_output_free(stm, &src->output);
}

/*
 * Link @src to @stm: channels by the source's own name, then "default",
 * then the device's and the source's link callbacks.  On failure
 * everything is undone.  Context: process, stm_link_mutex held.
 */
static int stm_source_do_link(struct stm_source_device *src,
			      struct stm_device *stm)
{
	const char *ids[3] = { NULL, "default", NULL };
	struct stm_data *data;
	int err;

	ids[0] = src->data->name;
	if (READ_ONCE(stm->dead))
		return -ENODEV;

	err = stm_assign_first_policy(stm, &src->output, ids,
				      src->data->nr_chans);
	if (err)
		return err;

	data = stm_data_get(stm);
	if (!data)
		err = -ENODEV;
	else if (data->link)
		err = data->link(data, src->output.master, src->output.channel);
	stm_data_put(stm);
	if (err)
		goto err_free_output;

	list_add_tail(&src->link_entry, &stm->link_list);
	/*
	 * Release: src->output is set up before; pairs with the smp_rmb()
	 * in stm_source_write() (Documentation/ordering.rst, "Source
	 * links").
	 */
	rcu_assign_pointer(src->link, stm);

	if (src->data->link) {
		err = src->data->link(src->data);
		if (err)
			goto err_detach;
	}
	return 0;

err_detach:
	stm_source_detach(src, stm);
	return err;
err_free_output:
	stm_output_free(stm, &src->output);
	return err;
}

/*
 * Unlink @src if linked: the source stops first, then writers are waited
 * for, then the device is told and the channels are freed.
 * Context: process, stm_link_mutex held.
 */
static void stm_source_do_unlink(struct stm_source_device *src)
{
	struct stm_device *stm;

	stm = rcu_dereference_protected(src->link,
					lockdep_is_held(&stm_link_mutex));
	if (!stm)
		return;

	if (src->data->unlink)
		src->data->unlink(src->data);
	stm_source_detach(src, stm);
	stm_put_device(stm);
}

/* Context: process, stm_link_mutex held; @stm is being unregistered. */
void stm_unlink_all_sources(struct stm_device *stm)
{
	struct stm_source_device *src, *tmp;

	list_for_each_entry_safe(src, tmp, &stm->link_list, link_entry)
		stm_source_do_unlink(src);
}

static ssize_t stm_source_link_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct stm_source_device *src = to_stm_source_device(dev);
	struct stm_device *stm;
	ssize_t ret;

	mutex_lock(&stm_link_mutex);
	stm = rcu_dereference_protected(src->link,
					lockdep_is_held(&stm_link_mutex));
	ret = sysfs_emit(buf, "%s\n", stm ? dev_name(&stm->dev) : "<none>");
	mutex_unlock(&stm_link_mutex);
	return ret;
}

static ssize_t stm_source_link_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	struct stm_source_device *src = to_stm_source_device(dev);
	struct stm_device *stm;
	int err;

	mutex_lock(&stm_link_mutex);
	stm_source_do_unlink(src);
	/* Unregistering: the unlink above was its last; never link again. */
	if (src->dead) {
		err = -ENODEV;
		goto unlock;
	}

	stm = stm_find_device(buf);
	if (!stm) {
		err = -EINVAL;
		goto unlock;
	}

	/* On success the link keeps the device reference. */
	err = stm_source_do_link(src, stm);
	if (err)
		stm_put_device(stm);
unlock:
	mutex_unlock(&stm_link_mutex);
	return err ? err : count;
}
static DEVICE_ATTR_RW(stm_source_link);

/*
 * Messages lost while linked (an extension of this class; upstream's has
 * no such attribute).  Context: process.
 */
static ssize_t drops_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct stm_source_device *src = to_stm_source_device(dev);

	return sysfs_emit(buf, "%lu\n",
			  (unsigned long)atomic_long_read(&src->drops));
}
static DEVICE_ATTR_RO(drops);

static struct attribute *stm_source_attrs[] = {
	&dev_attr_stm_source_link.attr,
	&dev_attr_drops.attr,
	NULL,
};
ATTRIBUTE_GROUPS(stm_source);

static struct class stm_source_class = {
	.name		= "stm_source",
	STM_COMPAT_CLASS_OWNER
	.dev_groups	= stm_source_groups,
};

static void stm_source_device_release(struct device *dev)
{
	kfree(to_stm_source_device(dev));
}

/**
 * stm_source_register_device() - register a trace source
 * @parent:	parent device, may be NULL
 * @data:	the source's description; valid until unregistered
 *
 * Creates /sys/class/stm_source/<name>.  Context: process.
 * Return: 0 or -errno.
 */
int stm_source_register_device(struct device *parent,
			       struct stm_source_data *data)
{
	struct stm_source_device *src;
	int err;

	if (!data->name || !*data->name || !data->nr_chans)
		return -EINVAL;

	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src)
		return -ENOMEM;

	src->data = data;
	INIT_LIST_HEAD(&src->link_entry);
	device_initialize(&src->dev);
	src->dev.class = &stm_source_class;
	src->dev.parent = parent;
	src->dev.release = stm_source_device_release;

	err = dev_set_name(&src->dev, "%s", data->name);
	if (!err)
		err = device_add(&src->dev);
	if (err) {
		/* Only the release callback frees @src from here on. */
		put_device(&src->dev);
		return err;
	}

	/*
	 * Publish the initialised @src: a writer may run on another CPU
	 * at once.  Pairs with the READ_ONCE() of data->src in
	 * stm_source_write(), whose reads through @src depend on it
	 * (ordering.rst, "Source links").
	 */
	smp_store_release(&data->src, src);
	return 0;
}
EXPORT_SYMBOL_GPL(stm_source_register_device);

/**
 * stm_source_unregister_device() - remove a trace source, unlinking it
 * @data: what was registered
 *
 * The source is marked dead and unlinked under stm_link_mutex, so a
 * write to stm_source_link racing with this (it stays possible until
 * device_unregister() removes the file) fails with -ENODEV instead of
 * linking a source whose module is going away.
 * Context: process.
 */
void stm_source_unregister_device(struct stm_source_data *data)
{
	struct stm_source_device *src = data->src;

	if (!src)
		return;

	mutex_lock(&stm_link_mutex);
	src->dead = true;
	stm_source_do_unlink(src);
	mutex_unlock(&stm_link_mutex);

	WRITE_ONCE(data->src, NULL);
	synchronize_rcu();
	device_unregister(&src->dev);
}
EXPORT_SYMBOL_GPL(stm_source_unregister_device);

/**
 * stm_source_write() - send a message from a source
 * @data:	the source
 * @chan:	channel offset, below the source's nr_chans
 * @buf:	message
 * @count:	its length
 *
 * The link is read under RCU-sched (disabled preemption), which protects
 * nothing where RCU is not watching this CPU: a function-trace callback
 * may run from the idle loop or from entry code before RCU is told.
 * There, synchronize_rcu() in an unlink would not wait for this writer,
 * so the message is refused with -EAGAIN instead.
 *
 * Every error while the source is linked (a bad @chan, the device's or
 * its protocol's refusal, the device going away) adds one to the source's
 * "drops".  -ENODEV while not linked is not a loss and is not counted;
 * neither is -EAGAIN, because where RCU is not watching the source device
 * itself may be freed under us and cannot be touched.
 *
 * Context: any, NMI included; never sleeps.
 * Return: bytes sent, -ENODEV when not linked, -EINVAL for a bad @chan,
 * -EAGAIN where RCU is not watching.
 */
int notrace stm_source_write(struct stm_source_data *data, unsigned int chan,
			     const char *buf, size_t count)
{
	struct stm_source_device *src;
	struct stm_device *stm;
	ssize_t ret;

	preempt_disable_notrace();
	if (unlikely(!rcu_is_watching())) {
		preempt_enable_notrace();
		return -EAGAIN;
	}
	/*
	 * Pairs with smp_store_release() in stm_source_register_device();
	 * the reads below go through @src (address dependency).
	 */
	src = READ_ONCE(data->src);
	stm = src ? rcu_dereference_sched(src->link) : NULL;
	/*
	 * Pairs with rcu_assign_pointer() in stm_source_do_link(): the
	 * output is set up before.  src->output is not read through the
	 * link, so its dependency orders nothing here (ordering.rst).
	 */
	smp_rmb();
	if (!stm)
		ret = -ENODEV;
	else if (chan >= src->output.nr_chans)
		ret = -EINVAL;
	else
		ret = stm_output_write(stm, &src->output, chan, buf, count,
				       data);
	if (unlikely(ret < 0 && stm))
		atomic_long_inc(&src->drops);
	preempt_enable_notrace();
	return ret;
}
EXPORT_SYMBOL_GPL(stm_source_write);

int stm_source_class_init(void)
{
	return class_register(&stm_source_class);
}

void stm_source_class_exit(void)
{
	class_unregister(&stm_source_class);
}
