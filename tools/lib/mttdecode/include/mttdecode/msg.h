/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/msg.h - STP message reassembly on top of the packet decoder
 * (public API), and the extension point for higher layers.
 *
 * Messages are reassembled per (master, channel):
 *  - a message starts at a timestamped data packet (DnTS, DnMTS), or at
 *    any data packet when none is open on that channel; its timestamp is
 *    that of its first packet (if the packet carried one);
 *  - each data packet appends its payload bytes: the packet value is the
 *    little-endian integer the writer stored, so value 0x21542d53 from a
 *    D32 appends 53 2d 54 21 (D4 appends one byte, its 4-bit value);
 *  - a marked data packet (DnM, DnMTS) or a FLAG/FLAG_TS ends it
 *    (complete); a new timestamped data packet on a channel with an open
 *    message ends the old one as incomplete;
 *  - loss points end open messages as incomplete and are reported:
 *    GERR (all channels; the payload is the lost packet count, 0xff
 *    meaning 255 or more), MERR (that master's channels), desync (all;
 *    reported once the decoder is back in sync, with the bytes skipped),
 *    a stream that ends inside a packet (all);
 *  - at the end of the stream open messages are delivered as incomplete.
 * Memory is bounded: a message keeps at most max_len bytes (the rest is
 * dropped and the message flagged MTTD_MSG_TRUNCATED), and at most
 * max_open messages are open at once (opening one more delivers the
 * oldest open one as incomplete, MTTD_MSG_EVICTED).
 *
 * Extension point: higher decoders (SyS-T, MTT frames, ...) register a
 * struct mttd_msg_sink and receive every message and stream event in
 * order; several sinks may be registered and are called in that order.
 */
#ifndef MTTDECODE_MSG_H
#define MTTDECODE_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/stp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mttd_msg.flags */
#define MTTD_MSG_COMPLETE	0x01u	/* ended by a marker or FLAG */
#define MTTD_MSG_HAS_TS		0x02u	/* ts is valid */
#define MTTD_MSG_TRUNCATED	0x04u	/* longer than max_len: data cut */
#define MTTD_MSG_EVICTED	0x08u	/* too many open messages */

/* How a message ended. */
enum mttd_msg_end {
	MTTD_END_MARKED,	/* DnM / DnMTS */
	MTTD_END_FLAG,		/* FLAG / FLAG_TS */
	MTTD_END_NEW_TS,	/* a new DnTS/DnMTS on the same channel */
	MTTD_END_LOSS,		/* GERR, MERR, desync, truncated stream */
	MTTD_END_EVICTED,	/* max_open reached */
	MTTD_END_FINISH		/* end of stream */
};

struct mttd_msg {
	uint64_t offset;	/* byte offset of the first packet */
	uint64_t ts;		/* timestamp of the first packet */
	const uint8_t *data;	/* valid during the callback only */
	size_t len;
	uint16_t master;
	uint16_t channel;
	uint32_t flags;		/* MTTD_MSG_* */
	unsigned int end;	/* enum mttd_msg_end */
};

/* Stream events that are not messages. */
enum mttd_msg_event_kind {
	MTTD_ME_LOSS,		/* reason, master, channel, count */
	MTTD_ME_SYNC,		/* an ASYNC; count = bytes skipped before it */
	MTTD_ME_VERSION,	/* value = version */
	MTTD_ME_FREQ		/* value = timestamp frequency in Hz */
};

enum mttd_loss {
	MTTD_LOSS_GERR,		/* count = GERR payload (lost packets) */
	MTTD_LOSS_MERR,		/* count = MERR payload */
	MTTD_LOSS_DESYNC,	/* count = bytes skipped until resync */
	MTTD_LOSS_TRUNCATED	/* count = bytes of the incomplete packet */
};

struct mttd_msg_event {
	uint64_t offset;	/* byte offset */
	uint64_t value;		/* count / version / Hz */
	uint16_t master;
	uint16_t channel;
	uint8_t kind;		/* enum mttd_msg_event_kind */
	uint8_t reason;		/* enum mttd_loss (MTTD_ME_LOSS) */
	uint8_t err;		/* enum mttd_err for a desync loss */
	uint8_t first;		/* MTTD_ME_SYNC: first sync, or first after a
				 * loss of sync */
};

/* A consumer of messages; either callback may be NULL. */
struct mttd_msg_sink {
	void (*msg)(void *ctx, const struct mttd_msg *m);
	void (*event)(void *ctx, const struct mttd_msg_event *e);
	void *ctx;
};

#define MTTD_MSG_SINKS_MAX	8
#define MTTD_MSG_MAX_LEN	65536u	/* default max_len */
#define MTTD_MSG_MAX_OPEN	1024u	/* default max_open */

struct mttd_msg_config {
	size_t max_len;		/* 0: MTTD_MSG_MAX_LEN; at most 16 MiB */
	unsigned int max_open;	/* 0: MTTD_MSG_MAX_OPEN; at most 65536 */
};

struct mttd_msg_stats {
	uint64_t messages;	/* delivered */
	uint64_t incomplete;	/* delivered without MTTD_MSG_COMPLETE */
	uint64_t truncated;	/* MTTD_MSG_TRUNCATED */
	uint64_t evicted;
	uint64_t losses[4];	/* per enum mttd_loss */
	uint64_t stray_flags;	/* FLAG with no open message */
};

struct mttd_msgdec;

struct mttd_msgdec *mttd_msg_new(const struct mttd_msg_config *cfg);
void mttd_msg_free(struct mttd_msgdec *m);

/* 0, or -1 when MTTD_MSG_SINKS_MAX sinks are registered already. */
int mttd_msg_add_sink(struct mttd_msgdec *m, const struct mttd_msg_sink *s);

/* Process decoder events (in order; any batching). */
void mttd_msg_push(struct mttd_msgdec *m, const struct mttd_stp_event *ev,
		   size_t n);

/* An mttd_stp_fn that pushes into the mttd_msgdec given as ctx. */
void mttd_msg_stp_fn(void *ctx, const struct mttd_stp_event *ev, size_t n);

const struct mttd_msg_stats *mttd_msg_stats(const struct mttd_msgdec *m);

const char *mttd_loss_name(unsigned int reason);	/* "gerr" ... */

#ifdef __cplusplus
}
#endif

#endif
