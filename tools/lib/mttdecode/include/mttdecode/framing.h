/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/framing.h - framing layers in front of the STP decoder (public
 * API): Intel Trace Hub MSC multi-block captures and the Arm CoreSight
 * trace formatter (TMC ETF/ETB/ETR sinks, TPIU ports).
 *
 * Each unframer takes the capture's bytes in chunks of any size and hands
 * the STP bytes it carries to a callback, in stream order; feeding a
 * capture one byte at a time gives the same bytes as feeding it whole.
 * No input can make an unframer crash or read outside its buffers.
 *
 * Intel TH MSC, multi-block mode: the capture is a sequence of blocks,
 * each starting with a 64-byte descriptor (little-endian 32-bit words):
 *   0 sw_tag (bit 0: last block of its window, bit 1: last window),
 *   4 block_sz (the block's size in 64-byte units, descriptor included),
 *   8 next_blk, 12 next_win, 16..31 reserved,
 *  32 hw_tag (bit 0: trigger, 1: block wrap, 2: window wrap, 3: end),
 *  36 valid_dw (32-bit words written, descriptor included; 0: none),
 *  40 ts_low, 44 ts_high (the block's timestamp), 48..63 reserved.
 * Only valid_dw * 4 - 64 bytes after a descriptor are trace.  A window
 * whose first block has a wrap bit set was wrapped by the hardware: its
 * oldest data is in the block after the last one written (the first one,
 * in the capture's order, that is not full or is the window's last), so
 * that window is passed on from there, then from its first block.
 *
 * CoreSight formatter: 16-byte frames.  Bytes 0, 2, ... 14 are either an
 * ID change (bit 0 set: the new trace ID in bits 7:1) or data whose bit 0
 * is bit j of byte 15 (for byte 2j); bytes 1, 3, ... 13 are data.  For
 * an ID change at byte 2j (j < 7), bit j of byte 15 set means the data
 * byte that follows still belongs to the previous ID.  Trace ID 0 is
 * padding; 0x70..0x7f are reserved.  FSYNC (bytes ff ff ff 7f) may stand
 * where a frame would start and is skipped (Linux writes four of them as
 * a barrier in wrapped TMC buffers); HSYNC (ff 7f at an even offset of a
 * frame) is removed where MTTD_CS_HSYNC says a TPIU port inserted them.
 */
#ifndef MTTDECODE_FRAME_H
#define MTTDECODE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Receives the unframed STP bytes (n > 0). */
typedef void (*mttd_bytes_fn)(void *ctx, const uint8_t *p, size_t n);

/* ---- Intel Trace Hub MSC multi-block captures ---- */

#define MTTD_MSC_DESC 64	/* descriptor size */

struct mttd_msc_config {
	mttd_bytes_fn fn;
	void *ctx;
};

struct mttd_msc_stats {
	uint64_t bytes;		/* capture bytes fed */
	uint64_t blocks;	/* descriptors accepted */
	uint64_t windows;	/* windows ended (sw_tag bit 0) */
	uint64_t wrapped;	/* windows passed on from their oldest block */
	uint64_t data;		/* trace bytes passed on */
	uint64_t bad;		/* 64-byte units skipped: not a descriptor,
				 * or valid_dw out of its block */
	uint64_t truncated;	/* 1 if the capture ended inside a block */
	uint64_t last_ts;	/* timestamp of the last block, or 0 */
};

/* NULL if cfg or cfg->fn is NULL, or out of memory. */
struct mttd_msc *mttd_msc_new(const struct mttd_msc_config *cfg);
void mttd_msc_free(struct mttd_msc *m);
/* 0; -1 after mttd_msc_finish() or when out of memory. */
int mttd_msc_feed(struct mttd_msc *m, const void *buf, size_t len);
/* End of capture: passes on what a wrapped window still holds. 0 or -1. */
int mttd_msc_finish(struct mttd_msc *m);
const struct mttd_msc_stats *mttd_msc_stats(const struct mttd_msc *m);
/* 1 if buf starts with what can only be an MSC block descriptor (len at
 * least 64; the next one is checked too when len reaches it), else 0. */
int mttd_msc_probe(const void *buf, size_t len);

/* ---- CoreSight trace formatter ---- */

/* flags: frames found by FSYNC (a TPIU port capture; bytes before the
 * first FSYNC are skipped) instead of aligned on 16 bytes; HSYNC
 * halfwords removed too (implies MTTD_CS_FSYNC) */
#define MTTD_CS_FSYNC 1u
#define MTTD_CS_HSYNC 2u

#define MTTD_CS_MAX_ID 0x6f	/* highest trace ID a source can have */

struct mttd_cs_config {
	mttd_bytes_fn fn;
	void *ctx;
	unsigned int trace_id;	/* 1..0x6f; 0: the first ID whose data
				 * holds an STP ASYNC (passed on from there) */
	unsigned int flags;	/* MTTD_CS_* */
};

struct mttd_cs_stats {
	uint64_t bytes;		/* capture bytes fed */
	uint64_t frames;	/* frames unpacked */
	uint64_t fsyncs;	/* FSYNCs skipped */
	uint64_t hsyncs;	/* HSYNCs removed */
	uint64_t unsynced;	/* bytes skipped looking for an FSYNC */
	uint64_t id_changes;
	uint64_t data;		/* bytes of trace_id passed on */
	uint64_t other;		/* data bytes of other or unknown IDs */
	uint64_t reserved;	/* ID changes to a reserved ID (0x70..0x7f) */
	uint64_t truncated;	/* bytes of a frame cut by the end */
	unsigned int trace_id;	/* the ID passed on; 0 while none chosen */
	uint64_t ids[2];	/* bit n: ID n (0..127) was seen */
};

/* NULL if cfg or cfg->fn is NULL, trace_id or flags are out of range,
 * or out of memory. */
struct mttd_cs *mttd_cs_new(const struct mttd_cs_config *cfg);
void mttd_cs_free(struct mttd_cs *c);
/* 0, or -1 after mttd_cs_finish(). */
int mttd_cs_feed(struct mttd_cs *c, const void *buf, size_t len);
/* End of capture (counts a partial frame as truncated). 0 or -1. */
int mttd_cs_finish(struct mttd_cs *c);
const struct mttd_cs_stats *mttd_cs_stats(const struct mttd_cs *c);
/* 1 if buf reads as 16-byte aligned formatter frames (FSYNCs allowed)
 * with no reserved ID and an STP ASYNC in the data of an ID, which goes
 * to *trace_id (if not NULL); else 0. */
int mttd_cs_probe(const void *buf, size_t len, unsigned int *trace_id);

#ifdef __cplusplus
}
#endif

#endif
