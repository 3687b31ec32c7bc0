// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * coll.c - the collateral store: clients with their GUID selectors and
 * one table per kind of entry; masked lookups (rules in collateral.h).
 *
 * A table is sorted by mask bits (most first), mask, masked id and load
 * order, and split into groups of equal mask: a lookup binary-searches
 * each group, most specific group first, and the first hit wins.
 */
#include <stdlib.h>
#include <string.h>

#include "internal/coll.h"
#include "internal/hex.h"
#include "coll_internal.h"

struct mttd_coll *mttd_coll_new(void)
{
	return calloc(1, sizeof(struct mttd_coll));
}

static void free_table(struct mttd__ctable *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free((char *)t->v[i].e.text);
		mttd__fmtc_free(t->v[i].fmtc);
	}
	free(t->v);
	free(t->g);
}

void mttd_coll_free(struct mttd_coll *c)
{
	size_t i;
	unsigned int k;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		free(c->c[i].name);
		free(c->c[i].file);
		free(c->c[i].guid);
		for (k = 0; k < MTTD_COLL_TABLES; k++)
			free_table(&c->c[i].t[k]);
	}
	free(c->c);
	free(c);
}

unsigned int mttd_coll_clients(const struct mttd_coll *c)
{
	return (unsigned int)c->n;
}

const char *mttd_coll_client_name(const struct mttd_coll *c, int client)
{
	if (client < 0 || (size_t)client >= c->n)
		return NULL;
	return c->c[client].name;
}

const char *mttd_coll_client_file(const struct mttd_coll *c, int client)
{
	if (client < 0 || (size_t)client >= c->n)
		return NULL;
	return c->c[client].file;
}

struct mttd__cclient *mttd__coll_add_client(struct mttd_coll *c,
					    const char *name,
					    const char *file)
{
	struct mttd__cclient *cl;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct mttd__cclient *nc = realloc(c->c, cap * sizeof(*nc));

		if (!nc)
			return NULL;
		c->c = nc;
		c->cap = cap;
	}
	cl = &c->c[c->n];
	memset(cl, 0, sizeof(*cl));
	cl->name = strdup(name ? name : "");
	cl->file = strdup(file ? file : "");
	if (!cl->name || !cl->file) {
		free(cl->name);
		free(cl->file);
		return NULL;
	}
	c->n++;
	return cl;
}

static unsigned int popcount128(const uint8_t m[16])
{
	unsigned int i, b = 0;

	for (i = 0; i < 16; i++)
		b += (unsigned int)__builtin_popcount(m[i]);
	return b;
}

int mttd__coll_add_guid(struct mttd__cclient *cl, const uint8_t id[16],
			const uint8_t mask[16])
{
	struct mttd__cguid *g;

	if (cl->nguid == cl->capguid) {
		size_t cap = cl->capguid ? 2 * cl->capguid : 4;
		struct mttd__cguid *ng = realloc(cl->guid, cap * sizeof(*ng));

		if (!ng)
			return -1;
		cl->guid = ng;
		cl->capguid = cap;
	}
	g = &cl->guid[cl->nguid++];
	memcpy(g->id, id, 16);
	memcpy(g->mask, mask, 16);
	g->bits = popcount128(mask);
	return 0;
}

int mttd__coll_add(struct mttd_coll *c, struct mttd__cclient *cl,
		   unsigned int table, uint64_t id, uint64_t mask,
		   const char *text, size_t len, int64_t file, int64_t line)
{
	struct mttd__ctable *t = &cl->t[table];
	struct mttd__centry *e;
	char *s;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct mttd__centry *nv = realloc(t->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		t->v = nv;
		t->cap = cap;
	}
	s = malloc(len + 1);
	if (!s)
		return -1;
	memcpy(s, text, len);
	s[len] = 0;
	e = &t->v[t->n++];
	e->e.id = id;
	e->e.mask = mask;
	e->e.text = s;
	e->e.text_len = len;
	e->e.file = file;
	e->e.line = line;
	/* a format's conversions parsed once, here, not per message; the
	 * tables of names (build, module, file) are not formats */
	e->fmtc = table >= MTTD_COLL_CATALOG32 && table <= MTTD_COLL_PROTOCOL ?
		  mttd__fmt_compile(s, len) : NULL;
	e->seq = c->seq++;
	e->bits = (uint8_t)__builtin_popcountll(mask);
	t->sorted = 0;
	return 0;
}

const struct mttd__fmtc *mttd__coll_fmtc(const struct mttd_coll_entry *e)
{
	/* every entry mttd_coll_find() returns is the first member of a
	 * struct mttd__centry */
	return ((const struct mttd__centry *)(const void *)e)->fmtc;
}

unsigned int mttd__coll_tables(const struct mttd_coll *c, int client)
{
	unsigned int k, bits = 0;

	if (client < 0 || (size_t)client >= c->n)
		return 0;
	for (k = 0; k < MTTD_COLL_TABLES; k++)
		if (c->c[client].t[k].n)
			bits |= 1u << k;
	return bits;
}

static int cmp(const void *a, const void *b)
{
	const struct mttd__centry *x = a, *y = b;
	uint64_t kx = x->e.id & x->e.mask, ky = y->e.id & y->e.mask;

	if (x->bits != y->bits)
		return x->bits > y->bits ? -1 : 1;
	if (x->e.mask != y->e.mask)
		return x->e.mask < y->e.mask ? -1 : 1;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int sort_table(struct mttd__ctable *t)
{
	size_t i, ng = 0;

	if (t->sorted)
		return 0;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), cmp);
	free(t->g);
	t->g = NULL;
	t->ng = 0;
	for (i = 0; i < t->n; i++)
		if (!i || t->v[i].e.mask != t->v[i - 1].e.mask)
			ng++;
	if (ng) {
		t->g = calloc(ng, sizeof(*t->g));
		if (!t->g)
			return -1;
	}
	for (i = 0; i < t->n; i++) {
		if (!i || t->v[i].e.mask != t->v[i - 1].e.mask) {
			t->g[t->ng].mask = t->v[i].e.mask;
			t->g[t->ng].start = i;
			t->ng++;
		}
		t->g[t->ng - 1].end = i + 1;
	}
	t->sorted = 1;
	return 0;
}

int mttd__coll_finish(struct mttd_coll *c)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < c->n; i++)
		for (k = 0; k < MTTD_COLL_TABLES; k++)
			if (sort_table(&c->c[i].t[k]))
				return -1;
	return 0;
}

/*
 * A client without Guids matches no message (as the reference printer
 * has it): it would otherwise capture every other source's messages
 * (MTT's kernel collateral once did).  A catch-all says so with a Guid
 * whose Mask is zero.
 */
int mttd_coll_client(const struct mttd_coll *c, const uint8_t guid[16])
{
	int best = -1;
	unsigned int best_bits = 0;
	uint64_t w[2];
	size_t i, j;

	memcpy(w, guid, 16);
	for (i = 0; i < c->n; i++) {
		const struct mttd__cclient *cl = &c->c[i];

		for (j = 0; j < cl->nguid; j++) {
			const struct mttd__cguid *g = &cl->guid[j];
			uint64_t id[2], mask[2];

			/* 8 bytes a step: the same bytes either way round */
			memcpy(id, g->id, 16);
			memcpy(mask, g->mask, 16);
			if ((((w[0] ^ id[0]) & mask[0]) |
			     ((w[1] ^ id[1]) & mask[1])) == 0 &&
			    (best < 0 || g->bits > best_bits)) {
				best = (int)i;
				best_bits = g->bits;
			}
		}
	}
	return best;
}

const struct mttd_coll_entry *mttd_coll_find(const struct mttd_coll *c,
					     int client, unsigned int table,
					     uint64_t key)
{
	const struct mttd__ctable *t;
	size_t g;

	if (client < 0 || (size_t)client >= c->n || table >= MTTD_COLL_TABLES)
		return NULL;
	t = &c->c[client].t[table];
	if (!t->sorted)
		return NULL;
	for (g = 0; g < t->ng; g++) {
		uint64_t mask = t->g[g].mask, k = key & mask;
		size_t lo = t->g[g].start, hi = t->g[g].end;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if ((t->v[mid].e.id & mask) < k)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < t->g[g].end && (t->v[lo].e.id & mask) == k)
			return &t->v[lo].e;
	}
	return NULL;
}

int mttd_guid_parse(const char *s, uint8_t out[16])
{
	unsigned int n = 0;
	int brace = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s == '{') {
		brace = 1;
		s++;
	}
	while (*s && n < 32) {
		int v = mttd_hexval((unsigned char)*s);

		if (v < 0) {
			if (*s != '-')
				return -1;
			s++;
			continue;
		}
		if (n & 1)
			out[n / 2] = (uint8_t)(out[n / 2] << 4 | v);
		else
			out[n / 2] = (uint8_t)v;
		n++;
		s++;
	}
	if (n != 32)
		return -1;
	if (brace) {
		if (*s != '}')
			return -1;
		s++;
	}
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s ? -1 : 0;
}
