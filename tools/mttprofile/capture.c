// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - a live MiniProfiler session: open the line raw at the
 * baud rate, GET_METADATA (3 tries, a NACK or a time-out ending a try),
 * START (an ACK wanted; refused, nothing but capture.mprof is written),
 * then stream every byte received into capture.mprof while collecting
 * records, polling GET_STATUS and warning when the device's overflow
 * counter grows; on Ctrl-C/SIGTERM, --duration, --records or a hang-up:
 * STOP (records drained before its ACK), a last GET_STATUS, session.txt
 * and the reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mttprofile.h"

#define MAX_WARN 10	/* stream warnings printed one by one */
#define META_TRIES 3	/* GET_METADATA sent at most this often */

struct live {
	const struct popts *o;
	struct mprof_collect c;
	int fd;
	FILE *cap;
	int hangup;
	unsigned long warned;
	uint32_t overflows;	/* last reported */
	uint64_t metas, acks, nacks, statuses;
	int started;		/* START acknowledged: a profile to write */
	struct mprof_sym *sym;	/* --elf's symbols */
	char *elf_path;		/* --elf as an absolute path */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void warn_event(struct live *l, const char *fmt, unsigned long long off,
		       unsigned long long n)
{
	if (++l->warned <= MAX_WARN) {
		fprintf(stderr, "mttprofile: warning: ");
		fprintf(stderr, fmt, off, n);
		fputc('\n', stderr);
	} else if (l->warned == MAX_WARN + 1) {
		fprintf(stderr, "mttprofile: warning: more stream errors; counted in session.txt\n");
	}
}

static void on_event(void *ctx, const struct mprof_event *ev)
{
	struct live *l = ctx;
	unsigned long long off = (unsigned long long)ev->offset;

	switch (ev->kind) {
	case MPROF_EV_GARBAGE:
		warn_event(l, "skipped %2$llu bytes at offset %1$llu looking for a packet",
			   off, ev->len);
		return;
	case MPROF_EV_CRC:
		warn_event(l, "CRC error in the packet at offset %llu (%llu payload bytes): discarded",
			   off, ev->len);
		return;
	case MPROF_EV_BAD_END:
		warn_event(l, "bad end marker in the packet at offset %llu (%llu payload bytes): discarded",
			   off, ev->len);
		return;
	case MPROF_EV_TRUNCATED:
		warn_event(l, "packet at offset %llu cut short (%llu bytes)",
			   off, ev->len);
		return;
	case MPROF_EV_PACKET:
		break;
	}
	switch (ev->type) {
	case MPROF_RSP_METADATA:
		l->metas++;
		break;
	case MPROF_RSP_ACK:
		l->acks++;
		break;
	case MPROF_RSP_NACK:
		l->nacks++;
		break;
	case MPROF_RSP_STATUS:
		l->statuses++;
		if (!l->c.have_status)
			break;
		if (l->c.status.buffer_overflows != l->overflows) {
			fprintf(stderr, "mttprofile: warning: the device's buffer overflowed: %u records lost so far (raise the baud rate or instrument less)\n",
				(unsigned int)l->c.status.buffer_overflows);
			l->overflows = l->c.status.buffer_overflows;
		}
		if (!l->o->quiet)
			fprintf(stderr, "mttprofile: %s, %u records captured by the device, %llu received, buffer %u%% full\n",
				l->c.status.is_profiling ? "profiling" : "idle",
				(unsigned int)l->c.status.records_captured,
				(unsigned long long)l->c.records,
				(unsigned int)l->c.status.buffer_usage_percent);
		break;
	case MPROF_RSP_PROFILE_DATA:
		if (l->c.bad_version == 1 && l->c.last_type == ev->type &&
		    ev->len && ev->payload[0] != MPROF_PROTO_VERSION)
			fprintf(stderr, "mttprofile: warning: PROFILE_DATA version %u is not supported (1 is): skipped\n",
				ev->payload[0]);
		break;
	}
}

/* read what the line has, up to wait seconds; -1 on a fatal error */
static int pump(struct live *l, double wait)
{
	struct pollfd pf = { .fd = l->fd, .events = POLLIN };
	uint8_t buf[4096];
	int n;

	n = poll(&pf, 1, (int)(wait * 1000));
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	if (!n)
		return 0;
	if (pf.revents & POLLIN) {
		ssize_t r = read(l->fd, buf, sizeof(buf));

		if (r > 0) {
			if (fwrite(buf, 1, (size_t)r, l->cap) != (size_t)r) {
				fprintf(stderr, "mttprofile: capture.mprof: write error\n");
				return -1;
			}
			if (mprof_collect_feed(&l->c, buf, (size_t)r)) {
				fprintf(stderr, "mttprofile: out of memory\n");
				return -1;
			}
			return 0;
		}
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			return 0;
	}
	/* EOF, EIO (a pty whose other side closed), POLLHUP */
	l->hangup = 1;
	return 0;
}

/*
 * send cmd and read until *counter grows, up to tries times: a try
 * ends at the time-out, or at once on a NACK (a NACK to the last try
 * fails).  0; 1 the device answered NACK to every try; -1 no answer in
 * time, a hang-up or a line error (said)
 */
static int exchange(struct live *l, uint8_t cmd, uint64_t *counter, int tries)
{
	int nacked = 0;

	while (tries--) {
		uint64_t before = *counter, nacks = l->nacks;
		double end;

		if (mprof_serial_cmd(l->fd, cmd)) {
			fprintf(stderr, "mttprofile: %s: sending %s: %s\n",
				l->o->device, mprof_cmd_name(cmd), strerror(errno));
			return -1;
		}
		end = now_s() + l->o->timeout;
		while (*counter == before && !l->hangup && now_s() < end &&
		       l->nacks == nacks)
			if (pump(l, end - now_s()))
				return -1;
		if (*counter != before)
			return 0;
		if (l->hangup)
			return -1;
		nacked = l->nacks != nacks;
	}
	return nacked ? 1 : -1;
}

static void write_session(struct live *l, const char *dir, time_t start,
			  time_t end)
{
	const struct mprof_parser_stats *ps = mprof_parser_stats(l->c.parser);
	char path[4096], t0[64], t1[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/session.txt", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "mttprofile: %s: %s\n", path, strerror(errno));
		return;
	}
	strftime(t0, sizeof(t0), "%Y-%m-%dT%H:%M:%SZ", gmtime(&start));
	strftime(t1, sizeof(t1), "%Y-%m-%dT%H:%M:%SZ", gmtime(&end));
	fprintf(f, "kind=miniprofiler\ndevice=%s\nbaud=%lu\nstarted=%s\nstopped=%s\n",
		l->o->device, l->o->baud, t0, t1);
	if (l->c.prof.have_meta)
		fprintf(f, "fw_version=%s\nmcu_clock_hz=%u\ntimer_freq=%u\nelf_build_id=0x%08x\n",
			l->c.prof.meta.fw_version,
			(unsigned int)l->c.prof.meta.mcu_clock_hz,
			(unsigned int)l->c.prof.meta.timer_freq,
			(unsigned int)l->c.prof.meta.elf_build_id);
	/* what finds the ELF again from anywhere, and what tells that it
	 * is still the same file (checked by mttdecode) */
	if (l->sym)
		mprof_sym_write_ids(f, l->elf_path, l->sym);
	fprintf(f, "records=%llu\nbytes=%llu\npackets=%llu\ngarbage_bytes=%llu\ncrc_errors=%llu\nend_errors=%llu\ntruncated=%llu\nbad_version=%llu\nbad_payload=%llu\nnacks=%llu\n",
		(unsigned long long)l->c.records, (unsigned long long)ps->bytes,
		(unsigned long long)ps->packets,
		(unsigned long long)ps->garbage_bytes,
		(unsigned long long)ps->crc_errors,
		(unsigned long long)ps->end_errors,
		(unsigned long long)ps->truncated,
		(unsigned long long)l->c.bad_version,
		(unsigned long long)l->c.bad_payload,
		(unsigned long long)l->c.nacks);
	if (l->c.have_status)
		fprintf(f, "device_records_captured=%u\nbuffer_overflows=%u\n",
			(unsigned int)l->c.status.records_captured,
			(unsigned int)l->c.status.buffer_overflows);
	if (fclose(f))
		fprintf(stderr, "mttprofile: %s: write error\n", path);
}

static int session(struct live *l, const char *dir)
{
	const struct popts *o = l->o;
	double t_end = o->duration > 0 ? now_s() + o->duration : 0;
	double next_status;
	time_t start = time(NULL);
	int ret = 0;

	ret = exchange(l, MPROF_CMD_GET_METADATA, &l->metas, META_TRIES);
	if (ret) {
		if (ret > 0)
			fprintf(stderr, "mttprofile: %s: GET_METADATA refused (NACK) %d times: no profile written\n",
				o->device, META_TRIES);
		else
			fprintf(stderr, "mttprofile: %s: no METADATA from the device after %d tries%s: no profile written\n",
				o->device, META_TRIES,
				l->hangup ? " (line hung up)" : "");
		return 1;
	}
	if (!o->quiet)
		fprintf(stderr, "mttprofile: device firmware \"%s\", timer %u Hz, build id 0x%08x\n",
			l->c.prof.meta.fw_version,
			(unsigned int)l->c.prof.meta.timer_freq,
			(unsigned int)l->c.prof.meta.elf_build_id);
	if (l->c.prof.meta.timer_freq != 1000000)
		fprintf(stderr, "mttprofile: warning: timer at %u Hz, times are taken as microseconds\n",
			(unsigned int)l->c.prof.meta.timer_freq);
	ret = exchange(l, MPROF_CMD_START, &l->acks, 1);
	if (ret) {
		fprintf(stderr, "mttprofile: %s: START_PROFILING %s: no profile written\n",
			o->device, ret > 0 ? "refused (NACK)" :
			"not acknowledged");
		return 1;
	}
	l->started = 1;
	if (!o->quiet)
		fprintf(stderr, "mttprofile: profiling into %s (Ctrl-C to stop)\n", dir);
	next_status = o->status_every > 0 ? now_s() + o->status_every : 0;
	while (!stop_signal && !l->hangup) {
		double t = now_s(), wait = 0.2;

		if (o->records && l->c.records >= o->records)
			break;
		if (t_end && t >= t_end)
			break;
		if (next_status && t >= next_status) {
			if (mprof_serial_cmd(l->fd, MPROF_CMD_GET_STATUS))
				break;
			next_status = t + o->status_every;
		}
		if (pump(l, wait))
			return 1;
	}
	if (!l->hangup) {
		if (exchange(l, MPROF_CMD_STOP, &l->acks, 1)) {
			fprintf(stderr, "mttprofile: warning: STOP_PROFILING not acknowledged\n");
			ret = 1;
		} else if (exchange(l, MPROF_CMD_GET_STATUS, &l->statuses, 1)) {
			fprintf(stderr, "mttprofile: warning: no final STATUS\n");
		}
	} else if (!o->quiet) {
		fprintf(stderr, "mttprofile: the line hung up\n");
	}
	mprof_collect_finish(&l->c);
	write_session(l, dir, start, time(NULL));
	if (l->c.have_status && l->c.status.buffer_overflows)
		fprintf(stderr, "mttprofile: warning: %u records were lost to buffer overflows on the device\n",
			(unsigned int)l->c.status.buffer_overflows);
	return ret;
}

int capture_run(const struct popts *o)
{
	struct live l;
	struct sigaction sa;
	char defdir[64], path[4096];
	const char *dir = o->dir;
	int ret;

	memset(&l, 0, sizeof(l));
	l.o = o;
	if (o->elf) {
		l.sym = load_elf(o->elf);
		l.elf_path = l.sym ? realpath(o->elf, NULL) : NULL;
		if (!l.elf_path) {
			if (l.sym)
				fprintf(stderr, "mttprofile: %s: %s\n", o->elf,
					strerror(errno));
			mprof_sym_free(l.sym);
			return 1;
		}
	}
	if (!dir) {
		time_t t = time(NULL);

		strftime(defdir, sizeof(defdir), "mprof-session-%Y%m%d-%H%M%S",
			 localtime(&t));
		dir = defdir;
	}
	l.fd = mprof_serial_open(o->device, o->baud);
	if (l.fd < 0) {
		fprintf(stderr, "mttprofile: %s: %s\n", o->device,
			errno == EINVAL ? "bad baud rate or not a tty" :
			strerror(errno));
		ret = 1;
		goto out;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "mttprofile: %s: %s\n", dir, strerror(errno));
		close(l.fd);
		ret = 1;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/capture.mprof", dir);
	l.cap = fopen(path, "wb");
	if (!l.cap || mprof_collect_init(&l.c, on_event, &l)) {
		fprintf(stderr, "mttprofile: %s: %s\n", path, strerror(errno));
		if (l.cap)
			fclose(l.cap);
		close(l.fd);
		ret = 1;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = session(&l, dir);
	close(l.fd);
	if (fclose(l.cap)) {
		fprintf(stderr, "mttprofile: %s: write error\n", path);
		ret = 1;
	}
	if (l.started && write_reports(dir, &l.c, l.sym, o->elf, o->quiet))
		ret = 1;
	mprof_collect_free(&l.c);
out:
	mprof_sym_free(l.sym);
	free(l.elf_path);
	return ret;
}
