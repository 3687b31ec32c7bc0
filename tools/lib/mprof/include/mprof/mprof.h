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

/* a TIME_SYNC response (our clock exchange), in stream order */
struct mprof_sync {
	uint32_t seq;
	uint32_t t_rx, t_tx;	/* as received (us, wrapping) */
	uint64_t end;		/* stream offset just past the response */
	size_t after;		/* records received before it */
	uint64_t rx_us, tx_us;	/* unwrapped on the records' timeline
				 * (mprof_profile_analyse()) */
};

struct mprof_profile {
	struct mprof_record *rec;
	size_t nrec, caprec;
	struct mprof_sync *sync;	/* TIME_SYNC responses */
	size_t nsync, capsync;
	/* filled by mprof_profile_analyse() */
	struct mprof_call *calls;
	struct mprof_func_stats *funcs;
	size_t nfuncs;
	struct mprof_node *nodes;
	size_t nnodes, capnodes;
	uint64_t span_us;	/* first entry to last exit */
	uint64_t wraps;		/* 2^32 us periods the timeline crosses */
	uint64_t *entry;	/* per record: entry time unwrapped (and
				 * sync[].rx_us, tx_us on the same line) */
	uint64_t orphans;	/* calls whose caller is not one level up */
	char *names;		/* storage for "0x..." names */
	/* set by the caller before analysis, optional */
	int have_meta;
	struct mprof_metadata meta;
	const struct mprof_sym *sym;
};

void mprof_profile_init(struct mprof_profile *p);
int mprof_profile_add(struct mprof_profile *p, const struct mprof_record *r);
/* a TIME_SYNC response (t), ending at stream offset end: 0, -1 out of
 * memory */
int mprof_profile_add_sync(struct mprof_profile *p,
			   const struct mprof_time_sync *t, uint64_t end);
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
/* a session.txt's lines that tell later that elf is still the ELF it
 * names: "elf=", then "elf_text_crc32=" and "elf_gnu_build_id=" where
 * s has them (read back by libmttsession's mtts_profile_read()) */
void mprof_sym_write_ids(FILE *f, const char *elf, const struct mprof_sym *s);
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

/* read a capture from fd to its end into c (initialised); not closed;
 * -1 with errno */
int mprof_collect_fd(struct mprof_collect *c, int fd);

/* ---- a capture as received (report_events.c) ---- */

/* is p[0..n) the start of a capture: a response header (AA 55 and a
 * response type)?  1 or 0 (0 too when n < 3) */
int mprof_is_capture(const uint8_t *p, size_t n);
/* one parser event as a text line (json 0) or a JSON line; records are
 * named from sym (may be NULL) */
void mprof_write_event(FILE *f, int json, const struct mprof_sym *sym,
		       const struct mprof_event *ev);
/* the sorted per-function statistics as JSON lines; 0 or -1 */
int mprof_write_functions_json(FILE *f, const struct mprof_profile *p);

/* ---- decoding a whole capture into one report (decode.c) ---- */

enum mprof_format {
	MPROF_FMT_TEXT,		/* every event, an empty line, the text report */
	MPROF_FMT_JSON,		/* every event and function as JSON lines */
	MPROF_FMT_CHROME,	/* mprof_write_chrome() */
	MPROF_FMT_FOLDED,	/* mprof_write_folded() */
	MPROF_FMT_HTML,		/* mprof_write_html() */
};

/* what a session recorded about the ELF that was profiled (NULL or "":
 * not recorded) */
struct mprof_elf_ids {
	const char *text_crc32;	/* its .text CRC32 ("0x%08x") */
	const char *gnu_build_id;	/* its GNU build id (hex) */
	const char *device_build_id;	/* the device's METADATA elf_build_id */
};

struct mprof_decode_opts {
	enum mprof_format format;
	const char *elf;	/* name functions from this ELF, or NULL */
	/* non-NULL: elf is the one a session names; it is used only if it
	 * is the ELF those ids say (else MPROF_DECODE_ELF_REFUSED), and one
	 * that cannot be read is a warning, not an error */
	const struct mprof_elf_ids *expect;
	const char *title;	/* of the HTML page */
	int no_output;		/* decode only, write nothing */
};

enum mprof_decode_status {
	MPROF_DECODE_OK,
	MPROF_DECODE_ELF,	/* elf cannot be read: elf_err says why */
	MPROF_DECODE_ELF_REFUSED,	/* not the ELF expected: why says */
	MPROF_DECODE_READ,	/* reading the input failed: err (errno) */
	MPROF_DECODE_NOMEM,
	MPROF_DECODE_WRITE,	/* writing the output failed */
};

/* warnings, in the order they arise (mprof_decode_result.warn) */
#define MPROF_WARN_ELF_UNREADABLE 1u	/* expected ELF: not read, elf_err */
#define MPROF_WARN_UNCHECKED	2u	/* expected ELF: no ids recorded */
#define MPROF_WARN_DEVICE	4u	/* the ELF's .text CRC32 (elf_crc) is
					 * not the device's build id */

struct mprof_decode_result {
	unsigned int warn;	/* MPROF_WARN_* */
	char elf_err[512];
	char why[640];
	uint32_t elf_crc, device_build_id;	/* MPROF_WARN_DEVICE */
	int err;		/* MPROF_DECODE_READ: errno */
	/* the input was not empty, but no packet synchronised: nothing
	 * says what it held (mprof_collect_nothing()) */
	int nothing_synced;
	char nothing[512];
	/* counters of the input */
	struct mprof_parser_stats parser;
	uint64_t records, bad_version, bad_payload;
};

/*
 * The hand-off of a capture: load the ELF (opts->elf), read fd to its
 * end (not closed) and write the report of opts->format to out.
 * Nothing is printed but the report: the status, warnings and counters
 * are in *r.
 */
enum mprof_decode_status mprof_decode_stream(const struct mprof_decode_opts *o,
					     int fd, FILE *out,
					     struct mprof_decode_result *r);

/* ---- serial line (serial.c) ---- */

/* open a tty in raw mode (8N1, no flow control, no echo) at baud;
 * -1 with errno (EINVAL: a baud rate termios does not know) */
int mprof_serial_open(const char *path, unsigned long baud);
/* 1 if mprof_serial_open() knows the rate, else 0 */
int mprof_serial_baud_ok(unsigned long baud);
/* write a command, waiting for room; 0 or -1 with errno */
int mprof_serial_cmd(int fd, uint8_t cmd);

#endif
