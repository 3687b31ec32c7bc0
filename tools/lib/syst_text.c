// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_text.c - the MIPI reference printer's input text: lines holding
 * "SYS-T RAW DATA:" and a message in hex; other lines are ignored.
 * Lines are split as the bytes arrive; a line that spans feed() calls is
 * gathered in a bounded buffer (longer lines are cut and the message
 * flagged truncated).
 */
#include <stdint.h>
#include <stdlib.h>

#include "hex.h"
#include "syst_internal.h"

#define LINE_MAX_BYTES (256u << 10)

static const char marker[] = "SYS-T RAW DATA:";

struct mttd_syst_text {
	struct mttd_syst *s;
	char *line;		/* a line cut by the end of a feed() */
	size_t cap;		/* grown up to LINE_MAX_BYTES */
	size_t len;
	int over;		/* it was longer than LINE_MAX_BYTES */
	uint64_t line_off;	/* stream offset of the line */
	uint64_t lineno;	/* 1-based number of the current line */
	uint64_t off;		/* stream offset of the next byte fed */
	uint8_t *msg;		/* decoded bytes */
	size_t msg_cap;
	int finished;
};

struct mttd_syst_text *mttd_syst_text_new(struct mttd_syst *s)
{
	struct mttd_syst_text *t;

	if (!s)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->s = s;
	t->lineno = 1;
	return t;
}

void mttd_syst_text_free(struct mttd_syst_text *t)
{
	if (!t)
		return;
	free(t->line);
	free(t->msg);
	free(t);
}

/* each character's hex digit value, or -1 */
#define HV(c)	((c) >= '0' && (c) <= '9' ? (c) - '0' : \
		 (c) >= 'a' && (c) <= 'f' ? (c) - 'a' + 10 : \
		 (c) >= 'A' && (c) <= 'F' ? (c) - 'A' + 10 : -1)
#define HV4(c)	HV(c), HV((c) + 1), HV((c) + 2), HV((c) + 3)
#define HV16(c)	HV4(c), HV4((c) + 4), HV4((c) + 8), HV4((c) + 12)
#define HV64(c)	HV16(c), HV16((c) + 16), HV16((c) + 32), HV16((c) + 48)
static const int8_t hex_tab[256] = { HV64(0), HV64(64), HV64(128), HV64(192) };

static const char *find_marker(const char *l, size_t n)
{
	const size_t k = sizeof(marker) - 1;
	size_t i;

	for (i = 0; i + k <= n; i++) {
		const char *c = memchr(l + i, 'S', n - i - k + 1);

		if (!c)
			return NULL;
		i = (size_t)(c - l);
		if (!memcmp(c, marker, k))
			return c + k;
	}
	return NULL;
}

/* room for the bytes of a line of n characters; 0 or -1 */
static int msg_room(struct mttd_syst_text *t, size_t n)
{
	uint8_t *nb;

	if (n / 2 + 1 <= t->msg_cap)
		return 0;
	nb = realloc(t->msg, n / 2 + 1);
	if (!nb)
		return -1;
	t->msg = nb;
	t->msg_cap = n / 2 + 1;
	return 0;
}

static void line(struct mttd_syst_text *t, const char *l, size_t n,
		 int over)
{
	const char *h, *end;
	size_t k = 0, lim;
	struct mttd_syst_src src = { .offset = t->line_off };

	if (!l)
		return;
	h = find_marker(l, n);
	end = l + n;
	if (!h || msg_room(t, (size_t)(end - h)))
		return;
	/* the common case, pairs of hex digits, through a table (no
	 * branch on the digit's range); anything else, from the first
	 * blank, bad digit or the length limit on, in the loop below */
	lim = t->s->max_len ? t->s->max_len : SIZE_MAX;
	while (h < end && (*h == ' ' || *h == '\t' || *h == '\r'))
		h++;
	while (end - h >= 2 && k < lim) {
		int a = hex_tab[(uint8_t)h[0]], b = hex_tab[(uint8_t)h[1]];

		if ((a | b) < 0)
			break;
		t->msg[k++] = (uint8_t)(a << 4 | b);
		h += 2;
	}
	while (h < end) {
		int a, b;

		if (*h == ' ' || *h == '\t' || *h == '\r') {
			h++;
			continue;
		}
		a = mttd_hexval(*h);
		b = h + 1 < end ? mttd_hexval(h[1]) : -1;
		if (a < 0 || b < 0) {
			if (over && h + 1 >= end)
				break;	/* cut inside a byte */
			mttd__syst_event(t->s, MTTD_SYST_EV_BADLINE,
					 t->line_off, t->lineno);
			return;
		}
		if (t->s->max_len && k == t->s->max_len) {
			over = 1;	/* the rest is dropped unread */
			break;
		}
		t->msg[k++] = (uint8_t)(a << 4 | b);
		h += 2;
	}
	if (over)
		src.flags = MTTD_SYST_F_TRUNCATED;
	mttd_syst_decode(t->s, &src, t->msg, k);
}

static void keep(struct mttd_syst_text *t, const char *p, size_t n)
{
	if (!n)
		return;
	if (n > LINE_MAX_BYTES - t->len) {
		n = LINE_MAX_BYTES - t->len;
		t->over = 1;
	}
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *nl;

		while (cap < t->len + n)
			cap *= 2;
		if (cap > LINE_MAX_BYTES)
			cap = LINE_MAX_BYTES;
		nl = realloc(t->line, cap);
		if (!nl) {
			t->over = 1;
			return;
		}
		t->line = nl;
		t->cap = cap;
	}
	memcpy(t->line + t->len, p, n);
	t->len += n;
}

int mttd_syst_text_feed(struct mttd_syst_text *t, const void *p, size_t n)
{
	const char *b = p, *end = b + n;

	if (t->finished)
		return -1;
	while (b < end) {
		const char *nl = memchr(b, '\n', (size_t)(end - b));
		size_t k = (size_t)((nl ? nl : end) - b);

		if (!nl) {
			keep(t, b, k);
			t->off += k;
			break;
		}
		if (t->len || t->over) {
			keep(t, b, k);
			line(t, t->line, t->len, t->over);
		} else if (k > LINE_MAX_BYTES) {
			line(t, b, LINE_MAX_BYTES, 1);
		} else {
			line(t, b, k, 0);
		}
		t->len = 0;
		t->over = 0;
		t->off += k + 1;
		t->line_off = t->off;
		t->lineno++;
		b = nl + 1;
	}
	return 0;
}

int mttd_syst_text_finish(struct mttd_syst_text *t)
{
	if (t->finished)
		return -1;
	t->finished = 1;
	if (t->len || t->over)
		line(t, t->line, t->len, t->over);
	t->len = 0;
	return 0;
}
