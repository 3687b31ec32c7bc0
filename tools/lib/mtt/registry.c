// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * registry.c - libmtt components and filters: mtt_initialize/
 * uninitialize, mtt_open/close, handles by id, core and component
 * filters, component information and capabilities.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/frame.h"
#include "internal/libmtt.h"

static struct mttl_registry registry = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.core_filter = MTT_LEVEL_ALL,
};

struct mttl_registry *mttl_reg(void)
{
	return &registry;
}

static void set_active(struct mttl_comp *c, uint32_t core)
{
	uint32_t v = c->refs ? (c->filter & core) : 0;

	__atomic_store_n(&c->pub.active, v, __ATOMIC_RELAXED);
}

mtt_return_t mtt_initialize(const mtt_init_param_t *p)
{
	struct mttl_registry *r = &registry;
	mtt_return_t ret = MTT_ERR_NONE;

	pthread_mutex_lock(&r->lock);
	if (p && p->name[0]) {
		const char *n = p->name;
		size_t len = strnlen(n, sizeof(p->name));
		int w;

		if (len == sizeof(p->name))
			ret = MTT_ERR_PARAM;
		else if (n[0] == '/' || n[0] == '.')
			w = snprintf(r->device, sizeof(r->device), "%s", n);
		else
			w = snprintf(r->device, sizeof(r->device), "/dev/%s",
				     n);
		if (ret == MTT_ERR_NONE)
			r->configured = w > 0 && (size_t)w < sizeof(r->device);
		if (ret == MTT_ERR_NONE && !r->configured)
			ret = MTT_ERR_PARAM;
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

mtt_return_t mtt_uninitialize(void)
{
	struct mttl_registry *r = &registry;
	struct mttl_comp *c;

	mttl_chan_drop_all();
	pthread_mutex_lock(&r->lock);
	for (c = r->comps; c; c = c->next) {
		if (c->refs)
			c->gen++;
		c->refs = 0;
		set_active(c, r->core_filter);
	}
	r->core_filter = MTT_LEVEL_ALL;
	r->configured = 0;
	r->device[0] = 0;
	pthread_mutex_unlock(&r->lock);
	return MTT_ERR_NONE;
}

mtt_return_t mtt_get_capabilities(mtt_api_caps_t *caps)
{
	if (!caps)
		return MTT_ERR_PARAM;
	memset(caps, 0, sizeof(*caps));
	caps->impl_info.version = MTT_API_VERSION;
	snprintf(caps->impl_info.string, sizeof(caps->impl_info.string),
		 "libmtt %d.%02d", MTT_API_VER_MAJOR, MTT_API_VER_MINOR);
	caps->caps = MTT_CAPS_LOG_LEVEL | MTT_CAPS_CONTEXT |
		     MTT_CAPS_LOCAL_TIME;
	return MTT_ERR_NONE;
}

static struct mttl_comp *find_name(const char *name)
{
	struct mttl_comp *c;

	for (c = registry.comps; c; c = c->next)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static struct mttl_comp *find_id(uint32_t id)
{
	struct mttl_comp *c;

	for (c = registry.comps; c; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

mtt_return_t mtt_open(const uint32_t comp_id, const char *name,
		      mtt_comp_handle_t *handle)
{
	struct mttl_registry *r = &registry;
	struct mttl_comp *c, *o;
	uint32_t id;

	if (!name || !handle || !name[0] ||
	    strlen(name) >= MTT_COMP_NAME_LEN || strchr(name, '/'))
		return MTT_ERR_PARAM;
	id = comp_id == (uint32_t)MTT_COMP_ID_ANY ?
	     MTT_COMP_ID_USER | (mttl_name_id(name) & 0x3fffffffu) : comp_id;

	pthread_mutex_lock(&r->lock);
	c = find_name(name);
	o = find_id(id);
	if (comp_id != (uint32_t)MTT_COMP_ID_ANY && c && c->id != id) {
		pthread_mutex_unlock(&r->lock);
		return MTT_ERR_PARAM;
	}
	if (!c && o) {
		/* the id is another name's */
		pthread_mutex_unlock(&r->lock);
		return MTT_ERR_ALREADY_OPENED;
	}
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c) {
			pthread_mutex_unlock(&r->lock);
			return MTT_ERR_OTHER;
		}
		c->id = id;
		strcpy(c->name, name);
		c->next = r->comps;
		r->comps = c;
	}
	if (!c->refs)
		c->filter = MTT_LEVEL_ALL;
	c->refs++;
	set_active(c, r->core_filter);
	*handle = &c->pub;
	pthread_mutex_unlock(&r->lock);
	return MTT_ERR_NONE;
}

mtt_return_t mtt_get_component_handle(const uint32_t comp_id,
				      mtt_comp_handle_t *handle)
{
	struct mttl_comp *c;
	mtt_return_t ret = MTT_ERR_PARAM;

	if (!handle)
		return MTT_ERR_PARAM;
	pthread_mutex_lock(&registry.lock);
	c = find_id(comp_id);
	if (c && c->refs) {
		*handle = &c->pub;
		ret = MTT_ERR_NONE;
	}
	pthread_mutex_unlock(&registry.lock);
	return ret;
}

mtt_return_t mtt_close(const mtt_comp_handle_t handle)
{
	struct mttl_comp *c = mttl_comp(handle);
	mtt_return_t ret = MTT_ERR_NONE;
	int last = 0;

	if (!handle)
		return MTT_ERR_PARAM;
	pthread_mutex_lock(&registry.lock);
	if (!c->refs) {
		ret = MTT_ERR_USAGE;
	} else if (!--c->refs) {
		c->gen++;
		set_active(c, registry.core_filter);
		last = 1;
	}
	pthread_mutex_unlock(&registry.lock);
	if (last)
		mttl_chan_drop(c);
	return ret;
}

mtt_return_t mtt_set_core_filter(const uint32_t level, uint32_t *prev)
{
	struct mttl_comp *c;

	pthread_mutex_lock(&registry.lock);
	if (prev)
		*prev = registry.core_filter;
	registry.core_filter = level;
	for (c = registry.comps; c; c = c->next)
		set_active(c, level);
	pthread_mutex_unlock(&registry.lock);
	return MTT_ERR_NONE;
}

mtt_return_t mtt_get_core_filter(uint32_t *level)
{
	if (!level)
		return MTT_ERR_PARAM;
	pthread_mutex_lock(&registry.lock);
	*level = registry.core_filter;
	pthread_mutex_unlock(&registry.lock);
	return MTT_ERR_NONE;
}

mtt_return_t mtt_set_component_filter(const mtt_comp_handle_t handle,
				      const uint32_t level, uint32_t *prev)
{
	struct mttl_comp *c = mttl_comp(handle);
	mtt_return_t ret = MTT_ERR_NONE;

	if (!handle)
		return MTT_ERR_PARAM;
	pthread_mutex_lock(&registry.lock);
	if (!c->refs) {
		ret = MTT_ERR_USAGE;
	} else {
		if (prev)
			*prev = c->filter;
		c->filter = level;
		set_active(c, registry.core_filter);
	}
	pthread_mutex_unlock(&registry.lock);
	return ret;
}

mtt_return_t mtt_get_component_filter(const mtt_comp_handle_t handle,
				      uint32_t *level)
{
	struct mttl_comp *c = mttl_comp(handle);
	mtt_return_t ret = MTT_ERR_NONE;

	if (!handle || !level)
		return MTT_ERR_PARAM;
	pthread_mutex_lock(&registry.lock);
	if (!c->refs)
		ret = MTT_ERR_USAGE;
	else
		*level = c->filter;
	pthread_mutex_unlock(&registry.lock);
	return ret;
}

static void fill_info(struct mttl_comp *c, mtt_comp_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->id = c->id;
	info->level = c->filter;
	memcpy(info->name, c->name, sizeof(info->name));
	info->handle = &c->pub;
	info->stat[0] = __atomic_load_n(&c->sent, __ATOMIC_RELAXED);
	info->stat[1] = __atomic_load_n(&c->dropped, __ATOMIC_RELAXED);
}

mtt_return_t mtt_get_component_info(const mtt_comp_handle_t handle,
				    mtt_comp_info_t *info)
{
	struct mttl_comp *c = mttl_comp(handle);
	mtt_return_t ret = MTT_ERR_NONE;
	uint32_t chan = 0;

	if (!handle || !info)
		return MTT_ERR_PARAM;
	pthread_mutex_lock(&registry.lock);
	if (!c->refs)
		ret = MTT_ERR_USAGE;
	else
		fill_info(c, info);
	pthread_mutex_unlock(&registry.lock);
	/* the port: this thread's channel, when it has traced already */
	if (ret == MTT_ERR_NONE && mttl_chan_peek(c, &chan))
		info->port = chan;
	return ret;
}

mtt_return_t mtt_get_component_info_list(mtt_comp_info_list_t *list)
{
	struct mttl_comp *c;
	uint32_t n = 0;

	if (!list || (list->nb && !list->comp_info))
		return MTT_ERR_PARAM;
	pthread_mutex_lock(&registry.lock);
	for (c = registry.comps; c; c = c->next) {
		if (!c->refs)
			continue;
		if (n < list->nb)
			fill_info(c, &list->comp_info[n]);
		n++;
	}
	pthread_mutex_unlock(&registry.lock);
	list->nb = n;
	return MTT_ERR_NONE;
}

int mttl_lookup_id(uint32_t id, struct mttl_comp **out)
{
	struct mttl_comp *c;

	pthread_mutex_lock(&registry.lock);
	c = find_id(id);
	if (c && !c->refs)
		c = NULL;
	pthread_mutex_unlock(&registry.lock);
	*out = c;
	return c ? 0 : -ENOENT;
}
