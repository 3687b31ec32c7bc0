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
 * Packets from np while np < stop and the decoder stays in sync.  *more is
 * set when a packet does not fit in valid nibbles (checked mode only).
 * The protocol state and the event pointer live in locals; SAVE() writes
 * them back (and counts the packets) before anything else looks at d.
 */
static inline __attribute__((always_inline)) uint64_t
packets(struct mttd_stp *d, const uint8_t *p, uint64_t base, uint64_t np,
	uint64_t stop, uint64_t valid, const int checked, int *more)
{
	uint64_t ts = d->ts, last_v = d->last_v;
	/* master and channel in one register, as an event holds them */
	uint32_t mc = MC(d->master, d->channel);
	unsigned int last_n = d->last_n;
	struct mttd_stp_event *e = d->ev + d->nev;

	/* the events from d->ev + d->nev to e are packets, all counted here */
#define SAVE() do { d->ts = ts; d->last_v = last_v; d->last_n = (uint8_t)last_n; \
		d->master = MC_MASTER(mc); d->channel = MC_CHANNEL(mc); \
		d->st.packets += (uint64_t)(e - (d->ev + d->nev)); \
		d->nev = (uint32_t)(e - d->ev); } while (0)
#define LOAD() do { ts = d->ts; last_v = d->last_v; last_n = d->last_n; \
		mc = MC(d->master, d->channel); \
		e = d->ev + d->nev; } while (0)
#define COMMIT() do { if (unlikely(++e == d->ev + MTTD_BATCH)) { SAVE(); \
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
		if (!checked && (w & 0xf) == 7) {
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
	while (np < stop) {
		int more = 0;

		if (d->state != ST_SYNCED) {
			np = mttd__scan(d, p, base, np, stop);
			continue;
		}
		np = packets(d, p, base, np, stop, valid, checked, &more);
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
