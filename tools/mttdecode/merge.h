/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h - "mttdecode SESSION" (a session directory with serial
 * targets, no other option but --format and --stats): the Linux stream
 * and every target's capture as one output in reference-time order
 * (Documentation/mttdecode.rst, "Merged sessions").  The merged record
 * below is what every merged printer (and the page of --format=html)
 * is written from.
 */
#ifndef MTTD_MERGE_H
#define MTTD_MERGE_H

#include <stddef.h>
#include <stdint.h>

enum mrec_kind {
	MREC_MSG,	/* a message (STP, SyS-T, an MTT frame's text) */
	MREC_BEGIN,	/* a function slice opens (MTT API_ENTRY) */
	MREC_END,	/* ... closes (MTT API_RETURN) */
	MREC_SLICE,	/* a complete call: dev_ns its return, dur_ns long
			 * (MiniProfiler: sent when the call returned) */
	MREC_VALUE,	/* an MTT value: value holds it when numeric */
	MREC_LOSS,	/* data lost (text says what) */
};

/* One merged record.  Strings are NUL-terminated, NULL when absent;
 * valid until the next record of the same target is taken. */
struct mrec {
	const char *target;	/* "linux" (the stream) or the target's NAME */
	unsigned int tindex;	/* 0 the stream, 1.. targets in mttsession
				 * order */
	int64_t dev_ns;		/* the target's own time (its clock, ns) */
	int64_t ref_ns;		/* the reference time (CLOCK_MONOTONIC ns) */
	double bound_ns;	/* accuracy half-width at ref_ns (0 for the
				 * stream; INFINITY when one-sided) */
	enum mrec_kind kind;
	int has_time;		/* the record had a time of its own (else
				 * dev_ns is the previous record's, and a
				 * target's ref_ns the read time of its
				 * bytes) */
	uint64_t dur_ns;	/* MREC_SLICE */
	int core;		/* CPU or core, -1 unknown */
	const char *comp;	/* component */
	const char *level;	/* level or severity name */
	const char *source;	/* policy node ("m<M>/c<C>" without one) */
	const char *name;	/* an MTT value's name, a SyS-T type, the
				 * function of a slice; or NULL */
	const char *text;	/* the message, value or function name */
	size_t text_len;
	int has_value;		/* MREC_VALUE: value is its number */
	double value;
	uint64_t offset;	/* where the record starts in its input */
	/* for the clock bounds (merge.c): the input offset just past the
	 * record (0: not known, no bound), and its bytes sent after its
	 * time was taken */
	uint64_t end_offset;
	uint32_t wire_bytes;
};

/* the names of the kinds as printed: "msg", "begin", "end", "slice",
 * "value", "loss" */
const char *mrec_kind_name(enum mrec_kind k);

struct opts;
/* is this invocation a merge (one mttcontrol session with targets and no
 * option but --format or -f, --stats and --html-max)?  1 or 0 (merge.c) */
int merge_wanted(const struct opts *o);
/* decode and merge the session o->files[0]; the exit status */
int merge_session(const struct opts *o);

#endif
