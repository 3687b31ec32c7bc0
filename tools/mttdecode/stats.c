/*
 * stats.c - the --stats summary, printed to standard error.
 */
#include <stdio.h>

#include "cli.h"

void print_stats(const struct app *a)
{
	const struct mttd_stp_stats *s = mttd_stp_stats(a->stp);
	const struct mttd_msg_stats *m = mttd_msg_stats(a->msg);

	fprintf(stderr,
		"bytes in:        %llu\n"
		"packets:         %llu\n"
		"null packets:    %llu\n"
		"messages:        %llu (%llu incomplete, %llu truncated)\n"
		"losses:          %llu (gerr %llu, merr %llu, desync %llu, "
		"truncated %llu)\n"
		"syncs:           %llu\n"
		"unsynced bytes:  %llu\n",
		(unsigned long long)s->bytes,
		(unsigned long long)s->packets,
		(unsigned long long)s->nulls,
		(unsigned long long)m->messages,
		(unsigned long long)m->incomplete,
		(unsigned long long)m->truncated,
		(unsigned long long)(m->losses[0] + m->losses[1] +
				     m->losses[2] + m->losses[3]),
		(unsigned long long)m->losses[MTTD_LOSS_GERR],
		(unsigned long long)m->losses[MTTD_LOSS_MERR],
		(unsigned long long)m->losses[MTTD_LOSS_DESYNC],
		(unsigned long long)m->losses[MTTD_LOSS_TRUNCATED],
		(unsigned long long)s->syncs,
		(unsigned long long)((s->unsynced_nibbles + 1) / 2));
}
