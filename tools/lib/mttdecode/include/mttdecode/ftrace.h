/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mttdecode/ftrace.h - Linux ftrace records as the STM ftrace source
 * sends them (public API).
 *
 * Each ftrace ring-buffer entry is written raw: a struct trace_entry
 * (u16 type, u8 flags, u8 preempt_count, s32 pid) and the event's fields.
 * Function tracer entries (type: the ID in events/ftrace/function/format,
 * 1 by default) carry u64 ip and u64 parent_ip (x86-64 layout: offsets 8
 * and 16).  Newer kernels send the same record as a SyS-T SBD message
 * whose 64-bit id is the type (the other header bytes zeroed), followed
 * by the rest of the record: that is the same byte layout.
 *
 * With a kallsyms snapshot (/proc/kallsyms) addresses become
 * "func+0xoff"; with a copy of the tracefs events directory
 * (DIR/<system>/<event>/format) records are decoded by their type to
 * "name: field=value ..." from the format files' offsets, sizes and
 * signedness (common_* fields are left out; print fmt is not used).
 */
#ifndef MTTDECODE_FTRACE_H
#define MTTDECODE_FTRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mttd_ftrace;

struct mttd_ftrace *mttd_ftrace_new(void);
void mttd_ftrace_free(struct mttd_ftrace *f);

/* 0, or -1 with a message in err */
int mttd_ftrace_load_kallsyms(struct mttd_ftrace *f, const char *path,
			      char *err, size_t errlen);
int mttd_ftrace_load_kallsyms_mem(struct mttd_ftrace *f, const char *text,
				  size_t len);
/* DIR is the events directory, or a tracefs root holding events/ */
int mttd_ftrace_load_tracefs(struct mttd_ftrace *f, const char *dir,
			     char *err, size_t errlen);
/* one format file's text; 0, or -1 if it has no name/ID */
int mttd_ftrace_add_format(struct mttd_ftrace *f, const char *system,
			   const char *text, size_t len);

unsigned int mttd_ftrace_symbols(const struct mttd_ftrace *f);
unsigned int mttd_ftrace_events(const struct mttd_ftrace *f);

/* The symbol holding addr (and the offset into it), or NULL. */
const char *mttd_ftrace_symbol(const struct mttd_ftrace *f, uint64_t addr,
			       uint64_t *off);

/*
 * Render the record rec[0..n) into buf (at most cap bytes including the
 * NUL).  Returns the length written, or 0 if the record is shorter than a
 * trace_entry.
 */
size_t mttd_ftrace_render(const struct mttd_ftrace *f, const uint8_t *rec,
			  size_t n, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
