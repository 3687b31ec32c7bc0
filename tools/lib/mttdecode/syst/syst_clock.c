// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_clock.c - SyS-T clock correlation.  A CLOCK/TRANSPORT_SYNC message
 * gives the SyS-T clock value and frequency at its own STP timestamp;
 * kept per master/channel (one point per channel, the latest), it turns
 * later SyS-T timestamps from that channel into STP time:
 *   ts_stp = stp_sync + (ts - clock_sync) * stp_hz / clock_hz
 * The table is small and fixed; a full neighbourhood overwrites.
 */
#include "syst_internal.h"
#include "wire/wide.h"

#define PROBE 8

static uint64_t key_of(const struct mttd_syst_msg *m)
{
	if (m->flags & MTTD_SYST_F_STP)
		return ((uint64_t)m->master << 16 | m->channel) + 1;
	return (uint64_t)1 << 40;	/* all of a plain stream */
}

static struct mttd__sync *slot(struct mttd_syst *s, uint64_t key,
			       int create)
{
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 40) %
		     SYST_SYNC_SLOTS;
	unsigned int i;

	for (i = 0; i < PROBE; i++) {
		struct mttd__sync *e = &s->sync[(h + i) % SYST_SYNC_SLOTS];

		if (e->key == key)
			return e;
		if (!e->key) {
			if (!create)
				return NULL;
			e->key = key;
			return e;
		}
	}
	if (!create)
		return NULL;
	s->sync[h].key = key;
	return &s->sync[h];
}

void mttd__syst_clock_sync(struct mttd_syst *s, struct mttd_syst_msg *m)
{
	struct mttd__sync *e;

	if (!m->freq)
		return;
	e = slot(s, key_of(m), 1);
	e->clock = m->value;
	e->freq = m->freq;
	e->stp_ts = m->stp_ts;
	e->has_stp = (m->flags & MTTD_SYST_F_STP_TS) != 0;
}

void mttd__syst_clock_apply(struct mttd_syst *s, struct mttd_syst_msg *m)
{
	const struct mttd__sync *e = slot(s, key_of(m), 0);
	uint64_t d;

	if (!e || !e->has_stp)
		return;
	/*
	 * stp_ts + (ts - clock) * stp_hz / freq, the quotient rounded
	 * toward zero, exact (wire/wide.h); nothing when it falls outside
	 * 0..UINT64_MAX
	 */
	if (m->ts >= e->clock) {
		if (wide_mul_div_u64(m->ts - e->clock, s->stp_hz, e->freq, &d) ||
		    d > UINT64_MAX - e->stp_ts)
			return;
		d += e->stp_ts;
	} else {
		if (wide_mul_div_u64(e->clock - m->ts, s->stp_hz, e->freq, &d) ||
		    d > e->stp_ts)
			return;
		d = e->stp_ts - d;
	}
	m->ts_stp = d;
	m->flags |= MTTD_SYST_F_TS_STP;
}
