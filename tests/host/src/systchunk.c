// SPDX-License-Identifier: GPL-2.0
/*
 * systchunk.c - "SYS-T RAW DATA:" lines decode to the same messages and
 * events however the input is cut into feed() calls: whole (the common
 * lines decoded in one pass, straight from the input), a byte at a time
 * (every line gathered first), and in random pieces; with and without a
 * length limit.  Lines from the spec-written encoder
 * (tests/host/enc/systenc.c), plain and altered: CR LF, two blanks after
 * the marker, text before it, lower-case digits, an odd digit, a bad
 * digit, an empty message, a long message, the last line without a line
 * feed.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/syst.h"
#include "systenc.h"
#include "tap.h"

struct log {
	struct systenc e;	/* a line per message or event */
};

static void add(struct log *l, const char *s)
{
	systenc_put(&l->e, s, strlen(s));
}

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	struct log *l = ctx;
	char b[128];

	snprintf(b, sizeof(b), "msg @%llu st %u size %zu flags %#x: ",
		 (unsigned long long)m->offset, m->status, m->size,
		 m->flags);
	add(l, b);
	systenc_put(&l->e, m->text, m->text_len);
	add(l, "\n");
}

static void on_event(void *ctx, const struct mttd_syst_event *e)
{
	char b[96];

	snprintf(b, sizeof(b), "event %u @%llu count %llu\n", e->kind,
		 (unsigned long long)e->offset, (unsigned long long)e->count);
	add(ctx, b);
}

/* the log of decoding in[0..n) in pieces of at most cut bytes (0:
 * random), length limit max_len */
static void decode(const struct systenc *in, size_t cut, size_t max_len,
		   struct log *l)
{
	struct mttd_syst_config cfg = {
		.fn = on_msg, .event = on_event, .ctx = l, .max_len = max_len,
	};
	struct mttd_syst *s = mttd_syst_new(&cfg);
	struct mttd_syst_text *t = mttd_syst_text_new(s);
	size_t at = 0;

	systenc_init(&l->e);
	while (at < in->len) {
		size_t k = cut ? cut : 1 + (size_t)rand() % 300;

		if (k > in->len - at)
			k = in->len - at;
		mttd_syst_text_feed(t, in->buf + at, k);
		at += k;
	}
	mttd_syst_text_finish(t);
	mttd_syst_text_free(t);
	mttd_syst_free(s);
}

static void line(struct systenc *in, int kind, unsigned int i)
{
	struct systenc pl, m, h;
	char txt[64];
	size_t k;

	systenc_init(&pl);
	systenc_init(&m);
	systenc_init(&h);
	snprintf(txt, sizeof(txt), "message %u", i);
	systenc_put(&pl, txt, strlen(txt) + 1);
	if (kind == 9)		/* long */
		for (k = 0; k < 3000; k++)
			systenc_le(&pl, 'a' + k % 26, 1);
	systenc_msg(&m, SYSTENC_TYPE(2) | SYSTENC_SUB(1) | SYSTENC_SEV(4) |
		    ((i & 1) ? SYSTENC_CHK : 0), 0, kind == 8 ? &h : &pl);
	systenc_hexline(&h, m.buf, m.len);
	/* h: "SYS-T RAW DATA: <hex>\n" */
	switch (kind) {
	case 1:		/* CR LF */
		h.buf[h.len - 1] = '\r';
		systenc_put(&h, "\n", 1);
		break;
	case 2:		/* two blanks */
		systenc_put(in, "SYS-T RAW DATA: ", 16);
		break;
	case 3:		/* text before the marker */
		systenc_put(in, "[  1.5] ", 8);
		break;
	case 4:		/* lower case */
		for (k = 16; k < h.len; k++)
			h.buf[k] = (uint8_t)tolower(h.buf[k]);
		break;
	case 5:		/* an odd digit */
		h.buf[h.len - 2] = '\n';
		h.len--;
		break;
	case 6:		/* a bad digit */
		h.buf[20] = 'g';
		break;
	}
	systenc_put(in, h.buf, h.len);
	systenc_free(&pl);
	systenc_free(&m);
	systenc_free(&h);
}

int main(void)
{
	static const size_t limits[] = { 0, 12 };
	struct systenc in;
	struct log whole, one, pieces;
	unsigned int i;
	size_t li;

	srand(11);
	systenc_init(&in);
	for (i = 0; i < 600; i++)
		line(&in, i % 3 ? 0 : (int)(i / 3 % 10), i);
	/* the last line without its line feed */
	in.len--;
	if (in.oom)
		return 1;
	for (li = 0; li < 2; li++) {
		decode(&in, in.len, limits[li], &whole);
		decode(&in, 1, limits[li], &one);
		decode(&in, 0, limits[li], &pieces);
		ok(whole.e.len > 0 && !whole.e.oom,
		   "limit %zu: %zu bytes of log", limits[li], whole.e.len);
		ok(one.e.len == whole.e.len &&
		   !memcmp(one.e.buf, whole.e.buf, whole.e.len),
		   "limit %zu: a byte at a time, the same messages and events",
		   limits[li]);
		ok(pieces.e.len == whole.e.len &&
		   !memcmp(pieces.e.buf, whole.e.buf, whole.e.len),
		   "limit %zu: in random pieces, the same", limits[li]);
		systenc_free(&whole.e);
		systenc_free(&one.e);
		systenc_free(&pieces.e);
	}
	systenc_free(&in);
	return done_testing();
}
