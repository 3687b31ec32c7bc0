// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tracefs.c - ftrace event formats from a copy of tracefs's events
 * directory: DIR/<system>/<event>/format files ("name:", "ID:" and
 * "field:<decl>; offset:N; size:N; signed:N;" lines).  Events are kept
 * sorted by ID.  Without a format file for them, the function tracer
 * (ID 1: ip, parent_ip) and trace_marker writes (ID 5: ip, buf[]) are
 * known with their x86-64 layout.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace_internal.h"

#define FORMAT_MAX (1u << 20)

static const struct mttd__field fn_fields[] = {
	{ .name = "ip", .offset = 8, .size = 8, .kind = FK_NUM, .addr = 1 },
	{ .name = "parent_ip", .offset = 16, .size = 8, .kind = FK_NUM,
	  .addr = 1 },
};
static const struct mttd__field print_fields[] = {
	{ .name = "ip", .offset = 8, .size = 8, .kind = FK_NUM, .addr = 1 },
	{ .name = "buf", .offset = 16, .size = 0, .kind = FK_STR },
};
static const struct mttd__event builtin[] = {
	{ .id = 1, .name = "function", .system = "ftrace",
	  .f = (struct mttd__field *)fn_fields, .nf = 2 },
	{ .id = 5, .name = "print", .system = "ftrace",
	  .f = (struct mttd__field *)print_fields, .nf = 2 },
};

unsigned int mttd_ftrace_events(const struct mttd_ftrace *f)
{
	return (unsigned int)f->nev;
}

static int cmp_ev(const void *a, const void *b)
{
	const struct mttd__event *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

const struct mttd__event *mttd__ftrace_event(const struct mttd_ftrace *f,
					     uint32_t id)
{
	size_t lo = 0, hi = f->nev, i;

	while (f->sorted && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->ev[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (f->sorted && lo < f->nev && f->ev[lo].id == id)
		return &f->ev[lo];
	for (i = 0; !f->sorted && i < f->nev; i++)
		if (f->ev[i].id == id)
			return &f->ev[i];
	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (builtin[i].id == id)
			return &builtin[i];
	return NULL;
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int has_word(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w), i;

	for (i = 0; i + k <= n; i++)
		if (!memcmp(s + i, w, k) && (!i || !is_ident(s[i - 1])) &&
		    (i + k == n || !is_ident(s[i + k])))
			return 1;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* "TYPE NAME[N]" -> field; 0 or -1 */
static int decl(const char *d, size_t n, struct mttd__field *fl)
{
	size_t e, b, count = 0;
	int array = 0, chr;

	while (n && (d[n - 1] == ' ' || d[n - 1] == '\t'))
		n--;
	while (n && (*d == ' ' || *d == '\t')) {
		d++;
		n--;
	}
	e = n;
	if (e && d[e - 1] == ']') {
		const char *lb = NULL;
		size_t i;

		for (i = e - 1; i > 0; i--)
			if (d[i - 1] == '[') {
				lb = d + i - 1;
				break;
			}
		if (!lb)
			return -1;
		array = 1;
		for (i = (size_t)(lb - d) + 1; i < e - 1; i++) {
			if (d[i] < '0' || d[i] > '9') {
				count = 0;
				break;
			}
			count = count * 10 + (size_t)(d[i] - '0');
			if (count > (1u << 24))
				return -1;
		}
		e = (size_t)(lb - d);
	}
	b = e;
	while (b && is_ident(d[b - 1]))
		b--;
	if (b == e)
		return -1;
	fl->name = malloc(e - b + 1);
	if (!fl->name)
		return -1;
	memcpy(fl->name, d + b, e - b);
	fl->name[e - b] = 0;
	/* the type: d[0..b) */
	if (has_word(d, b, "__data_loc"))
		fl->dyn = 1;
	else if (has_word(d, b, "__rel_loc"))
		fl->dyn = 2;
	chr = has_word(d, b, "char") && !has_word(d, b, "unsigned");
	if (fl->dyn) {
		array = 1;
		chr = chr && memchr(d, '[', b) != NULL;
	}
	fl->addr = memchr(d, '*', b) != NULL || !strcmp(fl->name, "ip") ||
		   !strcmp(fl->name, "parent_ip") ||
		   !strcmp(fl->name, "call_site") || ends_with(fl->name, "_ip");
	fl->common = !strncmp(fl->name, "common_", 7);
	if (array && chr) {
		fl->kind = FK_STR;
		fl->addr = 0;
	} else if (array) {
		fl->kind = FK_BYTES;
		if (!fl->dyn && count && fl->size % count == 0) {
			size_t el = fl->size / count;

			if (el == 1 || el == 2 || el == 4 || el == 8) {
				fl->kind = FK_ARRAY;
				fl->elem = (uint32_t)el;
			}
		}
	} else {
		fl->kind = (fl->size == 1 || fl->size == 2 || fl->size == 4 ||
			    fl->size == 8) ? FK_NUM : FK_BYTES;
	}
	return 0;
}

/* the number after key in s[0..n), or -1 */
static long long field_num(const char *s, size_t n, const char *key)
{
	size_t k = strlen(key), i;

	for (i = 0; i + k <= n; i++) {
		if (!memcmp(s + i, key, k) && (!i || s[i - 1] == ';' ||
		    s[i - 1] == ' ' || s[i - 1] == '\t')) {
			long long v = 0;
			size_t j = i + k;

			if (j >= n || s[j] < '0' || s[j] > '9')
				return -1;
			for (; j < n && s[j] >= '0' && s[j] <= '9'; j++) {
				v = v * 10 + (s[j] - '0');
				if (v > (1ll << 31))
					return -1;
			}
			return v;
		}
	}
	return -1;
}

static int add_field(struct mttd__event *ev, const char *s, size_t n)
{
	const char *semi = memchr(s, ';', n);
	long long off = field_num(s, n, "offset:");
	long long size = field_num(s, n, "size:");
	long long sg = field_num(s, n, "signed:");
	struct mttd__field fl = { 0 }, *nf;

	if (!semi || off < 0 || size < 0)
		return 0;	/* not a field we understand: skip it */
	fl.offset = (uint32_t)off;
	fl.size = (uint32_t)size;
	fl.is_signed = sg == 1;
	if (decl(s, (size_t)(semi - s), &fl))
		return 0;
	nf = realloc(ev->f, (ev->nf + 1) * sizeof(*nf));
	if (!nf) {
		free(fl.name);
		return -1;
	}
	ev->f = nf;
	ev->f[ev->nf++] = fl;
	return 0;
}

static void free_event(struct mttd__event *ev)
{
	size_t j;

	for (j = 0; j < ev->nf; j++)
		free(ev->f[j].name);
	free(ev->f);
	free(ev->name);
	free(ev->system);
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

int mttd_ftrace_add_format(struct mttd_ftrace *f, const char *system,
			   const char *text, size_t len)
{
	struct mttd__event ev = { 0 };
	const char *s = text, *end = text + len;
	int have_id = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s), i = 0;

		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (n - i > 5 && !memcmp(s + i, "name:", 5) && !ev.name) {
			const char *v = s + i + 5;
			size_t k = n - i - 5;

			while (k && (*v == ' ' || *v == '\t')) {
				v++;
				k--;
			}
			while (k && (v[k - 1] == ' ' || v[k - 1] == '\r'))
				k--;
			ev.name = dup_n(v, k);
		} else if (n - i > 3 && !memcmp(s + i, "ID:", 3)) {
			size_t j = i + 3;
			long id = 0;

			while (j < n && (s[j] == ' ' || s[j] == '\t'))
				j++;
			if (j < n && s[j] >= '0' && s[j] <= '9') {
				for (; j < n && s[j] >= '0' && s[j] <= '9' &&
				     id <= 0xffff; j++)
					id = id * 10 + (s[j] - '0');
				if (id <= 0xffff) {
					ev.id = (uint32_t)id;
					have_id = 1;
				}
			}
		} else if (n - i > 6 && !memcmp(s + i, "field:", 6)) {
			if (add_field(&ev, s + i + 6, n - i - 6)) {
				free_event(&ev);
				return -1;
			}
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	if (!ev.name || !have_id) {
		free_event(&ev);
		return -1;
	}
	ev.system = dup_n(system ? system : "", system ? strlen(system) : 0);
	if (f->nev == f->capev) {
		size_t cap = f->capev ? 2 * f->capev : 64;
		struct mttd__event *ne = realloc(f->ev, cap * sizeof(*ne));

		if (!ne) {
			free_event(&ev);
			return -1;
		}
		f->ev = ne;
		f->capev = cap;
	}
	f->ev[f->nev++] = ev;
	f->sorted = 0;
	return 0;
}

static void sort_events(struct mttd_ftrace *f)
{
	size_t i, k = 0;

	if (f->nev)
		qsort(f->ev, f->nev, sizeof(*f->ev), cmp_ev);
	/* one event per ID: the first loaded (qsort is not stable, so
	 * equal IDs are rare enough to just keep any one) */
	for (i = 0; i < f->nev; i++) {
		if (k && f->ev[k - 1].id == f->ev[i].id) {
			free_event(&f->ev[i]);
			continue;
		}
		f->ev[k++] = f->ev[i];
	}
	f->nev = k;
	f->sorted = 1;
}

static char *read_small(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;

	if (!fp)
		return NULL;
	buf = malloc(FORMAT_MAX);
	if (buf)
		*len = fread(buf, 1, FORMAT_MAX, fp);
	fclose(fp);
	return buf;
}

static int join(char *out, size_t n, const char *a, const char *b,
		const char *c)
{
	int r = snprintf(out, n, "%s/%s%s%s", a, b, c ? "/" : "",
			 c ? c : "");

	return r < 0 || (size_t)r >= n ? -1 : 0;
}

int mttd_ftrace_load_tracefs(struct mttd_ftrace *f, const char *dir,
			     char *err, size_t errlen)
{
	char root[4096], sysdir[4096], path[4096];
	DIR *d, *sd;
	struct dirent *de, *ee;
	size_t before = f->nev;

	if (join(root, sizeof(root), dir, "events", NULL) ||
	    !(d = opendir(root))) {
		snprintf(root, sizeof(root), "%s", dir);
		d = opendir(root);
	}
	if (!d) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    join(sysdir, sizeof(sysdir), root, de->d_name, NULL))
			continue;
		sd = opendir(sysdir);
		if (!sd)
			continue;
		while ((ee = readdir(sd))) {
			size_t len = 0;
			char *text;

			if (ee->d_name[0] == '.' ||
			    join(path, sizeof(path), sysdir, ee->d_name,
				 "format"))
				continue;
			text = read_small(path, &len);
			if (text)
				mttd_ftrace_add_format(f, de->d_name, text, len);
			free(text);
		}
		closedir(sd);
	}
	closedir(d);
	sort_events(f);
	if (f->nev == before) {
		if (err && errlen)
			snprintf(err, errlen, "%s: no event format files "
				 "(<system>/<event>/format)", dir);
		return -1;
	}
	return 0;
}
