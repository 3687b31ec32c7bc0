// SPDX-License-Identifier: GPL-2.0
/*
 * MTT components: open (create or share by name or id), close, look up,
 * filters (the component's and the core's) and information.  Everything
 * here is process context under mtt_mutex; trace points only read the
 * precomputed mask (struct mtt_component.active) and the channel.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mtt_internal.h"

/* Serialises components, their filters and channels, the core filter. */
DEFINE_MUTEX(mtt_mutex);
LIST_HEAD(mtt_components);
u32 mtt_core_filter = MTT_LEVEL_ALL;

/* Components added or removed so far (mtt_mutex): the collateral's. */
u64 mtt_comps_gen;

/* The next id MTT_COMP_ID_ANY gets (mtt_mutex). */
static u32 mtt_next_id = 1;

/* Context: process, mtt_mutex held. */
static void mtt_comp_update(struct mtt_comp *c)
{
	WRITE_ONCE(c->pub.active, c->filter & mtt_core_filter);
}

/*
 * Context: process.
 * Return: 0, or -ENODEV once @c is closed (a sysfs write racing the last
 * mtt_close() must not make it active again).
 */
int mtt_comp_set_filter(struct mtt_comp *c, u32 filter)
{
	int err = 0;

	mutex_lock(&mtt_mutex);
	if (c->dead) {
		err = -ENODEV;
	} else {
		c->filter = filter;
		mtt_comp_update(c);
	}
	mutex_unlock(&mtt_mutex);
	return err;
}

/* Context: process. */
void mtt_set_core(u32 filter)
{
	struct mtt_comp *c;

	mutex_lock(&mtt_mutex);
	mtt_core_filter = filter;
	list_for_each_entry(c, &mtt_components, entry)
		mtt_comp_update(c);
	mutex_unlock(&mtt_mutex);
}

/*
 * Pin @c to channel offset @chan.  Context: process.
 * Return: 0, -ERANGE, or -ENODEV once @c is closed (its channel is given
 * back already: it must not be put twice).
 */
int mtt_comp_set_chan(struct mtt_comp *c, unsigned int chan)
{
	int err = 0;

	if (chan >= mtt_nr_comp_chans)
		return -ERANGE;
	mutex_lock(&mtt_mutex);
	if (c->dead) {
		err = -ENODEV;
	} else {
		mtt_chan_get(chan);
		mtt_chan_put(c->chan);
		WRITE_ONCE(c->chan, chan);
		c->pinned = true;
	}
	mutex_unlock(&mtt_mutex);
	return err;
}

/* Sum of the per-CPU counters.  Context: any but NMI. */
void mtt_comp_stats(struct mtt_comp *c, u64 *sent, u64 *dropped)
{
	int cpu;

	*sent = 0;
	*dropped = 0;
	for_each_possible_cpu(cpu) {
		struct mtt_stats *s = per_cpu_ptr(c->stats, cpu);

		*sent += READ_ONCE(s->sent);
		*dropped += READ_ONCE(s->dropped);
	}
}

/* Context: process, mtt_mutex held. */
static struct mtt_comp *mtt_find_id(u32 id)
{
	struct mtt_comp *c;

	list_for_each_entry(c, &mtt_components, entry)
		if (c->id == id)
			return c;
	return NULL;
}

/* Context: process, mtt_mutex held. */
static struct mtt_comp *mtt_find_name(const char *name)
{
	struct mtt_comp *c;

	list_for_each_entry(c, &mtt_components, entry)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* A name usable as a sysfs and policy node name. */
static bool mtt_name_ok(const char *name)
{
	size_t len;

	if (!name)
		return false;
	len = strnlen(name, MTT_COMP_NAME_LEN);
	return len && len < MTT_COMP_NAME_LEN && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* Context: process, mtt_mutex held. */
static struct mtt_comp *mtt_comp_create(u32 id, const char *name)
{
	struct mtt_comp *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->stats = alloc_percpu(struct mtt_stats);
	if (!c->stats) {
		kfree(c);
		return NULL;
	}
	strscpy(c->name, name, sizeof(c->name));
	if (id == (u32)MTT_COMP_ID_ANY) {
		/* 1..0x3fffffff; libmtt's ids have bit 30 set */
		while (!mtt_next_id || mtt_find_id(mtt_next_id))
			mtt_next_id = (mtt_next_id + 1) & MTT_COMP_ID_KERNEL;
		id = mtt_next_id;
		mtt_next_id = (mtt_next_id + 1) & MTT_COMP_ID_KERNEL;
	}
	c->id = id;
	c->filter = MTT_LEVEL_ALL;
	c->opens = 1;
	/* Predefined ids carry their channel in bits 7:0. */
	if ((id & MTT_COMP_ID_PREDEFINED) && (id & 0xff) < mtt_nr_comp_chans) {
		c->chan = id & 0xff;
		c->pinned = true;
	} else {
		c->chan = mtt_chan_pick();
	}
	mtt_chan_get(c->chan);
	mtt_comp_update(c);

	if (mtt_sysfs_add(c)) {
		mtt_chan_put(c->chan);
		/* the kobject's release frees @c */
		return NULL;
	}
	list_add_tail_rcu(&c->entry, &mtt_components);
	mtt_comps_gen++;
	return c;
}

/*
 * The last close of @c, first part: mark it dead before its channel is
 * given back, so that a sysfs write that comes before its directory is
 * gone (mtt_comp_remove()) neither puts the channel again nor makes it
 * active again; mute it and take it off the list.
 * Context: process, mtt_mutex held.
 */
static void mtt_comp_kill(struct mtt_comp *c)
{
	c->dead = true;
	WRITE_ONCE(c->pub.active, 0);
	list_del_rcu(&c->entry);
	mtt_comps_gen++;
	mtt_chan_put(c->chan);
}

/*
 * The last close of @c, second part, after mtt_comp_kill(): wait for
 * mtt_data_raw(), which walks the list under RCU, then remove its
 * source and its directory (whose attributes take mtt_mutex).
 * Context: process, mtt_mutex not held.
 */
static void mtt_comp_remove(struct mtt_comp *c)
{
	synchronize_rcu();
	mtt_pin_unregister(c);
	mtt_sysfs_del(c);
}

/* A handle for failed opens: lets nothing through. */
static struct mtt_component mtt_closed;

/**
 * mtt_open() - open (or share) a component
 * @comp_id:	MTT_COMP_ID_ANY for a new id, else the id wanted
 * @comp_name:	name: [^/]{1,63}
 * @comp_handle: where the handle goes
 *
 * An existing component with the same id (or, for MTT_COMP_ID_ANY, the
 * same name) is shared: each open needs its own mtt_close().  A new one
 * lets every level through and gets a channel of the "mtt" policy
 * node's range.  On failure *@comp_handle is a handle that traces
 * nothing.  Context: process.
 * Return: MTT_ERR_NONE, MTT_ERR_PARAM (bad name, name taken by another
 * id), MTT_ERR_OTHER (no memory).
 */
mtt_return_t mtt_open(const u32 comp_id, const char *comp_name,
		      mtt_comp_handle_t *comp_handle)
{
	mtt_return_t ret = MTT_ERR_NONE;
	struct mtt_comp *c, *created = NULL;

	if (!comp_handle)
		return MTT_ERR_PARAM;
	*comp_handle = &mtt_closed;
	if (!mtt_name_ok(comp_name))
		return MTT_ERR_PARAM;

	mutex_lock(&mtt_mutex);
	c = comp_id == (u32)MTT_COMP_ID_ANY ? NULL : mtt_find_id(comp_id);
	if (!c) {
		c = mtt_find_name(comp_name);
		if (c && comp_id != (u32)MTT_COMP_ID_ANY)
			c = ERR_PTR(-EEXIST);
	}
	if (IS_ERR(c)) {
		ret = MTT_ERR_PARAM;
	} else if (c) {
		c->opens++;
		*comp_handle = &c->pub;
	} else {
		c = mtt_comp_create(comp_id, comp_name);
		if (c) {
			*comp_handle = &c->pub;
			mtt_send_meta(c);
			created = c;
		} else {
			ret = MTT_ERR_OTHER;
		}
	}
	mutex_unlock(&mtt_mutex);
	/*
	 * Its own source: outside mtt_mutex, which the link callback of
	 * "mtt" takes under the class's link lock.  Without it the
	 * component still traces through "mtt".
	 */
	if (created)
		mtt_pin_register(created);
	return ret;
}
EXPORT_SYMBOL_GPL(mtt_open);

/**
 * mtt_close() - close one open of a component
 * @comp_handle: from mtt_open()
 *
 * The last close removes the component; no trace point may use the
 * handle after that.  Context: process.
 * Return: MTT_ERR_NONE or MTT_ERR_PARAM.
 */
mtt_return_t mtt_close(const mtt_comp_handle_t comp_handle)
{
	struct mtt_comp *c;
	bool last = false;

	if (!comp_handle || comp_handle == &mtt_closed)
		return MTT_ERR_PARAM;
	c = to_mtt_comp(comp_handle);
	mutex_lock(&mtt_mutex);
	if (!--c->opens) {
		mtt_comp_kill(c);
		last = true;
	}
	mutex_unlock(&mtt_mutex);
	if (last)
		mtt_comp_remove(c);
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_close);

/**
 * mtt_get_component_handle() - the handle of an open component by id
 * @comp_id:	its id
 * @comp_handle: where the handle goes (not a new open: do not close it)
 *
 * Context: process.
 * Return: MTT_ERR_NONE or MTT_ERR_PARAM (no such component).
 */
mtt_return_t mtt_get_component_handle(const u32 comp_id,
				      mtt_comp_handle_t *comp_handle)
{
	struct mtt_comp *c;

	if (!comp_handle)
		return MTT_ERR_PARAM;
	mutex_lock(&mtt_mutex);
	c = mtt_find_id(comp_id);
	if (c)
		*comp_handle = &c->pub;
	mutex_unlock(&mtt_mutex);
	return c ? MTT_ERR_NONE : MTT_ERR_PARAM;
}
EXPORT_SYMBOL_GPL(mtt_get_component_handle);

/**
 * mtt_set_core_filter() - set the filter every component is masked with
 * @new_level:	mask of MTT_LEVEL_* bits (MTT_LEVEL_ALL: no masking)
 * @prev_level:	if not NULL, gets the previous mask
 *
 * Context: process.
 * Return: MTT_ERR_NONE.
 */
mtt_return_t mtt_set_core_filter(const u32 new_level, u32 *prev_level)
{
	if (prev_level)
		*prev_level = READ_ONCE(mtt_core_filter);
	mtt_set_core(new_level);
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_set_core_filter);

/* Context: any. */
mtt_return_t mtt_get_core_filter(u32 *level)
{
	if (!level)
		return MTT_ERR_PARAM;
	*level = READ_ONCE(mtt_core_filter);
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_get_core_filter);

/**
 * mtt_set_component_filter() - set a component's level mask
 * @comp_handle: from mtt_open()
 * @new_level:	mask of MTT_LEVEL_* bits; MTT_LEVEL_NONE mutes it
 * @prev_level:	if not NULL, gets the previous mask
 *
 * Context: process.
 * Return: MTT_ERR_NONE or MTT_ERR_PARAM.
 */
mtt_return_t mtt_set_component_filter(const mtt_comp_handle_t comp_handle,
				      const u32 new_level, u32 *prev_level)
{
	struct mtt_comp *c;

	if (!comp_handle || comp_handle == &mtt_closed)
		return MTT_ERR_PARAM;
	c = to_mtt_comp(comp_handle);
	if (prev_level)
		*prev_level = READ_ONCE(c->filter);
	return mtt_comp_set_filter(c, new_level) ? MTT_ERR_PARAM :
	       MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_set_component_filter);

/* Context: any. */
mtt_return_t mtt_get_component_filter(const mtt_comp_handle_t comp_handle,
				      u32 *level)
{
	if (!comp_handle || comp_handle == &mtt_closed || !level)
		return MTT_ERR_PARAM;
	*level = READ_ONCE(to_mtt_comp(comp_handle)->filter);
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_get_component_filter);

/* Context: process, mtt_mutex held. */
static void mtt_fill_info(struct mtt_comp *c, mtt_comp_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->port = READ_ONCE(c->chan);
	info->id = c->id;
	info->level = c->filter;
	strscpy(info->name, c->name, sizeof(info->name));
	info->handle = &c->pub;
	mtt_comp_stats(c, &info->stat[0], &info->stat[1]);
}

/**
 * mtt_get_component_info() - what a component is
 * @comp_handle: from mtt_open()
 * @comp_info:	filled in: channel offset (port), id, filter, name, handle,
 *		frames sent (stat[0]) and dropped (stat[1])
 *
 * Context: process.
 * Return: MTT_ERR_NONE or MTT_ERR_PARAM.
 */
mtt_return_t mtt_get_component_info(const mtt_comp_handle_t comp_handle,
				    mtt_comp_info_t *comp_info)
{
	if (!comp_handle || comp_handle == &mtt_closed || !comp_info)
		return MTT_ERR_PARAM;
	mutex_lock(&mtt_mutex);
	mtt_fill_info(to_mtt_comp(comp_handle), comp_info);
	mutex_unlock(&mtt_mutex);
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_get_component_info);

/**
 * mtt_get_component_info_list() - every open component
 * @list:	@list->nb entries at @list->comp_info are filled in (in open
 *		order); @list->nb becomes the number of components
 *
 * Context: process.
 * Return: MTT_ERR_NONE or MTT_ERR_PARAM.
 */
mtt_return_t mtt_get_component_info_list(mtt_comp_info_list_t *list)
{
	struct mtt_comp *c;
	u32 n = 0;

	if (!list || (list->nb && !list->comp_info))
		return MTT_ERR_PARAM;
	mutex_lock(&mtt_mutex);
	list_for_each_entry(c, &mtt_components, entry) {
		if (n < list->nb)
			mtt_fill_info(c, &list->comp_info[n]);
		n++;
	}
	mutex_unlock(&mtt_mutex);
	list->nb = n;
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_get_component_info_list);

/*
 * Module exit: components nobody closed, one at a time; their sources
 * and directories go outside mtt_mutex (their attributes take it).
 * Context: process.
 */
void mtt_components_exit(void)
{
	struct mtt_comp *c;

	for (;;) {
		mutex_lock(&mtt_mutex);
		c = list_first_entry_or_null(&mtt_components, struct mtt_comp,
					     entry);
		if (c)
			mtt_comp_kill(c);
		mutex_unlock(&mtt_mutex);
		if (!c)
			break;
		mtt_comp_remove(c);
	}
}
