/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what the parts of the mttdecode command share: options, the
 * decoders and resources, the output, and the printer interface (text,
 * JSON lines, CSV, Chrome trace JSON).
 */
#ifndef MTTD_CLI_H
#define MTTD_CLI_H

#include <stdint.h>

#include "mttdecode/mttdecode.h"
#include "out.h"
#include "wire/wide.h"

/* input kinds; IN_AUTO: sniffed from each file's first bytes (sniff.c);
 * IN_MPROF: a MiniProfiler capture, handed to libmprof whole (mprof.c) */
enum { IN_AUTO, IN_STP, IN_SYST, IN_SYSTTEXT, IN_RISCV, IN_MSC, IN_CS, IN_MTT,
       IN_MPROF };
/* FMT_FOLDED: MiniProfiler captures only; FMT_HTML: of a MiniProfiler
 * capture its profile page (libmprof), else the viewer (fmt_html.c) */
enum { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_CHROME, FMT_FOLDED, FMT_HTML };

#define MAX_COLLATERAL 64
#define HTML_MAX_DEFAULT 1000000ul	/* --html-max */

struct html;
#define FTRACE_BUF 8192	/* one ftrace record rendered */

struct opts {
	int other_opts;		/* options given besides --format, --stats
				 * and --html-max (merge_wanted()) */
	int packets;		/* print packets */
	int nulls;		/* ... NULL packets too */
	int messages;		/* print messages */
	int format;		/* FMT_* */
	int no_output;
	int stats;
	int syst;		/* decode message payloads as SyS-T */
	int no_syst;		/* --no-syst: never, not even detected */
	int syst_auto;		/* neither: each sniffed STP input probed */
	int no_mtt;		/* --no-mtt: MTT frames shown as messages */
	int input;		/* IN_* */
	int input_given;	/* --input, --srcid-bits or --ts-bytes */
	int csv_extra;		/* --csv-extra: columns after the printer's */
	int has_from, has_to;	/* --from, --to (chrome): a window in ns */
	uint64_t from_ns, to_ns;
	int wall_clock;		/* --wall-clock (chrome) */
	int has_rt_offset;	/* the session's realtime - monotonic */
	int64_t rt_offset_ns;
	int has_short_guid;	/* --short-guid */
	uint8_t short_guid[16];
	unsigned long max_len;
	unsigned long max_open;
	unsigned long jobs;	/* -j; 0: every online CPU */
	unsigned long segment;	/* --segment; 0: par_segment() decides */
	unsigned long srcid_bits;	/* --input=riscv-encap widths */
	unsigned long ts_bytes;
	uint8_t *rv_stp;	/* --srcid-proto: bitmap of the srcIDs decoded
				 * as swstm's STP (2^16 bits); NULL: all */
	uint8_t *rv_mtt;	/* --srcid-proto ...:mtt: bitmap of the srcIDs
				 * whose payloads are MTT frames; NULL: none */
	long rv_max_named;	/* highest srcID --srcid-proto named, or -1 */
	int rv_unframed;	/* --unframed */
	char **files;		/* nfiles inputs, in order; none or "-": stdin */
	int nfiles;
	const char *policy;
	const char *kallsyms;
	const char *tracefs;
	const char *collateral[MAX_COLLATERAL];
	int ncollateral;
	int files_owned;	/* files were made by session_expand() */
	char *owned[4];		/* session files named by session_expand() */
	int nowned;
	int children[8];	/* session_expand()'s stream feeders */
	int nchildren;
	const char *elf;	/* --elf (MiniProfiler) */
	const char *mprof_session;	/* the mttprofile session directory
					 * whose capture is the input */
	unsigned int trace_id;	/* --trace-id (CoreSight), 0: detected */
	unsigned int cs_flags;	/* --cs-sync: MTTD_CS_* */
	unsigned long html_max;	/* --html-max: records the page holds */
};

/* text printer state: what was last announced */
struct text_state {
	int have_version;
	unsigned int version;
	int have_freq;
	uint64_t freq;
};

/* Chrome trace printer state */
#define CHROME_TRACKS 4096
struct chrome_track {
	uint8_t key[16];
	uint32_t tid;
	uint8_t used;
};
struct chrome_state {
	int events;		/* events written (for the commas) */
	uint64_t last_ns;	/* time of the last event */
	uint32_t next_tid;
	uint8_t seen_pid[65536 / 8];	/* process_name written */
	struct chrome_track track[CHROME_TRACKS];
};

/* A SyS-T message as the printers see it */
#define GUID_CACHE 64	/* entries of the GUID text cache (power of 2) */
#define TYPE_CACHE 128	/* entries of the type name cache (power of 2) */
#define NAME_CACHE 16	/* entries of each escaped name cache (power of 2) */
#define NAME_MAX_ESC 118	/* longest escaped name the cache holds */

/* the fields of a line whose names are cached: policy node, collateral
 * client or module (escaped as text); the CSV rows' Origin and
 * Collateral cells (as CSV cells, fmt_csv.c); the severity names have a
 * table of their own (app.sev_names) */
enum { NC_SOURCE, NC_ORIGIN, NC_CSV_ORIGIN, NC_CSV_COLL, NC_FIELDS };

struct sview {
	const struct mttd_syst_msg *m;
	const char *source;	/* policy node, or NULL */
	const char *text;	/* m->text, or its ftrace rendering */
	size_t text_len;
	int plain;		/* text needs no escaping (MTTD_SYST_F_PLAIN
				 * of m->text) */
	const char *type;	/* "STRING:GENERIC"; "RAW:" and the protocol
				 * name (in type_buf) */
	size_t type_len;
	/* the next two only for printers without syst_lean */
	const char *guid;	/* the message's GUID, or "" */
	char loc[128];		/* "" if none */
	char type_buf[32 + 256];
};

/* An MTT frame as the printers see it (mtt.c) */
struct mview {
	const struct mttd_mtt_frame *f;
	const char *comp;	/* component name, or NULL */
	const char *name;	/* the value's name (hint, dictionary), or NULL */
	const char *source;	/* policy node, or NULL */
	const char *via;	/* "stp", "syst" or "file" */
	int stp;		/* master/channel are valid */
	uint16_t master, channel;
	int has_stp_ts;
	uint64_t stp_ts;
	uint64_t offset;	/* input offset of the frame or its message */
	uint64_t end;		/* a riscv-encap srcID's frame: the input
				 * offset of the end of the packet that
				 * completed it; else 0 */
	const char *level;	/* level name ("INFO"), or NULL without LEVEL */
	char level_buf[11];
	const char *value;	/* the typed value as text */
	size_t value_len;
};

struct app {
	struct opts o;
	struct mttd_stp *stp;
	struct mttd_rv *rv;	/* instead of stp for IN_RISCV */
	struct mttd_msgdec *msg;
	struct mttd_syst *syst;
	struct mttd_syst_stream *stream;
	struct mttd_syst_text *text;
	struct mttd_msc *msc;	/* framing in front of stp (framing.c) */
	struct mttd_cs *cs;
	struct mttd_msc_stats msc_tot;
	struct mttd_cs_stats cs_tot;
	int had_msc, had_cs;
	struct mttd_mtt_stream *mtt_stream;	/* --input=mtt */
	struct mttd_rv_mtt *rv_mtt;	/* riscv-encap: the MTT srcIDs' frames */
	uint64_t rv_mtt_end;	/* the end of the packet being pushed */
	struct mttd_mtt_names *mtt_names;	/* component names */
	char *mtt_value;			/* MTT_VALUE_BUF */
	/* the input being read (one file at a time, each its own stream) */
	int kind;		/* IN_* of its front end; IN_AUTO: sniffing */
	const char *name;	/* its name for messages */
	uint64_t bytes;		/* bytes of it read so far */
	uint8_t *sniff;		/* its first bytes while sniffing */
	size_t sniff_len;
	size_t sniff_scanned;	/* bytes of it sniff.c has looked at */
	int sniff_stp;		/* an ASYNC was found: STP */
	int live;		/* the input is a pipe or device */
	size_t sniff_probed;	/* bytes held when SyS-T was last probed */
	uint64_t syst_msgs0;	/* SyS-T counters when it was opened */
	uint64_t syst_bad0;
	int nothing;		/* some input held nothing decodable */
	/* totals over the inputs, for --stats */
	struct mttd_stp_stats stp_tot;
	struct mttd_msg_stats msg_tot;
	int had_stp, had_stream, had_text, had_rv;
	struct mttd_rv_counts rv_tot;	/* riscv-encap: other packets */
	uint64_t par_pieces[2];	/* -j: pieces used as decoded in parallel,
				 * pieces decoded again in order */
	uint64_t par_capped;	/* -j: pieces used whose output reached the
				 * cap, the rest decoded in order */
	struct mttd_coll *coll;
	struct mttd_policy *policy;
	struct mttd_ftrace *ftrace;
	const struct printer *pr;
	uint64_t stp_hz;	/* from FREQ packets; 1 GHz until one */
	uint64_t syst_hz;	/* from the last CLOCK message, or 0 */
	/* policy lookup cache */
	uint32_t src_key;
	const char *src_name;
	/* GUID text cache, direct-mapped by master/channel (sview.c) */
	struct guid_cache {
		uint8_t key[16];
		char str[MTTD_GUID_STR];
		char ok;
	} guids[GUID_CACHE];
	/* type names by type and subtype (sview.c) */
	struct type_cache {
		uint32_t key;	/* type << 8 | subtype, + 1; 0: empty */
		uint8_t len;
		char str[59];	/* 32 bytes are read whatever len */
	} types[TYPE_CACHE];
	/* names escaped as text, by the address of the name, one cache
	 * for each NC_* field of a line (names.c) */
	struct name_cache {
		const char *key;
		size_t len;
		char str[NAME_MAX_ESC];
	} names[NC_FIELDS][NAME_CACHE];
	/* the severity names escaped, by severity (8: "-"), filled on
	 * first use (fmt_text.c) */
	struct name_cache sev_names[9];
	char *fbuf;		/* ftrace rendering */
	struct text_state ts;
	struct chrome_state *chrome;
	struct html *html;	/* --format=html: the page's records */
	struct out out;
};

/*
 * Everything above that a printer or sview.c keeps from one item to the
 * next (ts, stp_hz, syst_hz, *chrome) is compared by par.c (par_state())
 * when it decides whether a piece decoded in parallel can be used: a new
 * piece of such state must be added there.
 */
struct printer {
	void (*begin)(struct app *a);
	void (*end)(struct app *a);
	void (*packet)(struct app *a, const struct mttd_stp_event *e);
	void (*desync)(struct app *a, const struct mttd_stp_event *e);
	/* riscv-encap: a packet not decoded as STP, header at offset */
	void (*encap)(struct app *a, const struct mttd_rv_packet *p,
		      uint64_t offset);
	void (*msg)(struct app *a, const struct mttd_msg *m);
	void (*event)(struct app *a, const struct mttd_msg_event *e);
	void (*syst)(struct app *a, const struct sview *v);
	/* syst() uses neither loc nor guid of the view (it asks
	 * sview_guid() when it needs the GUID) */
	int syst_lean;
	void (*syst_event)(struct app *a, const struct mttd_syst_event *e);
	void (*mtt)(struct app *a, const struct mview *v);
	void (*mtt_skip)(struct app *a, uint64_t offset, uint64_t bytes);
};

extern const struct printer text_printer;
extern const struct printer json_printer;
extern const struct printer csv_printer;
extern const struct printer chrome_printer;
extern const struct printer html_printer;

/* exit statuses (Documentation/cli.rst) */
enum { EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_NOTHING };

/* options.c: 0 ok, EXIT_USAGE (said), -1 --help/--version done */
int parse_options(struct opts *o, int argc, char **argv);
/* options.c: say a usage error (Documentation/cli.rst), "mttdecode: OPT
 * 'ARG': WHY" (without ARG if NULL) and "Try 'mttdecode HELP' ..." on
 * stderr; EXIT_USAGE */
int usage_error(const char *help, const char *opt, const char *arg,
		const char *why);
/* options.c: --srcid-proto=IDS:PROTO into o->rv_stp and o->rv_mtt
 * (allocated): 0, or -1 if bad */
int srcid_proto(struct opts *o, const char *arg);
/* session.c: mttcontrol session directories among the files become
 * their streams and resources, a mttprofile one its capture; 0, or 1
 * after printing why */
int session_expand(struct opts *o);
/* 1 if a feeder of session streams failed (it said why) */
int session_free(struct opts *o);
/* sniff.c: is the input a MiniProfiler capture (--input=mprof, a
 * mttprofile session, or a first input that is a regular file starting
 * with a response header)?  mprof.c: decode it; the exit status */
int sniff_mprof(const struct opts *o);
int mprof_decode(const struct opts *o);
/* setup.c: resources, the SyS-T decoder and the printer; 0, or 1 after
 * printing why */
int setup(struct app *a);
void teardown(struct app *a);
/* frontend.c: the decoders of one input of kind IN_STP/SYST/SYSTTEXT;
 * fe_open: 0, or 1 after printing why; fe_close: finish them, add up
 * the counters, say on stderr when nothing in the input synchronised
 * (and set a->nothing) */
int fe_open(struct app *a, int kind);
void fe_close(struct app *a);
/* sniff.c: the kind of an input from its first n bytes; IN_AUTO while
 * undecided (more bytes needed and final not set) */
#define SNIFF_MAX (64u << 10)
int sniff_kind(struct app *a, const uint8_t *p, size_t n, int final);
/* do the STP messages in p[0..n) look like SyS-T (MTT frames left out
 * when mtt)?  1 yes, 0 no; fewer than SNIFF_SYST_MSGS complete messages:
 * -1 (so far yes), -2 (none more than a word) (sniff.c) */
#define SNIFF_SYST_MSGS 16
int sniff_syst(const uint8_t *p, size_t n, int mtt);
/* input.c: decode fd to its end as one input; 0, or 1 on an error */
int decode_fd(struct app *a, int fd, const char *name);
/* input.c: the same in steps, for a caller that reads the input itself
 * (merge.c): begin one input (its front end, or sniffing), feed it any
 * chunks, end it; each 0, or 1 after printing why */
int input_begin(struct app *a, const char *name, int live);
int input_feed(struct app *a, const uint8_t *p, size_t n);
int input_end(struct app *a);
/* par.c: decode [off, size) of a regular file (fd) on o.jobs threads,
 * the front end (an STP decoder, a->stp, or a hex line reader, a->text)
 * having decoded [0, off); 0, or 1 after printing why.  Afterwards
 * a->stp (a->text) is NULL if par.c finished the input itself
 * (fe_close() then only frees, or only counts). */
int par_decode(struct app *a, int fd, uint64_t off, uint64_t size);
/* par.c: the number of threads -j asks for; the bytes per piece */
unsigned int par_jobs(const struct app *a);
uint64_t par_segment(const struct app *a);
/* framing.c: the MSC or CoreSight unframer of an input of kind IN_MSC or
 * IN_CS, in front of its STP decoder (open after it; close before it);
 * sniff_frame: IN_MSC, IN_CS, IN_AUTO (more bytes needed) or -1 */
int frame_open(struct app *a, int kind);
void frame_feed(struct app *a, const uint8_t *p, size_t n);
void frame_close(struct app *a);
int sniff_frame(const uint8_t *p, size_t n, int final);
void frame_stats(const struct app *a);
/* --trace-id (trace_id set) or --cs-sync ARG into o: 0, or -1 if bad */
int frame_option(struct opts *o, int trace_id, const char *arg);
/* SIGINT or SIGTERM ended the input: read no more inputs */
int input_stopped(void);
/* sview.c: the SyS-T message callback (policy names, ftrace) */
void on_syst(void *ctx, const struct mttd_syst_msg *m);
void on_syst_event(void *ctx, const struct mttd_syst_event *e);
/* sview.c: m's GUID as text (38 characters), from the cache */
const char *sview_guid(struct app *a, const struct mttd_syst_msg *m);
/* names.c: the miss path of name_esc(): s escaped into c */
const struct name_cache *name_esc_fill(struct name_cache *c,
				       const char *s);

/* s escaped as text (esc_text() without quotes), from the cache of line
 * field f (NC_*) by its address (s must not change while the app lives):
 * the entry, valid until the next call for f, or NULL if it escapes to
 * more than NAME_MAX_ESC bytes */
static inline struct name_cache *name_slot(struct app *a, unsigned int f,
					   const char *s)
{
	uint64_t h = (uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ull;

	return &a->names[f][(h >> 58) & (NAME_CACHE - 1)];
}

static inline const struct name_cache *name_esc(struct app *a,
						unsigned int f, const char *s)
{
	struct name_cache *c = name_slot(a, f, s);

	return c->key == s ? c : name_esc_fill(c, s);
}
/* mtt.c: MTT frames in STP messages and SyS-T payloads: 1 when m was
 * one (and was shown), else 0; raw MTT files (IN_MTT) */
#define MTT_VALUE_BUF 8192
int mtt_setup(struct app *a);
void mtt_teardown(struct app *a);
int mtt_from_msg(struct app *a, const struct mttd_msg *m);
int mtt_from_syst(struct app *a, const struct mttd_syst_msg *m);
/* whether m is of a type mtt_from_syst() looks into (the others are
 * not asked, per message: no call) */
static inline int mtt_syst_carrier(const struct mttd_syst_msg *m)
{
	return (m->type == MTTD_SYST_RAW &&
		m->subtype == MTT_FRAME_SYST_PROTOCOL) ||
	       (m->type == MTTD_SYST_STRING &&
		m->subtype == MTTD_SYST_STRING_GENERIC);
}
/* whether p[0..n) may be an MTT frame: its sync word, the first thing
 * mttd_mtt_is_frame() looks at, tested inline (most messages are not
 * frames: no call for them) */
static inline int mtt_sync(const uint8_t *p, size_t n)
{
	return n >= MTT_FRAME_PREAMBLE_BYTES &&
	       mtt_frame_sync((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			      (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}
int mtt_stream_open(struct app *a);
void mtt_stream_feed(struct app *a, const uint8_t *p, size_t n);
void mtt_stream_close(struct app *a);
/* riscv-encap: the MTT srcIDs (--srcid-proto IDS:mtt), if any: 0, or -1
 * when out of memory */
int mtt_encap_open(struct app *a);
/* riscv-encap: a packet ending at end; 1 if of an MTT srcID (its
 * payload: frame bytes), else 0 */
int mtt_encap(struct app *a, const struct mttd_rv_packet *p, uint64_t end);
/* riscv-encap: the end of the input (cut frames are skipped bytes) */
void mtt_encap_close(struct app *a);
/* fmt_mtt.c: MTT lines for the text and JSON printers */
void mtt_text(struct app *a, const struct mview *v);
void mtt_text_skip(struct app *a, uint64_t offset, uint64_t bytes);
void mtt_json(struct app *a, const struct mview *v);
void mtt_json_skip(struct app *a, uint64_t offset, uint64_t bytes);
/* fmt_chrome.c: an item's time in ns, the same for the Chrome trace
 * and the HTML page (last: the previous item's, for one without a
 * time) */
uint64_t syst_time_ns(const struct app *a, const struct mttd_syst_msg *m,
		      uint64_t last);
uint64_t mtt_time_ns(const struct app *a, const struct mview *v,
		     uint64_t last);
/* fmt_html.c: the HTML page (--format=html) of a stream, or of a
 * merged session (merge.c).  html_new(): its records, the first max of
 * them held in full (NULL: no memory); html_input(): the next input
 * (its name) is a target of its own; html_target(): target idx of a
 * merged session, its clock's fit as its track headers show it (fit
 * NULL: the reference clock; a target not named so is on it);
 * html_add(): one record (the merged record, merge.h) onto the page, in
 * order; html_write(): the page to o */
struct mrec;
struct html *html_new(unsigned long max);
void html_free(struct html *h);
void html_input(struct app *a, const char *name);
void html_target(struct html *h, unsigned int idx, const char *name,
		 const char *fit, double drift_ppm, double bound_ns);
void html_add(struct html *h, const struct mrec *r);
void html_write(struct html *h, struct out *o, const char *title);
/* html_page.c: the page around the JSON data */
extern const char html_page_head[];
extern const char html_page_script[];
/* stats.c */
void print_stats(const struct app *a);
/* fmt_text.c: a loss as text, "3 packets (GERR) at offset 12, m7 c3" */
void loss_text(struct out *o, const struct mttd_msg_event *e);

/* the MTT levels that open and close a function slice (fmt_chrome.c,
 * fmt_html.c, merge.c) */
#define MTT_API_ENTRY	0x00010000u	/* MTT_LEVEL_API_ENTRY */
#define MTT_API_RETURN	0x00020000u	/* MTT_LEVEL_API_RETURN */

/* ticks at hz to ns (hz 0: ns already) */
static inline uint64_t ticks_ns(uint64_t t, uint64_t hz)
{
	uint64_t v;

	if (!hz || hz == 1000000000u)
		return t;
	wide_mul_div_u64(t, 1000000000u, hz, &v);	/* saturates */
	return v;
}

/* fmt_csv.c: a CSV cell of n bytes, quoted only when it must be */
void csv_cell(struct out *o, const char *s, size_t n);

/* packets printed with a value: all but M8/M16/C8/C16 */
static inline int packet_has_value(const struct mttd_stp_event *e)
{
	return e->nibbles && e->op != MTTD_OP_M8 && e->op != MTTD_OP_M16 &&
	       e->op != MTTD_OP_C8 && e->op != MTTD_OP_C16;
}

#endif
