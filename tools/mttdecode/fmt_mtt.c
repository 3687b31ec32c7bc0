// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_mtt.c - MTT frames in the text and JSON lines printers.
 *
 * Text, one line per frame:
 *   <ts|-> <source|m<M>/c<C>|-> MTT [<CMD>[ REPLY| NACK] ]<LEVEL|->
 *       <component> [<name> = ]<value> [seq <trace id>]
 *       [t_rx <ns> t_tx <ns>[ end <offset>]] [ctx <id>] cpu <n> [[CRC_ERROR]]
 * (seq: commands and replies, Documentation/mtt.rst; t_rx, t_tx: a
 * TIME_SYNC reply's target times, end: the offset just past the reply
 * in a raw capture, or past the encapsulation packet that completed it
 * on a riscv-encap srcID)
 *   <ts|-> <where> MTT META <component id> "<name>"
 * ts is the frame's own timestamp (ns) when it has one, else the STP
 * timestamp; a component without a name shows as comp:0x<id>.
 *   !! loss: MTT framing lost at offset N, M bytes skipped
 * JSON:
 *   {"kind":"mtt","via":"stp"|"syst"|"file"|"riscv","master":M,"channel":C,
 *    "source":S,"stp_ts":N,"offset":N,"cmd":"TRACE",
 *    "reply":null|"ok"|"nack","target":N,
 *    "component":ID,"component_name":S,"trace_id":N,"type_info":N,
 *    "ctx":N,"ts":N,"level":"INFO","name":S,"value":"text",
 *    "payload":"hex"[,"t_rx":N,"t_tx":N,"end_offset":N|null],
 *    "crc":null|"ok"|"bad"}
 * (t_rx, t_tx, end_offset: TIME_SYNC replies only)
 *   {"kind":"loss","offset":N,"reason":"mtt-framing","master":null,
 *    "channel":null,"count":N}
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "esc.h"

/* a TIME_SYNC reply's end in a raw capture (via "file") or in a
 * riscv-encap stream (the packet that completed it), or 0: none */
static int sync_end(const struct mview *v, uint64_t *end)
{
	*end = v->end ? v->end : v->offset + v->f->len;
	return v->end || !strcmp(v->via, "file");
}

static void where(struct out *o, const struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;

	if ((f->flags & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV)) ||
	    v->has_stp_ts) {
		char b[24];

		snprintf(b, sizeof(b), "%15llu", (unsigned long long)
			 ((f->flags & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV)) ?
			  f->ts : v->stp_ts));
		out_str(o, b);
	} else {
		out_str(o, "              -");
	}
	out_char(o, ' ');
	if (v->source) {
		esc_text(o, v->source, strlen(v->source), 0);
	} else if (v->stp) {
		out_char(o, 'm');
		out_u64(o, v->master);
		out_str(o, "/c");
		out_u64(o, v->channel);
	} else {
		out_char(o, '-');
	}
	out_str(o, " MTT ");
}

static void comp(struct out *o, const struct mview *v)
{
	char b[16];

	if (v->comp) {
		esc_text(o, v->comp, strlen(v->comp), 0);
		return;
	}
	snprintf(b, sizeof(b), "comp:0x%08x", v->f->comp);
	out_str(o, b);
}

void mtt_text(struct app *a, const struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;
	const char *cmd = mttd_mtt_cmd_name(f->cmd);
	struct mttd_mtt_time_sync ts;
	struct out *o = &a->out;
	uint64_t end;
	char b[16];

	where(o, v);
	if (f->cmd == MTT_FRAME_CMD_META) {
		snprintf(b, sizeof(b), "0x%08x", f->comp);
		out_str(o, "META ");
		out_str(o, b);
		out_char(o, ' ');
		esc_text(o, v->value, v->value_len, 0);
		out_char(o, '\n');
		return;
	}
	if (f->cmd != MTT_FRAME_CMD_TRACE) {
		if (cmd) {
			out_str(o, cmd);
		} else {
			snprintf(b, sizeof(b), "CMD:0x%04x", f->cmd >> 16);
			out_str(o, b);
		}
		if (f->flags & MTT_FRAME_F_RET)
			out_str(o, (f->flags & MTT_FRAME_F_NACK) ? " NACK" :
				" REPLY");
		out_char(o, ' ');
	}
	out_str(o, v->level ? v->level : "-");
	out_char(o, ' ');
	comp(o, v);
	out_char(o, ' ');
	if (v->name) {
		esc_text(o, v->name, strlen(v->name), 0);
		out_str(o, " = ");
	}
	esc_text(o, v->value, v->value_len, 0);
	if (f->cmd != MTT_FRAME_CMD_TRACE && f->cmd != MTT_FRAME_CMD_RAW) {
		out_str(o, " seq ");
		out_u64(o, f->trace_id);
	}
	if (mttd_mtt_time_sync(f, &ts)) {
		out_str(o, " t_rx ");
		out_u64(o, ts.t_rx);
		out_str(o, " t_tx ");
		out_u64(o, ts.t_tx);
		if (sync_end(v, &end)) {
			out_str(o, " end ");
			out_u64(o, end);
		}
	}
	if (f->flags & MTT_FRAME_F_CTXT) {
		out_str(o, " ctx ");
		out_u64(o, f->ctx);
	}
	out_str(o, " cpu ");
	out_u64(o, f->target);
	if (f->crc_ok == 0)
		out_str(o, " [CRC_ERROR]");
	out_char(o, '\n');
}

void mtt_text_skip(struct app *a, uint64_t offset, uint64_t bytes)
{
	struct out *o = &a->out;

	out_str(o, "!! loss: MTT framing lost at offset ");
	out_u64(o, offset);
	out_str(o, ", ");
	out_u64(o, bytes);
	out_str(o, " bytes skipped\n");
}

static void key_u64(struct out *o, const char *key, int have, uint64_t v)
{
	out_str(o, key);
	if (have)
		out_u64(o, v);
	else
		out_str(o, "null");
}

void mtt_json(struct app *a, const struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;
	const char *cmd = mttd_mtt_cmd_name(f->cmd);
	struct mttd_mtt_time_sync ts;
	struct out *o = &a->out;
	uint64_t end;
	char b[16];

	out_str(o, "{\"kind\":\"mtt\",\"via\":\"");
	out_str(o, v->via);
	key_u64(o, "\",\"master\":", v->stp, v->master);
	key_u64(o, ",\"channel\":", v->stp, v->channel);
	out_str(o, ",\"source\":");
	json_str(o, v->source);
	key_u64(o, ",\"stp_ts\":", v->has_stp_ts, v->stp_ts);
	key_u64(o, ",\"offset\":", 1, v->offset);
	out_str(o, ",\"cmd\":");
	if (!cmd) {
		snprintf(b, sizeof(b), "0x%08x", f->cmd);
		cmd = b;
	}
	json_str(o, cmd);
	out_str(o, ",\"reply\":");
	out_str(o, !(f->flags & MTT_FRAME_F_RET) ? "null" :
		(f->flags & MTT_FRAME_F_NACK) ? "\"nack\"" : "\"ok\"");
	key_u64(o, ",\"target\":", 1, f->target);
	key_u64(o, ",\"component\":", 1, f->comp);
	out_str(o, ",\"component_name\":");
	json_str(o, v->comp);
	key_u64(o, ",\"trace_id\":", 1, f->trace_id);
	key_u64(o, ",\"type_info\":", 1, f->type_info);
	key_u64(o, ",\"ctx\":", f->flags & MTT_FRAME_F_CTXT, f->ctx);
	key_u64(o, ",\"ts\":", f->flags & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV),
		f->ts);
	out_str(o, ",\"level\":");
	json_str(o, v->level);
	out_str(o, ",\"name\":");
	json_str(o, v->name);
	out_str(o, ",\"value\":\"");
	esc_json(o, v->value, v->value_len);
	out_str(o, "\",\"payload\":\"");
	out_hexbytes(o, f->payload, f->payload_len);
	out_char(o, '"');
	if (mttd_mtt_time_sync(f, &ts)) {
		int has_end = sync_end(v, &end);

		key_u64(o, ",\"t_rx\":", 1, ts.t_rx);
		key_u64(o, ",\"t_tx\":", 1, ts.t_tx);
		key_u64(o, ",\"end_offset\":", has_end, end);
	}
	out_str(o, f->crc_ok < 0 ? ",\"crc\":null}\n" :
		f->crc_ok ? ",\"crc\":\"ok\"}\n" : ",\"crc\":\"bad\"}\n");
}

void mtt_json_skip(struct app *a, uint64_t offset, uint64_t bytes)
{
	struct out *o = &a->out;

	key_u64(o, "{\"kind\":\"loss\",\"offset\":", 1, offset);
	key_u64(o, ",\"reason\":\"mtt-framing\",\"master\":null,"
		"\"channel\":null,\"count\":", 1, bytes);
	out_str(o, "}\n");
}
