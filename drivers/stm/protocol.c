// SPDX-License-Identifier: GPL-2.0
/*
 * Registry of STM protocol drivers (p_basic, p_sys-t, ...): register,
 * unregister, and look up by name for a policy, loading the module
 * stm_<name> on demand.
 */
#include <linux/kmod.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "stm.h"

struct stm_pdrv_entry {
	struct list_head			entry;
	const struct stm_protocol_driver	*pdrv;
};

static LIST_HEAD(stm_pdrv_head);
static DEFINE_MUTEX(stm_pdrv_mutex);

/* Context: process, stm_pdrv_mutex held. */
static struct stm_pdrv_entry *stm_pdrv_find(const char *name)
{
	struct stm_pdrv_entry *pe;

	list_for_each_entry(pe, &stm_pdrv_head, entry)
		if (!strcmp(pe->pdrv->name, name))
			return pe;
	return NULL;
}

/**
 * stm_register_protocol() - make a protocol available to policies
 * @pdrv: the protocol; stays valid until stm_unregister_protocol()
 *
 * Context: process.
 * Return: 0, -EEXIST for a duplicate name, -EINVAL, -ENOMEM.
 */
int stm_register_protocol(const struct stm_protocol_driver *pdrv)
{
	struct stm_pdrv_entry *pe;
	int err = 0;

	if (!pdrv->name || !pdrv->write)
		return -EINVAL;

	pe = kzalloc(sizeof(*pe), GFP_KERNEL);
	if (!pe)
		return -ENOMEM;
	pe->pdrv = pdrv;

	mutex_lock(&stm_pdrv_mutex);
	if (stm_pdrv_find(pdrv->name))
		err = -EEXIST;
	else
		list_add_tail(&pe->entry, &stm_pdrv_head);
	mutex_unlock(&stm_pdrv_mutex);

	if (err)
		kfree(pe);
	return err;
}
EXPORT_SYMBOL_GPL(stm_register_protocol);

/* Context: process.  Users hold module references, so there are none. */
void stm_unregister_protocol(const struct stm_protocol_driver *pdrv)
{
	struct stm_pdrv_entry *pe;

	mutex_lock(&stm_pdrv_mutex);
	pe = stm_pdrv_find(pdrv->name);
	if (pe && pe->pdrv == pdrv) {
		list_del(&pe->entry);
		kfree(pe);
	}
	mutex_unlock(&stm_pdrv_mutex);
}
EXPORT_SYMBOL_GPL(stm_unregister_protocol);

static const struct stm_protocol_driver *stm_pdrv_get(const char *name)
{
	const struct stm_protocol_driver *pdrv = NULL;
	struct stm_pdrv_entry *pe;

	mutex_lock(&stm_pdrv_mutex);
	pe = stm_pdrv_find(name);
	if (pe && try_module_get(pe->pdrv->owner))
		pdrv = pe->pdrv;
	mutex_unlock(&stm_pdrv_mutex);
	return pdrv;
}

/**
 * stm_lookup_protocol() - find a protocol by name, loading it if needed
 * @name:	protocol name, NULL or "" for p_basic
 * @pdrv:	result, with a module reference held
 *
 * Context: process.
 * Return: 0 or -ENODEV.
 */
int stm_lookup_protocol(const char *name,
			const struct stm_protocol_driver **pdrv)
{
	if (!name || !*name)
		name = "p_basic";

	*pdrv = stm_pdrv_get(name);
	if (!*pdrv) {
		request_module("stm_%s", name);
		*pdrv = stm_pdrv_get(name);
	}
	return *pdrv ? 0 : -ENODEV;
}

void stm_put_protocol(const struct stm_protocol_driver *pdrv)
{
	module_put(pdrv->owner);
}
