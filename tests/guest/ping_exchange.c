// SPDX-License-Identifier: GPL-2.0
/*
 * ping_exchange: the causal exchanges of issue 21's three-target session
 * (tests/firmware/multi.t; the firmwares' ping byte: Documentation/
 * firmware.rst, "The ping byte").
 *
 *   ping_exchange [-d DEV] [-n COUNT] NAME:TTY:CAPTURE...
 *
 *   -d DEV     the STM class device of the Linux stream (default
 *              /dev/swstm.0): one write(2) per trace record
 *   -n COUNT   exchanges per target (default 100)
 *   NAME:TTY:CAPTURE  a target: its name in the records, the tty that
 *              mttcontrol records it from (opened a second time, for
 *              writing), and that target's capture file in the session
 *              being recorded (targets/NAME/<capture>)
 *
 * For k = 1..COUNT, for each target in turn: trace "NAME ping k sent",
 * write the ping byte (0x70) to the tty, wait until the capture holds the
 * firmware's reply, then trace "NAME pong k seen".  The reply is found by
 * the bytes its "pong" frame carries contiguously whatever the framing
 * (native MTT, or RISC-V encapsulation, whose packets cut a frame after
 * byte 31): its UINT32 payload k (little-endian) right before its hint
 * "pong" and a NUL; each search starts after the previous match.
 * mttcontrol writes a capture as bytes arrive (one write(2) per read(2)
 * of the port), so the reply is seen once it was read.  Each exchange
 * waits for the previous; the waits are hang guards only (120 s a reply).
 *
 * Prints "OK N" (N exchanges) or the errno name of the first failure and
 * what failed on stderr; exit status 0 or 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PING_BYTE	0x70
#define MAX_TARGETS	8
#define GUARD_POLLS	120000	/* 1 ms each */

struct target {
	char *name, *tty, *capture;
	int tty_fd;
	off_t from;		/* the capture's bytes searched so far */
};

static int fail(const char *what, const char *arg)
{
	const char *name = strerrorname_np(errno);

	printf("%s\n", name ? name : "EUNKNOWN");
	fprintf(stderr, "ping_exchange: %s %s: %s\n", what, arg,
		strerror(errno));
	return 1;
}

/* one record of the Linux stream: "NAME WHAT k HOW" */
static int trace(int dev, const char *name, const char *what, unsigned int k,
		 const char *how)
{
	char buf[96];
	int n = snprintf(buf, sizeof(buf), "%s %s %u %s", name, what, k, how);

	if (write(dev, buf, (size_t)n) != n) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* 1 once the capture holds k's reply after t->from (t->from moved past
 * it), 0 not yet, -1 on error */
static int reply_seen(struct target *t, unsigned int k)
{
	uint8_t pat[9] = { k & 0xff, (k >> 8) & 0xff, (k >> 16) & 0xff,
			   (k >> 24) & 0xff, 'p', 'o', 'n', 'g', 0 };
	static const size_t chunk = 65536;
	uint8_t *buf;
	int fd, ret = 0;
	ssize_t n;
	off_t at = t->from;

	fd = open(t->capture, O_RDONLY);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	buf = malloc(chunk + sizeof(pat));
	if (!buf) {
		close(fd);
		return -1;
	}
	for (;;) {
		uint8_t *hit;

		n = pread(fd, buf, chunk + sizeof(pat), at);
		if (n < 0) {
			ret = -1;
			break;
		}
		hit = memmem(buf, (size_t)n, pat, sizeof(pat));
		if (hit) {
			t->from = at + (hit - buf) + (off_t)sizeof(pat);
			ret = 1;
			break;
		}
		if ((size_t)n < chunk + sizeof(pat))
			break;
		at += (off_t)chunk;
	}
	free(buf);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	const struct timespec ms = { 0, 1000000 };
	const char *dev_path = "/dev/swstm.0";
	struct target t[MAX_TARGETS];
	unsigned int count = 100, nt = 0, k, i;
	int opt, dev;

	while ((opt = getopt(argc, argv, "d:n:")) != -1) {
		switch (opt) {
		case 'd':
			dev_path = optarg;
			break;
		case 'n':
			count = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: ping_exchange [-d DEV] [-n COUNT] NAME:TTY:CAPTURE...\n");
			return 2;
		}
	}
	for (; optind < argc && nt < MAX_TARGETS; optind++, nt++) {
		char *tty = strchr(argv[optind], ':');
		char *cap = tty ? strchr(tty + 1, ':') : NULL;

		if (!cap) {
			fprintf(stderr, "ping_exchange: %s: not NAME:TTY:CAPTURE\n",
				argv[optind]);
			return 2;
		}
		*tty++ = 0;
		*cap++ = 0;
		t[nt] = (struct target){ argv[optind], tty, cap, -1, 0 };
		t[nt].tty_fd = open(tty, O_WRONLY | O_NOCTTY);
		if (t[nt].tty_fd < 0)
			return fail("open", tty);
	}
	if (!nt || optind < argc) {
		fprintf(stderr, "ping_exchange: 1 to %d targets\n", MAX_TARGETS);
		return 2;
	}
	dev = open(dev_path, O_WRONLY);
	if (dev < 0)
		return fail("open", dev_path);

	for (k = 1; k <= count; k++) {
		for (i = 0; i < nt; i++) {
			const uint8_t p = PING_BYTE;
			unsigned int polls = 0;
			int r;

			if (trace(dev, t[i].name, "ping", k, "sent") < 0)
				return fail("write", dev_path);
			if (write(t[i].tty_fd, &p, 1) != 1)
				return fail("write", t[i].tty);
			while (!(r = reply_seen(&t[i], k)) &&
			       polls++ < GUARD_POLLS)
				nanosleep(&ms, NULL);
			if (r < 0)
				return fail("read", t[i].capture);
			if (!r) {
				errno = ETIMEDOUT;
				return fail("no pong from", t[i].name);
			}
			if (trace(dev, t[i].name, "pong", k, "seen") < 0)
				return fail("write", dev_path);
		}
	}
	printf("OK %u\n", count * nt);
	return 0;
}
