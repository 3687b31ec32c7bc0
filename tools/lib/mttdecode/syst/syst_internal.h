/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syst_internal.h - the SyS-T decoder's state and the calls between its
 * source files (internal).
 */
#ifndef MTTD_SYST_INTERNAL_H
#define MTTD_SYST_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "mttdecode/collateral.h"
#include "mttdecode/syst.h"
#include "internal/tbuf.h"

#define SYST_MAX_TEXT	(256u << 10)
#define SYST_MAX_PROTO	256u	/* a rendered RAW protocol name */
#define SYST_SYNC_SLOTS	256u	/* clock sync points kept (per channel) */

#define SYST_CLIENT_CACHE	256u	/* GUIDs whose client is kept: 128
					 * sets of 2 */

/* one GUID's client and its names, as mttd_coll_client() and
 * mttd_coll_client_name(), _file() gave them */
struct mttd__ccache {
	uint64_t guid[2];
	const char *name;
	const char *file;
	int client;
	unsigned int tables;	/* mttd__coll_tables() of the client */
	int valid;
};

/* a collateral lookup of the decoder's, kept (SYST_ENTRY_CACHE of them,
 * direct-mapped by key and table): the collateral does not change while
 * a decoder uses it */
#define SYST_ENTRY_CACHE 64
struct mttd__ecache {
	uint64_t key;
	const struct mttd_coll_entry *e;	/* NULL: not there */
	int client;				/* -1: empty slot */
	unsigned int table;
};

/* A CLOCK sync point: SyS-T clock value and frequency at an STP time */
struct mttd__sync {
	uint64_t key;		/* 0: free; else channel key + 1 */
	uint64_t stp_ts;
	uint64_t clock;
	uint64_t freq;
	uint8_t has_stp;
};

struct mttd_syst {
	mttd_syst_fn fn;
	mttd_syst_event_fn event;
	void *ctx;
	const struct mttd_coll *coll;
	uint64_t stp_hz;
	struct mttd__tbuf text;
	struct mttd__tbuf proto;	/* RAW protocol name, rendered */
	uint8_t short_guid[16];		/* cfg.short_guid */
	int has_short_guid;
	size_t max_len;			/* cfg.max_len (0: none) */
	int avx2;			/* the CPU has AVX2 (plain.h) */
	struct mttd_syst_msg msg;
	/* bytes of msg cleared per message: offsetof(..., args), but kept
	 * here so that the clear is a call to memset(), not the rep stos a
	 * compiler inlines for a constant size (which costs several times
	 * as much for these 240 bytes) */
	size_t msg_clear;
	/* client selection cache: the last clients chosen, by their GUID */
	struct mttd__ccache cache[SYST_CLIENT_CACHE];
	struct mttd__ecache ecache[SYST_ENTRY_CACHE];
	struct mttd_syst_stats st;
	struct mttd__sync sync[SYST_SYNC_SLOTS];
};

static inline uint16_t mttd__le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t mttd__le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t mttd__le64v(const uint8_t *p)
{
	return (uint64_t)mttd__le32(p) | (uint64_t)mttd__le32(p + 4) << 32;
}

/* little-endian value of n (0..8) bytes; 4 and 8 (arguments, ids)
 * as one load each, the others a byte at a time */
static inline uint64_t mttd__lexx(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	if (n == 8)
		return mttd__le64v(p);
	if (n == 4)
		return mttd__le32(p);
	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Raise a message's status: TOO_SHORT beats CHECKSUM_ERROR beats
 * UNKNOWN_TYPE beats MISSING_COLLATERAL beats OK.
 */
static inline void mttd__syst_status(struct mttd_syst_msg *m,
				     unsigned int st)
{
	static const uint8_t rank[MTTD_SYST_STATUS_COUNT] = {
		[MTTD_SYST_OK] = 0, [MTTD_SYST_MISSING_COLLATERAL] = 1,
		[MTTD_SYST_UNKNOWN_TYPE] = 2, [MTTD_SYST_CHECKSUM_ERROR] = 3,
		[MTTD_SYST_TOO_SHORT] = 4,
	};

	if (rank[st] > rank[m->status])
		m->status = (uint8_t)st;
}

/*
 * syst_parse.c: the header and optional fields of the n-byte message p
 * (payload, CRC; SHORT and compact BUILD values).  Sets m->status to
 * MTTD_SYST_TOO_SHORT when fields are cut, else leaves it.
 */
void mttd__syst_parse(const uint8_t *p, size_t n, struct mttd_syst_msg *m);

/* syst_frame.c: the size of the message at p[0..avail) for the plain
 * stream: > 0 the size, 0 need more bytes, -1 cannot be framed.  final:
 * no more bytes will come (a NUL search gives up at avail). */
long mttd__syst_frame(struct mttd_syst *s, const uint8_t *p, size_t avail,
		      int final);
/* a plausible header at p[0..4) for resynchronisation */
int mttd__syst_plausible(const uint8_t *p);

/* syst_decode.c: type-specific decoding of a parsed message */
void mttd__syst_content(struct mttd_syst *s, struct mttd_syst_msg *m);

/* mttd__syst_client() when the GUID is not the first of its set */
const struct mttd__ccache *mttd__syst_client_miss(struct mttd_syst *s,
						  struct mttd__ccache *c,
						  const uint64_t w[2]);

/*
 * The cache entry of the message's GUID: its collateral client (or
 * -1), the client's name and file.  The clients are kept in sets of two
 * entries indexed by a hash of the GUID, the one looked up last first (a
 * trace interleaves a few sources, each with its GUID, and
 * mttd_coll_client() looks at every Guid of every client): inline up to
 * both entries of the set; a hit in the second leaves it there (moving
 * the entries cost as much as the lookup).  128 sets: 16 sources with a
 * GUID and 16 keyed by master and channel (bench --write-syst) left
 * one message in 16 to a real lookup with 32 sets, some 5% of the CPU
 * time of SyS-T over STP to text.
 */
static inline const struct mttd__ccache *
mttd__syst_client(struct mttd_syst *s, const struct mttd_syst_msg *m)
{
	uint8_t g[16];
	uint64_t w[2];
	struct mttd__ccache *c;

	_Static_assert(SYST_CLIENT_CACHE == 2u << 7, "the hash's width");
	/* mttd_syst_key_guid(), inline: the message's GUID, else the
	 * pseudo-GUID of its master, channel and origin */
	if (m->flags & (MTTD_SYST_F_GUID | MTTD_SYST_F_SHORT_GUID)) {
		memcpy(g, m->guid, 16);
	} else {
		unsigned int ma = 0, ch = 0;

		if (m->flags & MTTD_SYST_F_STP) {
			ma = m->master;
			ch = m->channel;
		}
		memset(g, 0, 16);
		g[4] = (uint8_t)(ma >> 8);
		g[5] = (uint8_t)ma;
		g[6] = (uint8_t)(ch >> 8);
		g[7] = (uint8_t)ch;
		g[8] = (uint8_t)((m->flags & MTTD_SYST_F_SEV) ? m->origin : 0);
	}
	memcpy(w, g, 16);
	c = &s->cache[2 * (((w[0] ^ w[1]) * 0x9e3779b97f4a7c15ull) >>
			   (64 - 7))];
	if (c[0].valid && c[0].guid[0] == w[0] && c[0].guid[1] == w[1])
		return c;
	if (c[1].valid && c[1].guid[0] == w[0] && c[1].guid[1] == w[1])
		return c + 1;
	return mttd__syst_client_miss(s, c, w);
}

/* syst_clock.c: CLOCK sync points and ts correlation */
void mttd__syst_clock_sync(struct mttd_syst *s, struct mttd_syst_msg *m);
void mttd__syst_clock_apply(struct mttd_syst *s, struct mttd_syst_msg *m);

/* syst_api.c: report a front end event */
void mttd__syst_event(struct mttd_syst *s, unsigned int kind,
		      uint64_t offset, uint64_t count);

#endif
