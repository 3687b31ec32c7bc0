// SPDX-License-Identifier: GPL-2.0
/*
 * swstm_write: write test messages (see swstm_msg.h) through an STM class
 * device, one write(2) per message.
 *
 *   swstm_write [-d DEV] [-i ID] [-w WIDTH] [-t TAG] [-s SIZES] [-n COUNT]
 *               [-f FIRST] [-c CPU] [-r READYFILE] [-g GOFILE] [-T]
 *
 *   -d DEV     class char device (default /dev/swstm.0)
 *   -i ID      STP_POLICY_ID_SET with this policy id (default: none, so
 *              the class looks up the task's comm, then "default")
 *   -w WIDTH   channels to ask for with -i (default 1)
 *   -t TAG     tag character of the messages (default A)
 *   -s SIZES   "N", "A-B" or "A,B,..." (default 16)
 *   -n COUNT   messages to write (default 1)
 *   -f FIRST   sequence number of the first message (default 0)
 *   -c CPU     pin to this CPU first
 *   -r FILE    create FILE once the device is open and set up
 *   -g FILE    then wait (up to 30 s) until FILE exists before writing
 *   -T         also print "t0=NS t1=NS": CLOCK_MONOTONIC before the first
 *              and after the last write
 *
 * When done, prints "OK" (then "master=M channel=C" with -i) or the errno
 * name of the first failing call ("SHORT" for a short write).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/stm.h>

#include "swstm_msg.h"

static int fail(const char *what)
{
	const char *name = strerrorname_np(errno);

	printf("%s\n", name ? name : "EUNKNOWN");
	fprintf(stderr, "swstm_write: %s: %s\n", what, strerror(errno));
	return 1;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int wait_file(const char *path)
{
	int i;

	for (i = 0; i < 30000; i++) {
		if (!access(path, F_OK))
			return 0;
		usleep(1000);
	}
	errno = ETIMEDOUT;
	return -1;
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/swstm.0", *id = NULL, *ready = NULL;
	const char *go = NULL;
	unsigned long count = 1, first = 0, k;
	unsigned int width = 1;
	unsigned char tag = 'A';
	unsigned long long t0, t1;
	struct swstm_sizes sizes;
	unsigned char buf[SWSTM_MAX_MSG];
	int opt, fd, cpu = -1, times = 0;
	unsigned int master = 0, channel = 0;

	swstm_sizes_parse(&sizes, "16");
	while ((opt = getopt(argc, argv, "d:i:w:t:s:n:f:c:r:g:T")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'i': id = optarg; break;
		case 'w': width = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't': tag = (unsigned char)optarg[0]; break;
		case 's':
			if (swstm_sizes_parse(&sizes, optarg)) {
				fprintf(stderr, "bad sizes %s\n", optarg);
				return 2;
			}
			break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 'f': first = strtoul(optarg, NULL, 0); break;
		case 'c': cpu = atoi(optarg); break;
		case 'r': ready = optarg; break;
		case 'g': go = optarg; break;
		case 'T': times = 1; break;
		default:
			fprintf(stderr, "usage: see the source\n");
			return 2;
		}
	}

	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return fail("sched_setaffinity");
	}

	fd = open(dev, O_RDWR);
	if (fd < 0)
		return fail(dev);

	if (id) {
		size_t len = strlen(id) + 1;
		struct stp_policy_id *pid = calloc(1, sizeof(*pid) + len);

		if (!pid)
			return fail("calloc");
		pid->size = (uint32_t)(sizeof(*pid) + len);
		pid->width = (uint16_t)width;
		memcpy(pid->id, id, len);
		if (ioctl(fd, STP_POLICY_ID_SET, pid))
			return fail("STP_POLICY_ID_SET");
		master = pid->master;
		channel = pid->channel;
		free(pid);
	}

	if (ready) {
		int rfd = open(ready, O_WRONLY | O_CREAT, 0644);

		if (rfd >= 0)
			close(rfd);
	}
	if (go && wait_file(go))
		return fail(go);

	t0 = now_ns();
	for (k = first; k < first + count; k++) {
		size_t size = swstm_sizes_get(&sizes, k);
		ssize_t n;

		swstm_msg_fill(buf, size, tag, k);
		n = write(fd, buf, size);
		if (n < 0)
			return fail("write");
		if ((size_t)n != size) {
			printf("SHORT\n");
			fprintf(stderr, "message %lu: wrote %zd of %zu\n",
				k, n, size);
			return 1;
		}
	}
	t1 = now_ns();
	printf("OK\n");
	if (id)
		printf("master=%u channel=%u\n", master, channel);
	if (times)
		printf("t0=%llu t1=%llu\n", t0, t1);
	close(fd);
	return 0;
}
