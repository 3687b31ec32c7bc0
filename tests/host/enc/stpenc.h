/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stpenc.h - a small STPv2 encoder for tests, fuzz seeds and the
 * benchmark.  Not part of libmttdecode, and deliberately written from its
 * own opcode table rather than the decoder's.
 */
#ifndef STPENC_H
#define STPENC_H

#include <stddef.h>
#include <stdint.h>

struct stpenc {
	uint8_t *buf;
	size_t nib;		/* nibbles written */
	size_t cap;		/* bytes allocated */
	uint64_t ts;		/* last timestamp sent (binary) */
	unsigned int version;	/* timestamp format: 2, 3 or 4 */
	int oom;
};

void stpenc_init(struct stpenc *e, unsigned int version);
void stpenc_free(struct stpenc *e);
size_t stpenc_bytes(const struct stpenc *e);	/* incl. a half byte */

void stpenc_nib(struct stpenc *e, unsigned int n);
void stpenc_val(struct stpenc *e, uint64_t v, unsigned int nibbles);
void stpenc_pad(struct stpenc *e);		/* NULL to a byte boundary */
void stpenc_async(struct stpenc *e);		/* 21 F, 0 (not padded) */
void stpenc_op(struct stpenc *e, unsigned int op); /* enum mttd_op */

/* payload nibbles of a fixed-size op, -1 for USER/TIME/ASYNC */
int stpenc_payload(unsigned int op);
int stpenc_has_ts(unsigned int op);

/*
 * A timestamp field for ts.  tsn < 0: the fewest nibbles that encode it
 * against the previous one in e->version's format; else exactly tsn
 * nibbles (0..12, 14, 16).  Returns the nibble count used.
 */
int stpenc_ts(struct stpenc *e, uint64_t ts, int tsn);

/*
 * A whole packet: opcode, payload (value; for USER n = 1..16 nibbles, for
 * TIME n = time nibbles and aux = clock << 4 | format), then the
 * timestamp if the op has one.  Returns the timestamp nibble count.
 */
int stpenc_packet(struct stpenc *e, unsigned int op, uint64_t value,
		  unsigned int n, unsigned int aux, uint64_t ts, int tsn);

/*
 * One SyS-T message as an STP message: D32TS with @header (full
 * timestamp @ts), the @n body bytes in D64..D8 packets (little-endian
 * values), then FLAG.
 */
void stpenc_syst_msg(struct stpenc *e, uint32_t header, const uint8_t *body,
		     size_t n, uint64_t ts);

#endif
