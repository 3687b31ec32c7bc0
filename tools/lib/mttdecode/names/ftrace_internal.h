/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ftrace_internal.h - kernel symbols and tracefs event formats shared by
 * ksyms.c, tracefs.c and ftrace_render.c (internal).
 */
#ifndef MTTD_FTRACE_INTERNAL_H
#define MTTD_FTRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mttdecode/ftrace.h"

struct mttd__sym {
	uint64_t addr;
	uint32_t name;		/* offset in the name pool */
	uint32_t seq;
};

/* how a field is shown */
enum {
	FK_NUM,			/* integer of size 1, 2, 4 or 8 */
	FK_STR,			/* char array: text up to NUL */
	FK_BYTES,		/* anything else: hex bytes */
	FK_ARRAY		/* integer array: {a,b,...} */
};

struct mttd__field {
	char *name;
	uint32_t offset;
	uint32_t size;		/* 0: flexible array (to the record's end) */
	uint32_t elem;		/* element size of FK_ARRAY */
	uint8_t kind;
	uint8_t is_signed;
	uint8_t dyn;		/* 1 __data_loc, 2 __rel_loc: the u32 at
				 * offset locates the data */
	uint8_t addr;		/* an address: symbolise, else hex */
	uint8_t common;		/* common_* */
};

struct mttd__event {
	uint32_t id;
	char *name;
	char *system;
	struct mttd__field *f;
	size_t nf;
};

struct mttd_ftrace {
	struct mttd__sym *sym;
	size_t nsym, capsym;
	char *names;		/* NUL-separated symbol names */
	size_t nlen, ncap;
	struct mttd__event *ev;	/* sorted by id once sorted is set */
	size_t nev, capev;
	int sorted;
};

/* tracefs.c: the event with this id, or NULL (built-in function and
 * print events when no format file names them) */
const struct mttd__event *mttd__ftrace_event(const struct mttd_ftrace *f,
					     uint32_t id);

#endif
