/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * msg_internal.h - the message layer's entry points for the STP packet
 * loop's fused path (internal).
 *
 * A decoder created with fn = mttd_msg_stp_fn hands its packets to the
 * message layer itself, without writing them out as events: runs of D64
 * packets are appended straight into the open message's buffer (see
 * mttd__msg_slot), every other packet goes through mttd__msg_packet(),
 * exactly as mttd_msg_push() would take it.  The results are the same.
 */
#ifndef MTTD_MSG_INTERNAL_H
#define MTTD_MSG_INTERNAL_H

#include <stdint.h>

#include "mttdecode/msg.h"
#include "internal/msg_chan.h"

/* One MTTD_EV_PACKET event, as mttd_msg_push() takes it. */
void mttd__msg_packet(struct mttd_msgdec *m, const struct mttd_stp_event *e);

/*
 * A data packet on key (master << 16 | channel) at nibble nib: flags
 * MTTD_PKT_TS (ts is its timestamp) and MTTD_PKT_MARKED; nbytes (1..8)
 * bytes of value, least significant first.
 */
void mttd__msg_data(struct mttd_msgdec *m, uint32_t key, uint64_t nib,
		    uint64_t ts, unsigned int flags, uint64_t value,
		    unsigned int nbytes);

/* A FLAG or FLAG_TS packet on key. */
void mttd__msg_flag(struct mttd_msgdec *m, uint32_t key);

/* the message layer (msg.c); here so that the packet loop's lookups
 * below are inline */
struct mttd_msgdec {
	struct mttd__chans ch;
	uint32_t cur_key;	/* cache of the last lookup: */
	int32_t cur;		/* slot open for cur_key, or -1 */
	unsigned int nsinks;
	struct mttd_msg_sink sink[MTTD_MSG_SINKS_MAX];
	/* a desync waiting for the resync that ends it */
	int pending;
	uint64_t pend_off;
	uint16_t pend_master;
	uint16_t pend_channel;
	uint8_t pend_err;
	uint8_t synced_once;
	uint8_t sync_lost;
	struct mttd_msg_stats st;
};

/* the slot open for key, or -1 (one lookup cached: the current channel) */
static inline int32_t mttd__msg_lookup(struct mttd_msgdec *m, uint32_t key)
{
	if (key != m->cur_key) {
		m->cur_key = key;
		m->cur = mttd__chans_find(&m->ch, key);
	}
	return m->cur;
}

/*
 * The message open on key (master << 16 | channel), or NULL.  An unmarked,
 * untimestamped data packet on key appends its bytes to it and does
 * nothing else: the caller may append to buf up to cap and then set len.
 */
static inline struct mttd__slot *mttd__msg_slot(struct mttd_msgdec *m,
						uint32_t key)
{
	int32_t i = mttd__msg_lookup(m, key);

	return i >= 0 ? &m->ch.slot[i] : NULL;
}

#endif
