// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - libmttsession: what a session directory is, its stream
 * files, and the metadata mttcontrol (mttsession) and mttprofile
 * (session.txt) write into it.  See session.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/session.h"

/* dir/name, allocated; NULL out of memory */
static char *join(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* dir/name opened for reading; NULL with errno */
static FILE *open_in(const char *dir, const char *name)
{
	char *p = join(dir, name);
	FILE *f = p ? fopen(p, "r") : NULL;

	free(p);
	return f;
}

static int has(const char *dir, const char *name, int mode)
{
	char *p = join(dir, name);
	int ok = p && !access(p, mode);

	free(p);
	return ok;
}

enum mtts_kind mtts_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return MTTS_NONE;
	if (has(path, "capture.mprof", R_OK))
		return MTTS_PROFILE;
	if (has(path, "mttsession", F_OK))
		return MTTS_CONTROL;
	return MTTS_DIR;
}

char *mtts_file(const char *dir, const char *name)
{
	char *p = join(dir, name);

	if (p && access(p, F_OK)) {
		free(p);
		errno = ENOENT;
		return NULL;
	}
	return p;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int mtts_streams(const char *dir, char ***v, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int first = *n, ret = 0;

	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **nv;

		if (strncmp(de->d_name, "stream-", 7) || l < 12 ||
		    strcmp(de->d_name + l - 4, ".stp"))
			continue;
		nv = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
		if (!nv || !(nv[*n] = join(dir, de->d_name))) {
			if (nv)
				*v = nv;
			ret = -1;
			break;
		}
		*v = nv;
		(*n)++;
	}
	if (d)
		closedir(d);
	if (*n > first)
		qsort(*v + first, (size_t)(*n - first), sizeof(**v), by_name);
	if (ret)
		errno = ENOMEM;
	return ret;
}

void mtts_free_list(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* "srcid_bits N\n" or "ts_bytes N\n" into *v (N up to max): 0, or -1 */
static int width(const char *line, size_t klen, unsigned long max,
		 unsigned long *v)
{
	char *end;
	unsigned long x = strtoul(line + klen, &end, 10);

	if (*end != '\n' || end == line + klen || x > max)
		return -1;
	*v = x;
	return 0;
}

int mtts_meta_read(const char *dir, struct mtts_meta *m,
		   unsigned long max_srcid_bits, unsigned long max_ts_bytes)
{
	char *line = NULL, word[32];
	int has_rt = 0, has_mono = 0, ret = 0;
	size_t cap = 0;
	FILE *f;

	memset(m, 0, sizeof(*m));
	m->srcid_bits = 16;
	m->ts_bytes = 8;
	f = open_in(dir, "mttsession");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		int bad = 0;

		/* the clocks at the start: the wall clock of STP times */
		if (sscanf(line, "clock_realtime_ns %lld", &m->realtime_ns) == 1)
			has_rt = 1;
		else if (sscanf(line, "clock_monotonic_ns %lld",
				&m->monotonic_ns) == 1)
			has_mono = 1;
		else if (!strcmp(line, "protocol p_sys-t\n"))
			m->syst = 1;
		else if (!strncmp(line, "format ", 7))
			bad = !(m->riscv = !strcmp(line + 7, "riscv\n")) &&
			      strcmp(line + 7, "stp\n");
		else if (sscanf(line, "%31s", word) != 1)
			continue;
		else if (!strcmp(word, "srcid_bits"))
			bad = width(line, 10, max_srcid_bits, &m->srcid_bits);
		else if (!strcmp(word, "ts_bytes"))
			bad = width(line, 8, max_ts_bytes, &m->ts_bytes);
		if (bad && !ret) {
			line[strcspn(line, "\n")] = 0;
			snprintf(m->bad, sizeof(m->bad), "%s", line);
			ret = MTTS_ERR_BAD;
		}
	}
	free(line);
	fclose(f);
	m->has_clocks = has_rt && has_mono;
	return ret;
}

/* *dst = a copy of v (the last one wins); 0, or -1 out of memory */
static int keep(char **dst, const char *v)
{
	char *c = strdup(v);

	if (!c)
		return -1;
	free(*dst);
	*dst = c;
	return 0;
}

int mtts_profile_read(const char *dir, struct mtts_profile *p)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	memset(p, 0, sizeof(*p));
	f = open_in(dir, "session.txt");
	if (!f)
		return -1;
	while (!ret && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "elf=", 4) && !p->elf && line[4])
			/* a relative path is the session directory's */
			ret = line[4] == '/' ? keep(&p->elf, line + 4) :
			      !(p->elf = join(dir, line + 4));
		else if (!strncmp(line, "elf_text_crc32=", 15))
			ret = keep(&p->elf_text_crc32, line + 15);
		else if (!strncmp(line, "elf_gnu_build_id=", 17))
			ret = keep(&p->elf_gnu_build_id, line + 17);
		else if (!strncmp(line, "elf_build_id=", 13))
			ret = keep(&p->elf_build_id, line + 13);
	}
	free(line);
	fclose(f);
	if (ret)
		errno = ENOMEM;
	return ret ? -1 : 0;
}

void mtts_profile_free(struct mtts_profile *p)
{
	free(p->elf);
	free(p->elf_text_crc32);
	free(p->elf_gnu_build_id);
	free(p->elf_build_id);
	memset(p, 0, sizeof(*p));
}

int mtts_targets(const char *dir, char ***v, int *n)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	f = open_in(dir, "mttsession");
	if (!f)
		return -1;
	while (!ret && getline(&line, &cap, f) > 0) {
		char **nv;

		line[strcspn(line, "\n")] = 0;
		/* a name is a directory of targets/: no '/', not . or .. */
		if (strncmp(line, "target ", 7) || !line[7] ||
		    strchr(line + 7, '/') || !strcmp(line + 7, ".") ||
		    !strcmp(line + 7, ".."))
			continue;
		nv = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
		if (nv)
			*v = nv;
		if (!nv || !(nv[*n] = strdup(line + 7)))
			ret = -1;
		else
			(*n)++;
	}
	free(line);
	fclose(f);
	if (ret)
		errno = ENOMEM;
	return ret;
}

/* *dst = dir/name (the last one wins); 0, or -1 out of memory */
static int keep_in(char **dst, const char *dir, const char *name)
{
	char *p = join(dir, name);

	if (!p)
		return -1;
	free(*dst);
	*dst = p;
	return 0;
}

static int ulong_of(const char *s, unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, 10);
	return end == s || *end ? -1 : 0;
}

int mtts_target_read(const char *tdir, struct mtts_target *t)
{
	char *line = NULL, *v;
	size_t cap = 0;
	unsigned long u;
	int ret = 0;
	FILE *f;

	memset(t, 0, sizeof(*t));
	f = open_in(tdir, "target");
	if (!f)
		return -1;
	while (!ret && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		v = strchr(line, ' ');
		if (line[0] == '#' || !v)
			continue;
		*v++ = 0;
		if (!strcmp(line, "name"))
			ret = keep(&t->name, v);
		else if (!strcmp(line, "protocol"))
			ret = keep(&t->protocol, v);
		else if (!strcmp(line, "port"))
			ret = keep(&t->port, v);
		else if (!strcmp(line, "elf"))
			ret = keep(&t->elf, v);
		else if (!strcmp(line, "decode"))
			ret = keep(&t->decode, v);
		else if (!strcmp(line, "srcid_proto"))
			ret = keep(&t->srcid_proto, v);
		else if (!strcmp(line, "capture") && !strchr(v, '/'))
			ret = keep_in(&t->capture, tdir, v);
		else if (!strcmp(line, "reads") && !strchr(v, '/'))
			ret = keep_in(&t->reads, tdir, v);
		else if (ulong_of(v, &u))
			continue;
		else if (!strcmp(line, "baud"))
			t->baud = u;
		else if (!strcmp(line, "srcid_bits"))
			t->srcid_bits = u;
		else if (!strcmp(line, "ts_bytes"))
			t->ts_bytes = u;
		else if (!strcmp(line, "unframed"))
			t->unframed = u != 0;
		else if (!strcmp(line, "paced"))
			t->paced = u != 0;
	}
	free(line);
	fclose(f);
	if (ret) {
		errno = ENOMEM;
		return -1;
	}
	if (!t->name || !t->capture) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void mtts_target_free(struct mtts_target *t)
{
	free(t->name);
	free(t->protocol);
	free(t->port);
	free(t->elf);
	free(t->capture);
	free(t->reads);
	free(t->decode);
	free(t->srcid_proto);
	memset(t, 0, sizeof(*t));
}

int mtts_reads_open(const char *path, struct mtts_reads *r)
{
	unsigned char h[16];
	int i;

	memset(r, 0, sizeof(*r));
	r->f = fopen(path, "r");
	if (!r->f)
		return -1;
	if (fread(h, 1, sizeof(h), r->f) != sizeof(h) ||
	    memcmp(h, MTTS_READS_MAGIC, 8)) {
		fclose(r->f);
		r->f = NULL;
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < 8; i++)
		r->t_ns |= (uint64_t)h[8 + i] << (8 * i);
	return 0;
}

/* one ULEB128 number: 1, 0 at the end of the file, -1 cut or too long */
static int uleb(FILE *f, uint64_t *v, int first)
{
	int c, s;

	*v = 0;
	for (s = 0; s < 64; s += 7) {
		c = getc(f);
		if (c == EOF)
			return first && !s ? 0 : -1;
		*v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return 1;
	}
	return -1;
}

int mtts_reads_next(struct mtts_reads *r)
{
	uint64_t d_off, d_t;
	int ret;

	if (!r->f)
		return 0;
	ret = uleb(r->f, &d_off, 1);
	if (ret == 1 && uleb(r->f, &d_t, 0) != 1)
		ret = -1;
	if (ret < 0) {
		errno = EINVAL;
		return -1;
	}
	if (ret) {
		r->off += d_off;
		r->t_ns += d_t;
	}
	return ret;
}

void mtts_reads_close(struct mtts_reads *r)
{
	if (r->f)
		fclose(r->f);
	r->f = NULL;
}

struct mtts_requests {
	FILE *f;
};

int mtts_requests_open(const char *dir, const char *target,
		       struct mtts_requests **it)
{
	struct mtts_requests *q;
	char magic[8], *path;
	int e;

	*it = NULL;
	if (strchr(target, '/') || !*target) {
		errno = EINVAL;
		return -1;
	}
	path = malloc(strlen(dir) + strlen(target) + 20);
	q = calloc(1, sizeof(*q));
	if (!path || !q) {
		free(path);
		free(q);
		errno = ENOMEM;
		return -1;
	}
	sprintf(path, "%s/targets/%s/requests", dir, target);
	q->f = fopen(path, "re");
	e = errno;
	free(path);
	if (q->f && (fread(magic, 1, 8, q->f) != 8 ||
		     memcmp(magic, MTTS_REQUESTS_MAGIC, 8)))
		e = EINVAL;
	else if (q->f)
		e = 0;
	if (e) {
		if (q->f)
			fclose(q->f);
		free(q);
		errno = e;
		return -1;
	}
	*it = q;
	return 0;
}

int mtts_requests_next(struct mtts_requests *it, uint32_t *seq,
		       uint64_t *t1_ns)
{
	unsigned char b[12];
	size_t n = fread(b, 1, sizeof(b), it->f);
	int i;

	if (!n)
		return 0;
	if (n != sizeof(b)) {
		errno = EINVAL;
		return -1;
	}
	*seq = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
	*t1_ns = 0;
	for (i = 0; i < 8; i++)
		*t1_ns |= (uint64_t)b[4 + i] << (8 * i);
	return 1;
}

void mtts_requests_close(struct mtts_requests *it)
{
	if (!it)
		return;
	fclose(it->f);
	free(it);
}
