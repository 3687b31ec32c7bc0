// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stp_decode.c - the STPv2 packet loop (the decoder's hot path).
 *
 * One 64-bit window load gives the opcode nibbles; one table lookup (two
 * for F0-prefixed opcodes) gives the payload size, timestamp and marker
 * flags and what the packet does; a second window load and a nibble
 * reversal extract the payload, a third the timestamp.  Runs of NULL
 * nibbles are skipped in one step.  USER, TIME, ASYNC starts and reserved
 * opcodes leave for stp_slow.c.  The same loop is compiled twice: without
 * bounds checks for the body of a caller's buffer, and with them for the
 * zero-padded carry buffer (see stp_internal.h).
 */
#include <stddef.h>
#include <string.h>

#include "internal/msg_internal.h"
#include "nibble.h"
#include "stp_internal.h"
#include "stp_ops.h"
#include "stp_ts.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* master and channel packed the way struct mttd_stp_event stores them,
 * so one 4-byte copy fills both */
_Static_assert(offsetof(struct mttd_stp_event, channel) ==
	       offsetof(struct mttd_stp_event, master) + 2,
	       "master and channel must be adjacent");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MC(m, c)	((uint32_t)(m) << 16 | (uint16_t)(c))
#define MC_MASTER(x)	((uint16_t)((x) >> 16))
#define MC_CHANNEL(x)	((uint16_t)(x))
#else
#define MC(m, c)	((uint32_t)(uint16_t)(m) | (uint32_t)(c) << 16)
#define MC_MASTER(x)	((uint16_t)(x))
#define MC_CHANNEL(x)	((uint16_t)((x) >> 16))
#endif
/* the message layer's key for master and channel */
#define MC_KEY(x)	((uint32_t)MC_MASTER(x) << 16 | MC_CHANNEL(x))

static void emit_nulls(struct mttd_stp *d, uint64_t nib, uint64_t k)
{
	while (k--) {
		struct mttd_stp_event *e = mttd__slot(d);

		*e = (struct mttd_stp_event){
			.nib = nib++, .ts = d->ts, .master = d->master,
			.channel = d->channel, .type = MTTD_EV_PACKET,
			.op = MTTD_OP_NULL,
		};
		mttd__commit(d);
	}
}

/*
 * The payload of a D64 packet as its value (most significant nibble
 * first), from the byte holding its first payload nibble: in the high
 * nibble of b[0] (opcode in the low nibble: d64_hi) or in the low nibble
 * (d64_lo).  Byte k of the value, least significant first, is payload
 * nibbles 15 - 2k (high) and 16 - 2k (low): d64_hi takes the high nibbles
 * from one load and the low ones from the next byte's, then reverses the
 * bytes; d64_lo swaps the two nibbles of each byte too.
 */
static inline uint64_t d64_hi(const uint8_t *b)
{
	const uint64_t m = 0x0f0f0f0f0f0f0f0fULL;

	return __builtin_bswap64((mttd__le64(b) & ~m) |
				 (mttd__le64(b + 1) & m));
}

static inline uint64_t d64_lo(const uint8_t *b)
{
	return mttd__nibrev(mttd__le64(b));
}

static inline void put_le64(uint8_t *b, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(b, &v, 8);
}

/* opcodes (first nibble) of the data packets with neither timestamp nor
 * marker: D8, D16, D32, D64 and D4 */
#define PLAIN_DATA	0x10f0u
#define IS_PLAIN_DATA(c)	((PLAIN_DATA >> (c)) & 1)

/*
 * Fused path: the run of plain data packets (PLAIN_DATA) from nibble np,
 * appended to message s: D64 packets two (17 bytes) a step, the others
 * one at a time.  Stops before stop, at another opcode, or at a packet
 * that does not fit below s->cap (mttd__put8's rule), which the caller
 * takes on the general path.  Returns the nibble after the last packet
 * appended; *last_v and *last_n get its value and payload nibbles, *npk
 * the packets appended.  Unchecked mode only.
 */
static uint64_t data_run(struct mttd__slot *s, const uint8_t *p, uint64_t np,
			 uint64_t stop, uint64_t *last_v, unsigned int *last_n,
			 uint64_t *npk)
{
	uint8_t *buf = s->buf;
	uint32_t len = s->len, cap = s->cap;
	uint64_t q = np, va, vb, lv = *last_v, cnt = 0;
	unsigned int c = mttd__nib(p, q), ln = *last_n;
	const uint8_t *b;

	for (;;) {
		if (c == 7) {
			if (q & 1) {
				/* opcodes in b[0] high, b[9] low; payloads
				 * from b[1], b[9] high */
				for (;;) {
					b = p + (q >> 1);
					if (q + 17 >= stop || (b[9] & 0xf) != 7 ||
					    len + 16 > cap)
						break;
					va = d64_lo(b + 1);
					vb = d64_hi(b + 9);
					put_le64(buf + len, va);
					put_le64(buf + len + 8, vb);
					len += 16;
					q += 34;
					cnt += 2;
					lv = vb;
					ln = 16;
					if (q >= stop)
						goto out;
					if ((b[17] >> 4) != 7)
						goto next;
				}
				va = d64_lo(b + 1);
			} else {
				/* opcodes in b[0] low, b[8] high; payloads
				 * from b[0] high, b[9] */
				for (;;) {
					b = p + (q >> 1);
					if (q + 17 >= stop || (b[8] >> 4) != 7 ||
					    len + 16 > cap)
						break;
					va = d64_hi(b);
					vb = d64_lo(b + 9);
					put_le64(buf + len, va);
					put_le64(buf + len + 8, vb);
					len += 16;
					q += 34;
					cnt += 2;
					lv = vb;
					ln = 16;
					if (q >= stop)
						goto out;
					if ((b[17] & 0xf) != 7)
						goto next;
				}
				va = d64_hi(b);
			}
			/* one D64 on its own */
			if (!mttd__put8(buf, len, cap, va))
				goto out;
			len += 8;
			q += 17;
			lv = va;
			ln = 16;
		} else {
			/* D8, D16, D32: 2 << (c - 4) nibbles; D4: one */
			unsigned int n = c == 0xc ? 1 : 2u << (c - 4);

			va = mttd__nibrev(mttd__ld16(p, q + 1)) >> (64 - 4 * n);
			if (!mttd__put8(buf, len, cap, va))
				goto out;
			len += n > 1 ? n / 2 : 1;
			q += 1 + n;
			lv = va;
			ln = n;
		}
		cnt++;
		if (q >= stop)
			goto out;
next:
		c = mttd__nib(p, q);
		if (!IS_PLAIN_DATA(c))
			goto out;
	}
out:
	s->len = len;
	*last_v = lv;
	*last_n = ln;
	*npk += cnt;
	return q;
}

/*
 * Packets from np while np < stop and the decoder stays in sync.  *more is
 * set when a packet does not fit in valid nibbles (checked mode only).
 * The protocol state and the event pointer live in locals; SAVE() writes
 * them back (and counts the packets) before anything else looks at d.
 *
 * fused (d->msg set): runs of plain data packets on the channel's open
 * message are appended to its buffer (data_run), M8/C8 only change the
 * channel, other data packets and FLAGs go to the message layer as
 * fields, and everything else is built in a local event and handed on at
 * once (COMMIT); no event waits in d->ev.
 */
static inline __attribute__((always_inline)) uint64_t
packets(struct mttd_stp *d, const uint8_t *p, uint64_t base, uint64_t np,
	uint64_t stop, uint64_t valid, const int checked, const int fused,
	int *more)
{
	uint64_t ts = d->ts, last_v = d->last_v;
	/* master and channel in one register, as an event holds them */
	uint32_t mc = MC(d->master, d->channel);
	unsigned int last_n = d->last_n;
	struct mttd_stp_event fev;	/* fused: the one event */
	struct mttd_stp_event *e = fused ? &fev : d->ev + d->nev;
	uint64_t npk = 0;		/* fused: packets not counted yet */

	/* the events from d->ev + d->nev to e are packets, all counted here */
#define SAVE() do { d->ts = ts; d->last_v = last_v; d->last_n = (uint8_t)last_n; \
		d->master = MC_MASTER(mc); d->channel = MC_CHANNEL(mc); \
		if (fused) { d->st.packets += npk; npk = 0; } else { \
		d->st.packets += (uint64_t)(e - (d->ev + d->nev)); \
		d->nev = (uint32_t)(e - d->ev); } } while (0)
#define LOAD() do { ts = d->ts; last_v = d->last_v; last_n = d->last_n; \
		mc = MC(d->master, d->channel); \
		e = fused ? &fev : d->ev + d->nev; } while (0)
#define COMMIT() do { if (fused) { npk++; mttd__msg_packet(d->msg, e); } \
		else if (unlikely(++e == d->ev + MTTD_BATCH)) { SAVE(); \
		mttd__flush(d); e = d->ev; } } while (0)

	while (np < stop) {
		uint64_t w = mttd__ld15(p, np), q, v, raw = 0;
		const struct mttd__opd *o;
		unsigned int kind, tsn = 0;

		if (!(w & 0xf)) {
			/* NULL nibbles: skip the run (at most 15 at a time) */
			uint64_t k = (w << 4) ? (unsigned int)__builtin_ctzll(w) >> 2 : 15;

			/* unchecked, the margin keeps the run inside */
			if (checked && k > valid - np)
				k = valid - np;
			d->st.nulls += k;
			if (unlikely(d->flags & MTTD_STP_NULLS)) {
				SAVE();
				emit_nulls(d, base + np, k);
				LOAD();
			}
			np += k;
			last_n = 0;
			continue;
		}
		if (fused && !checked && ((w & 0xf) == 1 || (w & 0xf) == 3)) {
			/* M8, C8: the message layer only needs the channel */
			unsigned int v8 = (unsigned int)(w & 0xf0) |
					  (unsigned int)((w >> 8) & 0xf);

			if ((w & 0xf) == 1)
				mc = MC(v8, 0);
			else
				mc = MC(MC_MASTER(mc),
					(MC_CHANNEL(mc) & 0xff00) | v8);
			last_v = v8;
			last_n = 2;
			npk++;
			np += 3;
			continue;
		}
		if (fused && !checked && IS_PLAIN_DATA(w & 0xf)) {
			/*
			 * Fused: a run of plain data packets appended to the
			 * message open on the channel; the packet that would
			 * not fit, or the first one of a message, takes the
			 * general path below.
			 */
			struct mttd__slot *s = mttd__msg_slot(d->msg, MC_KEY(mc));

			if (s) {
				uint64_t q = data_run(s, p, np, stop, &last_v,
						      &last_n, &npk);

				if (q != np) {
					np = q;
					/* the FLAG that usually ends it */
					if (np < stop &&
					    (mttd__ld15(p, np) & 0xff) == 0xef) {
						mttd__msg_flag(d->msg, MC_KEY(mc));
						npk++;
						np += 2;
						last_v = 0;
						last_n = 0;
					}
					continue;
				}
			}
		}
		if (!fused && !checked && (w & 0xf) == 7) {
			/*
			 * A run of D64 packets, the bulk of a message: the
			 * next packet is 17 nibbles on whatever this one
			 * holds, so the loads of a run do not wait for each
			 * other.  Same events as the general path below.
			 */
			const struct mttd__opd *o7 = &mttd__op1[7];
			uint64_t v;

			do {
				v = mttd__nibrev(mttd__ld16(p, np + 1));
				memcpy(&e->type, o7, 4);
				memcpy(&e->master, &mc, 4);
				e->nib = base + np;
				e->ts = ts;
				e->value = v;
				e->tsn = 0;
				e->aux = 0;
				np += 17;
				COMMIT();
			} while (np < stop && mttd__nib(p, np) == 7);
			last_v = v;
			last_n = 16;
			continue;
		}
		o = &mttd__op1[w & 0xff];
		if (unlikely((o->kf & K_MASK) == K_ESC))
			o = &mttd__op2[(w >> 8) & 0xff];
		kind = o->kf & K_MASK;
		if (unlikely(kind >= K_SLOW)) {
			int r;

			SAVE();
			r = mttd__slow(d, p, base, &np, valid, checked, o);
			LOAD();
			if (r == SLOW_DONE)
				continue;
			if (r == SLOW_MORE)
				*more = 1;
			break;
		}

		q = np + o->hdr;
		v = (mttd__nibrev(mttd__ld16(p, q)) >> o->vshift) &
		    (uint64_t)(int64_t)(int8_t)o->vmask;
		q += o->pay;
		if (o->kf & KF_TS) {
			if (unlikely(!mttd__ts_field(p, &q, &tsn, &raw))) {
				/* a real nibble: padding is zeros */
				SAVE();
				mttd__desync(d, base + np, MTTD_ERR_TS_LEN);
				LOAD();
				break;
			}
			if (checked && q > valid) {
				*more = 1;
				break;
			}
			ts = mttd__ts_merge(ts, raw, tsn, d->version);
			last_v = raw;
			last_n = tsn;
		} else {
			if (checked && q > valid) {
				*more = 1;
				break;
			}
			last_v = v;
			last_n = o->pay;
		}

		if (fused && (kind == K_MASTER || kind == K_C8 ||
			      kind == K_C16 || kind == K_OTHER)) {
			/* the message layer has nothing to do with these */
			if (kind == K_MASTER)
				mc = MC((unsigned int)v, 0);
			else if (kind == K_C8)
				mc = MC(MC_MASTER(mc), (MC_CHANNEL(mc) & 0xff00) |
					(unsigned int)v);
			else if (kind == K_C16)
				mc = MC(MC_MASTER(mc), (unsigned int)v);
			npk++;
			np = q;
			continue;
		}
		if (fused && kind == K_DATA) {
			mttd__msg_data(d->msg, MC_KEY(mc), base + np, ts,
				       o->flags, v, o->pay > 1 ? o->pay / 2u : 1u);
			npk++;
			np = q;
			continue;
		}
		if (fused && kind == K_FLAG) {
			mttd__msg_flag(d->msg, MC_KEY(mc));
			npk++;
			np = q;
			continue;
		}
		memcpy(&e->type, o, 4);		/* type, op, nibbles, flags */
		if (likely(kind == K_DATA)) {
			memcpy(&e->master, &mc, 4);	/* master, channel */
		} else {
			switch (kind) {
			case K_MASTER:
				mc = MC((unsigned int)v, 0);
				break;
			case K_C8:
				mc = MC(MC_MASTER(mc), (MC_CHANNEL(mc) & 0xff00) |
					(unsigned int)v);
				break;
			case K_C16:
				mc = MC(MC_MASTER(mc), (unsigned int)v);
				break;
			case K_VERSION:
				mc = 0;
				break;
			default:
				break;
			}
			memcpy(&e->master, &mc, 4);
			if (kind == K_MERR)
				mc = MC(MC_MASTER(mc), 0);
			else if (kind == K_GERR)
				mc = 0;
		}
		e->nib = base + np;
		e->ts = ts;
		e->value = v;
		e->tsn = (uint8_t)tsn;
		e->aux = 0;
		np = q;
		COMMIT();
		if (unlikely(kind == K_VERSION)) {
			if (v >= 2 && v <= 4) {
				d->version = (uint8_t)v;
				continue;
			}
			SAVE();
			mttd__desync(d, base + np, MTTD_ERR_VERSION);
			LOAD();
			break;
		}
	}
	SAVE();
	return np;
#undef SAVE
#undef LOAD
#undef COMMIT
}

static inline __attribute__((always_inline)) uint64_t
run(struct mttd_stp *d, const uint8_t *p, uint64_t base, uint64_t np,
    uint64_t stop, uint64_t valid, const int checked)
{
	const int fused = d->msg != NULL;

	while (np < stop) {
		int more = 0;

		if (d->state != ST_SYNCED) {
			np = mttd__scan(d, p, base, np, stop);
			continue;
		}
		if (fused)
			np = packets(d, p, base, np, stop, valid, checked, 1,
				     &more);
		else
			np = packets(d, p, base, np, stop, valid, checked, 0,
				     &more);
		if (more)
			break;
	}
	return np;
}

uint64_t mttd__run_fast(struct mttd_stp *d, const uint8_t *p, uint64_t base,
			uint64_t np, uint64_t stop, uint64_t valid)
{
	return run(d, p, base, np, stop, valid, 0);
}

uint64_t mttd__run_checked(struct mttd_stp *d, const uint8_t *p,
			   uint64_t base, uint64_t np, uint64_t stop,
			   uint64_t valid)
{
	return run(d, p, base, np, stop, valid, 1);
}
