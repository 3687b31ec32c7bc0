// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mtt_names.c - names for MTT streams: component names learned from
 * META frames (or from the Modules of a collateral client "mtt") and
 * dictionary texts of DICT trace ids (its Catalog32).
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/collateral.h"
#include "mttdecode/mttframe.h"
#include "internal/state.h"

#define NAME_LEN 64

struct comp {
	uint32_t id;
	char name[NAME_LEN];
};

struct mttd_mtt_names {
	const struct mttd_coll *coll;
	int client;		/* "mtt" in coll, or -1 */
	struct comp *v;
	size_t n, cap;
};

struct mttd_mtt_names *mttd_mtt_names_new(const struct mttd_coll *coll)
{
	struct mttd_mtt_names *n = calloc(1, sizeof(*n));
	unsigned int i;

	if (!n)
		return NULL;
	n->coll = coll;
	n->client = -1;
	for (i = 0; coll && i < mttd_coll_clients(coll); i++) {
		const char *name = mttd_coll_client_name(coll, (int)i);

		if (name && !strcmp(name, "mtt")) {
			n->client = (int)i;
			break;
		}
	}
	return n;
}

void mttd_mtt_names_free(struct mttd_mtt_names *n)
{
	if (!n)
		return;
	free(n->v);
	free(n);
}

static struct comp *find(const struct mttd_mtt_names *n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (n->v[i].id == id)
			return &n->v[i];
	return NULL;
}

int mttd_mtt_names_learn(struct mttd_mtt_names *n,
			 const struct mttd_mtt_frame *f)
{
	struct comp *c;
	size_t len;

	if (f->cmd != MTT_FRAME_CMD_META || !f->payload_len)
		return 0;
	c = find(n, f->comp);
	if (!c) {
		if (n->n == n->cap) {
			size_t cap = n->cap ? n->cap * 2 : 16;
			struct comp *v;

			if (cap > 65536)
				return 0;	/* bounded: keep what we have */
			v = realloc(n->v, cap * sizeof(*v));
			if (!v)
				return 0;
			n->v = v;
			n->cap = cap;
		}
		c = &n->v[n->n++];
		c->id = f->comp;
	}
	len = f->payload_len < NAME_LEN - 1 ? f->payload_len : NAME_LEN - 1;
	memcpy(c->name, f->payload, len);
	c->name[len] = 0;
	return 1;
}

const char *mttd_mtt_comp_name(const struct mttd_mtt_names *n, uint32_t id)
{
	const struct comp *c = find(n, id);
	const struct mttd_coll_entry *e;

	if (c && c->name[0])
		return c->name;
	if (n->client < 0)
		return NULL;
	e = mttd_coll_find(n->coll, n->client, MTTD_COLL_MODULE, id);
	return e ? e->text : NULL;
}

const char *mttd_mtt_value_name(const struct mttd_mtt_names *n,
				const struct mttd_mtt_frame *f)
{
	const struct mttd_coll_entry *e;

	if (f->hint[0])
		return f->hint;
	if (!(f->flags & MTT_FRAME_F_DICT) || n->client < 0)
		return NULL;
	e = mttd_coll_find(n->coll, n->client, MTTD_COLL_CATALOG32,
			   f->trace_id);
	return e ? e->text : NULL;
}

void mttd__mtt_names_state(const struct mttd_mtt_names *n,
			   struct mttd__blob *b)
{
	mttd__blob_put(b, &n->n, sizeof(n->n));
	if (n->n)
		mttd__blob_put(b, n->v, n->n * sizeof(*n->v));
}

int mttd__mtt_names_copy(struct mttd_mtt_names *dst,
			 const struct mttd_mtt_names *src)
{
	struct comp *v = NULL;

	if (src->n) {
		v = malloc(src->n * sizeof(*v));
		if (!v)
			return -1;
		memcpy(v, src->v, src->n * sizeof(*v));
	}
	free(dst->v);
	dst->v = v;
	dst->n = dst->cap = src->n;
	return 0;
}
