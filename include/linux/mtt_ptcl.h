/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native MTT frame (Documentation/mtt.rst): a preamble of five
 * little-endian 32-bit words, optional context, timestamp and level
 * words, the payload padded to 32 bits, then an optional hint.  Shared by
 * the mtt source (drivers/mtt) and the p_mtt protocol.
 */
#ifndef _LINUX_MTT_PTCL_H
#define _LINUX_MTT_PTCL_H

#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/* word 0: sync | major << 12 | minor << 8 | target */
#define MTT_SYNC		0xeee00000U
#define MTT_SYNC_MASK		0xfff00000U
#define MTT_VER_MAJOR		1
#define MTT_VER_MINOR		0
#define MTT_WORD0(target)	(MTT_SYNC | (MTT_VER_MAJOR << 12) | \
				 (MTT_VER_MINOR << 8) | ((target) & 0xff))
#define MTT_TARGET_LINUX_MAX	0x3f	/* CPU n is target n */
#define MTT_TARGET_CONTROL	0xff

/* word 1: command (bits 31:16) | parameter flags (bits 15:0) */
#define MTT_CMD_TRACE		0x00000000U
#define MTT_CMD_META		0x40000000U
#define MTT_CMD_RAW		0x80000000U
#define MTT_CMD_START		0x01000000U
#define MTT_CMD_STOP		0x02000000U
#define MTT_CMD_MASK		0xffff0000U

#define MTT_PARAM_CTXT		0x0001	/* a context id (PID) word follows */
#define MTT_PARAM_TS64		0x0002	/* a 64-bit timestamp follows (ns) */
#define MTT_PARAM_LEVEL		0x0004	/* a level word follows */
#define MTT_PARAM_HINT		0x0008	/* a hint string ends the frame */
#define MTT_PARAM_DICT		0x0010	/* trace id is a dictionary key */
#define MTT_PARAM_TSTV		0x0020	/* timestamp as tv_sec, tv_usec */
#define MTT_PARAM_CRC		0x0800
#define MTT_PARAM_RETV		0x1000
#define MTT_PARAM_RET		0x2000
#define MTT_PARAM_ASYNC		0x4000
#define MTT_PARAM_NACK		0x8000

/* word 2: component id; word 3: trace id; word 4: type_info */
#define MTT_PREAMBLE_WORDS	5
#define MTT_PREAMBLE_BYTES	(MTT_PREAMBLE_WORDS * 4)

/*
 * The SyS-T GUID of MTT's messages: the uuid to give a p_sys-t policy
 * node MTT writes through, and the Guid of collateral client "mtt"
 * (Documentation/mtt.rst), so that the client describes MTT's messages
 * and no other source's.
 */
#define MTT_SYST_GUID		"cd6b9ebf-0b3a-4b7d-ac9a-4fe18a923223"

/* The hint: exactly 12 bytes, NUL-padded; longer hints are cut. */
#define MTT_HINT_BYTES		12

/* Frame length from its preamble (words 1 and 4), in bytes. */
static inline unsigned int mtt_frame_len(u32 w1, u32 type_info)
{
	return MTT_PREAMBLE_BYTES + ((w1 & MTT_PARAM_CTXT) ? 4 : 0) +
	       ((w1 & (MTT_PARAM_TS64 | MTT_PARAM_TSTV)) ? 8 : 0) +
	       ((w1 & MTT_PARAM_LEVEL) ? 4 : 0) +
	       (((type_info & 0xffff) + 3) & ~3U) +
	       ((w1 & MTT_PARAM_HINT) ? MTT_HINT_BYTES : 0) +
	       ((w1 & MTT_PARAM_CRC) ? 4 : 0);
}

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
	u32 w0;

	if (count < MTT_PREAMBLE_BYTES)
		return false;
	w0 = mtt_get_le32(p);
	if ((w0 & MTT_SYNC_MASK) != MTT_SYNC ||
	    ((w0 >> 8) & 0xff) != (MTT_VER_MAJOR << 4 | MTT_VER_MINOR))
		return false;
	return mtt_frame_len(mtt_get_le32(p + 4),
			     mtt_get_le32(p + 16)) == count;
}

/* The level word of a frame mtt_frame_ok() accepted, or 0.  Context: any. */
static inline u32 mtt_frame_level(const void *buf)
{
	const u8 *p = buf;
	u32 w1 = mtt_get_le32(p + 4);
	unsigned int off = MTT_PREAMBLE_BYTES;

	if (!(w1 & MTT_PARAM_LEVEL))
		return 0;
	if (w1 & MTT_PARAM_CTXT)
		off += 4;
	if (w1 & (MTT_PARAM_TS64 | MTT_PARAM_TSTV))
		off += 8;
	return mtt_get_le32(p + off);
}

/* The component id of such a frame.  Context: any. */
static inline u32 mtt_frame_comp(const void *buf)
{
	return mtt_get_le32((const u8 *)buf + 8);
}

#endif /* _LINUX_MTT_PTCL_H */
