// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - reading one input in chunks and feeding the front end of its
 * kind (STP decoder, SyS-T stream framer, SyS-T text lines); with
 * --input=auto the first bytes are held until sniff.c has told the kind
 * (at most SNIFF_MAX bytes, or the whole input if shorter).  From
 * a pipe or device (a live trace) the output is flushed after every read,
 * so lines appear as the data arrives.  A regular file is mapped in
 * windows of MAP_WINDOW bytes instead (no copy; memory stays bounded),
 * then read() picks up anything appended meanwhile.  SIGINT and SIGTERM
 * end the input like end of file.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define READ_CHUNK (1u << 20)
#define MAP_WINDOW (4u << 20)

/* SIGINT/SIGTERM end the input as if it had reached its end */
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int input_stopped(void)
{
	return stop;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: read() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void feed_fe(struct app *a, const uint8_t *p, size_t n)
{
	if (a->stream)
		mttd_syst_stream_feed(a->stream, p, n);
	else if (a->text)
		mttd_syst_text_feed(a->text, p, n);
	else if (a->mtt_stream)
		mtt_stream_feed(a, p, n);
	else if (a->msc || a->cs)
		frame_feed(a, p, n);
	else if (a->stp)
		mttd_stp_feed(a->stp, p, n);
	else if (a->rv)
		mttd_rv_feed(a->rv, p, n);
}

/* the kind is known (or final): open the front end, feed what was held;
 * 0, or 1 after printing why */
static int sniffed(struct app *a, int kind)
{
	int ret;

	/* sniff.c decided whether STP carries SyS-T; nothing else does */
	if (a->o.syst_auto && !(kind == IN_STP && a->sniff_stp))
		a->o.syst = 0;
	ret = fe_open(a, kind);

	if (!ret && a->sniff_len)
		feed_fe(a, a->sniff, a->sniff_len);
	a->sniff_len = 0;
	return ret;
}

int input_feed(struct app *a, const uint8_t *p, size_t n)
{
	a->bytes += n;
	while (a->kind == IN_AUTO) {
		size_t k = SNIFF_MAX - a->sniff_len;
		int kind;

		if (k > n)
			k = n;
		memcpy(a->sniff + a->sniff_len, p, k);
		a->sniff_len += k;
		p += k;
		n -= k;
		kind = sniff_kind(a, a->sniff, a->sniff_len, 0);
		if (kind == IN_AUTO)
			return 0;
		if (sniffed(a, kind))
			return 1;
	}
	feed_fe(a, p, n);
	return 0;
}

int input_end(struct app *a)
{
	int ret = 0;

	if (a->kind == IN_AUTO)
		ret = sniffed(a, sniff_kind(a, a->sniff, a->sniff_len, 1));
	fe_close(a);
	return ret;
}

/* the first size bytes of a regular file through mmap; then the file
 * offset is where read() goes on (0 when mapping is not possible);
 * 0, or 1 after printing why */
static int decode_mapped(struct app *a, int fd, off_t size)
{
	off_t off = 0, win = MAP_WINDOW;
	int ret = 0;

	/* -j: the pieces start after the first window */
	if (par_jobs(a) > 1 && par_segment(a) < MAP_WINDOW)
		win = (off_t)par_segment(a);
	while (off < size && !stop && !a->out.err && !ret) {
		size_t n;
		void *p;

		/* past the first window (the kind is known): -j */
		if (off && ((a->stp && a->kind == IN_STP) ||
			    (a->text && a->kind == IN_SYSTTEXT)) &&
		    par_jobs(a) > 1 && (uint64_t)(size - off) > par_segment(a))
			return par_decode(a, fd, (uint64_t)off, (uint64_t)size);
		n = size - off < win ? (size_t)(size - off) : (size_t)win;
		p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
			 off);

		if (p == MAP_FAILED)
			break;
		madvise(p, n, MADV_SEQUENTIAL);
		ret = input_feed(a, p, n);
		munmap(p, n);
		off += (off_t)n;
	}
	if (off && lseek(fd, off, SEEK_SET) != off)
		stop = 1;	/* cannot go on reading: end there */
	return ret;
}

int input_begin(struct app *a, const char *name, int live)
{
	a->name = name;
	html_input(a, name);
	a->bytes = 0;
	a->sniff_len = 0;
	a->sniff_scanned = 0;
	a->sniff_stp = 0;
	a->live = live;
	a->sniff_probed = 0;
	if (a->o.input != IN_AUTO)
		return fe_open(a, a->o.input);
	if (!a->sniff)
		a->sniff = malloc(SNIFF_MAX);
	if (!a->sniff) {
		fprintf(stderr, "mttdecode: out of memory\n");
		return 1;
	}
	a->kind = IN_AUTO;
	return 0;
}

int decode_fd(struct app *a, int fd, const char *name)
{
	uint8_t *buf = malloc(READ_CHUNK);
	struct stat st;
	int ret = 0, live = fstat(fd, &st) || !S_ISREG(st.st_mode);

	if (!buf) {
		fprintf(stderr, "mttdecode: out of memory\n");
		return 1;
	}
	catch_signals();
	if (input_begin(a, name, live)) {
		free(buf);
		return 1;
	}
	if (!live && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    lseek(fd, 0, SEEK_CUR) == 0)
		ret = decode_mapped(a, fd, st.st_size);
	while (!stop && !ret) {
		ssize_t r = read(fd, buf, READ_CHUNK);

		if (r < 0) {
			if (errno == EINTR)
				continue;	/* stop is checked above */
			fprintf(stderr, "mttdecode: %s: %s\n", name,
				strerror(errno));
			ret = 1;
			break;
		}
		if (r == 0)
			break;
		if (input_feed(a, buf, (size_t)r)) {
			ret = 1;
			break;
		}
		if (live)
			out_flush(&a->out);
		if (a->out.err)
			break;
	}
	free(buf);
	if (input_end(a))
		ret = 1;
	return ret;
}
