// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - mttdecode: options, open the input, set up the decoders and
 * the printer, decode, print the summary.  SIGINT and SIGTERM end the
 * input like end of file (open messages and --stats are still printed).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
	ret = setup(a);
	if (!ret) {
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
	teardown(a);
	free(a);
	return ret;
}
