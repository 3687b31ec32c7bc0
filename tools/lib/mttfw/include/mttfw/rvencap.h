/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttfw/rvencap.h - RISC-V "Unformatted Trace & Diagnostic Data Packet
 * Encapsulation" for firmware: MTT frames (or any bytes) cut into normal
 * packets of one srcID each, on an unframed byte stream (a UART) with
 * synchronisation sequences of N = 31 + T + S null.idle then one
 * null.alignment (Documentation/firmware-mtt.rst).
 *
 * A link is the stream: its widths, its byte sink and its clock.  A
 * source is one srcID on a link; its put() is an mttfw_out put(), so a
 * component's output can be a source.  The packets of a frame go out one
 * by one; packets of other sources may come between them (each packet is
 * written whole, under the link's lock), so each srcID's payload bytes,
 * put end to end, are its frames back to back.  The first packet of a
 * frame carries the timestamp (extend set) when ts_bytes > 0.
 */
#ifndef MTTFW_RVENCAP_H
#define MTTFW_RVENCAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mttfw_rv_link {
	/* one packet, or one sync sequence, per call */
	void (*write)(void *ctx, const uint8_t *p, size_t n);
	void *ctx;
	/* the timestamp of a frame's first packet (its low ts_bytes bytes) */
	uint64_t (*now)(void *ctx);
	/* around each packet: mask what may write to the link meanwhile
	 * (interrupts); NULL when one context writes */
	unsigned long (*lock)(void *ctx);
	void (*unlock)(void *ctx, unsigned long flags);
	unsigned int srcid_bits;	/* 0..16 */
	unsigned int ts_bytes;		/* 0..8 */
	uint32_t sync_interval;		/* bytes between syncs; 0: first only */
	/* state */
	uint32_t since_sync;
	int synced;
};

struct mttfw_rv_src {
	struct mttfw_rv_link *link;
	uint32_t srcid;
};

/* The bytes of a frame (an mttfw_out put(), ctx a struct mttfw_rv_src). */
void mttfw_rv_put(void *ctx, const uint8_t *p, size_t n);

/* Write a sync sequence now (e.g. before the stream ends). */
void mttfw_rv_sync(struct mttfw_rv_link *l);

#ifdef __cplusplus
}
#endif

#endif
