// SPDX-License-Identifier: GPL-2.0
/*
 * swstm RISC-V encoder: turns the raw packets of the ring into a stream of
 * RISC-V "Unformatted Trace & Diagnostic Data Packet Encapsulation"
 * packets, one per STP packet of the ring's records, instead of STPv2
 * (encode.c).
 *
 * Packet: a header byte (length in bits 4:0, flow 0 in bits 6:5, extend in
 * bit 7), then a bit stream, least significant bit first, of the srcID
 * (srcid_bits), the timestamp (8 * ts_bytes bits, only when extend is set)
 * and the payload; the last byte is padded with zero bits.  The payload is
 * a type byte and the bytes below (Documentation/swstm.rst has the table):
 *
 *   type bits 2:0  kind: 0 DATA, 1 FLAG, 2 TRIG, 3 MERR, 4 GERR
 *   type bit 3     marked
 *   type bit 4     timestamped (the time is in the header's timestamp
 *                  when ts_bytes > 0, which then sets extend)
 *   type bits 7:5  X, the number of source bytes that follow: the bits of
 *                  src = master << 16 | channel above the srcID, LSB
 *                  first, as few as hold them (0..4)
 *   then the value: DATA 1, 2, 4 or 8 bytes, TRIG/MERR/GERR 1, FLAG none.
 *
 * Lost packets are a GERR (source 0) whose value is the count, saturated.
 * A synchronisation sequence (N = 31 + T + S null.idle bytes, then one
 * null.alignment) starts the stream and comes again at the first packet
 * boundary after sync_interval bytes.
 *
 * All of it runs in the reader's process context, under its mutex.
 */
#include <linux/minmax.h>
#include <linux/string.h>

#include "swstm.h"

#define RV_KIND_DATA		0
#define RV_KIND_FLAG		1
#define RV_KIND_TRIG		2
#define RV_KIND_MERR		3
#define RV_KIND_GERR		4
#define RV_TYPE_MARKED		0x08
#define RV_TYPE_TS		0x10
#define RV_TYPE_XSHIFT		5

#define RV_HDR_EXTEND		0x80
#define RV_NULL_IDLE		0x00
#define RV_NULL_ALIGN		0x80

/* bit writer over the output buffer; every byte is zeroed before use */
struct rv_bits {
	u8		*p;
	unsigned int	nbits;
};

static void rv_put(struct rv_bits *b, u64 val, unsigned int n)
{
	while (n) {
		unsigned int sh = b->nbits & 7;
		unsigned int k = min(n, 8 - sh);

		if (!sh)
			b->p[b->nbits >> 3] = 0;
		b->p[b->nbits >> 3] |= (u8)((val & ((1U << k) - 1)) << sh);
		val >>= k;
		n -= k;
		b->nbits += k;
	}
}

static void rv_emit_sync(struct swstm_enc *enc)
{
	/* N = 31 + T + S null.idle bytes, then a null.alignment */
	unsigned int n = 31 + enc->ts_bytes + enc->srcid_bits / 8;

	memset(enc->buf + enc->wr, RV_NULL_IDLE, n);
	enc->buf[enc->wr + n] = RV_NULL_ALIGN;
	enc->sync_at = enc->out;
	enc->synced = true;
	enc->wr += n + 1;
	enc->out += n + 1;
}

/* bytes needed to hold @v: 0 for 0 */
static unsigned int rv_bytes_of(u64 v)
{
	unsigned int n = 0;

	while (v) {
		n++;
		v >>= 8;
	}
	return n;
}

/*
 * One packet: @kind, @tflags (RV_TYPE_MARKED, RV_TYPE_TS), its source
 * and @n value bytes from @val.
 */
static void rv_emit(struct swstm_enc *enc, unsigned int kind,
		    unsigned int tflags, unsigned int master,
		    unsigned int channel, const u8 *val, unsigned int n,
		    u64 ts)
{
	unsigned int w = enc->srcid_bits;
	u32 src = (u32)master << 16 | channel;
	u64 rest = (u64)src >> w;
	unsigned int x = rv_bytes_of(rest);
	bool extend = (tflags & RV_TYPE_TS) && enc->ts_bytes;
	struct rv_bits b = { .p = enc->buf + enc->wr + 1 };
	unsigned int len, i;

	rv_put(&b, src & ((1U << w) - 1), w);
	if (extend) {
		ts = max(ts, enc->ts_floor);
		enc->ts_floor = ts;
		for (i = 0; i < enc->ts_bytes; i++)
			rv_put(&b, ts >> (8 * i), 8);
	}
	rv_put(&b, kind | tflags | x << RV_TYPE_XSHIFT, 8);
	for (i = 0; i < x; i++)
		rv_put(&b, rest >> (8 * i), 8);
	for (i = 0; i < n; i++)
		rv_put(&b, val[i], 8);

	/* header.length = ceil((payload bits + srcID bits % 8) / 8) */
	len = (8 * (1 + x + n) + w % 8 + 7) / 8;
	enc->buf[enc->wr] = len | (extend ? RV_HDR_EXTEND : 0);
	len = 1 + DIV_ROUND_UP(b.nbits, 8);
	enc->wr += len;
	enc->out += len;
}

static void rv_emit_lost(struct swstm_enc *enc, unsigned long lost)
{
	u8 v = min_t(unsigned long, lost, SWSTM_LOST_MAX);

	rv_emit(enc, RV_KIND_GERR, 0, 0, 0, &v, 1, 0);
}

static void rv_emit_slot(struct swstm_enc *enc, const struct swstm_slot *s)
{
	unsigned int tflags = 0, master = s->master, channel = s->channel;
	unsigned int kind, n = 1;
	const u8 *val = s->payload;
	static const u8 zero;

	if (s->flags & STP_PACKET_MARKED)
		tflags |= RV_TYPE_MARKED;
	if (s->flags & STP_PACKET_TIMESTAMPED)
		tflags |= RV_TYPE_TS;
	switch (s->type) {
	case STP_PACKET_DATA:
		kind = RV_KIND_DATA;
		n = s->size;
		break;
	case STP_PACKET_FLAG:
		kind = RV_KIND_FLAG;
		n = 0;
		break;
	case STP_PACKET_TRIG:
		kind = RV_KIND_TRIG;
		break;
	case STP_PACKET_MERR:
		kind = RV_KIND_MERR;
		break;
	case STP_PACKET_GERR:
		kind = RV_KIND_GERR;
		master = 0;
		channel = 0;
		break;
	default:
		return;
	}
	/* TRIG, MERR, GERR: one value byte, 0 if none was given */
	if (kind != RV_KIND_DATA && n && !s->size)
		val = &zero;
	rv_emit(enc, kind, tflags, master, channel, val, n, s->ts);
}

static bool rv_sync_due(struct swstm_enc *enc)
{
	if (!enc->synced)
		return true;
	return enc->sync_interval &&
	       enc->out - enc->sync_at >= enc->sync_interval;
}

/*
 * swstm_enc_fill() for a reader in RISC-V format, after it moved the
 * bytes not yet read to the front: encode packets from @ring until @want
 * bytes are ready, the buffer is full or the ring runs dry.  Output is
 * whole bytes, so there is never anything to pad.
 * Context: the reader's process context, under its mutex.
 */
void swstm_rv_fill(struct swstm_enc *enc, struct swstm_ring *ring,
		   size_t want)
{
	struct swstm_slot slot;
	unsigned long lost;

	while (enc->wr - enc->rd < want &&
	       enc->cap - enc->wr >= SWSTM_ENC_MAX) {
		if (!swstm_enc_next(enc, ring, &slot, &lost)) {
			lost = swstm_ring_idle_lost(ring);
			if (lost) {
				if (rv_sync_due(enc))
					rv_emit_sync(enc);
				rv_emit_lost(enc, lost);
			}
			return;
		}
		if (rv_sync_due(enc))
			rv_emit_sync(enc);
		if (lost)
			rv_emit_lost(enc, lost);
		rv_emit_slot(enc, &slot);
	}
}
