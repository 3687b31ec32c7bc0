// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hooks.c - the -finstrument-functions hooks: a per-thread stack of
 * entry times (depth counted even while not profiling, so depths are
 * real call depths), and on return one record into the running
 * instance's ring while profiling.  Nothing here blocks or allocates.
 */
#include <time.h>

#include "dev_internal.h"

#define MAX_DEPTH 512

static _Thread_local uint64_t t_entry[MAX_DEPTH];
static _Thread_local unsigned int t_depth;

NO_INSTR uint64_t mprofdev__now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

NO_INSTR void __cyg_profile_func_enter(void *fn, void *site);
NO_INSTR void __cyg_profile_func_exit(void *fn, void *site);

NO_INSTR void __cyg_profile_func_enter(void *fn, void *site)
{
	unsigned int d = t_depth++;

	(void)fn;
	(void)site;
	if (d < MAX_DEPTH)
		t_entry[d] = mprofdev__now_us();
}

NO_INSTR void __cyg_profile_func_exit(void *fn, void *site)
{
	struct mprofdev *dev;
	struct mprof_record r;
	unsigned int d;
	uint64_t now;

	(void)site;
	if (!t_depth)
		return;
	d = --t_depth;
	dev = atomic_load_explicit(&mprofdev__active, memory_order_acquire);
	if (d >= MAX_DEPTH || !dev ||
	    !atomic_load_explicit(&dev->profiling, memory_order_relaxed))
		return;
	now = mprofdev__now_us();
	r.func_addr = (uint32_t)((uintptr_t)fn - dev->bias);
	r.entry_time = (uint32_t)(t_entry[d] - dev->t0_us);
	r.duration_us = (uint32_t)(now - t_entry[d]);
	r.depth = (uint16_t)d;
	if (ring_push(&dev->ring, &r))
		atomic_fetch_add_explicit(&dev->overflows, 1,
					  memory_order_relaxed);
	else
		atomic_fetch_add_explicit(&dev->captured, 1,
					  memory_order_relaxed);
}
