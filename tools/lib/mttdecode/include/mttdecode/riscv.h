/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/riscv.h - streaming decoder of RISC-V "Unformatted Trace &
 * Diagnostic Data Packet Encapsulation" streams (public API): packets of
 * any source, and the STP packets the software STM device (swstm, format
 * "riscv") sends through it.
 *
 * Packet boundaries are found from any starting point through the
 * synchronisation rule (after N + 1 null bytes, N = 31 + T + S, the first
 * non-null byte starts a packet), then every normal packet is delimited
 * by its header alone: 1 + S + T * extend + length bytes, whatever it
 * carries.  Only a header the specification rules out (extend with no
 * timestamp field; in an unframed stream, a normal packet after a
 * null.idle, or a null with a non-zero flow) loses synchronisation.
 *
 * A packet whose srcID is one of those that carry swstm's layout (all of
 * them unless the configuration names some) and whose payload is laid
 * out as swstm writes it is handed on as the STP packet it stands for,
 * as the same struct mttd_stp_event records as the STPv2 decoder (stp.h),
 * so the message layer (msg.h) and the SyS-T decoder run on top
 * unchanged.  Every other packet is handed, as what it is (flow, srcID,
 * timestamp, payload bits), to a packet callback, in stream order with
 * the events.  Packets of srcIDs that carry MTT frames become streams
 * of frames through mttd_rv_mtt_new().
 *
 * swstm's payload, after the header byte (length 4:0, flow 6:5, extend
 * 7), least significant bit first: srcID (srcid_bits), timestamp (8 *
 * ts_bytes bits if extend), a type byte (kind 2:0: DATA, FLAG, TRIG,
 * MERR, GERR; bit 3 marked; bit 4 timestamped; 7:5 X), X more bytes of
 * src = master << 16 | channel above the srcID bits, and the value (DATA
 * 1, 2, 4 or 8 bytes, FLAG none, others 1).  Memory use is constant;
 * feeding a stream in any chunks gives the same events.
 */
#ifndef MTTDECODE_RISCV_H
#define MTTDECODE_RISCV_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/stp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MTTD_RV_MAX_SRCID_BITS	16
#define MTTD_RV_MAX_TS_BYTES	8

/* mttd_rv_config.flags */
#define MTTD_RV_NULLS	0x01u	/* deliver null packets as NULL events */
#define MTTD_RV_UNFRAMED 0x02u	/* an unframed stream (PIB, memory): the
				 * null.alignment rule applies */

struct mttd_rv_packet;

/*
 * A packet that is not handed on as STP; offset: of its header byte.
 * The events before it have been delivered; pkt is valid during the call.
 */
typedef void (*mttd_rv_pkt_fn)(void *ctx, const struct mttd_rv_packet *pkt,
			       uint64_t offset);

struct mttd_rv_config {
	mttd_stp_fn fn;
	void *ctx;
	unsigned int flags;
	unsigned int srcid_bits;	/* 0..16 */
	unsigned int ts_bytes;		/* 0..8 */
	mttd_rv_pkt_fn pkt_fn;		/* NULL: such packets only counted */
	/*
	 * The srcIDs that carry swstm's layout: bit s % 8 of stp_srcids[s / 8]
	 * for srcID s, 2^srcid_bits bits (copied); NULL: every srcID.
	 */
	const uint8_t *stp_srcids;
};

/* What the STP counters (mttd_rv_stats()) do not hold. */
struct mttd_rv_counts {
	uint64_t encap;		/* packets handed to pkt_fn */
	uint64_t not_stp;	/* of them, with an STP srcID but a payload
				 * not in swstm's layout */
	uint64_t alignment;	/* unframed: losses by the null.alignment rule */
};

/*
 * One encapsulated packet, any payload (not only swstm's): the header's
 * fields, srcID, timestamp (valid if extend and ts_bytes > 0) and the
 * payload bits realigned to bit 0 of payload[0] (the srcID bits beyond
 * whole bytes taken out): payload_bits = 8 * length - srcid_bits % 8,
 * any padding in the top bits of the last byte.  A null packet has
 * length 0, size 1 (extend 0: null.idle, 1: null.alignment).
 */
struct mttd_rv_packet {
	size_t size;			/* bytes of the whole packet */
	unsigned int length;		/* header.length */
	unsigned int flow;
	unsigned int extend;
	uint32_t srcid;
	uint64_t ts;
	unsigned int payload_bits;
	uint8_t payload[31];
};

/*
 * Parse the packet starting at buf[0]: its size in bytes (>= 1), 0 if
 * len does not hold all of it, -1 on bad widths or extend set with
 * ts_bytes 0.
 */
long mttd_rv_packet_parse(const void *buf, size_t len,
			  unsigned int srcid_bits, unsigned int ts_bytes,
			  struct mttd_rv_packet *pkt);

struct mttd_rv;

/* NULL on bad config or out of memory. */
struct mttd_rv *mttd_rv_new(const struct mttd_rv_config *cfg);
void mttd_rv_free(struct mttd_rv *d);

/* 0, or -1 if called after mttd_rv_finish(). */
int mttd_rv_feed(struct mttd_rv *d, const void *buf, size_t len);

/* End of stream: reports a packet cut short, then MTTD_EV_END. 0 or -1. */
int mttd_rv_finish(struct mttd_rv *d);

/*
 * Counters, as the STP decoder's: packets counts those handed on as STP,
 * syncs synchronisation sequences, nulls null packets, unsynced_nibbles
 * twice the bytes skipped.
 */
const struct mttd_stp_stats *mttd_rv_stats(const struct mttd_rv *d);

/* The other packets' counters. */
const struct mttd_rv_counts *mttd_rv_counts(const struct mttd_rv *d);

/*
 * The srcIDs that carry native MTT frames (mttframe.h): each such
 * srcID's payload bytes, end to end, are a raw stream of frames of its
 * own (a frame may be cut across any number of packets, and other
 * srcIDs' packets may come between them).  Hand it the packets that
 * mttd_rv_new()'s pkt_fn gets; it keeps a stream of frames per srcID
 * (mttd_mtt_stream_new()) and delivers each frame, and each run of bytes
 * that were not frames, with its srcID and its offset in that srcID's
 * bytes.  A packet's whole payload bytes are taken, the bits beyond
 * them (the padding of a srcID whose width is not a multiple of 8)
 * dropped.  Memory: 32 bytes per srcID of the map, and per srcID that
 * has sent bytes at most 128 KiB (a frame not yet whole, at most
 * MTT_FRAME_MAX_BYTES, and a packet).  Callbacks run inside
 * mttd_rv_mtt_push() and mttd_rv_mtt_finish() and must not call them.
 */
struct mttd_mtt_frame;

typedef void (*mttd_rv_mtt_frame_fn)(void *ctx, uint32_t srcid,
				     const struct mttd_mtt_frame *f,
				     uint64_t offset);
typedef void (*mttd_rv_mtt_skip_fn)(void *ctx, uint32_t srcid,
				    uint64_t offset, uint64_t bytes);

struct mttd_rv_mtt;

/*
 * srcid_map: bit s % 8 of srcid_map[s / 8] for srcID s, 2^srcid_bits
 * bits (read during the call only); NULL: every srcID.  fn, skip may be
 * NULL.  NULL on a width above 16 (errno EINVAL) or out of memory.
 */
struct mttd_rv_mtt *mttd_rv_mtt_new(const uint8_t *srcid_map,
				    unsigned int srcid_bits,
				    mttd_rv_mtt_frame_fn fn,
				    mttd_rv_mtt_skip_fn skip, void *ctx);
/*
 * 1 when pkt is a packet of one of its srcIDs (taken), 0 when it is not
 * (a null packet neither); -ENOMEM when memory ran short (the packet's
 * bytes are reported as skipped, with what that srcID held), -EINVAL
 * after mttd_rv_mtt_finish().
 */
int mttd_rv_mtt_push(struct mttd_rv_mtt *d, const struct mttd_rv_packet *pkt);
/* End of the streams, srcID by srcID: cut frames are skipped bytes.
 * 0, or -EINVAL when called again. */
int mttd_rv_mtt_finish(struct mttd_rv_mtt *d);
void mttd_rv_mtt_free(struct mttd_rv_mtt *d);

#ifdef __cplusplus
}
#endif

#endif
