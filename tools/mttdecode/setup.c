// SPDX-License-Identifier: GPL-2.0
/*
 * setup.c - everything mttdecode needs before reading: collateral,
 * policy, kallsyms and tracefs files, the SyS-T decoder and the printer.
 * The decoders of each input are made by frontend.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

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
	case FMT_HTML: return &html_printer;
	default: return &text_printer;
	}
}

int setup(struct app *a)
{
	struct mttd_syst_config yc = {
		.fn = on_syst, .event = on_syst_event, .ctx = a,
		.max_len = a->o.max_len,
		.short_guid = a->o.has_short_guid ? a->o.short_guid : NULL,
	};

	if (resources(a))
		return 1;
	a->stp_hz = 1000000000u;
	a->src_key = UINT32_MAX;
	if (!a->pr)	/* merge.c's sources bring their own */
		a->pr = printer(a->o.format);
	out_init(&a->out, STDOUT_FILENO);
	if (a->o.format == FMT_CHROME) {
		a->chrome = calloc(1, sizeof(*a->chrome));
		if (!a->chrome)
			return fail("out of memory");
	}
	if (a->o.format == FMT_HTML) {
		a->html = html_new(a->o.html_max);
		if (!a->html)
			return fail("out of memory");
	}
	/* always: an input may turn out to be SyS-T (--input=auto) */
	yc.coll = a->coll;
	a->syst = mttd_syst_new(&yc);
	if (!a->syst || mtt_setup(a))
		return fail("out of memory");
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
	mttd_rv_free(a->rv);
	mttd_msg_free(a->msg);
	free(a->o.rv_stp);
	free(a->o.rv_mtt);
	free(a->sniff);
	mttd_coll_free(a->coll);
	mttd_policy_free(a->policy);
	mttd_ftrace_free(a->ftrace);
	free(a->fbuf);
	free(a->chrome);
	html_free(a->html);
	mtt_teardown(a);
}
