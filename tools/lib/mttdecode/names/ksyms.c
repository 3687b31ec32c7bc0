// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ksyms.c - a /proc/kallsyms snapshot: "<hex address> <type> <name>
 * [module]" per line.  Text symbols (types T t W w) are kept, sorted by
 * address; an address maps to the symbol at or below it.  Zero addresses
 * (a kallsyms read without privilege) are skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace_internal.h"

#define MAX_OFF (16u << 20)	/* farther from any symbol: no name */

struct mttd_ftrace *mttd_ftrace_new(void)
{
	return calloc(1, sizeof(struct mttd_ftrace));
}

void mttd_ftrace_free(struct mttd_ftrace *f)
{
	size_t i, j;

	if (!f)
		return;
	for (i = 0; i < f->nev; i++) {
		for (j = 0; j < f->ev[i].nf; j++)
			free(f->ev[i].f[j].name);
		free(f->ev[i].f);
		free(f->ev[i].name);
		free(f->ev[i].system);
	}
	free(f->ev);
	free(f->sym);
	free(f->names);
	free(f);
}

unsigned int mttd_ftrace_symbols(const struct mttd_ftrace *f)
{
	return (unsigned int)f->nsym;
}

static int add_sym(struct mttd_ftrace *f, uint64_t addr, const char *name,
		   size_t n)
{
	if (f->nsym == f->capsym) {
		size_t cap = f->capsym ? 2 * f->capsym : 1024;
		struct mttd__sym *ns = realloc(f->sym, cap * sizeof(*ns));

		if (!ns)
			return -1;
		f->sym = ns;
		f->capsym = cap;
	}
	if (f->nlen + n + 1 > f->ncap || f->nlen + n + 1 > UINT32_MAX) {
		size_t cap = f->ncap ? 2 * f->ncap : 65536;
		char *nn;

		while (cap < f->nlen + n + 1)
			cap *= 2;
		if (cap > UINT32_MAX)
			return -1;
		nn = realloc(f->names, cap);
		if (!nn)
			return -1;
		f->names = nn;
		f->ncap = cap;
	}
	memcpy(f->names + f->nlen, name, n);
	f->names[f->nlen + n] = 0;
	f->sym[f->nsym].addr = addr;
	f->sym[f->nsym].name = (uint32_t)f->nlen;
	f->sym[f->nsym].seq = (uint32_t)f->nsym;
	f->nsym++;
	f->nlen += n + 1;
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct mttd__sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int is_sp(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* one line; 1 if it held a kept symbol, 0 if skipped */
static int line(struct mttd_ftrace *f, const char *s, size_t n, int *oom)
{
	const char *end = s + n, *name;
	uint64_t addr = 0;
	int digits = 0;
	char type;

	while (s < end && is_sp(*s))
		s++;
	for (; s < end && !is_sp(*s); s++, digits++) {
		int v = (*s >= '0' && *s <= '9') ? *s - '0' :
			(*s >= 'a' && *s <= 'f') ? *s - 'a' + 10 :
			(*s >= 'A' && *s <= 'F') ? *s - 'A' + 10 : -1;

		if (v < 0 || digits >= 16)
			return 0;
		addr = addr << 4 | (uint64_t)v;
	}
	while (s < end && is_sp(*s))
		s++;
	if (!digits || s >= end)
		return 0;
	type = *s++;
	if ((type != 'T' && type != 't' && type != 'W' && type != 'w') ||
	    s >= end || !is_sp(*s) || !addr)
		return 0;
	while (s < end && is_sp(*s))
		s++;
	name = s;
	while (s < end && !is_sp(*s))
		s++;
	if (s == name)
		return 0;
	if (add_sym(f, addr, name, (size_t)(s - name))) {
		*oom = 1;
		return 0;
	}
	return 1;
}

int mttd_ftrace_load_kallsyms_mem(struct mttd_ftrace *f, const char *text,
				  size_t len)
{
	const char *s = text, *end = text + len;
	int oom = 0;

	while (s < end && !oom) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		line(f, s, (size_t)((nl ? nl : end) - s), &oom);
		if (!nl)
			break;
		s = nl + 1;
	}
	if (f->nsym)
		qsort(f->sym, f->nsym, sizeof(*f->sym), cmp_sym);
	return oom ? -1 : 0;
}

int mttd_ftrace_load_kallsyms(struct mttd_ftrace *f, const char *path,
			      char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, k;
	int r;

	if (!fp) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			char *nb = realloc(buf, cap ? 2 * cap : 1 << 20);

			if (!nb) {
				free(buf);
				fclose(fp);
				if (err && errlen)
					snprintf(err, errlen,
						 "%s: out of memory", path);
				return -1;
			}
			buf = nb;
			cap = cap ? 2 * cap : 1 << 20;
		}
		k = fread(buf + len, 1, cap - len, fp);
		len += k;
	} while (k);
	fclose(fp);
	r = mttd_ftrace_load_kallsyms_mem(f, buf ? buf : "", len);
	free(buf);
	if (r && err && errlen)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (!r && !f->nsym && err && errlen) {
		snprintf(err, errlen, "%s: no text symbols with an address",
			 path);
		return -1;
	}
	return r;
}

const char *mttd_ftrace_symbol(const struct mttd_ftrace *f, uint64_t addr,
			       uint64_t *off)
{
	size_t lo = 0, hi = f->nsym;

	/* the last symbol with sym.addr <= addr; the first of equal ones */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	while (lo && f->sym[lo - 1].addr == f->sym[lo].addr)
		lo--;
	if (addr - f->sym[lo].addr > MAX_OFF)
		return NULL;
	if (off)
		*off = addr - f->sym[lo].addr;
	return f->names + f->sym[lo].name;
}
