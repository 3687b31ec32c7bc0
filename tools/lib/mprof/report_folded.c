// SPDX-License-Identifier: GPL-2.0
/*
 * report_folded.c - folded stacks ("main;work;a 123", the value is the
 * self time in microseconds of that call path), as flamegraph.pl and
 * speedscope read them.  Paths with no self time are left out.
 */
#include <stdlib.h>
#include <string.h>

#include "mprof/mprof.h"

static void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == ' ' ? '_' : *s, f);
}

int mprof_write_folded(FILE *f, const struct mprof_profile *p)
{
	uint32_t *path;
	size_t i;

	if (!p->nnodes)
		return 0;
	path = malloc(p->nnodes * sizeof(*path));
	if (!path)
		return -1;
	for (i = 1; i < p->nnodes; i++) {
		size_t k = 0;
		uint32_t n;

		if (!p->nodes[i].self_us)
			continue;
		for (n = (uint32_t)i; n; n = p->nodes[n].parent)
			path[k++] = n;
		while (k--) {
			put_name(f, p->funcs[p->nodes[path[k]].func].name);
			if (k)
				fputc(';', f);
		}
		fprintf(f, " %llu\n", (unsigned long long)p->nodes[i].self_us);
	}
	free(path);
	return ferror(f) ? -1 : 0;
}
