/* SPDX-License-Identifier: GPL-2.0 */
/*
 * alt_bench_tp.h - the LTTng-UST tracepoint provider of alt_bench_lttng
 * (alt_bench.c built with -DALT_LTTNG, by `make -C tests bench-lttng`
 * only): one event, altbench:event, whose one field is the payload as a
 * sequence of bytes.  Read only when ALT_LTTNG is defined.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER altbench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./alt_bench_tp.h"

#if !defined(ALT_BENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define ALT_BENCH_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(altbench, event,
	LTTNG_UST_TP_ARGS(const uint8_t *, buf, unsigned int, len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(uint8_t, data, buf, unsigned int, len)
	)
)

#endif /* ALT_BENCH_TP_H */

#include <lttng/tracepoint-event.h>
