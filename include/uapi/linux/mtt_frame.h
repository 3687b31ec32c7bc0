/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR LGPL-2.1-or-later */
/*
 * The native MTT frame (Documentation/mtt.rst, "The native frame"): the
 * one definition of its wire format, for the kernel (drivers/mtt, the
 * p_mtt and p_sys-t protocols), libmtt, which writes frames, and
 * libmttdecode, which reads them.
 *
 * A frame is little-endian 32-bit words: five preamble words
 * (MTT_FRAME_W_*), then, as the flags of word 1 say, a context word
 * (CTXT), a 64-bit timestamp (TS64: ns; or TSTV: seconds, microseconds),
 * a level word (LEVEL), the payload (type_info & 0xffff bytes, padded to
 * 32 bits), a hint of exactly MTT_FRAME_HINT_BYTES bytes (HINT) and a
 * CRC word (CRC).  The type_info word's encodings, the levels and the
 * component ids are <linux/mtt_defs.h>'s.
 */
#ifndef _UAPI_LINUX_MTT_FRAME_H
#define _UAPI_LINUX_MTT_FRAME_H

#include <linux/types.h>

/* The preamble: word indexes, and its size. */
#define MTT_FRAME_W_HEAD	0	/* sync | version | target */
#define MTT_FRAME_W_CMD		1	/* command | flags */
#define MTT_FRAME_W_COMP	2	/* component id */
#define MTT_FRAME_W_TRACE_ID	3	/* return address or DICT key */
#define MTT_FRAME_W_TYPE_INFO	4	/* <linux/mtt_defs.h> MTT_TYPE* */
#define MTT_FRAME_PREAMBLE_WORDS	5
#define MTT_FRAME_PREAMBLE_BYTES	(MTT_FRAME_PREAMBLE_WORDS * 4)

/* Word 0: sync (bits 31:20), version (15:8: major << 4 | minor), target. */
#define MTT_FRAME_SYNC		0xeee00000U
#define MTT_FRAME_SYNC_MASK	0xfff00000U
#define MTT_FRAME_VER_MAJOR	1
#define MTT_FRAME_VER_MINOR	0
#define MTT_FRAME_VERSION	((MTT_FRAME_VER_MAJOR << 4) | MTT_FRAME_VER_MINOR)
#define MTT_FRAME_VERSION_SHIFT	8
#define MTT_FRAME_VERSION_MASK	0x0000ff00U
#define MTT_FRAME_TARGET_MASK	0x000000ffU
#define MTT_FRAME_TARGET_CPU_MAX	0x3fU	/* Linux: CPU n is target n */
#define MTT_FRAME_TARGET_CONTROL	0xffU	/* a command: any target */
/* Other cores (MTT's README): firmware picks one of these or 0x40..0xfe. */
#define MTT_FRAME_TARGET_ST40		0x40U
#define MTT_FRAME_TARGET_ST231		0x48U
#define MTT_FRAME_TARGET_XP70		0x80U
#define MTT_FRAME_WORD0(target)	(MTT_FRAME_SYNC | \
				 ((__u32)MTT_FRAME_VERSION << MTT_FRAME_VERSION_SHIFT) | \
				 ((__u32)(target) & MTT_FRAME_TARGET_MASK))

/* Word 1: command (bits 31:16) | flags (bits 15:0). */
#define MTT_FRAME_CMD_TRACE	0x00000000U
#define MTT_FRAME_CMD_META	0x40000000U	/* names a component */
#define MTT_FRAME_CMD_RAW	0x80000000U
#define MTT_FRAME_CMD_START	0x01000000U
#define MTT_FRAME_CMD_STOP	0x02000000U
/*
 * Commands from the host to a target (Documentation/mtt.rst, "Commands
 * and replies"): word 2 the component id (MTT_FRAME_CMD_ANY_COMP where
 * none), word 3 a sequence number the reply echoes, word 4 the
 * type_info of the argument (a 32-bit UINT32: MTT_TRACEITEM_UINT32 or
 * MTT_TRACEITEM_PTR32; or 0: none), the argument as the payload.  The
 * target of word 0 is the one addressed, or MTT_FRAME_TARGET_CONTROL for
 * any.  START and STOP take no argument (a target that waits for the
 * host starts tracing on START).
 */
#define MTT_FRAME_CMD_SET_COMP_FILTER	0x03000000U	/* arg: level mask */
#define MTT_FRAME_CMD_SET_CORE_FILTER	0x04000000U	/* arg: level mask */
#define MTT_FRAME_CMD_GET_COMP_FILTER	0x05000000U
#define MTT_FRAME_CMD_GET_CORE_FILTER	0x06000000U
/*
 * Our extension (Documentation/mtt.rst, "Clock exchanges"): no
 * argument; the reply (MTT_FRAME_F_RETV) carries MTT_FRAME_TIME_SYNC_TI,
 * two u64: t_rx, the target's frame clock (ns) when the command's first
 * byte was received (read then or later: never earlier), and t_tx, that
 * clock just before the reply was built.  A target that predates it
 * answers NACK MTT_ERR_FN_UNIMPLEMENTED.
 */
#define MTT_FRAME_CMD_TIME_SYNC		0x07000000U
/* MTT_TRACEVECTOR_UINT64(2) of <linux/mtt_defs.h> */
#define MTT_FRAME_TIME_SYNC_TI		0x07010010U
#define MTT_FRAME_CMD_ANY_COMP		0xffffffffU
/*
 * The reply: the same command and sequence number with MTT_FRAME_F_RET,
 * from the target (its own target id, component word as received).
 * Accepted: MTT_FRAME_F_RETV and the filter before the command (a SET)
 * or the filter (a GET) as a MTT_TRACEITEM_PTR32 payload; START and
 * STOP: no payload.  Refused: MTT_FRAME_F_NACK and the mtt_return_t
 * code as a MTT_TRACEITEM_PTR32 payload (MTT_ERR_PARAM: no such
 * component or a bad argument, MTT_ERR_FN_UNIMPLEMENTED: an unknown
 * command).
 */
#define MTT_FRAME_CMD_MASK	0xffff0000U
#define MTT_FRAME_F_MASK	0x0000ffffU

#define MTT_FRAME_F_CTXT	0x0001U	/* a context id (PID) word follows */
#define MTT_FRAME_F_TS64	0x0002U	/* a 64-bit timestamp follows (ns) */
#define MTT_FRAME_F_LEVEL	0x0004U	/* a level word follows */
#define MTT_FRAME_F_HINT	0x0008U	/* a hint ends the frame */
#define MTT_FRAME_F_DICT	0x0010U	/* the trace id is a dictionary key */
#define MTT_FRAME_F_TSTV	0x0020U	/* timestamp as seconds, microseconds */
#define MTT_FRAME_F_CRC		0x0800U	/* a CRC word ends the frame */
#define MTT_FRAME_F_RETV	0x1000U	/* a reply with a value (payload) */
#define MTT_FRAME_F_RET		0x2000U	/* a reply to a command */
#define MTT_FRAME_F_ASYNC	0x4000U
#define MTT_FRAME_F_NACK	0x8000U	/* a reply: the command refused */

/* The payload's length: type_info's low 16 bits. */
#define MTT_FRAME_PAYLOAD_MASK	0x0000ffffU
/* The hint: exactly this many bytes, NUL-padded; longer hints are cut. */
#define MTT_FRAME_HINT_BYTES	12
/* The CRC word (flag CRC): the CRC-16, then two zero bytes. */
#define MTT_FRAME_CRC_BYTES	4
/* The longest frame: every optional word, the longest payload padded. */
#define MTT_FRAME_MAX_BYTES	(MTT_FRAME_PREAMBLE_BYTES + 4 + 8 + 4 + \
				 0x10000 + MTT_FRAME_HINT_BYTES + \
				 MTT_FRAME_CRC_BYTES)

/*
 * Frames inside SyS-T: the RAW message subtype (protocol id) whose
 * payload is one frame, and the GUID of MTT's messages (the uuid of a
 * p_sys-t policy node MTT writes through, and the Guid of collateral
 * client "mtt").
 */
#define MTT_FRAME_SYST_PROTOCOL	0x31
#define MTT_FRAME_SYST_GUID	"cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223"

/*
 * Whether w0, a frame's word 0, has the sync (a reader's first and
 * cheapest test: most words are not frames), and whether it has the
 * sync and this format's version too.
 */
static __inline__ int mtt_frame_sync(__u32 w0)
{
	return (w0 & MTT_FRAME_SYNC_MASK) == MTT_FRAME_SYNC;
}

static __inline__ int mtt_frame_head_ok(__u32 w0)
{
	return mtt_frame_sync(w0) &&
	       (w0 & MTT_FRAME_VERSION_MASK) >> MTT_FRAME_VERSION_SHIFT ==
	       MTT_FRAME_VERSION;
}

/* The length in bytes of the frame whose words 1 and 4 are w1, type_info. */
static __inline__ __u32 mtt_frame_len(__u32 w1, __u32 type_info)
{
	return MTT_FRAME_PREAMBLE_BYTES +
	       ((w1 & MTT_FRAME_F_CTXT) ? 4 : 0) +
	       ((w1 & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV)) ? 8 : 0) +
	       ((w1 & MTT_FRAME_F_LEVEL) ? 4 : 0) +
	       (((type_info & MTT_FRAME_PAYLOAD_MASK) + 3) & ~3U) +
	       ((w1 & MTT_FRAME_F_HINT) ? MTT_FRAME_HINT_BYTES : 0) +
	       ((w1 & MTT_FRAME_F_CRC) ? MTT_FRAME_CRC_BYTES : 0);
}

#endif /* _UAPI_LINUX_MTT_FRAME_H */
