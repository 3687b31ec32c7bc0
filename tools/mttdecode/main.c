// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - mttdecode: options, set up the decoders and the printer,
 * decode each input in turn, print the summary; or hand a MiniProfiler
 * capture to libmprof (mprof.c).  SIGINT and SIGTERM end
 * the input like end of file (open messages and --stats are still
 * printed) and no further input is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "merge.h"

/* decode one input (path, or standard input for NULL or "-"); 0 or 1 */
static int decode_path(struct app *a, const char *path)
{
	int fd = STDIN_FILENO, ret;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "mttdecode: %s: %s\n", path,
				strerror(errno));
			return 1;
		}
	}
	ret = decode_fd(a, fd, fd == STDIN_FILENO ? "<stdin>" : path);
	if (fd != STDIN_FILENO)
		close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	struct app *a = calloc(1, sizeof(*a));
	int ret, i;

	if (!a) {
		fprintf(stderr, "mttdecode: out of memory\n");
		return 1;
	}
	ret = parse_options(&a->o, argc, argv);
	if (ret) {
		free(a);
		return ret < 0 ? EXIT_OK : ret;
	}
	if (merge_wanted(&a->o)) {
		ret = merge_session(&a->o);
		free(a);
		return ret;
	}
	ret = session_expand(&a->o);
	if (!ret && sniff_mprof(&a->o)) {
		ret = mprof_decode(&a->o);
		goto out;
	}
	a->o.syst_auto = !a->o.syst && !a->o.no_syst && a->o.input == IN_AUTO;
	if (!ret && a->o.format == FMT_FOLDED) {
		fprintf(stderr, "mttdecode: --format=folded is for MiniProfiler captures\n");
		ret = 1;
	}
	if (!ret && a->o.elf) {
		fprintf(stderr, "mttdecode: --elf is for MiniProfiler captures\n");
		ret = 1;
	}
	if (!ret && a->o.wall_clock && !a->o.has_rt_offset) {
		fprintf(stderr, "mttdecode: --wall-clock: no session with "
			"clock_realtime_ns and clock_monotonic_ns among the "
			"inputs\n");
		ret = 1;
	}
	if (!ret)
		ret = setup(a);
	if (!ret) {
		if (!a->o.nfiles)
			ret = decode_path(a, NULL);
		for (i = 0; i < a->o.nfiles && !ret && !input_stopped() &&
		     !a->out.err; i++)
			ret = decode_path(a, a->o.files[i]);
		if (!a->o.no_output && a->pr->end)
			a->pr->end(a);
		out_flush(&a->out);
		if (a->out.err) {
			fprintf(stderr, "mttdecode: write error: %s\n",
				strerror(a->out.err));
			ret = 1;
		}
		if (a->o.stats)
			print_stats(a);
		if (!ret && a->nothing)
			ret = EXIT_NOTHING;
	}
out:
	teardown(a);
	if (session_free(&a->o) && !ret)
		ret = 1;
	free(a);
	return ret;
}
