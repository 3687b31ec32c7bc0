/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stp_internal.h - the STPv2 decoder's state and the calls between its
 * source files (internal).
 *
 * Decoding runs over a "region": the caller's buffer, or the small carry
 * buffer that holds a packet cut by the end of one feed() together with
 * the first bytes of the next.  In the caller's buffer the fast path
 * decodes packets that start at least MTTD_MARGIN bytes before its end
 * without bounds checks; everything else goes through the carry, which is
 * zero padded so the same code can read past its valid data and then
 * check that the packet fitted ("checked" mode).
 */
#ifndef MTTD_STP_INTERNAL_H
#define MTTD_STP_INTERNAL_H

#include <stdint.h>

#include "mttdecode/stp.h"

#define MTTD_BATCH	256	/* events delivered per callback */
#define MTTD_MARGIN	24	/* bytes a packet decode may read after the
				 * packet's first byte (longest packet, TIME_TS,
				 * is 39 nibbles; windows read 9 bytes) */
#define MTTD_CARRY_CAP	64	/* > MTTD_MARGIN + the longest packet */
#define MTTD_CARRY_PAD	32	/* zeros after the carry's valid bytes */
#define MTTD_ASYNC_F	21	/* F nibbles an ASYNC needs */
#define MTTD_FRUN_MAX	(1u << 30)

enum { ST_HUNT, ST_SYNCED, ST_FRUN };

struct mttd_msgdec;

struct mttd_stp {
	mttd_stp_fn fn;
	void *ctx;
	/* fn is mttd_msg_stp_fn: the message layer ctx, fed directly by the
	 * packet loop (msg_internal.h), and every other event handed on as
	 * soon as it is made; NULL otherwise */
	struct mttd_msgdec *msg;
	unsigned int flags;

	/* protocol state */
	uint64_t ts;
	uint64_t last_v;	/* last field of the last packet and ... */
	uint8_t last_n;		/* ... its nibble count: its trailing F nibbles
				 * may be the start of an ASYNC */
	uint8_t version;
	uint8_t state;
	uint8_t finished;
	uint16_t master;
	uint16_t channel;

	/* F-run scanning (ST_HUNT, ST_FRUN) */
	uint32_t frun;		/* consecutive F nibbles so far */
	uint32_t frun_t;	/* ST_FRUN: F nibbles ending the packet before */
	uint64_t frun_start;	/* absolute nibble of the run's first F */
	uint64_t hunt_start;	/* absolute nibble where hunting began */

	/* the carry: bytes kept between feeds */
	uint64_t cbyte;		/* absolute byte index of carry[0] */
	uint32_t clen;		/* valid bytes */
	uint32_t cnp;		/* next nibble to decode */
	uint8_t carry[MTTD_CARRY_CAP + MTTD_CARRY_PAD];

	/* events not delivered yet */
	uint32_t nev;
	struct mttd_stp_stats st;
	struct mttd_stp_event ev[MTTD_BATCH];
};

/* deliver pending events */
void mttd__flush(struct mttd_stp *d);

static inline struct mttd_stp_event *mttd__slot(struct mttd_stp *d)
{
	return &d->ev[d->nev];
}

static inline void mttd__commit(struct mttd_stp *d)
{
	if (++d->nev == MTTD_BATCH || d->msg)
		mttd__flush(d);
}

/* A non-packet event (DESYNC, TRUNCATED, END). */
void mttd__event(struct mttd_stp *d, unsigned int type, unsigned int code,
		 uint64_t nib, uint64_t value);

/*
 * Decode region p (nibble 0 of p is absolute nibble base) from nibble np:
 * every packet or scan step that starts before stop.  valid is the number
 * of real nibbles in p.  Returns where decoding stopped: at stop or later,
 * or at the start of a packet that does not fit in valid (checked only).
 * fast: unchecked; every packet starting before stop must be readable.
 */
uint64_t mttd__run_fast(struct mttd_stp *d, const uint8_t *p, uint64_t base,
			uint64_t np, uint64_t stop, uint64_t valid);
uint64_t mttd__run_checked(struct mttd_stp *d, const uint8_t *p,
			   uint64_t base, uint64_t np, uint64_t stop,
			   uint64_t valid);

/* ST_HUNT / ST_FRUN: scan nibbles [np, stop); see stp_sync.c */
uint64_t mttd__scan(struct mttd_stp *d, const uint8_t *p, uint64_t base,
		    uint64_t np, uint64_t stop);

/* Protocol error at absolute nibble nib: report it and start hunting
 * there (the packet is scanned again for an ASYNC it may have eaten). */
void mttd__desync(struct mttd_stp *d, uint64_t nib, unsigned int err);

/* An FF opcode at absolute nibble nib: start counting the ASYNC's Fs. */
void mttd__frun_begin(struct mttd_stp *d, uint64_t nib);

/* Return codes of mttd__slow() */
enum { SLOW_DONE, SLOW_MORE, SLOW_STATE };

struct mttd__opd;
/* USER, TIME, ASYNC start, reserved opcodes; *np advanced when done. */
int mttd__slow(struct mttd_stp *d, const uint8_t *p, uint64_t base,
	       uint64_t *np, uint64_t valid, int checked,
	       const struct mttd__opd *o);

#endif
