/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/stp.h - streaming MIPI STPv2 packet decoder (public API).
 *
 * Feed raw STPv2 bytes in chunks of any size; decoded packets and stream
 * events are handed to a callback in batches, in stream order.  Feeding a
 * stream one byte at a time gives exactly the same events as feeding it
 * whole.  Memory use is constant; no input can make the decoder crash,
 * hang or read outside the buffers it is given.
 *
 * Wire format (MIPI STPv2): nibbles, bits [3:0] of a byte first; opcodes,
 * payloads and timestamps most significant nibble first.  Nothing is
 * decoded before the first ASYNC (>= 21 F nibbles then a 0 nibble); after
 * a protocol error the decoder reports a DESYNC event and hunts for the
 * next ASYNC.
 */
#ifndef MTTDECODE_STP_H
#define MTTDECODE_STP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every STPv2 opcode; mttd_op_name() gives the names used in output. */
enum mttd_op {
	MTTD_OP_NULL, MTTD_OP_M8, MTTD_OP_MERR, MTTD_OP_C8,
	MTTD_OP_D8, MTTD_OP_D16, MTTD_OP_D32, MTTD_OP_D64,
	MTTD_OP_D8MTS, MTTD_OP_D16MTS, MTTD_OP_D32MTS, MTTD_OP_D64MTS,
	MTTD_OP_D4, MTTD_OP_D4MTS, MTTD_OP_FLAG_TS,
	MTTD_OP_M16, MTTD_OP_GERR, MTTD_OP_C16,
	MTTD_OP_D8TS, MTTD_OP_D16TS, MTTD_OP_D32TS, MTTD_OP_D64TS,
	MTTD_OP_D8M, MTTD_OP_D16M, MTTD_OP_D32M, MTTD_OP_D64M,
	MTTD_OP_D4TS, MTTD_OP_D4M, MTTD_OP_FLAG, MTTD_OP_ASYNC,
	MTTD_OP_VERSION, MTTD_OP_NULL_TS, MTTD_OP_USER, MTTD_OP_USER_TS,
	MTTD_OP_TIME, MTTD_OP_TIME_TS, MTTD_OP_TRIG, MTTD_OP_TRIG_TS,
	MTTD_OP_FREQ, MTTD_OP_FREQ_TS, MTTD_OP_XSYNC, MTTD_OP_XSYNC_TS,
	MTTD_OP_FREQ_40, MTTD_OP_FREQ_40_TS, MTTD_OP_DIP,
	MTTD_OP_COUNT
};

/* What an event is. */
enum mttd_ev_type {
	MTTD_EV_PACKET,		/* a decoded packet: op, value, ts ... */
	MTTD_EV_DESYNC,		/* protocol error: op = enum mttd_err; hunting */
	MTTD_EV_TRUNCATED,	/* stream ended inside a packet; value = nibbles */
	MTTD_EV_END		/* mttd_stp_finish(); value = bytes skipped
				 * while hunting at the end (0 if in sync) */
};

/* Why the decoder lost synchronisation (MTTD_EV_DESYNC). */
enum mttd_err {
	MTTD_ERR_NONE,
	MTTD_ERR_RESERVED_OP,	/* reserved opcode (F0C..F0E, F0F3..F0FF) */
	MTTD_ERR_TS_LEN,	/* timestamp length nibble 0xF */
	MTTD_ERR_ASYNC,		/* F run too short or not ended by a 0 */
	MTTD_ERR_ASYNC_OVERLAP,	/* the previous packet ran into an ASYNC */
	MTTD_ERR_VERSION,	/* VERSION other than 2, 3 or 4 */
	MTTD_ERR_ENCAP,		/* RISC-V encapsulation: bad packet (riscv.h) */
	MTTD_ERR_COUNT
};

/* mttd_stp_event.flags */
#define MTTD_PKT_DATA	0x01u	/* Dn* packet: value is data */
#define MTTD_PKT_MARKED	0x02u	/* DnM, DnMTS (FLAG is not "marked") */
#define MTTD_PKT_TS	0x04u	/* timestamped: ts holds the decoded value */
#define MTTD_PKT_FLOW	0x08u	/* aux holds the RISC-V encapsulation flow
				 * (packets of mttd_rv, riscv.h) */

/*
 * One event.  For packets:
 *  - nib: absolute nibble index of the packet's first nibble (byte offset
 *    is nib >> 1);
 *  - value: the payload as an integer, nibbles most significant first:
 *    data, master (M8/M16), channel (C8/C16: the new full channel),
 *    error code (MERR/GERR), version, trigger/xsync id, frequency in Hz,
 *    USER data; TIME: the time value (aux = clock id << 4 | format);
 *    ASYNC: bytes skipped while hunting just before it;
 *  - nibbles: number of payload nibbles in value (D4 1, D8 2, ... D64 16);
 *  - master/channel: the channel the packet belongs to.  For M8/M16/C8/
 *    C16 the new values; for MERR/GERR the values in force before they
 *    reset them; VERSION and ASYNC after a resync report 0/0;
 *  - ts: decoded timestamp (valid when flags & MTTD_PKT_TS), tsn the number
 *    of timestamp nibbles that were on the wire;
 *  - aux: TIME's clock id << 4 | format; with MTTD_PKT_FLOW the flow
 *    field (0..3) of the RISC-V encapsulated packet that carried it.
 */
struct mttd_stp_event {
	uint64_t nib;
	uint64_t value;
	uint64_t ts;
	uint16_t master;
	uint16_t channel;
	uint8_t type;		/* enum mttd_ev_type */
	uint8_t op;		/* enum mttd_op, or enum mttd_err for DESYNC */
	uint8_t nibbles;
	uint8_t flags;
	uint8_t tsn;
	uint8_t aux;
};

/* Called with n >= 1 events; must not call back into the same decoder. */
typedef void (*mttd_stp_fn)(void *ctx, const struct mttd_stp_event *ev,
			    size_t n);

/* mttd_stp_config.flags */
#define MTTD_STP_NULLS	0x01u	/* deliver NULL packets too (else counted) */

struct mttd_stp_config {
	mttd_stp_fn fn;
	void *ctx;
	unsigned int flags;
	unsigned int version;	/* timestamp format before any VERSION
				 * packet: 2, 3 or 4; 0 means 3 */
};

struct mttd_stp_stats {
	uint64_t bytes;		/* bytes fed */
	uint64_t packets;	/* packets decoded, NULLs excluded */
	uint64_t nulls;		/* NULL packets */
	uint64_t syncs;		/* ASYNC packets */
	uint64_t desyncs;	/* DESYNC events */
	uint64_t unsynced_nibbles; /* nibbles skipped while hunting */
	uint64_t truncated;	/* 1 if the stream ended inside a packet */
};

struct mttd_stp;

/* NULL on bad config or out of memory. */
struct mttd_stp *mttd_stp_new(const struct mttd_stp_config *cfg);
void mttd_stp_free(struct mttd_stp *d);

/* 0, or -1 if called after mttd_stp_finish(). */
int mttd_stp_feed(struct mttd_stp *d, const void *buf, size_t len);

/* End of stream: reports a packet cut short, then MTTD_EV_END. 0 or -1. */
int mttd_stp_finish(struct mttd_stp *d);

/* Counters; up to date whenever feed() or finish() has returned. */
const struct mttd_stp_stats *mttd_stp_stats(const struct mttd_stp *d);

const char *mttd_op_name(unsigned int op);	/* "D32TS"; "?" if unknown */
const char *mttd_err_name(unsigned int err);	/* "reserved opcode" ... */

#ifdef __cplusplus
}
#endif

#endif
