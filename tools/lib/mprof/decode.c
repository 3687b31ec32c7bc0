// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - mprof_decode_stream(), the one hand-off by which mttdecode
 * decodes a MiniProfiler capture: the ELF to name functions from (one a
 * session names is first checked to be the ELF that was profiled), the
 * capture read into a profile with every event written as it comes
 * (text, JSON lines) or the profile written at the end (Chrome trace,
 * folded stacks, HTML page), the counters for a summary.  Also what
 * tells a capture from its first bytes.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "mprof/mprof.h"

int mprof_is_capture(const uint8_t *p, size_t n)
{
	return n >= 3 && p[0] == MPROF_RSP_SYNC0 && p[1] == MPROF_RSP_SYNC1 &&
	       p[2] >= MPROF_RSP_ACK && p[2] <= MPROF_RSP_TIME_SYNC;
}

static int given(const char *s)
{
	return s && *s;
}

/*
 * Is sym the ELF the ids say?  Its GNU build id and .text CRC32 as
 * recorded at capture time; without them (older mttprofile) the
 * device's build id, the CRC32 of the .text that ran.  0 when every one
 * recorded matches; -1 with why set otherwise.
 */
static int elf_check(const struct mprof_elf_ids *x,
		     const struct mprof_sym *sym, char *why, size_t n)
{
	char id[2 * MPROF_GNU_ID_MAX + 1], crc[16];
	int has_text;

	mprof_sym_build_id(sym, id, sizeof(id));
	snprintf(crc, sizeof(crc), "0x%08x",
		 (unsigned int)mprof_sym_text_crc(sym, &has_text));
	if (!has_text)
		crc[0] = 0;
	if (given(x->gnu_build_id) && strcmp(x->gnu_build_id, id)) {
		snprintf(why, n, "its GNU build id is %s, the session recorded %s",
			 id[0] ? id : "none", x->gnu_build_id);
		return -1;
	}
	if (given(x->text_crc32) && strcasecmp(x->text_crc32, crc)) {
		snprintf(why, n, "its .text CRC32 is %s, the session recorded %s",
			 crc[0] ? crc : "none (no .text)", x->text_crc32);
		return -1;
	}
	if (!given(x->gnu_build_id) && !given(x->text_crc32) &&
	    given(x->device_build_id) && strcasecmp(x->device_build_id, crc)) {
		snprintf(why, n, "its .text CRC32 is %s, the device's build id %s",
			 crc[0] ? crc : "none (no .text)", x->device_build_id);
		return -1;
	}
	return 0;
}

/* the ELF of o into *sym (NULL: none, or a session's unreadable) */
static enum mprof_decode_status load_elf(const struct mprof_decode_opts *o,
					 struct mprof_sym **sym,
					 struct mprof_decode_result *r)
{
	const struct mprof_elf_ids *x = o->expect;

	*sym = NULL;
	if (!o->elf)
		return MPROF_DECODE_OK;
	*sym = mprof_sym_load(o->elf, r->elf_err, sizeof(r->elf_err));
	if (!*sym && !x)
		return MPROF_DECODE_ELF;
	if (!*sym) {
		r->warn |= MPROF_WARN_ELF_UNREADABLE;
		return MPROF_DECODE_OK;
	}
	if (x && elf_check(x, *sym, r->why, sizeof(r->why))) {
		mprof_sym_free(*sym);
		*sym = NULL;
		return MPROF_DECODE_ELF_REFUSED;
	}
	if (x && !given(x->gnu_build_id) && !given(x->text_crc32) &&
	    !given(x->device_build_id))
		r->warn |= MPROF_WARN_UNCHECKED;
	return MPROF_DECODE_OK;
}

struct dec {
	const struct mprof_decode_opts *o;
	FILE *out;
	const struct mprof_sym *sym;
	struct mprof_decode_result *r;
	int checked;		/* the ELF against the device's build id */
};

static void on_event(void *ctx, const struct mprof_event *ev)
{
	struct dec *d = ctx;
	struct mprof_metadata m;

	/* the first METADATA: is the ELF the device's?  (a warning) */
	if (ev->kind == MPROF_EV_PACKET && ev->type == MPROF_RSP_METADATA &&
	    d->sym && !d->checked &&
	    !mprof_metadata_get(&m, ev->payload, ev->len)) {
		int has_text;
		uint32_t crc = mprof_sym_text_crc(d->sym, &has_text);

		d->checked = 1;
		if (has_text && crc != m.elf_build_id) {
			d->r->warn |= MPROF_WARN_DEVICE;
			d->r->elf_crc = crc;
			d->r->device_build_id = m.elf_build_id;
		}
	}
	if (!d->o->no_output && (d->o->format == MPROF_FMT_TEXT ||
				 d->o->format == MPROF_FMT_JSON))
		mprof_write_event(d->out, d->o->format == MPROF_FMT_JSON,
				  d->sym, ev);
}

static int report(const struct mprof_decode_opts *o, FILE *f,
		  const struct mprof_profile *p)
{
	switch (o->format) {
	case MPROF_FMT_TEXT:
		fputc('\n', f);
		return mprof_write_text(f, p);
	case MPROF_FMT_JSON:
		return mprof_write_functions_json(f, p);
	case MPROF_FMT_CHROME:
		return mprof_write_chrome(f, p);
	case MPROF_FMT_FOLDED:
		return mprof_write_folded(f, p);
	case MPROF_FMT_HTML:
		return mprof_write_html(f, p, o->title);
	}
	return 0;
}

enum mprof_decode_status mprof_decode_stream(const struct mprof_decode_opts *o,
					     int fd, FILE *out,
					     struct mprof_decode_result *r)
{
	struct mprof_collect c;
	struct mprof_sym *sym;
	struct dec d = { .o = o, .out = out, .r = r };
	enum mprof_decode_status st;

	memset(r, 0, sizeof(*r));
	st = load_elf(o, &sym, r);
	if (st)
		return st;
	d.sym = sym;
	if (mprof_collect_init(&c, on_event, &d)) {
		mprof_sym_free(sym);
		mprof_collect_free(&c);
		return MPROF_DECODE_NOMEM;
	}
	if (mprof_collect_fd(&c, fd)) {
		r->err = errno;
		st = MPROF_DECODE_READ;
		goto out;
	}
	r->parser = *mprof_parser_stats(c.parser);
	r->records = c.records;
	r->bad_version = c.bad_version;
	r->bad_payload = c.bad_payload;
	if (!mprof_collect_synced(&c) && r->parser.bytes) {
		r->nothing_synced = 1;
		mprof_collect_nothing(&c, r->nothing, sizeof(r->nothing));
	}
	c.prof.sym = sym;
	if (mprof_profile_analyse(&c.prof))
		st = MPROF_DECODE_NOMEM;
	else if (!o->no_output && report(o, out, &c.prof))
		st = ferror(out) ? MPROF_DECODE_WRITE : MPROF_DECODE_NOMEM;
	if (fflush(out) || ferror(out))
		st = st ? st : MPROF_DECODE_WRITE;
out:
	/* names point into the analysis, not the symbols */
	c.prof.sym = NULL;
	mprof_collect_free(&c);
	mprof_sym_free(sym);
	return st;
}
