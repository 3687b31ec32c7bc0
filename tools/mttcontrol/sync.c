// SPDX-License-Identifier: GPL-2.0
/*
 * sync.c - two-way clock exchanges with a serial target (Documentation/
 * sessions.rst, "Clock exchanges"): the collector sends TIME_SYNC (our
 * extension of the MiniProfiler and MTT command sets) to each mprof and
 * mtt target, and as MTT command frames to each riscv-encap target with
 * an mtt srcID (its replies are found in the payloads of those srcIDs,
 * each its own stream of frames), one at a time: the next only once the
 * reply came or its
 * wait ran out.  A burst of MC_SYNC_BURST at the start, one every
 * sync_interval_ms after it, a burst at the end.  Each request's (seq,
 * t1) goes to DIR/targets/NAME/requests, t1 the CLOCK_MONOTONIC ns taken
 * just before the write() of its first byte; the replies stay in the
 * capture, where the decoders find them.  A device that answers NACK
 * predates the command and is sent no more (one-way bounds only); one
 * that answers none of the start burst is sent no more either.
 *
 * The requests file: "MTTSYNC1", then 12-byte records { seq u32 LE,
 * t1 u64 LE }.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mprof/mprof.h"
#include "mttdecode/mttframe.h"
#include "mttdecode/riscv.h"
#include "mttcontrol.h"
#include "session/session.h"

#define MC_SYNC_BURST	8

enum { SYNC_ON, SYNC_NACK, SYNC_SILENT };

struct mc_sync {
	int state;
	int qfd;		/* the requests file */
	struct mprof_parser *mp;	/* the replies: mprof */
	struct mttd_mtt_stream *ms;	/* mtt */
	struct mttd_rv *rv;		/* riscv-encap: the packets */
	struct mttd_rv_mtt *rvm;	/* its mtt srcIDs' frames */
	uint32_t seq;		/* the next request's */
	int waiting;		/* request seq - 1 is out */
	uint64_t deadline;	/* ns: its reply given up */
	unsigned int burst;	/* requests left in this burst */
	int start, ending;	/* in the start burst; at the end */
	uint64_t next_at;	/* ns: the next periodic one; 0 none */
	uint64_t wait_ns, interval_ns;
	unsigned int before;	/* mprof: answers due to earlier commands */
	uint64_t replies;
	int werr;		/* a failed write was logged */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void got(struct mc_sync *s, uint32_t seq)
{
	s->replies++;
	if (s->waiting && seq == s->seq - 1)
		s->waiting = 0;
}

static void refused(struct mc_sync *s)
{
	s->state = SYNC_NACK;
	s->waiting = 0;
	s->burst = 0;
	s->start = 0;
}

static void on_mprof(void *ctx, const struct mprof_event *ev)
{
	struct mc_sync *s = ctx;
	struct mprof_time_sync t;

	if (ev->kind != MPROF_EV_PACKET ||
	    ev->type == MPROF_RSP_PROFILE_DATA)
		return;
	if (ev->type == MPROF_RSP_TIME_SYNC) {
		if (!mprof_time_sync_get(&t, ev->payload, ev->len))
			got(s, t.seq);
	} else if (s->before) {
		s->before--;	/* GET_METADATA's, START's */
	} else if (ev->type == MPROF_RSP_NACK && s->waiting) {
		refused(s);	/* the answer to TIME_SYNC: in order */
	}
}

static void on_mtt(void *ctx, const struct mttd_mtt_frame *f, uint64_t off)
{
	struct mc_sync *s = ctx;
	struct mttd_mtt_time_sync t;

	(void)off;
	if (f->cmd != MTT_FRAME_CMD_TIME_SYNC || !(f->flags & MTT_FRAME_F_RET))
		return;
	if (f->flags & MTT_FRAME_F_NACK)
		refused(s);
	else if (mttd_mtt_time_sync(f, &t))
		got(s, t.seq);
}

static void on_skip(void *ctx, uint64_t off, uint64_t bytes)
{
	(void)ctx;
	(void)off;
	(void)bytes;
}

/* riscv-encap: a frame of one of its mtt srcIDs (a reply or not) */
static void on_rv_frame(void *ctx, uint32_t srcid,
			const struct mttd_mtt_frame *f, uint64_t off)
{
	(void)srcid;
	on_mtt(ctx, f, off);
}

static void on_rv_stp(void *ctx, const struct mttd_stp_event *ev,
		      size_t n)
{
	(void)ctx;
	(void)ev;
	(void)n;
}

static void on_rv_pkt(void *ctx, const struct mttd_rv_packet *p,
		      uint64_t off)
{
	struct mc_sync *s = ctx;

	(void)off;
	mttd_rv_mtt_push(s->rvm, p);
}

/* riscv-encap: the decoder of its packets, or 1 if no srcID is mtt */
static int rv_open(struct mc_sync *s, const struct mc_target *t)
{
	struct mttd_rv_config c = {
		.fn = on_rv_stp,
		.ctx = s,
		.flags = t->unframed ? MTTD_RV_UNFRAMED : 0,
		.srcid_bits = t->srcid_bits,
		.ts_bytes = t->ts_bytes,
		.pkt_fn = on_rv_pkt,
	};
	int r = mc_rv_open(t, &c, on_rv_frame, NULL, s, &s->rv, &s->rvm);

	if (!r && s->rvm)
		return 0;
	/* out of memory (no decoder: said by the caller), or no srcID is
	 * mtt */
	mttd_rv_free(s->rv);
	mttd_rv_mtt_free(s->rvm);
	s->rv = NULL;
	s->rvm = NULL;
	return r ? 0 : 1;
}

int mc_sync_open(struct mc_tgt *g, struct mc_err *e)
{
	const struct mc_target *t = g->t;
	char path[PATH_MAX + 16];
	struct mc_sync *s;

	if (t->proto != MC_TP_MPROF && t->proto != MC_TP_MTT &&
	    t->proto != MC_TP_RISCV)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s) {
		e->fatal = 1;
		return mc_fail(e, "out of memory");
	}
	g->sync = s;
	s->qfd = -1;
	if (t->proto == MC_TP_MPROF) {
		s->mp = mprof_parser_new(on_mprof, s, 0);
	} else if (t->proto == MC_TP_MTT) {
		s->ms = mttd_mtt_stream_new(on_mtt, on_skip, s);
	} else if (rv_open(s, t)) {	/* no mtt srcID: no exchanges */
		mc_sync_close(g);
		return 0;
	}
	if (!s->mp && !s->ms && !s->rv) {
		e->fatal = 1;
		return mc_fail(e, "out of memory");
	}
	mc_snprintf(path, sizeof(path), "%s/requests", g->dir);
	s->qfd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (s->qfd < 0 || write(s->qfd, MTTS_REQUESTS_MAGIC, 8) != 8)
		return mc_fail(e, "%s: %s", path, strerror(errno));
	s->burst = MC_SYNC_BURST;
	s->start = 1;
	/* GET_METADATA and START go first (mc_tgt_begin()) */
	s->before = t->proto == MC_TP_MPROF ? 2 : 0;
	/* the wait for a reply: sync_wait_ms, plus 1 KB's time on the wire
	 * at the target's baud (what the device may send before it) */
	s->wait_ns = (uint64_t)t->sync_wait_ms * 1000000u +
		     10ull * 1024 * 1000000000u / t->baud;
	s->interval_ns = (uint64_t)t->sync_interval_ms * 1000000u;
	return 0;
}

void mc_sync_feed(struct mc_tgt *g, const uint8_t *p, size_t n)
{
	struct mc_sync *s = g->sync;

	if (!s || s->state != SYNC_ON)
		return;
	if (s->mp)
		mprof_parser_feed(s->mp, p, n);
	else if (s->rv)
		mttd_rv_feed(s->rv, p, n);
	else
		mttd_mtt_stream_push(s->ms, p, n);
}

/* one request: its record once it is written */
static void send_one(struct mc_tgt *g, FILE *log)
{
	struct mc_sync *s = g->sync;
	uint8_t c[MTT_FRAME_PREAMBLE_BYTES], rec[12];
	size_t n = MPROF_CMD_LEN;
	uint64_t t1;
	int i;

	if (g->t->proto == MC_TP_MPROF) {
		mprof_time_sync_cmd(c, s->seq);
	} else {
		/* mtt and riscv-encap alike (Documentation/mtt.rst,
		 * "Clock exchanges"): to any
		 * target, no component, the seq, no argument */
		const uint32_t w[MTT_FRAME_PREAMBLE_WORDS] = {
			MTT_FRAME_WORD0(MTT_FRAME_TARGET_CONTROL),
			MTT_FRAME_CMD_TIME_SYNC, MTT_FRAME_CMD_ANY_COMP, s->seq
		};

		for (i = 0; i < MTT_FRAME_PREAMBLE_BYTES; i++)
			c[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
		n = MTT_FRAME_PREAMBLE_BYTES;
	}
	t1 = now_ns();
	/* not written: no record, and the wait as for a lost reply */
	if (mc_put_all(g->fd, c, n)) {
		if (!s->werr++)
			fprintf(log, "collector: target %s: sending TIME_SYNC: %s\n",
				g->t->name, strerror(errno));
	} else {
		for (i = 0; i < 4; i++)
			rec[i] = (uint8_t)(s->seq >> (8 * i));
		for (i = 0; i < 8; i++)
			rec[4 + i] = (uint8_t)(t1 >> (8 * i));
		if (mc_put_all(s->qfd, rec, sizeof(rec)) && !s->werr++)
			fprintf(log, "collector: target %s: requests: %s\n",
				g->t->name, strerror(errno));
	}
	s->seq++;
	s->waiting = 1;
	s->deadline = t1 + s->wait_ns;
}

/* ms from now to t, at least 1 */
static long until(uint64_t t, uint64_t now)
{
	return t <= now ? 1 : (long)((t - now + 999999) / 1000000);
}

long mc_sync_tick(struct mc_tgt *g, FILE *log)
{
	struct mc_sync *s = g->sync;
	uint64_t now = now_ns();

	if (!s || s->state != SYNC_ON || g->fd < 0) {
		if (s) {
			s->waiting = 0;
			s->burst = 0;
			s->start = 0;
		}
		return -1;
	}
	if (s->waiting) {
		if (now < s->deadline)
			return until(s->deadline, now);
		s->waiting = 0;		/* no reply in time: the next */
	}
	if (!s->burst && s->start) {	/* the start burst is over */
		s->start = 0;
		if (!s->replies) {
			s->state = SYNC_SILENT;
			return -1;
		}
		if (s->ending)
			s->burst = MC_SYNC_BURST;
		else if (s->interval_ns)
			s->next_at = now + s->interval_ns;
	}
	if (!s->burst && s->next_at && !s->ending) {
		if (now < s->next_at)
			return until(s->next_at, now);
		s->next_at = now + s->interval_ns;
		send_one(g, log);
		return until(s->deadline, now);
	}
	if (!s->burst)
		return -1;
	s->burst--;
	send_one(g, log);
	return until(s->deadline, now);
}

int mc_sync_end(struct mc_tgt *g)
{
	struct mc_sync *s = g->sync;

	if (!s || s->state != SYNC_ON || g->fd < 0)
		return 0;
	s->ending = 1;
	s->next_at = 0;
	if (s->start)		/* finished first, then the final burst */
		return 1;
	if (!s->replies)
		return 0;
	s->burst = MC_SYNC_BURST;
	return 1;
}

int mc_sync_busy(const struct mc_tgt *g)
{
	const struct mc_sync *s = g->sync;

	return s && s->state == SYNC_ON && g->fd >= 0 &&
	       (s->waiting || s->burst || s->start);
}

const char *mc_sync_state(const struct mc_tgt *g)
{
	const struct mc_sync *s = g->sync;

	if (!s)
		return NULL;
	if (s->state == SYNC_NACK)
		return "one-way (device NACKed TIME_SYNC)";
	return s->replies ? "two-way" : "one-way (no TIME_SYNC reply)";
}

void mc_sync_close(struct mc_tgt *g)
{
	struct mc_sync *s = g->sync;

	if (!s)
		return;
	if (s->qfd >= 0)
		close(s->qfd);
	mprof_parser_free(s->mp);
	mttd_mtt_stream_free(s->ms);
	mttd_rv_free(s->rv);
	mttd_rv_mtt_free(s->rvm);
	free(s);
	g->sync = NULL;
}
