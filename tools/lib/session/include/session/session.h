/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - libmttsession, the one reader of a session directory
 * (internal: build/libmttsession.a, not installed).  Two tools write
 * one:
 *
 *  - mttcontrol --start: "mttsession" (key value lines: the stream's
 *    format, the policy's protocol, the clocks at the start, the serial
 *    targets), the stream in stream-*.stp files, policy.txt, kallsyms,
 *    events/, collateral.xml, and per serial target targets/NAME/
 *    (its "target" metadata, capture, "reads" times, "requests" of
 *    the clock exchanges)
 *    (Documentation/sessions.rst);
 *  - mttprofile: capture.mprof (what the device sent) and session.txt
 *    (key=value lines: the device, the ELF and its ids;
 *    Documentation/miniprofiler.rst).
 *
 * Used by mttcontrol, mttdecode and mttprofile.  Nothing here prints:
 * errors are returned (and errno set).
 */
#ifndef MTT_SESSION_H
#define MTT_SESSION_H

#include <stdint.h>
#include <stdio.h>

enum mtts_kind {
	MTTS_NONE,	/* not a directory (or not there) */
	MTTS_DIR,	/* a directory, but neither kind of session */
	MTTS_CONTROL,	/* mttcontrol's: it holds "mttsession" */
	MTTS_PROFILE,	/* mttprofile's: it holds a readable capture.mprof */
};

/* what path is; a directory holding both files is MTTS_PROFILE */
enum mtts_kind mtts_kind(const char *path);

/* dir/name (allocated) when it exists, else NULL (errno: ENOENT, or
 * ENOMEM) */
char *mtts_file(const char *dir, const char *name);

/* append dir's stream files (stream-*.stp, sorted by name) to *v, which
 * holds *n (realloc'ed; free with mtts_free_list()); 0, or -1 with errno
 * (out of memory; those appended so far are kept) */
int mtts_streams(const char *dir, char ***v, int *n);
void mtts_free_list(char **v, int n);

/* what mttcontrol's "mttsession" file records */
struct mtts_meta {
	int syst;		/* "protocol p_sys-t": messages are SyS-T */
	int riscv;		/* "format riscv" (else "format stp", STPv2) */
	unsigned long srcid_bits;	/* riscv: "srcid_bits" (default 16) */
	unsigned long ts_bytes;		/* riscv: "ts_bytes" (default 8) */
	int has_clocks;		/* both clocks at the start: */
	long long realtime_ns;	/* "clock_realtime_ns" */
	long long monotonic_ns;	/* "clock_monotonic_ns" */
	char bad[256];		/* the first bad line, without its newline */
};

#define MTTS_ERR_BAD (-2)	/* a bad line (in m->bad); the rest read */

/*
 * Read dir/mttsession into m: 0; -1 it cannot be read (errno);
 * MTTS_ERR_BAD a "format" other than stp or riscv, or a width that is
 * not a number up to max_srcid_bits or max_ts_bytes (what the decoder
 * takes) on a line of its own: m holds what the other lines said.
 */
int mtts_meta_read(const char *dir, struct mtts_meta *m,
		   unsigned long max_srcid_bits, unsigned long max_ts_bytes);

/*
 * Serial targets of an mttcontrol session: the names mttsession lists
 * ("target NAME" lines), appended to *v, which holds *n (as
 * mtts_streams()); 0, or -1 with errno (no mttsession; out of memory).
 */
int mtts_targets(const char *dir, char ***v, int *n);

/* what DIR/targets/NAME/target records (strings allocated; NULL: not
 * recorded) */
struct mtts_target {
	char *name;
	char *protocol;		/* mprof, mtt, syst, riscv-encap, raw */
	char *port;		/* the device node read */
	char *elf;		/* absolute, or NULL */
	char *capture;		/* the capture's path (tdir joined) */
	char *reads;		/* the read times' path (tdir joined) */
	char *decode;		/* the mttdecode command line (in tdir) */
	char *srcid_proto;	/* riscv-encap: "IDS:PROTO ..." or NULL */
	unsigned long baud;
	unsigned long srcid_bits;	/* riscv-encap */
	unsigned long ts_bytes;
	int unframed;
	int paced;		/* the port moves bytes at the baud */
};

/* read TDIR (DIR/targets/NAME)/target into t: 0, or -1 with errno (none,
 * unreadable, no name or capture, out of memory); free with
 * mtts_target_free() either way */
int mtts_target_read(const char *tdir, struct mtts_target *t);
void mtts_target_free(struct mtts_target *t);

/*
 * A target's read times ("reads": "MTTREAD1", the opening time, then
 * (offset, t_ns) as ULEB128 differences): after mtts_reads_open(), each
 * mtts_reads_next() gives the next pair: by host CLOCK_MONOTONIC time
 * t_ns the capture's first off bytes had been read.
 */
struct mtts_reads {
	FILE *f;
	uint64_t off;
	uint64_t t_ns;		/* after open: the port's opening time */
};
#define MTTS_READS_MAGIC	"MTTREAD1"
/* 0, or -1 with errno (EINVAL: not a reads file) */
int mtts_reads_open(const char *path, struct mtts_reads *r);
/* 1 a pair (r->off, r->t_ns), 0 the end, -1 a cut or bad pair (EINVAL) */
int mtts_reads_next(struct mtts_reads *r);
void mtts_reads_close(struct mtts_reads *r);

/*
 * A target's clock exchange requests ("requests": "MTTSYNC1", then
 * 12-byte records { seq u32 LE, t1 u64 LE }: the TIME_SYNC command seq
 * was written at host CLOCK_MONOTONIC t1 ns; its reply, if any, is in
 * the capture; Documentation/sessions.rst).  mtts_requests_open(DIR,
 * NAME, &it): 0, or -1 with errno (ENOENT: no requests file, a target
 * without the exchange; EINVAL: not one); mtts_requests_next(): 1 a
 * record, 0 the end, -1 a cut record (EINVAL).
 */
#define MTTS_REQUESTS_MAGIC	"MTTSYNC1"
struct mtts_requests;
int mtts_requests_open(const char *dir, const char *target,
		       struct mtts_requests **it);
int mtts_requests_next(struct mtts_requests *it, uint32_t *seq,
		       uint64_t *t1_ns);
void mtts_requests_close(struct mtts_requests *it);

/* what mttprofile's session.txt records about the ELF profiled */
struct mtts_profile {
	char *elf;		/* elf=, the first non-empty one; relative:
				 * made the session directory's; or NULL */
	char *elf_text_crc32;	/* elf_text_crc32=: the ELF's at capture */
	char *elf_gnu_build_id;	/* elf_gnu_build_id= */
	char *elf_build_id;	/* elf_build_id=: the device's METADATA */
};				/* (NULL: not recorded; the last one) */

/* read dir/session.txt into p: 0, or -1 with errno (none, unreadable,
 * out of memory); free with mtts_profile_free() either way */
int mtts_profile_read(const char *dir, struct mtts_profile *p);
void mtts_profile_free(struct mtts_profile *p);

#endif
