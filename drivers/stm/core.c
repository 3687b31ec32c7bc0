// SPDX-License-Identifier: GPL-2.0
/*
 * STM class core: the "stm" device class, registration of STM devices
 * and the module's init/exit.  The char device lives in chardev.c,
 * channel assignment in output.c, sources in source.c, the configfs
 * policy in policy.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stm.h>
#include <uapi/linux/stm.h>

#include <stm_compat.h>
#include "stm.h"

/* Serialises source link/unlink and device unregistration. */
DEFINE_MUTEX(stm_link_mutex);

static ssize_t masters_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct stm_device *stm = to_stm_device(dev);

	return sysfs_emit(buf, "%u %u\n", stm->sw_start, stm->sw_end);
}
static DEVICE_ATTR_RO(masters);

static ssize_t channels_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct stm_device *stm = to_stm_device(dev);

	return sysfs_emit(buf, "%u\n", stm->sw_nchannels);
}
static DEVICE_ATTR_RO(channels);

static ssize_t hw_override_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct stm_device *stm = to_stm_device(dev);

	return sysfs_emit(buf, "%u\n", stm->hw_override);
}
static DEVICE_ATTR_RO(hw_override);

static struct attribute *stm_attrs[] = {
	&dev_attr_masters.attr,
	&dev_attr_channels.attr,
	&dev_attr_hw_override.attr,
	NULL,
};
ATTRIBUTE_GROUPS(stm);

struct class stm_class = {
	.name		= "stm",
	STM_COMPAT_CLASS_OWNER
	.dev_groups	= stm_groups,
};

static int stm_match_name(struct device *dev, const void *name)
{
	return sysfs_streq(dev_name(dev), name);
}

/**
 * stm_find_device() - find a registered STM device by name
 * @name: device name; a trailing newline is ignored
 *
 * Context: process.
 * Return: the device with a device and a module reference held (drop with
 * stm_put_device()), or NULL.
 */
struct stm_device *stm_find_device(const char *name)
{
	struct stm_device *stm;
	struct device *dev;

	dev = class_find_device(&stm_class, NULL, name, stm_match_name);
	if (!dev)
		return NULL;

	stm = to_stm_device(dev);
	if (!try_module_get(stm->owner)) {
		put_device(dev);
		return NULL;
	}
	return stm;
}

/* Context: process.  Drops what stm_find_device() took. */
void stm_put_device(struct stm_device *stm)
{
	module_put(stm->owner);
	put_device(&stm->dev);
}

static void stm_device_release(struct device *dev)
{
	struct stm_device *stm = to_stm_device(dev);
	unsigned int i;

	for (i = 0; i < stm->nr_masters; i++)
		bitmap_free(stm->masters[i]);
	kvfree(stm);
}

static int stm_check_data(const struct stm_data *data)
{
	if (!data->name || !*data->name || !data->packet)
		return -EINVAL;
	if (data->sw_start > data->sw_end || data->sw_end > STP_MASTER_MAX)
		return -EINVAL;
	if (!data->sw_nchannels || data->sw_nchannels > STP_CHANNEL_MAX + 1)
		return -EINVAL;
	if (data->mmio_addr && !data->sw_mmiosz)
		return -EINVAL;
	return 0;
}

/**
 * stm_register_device() - register an STM device with the class
 * @parent:	parent device, may be NULL
 * @stm_data:	the driver's description; must stay valid until
 *		stm_unregister_device()
 * @owner:	the driver's module (pinned while the device is in use)
 *
 * Creates /sys/class/stm/<name> and the char device /dev/<name>.
 * Context: process.
 * Return: 0 or -errno.
 */
int stm_register_device(struct device *parent, struct stm_data *stm_data,
			struct module *owner)
{
	unsigned int nr_masters;
	struct stm_device *stm;
	int err;

	err = stm_check_data(stm_data);
	if (err) {
		pr_err("refusing to register an STM device with an invalid description\n");
		return err;
	}

	/* A duplicate name would make sysfs complain loudly: refuse early. */
	stm = stm_find_device(stm_data->name);
	if (stm) {
		stm_put_device(stm);
		pr_err("an STM device named %s is already registered\n",
		       stm_data->name);
		return -EEXIST;
	}

	nr_masters = stm_data->sw_end - stm_data->sw_start + 1;
	stm = kvzalloc(struct_size(stm, masters, nr_masters), GFP_KERNEL);
	if (!stm)
		return -ENOMEM;

	stm->major = register_chrdev(0, stm_data->name, &stm_fops);
	if (stm->major < 0) {
		err = stm->major;
		kvfree(stm);
		return err;
	}

	stm->owner = owner;
	stm->sw_start = stm_data->sw_start;
	stm->sw_end = stm_data->sw_end;
	stm->sw_nchannels = stm_data->sw_nchannels;
	stm->sw_mmiosz = stm_data->sw_mmiosz;
	stm->hw_override = stm_data->hw_override;
	stm->nr_masters = nr_masters;
	mutex_init(&stm->chan_mutex);
	mutex_init(&stm->data_mutex);
	INIT_LIST_HEAD(&stm->link_list);
	RCU_INIT_POINTER(stm->data, stm_data);

	device_initialize(&stm->dev);
	stm->dev.devt = MKDEV(stm->major, 0);
	stm->dev.class = &stm_class;
	stm->dev.parent = parent;
	stm->dev.release = stm_device_release;

	err = dev_set_name(&stm->dev, "%s", stm_data->name);
	if (!err)
		err = device_add(&stm->dev);
	if (err) {
		/* From here on only the release callback frees @stm. */
		unregister_chrdev(stm->major, stm_data->name);
		put_device(&stm->dev);
		return err;
	}

	stm_data->stm = stm;
	return 0;
}
EXPORT_SYMBOL_GPL(stm_register_device);

/**
 * stm_unregister_device() - remove an STM device
 * @stm_data: what was registered
 *
 * Unlinks its sources, unbinds its policy (the policy directory stays)
 * and waits until no writer can still be inside the driver's callbacks.
 * Open file descriptors keep working as far as -ENODEV.
 * Context: process.
 */
void stm_unregister_device(struct stm_data *stm_data)
{
	struct stm_device *stm = stm_data->stm;

	if (!stm)
		return;

	mutex_lock(&stm_link_mutex);
	WRITE_ONCE(stm->dead, true);
	stm_unlink_all_sources(stm);
	mutex_unlock(&stm_link_mutex);

	mutex_lock(&stp_policy_mutex);
	if (stm->policy)
		stp_policy_unbind(stm->policy);
	mutex_unlock(&stp_policy_mutex);

	/* Waits for sleeping callbacks, then for lockless writers. */
	mutex_lock(&stm->data_mutex);
	rcu_assign_pointer(stm->data, NULL);
	mutex_unlock(&stm->data_mutex);
	synchronize_rcu();

	unregister_chrdev(stm->major, stm_data->name);
	stm_data->stm = NULL;
	device_unregister(&stm->dev);
}
EXPORT_SYMBOL_GPL(stm_unregister_device);

static int __init stm_core_init(void)
{
	int err;

	err = class_register(&stm_class);
	if (err) {
		if (err == -EEXIST)
			pr_err("an STM class is already registered in this kernel (CONFIG_STM?); not loading\n");
		return err;
	}

	err = stm_source_class_init();
	if (err)
		goto err_stm_class;

	err = stp_configfs_init();
	if (err)
		goto err_source_class;

	return 0;

err_source_class:
	stm_source_class_exit();
err_stm_class:
	class_unregister(&stm_class);
	return err;
}
module_init(stm_core_init);

static void __exit stm_core_exit(void)
{
	stp_configfs_exit();
	stm_source_class_exit();
	class_unregister(&stm_class);
}
module_exit(stm_core_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("System Trace Module class (out-of-tree)");
MODULE_SOFTDEP("pre: configfs");
