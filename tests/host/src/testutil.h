/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testutil.h - helpers for the decoder tests: parse hex byte strings,
 * decode a buffer with a given chunking and render every event (and
 * message) as one text line so tests compare readable strings.
 *
 * Event lines:  OP@<byte> m<M> c<C>[ v=<hex>][ a=<aux>][ M][ ts=<hex>]
 *               DESYNC(<err>)@<byte>   TRUNC@<byte> n=<nibbles>
 *               END@<byte> skip=<bytes>
 * Message lines: MSG m<M> c<C> ts=<dec|-> "<hex>" <complete|incomplete>
 *               [trunc] end=<n>
 * Loss lines:    LOSS <reason>@<byte> m<M> c<C> n=<count>
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/mttdecode.h"

struct strbuf {
	char *s;
	size_t len, cap;
};

void sb_printf(struct strbuf *b, const char *fmt, ...);
void sb_free(struct strbuf *b);

/* "ff 0f 30" -> bytes; returns the count (buffer is static, 64 KiB) */
size_t hex(const char *s, uint8_t **out);

/* one event as a line (no newline) */
void fmt_event(struct strbuf *b, const struct mttd_stp_event *e);

struct decode_opts {
	size_t chunk;		/* 0: whole buffer at once */
	uint64_t seed;		/* != 0: random chunk sizes 1..chunk */
	unsigned int flags;	/* MTTD_STP_* */
	unsigned int version;
	int messages;		/* also run the message layer, print its lines */
	size_t max_len;
	unsigned int max_open;
};

/* Decode and return all lines, '\n' separated (caller frees .s). */
struct strbuf decode(const uint8_t *buf, size_t len,
		     const struct decode_opts *o);

/*
 * Feed buf to d in pieces: all at once (chunk 0), chunk bytes each (seed
 * NULL) or 1..chunk bytes drawn from *seed.  Each piece is a heap copy
 * of its own size, so ASan sees any read past it.
 */
void tu_feed(struct mttd_stp *d, const uint8_t *buf, size_t len,
	     size_t chunk, uint64_t *seed);

/* Decode; return the stats. */
struct mttd_stp_stats decode_stats(const uint8_t *buf, size_t len);

uint64_t rnd64(uint64_t *state);

/* message sink callbacks that append lines to the struct strbuf ctx */
void tu_on_msg(void *sb, const struct mttd_msg *m);
void tu_on_mev(void *sb, const struct mttd_msg_event *e);

#endif
