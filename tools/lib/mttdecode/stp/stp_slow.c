// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stp_slow.c - the STPv2 packets the fast loop hands over: USER(_TS) and
 * TIME(_TS), whose payload length is in the payload, the FF that starts
 * an ASYNC, and reserved opcodes.
 *
 * USER:  F02 (F03 +TS), a nibble c, then c+1 data nibbles.
 * TIME:  F04 (F05 +TS), clock id nibble, format nibble, then the time coded
 *        like a timestamp: a length nibble and that many nibbles.
 */
#include "nibble.h"
#include "stp_internal.h"
#include "stp_ops.h"
#include "stp_ts.h"

int mttd__slow(struct mttd_stp *d, const uint8_t *p, uint64_t base,
	       uint64_t *np, uint64_t valid, int checked,
	       const struct mttd__opd *o)
{
	uint64_t at = *np, q = at + o->hdr, v = 0, raw = 0;
	unsigned int kind = o->kf & K_MASK, n, tsn = 0, aux = 0;
	struct mttd_stp_event *e;

	switch (kind) {
	case K_ASYNC:
		mttd__frun_begin(d, base + at);
		*np = at + 2;
		return SLOW_STATE;
	case K_USER:
		n = mttd__nib(p, q) + 1;
		v = mttd__take(mttd__ld16(p, q + 1), n);
		q += 1 + n;
		break;
	case K_TIME:
		aux = mttd__nib(p, q) << 4 | mttd__nib(p, q + 1);
		q += 2;
		if (!mttd__ts_field(p, &q, &n, &v)) {
			mttd__desync(d, base + at, MTTD_ERR_TS_LEN);
			return SLOW_STATE;
		}
		break;
	default:
		mttd__desync(d, base + at, MTTD_ERR_RESERVED_OP);
		return SLOW_STATE;
	}

	if ((o->kf & KF_TS) && !mttd__ts_field(p, &q, &tsn, &raw)) {
		mttd__desync(d, base + at, MTTD_ERR_TS_LEN);
		return SLOW_STATE;
	}
	if (checked && q > valid)
		return SLOW_MORE;

	if (o->kf & KF_TS) {
		d->ts = mttd__ts_merge(d->ts, raw, tsn, d->version);
		d->last_v = raw;
		d->last_n = (uint8_t)tsn;
	} else {
		d->last_v = v;
		d->last_n = (uint8_t)n;
	}
	e = mttd__slot(d);
	*e = (struct mttd_stp_event){
		.nib = base + at, .value = v, .ts = d->ts,
		.master = d->master, .channel = d->channel,
		.type = MTTD_EV_PACKET, .op = o->op, .nibbles = (uint8_t)n,
		.flags = (o->kf & KF_TS) ? MTTD_PKT_TS : 0,
		.tsn = (uint8_t)tsn, .aux = (uint8_t)aux,
	};
	d->st.packets++;
	*np = q;
	mttd__commit(d);
	return SLOW_DONE;
}
