/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/mttframe.h - native MTT frames (ST Multi-Target Trace, see
 * Documentation/mtt.rst): parsing one frame, rendering its typed value,
 * framing a raw stream of frames with resynchronisation on the sync
 * word, and naming components and dictionary keys (public API).
 *
 * A frame: five little-endian words (sync|version|target, command|flags,
 * component id, trace id, type_info), then a context word (CTXT), a
 * 64-bit timestamp (TS64, or TSTV: seconds, microseconds), a level word
 * (LEVEL), the payload (type_info & 0xffff bytes) padded to 4, a 12-byte
 * hint (HINT) and a CRC word (CRC).
 */
#ifndef MTTDECODE_MTTFRAME_H
#define MTTDECODE_MTTFRAME_H

#include <stddef.h>
#include <stdint.h>

/*
 * The frame's layout and values (MTT_FRAME_*) and the type_info encodings
 * (MTT_TYPE*): the one definition that the kernel, libmtt and this
 * library share, include/uapi/linux/mtt_frame.h and mtt_defs.h in the
 * source tree, installed beside this header.
 */
#include "mtt_defs.h"
#include "mtt_frame.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mttd_coll;

struct mttd_mtt_frame {
	uint32_t target;	/* w0 bits 7:0 (Linux: CPU) */
	uint32_t version;	/* w0 bits 15:8: major << 4 | minor */
	uint32_t cmd;		/* w1 & 0xffff0000 */
	uint32_t flags;		/* w1 & 0xffff */
	uint32_t comp;		/* component id */
	uint32_t trace_id;	/* return address or dictionary key (DICT) */
	uint32_t type_info;
	uint32_t ctx;		/* CTXT: context (thread) id */
	uint64_t ts;		/* TS64: ns; TSTV: s * 1e9 + us * 1000 */
	uint32_t level;		/* LEVEL: the MTT_LEVEL_* value */
	const uint8_t *payload;	/* type_info & 0xffff bytes */
	size_t payload_len;
	char hint[MTT_FRAME_HINT_BYTES + 1];	/* NUL-terminated; "" if none */
	size_t len;		/* bytes of the whole frame */
	int crc_ok;		/* CRC: 1 good, 0 bad; -1 without CRC */
};

/*
 * Length of the frame starting at p[0..n): > 0 when the first word is a
 * version 1.0 sync word (the frame may extend past n); 0 when it is not;
 * -1 when n < 8 (too few bytes to tell).
 */
long mttd_mtt_frame_len(const uint8_t *p, size_t n);

/* Parse the frame at p[0..n): its length, 0 when p is not a frame start,
 * -1 when the frame runs past n. */
long mttd_mtt_parse(const uint8_t *p, size_t n, struct mttd_mtt_frame *f);

/* Is p[0..n) exactly one frame (the test for STP and SyS-T payloads)? */
int mttd_mtt_is_frame(const uint8_t *p, size_t n);

/*
 * The value as text into buf (always NUL-terminated when cap > 0):
 * scalars in decimal (SHOWHEX: 0x-hex), floats with %g, BOOL as
 * true/false, vectors as "[a, b, c]", strings quoted with C escapes,
 * other byte payloads as hex bytes.  Returns the length it needed
 * (snprintf style).
 */
size_t mttd_mtt_value(const struct mttd_mtt_frame *f, char *buf, size_t cap);

/* Elements of the value (payload bytes / element size); element i as a
 * number (1) or not numeric (0). */
size_t mttd_mtt_count(const struct mttd_mtt_frame *f);
int mttd_mtt_number(const struct mttd_mtt_frame *f, size_t i, double *v);

/* "ERROR", "WARNING", "INFO", "DEBUG", "ASSERT", "CALLSTACK",
 * "API_ENTRY", "API_RETURN", "CURSORC", "CURSORD", "USER0".."USER15",
 * "NONE", or "0x%08x" for other masks (buf of 11 bytes) */
const char *mttd_mtt_level_name(uint32_t level, char buf[11]);
/* The SyS-T severity of a level (Documentation/mtt.rst): 1..7 */
unsigned int mttd_mtt_severity(uint32_t level);
/* "TRACE", "META", "RAW", "START", "STOP", "SET_COMP_FILTER",
 * "SET_CORE_FILTER", "GET_COMP_FILTER", "GET_CORE_FILTER", "TIME_SYNC",
 * or NULL (a reply has its command's name and MTT_FRAME_F_RET in flags) */
const char *mttd_mtt_cmd_name(uint32_t cmd);

/* A TIME_SYNC reply (the project's extension, Documentation/mtt.rst,
 * "Clock exchanges"): the sequence number echoed, the target's frame
 * clock (ns) at the command's receipt and just before the reply */
struct mttd_mtt_time_sync {
	uint32_t seq;
	uint64_t t_rx;
	uint64_t t_tx;
};

/* 1 and *t filled when f is an accepted TIME_SYNC reply (RET | RETV,
 * type_info MTT_FRAME_TIME_SYNC_TI), else 0.  In a raw stream the
 * reply ends at the frame callback's offset + f->len */
int mttd_mtt_time_sync(const struct mttd_mtt_frame *f,
		       struct mttd_mtt_time_sync *t);

/*
 * A raw stream of frames back to back.  fn gets every frame (valid
 * during the call); skip gets the byte ranges that were not frames
 * (damage: the reader moves one byte and looks for the sync word again).
 */
typedef void (*mttd_mtt_frame_fn)(void *ctx, const struct mttd_mtt_frame *f,
				  uint64_t offset);
typedef void (*mttd_mtt_skip_fn)(void *ctx, uint64_t offset, uint64_t bytes);

struct mttd_mtt_stream;

struct mttd_mtt_stream *mttd_mtt_stream_new(mttd_mtt_frame_fn fn,
					    mttd_mtt_skip_fn skip, void *ctx);
/* 0, or -1 when out of memory */
int mttd_mtt_stream_push(struct mttd_mtt_stream *s, const uint8_t *p,
			 size_t n);
/* Deliver what is left: a cut last frame is skipped bytes. */
void mttd_mtt_stream_finish(struct mttd_mtt_stream *s);
void mttd_mtt_stream_free(struct mttd_mtt_stream *s);

/*
 * Names: components are named by META frames (learned with
 * mttd_mtt_names_learn) and by the Modules of a collateral client named
 * "mtt"; dictionary keys (DICT frames) by its Catalog32.
 */
struct mttd_mtt_names;

struct mttd_mtt_names *mttd_mtt_names_new(const struct mttd_coll *coll);
void mttd_mtt_names_free(struct mttd_mtt_names *n);
/* Learn from f when it is a META frame; 1 if it named a component. */
int mttd_mtt_names_learn(struct mttd_mtt_names *n,
			 const struct mttd_mtt_frame *f);
/* The component's name, or NULL. */
const char *mttd_mtt_comp_name(const struct mttd_mtt_names *n, uint32_t id);
/* The value's name: the hint, or the dictionary text of a DICT key;
 * NULL if neither. */
const char *mttd_mtt_value_name(const struct mttd_mtt_names *n,
				const struct mttd_mtt_frame *f);

#ifdef __cplusplus
}
#endif

#endif
