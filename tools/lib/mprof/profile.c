// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - the profile model: records as they arrive (in exit
 * order), then analysis: entry times unwrapped onto one 64-bit timeline
 * (they are 32-bit microseconds and wrap every 71.6 minutes), calls
 * sorted by that time (outer before inner at equal times), the call
 * tree rebuilt from depth and time nesting (a call is the child of the
 * closest open call that is shallower and still running at its entry),
 * per-call self time (duration minus the callees' durations) and
 * per-function statistics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mprof/mprof.h"

void mprof_profile_init(struct mprof_profile *p)
{
	memset(p, 0, sizeof(*p));
}

void mprof_profile_free(struct mprof_profile *p)
{
	free(p->rec);
	free(p->calls);
	free(p->funcs);
	free(p->nodes);
	free(p->names);
	free(p->entry);
	free(p->sync);
	memset(p, 0, sizeof(*p));
}

int mprof_profile_add_sync(struct mprof_profile *p,
			   const struct mprof_time_sync *t, uint64_t end)
{
	if (p->nsync == p->capsync) {
		size_t cap = p->capsync ? p->capsync * 2 : 64;
		struct mprof_sync *n = realloc(p->sync, cap * sizeof(*n));

		if (!n)
			return -1;
		p->sync = n;
		p->capsync = cap;
	}
	p->sync[p->nsync++] = (struct mprof_sync){
		.seq = t->seq, .t_rx = t->t_rx, .t_tx = t->t_tx, .end = end,
		.after = p->nrec,
	};
	return 0;
}

int mprof_profile_add(struct mprof_profile *p, const struct mprof_record *r)
{
	if (p->nrec == p->caprec) {
		size_t cap = p->caprec ? p->caprec * 2 : 1024;
		struct mprof_record *n = realloc(p->rec, cap * sizeof(*n));

		if (!n)
			return -1;
		p->rec = n;
		p->caprec = cap;
	}
	p->rec[p->nrec++] = *r;
	return 0;
}

int mprof_profile_add_payload(struct mprof_profile *p, const uint8_t *pl,
			      size_t n)
{
	unsigned int version, count, i;
	int ret = mprof_profile_check(pl, n, &version, &count);

	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		struct mprof_record r;

		mprof_record_get(&r, pl + MPROF_PROFILE_HDR_LEN +
				 (size_t)i * MPROF_RECORD_LEN);
		if (mprof_profile_add(p, &r))
			return -3;
	}
	return 0;
}

static int cmp_call(const void *a, const void *b)
{
	const struct mprof_call *x = a, *y = b;

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	if (x->r.depth != y->r.depth)
		return x->r.depth < y->r.depth ? -1 : 1;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* index of addr in the sorted, unique funcs[] */
static uint32_t func_index(const struct mprof_profile *p, uint32_t addr)
{
	size_t lo = 0, hi = p->nfuncs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->funcs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

static int build_funcs(struct mprof_profile *p)
{
	uint32_t *a = malloc((p->nrec ? p->nrec : 1) * sizeof(*a));
	size_t i, n = 0, namesz = 0;
	char *s;

	if (!a)
		return -1;
	for (i = 0; i < p->nrec; i++)
		a[i] = p->rec[i].func_addr;
	qsort(a, p->nrec, sizeof(*a), cmp_u32);
	for (i = 0; i < p->nrec; i++)
		if (!n || a[n - 1] != a[i])
			a[n++] = a[i];
	p->funcs = calloc(n ? n : 1, sizeof(*p->funcs));
	if (!p->funcs) {
		free(a);
		return -1;
	}
	p->nfuncs = n;
	for (i = 0; i < n; i++) {
		uint32_t off = 0;
		const char *nm = p->sym ? mprof_sym_lookup(p->sym, a[i], &off) :
				 NULL;

		namesz += (nm ? strlen(nm) : 0) + 24;
	}
	p->names = malloc(namesz ? namesz : 1);
	if (!p->names) {
		free(a);
		return -1;
	}
	s = p->names;
	for (i = 0; i < n; i++) {
		uint32_t off = 0;
		const char *nm = p->sym ? mprof_sym_lookup(p->sym, a[i], &off) :
				 NULL;
		int k;

		if (nm && off)
			k = sprintf(s, "%s+0x%x", nm, (unsigned int)off);
		else if (nm)
			k = sprintf(s, "%s", nm);
		else
			k = sprintf(s, "0x%08x", (unsigned int)a[i]);
		p->funcs[i].addr = a[i];
		p->funcs[i].name = s;
		p->funcs[i].min_us = UINT32_MAX;
		s += k + 1;
	}
	free(a);
	return 0;
}

/* the child of node parent for function f, created if needed */
static int64_t child_node(struct mprof_profile *p, uint32_t parent, uint32_t f)
{
	uint32_t c, last = 0;
	struct mprof_node *n;

	for (c = p->nodes[parent].first_child; c; c = p->nodes[c].next_sibling) {
		if (p->nodes[c].func == f)
			return c;
		last = c;
	}
	if (p->nnodes == p->capnodes) {
		size_t cap = p->capnodes * 2;

		n = realloc(p->nodes, cap * sizeof(*n));
		if (!n)
			return -1;
		p->nodes = n;
		p->capnodes = cap;
	}
	c = (uint32_t)p->nnodes++;
	n = &p->nodes[c];
	memset(n, 0, sizeof(*n));
	n->func = f;
	n->parent = parent;
	/* children in the order of their first call */
	if (last)
		p->nodes[last].next_sibling = c;
	else
		p->nodes[parent].first_child = c;
	return c;
}

/* does record c lie within record p?  (unwrapped entry times) */
static int within(const struct mprof_profile *pr, size_t p, size_t c)
{
	const uint64_t *e = pr->entry;

	return e[c] >= e[p] &&
	       e[c] + pr->rec[c].duration_us <= e[p] + pr->rec[p].duration_us;
}

/* the value v32 can have modulo 2^32 that is nearest to prev */
static int64_t nearest(int64_t prev, uint32_t v32)
{
	uint32_t step = v32 - (uint32_t)prev;

	if (step < 0x80000000u)
		return prev + step;
	return prev - (int64_t)(0x100000000ull - step);
}

/*
 * entry[i]: record i's entry time on one 64-bit timeline.  The device
 * sends a record when its call returns, so the exit times (entry +
 * duration) of the stream move forward, by far less than 2^31 us from
 * one record to the next: each exit time is taken as the one nearest
 * to the previous record's among the values it can have modulo 2^32,
 * and the entry is that exit minus the duration (a caller's entry lies
 * before its callees', however long it ran).  The TIME_SYNC replies are
 * points of the same chain, in stream order: t_rx nearest to what came
 * before, t_tx nearest to t_rx.  Any number of wraps is followed.  The
 * whole timeline is then moved by whole 2^32 us periods so that no
 * entry (or exchange) is negative: a stream that never wraps keeps its
 * times as they are.
 */
static void unwrap(struct mprof_profile *p)
{
	int64_t prev = 0, lo = 0, hi = 0, *e = (int64_t *)p->entry;
	uint64_t shift = 0;
	size_t i, k = 0;
	int first = 1;

	for (i = 0; i <= p->nrec; i++) {
		const struct mprof_record *r;
		int64_t exit;

		/* the exchanges answered before record i */
		for (; k < p->nsync && (i == p->nrec || p->sync[k].after <= i);
		     k++) {
			struct mprof_sync *y = &p->sync[k];
			int64_t rx = first ? (int64_t)y->t_rx :
				     nearest(prev, y->t_rx);
			int64_t tx = nearest(rx, y->t_tx);

			first = 0;
			y->rx_us = (uint64_t)rx;
			y->tx_us = (uint64_t)tx;
			prev = tx;
			lo = rx < lo ? rx : lo;
			hi = tx > hi ? tx : hi;
		}
		if (i == p->nrec)
			break;
		r = &p->rec[i];
		if (first)
			exit = (int64_t)r->entry_time + r->duration_us;
		else
			exit = nearest(prev, r->entry_time + r->duration_us);
		first = 0;
		e[i] = exit - r->duration_us;
		prev = exit;
		if (e[i] < lo)
			lo = e[i];
		if (e[i] > hi)
			hi = e[i];
	}
	if (lo < 0)
		shift = ((uint64_t)-lo + 0xffffffffull) & ~0xffffffffull;
	for (i = 0; i < p->nrec; i++)
		p->entry[i] = (uint64_t)e[i] + shift;
	for (k = 0; k < p->nsync; k++) {
		p->sync[k].rx_us += shift;
		p->sync[k].tx_us += shift;
	}
	p->wraps = p->nrec || p->nsync ? (((uint64_t)hi + shift) >> 32) -
			     (((uint64_t)lo + shift) >> 32) : 0;
}

/* parent[i]: the record that called record i, or SIZE_MAX.  Records of
 * one thread arrive in exit order (callees before their caller), so the
 * callees of a record at depth d are the unclaimed deeper records just
 * before it, as long as their times lie within its own */
static int find_parents(struct mprof_profile *p, size_t *parent)
{
	size_t *st = malloc((p->nrec + 1) * sizeof(*st));
	size_t i, top = 0;

	if (!st)
		return -1;
	for (i = 0; i < p->nrec; i++) {
		const struct mprof_record *r = &p->rec[i];

		parent[i] = SIZE_MAX;
		while (top && p->rec[st[top - 1]].depth > r->depth &&
		       within(p, i, st[top - 1]))
			parent[st[--top]] = i;
		st[top++] = i;
	}
	free(st);
	return 0;
}

static int build_tree(struct mprof_profile *p)
{
	size_t *parent = malloc((p->nrec + 1) * sizeof(*parent));
	size_t *inv = malloc((p->nrec + 1) * sizeof(*inv));
	uint64_t *child_sum = calloc(p->nrec + 1, sizeof(*child_sum));
	uint64_t first = UINT64_MAX, last = 0;
	size_t i;

	p->capnodes = 64;
	p->nodes = calloc(p->capnodes, sizeof(*p->nodes));
	if (!parent || !inv || !child_sum || !p->nodes || find_parents(p, parent))
		goto fail;
	p->nnodes = 1;
	p->nodes[0].func = UINT32_MAX;
	for (i = 0; i < p->nrec; i++)
		inv[p->calls[i].rec] = i;
	for (i = 0; i < p->nrec; i++) {
		size_t pr = parent[i];

		if (pr != SIZE_MAX) {
			child_sum[pr] += p->rec[i].duration_us;
			if (p->rec[pr].depth + 1 != p->rec[i].depth)
				p->orphans++;
		}
	}
	/* sorted by entry time: a caller comes before its callees */
	for (i = 0; i < p->nrec; i++) {
		struct mprof_call *c = &p->calls[i];
		struct mprof_func_stats *f = &p->funcs[c->func];
		uint64_t entry = c->entry, end = entry + c->r.duration_us;
		size_t pr = parent[c->rec];
		uint32_t pnode = pr == SIZE_MAX ? 0 : p->calls[inv[pr]].node;
		uint64_t d = c->r.duration_us, cs = child_sum[c->rec];
		int64_t node = child_node(p, pnode, c->func);

		if (node < 0)
			goto fail;
		c->node = (uint32_t)node;
		c->self_us = (uint32_t)(cs < d ? d - cs : 0);
		p->nodes[node].calls++;
		p->nodes[node].total_us += d;
		p->nodes[node].self_us += c->self_us;
		if (!pnode) {
			p->nodes[0].calls++;
			p->nodes[0].total_us += d;
		}
		f->calls++;
		f->total_us += d;
		f->self_us += c->self_us;
		if (d < f->min_us)
			f->min_us = (uint32_t)d;
		if (d > f->max_us)
			f->max_us = (uint32_t)d;
		if (entry < first)
			first = entry;
		if (end > last)
			last = end;
	}
	p->span_us = p->nrec ? last - first : 0;
	free(parent);
	free(inv);
	free(child_sum);
	return 0;
fail:
	free(parent);
	free(inv);
	free(child_sum);
	return -1;
}

int mprof_profile_analyse(struct mprof_profile *p)
{
	size_t i;

	free(p->calls);
	free(p->funcs);
	free(p->nodes);
	free(p->names);
	free(p->entry);
	p->calls = NULL;
	p->funcs = NULL;
	p->nodes = NULL;
	p->names = NULL;
	p->nfuncs = p->nnodes = p->capnodes = 0;
	p->orphans = 0;
	p->calls = malloc((p->nrec ? p->nrec : 1) * sizeof(*p->calls));
	p->entry = malloc((p->nrec ? p->nrec : 1) * sizeof(*p->entry));
	if (!p->calls || !p->entry || build_funcs(p))
		return -1;
	unwrap(p);
	for (i = 0; i < p->nrec; i++) {
		p->calls[i].r = p->rec[i];
		p->calls[i].entry = p->entry[i];
		p->calls[i].func = func_index(p, p->rec[i].func_addr);
		p->calls[i].node = 0;
		p->calls[i].self_us = 0;
		p->calls[i].rec = i;
	}
	qsort(p->calls, p->nrec, sizeof(*p->calls), cmp_call);
	if (build_tree(p))
		return -1;
	for (i = 0; i < p->nfuncs; i++)
		if (!p->funcs[i].calls)
			p->funcs[i].min_us = 0;
	return 0;
}

static int cmp_stats(const void *a, const void *b)
{
	const struct mprof_func_stats *x = *(const struct mprof_func_stats *const *)a;
	const struct mprof_func_stats *y = *(const struct mprof_func_stats *const *)b;

	if (x->total_us != y->total_us)
		return x->total_us > y->total_us ? -1 : 1;
	return strcmp(x->name, y->name);
}

const struct mprof_func_stats **mprof_profile_sorted(const struct mprof_profile *p)
{
	const struct mprof_func_stats **v = malloc((p->nfuncs + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < p->nfuncs; i++)
		v[i] = &p->funcs[i];
	v[p->nfuncs] = NULL;
	qsort(v, p->nfuncs, sizeof(*v), cmp_stats);
	return v;
}
