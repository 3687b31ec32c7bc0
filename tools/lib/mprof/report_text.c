// SPDX-License-Identifier: GPL-2.0
/*
 * report_text.c - the profile as text: a header (device metadata, and
 * counts), the per-function table sorted by total time, and the call
 * tree, indented two spaces per level, then the clock exchanges
 * (TIME_SYNC responses) unwrapped, if any.
 */
#include <stdlib.h>

#include "mprof/mprof.h"

static void tree(FILE *f, const struct mprof_profile *p, uint32_t node,
		 unsigned int level)
{
	uint32_t c;

	/* iterative over siblings, recursive over depth (bounded below) */
	for (c = p->nodes[node].first_child; c; c = p->nodes[c].next_sibling) {
		const struct mprof_node *n = &p->nodes[c];

		fprintf(f, "%*s%s  calls=%llu total=%llu self=%llu\n",
			(int)(2 * (level < 64 ? level : 64)), "",
			p->funcs[n->func].name, (unsigned long long)n->calls,
			(unsigned long long)n->total_us,
			(unsigned long long)n->self_us);
		if (level < 1024)
			tree(f, p, c, level + 1);
	}
}

int mprof_write_text(FILE *f, const struct mprof_profile *p)
{
	const struct mprof_func_stats **v = mprof_profile_sorted(p);
	size_t i;

	if (!v)
		return -1;
	if (p->have_meta)
		fprintf(f, "# device: firmware \"%s\", MCU clock %u Hz, timer %u Hz, build id 0x%08x\n",
			p->meta.fw_version, (unsigned int)p->meta.mcu_clock_hz,
			(unsigned int)p->meta.timer_freq,
			(unsigned int)p->meta.elf_build_id);
	fprintf(f, "# %zu calls of %zu functions over %llu us",
		p->nrec, p->nfuncs, (unsigned long long)p->span_us);
	if (p->wraps)
		fprintf(f, " (entry times wrapped %llu time%s)",
			(unsigned long long)p->wraps, p->wraps > 1 ? "s" : "");
	if (p->orphans)
		fprintf(f, ", %llu calls with a missing caller",
			(unsigned long long)p->orphans);
	fprintf(f, "\n%10s %12s %12s %10s %10s %12s  %s\n", "calls",
		"total_us", "self_us", "min_us", "max_us", "avg_us", "function");
	for (i = 0; v[i]; i++)
		fprintf(f, "%10llu %12llu %12llu %10u %10u %12.1f  %s\n",
			(unsigned long long)v[i]->calls,
			(unsigned long long)v[i]->total_us,
			(unsigned long long)v[i]->self_us,
			(unsigned int)v[i]->min_us, (unsigned int)v[i]->max_us,
			v[i]->calls ? (double)v[i]->total_us /
				      (double)v[i]->calls : 0.0,
			v[i]->name);
	free(v);
	fprintf(f, "\n# call tree\n");
	if (p->nnodes)
		tree(f, p, 0, 0);
	if (p->nsync)
		fprintf(f, "\n# clock exchanges (TIME_SYNC), on the records' timeline\n%10s %14s %14s %12s\n",
			"seq", "t_rx_us", "t_tx_us", "end_offset");
	for (i = 0; i < p->nsync; i++)
		fprintf(f, "%10u %14llu %14llu %12llu\n",
			(unsigned int)p->sync[i].seq,
			(unsigned long long)p->sync[i].rx_us,
			(unsigned long long)p->sync[i].tx_us,
			(unsigned long long)p->sync[i].end);
	return ferror(f) ? -1 : 0;
}
