// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_html.c - --format=html: the project's viewer, one self-contained
 * page (html_page.c: inline CSS and script, no network) with the trace
 * as JSON in a <script type="application/json"> block.
 *
 * The page is written from merged records (struct mrec, merge.h): the
 * printer callbacks below make one from each message, SyS-T message and
 * MTT frame of a stream (its own clock the reference: own time =
 * reference time, bound 0), and a merged session (merge.c) hands its
 * records to html_add() in merged order, after naming each target and
 * its clock's fit with html_target().  Each record goes on a track,
 * keyed by (target, type, component, name, cpu):
 *  - messages ("m"): plain STP messages on their source (policy node,
 *    else "m<M> c<C>"), SyS-T messages on their source, collateral
 *    client, GUID or origin, MTT frames on "<component>" with the CPU;
 *  - values ("v"): an MTT frame's named number (hint or dictionary;
 *    element 0 of a vector) on "<component>" / name: a step line;
 *  - slices ("s"): SyS-T STRING:ENTER/EXIT on their source, MTT
 *    API_ENTRY/API_RETURN on "<component> ctx <id>" (as the Chrome trace);
 *  - losses on a "losses" track of the target;
 *  - a merged record without a component goes on its source (a Linux
 *    stream's policy node), a slice without either on "functions" (a
 *    MiniProfiler's calls).
 * Strings (track names, levels, texts cut at HTML_TEXT_MAX bytes) are
 * interned: each distinct one is written once, records name its index.
 *
 * Bounds (Documentation/mttdecode.rst, "The HTML viewer"): the first
 * --html-max records (default 1,000,000), while the distinct strings
 * stay within HTML_STR_BUDGET bytes as written, are held in full; every
 * later record only counts into its track's summary, HTML_BUCKETS
 * buckets whose width doubles as time goes on (per bucket: records,
 * and for values their minimum and maximum).  Memory while writing is
 * therefore at most 57 bytes per held record (for --html-max rounded up
 * to a power of two), the string budget, and HTML_BUCKETS * 20 bytes
 * for each of at most HTML_TRACKS tracks; the page is about as large as
 * the held records' JSON plus the strings and the summaries.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "esc.h"
#include "merge.h"

#define HTML_TRACKS	1024	/* the last one takes all the others */
#define HTML_TARGETS	64
#define HTML_BUCKETS	512
#define HTML_TEXT_MAX	256
#define HTML_STR_BUDGET	(48u << 20)
#define NO_STR		UINT32_MAX

enum { TR_MSG, TR_VALUE, TR_SLICE };
static const char track_type[] = "mvs";

/* the page's kind codes (its script's KIND) by enum mrec_kind */
enum { PK_MSG, PK_VALUE, PK_BEGIN, PK_END, PK_SLICE, PK_LOSS };
static const uint8_t page_kind[] = {
	[MREC_MSG] = PK_MSG, [MREC_BEGIN] = PK_BEGIN, [MREC_END] = PK_END,
	[MREC_SLICE] = PK_SLICE, [MREC_VALUE] = PK_VALUE,
	[MREC_LOSS] = PK_LOSS,
};

struct html_sum {
	int64_t base;		/* time of bucket 0 */
	uint64_t width;		/* ns per bucket */
	uint32_t cnt[HTML_BUCKETS];
	double min[HTML_BUCKETS], max[HTML_BUCKETS];
};

struct html_track {
	uint32_t target, comp, name;
	int64_t cpu;
	unsigned int type;	/* TR_* */
	struct html_sum *sum;	/* records not held, or NULL */
};

struct html_target {
	uint32_t name;
	uint32_t fit;		/* html_target()'s fit, NO_STR: the target's
				 * clock is the reference */
	double drift_ppm;
	double bound_max;	/* the fit's bound, or the largest seen */
	uint64_t records;
};

struct html {
	/* interned strings: pool[off[i]..off[i]+len[i]), hashed */
	char *pool;
	size_t pool_len, pool_cap;
	uint32_t *off, *len;
	uint32_t nstr, str_cap;
	uint32_t *slot;		/* index + 1, 0: empty */
	uint32_t nslot;
	uint64_t esc_bytes;	/* the strings as written */
	struct html_target target[HTML_TARGETS];
	unsigned int ntargets;
	struct html_track track[HTML_TRACKS];
	uint32_t ntracks;
	int other;		/* the last track took further ones */
	uint32_t *tslot;	/* track hash: index + 1 */
	/* held records, as columns */
	int64_t *t;
	int64_t *own;		/* own - reference time */
	double *bnd;		/* accuracy half-width */
	uint32_t *trk, *lvl, *txt;
	uint32_t *src, *nam;	/* source, name */
	int32_t *core;
	uint8_t *kind;
	double *val;
	size_t n, cap;
	/* columns written only when some record says more than its track
	 * does: an own time not the reference's, a bound not 0, a source
	 * not the track's component, a name not the track's, a core not
	 * the track's CPU */
	int own_differs, bnd_differs, src_differs, nam_differs;
	int core_differs;
	unsigned long max;	/* --html-max */
	int full;		/* no more records held */
	int oom;
	uint64_t seen, summed;
	uint64_t last_ns;	/* the previous item's time */
	unsigned int input;	/* inputs begun: the target of a stream */
	const char *input_name;
};

/* bytes s[0..n) takes as page JSON string content (html_json_str) */
static size_t esc_len(const char *s, size_t n)
{
	size_t k = 0, i;

	for (i = 0; i < n; i++) {
		uint8_t c = (uint8_t)s[i];

		if (c == '"' || c == '\\' || c == '\n' || c == '\t')
			k += 2;
		else if (c < 0x20 || c == '<' || c >= 0x80)
			k += 6;	/* at most */
		else
			k++;
	}
	return k;
}

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static int grow(void **p, size_t *cap, size_t want, size_t size)
{
	size_t c = *cap ? *cap : 1024;
	void *q;

	if (want <= *cap)
		return 0;
	while (c < want)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int rehash(struct html *h)
{
	uint32_t ns = h->nslot ? h->nslot * 2 : 4096, i;
	uint32_t *s = calloc(ns, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < h->nstr; i++) {
		uint32_t j = hash(h->pool + h->off[i], h->len[i]) & (ns - 1);

		while (s[j])
			j = (j + 1) & (ns - 1);
		s[j] = i + 1;
	}
	free(h->slot);
	h->slot = s;
	h->nslot = ns;
	return 0;
}

/* s[0..n) interned: its index, or NO_STR (budget spent: always, or no
 * memory) */
static uint32_t intern(struct html *h, const char *s, size_t n, int always)
{
	uint32_t j;
	size_t cap;

	if (n > HTML_TEXT_MAX) {
		n = HTML_TEXT_MAX;
		while (n && ((uint8_t)s[n] & 0xc0) == 0x80)
			n--;	/* not inside a UTF-8 sequence */
	}
	if ((h->nstr + 1) * 2 > h->nslot && rehash(h))
		goto oom;
	j = hash(s, n) & (h->nslot - 1);
	while (h->slot[j]) {
		uint32_t i = h->slot[j] - 1;

		if (h->len[i] == n && !memcmp(h->pool + h->off[i], s, n))
			return i;
		j = (j + 1) & (h->nslot - 1);
	}
	if (!always && h->esc_bytes + esc_len(s, n) + 3 > HTML_STR_BUDGET)
		return NO_STR;
	cap = h->str_cap;
	if (h->nstr == cap) {
		size_t c2 = cap;

		if (grow((void **)&h->off, &c2, cap + 1, sizeof(*h->off)))
			goto oom;
		c2 = cap;
		if (grow((void **)&h->len, &c2, cap + 1, sizeof(*h->len)))
			goto oom;
		h->str_cap = (uint32_t)c2;
	}
	if (grow((void **)&h->pool, &h->pool_cap, h->pool_len + n + 1, 1))
		goto oom;
	memcpy(h->pool + h->pool_len, s, n);
	h->off[h->nstr] = (uint32_t)h->pool_len;
	h->len[h->nstr] = (uint32_t)n;
	h->pool_len += n;
	h->esc_bytes += esc_len(s, n) + 3;
	h->slot[j] = ++h->nstr;
	return h->nstr - 1;
oom:
	h->oom = 1;
	return NO_STR;
}

static uint32_t intern_name(struct html *h, const char *s)
{
	return s ? intern(h, s, strlen(s), 1) : NO_STR;
}

static uint32_t get_track(struct html *h, const struct mrec *r,
			  uint32_t target)
{
	unsigned int type = r->kind == MREC_VALUE ? TR_VALUE :
		(r->kind == MREC_BEGIN || r->kind == MREC_END ||
		 r->kind == MREC_SLICE) ? TR_SLICE : TR_MSG;
	uint32_t comp = intern_name(h, r->kind == MREC_LOSS ? "losses" :
				    r->comp ? r->comp : r->source ? r->source :
				    type == TR_SLICE ? "functions" : "-");
	uint32_t name = type == TR_VALUE ? intern_name(h, r->name) : NO_STR;
	int64_t cpu = type == TR_SLICE || r->kind == MREC_LOSS ? -1 : r->core;
	uint32_t k = (hash((const char *)&comp, 4) ^ name * 31u ^
		      target * 131u ^ type * 7u ^ (uint32_t)cpu) &
		     (2 * HTML_TRACKS - 1);
	struct html_track *t;

	while (h->tslot[k]) {
		t = &h->track[h->tslot[k] - 1];
		if (t->comp == comp && t->name == name && t->cpu == cpu &&
		    t->type == type && t->target == target)
			return h->tslot[k] - 1;
		k = (k + 1) & (2 * HTML_TRACKS - 1);
	}
	if (h->ntracks == HTML_TRACKS - 1) {
		/* the last track takes every further one (of any target:
		 * it is the first one's) */
		t = &h->track[HTML_TRACKS - 1];
		if (!h->other) {
			h->other = 1;
			t->target = target;
			t->comp = intern_name(h, "(other tracks)");
			t->name = NO_STR;
			t->cpu = -1;
			t->type = TR_MSG;
		}
		return HTML_TRACKS - 1;
	}
	t = &h->track[h->ntracks];
	t->target = target;
	t->comp = comp;
	t->name = name;
	t->cpu = cpu;
	t->type = type;
	h->tslot[k] = ++h->ntracks;
	return h->ntracks - 1;
}

/* bucket i of a summary twice as wide: old buckets 2i and 2i + 1 */
static void merge2(struct html_sum *s, unsigned int i)
{
	unsigned int l = 2 * i, r = 2 * i + 1;

	if (!s->cnt[l]) {
		s->min[i] = s->min[r];
		s->max[i] = s->max[r];
	} else if (s->cnt[r]) {
		s->min[i] = s->min[r] < s->min[l] ? s->min[r] : s->min[l];
		s->max[i] = s->max[r] > s->max[l] ? s->max[r] : s->max[l];
	} else {
		s->min[i] = s->min[l];
		s->max[i] = s->max[l];
	}
	s->cnt[i] = s->cnt[l] + s->cnt[r];
}

/* a record not held: into its track's summary */
static void summarise(struct html *h, struct html_track *t,
		      const struct mrec *r)
{
	struct html_sum *s = t->sum;
	uint64_t b;
	unsigned int i;

	if (!s) {
		s = t->sum = calloc(1, sizeof(*s));
		if (!s) {
			h->oom = 1;
			return;
		}
		s->base = r->ref_ns;
		s->width = 1024;
	}
	/* earlier than the first one summarised: into bucket 0 */
	b = r->ref_ns > s->base ? (uint64_t)(r->ref_ns - s->base) / s->width :
		0;
	while (b >= HTML_BUCKETS) {
		/* twice as wide: bucket i = old 2i and 2i + 1 */
		for (i = 0; i < HTML_BUCKETS / 2; i++)
			merge2(s, i);
		memset(s->cnt + HTML_BUCKETS / 2, 0,
		       sizeof(s->cnt) / 2);
		s->width *= 2;
		b = (uint64_t)(r->ref_ns - s->base) / s->width;
	}
	if (r->kind == MREC_VALUE && r->has_value && isfinite(r->value)) {
		if (!s->cnt[b] || r->value < s->min[b])
			s->min[b] = r->value;
		if (!s->cnt[b] || r->value > s->max[b])
			s->max[b] = r->value;
	} else if (!s->cnt[b]) {
		s->min[b] = s->max[b] = NAN;
	}
	s->cnt[b]++;
	h->summed++;
}

/* room for one more held record: 0, or -1 (max reached, no memory) */
static int hold(struct html *h, size_t max)
{
	void **col[] = {
		(void **)&h->t, (void **)&h->own, (void **)&h->bnd,
		(void **)&h->trk, (void **)&h->lvl, (void **)&h->txt,
		(void **)&h->src, (void **)&h->nam, (void **)&h->core,
		(void **)&h->kind, (void **)&h->val,
	};
	const size_t size[] = {
		sizeof(*h->t), sizeof(*h->own), sizeof(*h->bnd),
		sizeof(*h->trk), sizeof(*h->lvl), sizeof(*h->txt),
		sizeof(*h->src), sizeof(*h->nam), sizeof(*h->core),
		sizeof(*h->kind), sizeof(*h->val),
	};
	size_t c = h->cap, i;

	if (h->n >= max)
		return -1;
	if (h->n < h->cap)
		return 0;
	for (i = 0; i < sizeof(col) / sizeof(col[0]); i++) {
		c = h->cap;
		if (grow(col[i], &c, h->n + 1, size[i]))
			return -1;
	}
	h->cap = c;
	return 0;
}

static struct html_target *target_at(struct html *h, unsigned int idx)
{
	/* targets beyond HTML_TARGETS: all in the last one */
	uint32_t ti = idx < HTML_TARGETS ? idx : HTML_TARGETS - 1;

	while (h->ntargets <= ti) {
		h->target[h->ntargets].name = NO_STR;
		h->target[h->ntargets++].fit = NO_STR;
	}
	return &h->target[ti];
}

void html_target(struct html *h, unsigned int idx, const char *name,
		 const char *fit, double drift_ppm, double bound_ns)
{
	struct html_target *tg = target_at(h, idx);

	if (tg->name != NO_STR)
		return;
	tg->name = intern_name(h, name);
	tg->fit = intern_name(h, fit);
	tg->drift_ppm = drift_ppm;
	tg->bound_max = bound_ns;
}

/* s interned within the budget (NULL: NO_STR); 0, or -1 (budget spent) */
static int intern_opt(struct html *h, const char *s, size_t n, uint32_t *i)
{
	*i = s ? intern(h, s, n, 0) : NO_STR;
	return s && *i == NO_STR ? -1 : 0;
}

void html_add(struct html *h, const struct mrec *r)
{
	struct html_target *tg = target_at(h, r->tindex);
	uint32_t ti = (uint32_t)(tg - h->target);
	uint32_t tr, lvl = NO_STR, txt = NO_STR, src = NO_STR, nam = NO_STR;
	const struct html_track *t;

	if (tg->name == NO_STR)
		tg->name = intern_name(h, r->target);
	tg->records++;
	if (r->bound_ns > tg->bound_max)
		tg->bound_max = r->bound_ns;
	h->seen++;
	tr = get_track(h, r, ti);
	t = &h->track[tr];
	if (!h->full) {
		lvl = intern_name(h, r->level);
		txt = intern(h, r->text ? r->text : "", r->text ? r->text_len :
			     0, 0);
		if (txt == NO_STR ||
		    intern_opt(h, r->source, r->source ? strlen(r->source) : 0,
			       &src) ||
		    intern_opt(h, r->name, r->name ? strlen(r->name) : 0,
			       &nam) ||
		    hold(h, h->max))
			h->full = 1;
	}
	if (h->full) {
		summarise(h, &h->track[tr], r);
		return;
	}
	h->t[h->n] = r->ref_ns;
	h->own[h->n] = r->dev_ns - r->ref_ns;
	h->own_differs |= r->dev_ns != r->ref_ns;
	h->bnd[h->n] = r->bound_ns;
	h->bnd_differs |= r->bound_ns != 0;
	h->trk[h->n] = tr;
	h->lvl[h->n] = lvl;
	h->txt[h->n] = txt;
	h->src[h->n] = src;
	h->src_differs |= src != t->comp;
	h->nam[h->n] = nam;
	h->nam_differs |= nam != t->name;
	h->core[h->n] = r->core;
	h->core_differs |= r->core != t->cpu;
	h->kind[h->n] = page_kind[r->kind];
	h->val[h->n] = r->kind == MREC_VALUE && r->has_value ? r->value :
		r->kind == MREC_SLICE ? (double)r->dur_ns : NAN;
	h->n++;
}

/* a record of the current input (a single stream: its own clock is the
 * reference) */
static void rec_init(struct app *a, struct mrec *r, uint64_t ns,
		     enum mrec_kind kind)
{
	struct html *h = a->html;

	memset(r, 0, sizeof(*r));
	r->target = h->input_name ? h->input_name : "stream";
	r->tindex = h->input ? h->input - 1 : 0;
	r->dev_ns = r->ref_ns = (int64_t)(ns > INT64_MAX ? INT64_MAX : ns);
	r->has_time = 1;
	r->kind = kind;
	r->core = -1;
	h->last_ns = ns;
}

static void source_name(char *b, size_t n, const char *source,
			unsigned int master, unsigned int channel)
{
	if (source)
		snprintf(b, n, "%s", source);
	else
		snprintf(b, n, "m%u c%u", master, channel);
}

struct html *html_new(unsigned long max)
{
	struct html *h = calloc(1, sizeof(*h));

	if (h) {
		h->max = max;
		h->tslot = calloc(2 * HTML_TRACKS, sizeof(*h->tslot));
	}
	if (h && !h->tslot) {
		free(h);
		h = NULL;
	}
	return h;
}

static void html_msg(struct app *a, const struct mttd_msg *m)
{
	struct mrec r;
	char src[160];

	rec_init(a, &r, (m->flags & MTTD_MSG_HAS_TS) ?
		 ticks_ns(m->ts, a->stp_hz) : a->html->last_ns, MREC_MSG);
	source_name(src, sizeof(src), a->policy ?
		    mttd_policy_lookup(a->policy, m->master, m->channel) :
		    NULL, m->master, m->channel);
	r.comp = r.source = src;
	r.text = (const char *)m->data;
	r.text_len = m->len;
	html_add(a->html, &r);
}

static void html_syst(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	enum mrec_kind kind = MREC_MSG;
	struct mrec r;
	char src[160];

	if (m->type == MTTD_SYST_STRING && m->status == MTTD_SYST_OK &&
	    m->subtype == MTTD_SYST_STRING_FUNCTIONENTER)
		kind = MREC_BEGIN;
	else if (m->type == MTTD_SYST_STRING && m->status == MTTD_SYST_OK &&
		 m->subtype == MTTD_SYST_STRING_FUNCTIONEXIT)
		kind = MREC_END;
	rec_init(a, &r, syst_time_ns(a, m, a->html->last_ns), kind);
	if (m->flags & MTTD_SYST_F_STP)
		source_name(src, sizeof(src), v->source, m->master,
			    m->channel);
	else if (m->client)
		snprintf(src, sizeof(src), "%s", m->client);
	else if (m->flags & MTTD_SYST_F_GUID)
		mttd_syst_guid_str(m->guid, src);
	else
		snprintf(src, sizeof(src), "origin %u:%u", m->origin,
			 m->unit);
	r.comp = r.source = src;
	r.level = (m->flags & MTTD_SYST_F_SEV) ?
		mttd_syst_severity_name(m->severity) : NULL;
	r.text = v->text_len ? v->text : v->type;
	r.text_len = v->text_len ? v->text_len : strlen(v->type);
	r.name = v->type;
	html_add(a->html, &r);
}

static void html_mtt(struct app *a, const struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;
	enum mrec_kind kind = MREC_MSG;
	char comp[160], text[HTML_TEXT_MAX + 32];
	struct mrec r;
	double d;

	if (f->cmd == MTT_FRAME_CMD_META)
		return;		/* named the component */
	if ((f->flags & MTT_FRAME_F_LEVEL) && f->level == MTT_API_ENTRY)
		kind = MREC_BEGIN;
	else if ((f->flags & MTT_FRAME_F_LEVEL) && f->level == MTT_API_RETURN)
		kind = MREC_END;
	else if (v->name && mttd_mtt_count(f) && mttd_mtt_number(f, 0, &d))
		kind = MREC_VALUE;
	rec_init(a, &r, mtt_time_ns(a, v, a->html->last_ns), kind);
	if (v->comp)
		snprintf(comp, sizeof(comp), "%s", v->comp);
	else
		snprintf(comp, sizeof(comp), "comp:0x%08x", f->comp);
	if (kind == MREC_BEGIN || kind == MREC_END)
		snprintf(comp + strlen(comp), sizeof(comp) - strlen(comp),
			 " ctx %u", f->ctx);
	else
		r.core = (int)f->target;
	r.comp = comp;
	r.name = v->name;
	r.level = v->level;
	r.source = v->source;
	r.has_value = kind == MREC_VALUE;
	r.value = kind == MREC_VALUE ? d : 0;
	if (kind == MREC_BEGIN || kind == MREC_END || !v->name) {
		r.text = kind == MREC_MSG || !v->name ? v->value : v->name;
		r.text_len = kind == MREC_MSG || !v->name ? v->value_len :
			strlen(v->name);
	} else {
		snprintf(text, sizeof(text), "%s = %.*s", v->name,
			 (int)(v->value_len < HTML_TEXT_MAX ? v->value_len :
			       HTML_TEXT_MAX), v->value);
		r.text = text;
		r.text_len = strlen(text);
	}
	html_add(a->html, &r);
}

static void loss(struct app *a, const char *reason, uint64_t count)
{
	struct mrec r;
	char text[80];

	rec_init(a, &r, a->html->last_ns, MREC_LOSS);
	snprintf(text, sizeof(text), "loss: %s (%llu)", reason,
		 (unsigned long long)count);
	r.text = text;
	r.text_len = strlen(text);
	html_add(a->html, &r);
}

static void html_event(struct app *a, const struct mttd_msg_event *e)
{
	if (e->kind == MTTD_ME_LOSS)
		loss(a, mttd_loss_name(e->reason), e->value);
}

static void html_syst_event(struct app *a, const struct mttd_syst_event *e)
{
	loss(a, e->kind == MTTD_SYST_EV_RESYNC ? "framing" : "badline",
	     e->count);
}

static void html_mtt_skip(struct app *a, uint64_t offset, uint64_t bytes)
{
	(void)offset;
	loss(a, "mtt-framing", bytes);
}

static void html_packet(struct app *a, const struct mttd_stp_event *e)
{
	(void)a;
	(void)e;
}

static void html_encap(struct app *a, const struct mttd_rv_packet *p,
		       uint64_t offset)
{
	(void)a;
	(void)p;
	(void)offset;
}

/* the next input is a target of its own */
void html_input(struct app *a, const char *name)
{
	const char *s = strrchr(name, '/');

	if (!a->html)
		return;
	a->html->input++;
	a->html->input_name = s && s[1] ? s + 1 : name;
}

/* JSON string content safe inside <script>: '<' as \u003c */
static void page_str(struct out *o, const char *s, size_t n)
{
	size_t i = 0, k;

	out_char(o, '"');
	while (i < n) {
		for (k = i; k < n && s[k] != '<'; k++)
			;
		esc_json(o, s + i, k - i);
		if (k < n)
			out_str(o, "\\u003c");
		i = k + 1;
	}
	out_char(o, '"');
}

static void put_i64(struct out *o, int64_t v)
{
	if (v < 0) {
		out_char(o, '-');
		out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		out_u64(o, (uint64_t)v);
	}
}

static void put_str_idx(struct out *o, uint32_t i)
{
	if (i == NO_STR)
		out_str(o, "-1");
	else
		out_u64(o, i);
}

static void put_num(struct out *o, double d)
{
	char b[32];

	if (!isfinite(d)) {
		out_str(o, "null");
		return;
	}
	snprintf(b, sizeof(b), "%.17g", d);
	out_str(o, b);
}

/* the earliest time on the page: its time 0 */
static int64_t t0_of(const struct html *h)
{
	int64_t t0 = INT64_MAX;
	size_t i;

	for (i = 0; i < h->n; i++)
		if (h->t[i] < t0)
			t0 = h->t[i];
	for (i = 0; i < HTML_TRACKS; i++)
		if (h->track[i].sum && h->track[i].sum->base < t0)
			t0 = h->track[i].sum->base;
	return t0 == INT64_MAX ? 0 : t0;
}

/* ",\"c\":[" then column c of the held records: t (time - t0), o (own
 * - reference time), k (track), y (kind), l (level), x (text), v (value
 * or duration), b (bound, null: infinite), s (source), n (name), c
 * (core, -1 none) */
static void column(struct out *o, const struct html *h, char c, int64_t t0)
{
	size_t i;

	out_str(o, ",\n\"");
	out_char(o, c);
	out_str(o, "\":[");
	for (i = 0; i < h->n; i++) {
		if (i)
			out_str(o, i % 32 ? "," : ",\n");
		switch (c) {
		case 't': put_i64(o, h->t[i] - t0); break;
		case 'o': put_i64(o, h->own[i]); break;
		case 'k': out_u64(o, h->trk[i]); break;
		case 'y': out_u64(o, h->kind[i]); break;
		case 'l': put_str_idx(o, h->lvl[i]); break;
		case 'x': put_str_idx(o, h->txt[i]); break;
		case 'b': put_num(o, h->bnd[i]); break;
		case 's': put_str_idx(o, h->src[i]); break;
		case 'n': put_str_idx(o, h->nam[i]); break;
		case 'c': put_i64(o, h->core[i]); break;
		default: put_num(o, h->val[i]); break;
		}
	}
	out_char(o, ']');
}

static void summaries(struct out *o, const struct html *h, int64_t t0)
{
	uint32_t i, nt = h->ntracks + (uint32_t)h->other;
	unsigned int b, last;
	int first = 1;

	out_str(o, ",\n\"sum\":[");
	for (i = 0; i < nt; i++) {
		const struct html_sum *s = h->track[i].sum;

		if (!s)
			continue;
		for (last = HTML_BUCKETS; last && !s->cnt[last - 1]; last--)
			;
		out_str(o, first ? "\n[" : ",\n[");
		first = 0;
		out_u64(o, i);
		out_char(o, ',');
		put_i64(o, s->base - t0);
		out_char(o, ',');
		out_u64(o, s->width);
		out_str(o, ",[");
		for (b = 0; b < last; b++) {
			if (b)
				out_char(o, ',');
			out_u64(o, s->cnt[b]);
		}
		out_str(o, "],[");
		for (b = 0; b < last; b++) {
			if (b)
				out_char(o, ',');
			put_num(o, s->cnt[b] ? s->min[b] : NAN);
		}
		out_str(o, "],[");
		for (b = 0; b < last; b++) {
			if (b)
				out_char(o, ',');
			put_num(o, s->cnt[b] ? s->max[b] : NAN);
		}
		out_str(o, "]]");
	}
	out_char(o, ']');
}

void html_write(struct html *h, struct out *o, const char *title)
{
	uint32_t i, nt = h->ntracks + (uint32_t)h->other;
	const struct {
		const char *key;
		uint64_t v;
	} counts[] = {
		{ ",\"records\":", h->seen }, { ",\"held\":", h->n },
		{ ",\"summarised\":", h->summed },
		{ ",\"max\":", h->max },
		{ ",\"text_max\":", HTML_TEXT_MAX },
	};
	int64_t t0 = t0_of(h);
	const struct {
		char c;
		int written;
	} cols[] = {
		{ 't', 1 }, { 'k', 1 }, { 'y', 1 }, { 'l', 1 }, { 'x', 1 },
		{ 'v', 1 }, { 'o', h->own_differs }, { 'b', h->bnd_differs },
		{ 's', h->src_differs }, { 'n', h->nam_differs },
		{ 'c', h->core_differs },
	};

	if (h->oom)
		fprintf(stderr, "mttdecode: out of memory: the page holds the records before it\n");
	out_str(o, html_page_head);
	out_str(o, "{\"version\":1,\"title\":");
	page_str(o, title, strlen(title));
	out_str(o, ",\"t0\":");
	put_i64(o, t0);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		out_str(o, counts[i].key);
		out_u64(o, counts[i].v);
	}
	out_str(o, ",\n\"strings\":[");
	for (i = 0; i < h->nstr; i++) {
		if (i)
			out_str(o, i % 16 ? "," : ",\n");
		page_str(o, h->pool + h->off[i], h->len[i]);
	}
	out_str(o, "],\n\"targets\":[");
	for (i = 0; i < h->ntargets; i++) {
		const struct html_target *tg = &h->target[i];

		/* [name, on the reference clock, bound, records, fit,
		 * drift ppm] */
		out_str(o, i ? ",[" : "[");
		put_str_idx(o, tg->name);
		out_str(o, tg->fit == NO_STR ? ",1," : ",0,");
		put_num(o, tg->bound_max);
		out_char(o, ',');
		out_u64(o, tg->records);
		out_char(o, ',');
		put_str_idx(o, tg->fit);
		out_char(o, ',');
		put_num(o, tg->fit == NO_STR ? NAN : tg->drift_ppm);
		out_char(o, ']');
	}
	out_str(o, "],\n\"tracks\":[");
	for (i = 0; i < nt; i++) {
		const struct html_track *t = &h->track[i];

		out_str(o, i ? ",\n[" : "\n[");
		out_u64(o, t->target);
		out_str(o, ",\"");
		out_char(o, track_type[t->type]);
		out_str(o, "\",");
		put_str_idx(o, t->comp);
		out_char(o, ',');
		put_str_idx(o, t->name);
		out_char(o, ',');
		put_i64(o, t->cpu);
		out_char(o, ']');
	}
	out_char(o, ']');
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (cols[i].written)
			column(o, h, cols[i].c, t0);
	summaries(o, h, t0);
	out_str(o, "}\n");
	out_str(o, html_page_script);
}

static void html_end(struct app *a)
{
	const struct html *h = a->html;

	html_write(a->html, &a->out, a->o.nfiles == 1 ? a->o.files[0] :
		   h->input_name ? h->input_name : "stdin");
}

void html_free(struct html *h)
{
	uint32_t i;

	if (!h)
		return;
	for (i = 0; i < HTML_TRACKS; i++)
		free(h->track[i].sum);
	free(h->pool);
	free(h->off);
	free(h->len);
	free(h->slot);
	free(h->tslot);
	free(h->t);
	free(h->own);
	free(h->bnd);
	free(h->src);
	free(h->nam);
	free(h->core);
	free(h->trk);
	free(h->lvl);
	free(h->txt);
	free(h->kind);
	free(h->val);
	free(h);
}

const struct printer html_printer = {
	.mtt = html_mtt,
	.mtt_skip = html_mtt_skip,
	.end = html_end,
	.packet = html_packet,
	.desync = html_packet,
	.encap = html_encap,
	.msg = html_msg,
	.event = html_event,
	.syst = html_syst,
	.syst_event = html_syst_event,
};
