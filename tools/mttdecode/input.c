// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - reading the input in chunks and feeding the front end of the
 * chosen kind (STP decoder, SyS-T stream framer, SyS-T text lines).  From
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

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: read() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void feed(struct app *a, const uint8_t *p, size_t n)
{
	if (a->stream)
		mttd_syst_stream_feed(a->stream, p, n);
	else if (a->text)
		mttd_syst_text_feed(a->text, p, n);
	else
		mttd_stp_feed(a->stp, p, n);
}

static void finish(struct app *a)
{
	if (a->stream)
		mttd_syst_stream_finish(a->stream);
	else if (a->text)
		mttd_syst_text_finish(a->text);
	else
		mttd_stp_finish(a->stp);
	if (!a->o.no_output && a->pr->end)
		a->pr->end(a);
}

/* the first size bytes of a regular file through mmap; then the file
 * offset is where read() goes on (0 when mapping is not possible) */
static void decode_mapped(struct app *a, int fd, off_t size)
{
	off_t off = 0;

	while (off < size && !stop && !a->out.err) {
		size_t n = size - off < (off_t)MAP_WINDOW ? (size_t)(size - off) :
			   MAP_WINDOW;
		void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			       fd, off);

		if (p == MAP_FAILED)
			break;
		madvise(p, n, MADV_SEQUENTIAL);
		feed(a, p, n);
		munmap(p, n);
		off += (off_t)n;
	}
	if (off && lseek(fd, off, SEEK_SET) != off)
		stop = 1;	/* cannot go on reading: end there */
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
	if (!live && lseek(fd, 0, SEEK_CUR) == 0)
		decode_mapped(a, fd, st.st_size);
	while (!stop) {
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
		feed(a, buf, (size_t)r);
		if (live)
			out_flush(&a->out);
		if (a->out.err)
			break;
	}
	free(buf);
	finish(a);
	return ret;
}
