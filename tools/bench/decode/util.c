// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - benchmark helpers: xorshift random numbers, timing, running
 * mttdecode as a child process (CPU time and peak RSS from wait4), the
 * stream as a temporary file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static double clock_s(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

double cpu_now(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

void keep_best(struct best *b, double cpu, double wall)
{
	if (cpu < b->cpu)
		b->cpu = cpu;
	if (wall < b->wall)
		b->wall = wall;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return v[n / 2];
}

void print_rate(const char *name, size_t len, const struct best *b)
{
	printf("%s%7.0f MB/s  (wall clock %5.0f MB/s)", name,
	       (double)len / 1e6 / b->cpu, (double)len / 1e6 / b->wall);
}

int cli_run(const char *exe, const char *file, const char *const *args,
	    struct best *b, long *rss_kb)
{
	const char *argv[16];
	struct rusage ru;
	int n = 0, status;
	double t0 = now();
	pid_t pid;

	argv[n++] = exe;
	while (*args && n < 14)
		argv[n++] = *args++;
	argv[n++] = file;
	argv[n] = NULL;
#ifdef __GLIBC__
	/* Linux carries the RSS a child had before exec (a copy of ours)
	 * into its peak RSS: give freed memory back first */
	malloc_trim(0);
#endif
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	keep_best(b, tv_s(ru.ru_utime) + tv_s(ru.ru_stime), now() - t0);
	*rss_kb = ru.ru_maxrss;
	return 0;
}

int temp_file(const struct stpenc *e, char path[32])
{
	size_t len = stpenc_bytes(e);
	int fd;

	snprintf(path, 32, "/tmp/mttdecode-bench-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, e->buf, len) != (ssize_t)len) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		return -1;
	}
	close(fd);
	return 0;
}
