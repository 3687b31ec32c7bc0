// SPDX-License-Identifier: GPL-2.0
/*
 * collateral.c - MTT's collateral.xml copied as one document.
 *
 * The kernel keeps one snapshot of the document and builds a new one when
 * what it names changed, so a reader whose reads straddle a change can get
 * the start of one document and the rest of another.  The document says
 * which: its second line and its last line are
 * "<!-- mtt collateral generation N -->", the same N in one snapshot
 * (Documentation/mtt.rst, "Collateral for dictionaries").  The file is
 * read again until the two agree, MC_COLL_TRIES times at most.  A
 * document without the first marker (an mtt module older than the
 * marker) is taken as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mttcontrol.h"

#define MARK_HEAD	"<!-- mtt collateral generation "
#define MARK_TAIL	" -->"

/*
 * The generation of the marker that line S (N bytes, no newline) is.
 * Return: 0, or -1 if it is not a marker.
 */
static int mark(const char *s, size_t n, unsigned long long *gen)
{
	size_t h = strlen(MARK_HEAD), t = strlen(MARK_TAIL), i;

	if (n <= h + t || memcmp(s, MARK_HEAD, h) ||
	    memcmp(s + n - t, MARK_TAIL, t) || n - h - t > 20)
		return -1;
	*gen = 0;
	for (i = h; i < n - t; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*gen = *gen * 10 + (unsigned long long)(s[i] - '0');
	}
	return 0;
}

/*
 * Is DOC (LEN bytes) one snapshot?  Return: 1 yes (or no marker at its
 * start: nothing to check), 0 no.
 */
static int one_snapshot(const char *doc, size_t len)
{
	unsigned long long first, last;
	const char *l1, *l2, *end, *p;

	l1 = memchr(doc, '\n', len);
	if (!l1)
		return 1;
	l1++;
	l2 = memchr(l1, '\n', len - (size_t)(l1 - doc));
	if (!l2 || mark(l1, (size_t)(l2 - l1), &first))
		return 1;
	/* the last line, without its newline */
	end = doc + len;
	if (end > doc && end[-1] == '\n')
		end--;
	for (p = end; p > doc && p[-1] != '\n'; p--)
		;
	return !mark(p, (size_t)(end - p), &last) && last == first;
}

/* The whole file into *DOC (malloc'd), *LEN bytes.  Return: 0 or -1. */
static int slurp(void *ctx, const char *path, char **doc, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;
	int fd, saved;

	(void)ctx;
	if (!buf)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				r = -1;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r <= 0 && !(r < 0 && errno == EINTR))
			break;
		if (r > 0)
			n += (size_t)r;
	}
	saved = errno;
	close(fd);
	if (r < 0) {
		free(buf);
		errno = saved;
		return -1;
	}
	*doc = buf;
	*len = n;
	return 0;
}

/* DOC (LEN bytes) into the new file TO.  Return: 0 or -1. */
static int spill(const char *to, const char *doc, size_t len)
{
	int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int saved = 0;
	ssize_t w;

	if (fd < 0)
		return -1;
	while (len) {
		w = write(fd, doc, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			saved = w < 0 ? errno : EIO;
			break;
		}
		doc += w;
		len -= (size_t)w;
	}
	if (close(fd) && !saved)
		saved = errno;
	errno = saved;
	return saved ? -1 : 0;
}

int mc_collateral_copy_by(mc_slurp_fn *rd, void *ctx, const char *from,
			  const char *to, struct mc_err *e)
{
	char *doc = NULL;
	size_t len = 0;
	int i, ok = 0;

	for (i = 0; i < MC_COLL_TRIES && !ok; i++) {
		free(doc);
		doc = NULL;
		if (rd(ctx, from, &doc, &len))
			return mc_fail(e, "%s: %s", from, strerror(errno));
		ok = one_snapshot(doc, len);
	}
	if (!ok) {
		free(doc);
		return mc_fail(e, "%s: changed while read, %d times in a row (generation at its start and its end differ): not copied",
			       from, MC_COLL_TRIES);
	}
	if (spill(to, doc, len)) {
		int saved = errno;

		free(doc);
		return mc_fail(e, "%s: %s", to, strerror(saved));
	}
	free(doc);
	return 0;
}

int mc_collateral_copy(const char *from, const char *to, struct mc_err *e)
{
	return mc_collateral_copy_by(slurp, NULL, from, to, e);
}
