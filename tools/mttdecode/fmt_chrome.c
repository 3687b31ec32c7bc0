// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_chrome.c - the Chrome Trace Event Format (JSON object with a
 * "traceEvents" array), which ui.perfetto.dev and chrome://tracing open.
 *
 *  - a track per source: pid = STP master, tid = master << 16 | channel;
 *    "process_name" ("master <M>") and "thread_name" (the policy node, or
 *    "m<M> c<C>") metadata come before its first event.  Without STP
 *    (--input syst/systtext) pid 0 "SyS-T" and one thread per GUID, or
 *    per pseudo-GUID (origin), named after the collateral client, the
 *    GUID or "origin <module>:<unit>";
 *  - every message is an instant event ("ph":"i", thread scope): name =
 *    the text (cut at 120 bytes), cat = the type, args = status,
 *    severity, type, text, guid, location, value;
 *  - SHORT32/SHORT64 values and CATALOG numeric arguments are also
 *    counter events ("ph":"C") named "<track> SHORT32" / "<track>
 *    catalog 0x<id>", args {"value": v} / {"arg0": .., "arg1": ..};
 *  - MTT frames are instant events on pid 65535 "MTT", one thread per
 *    component; a named numeric value (hint or dictionary) is also a
 *    counter event "<component> <name>", args {"value": v} (vectors:
 *    {"0": v0, "1": v1, ...}), so each named value is a counter track;
 *  - slices: a SyS-T STRING:ENTER opens one ("ph":"B", named after its
 *    text) on its track and STRING:EXIT closes it ("E"); an MTT frame of
 *    level API_ENTRY opens one and API_RETURN closes it ("B"/"E", named
 *    after the hint, else the value) on the track of its component and
 *    thread (context id), "<component> ctx <id>", so that each thread's
 *    calls nest;
 *  - plain STP messages (without --syst) are instant events named after
 *    their data; losses are global instant events "loss: <reason>".
 * --from/--to keep the events whose time (ns, below) is in [from, to];
 * --wall-clock adds the session's CLOCK_REALTIME - CLOCK_MONOTONIC, so
 * that "ts" is wall-clock time (us since the epoch).
 * Times are in microseconds (3 decimals): the SyS-T timestamp moved to
 * the STP clock when a CLOCK sync allows, else the STP timestamp, both
 * converted with the STP FREQ (1 GHz until a FREQ packet); for plain
 * SyS-T input the SyS-T timestamp (CLOCK frequency, else taken as ns);
 * an event without a time gets the previous event's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "esc.h"

#define NAME_MAX_BYTES 120

static void sep(struct app *a)
{
	out_str(&a->out, a->chrome->events++ ? ",\n" : "\n");
}

static void chrome_begin(struct app *a)
{
	out_str(&a->out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
}

static void chrome_end(struct app *a)
{
	out_str(&a->out, "\n]}\n");
}

/* is ns inside --from/--to?  It becomes the last time either way */
static int in_window(struct app *a, uint64_t ns)
{
	a->chrome->last_ns = ns;
	return (!a->o.has_from || ns >= a->o.from_ns) &&
	       (!a->o.has_to || ns <= a->o.to_ns);
}

static void put_ts(struct app *a, uint64_t ns)
{
	char b[8];
	unsigned int r;

	a->chrome->last_ns = ns;
	if (a->o.wall_clock)
		ns = (uint64_t)((int64_t)ns + a->o.rt_offset_ns);
	r = (unsigned int)(ns % 1000);
	out_str(&a->out, ",\"ts\":");
	out_u64(&a->out, ns / 1000);
	snprintf(b, sizeof(b), ".%03u", r);
	out_str(&a->out, b);
}

/* a JSON string of at most max bytes, not cutting a UTF-8 sequence */
static void name_str(struct out *o, const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && k < NAME_MAX_BYTES) {
		const uint8_t *p = (const uint8_t *)s + k;
		unsigned int u = *p >= 0x80 ? utf8_seq(p, n - k) : 1;

		if (!u)
			u = 1;
		if (k + u > NAME_MAX_BYTES)
			break;
		k += u;
	}
	out_char(o, '"');
	esc_json(o, s, k);
	out_char(o, '"');
}

static void meta(struct app *a, const char *what, uint64_t pid, uint64_t tid,
		 const char *name, size_t n)
{
	struct out *o = &a->out;

	sep(a);
	out_str(o, "{\"name\":\"");
	out_str(o, what);
	out_str(o, "\",\"ph\":\"M\",\"pid\":");
	out_u64(o, pid);
	out_str(o, ",\"tid\":");
	out_u64(o, tid);
	out_str(o, ",\"args\":{\"name\":");
	name_str(o, name, n);
	out_str(o, "}}");
}

static void process(struct app *a, unsigned int pid, const char *name)
{
	uint8_t *seen = &a->chrome->seen_pid[pid >> 3];

	if (*seen & (1u << (pid & 7)))
		return;
	*seen |= (uint8_t)(1u << (pid & 7));
	meta(a, "process_name", pid, 0, name, strlen(name));
}

/* the track of key; *fresh set when it is new */
static uint32_t track(struct app *a, const uint8_t key[16], uint32_t tid,
		      int *fresh)
{
	struct chrome_state *c = a->chrome;
	uint32_t h = 0;
	unsigned int i;

	for (i = 0; i < 16; i++)
		h = (h ^ key[i]) * 0x01000193u;
	*fresh = 0;
	for (i = 0; i < 16; i++) {
		struct chrome_track *t = &c->track[(h + i) % CHROME_TRACKS];

		if (t->used && !memcmp(t->key, key, 16))
			return t->tid;
		if (!t->used) {
			t->used = 1;
			memcpy(t->key, key, 16);
			t->tid = tid ? tid : ++c->next_tid;
			*fresh = 1;
			return t->tid;
		}
	}
	*fresh = 1;	/* table full: metadata again, harmless */
	return tid ? tid : 0;
}

struct where {
	uint64_t pid, tid;
	char name[160];
};

static void stp_track(struct app *a, unsigned int master, unsigned int channel,
		      const char *source, struct where *w)
{
	uint8_t key[16] = { 1 };
	char pname[32];
	int fresh;

	key[1] = (uint8_t)(master >> 8);
	key[2] = (uint8_t)master;
	key[3] = (uint8_t)(channel >> 8);
	key[4] = (uint8_t)channel;
	w->pid = master;
	w->tid = (uint64_t)master << 16 | channel;
	if (source)
		snprintf(w->name, sizeof(w->name), "%s", source);
	else
		snprintf(w->name, sizeof(w->name), "m%u c%u", master, channel);
	snprintf(pname, sizeof(pname), "master %u", master);
	process(a, master, pname);
	track(a, key, (uint32_t)w->tid + 1, &fresh);
	if (fresh)
		meta(a, "thread_name", w->pid, w->tid, w->name,
		     strlen(w->name));
}

static void syst_track(struct app *a, const struct mttd_syst_msg *m,
		       struct where *w)
{
	uint8_t key[16];
	int fresh;

	mttd_syst_key_guid(m, key);
	w->pid = 0;
	if (m->client)
		snprintf(w->name, sizeof(w->name), "%s", m->client);
	else if (m->flags & MTTD_SYST_F_GUID)
		mttd_syst_guid_str(m->guid, w->name);
	else
		snprintf(w->name, sizeof(w->name), "origin %u:%u", m->origin,
			 m->unit);
	process(a, 0, "SyS-T");
	w->tid = track(a, key, 0, &fresh);
	if (fresh)
		meta(a, "thread_name", 0, w->tid, w->name, strlen(w->name));
}

uint64_t syst_time_ns(const struct app *a, const struct mttd_syst_msg *m,
		      uint64_t last)
{
	if (m->flags & MTTD_SYST_F_TS_STP)
		return ticks_ns(m->ts_stp, a->stp_hz);
	if (m->flags & MTTD_SYST_F_STP_TS)
		return ticks_ns(m->stp_ts, a->stp_hz);
	if (!(m->flags & MTTD_SYST_F_STP) && (m->flags & MTTD_SYST_F_TS))
		return ticks_ns(m->ts, a->syst_hz);
	return last;
}

uint64_t mtt_time_ns(const struct app *a, const struct mview *v,
		     uint64_t last)
{
	if (v->has_stp_ts)
		return ticks_ns(v->stp_ts, a->stp_hz);
	if (v->f->flags & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV))
		return v->f->ts;
	return last;
}

static void head(struct app *a, const char *ph, const struct where *w,
		 uint64_t ns)
{
	struct out *o = &a->out;

	out_str(o, "\",\"ph\":\"");
	out_str(o, ph);
	out_str(o, *ph == 'i' ? "\",\"s\":\"t\"" : "\"");
	put_ts(a, ns);
	out_str(o, ",\"pid\":");
	out_u64(o, w->pid);
	out_str(o, ",\"tid\":");
	out_u64(o, w->tid);
}

static void arg_value(struct out *o, const struct mttd_syst_arg *g)
{
	char b[40];

	switch (g->kind) {
	case MTTD_SYST_ARG_INT:
		snprintf(b, sizeof(b), "%lld", (long long)g->v.i);
		break;
	case MTTD_SYST_ARG_DOUBLE:
		if (!isfinite(g->v.d)) {
			out_str(o, "null");
			return;
		}
		snprintf(b, sizeof(b), "%.17g", g->v.d);
		break;
	default:
		snprintf(b, sizeof(b), "%llu", (unsigned long long)g->v.u);
		break;
	}
	out_str(o, b);
}

static void counters(struct app *a, const struct sview *v,
		     const struct where *w, uint64_t ns)
{
	const struct mttd_syst_msg *m = v->m;
	struct out *o = &a->out;
	char id[24];
	unsigned int i;

	if (!(m->flags & MTTD_SYST_F_VALUE))
		return;
	if (m->type == MTTD_SYST_SHORT32 || m->type == MTTD_SYST_SHORT64) {
		sep(a);
		out_str(o, "{\"name\":\"");
		esc_json(o, w->name, strlen(w->name));
		out_char(o, ' ');
		out_str(o, v->type);
		head(a, "C", w, ns);
		out_str(o, ",\"args\":{\"value\":");
		out_u64(o, m->value);
		out_str(o, "}}");
	} else if (m->type == MTTD_SYST_CATALOG && m->nargs) {
		sep(a);
		out_str(o, "{\"name\":\"");
		esc_json(o, w->name, strlen(w->name));
		snprintf(id, sizeof(id), " catalog 0x%llx",
			 (unsigned long long)m->value);
		out_str(o, id);
		head(a, "C", w, ns);
		out_str(o, ",\"args\":{");
		for (i = 0; i < m->nargs; i++) {
			out_str(o, i ? ",\"arg" : "\"arg");
			out_u64(o, i);
			out_str(o, "\":");
			arg_value(o, &m->args[i]);
		}
		out_str(o, "}}");
	}
}

static void chrome_syst(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	struct out *o = &a->out;
	struct where w;
	uint64_t ns = syst_time_ns(a, m, a->chrome->last_ns);
	const char *ph = "i";

	if (!in_window(a, ns))
		return;
	if (m->type == MTTD_SYST_STRING && m->status == MTTD_SYST_OK &&
	    m->subtype == MTTD_SYST_STRING_FUNCTIONENTER)
		ph = "B";
	else if (m->type == MTTD_SYST_STRING && m->status == MTTD_SYST_OK &&
		 m->subtype == MTTD_SYST_STRING_FUNCTIONEXIT)
		ph = "E";
	if (m->flags & MTTD_SYST_F_STP)
		stp_track(a, m->master, m->channel, v->source, &w);
	else
		syst_track(a, m, &w);
	sep(a);
	out_str(o, "{\"name\":");
	if (v->text_len)
		name_str(o, v->text, v->text_len);
	else
		json_str(o, v->type);
	out_str(o, ",\"cat\":\"");
	out_str(o, v->type);
	head(a, ph, &w, ns);
	out_str(o, ",\"args\":{\"status\":\"");
	out_str(o, mttd_syst_status_name(m->status));
	out_str(o, "\",\"type\":\"");
	out_str(o, v->type);
	out_str(o, "\",\"severity\":");
	json_str(o, (m->flags & MTTD_SYST_F_SEV) ?
		 mttd_syst_severity_name(m->severity) : NULL);
	out_str(o, ",\"text\":\"");
	esc_json(o, v->text, v->text_len);
	out_str(o, "\",\"guid\":");
	json_str(o, v->guid[0] ? v->guid : NULL);
	out_str(o, ",\"location\":");
	json_str(o, v->loc[0] ? v->loc : NULL);
	if (m->flags & MTTD_SYST_F_VALUE) {
		out_str(o, ",\"value\":");
		out_u64(o, m->value);
	}
	out_str(o, "}}");
	counters(a, v, &w, ns);
}

static void chrome_msg(struct app *a, const struct mttd_msg *m)
{
	struct out *o = &a->out;
	struct where w;
	uint64_t ns = (m->flags & MTTD_MSG_HAS_TS) ? ticks_ns(m->ts, a->stp_hz) :
		      a->chrome->last_ns;

	if (!in_window(a, ns))
		return;
	stp_track(a, m->master, m->channel, a->policy ?
		  mttd_policy_lookup(a->policy, m->master, m->channel) : NULL,
		  &w);
	sep(a);
	out_str(o, "{\"name\":");
	name_str(o, (const char *)m->data, m->len);
	out_str(o, ",\"cat\":\"msg");
	head(a, "i", &w, ns);
	out_str(o, ",\"args\":{\"len\":");
	out_u64(o, m->len);
	out_str(o, (m->flags & MTTD_MSG_COMPLETE) ? ",\"complete\":true}}" :
		",\"complete\":false}}");
}

static void loss(struct app *a, const char *reason, uint64_t offset,
		 uint64_t count)
{
	struct out *o = &a->out;

	if (!in_window(a, a->chrome->last_ns))
		return;
	sep(a);
	out_str(o, "{\"name\":\"loss: ");
	out_str(o, reason);
	out_str(o, "\",\"ph\":\"i\",\"s\":\"g\"");
	put_ts(a, a->chrome->last_ns);
	out_str(o, ",\"pid\":0,\"tid\":0,\"args\":{\"offset\":");
	out_u64(o, offset);
	out_str(o, ",\"count\":");
	out_u64(o, count);
	out_str(o, "}}");
}

static void chrome_event(struct app *a, const struct mttd_msg_event *e)
{
	if (e->kind == MTTD_ME_LOSS)
		loss(a, mttd_loss_name(e->reason), e->offset, e->value);
}

static void chrome_syst_event(struct app *a, const struct mttd_syst_event *e)
{
	loss(a, e->kind == MTTD_SYST_EV_RESYNC ? "framing" : "badline",
	     e->offset, e->count);
}

static void chrome_packet(struct app *a, const struct mttd_stp_event *e)
{
	(void)a;
	(void)e;
}

/* riscv-encap packets not decoded as STP: not on the timeline */
static void chrome_encap(struct app *a, const struct mttd_rv_packet *p,
			 uint64_t offset)
{
	(void)a;
	(void)p;
	(void)offset;
}

/* MTT: pid 65535 "MTT", one thread per component; with slice, one per
 * component and context id (the slices' "<component> ctx <id>") */
static void mtt_track(struct app *a, const struct mview *v, int slice,
		      struct where *w)
{
	uint8_t key[16] = { 2 };
	uint32_t id = v->f->comp, ctx = v->f->ctx;
	int fresh;

	key[1] = (uint8_t)(id >> 24);
	key[2] = (uint8_t)(id >> 16);
	key[3] = (uint8_t)(id >> 8);
	key[4] = (uint8_t)id;
	if (slice) {
		key[0] = 3;
		key[5] = (uint8_t)(ctx >> 24);
		key[6] = (uint8_t)(ctx >> 16);
		key[7] = (uint8_t)(ctx >> 8);
		key[8] = (uint8_t)ctx;
	}
	w->pid = 65535;
	if (v->comp)
		snprintf(w->name, sizeof(w->name), "%s", v->comp);
	else
		snprintf(w->name, sizeof(w->name), "comp:0x%08x", id);
	if (slice)
		snprintf(w->name + strlen(w->name),
			 sizeof(w->name) - strlen(w->name), " ctx %u", ctx);
	process(a, 65535, "MTT");
	w->tid = track(a, key, 0, &fresh);
	if (fresh)
		meta(a, "thread_name", w->pid, w->tid, w->name,
		     strlen(w->name));
}

/* a named numeric value: a counter track "<component> <name>" */
static void mtt_counter(struct app *a, const struct mview *v,
			const struct where *w, uint64_t ns)
{
	const struct mttd_mtt_frame *f = v->f;
	size_t i, n = mttd_mtt_count(f);
	struct out *o = &a->out;
	char b[40];
	double d;

	if (!v->name || !n || !mttd_mtt_number(f, 0, &d))
		return;
	if (n > 64)
		n = 64;
	sep(a);
	out_str(o, "{\"name\":\"");
	esc_json(o, w->name, strlen(w->name));
	out_char(o, ' ');
	esc_json(o, v->name, strlen(v->name));
	head(a, "C", w, ns);
	out_str(o, ",\"args\":{");
	for (i = 0; i < n; i++) {
		mttd_mtt_number(f, i, &d);
		if (n == 1)
			out_str(o, "\"value\":");
		else
			snprintf(b, sizeof(b), "%s\"%zu\":", i ? "," : "", i);
		if (n > 1)
			out_str(o, b);
		if (isfinite(d)) {
			snprintf(b, sizeof(b), "%.17g", d);
			out_str(o, b);
		} else {
			out_str(o, "null");
		}
	}
	out_str(o, "}}");
}

static void chrome_mtt(struct app *a, const struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;
	struct out *o = &a->out;
	struct where w;
	const char *ph = "i";
	uint64_t ns;

	if (f->cmd == MTT_FRAME_CMD_META)
		return;		/* named the track */
	ns = mtt_time_ns(a, v, a->chrome->last_ns);
	if (!in_window(a, ns))
		return;
	if ((f->flags & MTT_FRAME_F_LEVEL) && f->level == MTT_API_ENTRY)
		ph = "B";
	else if ((f->flags & MTT_FRAME_F_LEVEL) && f->level == MTT_API_RETURN)
		ph = "E";
	mtt_track(a, v, *ph != 'i', &w);
	sep(a);
	out_str(o, "{\"name\":\"");
	if (v->name)
		esc_json(o, v->name, strlen(v->name));
	if (v->name && *ph == 'i')
		out_str(o, " = ");
	if (!v->name || *ph == 'i')
		esc_json(o, v->value, v->value_len < NAME_MAX_BYTES ?
			 v->value_len : NAME_MAX_BYTES);
	out_str(o, "\",\"cat\":\"mtt");
	head(a, ph, &w, ns);
	out_str(o, ",\"args\":{\"level\":");
	json_str(o, v->level);
	out_str(o, ",\"value\":\"");
	esc_json(o, v->value, v->value_len);
	out_str(o, "\",\"ctx\":");
	out_u64(o, f->ctx);
	out_str(o, ",\"cpu\":");
	out_u64(o, f->target);
	out_str(o, "}}");
	if (*ph != 'i')
		mtt_track(a, v, 0, &w);	/* counters: the component's */
	mtt_counter(a, v, &w, ns);
}

static void chrome_mtt_skip(struct app *a, uint64_t offset, uint64_t bytes)
{
	loss(a, "mtt-framing", offset, bytes);
}

const struct printer chrome_printer = {
	.mtt = chrome_mtt,
	.mtt_skip = chrome_mtt_skip,
	.begin = chrome_begin,
	.end = chrome_end,
	.packet = chrome_packet,
	.desync = chrome_packet,
	.encap = chrome_encap,
	.msg = chrome_msg,
	.event = chrome_event,
	.syst = chrome_syst,
	.syst_event = chrome_syst_event,
};
