// SPDX-License-Identifier: GPL-2.0
/*
 * par.c - mttdecode -j: a raw STP file, or a file of the reference
 * printer's "SYS-T RAW DATA:" hex lines, decoded on several threads with
 * the output of the single-threaded run, byte for byte.
 *
 * The file after the first window is cut into pieces of --segment bytes.
 * A worker decodes piece k with decoders and printer state of its own:
 * first a warm-up over the WARM bytes before the piece (output thrown
 * away; the STP decoder finds an ASYNC there and the message layer,
 * SyS-T clocks and printer state fill in), then it writes down that
 * state (par_state()) and decodes the piece into memory.  The main
 * thread takes the pieces in order.  The context that decoded piece k-1
 * for real is in the exact state of a single-threaded run at the start
 * of piece k; when its state equals the state the worker started piece
 * k from, the worker's output is the single-threaded output and its
 * decoders go on as the real ones.  Otherwise the worker's piece is
 * thrown away and the real context decodes the piece itself, in order.
 * A worker keeps at most OUT_CAP_K times --segment bytes of output: when
 * its piece's output reaches that, it stops there, and the real context
 * decodes the rest of the piece in order (after the worker's output),
 * writing as it goes.  So that this stays rare, pieces are smaller than
 * --segment when the first window printed more than OUT_CAP_K bytes a
 * byte (piece_size()).  Warm-up output is thrown away as it comes.
 * So a stream that does not repeat its state (no ASYNC, VERSION, full
 * timestamps or channel packets within a warm-up; messages open for
 * longer than a warm-up) decodes correctly, only not in parallel.
 *
 * At most jobs + 1 pieces are in flight, each holding at most its cap of
 * output (plus what one FEED_STEP of input prints): peak memory is
 * bounded by jobs and --segment, whatever the file's size and the
 * output's (performance.rst, "Memory").  Counters (--stats) are added up
 * piece by piece.
 *
 * Hex lines go the same way, with the text reader in place of the STP
 * decoder and message layer: a piece starts anywhere, and the warm-up
 * ends the line it started in, so at the piece's start the worker holds
 * the line cut there as the real reader does (compared with the rest of
 * the state; a line longer than the warm-up makes them differ, and the
 * piece is decoded again).  The line number is the one thing a worker
 * cannot know without reading from the start: it counts from its
 * warm-up, the number is left out of the state compared, and a used
 * worker's reader takes the real count plus the lines of its piece.  A
 * piece in which a line was reported bad (the report holds the line's
 * number) is decoded again in order.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "internal/state.h"

/* warm-up bytes before a piece; with SyS-T, long enough to see every
 * source's CLOCK sync again (the Linux p_sys-t shaped stream of make
 * bench has one per source every ~0.5 MB) */
#define WARM (64u << 10)
#define WARM_SYST (1u << 20)
#define SEGMENT (4u << 20)	/* default --segment */
#define SEGMENT_SYST (8u << 20)
#define MAP_STEP (4u << 20)	/* bytes mapped at a time */
#define FEED_STEP (32u << 10)	/* bytes fed between output checks */
#define OUT_CAP_K 3u		/* a piece's output cap: this x --segment */

struct piece {
	uint64_t start, end;	/* the output range */
	uint64_t stop;		/* the worker decoded [start, stop) */
	struct app *w;		/* its decoders */
	struct mttd__blob state;	/* w's state at start */
	struct mttd_stp_stats st0;	/* w's counters at start */
	struct mttd_msg_stats ms0;
	struct mttd_syst_stats ys0;
	uint64_t line0;		/* hex lines: w's line number at start */
	int ready;
	int err;
};

struct pool {
	struct app *a;
	struct app *tmpl;	/* a's state when par_decode() began: what
				 * the workers' contexts start from */
	int text;		/* hex lines (a->text), else raw STP */
	int fd;
	uint64_t off, size, seg;
	uint64_t warm;		/* warm-up bytes */
	size_t cap;		/* a worker's output cap per piece */
	uint64_t n;		/* pieces; piece 0 is the main thread's */
	unsigned int window;	/* pieces in flight */
	struct piece *p;	/* window slots: piece k in p[k % window] */
	uint64_t next;		/* next piece for a worker */
	uint64_t merged;	/* pieces before it are used up */
	int quit;
	/* output buffers of finished contexts, for the next ones (no new
	 * pages to fault in for every piece) */
	unsigned int nspare;
	struct { char *p; size_t cap; } spare[8];
	pthread_mutex_t mu;
	pthread_cond_t work, done;
};

unsigned int par_jobs(const struct app *a)
{
	long n;

	if (a->html)
		return 1;	/* the page's records are kept in order */
	if (a->o.jobs)
		return (unsigned int)a->o.jobs;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 1024 ? 1024 : (unsigned int)n;
}

uint64_t par_segment(const struct app *a)
{
	if (a->o.segment)
		return a->o.segment;
	return a->o.syst || a->kind == IN_SYSTTEXT ? SEGMENT_SYST : SEGMENT;
}

/*
 * The size of the pieces: seg, or smaller when the first off bytes (the
 * first window, decoded before par_decode()) printed more than
 * OUT_CAP_K bytes a byte: then a piece is cut so that 9/8 of its output
 * at that rate fits its cap of OUT_CAP_K x seg, and the workers decode
 * whole pieces (4096 bytes at least)
 */
static uint64_t piece_size(const struct app *a, uint64_t seg, uint64_t off)
{
	uint64_t out = a->out.written + a->out.len, s;

	if (!off || out <= OUT_CAP_K * off)
		return seg;
	s = seg * OUT_CAP_K * 8 * off / (9 * out);
	s -= s % 4096;
	return s < 4096 ? 4096 : s;
}

/* ---- contexts ---- */

/* w's output buffer back to the pool (freed when the pool is full or pl
 * is NULL); w's output goes to its own OUT_BUF bytes from here on */
static void give_buf(struct pool *pl, struct app *w)
{
	if (!w->out.mem)
		return;
	if (pl)
		pthread_mutex_lock(&pl->mu);
	if (pl && pl->nspare < pl->window &&
	    pl->nspare < sizeof(pl->spare) / sizeof(pl->spare[0])) {
		pl->spare[pl->nspare].p = w->out.mem;
		pl->spare[pl->nspare++].cap = w->out.mem_cap;
	} else {
		free(w->out.mem);
	}
	if (pl)
		pthread_mutex_unlock(&pl->mu);
	w->out.mem = NULL;
	w->out.mem_cap = 0;
	w->out.mem_len = 0;
	w->out.len = 0;
	w->out.buf = w->out.own;
}

static void take_buf(struct pool *pl, struct app *w)
{
	pthread_mutex_lock(&pl->mu);
	if (pl->nspare && !w->out.mem && !w->out.len) {
		w->out.mem = pl->spare[--pl->nspare].p;
		w->out.mem_cap = pl->spare[pl->nspare].cap;
		out_mem_clear(&w->out);
	}
	pthread_mutex_unlock(&pl->mu);
}

static void free_ctx(struct pool *pl, struct app *w)
{
	if (!w)
		return;
	give_buf(pl, w);
	mttd_stp_free(w->stp);
	mttd_msg_free(w->msg);
	mttd_syst_text_free(w->text);
	mttd_syst_free(w->syst);
	free(w->chrome);
	free(w->fbuf);
	mttd_mtt_names_free(w->mtt_names);
	free(w->mtt_value);
	out_free_mem(&w->out);
	free(w);
}

/* a context for a worker: a's options, resources and printer state, its
 * own decoders (an STP decoder or, with text, a hex line reader, starting
 * at byte from), output to memory */
static struct app *new_ctx(const struct app *a, int text, uint64_t from)
{
	struct app *w = malloc(sizeof(*w));
	struct mttd_syst_config yc = {
		.fn = on_syst, .event = on_syst_event,
		.max_len = a->o.max_len, .coll = a->coll,
		.short_guid = a->o.has_short_guid ? a->o.short_guid : NULL,
	};

	if (!w)
		return NULL;
	memcpy(w, a, offsetof(struct app, out));
	w->stp = NULL;
	w->rv = NULL;
	w->msg = NULL;
	w->stream = NULL;
	w->text = NULL;
	w->sniff = NULL;
	w->chrome = NULL;
	w->fbuf = NULL;
	w->syst = NULL;
	w->mtt_stream = NULL;
	w->mtt_names = mttd_mtt_names_new(a->coll);
	w->mtt_value = malloc(MTT_VALUE_BUF);
	out_init_mem(&w->out);
	yc.ctx = w;
	w->syst = mttd_syst_new(&yc);
	if (a->chrome) {
		w->chrome = malloc(sizeof(*w->chrome));
		if (w->chrome)
			memcpy(w->chrome, a->chrome, sizeof(*w->chrome));
	}
	if (a->fbuf)
		w->fbuf = malloc(FTRACE_BUF);
	if (!w->syst || (a->chrome && !w->chrome) || (a->fbuf && !w->fbuf) ||
	    !w->mtt_names || !w->mtt_value ||
	    mttd__mtt_names_copy(w->mtt_names, a->mtt_names)) {
		free_ctx(NULL, w);
		return NULL;
	}
	mttd__syst_copy_state(w->syst, a->syst);
	/* fe_open() prints nothing for these but "out of memory" */
	if (fe_open(w, text ? IN_SYSTTEXT : IN_STP)) {
		free_ctx(NULL, w);
		return NULL;
	}
	w->ts = a->ts;
	if (text)
		mttd__syst_text_start_at(w->text, from);
	else
		mttd__stp_start_at(w->stp, from);
	return w;
}

#define PUT(b, x) mttd__blob_put((b), &(x), sizeof(x))

/* everything that decides what c prints from here on */
static void par_state(const struct app *c, struct mttd__blob *b)
{
	const struct chrome_state *ch = c->chrome;

	if (c->text) {
		mttd__syst_text_state(c->text, b);	/* no line number */
	} else {
		mttd__stp_state(c->stp, b);
		mttd__msg_state(c->msg, b);
	}
	mttd__syst_state(c->syst, b);
	mttd__mtt_names_state(c->mtt_names, b);
	PUT(b, c->ts.have_version);
	PUT(b, c->ts.version);
	PUT(b, c->ts.have_freq);
	PUT(b, c->ts.freq);
	PUT(b, c->stp_hz);
	PUT(b, c->syst_hz);
	if (ch) {
		unsigned int i;
		uint8_t any = ch->events != 0;	/* only "a comma first?" */

		PUT(b, any);
		PUT(b, ch->last_ns);
		PUT(b, ch->next_tid);
		PUT(b, ch->seen_pid);
		for (i = 0; i < CHROME_TRACKS; i++) {
			if (!ch->track[i].used)
				continue;
			PUT(b, i);
			PUT(b, ch->track[i].key);
			PUT(b, ch->track[i].tid);
		}
	}
}

/* ---- reading ---- */

/* what to do with c's output after each FEED_STEP of input */
enum sink { KEEP, DROP, EMIT };

static void emit(struct app *a, struct app *c);

/* n bytes at p to c's front end: its hex line reader or STP decoder */
static void feed(struct app *c, const uint8_t *p, size_t n)
{
	if (c->text)
		mttd_syst_text_feed(c->text, p, n);
	else
		mttd_stp_feed(c->stp, p, n);
}

/*
 * Feed bytes [from, to) of the file to c's front end, FEED_STEP at a
 * time; after each step c's output is kept (KEEP: until it reaches cap
 * bytes, where feeding stops), thrown away (DROP) or written out through
 * a's (EMIT).  *at is where feeding stopped; 0 or -1.
 */
static int feed_range(struct app *c, int fd, uint64_t from, uint64_t to,
		      enum sink how, struct app *a, size_t cap, uint64_t *at)
{
	long page = sysconf(_SC_PAGESIZE);
	int ret = 0;

	while (from < to && !ret) {
		uint64_t start = from - from % (uint64_t)page;
		uint64_t end = to - from > MAP_STEP ? from + MAP_STEP : to;
		size_t n = (size_t)(end - start);
		uint8_t *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
				  (off_t)start);

		if (p == MAP_FAILED) {
			ret = -1;
			break;
		}
		madvise(p, n, MADV_SEQUENTIAL | MADV_WILLNEED);
		while (from < end) {
			size_t k = end - from > FEED_STEP ? FEED_STEP :
				   (size_t)(end - from);

			feed(c, p + (from - start), k);
			from += k;
			out_flush(&c->out);
			if (how == DROP) {
				out_mem_clear(&c->out);
			} else if (how == EMIT) {
				emit(a, c);
			} else if (c->out.mem_len >= cap) {
				ret = from < to;	/* full: stop here */
				break;
			}
		}
		munmap(p, n);
	}
	if (at)
		*at = from;
	return ret < 0 ? -1 : 0;
}

/* ---- counters ---- */

static void add_stp(struct mttd_stp_stats *t, const struct mttd_stp_stats *s,
		    const struct mttd_stp_stats *s0)
{
	t->bytes += s->bytes - s0->bytes;
	t->packets += s->packets - s0->packets;
	t->nulls += s->nulls - s0->nulls;
	t->syncs += s->syncs - s0->syncs;
	t->desyncs += s->desyncs - s0->desyncs;
	t->unsynced_nibbles += s->unsynced_nibbles - s0->unsynced_nibbles;
	t->truncated += s->truncated - s0->truncated;
}

static void add_msg(struct mttd_msg_stats *t, const struct mttd_msg_stats *s,
		    const struct mttd_msg_stats *s0)
{
	unsigned int i;

	t->messages += s->messages - s0->messages;
	t->incomplete += s->incomplete - s0->incomplete;
	t->truncated += s->truncated - s0->truncated;
	t->evicted += s->evicted - s0->evicted;
	for (i = 0; i < 4; i++)
		t->losses[i] += s->losses[i] - s0->losses[i];
	t->stray_flags += s->stray_flags - s0->stray_flags;
}

/* ---- workers ---- */

static void decode_piece(struct pool *pl, struct piece *pc)
{
	uint64_t warm = pc->start < pl->warm ? pc->start : pl->warm;
	struct app *w = new_ctx(pl->tmpl, pl->text, pc->start - warm);

	pc->w = w;
	if (w)
		take_buf(pl, w);
	if (!w || feed_range(w, pl->fd, pc->start - warm, pc->start, DROP,
			     NULL, 0, NULL)) {
		pc->err = 1;
		return;
	}
	par_state(w, &pc->state);
	if (w->text) {
		pc->line0 = mttd__syst_text_lineno(w->text);
	} else {
		pc->st0 = *mttd_stp_stats(w->stp);
		pc->ms0 = *mttd_msg_stats(w->msg);
	}
	pc->ys0 = *mttd_syst_stats(w->syst);
	if (feed_range(w, pl->fd, pc->start, pc->end, KEEP, NULL, pl->cap,
		       &pc->stop))
		pc->err = 1;
}

static void *worker(void *arg)
{
	struct pool *pl = arg;

	pthread_mutex_lock(&pl->mu);
	for (;;) {
		struct piece *pc;
		uint64_t k;

		while (!pl->quit && pl->next < pl->n &&
		       pl->next >= pl->merged + pl->window)
			pthread_cond_wait(&pl->work, &pl->mu);
		if (pl->quit || pl->next >= pl->n)
			break;
		k = pl->next++;
		pc = &pl->p[k % pl->window];
		pthread_mutex_unlock(&pl->mu);
		pc->start = pl->off + k * pl->seg;
		pc->end = pl->size - pc->start > pl->seg ? pc->start + pl->seg :
			  pl->size;
		decode_piece(pl, pc);
		pthread_mutex_lock(&pl->mu);
		pc->ready = 1;
		pthread_cond_broadcast(&pl->done);
	}
	pthread_mutex_unlock(&pl->mu);
	return NULL;
}

/* ---- the main thread ---- */

/* c's output so far goes out through a's */
static void emit(struct app *a, struct app *c)
{
	if (c == a)
		return;
	out_flush(&c->out);
	if (c->out.mem_len)
		out_big(&a->out, c->out.mem, c->out.mem_len);
	out_mem_clear(&c->out);
	if (c->out.err && !a->out.err)
		a->out.err = c->out.err;
}

/*
 * r, a worker's context, becomes the real one: its output so far goes out
 * through a's, then it writes straight to a's file descriptor (a's
 * buffer emptied first, so the order holds), holding no output buffer
 */
static void to_fd(struct pool *pl, struct app *a, struct app *r)
{
	emit(a, r);
	out_flush(&a->out);
	give_buf(pl, r);
	r->out.fd = a->out.fd;
}

/* the real context r (counters at r0) is done with: count it, free it */
static void retire(struct pool *pl, struct app *a, struct app *r,
		   const struct piece *r0)
{
	if (r == a && a->text) {
		/* its counters are a's; the used piece's reader goes on */
		mttd_syst_text_free(a->text);
		a->text = NULL;
		return;
	}
	if (r == a) {
		static const struct mttd_stp_stats z;
		static const struct mttd_msg_stats zm;

		add_stp(&a->stp_tot, mttd_stp_stats(a->stp), &z);
		add_msg(&a->msg_tot, mttd_msg_stats(a->msg), &zm);
		mttd_stp_free(a->stp);
		mttd_msg_free(a->msg);
		a->stp = NULL;
		a->msg = NULL;
		return;
	}
	if (r->stp) {
		add_stp(&a->stp_tot, mttd_stp_stats(r->stp), &r0->st0);
		add_msg(&a->msg_tot, mttd_msg_stats(r->msg), &r0->ms0);
	}
	mttd__syst_stats_add(a->syst, mttd_syst_stats(r->syst), &r0->ys0);
	free_ctx(pl, r);
}

/* the input ends in context r (not a): finish it, hand its state to a */
static int finish_in(struct pool *pl, struct app *a, struct app *r,
		     const struct piece *r0, int fd)
{
	uint8_t *buf = malloc(1u << 20);
	int ret = 0;

	/* what was appended to the file meanwhile, as decode_fd() does */
	while (buf && !input_stopped()) {
		ssize_t n = read(fd, buf, 1u << 20);

		if (n <= 0)
			break;
		a->bytes += (uint64_t)n;
		feed(r, buf, (size_t)n);
		emit(a, r);
	}
	free(buf);
	if (r->text)
		mttd_syst_text_finish(r->text);
	else
		mttd_stp_finish(r->stp);
	emit(a, r);
	a->ts = r->ts;
	a->stp_hz = r->stp_hz;
	a->syst_hz = r->syst_hz;
	if (a->chrome)
		memcpy(a->chrome, r->chrome, sizeof(*a->chrome));
	mttd__syst_copy_state(a->syst, r->syst);
	if (mttd__mtt_names_copy(a->mtt_names, r->mtt_names))
		ret = -1;
	retire(pl, a, r, r0);
	return ret;
}

int par_decode(struct app *a, int fd, uint64_t off, uint64_t size)
{
	struct pool pl = { .a = a, .fd = fd, .off = off, .size = size,
			   .text = a->text != NULL };
	unsigned int jobs = par_jobs(a), i, nt = 0;
	struct app *r = a;	/* the real context */
	struct piece r0 = { 0 };	/* its counters when it became real */
	pthread_t *t;
	uint64_t k;
	int ret = 0;

	pl.seg = par_segment(a);
	pl.warm = a->o.syst || pl.text ? WARM_SYST : WARM;
	pl.cap = (size_t)(OUT_CAP_K * pl.seg);
	pl.seg = piece_size(a, pl.seg, off);
	pl.n = (size - off + pl.seg - 1) / pl.seg;
	pl.window = jobs + 1;
	pl.next = 1;
	pl.p = calloc(pl.window, sizeof(*pl.p));
	t = calloc(jobs, sizeof(*t));
	pthread_mutex_init(&pl.mu, NULL);
	pthread_cond_init(&pl.work, NULL);
	pthread_cond_init(&pl.done, NULL);
	pl.tmpl = pl.n > 1 ? new_ctx(a, pl.text, off) : NULL;
	if (!pl.p || !t || !pl.tmpl)
		jobs = 0;	/* no workers: all in order, here */
	for (i = 0; i < jobs && pl.n > 1; i++)
		if (!pthread_create(&t[nt], NULL, worker, &pl))
			nt++;

	for (k = 0; k < pl.n && !ret; k++) {
		uint64_t start = off + k * pl.seg;
		uint64_t end = size - start > pl.seg ? start + pl.seg : size;
		struct piece none = { 0 };
		struct piece *pc = nt ? &pl.p[k % pl.window] : &none;
		int use = 0;

		if (k && nt) {
			struct mttd__blob now = { 0 };

			pthread_mutex_lock(&pl.mu);
			while (!pc->ready)
				pthread_cond_wait(&pl.done, &pl.mu);
			pthread_mutex_unlock(&pl.mu);
			if (!pc->err) {
				par_state(r, &now);
				use = mttd__blob_eq(&now, &pc->state);
			}
			/* a bad line's report holds the worker's line
			 * number, not the real one */
			if (use && pl.text &&
			    mttd_syst_stats(pc->w->syst)->bad_lines !=
			    pc->ys0.bad_lines)
				use = 0;
			mttd__blob_free(&now);
		}
		if (k)
			a->par_pieces[!use]++;
		if (use && pl.text) {
			/* the real line number, plus the piece's lines */
			struct mttd_syst_text *t = pc->w->text;

			mttd__syst_text_set_lineno(t,
				mttd__syst_text_lineno(r->text) +
				mttd__syst_text_lineno(t) - pc->line0);
		}
		if (use) {
			retire(&pl, a, r, &r0);
			r = pc->w;
			r0 = *pc;
			to_fd(&pl, a, r);
			/* cut short at the cap: the rest, in order */
			if (pc->stop < end) {
				a->par_capped++;
				if (feed_range(r, fd, pc->stop, end, EMIT, a, 0,
					       NULL))
					ret = 1;
			}
		} else {
			free_ctx(&pl, pc->w);
			if (feed_range(r, fd, start, end, EMIT, a, 0, NULL))
				ret = 1;
		}
		a->bytes += end - start;
		mttd__blob_free(&pc->state);
		memset(pc, 0, sizeof(*pc));
		pthread_mutex_lock(&pl.mu);
		pl.merged = k + 1;
		if (input_stopped() || a->out.err)
			pl.quit = 1;
		pthread_cond_broadcast(&pl.work);
		pthread_mutex_unlock(&pl.mu);
		if (pl.quit)
			break;
	}

	pthread_mutex_lock(&pl.mu);
	pl.quit = 1;
	pthread_cond_broadcast(&pl.work);
	pthread_mutex_unlock(&pl.mu);
	for (i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	for (i = 0; pl.p && i < pl.window; i++) {
		free_ctx(&pl, pl.p[i].w);
		mttd__blob_free(&pl.p[i].state);
	}
	free(pl.p);
	free(t);
	free_ctx(&pl, pl.tmpl);
	pthread_cond_destroy(&pl.work);
	pthread_cond_destroy(&pl.done);
	if (lseek(fd, (off_t)size, SEEK_SET) != (off_t)size)
		ret = 1;
	if (r != a)
		ret |= finish_in(&pl, a, r, &r0, fd);
	for (i = 0; i < pl.nspare; i++)
		free(pl.spare[i].p);
	pthread_mutex_destroy(&pl.mu);
	return ret;
}
