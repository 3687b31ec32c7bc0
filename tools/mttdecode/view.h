/* SPDX-License-Identifier: GPL-2.0 */
/*
 * view.h - the record the HTML page (fmt_html.c) is written from: one
 * item of the timeline, as issue 21's merged output defines it (target,
 * both times, accuracy, kind, core, component, level, source, text).
 *
 * stand-in until h-merge lands: tools/mttdecode/merge.h defines the
 * merged record; then html_add() takes that one and this header goes.
 * For a single stream the printer callbacks of fmt_html.c fill it: the
 * target is the input, its own time is the reference time and the
 * accuracy is 0 with VIEW_REF_CLOCK set.
 */
#ifndef MTTD_CLI_VIEW_H
#define MTTD_CLI_VIEW_H

#include <stddef.h>
#include <stdint.h>

enum view_kind {
	VIEW_MSG,		/* a message: a mark */
	VIEW_VALUE,		/* a named number: a point of a waveform */
	VIEW_BEGIN,		/* a function slice opens (nests per track) */
	VIEW_END,		/* ... and closes */
	VIEW_COMPLETE,		/* a whole slice: dur_ns */
	VIEW_LOSS,		/* data lost */
	VIEW_KINDS
};

#define VIEW_REF_CLOCK	1u	/* the target's clock is the reference */

struct view_rec {
	const char *target;	/* target name */
	unsigned int target_idx;
	unsigned int flags;	/* VIEW_* */
	int64_t own_ns;		/* the target's own time */
	int64_t ref_ns;		/* the reference time */
	double bound_ns;	/* accuracy half-width at ref_ns */
	enum view_kind kind;
	int64_t cpu;		/* core/CPU, or -1 */
	const char *component;	/* the track: component, source or node */
	const char *name;	/* VIEW_VALUE: the value's name; slices:
				 * the function; else NULL */
	const char *level;	/* level or severity name, or NULL */
	const char *source;	/* where it came from (m1/c0, node), or NULL */
	const char *text;
	size_t text_len;
	double value;		/* VIEW_VALUE */
	uint64_t dur_ns;	/* VIEW_COMPLETE */
};

struct app;
/* fmt_html.c: one record onto the page (--format=html), held in full
 * while within the page's bounds, else counted into its track's summary */
void html_add(struct app *a, const struct view_rec *r);

#endif
