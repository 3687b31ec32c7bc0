/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mttprofile.h - what the parts of mttprofile share: options, the live
 * capture, the session directory and its reports.
 */
#ifndef MTTPROFILE_H
#define MTTPROFILE_H

#include "mprof/mprof.h"

struct popts {
	const char *device;	/* serial line, or with --report the input */
	const char *dir;	/* session directory */
	const char *elf;
	unsigned long baud;
	double duration;	/* seconds; 0: until interrupted */
	unsigned long records;	/* stop after this many; 0: no limit */
	double status_every;	/* seconds; 0: no polling */
	double timeout;		/* seconds to wait for a response */
	int quiet;
	int report;		/* --report: analyse a capture, no device */
};

/* 0 ok, 1 usage error (said), 2 --help/--version done */
int parse_popts(struct popts *o, int argc, char **argv);
/* run a live session; exit status */
int capture_run(const struct popts *o);
/* the symbols of the ELF file elf; NULL with the reason printed */
struct mprof_sym *load_elf(const char *elf);
/* reports of a collected stream into dir, functions named from sym (may
 * be NULL; elf: its file name, for messages); 0 or 1 (message printed) */
int write_reports(const char *dir, struct mprof_collect *c,
		  struct mprof_sym *sym, const char *elf, int quiet);

#endif
