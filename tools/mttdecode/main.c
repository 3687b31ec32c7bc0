/*
 * main.c - mttdecode: read raw STPv2 from a file or standard input in
 * chunks, decode packets and messages, print them as text or JSON lines.
 * SIGINT and SIGTERM end the input like end of file (open messages and
 * --stats are still printed).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define READ_CHUNK (1u << 20)

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

static void on_events(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	struct app *a = ctx;
	size_t i;

	if (!a->o.packets || a->o.no_output) {
		mttd_msg_push(a->msg, ev, n);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct mttd_stp_event *e = &ev[i];

		if (e->type == MTTD_EV_PACKET &&
		    (e->op != MTTD_OP_NULL || a->o.nulls))
			a->pr->packet(a, e);
		else if (e->type == MTTD_EV_DESYNC)
			a->pr->desync(a, e);
		mttd_msg_push(a->msg, e, 1);
	}
}

static void on_msg(void *ctx, const struct mttd_msg *m)
{
	struct app *a = ctx;

	if (a->o.messages)
		a->pr->msg(a, m);
}

static void on_event(void *ctx, const struct mttd_msg_event *e)
{
	struct app *a = ctx;

	a->pr->event(a, e);
}

static int setup(struct app *a)
{
	struct mttd_stp_config sc = {
		.fn = on_events, .ctx = a,
		.flags = (a->o.packets && a->o.nulls) ? MTTD_STP_NULLS : 0,
	};
	struct mttd_msg_config mc = {
		.max_len = a->o.max_len, .max_open = (unsigned int)a->o.max_open,
	};
	struct mttd_msg_sink sink = {
		.msg = on_msg, .event = on_event, .ctx = a,
	};

	a->pr = a->o.json ? &json_printer : &text_printer;
	a->stp = mttd_stp_new(&sc);
	a->msg = mttd_msg_new(&mc);
	if (!a->stp || !a->msg)
		return -1;
	if (!a->o.no_output)
		mttd_msg_add_sink(a->msg, &sink);
	out_init(&a->out, STDOUT_FILENO);
	return 0;
}

/*
 * Read fd to its end.  From a pipe or device (a live trace) the output is
 * flushed after every read, so lines appear as the data arrives.
 */
static int decode_fd(struct app *a, int fd, const char *name)
{
	uint8_t *buf = malloc(READ_CHUNK);
	struct stat st;
	int ret = 0, live = fstat(fd, &st) || !S_ISREG(st.st_mode);

	if (!buf) {
		fprintf(stderr, "mttdecode: out of memory\n");
		return 1;
	}
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
		mttd_stp_feed(a->stp, buf, (size_t)r);
		if (live)
			out_flush(&a->out);
		if (a->out.err)
			break;
	}
	free(buf);
	mttd_stp_finish(a->stp);
	return ret;
}

int main(int argc, char **argv)
{
	struct app *a = calloc(1, sizeof(*a));
	const char *name = "<stdin>";
	int fd = STDIN_FILENO, ret;

	if (!a) {
		fprintf(stderr, "mttdecode: out of memory\n");
		return 1;
	}
	ret = parse_options(&a->o, argc, argv);
	if (ret) {
		free(a);
		return ret == 2 ? 0 : 1;
	}
	if (a->o.file && strcmp(a->o.file, "-")) {
		name = a->o.file;
		fd = open(name, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "mttdecode: %s: %s\n", name,
				strerror(errno));
			free(a);
			return 1;
		}
	}
	catch_signals();
	if (setup(a)) {
		fprintf(stderr, "mttdecode: out of memory\n");
		ret = 1;
	} else {
		ret = decode_fd(a, fd, name);
		out_flush(&a->out);
		if (a->out.err) {
			fprintf(stderr, "mttdecode: write error: %s\n",
				strerror(a->out.err));
			ret = 1;
		}
		if (a->o.stats)
			print_stats(a);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	mttd_stp_free(a->stp);
	mttd_msg_free(a->msg);
	free(a);
	return ret;
}
