// SPDX-License-Identifier: GPL-2.0
/*
 * swstm STPv2 encoder: turns the raw packets of the ring into a MIPI
 * STPv2 nibble stream, the way a hardware STM would emit them.
 *
 * Nibbles fill a byte low half first; multi-nibble fields go most
 * significant nibble first.  Master and channel are emitted only when
 * they change; timestamps are natural binary (VERSION 3), nanoseconds
 * (FREQ 1 GHz), each sent with the fewest nibbles that update the
 * previous one.  Each reader's stream starts with ASYNC, VERSION and
 * FREQ, repeated every sync_interval bytes, and lost packets show as a
 * GERR whose data is the lost count (saturated at 0xff).  The ring holds
 * records (ring.c); swstm_enc_next() takes their packets one by one.
 *
 * All of it runs in the reader's process context, under its mutex.
 */
#include <linux/bits.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "swstm.h"

/* opcode nibbles (see the STPv2 table in Documentation/swstm.rst) */
#define OP_NULL		0x0
#define OP_M8		0x1
#define OP_MERR		0x2
#define OP_C8		0x3
#define OP_D8		0x4	/* D8..D64: 4..7 */
#define OP_D8MTS	0x8	/* D8MTS..D64MTS: 8..b */
#define OP_FLAG_TS	0xe
#define OP_ESC		0xf
/* after OP_ESC */
#define OP2_F0		0x0
#define OP2_M16		0x1
#define OP2_GERR	0x2
#define OP2_C16		0x3
#define OP2_D8TS	0x4	/* D8TS..D64TS: f4..f7 */
#define OP2_D8M		0x8	/* D8M..D64M: f8..fb */
#define OP2_FLAG	0xe
/* after OP_ESC OP2_F0 */
#define OP3_VERSION	0x0
#define OP3_TRIG	0x6
#define OP3_TRIG_TS	0x7
#define OP3_FREQ	0x8

#define STP_VERSION_NATBIN	3
#define SWSTM_TS_FREQ		1000000000U	/* timestamps are ns */
#define ASYNC_FF_BYTES		10

/*
 * Reader context.  @buf must hold at least SWSTM_ENC_MAX bytes; @rec
 * must have room for a record of SWSTM_STREAM_MAX stream bytes; @format
 * is a SWSTM_FORMAT() word.
 */
void swstm_enc_init(struct swstm_enc *enc, u8 *buf, size_t cap,
		    struct swstm_rec *rec, unsigned int sync_interval,
		    unsigned int format)
{
	memset(enc, 0, sizeof(*enc));
	enc->buf = buf;
	enc->cap = cap;
	enc->rec = rec;
	enc->sync_interval = sync_interval;
	enc->riscv = SWSTM_FORMAT_FMT(format) == SWSTM_FMT_RISCV;
	enc->srcid_bits = SWSTM_FORMAT_SRCID(format);
	enc->ts_bytes = SWSTM_FORMAT_TS(format);
}

static void put_nibble(struct swstm_enc *enc, unsigned int nib)
{
	nib &= 0xf;
	if (!enc->half) {
		enc->buf[enc->wr] = nib;
		enc->half = true;
	} else {
		enc->buf[enc->wr++] |= nib << 4;
		enc->half = false;
		enc->out++;
	}
}

/* @n nibbles of @val, most significant first */
static void put_value(struct swstm_enc *enc, u64 val, unsigned int n)
{
	while (n--)
		put_nibble(enc, val >> (4 * n));
}

static void put_op2(struct swstm_enc *enc, unsigned int op2)
{
	put_nibble(enc, OP_ESC);
	put_nibble(enc, op2);
}

static void put_op3(struct swstm_enc *enc, unsigned int op3)
{
	put_op2(enc, OP2_F0);
	put_nibble(enc, op3);
}

/*
 * Timestamp: a length nibble and that many nibbles, replacing the low
 * bits of the previous timestamp.  The first one after a sync is sent
 * whole (16 nibbles); lengths 13 and 15 do not exist, and 0 ("same
 * value") is never used.  A timestamp is when the packet entered the
 * stream, so it never goes back: a packet stamped a little late (an
 * interrupt hit its writer between taking its place and reading the
 * clock) gets the previous packet's value instead.
 */
static void put_ts(struct swstm_enc *enc, u64 ts)
{
	static const u8 len_code[17] = {
		[1] = 1, [2] = 2, [3] = 3, [4] = 4, [5] = 5, [6] = 6,
		[7] = 7, [8] = 8, [9] = 9, [10] = 10, [11] = 11, [12] = 12,
		[14] = 0xd, [16] = 0xe,
	};
	unsigned int n = 16;

	ts = max(ts, enc->ts_floor);
	enc->ts_floor = ts;
	if (enc->ts_ok) {
		u64 diff = ts ^ enc->last_ts;

		n = diff ? (fls64(diff) + 3) / 4 : 1;
		if (n == 13 || n == 15)
			n++;
	}
	put_nibble(enc, len_code[n]);
	put_value(enc, ts, n);
	enc->last_ts = ts;
	enc->ts_ok = true;
}

/* pad to a byte boundary with a NULL nibble */
static void put_pad(struct swstm_enc *enc)
{
	if (enc->half)
		put_nibble(enc, OP_NULL);
}

/*
 * ASYNC (aligned form: ff x 10, 0f), VERSION 3 and FREQ.  A decoder
 * resets master and channel on VERSION; we also forget the timestamp,
 * so the next one is sent whole and a reader joining here can use it.
 */
static void put_sync(struct swstm_enc *enc)
{
	int i;

	put_pad(enc);
	enc->sync_at = enc->out;
	enc->synced = true;
	for (i = 0; i < ASYNC_FF_BYTES; i++) {
		put_nibble(enc, 0xf);
		put_nibble(enc, 0xf);
	}
	put_nibble(enc, 0xf);
	put_nibble(enc, 0x0);

	put_op3(enc, OP3_VERSION);
	put_nibble(enc, STP_VERSION_NATBIN);
	put_op3(enc, OP3_FREQ);
	put_value(enc, SWSTM_TS_FREQ, 8);

	enc->master_ok = false;
	enc->chan_ok = false;
	enc->ts_ok = false;
}

/* GERR with the lost count; GERR resets the decoder's master */
static void put_gerr(struct swstm_enc *enc, unsigned long val)
{
	put_op2(enc, OP2_GERR);
	put_value(enc, min_t(unsigned long, val, SWSTM_LOST_MAX), 2);
	enc->master_ok = false;
	enc->chan_ok = false;
}

/* M8 (M16 for masters above 255); a decoder resets the channel to 0 */
static void put_master(struct swstm_enc *enc, unsigned int master)
{
	if (enc->master_ok && enc->master == master)
		return;
	if (master > 0xff) {
		put_op2(enc, OP2_M16);
		put_value(enc, master, 4);
	} else {
		put_nibble(enc, OP_M8);
		put_value(enc, master, 2);
	}
	enc->master = master;
	enc->master_ok = true;
	enc->channel = 0;
	enc->chan_ok = true;
}

/* C8 if only the low byte changes, else C16 */
static void put_channel(struct swstm_enc *enc, unsigned int channel)
{
	if (enc->chan_ok && enc->channel == channel)
		return;
	if (enc->chan_ok && (enc->channel >> 8) == (channel >> 8)) {
		put_nibble(enc, OP_C8);
		put_value(enc, channel, 2);
	} else {
		put_op2(enc, OP2_C16);
		put_value(enc, channel, 4);
	}
	enc->channel = channel;
	enc->chan_ok = true;
}

/* Dn, DnM, DnTS or DnMTS; the payload is a little-endian integer */
static void put_data(struct swstm_enc *enc, const struct swstm_slot *s)
{
	unsigned int k = ilog2(s->size);	/* D8, D16, D32, D64: 0..3 */
	u64 val = 0;
	int i;

	for (i = s->size - 1; i >= 0; i--)
		val = val << 8 | s->payload[i];

	switch (s->flags & (STP_PACKET_MARKED | STP_PACKET_TIMESTAMPED)) {
	case 0:
		put_nibble(enc, OP_D8 + k);
		break;
	case STP_PACKET_MARKED:
		put_op2(enc, OP2_D8M + k);
		break;
	case STP_PACKET_TIMESTAMPED:
		put_op2(enc, OP2_D8TS + k);
		break;
	default:
		put_nibble(enc, OP_D8MTS + k);
		break;
	}
	put_value(enc, val, 2 * s->size);
	if (s->flags & STP_PACKET_TIMESTAMPED)
		put_ts(enc, s->ts);
}

static void put_packet(struct swstm_enc *enc, const struct swstm_slot *s)
{
	bool ts = s->flags & STP_PACKET_TIMESTAMPED;
	u8 val = s->size ? s->payload[0] : 0;	/* TRIG, MERR, GERR */

	switch (s->type) {
	case STP_PACKET_DATA:
		put_master(enc, s->master);
		put_channel(enc, s->channel);
		put_data(enc, s);
		break;
	case STP_PACKET_FLAG:
		put_master(enc, s->master);
		put_channel(enc, s->channel);
		if (ts) {
			put_nibble(enc, OP_FLAG_TS);
			put_ts(enc, s->ts);
		} else {
			put_op2(enc, OP2_FLAG);
		}
		break;
	case STP_PACKET_TRIG:
		put_master(enc, s->master);
		put_channel(enc, s->channel);
		put_op3(enc, ts ? OP3_TRIG_TS : OP3_TRIG);
		put_value(enc, val, 2);
		if (ts)
			put_ts(enc, s->ts);
		break;
	case STP_PACKET_MERR:
		/* a master error; the decoder resets the channel to 0 */
		put_master(enc, s->master);
		put_nibble(enc, OP_MERR);
		put_value(enc, val, 2);
		enc->channel = 0;
		break;
	case STP_PACKET_GERR:
		put_gerr(enc, val);
		break;
	}
}

/*
 * The next packet of the reader's stream into @pkt: from the record in
 * hand, or from the next record of @ring.  @lost receives the packets
 * lost just before it.  Returns false if the ring has nothing more.
 * Context: the reader's process context, under its mutex.
 */
bool swstm_enc_next(struct swstm_enc *enc, struct swstm_ring *ring,
		    struct swstm_slot *pkt, unsigned long *lost)
{
	struct swstm_rec *rec = enc->rec;
	const u8 *stream = (const u8 *)(rec + 1);
	unsigned int d, n;

	/*
	 * The record in hand is used up: take the next one.  Nothing of
	 * enc->rec's header nor rec_pos changes unless one was taken
	 * (swstm_ring_read() publishes a copy only after its claim).
	 */
	while (enc->rec_pos >= rec->len) {
		if (!swstm_ring_read(ring, rec, &enc->rec_lost))
			return false;
		enc->rec_pos = 0;
	}
	d = stream[enc->rec_pos];
	n = d & SWSTM_D_PAYLOAD ? 1U << ((d >> SWSTM_D_LOG_SHIFT) & 3) : 0;
	/* a record holds whole packets; this only bounds a bad one */
	n = min(n, rec->len - enc->rec_pos - 1);
	pkt->ts = rec->ts;
	pkt->master = rec->master;
	pkt->channel = rec->channel;
	pkt->type = d & SWSTM_D_TYPE;
	pkt->flags = (d & SWSTM_D_MARKED ? STP_PACKET_MARKED : 0) |
		     (d & SWSTM_D_TS ? STP_PACKET_TIMESTAMPED : 0);
	pkt->size = n;
	memcpy(pkt->payload, stream + enc->rec_pos + 1, n);
	enc->rec_pos += 1 + n;
	*lost = enc->rec_lost;
	enc->rec_lost = 0;
	return true;
}

/* Reader context: a packet is in hand or in the ring. */
static bool swstm_enc_more(struct swstm_enc *enc, struct swstm_ring *ring)
{
	return enc->rec_pos < enc->rec->len || swstm_ring_readable(ring);
}

static bool sync_due(struct swstm_enc *enc)
{
	if (!enc->synced)
		return true;
	return enc->sync_interval &&
	       enc->out - enc->sync_at >= enc->sync_interval;
}

/*
 * Encode packets from @ring until @want bytes are ready for the user,
 * the buffer is full or the ring runs dry.  When the ring runs dry, the
 * output is padded to a byte boundary (every read then ends on one).
 * A reader opened in RISC-V format gets encode_riscv.c's encoding
 * instead.  Reader context.
 */
void swstm_enc_fill(struct swstm_enc *enc, struct swstm_ring *ring,
		    size_t want)
{
	struct swstm_slot slot;
	unsigned long lost;

	/* move what the user has not taken yet to the front */
	if (enc->rd) {
		memmove(enc->buf, enc->buf + enc->rd,
			enc->wr - enc->rd + enc->half);
		enc->wr -= enc->rd;
		enc->rd = 0;
	}
	if (enc->riscv) {
		swstm_rv_fill(enc, ring, want);
		return;
	}

	while (enc->wr - enc->rd < want &&
	       enc->cap - enc->wr >= SWSTM_ENC_MAX) {
		if (!swstm_enc_next(enc, ring, &slot, &lost)) {
			lost = swstm_ring_idle_lost(ring);
			if (lost) {
				if (sync_due(enc))
					put_sync(enc);
				put_gerr(enc, lost);
			}
			put_pad(enc);
			return;
		}
		if (sync_due(enc))
			put_sync(enc);
		if (lost)
			put_gerr(enc, lost);
		put_packet(enc, &slot);
	}
	/* stopped with data in hand: still pad if that was the last of it */
	if (enc->half && !swstm_enc_more(enc, ring))
		put_pad(enc);
}
