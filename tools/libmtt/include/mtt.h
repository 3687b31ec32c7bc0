/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mtt.h - libmtt, the Multi-Target Trace (MTT) API v1 for applications:
 * the calls of the kernel's <linux/mtt.h>, writing native MTT frames
 * (Documentation/mtt.rst) to an STM device (/dev/<stm>) or to a file.
 * Link with -lmtt (pkg-config mtt).  See mtt(3).
 */
#ifndef MTT_H
#define MTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MTT_API_VER_MAJOR	1
#define MTT_API_VER_MINOR	2
#define MTT_API_VERSION		((MTT_API_VER_MAJOR << 16) | MTT_API_VER_MINOR)
#define MTT_API_VER_STRING_LEN	32

/* Return codes of every call. */
typedef enum {
	MTT_ERR_NONE			= 0x0000,
	MTT_ERR_FN_UNIMPLEMENTED	= 0x0100,
	MTT_ERR_USAGE			= 0x0101,
	MTT_ERR_PARAM			= 0x0102,
	MTT_ERR_CONNECTION		= 0x0103,
	MTT_ERR_ALREADY_CNF		= 0x0104,
	MTT_ERR_TIMEOUT			= 0x0106,
	MTT_ERR_FERROR			= 0x0107,
	MTT_ERR_SOCKERR			= 0x0108,
	MTT_ERR_ALREADY_OPENED		= 0x0109,
	MTT_ERR_OTHER			= 0xffff,
} mtt_return_t;

/* Capability bits (mtt_api_caps_t.caps), also mtt_initialize() flags. */
#define MTT_CAPS_DROP_RECORDS	0x0002
#define MTT_CAPS_LOG_LEVEL	0x0004
#define MTT_CAPS_CONTEXT	0x0008
#define MTT_CAPS_LOCAL_TIME	0x0010
#define MTT_CAPS_STMV1		0x1000
#define MTT_CAPS_STMV3		0x2000
#define MTT_CAPS_STM500		0x4000

typedef enum {
	MTT_INIT_DROP_RECORDS	= MTT_CAPS_DROP_RECORDS,
	MTT_INIT_LOG_LEVEL	= MTT_CAPS_LOG_LEVEL,
	MTT_INIT_CONTEXT	= MTT_CAPS_CONTEXT,
	MTT_INIT_LOCAL_TIME	= MTT_CAPS_LOCAL_TIME,
} mtt_init_attr_bit_t;

/* name: the output: an STM device ("swstm.0", "/dev/swstm.0") or a file */
typedef struct {
	mtt_init_attr_bit_t	attr;
	char			name[64];
	uint32_t		reserved;
} mtt_init_param_t;

typedef struct {
	uint32_t	version;
	char		string[MTT_API_VER_STRING_LEN];
} mtt_impl_version_info_t;

typedef struct {
	mtt_impl_version_info_t	impl_info;
	uint32_t		caps;
	uint32_t		caps2;
} mtt_api_caps_t;

/*
 * A component.  The handle is a pointer to it; its first member is the
 * level mask a trace point tests inline (component filter & core
 * filter).  Everything else is private to the library.
 */
struct mtt_component {
	uint32_t	active;
};

typedef struct mtt_component *mtt_comp_handle_t;

#define MTT_COMP_ID_ANY			(-1)
#define MTT_COMPONENTID_ANY		MTT_COMP_ID_ANY
#define MTT_COMP_ID_MASK		0x0FFFFFFF
#define MTT_COMP_ID(id)			((id) & MTT_COMP_ID_MASK)
/* Ids with bit 31 set are predefined by ST; libmtt's own have bit 30. */
#define MTT_COMP_ID_PREDEFINED		0x80000000U
#define MTT_COMP_ID_USER		0x40000000U
#define MTT_COMP_NAME_LEN		64

/* The name the README's examples open (define it before the include). */
#ifndef MTTDEV_NAME
#define MTTDEV_NAME			"mtt_app"
#endif

typedef struct {
	uint32_t		port;	/* STP channel of the calling thread */
	uint32_t		id;
	uint32_t		level;	/* component filter */
	char			name[MTT_COMP_NAME_LEN];
	mtt_comp_handle_t	handle;
	uint64_t		stat[4];	/* sent, dropped, 0, 0 */
} mtt_comp_info_t;

typedef struct {
	uint32_t	nb;	/* in: entries of comp_info; out: components */
	mtt_comp_info_t	*comp_info;
} mtt_comp_info_list_t;

/* Levels: a filter is a mask of these; a trace passes if it shares a bit. */
typedef uint32_t mtt_trace_level_t;

#define MTT_LEVEL_ALL		0xffffffffU
#define MTT_LEVEL_NONE		0x00000000U
#define MTT_LEVEL_ERROR		0x80000000U
#define MTT_LEVEL_WARNING	0x40000000U
#define MTT_LEVEL_INFO		0x20000000U
#define MTT_LEVEL_DEBUG		0x10000000U
#define MTT_LEVEL_ASSERT	0x08000000U
#define MTT_LEVEL_CALLSTACK	0x04000000U
#define MTT_LEVEL_CURSORA	0x00010000U
#define MTT_LEVEL_CURSORB	0x00020000U
#define MTT_LEVEL_CURSORC	0x00040000U
#define MTT_LEVEL_CURSORD	0x00080000U
#define MTT_LEVEL_API_ENTRY	MTT_LEVEL_CURSORA
#define MTT_LEVEL_API_RETURN	MTT_LEVEL_CURSORB
#define MTT_LEVEL_USERMASK	0x0000ffffU
#define MTT_LEVEL_USERTAG	MTT_LEVEL_USERMASK
#define MTT_LEVEL_USER(x)	((x) & MTT_LEVEL_USERMASK)
#define MTT_LEVEL_USER0		0x00000001U
#define MTT_LEVEL_USER1		0x00000002U
#define MTT_LEVEL_USER2		0x00000004U
#define MTT_LEVEL_USER3		0x00000008U
#define MTT_LEVEL_USER4		0x00000010U
#define MTT_LEVEL_USER5		0x00000020U
#define MTT_LEVEL_USER6		0x00000040U
#define MTT_LEVEL_USER7		0x00000080U
#define MTT_LEVEL_USER8		0x00000100U
#define MTT_LEVEL_USER9		0x00000200U
#define MTT_LEVEL_USER10	0x00000400U
#define MTT_LEVEL_USER11	0x00000800U
#define MTT_LEVEL_USER12	0x00001000U
#define MTT_LEVEL_USER13	0x00002000U
#define MTT_LEVEL_USER14	0x00004000U
#define MTT_LEVEL_USER15	0x00008000U
#define MTT_LEVEL_USERLAST	MTT_LEVEL_USER15

/* type_info: bits 31:24 element type, 23:16 flags, 15:0 payload bytes. */
typedef enum {
	MTT_TYPE_UINT8	= 0x01000000,
	MTT_TYPE_INT8	= 0x02000000,
	MTT_TYPE_UINT16	= 0x03000000,
	MTT_TYPE_INT16	= 0x04000000,
	MTT_TYPE_UINT32	= 0x05000000,
	MTT_TYPE_INT32	= 0x06000000,
	MTT_TYPE_UINT64	= 0x07000000,
	MTT_TYPE_INT64	= 0x08000000,
	MTT_TYPE_FLOAT	= 0x09000000,
	MTT_TYPE_DOUBLE	= 0x0a000000,
	MTT_TYPE_BOOL	= 0x0b000000,
} mtt_type_scalar_t;

typedef enum {
	MTT_TYPEP_SCALAR	= 0x00000000,
	MTT_TYPEP_VECTOR	= 0x00010000,
	MTT_TYPEP_STRING	= 0x00020000,
	MTT_TYPEP_SHOWHEX	= 0x00040000,
} mtt_type_param_t;

#define MTT_TYPE_MASK		0xff000000U
#define MTT_TYPEP_MASK		0x00ff0000U
#define MTT_TYPE_SIZE_MASK	0x0000ffffU
#define MTT_TYPE_SIZE(ti)	((ti) & MTT_TYPE_SIZE_MASK)

/* n elements of size bytes, type t with flags p. */
#define MTT_TYPE(t, p, size, n) \
	((((uint32_t)(t) | (uint32_t)(p)) & 0xffff0000U) + \
	 (((uint32_t)(size) * (uint32_t)(n)) & MTT_TYPE_SIZE_MASK))

typedef enum {
	MTT_TRACEITEM_UINT8	= MTT_TYPE(MTT_TYPE_UINT8, MTT_TYPEP_SCALAR, 1, 1),
	MTT_TRACEITEM_INT8	= MTT_TYPE(MTT_TYPE_INT8, MTT_TYPEP_SCALAR, 1, 1),
	MTT_TRACEITEM_UINT16	= MTT_TYPE(MTT_TYPE_UINT16, MTT_TYPEP_SCALAR, 2, 1),
	MTT_TRACEITEM_INT16	= MTT_TYPE(MTT_TYPE_INT16, MTT_TYPEP_SCALAR, 2, 1),
	MTT_TRACEITEM_UINT32	= MTT_TYPE(MTT_TYPE_UINT32, MTT_TYPEP_SCALAR, 4, 1),
	MTT_TRACEITEM_INT32	= MTT_TYPE(MTT_TYPE_INT32, MTT_TYPEP_SCALAR, 4, 1),
	MTT_TRACEITEM_UINT64	= MTT_TYPE(MTT_TYPE_UINT64, MTT_TYPEP_SCALAR, 8, 1),
	MTT_TRACEITEM_INT64	= MTT_TYPE(MTT_TYPE_INT64, MTT_TYPEP_SCALAR, 8, 1),
	MTT_TRACEITEM_FLOAT	= MTT_TYPE(MTT_TYPE_FLOAT, MTT_TYPEP_SCALAR, 4, 1),
	MTT_TRACEITEM_DOUBLE	= MTT_TYPE(MTT_TYPE_DOUBLE, MTT_TYPEP_SCALAR, 8, 1),
	MTT_TRACEITEM_BOOL	= MTT_TYPE(MTT_TYPE_BOOL, MTT_TYPEP_SCALAR, 4, 1),
	MTT_TRACEITEM_PTR32	= MTT_TYPE(MTT_TYPE_UINT32, MTT_TYPEP_SHOWHEX, 4, 1),
} mtt_trace_item_t;

#define MTT_TRACEITEM_STRING(n)	 MTT_TYPE(MTT_TYPE_UINT8, MTT_TYPEP_STRING, 1, n)
#define MTT_TRACEITEM_BLOB(n)	 MTT_TYPE(MTT_TYPE_UINT8, MTT_TYPEP_VECTOR, 1, n)
#define MTT_TRACEITEM_DUMP(n) \
	MTT_TYPE(MTT_TYPE_UINT32, MTT_TYPEP_VECTOR | MTT_TYPEP_SHOWHEX, 4, n)
#define MTT_TRACEVECTOR_UINT8(n)  MTT_TYPE(MTT_TYPE_UINT8, MTT_TYPEP_VECTOR, 1, n)
#define MTT_TRACEVECTOR_INT8(n)	  MTT_TYPE(MTT_TYPE_INT8, MTT_TYPEP_VECTOR, 1, n)
#define MTT_TRACEVECTOR_UINT16(n) MTT_TYPE(MTT_TYPE_UINT16, MTT_TYPEP_VECTOR, 2, n)
#define MTT_TRACEVECTOR_INT16(n)  MTT_TYPE(MTT_TYPE_INT16, MTT_TYPEP_VECTOR, 2, n)
#define MTT_TRACEVECTOR_UINT32(n) MTT_TYPE(MTT_TYPE_UINT32, MTT_TYPEP_VECTOR, 4, n)
#define MTT_TRACEVECTOR_INT32(n)  MTT_TYPE(MTT_TYPE_INT32, MTT_TYPEP_VECTOR, 4, n)
#define MTT_TRACEVECTOR_UINT64(n) MTT_TYPE(MTT_TYPE_UINT64, MTT_TYPEP_VECTOR, 8, n)
#define MTT_TRACEVECTOR_INT64(n)  MTT_TYPE(MTT_TYPE_INT64, MTT_TYPEP_VECTOR, 8, n)
#define MTT_TRACEVECTOR_FLOAT(n)  MTT_TYPE(MTT_TYPE_FLOAT, MTT_TYPEP_VECTOR, 4, n)
#define MTT_TRACEVECTOR_DOUBLE(n) MTT_TYPE(MTT_TYPE_DOUBLE, MTT_TYPEP_VECTOR, 8, n)

/* mtt_trigger() (not implemented: MTT_ERR_FN_UNIMPLEMENTED) */
typedef enum {
	MTT_TRIGACTION_RING		= 0x00000001,
	MTT_TRIGACTION_FLUSH		= 0x00000002,
	MTT_TRIGACTION_APPLY_FILTER	= 0x00000004,
	MTT_TRIGACTION_START_ON		= 0x00000008,
	MTT_TRIGACTION_STOP_ON		= 0x00000010,
} mtt_trigger_action_t;

typedef struct {
	uint32_t		component;
	mtt_trace_level_t	level;
	uint32_t		action;
} mtt_trigger_desc_t;

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
