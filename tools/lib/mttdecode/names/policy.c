// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * policy.c - STP policy snapshot: node paths with master and channel
 * ranges, and the master/channel -> node name lookup (rules in
 * mttdecode/policy.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/policy.h"

struct node {
	char *path;
	unsigned int m0, m1, c0, c1;
	unsigned int depth;	/* path components */
	uint64_t pairs;		/* master/channel pairs covered */
};

struct mttd_policy {
	struct node *v;
	size_t n, cap;
};

struct mttd_policy *mttd_policy_new(void)
{
	return calloc(1, sizeof(struct mttd_policy));
}

void mttd_policy_free(struct mttd_policy *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->v[i].path);
	free(p->v);
	free(p);
}

unsigned int mttd_policy_nodes(const struct mttd_policy *p)
{
	return (unsigned int)p->n;
}

int mttd_policy_add(struct mttd_policy *p, const char *path,
		    unsigned int m0, unsigned int m1, unsigned int c0,
		    unsigned int c1)
{
	struct node *nd;
	const char *s;

	if (m0 > m1 || c0 > c1 || m1 > 0xffff || c1 > 0xffff || !*path)
		return -1;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct node *nv = realloc(p->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		p->v = nv;
		p->cap = cap;
	}
	nd = &p->v[p->n];
	nd->path = strdup(path);
	if (!nd->path)
		return -1;
	nd->m0 = m0;
	nd->m1 = m1;
	nd->c0 = c0;
	nd->c1 = c1;
	nd->depth = 1;
	for (s = path; *s; s++)
		if (*s == '/' && s[1] && s[1] != '/')
			nd->depth++;
	nd->pairs = (uint64_t)(m1 - m0 + 1) * (c1 - c0 + 1);
	p->n++;
	return 0;
}

const char *mttd_policy_lookup(const struct mttd_policy *p,
			       unsigned int master, unsigned int channel)
{
	const struct node *best = NULL;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct node *nd = &p->v[i];

		if (master < nd->m0 || master > nd->m1 ||
		    channel < nd->c0 || channel > nd->c1)
			continue;
		if (!best || nd->depth > best->depth ||
		    (nd->depth == best->depth && nd->pairs < best->pairs))
			best = nd;
	}
	return best ? best->path : NULL;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* the last whitespace-separated token of s[0..*n): parsed, removed */
static int last_number(const char *s, size_t *n, unsigned long *v)
{
	size_t e = *n, b;
	char tmp[24], *end;

	while (e && is_space(s[e - 1]))
		e--;
	b = e;
	while (b && !is_space(s[b - 1]))
		b--;
	if (b == e || e - b >= sizeof(tmp))
		return -1;
	memcpy(tmp, s + b, e - b);
	tmp[e - b] = 0;
	if (tmp[0] == '-' || tmp[0] == '+')
		return -1;
	errno = 0;
	*v = strtoul(tmp, &end, 0);
	if (errno || *end)
		return -1;
	*n = b;
	return 0;
}

static int parse_line(struct mttd_policy *p, const char *s, size_t n)
{
	unsigned long v[4];
	char *path;
	int i, r;

	while (n && is_space(*s)) {
		s++;
		n--;
	}
	if (!n || *s == '#')
		return 0;
	for (i = 3; i >= 0; i--)
		if (last_number(s, &n, &v[i]))
			return -1;
	while (n && is_space(s[n - 1]))
		n--;
	if (!n || v[1] > 0xffff || v[3] > 0xffff)
		return -1;
	path = malloc(n + 1);
	if (!path)
		return -1;
	memcpy(path, s, n);
	path[n] = 0;
	r = mttd_policy_add(p, path, (unsigned int)v[0], (unsigned int)v[1],
			    (unsigned int)v[2], (unsigned int)v[3]);
	free(path);
	return r;
}

int mttd_policy_load_mem(struct mttd_policy *p, const char *text,
			 size_t len, const char *name, char *err,
			 size_t errlen)
{
	const char *s = text, *end = text + len;
	unsigned long lineno = 1;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);

		if (parse_line(p, s, n)) {
			if (err && errlen)
				snprintf(err, errlen, "%s:%lu: expected "
					 "\"<node path> <first master> <last "
					 "master> <first channel> <last "
					 "channel>\"", name ? name : "<memory>",
					 lineno);
			return -1;
		}
		if (!nl)
			break;
		s = nl + 1;
		lineno++;
	}
	return 0;
}

int mttd_policy_load_file(struct mttd_policy *p, const char *path,
			  char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int r;

	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t k;

		if (len == cap) {
			char *nb = realloc(buf, cap ? 2 * cap : 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				if (err && errlen)
					snprintf(err, errlen, "%s: out of memory",
						 path);
				return -1;
			}
			buf = nb;
			cap = cap ? 2 * cap : 4096;
		}
		k = fread(buf + len, 1, cap - len, f);
		len += k;
		if (k == 0)
			break;
	}
	fclose(f);
	r = mttd_policy_load_mem(p, buf ? buf : "", len, path, err, errlen);
	free(buf);
	return r;
}
