/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * frame.h - the native MTT frame libmtt writes (Documentation/mtt.rst,
 * "The native frame"): the encoder.
 */
#ifndef MTTL_FRAME_H
#define MTTL_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* the frame's layout and values: include/uapi/linux/mtt_frame.h, the one
 * definition the kernel, libmtt and the decoder share */
#include <linux/mtt_defs.h>
#include <linux/mtt_frame.h>

/* the type_info of a string and of a byte blob (<linux/mtt_defs.h>) */
#define MTTL_TI_STRING		(MTT_TYPE_UINT8 | MTT_TYPEP_STRING)
#define MTTL_TI_BLOB		(MTT_TYPE_UINT8 | MTT_TYPEP_VECTOR)

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
	const char	*hint;		/* with MTT_FRAME_F_HINT */
};

/* Bytes the frame of r takes. */
size_t mttl_frame_len(const struct mttl_rec *r);

/* Write r's frame into buf (mttl_frame_len() bytes); returns its length. */
size_t mttl_frame_put(uint8_t *buf, const struct mttl_rec *r);

/* FNV-1a 32-bit of a component name: libmtt's component id is
 * MTT_COMP_ID_USER | (hash & 0x3fffffff). */
uint32_t mttl_name_id(const char *name);

#endif
