/*
 * bench.c - decoder throughput: builds a large STPv2 stream shaped like
 * the software STM device's output (ASYNC/VERSION/FREQ every 64 KiB,
 * messages of 8..256 bytes on 32 channels of 4 masters: DnTS first, D64
 * body, D32/D16/D8 tail, FLAG; nanosecond timestamps), then prints MB/s
 * for the library alone (packets; packets + messages) and for the
 * mttdecode command (--no-output; text and JSON to /dev/null, with peak
 * RSS).  Figures are printed, not checked.
 *
 * usage: bench [PATH-TO-mttdecode] [MIB]
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

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
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

static double lib_run(const uint8_t *buf, size_t len, int with_msg)
{
	size_t sink = 0;
	struct mttd_msgdec *m = mttd_msg_new(NULL);
	struct mttd_stp_config cfg = {
		.fn = with_msg ? mttd_msg_stp_fn : noop,
		.ctx = with_msg ? (void *)m : (void *)&sink,
	};
	struct mttd_stp *d = mttd_stp_new(&cfg);
	const size_t chunk = 1 << 20;
	double t0 = now(), t;
	size_t off;

	for (off = 0; off < len; off += chunk)
		mttd_stp_feed(d, buf + off, len - off < chunk ? len - off :
			      chunk);
	mttd_stp_finish(d);
	t = now() - t0;
	mttd_stp_free(d);
	mttd_msg_free(m);
	return t;
}

static int cli_run(const char *exe, const char *file, const char *const *args,
		   double *secs, long *rss_kb)
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
	*secs = now() - t0;
	*rss_kb = ru.ru_maxrss;
	return 0;
}

int main(int argc, char **argv)
{
	const char *exe = argc > 1 ? argv[1] : NULL;
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 0) : 256;
	size_t len;
	struct stpenc e;
	double best[2] = { 1e9, 1e9 };
	char path[] = "/tmp/mttdecode-bench-XXXXXX";
	int i, fd;

	stpenc_init(&e, 3);
	build(&e, mib << 20);
	if (e.oom) {
		fprintf(stderr, "bench: out of memory\n");
		return 1;
	}
	len = stpenc_bytes(&e);
	printf("stream: %.1f MB of STPv2 (messages of 8..256 bytes, "
	       "32 channels)\n", (double)len / 1e6);
	for (i = 0; i < 6; i++) {
		double t = lib_run(e.buf, len, i & 1);

		if (t < best[i & 1])
			best[i & 1] = t;
	}
	printf("library, packets only:        %8.0f MB/s\n",
	       (double)len / 1e6 / best[0]);
	printf("library, packets + messages:  %8.0f MB/s\n",
	       (double)len / 1e6 / best[1]);

	if (!exe)
		goto out;
	fd = mkstemp(path);
	if (fd < 0 || write(fd, e.buf, len) != (ssize_t)len) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		return 1;
	}
	close(fd);
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
			double t, tb = 1e9;
			long rss = 0, r;
			int k;

			for (k = 0; k < 3; k++) {
				if (cli_run(exe, path, runs[i], &t, &r)) {
					fprintf(stderr, "bench: %s failed\n",
						exe);
					unlink(path);
					return 1;
				}
				if (t < tb)
					tb = t;
				rss = r;
			}
			printf("%s%8.0f MB/s   peak RSS %ld KiB\n", names[i],
			       (double)len / 1e6 / tb, rss);
		}
	}
	unlink(path);
out:
	stpenc_free(&e);
	return 0;
}
