// SPDX-License-Identifier: GPL-2.0
/*
 * rvenc.c - the test encoder of RISC-V trace encapsulation (rvenc.h):
 * one bit at a time into a growing buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "rvenc.h"

void rvenc_init(struct rvenc *e, unsigned int srcid_bits,
		unsigned int ts_bytes)
{
	memset(e, 0, sizeof(*e));
	e->w = srcid_bits;
	e->t = ts_bytes;
}

void rvenc_free(struct rvenc *e)
{
	free(e->buf);
	e->buf = NULL;
	e->len = e->cap = 0;
}

void rvenc_byte(struct rvenc *e, uint8_t b)
{
	if (e->len == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 256;
		uint8_t *p = realloc(e->buf, cap);

		if (!p) {
			e->oom = 1;
			return;
		}
		e->buf = p;
		e->cap = cap;
	}
	e->buf[e->len++] = b;
}

unsigned int rvenc_sync_len(const struct rvenc *e)
{
	return 31 + e->t + e->w / 8 + 1;
}

void rvenc_sync(struct rvenc *e)
{
	unsigned int i, n = rvenc_sync_len(e) - 1;

	for (i = 0; i < n; i++)
		rvenc_byte(e, 0x00);
	rvenc_byte(e, 0x80);
}

/* a bit string: srcID, timestamp, payload */
struct bitstr {
	uint8_t bit[16 + 64 + 256];
	unsigned int n;
};

static void push(struct bitstr *s, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		s->bit[s->n++] = (uint8_t)(v >> i & 1);
}

void rvenc_raw(struct rvenc *e, unsigned int flow, int extend,
	       uint32_t srcid, uint64_t ts, const uint8_t *payload,
	       unsigned int nbits)
{
	struct bitstr s = { .n = 0 };
	unsigned int i, j, length;

	push(&s, srcid, e->w);
	if (extend)
		push(&s, ts, 8 * e->t);
	for (i = 0; i < nbits; i++)
		push(&s, payload[i / 8] >> (i % 8), 1);
	length = (nbits + e->w % 8 + 7) / 8;
	rvenc_byte(e, (uint8_t)(length | (flow & 3) << 5 |
				(extend ? 0x80 : 0)));
	for (i = 0; i < s.n; i += 8) {
		uint8_t b = 0;

		for (j = 0; j < 8 && i + j < s.n; j++)
			b |= (uint8_t)(s.bit[i + j] << j);
		rvenc_byte(e, b);
	}
}

void rvenc_packet(struct rvenc *e, unsigned int kind, int marked, int tsf,
		  unsigned int master, unsigned int channel, uint64_t val,
		  unsigned int n, uint64_t ts)
{
	uint64_t src = (uint64_t)master << 16 | channel;
	uint64_t rest = src >> e->w;
	uint8_t pl[16];
	unsigned int x = 0, i, k = 0;

	while (rest >> (8 * x))
		x++;
	pl[k++] = (uint8_t)(kind | (marked ? 8 : 0) | (tsf ? 16 : 0) | x << 5);
	for (i = 0; i < x; i++)
		pl[k++] = (uint8_t)(rest >> (8 * i));
	for (i = 0; i < n; i++)
		pl[k++] = (uint8_t)(val >> (8 * i));
	rvenc_raw(e, e->flow, tsf && e->t, (uint32_t)(src & ((1u << e->w) - 1)),
		  ts, pl, 8 * k);
}
