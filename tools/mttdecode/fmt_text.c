// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_text.c - the human-readable printer.
 *
 * message:  <ts, 15 wide, "-" if none> m<master> c<channel> <len, 5 wide>
 *           "<data>", non-printable bytes escaped (\n \r \t \" \\ \xNN),
 *           then " (incomplete)" / " (truncated)" when so
 * packet:   @<offset> <OP> m<master> c<channel> [<value hex>] [marked]
 *           [ts=<ts>] [flow=<flow>] (flow: riscv-encap)
 * riscv-encap packet not decoded as STP:
 *           @<offset> ENCAP flow=<F> srcid=<S> [ts=<ts>] len=<bytes>
 *           [bits=<payload bits>] <payload hex>
 * SyS-T:    <ts, 15 wide, "-"> <source | m<M>/c<C> | -> <SEVERITY | ->
 *           <origin> <TYPE> <text> [[STATUS]] [(incomplete)] [(truncated)]
 *           ts is the STP timestamp, or for --input syst/systtext the
 *           SyS-T one; origin is the collateral client name, else the
 *           GUID, else <module>:<unit> (the collateral module name when
 *           known), "-" for SHORT and compact BUILD
 * loss:     !! loss: ...        stream notes: -- ...
 * Sync is announced the first time and after a loss of sync; VERSION and
 * FREQ when they change.
 */
#include <string.h>

#include "cli.h"
#include "esc.h"

/*
 * Each byte's escaped form: up to 4 characters, its length in [7].  The
 * loop stores all 4 characters and advances by the length, so there is
 * no branch per byte (most of a binary payload is escaped).
 */
#define PLAIN(c)	((c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\')
#define SHORT(c)	((c) == '\n' ? 'n' : (c) == '\r' ? 'r' : (c) == '\t' ? 't' : \
			 (c) == '"' ? '"' : (c) == '\\' ? '\\' : 0)
#define HX(v)		((v) < 10 ? '0' + (v) : 'a' + (v) - 10)
#define E1(c) { \
	PLAIN(c) ? (c) : '\\', \
	PLAIN(c) ? 0 : SHORT(c) ? SHORT(c) : 'x', \
	PLAIN(c) || SHORT(c) ? 0 : HX((c) >> 4), \
	PLAIN(c) || SHORT(c) ? 0 : HX((c) & 0xf), \
	0, 0, 0, PLAIN(c) ? 1 : SHORT(c) ? 2 : 4 }
#define E4(c)	E1(c), E1((c) + 1), E1((c) + 2), E1((c) + 3)
#define E16(c)	E4(c), E4((c) + 4), E4((c) + 8), E4((c) + 12)
#define E64(c)	E16(c), E16((c) + 16), E16((c) + 32), E16((c) + 48)
static const char esc_tab[256][8] = { E64(0), E64(64), E64(128), E64(192) };

/* n bytes escaped: at most 4 characters each, and b must have room for
 * 4 * n */
static char *put_escaped(char *b, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *t = esc_tab[p[i]];

		memcpy(b, t, 4);
		b += t[7];
	}
	return b;
}

static void escaped(struct out *o, const uint8_t *p, size_t n)
{
	while (n) {
		size_t k = n < OUT_BUF / 8 ? n : OUT_BUF / 8;

		out_end(o, put_escaped(out_room(o, 4 * k), p, k));
		p += k;
		n -= k;
	}
}

static void chan(struct out *o, unsigned int master, unsigned int channel)
{
	out_str(o, " m");
	out_u64(o, master);
	out_str(o, " c");
	out_u64(o, channel);
}

static void text_packet(struct app *a, const struct mttd_stp_event *e)
{
	struct out *o = &a->out;

	out_char(o, '@');
	out_u64(o, e->nib >> 1);
	out_char(o, ' ');
	out_str(o, mttd_op_name(e->op));
	chan(o, e->master, e->channel);
	if (packet_has_value(e)) {
		out_char(o, ' ');
		if (e->op == MTTD_OP_TIME || e->op == MTTD_OP_TIME_TS)
			out_hexn(o, e->aux, 2);
		out_hexn(o, e->value, e->nibbles);
	}
	if (e->flags & MTTD_PKT_MARKED)
		out_str(o, " marked");
	if (e->flags & MTTD_PKT_TS) {
		out_str(o, " ts=");
		out_u64(o, e->ts);
	}
	if (e->op == MTTD_OP_ASYNC && e->value) {
		out_str(o, " skipped=");
		out_u64(o, e->value);
	}
	if (e->flags & MTTD_PKT_FLOW) {
		out_str(o, " flow=");
		out_u64(o, e->aux);
	}
	out_char(o, '\n');
}

static void text_encap(struct app *a, const struct mttd_rv_packet *p,
		       uint64_t offset)
{
	struct out *o = &a->out;

	out_char(o, '@');
	out_u64(o, offset);
	out_str(o, " ENCAP flow=");
	out_u64(o, p->flow);
	out_str(o, " srcid=");
	out_u64(o, p->srcid);
	if (p->extend) {
		out_str(o, " ts=");
		out_u64(o, p->ts);
	}
	out_str(o, " len=");
	out_u64(o, (p->payload_bits + 7) / 8);
	if (p->payload_bits % 8) {
		out_str(o, " bits=");
		out_u64(o, p->payload_bits);
	}
	out_char(o, ' ');
	out_hexbytes(o, p->payload, (p->payload_bits + 7) / 8);
	out_char(o, '\n');
}

static void text_desync(struct app *a, const struct mttd_stp_event *e)
{
	struct out *o = &a->out;

	out_str(o, "!! desync at offset ");
	out_u64(o, e->nib >> 1);
	out_str(o, ": ");
	out_str(o, mttd_err_name(e->op));
	out_char(o, '\n');
}

static void text_msg(struct app *a, const struct mttd_msg *m)
{
	struct out *o = &a->out;
	/* the line up to the data: 15 + 2+5 + 2+5 + 1+20 + 3 columns */
	char *b = out_room(o, 64);

	if (m->flags & MTTD_MSG_HAS_TS)
		b = put_u64_w(b, m->ts, 15);
	else
		b = put_lit(b, "              -");
	b = put_lit(b, " m");
	b = put_u64(b, m->master);
	b = put_lit(b, " c");
	b = put_u64(b, m->channel);
	*b++ = ' ';
	b = put_u64_w(b, m->len, 5);
	b = put_lit(b, "  \"");
	if (m->len <= OUT_BUF / 8 && b + 4 * m->len + 32 <= o->buf + OUT_BUF) {
		b = put_escaped(b, m->data, m->len);
	} else {
		out_end(o, b);
		escaped(o, m->data, m->len);
		b = out_room(o, 32);
	}
	*b++ = '"';
	if (!(m->flags & MTTD_MSG_COMPLETE))
		b = put_lit(b, " (incomplete)");
	if (m->flags & MTTD_MSG_TRUNCATED)
		b = put_lit(b, " (truncated)");
	*b++ = '\n';
	out_end(o, b);
}

void loss_text(struct out *o, const struct mttd_msg_event *e)
{
	switch (e->reason) {
	case MTTD_LOSS_GERR:
		out_u64(o, e->value);
		out_str(o, e->value >= 0xff ? "+ packets" :
			e->value == 1 ? " packet" : " packets");
		out_str(o, " (GERR) at offset ");
		out_u64(o, e->offset);
		out_char(o, ',');
		chan(o, e->master, e->channel);
		break;
	case MTTD_LOSS_MERR:
		out_str(o, "master error 0x");
		out_hexn(o, e->value, 2);
		out_str(o, " (MERR) at offset ");
		out_u64(o, e->offset);
		out_char(o, ',');
		chan(o, e->master, e->channel);
		break;
	case MTTD_LOSS_DESYNC:
		out_str(o, "desync at offset ");
		out_u64(o, e->offset);
		out_str(o, " (");
		out_str(o, mttd_err_name(e->err));
		out_str(o, "), ");
		out_u64(o, e->value);
		out_str(o, " bytes skipped");
		break;
	default:
		out_str(o, "stream truncated at offset ");
		out_u64(o, e->offset);
		out_str(o, " (");
		out_u64(o, e->value);
		out_str(o, " bytes of an incomplete packet)");
		break;
	}
}

static void loss(struct out *o, const struct mttd_msg_event *e)
{
	out_str(o, "!! loss: ");
	loss_text(o, e);
	out_char(o, '\n');
}

static const char *ts_format(uint64_t v)
{
	switch (v) {
	case 2: return "natural binary delta timestamps";
	case 3: return "natural binary timestamps";
	case 4: return "Gray code timestamps";
	default: return "unsupported";
	}
}

static void text_event(struct app *a, const struct mttd_msg_event *e)
{
	struct out *o = &a->out;
	struct text_state *s = &a->ts;

	switch (e->kind) {
	case MTTD_ME_LOSS:
		loss(o, e);
		return;
	case MTTD_ME_SYNC:
		if (!e->first)
			return;
		out_str(o, "-- sync at offset ");
		out_u64(o, e->offset);
		if (e->value) {
			out_str(o, ", ");
			out_u64(o, e->value);
			out_str(o, " bytes skipped");
		}
		break;
	case MTTD_ME_VERSION:
		if (s->have_version && s->version == e->value)
			return;
		s->have_version = 1;
		s->version = (unsigned int)e->value;
		out_str(o, "-- version ");
		out_u64(o, e->value);
		out_str(o, " (");
		out_str(o, ts_format(e->value));
		out_str(o, ") at offset ");
		out_u64(o, e->offset);
		break;
	case MTTD_ME_FREQ:
		if (s->have_freq && s->freq == e->value)
			return;
		s->have_freq = 1;
		s->freq = e->value;
		out_str(o, "-- timestamp frequency ");
		out_u64(o, e->value);
		out_str(o, " Hz at offset ");
		out_u64(o, e->offset);
		break;
	default:
		return;
	}
	out_char(o, '\n');
}

/* the line as separate writes: for lines longer than text_syst() puts
 * in one go (and every line with -DMTTD_LINE_BY_FIELD, which is how
 * tests/host/linefmt.t compares the two) */
static void text_syst_fields(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	struct out *o = &a->out;
	char *b = out_room(o, 64);

	if (m->flags & MTTD_SYST_F_STP_TS)
		b = put_u64_w(b, m->stp_ts, 15);
	else if (!(m->flags & MTTD_SYST_F_STP) && (m->flags & MTTD_SYST_F_TS))
		b = put_u64_w(b, m->ts, 15);
	else
		b = put_lit(b, "              -");
	*b++ = ' ';
	if (v->source) {
		out_end(o, b);
		esc_text(o, v->source, strlen(v->source), 0);
	} else if (m->flags & MTTD_SYST_F_STP) {
		*b++ = 'm';
		b = put_u64(b, m->master);
		b = put_lit(b, "/c");
		b = put_u64(b, m->channel);
		out_end(o, b);
	} else {
		*b++ = '-';
		out_end(o, b);
	}
	out_char(o, ' ');
	out_str(o, (m->flags & MTTD_SYST_F_SEV) ?
		mttd_syst_severity_name(m->severity) : "-");
	out_char(o, ' ');
	if (m->client) {
		esc_text(o, m->client, strlen(m->client), 0);
	} else if (m->flags & MTTD_SYST_F_GUID) {
		out_mem(o, sview_guid(a, m), MTTD_GUID_STR - 1);
	} else if (m->flags & MTTD_SYST_F_SEV) {
		if (m->module)
			esc_text(o, m->module, strlen(m->module), 0);
		else
			out_u64(o, m->origin);
		out_char(o, ':');
		out_u64(o, m->unit);
	} else {
		out_char(o, '-');
	}
	out_char(o, ' ');
	out_mem(o, v->type, v->type_len);
	out_char(o, ' ');
	esc_text(o, v->text, v->text_len, 0);
	if (m->status != MTTD_SYST_OK) {
		out_str(o, " [");
		out_str(o, mttd_syst_status_name(m->status));
		out_char(o, ']');
	}
	if (m->flags & MTTD_SYST_F_INCOMPLETE)
		out_str(o, " (incomplete)");
	if (m->flags & MTTD_SYST_F_TRUNCATED)
		out_str(o, " (truncated)");
	out_char(o, '\n');
}

/* at most 32 bytes from s, whose 32 bytes are readable, to b, which
 * has room for 32: constant-size copies, no call */
static inline char *put_short(char *b, const char *s, size_t n)
{
	if (n <= 32) {
		memcpy(b, s, 32);
		return b + n;
	}
	return put_mem(b, s, n);
}

/* a name, escaped, from the cache when it is there (room: 4 * its
 * length, and 32) */
static inline char *put_name(char *b, const struct name_cache *c,
			     const char *s)
{
	if (c)
		return put_short(b, c->str, c->len);
	return put_esc_text(b, s, strlen(s));
}

/* the 8 digits of v < 10^8, leading zeros included, ending at e: two
 * independent halves, 32-bit divisions by constants */
static inline void put_dec8_back(char *e, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	memcpy(e - 2, out_digits2 + 2 * (lo % 100), 2);
	memcpy(e - 4, out_digits2 + 2 * (lo / 100), 2);
	memcpy(e - 6, out_digits2 + 2 * (hi % 100), 2);
	memcpy(e - 8, out_digits2 + 2 * (hi / 100), 2);
}

/* v in decimal ending at e, written backwards; returns the start */
static inline char *put_dec_back(char *e, uint64_t v)
{
	uint32_t w;

	while (v >= 100000000) {
		put_dec8_back(e, (uint32_t)(v % 100000000));
		e -= 8;
		v /= 100000000;
	}
	w = (uint32_t)v;
	while (w >= 100) {
		e -= 2;
		memcpy(e, out_digits2 + 2 * (w % 100), 2);
		w /= 100;
	}
	if (w >= 10) {
		e -= 2;
		memcpy(e, out_digits2 + 2 * w, 2);
	} else {
		*--e = (char)('0' + w);
	}
	return e;
}

/* small decimals (master, channel, unit) straight to p; room for 20 */
static inline char *put_u64_s(char *p, uint64_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, out_digits2 + 2 * v, 2);
		return p + 2;
	}
	return put_u64(p, v);
}

/* the timestamp column: right-aligned in 15, written in place (no
 * copy through a temporary: a store and a wider load of the same bytes
 * stall); room for 20 and 16 */
static inline char *put_ts(char *p, uint64_t v)
{
	if (v < 1000000000000000ull) {
		memset(p, ' ', 16);
		put_dec_back(p + 15, v);
		return p + 15;
	}
	return put_u64(p, v);
}

/*
 * What a line holds besides the source, origin, type and text: the
 * timestamp (20), four blanks, m<65535>/c<65535> (13), the severity (up
 * to 7), a GUID (38) or <20 digits>:<20 digits>, " [" status "]" (up to
 * 21), " (incomplete)", " (truncated)", the newline; and 32 bytes that
 * put_short() may store past the end.
 */
#define LINE_FIXED 200

#ifdef MTTD_LINE_BY_FIELD
#define LINE_BY_FIELD 1
#else
#define LINE_BY_FIELD 0
#endif

/* the severity's name escaped (8: "-"), from the app's table: no call
 * and no lookup by address (NULL if it is too long, as name_esc()) */
static inline const struct name_cache *sev_name(struct app *a,
						unsigned int i)
{
	struct name_cache *c = &a->sev_names[i];

	if (c->key)
		return c;
	return name_esc_fill(c, i < 8 ? mttd_syst_severity_name(i) : "-");
}

/* The line in one pass: its longest length reserved once, each field
 * written at a pointer; the names from the cache already escaped. */
static void text_syst(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	const struct name_cache *src = NULL, *org = NULL, *sev;
	struct out *o = &a->out;
	const char *orgs = NULL;
	size_t need = LINE_FIXED + v->type_len + 4 * v->text_len;
	char *b;

	if (v->source) {
		src = name_esc(a, NC_SOURCE, v->source);
		need += src ? src->len : 4 * strlen(v->source);
	}
	if (m->client)
		orgs = m->client;
	else if (!(m->flags & MTTD_SYST_F_GUID) &&
		 (m->flags & MTTD_SYST_F_SEV) && m->module)
		orgs = m->module;
	if (orgs) {
		org = name_esc(a, NC_ORIGIN, orgs);
		need += org ? org->len : 4 * strlen(orgs);
	}
	sev = sev_name(a, (m->flags & MTTD_SYST_F_SEV) ? m->severity & 7u : 8);
	if (LINE_BY_FIELD || need > OUT_BUF / 2 || !sev) {
		text_syst_fields(a, v);
		return;
	}
	b = out_room(o, need);
	if (m->flags & MTTD_SYST_F_STP_TS)
		b = put_ts(b, m->stp_ts);
	else if (!(m->flags & MTTD_SYST_F_STP) && (m->flags & MTTD_SYST_F_TS))
		b = put_ts(b, m->ts);
	else
		b = put_lit(b, "              -");
	*b++ = ' ';
	if (v->source) {
		b = put_name(b, src, v->source);
	} else if (m->flags & MTTD_SYST_F_STP) {
		*b++ = 'm';
		b = put_u64_s(b, m->master);
		b = put_lit(b, "/c");
		b = put_u64_s(b, m->channel);
	} else {
		*b++ = '-';
	}
	*b++ = ' ';
	b = put_short(b, sev->str, sev->len);
	*b++ = ' ';
	if (orgs) {
		b = put_name(b, org, orgs);
		if (!m->client) {
			*b++ = ':';
			b = put_u64_s(b, m->unit);
		}
	} else if (m->flags & MTTD_SYST_F_GUID) {
		b = put_mem(b, sview_guid(a, m), MTTD_GUID_STR - 1);
	} else if (m->flags & MTTD_SYST_F_SEV) {
		b = put_u64_s(b, m->origin);
		*b++ = ':';
		b = put_u64_s(b, m->unit);
	} else {
		*b++ = '-';
	}
	*b++ = ' ';
	b = put_short(b, v->type, v->type_len);
	*b++ = ' ';
	if (v->plain)
		b = put_plain(b, v->text, v->text_len);
	else
		b = put_esc_text(b, v->text, v->text_len);
	if (m->status != MTTD_SYST_OK) {
		const char *st = mttd_syst_status_name(m->status);

		b = put_lit(b, " [");
		b = put_mem(b, st, strlen(st));
		*b++ = ']';
	}
	if (m->flags & MTTD_SYST_F_INCOMPLETE)
		b = put_lit(b, " (incomplete)");
	if (m->flags & MTTD_SYST_F_TRUNCATED)
		b = put_lit(b, " (truncated)");
	*b++ = '\n';
	out_end(o, b);
}

static void text_syst_event(struct app *a, const struct mttd_syst_event *e)
{
	struct out *o = &a->out;

	if (e->kind == MTTD_SYST_EV_RESYNC) {
		out_str(o, "!! loss: SyS-T framing lost at offset ");
		out_u64(o, e->offset);
		out_str(o, ", ");
		out_u64(o, e->count);
		out_str(o, " bytes skipped\n");
	} else {
		out_str(o, "!! bad SYS-T RAW DATA line ");
		out_u64(o, e->count);
		out_str(o, " at offset ");
		out_u64(o, e->offset);
		out_char(o, '\n');
	}
}

const struct printer text_printer = {
	.syst = text_syst,
	.syst_lean = 1,
	.syst_event = text_syst_event,
	.packet = text_packet,
	.desync = text_desync,
	.encap = text_encap,
	.msg = text_msg,
	.event = text_event,
	.mtt = mtt_text,
	.mtt_skip = mtt_text_skip,
};
