// SPDX-License-Identifier: GPL-2.0
/*
 * framing.c - the framing layer of an input, when it has one: an Intel
 * Trace Hub MSC multi-block capture or CoreSight formatter frames, undone
 * by libmttdecode (mttdecode/framing.h) in front of the STP decoder; their
 * detection for --input=auto, their counters for --stats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void to_stp(void *ctx, const uint8_t *p, size_t n)
{
	struct app *a = ctx;

	mttd_stp_feed(a->stp, p, n);
}

int frame_open(struct app *a, int kind)
{
	if (kind == IN_MSC) {
		struct mttd_msc_config mc = { .fn = to_stp, .ctx = a };

		a->msc = mttd_msc_new(&mc);
		a->had_msc = 1;
		if (a->msc)
			return 0;
	} else if (kind == IN_CS) {
		struct mttd_cs_config cc = {
			.fn = to_stp, .ctx = a,
			.trace_id = a->o.trace_id, .flags = a->o.cs_flags,
		};

		a->cs = mttd_cs_new(&cc);
		a->had_cs = 1;
		if (a->cs)
			return 0;
	} else {
		return 0;
	}
	fprintf(stderr, "mttdecode: out of memory\n");
	return 1;
}

void frame_feed(struct app *a, const uint8_t *p, size_t n)
{
	if (a->msc)
		mttd_msc_feed(a->msc, p, n);
	else if (a->cs)
		mttd_cs_feed(a->cs, p, n);
}

void frame_close(struct app *a)
{
	if (a->msc) {
		const struct mttd_msc_stats *s;
		struct mttd_msc_stats *t = &a->msc_tot;

		mttd_msc_finish(a->msc);
		s = mttd_msc_stats(a->msc);
		t->bytes += s->bytes;
		t->blocks += s->blocks;
		t->windows += s->windows;
		t->wrapped += s->wrapped;
		t->data += s->data;
		t->bad += s->bad;
		t->truncated += s->truncated;
		mttd_msc_free(a->msc);
		a->msc = NULL;
	}
	if (a->cs) {
		const struct mttd_cs_stats *s;
		struct mttd_cs_stats *t = &a->cs_tot;

		mttd_cs_finish(a->cs);
		s = mttd_cs_stats(a->cs);
		t->bytes += s->bytes;
		t->frames += s->frames;
		t->fsyncs += s->fsyncs;
		t->hsyncs += s->hsyncs;
		t->unsynced += s->unsynced;
		t->id_changes += s->id_changes;
		t->data += s->data;
		t->other += s->other;
		t->reserved += s->reserved;
		t->truncated += s->truncated;
		t->trace_id = s->trace_id;
		t->ids[0] |= s->ids[0];
		t->ids[1] |= s->ids[1];
		mttd_cs_free(a->cs);
		a->cs = NULL;
	}
}

/* what could start CoreSight frames: an FSYNC, or an ID change to an ID
 * a source may have (or padding) */
static int cs_start(const uint8_t *p, size_t n)
{
	if (n >= 4 && p[0] == 0xff && p[1] == 0xff && p[2] == 0xff &&
	    p[3] == 0x7f)
		return 1;
	return n && (p[0] & 1) && (p[0] >> 1) <= MTTD_CS_MAX_ID;
}

/* p[0..n), n < 64, can still become an MSC block descriptor: the tags'
 * unused bits and the reserved words are zero so far */
static int msc_start(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((i == 0 && p[i] > 3) || (i == 32 && p[i] > 15) ||
		    (p[i] && ((i >= 1 && i < 4) || (i >= 16 && i < 32) ||
			      (i >= 33 && i < 36) || i >= 48)))
			return 0;
	}
	return 1;
}

int sniff_frame(const uint8_t *p, size_t n, int final)
{
	if (n < MTTD_MSC_DESC && !final && msc_start(p, n))
		return IN_AUTO;
	if (mttd_msc_probe(p, n))
		return IN_MSC;
	if (cs_start(p, n) && mttd_cs_probe(p, n, NULL))
		return IN_CS;
	return -1;
}

void frame_stats(const struct app *a)
{
	const struct mttd_msc_stats *m = &a->msc_tot;
	const struct mttd_cs_stats *c = &a->cs_tot;
	int i;

	if (a->had_msc)
		fprintf(stderr,
			"msc blocks:      %llu (%llu windows, %llu wrapped, "
			"%llu bad 64-byte units, %llu cut short)\n"
			"msc trace bytes: %llu\n",
			(unsigned long long)m->blocks,
			(unsigned long long)m->windows,
			(unsigned long long)m->wrapped,
			(unsigned long long)m->bad,
			(unsigned long long)m->truncated,
			(unsigned long long)m->data);
	if (!a->had_cs)
		return;
	fprintf(stderr,
		"cs frames:       %llu (fsync %llu, hsync %llu, unsynced "
		"bytes %llu, cut short bytes %llu)\n"
		"cs trace id:     0x%02x (%llu bytes; other ids %llu bytes, "
		"%llu id changes, %llu reserved)\n"
		"cs ids seen:    ",
		(unsigned long long)c->frames, (unsigned long long)c->fsyncs,
		(unsigned long long)c->hsyncs, (unsigned long long)c->unsynced,
		(unsigned long long)c->truncated, c->trace_id,
		(unsigned long long)c->data, (unsigned long long)c->other,
		(unsigned long long)c->id_changes,
		(unsigned long long)c->reserved);
	for (i = 0; i < 128; i++)
		if (c->ids[i >> 6] >> (i & 63) & 1)
			fprintf(stderr, " 0x%02x", i);
	fputc('\n', stderr);
}

int frame_option(struct opts *o, int trace_id, const char *arg)
{
	static const char *const modes[] = { "frame", "fsync", "hsync" };
	static const unsigned int flags[] = {
		0, MTTD_CS_FSYNC, MTTD_CS_FSYNC | MTTD_CS_HSYNC
	};
	unsigned long v;
	char *end;
	size_t i;

	if (!trace_id) {
		for (i = 0; i < 3; i++) {
			if (!strcmp(arg, modes[i])) {
				o->cs_flags = flags[i];
				return 0;
			}
		}
		return -1;
	}
	if (*arg < '0' || *arg > '9')
		return -1;
	v = strtoul(arg, &end, 0);
	if (*end || !v || v > MTTD_CS_MAX_ID)
		return -1;
	o->trace_id = (unsigned int)v;
	return 0;
}
