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
 *   -P N       write from N threads sharing the one file descriptor (so
 *              the one channel): thread i uses tag TAG+i and runs pinned
 *              to CPU i modulo the CPU count (-c is ignored)
 *   -O         with -P: each thread has a file descriptor of its own (so
 *              its own channels, with -i); prints "TAG master=M
 *              channel=C" for each thread instead of the one line
 *   -r FILE    create FILE once the device is open and set up
 *   -g FILE    then wait (up to 30 s) until FILE exists before writing
 *   -T         also print "t0=NS t1=NS": CLOCK_MONOTONIC before the first
 *              and after the last write
 *   -R PRIO    run as SCHED_FIFO with this priority
 *   -F SLOTS   flow control: never have more than SLOTS slots of the
 *              sink in use.  Before writing, read the sink's "queued"
 *              attribute (-Q) and write only what fits, counting a
 *              message's packets as its slots (never fewer with our
 *              class); when nothing fits, sleep 100 us and look again
 *              (fails with ETIMEDOUT if the sink does not drain for
 *              30 s).  With -P each thread does so on its own, so that
 *              each thread's unread messages never take more than SLOTS:
 *              a sink of THREADS x SLOTS slots never drops theirs
 *   -E N       with -F: count N more slots per message (upstream's
 *              class stores each packet and the FLAG as a record of its
 *              own: packets + 1 slots)
 *   -Q FILE    the sink's queued attribute, for -F (default
 *              /sys/class/misc/swstm.0-sink/queued)
 *
 * When done, prints "OK" (then "master=M channel=C" with -i) or the errno
 * name of the first failing call ("SHORT" for a short write).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

struct writer {
	pthread_t thread;
	int fd, cpu, err;
	unsigned char tag;
	unsigned long first, count;
	const struct swstm_sizes *sizes;
	pthread_barrier_t *start;
	unsigned long slots;	/* -F: most slots in use */
	unsigned long extra;	/* -E: more slots per message */
	const char *queued;	/* -F: the sink's queued attribute */
};

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* STP packets p_basic sends for a SIZE-byte message */
static unsigned long npackets(size_t size)
{
	return size / 8 + !!(size & 4) + !!(size & 2) + !!(size & 1);
}

/*
 * -F: wait until the sink has room for @need more slots; *credit is
 * what may still be written without looking again.  A lone writer's
 * sink only drains while it waits, so what it reads is never more room
 * than there is.  With -P the others fill it too, but "queued" counts
 * at least our own unread slots when we read it and we add at most
 * w->slots minus that: our unread slots never exceed w->slots.
 * Returns 0 or an errno.
 */
static int flow_wait(const struct writer *w, int qfd, unsigned long need,
		     unsigned long *credit)
{
	const struct timespec nap = { 0, 100000 };
	unsigned long q, naps = 0;
	char b[32];
	ssize_t n;

	while (*credit < need) {
		n = pread(qfd, b, sizeof(b) - 1, 0);
		if (n <= 0)
			return n < 0 ? errno : EIO;
		b[n] = 0;
		q = strtoul(b, NULL, 10);
		*credit = q < w->slots ? w->slots - q : 0;
		if (*credit >= need)
			break;
		/* a hang guard only: the reader drains at its own pace */
		if (++naps > 300000)
			return ETIMEDOUT;
		nanosleep(&nap, NULL);
	}
	*credit -= need;
	return 0;
}

/* Write w->count messages; w->err: 0, an errno, or -1 for a short write. */
static void *writer_run(void *arg)
{
	struct writer *w = arg;
	unsigned char buf[SWSTM_MAX_MSG];
	unsigned long k, credit = 0;
	int qfd = -1;

	if (w->cpu >= 0 && pin(w->cpu)) {
		w->err = errno;
		return NULL;
	}
	if (w->slots) {
		qfd = open(w->queued, O_RDONLY);
		if (qfd < 0) {
			w->err = errno;
			return NULL;
		}
	}
	if (w->start)
		pthread_barrier_wait(w->start);
	for (k = w->first; k < w->first + w->count; k++) {
		size_t size = swstm_sizes_get(w->sizes, k);
		ssize_t n;

		if (qfd >= 0) {
			w->err = flow_wait(w, qfd, npackets(size) + w->extra,
					   &credit);
			if (w->err)
				break;
		}
		swstm_msg_fill(buf, size, w->tag, k);
		n = write(w->fd, buf, size);
		if (n < 0) {
			w->err = errno;
			break;
		}
		if ((size_t)n != size) {
			fprintf(stderr, "tag %c message %lu: wrote %zd of %zu\n",
				w->tag, k, n, size);
			w->err = -1;
			break;
		}
	}
	if (qfd >= 0)
		close(qfd);
	return NULL;
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

/*
 * Open @dev and, with @id, ask for @width channels of that policy node;
 * sets *master and *channel.  Returns the fd, or -1 with errno set and
 * *what naming the failing call.
 */
static int open_dev(const char *dev, const char *id, unsigned int width,
		    unsigned int *master, unsigned int *channel,
		    const char **what)
{
	struct stp_policy_id *pid;
	size_t len;
	int fd, err;

	*what = dev;
	fd = open(dev, O_RDWR);
	if (fd < 0 || !id)
		return fd;
	len = strlen(id) + 1;
	pid = calloc(1, sizeof(*pid) + len);
	if (!pid) {
		*what = "calloc";
		goto fail;
	}
	pid->size = (uint32_t)(sizeof(*pid) + len);
	pid->width = (uint16_t)width;
	memcpy(pid->id, id, len);
	if (ioctl(fd, STP_POLICY_ID_SET, pid)) {
		*what = "STP_POLICY_ID_SET";
		free(pid);
		goto fail;
	}
	*master = pid->master;
	*channel = pid->channel;
	free(pid);
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/swstm.0", *id = NULL, *ready = NULL;
	const char *go = NULL, *what;
	const char *queued = "/sys/class/misc/swstm.0-sink/queued";
	unsigned long slots = 0, extra = 0;
	int prio = 0;
	unsigned long count = 1, first = 0;
	unsigned int width = 1, master = 0, channel = 0;
	unsigned char tag = 'A';
	unsigned long long t0, t1;
	struct swstm_sizes sizes;
	struct writer w[64];
	unsigned int wm[64], wc[64];	/* -O: each thread's channel */
	pthread_barrier_t start;
	int opt, fd, i, cpu = -1, times = 0, nthreads = 0, own = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(w, 0, sizeof(w));
	swstm_sizes_parse(&sizes, "16");
	while ((opt = getopt(argc, argv, "d:i:w:t:s:n:f:c:r:g:TP:OR:F:E:Q:")) != -1) {
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
		case 'P': nthreads = atoi(optarg); break;
		case 'O': own = 1; break;
		case 'R': prio = atoi(optarg); break;
		case 'F': slots = strtoul(optarg, NULL, 0); break;
		case 'E': extra = strtoul(optarg, NULL, 0); break;
		case 'Q': queued = optarg; break;
		default:
			fprintf(stderr, "usage: see the source\n");
			return 2;
		}
	}
	if (nthreads < 0 || nthreads > 64 || ncpu < 1)
		return 2;

	if (own && !nthreads) {
		fprintf(stderr, "-O needs -P\n");
		return 2;
	}
	if (!nthreads && cpu >= 0 && pin(cpu))
		return fail("sched_setaffinity");
	if (prio) {
		struct sched_param sp = { .sched_priority = prio };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			return fail("sched_setscheduler");
	}

	fd = open_dev(dev, id, width, &master, &channel, &what);
	if (fd < 0)
		return fail(what);
	wm[0] = master;
	wc[0] = channel;
	for (i = 0; own && i < nthreads; i++) {
		w[i].fd = i ? open_dev(dev, id, width, &wm[i], &wc[i], &what) : fd;
		if (w[i].fd < 0)
			return fail(what);
	}

	if (ready) {
		int rfd = open(ready, O_WRONLY | O_CREAT, 0644);

		if (rfd >= 0)
			close(rfd);
	}
	if (go && wait_file(go))
		return fail(go);

	for (i = 0; i < (nthreads ? nthreads : 1); i++) {
		w[i].fd = own ? w[i].fd : fd;
		w[i].cpu = nthreads ? (int)(i % ncpu) : -1;
		w[i].tag = (unsigned char)(tag + i);
		w[i].first = first;
		w[i].count = count;
		w[i].sizes = &sizes;
		w[i].start = nthreads ? &start : NULL;
		w[i].slots = slots;
		w[i].extra = extra;
		w[i].queued = queued;
	}

	t0 = now_ns();
	if (!nthreads) {
		writer_run(&w[0]);
	} else {
		pthread_barrier_init(&start, NULL, (unsigned int)nthreads);
		for (i = 0; i < nthreads; i++)
			if (pthread_create(&w[i].thread, NULL, writer_run, &w[i]))
				return fail("pthread_create");
		for (i = 0; i < nthreads; i++)
			pthread_join(w[i].thread, NULL);
	}
	t1 = now_ns();

	for (i = 0; i < (nthreads ? nthreads : 1); i++) {
		if (w[i].err < 0) {
			printf("SHORT\n");
			return 1;
		}
		if (w[i].err) {
			errno = w[i].err;
			return fail("write");
		}
	}
	printf("OK\n");
	for (i = 0; own && id && i < nthreads; i++)
		printf("%c master=%u channel=%u\n", tag + i, wm[i], wc[i]);
	if (id && !own)
		printf("master=%u channel=%u\n", master, channel);
	if (times)
		printf("t0=%llu t1=%llu\n", t0, t1);
	for (i = 1; own && i < nthreads; i++)
		close(w[i].fd);
	close(fd);
	return 0;
}
