// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_csv.c - SyS-T messages as the MIPI reference printer's CSV: the
 * same header line, columns, order and cell spellings, RFC 4180 quoting,
 * so a script written for the printer's CSV reads ours unchanged:
 *
 *   Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,
 *   Context TimeStamp,Location,Raw Length,Checksum,Collateral
 *
 * Decode Status  OK, CHECKSUM_ERROR, TOO_SHORT, UNKNOWN_TYPE,
 *                MISSING_COLLATERAL; LOSS and BAD_INPUT_LINE for rows
 *                that report lost data or a bad input line
 * Payload        the rendered text in double quotes, byte for byte ("" for
 *                a quote; newlines, backslashes, any byte as it is)
 * Type           STRING:GENERIC, STRING:ENTER, STRING:PRINTF32,
 *                CATALOG:ID32P64, SHORT32, RAW:<protocol name> ...
 * Severity       MAX .. DEBUG, empty for SHORT and compact BUILD
 * Origin         the collateral client name, else the message's GUID (or
 *                pseudo-GUID {00000000-<master>-<channel>-<module>00-...})
 * Unit           the unit field, decimal (empty for SHORT, compact BUILD)
 * Message TimeStamp  the SyS-T timestamp, 0x and 16 uppercase hex digits
 * Context TimeStamp  the STP timestamp, likewise
 * Location       file:line or 0x<address>
 * Raw Length     bytes in the message
 * Checksum       0x and 8 uppercase hex digits, as received
 * Collateral     the collateral file the client came from
 * A cell without a value is empty; cells other than Payload are quoted
 * only when they hold a comma, quote or line break.  --csv-extra adds
 * Source,Master,Channel,GUID,Offset,Complete at the end of each row.
 */
#include <string.h>

#include "cli.h"
#include "esc.h"

static const char header[] =
	"Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,"
	"Context TimeStamp,Location,Raw Length,Checksum,Collateral";
static const char header_extra[] =
	",Source,Master,Channel,GUID,Offset,Complete";

static void csv_begin(struct app *a)
{
	out_str(&a->out, header);
	if (a->o.csv_extra)
		out_str(&a->out, header_extra);
	out_char(&a->out, '\n');
}

static void quoted(struct out *o, const char *s, size_t n)
{
	out_char(o, '"');
	esc_csv(o, s, n);
	out_char(o, '"');
}

/* a cell: quoted only when it must be (RFC 4180) */
static void cell(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (strpbrk(s, ",\"\r\n"))
		quoted(o, s, n);
	else
		out_mem(o, s, n);
}

/* "0x" and n uppercase hex digits */
static void hex_upper(struct out *o, uint64_t v, unsigned int n)
{
	static const char hexd[] = "0123456789ABCDEF";
	char *b = out_room(o, n + 2);
	unsigned int i;

	*b++ = '0';
	*b++ = 'x';
	for (i = 0; i < n; i++)
		b[i] = hexd[(v >> (4 * (n - 1 - i))) & 0xf];
	out_end(o, b + n);
}

static void extra(struct app *a, const char *source, int chan,
		  unsigned int master, unsigned int channel, const char *guid,
		  uint64_t offset, int complete)
{
	struct out *o = &a->out;

	if (!a->o.csv_extra)
		return;
	out_char(o, ',');
	if (source)
		cell(o, source);
	out_char(o, ',');
	if (chan)
		out_u64(o, master);
	out_char(o, ',');
	if (chan)
		out_u64(o, channel);
	out_char(o, ',');
	out_str(o, guid);
	out_char(o, ',');
	out_u64(o, offset);
	out_char(o, ',');
	if (complete >= 0)
		out_str(o, complete ? "true" : "false");
}

static void csv_syst(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	struct out *o = &a->out;
	uint8_t key[16];
	char g[MTTD_GUID_STR];
	int sev = (m->flags & MTTD_SYST_F_SEV) != 0;

	out_str(o, mttd_syst_status_name(m->status));
	out_char(o, ',');
	quoted(o, v->text, v->text_len);
	out_char(o, ',');
	cell(o, v->type);
	out_char(o, ',');
	if (sev)
		out_str(o, mttd_syst_severity_name(m->severity));
	out_char(o, ',');
	mttd_syst_key_guid(m, key);
	mttd_syst_guid_str(key, g);
	cell(o, m->client ? m->client : g);
	out_char(o, ',');
	if (sev)
		out_u64(o, m->unit);
	out_char(o, ',');
	if (m->flags & MTTD_SYST_F_TS)
		hex_upper(o, m->ts, 16);
	out_char(o, ',');
	if (m->flags & MTTD_SYST_F_STP_TS)
		hex_upper(o, m->stp_ts, 16);
	out_char(o, ',');
	cell(o, v->loc);
	out_char(o, ',');
	out_u64(o, m->size);
	out_char(o, ',');
	if (m->flags & MTTD_SYST_F_CHK)
		hex_upper(o, m->crc, 8);
	out_char(o, ',');
	if (m->collateral)
		cell(o, m->collateral);
	extra(a, v->source, (m->flags & MTTD_SYST_F_STP) != 0, m->master,
	      m->channel, v->guid, m->offset,
	      !(m->flags & (MTTD_SYST_F_INCOMPLETE | MTTD_SYST_F_TRUNCATED)));
	out_char(o, '\n');
}

/* a row for lost data or a bad input line: status and text, the rest
 * empty (the extra columns: master/channel when known, the offset) */
static void row_start(struct out *o, const char *status)
{
	out_str(o, status);
	out_str(o, ",\"");
}

static void row_end(struct app *a, int chan, unsigned int master,
		    unsigned int channel, uint64_t offset)
{
	out_str(&a->out, "\",,,,,,,,,,");
	extra(a, NULL, chan, master, channel, "", offset, -1);
	out_char(&a->out, '\n');
}

static void csv_event(struct app *a, const struct mttd_msg_event *e)
{
	int chan = e->reason == MTTD_LOSS_GERR || e->reason == MTTD_LOSS_MERR;

	if (e->kind != MTTD_ME_LOSS)
		return;		/* sync, version, frequency: not data */
	row_start(&a->out, "LOSS");
	loss_text(&a->out, e);	/* no quotes in it */
	row_end(a, chan, e->master, e->channel, e->offset);
}

static void csv_syst_event(struct app *a, const struct mttd_syst_event *e)
{
	struct out *o = &a->out;

	if (e->kind == MTTD_SYST_EV_RESYNC) {
		row_start(o, "LOSS");
		out_str(o, "SyS-T framing lost at offset ");
		out_u64(o, e->offset);
		out_str(o, ", ");
		out_u64(o, e->count);
		out_str(o, " bytes skipped");
	} else {
		row_start(o, "BAD_INPUT_LINE");
		out_str(o, "bad SYS-T RAW DATA line ");
		out_u64(o, e->count);
		out_str(o, " at offset ");
		out_u64(o, e->offset);
	}
	row_end(a, 0, 0, 0, e->offset);
}

/* CSV holds SyS-T messages (and losses) only */
static void csv_packet(struct app *a, const struct mttd_stp_event *e)
{
	(void)a;
	(void)e;
}

static void csv_msg(struct app *a, const struct mttd_msg *m)
{
	(void)a;
	(void)m;
}

const struct printer csv_printer = {
	.begin = csv_begin,
	.syst = csv_syst,
	.syst_event = csv_syst_event,
	.packet = csv_packet,
	.desync = csv_packet,
	.msg = csv_msg,
	.event = csv_event,
};
