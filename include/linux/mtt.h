/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multi-Target Trace (MTT) kernel API, v1: components, level filters and
 * typed trace points carried over STM by the "mtt" stm_source (module
 * mtt).  Code written against STLinux's <linux/mtt.h> builds unchanged.
 * See Documentation/mtt.rst.
 */
#ifndef _LINUX_MTT_H
#define _LINUX_MTT_H

#include <linux/compiler.h>
#include <linux/types.h>

/* Codes, levels, type_info encodings and types shared with libmtt */
#include <uapi/linux/mtt_defs.h>

/* Ids the kernel allocates for MTT_COMP_ID_ANY: 1..0x3fffffff. */
#define MTT_COMP_ID_KERNEL		0x3fffffffU

/* The name the README's examples open: the calling module's, by default. */
#ifndef MTTDEV_NAME
#define MTTDEV_NAME			KBUILD_MODNAME
#endif

#ifndef MTT_NO_TRACE

mtt_return_t mtt_initialize(const mtt_init_param_t *init_param);
mtt_return_t mtt_uninitialize(void);
mtt_return_t mtt_get_capabilities(mtt_api_caps_t *api_caps);
mtt_return_t mtt_open(const u32 comp_id, const char *comp_name,
		      mtt_comp_handle_t *comp_handle);
mtt_return_t mtt_get_component_handle(const u32 comp_id,
				      mtt_comp_handle_t *comp_handle);
mtt_return_t mtt_close(const mtt_comp_handle_t comp_handle);
mtt_return_t mtt_set_core_filter(const u32 new_level, u32 *prev_level);
mtt_return_t mtt_get_core_filter(u32 *level);
mtt_return_t mtt_set_component_filter(const mtt_comp_handle_t comp_handle,
				      const u32 new_level, u32 *prev_level);
mtt_return_t mtt_get_component_filter(const mtt_comp_handle_t comp_handle,
				      u32 *level);
mtt_return_t mtt_get_component_info(const mtt_comp_handle_t comp_handle,
				    mtt_comp_info_t *comp_info);
mtt_return_t mtt_get_component_info_list(mtt_comp_info_list_t *list);
mtt_return_t mtt_data_raw(const u32 componentid, const u32 level,
			  const u32 length, const void *data);
mtt_return_t mtt_trigger(const mtt_comp_handle_t component,
			 const mtt_trigger_desc_t *trigger, const void *data,
			 const u32 size);

/* Out-of-line halves of mtt_trace() and mtt_print(): the level passed. */
mtt_return_t __mtt_trace(struct mtt_component *comp, u32 level,
			 u32 type_info, const void *data, const char *hint);
__printf(3, 4)
mtt_return_t __mtt_print(struct mtt_component *comp, u32 level,
			 const char *fmt, ...);

/* Does @comp let @level through?  One load, one test. */
static __always_inline bool mtt_level_on(const struct mtt_component *comp,
					 u32 level)
{
	return READ_ONCE(comp->active) & level;
}

/**
 * mtt_trace() - trace one typed value
 * @comp:	handle from mtt_open()
 * @level:	one MTT_LEVEL_* bit
 * @type_info:	MTT_TRACEITEM_* or MTT_TYPE(): type, flags, payload size
 * @data:	the payload (size from @type_info)
 * @hint:	short name of the value ("signal0"), or NULL
 *
 * Filtered out, it costs a load, a test and a branch.
 * Context: any, NMI included; never sleeps or allocates.
 * Return: MTT_ERR_NONE, or MTT_ERR_PARAM / MTT_ERR_CONNECTION (not sent).
 */
static __always_inline mtt_return_t mtt_trace(const mtt_comp_handle_t comp,
					      const mtt_trace_level_t level,
					      const u32 type_info,
					      const void *data,
					      const char *hint)
{
	if (likely(!mtt_level_on(comp, level)))
		return MTT_ERR_NONE;
	return __mtt_trace(comp, level, type_info, data, hint);
}

/*
 * mtt_print(comp, level, fmt, ...): printf-like text at @level; the
 * arguments are only evaluated when the level passes the filters.
 * Context: any, NMI included.
 */
#define mtt_print(comp, level, fmt, ...)				\
({									\
	struct mtt_component *__mtt_c = (comp);				\
	u32 __mtt_l = (level);						\
	mtt_level_on(__mtt_c, __mtt_l) ?				\
		__mtt_print(__mtt_c, __mtt_l, fmt, ##__VA_ARGS__) :	\
		MTT_ERR_NONE;						\
})

#define mtt_trace16(co, level, v) \
	mtt_trace(co, level, MTT_TRACEITEM_UINT16, &(v), NULL)
#define mtt_trace32(co, level, v) \
	mtt_trace(co, level, MTT_TRACEITEM_UINT32, &(v), NULL)

#else /* MTT_NO_TRACE: every call compiles to nothing */

#define mtt_initialize(p)			MTT_ERR_NONE
#define mtt_uninitialize()			MTT_ERR_NONE
#define mtt_get_capabilities(c)			MTT_ERR_NONE
#define mtt_open(id, name, h)			MTT_ERR_NONE
#define mtt_get_component_handle(id, h)		MTT_ERR_NONE
#define mtt_close(h)				MTT_ERR_NONE
#define mtt_set_core_filter(l, p)		MTT_ERR_NONE
#define mtt_get_core_filter(l)			MTT_ERR_NONE
#define mtt_set_component_filter(h, l, p)	MTT_ERR_NONE
#define mtt_get_component_filter(h, l)		MTT_ERR_NONE
#define mtt_get_component_info(h, i)		MTT_ERR_NONE
#define mtt_get_component_info_list(l)		MTT_ERR_NONE
#define mtt_data_raw(id, l, n, d)		MTT_ERR_NONE
#define mtt_trigger(h, t, d, n)			MTT_ERR_NONE
#define mtt_trace(h, l, t, d, s)		MTT_ERR_NONE
#define mtt_trace16(h, l, v)			MTT_ERR_NONE
#define mtt_trace32(h, l, v)			MTT_ERR_NONE
#define mtt_print(h, l, fmt, ...)		MTT_ERR_NONE

#endif /* MTT_NO_TRACE */

#endif /* _LINUX_MTT_H */
