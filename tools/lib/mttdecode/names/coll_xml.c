// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * coll_xml.c - loading SyS-T collateral XML with expat (format in
 * collateral.h).  Elements are matched by local name; anything else is
 * skipped.  Errors stop the load and are returned as text.
 */
#include <errno.h>
#include <expat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "coll_internal.h"

#define TEXT_MAX (1u << 20)	/* one element's text */

/* sections and the element that holds entries in each */
static const struct {
	const char *section;
	const char *entry;
	int table;		/* -1: Guids */
} sections[] = {
	{ "Guids", "Guid", -1 },
	{ "Builds", "Build", MTTD_COLL_BUILD },
	{ "Modules", "Module", MTTD_COLL_MODULE },
	{ "SourceFiles", "File", MTTD_COLL_FILE },
	{ "Catalog32", "Format", MTTD_COLL_CATALOG32 },
	{ "Catalog64", "Format", MTTD_COLL_CATALOG64 },
	{ "Short32", "Format", MTTD_COLL_SHORT32 },
	{ "Short64", "Format", MTTD_COLL_SHORT64 },
	{ "Write", "Protocol", MTTD_COLL_PROTOCOL },
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

struct load {
	struct mttd_coll *c;
	XML_Parser xp;
	const char *name;
	char *err;
	size_t errlen;
	int failed;
	int depth;
	struct mttd__cclient *client;
	int client_depth;
	int section;		/* index into sections[], or -1 */
	int section_depth;
	/* the entry being read */
	int in_entry;
	int entry_depth;
	uint64_t id, mask;
	int64_t file, line;
	/* its text: character data, and CDATA sections apart */
	char *text;
	size_t tlen, tcap;
	char *cdata;
	size_t clen, ccap;
	int in_cdata;
	int had_cdata;
};

static void fail(struct load *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->failed)
		return;
	l->failed = 1;
	if (l->err && l->errlen) {
		n = snprintf(l->err, l->errlen, "%s:%lu: ", l->name,
			     (unsigned long)XML_GetCurrentLineNumber(l->xp));
		if (n < 0 || (size_t)n >= l->errlen)
			n = 0;
		va_start(ap, fmt);
		vsnprintf(l->err + n, l->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	XML_StopParser(l->xp, XML_FALSE);
}

static const char *local(const char *name)
{
	const char *bar = strrchr(name, '|');

	return bar ? bar + 1 : name;
}

static const char *attr(const char **atts, const char *name)
{
	for (; atts[0]; atts += 2)
		if (!strcmp(local(atts[0]), name))
			return atts[1];
	return NULL;
}

/* decimal or 0x-hex, surrounding white space allowed */
static int number(const char *s, uint64_t *v)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	return *end ? -1 : 0;
}

static int num_attr(struct load *l, const char **atts, const char *name,
		    uint64_t *v, uint64_t def)
{
	const char *s = attr(atts, name);

	*v = def;
	if (!s)
		return 0;
	if (number(s, v)) {
		fail(l, "bad %s \"%s\"", name, s);
		return -1;
	}
	return 0;
}

static void start_entry(struct load *l, const char **atts)
{
	const char *id = attr(atts, "ID");
	uint64_t file, line;

	if (!id) {
		fail(l, "%s without ID", sections[l->section].entry);
		return;
	}
	if (sections[l->section].table < 0) {
		uint8_t gid[16], gmask[16];
		const char *m = attr(atts, "Mask");

		if (mttd_guid_parse(id, gid)) {
			fail(l, "bad GUID \"%s\"", id);
			return;
		}
		if (!m)
			memset(gmask, 0xff, 16);
		else if (mttd_guid_parse(m, gmask)) {
			fail(l, "bad GUID mask \"%s\"", m);
			return;
		}
		if (mttd__coll_add_guid(l->client, gid, gmask))
			fail(l, "out of memory");
		return;
	}
	if (number(id, &l->id)) {
		fail(l, "bad ID \"%s\"", id);
		return;
	}
	if (num_attr(l, atts, "Mask", &l->mask, UINT64_MAX) ||
	    num_attr(l, atts, "File", &file, UINT64_MAX) ||
	    num_attr(l, atts, "Line", &line, UINT64_MAX))
		return;
	l->file = file > INT64_MAX ? -1 : (int64_t)file;
	l->line = line > INT64_MAX ? -1 : (int64_t)line;
	l->in_entry = 1;
	l->entry_depth = l->depth;
	l->tlen = l->clen = 0;
	l->had_cdata = 0;
}

static void XMLCALL on_start(void *ud, const char *name, const char **atts)
{
	struct load *l = ud;
	const char *n = local(name);
	size_t i;

	l->depth++;
	if (l->failed || l->in_entry)
		return;
	if (!l->client) {
		if (!strcmp(n, "Client")) {
			l->client = mttd__coll_add_client(l->c,
							  attr(atts, "Name"),
							  l->name);
			l->client_depth = l->depth;
			l->section = -1;
			if (!l->client)
				fail(l, "out of memory");
		}
		return;
	}
	if (l->section < 0) {
		if (l->depth != l->client_depth + 1)
			return;
		for (i = 0; i < NSECTIONS; i++) {
			if (!strcmp(n, sections[i].section)) {
				l->section = (int)i;
				l->section_depth = l->depth;
				break;
			}
		}
		return;
	}
	if (l->depth == l->section_depth + 1 &&
	    !strcmp(n, sections[l->section].entry))
		start_entry(l, atts);
}

/* trimmed character data, or the CDATA sections if there were any */
static void end_entry(struct load *l)
{
	const char *t = l->cdata;
	size_t n = l->clen;

	l->in_entry = 0;
	if (!l->had_cdata) {
		t = l->text;
		n = l->tlen;
		while (n && (*t == ' ' || *t == '\t' || *t == '\n' ||
			     *t == '\r')) {
			t++;
			n--;
		}
		while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' ||
			     t[n - 1] == '\n' || t[n - 1] == '\r'))
			n--;
	}
	if (mttd__coll_add(l->c, l->client,
			   (unsigned int)sections[l->section].table, l->id,
			   l->mask, t ? t : "", n, l->file, l->line))
		fail(l, "out of memory");
}

static void XMLCALL on_end(void *ud, const char *name)
{
	struct load *l = ud;

	(void)name;
	if (!l->failed) {
		if (l->in_entry && l->depth == l->entry_depth)
			end_entry(l);
		else if (l->section >= 0 && l->depth == l->section_depth)
			l->section = -1;
		else if (l->client && l->depth == l->client_depth)
			l->client = NULL;
	}
	l->depth--;
}

/*
 * Add s[0..n) to *buf (length *len, room *cap).  The room doubles, so a
 * text delivered in many small pieces (expat hands over every line and
 * every entity expansion apart) costs linear time, not quadratic.
 */
static void append(struct load *l, char **buf, size_t *len, size_t *cap,
		   const char *s, int n)
{
	size_t need;

	if (n <= 0)
		return;
	if (*len + (size_t)n > TEXT_MAX) {
		fail(l, "element text longer than %u bytes", TEXT_MAX);
		return;
	}
	need = *len + (size_t)n + 1;
	if (need > *cap) {
		size_t nc = *cap ? *cap : 256;
		char *nb;

		while (nc < need)
			nc *= 2;
		if (nc > TEXT_MAX + 1)
			nc = TEXT_MAX + 1;
		nb = realloc(*buf, nc);
		if (!nb) {
			fail(l, "out of memory");
			return;
		}
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + *len, s, (size_t)n);
	*len += (size_t)n;
}

static void XMLCALL on_text(void *ud, const char *s, int n)
{
	struct load *l = ud;

	if (l->failed || !l->in_entry)
		return;
	if (l->in_cdata)
		append(l, &l->cdata, &l->clen, &l->ccap, s, n);
	else
		append(l, &l->text, &l->tlen, &l->tcap, s, n);
}

static void XMLCALL on_cdata_start(void *ud)
{
	struct load *l = ud;

	l->in_cdata = 1;
	if (l->in_entry)
		l->had_cdata = 1;
}

static void XMLCALL on_cdata_end(void *ud)
{
	((struct load *)ud)->in_cdata = 0;
}

static int begin(struct load *l, struct mttd_coll *c, const char *name,
		 char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->c = c;
	l->name = name;
	l->err = err;
	l->errlen = errlen;
	l->section = -1;
	if (err && errlen)
		err[0] = 0;
	l->xp = XML_ParserCreateNS(NULL, '|');
	if (!l->xp) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	XML_SetUserData(l->xp, l);
	XML_SetElementHandler(l->xp, on_start, on_end);
	XML_SetCharacterDataHandler(l->xp, on_text);
	XML_SetCdataSectionHandler(l->xp, on_cdata_start, on_cdata_end);
	return 0;
}

/* parse a piece; 0 or -1 */
static int piece(struct load *l, const char *p, size_t n, int last)
{
	while (!l->failed) {
		int k = n > (1u << 30) ? (1 << 30) : (int)n;

		if (XML_Parse(l->xp, p, k, last && (size_t)k == n) ==
		    XML_STATUS_ERROR) {
			if (!l->failed)
				fail(l, "%s", XML_ErrorString(
					XML_GetErrorCode(l->xp)));
			break;
		}
		p += k;
		n -= (size_t)k;
		if (!n)
			break;
	}
	return l->failed ? -1 : 0;
}

static int end(struct load *l, int ok)
{
	free(l->text);
	free(l->cdata);
	XML_ParserFree(l->xp);
	if (ok && mttd__coll_finish(l->c)) {
		if (l->err && l->errlen)
			snprintf(l->err, l->errlen, "%s: out of memory",
				 l->name);
		return -1;
	}
	if (!ok)
		mttd__coll_finish(l->c);	/* keep what loaded usable */
	return ok ? 0 : -1;
}

int mttd_coll_load_mem(struct mttd_coll *c, const char *xml, size_t len,
		       const char *name, char *err, size_t errlen)
{
	struct load l;

	if (begin(&l, c, name ? name : "<memory>", err, errlen))
		return -1;
	return end(&l, piece(&l, xml, len, 1) == 0);
}

int mttd_coll_load_file(struct mttd_coll *c, const char *path, char *err,
			size_t errlen)
{
	struct load l;
	struct stat st;
	FILE *f;
	char buf[65536];
	int ok = 1;

	if (!path || !*path) {
		if (err && errlen)
			snprintf(err, errlen, "collateral: empty file name");
		return -1;
	}
	f = fopen(path, "rb");
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		if (err && errlen)
			snprintf(err, errlen,
				 "%s: is a directory, not a collateral XML file",
				 path);
		fclose(f);
		return -1;
	}
	if (begin(&l, c, path, err, errlen)) {
		fclose(f);
		return -1;
	}
	for (;;) {
		size_t n = fread(buf, 1, sizeof(buf), f);

		if (n < sizeof(buf) && ferror(f)) {
			if (err && errlen)
				snprintf(err, errlen, "%s: read error", path);
			l.failed = 1;
			ok = 0;
			break;
		}
		if (piece(&l, buf, n, n < sizeof(buf))) {
			ok = 0;
			break;
		}
		if (n < sizeof(buf))
			break;
	}
	fclose(f);
	return end(&l, ok);
}
