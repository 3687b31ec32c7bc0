/*
 * fmt_json.c - the JSON lines printer.  One object per line, keys always
 * in this order (other tools match on it):
 *   {"kind":"msg","master":7,"channel":3,"ts":123,"len":5,
 *    "data":"68656c6c6f","complete":true}
 *   (a message cut at --max-message: "complete":false,"truncated":true)
 *   {"kind":"packet","offset":12,"op":"D32TS","master":7,"channel":3,
 *    "size":4,"value":"21542d53","marked":false,"ts":123}
 *   {"kind":"loss","offset":N,"reason":"gerr","master":M,"channel":C,
 *    "count":N}
 *   {"kind":"sync","offset":N}
 *   {"kind":"version","offset":N,"version":3}
 *   {"kind":"freq","offset":N,"hz":1000000000}
 */
#include "cli.h"

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
	out_str(o, "}\n");
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

const struct printer json_printer = {
	.packet = json_packet,
	.desync = json_desync,
	.msg = json_msg,
	.event = json_event,
};
