// SPDX-License-Identifier: GPL-2.0
/*
 * The mtt module: Multi-Target Trace components over STM (see
 * Documentation/mtt.rst).  Init and exit, and the API calls that are
 * about the implementation rather than a component.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/string.h>

#include "mtt_internal.h"

/* Context: any.  Nothing to set up: the module did it at load. */
mtt_return_t mtt_initialize(const mtt_init_param_t *init_param)
{
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_initialize);

/* Context: any. */
mtt_return_t mtt_uninitialize(void)
{
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_uninitialize);

/**
 * mtt_get_capabilities() - what this implementation does
 * @api_caps:	filled in: API version 1.2, "MTT API v1.02 stm",
 *		levels, context ids (PID) and local timestamps
 *
 * Context: any.
 * Return: MTT_ERR_NONE or MTT_ERR_PARAM.
 */
mtt_return_t mtt_get_capabilities(mtt_api_caps_t *api_caps)
{
	if (!api_caps)
		return MTT_ERR_PARAM;
	memset(api_caps, 0, sizeof(*api_caps));
	api_caps->impl_info.version = MTT_API_VERSION;
	strscpy(api_caps->impl_info.string, "MTT API v1.02 stm",
		sizeof(api_caps->impl_info.string));
	api_caps->caps = MTT_CAPS_LOG_LEVEL | MTT_CAPS_CONTEXT |
			 MTT_CAPS_LOCAL_TIME;
	return MTT_ERR_NONE;
}
EXPORT_SYMBOL_GPL(mtt_get_capabilities);

/* Triggers are not implemented.  Context: any. */
mtt_return_t mtt_trigger(const mtt_comp_handle_t component,
			 const mtt_trigger_desc_t *trigger, const void *data,
			 const u32 size)
{
	return MTT_ERR_FN_UNIMPLEMENTED;
}
EXPORT_SYMBOL_GPL(mtt_trigger);

static int __init mtt_init(void)
{
	int err;

	err = mtt_dict_init();
	if (err)
		return err;
	err = mtt_frames_init();
	if (err)
		goto err_dict;
	err = mtt_sysfs_init();
	if (err)
		goto err_frames;
	err = mtt_output_init();
	if (err)
		goto err_sysfs;
	return 0;

err_sysfs:
	mtt_sysfs_exit();
err_frames:
	mtt_frames_exit();
err_dict:
	mtt_dict_exit();
	return err;
}
module_init(mtt_init);

static void __exit mtt_exit(void)
{
	/* components left open by modules already gone, then the source */
	mtt_components_exit();
	mtt_output_exit();
	mtt_sysfs_exit();
	mtt_frames_exit();
	mtt_dict_exit();
}
module_exit(mtt_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("Multi-Target Trace (MTT) components over STM");
