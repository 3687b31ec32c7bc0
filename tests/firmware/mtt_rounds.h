/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mtt_rounds.h - the MTT work both test firmwares do (riscv32/firmware.c,
 * stm32f4/mtt.c), which tests/firmware/lib.sh's mtt_rounds decodes:
 * ROUNDS rounds of one mtt_trace of app (UINT32 "count" = round * 100 +
 * level index) and of sensor (INT16 "temp", its negative) at each of
 * seven levels, then one mtt_print of app (INFO, "round i of ROUNDS");
 * mtt_round() is one of those rounds.  Include it after mttfw/mttfw.h.
 */
#ifndef FW_MTT_ROUNDS_H
#define FW_MTT_ROUNDS_H

/* round i (0-based) of rounds */
static inline void mtt_round(mtt_comp_handle_t app, mtt_comp_handle_t sensor,
			     unsigned int i, unsigned int rounds)
{
	static const uint32_t levels[] = {
		MTT_LEVEL_ERROR, MTT_LEVEL_WARNING, MTT_LEVEL_INFO,
		MTT_LEVEL_DEBUG, MTT_LEVEL_API_ENTRY, MTT_LEVEL_API_RETURN,
		MTT_LEVEL_USER0,
	};
	unsigned int l;

	for (l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
		uint32_t v = i * 100 + l;
		int16_t t = (int16_t)-(int)v;

		mtt_trace(app, levels[l], MTT_TRACEITEM_UINT32, &v, "count");
		mtt_trace(sensor, levels[l], MTT_TRACEITEM_INT16, &t, "temp");
	}
	mtt_print(app, MTT_LEVEL_INFO, "round %u of %u", i + 1, rounds);
}

static inline void mtt_rounds(mtt_comp_handle_t app, mtt_comp_handle_t sensor,
			      unsigned int rounds)
{
	unsigned int i;

	for (i = 0; i < rounds; i++)
		mtt_round(app, sensor, i, rounds);
}

#endif
