/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MTT (Multi-Target Trace) API v1: the values and plain types shared by
 * the kernel API <linux/mtt.h> and libmtt's <mtt.h> (which installs this
 * file as <linux/mtt_defs.h>): return codes, capabilities, levels,
 * type_info encodings (also the native frame's type_info word, see
 * Documentation/mtt.rst), component ids and info, trigger actions.
 * Include <linux/mtt.h> or <mtt.h>, not this file.
 */
#ifndef _UAPI_LINUX_MTT_DEFS_H
#define _UAPI_LINUX_MTT_DEFS_H

#include <linux/types.h>

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

/* libmtt's name: an STM device ("swstm.0", "/dev/swstm.0") or a file */
typedef struct {
	mtt_init_attr_bit_t	attr;
	char			name[64];
	__u32			reserved;
} mtt_init_param_t;

typedef struct {
	__u32	version;
	char	string[MTT_API_VER_STRING_LEN];
} mtt_impl_version_info_t;

typedef struct {
	mtt_impl_version_info_t	impl_info;
	__u32			caps;
	__u32			caps2;
} mtt_api_caps_t;

/*
 * Components.  A handle is what mtt_open() gives back; the level mask a
 * trace point tests is its first member (component filter & core
 * filter), so the test is inline.  The rest is private to the kernel or
 * to libmtt.
 */
struct mtt_component {
	__u32	active;
};

typedef struct mtt_component *mtt_comp_handle_t;

#define MTT_COMP_ID_ANY			(-1)
#define MTT_COMPONENTID_ANY		MTT_COMP_ID_ANY
#define MTT_COMP_ID_MASK		0x0FFFFFFF
#define MTT_COMP_ID(id)			((id) & MTT_COMP_ID_MASK)
/* Ids with bit 31 set are predefined: channel in bits 7:0. */
#define MTT_COMP_ID_PREDEFINED		0x80000000U
#define MTT_COMP_NAME_LEN		64

typedef struct {
	/*
	 * kernel: channel offset in the "mtt" range; libmtt: the STP
	 * channel of the calling thread
	 */
	__u32			port;
	__u32			id;
	__u32			level;	/* component filter */
	char			name[MTT_COMP_NAME_LEN];
	mtt_comp_handle_t	handle;
	__u64			stat[4];	/* sent, dropped, 0, 0 */
} mtt_comp_info_t;

typedef struct {
	__u32		nb;	/* in: entries of comp_info; out: components */
	mtt_comp_info_t	*comp_info;
} mtt_comp_info_list_t;

/* Levels: a filter is a mask of these; a trace passes if it shares a bit. */
typedef __u32 mtt_trace_level_t;

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

/*
 * type_info: bits 31:24 the element type, 23:16 flags, 15:0 the payload
 * size in bytes.
 */
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

/* @n elements of @size bytes, type @t with flags @p. */
#define MTT_TYPE(t, p, size, n) \
	((((__u32)(t) | (__u32)(p)) & 0xffff0000U) + \
	 (((__u32)(size) * (__u32)(n)) & MTT_TYPE_SIZE_MASK))

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
	__u32			component;
	mtt_trace_level_t	level;
	__u32			action;
} mtt_trigger_desc_t;

#endif /* _UAPI_LINUX_MTT_DEFS_H */
