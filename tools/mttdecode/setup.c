// SPDX-License-Identifier: GPL-2.0
/*
 * setup.c - everything mttdecode needs before reading: collateral,
 * policy, kallsyms and tracefs files, the decoders for the chosen input
 * and the sinks that connect them to the printer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

static void on_msg(void *ctx, const struct mttd_msg *m)
{
	struct app *a = ctx;

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

static int fail(const char *what)
{
	fprintf(stderr, "mttdecode: %s\n", what);
	return 1;
}

static int resources(struct app *a)
{
	char err[512];
	int i;

	if (a->o.ncollateral) {
		a->coll = mttd_coll_new();
		if (!a->coll)
			return fail("out of memory");
		for (i = 0; i < a->o.ncollateral; i++)
			if (mttd_coll_load_file(a->coll, a->o.collateral[i],
						err, sizeof(err)))
				return fail(err);
	}
	if (a->o.policy) {
		a->policy = mttd_policy_new();
		if (!a->policy)
			return fail("out of memory");
		if (mttd_policy_load_file(a->policy, a->o.policy, err,
					  sizeof(err)))
			return fail(err);
	}
	if (a->o.kallsyms || a->o.tracefs) {
		a->ftrace = mttd_ftrace_new();
		a->fbuf = malloc(FTRACE_BUF);
		if (!a->ftrace || !a->fbuf)
			return fail("out of memory");
		if (a->o.kallsyms &&
		    mttd_ftrace_load_kallsyms(a->ftrace, a->o.kallsyms, err,
					      sizeof(err)))
			return fail(err);
		if (a->o.tracefs &&
		    mttd_ftrace_load_tracefs(a->ftrace, a->o.tracefs, err,
					     sizeof(err)))
			return fail(err);
	}
	return 0;
}

static const struct printer *printer(int format)
{
	switch (format) {
	case FMT_JSON: return &json_printer;
	case FMT_CSV: return &csv_printer;
	case FMT_CHROME: return &chrome_printer;
	default: return &text_printer;
	}
}

int setup(struct app *a)
{
	struct mttd_stp_config sc = {
		.fn = on_stp, .ctx = a,
		.flags = (a->o.packets && a->o.nulls) ? MTTD_STP_NULLS : 0,
	};
	struct mttd_msg_config mc = {
		.max_len = a->o.max_len, .max_open = (unsigned int)a->o.max_open,
	};
	struct mttd_msg_sink sink = {
		.msg = a->o.syst ? NULL : on_msg, .event = on_event, .ctx = a,
	};
	struct mttd_msg_sink ssink;
	struct mttd_syst_config yc = {
		.fn = on_syst, .event = on_syst_event, .ctx = a,
	};

	if (resources(a))
		return 1;
	a->stp_hz = 1000000000u;
	a->src_key = UINT32_MAX;
	a->pr = printer(a->o.format);
	out_init(&a->out, STDOUT_FILENO);
	if (a->o.format == FMT_CHROME) {
		a->chrome = calloc(1, sizeof(*a->chrome));
		if (!a->chrome)
			return fail("out of memory");
	}
	if (a->o.syst) {
		yc.coll = a->coll;
		a->syst = mttd_syst_new(&yc);
		if (!a->syst)
			return fail("out of memory");
	}
	switch (a->o.input) {
	case IN_SYST:
		a->stream = mttd_syst_stream_new(a->syst);
		if (!a->stream)
			return fail("out of memory");
		break;
	case IN_SYSTTEXT:
		a->text = mttd_syst_text_new(a->syst);
		if (!a->text)
			return fail("out of memory");
		break;
	default:
		a->stp = mttd_stp_new(&sc);
		a->msg = mttd_msg_new(&mc);
		if (!a->stp || !a->msg)
			return fail("out of memory");
		if (a->syst) {
			mttd_syst_sink(a->syst, &ssink);
			mttd_msg_add_sink(a->msg, &ssink);
		}
		if (!a->o.no_output)
			mttd_msg_add_sink(a->msg, &sink);
		break;
	}
	if (!a->o.no_output && a->pr->begin)
		a->pr->begin(a);
	return 0;
}

void teardown(struct app *a)
{
	mttd_syst_stream_free(a->stream);
	mttd_syst_text_free(a->text);
	mttd_syst_free(a->syst);
	mttd_stp_free(a->stp);
	mttd_msg_free(a->msg);
	mttd_coll_free(a->coll);
	mttd_policy_free(a->policy);
	mttd_ftrace_free(a->ftrace);
	free(a->fbuf);
	free(a->chrome);
}
