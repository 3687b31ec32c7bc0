/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mprof.h - libmprof, the host side of MiniProfiler shared by mttprofile
 * and mttdecode: the response parser, payload decoding with version
 * checks, the profile model (call tree, per-function statistics),
 * symbolisation from an ELF file and the report writers.  Nothing here
 * prints a diagnostic: errors are returned, stream problems are events
 * and counters.
 */
#ifndef MPROF_H
#define MPROF_H

#include <stdint.h>
#include <stdio.h>

#include "wire/mprof_wire.h"

/* ---- response parser (parser.c) ---- */

enum mprof_ev_kind {
	MPROF_EV_PACKET,	/* a response whose CRC and end marker hold */
	MPROF_EV_GARBAGE,	/* bytes skipped looking for AA 55 */
	MPROF_EV_CRC,		/* CRC mismatch: the packet is discarded */
	MPROF_EV_BAD_END,	/* end marker not 0A: discarded */
	MPROF_EV_TRUNCATED,	/* the stream ended inside a packet */
};

struct mprof_event {
	enum mprof_ev_kind kind;
	uint64_t offset;	/* stream offset of the packet or the skip */
	uint8_t type;		/* response type (packets, CRC, BAD_END) */
	const uint8_t *payload;	/* PACKET: valid during the callback */
	size_t len;		/* payload length, or bytes skipped */
	uint16_t crc_got, crc_want;	/* CRC: received, computed */
};

struct mprof_parser_stats {
	uint64_t bytes;
	uint64_t packets;
	uint64_t by_type[6];	/* packets per type 1..5; [0]: other types */
	uint64_t garbage_bytes;
	uint64_t garbage_runs;
	uint64_t crc_errors;
	uint64_t end_errors;
	uint64_t truncated;
};

typedef void (*mprof_event_fn)(void *ctx, const struct mprof_event *ev);

struct mprof_parser;

/* max_payload: longest payload accepted (0: 65535); a header announcing
 * more is taken as garbage */
struct mprof_parser *mprof_parser_new(mprof_event_fn fn, void *ctx,
				      size_t max_payload);
/* any chunking; events are delivered before it returns; -1 out of memory */
int mprof_parser_feed(struct mprof_parser *p, const uint8_t *buf, size_t n);
/* end of stream: reports a packet cut short and trailing garbage */
void mprof_parser_finish(struct mprof_parser *p);
const struct mprof_parser_stats *mprof_parser_stats(const struct mprof_parser *p);
void mprof_parser_free(struct mprof_parser *p);

const char *mprof_type_name(uint8_t type);
const char *mprof_cmd_name(uint8_t cmd);

/* PROFILE_DATA: check version and record count.  Returns 0 and sets
 * *count; -1 too short or count disagrees with the length; -2 an
 * unsupported version (*version set) */
int mprof_profile_check(const uint8_t *p, size_t n, unsigned int *version,
			unsigned int *count);

/* ---- profile model (profile.c, tree.c) ---- */

struct mprof_sym;

struct mprof_func_stats {
	uint32_t addr;
	const char *name;	/* symbol, or "0x%08x" */
	uint64_t calls;
	uint64_t total_us;	/* inclusive */
	uint64_t self_us;	/* exclusive of callees */
	uint32_t min_us, max_us;
};

struct mprof_node {		/* call tree: one node per call path */
	uint32_t func;		/* index into the functions */
	uint32_t parent;	/* node index; the root is node 0 */
	uint32_t first_child, next_sibling;	/* 0: none */
	uint64_t calls, total_us, self_us;
};

struct mprof_call {		/* one call, in entry order */
	struct mprof_record r;	/* as received */
	uint64_t entry;		/* r.entry_time unwrapped (see profile.c) */
	uint32_t func;		/* index into the functions */
	uint32_t node;		/* tree node */
	uint32_t self_us;
	size_t rec;		/* index of the record (arrival order) */
};

struct mprof_profile {
	struct mprof_record *rec;
	size_t nrec, caprec;
	/* filled by mprof_profile_analyse() */
	struct mprof_call *calls;
	struct mprof_func_stats *funcs;
	size_t nfuncs;
	struct mprof_node *nodes;
	size_t nnodes, capnodes;
	uint64_t span_us;	/* first entry to last exit */
	uint64_t wraps;		/* 2^32 us periods the timeline crosses */
	uint64_t *entry;	/* per record: entry time unwrapped */
	uint64_t orphans;	/* calls whose caller is not one level up */
	char *names;		/* storage for "0x..." names */
	/* set by the caller before analysis, optional */
	int have_meta;
	struct mprof_metadata meta;
	const struct mprof_sym *sym;
};

void mprof_profile_init(struct mprof_profile *p);
int mprof_profile_add(struct mprof_profile *p, const struct mprof_record *r);
/* add every record of a PROFILE_DATA payload; the mprof_profile_check()
 * result */
int mprof_profile_add_payload(struct mprof_profile *p, const uint8_t *pl,
			      size_t n);
/* sort the calls by entry time, rebuild the tree, compute statistics;
 * -1 out of memory */
int mprof_profile_analyse(struct mprof_profile *p);
void mprof_profile_free(struct mprof_profile *p);
/* functions sorted for reports: by total time, then name */
const struct mprof_func_stats **mprof_profile_sorted(const struct mprof_profile *p);

/* ---- symbols (symbols.c, libelf) ---- */

/* Load the function symbols of an ELF file; NULL with err set on
 * failure (err: a message, errsz bytes) */
struct mprof_sym *mprof_sym_load(const char *path, char *err, size_t errsz);
/* name of the function holding addr, or NULL; *off: addr - symbol.
 * A symbol holds [value, value + size), an unsized one up to the next
 * symbol or its section's end */
const char *mprof_sym_lookup(const struct mprof_sym *s, uint32_t addr,
			     uint32_t *off);
/* CRC32 (IEEE) of the ELF's .text, as MiniProfiler's elf_build_id;
 * has_text 0 when there was no .text */
uint32_t mprof_sym_text_crc(const struct mprof_sym *s, int *has_text);
#define MPROF_GNU_ID_MAX 64	/* longest GNU build id kept, in bytes */
/* the ELF's GNU build id in lower-case hex into hex (n bytes, room for
 * 2 * MPROF_GNU_ID_MAX + 1); its length in bytes, 0 when it has none */
size_t mprof_sym_build_id(const struct mprof_sym *s, char *hex, size_t n);
void mprof_sym_free(struct mprof_sym *s);

/* ---- reports (report_*.c): 0, or -1 on a write error ---- */

int mprof_write_text(FILE *f, const struct mprof_profile *p);
int mprof_write_folded(FILE *f, const struct mprof_profile *p);
int mprof_write_chrome(FILE *f, const struct mprof_profile *p);
int mprof_write_html(FILE *f, const struct mprof_profile *p,
		     const char *title);
/* a JSON string literal (quotes included) of s */
void mprof_json_str(FILE *f, const char *s);

/* ---- a stream of responses collected into a profile (collect.c) ---- */

struct mprof_collect {
	struct mprof_profile prof;	/* records and metadata */
	struct mprof_parser *parser;
	uint64_t acks, nacks;
	uint64_t bad_version;	/* PROFILE_DATA of another version: skipped */
	uint64_t bad_payload;	/* payload too short or count mismatch */
	uint64_t records;
	int have_status;
	struct mprof_status status;	/* the last STATUS */
	uint8_t last_type;	/* type of the last good packet */
	mprof_event_fn fn;	/* every event, after it was taken in */
	void *ctx;
	int oom;
};

/* fn (optional) sees every parser event after the collector */
int mprof_collect_init(struct mprof_collect *c, mprof_event_fn fn, void *ctx);
int mprof_collect_feed(struct mprof_collect *c, const uint8_t *buf, size_t n);
void mprof_collect_finish(struct mprof_collect *c);
void mprof_collect_free(struct mprof_collect *c);
/* read a whole capture file into c (initialised); -1 with errno */
int mprof_collect_file(struct mprof_collect *c, const char *path);
/* 1 once a good packet was found in the stream */
int mprof_collect_synced(const struct mprof_collect *c);
/* what a stream without a good packet held, for a message: "nothing
 * synchronised in N bytes: no MiniProfiler packet (N bad bytes ...)" */
void mprof_collect_nothing(const struct mprof_collect *c, char *buf,
			   size_t n);

/* ---- serial line (serial.c) ---- */

/* open a tty in raw mode (8N1, no flow control, no echo) at baud;
 * -1 with errno (EINVAL: a baud rate termios does not know) */
int mprof_serial_open(const char *path, unsigned long baud);
/* write a command, waiting for room; 0 or -1 with errno */
int mprof_serial_cmd(int fd, uint8_t cmd);

#endif
