// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_csv.c - SyS-T messages as CSV with the MIPI reference printer's
 * columns, a header line first:
 *
 *   Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,
 *   Context TimeStamp,Location,Raw Length,Checksum,Collateral
 *
 * Decode Status  OK, CHECKSUM_ERROR, TOO_SHORT, UNKNOWN_TYPE,
 *                MISSING_COLLATERAL
 * Payload        the rendered text, in double quotes ("" for a quote,
 *                control bytes and invalid UTF-8 escaped as \n \xNN ...)
 * Type           STRING:GENERIC, CATALOG:ID32P64, SHORT32, RAW:<n> ...
 * Severity       MAX .. DEBUG, empty for SHORT and compact BUILD
 * Origin         the message's GUID, else its pseudo-GUID
 *                {00000000-<master>-<channel>-<module>00-000000000000}
 * Unit           the unit field (empty for SHORT and compact BUILD)
 * Message TimeStamp  the SyS-T timestamp, decimal (empty if none)
 * Context TimeStamp  the STP timestamp, decimal (empty if none)
 * Location       file:line or 0x<address> (quoted), empty if none
 * Raw Length     bytes in the message
 * Checksum       0x<crc> as received, empty if none
 * Collateral     the collateral client name (quoted), empty if none
 * Stream events (losses, sync) are not written.
 */
#include <string.h>

#include "cli.h"
#include "esc.h"

static const char header[] =
	"Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,"
	"Context TimeStamp,Location,Raw Length,Checksum,Collateral\n";

static void csv_begin(struct app *a)
{
	out_str(&a->out, header);
}

static void quoted(struct out *o, const char *s, size_t n)
{
	out_char(o, '"');
	esc_csv(o, s, n);
	out_char(o, '"');
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
	out_str(o, v->type);
	out_char(o, ',');
	if (sev)
		out_str(o, mttd_syst_severity_name(m->severity));
	out_char(o, ',');
	mttd_syst_key_guid(m, key);
	mttd_syst_guid_str(key, g);
	out_str(o, g);
	out_char(o, ',');
	if (sev)
		out_u64(o, m->unit);
	out_char(o, ',');
	if (m->flags & MTTD_SYST_F_TS)
		out_u64(o, m->ts);
	out_char(o, ',');
	if (m->flags & MTTD_SYST_F_STP_TS)
		out_u64(o, m->stp_ts);
	out_char(o, ',');
	if (v->loc[0])
		quoted(o, v->loc, strlen(v->loc));
	out_char(o, ',');
	out_u64(o, m->size);
	out_char(o, ',');
	if (m->flags & MTTD_SYST_F_CHK) {
		out_str(o, "0x");
		out_hexn(o, m->crc, 8);
	}
	out_char(o, ',');
	if (m->client)
		quoted(o, m->client, strlen(m->client));
	out_char(o, '\n');
}

/* CSV holds SyS-T messages only */
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

static void csv_event(struct app *a, const struct mttd_msg_event *e)
{
	(void)a;
	(void)e;
}

const struct printer csv_printer = {
	.begin = csv_begin,
	.syst = csv_syst,
	.packet = csv_packet,
	.desync = csv_packet,
	.msg = csv_msg,
	.event = csv_event,
};
