// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stp_sync.c - finding and checking ASYNC, and losing sync.
 *
 * ASYNC is at least 21 F nibbles followed by a 0 nibble.  No valid packet
 * sequence contains 21 F nibbles in a row (the longest run of Fs that
 * packets can produce is 18), so such a run followed by 0 is an ASYNC
 * wherever it is.
 *
 * ST_HUNT: looking for an ASYNC, before the first one and after an error.
 * ST_FRUN: in sync, an FF opcode was seen: counting the ASYNC's Fs.
 *
 * A packet cut short by a lost or overwritten piece of stream may eat the
 * first Fs of the ASYNC that follows it.  Two things recover from that:
 * an FF run that is too short still counts as an ASYNC when the packet
 * before it ended with enough F nibbles (reported as a DESYNC, "packet
 * overlapping ASYNC", then the ASYNC); and after any other error hunting
 * starts again at the failed packet's first nibble, with the F nibbles
 * that ended the previous packet already counted.
 */
#include "nibble.h"
#include "stp_internal.h"

void mttd__event(struct mttd_stp *d, unsigned int type, unsigned int code,
		 uint64_t nib, uint64_t value)
{
	struct mttd_stp_event *e = mttd__slot(d);

	*e = (struct mttd_stp_event){
		.nib = nib, .value = value, .ts = d->ts,
		.master = d->master, .channel = d->channel,
		.type = (uint8_t)type, .op = (uint8_t)code,
	};
	mttd__commit(d);
}

void mttd__desync(struct mttd_stp *d, uint64_t nib, unsigned int err)
{
	unsigned int t = mttd__tail_f(d->last_v, d->last_n);

	mttd__event(d, MTTD_EV_DESYNC, err, nib, 0);
	d->st.desyncs++;
	d->state = ST_HUNT;
	d->frun = t;
	d->frun_start = nib - t;
	d->hunt_start = nib;
	d->last_n = 0;
}

void mttd__frun_begin(struct mttd_stp *d, uint64_t nib)
{
	d->state = ST_FRUN;
	d->frun = 2;
	d->frun_t = mttd__tail_f(d->last_v, d->last_n);
	d->frun_start = nib;
}

/*
 * The ASYNC whose first F is at nib; the decoder is in sync after it.
 * After a loss of sync (lost) master and channel are unknown: they start
 * again from 0 (the VERSION that normally follows resets them anyway).
 */
static void async(struct mttd_stp *d, uint64_t nib, int lost)
{
	uint64_t skipped = 0;

	if (d->state == ST_HUNT) {
		skipped = nib > d->hunt_start ? nib - d->hunt_start : 0;
		d->st.unsynced_nibbles += skipped;
	}
	if (lost) {
		d->master = 0;
		d->channel = 0;
	}
	d->state = ST_SYNCED;
	d->frun = 0;
	d->last_n = 0;
	d->st.packets++;
	d->st.syncs++;
	*mttd__slot(d) = (struct mttd_stp_event){
		.nib = nib, .value = (skipped + 1) / 2, .ts = d->ts,
		.master = d->master, .channel = d->channel,
		.type = MTTD_EV_PACKET, .op = MTTD_OP_ASYNC,
	};
	mttd__commit(d);
}

uint64_t mttd__scan(struct mttd_stp *d, const uint8_t *p, uint64_t base,
		    uint64_t np, uint64_t stop)
{
	while (np < stop) {
		unsigned int x = mttd__nib(p, np);

		if (x == 0xf) {
			if (!d->frun)
				d->frun_start = base + np;
			if (d->frun < MTTD_FRUN_MAX)
				d->frun++;
			np++;
			continue;
		}
		if (d->state == ST_FRUN) {
			if (x == 0 && d->frun >= MTTD_ASYNC_F) {
				async(d, d->frun_start, 0);
				return np + 1;
			}
			if (x == 0 && d->frun + d->frun_t >= MTTD_ASYNC_F) {
				uint64_t at = d->frun_start - d->frun_t;

				mttd__event(d, MTTD_EV_DESYNC,
					    MTTD_ERR_ASYNC_OVERLAP, at, 0);
				d->st.desyncs++;
				async(d, at, 1);
				return np + 1;
			}
			mttd__event(d, MTTD_EV_DESYNC, MTTD_ERR_ASYNC,
				    d->frun_start, 0);
			d->st.desyncs++;
			d->state = ST_HUNT;
			d->hunt_start = d->frun_start;
			d->frun = 0;
			continue;	/* look at x again, hunting */
		}
		if (x == 0 && d->frun >= MTTD_ASYNC_F) {
			async(d, d->frun_start, 1);
			return np + 1;
		}
		d->frun = 0;
		np++;
	}
	return np;
}
