// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the --stats summary, printed to standard error, totals over
 * every input: the STP packet and message counters (raw STP inputs) and
 * the SyS-T counters (with --syst or SyS-T inputs).
 */
#include <stdio.h>

#include "cli.h"

static void stp_stats(const struct app *a)
{
	const struct mttd_stp_stats *s = &a->stp_tot;
	const struct mttd_msg_stats *m = &a->msg_tot;

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

static void syst_stats(const struct app *a)
{
	const struct mttd_syst_stats *s = mttd_syst_stats(a->syst);

	fprintf(stderr,
		"syst messages:   %llu (ok %llu, checksum error %llu, too short "
		"%llu, unknown type %llu, missing collateral %llu)\n",
		(unsigned long long)s->messages,
		(unsigned long long)s->status[MTTD_SYST_OK],
		(unsigned long long)s->status[MTTD_SYST_CHECKSUM_ERROR],
		(unsigned long long)s->status[MTTD_SYST_TOO_SHORT],
		(unsigned long long)s->status[MTTD_SYST_UNKNOWN_TYPE],
		(unsigned long long)s->status[MTTD_SYST_MISSING_COLLATERAL]);
	if (a->had_stream)
		fprintf(stderr, "syst resyncs:    %llu (%llu bytes skipped)\n",
			(unsigned long long)s->resyncs,
			(unsigned long long)s->skipped);
	if (a->had_text)
		fprintf(stderr, "syst bad lines:  %llu\n",
			(unsigned long long)s->bad_lines);
}

void print_stats(const struct app *a)
{
	if (a->had_stp)
		stp_stats(a);
	if (a->had_rv)
		fprintf(stderr, "encapsulated:    %llu packets not STP (%llu on "
			"STP srcIDs), %llu null.alignment losses\n",
			(unsigned long long)a->rv_tot.encap,
			(unsigned long long)a->rv_tot.not_stp,
			(unsigned long long)a->rv_tot.alignment);
	if (a->par_pieces[0] || a->par_pieces[1])
		fprintf(stderr, "-j pieces:       %llu decoded in parallel, "
			"%llu again in order, %llu finished in order (output "
			"cap)\n",
			(unsigned long long)a->par_pieces[0],
			(unsigned long long)a->par_pieces[1],
			(unsigned long long)a->par_capped);
	if (a->had_msc || a->had_cs)
		frame_stats(a);
	if (a->o.syst || a->had_stream || a->had_text)
		syst_stats(a);
}
