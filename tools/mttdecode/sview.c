// SPDX-License-Identifier: GPL-2.0
/*
 * sview.c - from a decoded SyS-T message to what the printers show: the
 * policy source name for its master/channel, the type (RAW: with the
 * collateral protocol name, as the reference printer writes it; type
 * names cached by type and subtype), the location and GUID text (only
 * for printers that show them: not syst_lean), and, for messages from the "ftrace" policy node (or below it) when
 * --kallsyms/--tracefs were given, the ftrace record rendered as text
 * (STRING payloads, and SBD messages with a 64-bit id and nothing else,
 * which newer kernels send).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *source(struct app *a, const struct mttd_syst_msg *m)
{
	uint32_t key;

	if (!a->policy || !(m->flags & MTTD_SYST_F_STP))
		return NULL;
	key = (uint32_t)m->master << 16 | m->channel;
	if (key != a->src_key) {
		a->src_key = key;
		a->src_name = mttd_policy_lookup(a->policy, m->master,
						 m->channel);
	}
	return a->src_name;
}

/* a source sends its GUID on every message: format it once per source
 * (a small cache indexed by master/channel; a collision only reformats) */
const char *sview_guid(struct app *a, const struct mttd_syst_msg *m)
{
	struct guid_cache *c =
		&a->guids[(m->master * 8u + m->channel) & (GUID_CACHE - 1)];

	if (!c->ok || memcmp(c->key, m->guid, 16)) {
		memcpy(c->key, m->guid, 16);
		mttd_syst_guid_str(m->guid, c->str);
		c->ok = 1;
	}
	return c->str;
}

/* the type name, from a cache by type and subtype ("RAW:" and the
 * protocol name formatted every time) */
static void type_name(struct app *a, const struct mttd_syst_msg *m,
		      struct sview *v)
{
	unsigned int key = (m->type & 0xffu) << 8 | (m->subtype & 0xffu);
	struct type_cache *c =
		&a->types[(m->subtype * 16u + m->type) & (TYPE_CACHE - 1)];

	if (m->type == MTTD_SYST_RAW && m->protocol) {
		int n = snprintf(v->type_buf, sizeof(v->type_buf), "RAW:%s",
				 m->protocol);

		v->type = v->type_buf;
		v->type_len = n < 0 ? 0 : (size_t)n < sizeof(v->type_buf) ?
			      (size_t)n : sizeof(v->type_buf) - 1;
		return;
	}
	if (c->key != key + 1) {
		size_t n;

		mttd_syst_type_name(m->type, m->subtype, v->type_buf,
				    sizeof(v->type_buf));
		n = strlen(v->type_buf);
		if (n >= sizeof(c->str)) {	/* does not happen */
			v->type = v->type_buf;
			v->type_len = n;
			return;
		}
		memcpy(c->str, v->type_buf, n + 1);
		c->len = (uint8_t)n;
		c->key = key + 1;
	}
	v->type = c->str;
	v->type_len = c->len;
}

static int is_ftrace(const char *src)
{
	return src && !strncmp(src, "ftrace", 6) &&
	       (src[6] == 0 || src[6] == '/');
}

static void ftrace_text(struct app *a, struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	size_t n;

	if (m->type == MTTD_SYST_SBD) {
		if (m->subtype != MTTD_SYST_SBD_ID64 || m->status != MTTD_SYST_OK)
			return;
	} else if (m->type != MTTD_SYST_STRING ||
		   m->subtype == MTTD_SYST_STRING_PRINTF_32 ||
		   m->subtype == MTTD_SYST_STRING_PRINTF_64) {
		return;
	}
	n = mttd_ftrace_render(a->ftrace, m->payload, m->payload_len, a->fbuf,
			       FTRACE_BUF);
	if (n) {
		v->text = a->fbuf;
		v->text_len = n;
		v->plain = 0;
	}
}

void on_syst(void *ctx, const struct mttd_syst_msg *m)
{
	struct app *a = ctx;
	struct sview v;

	if (m->flags & MTTD_SYST_F_FREQ)
		a->syst_hz = m->freq;
	if ((!a->o.no_mtt && mtt_syst_carrier(m) &&
	     mtt_sync(m->payload, m->payload_len) && mtt_from_syst(a, m)) ||
	    a->o.no_output || !a->o.messages)
		return;
	v.m = m;
	v.source = source(a, m);
	v.text = m->text;
	v.text_len = m->text_len;
	v.plain = (m->flags & MTTD_SYST_F_PLAIN) != 0;
	type_name(a, m, &v);
	v.guid = "";
	v.loc[0] = 0;
	if (!a->pr->syst_lean) {
		mttd_syst_location(m, v.loc, sizeof(v.loc));
		if (m->flags & MTTD_SYST_F_GUID)
			v.guid = sview_guid(a, m);
	}
	if (a->ftrace && is_ftrace(v.source))
		ftrace_text(a, &v);
	a->pr->syst(a, &v);
}

void on_syst_event(void *ctx, const struct mttd_syst_event *e)
{
	struct app *a = ctx;

	if (!a->o.no_output && a->pr->syst_event)
		a->pr->syst_event(a, e);
}
