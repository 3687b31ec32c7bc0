// SPDX-License-Identifier: GPL-2.0
/*
 * mccoll.c - mttcontrol's copy of MTT's collateral.xml
 * (tools/mttcontrol/collateral.c): a document whose generation markers
 * (Documentation/mtt.rst, "Collateral for dictionaries") differ is read
 * again, at most MC_COLL_TRIES times, then refused with a clear error;
 * one whose markers agree, or that has none, is copied byte for byte.
 * The documents are written here from the documented layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../../tools/mttcontrol/mttcontrol.h"

/* A document: MARK1 on its second line, MARK2 on its last (NULL: none). */
static char *doc(const char *mark1, const char *mark2)
{
	char *d = malloc(1024);

	if (!d || snprintf(d, 1024, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n%s%s"
		     "<syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n"
		     "</syst:Collateral>\n%s%s",
		     mark1 ? mark1 : "", mark1 ? "\n" : "",
		     mark2 ? mark2 : "", mark2 ? "\n" : "") >= 1024)
		abort();
	return d;
}

#define MARK(n)	"<!-- mtt collateral generation " #n " -->"

/* Each read gives the next of docs[], the last one again at the end. */
struct feed {
	const char *docs[MC_COLL_TRIES + 2];
	int n, reads;
};

static int feed_read(void *ctx, const char *from, char **d, size_t *len)
{
	struct feed *f = ctx;
	const char *s = f->docs[f->reads < f->n ? f->reads : f->n - 1];

	(void)from;
	f->reads++;
	*d = strdup(s);
	if (!*d)
		return -1;
	*len = strlen(s);
	return 0;
}

static char dir[] = "/tmp/mccoll.XXXXXX";
static char to[64];

/* The copy's bytes ("" if there is none). */
static char *copied(void)
{
	static char buf[4096];
	FILE *f = fopen(to, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

/* Copy through FEED; return mc_collateral_copy_by()'s result. */
static int run(struct feed *feed, struct mc_err *e)
{
	unlink(to);
	memset(e, 0, sizeof(*e));
	return mc_collateral_copy_by(feed_read, feed, "collateral.xml", to, e);
}

int main(void)
{
	char *good = doc(MARK(7), MARK(7)), *mixed = doc(MARK(7), MARK(8));
	char *old = doc(NULL, NULL), *cut = doc(MARK(7), NULL);
	char *bad = doc(MARK(7), "<!-- mtt collateral generation 7x -->");
	char *good9 = doc(MARK(9), MARK(9));
	struct mc_err e;
	struct feed f;
	int i;

	if (!mkdtemp(dir))
		return 1;
	snprintf(to, sizeof(to), "%s/collateral.xml", dir);

	f = (struct feed){ .docs = { good }, .n = 1 };
	ok(run(&f, &e) == 0 && f.reads == 1, "markers agree: copied at the first read");
	is_str(copied(), good, "the copy is the document");

	f = (struct feed){ .docs = { mixed, mixed, good9 }, .n = 3 };
	ok(run(&f, &e) == 0 && f.reads == 3,
	   "markers differ twice: read again until they agree (3 reads, got %d)", f.reads);
	is_str(copied(), good9, "the copy is the document whose markers agree");

	f = (struct feed){ .n = MC_COLL_TRIES + 1 };
	for (i = 0; i < MC_COLL_TRIES; i++)
		f.docs[i] = mixed;
	f.docs[MC_COLL_TRIES] = good;
	ok(run(&f, &e) == -1 && f.reads == MC_COLL_TRIES,
	   "markers differ every time: refused after %d reads (got %d)",
	   MC_COLL_TRIES, f.reads);
	is_str(e.msg, "collateral.xml: changed while read, 8 times in a row (generation at its start and its end differ): not copied",
	       "the error says what and how often");
	ok(access(to, F_OK) && errno == ENOENT, "nothing copied");

	f = (struct feed){ .docs = { cut }, .n = 1 };
	ok(run(&f, &e) == -1 && f.reads == MC_COLL_TRIES, "no end marker (cut short): refused");
	f = (struct feed){ .docs = { bad }, .n = 1 };
	ok(run(&f, &e) == -1, "an end marker that is not a number: refused");

	f = (struct feed){ .docs = { old }, .n = 1 };
	ok(run(&f, &e) == 0 && f.reads == 1, "no marker at all (an older mtt module): copied as it is");
	is_str(copied(), old, "... byte for byte");

	/* a real file of 200 KiB: read whole, in several read() calls */
	{
		static char big[200 * 1024 + 256], from[64], back[sizeof(big)];
		FILE *w;
		size_t n, m;

		n = (size_t)snprintf(big, sizeof(big), "<?xml?>\n%s\n", MARK(11));
		memset(big + n, ' ', 200 * 1024);
		n += 200 * 1024;
		n += (size_t)snprintf(big + n, sizeof(big) - n, "\n%s\n", MARK(11));
		snprintf(from, sizeof(from), "%s/from.xml", dir);
		w = fopen(from, "w");
		if (!w || fwrite(big, 1, n, w) != n || fclose(w))
			return 1;
		unlink(to);
		ok(mc_collateral_copy(from, to, &e) == 0, "a 200 KiB file whose markers agree: copied");
		w = fopen(to, "r");
		m = w ? fread(back, 1, sizeof(back), w) : 0;
		if (w)
			fclose(w);
		ok(m == n && !memcmp(back, big, n), "... byte for byte");
		unlink(from);
	}
	ok(mc_collateral_copy("/nonexistent/collateral.xml", to, &e) == -1 &&
	   !strcmp(e.msg, "/nonexistent/collateral.xml: No such file or directory"),
	   "a file that cannot be read: its error");
	f = (struct feed){ .docs = { good }, .n = 1 };
	snprintf(to, sizeof(to), "%s/no/such/dir", dir);
	ok(run(&f, &e) == -1 && strstr(e.msg, "No such file or directory"),
	   "a copy that cannot be written: its error");
	snprintf(to, sizeof(to), "%s/collateral.xml", dir);
	unlink(to);
	rmdir(dir);
	free(good);
	free(mixed);
	free(old);
	free(cut);
	free(bad);
	free(good9);
	return done_testing();
}
