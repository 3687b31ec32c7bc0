// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/mtt: the core filter (filter), hints and collateral.xml
 * (collateral.c) and one directory per
 * component under components/ with its id, filter, channel, source (the
 * stm_source its frames go through: mtt, or mtt/<name> when pinned) and
 * stats.
 * Filters and channels are writable at run time.  A component's files
 * are root only, like collateral.xml and swstm's counters: its name and
 * counts tell what is being traced (the directory names are visible).
 */
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "mtt_internal.h"

static struct kobject *mtt_kobj;
static struct kobject *mtt_comps_kobj;

#define to_comp(k) container_of(k, struct mtt_comp, kobj)

/* "0x1f", "1f" or decimal-free hex: a level mask.  Context: process. */
static int mtt_parse_mask(const char *buf, u32 *mask)
{
	return kstrtou32(buf, 16, mask);
}

static ssize_t id_show(struct kobject *kobj, struct kobj_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "0x%08x\n", to_comp(kobj)->id);
}

static ssize_t filter_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "0x%08x\n", READ_ONCE(to_comp(kobj)->filter));
}

static ssize_t filter_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	u32 mask;
	int err;

	err = mtt_parse_mask(buf, &mask);
	if (!err)
		err = mtt_comp_set_filter(to_comp(kobj), mask);
	return err ? err : count;
}

static ssize_t channel_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_comp(kobj)->chan));
}

static ssize_t channel_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	unsigned int chan;
	int err;

	err = kstrtouint(buf, 0, &chan);
	if (!err)
		err = mtt_comp_set_chan(to_comp(kobj), chan);
	return err ? err : count;
}

/* The source the component's frames go through: mtt or mtt/<name>. */
static ssize_t source_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct mtt_comp *c = to_comp(kobj);

	return sysfs_emit(buf, "%s\n",
			  READ_ONCE(c->pin.linked) ? c->pin.name : "mtt");
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	u64 sent, dropped;

	mtt_comp_stats(to_comp(kobj), &sent, &dropped);
	return sysfs_emit(buf, "sent %llu\ndropped %llu\n", sent, dropped);
}

static struct kobj_attribute mtt_comp_id = __ATTR_RO_MODE(id, 0400);
static struct kobj_attribute mtt_comp_filter = __ATTR_RW_MODE(filter, 0600);
static struct kobj_attribute mtt_comp_channel = __ATTR_RW_MODE(channel, 0600);
static struct kobj_attribute mtt_comp_source = __ATTR_RO_MODE(source, 0400);
static struct kobj_attribute mtt_comp_stats_attr = __ATTR(stats, 0400,
							  stats_show, NULL);

static struct attribute *mtt_comp_attrs[] = {
	&mtt_comp_id.attr,
	&mtt_comp_filter.attr,
	&mtt_comp_channel.attr,
	&mtt_comp_source.attr,
	&mtt_comp_stats_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(mtt_comp);

/* Context: process (last kobject reference). */
static void mtt_comp_release(struct kobject *kobj)
{
	struct mtt_comp *c = to_comp(kobj);

	free_percpu(c->stats);
	kfree(c);
}

static const struct kobj_type mtt_comp_ktype = {
	.release	= mtt_comp_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= mtt_comp_groups,
};

/*
 * Add @c's directory.  On failure @c is freed (by the release callback).
 * Context: process.
 */
int mtt_sysfs_add(struct mtt_comp *c)
{
	int err;

	err = kobject_init_and_add(&c->kobj, &mtt_comp_ktype, mtt_comps_kobj,
				   "%s", c->name);
	if (err) {
		kobject_put(&c->kobj);
		return err;
	}
	kobject_uevent(&c->kobj, KOBJ_ADD);
	return 0;
}

/* Remove @c's directory and drop its reference.  Context: process. */
void mtt_sysfs_del(struct mtt_comp *c)
{
	kobject_del(&c->kobj);
	kobject_put(&c->kobj);
}

static ssize_t core_filter_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%08x\n", READ_ONCE(mtt_core_filter));
}

static ssize_t core_filter_store(struct kobject *kobj,
				 struct kobj_attribute *attr, const char *buf,
				 size_t count)
{
	u32 mask;
	int err;

	err = mtt_parse_mask(buf, &mask);
	if (err)
		return err;
	mtt_set_core(mask);
	return count;
}

static struct kobj_attribute mtt_core_filter_attr =
	__ATTR(filter, 0644, core_filter_show, core_filter_store);

/* Context: process (module init). */
int mtt_sysfs_init(void)
{
	int err;

	mtt_kobj = kobject_create_and_add("mtt", kernel_kobj);
	if (!mtt_kobj)
		return -ENOMEM;
	err = sysfs_create_file(mtt_kobj, &mtt_core_filter_attr.attr);
	if (!err)
		err = sysfs_create_file(mtt_kobj, &mtt_hints_attr.attr);
	if (!err)
		err = sysfs_create_bin_file(mtt_kobj, &mtt_collateral_attr);
	if (err)
		goto err_put;
	mtt_comps_kobj = kobject_create_and_add("components", mtt_kobj);
	if (!mtt_comps_kobj) {
		err = -ENOMEM;
		goto err_put;
	}
	return 0;

err_put:
	kobject_put(mtt_kobj);
	return err;
}

/* Context: process (module exit), after every component is gone. */
void mtt_sysfs_exit(void)
{
	kobject_put(mtt_comps_kobj);
	kobject_put(mtt_kobj);
	mtt_collateral_exit();
}
