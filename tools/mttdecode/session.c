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
 * its offset (the first session's).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "mttdecode/riscv.h"

int session_dir_has(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;
	int n;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if (!name)
		return 1;
	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	return n > 0 && (size_t)n < sizeof(path) && !access(path, R_OK);
}

static int is_dir(const char *p)
{
	return session_dir_has(p, NULL);
}

/* DIR/name if it exists (allocated), else NULL */
static char *in_dir(struct opts *o, const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	if (access(p, F_OK)) {
		free(p);
		return NULL;
	}
	o->owned[o->nowned++] = p;
	return p;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* append DIR's stream files to v; 0, or -1 out of memory */
static int streams(const char *dir, char ***v, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int first = *n;

	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **nv;

		if (strncmp(de->d_name, "stream-", 7) || l < 12 ||
		    strcmp(de->d_name + l - 4, ".stp"))
			continue;
		nv = realloc(*v, (*n + 1) * sizeof(**v));
		if (!nv)
			break;
		*v = nv;
		if (asprintf(&(*v)[*n], "%s/%s", dir, de->d_name) < 0)
			break;
		(*n)++;
	}
	if (d)
		closedir(d);
	if (*n > first)
		qsort(*v + first, *n - first, sizeof(**v), by_name);
	return 0;
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
static int session_meta(struct opts *o, const char *path, char *fmt,
			size_t len)
{
	FILE *f = fopen(path, "r");
	unsigned long srcid = 16, ts = 8, v;
	char line[256], word[32], *end;
	long long rt, mono;
	int riscv = 0, bad = 0, has_rt = 0, has_mono = 0;

	while (f && !bad && fgets(line, sizeof(line), f)) {
		/* the clocks at the start: the wall clock of STP times */
		if (sscanf(line, "clock_realtime_ns %lld", &rt) == 1) {
			has_rt = 1;
			continue;
		}
		if (sscanf(line, "clock_monotonic_ns %lld", &mono) == 1) {
			has_mono = 1;
			continue;
		}
		if (!strcmp(line, "protocol p_sys-t\n")) {
			o->syst = !o->no_syst;
			continue;
		}
		if (!strncmp(line, "format ", 7)) {
			riscv = !strcmp(line + 7, "riscv\n");
			bad = !riscv && strcmp(line + 7, "stp\n");
			continue;
		}
		if (sscanf(line, "%15s", word) != 1 ||
		    (strcmp(word, "srcid_bits") && strcmp(word, "ts_bytes")))
			continue;
		v = strtoul(line + strlen(word), &end, 10);
		if (*end != '\n' || end == line + strlen(word))
			bad = 1;
		else if (word[0] == 's' && v <= MTTD_RV_MAX_SRCID_BITS)
			srcid = v;
		else if (word[0] == 't' && v <= MTTD_RV_MAX_TS_BYTES)
			ts = v;
		else
			bad = 1;
	}
	if (f)
		fclose(f);
	if (bad) {
		line[strcspn(line, "\n")] = 0;
		fprintf(stderr, "mttdecode: %s: bad line \"%s\" (format stp|riscv, srcid_bits 0..%d, ts_bytes 0..%d)\n",
			path, line, MTTD_RV_MAX_SRCID_BITS,
			MTTD_RV_MAX_TS_BYTES);
		return 1;
	}
	if (has_rt && has_mono && !o->has_rt_offset) {
		o->rt_offset_ns = (int64_t)(rt - mono);
		o->has_rt_offset = 1;
	}
	*fmt = 0;
	if (riscv)
		snprintf(fmt, len, "riscv-encap %lu %lu", srcid, ts);
	if (riscv && !o->input_given) {
		o->input = IN_RISCV;
		o->srcid_bits = srcid;
		o->ts_bytes = ts;
	}
	return 0;
}

int session_expand(struct opts *o)
{
	char **files = NULL, *p, fmt[48], fmt0[48] = "";
	int i, n = 0, any = 0, nsessions = 0;

	for (i = 0; i < o->nfiles; i++)
		if (strcmp(o->files[i], "-") && is_dir(o->files[i]))
			any = 1;
	if (!any)
		return 0;
	for (i = 0; i < o->nfiles; i++) {
		const char *f = o->files[i];
		char **nv;

		if (!strcmp(f, "-") || !is_dir(f)) {
			nv = realloc(files, (n + 1) * sizeof(*files));
			if (!nv || !(nv[n] = strdup(f)))
				goto oom;
			files = nv;
			n++;
			continue;
		}
		if (asprintf(&p, "%s/mttsession", f) < 0)
			goto oom;
		if (access(p, F_OK)) {
			fprintf(stderr, "mttdecode: %s: a directory, and not a mttcontrol session (no mttsession file)\n",
				f);
			free(p);
			goto fail;
		}
		if (session_meta(o, p, fmt, sizeof(fmt))) {
			free(p);
			goto fail;
		}
		free(p);
		/* the options hold one input kind for every input */
		if (nsessions++ && strcmp(fmt, fmt0) && !o->input_given) {
			fprintf(stderr, "mttdecode: %s: its stream is %s, another session's %s: decode them one at a time, or name the input (--input)\n",
				f, *fmt ? fmt : "STPv2", *fmt0 ? fmt0 : "STPv2");
			goto fail;
		}
		strcpy(fmt0, fmt);
		{
			int first = n;

			if (streams(f, &files, &n) ||
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
