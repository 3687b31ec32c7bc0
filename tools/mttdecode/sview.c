// SPDX-License-Identifier: GPL-2.0
/*
 * sview.c - from a decoded SyS-T message to what the printers show: the
 * policy source name for its master/channel, the type (RAW: with the
 * collateral protocol name, as the reference printer writes it) and
 * location text,
 * and, for messages from the "ftrace" policy node (or below it) when
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
static void guid_text(struct app *a, const struct mttd_syst_msg *m,
		      char out[MTTD_GUID_STR])
{
	struct guid_cache *c =
		&a->guids[(m->master * 31u + m->channel) & (GUID_CACHE - 1)];

	if (!c->ok || memcmp(c->key, m->guid, 16)) {
		memcpy(c->key, m->guid, 16);
		mttd_syst_guid_str(m->guid, c->str);
		c->ok = 1;
	}
	memcpy(out, c->str, MTTD_GUID_STR);
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
	}
}

void on_syst(void *ctx, const struct mttd_syst_msg *m)
{
	struct app *a = ctx;
	struct sview v;

	if (m->flags & MTTD_SYST_F_FREQ)
		a->syst_hz = m->freq;
	if ((!a->o.no_mtt && mtt_from_syst(a, m)) || a->o.no_output ||
	    !a->o.messages)
		return;
	v.m = m;
	v.source = source(a, m);
	v.text = m->text;
	v.text_len = m->text_len;
	if (m->type == MTTD_SYST_RAW && m->protocol)
		snprintf(v.type, sizeof(v.type), "RAW:%s", m->protocol);
	else
		mttd_syst_type_name(m->type, m->subtype, v.type,
				    sizeof(v.type));
	mttd_syst_location(m, v.loc, sizeof(v.loc));
	if (m->flags & MTTD_SYST_F_GUID)
		guid_text(a, m, v.guid);
	else
		v.guid[0] = 0;
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
