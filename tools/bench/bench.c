/*
 * bench.c - decoder throughput: builds a large STPv2 stream shaped like
 * the software STM device's output (ASYNC/VERSION/FREQ every 64 KiB,
 * messages of 8..256 bytes on 32 channels of 4 masters: DnTS first, D64
 * body, D32/D16/D8 tail, FLAG; nanosecond timestamps), then prints MB/s
 * for the library alone (packets; packets + messages) and for the
 * mttdecode command (--no-output; text and JSON to /dev/null, with peak
 * RSS).  Figures are printed, not checked.  Throughput is computed from
 * CPU time (user + system) so that a busy machine does not understate
 * what one core does; wall-clock figures are shown alongside.
 *
 * usage: bench [PATH-TO-mttdecode] [MIB]
 *        bench --write FILE [MIB]     (only write the stream to FILE)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mttdecode/mttdecode.h"
#include "stpenc.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
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

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu_now(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* best (lowest) CPU and wall times seen */
struct best {
	double cpu, wall;
};

static void keep_best(struct best *b, double cpu, double wall)
{
	if (cpu < b->cpu)
		b->cpu = cpu;
	if (wall < b->wall)
		b->wall = wall;
}

static void print_rate(const char *name, size_t len, const struct best *b)
{
	printf("%s%7.0f MB/s  (wall clock %5.0f MB/s)", name,
	       (double)len / 1e6 / b->cpu, (double)len / 1e6 / b->wall);
}

static void sync_block(struct stpenc *e)
{
	stpenc_pad(e);
	stpenc_async(e);
	stpenc_packet(e, MTTD_OP_VERSION, 3, 0, 0, 0, 0);
	stpenc_packet(e, MTTD_OP_FREQ, 1000000000, 0, 0, 0, 0);
}

/* one message of len bytes on (m, c) the way the kernel writes it */
static void message(struct stpenc *e, unsigned int len, uint64_t ts)
{
	static const unsigned int dn[4] = {
		MTTD_OP_D8, MTTD_OP_D16, MTTD_OP_D32, MTTD_OP_D64
	};
	static const unsigned int dnts[4] = {
		MTTD_OP_D8TS, MTTD_OP_D16TS, MTTD_OP_D32TS, MTTD_OP_D64TS
	};
	int first = 1;

	while (len) {
		unsigned int k = len >= 8 ? 3 : len >= 4 ? 2 : len >= 2 ? 1 : 0;
		uint64_t v = ((uint64_t)rnd() << 32 | rnd()) &
			     (k == 3 ? ~0ULL : (1ULL << (8u << k)) - 1);

		stpenc_packet(e, first ? dnts[k] : dn[k], v, 0, 0, ts, -1);
		first = 0;
		len -= 1u << k;
	}
	stpenc_packet(e, MTTD_OP_FLAG, 0, 0, 0, 0, 0);
}

static void build(struct stpenc *e, size_t bytes)
{
	uint64_t ts = 1000000, next_sync = 0;
	unsigned int m = 0, c = 0;

	while (stpenc_bytes(e) < bytes && !e->oom) {
		unsigned int nm, nc;

		if (stpenc_bytes(e) >= next_sync) {
			sync_block(e);
			next_sync += 65536;
			m = c = 0x10000;	/* unknown: force M8/C8 */
			e->ts = 0;
		}
		nm = rnd() % 4;
		nc = rnd() % 8;
		if (nm != m) {
			stpenc_packet(e, MTTD_OP_M8, nm, 0, 0, 0, 0);
			m = nm;
			c = 0;
		}
		if (nc != c) {
			stpenc_packet(e, MTTD_OP_C8, nc, 0, 0, 0, 0);
			c = nc;
		}
		ts += 100 + rnd() % 10000;
		message(e, 8 + rnd() % 249, ts);
	}
	stpenc_pad(e);
}

static void noop(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	*(size_t *)ctx += n + ev[n - 1].op;
}

static void lib_run(const uint8_t *buf, size_t len, int with_msg,
		    struct best *b)
{
	size_t sink = 0;
	struct mttd_msgdec *m = mttd_msg_new(NULL);
	struct mttd_stp_config cfg = {
		.fn = with_msg ? mttd_msg_stp_fn : noop,
		.ctx = with_msg ? (void *)m : (void *)&sink,
	};
	struct mttd_stp *d = mttd_stp_new(&cfg);
	const size_t chunk = 1 << 20;
	double w0 = now(), c0 = cpu_now();
	size_t off;

	for (off = 0; off < len; off += chunk)
		mttd_stp_feed(d, buf + off, len - off < chunk ? len - off :
			      chunk);
	mttd_stp_finish(d);
	keep_best(b, cpu_now() - c0, now() - w0);
	mttd_stp_free(d);
	mttd_msg_free(m);
}

static int cli_run(const char *exe, const char *file, const char *const *args,
		   struct best *b, long *rss_kb)
{
	const char *argv[8];
	struct rusage ru;
	int n = 0, status;
	double t0 = now();
	pid_t pid;

	argv[n++] = exe;
	while (*args)
		argv[n++] = *args++;
	argv[n++] = file;
	argv[n] = NULL;
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

static int write_stream(const char *file, const struct stpenc *e)
{
	FILE *f = fopen(file, "wb");
	size_t len = stpenc_bytes(e);

	if (!f || fwrite(e->buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "bench: cannot write %s\n", file);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int wr = argc > 2 && !strcmp(argv[1], "--write");
	const char *exe = argc > 1 ? argv[1 + wr] : NULL;
	size_t mib = argc > 2 + wr ? strtoul(argv[2 + wr], NULL, 0) : 256;
	size_t len;
	struct stpenc e;
	struct best best[2] = { { 1e9, 1e9 }, { 1e9, 1e9 } };
	char path[] = "/tmp/mttdecode-bench-XXXXXX";
	int i, fd;

	stpenc_init(&e, 3);
	build(&e, mib << 20);
	if (e.oom) {
		fprintf(stderr, "bench: out of memory\n");
		return 1;
	}
	if (wr) {
		i = write_stream(exe, &e);
		stpenc_free(&e);
		return i;
	}
	len = stpenc_bytes(&e);
	printf("stream: %.1f MB of STPv2 (messages of 8..256 bytes, "
	       "32 channels)\n", (double)len / 1e6);
	for (i = 0; i < 10; i++)
		lib_run(e.buf, len, i & 1, &best[i & 1]);
	print_rate("library, packets only:        ", len, &best[0]);
	printf("\n");
	print_rate("library, packets + messages:  ", len, &best[1]);
	printf("\n");

	if (!exe)
		goto out;
	fd = mkstemp(path);
	if (fd < 0 || write(fd, e.buf, len) != (ssize_t)len) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		return 1;
	}
	close(fd);
	/* give the stream back first: a forked child's peak RSS would
	 * include it */
	stpenc_free(&e);
	{
		static const char *const none[] = { "--no-output", NULL };
		static const char *const text[] = { NULL };
		static const char *const json[] = { "--format=json", NULL };
		static const char *const *runs[] = { none, text, json };
		static const char *const names[] = {
			"mttdecode --no-output:       ",
			"mttdecode text > /dev/null:  ",
			"mttdecode json > /dev/null:  ",
		};

		for (i = 0; i < 3; i++) {
			struct best b = { 1e9, 1e9 };
			long rss = 0, r;
			int k;

			for (k = 0; k < 5; k++) {
				if (cli_run(exe, path, runs[i], &b, &r)) {
					fprintf(stderr, "bench: %s failed\n",
						exe);
					unlink(path);
					return 1;
				}
				if (r > rss)
					rss = r;
			}
			print_rate(names[i], len, &b);
			printf("  peak RSS %ld KiB\n", rss);
		}
	}
	unlink(path);
out:
	stpenc_free(&e);
	return 0;
}
