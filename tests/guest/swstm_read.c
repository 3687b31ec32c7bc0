// SPDX-License-Identifier: GPL-2.0
/*
 * swstm_read: read the swstm sink in the ways the guest tests need.
 *
 *   swstm_read drain [-d SINK] [-o FILE] [-b BUFSZ] [-i IDLE_MS] [-N]
 *                    [-B] [-g STOP]
 *       read until nothing arrived for IDLE_MS (default 500), waiting in
 *       poll(); -N: O_NONBLOCK reads until EAGAIN instead; -g: read
 *       until STOP exists (at most 600 s), then until EAGAIN.  -B (with
 *       -g): wait in a blocking read() instead of poll(), with no time
 *       limit: once STOP exists, it takes a write to wake the reader.
 *       Appends to FILE.  Prints "OK" and "bytes=N".
 *   swstm_read eagain [-d SINK]
 *       O_NONBLOCK open and read: prints the errno name (or "DATA").
 *   swstm_read open [-d SINK]
 *       open and close: prints "OK" or the errno name.
 *   swstm_read seek [-d SINK]
 *       lseek(fd, 0, SEEK_SET): prints "OK" or the errno name.
 *   swstm_read hold [-d SINK] [-r READY] [-g STOP] [-s SECS]
 *       open, create READY, keep the sink open until STOP exists (at
 *       most SECS, default 60), close.  Prints "OK" or the errno name.
 *   swstm_read storm [-d SINK] [-t THREADS] [-r READY] -g STOP
 *       open with O_NONBLOCK and read from THREADS threads (default 8)
 *       sharing the file, thread i pinned to CPU i modulo the CPU count:
 *       even ones read() in a loop (EAGAIN mostly), odd ones poll() for
 *       at most 1 ms, then read(); every EAGAIN and every poll() may ask
 *       CPUs to store their staged packets.  Until STOP exists (at most
 *       600 s); what is read is thrown away.  Prints "OK", "bytes=N".
 *   swstm_read block [-d SINK] [-m read|poll|select|epoll] [-r READY]
 *                    [-o FILE] [-s SECS]
 *       open, create READY, then wait for data in read(), poll(),
 *       select() or epoll_wait() (at most SECS, default 30); append what
 *       arrives to FILE.  Prints "OK" and "bytes=N", or "TIMEOUT".
 *
 * SINK defaults to /dev/swstm.0-sink.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

static const char *sink = "/dev/swstm.0-sink";
static const char *outfile, *ready, *stop;
static size_t bufsz = 65536;
static int idle_ms = 500, secs = -1, nonblock, blocking;
static const char *method = "read";

static int fail(const char *what)
{
	const char *name = strerrorname_np(errno);

	printf("%s\n", name ? name : "EUNKNOWN");
	fprintf(stderr, "swstm_read: %s: %s\n", what, strerror(errno));
	return 1;
}

static void touch(const char *path)
{
	int fd;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
}

static int open_out(void)
{
	if (!outfile)
		return -1;
	return open(outfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
}

static int save(int out, const char *buf, ssize_t n)
{
	while (out >= 0 && n > 0) {
		ssize_t w = write(out, buf, (size_t)n);

		if (w < 0)
			return -1;
		buf += w;
		n -= w;
	}
	return 0;
}

static int do_drain(void)
{
	char *buf = malloc(bufsz);
	unsigned long long total = 0;
	int fd, out, waits = 0;

	if (!buf)
		return fail("malloc");
	fd = open(sink, O_RDONLY | (nonblock ? O_NONBLOCK : 0));
	if (fd < 0)
		return fail(sink);
	out = open_out();
	if (outfile && out < 0)
		return fail(outfile);
	for (;;) {
		ssize_t n;

		if (blocking && !nonblock && !access(stop, F_OK)) {
			/* stopped: take what is left, then end */
			nonblock = 1;
			fcntl(fd, F_SETFL, O_NONBLOCK);
		} else if (!nonblock && !blocking) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			int r = poll(&p, 1, stop ? 100 : idle_ms);

			if (r < 0)
				return fail("poll");
			if (!r && stop && access(stop, F_OK) &&
			    ++waits < 6000)
				continue;
			if (!r && stop) {
				/* stopped: take what is left, then end */
				nonblock = 1;
				fcntl(fd, F_SETFL, O_NONBLOCK);
			} else if (!r) {
				break;
			}
		}
		n = read(fd, buf, bufsz);
		if (n < 0 && errno == EAGAIN && nonblock)
			break;
		if (n < 0)
			return fail("read");
		if (!n) {
			errno = ENODATA;
			return fail("read returned 0");
		}
		if (save(out, buf, n))
			return fail(outfile);
		total += (unsigned long long)n;
	}
	printf("OK\nbytes=%llu\n", total);
	return 0;
}

struct storm {
	pthread_t	tid;
	int		fd;
	int		idx;
	int		err;
	unsigned long long bytes;
};

static void *storm_thread(void *arg)
{
	struct storm *t = arg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char buf[4096];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t->idx % (ncpu > 0 ? ncpu : 1), &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (access(stop, F_OK)) {
		ssize_t n;

		if (t->idx & 1) {
			struct pollfd p = { .fd = t->fd, .events = POLLIN };

			if (poll(&p, 1, 1) < 0 && errno != EINTR) {
				t->err = errno;
				break;
			}
		}
		n = read(t->fd, buf, sizeof(buf));
		if (n > 0)
			t->bytes += (unsigned long long)n;
		else if (!n)
			t->err = ENODATA;
		else if (errno != EAGAIN && errno != EINTR)
			t->err = errno;
		if (t->err)
			break;
	}
	return NULL;
}

static int do_storm(int nthreads)
{
	unsigned long long total = 0;
	struct storm *t;
	int fd, i, err = 0;

	if (!stop || nthreads < 1) {
		errno = EINVAL;
		return fail("storm needs -g STOP and -t > 0");
	}
	t = calloc((size_t)nthreads, sizeof(*t));
	if (!t)
		return fail("calloc");
	fd = open(sink, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fail(sink);
	for (i = 0; i < nthreads; i++) {
		t[i].fd = fd;
		t[i].idx = i;
		errno = pthread_create(&t[i].tid, NULL, storm_thread, &t[i]);
		if (errno)
			return fail("pthread_create");
	}
	touch(ready);
	for (i = 0; i < nthreads; i++) {
		pthread_join(t[i].tid, NULL);
		total += t[i].bytes;
		if (t[i].err && !err)
			err = t[i].err;
	}
	close(fd);
	free(t);
	if (err) {
		errno = err;
		return fail("storm read");
	}
	printf("OK\nbytes=%llu\n", total);
	return 0;
}

static int do_eagain(void)
{
	char buf[64];
	int fd = open(sink, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return fail(sink);
	if (read(fd, buf, sizeof(buf)) < 0)
		return fail("read");
	printf("DATA\n");
	return 1;
}

static int do_open(void)
{
	int fd = open(sink, O_RDONLY);

	if (fd < 0)
		return fail(sink);
	close(fd);
	printf("OK\n");
	return 0;
}

static int do_seek(void)
{
	int fd = open(sink, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return fail(sink);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return fail("lseek");
	close(fd);
	printf("OK\n");
	return 0;
}

static int do_hold(void)
{
	int fd = open(sink, O_RDONLY), i;

	if (fd < 0) {
		touch(ready);
		return fail(sink);
	}
	touch(ready);
	for (i = 0; i < (secs < 0 ? 60 : secs) * 100; i++) {
		if (stop && !access(stop, F_OK))
			break;
		usleep(10000);
	}
	close(fd);
	printf("OK\n");
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static int do_block(void)
{
	char *buf = malloc(bufsz);
	int fd, out, r = 1, tmo = secs < 0 ? 30 : secs;
	struct sigaction sa;
	ssize_t n;

	if (!buf)
		return fail("malloc");
	fd = open(sink, O_RDONLY);
	if (fd < 0)
		return fail(sink);
	out = open_out();
	if (outfile && out < 0)
		return fail(outfile);
	touch(ready);

	if (!strcmp(method, "read")) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;	/* no SA_RESTART: read gets EINTR */
		sigaction(SIGALRM, &sa, NULL);
		alarm((unsigned int)tmo);
	} else if (!strcmp(method, "poll")) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		r = poll(&p, 1, tmo * 1000);
	} else if (!strcmp(method, "select")) {
		struct timeval tv = { .tv_sec = tmo };
		fd_set set;

		FD_ZERO(&set);
		FD_SET(fd, &set);
		r = select(fd + 1, &set, NULL, NULL, &tv);
	} else if (!strcmp(method, "epoll")) {
		struct epoll_event ev = { .events = EPOLLIN };
		int ep = epoll_create1(0);

		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			return fail("epoll");
		r = epoll_wait(ep, &ev, 1, tmo * 1000);
	} else {
		fprintf(stderr, "unknown method %s\n", method);
		return 2;
	}
	if (r < 0)
		return fail(method);
	if (!r) {
		printf("TIMEOUT\n");
		return 1;
	}
	n = read(fd, buf, bufsz);
	if (n < 0 && errno == EINTR) {
		printf("TIMEOUT\n");
		return 1;
	}
	if (n < 0)
		return fail("read");
	if (save(out, buf, n))
		return fail(outfile);
	printf("OK\nbytes=%zd\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd;
	int opt, nthreads = 8;

	if (argc < 2) {
		fprintf(stderr, "usage: swstm_read drain|eagain|open|seek|hold|block|storm [opts]\n");
		return 2;
	}
	cmd = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "d:o:b:i:NBr:g:s:m:t:")) != -1) {
		switch (opt) {
		case 'd': sink = optarg; break;
		case 'o': outfile = optarg; break;
		case 'b': bufsz = strtoul(optarg, NULL, 0); break;
		case 'i': idle_ms = atoi(optarg); break;
		case 'N': nonblock = 1; break;
		case 'B': blocking = 1; break;
		case 'r': ready = optarg; break;
		case 'g': stop = optarg; break;
		case 's': secs = atoi(optarg); break;
		case 'm': method = optarg; break;
		case 't': nthreads = atoi(optarg); break;
		default: return 2;
		}
	}
	if (!bufsz)
		bufsz = 1;
	if (blocking && !stop) {
		fprintf(stderr, "swstm_read: -B needs -g\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "drain"))
		return do_drain();
	if (!strcmp(cmd, "eagain"))
		return do_eagain();
	if (!strcmp(cmd, "open"))
		return do_open();
	if (!strcmp(cmd, "seek"))
		return do_seek();
	if (!strcmp(cmd, "hold"))
		return do_hold();
	if (!strcmp(cmd, "block"))
		return do_block();
	if (!strcmp(cmd, "storm"))
		return do_storm(nthreads);
	fprintf(stderr, "unknown command %s\n", cmd);
	return 2;
}
