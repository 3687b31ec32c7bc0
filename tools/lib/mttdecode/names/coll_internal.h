/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * coll_internal.h - the collateral store shared by coll.c (tables,
 * lookups) and coll_xml.c (loading) (internal).
 */
#ifndef MTTD_COLL_INTERNAL_H
#define MTTD_COLL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal/coll.h"
#include "mttdecode/collateral.h"

struct mttd__centry {
	struct mttd_coll_entry e;
	struct mttd__fmtc *fmtc;/* the text compiled, for a format table */
	uint32_t seq;		/* load order: earlier wins ties */
	uint8_t bits;		/* mask bits set */
};

/* entries sharing a mask, in a sorted table: [start, end) */
struct mttd__cgroup {
	uint64_t mask;
	size_t start, end;
};

struct mttd__ctable {
	struct mttd__centry *v;
	size_t n, cap;
	struct mttd__cgroup *g;	/* most mask bits first */
	size_t ng;
	int sorted;
};

struct mttd__cguid {
	uint8_t id[16];
	uint8_t mask[16];
	unsigned int bits;
};

struct mttd__cclient {
	char *name;
	char *file;		/* the file (or name) it was loaded from */
	struct mttd__cguid *guid;
	size_t nguid, capguid;
	struct mttd__ctable t[MTTD_COLL_TABLES];
};

struct mttd_coll {
	struct mttd__cclient *c;
	size_t n, cap;
	uint32_t seq;
};

/* a new client (name and file copied); NULL when out of memory */
struct mttd__cclient *mttd__coll_add_client(struct mttd_coll *c,
					    const char *name,
					    const char *file);
int mttd__coll_add_guid(struct mttd__cclient *cl, const uint8_t id[16],
			const uint8_t mask[16]);
/* text[0..len) copied; 0 or -1 (out of memory) */
int mttd__coll_add(struct mttd_coll *c, struct mttd__cclient *cl,
		   unsigned int table, uint64_t id, uint64_t mask,
		   const char *text, size_t len, int64_t file, int64_t line);
/* sort every table for lookups; 0 or -1 (out of memory) */
int mttd__coll_finish(struct mttd_coll *c);

#endif
