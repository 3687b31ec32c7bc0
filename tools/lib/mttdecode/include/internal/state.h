/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state.h - the decoders' state as bytes, for a caller that decodes one
 * stream in pieces (mttdecode -j): two decoders whose state blobs are
 * equal produce the same output from the same input.  Only state that
 * decides future output goes in (no statistics, no caches).  Internal:
 * these mttd__ functions are not part of the public API.
 */
#ifndef MTTD_STATE_H
#define MTTD_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/mttdecode.h"

/* a growable byte string; oom set when an append failed */
struct mttd__blob {
	uint8_t *p;
	size_t len;
	size_t cap;
	int oom;
};

void mttd__blob_put(struct mttd__blob *b, const void *s, size_t n);
void mttd__blob_free(struct mttd__blob *b);
/* equal, and neither ran out of memory */
int mttd__blob_eq(const struct mttd__blob *a, const struct mttd__blob *b);

/* append the state of each decoder to b */
void mttd__stp_state(const struct mttd_stp *d, struct mttd__blob *b);
void mttd__msg_state(const struct mttd_msgdec *m, struct mttd__blob *b);
void mttd__syst_state(const struct mttd_syst *s, struct mttd__blob *b);

/* the MTT component names learned from META frames */
void mttd__mtt_names_state(const struct mttd_mtt_names *n,
			   struct mttd__blob *b);
/* dst takes src's learned names; 0, or -1 when out of memory */
int mttd__mtt_names_copy(struct mttd_mtt_names *dst,
			 const struct mttd_mtt_names *src);

/* a new STP decoder whose stream starts at byte off of the capture:
 * offsets it reports count from there (call before the first feed) */
void mttd__stp_start_at(struct mttd_stp *d, uint64_t off);
/* dst takes src's clock state (FREQ, CLOCK sync points) */
void mttd__syst_copy_state(struct mttd_syst *dst, const struct mttd_syst *src);

/* the reference printer text reader (mttd_syst_text): its state but
 * the line number (offsets, a line cut by the end of a feed), a new
 * reader's stream starting at byte off, and its 1-based line number
 * (what a BADLINE event reports), read and set */
void mttd__syst_text_state(const struct mttd_syst_text *t,
			   struct mttd__blob *b);
void mttd__syst_text_start_at(struct mttd_syst_text *t, uint64_t off);
uint64_t mttd__syst_text_lineno(const struct mttd_syst_text *t);
void mttd__syst_text_set_lineno(struct mttd_syst_text *t, uint64_t lineno);

/* dst's counters += now - base (counters of another decoder) */
void mttd__syst_stats_add(struct mttd_syst *dst,
			  const struct mttd_syst_stats *now,
			  const struct mttd_syst_stats *base);

#endif
