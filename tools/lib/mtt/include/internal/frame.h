/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * frame.h - the native MTT frame libmtt writes (Documentation/mtt.rst,
 * "The native frame"): constants and the encoder.
 */
#ifndef MTTL_FRAME_H
#define MTTL_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define MTTL_SYNC		0xeee00000u
#define MTTL_VERSION		0x1000u		/* major 1 << 12 | minor 0 << 8 */
#define MTTL_TARGET_MAX		0x3fu

#define MTTL_CMD_TRACE		0x00000000u
#define MTTL_CMD_META		0x40000000u
#define MTTL_CMD_RAW		0x80000000u

#define MTTL_F_CTXT		0x0001u
#define MTTL_F_TS64		0x0002u
#define MTTL_F_LEVEL		0x0004u
#define MTTL_F_HINT		0x0008u

#define MTTL_HINT_LEN		12
#define MTTL_PREAMBLE		20
/* the longest frame: preamble, ctx, ts, level, payload, hint */
#define MTTL_FRAME_MAX		(MTTL_PREAMBLE + 16 + 0x10000 + MTTL_HINT_LEN)

#define MTTL_TI_STRING		0x01020000u	/* UINT8 | STRING */
#define MTTL_TI_BLOB		0x01010000u	/* UINT8 | VECTOR */

/* One frame's fields; flags say which optional ones are present. */
struct mttl_rec {
	uint32_t	target;
	uint32_t	cmd;
	uint32_t	flags;
	uint32_t	comp;
	uint32_t	trace_id;
	uint32_t	type_info;
	uint32_t	ctx;
	uint64_t	ts;
	uint32_t	level;
	const void	*payload;	/* type_info & 0xffff bytes */
	const char	*hint;		/* with MTTL_F_HINT */
};

/* Bytes the frame of r takes. */
size_t mttl_frame_len(const struct mttl_rec *r);

/* Write r's frame into buf (mttl_frame_len() bytes); returns its length. */
size_t mttl_frame_put(uint8_t *buf, const struct mttl_rec *r);

/* FNV-1a 32-bit of a component name: libmtt's component id is
 * MTT_COMP_ID_USER | (hash & 0x3fffffff). */
uint32_t mttl_name_id(const char *name);

#endif
