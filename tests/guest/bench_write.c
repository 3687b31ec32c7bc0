// SPDX-License-Identifier: GPL-2.0
/*
 * bench_write: write-path benchmark, write(2) -> STM class -> protocol ->
 * STM device, from one or more threads, each on its own file descriptor
 * (so its own channel) and pinned to its own CPU.
 *
 *   bench_write -d DEV -i ID -s SIZE -n COUNT [-P THREADS] [-R SINK]
 *               [-D SINK] [-r RUNS] [-l LABEL]
 *
 *   -d DEV      class char device (/dev/swstm.0, /dev/dummy_stm.0)
 *   -i ID       policy id for STP_POLICY_ID_SET
 *   -s SIZE     message size in bytes, 1..4096 (a write of 4096 bytes
 *               sends 4095: the class's limit, upstream's and ours)
 *   -n COUNT    messages per thread
 *   -P THREADS  writer threads, thread i pinned to CPU i (default 1)
 *   -R SINK     also drain SINK from a reader thread while writing
 *   -D SINK     after each run, drain SINK and time the encoder
 *   -r RUNS     repeat the run, report the fastest (default 3)
 *   -l LABEL    label for the output line
 *
 * Prints one line: label, size, threads, messages/s over all threads,
 * ns per message per thread, and with -R/-D the reader's figures (of
 * the fastest run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

#define MAX_THREADS	16
#define READ_CHUNK	(256 * 1024)

struct writer {
	pthread_t thread;
	int fd, cpu;
	unsigned long count;
	size_t size;
	ssize_t expect;
	int err;
};

static pthread_barrier_t start_line;
static volatile int writers_done;
static unsigned long long reader_bytes;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *writer_run(void *arg)
{
	struct writer *w = arg;
	unsigned char buf[4096];
	unsigned long k;

	memset(buf, 'x', sizeof(buf));
	pin(w->cpu);
	pthread_barrier_wait(&start_line);
	for (k = 0; k < w->count; k++) {
		if (write(w->fd, buf, w->size) != w->expect) {
			w->err = errno ? errno : EIO;
			break;
		}
	}
	return NULL;
}

/* reader thread: drain @arg (the sink's fd) until the writers are done */
static void *reader_run(void *arg)
{
	int fd = *(int *)arg;
	char *buf = malloc(READ_CHUNK);

	if (!buf)
		return NULL;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 50) <= 0) {
			if (writers_done)
				break;
			continue;
		}
		n = read(fd, buf, READ_CHUNK);
		if (n > 0)
			reader_bytes += (unsigned long long)n;
	}
	free(buf);
	return NULL;
}

static int open_channel(const char *dev, const char *id)
{
	size_t len = strlen(id) + 1;
	struct stp_policy_id *pid = calloc(1, sizeof(*pid) + len);
	int fd = open(dev, O_RDWR);

	if (fd < 0 || !pid) {
		perror(dev);
		exit(1);
	}
	pid->size = (uint32_t)(sizeof(*pid) + len);
	pid->width = 1;
	memcpy(pid->id, id, len);
	if (ioctl(fd, STP_POLICY_ID_SET, pid)) {
		perror("STP_POLICY_ID_SET");
		exit(1);
	}
	free(pid);
	return fd;
}

/* drain @sink with O_NONBLOCK reads; returns bytes, *ns the time taken */
static unsigned long long drain(const char *sink, unsigned long long *ns)
{
	unsigned long long total = 0, t0;
	char *buf = malloc(READ_CHUNK);
	int fd = open(sink, O_RDONLY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0 || !buf) {
		perror(sink);
		exit(1);
	}
	t0 = now_ns();
	while ((n = read(fd, buf, READ_CHUNK)) > 0)
		total += (unsigned long long)n;
	*ns = now_ns() - t0;
	close(fd);
	free(buf);
	return total;
}

struct result {
	unsigned long long ns;		/* writers' wall time */
	unsigned long long rbytes;	/* read by the -R reader */
	unsigned long long dbytes, dns;	/* drained after the run (-D) */
};

/* One run of @nthreads writers (and the -R reader); 0 or -1 on error. */
static int run(const char *dev, const char *id, int nthreads,
	       unsigned long count, size_t size, const char *rsink,
	       const char *dsink, struct result *res)
{
	struct writer w[MAX_THREADS];
	unsigned long long t0, t1;
	pthread_t reader;
	int i, rfd = -1;

	memset(w, 0, sizeof(w));
	for (i = 0; i < nthreads; i++) {
		w[i].fd = open_channel(dev, id);
		w[i].cpu = i;
		w[i].count = count;
		w[i].size = size;
		/* the class takes at most PAGE_SIZE - 1 bytes a write */
		w[i].expect = (ssize_t)(size < 4096 ? size : 4095);
	}
	writers_done = 0;
	reader_bytes = 0;
	if (rsink) {
		rfd = open(rsink, O_RDONLY);
		if (rfd < 0) {
			perror(rsink);
			return -1;
		}
		pthread_create(&reader, NULL, reader_run, &rfd);
	}

	pthread_barrier_init(&start_line, NULL, (unsigned int)nthreads + 1);
	for (i = 0; i < nthreads; i++)
		pthread_create(&w[i].thread, NULL, writer_run, &w[i]);
	pthread_barrier_wait(&start_line);
	t0 = now_ns();
	for (i = 0; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);
	t1 = now_ns();
	writers_done = 1;
	pthread_barrier_destroy(&start_line);
	if (rsink) {
		pthread_join(reader, NULL);
		close(rfd);
	}
	for (i = 0; i < nthreads; i++) {
		close(w[i].fd);
		if (w[i].err) {
			fprintf(stderr, "write: %s\n", strerror(w[i].err));
			return -1;
		}
	}
	res->ns = t1 - t0;
	res->rbytes = reader_bytes;
	res->dbytes = dsink ? drain(dsink, &res->dns) : 0;
	if (!dsink)
		res->dns = 0;
	return 0;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *id = "bench", *rsink = NULL, *dsink = NULL;
	const char *label = "bench";
	unsigned long count = 100000;
	unsigned long long msgs;
	struct result best, res;
	size_t size = 16;
	int opt, i, nthreads = 1, runs = 3;
	double secs;

	while ((opt = getopt(argc, argv, "d:i:s:n:P:R:D:r:l:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'i': id = optarg; break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 'P': nthreads = atoi(optarg); break;
		case 'R': rsink = optarg; break;
		case 'D': dsink = optarg; break;
		case 'r': runs = atoi(optarg); break;
		case 'l': label = optarg; break;
		default: return 2;
		}
	}
	if (!dev || !size || size > 4096 || nthreads < 1 ||
	    nthreads > MAX_THREADS || runs < 1) {
		fprintf(stderr, "usage: see the source\n");
		return 2;
	}

	memset(&best, 0, sizeof(best));
	for (i = 0; i < runs; i++) {
		if (run(dev, id, nthreads, count, size, rsink, dsink, &res))
			return 1;
		if (!i || res.ns < best.ns)
			best = res;
	}

	msgs = (unsigned long long)count * (unsigned long long)nthreads;
	secs = (double)best.ns / 1e9;
	printf("%-10s %5zu B  %d CPU%s  %10.0f msg/s  %8.0f ns/msg",
	       label, size, nthreads, nthreads > 1 ? "s" : " ",
	       (double)msgs / secs, (double)best.ns * nthreads / (double)msgs);
	if (rsink)
		printf("  reader on: %.1f MB/s STP read during the run",
		       (double)best.rbytes / secs / 1e6);
	if (dsink && best.dns)
		printf("  drain: %.1f MB/s STP",
		       (double)best.dbytes * 1e3 / (double)best.dns);
	printf("\n");
	return 0;
}
