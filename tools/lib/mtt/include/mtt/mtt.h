/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mtt.h - libmtt, the Multi-Target Trace (MTT) API v1 for applications:
 * the calls of the kernel's <linux/mtt.h>, writing native MTT frames
 * (Documentation/mtt.rst) to an STM device (/dev/<stm>) or to a file.
 * Link with -lmtt (pkg-config libmtt).  See mtt(3).
 */
#ifndef MTT_H
#define MTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Codes, levels, type_info encodings and types, shared with the kernel's
 * <linux/mtt.h> (one file: include/uapi/linux/mtt_defs.h in the source
 * tree); installed beside this header, in <mtt/>.
 */
#include "mtt_defs.h"

/* Ids libmtt allocates for MTT_COMP_ID_ANY have bit 30 set. */
#define MTT_COMP_ID_USER		0x40000000U

/* The name the README's examples open (define it before the include). */
#ifndef MTTDEV_NAME
#define MTTDEV_NAME			"mtt_app"
#endif

#ifndef MTT_NO_TRACE

mtt_return_t mtt_initialize(const mtt_init_param_t *init_param);
mtt_return_t mtt_uninitialize(void);
mtt_return_t mtt_get_capabilities(mtt_api_caps_t *api_caps);
mtt_return_t mtt_open(const uint32_t comp_id, const char *comp_name,
		      mtt_comp_handle_t *comp_handle);
mtt_return_t mtt_get_component_handle(const uint32_t comp_id,
				      mtt_comp_handle_t *comp_handle);
mtt_return_t mtt_close(const mtt_comp_handle_t comp_handle);
mtt_return_t mtt_set_core_filter(const uint32_t new_level,
				 uint32_t *prev_level);
mtt_return_t mtt_get_core_filter(uint32_t *level);
mtt_return_t mtt_set_component_filter(const mtt_comp_handle_t comp_handle,
				      const uint32_t new_level,
				      uint32_t *prev_level);
mtt_return_t mtt_get_component_filter(const mtt_comp_handle_t comp_handle,
				      uint32_t *level);
mtt_return_t mtt_get_component_info(const mtt_comp_handle_t comp_handle,
				    mtt_comp_info_t *comp_info);
mtt_return_t mtt_get_component_info_list(mtt_comp_info_list_t *list);
mtt_return_t mtt_data_raw(const uint32_t componentid, const uint32_t level,
			  const uint32_t length, const void *data);
mtt_return_t mtt_trigger(const mtt_comp_handle_t component,
			 const mtt_trigger_desc_t *trigger, const void *data,
			 const uint32_t size);

/* Out-of-line halves of mtt_trace() and mtt_print(): the level passed. */
mtt_return_t __mtt_trace(struct mtt_component *comp, uint32_t level,
			 uint32_t type_info, const void *data,
			 const char *hint);
mtt_return_t __mtt_print(struct mtt_component *comp, uint32_t level,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Does comp let level through?  One load, one test. */
static inline bool mtt_level_on(const struct mtt_component *comp,
				uint32_t level)
{
	return __atomic_load_n(&comp->active, __ATOMIC_RELAXED) & level;
}

/* Trace one typed value; see mtt_trace(3). */
static inline mtt_return_t mtt_trace(const mtt_comp_handle_t comp,
				     const mtt_trace_level_t level,
				     const uint32_t type_info,
				     const void *data, const char *hint)
{
	if (!comp)
		return MTT_ERR_PARAM;
	if (__builtin_expect(!mtt_level_on(comp, level), 1))
		return MTT_ERR_NONE;
	return __mtt_trace(comp, level, type_info, data, hint);
}

/* printf-like text; the arguments are evaluated only when it passes. */
#define mtt_print(comp, level, ...)					\
	(!(comp) ? MTT_ERR_PARAM :					\
	 mtt_level_on((comp), (level)) ?				\
		__mtt_print((comp), (level), __VA_ARGS__) : MTT_ERR_NONE)

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
#define mtt_print(h, l, ...)			MTT_ERR_NONE

#endif /* MTT_NO_TRACE */

#ifdef __cplusplus
}
#endif

#endif /* MTT_H */
