/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rvenc.h - a small RISC-V trace encapsulation encoder for tests and fuzz
 * seeds: generic packets (header fields, srcID, timestamp, payload bits)
 * and swstm's payload format (see tools/lib/mttdecode/include/mttdecode/riscv.h).  Not
 * part of libmttdecode; written bit by bit, on its own, from the spec.
 */
#ifndef RVENC_H
#define RVENC_H

#include <stddef.h>
#include <stdint.h>

struct rvenc {
	uint8_t *buf;
	size_t len, cap;
	unsigned int w;		/* srcID bits */
	unsigned int t;		/* timestamp bytes */
	unsigned int flow;	/* header.flow of rvenc_packet()'s packets */
	int oom;
};

/* swstm kinds */
enum { RVK_DATA, RVK_FLAG, RVK_TRIG, RVK_MERR, RVK_GERR };

void rvenc_init(struct rvenc *e, unsigned int srcid_bits,
		unsigned int ts_bytes);
void rvenc_free(struct rvenc *e);
void rvenc_byte(struct rvenc *e, uint8_t b);
/* N = 31 + T + S null.idle bytes, then one null.alignment */
void rvenc_sync(struct rvenc *e);
/* sync length, N + 1 */
unsigned int rvenc_sync_len(const struct rvenc *e);

/*
 * A generic packet: flow, extend (then ts is sent), srcid, and @nbits
 * payload bits from @payload (LSB first); header.length computed; padding
 * bits zero.
 */
void rvenc_raw(struct rvenc *e, unsigned int flow, int extend,
	       uint32_t srcid, uint64_t ts, const uint8_t *payload,
	       unsigned int nbits);

/*
 * One swstm packet: kind, marked, timestamped (sent with extend when
 * ts_bytes > 0), master/channel, value of n bytes; flow from e->flow.
 */
void rvenc_packet(struct rvenc *e, unsigned int kind, int marked, int tsf,
		  unsigned int master, unsigned int channel, uint64_t val,
		  unsigned int n, uint64_t ts);

#endif
