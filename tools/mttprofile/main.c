// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - mttprofile: a MiniProfiler session on a serial line, or
 * (--report) the analysis of an existing capture.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "mttprofile.h"
#include "session/session.h"

static int report(const struct popts *o)
{
	struct mprof_collect c;
	struct mprof_sym *sym = NULL;
	char cap[4096];
	const char *in = o->device, *dir = o->dir;
	int ret;

	/* a directory: a session, its capture.mprof */
	if (mtts_kind(in) != MTTS_NONE) {
		snprintf(cap, sizeof(cap), "%s/capture.mprof", in);
		if (!dir)
			dir = in;
		in = cap;
	}
	if (!dir)
		dir = ".";
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "mttprofile: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (mprof_collect_init(&c, NULL, NULL)) {
		fprintf(stderr, "mttprofile: out of memory\n");
		return 1;
	}
	if (mprof_collect_file(&c, in)) {
		fprintf(stderr, "mttprofile: %s: %s\n", in, strerror(errno));
		mprof_collect_free(&c);
		return 1;
	}
	if (!mprof_collect_synced(&c)) {
		char why[256];

		mprof_collect_nothing(&c, why, sizeof(why));
		fprintf(stderr, "mttprofile: %s: %s: no profile written\n",
			in, mprof_parser_stats(c.parser)->bytes ? why : "empty");
		mprof_collect_free(&c);
		return 1;
	}
	if (o->elf) {
		sym = load_elf(o->elf);
		if (!sym) {
			mprof_collect_free(&c);
			return 1;
		}
	}
	ret = write_reports(dir, &c, sym, o->elf, o->quiet);
	mprof_sym_free(sym);
	mprof_collect_free(&c);
	return ret;
}

int main(int argc, char **argv)
{
	struct popts o;
	int ret = parse_popts(&o, argc, argv);

	if (ret)
		return ret == 2 ? 0 : 2;	/* --help, --version; usage error */
	return o.report ? report(&o) : capture_run(&o);
}
