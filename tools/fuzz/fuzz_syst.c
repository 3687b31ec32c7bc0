// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_syst.c - libFuzzer target for the SyS-T layer.  Each input goes
 * through every SyS-T front end:
 *  - as one message (mttd_syst_decode), with and without STP context;
 *  - as a plain SyS-T byte stream, whole and in pseudo-random chunks
 *    (each copied to a buffer of its own size): same result required;
 *  - as reference printer text, whole and in chunks: same result;
 *  - as a raw STP stream through the message layer into the SyS-T sink;
 *  - as an ftrace record (kallsyms and format files loaded).
 * A small collateral (catalog, short formats, masks, clients) is loaded
 * once, so catalog messages render.  Every decoded field is folded into a
 * hash; the message invariants (payload inside the message, text length)
 * are checked and any violation aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "fuzz_hash.h"

static const char collateral[] =
	"<syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">"
	"<syst:Client Name=\"g\"><syst:Guids><syst:Guid "
	"ID=\"{00000000-0000-0000-0000-000000000000}\" "
	"Mask=\"{00000000-0000-0000-0000-000000000000}\"/></syst:Guids>"
	"<syst:Modules><syst:Module ID=\"1\">m</syst:Module></syst:Modules>"
	"<syst:SourceFiles><syst:File ID=\"1\">f.c</syst:File>"
	"</syst:SourceFiles>"
	"<syst:Builds><syst:Build ID=\"0\" Mask=\"0\">b</syst:Build>"
	"</syst:Builds>"
	"<syst:Catalog32>"
	"<syst:Format ID=\"0x0\" Mask=\"0xF\" File=\"1\" Line=\"2\">"
	"<![CDATA[%d %s %lld %p %c %5.3f %x %*d %.*s %n %hhd %zu %lc]]>"
	"</syst:Format>"
	"<syst:Format ID=\"0x1\" Mask=\"0xF\"><![CDATA[%s%s%s%s]]></syst:Format>"
	"<syst:Format ID=\"0x2\" Mask=\"0xF\"><![CDATA[%-20.10s|%+#o|%e]]>"
	"</syst:Format>"
	"<syst:Format ID=\"0x3\" Mask=\"0xF\"><![CDATA[%999999999d%]]>"
	"</syst:Format>"
	"</syst:Catalog32>"
	"<syst:Catalog64><syst:Format ID=\"0\" Mask=\"0\">"
	"<![CDATA[%ld %jd %td %Lf %a %G]]></syst:Format></syst:Catalog64>"
	"<syst:Short32><syst:Format ID=\"0\" Mask=\"0xF000000\">s %d"
	"</syst:Format></syst:Short32>"
	"<syst:Short64><syst:Format ID=\"0\" Mask=\"0\">%llx %s"
	"</syst:Format></syst:Short64>"
	"<syst:Write><syst:Protocol ID=\"0\" Mask=\"0\">p</syst:Protocol>"
	"</syst:Write>"
	"</syst:Client></syst:Collateral>";

static const char kallsyms[] =
	"0000000000001000 T a\n0000000000002000 t b\n0000000000003000 W c\n";

static const char format[] =
	"name: ev\nID: 2\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char s[4];\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] d;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc u8[] r;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long st[2];\toffset:24;\tsize:16;\tsigned:0;\n"
	"\tfield:void * p;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:char tail[];\toffset:48;\tsize:0;\tsigned:0;\n";

/* loaded once: read-only afterwards */
static struct mttd_coll *coll;
static struct mttd_ftrace *ftr;

struct run {
	uint64_t h;
	struct mttd_syst *s;
};

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	struct run *r = ctx;
	char buf[160];
	size_t n;

	if (m->payload < m->raw || m->payload + m->payload_len >
	    m->raw + m->size || m->status >= MTTD_SYST_STATUS_COUNT ||
	    m->nargs > MTTD_SYST_MAX_ARGS || m->text_len > (256u << 10) ||
	    (m->text_len && !m->text))
		abort();
	fuzz_mix64(&r->h, m->offset);
	fuzz_mix64(&r->h, m->stp_ts);
	fuzz_mix64(&r->h, (uint64_t)m->master << 48 | (uint64_t)m->channel << 32 |
	      m->flags);
	fuzz_mix64(&r->h, m->size);
	fuzz_mix64(&r->h, m->payload_len);
	fuzz_mix64(&r->h, (uint64_t)m->header << 32 | (uint64_t)m->status << 8 |
	      m->severity);
	fuzz_mix64(&r->h, m->value);
	fuzz_mix64(&r->h, m->freq);
	fuzz_mix64(&r->h, m->ts);
	fuzz_mix64(&r->h, m->ts_stp);
	fuzz_mix(&r->h, m->guid, 16);
	fuzz_mix(&r->h, m->text, m->text_len);
	fuzz_mix64(&r->h, m->nargs);
	n = mttd_syst_location(m, buf, sizeof(buf));
	fuzz_mix(&r->h, buf, n);
	fuzz_mix(&r->h, mttd_syst_type_name(m->type, m->subtype, buf, sizeof(buf)),
	    strlen(buf));
	if (m->client)
		fuzz_mix(&r->h, m->client, strlen(m->client));
}

static void on_ev(void *ctx, const struct mttd_syst_event *e)
{
	struct run *r = ctx;

	fuzz_mix64(&r->h, e->offset);
	fuzz_mix64(&r->h, e->count);
	fuzz_mix64(&r->h, e->kind);
}

static struct mttd_syst *new_dec(struct run *r)
{
	struct mttd_syst_config c = {
		.fn = on_msg, .event = on_ev, .ctx = r, .coll = coll,
		.max_text = 4096,
	};

	r->h = 0xcbf29ce484222325ULL;
	r->s = mttd_syst_new(&c);
	if (!r->s)
		abort();
	return r->s;
}

static uint64_t next_chunk(uint64_t *seed, size_t left)
{
	size_t n;

	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	n = 1 + *seed % 97;
	return n > left ? left : n;
}

/* front end 0: plain stream, 1: text; chunked or whole */
static uint64_t front(const uint8_t *data, size_t size, int kind,
		      int chunked)
{
	struct run r;
	struct mttd_syst *s = new_dec(&r);
	struct mttd_syst_stream *st = kind ? NULL : mttd_syst_stream_new(s);
	struct mttd_syst_text *tx = kind ? mttd_syst_text_new(s) : NULL;
	uint64_t seed = size * 0x9e3779b97f4a7c15ULL + 7;
	size_t off = 0;

	if (!st && !tx)
		abort();
	while (off < size || (!chunked && !off && !size)) {
		size_t n = chunked ? next_chunk(&seed, size - off) : size;
		uint8_t *copy = malloc(n ? n : 1);

		if (!copy)
			abort();
		memcpy(copy, data + off, n);
		if (st)
			mttd_syst_stream_feed(st, copy, n);
		else
			mttd_syst_text_feed(tx, copy, n);
		free(copy);
		off += n;
		if (!n)
			break;
	}
	if (st) {
		mttd_syst_stream_finish(st);
		mttd_syst_stream_free(st);
	} else {
		mttd_syst_text_finish(tx);
		mttd_syst_text_free(tx);
	}
	fuzz_mix64(&r.h, mttd_syst_stats(s)->messages);
	mttd_syst_free(s);
	return r.h;
}

static void one_message(const uint8_t *data, size_t size)
{
	struct run r;
	struct mttd_syst *s = new_dec(&r);
	struct mttd_syst_src src = {
		.master = data[0], .channel = size, .stp_ts = size,
		.flags = MTTD_SYST_F_STP | MTTD_SYST_F_STP_TS,
	};
	uint8_t *copy = malloc(size);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	mttd_syst_decode(s, NULL, copy, size);
	mttd_syst_decode(s, &src, copy, size);
	free(copy);
	mttd_syst_free(s);
}

static void stp(const uint8_t *data, size_t size)
{
	struct run r;
	struct mttd_syst *s = new_dec(&r);
	struct mttd_msg_config mc = { .max_len = 256, .max_open = 4 };
	struct mttd_msgdec *m = mttd_msg_new(&mc);
	struct mttd_stp_config sc = { .fn = mttd_msg_stp_fn, .ctx = m };
	struct mttd_stp *d = mttd_stp_new(&sc);
	struct mttd_msg_sink sink;

	if (!m || !d)
		abort();
	mttd_syst_sink(s, &sink);
	mttd_msg_add_sink(m, &sink);
	mttd_stp_feed(d, data, size);
	mttd_stp_finish(d);
	mttd_stp_free(d);
	mttd_msg_free(m);
	mttd_syst_free(s);
}

static void ftrace(const uint8_t *data, size_t size)
{
	char out[512];
	uint8_t *copy = malloc(size);
	size_t n;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	n = mttd_ftrace_render(ftr, copy, size, out, sizeof(out));
	if (n >= sizeof(out) || strlen(out) != n)
		abort();
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!coll) {
		char err[256];

		coll = mttd_coll_new();
		ftr = mttd_ftrace_new();
		if (!coll || !ftr ||
		    mttd_coll_load_mem(coll, collateral, sizeof(collateral) - 1,
				       "fuzz", err, sizeof(err)) ||
		    mttd_ftrace_load_kallsyms_mem(ftr, kallsyms,
						  sizeof(kallsyms) - 1) ||
		    mttd_ftrace_add_format(ftr, "sys", format,
					   sizeof(format) - 1))
			abort();
	}
	if (size)
		one_message(data, size);
	if (front(data, size, 0, 0) != front(data, size, 0, 1))
		abort();
	if (front(data, size, 1, 0) != front(data, size, 1, 1))
		abort();
	stp(data, size);
	ftrace(data, size);
	return 0;
}
