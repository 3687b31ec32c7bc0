/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dev_internal.h - what the parts of libmprofdev share: the instance,
 * the pointer the hooks find it through, the clock, the build id.
 */
#ifndef MPROFDEV_INTERNAL_H
#define MPROFDEV_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "mprofdev/mprofdev.h"
#include "ring.h"

#define NO_INSTR __attribute__((no_instrument_function))

struct mprofdev {
	struct mprofdev_config cfg;
	struct mprof_metadata meta;
	struct ring ring;
	uint64_t t0_us;		/* entry times are relative to this */
	uintptr_t bias;		/* load bias of the main program */
	atomic_int profiling;
	atomic_uint overflows;	/* records dropped: ring full */
	atomic_uint captured;	/* records put in the ring */
	atomic_uint done;	/* records sent or discarded */
	atomic_int quit;
	atomic_int peer;		/* a byte was read: the host is there */
	atomic_int hangup;	/* ... and then the line hung up */
	int wake[2];		/* pipe: mprofdev_stop() wakes the thread */
	pthread_t thread;
	pthread_mutex_t lock;	/* with cond: state changes for waiters */
	pthread_cond_t cond;
	uint8_t cmd[MPROF_CMD_LEN];
	unsigned int cmdlen;
	uint8_t *out;		/* one response being built */
	size_t outcap;
};

/* the running instance, or NULL */
extern _Atomic(struct mprofdev *) mprofdev__active;

uint64_t mprofdev__now_us(void);
/* CRC32 of /proc/self/exe's .text, 0 if it cannot be read */
uint32_t mprofdev__text_crc(void);
/* load bias of the main program */
uintptr_t mprofdev__bias(void);
/* the writer thread */
void *mprofdev__writer(void *arg);

#endif
