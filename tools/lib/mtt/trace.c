// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.c - libmtt's trace calls: __mtt_trace (the out-of-line half of
 * mtt_trace), __mtt_print, mtt_data_raw and mtt_trigger.  Each builds one
 * native MTT frame and hands it to the thread's channel whole: one
 * write(), or its stores into the channel's mapped window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal/frame.h"
#include "internal/libmtt.h"

/* Frames up to this size are built on the stack. */
#define STACK_FRAME	512
/* mtt_print's longest text */
#define PRINT_MAX	1024

static mtt_return_t emit(struct mttl_comp *c, struct mttl_rec *r)
{
	uint8_t stack[STACK_FRAME], *buf = stack;
	struct timespec ts;
	size_t n;
	int err, cpu;

	if (mttl_chan_fd(c, NULL) < 0) {
		__atomic_add_fetch(&c->dropped, 1, __ATOMIC_RELAXED);
		return MTT_ERR_CONNECTION;
	}
	cpu = sched_getcpu();
	r->target = cpu < 0 ? MTT_FRAME_TARGET_CPU_MAX : (uint32_t)cpu;
	r->flags |= MTT_FRAME_F_CTXT | MTT_FRAME_F_TS64 | MTT_FRAME_F_LEVEL;
	r->ctx = mttl_tid();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->ts = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	n = mttl_frame_len(r);
	if (n > sizeof(stack)) {
		buf = malloc(n);
		if (!buf) {
			__atomic_add_fetch(&c->dropped, 1, __ATOMIC_RELAXED);
			return MTT_ERR_OTHER;
		}
	}
	mttl_frame_put(buf, r);
	err = mttl_chan_send(c, buf, n);
	if (buf != stack)
		free(buf);
	if (err) {
		__atomic_add_fetch(&c->dropped, 1, __ATOMIC_RELAXED);
		return MTT_ERR_CONNECTION;
	}
	__atomic_add_fetch(&c->sent, 1, __ATOMIC_RELAXED);
	return MTT_ERR_NONE;
}

__attribute__((noinline))
mtt_return_t __mtt_trace(struct mtt_component *comp, uint32_t level,
			 uint32_t type_info, const void *data,
			 const char *hint)
{
	struct mttl_rec r = {
		.cmd = MTT_FRAME_CMD_TRACE,
		.trace_id = (uint32_t)(uintptr_t)__builtin_return_address(0),
		.type_info = type_info,
		.level = level,
		.payload = data,
		.hint = hint,
		.flags = hint ? MTT_FRAME_F_HINT : 0,
	};

	if (!comp || (MTT_TYPE_SIZE(type_info) && !data))
		return MTT_ERR_PARAM;
	r.comp = mttl_comp(comp)->id;
	return emit(mttl_comp(comp), &r);
}

__attribute__((noinline))
mtt_return_t __mtt_print(struct mtt_component *comp, uint32_t level,
			 const char *fmt, ...)
{
	char text[PRINT_MAX];
	struct mttl_rec r = {
		.cmd = MTT_FRAME_CMD_TRACE,
		.trace_id = (uint32_t)(uintptr_t)__builtin_return_address(0),
		.level = level,
		.payload = text,
	};
	va_list ap;
	int n;

	if (!comp || !fmt)
		return MTT_ERR_PARAM;
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		return MTT_ERR_PARAM;
	if ((size_t)n >= sizeof(text))
		n = sizeof(text) - 1;
	r.comp = mttl_comp(comp)->id;
	r.type_info = MTTL_TI_STRING | (uint32_t)n;
	return emit(mttl_comp(comp), &r);
}

mtt_return_t mtt_data_raw(const uint32_t id, const uint32_t level,
			  const uint32_t length, const void *data)
{
	struct mttl_rec r = {
		.cmd = MTT_FRAME_CMD_RAW,
		.comp = id,
		.trace_id = (uint32_t)(uintptr_t)__builtin_return_address(0),
		.type_info = MTTL_TI_BLOB | length,
		.level = level,
		.payload = data,
	};
	struct mttl_comp *c;

	if (length > 0xffffu || (length && !data))
		return MTT_ERR_PARAM;
	if (mttl_lookup_id(id, &c))
		return MTT_ERR_PARAM;
	if (!mtt_level_on(&c->pub, level))
		return MTT_ERR_NONE;
	return emit(c, &r);
}

mtt_return_t mtt_trigger(const mtt_comp_handle_t comp,
			 const mtt_trigger_desc_t *trigger, const void *data,
			 const uint32_t size)
{
	(void)comp;
	(void)trigger;
	(void)data;
	(void)size;
	return MTT_ERR_FN_UNIMPLEMENTED;
}
