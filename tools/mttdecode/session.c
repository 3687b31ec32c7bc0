// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - "mttdecode DIR" for a session directory written by
 * mttcontrol(8): a directory with an "mttsession" file stands for its
 * stream files (stream-*.stp, in order, each decoded as its own input),
 * and its policy.txt, kallsyms, events/ and collateral.xml are used
 * unless --policy, --kallsyms, --tracefs or --collateral name others;
 * a session whose policy was p_sys-t is decoded as with --syst, one
 * whose sink emitted RISC-V trace encapsulation ("format riscv") as
 * with --input=riscv-encap and its widths, unless --input, --srcid-bits
 * or --ts-bytes were given; its clocks at the start give --wall-clock
 * its offset (the first session's).  A directory that mttprofile wrote
 * (capture.mprof) stands for its capture, decoded by mprof.c.  What a
 * session directory holds is read by libmttsession (tools/lib/session).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "mttdecode/riscv.h"
#include "session/session.h"

/* DIR/name if it exists (allocated, freed by session_free()), else NULL */
static char *in_dir(struct opts *o, const char *dir, const char *name)
{
	char *p = mtts_file(dir, name);

	if (p)
		o->owned[o->nowned++] = p;
	return p;
}

/* files [first, *n) become one input: a pipe fed by a child; 0 or -1 */
static int concat(struct opts *o, char **v, int first, int *n)
{
	int p[2], i;
	pid_t pid;

	if (*n - first < 2)
		return 0;
	if (o->nchildren == (int)(sizeof(o->children) / sizeof(o->children[0])))
		return -1;
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		static char buf[65536];

		close(p[0]);
		signal(SIGPIPE, SIG_DFL);
		for (i = first; i < *n; i++) {
			int fd = open(v[i], O_RDONLY);
			ssize_t r;

			if (fd < 0) {
				fprintf(stderr, "mttdecode: %s: %s\n", v[i],
					strerror(errno));
				_exit(1);
			}
			while ((r = read(fd, buf, sizeof(buf))) > 0)
				if (write(p[1], buf, (size_t)r) != r)
					_exit(1);
			close(fd);
		}
		_exit(0);
	}
	close(p[1]);
	o->children[o->nchildren++] = pid;
	for (i = first; i < *n; i++)
		free(v[i]);
	*n = first + 1;
	if (asprintf(&v[first], "/proc/self/fd/%d", p[0]) < 0)
		return -1;
	return 0;
}

/*
 * The session's mttsession: "protocol p_sys-t" decodes as SyS-T;
 * "format riscv" (with "srcid_bits", "ts_bytes") as RISC-V trace
 * encapsulation unless the user chose the input.  *fmt: "" (STPv2) or
 * the input as "riscv-encap W T", to tell sessions of different kinds
 * apart.  0, or 1 on a bad line (said).
 */
static int session_meta(struct opts *o, const char *dir, char *fmt,
			size_t len)
{
	struct mtts_meta m;

	/* one that cannot be read records nothing: STPv2 */
	if (mtts_meta_read(dir, &m, MTTD_RV_MAX_SRCID_BITS,
			   MTTD_RV_MAX_TS_BYTES) == MTTS_ERR_BAD) {
		fprintf(stderr, "mttdecode: %s/mttsession: bad line \"%s\" (format stp|riscv, srcid_bits 0..%d, ts_bytes 0..%d)\n",
			dir, m.bad, MTTD_RV_MAX_SRCID_BITS,
			MTTD_RV_MAX_TS_BYTES);
		return 1;
	}
	if (m.syst)
		o->syst = !o->no_syst;
	if (m.has_clocks && !o->has_rt_offset) {
		o->rt_offset_ns = (int64_t)(m.realtime_ns - m.monotonic_ns);
		o->has_rt_offset = 1;
	}
	*fmt = 0;
	if (m.riscv)
		snprintf(fmt, len, "riscv-encap %lu %lu", m.srcid_bits,
			 m.ts_bytes);
	if (m.riscv && !o->input_given) {
		o->input = IN_RISCV;
		o->srcid_bits = m.srcid_bits;
		o->ts_bytes = m.ts_bytes;
	}
	return 0;
}

/* a mttprofile session (not with another kind of input asked for) */
static int is_profile(const struct opts *o, const char *f)
{
	return (o->input == IN_AUTO || o->input == IN_MPROF) &&
	       strcmp(f, "-") && mtts_kind(f) == MTTS_PROFILE;
}

int session_expand(struct opts *o)
{
	char **files = NULL, fmt[48], fmt0[48] = "";
	int i, n = 0, any = 0, nsessions = 0;

	for (i = 0; i < o->nfiles; i++) {
		if (strcmp(o->files[i], "-") &&
		    mtts_kind(o->files[i]) != MTTS_NONE)
			any = 1;
		if (o->nfiles > 1 && is_profile(o, o->files[i])) {
			fprintf(stderr, "mttdecode: one MiniProfiler capture at a time\n");
			return 1;
		}
	}
	if (!any)
		return 0;
	for (i = 0; i < o->nfiles; i++) {
		const char *f = o->files[i];
		enum mtts_kind k = strcmp(f, "-") ? mtts_kind(f) : MTTS_NONE;
		char **nv;

		if (k == MTTS_NONE || is_profile(o, f)) {
			nv = realloc(files, (n + 1) * sizeof(*files));
			if (!nv)
				goto oom;
			files = nv;
			/* a mttprofile session: its capture (mprof.c) */
			if (k == MTTS_NONE)
				nv[n] = strdup(f);
			else if ((nv[n] = mtts_file(f, "capture.mprof")))
				o->mprof_session = f;
			if (!nv[n])
				goto oom;
			n++;
			continue;
		}
		if (k != MTTS_CONTROL) {
			fprintf(stderr, "mttdecode: %s: a directory, and not a mttcontrol session (no mttsession file)\n",
				f);
			goto fail;
		}
		if (session_meta(o, f, fmt, sizeof(fmt)))
			goto fail;
		/* the options hold one input kind for every input */
		if (nsessions++ && strcmp(fmt, fmt0) && !o->input_given) {
			fprintf(stderr, "mttdecode: %s: its stream is %s, another session's %s: decode them one at a time, or name the input (--input)\n",
				f, *fmt ? fmt : "STPv2", *fmt0 ? fmt0 : "STPv2");
			goto fail;
		}
		strcpy(fmt0, fmt);
		{
			int first = n;

			if (mtts_streams(f, &files, &n) ||
			    concat(o, files, first, &n))
				goto oom;
		}
		if (!o->policy)
			o->policy = in_dir(o, f, "policy.txt");
		if (!o->kallsyms)
			o->kallsyms = in_dir(o, f, "kallsyms");
		if (!o->tracefs)
			o->tracefs = in_dir(o, f, "events");
		if (!o->ncollateral &&
		    (o->collateral[0] = in_dir(o, f, "collateral.xml")))
			o->ncollateral = 1;
	}
	o->files = files;
	o->nfiles = n;
	o->files_owned = 1;
	return 0;
oom:
	fprintf(stderr, "mttdecode: out of memory\n");
fail:
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return 1;
}

int session_free(struct opts *o)
{
	int i, st, ret = 0;

	for (i = 0; i < o->nchildren; i++)
		if (waitpid(o->children[i], &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			ret = 1;

	if (o->files_owned) {
		for (i = 0; i < o->nfiles; i++)
			free(o->files[i]);
		free(o->files);
	}
	for (i = 0; i < o->nowned; i++)
		free(o->owned[i]);
	return ret;
}
