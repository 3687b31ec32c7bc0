/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * coll.h - what the SyS-T decoder uses of the collateral store besides
 * its public API (internal).
 *
 * A collateral format compiled once: the format's
 * conversion specs parsed when its entry is added to the collateral
 * (names/coll.c), into a list of literal spans and conversions that
 * syst/syst_fmt.c runs for every message of the entry, instead of
 * parsing the specs again.  The compiled form belongs to the entry (it
 * is made with it and freed with it), so it cannot outlive or disagree
 * with the entry's text, and nothing in the library is global.
 */
#ifndef MTTD_INTERNAL_COLL_H
#define MTTD_INTERNAL_COLL_H

#include <stddef.h>

#include "mttdecode/collateral.h"

struct mttd__fmtc;

/* fmt[0..flen) (up to its first NUL) compiled; NULL when out of memory
 * (the format is then rendered the slow way, the same text) */
struct mttd__fmtc *mttd__fmt_compile(const char *fmt, size_t flen);
void mttd__fmtc_free(struct mttd__fmtc *c);

/* the compiled format of an entry that mttd_coll_find() returned; NULL
 * if it has none (a table of names, or out of memory when loading) */
const struct mttd__fmtc *mttd__coll_fmtc(const struct mttd_coll_entry *e);

/* bit t set: client's table t has entries (0 for no client); the
 * tables of a client do not change once its file is loaded */
unsigned int mttd__coll_tables(const struct mttd_coll *c, int client);

#endif
