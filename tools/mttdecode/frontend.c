// SPDX-License-Identifier: GPL-2.0
/*
 * frontend.c - the decoders of one input: the STP packet decoder (or
 * the RISC-V encapsulation decoder, which hands on the same events) and
 * message layer (SyS-T sink and printer sink attached), the plain SyS-T
 * stream framer or the reference printer text reader.  Each input file
 * gets its own, so each is its own stream (its own ASYNC, offsets from
 * 0); the SyS-T decoder, the printer and the totals for --stats are
 * shared.  When an input ends, a non-empty input in which nothing
 * synchronised is reported on standard error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void on_stp(void *ctx, const struct mttd_stp_event *ev, size_t n)
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

static void on_encap(void *ctx, const struct mttd_rv_packet *p,
		     uint64_t offset)
{
	struct app *a = ctx;

	if (mtt_encap(a, p, offset + p->size))
		return;
	if (!a->o.no_output && (a->o.messages || a->o.packets))
		a->pr->encap(a, p, offset);
}

static void on_msg(void *ctx, const struct mttd_msg *m)
{
	struct app *a = ctx;

	if ((!a->o.no_mtt && mtt_sync(m->data, m->len) &&
	     mtt_from_msg(a, m)) || a->o.syst)
		return;
	if (a->o.messages)
		a->pr->msg(a, m);
}

static void on_event(void *ctx, const struct mttd_msg_event *e)
{
	struct app *a = ctx;

	if (e->kind == MTTD_ME_FREQ && e->value)
		a->stp_hz = e->value;
	a->pr->event(a, e);
}

static int oom(void)
{
	fprintf(stderr, "mttdecode: out of memory\n");
	return 1;
}

static int open_stp(struct app *a)
{
	struct mttd_stp_config sc = {
		.fn = on_stp, .ctx = a,
		.flags = (a->o.packets && a->o.nulls) ? MTTD_STP_NULLS : 0,
	};
	struct mttd_msg_config mc = {
		.max_len = a->o.max_len, .max_open = (unsigned int)a->o.max_open,
	};
	struct mttd_msg_sink sink = {
		.msg = on_msg, .event = on_event, .ctx = a,
	};
	struct mttd_msg_sink ssink;

	struct mttd_rv_config rc = {
		.fn = on_stp, .ctx = a, .flags = sc.flags ? MTTD_RV_NULLS : 0,
		.srcid_bits = (unsigned int)a->o.srcid_bits,
		.ts_bytes = (unsigned int)a->o.ts_bytes,
		.pkt_fn = on_encap, .stp_srcids = a->o.rv_stp,
	};

	a->msg = mttd_msg_new(&mc);
	if (!a->msg)
		return oom();
	/* no packet output: the library's own hand-over, which lets the
	 * decoder feed the message layer directly (its fused path) */
	if (!a->o.packets || a->o.no_output) {
		sc.fn = mttd_msg_stp_fn;
		sc.ctx = a->msg;
	}
	if (a->o.rv_unframed)
		rc.flags |= MTTD_RV_UNFRAMED;
	if (a->kind == IN_RISCV && a->o.rv_max_named >= 1l << a->o.srcid_bits) {
		fprintf(stderr, "mttdecode: --srcid-proto: srcID %ld does not "
			"fit in %lu bits (--srcid-bits)\n", a->o.rv_max_named,
			a->o.srcid_bits);
		return 1;
	}
	if (a->kind == IN_RISCV)
		a->rv = mttd_rv_new(&rc);
	else
		a->stp = mttd_stp_new(&sc);
	if ((!a->stp && !a->rv) || (a->rv && mtt_encap_open(a)))
		return oom();
	if (a->o.syst) {
		mttd_syst_sink(a->syst, &ssink);
		mttd_msg_add_sink(a->msg, &ssink);
	}
	if (!a->o.no_output)
		mttd_msg_add_sink(a->msg, &sink);
	a->had_stp = 1;
	return 0;
}

int fe_open(struct app *a, int kind)
{
	const struct mttd_syst_stats *ys = mttd_syst_stats(a->syst);

	a->kind = kind;
	memset(&a->ts, 0, sizeof(a->ts));	/* announce again per input */
	a->syst_msgs0 = ys->messages;
	a->syst_bad0 = ys->bad_lines;
	switch (kind) {
	case IN_SYST:
		a->stream = mttd_syst_stream_new(a->syst);
		a->had_stream = 1;
		return a->stream ? 0 : oom();
	case IN_MTT:
		return mtt_stream_open(a) ? oom() : 0;
	case IN_SYSTTEXT:
		a->text = mttd_syst_text_new(a->syst);
		a->had_text = 1;
		return a->text ? 0 : oom();
	case IN_MSC:
	case IN_CS:
		return open_stp(a) || frame_open(a, kind);
	default:
		return open_stp(a);
	}
}

static void add_stats(struct app *a, const struct mttd_stp_stats *s)
{
	const struct mttd_msg_stats *m = mttd_msg_stats(a->msg);
	struct mttd_stp_stats *ts = &a->stp_tot;
	struct mttd_msg_stats *tm = &a->msg_tot;
	unsigned int i;

	ts->bytes += s->bytes;
	ts->packets += s->packets;
	ts->nulls += s->nulls;
	ts->syncs += s->syncs;
	ts->desyncs += s->desyncs;
	ts->unsynced_nibbles += s->unsynced_nibbles;
	ts->truncated += s->truncated;
	tm->messages += m->messages;
	tm->incomplete += m->incomplete;
	tm->truncated += m->truncated;
	tm->evicted += m->evicted;
	for (i = 0; i < 4; i++)
		tm->losses[i] += m->losses[i];
	tm->stray_flags += m->stray_flags;
}

static void nothing(struct app *a, const char *what)
{
	fprintf(stderr, "mttdecode: %s: nothing synchronised in %llu bytes: "
		"%s\n", a->name, (unsigned long long)a->bytes, what);
	a->nothing = 1;
}

void fe_close(struct app *a)
{
	const struct mttd_syst_stats *ys = mttd_syst_stats(a->syst);
	int none = 0;

	if (a->stream) {
		mttd_syst_stream_finish(a->stream);
		none = ys->messages == a->syst_msgs0;
		mttd_syst_stream_free(a->stream);
		a->stream = NULL;
	} else if (a->text || a->kind == IN_SYSTTEXT) {
		/* no reader left: -j (par.c) finished the input */
		if (a->text)
			mttd_syst_text_finish(a->text);
		none = ys->messages == a->syst_msgs0 &&
		       ys->bad_lines == a->syst_bad0;
		mttd_syst_text_free(a->text);
		a->text = NULL;
	} else if (a->mtt_stream) {
		mtt_stream_close(a);
	} else if (a->stp) {
		frame_close(a);
		mttd_stp_finish(a->stp);
		none = !mttd_stp_stats(a->stp)->syncs;
		add_stats(a, mttd_stp_stats(a->stp));
		mttd_stp_free(a->stp);
		mttd_msg_free(a->msg);
		a->stp = NULL;
		a->msg = NULL;
	} else if (a->rv) {
		const struct mttd_rv_counts *c;

		mttd_rv_finish(a->rv);
		mtt_encap_close(a);
		none = !mttd_rv_stats(a->rv)->syncs;
		add_stats(a, mttd_rv_stats(a->rv));
		c = mttd_rv_counts(a->rv);
		a->rv_tot.encap += c->encap;
		a->rv_tot.not_stp += c->not_stp;
		a->rv_tot.alignment += c->alignment;
		a->had_rv = 1;
		mttd_rv_free(a->rv);
		mttd_msg_free(a->msg);
		a->rv = NULL;
		a->msg = NULL;
	}
	if (!none || !a->bytes)
		return;
	if (a->o.input == IN_AUTO)
		nothing(a, "no STP ASYNC, no \"SYS-T RAW DATA:\" line, no "
			"SyS-T messages (see --input)");
	else if (a->kind == IN_SYST)
		nothing(a, "no SyS-T message could be framed");
	else if (a->kind == IN_SYSTTEXT)
		nothing(a, "no \"SYS-T RAW DATA:\" line");
	else if (a->kind == IN_RISCV)
		nothing(a, "no RISC-V sync sequence (see --srcid-bits, "
			"--ts-bytes)");
	else
		nothing(a, "no STP ASYNC");
}
