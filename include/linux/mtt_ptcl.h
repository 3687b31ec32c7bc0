/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a native MTT frame in the kernel: is a write one whole frame,
 * and its level and component, for the p_mtt and p_sys-t protocols.  The
 * frame's format itself is <uapi/linux/mtt_frame.h>, shared with libmtt
 * and the decoder (Documentation/mtt.rst).
 */
#ifndef _LINUX_MTT_PTCL_H
#define _LINUX_MTT_PTCL_H

#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#include <uapi/linux/mtt_frame.h>

/* A little-endian word at any alignment.  Context: any. */
static inline u32 mtt_get_le32(const u8 *p)
{
	__le32 v;

	memcpy(&v, p, sizeof(v));
	return le32_to_cpu(v);
}

/*
 * Is @buf (@count bytes) exactly one MTT v1.0 frame?  Sync word, version
 * and the length its preamble gives.  Context: any.
 */
static inline bool mtt_frame_ok(const void *buf, size_t count)
{
	const u8 *p = buf;

	if (count < MTT_FRAME_PREAMBLE_BYTES ||
	    !mtt_frame_head_ok(mtt_get_le32(p)))
		return false;
	return mtt_frame_len(mtt_get_le32(p + 4 * MTT_FRAME_W_CMD),
			     mtt_get_le32(p + 4 * MTT_FRAME_W_TYPE_INFO)) == count;
}

/* The level word of a frame mtt_frame_ok() accepted, or 0.  Context: any. */
static inline u32 mtt_frame_level(const void *buf)
{
	const u8 *p = buf;
	u32 w1 = mtt_get_le32(p + 4 * MTT_FRAME_W_CMD);
	unsigned int off = MTT_FRAME_PREAMBLE_BYTES;

	if (!(w1 & MTT_FRAME_F_LEVEL))
		return 0;
	if (w1 & MTT_FRAME_F_CTXT)
		off += 4;
	if (w1 & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV))
		off += 8;
	return mtt_get_le32(p + off);
}

/* The component id of such a frame.  Context: any. */
static inline u32 mtt_frame_comp(const void *buf)
{
	return mtt_get_le32((const u8 *)buf + 4 * MTT_FRAME_W_COMP);
}

#endif /* _LINUX_MTT_PTCL_H */
