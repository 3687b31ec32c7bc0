/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mprofdev.h - libmprofdev, the device half of MiniProfiler for a Linux
 * program (a microcontroller's firmware: mprofdev_fw.h): compile the code to
 * profile with -finstrument-functions, link libmprofdev.a (built
 * without it) and -lpthread, and call mprofdev_start() with the fd of
 * the serial line (a tty, a pty, a socket: any fd).  A writer thread
 * then answers the host's commands (GET_METADATA, START, STOP,
 * GET_STATUS, RESET_BUFFERS, SET_CONFIG, TIME_SYNC) and streams PROFILE_DATA
 * while profiling; the instrumentation hooks put one 14-byte record per
 * returning call into a lock-free ring buffer (a full ring counts an
 * overflow and drops the record).
 *
 * One instance at a time (the hooks find it through one process-wide
 * pointer; the only global state, as the compiler's hooks take no
 * context).  Calls are recorded from every thread; the protocol has no
 * thread id, so profile one thread at a time for a meaningful tree.
 */
#ifndef MPROFDEV_H
#define MPROFDEV_H

#include <stdint.h>

struct mprofdev_config {
	int fd;			/* read commands from, write responses to */
	const char *fw_version;	/* METADATA fw_version (15 chars kept) */
	uint32_t mcu_clock_hz;	/* METADATA mcu_clock_hz (0: 0) */
	uint32_t build_id;	/* 0: CRC32 of /proc/self/exe's .text */
	unsigned int ring_order;	/* ring of 2^order records (0: 14) */
	unsigned int records_per_packet;	/* 0: 20, at most 4680 */
	int burst;		/* keep records in the ring until STOP
				 * (a line too slow for the call rate): a
				 * full ring drops the newest */
};

struct mprofdev;

/* Start the writer thread; NULL and *err (an errno value) on failure
 * (EBUSY: an instance is running) */
struct mprofdev *mprofdev_start(const struct mprofdev_config *cfg, int *err);
/* Block until the host has started (on = 1) or stopped (on = 0)
 * profiling; 0, or -1 if the writer thread ended (fd closed or error) */
int mprofdev_wait(struct mprofdev *d, int on);
/* Block until the host, after sending a command, has hung up (closed
 * the line: EOF, EIO or POLLHUP on the fd); 0, or -1 as above */
int mprofdev_wait_hangup(struct mprofdev *d);
/* Block until every record taken so far has been written to the fd
 * (in burst mode: until STOP has sent them) */
void mprofdev_flush(struct mprofdev *d);
/* Stop the writer thread and free the instance (records not yet sent
 * are dropped); the fd is not closed */
void mprofdev_stop(struct mprofdev *d);
/* The link-time address of a function the hooks report for fn: fn
 * minus the load bias of the object holding it */
uint32_t mprofdev_addr(const void *fn);

#endif
