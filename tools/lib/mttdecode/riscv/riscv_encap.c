// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * riscv_encap.c - decoder of RISC-V trace encapsulation streams (see
 * mttdecode/riscv.h): finds packet boundaries through the
 * synchronisation rule, then delimits every packet by its header, and
 * hands each one on either as the STP packet event it carries (swstm's
 * layout, on an STP srcID) or as the encapsulated packet it is.
 *
 * One byte at a time, so any chunking gives the same events.  A run of
 * null bytes (5 low bits zero) is counted over every byte, in or out of
 * packets: a packet's bytes after its (non-null) header are at most N, so
 * a run that reaches N + 1 always ends at a packet boundary, and that is
 * where a hunting decoder synchronises and where a synchronised one
 * reports the periodic sync (in an unframed stream: at the null.alignment
 * that ends such a run).  Only a header the specification rules out is a
 * desync: the decoder hunts for the next N + 1 null bytes, counting the
 * nulls at the end of what it rejected, so it is back at the next sync
 * sequence.  A payload that is not swstm's costs nothing: the packet is
 * delivered as it is.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/riscv.h"

#define RV_EVQ		64
/* header + srcID + timestamp + payload */
#define RV_PKT_MAX	(1 + 2 + MTTD_RV_MAX_TS_BYTES + 31)

enum { RV_HUNT, RV_BOUNDARY, RV_BODY };

struct mttd_rv {
	mttd_stp_fn fn;
	void *ctx;
	unsigned int flags;
	unsigned int w;		/* srcID bits */
	unsigned int t;		/* timestamp bytes */
	unsigned int n_sync;	/* N + 1 */
	uint8_t *stp;		/* STP srcIDs (bitmap), NULL: all */
	mttd_rv_pkt_fn pkt_fn;
	int prev_idle;		/* the last thing at the boundary: null.idle */
	int state;
	int finished;
	uint64_t off;		/* bytes consumed */
	uint64_t run;		/* null bytes just before off */
	uint64_t hunt_from;	/* where hunting started */
	uint64_t pkt_off;	/* offset of pkt[0] */
	unsigned int pkt_len;	/* bytes of pkt held */
	unsigned int pkt_need;	/* bytes the packet has */
	uint8_t pkt[RV_PKT_MAX];
	int have_ts;
	uint64_t last_ts;
	uint16_t master, channel;	/* last packet's */
	unsigned int nev;
	struct mttd_stp_event ev[RV_EVQ];
	struct mttd_stp_stats st;
	struct mttd_rv_counts cnt;
};

struct mttd_rv *mttd_rv_new(const struct mttd_rv_config *cfg)
{
	struct mttd_rv *d;

	if (!cfg || !cfg->fn || cfg->srcid_bits > MTTD_RV_MAX_SRCID_BITS ||
	    cfg->ts_bytes > MTTD_RV_MAX_TS_BYTES)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->fn = cfg->fn;
	d->ctx = cfg->ctx;
	d->flags = cfg->flags;
	d->w = cfg->srcid_bits;
	d->t = cfg->ts_bytes;
	d->n_sync = 31 + d->t + d->w / 8 + 1;
	d->pkt_fn = cfg->pkt_fn;
	d->state = RV_HUNT;
	if (cfg->stp_srcids) {
		size_t n = (((size_t)1 << d->w) + 7) / 8;

		d->stp = malloc(n);
		if (!d->stp) {
			free(d);
			return NULL;
		}
		memcpy(d->stp, cfg->stp_srcids, n);
	}
	return d;
}

void mttd_rv_free(struct mttd_rv *d)
{
	if (d)
		free(d->stp);
	free(d);
}

const struct mttd_rv_counts *mttd_rv_counts(const struct mttd_rv *d)
{
	return &d->cnt;
}

const struct mttd_stp_stats *mttd_rv_stats(const struct mttd_rv *d)
{
	return &d->st;
}

static void flush(struct mttd_rv *d)
{
	if (d->nev) {
		unsigned int n = d->nev;

		d->nev = 0;
		d->fn(d->ctx, d->ev, n);
	}
}

static struct mttd_stp_event *event(struct mttd_rv *d, unsigned int type,
				    uint64_t off)
{
	struct mttd_stp_event *e;

	if (d->nev == RV_EVQ)
		flush(d);
	e = &d->ev[d->nev++];
	memset(e, 0, sizeof(*e));
	e->type = (uint8_t)type;
	e->nib = off * 2;
	return e;
}

static void desync(struct mttd_rv *d)
{
	struct mttd_stp_event *e = event(d, MTTD_EV_DESYNC, d->pkt_off);

	e->op = MTTD_ERR_ENCAP;
	e->master = d->master;
	e->channel = d->channel;
	d->st.desyncs++;
	d->state = RV_HUNT;
	d->hunt_from = d->pkt_off;
	d->have_ts = 0;
}

/* bit reader over the packet body (after the header) */
struct bits {
	const uint8_t *p;
	unsigned int pos;
};

static uint64_t get(struct bits *b, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++, b->pos++)
		v |= (uint64_t)(b->p[b->pos >> 3] >> (b->pos & 7) & 1) << i;
	return v;
}

/* op for DATA of n bytes with MARKED/TS flags */
static unsigned int data_op(unsigned int n, int marked, int ts)
{
	static const uint8_t ops[4][4] = {
		{ MTTD_OP_D8, MTTD_OP_D8M, MTTD_OP_D8TS, MTTD_OP_D8MTS },
		{ MTTD_OP_D16, MTTD_OP_D16M, MTTD_OP_D16TS, MTTD_OP_D16MTS },
		{ MTTD_OP_D32, MTTD_OP_D32M, MTTD_OP_D32TS, MTTD_OP_D32MTS },
		{ MTTD_OP_D64, MTTD_OP_D64M, MTTD_OP_D64TS, MTTD_OP_D64MTS },
	};
	unsigned int k = n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : 3;

	return ops[k][(marked ? 1 : 0) | (ts ? 2 : 0)];
}

long mttd_rv_packet_parse(const void *buf, size_t len,
			  unsigned int srcid_bits, unsigned int ts_bytes,
			  struct mttd_rv_packet *pkt)
{
	const uint8_t *p = buf;
	struct bits b = { p + 1, 0 };
	unsigned int i;
	size_t size;

	if (srcid_bits > MTTD_RV_MAX_SRCID_BITS ||
	    ts_bytes > MTTD_RV_MAX_TS_BYTES || !pkt)
		return -1;
	if (!len)
		return 0;
	memset(pkt, 0, sizeof(*pkt));
	pkt->length = p[0] & 0x1f;
	pkt->flow = p[0] >> 5 & 3;
	pkt->extend = p[0] >> 7;
	if (!pkt->length) {
		pkt->size = 1;
		return 1;
	}
	if (pkt->extend && !ts_bytes)
		return -1;
	size = 1 + srcid_bits / 8 + pkt->extend * ts_bytes + pkt->length;
	if (len < size)
		return 0;
	pkt->size = size;
	pkt->srcid = (uint32_t)get(&b, srcid_bits);
	if (pkt->extend)
		pkt->ts = get(&b, 8 * ts_bytes);
	pkt->payload_bits = 8 * pkt->length - srcid_bits % 8;
	for (i = 0; i < pkt->payload_bits; i += 8) {
		unsigned int k = pkt->payload_bits - i < 8 ?
				 pkt->payload_bits - i : 8;

		pkt->payload[i / 8] = (uint8_t)get(&b, k);
	}
	return (long)size;
}

/*
 * The STP packet swstm's layout makes of rp (a whole packet at pkt_off):
 * 0, or -1 if rp is not laid out so.
 */
static int stp_packet(struct mttd_rv *d, const struct mttd_rv_packet *rp)
{
	unsigned int type, kind, x, i, n, op, ext;
	uint64_t ts, src, val = 0;
	struct mttd_stp_event *e;
	int marked, tsflag;

	ext = rp->extend;
	ts = rp->ts;
	type = rp->payload[0];
	kind = type & 7;
	marked = !!(type & 0x08);
	tsflag = !!(type & 0x10);
	x = type >> 5;
	if (kind > 4 || x > 4 || (ext && !tsflag))
		return -1;
	/* length = 1 + x + n, plus a byte for srcID bits beyond whole bytes */
	if (rp->length < 1 + x + (d->w % 8 ? 1u : 0u))
		return -1;
	n = rp->length - 1 - x - (d->w % 8 ? 1 : 0);
	if (kind == 0 ? (n != 1 && n != 2 && n != 4 && n != 8) :
	    kind == 1 ? n != 0 : n != 1)
		return -1;
	/* the last byte of a W % 8 srcID is padding, zero from swstm */
	if (d->w % 8 && rp->payload[rp->length - 1])
		return -1;
	src = 0;
	for (i = 0; i < x; i++)
		src |= (uint64_t)rp->payload[1 + i] << (8 * i);
	if (x && !rp->payload[x])
		return -1;	/* not in the fewest bytes */
	src = src << d->w | rp->srcid;
	if (src >> 32)
		return -1;
	for (i = 0; i < n; i++)
		val |= (uint64_t)rp->payload[1 + x + i] << (8 * i);

	if (ext) {
		/* T bytes wrap: the time goes on from the last one */
		if (d->have_ts && d->t < 8) {
			uint64_t m = (1ull << (8 * d->t)) - 1;

			ts = d->last_ts + ((ts - d->last_ts) & m);
		}
		d->last_ts = ts;
		d->have_ts = 1;
	}

	switch (kind) {
	case 0:
		op = data_op(n, marked, tsflag);
		break;
	case 1:
		op = tsflag ? MTTD_OP_FLAG_TS : MTTD_OP_FLAG;
		break;
	case 2:
		op = tsflag ? MTTD_OP_TRIG_TS : MTTD_OP_TRIG;
		break;
	case 3:
		op = MTTD_OP_MERR;
		break;
	default:
		op = MTTD_OP_GERR;
		break;
	}
	e = event(d, MTTD_EV_PACKET, d->pkt_off);
	e->op = (uint8_t)op;
	e->value = val;
	e->nibbles = (uint8_t)(2 * n);
	e->master = (uint16_t)(src >> 16);
	e->channel = (uint16_t)src;
	e->flags = MTTD_PKT_FLOW;
	e->aux = (uint8_t)rp->flow;
	if (kind == 0)
		e->flags |= MTTD_PKT_DATA;
	if (kind == 0 && marked)
		e->flags |= MTTD_PKT_MARKED;
	if (tsflag && kind != 3 && kind != 4) {
		e->flags |= MTTD_PKT_TS;
		e->ts = ext ? ts : 0;
		e->tsn = (uint8_t)(ext ? 2 * d->t : 0);
	}
	d->master = e->master;
	d->channel = e->channel;
	d->st.packets++;
	return 0;
}

static int stp_srcid(const struct mttd_rv *d, uint32_t srcid)
{
	return !d->stp || (d->stp[srcid / 8] >> (srcid % 8) & 1);
}

/* A whole packet in pkt[0..pkt_need): as STP, else as it is. */
static void packet(struct mttd_rv *d)
{
	struct mttd_rv_packet rp;

	mttd_rv_packet_parse(d->pkt, d->pkt_len, d->w, d->t, &rp);
	if (stp_srcid(d, rp.srcid)) {
		if (!stp_packet(d, &rp))
			return;
		d->cnt.not_stp++;
	}
	d->cnt.encap++;
	if (d->pkt_fn) {
		flush(d);
		d->pkt_fn(d->ctx, &rp, d->pkt_off);
	}
}

/* the N + 1st null byte in a row: a sync sequence ends here */
static void sync_seen(struct mttd_rv *d)
{
	uint64_t start = d->off + 1 - d->n_sync;
	struct mttd_stp_event *e = event(d, MTTD_EV_PACKET, start);

	e->op = MTTD_OP_ASYNC;
	if (d->state == RV_HUNT) {
		uint64_t skipped = start > d->hunt_from ? start - d->hunt_from : 0;

		e->value = skipped;
		d->st.unsynced_nibbles += 2 * skipped;
	}
	d->st.syncs++;
	d->state = RV_BOUNDARY;
}

/* does c end a sync sequence (the run of nulls counted with it)? */
static int sync_end(const struct mttd_rv *d, uint8_t c)
{
	if (d->flags & MTTD_RV_UNFRAMED)
		return c == 0x80 && d->run >= d->n_sync;
	return d->run == d->n_sync;
}

/* unframed: a rule of the null.alignment broken at this byte */
static void unaligned(struct mttd_rv *d)
{
	d->pkt_off = d->off;
	d->cnt.alignment++;
	desync(d);
}

static void boundary(struct mttd_rv *d, uint8_t c)
{
	if (!(c & 0x1f)) {
		d->st.nulls++;
		if ((d->flags & MTTD_RV_UNFRAMED) && (c & 0x60)) {
			unaligned(d);	/* nulls of an unframed stream: flow 0 */
			return;
		}
		if (d->flags & MTTD_RV_NULLS) {
			struct mttd_stp_event *e =
				event(d, MTTD_EV_PACKET, d->off);

			e->op = MTTD_OP_NULL;
			e->flags = MTTD_PKT_FLOW;
			e->aux = (uint8_t)(c >> 5 & 3);
		}
		d->prev_idle = !(c & 0x80);
		if (sync_end(d, c))
			sync_seen(d);
		return;
	}
	if ((d->flags & MTTD_RV_UNFRAMED) && d->prev_idle) {
		unaligned(d);	/* a packet after a null.idle */
		return;
	}
	d->prev_idle = 0;
	d->pkt[0] = c;
	d->pkt_off = d->off;
	d->pkt_len = 1;
	d->pkt_need = 1 + d->w / 8 + (c >> 7) * d->t + (c & 0x1f);
	if ((c >> 7) && !d->t) {
		desync(d);	/* extend with no timestamp field */
		return;
	}
	d->state = RV_BODY;
}

static void byte(struct mttd_rv *d, uint8_t c)
{
	d->run = (c & 0x1f) ? 0 : d->run + 1;
	switch (d->state) {
	case RV_HUNT:
		if (sync_end(d, c)) {
			d->prev_idle = 0;
			sync_seen(d);
		}
		break;
	case RV_BOUNDARY:
		boundary(d, c);
		break;
	case RV_BODY:
		d->pkt[d->pkt_len++] = c;
		if (d->pkt_len < d->pkt_need)
			break;
		d->state = RV_BOUNDARY;
		packet(d);
		break;
	}
	d->off++;
}

int mttd_rv_feed(struct mttd_rv *d, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	if (d->finished)
		return -1;
	for (i = 0; i < len; i++)
		byte(d, p[i]);
	d->st.bytes += len;
	flush(d);
	return 0;
}

int mttd_rv_finish(struct mttd_rv *d)
{
	struct mttd_stp_event *e;

	if (d->finished)
		return -1;
	d->finished = 1;
	if (d->state == RV_BODY) {
		e = event(d, MTTD_EV_TRUNCATED, d->pkt_off);
		e->value = 2 * d->pkt_len;
		e->master = d->master;
		e->channel = d->channel;
		d->st.truncated = 1;
	}
	e = event(d, MTTD_EV_END, d->off);
	if (d->state == RV_HUNT) {
		e->value = d->off - d->hunt_from;
		d->st.unsynced_nibbles += 2 * e->value;
	}
	flush(d);
	return 0;
}
