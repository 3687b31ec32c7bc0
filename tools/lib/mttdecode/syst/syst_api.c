// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_api.c - the SyS-T decoder object: configuration, decoding one
 * message (parse, content, callback), the STP message-layer sink,
 * collateral client selection and statistics.
 */
#include <stdlib.h>

#include "mttdecode/mttframe.h"
#include "internal/coll.h"
#include "internal/state.h"
#include "internal/simd.h"
#include "syst_internal.h"

struct mttd_syst *mttd_syst_new(const struct mttd_syst_config *cfg)
{
	struct mttd_syst *s;
	unsigned int i;

	if (!cfg || !cfg->fn)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->fn = cfg->fn;
	s->event = cfg->event;
	s->ctx = cfg->ctx;
	s->coll = cfg->coll;
	s->stp_hz = cfg->stp_hz ? cfg->stp_hz : 1000000000u;
	mttd__tb_init(&s->text, cfg->max_text ? cfg->max_text :
		      SYST_MAX_TEXT);
	mttd__tb_init(&s->proto, SYST_MAX_PROTO);
	if (cfg->short_guid) {
		memcpy(s->short_guid, cfg->short_guid, 16);
		s->has_short_guid = 1;
	}
	s->max_len = cfg->max_len;
	for (i = 0; i < SYST_ENTRY_CACHE; i++)
		s->ecache[i].client = -1;
	s->msg_clear = offsetof(struct mttd_syst_msg, args);
#if MTTD_AVX2_RT
	s->avx2 = __builtin_cpu_supports("avx2");
#endif
	return s;
}

void mttd_syst_free(struct mttd_syst *s)
{
	if (!s)
		return;
	mttd__tb_fini(&s->text);
	mttd__tb_fini(&s->proto);
	free(s);
}

void mttd_syst_set_stp_hz(struct mttd_syst *s, uint64_t hz)
{
	if (hz)
		s->stp_hz = hz;
}

const struct mttd_syst_stats *mttd_syst_stats(const struct mttd_syst *s)
{
	return &s->st;
}

/* the client looked up (neither entry of the set holds the GUID): it
 * becomes the set's first entry, the first its second */
const struct mttd__ccache *mttd__syst_client_miss(struct mttd_syst *s,
						  struct mttd__ccache *c,
						  const uint64_t w[2])
{
	uint8_t g[16];

	c[1] = c[0];
	memcpy(g, w, 16);
	c[0].guid[0] = w[0];
	c[0].guid[1] = w[1];
	c[0].client = mttd_coll_client(s->coll, g);
	c[0].name = mttd_coll_client_name(s->coll, c[0].client);
	c[0].file = mttd_coll_client_file(s->coll, c[0].client);
	c[0].tables = mttd__coll_tables(s->coll, c[0].client);
	c[0].valid = 1;
	return c;
}

void mttd__syst_event(struct mttd_syst *s, unsigned int kind,
		      uint64_t offset, uint64_t count)
{
	struct mttd_syst_event e = {
		.offset = offset, .count = count, .kind = kind,
	};

	if (kind == MTTD_SYST_EV_RESYNC) {
		s->st.resyncs++;
		s->st.skipped += count;
	} else {
		s->st.bad_lines++;
	}
	if (s->event)
		s->event(s->ctx, &e);
}

/*
 * The message's fields before args cleared: in SSE2, 16-byte stores of
 * zero (the last one overlapping), unrolled by the compiler; else
 * memset() of the size kept in the
 * decoder (a constant size would be inlined as rep stos, which costs
 * several times as much).
 */
static inline void clear_msg(struct mttd_syst *s)
{
#if MTTD_SSE2
	enum { N = offsetof(struct mttd_syst_msg, args) };
	char *c = (char *)&s->msg;
	const __m128i z = _mm_setzero_si128();
	size_t i;

	_Static_assert(N >= 16, "the last store");
#pragma GCC unroll 16
	for (i = 0; i + 16 <= N; i += 16) {
		_mm_storeu_si128((__m128i *)(void *)(c + i), z);
		/* not a loop of stores to the compiler (it would make it
		 * the rep stos again) */
		__asm__("" : "+r"(c));
	}
	_mm_storeu_si128((__m128i *)(void *)(c + N - 16), z);
#else
	memset(&s->msg, 0, s->msg_clear);
#endif
}

void mttd_syst_decode(struct mttd_syst *s, const struct mttd_syst_src *src,
		      const void *p, size_t n)
{
	struct mttd_syst_msg *m = &s->msg;

	if (!p)
		p = "";
	clear_msg(s);
	if (src) {
		m->offset = src->offset;
		m->stp_ts = src->stp_ts;
		m->master = src->master;
		m->channel = src->channel;
		m->flags = src->flags & (MTTD_SYST_F_STP | MTTD_SYST_F_STP_TS |
			   MTTD_SYST_F_INCOMPLETE | MTTD_SYST_F_TRUNCATED);
	}
	mttd__syst_parse(p, n, m);
	if (s->has_short_guid && !(m->flags & MTTD_SYST_F_GUID) &&
	    (m->type == MTTD_SYST_SHORT32 || m->type == MTTD_SYST_SHORT64)) {
		memcpy(m->guid, s->short_guid, 16);
		m->flags |= MTTD_SYST_F_SHORT_GUID;
	}
	mttd__syst_content(s, m);
	s->st.messages++;
	s->st.status[m->status]++;
	s->fn(s->ctx, m);
}

static void on_msg(void *ctx, const struct mttd_msg *mm)
{
	struct mttd_syst_src src = {
		.offset = mm->offset, .stp_ts = mm->ts, .master = mm->master,
		.channel = mm->channel, .flags = MTTD_SYST_F_STP,
	};

	/* a native MTT frame (its sync word sets header bits 31:30, which
	 * SyS-T reserves as 0) is not SyS-T: mttframe.h decodes it */
	if (mttd_mtt_is_frame(mm->data, mm->len))
		return;
	if (mm->flags & MTTD_MSG_HAS_TS)
		src.flags |= MTTD_SYST_F_STP_TS;
	if (!(mm->flags & MTTD_MSG_COMPLETE))
		src.flags |= MTTD_SYST_F_INCOMPLETE;
	if (mm->flags & MTTD_MSG_TRUNCATED)
		src.flags |= MTTD_SYST_F_TRUNCATED;
	mttd_syst_decode(ctx, &src, mm->data, mm->len);
}

static void on_event(void *ctx, const struct mttd_msg_event *e)
{
	if (e->kind == MTTD_ME_FREQ)
		mttd_syst_set_stp_hz(ctx, e->value);
}

void mttd_syst_sink(struct mttd_syst *s, struct mttd_msg_sink *sink)
{
	sink->msg = on_msg;
	sink->event = on_event;
	sink->ctx = s;
}

void mttd__syst_state(const struct mttd_syst *s, struct mttd__blob *b)
{
	uint32_t i;

	mttd__blob_put(b, &s->stp_hz, sizeof(s->stp_hz));
	for (i = 0; i < SYST_SYNC_SLOTS; i++) {
		const struct mttd__sync *e = &s->sync[i];

		if (!e->key)
			continue;
		mttd__blob_put(b, &i, sizeof(i));
		mttd__blob_put(b, &e->key, sizeof(e->key));
		mttd__blob_put(b, &e->stp_ts, sizeof(e->stp_ts));
		mttd__blob_put(b, &e->clock, sizeof(e->clock));
		mttd__blob_put(b, &e->freq, sizeof(e->freq));
		mttd__blob_put(b, &e->has_stp, sizeof(e->has_stp));
	}
}

void mttd__syst_copy_state(struct mttd_syst *dst, const struct mttd_syst *src)
{
	dst->stp_hz = src->stp_hz;
	memcpy(dst->sync, src->sync, sizeof(dst->sync));
}

void mttd__syst_stats_add(struct mttd_syst *dst,
			  const struct mttd_syst_stats *now,
			  const struct mttd_syst_stats *base)
{
	struct mttd_syst_stats *t = &dst->st;
	unsigned int i;

	t->messages += now->messages - base->messages;
	for (i = 0; i < sizeof(t->status) / sizeof(t->status[0]); i++)
		t->status[i] += now->status[i] - base->status[i];
	t->resyncs += now->resyncs - base->resyncs;
	t->skipped += now->skipped - base->skipped;
	t->bad_lines += now->bad_lines - base->bad_lines;
}
