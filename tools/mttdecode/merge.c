// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c - "mttdecode SESSION": the Linux stream and every serial
 * target of an mttcontrol session in one output, in reference-time
 * order (Documentation/mttdecode.rst, "Merged sessions").
 *
 * Two passes over the session's files.  Pass 1 decodes each target and
 * gathers the bounds that relate its clock to the reference (contract
 * of issue 21, section 4): an "up" bound per record with a time of its
 * own (made at dev, read by the time of the first "reads" pair past its
 * end, less its bytes' time on the wire), and per TIME_SYNC exchange
 * (reply_bounds()); the estimator fits a line per target.  Pass 2
 * decodes every source again, one record at a time: each source is a
 * decoder fed MERGE_CHUNK bytes whenever its queue of decoded records is
 * empty (so it is paused while its head record waits), its records
 * mapped to reference time, and a heap of the sources' head records
 * gives them out in order.  The Linux stream's records can be slightly
 * out of order across CPUs: they pass a reorder window of MERGE_WINDOW
 * records.  A record still earlier than the last one its source gave
 * is printed where it came and counted ("late"), never moved silently.
 * A target's record without a time of its own is placed at the read
 * time of its bytes.
 *
 * Memory: the records held at once are at most merge_ceiling() (the
 * window, and per source what one chunk can decode: two records a byte,
 * a whole MiniProfiler packet's records, the messages open at the end
 * of an input), whatever the size of the session; --stats says the peak.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mttclock/clock.h>

#include "cli.h"
#include "esc.h"
#include "merge.h"
#include "mprof/mprof.h"
#include "mttdecode/riscv.h"
#include "session/session.h"

#define MERGE_CHUNK 256		/* bytes fed to a decoder at a time */
#define MERGE_WINDOW 1024	/* the Linux stream's reorder window */
#define MERGE_TRACKS 256	/* Chrome tracks per target (the rest share) */
#define MREC_STRS 5		/* comp, level, source, name, text */

/* a TIME_SYNC command's bytes on the wire before its t_rx: its first
 * (t_rx is taken when the first byte arrived; a target that takes it
 * at the last, as libmttfw did before, gives a looser bound, never a
 * wrong one) */
#define MTT_SYNC_CMD_BYTES 1

enum { P_STREAM, P_APP, P_MPROF, P_NONE };

struct held {
	struct mrec r;
	uint64_t seq;		/* order of decoding, within its source */
	size_t size;		/* bytes allocated */
};

struct track {
	char *key;
	unsigned int tid;
};

struct merge;

struct src {
	struct app a;		/* first: the capture printer's app */
	struct merge *m;
	const char *name;
	unsigned int idx;
	int proto;		/* P_* */
	int pass;		/* 1 gathering bounds, 2 merging */
	char **files;		/* its inputs, decoded in order */
	int nfiles, fi, fd;
	int done;
	uint8_t buf[MERGE_CHUNK];
	struct held **q;	/* decoded, not yet taken: a ring */
	size_t qh, qn, qcap;
	struct held **win;	/* P_STREAM: the reorder window (heap) */
	size_t nwin;
	uint64_t seq;
	int64_t last_dev;	/* the time of a record without one */
	int64_t last_out;	/* the last record's reference time */
	int have_out;
	uint64_t records, late;
	struct held *head;	/* the record the merge waits on */
	/* P_MPROF */
	struct mprof_parser *mp;
	struct mprof_sym *sym;
	int sym_tried;		/* sym loaded, or why not said once */
	int64_t us;		/* the timer unwrapped, us */
	uint32_t us32;
	int have_us;
	/* the target's metadata and clock */
	struct mtts_target t;
	struct mttclk *clk;
	struct mttclk_fit fit;
	struct mtts_reads rd;
	int rd_open, rd_more;
	struct mtts_requests *req;	/* targets/NAME/requests, or NULL */
	uint32_t req_seq;
	uint64_t req_t1;
	int req_have;
	double ns_per_byte;	/* on the wire at its baud; 0 unknown or
				 * not paced */
	uint64_t exchanges;
	/* Chrome */
	struct track tracks[MERGE_TRACKS];
	unsigned int ntracks;
};

struct merge {
	const struct opts *o;
	struct out out;
	struct src **s;
	unsigned int n;
	unsigned int *heap;	/* sources by their head record */
	unsigned int nheap;
	uint64_t held, held_bytes, peak, peak_bytes, records;
	int events;		/* Chrome: events written */
	struct html *html;	/* --format=html: the page */
	int oom;
};

const char *mrec_kind_name(enum mrec_kind k)
{
	static const char *const n[] = { "msg", "begin", "end", "slice",
					 "value", "loss" };

	return (unsigned int)k < sizeof(n) / sizeof(n[0]) ? n[k] : "?";
}

/* ---- records held ---- */

static char *dup_str(char **p, const char *s, size_t n)
{
	char *d = *p;

	memcpy(d, s, n);
	d[n] = 0;
	*p += n + 1;
	return d;
}

static void held_free(struct merge *m, struct held *h)
{
	if (!h)
		return;
	m->held--;
	m->held_bytes -= h->size;
	free(h);
}

/* r (strings pointing anywhere) copied into one allocation */
static struct held *held_new(struct merge *m, const struct mrec *r)
{
	const char *s[MREC_STRS] = { r->comp, r->level, r->source, r->name,
				     r->text };
	size_t len[MREC_STRS], size = sizeof(struct held), i;
	const char **d[MREC_STRS];
	struct held *h;
	char *p;

	for (i = 0; i < MREC_STRS; i++) {
		len[i] = !s[i] ? 0 : i == MREC_STRS - 1 ? r->text_len :
			 strlen(s[i]);
		size += s[i] ? len[i] + 1 : 0;
	}
	h = malloc(size);
	if (!h) {
		m->oom = 1;
		return NULL;
	}
	h->r = *r;
	h->size = size;
	d[0] = &h->r.comp;
	d[1] = &h->r.level;
	d[2] = &h->r.source;
	d[3] = &h->r.name;
	d[4] = &h->r.text;
	p = (char *)(h + 1);
	for (i = 0; i < MREC_STRS; i++)
		*d[i] = s[i] ? dup_str(&p, s[i], len[i]) : NULL;
	if (!r->text)
		h->r.text_len = 0;
	m->held++;
	m->held_bytes += size;
	if (m->held > m->peak)
		m->peak = m->held;
	if (m->held_bytes > m->peak_bytes)
		m->peak_bytes = m->held_bytes;
	return h;
}

/* the most records held at once, whatever the session's size */
static uint64_t merge_ceiling(const struct merge *m)
{
	return MERGE_WINDOW + (uint64_t)m->n *
	       (2 * MERGE_CHUNK + MPROF_MAX_RECORDS + m->o->max_open);
}

/* ---- the bounds of a target's clock (pass 1) ---- */

/* the reference time by which the capture's first end bytes had been
 * read (the first "reads" pair at or past end); 0 none */
static int read_time(struct src *s, uint64_t end, int64_t *t)
{
	while (s->rd_more && s->rd.off < end)
		s->rd_more = mtts_reads_next(&s->rd) == 1;
	if (!s->rd_more)
		return 0;
	*t = (int64_t)s->rd.t_ns;
	return 1;
}

static int64_t wire_ns(const struct src *s, uint64_t bytes)
{
	return (int64_t)(s->ns_per_byte * (double)bytes);
}

/* a record made at dev, its last byte at end in the capture */
static void up_bound(struct src *s, int64_t dev, uint64_t end,
		     uint64_t wire_bytes, uint64_t id)
{
	int64_t t;

	if (read_time(s, end, &t) &&
	    mttclk_add_up(s->clk, dev, t - wire_ns(s, wire_bytes), id))
		s->m->oom = 1;
}

/* the t1 of request seq: the requests file is read forward once, in
 * seq order, as the replies come (mtts_requests_*(), sessions.rst) */
static int req_find(struct src *s, uint32_t seq, int64_t *t1)
{
	while (s->req && (!s->req_have || s->req_seq < seq)) {
		if (mtts_requests_next(s->req, &s->req_seq, &s->req_t1) != 1) {
			mtts_requests_close(s->req);
			s->req = NULL;
			s->req_have = 0;
			break;
		}
		s->req_have = 1;
	}
	if (!s->req_have || s->req_seq != seq)
		return 0;
	*t1 = (int64_t)s->req_t1;
	return 1;
}

/*
 * A TIME_SYNC reply (the MTT reply in cap_mtt(), the MiniProfiler
 * response in on_mprof()):
 * up: dev t_tx, ref t4 (the read time of its end); down: ref t1 (the
 * request's, from "requests") + the command's wire time, dev t_rx.
 */
static void reply_bounds(struct src *s, uint32_t seq, int64_t t_rx,
			 int64_t t_tx, uint64_t end, uint64_t reply_bytes,
			 uint64_t cmd_bytes)
{
	int64_t t1;

	if (s->pass != 1)
		return;
	s->exchanges++;
	/* t_tx was taken before any of the reply's bytes were sent */
	up_bound(s, t_tx, end, reply_bytes, seq);
	if (req_find(s, seq, &t1) &&
	    mttclk_add_down(s->clk, t1 + wire_ns(s, cmd_bytes), t_rx, seq))
		s->m->oom = 1;
}

/* ---- records from the decoders ---- */

static void take(struct src *s, struct mrec *r)
{
	struct held *h;

	if (r->has_time)
		s->last_dev = r->dev_ns;
	else
		r->dev_ns = s->last_dev;
	if (s->pass == 1) {
		/* a record whose end is not known gives no bound */
		if (r->has_time && r->end_offset && s->proto != P_STREAM)
			up_bound(s, r->dev_ns, r->end_offset, r->wire_bytes,
				 r->offset);
		return;
	}
	r->target = s->name;
	r->tindex = s->idx;
	if (s->proto == P_STREAM) {
		r->ref_ns = r->dev_ns;
		r->bound_ns = 0;
	} else if (!r->has_time &&
		   read_time(s, r->end_offset ? r->end_offset : r->offset + 1,
			     &r->ref_ns)) {
		/* no time of its own: made before its bytes were read */
		r->bound_ns = INFINITY;
	} else {
		r->ref_ns = mttclk_map(&s->fit, r->dev_ns);
		r->bound_ns = s->fit.status == MTTCLK_OK ?
			      mttclk_bound_at(&s->fit, r->dev_ns) : INFINITY;
	}
	h = held_new(s->m, r);
	if (!h)
		return;
	h->seq = s->seq++;
	if (s->qn == s->qcap) {
		size_t cap = s->qcap ? 2 * s->qcap : 64, i;
		struct held **q = malloc(cap * sizeof(*q));

		if (!q) {
			held_free(s->m, h);
			s->m->oom = 1;
			return;
		}
		for (i = 0; i < s->qn; i++)
			q[i] = s->q[(s->qh + i) % s->qcap];
		free(s->q);
		s->q = q;
		s->qh = 0;
		s->qcap = cap;
	}
	s->q[(s->qh + s->qn++) % s->qcap] = h;
}

static struct src *src_of(struct app *a)
{
	return (struct src *)a;	/* the app is its first member */
}

static void rec_init(struct mrec *r)
{
	memset(r, 0, sizeof(*r));
	r->core = -1;
}

/* "m<M>/c<C>" (one word) when the policy does not name the channel */
static const char *chan_name(struct app *a, unsigned int master,
			     unsigned int channel, char *b, size_t n)
{
	const char *s = a->policy ?
			mttd_policy_lookup(a->policy, master, channel) : NULL;

	if (s)
		return s;
	snprintf(b, n, "m%u/c%u", master, channel);
	return b;
}

static void cap_msg(struct app *a, const struct mttd_msg *m)
{
	struct mrec r;
	char b[32];

	rec_init(&r);
	r.kind = MREC_MSG;
	r.has_time = (m->flags & MTTD_MSG_HAS_TS) != 0;
	r.dev_ns = (int64_t)ticks_ns(m->ts, a->stp_hz);
	r.source = chan_name(a, m->master, m->channel, b, sizeof(b));
	r.text = (const char *)m->data;
	r.text_len = m->len;
	r.offset = m->offset;
	take(src_of(a), &r);
}

static void cap_loss(struct app *a, uint64_t offset)
{
	struct mrec r;

	out_flush(&a->out);
	rec_init(&r);
	r.kind = MREC_LOSS;
	r.text = a->out.mem ? a->out.mem : "";
	r.text_len = a->out.mem_len;
	r.offset = offset;
	take(src_of(a), &r);
	out_mem_clear(&a->out);
}

static void cap_event(struct app *a, const struct mttd_msg_event *e)
{
	if (e->kind != MTTD_ME_LOSS)
		return;
	loss_text(&a->out, e);
	cap_loss(a, e->offset);
}

static void cap_syst(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	struct mrec r;
	char b[32];

	rec_init(&r);
	r.kind = MREC_MSG;
	r.has_time = 1;
	if (m->flags & MTTD_SYST_F_TS_STP)
		r.dev_ns = (int64_t)ticks_ns(m->ts_stp, a->stp_hz);
	else if (m->flags & MTTD_SYST_F_STP_TS)
		r.dev_ns = (int64_t)ticks_ns(m->stp_ts, a->stp_hz);
	else if (!(m->flags & MTTD_SYST_F_STP) && (m->flags & MTTD_SYST_F_TS))
		r.dev_ns = (int64_t)ticks_ns(m->ts, a->syst_hz);
	else
		r.has_time = 0;
	if (m->flags & MTTD_SYST_F_SEV)
		r.level = mttd_syst_severity_name(m->severity);
	r.source = v->source;
	if (!r.source && (m->flags & MTTD_SYST_F_STP))
		r.source = chan_name(a, m->master, m->channel, b, sizeof(b));
	r.name = v->type;
	r.text = v->text;
	r.text_len = v->text_len;
	r.offset = m->offset;
	r.end_offset = m->offset + m->size;
	take(src_of(a), &r);
}

static void cap_syst_event(struct app *a, const struct mttd_syst_event *e)
{
	out_str(&a->out, e->kind == MTTD_SYST_EV_RESYNC ?
		"SyS-T framing lost: bytes " : "SyS-T bad line ");
	out_u64(&a->out, e->count);
	cap_loss(a, e->offset);
}

static void cap_mtt(struct app *a, const struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;
	struct src *s = src_of(a);
	/* its end in the capture: a riscv-encap srcID's frame, the end of
	 * the packet that completed it (v->offset counts that srcID's
	 * payload bytes only) */
	uint64_t cap_end = v->end ? v->end : v->offset + f->len;
	struct mrec r;
	char *end;

	if (f->cmd == MTT_FRAME_CMD_META)
		return;		/* names a component */
	if (f->cmd == MTT_FRAME_CMD_TIME_SYNC) {
		struct mttd_mtt_time_sync t;

		/* f->len: at least what was sent after t_tx */
		if (!(f->flags & MTT_FRAME_F_NACK) && mttd_mtt_time_sync(f, &t))
			reply_bounds(s, t.seq, (int64_t)t.t_rx,
				     (int64_t)t.t_tx, cap_end, f->len,
				     MTT_SYNC_CMD_BYTES);
		return;
	}
	rec_init(&r);
	r.kind = MREC_MSG;
	if ((f->flags & MTT_FRAME_F_LEVEL) && f->level == MTT_API_ENTRY)
		r.kind = MREC_BEGIN;
	else if ((f->flags & MTT_FRAME_F_LEVEL) && f->level == MTT_API_RETURN)
		r.kind = MREC_END;
	r.has_time = 1;
	if (v->has_stp_ts)
		r.dev_ns = (int64_t)ticks_ns(v->stp_ts, a->stp_hz);
	else if (f->flags & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV))
		r.dev_ns = (int64_t)f->ts;
	else
		r.has_time = 0;
	r.core = (int)f->target;
	r.comp = v->comp;
	r.level = v->level;
	r.source = v->source;
	r.name = v->name;
	r.text = v->value;
	r.text_len = v->value_len;
	if (r.kind == MREC_MSG && v->value_len && *v->value != '"') {
		r.value = strtod(v->value, &end);
		r.has_value = end == v->value + v->value_len;
		if (r.has_value)
			r.kind = MREC_VALUE;
	}
	r.offset = v->offset;
	/* its time is taken before any of its bytes are sent */
	r.end_offset = cap_end;
	r.wire_bytes = (uint32_t)f->len;
	take(s, &r);
}

static void cap_mtt_skip(struct app *a, uint64_t offset, uint64_t bytes)
{
	out_str(&a->out, "MTT framing lost: bytes ");
	out_u64(&a->out, bytes);
	cap_loss(a, offset);
}

static void cap_packet(struct app *a, const struct mttd_stp_event *e)
{
	(void)a;
	(void)e;
}

/* riscv-encap: a packet not decoded as STP or MTT, on its srcID's
 * track; its own time the packet's (the link's clock) */
static void cap_encap(struct app *a, const struct mttd_rv_packet *p,
		      uint64_t offset)
{
	char src[16], hex[2 * sizeof(p->payload) + 1];
	size_t i, n = (p->payload_bits + 7) / 8;
	struct mrec r;

	for (i = 0; i < n && i < sizeof(p->payload); i++)
		snprintf(hex + 2 * i, 3, "%02x", p->payload[i]);
	hex[2 * i] = 0;
	snprintf(src, sizeof(src), "src%u", (unsigned int)p->srcid);
	rec_init(&r);
	r.kind = MREC_MSG;
	r.has_time = p->extend != 0;
	r.dev_ns = (int64_t)p->ts;
	r.source = src;
	r.text = hex;
	r.text_len = 2 * i;
	r.offset = offset;
	/* the timestamp is in the header: the packet follows it */
	r.end_offset = offset + p->size;
	r.wire_bytes = (uint32_t)p->size;
	take(src_of(a), &r);
}

/* the printer of the sources' apps: records into their queues */
static const struct printer capture_printer = {
	.packet = cap_packet,
	.desync = cap_packet,
	.encap = cap_encap,
	.msg = cap_msg,
	.event = cap_event,
	.syst = cap_syst,
	.syst_event = cap_syst_event,
	.mtt = cap_mtt,
	.mtt_skip = cap_mtt_skip,
};

/* MiniProfiler: the 32-bit us timer unwrapped in stream order (each
 * value taken as the nearest to the one before) */
static int64_t mprof_us(struct src *s, uint32_t v)
{
	if (!s->have_us)
		s->us = v;
	else
		s->us += (int32_t)(v - s->us32);
	s->us32 = v;
	s->have_us = 1;
	return s->us;
}

static void on_mprof(void *ctx, const struct mprof_event *ev)
{
	struct mprof_time_sync ts;
	struct src *s = ctx;
	unsigned int ver, count, i;
	struct mrec r;
	char b[24];

	rec_init(&r);
	r.offset = ev->offset;
	if (ev->kind != MPROF_EV_PACKET) {
		if (ev->kind == MPROF_EV_GARBAGE && !ev->len)
			return;
		snprintf(b, sizeof(b), "MiniProfiler %s",
			 ev->kind == MPROF_EV_CRC ? "CRC error" :
			 ev->kind == MPROF_EV_BAD_END ? "bad end" :
			 ev->kind == MPROF_EV_TRUNCATED ? "cut packet" :
			 "garbage");
		r.kind = MREC_LOSS;
		r.text = b;
		r.text_len = strlen(b);
		take(s, &r);
		return;
	}
	if (ev->type == MPROF_RSP_TIME_SYNC &&
	    !mprof_time_sync_get(&ts, ev->payload, ev->len)) {
		/* unwrapped in the order the device took them */
		int64_t rx = mprof_us(s, ts.t_rx);
		int64_t tx = mprof_us(s, ts.t_tx);

		reply_bounds(s, ts.seq, rx * 1000, tx * 1000, ev->offset +
			     ev->len + MPROF_RSP_OVERHEAD,
			     ev->len + MPROF_RSP_OVERHEAD, MPROF_CMD_LEN);
		return;
	}
	if (ev->type != MPROF_RSP_PROFILE_DATA ||
	    mprof_profile_check(ev->payload, ev->len, &ver, &count))
		return;
	for (i = 0; i < count; i++) {
		struct mprof_record c;
		uint32_t off;
		const char *fn;
		int64_t exit_us;

		mprof_record_get(&c, ev->payload + MPROF_PROFILE_HDR_LEN +
				 (size_t)i * MPROF_RECORD_LEN);
		exit_us = mprof_us(s, c.entry_time + c.duration_us);
		rec_init(&r);
		r.kind = MREC_SLICE;
		r.has_time = 1;
		r.dev_ns = exit_us * 1000;
		r.dur_ns = (uint64_t)c.duration_us * 1000;
		r.core = 0;
		fn = s->sym ? mprof_sym_lookup(s->sym, c.func_addr, &off) :
		     NULL;
		if (!fn) {
			snprintf(b, sizeof(b), "0x%08x", c.func_addr);
			fn = b;
		}
		r.name = fn;
		r.text = fn;
		r.text_len = strlen(fn);
		r.offset = ev->offset + MPROF_RSP_HDR + MPROF_PROFILE_HDR_LEN +
			   (uint64_t)i * MPROF_RECORD_LEN;
		/* the packet is sent after its calls returned: all of it
		 * after this one's time */
		r.end_offset = ev->offset + ev->len + MPROF_RSP_OVERHEAD;
		r.wire_bytes = (uint32_t)(ev->len + MPROF_RSP_OVERHEAD);
		take(s, &r);
	}
}

/* ---- the sources ---- */

/* the decoders of s for a pass; 0, or 1 after printing why */
static int src_open(struct src *s, int pass)
{
	char err[256];

	s->pass = pass;
	if (s->proto != P_STREAM && s->t.reads &&
	    !mtts_reads_open(s->t.reads, &s->rd)) {
		s->rd_open = 1;
		s->rd_more = 1;
	}
	s->fi = 0;
	s->fd = -1;
	s->done = 0;
	s->have_us = 0;
	s->last_dev = 0;
	if (s->proto == P_MPROF) {
		s->mp = mprof_parser_new(on_mprof, s, 0);
		if (!s->mp)
			return 1;
		s->last_dev = pass == 2 ? s->fit.dev_first : 0;
		if (s->t.elf && !s->sym_tried) {
			s->sym_tried = 1;
			s->sym = mprof_sym_load(s->t.elf, err, sizeof(err));
			if (!s->sym)
				fprintf(stderr, "mttdecode: target %s: %s (functions by address)\n",
					s->name, err);
		}
		return 0;
	}
	/* a target's records before its first time: at its first bound */
	s->last_dev = pass == 2 && s->proto != P_STREAM ? s->fit.dev_first : 0;
	s->a.pr = &capture_printer;
	if (setup(&s->a))
		return 1;
	out_init_mem(&s->a.out);
	return 0;
}

static void src_close(struct src *s)
{
	struct opts keep;

	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->rd_open)
		mtts_reads_close(&s->rd);
	s->rd_open = s->rd_more = 0;
	if (s->proto == P_MPROF) {
		mprof_parser_free(s->mp);
		s->mp = NULL;
		return;
	}
	out_free_mem(&s->a.out);
	keep = s->a.o;
	s->a.o.rv_stp = s->a.o.rv_mtt = NULL;	/* for the next pass */
	teardown(&s->a);
	memset(&s->a, 0, sizeof(s->a));
	s->a.o = keep;
}

/* feed s one more chunk (or end an input, or open the next); 0, or 1
 * after printing why */
static int src_feed(struct src *s)
{
	ssize_t r;

	if (s->fd < 0) {
		if (s->fi == s->nfiles) {
			s->done = 1;
			return 0;
		}
		s->fd = open(s->files[s->fi], O_RDONLY);
		if (s->fd < 0) {
			fprintf(stderr, "mttdecode: %s: %s\n", s->files[s->fi],
				strerror(errno));
			return 1;
		}
		if (s->proto != P_MPROF &&
		    input_begin(&s->a, s->files[s->fi], 0))
			return 1;
	}
	do
		r = read(s->fd, s->buf, sizeof(s->buf));
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		fprintf(stderr, "mttdecode: %s: %s\n", s->files[s->fi],
			strerror(errno));
		return 1;
	}
	if (r > 0)
		return s->proto == P_MPROF ?
		       mprof_parser_feed(s->mp, s->buf, (size_t)r) != 0 :
		       input_feed(&s->a, s->buf, (size_t)r);
	close(s->fd);
	s->fd = -1;
	s->fi++;
	if (s->proto == P_MPROF) {
		mprof_parser_finish(s->mp);
		return 0;
	}
	return input_end(&s->a);
}

/* the next record s decoded, NULL at its end (or an error: *err) */
static struct held *src_pull(struct src *s, int *err)
{
	struct held *h;

	while (!s->qn && !s->done && !*err && !s->m->oom)
		*err = src_feed(s);
	if (!s->qn)
		return NULL;
	h = s->q[s->qh];
	s->qh = (s->qh + 1) % s->qcap;
	s->qn--;
	return h;
}

static int before(const struct held *x, const struct held *y)
{
	if (x->r.ref_ns != y->r.ref_ns)
		return x->r.ref_ns < y->r.ref_ns;
	if (x->r.tindex != y->r.tindex)
		return x->r.tindex < y->r.tindex;
	return x->seq < y->seq;
}

static void win_push(struct src *s, struct held *h)
{
	size_t i = s->nwin++;

	while (i && before(h, s->win[(i - 1) / 2])) {
		s->win[i] = s->win[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->win[i] = h;
}

static struct held *win_pop(struct src *s)
{
	struct held *top = s->win[0], *last = s->win[--s->nwin];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < s->nwin) {
		if (c + 1 < s->nwin && before(s->win[c + 1], s->win[c]))
			c++;
		if (!before(s->win[c], last))
			break;
		s->win[i] = s->win[c];
		i = c;
	}
	if (s->nwin)
		s->win[i] = last;
	return top;
}

/* the next record of s in its order: the stream's through its window */
static struct held *src_next(struct src *s, int *err)
{
	struct held *h;

	if (s->proto == P_STREAM) {
		while (s->nwin < MERGE_WINDOW && (h = src_pull(s, err)))
			win_push(s, h);
		h = s->nwin ? win_pop(s) : NULL;
	} else {
		h = src_pull(s, err);
	}
	if (!h)
		return NULL;
	s->records++;
	if (s->have_out && h->r.ref_ns < s->last_out)
		s->late++;
	else
		s->last_out = h->r.ref_ns;
	s->have_out = 1;
	return h;
}

/* ---- the merge's heap of sources ---- */

static int src_before(struct merge *m, unsigned int x, unsigned int y)
{
	return before(m->s[x]->head, m->s[y]->head);
}

static void heap_down(struct merge *m, unsigned int i)
{
	unsigned int c, v = m->heap[i];

	while ((c = 2 * i + 1) < m->nheap) {
		if (c + 1 < m->nheap && src_before(m, m->heap[c + 1],
						   m->heap[c]))
			c++;
		if (!src_before(m, m->heap[c], v))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	m->heap[i] = v;
}

/* ---- output ---- */

static void put_time(struct out *o, int64_t ns)
{
	char b[32];
	uint64_t u = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(b, sizeof(b), "%s%llu.%09llu", ns < 0 ? "-" : "",
		 (unsigned long long)(u / 1000000000u),
		 (unsigned long long)(u % 1000000000u));
	out_str(o, b);
}

static void put_bound(struct out *o, double b, const char *inf)
{
	char t[32];

	if (isinf(b) || isnan(b)) {
		out_str(o, inf);
		return;
	}
	snprintf(t, sizeof(t), "%.0f", b);
	out_str(o, t);
}

static void text_word(struct out *o, const char *s)
{
	out_char(o, ' ');
	if (s && *s)
		esc_text(o, s, strlen(s), 0);
	else
		out_char(o, '-');
}

/* REF TARGET DEV +-BOUND KIND CORE COMP LEVEL SOURCE TEXT */
static void text_rec(struct merge *m, const struct mrec *r)
{
	struct out *o = &m->out;
	char b[32];

	put_time(o, r->ref_ns);
	out_char(o, ' ');
	esc_text(o, r->target, strlen(r->target), 0);
	out_char(o, ' ');
	put_time(o, r->dev_ns);
	out_str(o, " +-");
	put_bound(o, r->bound_ns, "inf");
	out_char(o, ' ');
	out_str(o, mrec_kind_name(r->kind));
	snprintf(b, sizeof(b), "%d", r->core);
	text_word(o, r->core >= 0 ? b : NULL);
	text_word(o, r->comp);
	text_word(o, r->level);
	text_word(o, r->source);
	out_char(o, ' ');
	if (r->name && r->kind != MREC_SLICE && r->text != r->name) {
		esc_text(o, r->name, strlen(r->name), 0);
		out_str(o, r->kind == MREC_VALUE ? " = " : ": ");
	}
	esc_text(o, r->text ? r->text : "", r->text_len, 0);
	if (r->kind == MREC_SLICE) {
		out_str(o, " dur=");
		out_u64(o, r->dur_ns);
	}
	out_char(o, '\n');
}

static void json_i64(struct out *o, const char *key, int64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%lld", (long long)v);
	out_str(o, key);
	out_str(o, b);
}

/* key, then v if have, else none */
static void put_opt(struct out *o, const char *key, int have, int64_t v,
		    const char *none)
{
	if (have) {
		json_i64(o, key, v);
		return;
	}
	out_str(o, key);
	out_str(o, none);
}

/* the value when it is a finite number, else none */
static void put_value(struct out *o, const struct mrec *r, const char *none)
{
	char b[40];

	if (!r->has_value || !isfinite(r->value)) {
		out_str(o, none);
		return;
	}
	snprintf(b, sizeof(b), "%.17g", r->value);
	out_str(o, b);
}

/* JSON lines and CSV rows: the same 14 columns (json_style, csv_style) */
#define MREC_COLS 14
struct style {
	const char *key[MREC_COLS];	/* written before each column */
	const char *none;	/* an absent number */
	const char *inf;	/* an infinite bound */
	const char *end;
	/* a string column (s NULL: absent) */
	void (*str)(struct out *o, const char *s, size_t n);
};

static void json_cell(struct out *o, const char *s, size_t n)
{
	if (!s) {
		out_str(o, "null");
		return;
	}
	out_char(o, '"');
	esc_json(o, s, n);
	out_char(o, '"');
}

static void csv_str(struct out *o, const char *s, size_t n)
{
	if (s)
		csv_cell(o, s, n);
}

static const struct style json_style = {
	{ "{\"ref_ns\":", ",\"target\":", ",\"tindex\":", ",\"dev_ns\":",
	  ",\"bound_ns\":", ",\"kind\":", ",\"dur_ns\":", ",\"core\":",
	  ",\"comp\":", ",\"level\":", ",\"source\":", ",\"name\":",
	  ",\"text\":", ",\"value\":" },
	"null", "null", "}\n", json_cell,
};

static const struct style csv_style = {
	{ "", ",", ",", ",", ",", ",", ",", ",", ",", ",", ",", ",", ",", "," },
	"", "inf", "\n", csv_str,
};

static const char csv_head[] =
	"ref_ns,target,tindex,dev_ns,bound_ns,kind,dur_ns,core,comp,level,"
	"source,name,text,value\n";

static void str_col(struct out *o, const struct style *st, int col,
		    const char *s)
{
	out_str(o, st->key[col]);
	st->str(o, s, s ? strlen(s) : 0);
}

static void row(struct merge *m, const struct mrec *r,
		const struct style *st)
{
	struct out *o = &m->out;

	json_i64(o, st->key[0], r->ref_ns);
	str_col(o, st, 1, r->target);
	json_i64(o, st->key[2], r->tindex);
	json_i64(o, st->key[3], r->dev_ns);
	out_str(o, st->key[4]);
	put_bound(o, r->bound_ns, st->inf);
	str_col(o, st, 5, mrec_kind_name(r->kind));
	put_opt(o, st->key[6], r->kind == MREC_SLICE, (int64_t)r->dur_ns,
		st->none);
	put_opt(o, st->key[7], r->core >= 0, r->core, st->none);
	str_col(o, st, 8, r->comp);
	str_col(o, st, 9, r->level);
	str_col(o, st, 10, r->source);
	str_col(o, st, 11, r->name);
	out_str(o, st->key[12]);
	st->str(o, r->text ? r->text : "", r->text_len);
	out_str(o, st->key[13]);
	put_value(o, r, st->none);
	out_str(o, st->end);
}

/* Chrome: "ts" in us with three decimals */
static void chrome_ts(struct out *o, const char *key, int64_t ns)
{
	char b[40];
	uint64_t u = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(b, sizeof(b), "%s%s%llu.%03llu", key, ns < 0 ? "-" : "",
		 (unsigned long long)(u / 1000), (unsigned long long)(u % 1000));
	out_str(o, b);
}

static void chrome_sep(struct merge *m)
{
	out_str(&m->out, m->events++ ? ",\n" : "\n");
}

static void chrome_meta(struct merge *m, const char *what, unsigned int pid,
			unsigned int tid, const char *name)
{
	struct out *o = &m->out;

	chrome_sep(m);
	out_str(o, "{\"ph\":\"M\",\"name\":\"");
	out_str(o, what);
	json_i64(o, "\",\"pid\":", pid);
	json_i64(o, ",\"tid\":", tid);
	out_str(o, ",\"args\":{\"name\":");
	json_str(o, name);
	out_str(o, "}}");
}

/* the thread of r in its target's process: one per source (the stream's
 * policy nodes, RISC-V srcIDs), component or, for a MiniProfiler, its
 * functions */
static unsigned int chrome_tid(struct merge *m, struct src *s,
			       const struct mrec *r)
{
	const char *key = s->proto == P_MPROF ? "functions" :
			  r->source ? r->source : r->comp ? r->comp : "main";
	unsigned int i;

	for (i = 0; i < s->ntracks; i++)
		if (!strcmp(s->tracks[i].key, key))
			return s->tracks[i].tid;
	if (s->ntracks == MERGE_TRACKS)
		return s->tracks[MERGE_TRACKS - 1].tid;
	s->tracks[i].key = strdup(key);
	if (!s->tracks[i].key) {
		m->oom = 1;
		return 0;
	}
	s->tracks[i].tid = i + 1;
	s->ntracks++;
	chrome_meta(m, "thread_name", s->idx + 1, i + 1, key);
	return i + 1;
}

static void chrome_rec(struct merge *m, const struct mrec *r)
{
	struct src *s = m->s[r->tindex];
	struct out *o = &m->out;
	unsigned int tid = chrome_tid(m, s, r);
	const char *ph = r->kind == MREC_BEGIN ? "B" : r->kind == MREC_END ?
			 "E" : r->kind == MREC_SLICE ? "X" :
			 r->kind == MREC_VALUE && r->has_value ? "C" : "i";
	int64_t ts = r->ref_ns;

	if (r->kind == MREC_SLICE && s->proto != P_STREAM)
		ts = mttclk_map(&s->fit, r->dev_ns - (int64_t)r->dur_ns);
	else if (r->kind == MREC_SLICE)
		ts = r->ref_ns - (int64_t)r->dur_ns;
	chrome_sep(m);
	out_str(o, "{\"name\":\"");
	if (*ph == 'C') {
		if (r->comp)
			esc_json(o, r->comp, strlen(r->comp));
		if (r->comp && r->name)
			out_char(o, ' ');
		if (r->name)
			esc_json(o, r->name, strlen(r->name));
		if (!r->comp && !r->name)
			out_str(o, "value");
	} else {
		esc_json(o, r->text ? r->text : "",
			 r->text_len < 64 ? r->text_len : 64);
	}
	out_str(o, "\",\"cat\":\"");
	out_str(o, mrec_kind_name(r->kind));
	out_str(o, "\",\"ph\":\"");
	out_str(o, ph);
	json_i64(o, "\",\"pid\":", r->tindex + 1);
	json_i64(o, ",\"tid\":", tid);
	chrome_ts(o, ",\"ts\":", ts);
	if (*ph == 'X')
		chrome_ts(o, ",\"dur\":", r->ref_ns - ts);
	if (*ph == 'i')
		out_str(o, ",\"s\":\"t\"");
	out_str(o, ",\"args\":{");
	if (*ph == 'C') {
		out_str(o, "\"value\":");
		put_value(o, r, "null");
		out_str(o, "}}");
		return;
	}
	json_i64(o, "\"dev_ns\":", r->dev_ns);
	out_str(o, ",\"bound_ns\":");
	put_bound(o, r->bound_ns, "null");
	out_str(o, ",\"level\":");
	json_str(o, r->level);
	out_str(o, ",\"text\":\"");
	esc_json(o, r->text ? r->text : "", r->text_len);
	out_str(o, "\"}}");
}

static void print_rec(struct merge *m, const struct mrec *r)
{
	switch (m->o->format) {
	case FMT_JSON: row(m, r, &json_style); break;
	case FMT_CSV: row(m, r, &csv_style); break;
	case FMT_CHROME: chrome_rec(m, r); break;
	case FMT_HTML: html_add(m->html, r); break;
	default: text_rec(m, r); break;
	}
}

/* ---- the summary ---- */

/* a target's fit as the summary and the page name it */
static const char *fit_name(const struct src *s)
{
	switch (s->proto == P_NONE ? -1 : (int)s->fit.status) {
	case -1: return "not merged";
	case MTTCLK_OK: return "ok";
	case MTTCLK_ONE_SIDED: return "one-sided";
	case MTTCLK_CONFLICT: return "CONFLICT";
	default: return "empty";
	}
}

static void say_fit(struct out *o, const struct src *s, const char *prefix)
{
	const struct mttclk_fit *f = &s->fit;
	char b[320];

	if (s->proto == P_STREAM) {
		snprintf(b, sizeof(b), "merge: %s: the reference; records %llu late %llu (reorder window %u)\n",
			 s->name, (unsigned long long)s->records,
			 (unsigned long long)s->late, MERGE_WINDOW);
		out_str(o, b);
		return;
	}
	if (s->proto == P_NONE) {
		snprintf(b, sizeof(b), "merge: %s: %s (protocol %s)\n",
			 s->name, fit_name(s),
			 s->t.protocol ? s->t.protocol : "none");
		out_str(o, b);
		return;
	}
	snprintf(b, sizeof(b), "merge: %s: fit %s drift %+.3f ppm [%+.3f, %+.3f] offset %.0f ns bound first ",
		 s->name, fit_name(s), f->drift_ppm, f->drift_lo_ppm,
		 f->drift_hi_ppm, f->b);
	out_str(o, b);
	put_bound(o, f->bound_first_ns, "inf");
	out_str(o, " last ");
	put_bound(o, f->bound_last_ns, "inf");
	out_str(o, " max ");
	put_bound(o, f->bound_ns, "inf");
	snprintf(b, sizeof(b), " ns; bounds up %llu down %llu exchanges %llu; records %llu late %llu\n",
		 (unsigned long long)f->n_up, (unsigned long long)f->n_down,
		 (unsigned long long)s->exchanges,
		 (unsigned long long)s->records, (unsigned long long)s->late);
	out_str(o, b);
	if (f->status == MTTCLK_CONFLICT) {
		out_str(o, prefix);
		snprintf(b, sizeof(b), "merge: %s: CONFLICT: no line fits every bound: up bound %llu and down bound %llu conflict; mapped with the up bounds alone, bound unknown\n",
			 s->name, (unsigned long long)f->conflict_up_id,
			 (unsigned long long)f->conflict_down_id);
		out_str(o, b);
	}
}

static void summary(struct merge *m, struct out *o, const char *prefix)
{
	char b[200];
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		out_str(o, prefix);
		say_fit(o, m->s[i], prefix);
	}
	snprintf(b, sizeof(b), "merge: records %llu; held at most %llu (ceiling %llu), %llu bytes\n",
		 (unsigned long long)m->records, (unsigned long long)m->peak,
		 (unsigned long long)merge_ceiling(m),
		 (unsigned long long)m->peak_bytes);
	out_str(o, prefix);
	out_str(o, b);
}

/* ---- setting up ---- */

static struct src *src_new(struct merge *m, const char *name)
{
	struct src *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->m = m;
	s->idx = m->n;
	s->fd = -1;
	s->name = name;
	s->a.o = *m->o;
	s->a.o.files = NULL;
	s->a.o.nfiles = 0;
	s->a.o.format = FMT_TEXT;
	s->a.o.packets = 0;
	s->a.o.messages = 1;
	s->a.o.no_output = 0;
	s->a.o.stats = 0;
	s->a.o.jobs = 1;
	m->s[m->n++] = s;
	return s;
}

/* the Linux stream: its files, policy and kind from the session */
static int stream_src(struct merge *m, const char *dir)
{
	struct src *s = src_new(m, "linux");
	struct mtts_meta meta;

	if (!s)
		return -1;
	memset(&meta, 0, sizeof(meta));
	s->proto = P_STREAM;
	if (mtts_streams(dir, &s->files, &s->nfiles))
		return -1;
	if (mtts_meta_read(dir, &meta, MTTD_RV_MAX_SRCID_BITS,
			   MTTD_RV_MAX_TS_BYTES) == 0 && meta.riscv) {
		s->a.o.input = IN_RISCV;
		s->a.o.srcid_bits = meta.srcid_bits;
		s->a.o.ts_bytes = meta.ts_bytes;
	} else {
		s->a.o.input = IN_STP;
	}
	s->a.o.syst = meta.syst;
	s->a.o.syst_auto = 0;
	s->a.o.policy = mtts_file(dir, "policy.txt");
	s->a.o.kallsyms = mtts_file(dir, "kallsyms");
	s->a.o.tracefs = mtts_file(dir, "events");
	s->a.o.collateral[0] = mtts_file(dir, "collateral.xml");
	s->a.o.ncollateral = s->a.o.collateral[0] != NULL;
	return 0;
}

/* a riscv-encap target's srcid_proto words ("IDS:PROTO ..."), as
 * --srcid-proto gives them; 0, or -1 (out of memory, errno ENOMEM) */
static int srcid_protos(struct src *s)
{
	char *w = strdup(s->t.srcid_proto), *save = NULL, *t;

	if (!w)
		return -1;
	for (t = strtok_r(w, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (srcid_proto(&s->a.o, t) && !s->a.o.rv_stp) {
			free(w);
			errno = ENOMEM;
			return -1;
		}
	free(w);
	return 0;
}

/* a serial target: its metadata, capture, reads and clock */
static int target_src(struct merge *m, const char *dir, const char *name)
{
	struct src *s = src_new(m, name);
	char *tdir;
	int ret = -1;

	if (!s || asprintf(&tdir, "%s/targets/%s", dir, name) < 0)
		return -1;
	s->proto = P_NONE;
	if (mtts_target_read(tdir, &s->t)) {
		if (errno == ENOMEM)
			goto out;
		fprintf(stderr, "mttdecode: %s: no readable target file (not merged)\n",
			tdir);
		ret = 0;
		goto out;
	}
	s->clk = mttclk_new();
	s->files = calloc(1, sizeof(*s->files));
	if (!s->clk || !s->files || !(s->files[0] = strdup(s->t.capture)))
		goto out;
	s->nfiles = 1;
	/* a byte's time on the wire: only on a port that moves bytes at
	 * the baud (sessions.rst, "paced"); elsewhere causality alone */
	if (s->t.baud && s->t.paced)
		s->ns_per_byte = 10e9 / (double)s->t.baud;
	if (!strcmp(s->t.protocol ? s->t.protocol : "", "mprof")) {
		s->proto = P_MPROF;
	} else if (!strcmp(s->t.protocol ? s->t.protocol : "", "mtt")) {
		s->proto = P_APP;
		s->a.o.input = IN_MTT;
	} else if (!strcmp(s->t.protocol ? s->t.protocol : "", "syst")) {
		s->proto = P_APP;
		s->a.o.input = IN_SYST;
		s->a.o.syst = 1;
	} else if (!strcmp(s->t.protocol ? s->t.protocol : "",
			   "riscv-encap")) {
		s->proto = P_APP;
		s->a.o.input = IN_RISCV;
		s->a.o.srcid_bits = s->t.srcid_bits;
		s->a.o.ts_bytes = s->t.ts_bytes;
		s->a.o.rv_unframed = s->t.unframed;
		if (s->t.srcid_proto && srcid_protos(s))
			goto out;
	}
	s->a.o.policy = NULL;
	s->a.o.kallsyms = s->a.o.tracefs = NULL;
	s->a.o.ncollateral = 0;
	s->a.o.syst_auto = 0;
	if (mtts_requests_open(dir, name, &s->req)) {
		s->req = NULL;
		if (errno == ENOMEM)
			goto out;
		if (errno != ENOENT)	/* a target without exchanges has none */
			fprintf(stderr, "mttdecode: %s/requests: %s (its down bounds not used)\n",
				tdir, errno == EINVAL ? "not a requests file" :
				strerror(errno));
	}
	ret = 0;
out:
	free(tdir);
	return ret;
}

static void src_free(struct src *s)
{
	unsigned int i;
	int k;

	if (!s)
		return;
	for (k = 0; k < s->nfiles; k++)
		free(s->files[k]);
	free(s->files);
	if (s->proto == P_STREAM) {
		free((char *)s->a.o.policy);
		free((char *)s->a.o.kallsyms);
		free((char *)s->a.o.tracefs);
		free((char *)s->a.o.collateral[0]);
	}
	free(s->a.o.rv_stp);
	free(s->a.o.rv_mtt);
	for (i = 0; i < s->ntracks; i++)
		free(s->tracks[i].key);
	free(s->q);
	free(s->win);
	mttclk_free(s->clk);
	mtts_requests_close(s->req);
	mprof_sym_free(s->sym);
	mtts_target_free(&s->t);
	free(s);
}

int merge_wanted(const struct opts *o)
{
	char **t = NULL;
	int n = 0;

	if (o->nfiles != 1 || o->other_opts ||
	    mtts_kind(o->files[0]) != MTTS_CONTROL)
		return 0;
	if (o->format != FMT_TEXT && o->format != FMT_JSON &&
	    o->format != FMT_CSV && o->format != FMT_CHROME &&
	    o->format != FMT_HTML)
		return 0;
	if (mtts_targets(o->files[0], &t, &n))
		return 0;
	mtts_free_list(t, n);
	return n > 0;
}

/* pass 1: every target's bounds, and its fit; 0, or 1 after saying why */
static int gather(struct merge *m)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < m->n && !err; i++) {
		struct src *s = m->s[i];

		if (s->proto == P_STREAM || s->proto == P_NONE)
			continue;
		err = src_open(s, 1);
		while (!err && !s->done && !m->oom)
			err = src_feed(s);
		src_close(s);
		/* CONFLICT: mapped with the up bounds' line, said so */
		mttclk_solve(s->clk, &s->fit);
	}
	return err || m->oom;
}

/* pass 2: the records of every source in order; 0, or 1 */
static int merge_all(struct merge *m)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < m->n && !err; i++) {
		struct src *s = m->s[i];

		if (s->proto == P_NONE)
			continue;
		if (s->proto == P_STREAM) {
			s->win = malloc(MERGE_WINDOW * sizeof(*s->win));
			if (!s->win)
				return 1;
		}
		err = src_open(s, 2);
		if (!err && (s->head = src_next(s, &err)))
			m->heap[m->nheap++] = i;
	}
	for (i = m->nheap; i-- > 0;)
		heap_down(m, i);
	while (m->nheap && !err && !m->oom && !m->out.err &&
	       !input_stopped()) {
		struct src *s = m->s[m->heap[0]];

		print_rec(m, &s->head->r);
		m->records++;
		held_free(m, s->head);
		s->head = src_next(s, &err);
		if (!s->head)
			m->heap[0] = m->heap[--m->nheap];
		if (m->nheap)
			heap_down(m, 0);
	}
	for (i = 0; i < m->n; i++) {
		struct src *s = m->s[i];

		if (s->proto == P_NONE)
			continue;
		held_free(m, s->head);
		s->head = NULL;
		while (s->qn) {
			held_free(m, s->q[s->qh]);
			s->qh = (s->qh + 1) % s->qcap;
			s->qn--;
		}
		while (s->nwin)
			held_free(m, s->win[--s->nwin]);
		src_close(s);
	}
	return err || m->oom;
}

int merge_session(const struct opts *o)
{
	const char *dir = o->files[0];
	struct merge *m = calloc(1, sizeof(*m));
	char **names = NULL;
	int n = 0, i, ret = EXIT_FAIL;

	if (!m)
		goto oom;
	m->o = o;
	out_init(&m->out, STDOUT_FILENO);
	if (mtts_targets(dir, &names, &n))
		goto oom;
	m->s = calloc((size_t)n + 1, sizeof(*m->s));
	m->heap = calloc((size_t)n + 1, sizeof(*m->heap));
	if (!m->s || !m->heap || stream_src(m, dir))
		goto oom;
	for (i = 0; i < n; i++)
		if (target_src(m, dir, names[i]))
			goto oom;
	if (gather(m))
		goto fail;
	if (o->format == FMT_CSV)
		out_str(&m->out, csv_head);
	if (o->format == FMT_HTML) {
		m->html = html_new(o->html_max);
		if (!m->html)
			goto oom;
		for (i = 0; i < (int)m->n; i++) {
			const struct src *s = m->s[i];

			html_target(m->html, (unsigned int)i, s->name,
				    s->proto == P_STREAM ? NULL : fit_name(s),
				    s->proto == P_NONE ? NAN : s->fit.drift_ppm,
				    s->proto == P_NONE ? INFINITY :
				    s->fit.bound_ns);
		}
	}
	if (o->format == FMT_CHROME) {
		out_str(&m->out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
		for (i = 0; i < (int)m->n; i++)
			chrome_meta(m, "process_name", (unsigned int)i + 1, 0,
				    m->s[i]->name);
	}
	if (merge_all(m))
		goto fail;
	if (o->format == FMT_CHROME)
		out_str(&m->out, "\n]}\n");
	if (o->format == FMT_HTML)
		html_write(m->html, &m->out, dir);
	if (o->format == FMT_TEXT)
		summary(m, &m->out, "# ");
	out_flush(&m->out);
	if (m->out.err) {
		fprintf(stderr, "mttdecode: write error: %s\n",
			strerror(m->out.err));
		goto fail;
	}
	if (o->stats) {
		struct out e;

		out_init(&e, STDERR_FILENO);
		summary(m, &e, "");
		out_flush(&e);
	}
	ret = EXIT_OK;
	goto fail;
oom:
	fprintf(stderr, "mttdecode: out of memory\n");
fail:
	if (m && m->oom && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (m) {
		for (i = 0; i < (int)m->n; i++)
			src_free(m->s[i]);
		free(m->s);
		free(m->heap);
		html_free(m->html);
	}
	mtts_free_list(names, n);
	free(m);
	return ret;
}
