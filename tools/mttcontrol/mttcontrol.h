/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mttcontrol.h - what the parts of mttcontrol share: the parsed
 * configuration, errors, sysfs/configfs helpers, udev look-ups, the
 * session run files and the commands.
 */
#ifndef MTTCONTROL_H
#define MTTCONTROL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mttdecode/riscv.h"

/* exit codes, as LTTng's */
#define MC_OK		0
#define MC_ERR		1	/* the command failed */
#define MC_USAGE	2	/* bad command line */
#define MC_FATAL	3	/* out of memory, a rollback that failed */

#define MC_NAME_MAX	128
#define MC_VAL_MAX	256

#define MC_DEFAULT_CONF	"/etc/mttcontrol.conf"
#define MC_POLICY_ROOT	"/sys/kernel/config/stp-policy"
#define MC_MTT_ROOT	"/sys/kernel/mtt"

/* An error message ("file:line: ...") and whether it is fatal. */
struct mc_err {
	char msg[1024];
	int fatal;
};

int mc_fail(struct mc_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* snprintf for paths and messages: a result too long is cut */
int mc_snprintf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct mc_range {
	unsigned long lo, hi;
};

struct mc_attr {
	char name[MC_NAME_MAX];
	char value[MC_VAL_MAX];
	int line;
};

struct mc_node {
	char path[PATH_MAX / 4];	/* "user/app" */
	int has_masters, has_channels;
	struct mc_range masters, channels;
	struct mc_attr *attrs;
	int nattrs;
	int line;
};

struct mc_module {
	char name[MC_NAME_MAX];		/* as in /sys/module (- as _) */
	char given[MC_NAME_MAX];	/* as the file names it */
	char path[PATH_MAX];		/* a .ko file, or "" for modprobe */
	char params[MC_VAL_MAX * 2];
	int line;
};

struct mc_source {
	char name[MC_NAME_MAX];
	char sysname[MC_NAME_MAX];	/* in sysfs: '/' is '!' (mtt!<comp>) */
	int line;
};

struct mc_comp {
	char name[MC_NAME_MAX];
	uint32_t filter;
	int line;
};

/* a serial target's protocol: how its capture is decoded */
enum mc_tproto {
	MC_TP_MPROF,	/* MiniProfiler responses (libmprof) */
	MC_TP_MTT,	/* native MTT frames back to back */
	MC_TP_SYST,	/* a plain SyS-T stream, messages back to back */
	MC_TP_RISCV,	/* RISC-V trace encapsulation */
	MC_TP_RAW,	/* bytes, not decoded */
	MC_TP_COUNT
};

/* a "key = value" of a target's udev match (a property or sysattr) */
struct mc_kv {
	char key[MC_NAME_MAX];
	char value[MC_VAL_MAX];
};

/* a serial target: a port given, or found with libudev (subsystem tty) */
struct mc_target {
	char name[MC_NAME_MAX];
	char port[PATH_MAX];		/* "": found by the match */
	int has_match;
	char sysname[MC_NAME_MAX];	/* match: the kernel name ("ttyUSB*") */
	char syspath[PATH_MAX];		/* match: the device's sysfs path */
	struct mc_kv *props;		/* match: udev properties */
	int nprops;
	struct mc_kv *sysattrs;		/* match: sysfs attributes */
	int nsysattrs;
	unsigned long baud;
	/* the port moves bytes at the baud (a real UART): the clock bounds
	 * count their time on the wire */
	int paced;
	enum mc_tproto proto;
	unsigned int srcid_bits;	/* riscv-encap: the widths */
	unsigned int ts_bytes;
	int unframed;			/* riscv-encap: unframed stream */
	/* riscv-encap: what srcIDs carry, "IDS:PROTO" as mttdecode's
	 * --srcid-proto, in order; nsrcid_proto of them */
#define MC_SRCID_PROTOS	8
	char srcid_proto[MC_SRCID_PROTOS][24];
	int nsrcid_proto;
	int mtt_start;			/* mtt, riscv-encap: send MTT START */
	/* mprof, mtt, riscv-encap with an mtt srcID: TIME_SYNC every this
	 * many ms after the first burst (0: only the bursts at the start
	 * and the end) */
	unsigned long sync_interval_ms;
	/* the same: the wait for a reply before the next request, in ms
	 * (plus 1 KB's time on the wire at the baud) */
	unsigned long sync_wait_ms;
	char elf[PATH_MAX];		/* "" none; made absolute */
	int line;
};

#define MC_SYNC_INTERVAL_MS	250	/* sync_interval_ms's default */
#define MC_SYNC_WAIT_MS		200	/* sync_wait_ms's default */

/* "mprof", "mtt", "syst", "riscv-encap", "raw"; -1 if none */
int mc_tproto_parse(const char *s);
const char *mc_tproto_name(enum mc_tproto p);

struct mc_config {
	char file[PATH_MAX];		/* as given, for messages */
	char device[MC_NAME_MAX];	/* "": none (serial targets only) */
	int device_line;
	struct mc_module *mods;
	int nmods;
	int timeout;			/* seconds to wait for devices */
	int has_policy;
	char policy[MC_NAME_MAX];	/* the policy's name */
	char protocol[MC_NAME_MAX];	/* "" : p_basic, the default */
	int policy_line;
	struct mc_node *nodes;
	int nnodes;
	struct mc_source *srcs;
	int nsrcs;
	int has_sink, sink_line;
	int has_overwrite, overwrite;
	unsigned long sink_size;	/* 0: not checked */
	int has_mtt, mtt_line;
	int has_core_filter;
	uint32_t core_filter;
	struct mc_comp *comps;
	int ncomps;
	unsigned long rotate_size;	/* session.rotate_size, 0: none */
	struct mc_target *targets;
	int ntargets;
};

/* config.c: parse and check FILE in full; 0, or -1 with e set */
int mc_config_load(struct mc_config *c, const char *file, struct mc_err *e);
void mc_config_free(struct mc_config *c);
/* "<dev>[:<proto>].<name>" */
void mc_policy_dirname(const struct mc_config *c, char *buf, size_t len);

/* sysfs.c: small file helpers; they set errno and return -1 on error */
int mc_read(const char *path, char *buf, size_t len);	/* trims '\n' */
int mc_write(const char *path, const char *val);
int mc_exists(const char *path);
int mc_isdir(const char *path);
int mc_copy_file(const char *from, const char *to);
/* the configfs policy root ($MTTCONTROL_POLICY_ROOT for tests) */
const char *mc_policy_root(void);
const char *mc_mtt_root(void);
/* is module NAME loaded (- and _ alike) */
int mc_module_loaded(const char *name);

/* udev.c */
struct mc_devinfo {
	char name[MC_NAME_MAX];
	char syspath[PATH_MAX];
	char devnode[PATH_MAX];		/* "" if none */
	char sink_syspath[PATH_MAX];	/* "" if the device has no sink */
	char sink_devnode[PATH_MAX];
};
/* the STM device NAME (class stm); 0, or -1 if there is none */
int mc_udev_stm(const char *name, struct mc_devinfo *d);
/* wait up to timeout seconds for a device of SUBSYSTEM named NAME to
 * be there (its "add" uevent); 0 when it is, -1 on time-out */
int mc_udev_wait(const char *subsystem, const char *name, int timeout);
/* call fn for each device of SUBSYSTEM, by name order */
int mc_udev_each(const char *subsystem,
		 void (*fn)(void *ctx, const char *name, const char *syspath),
		 void *ctx);
/* the only STM device that has a sink, or -1 (none, several) */
int mc_udev_only_stm(struct mc_devinfo *d, struct mc_err *e);
/* the device node of T's port: T's own, or the one tty device its
 * match finds (-1 naming T when none or several do) */
int mc_udev_tty(const struct mc_target *t, const char *file, char *devnode,
		size_t len, struct mc_err *e);

/* apply.c */
struct mc_opts {
	int dry_run;
	int json;
	int live;
	const char *conf;	/* NULL: the default */
	const char *outdir;
	const char *device;
	unsigned long rotate_size;
};
int mc_setup(const struct mc_config *c, const struct mc_opts *o,
	     struct mc_err *e);
int mc_teardown(const struct mc_config *c, const struct mc_opts *o,
		struct mc_err *e);

/* status.c */
int mc_status(const struct mc_opts *o, struct mc_err *e);

/* session.c: the run files of the one session of the system */
struct mc_run {
	int lockfd;		/* held by the collector */
	long pid;
	char dir[PATH_MAX];
};
const char *mc_rundir(void);
/* is a session running: 1 (r filled), 0 (none; r->pid/dir from a stale
 * pid file, pid 0 if none), -1 on error */
int mc_run_get(struct mc_run *r, struct mc_err *e);
/* write the session directory's metadata: of device d (NULL: none, a
 * session of serial targets only) and of cf's targets (cf may be NULL) */
int mc_session_write_meta(const char *dir, const struct mc_devinfo *d,
			  const struct mc_config *cf, struct mc_err *e);
/* the tracefs formats of the ftrace system and of the events enabled
 * now into DIR/events (those already there are kept) */
void mc_session_copy_events(const char *dir);
/* MTT's collateral.xml into DIR, if the module is loaded: 0, or -1 and
 * why in E (not copied) */
int mc_session_copy_collateral(const char *dir, struct mc_err *e);

/* collateral.c: FROM (MTT's collateral.xml) copied to TO as one
 * snapshot, read at most MC_COLL_TRIES times; 0, or -1 and why in E */
#define MC_COLL_TRIES	8
int mc_collateral_copy(const char *from, const char *to, struct mc_err *e);
/* the same with each try's read done by RD: the whole of FROM into
 * *DOC (malloc'd) and *LEN; 0, or -1 and errno */
typedef int mc_slurp_fn(void *ctx, const char *from, char **doc, size_t *len);
int mc_collateral_copy_by(mc_slurp_fn *rd, void *ctx, const char *from,
			  const char *to, struct mc_err *e);
/* policy of device as "node m0 m1 c0 c1" lines into FILE; its protocol
 * into proto ("none" stays if the device has no policy) */
int mc_policy_dump(const char *device, const char *file, char *proto,
		   size_t plen, struct mc_err *e);

/* format.c: the stream format, STPv2 or RISC-V trace encapsulation */
#define MC_RV_SRCID_BITS	16	/* swstm's defaults */
#define MC_RV_TS_BYTES		8
#define MC_RV_MAX_SRCID_BITS	16
#define MC_RV_MAX_TS_BYTES	8
struct mc_format {
	int riscv;			/* 0: STPv2 */
	unsigned int srcid_bits;	/* riscv: the encapsulation's widths */
	unsigned int ts_bytes;
};
/* what D's sink emits now (no format attribute: STPv2) */
void mc_sink_format(const struct mc_devinfo *d, struct mc_format *f);
/* what DIR's mttsession records (no format line: STPv2) */
void mc_session_format(const char *dir, struct mc_format *f);

/* target.c: serial targets in a session directory (targets/NAME/) */
struct mc_tcounts {
	uint64_t bytes;
	uint64_t records;	/* frames, messages, packets, responses */
	uint64_t errors;	/* damaged places: skipped runs, bad CRCs,
				 * a record cut at the end */
	uint64_t skipped;	/* bytes of them */
	uint64_t losses;	/* what the target says it lost */
	uint64_t profile_records;	/* mprof: call records */
};
/* decode the capture in TDIR (DIR/targets/NAME) of target t (its
 * metadata) with the project's libraries */
int mc_target_count(const char *tdir, const struct mc_target *t,
		    struct mc_tcounts *n, struct mc_err *e);

/* a target being recorded by the collector */
#define MC_READS_NS	100000	/* read times closer than this: merged */
struct mc_tgt {
	const struct mc_target *t;
	char port[PATH_MAX];	/* the device node read */
	char elf[PATH_MAX];	/* absolute */
	char dir[PATH_MAX];	/* DIR/targets/NAME */
	int fd, out, rfd;	/* the port, the capture, the read times */
	uint64_t bytes;
	uint64_t r_off, r_t;	/* the last pair written */
	uint64_t p_off, p_t;	/* a read held back (pend) */
	uint64_t npairs;
	int pend, rerr;
	char why[96];		/* why the port was closed early: "" */
	struct mc_sync *sync;	/* TIME_SYNC exchanges (sync.c), or NULL */
};
/* find and open t's port, make its directory and files under SESSDIR
 * (FILE: the configuration, for messages); 0, or -1 (what is open stays
 * open: mc_tgt_close() it) */
int mc_tgt_open(struct mc_tgt *g, const struct mc_target *t,
		const char *sessdir, const char *file, struct mc_err *e);
/* once every port of the session is open: a MiniProfiler is sent
 * GET_METADATA and START, a target with mtt_start an MTT START command
 * frame; 0, or -1 (e) */
int mc_tgt_begin(struct mc_tgt *g, struct mc_err *e);
/* "IDS:PROTO" (IDS: N, FIRST-LAST or *, up to max; PROTO: stp, raw or
 * mtt) into the srcIDs lo..hi and *mtt (1: the payloads are MTT
 * frames): 0, or -1 if bad */
int mc_srcid_proto(const char *s, unsigned long max, unsigned long *lo,
		   unsigned long *hi, int *mtt);
/* a riscv-encap target's srcIDs whose payloads are MTT frames (its
 * srcid_proto words in order, a later one over an earlier): bit s % 8
 * of map[s / 8] for srcID s (map: MC_RV_MAP_BYTES, all written); how
 * many there are */
#define MC_RV_MAP_BYTES	((1u << MC_RV_MAX_SRCID_BITS) / 8)
unsigned long mc_rv_mtt_srcids(const struct mc_target *t, uint8_t *map);
/* a riscv-encap target's decoding: *rv, the decoder of its packets (c:
 * its settings; no srcID in swstm's layout), and *rvm, the frames of
 * its MTT srcIDs to fn and skip with ctx (NULL when it has none): 0, or
 * -1 out of memory (what was made is in *rv and *rvm, to free) */
int mc_rv_open(const struct mc_target *t, struct mttd_rv_config *c,
	       mttd_rv_mtt_frame_fn fn, mttd_rv_mtt_skip_fn skip, void *ctx,
	       struct mttd_rv **rv, struct mttd_rv_mtt **rvm);
/* write all n bytes of p to fd (EINTR retried): 0, or -1 (errno) */
int mc_put_all(int fd, const void *p, size_t n);

/*
 * TIME_SYNC exchanges with an mprof or mtt target, or a riscv-encap one
 * with an mtt srcID (sync.c; the
 * "requests" file, Documentation/sessions.rst): mc_sync_open() at
 * mc_tgt_open() (0, or -1 e), mc_sync_feed() with every byte read (the
 * replies are found in them), mc_sync_tick() from the collector's loop
 * (sends what is due; the ms until it must be called again, or -1: no
 * wait), mc_sync_end() at the end (a start burst not finished is
 * finished, a final burst begins if the device answered: 1, else 0;
 * mc_sync_tick() until mc_sync_busy() is 0), mc_sync_close() (its state
 * for the summary, then freed).  None of it blocks the reader.
 */
struct mc_sync;
int mc_sync_open(struct mc_tgt *g, struct mc_err *e);
void mc_sync_feed(struct mc_tgt *g, const uint8_t *p, size_t n);
long mc_sync_tick(struct mc_tgt *g, FILE *log);
int mc_sync_end(struct mc_tgt *g);
int mc_sync_busy(const struct mc_tgt *g);
/* "two-way", "one-way (device NACKed TIME_SYNC)", "one-way (no TIME_SYNC
 * reply)", or NULL (a protocol without the exchange) */
const char *mc_sync_state(const struct mc_tgt *g);
void mc_sync_close(struct mc_tgt *g);

/* the end of the session for g's device: a MiniProfiler is sent STOP
 * and GET_STATUS (1: the caller reads what it answers), others nothing
 * (0) */
int mc_tgt_stop(struct mc_tgt *g, FILE *log);
/* read once into buf (hup: poll() saw POLLHUP or POLLERR): 1 data kept,
 * 0 nothing there, -1 the port is gone (said in log, g->why) */
int mc_tgt_pump(struct mc_tgt *g, char *buf, size_t len, int hup,
		FILE *log);
/* the last read time, its "target NAME bytes N vanished WHY" line in
 * summary (if not NULL), every fd closed */
void mc_tgt_close(struct mc_tgt *g, FILE *summary);
/* each target of session DIR (mttsession's "target" lines, read with
 * libmttsession): fn (if not NULL) gets its name and directory; the
 * number of targets */
int mc_session_targets(const char *dir,
		       void (*fn)(void *ctx, const char *name,
				  const char *tdir),
		       void *ctx);

/* --stop: one line per target of session DIR (decoded), and one more
 * for a port that vanished; 0, or -1 */
int mc_print_targets(const char *dir, struct mc_err *e);
/* --status: the running session DIR's targets (text lines, or with json
 * a ,"targets":[...] member) */
void mc_status_targets(FILE *f, int json, const char *dir);

/* collector.c */
int mc_start(const struct mc_config *c, const struct mc_opts *o,
	     struct mc_err *e);
int mc_stop(const struct mc_opts *o, struct mc_err *e);
int mc_view(const struct mc_opts *o, struct mc_err *e);

/* count.c: decode the session's streams to count what they hold */
struct mc_counts {
	uint64_t bytes;
	uint64_t files;
	uint64_t messages;
	uint64_t incomplete;
	uint64_t losses;	/* GERR/MERR counts, desyncs, truncation */
};
int mc_count(const char *dir, struct mc_counts *n, struct mc_err *e);

/* json.c: a string as a JSON string literal */
void mc_json_str(FILE *f, const char *s);

#endif
