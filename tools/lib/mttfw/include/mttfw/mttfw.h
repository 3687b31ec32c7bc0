/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttfw/mttfw.h - MTT (Multi-Target Trace) for firmware: the calls of
 * <linux/mtt.h> and libmtt on a bare core (Documentation/firmware-mtt.rst).
 *
 * Freestanding C11: no allocation, no threads, nothing of the C library
 * but memcpy and memset.  All state is in the caller's objects: an
 * instance (struct mttfw, one per core) with a table of components the
 * firmware gives it (static arrays), and outputs (struct mttfw_out: a
 * byte sink that takes one whole frame per call: a UART, a memory-mapped
 * stimulus port, the RISC-V encapsulation writer of mttfw/rvencap.h).
 * Frames are native MTT frames (<linux/mtt_frame.h>) carrying the
 * instance's target id; the host sets filters at run time with command
 * frames (mttfw_rx()), each answered with a reply frame.
 */
#ifndef MTTFW_MTTFW_H
#define MTTFW_MTTFW_H

#include <stddef.h>
#include <stdint.h>

/* the values (levels, type_info, codes) and the frame: the one definition */
#include <linux/mtt_defs.h>
#include <linux/mtt_frame.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the longest payload a trace may carry (the frame is built on the stack) */
#ifndef MTTFW_MAX_PAYLOAD
#define MTTFW_MAX_PAYLOAD	64
#endif
/* bytes of the command receiver's buffer: a command frame with a u32 */
#define MTTFW_RX_BYTES		(MTT_FRAME_PREAMBLE_BYTES + 4 + 8 + 4 + 4 + \
				 MTT_FRAME_HINT_BYTES + 4)

/*
 * An output: put() takes one whole frame, bytes in order; it must not
 * interleave with another put() to the same output (call each output
 * from one context, or make put() atomic).
 */
struct mttfw_out {
	void (*put)(void *ctx, const uint8_t *frame, size_t len);
	void *ctx;
};

struct mttfw;

/* One component: the handle's struct mtt_component comes first. */
struct mttfw_comp {
	struct mtt_component pub;	/* .active = filter & core filter */
	struct mttfw *m;
	const struct mttfw_out *out;	/* NULL: the instance's */
	const char *name;		/* NULL: a free slot */
	uint32_t id;
	uint32_t filter;
	uint32_t opens;
	uint32_t sent;
};

struct mttfw_config {
	uint32_t target;		/* word 0's target id */
	struct mttfw_out out;		/* frames of components without one,
					 * META frames and replies */
	uint64_t (*now_ns)(void *ctx);	/* NULL: frames carry no timestamp */
	void *now_ctx;
	struct mttfw_comp *comps;	/* the component table */
	unsigned int ncomps;
	/* NULL: frames without a CRC word; wire_crc16_ccitt_x4 (faster,
	 * 2 KB of tables) or wire_crc16_ccitt (512 bytes) (<wire/crc.h>,
	 * tools/lib/wire/crc.c, in mttfw.mk's sources): every frame this
	 * instance sends has flag CRC and ends with the CRC word */
	uint16_t (*crc16)(uint16_t crc, const void *p, size_t n);
};

/* mttfw_rx()'s result bits */
#define MTTFW_RX_COMMAND	0x1u	/* a command was answered */
#define MTTFW_RX_START		0x2u	/* ... and it was START */
#define MTTFW_RX_STOP		0x4u	/* ... and it was STOP */

struct mttfw {
	struct mttfw_config cfg;
	uint32_t core_filter;
	uint32_t next_id;
	struct mttfw_comp dead;		/* the handle of a failed open */
	uint32_t rx_len;
	/* now_ns() when rx[0] was taken (or after: when the bytes before
	 * it were dropped): a TIME_SYNC's t_rx, its first byte's arrival */
	uint64_t rx_t0;
	uint8_t rx[MTTFW_RX_BYTES];
};

/* Set up m (its table emptied, every filter MTT_LEVEL_ALL). */
void mttfw_init(struct mttfw *m, const struct mttfw_config *cfg);

/*
 * Open a component (the calls of <linux/mtt.h>): MTT_COMP_ID_ANY takes
 * the component of that name or a new one with the next id (1, 2...);
 * an id takes the component of that id or a new one (MTT_ERR_PARAM if
 * the name is another id's).  A new component sends a META frame naming
 * it.  name is kept (a string that lives as long as the component).
 * MTT_ERR_OTHER when the table is full.  A failed open gives a handle
 * that traces nothing, never NULL.
 */
mtt_return_t mttfw_open(struct mttfw *m, uint32_t comp_id, const char *name,
			mtt_comp_handle_t *h);
/* Its own output for a component (the STM channel, the srcID). */
void mttfw_set_out(mtt_comp_handle_t h, const struct mttfw_out *out);
mtt_return_t mttfw_close(mtt_comp_handle_t h);
mtt_return_t mttfw_set_core_filter(struct mttfw *m, uint32_t level,
				   uint32_t *prev);
mtt_return_t mttfw_get_core_filter(struct mttfw *m, uint32_t *level);
mtt_return_t mttfw_set_component_filter(mtt_comp_handle_t h, uint32_t level,
					uint32_t *prev);
mtt_return_t mttfw_get_component_filter(mtt_comp_handle_t h,
					uint32_t *level);
/* The component of an id (NULL if none is open). */
struct mttfw_comp *mttfw_find(struct mttfw *m, uint32_t id);

/* Out-of-line halves: the level passed. */
mtt_return_t mttfw_trace_out(mtt_comp_handle_t h, uint32_t level,
			     uint32_t type_info, const void *data,
			     const char *hint);
mtt_return_t mttfw_print_out(mtt_comp_handle_t h, uint32_t level,
			     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Bytes the host sent (commands, <linux/mtt_frame.h>): frames are found
 * by their sync word, commands for this target (or TARGET_CONTROL)
 * applied and answered on the instance's output.  Returns MTTFW_RX_*
 * bits of the commands answered.  Call it from one context.
 */
unsigned int mttfw_rx(struct mttfw *m, const uint8_t *p, size_t n);

/*
 * Write a frame into buf (at least mtt_frame_len(w1, type_info) bytes):
 * its length.  The words after the preamble as w1's flags say; the hint
 * is cut or NUL-padded to MTT_FRAME_HINT_BYTES.
 */
size_t mttfw_frame(uint8_t *buf, uint32_t target, uint32_t w1, uint32_t comp,
		   uint32_t trace_id, uint32_t type_info, uint64_t ts,
		   uint32_t level, const void *payload, const char *hint);

/*
 * The CRC word when m has a crc16 function: flag CRC set in buf's frame
 * (len bytes, from mttfw_frame) and the CRC-16/CCITT-FALSE of every byte
 * before the word appended (Documentation/mtt.rst); buf must have room
 * for MTT_FRAME_CRC_BYTES (<linux/mtt_frame.h>) more.  The frame's new
 * length.  For the firmware's own frames (a STOP marker); mtt_trace's,
 * META frames and replies have it already.
 */
size_t mttfw_add_crc(const struct mttfw *m, uint8_t *buf, size_t len);

/* The inline test: one load, one AND, one branch when filtered out. */
static inline mtt_return_t mtt_trace(const mtt_comp_handle_t h,
				     const mtt_trace_level_t level,
				     const uint32_t type_info,
				     const void *data, const char *hint)
{
	if (__builtin_expect(!(__atomic_load_n(&h->active, __ATOMIC_RELAXED) &
			       level), 1))
		return MTT_ERR_NONE;
	return mttfw_trace_out(h, level, type_info, data, hint);
}

/*
 * printf-like text: %d %i %u %x %X %c %s %p %%, flags 0 and -, a width,
 * l and ll; the arguments are evaluated only when the level passes.
 */
#define mtt_print(h, level, ...)					\
	((__atomic_load_n(&(h)->active, __ATOMIC_RELAXED) & (level)) ?	\
		mttfw_print_out((h), (level), __VA_ARGS__) : MTT_ERR_NONE)

/*
 * The calls without an instance argument use MTTFW_DEFAULT, an instance
 * the firmware defines (struct mttfw mttfw_default unless it says
 * otherwise): code written for <linux/mtt.h> builds unchanged.
 */
#ifndef MTTFW_DEFAULT
#define MTTFW_DEFAULT	mttfw_default
#endif
extern struct mttfw MTTFW_DEFAULT;

#define mtt_open(id, name, h)	mttfw_open(&MTTFW_DEFAULT, (id), (name), (h))
#define mtt_close(h)		mttfw_close(h)
#define mtt_set_core_filter(l, p) mttfw_set_core_filter(&MTTFW_DEFAULT, (l), (p))
#define mtt_get_core_filter(l)	mttfw_get_core_filter(&MTTFW_DEFAULT, (l))
#define mtt_set_component_filter(h, l, p) mttfw_set_component_filter((h), (l), (p))
#define mtt_get_component_filter(h, l) mttfw_get_component_filter((h), (l))

#ifdef __cplusplus
}
#endif

#endif
