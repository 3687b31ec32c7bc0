// SPDX-License-Identifier: GPL-2.0
/*
 * mprof_target.c - a program profiled over a pty by tests/host/mprof.t:
 * built with -finstrument-functions and libmprofdev, it opens a pty
 * pair, writes the slave's path to the file argv[1] names (for
 * mttprofile to open), answers the host on the master, and once the
 * host has started profiling makes a fixed set of calls:
 *   work x1 -> mid x3 -> leaf x6;  work -> rec x4 (recursion);
 *   work -> leaf x1
 * so the profile must hold work 1, mid 3, leaf 7, rec 4 (15 records).
 * It exits when the host has stopped profiling and closed the line.  argv[2], if given, names a
 * file that receives "name=link-time-address" lines for the test.
 * With argv[3] = "burst" the device keeps records until STOP in a ring
 * of 4 (so 4 are sent and 11 counted as overflows), and the program
 * creates the file argv[1].done once its calls are made.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mprofdev/mprofdev.h"

#ifdef __clang__
#define NOINL __attribute__((noinline))
#else
#define NOINL __attribute__((noinline, noclone))
#endif

static volatile int sink;

/*
 * Spin until the clock moved on by 3 us, so every leaf call has a self
 * time of at least one tick of the device's microsecond timer (a
 * profile of zero-length calls has empty folded stacks).  Not
 * instrumented: it must not add records.
 */
__attribute__((no_instrument_function)) static inline void spin_3us(void)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 3000);
}

NOINL static void leaf(int i)
{
	spin_3us();
	sink += i;
}

NOINL static void mid(int n)
{
	int i;

	for (i = 0; i < n; i++)
		leaf(i);
}

NOINL static int rec(int n)
{
	return n ? rec(n - 1) + 1 : 0;
}

NOINL static void work(void)
{
	int i;

	for (i = 0; i < 3; i++)
		mid(2);
	sink += rec(3);
	leaf(9);
}

int main(int argc, char **argv)
{
	struct mprofdev_config cfg = { .fw_version = "test-1.0",
				       .mcu_clock_hz = 1000 };
	struct mprofdev *d;
	char tmp[4096];
	FILE *f;
	int m, err;

	int burst = argc > 3 && !strcmp(argv[3], "burst");

	if (argc < 2)
		return 2;
	if (burst) {
		cfg.burst = 1;
		cfg.ring_order = 2;
	}
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m) || !ptsname(m)) {
		perror("pty");
		return 1;
	}
	cfg.fd = m;
	d = mprofdev_start(&cfg, &err);
	if (!d) {
		fprintf(stderr, "mprofdev_start: %s\n", strerror(err));
		return 1;
	}
	if (argc > 2 && argv[2][0]) {
		f = fopen(argv[2], "w");
		if (!f)
			return 1;
		fprintf(f, "work=0x%08x\nmid=0x%08x\nleaf=0x%08x\nrec=0x%08x\n",
			mprofdev_addr((void *)work), mprofdev_addr((void *)mid),
			mprofdev_addr((void *)leaf), mprofdev_addr((void *)rec));
		fclose(f);
	}
	/* the path appears whole: written aside, then renamed */
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%s\n", ptsname(m)) < 0 || fclose(f) ||
	    rename(tmp, argv[1]))
		return 1;
	if (mprofdev_wait(d, 1))
		return 1;
	work();
	if (burst) {
		snprintf(tmp, sizeof(tmp), "%s.done", argv[1]);
		f = fopen(tmp, "w");
		if (!f || fclose(f))
			return 1;
	} else {
		mprofdev_flush(d);
	}
	if (mprofdev_wait(d, 0) || mprofdev_wait_hangup(d))
		return 1;
	mprofdev_stop(d);
	close(m);
	return 0;
}
