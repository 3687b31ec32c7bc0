// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_json.c - the JSON lines printer.  One object per line, keys always
 * in this order (other tools match on it):
 *   {"kind":"msg","master":7,"channel":3,"ts":123,"len":5,
 *    "data":"68656c6c6f","complete":true}
 *   (a message cut at --max-message: "complete":false,"truncated":true)
 *   {"kind":"packet","offset":12,"op":"D32TS","master":7,"channel":3,
 *    "size":4,"value":"21542d53","marked":false,"ts":123}
 *   (ASYNC after bytes skipped: "skipped":N; riscv-encap: "flow":F last)
 *   {"kind":"encap","offset":N,"flow":F,"srcid":S,"ts":T|null,"len":N,
 *    "bits":B,"payload":"hex"}   riscv-encap packet not decoded as STP
 *   {"kind":"loss","offset":N,"reason":"gerr","master":M,"channel":C,
 *    "count":N}
 *   {"kind":"sync","offset":N,"skipped":N}
 *   {"kind":"version","offset":N,"version":3}
 *   {"kind":"freq","offset":N,"hz":1000000000}
 * A SyS-T message (--syst):
 *   {"kind":"syst","master":M,"channel":C,"source":S,"stp_ts":N,
 *    "status":"OK","type":"STRING:GENERIC","severity":"INFO","guid":G,
 *    "origin":N,"unit":N,"location":L,"len":N,"ts":N,"crc":"ok",
 *    "text":"...","payload":"hex","offset":N,"size":N,"client":S,
 *    "value":N,"ts_stp":N,"complete":true}
 *   (each may be null when it does not apply; see mttdecode(1))
 *   {"kind":"loss","offset":N,"reason":"framing","master":null,
 *    "channel":null,"count":N}     SyS-T stream resync (count: bytes)
 *   {"kind":"loss","offset":N,"reason":"badline","master":null,
 *    "channel":null,"count":N}     bad text line (count: line number)
 */
#include "cli.h"
#include "esc.h"

static void key_u64(struct out *o, const char *key, uint64_t v)
{
	out_str(o, key);
	out_u64(o, v);
}

static void json_packet(struct app *a, const struct mttd_stp_event *e)
{
	struct out *o = &a->out;

	key_u64(o, "{\"kind\":\"packet\",\"offset\":", e->nib >> 1);
	out_str(o, ",\"op\":\"");
	out_str(o, mttd_op_name(e->op));
	key_u64(o, "\",\"master\":", e->master);
	key_u64(o, ",\"channel\":", e->channel);
	if (packet_has_value(e)) {
		key_u64(o, ",\"size\":", (e->nibbles + 1u) / 2);
		out_str(o, ",\"value\":\"");
		if (e->op == MTTD_OP_TIME || e->op == MTTD_OP_TIME_TS)
			out_hexn(o, e->aux, 2);
		out_hexn(o, e->value, e->nibbles);
		out_char(o, '"');
	}
	out_str(o, (e->flags & MTTD_PKT_MARKED) ? ",\"marked\":true" :
		",\"marked\":false");
	if (e->flags & MTTD_PKT_TS)
		key_u64(o, ",\"ts\":", e->ts);
	if (e->op == MTTD_OP_ASYNC && e->value)
		key_u64(o, ",\"skipped\":", e->value);
	if (e->flags & MTTD_PKT_FLOW)
		key_u64(o, ",\"flow\":", e->aux);
	out_str(o, "}\n");
}

static void json_encap(struct app *a, const struct mttd_rv_packet *p,
		       uint64_t offset)
{
	struct out *o = &a->out;

	key_u64(o, "{\"kind\":\"encap\",\"offset\":", offset);
	key_u64(o, ",\"flow\":", p->flow);
	key_u64(o, ",\"srcid\":", p->srcid);
	if (p->extend)
		key_u64(o, ",\"ts\":", p->ts);
	else
		out_str(o, ",\"ts\":null");
	key_u64(o, ",\"len\":", (p->payload_bits + 7) / 8);
	key_u64(o, ",\"bits\":", p->payload_bits);
	out_str(o, ",\"payload\":\"");
	out_hexbytes(o, p->payload, (p->payload_bits + 7) / 8);
	out_str(o, "\"}\n");
}

static void json_desync(struct app *a, const struct mttd_stp_event *e)
{
	(void)a;
	(void)e;	/* reported as a "loss" line at the resync */
}

static void json_msg(struct app *a, const struct mttd_msg *m)
{
	struct out *o = &a->out;

	key_u64(o, "{\"kind\":\"msg\",\"master\":", m->master);
	key_u64(o, ",\"channel\":", m->channel);
	if (m->flags & MTTD_MSG_HAS_TS)
		key_u64(o, ",\"ts\":", m->ts);
	else
		out_str(o, ",\"ts\":null");
	key_u64(o, ",\"len\":", m->len);
	out_str(o, ",\"data\":\"");
	out_hexbytes(o, m->data, m->len);
	/* a cut message is not "complete" even if its end was seen */
	out_str(o, (m->flags & (MTTD_MSG_COMPLETE | MTTD_MSG_TRUNCATED)) ==
		MTTD_MSG_COMPLETE ? "\",\"complete\":true" :
		"\",\"complete\":false");
	if (m->flags & MTTD_MSG_TRUNCATED)
		out_str(o, ",\"truncated\":true");
	out_str(o, "}\n");
}

static void json_event(struct app *a, const struct mttd_msg_event *e)
{
	struct out *o = &a->out;

	switch (e->kind) {
	case MTTD_ME_LOSS:
		key_u64(o, "{\"kind\":\"loss\",\"offset\":", e->offset);
		out_str(o, ",\"reason\":\"");
		out_str(o, mttd_loss_name(e->reason));
		key_u64(o, "\",\"master\":", e->master);
		key_u64(o, ",\"channel\":", e->channel);
		key_u64(o, ",\"count\":", e->value);
		break;
	case MTTD_ME_SYNC:
		key_u64(o, "{\"kind\":\"sync\",\"offset\":", e->offset);
		key_u64(o, ",\"skipped\":", e->value);
		break;
	case MTTD_ME_VERSION:
		key_u64(o, "{\"kind\":\"version\",\"offset\":", e->offset);
		key_u64(o, ",\"version\":", e->value);
		break;
	case MTTD_ME_FREQ:
		key_u64(o, "{\"kind\":\"freq\",\"offset\":", e->offset);
		key_u64(o, ",\"hz\":", e->value);
		break;
	default:
		return;
	}
	out_str(o, "}\n");
}

static void key_u64_or_null(struct out *o, const char *key, int have,
			    uint64_t v)
{
	out_str(o, key);
	if (have)
		out_u64(o, v);
	else
		out_str(o, "null");
}

static void json_syst(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	struct out *o = &a->out;
	uint32_t f = m->flags;
	int stp = (f & MTTD_SYST_F_STP) != 0;
	int sev = (f & MTTD_SYST_F_SEV) != 0;

	key_u64_or_null(o, "{\"kind\":\"syst\",\"master\":", stp, m->master);
	key_u64_or_null(o, ",\"channel\":", stp, m->channel);
	out_str(o, ",\"source\":");
	json_str(o, v->source);
	key_u64_or_null(o, ",\"stp_ts\":", f & MTTD_SYST_F_STP_TS, m->stp_ts);
	out_str(o, ",\"status\":\"");
	out_str(o, mttd_syst_status_name(m->status));
	out_str(o, "\",\"type\":\"");
	out_str(o, v->type);
	out_str(o, "\",\"severity\":");
	if (sev) {
		out_char(o, '"');
		out_str(o, mttd_syst_severity_name(m->severity));
		out_char(o, '"');
	} else {
		out_str(o, "null");
	}
	out_str(o, ",\"guid\":");
	json_str(o, v->guid[0] ? v->guid : NULL);
	key_u64_or_null(o, ",\"origin\":", sev && !(f & MTTD_SYST_F_GUID),
			m->origin);
	key_u64_or_null(o, ",\"unit\":", sev, m->unit);
	out_str(o, ",\"location\":");
	json_str(o, v->loc[0] ? v->loc : NULL);
	key_u64_or_null(o, ",\"len\":", f & MTTD_SYST_F_LEN, m->len);
	key_u64_or_null(o, ",\"ts\":", f & MTTD_SYST_F_TS, m->ts);
	out_str(o, !(f & MTTD_SYST_F_CHK) ? ",\"crc\":null" :
		m->crc == m->crc_calc ? ",\"crc\":\"ok\"" : ",\"crc\":\"bad\"");
	out_str(o, ",\"text\":\"");
	if (!out_plain(o, v->plain, v->text, v->text_len))
		esc_json(o, v->text, v->text_len);
	out_str(o, "\",\"payload\":\"");
	out_hexbytes(o, m->payload, m->payload_len);
	key_u64(o, "\",\"offset\":", m->offset);
	key_u64(o, ",\"size\":", m->size);
	out_str(o, ",\"client\":");
	json_str(o, m->client);
	key_u64_or_null(o, ",\"value\":", f & MTTD_SYST_F_VALUE, m->value);
	key_u64_or_null(o, ",\"ts_stp\":", f & MTTD_SYST_F_TS_STP, m->ts_stp);
	out_str(o, (f & (MTTD_SYST_F_INCOMPLETE | MTTD_SYST_F_TRUNCATED)) ?
		",\"complete\":false}\n" : ",\"complete\":true}\n");
}

static void json_syst_event(struct app *a, const struct mttd_syst_event *e)
{
	struct out *o = &a->out;

	key_u64(o, "{\"kind\":\"loss\",\"offset\":", e->offset);
	out_str(o, e->kind == MTTD_SYST_EV_RESYNC ? ",\"reason\":\"framing\"" :
		",\"reason\":\"badline\"");
	key_u64(o, ",\"master\":null,\"channel\":null,\"count\":", e->count);
	out_str(o, "}\n");
}

const struct printer json_printer = {
	.syst = json_syst,
	.syst_event = json_syst_event,
	.packet = json_packet,
	.desync = json_desync,
	.encap = json_encap,
	.msg = json_msg,
	.event = json_event,
	.mtt = mtt_json,
	.mtt_skip = mtt_json_skip,
};
