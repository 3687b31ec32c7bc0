// SPDX-License-Identifier: GPL-2.0
/*
 * fmt_csv.c - SyS-T messages as the MIPI reference printer (systprint)
 * writes them in CSV: the same header line, columns, order and cell
 * spellings, so a script written for the printer's CSV reads ours:
 *
 *   Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,
 *   Context TimeStamp,Location,Raw Length,Checksum,Collateral
 *
 * What each cell holds, as the printer's source has it (details and the
 * few deliberate differences in Documentation/mttdecode.rst):
 * Decode Status  OK, CHECKSUM_ERROR, TOO_SHORT, UNKNOWN_TYPE,
 *                MISSING_COLLATERAL (a catalog message whose client has
 *                no collateral; an id missing from a client's collateral
 *                is OK with "Undefined catalog id 0x0x<id>"); ours only:
 *                LOSS and BAD_INPUT_LINE rows
 * Payload        always quoted; '"' doubled, a line feed written as a
 *                space, other bytes as they are.  BUILD "0x<id>" (8 or
 *                16 uppercase digits; LONG: then " <text>"), SHORT
 *                without a collateral format "0x<value>" (8/16 digits),
 *                RAW the payload in lowercase hex; a failed message
 *                (CHECKSUM_ERROR, TOO_SHORT, UNKNOWN_TYPE,
 *                MISSING_COLLATERAL) all its bytes in uppercase hex,
 *                and (but for MISSING_COLLATERAL) every other cell empty
 * Type           STRING:GENERIC, CATALOG:ID32P64, SHORT32, RAW:<protocol>
 * Severity       MAX .. DEBUG; MAX for SHORT and compact BUILD
 * Origin         the collateral client name, else the GUID, else the
 *                origin (module) number; always empty for SHORT and
 *                compact BUILD (--short-guid or not)
 * Unit           decimal, 0 for SHORT and compact BUILD
 * Message TimeStamp  0x and 16 uppercase hex digits, empty if none
 * Context TimeStamp  the STP timestamp likewise, 0 without one
 * Location       file:line (collateral file name or its id), 0x<address>
 *                (8 or 16 uppercase digits), or both space separated
 * Raw Length     bytes in the message
 * Checksum       0x and 8 uppercase hex digits as received, if any
 * Collateral     the collateral file the client came from
 * Cells other than Payload are quoted only when they hold a comma, quote
 * or line break.  --csv-extra adds Source,Master,Channel,GUID,Offset,
 * Complete at the end of each row.
 *
 * MTT frames (ours; the printer has none) fill the same columns:
 * Decode Status  OK, CHECKSUM_ERROR (a CRC that does not match); LOSS
 *                rows for MTT framing lost in a raw file
 * Payload        [<name> = ]<value>: the hint or dictionary name, then
 *                the typed value as the text output shows it (vectors
 *                as lists, SHOWHEX in hex); META: the component's name
 * Type           MTT:TRACE, MTT:META, MTT:RAW... (MTT:0x<cmd> unknown)
 * Severity       the MTT level (INFO, API_RETURN, USER3...), empty
 *                without one
 * Origin         the component's name, else comp:0x<id>
 * Unit           the context (thread) id, empty without one
 * Message TimeStamp  the frame's own timestamp (ns), empty if none
 * Context TimeStamp  the STP timestamp, 0 without one
 * Location       the trace id (the caller's address) as 0x<8 digits>,
 *                empty when 0
 * Raw Length     bytes in the frame; Checksum and Collateral empty
 *
 * RISC-V encapsulated packets not decoded as STP (ours too):
 * Decode Status  OK
 * Payload        the payload bytes in lowercase hex
 * Type           ENCAP:FLOW<flow>
 * Origin         srcid:<srcID>
 * Message TimeStamp  the packet's timestamp, empty without extend
 * Context TimeStamp  0; Raw Length: payload bytes; the rest empty
 */
#include <string.h>

#include "cli.h"
#include "esc.h"
#include "internal/simd.h"

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

/* does any of the 8 bytes at s hold '"' or a line feed?  (a byte is
 * zero in x ^ c exactly where it equals c; the test below has no false
 * positives for "some byte is zero") */
static int has_quote_lf(const char *s)
{
	const uint64_t ones = 0x0101010101010101ull, hi = 0x80 * ones;
	uint64_t x, a, b;

	memcpy(&x, s, sizeof(x));
	a = x ^ ('"' * ones);
	b = x ^ ('\n' * ones);
	return (((a - ones) & ~a) | ((b - ones) & ~b)) & hi ? 1 : 0;
}

/* the bytes of s[0..n) as cell text into p, which has room for 2n + 16
 * bytes (what may be stored past the text is overwritten later): runs
 * without '"' or a line feed copied 16 (SSE2) or 8 bytes a step; returns
 * the end */
static char *put_cell_text(char *p, const char *s, size_t n)
{
	size_t i = 0;

#if MTTD_SSE2
	const __m128i dq = _mm_set1_epi8('"'), lf = _mm_set1_epi8('\n');

	while (n - i >= 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(s + i));
		unsigned int mk = (unsigned int)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(x, dq),
				     _mm_cmpeq_epi8(x, lf)));
		unsigned int k;

		_mm_storeu_si128((__m128i *)p, x);
		if (!mk) {
			p += 16;
			i += 16;
			continue;
		}
		k = (unsigned int)__builtin_ctz(mk);
		p += k;
		i += k;
		if (s[i] == '"') {
			*p++ = '"';
			*p++ = '"';
		} else {
			*p++ = ' ';
		}
		i++;
	}
	if (n >= 16 && i < n) {
		/* the last 16 bytes: when none of them is special, the ones
		 * before i among them went out as they are, just before p,
		 * and one store ends the text */
		__m128i x = _mm_loadu_si128((const __m128i *)(s + n - 16));

		if (!_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, dq),
						    _mm_cmpeq_epi8(x, lf)))) {
			_mm_storeu_si128((__m128i *)(p - (16 - (n - i))), x);
			return p + (n - i);
		}
	}
#endif
	while (n - i >= 8 && !has_quote_lf(s + i)) {
		memcpy(p, s + i, 8);
		p += 8;
		i += 8;
	}
	if (n >= 8 && i < n && n - i < 8 && !has_quote_lf(s + n - 8)) {
		/* as above, with the last 8 bytes (the loop may also have
		 * stopped before a special byte: then not) */
		memcpy(p - (8 - (n - i)), s + n - 8, 8);
		return p + (n - i);
	}
	for (; i < n; i++) {
		char c = s[i];

		if (c == '"')
			*p++ = '"';
		*p++ = c == '\n' ? ' ' : c;
	}
	return p;
}

/* cell text as the printer writes it: '"' doubled, a line feed as a
 * space (its rows never break), every other byte as it is; through
 * put_cell_text() when twice the text fits in the buffer */
static void cell_text(struct out *o, const char *s, size_t n)
{
	size_t i = 0, from = 0, end;

	if (n <= (OUT_BUF - 16) / 2) {
		out_end(o, put_cell_text(out_room(o, 2 * n + 16), s, n));
		return;
	}
	for (;;) {
		while (n - i >= 8 && !has_quote_lf(s + i))
			i += 8;
		end = n - i > 8 ? i + 8 : n;
		for (; i < end; i++) {
			if (s[i] != '"' && s[i] != '\n')
				continue;
			out_mem(o, s + from, i - from);
			out_str(o, s[i] == '"' ? "\"\"" : " ");
			from = i + 1;
		}
		if (i >= n)
			break;
	}
	out_mem(o, s + from, n - from);
}

static void quoted(struct out *o, const char *s, size_t n)
{
	out_char(o, '"');
	cell_text(o, s, n);
	out_char(o, '"');
}

/* the bytes that make a cell need quotes (RFC 4180) */
#define Q1(c) ((c) == ',' || (c) == '"' || (c) == '\r' || (c) == '\n')
#define Q4(c) Q1(c), Q1((c) + 1), Q1((c) + 2), Q1((c) + 3)
#define Q16(c) Q4(c), Q4((c) + 4), Q4((c) + 8), Q4((c) + 12)
#define Q64(c) Q16(c), Q16((c) + 16), Q16((c) + 32), Q16((c) + 48)
static const uint8_t quote_byte[256] = { Q64(0), Q64(64), Q64(128),
					 Q64(192) };

/* does any of the 8 bytes at s need quotes (',', '"', '\r', '\n')? */
static inline int quote_in8(const char *s)
{
	const uint64_t ones = 0x0101010101010101ull, hi = 0x80 * ones;
	uint64_t x, a, b, c, d;

	memcpy(&x, s, sizeof(x));
	a = x ^ (',' * ones);
	b = x ^ ('"' * ones);
	c = x ^ ('\r' * ones);
	d = x ^ ('\n' * ones);
	return (((a - ones) & ~a) | ((b - ones) & ~b) | ((c - ones) & ~c) |
		((d - ones) & ~d)) & hi ? 1 : 0;
}

#if MTTD_SSE2
static inline int quote_in16(const char *s)
{
	__m128i x = _mm_loadu_si128((const __m128i *)s);
	__m128i q = _mm_or_si128(
		_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(',')),
			     _mm_cmpeq_epi8(x, _mm_set1_epi8('"'))),
		_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\r')),
			     _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))));

	return _mm_movemask_epi8(q) != 0;
}
#endif

/* a step at a time (16 bytes with SSE2, else 8), the last step over
 * the last bytes (overlapping); bytes one by one below 8 */
static inline int needs_quotes(const char *s, size_t n)
{
	size_t i;

#if MTTD_SSE2
	if (n >= 16) {
		for (i = 0; n - i > 16; i += 16)
			if (quote_in16(s + i))
				return 1;
		return quote_in16(s + n - 16);
	}
#endif
	if (n >= 8) {
		for (i = 0; n - i > 8; i += 8)
			if (quote_in8(s + i))
				return 1;
		return quote_in8(s + n - 8);
	}
	for (i = 0; i < n; i++)
		if (quote_byte[(uint8_t)s[i]])
			return 1;
	return 0;
}

/* a cell of n bytes: quoted only when it must be (RFC 4180) */
static void cell_n(struct out *o, const char *s, size_t n)
{
	if (needs_quotes(s, n))
		quoted(o, s, n);
	else
		out_mem(o, s, n);
}

void csv_cell(struct out *o, const char *s, size_t n)
{
	cell_n(o, s, n);
}

static void cell(struct out *o, const char *s)
{
	cell_n(o, s, strlen(s));
}

/* the miss path of cell_cached(): s as a cell, as cell() writes it,
 * into c; -1 when it may not fit */
static int cell_fill(struct name_cache *c, const char *s)
{
	size_t n = strlen(s), len = 0, i;
	int q = needs_quotes(s, n);

	if (2 * n + 2 > sizeof(c->str))
		return -1;
	if (q)
		c->str[len++] = '"';
	for (i = 0; i < n; i++) {
		if (q && s[i] == '"')
			c->str[len++] = '"';
		c->str[len++] = q && s[i] == '\n' ? ' ' : s[i];
	}
	if (q)
		c->str[len++] = '"';
	c->len = len;
	c->key = s;
	return 0;
}

/* a name that comes back on many rows (a collateral's client, its file)
 * as a cell, from the cache of field f (NC_CSV_*) by its address: s must
 * not change while the app lives, as for name_esc() */
_Static_assert(NAME_MAX_ESC >= 32, "cell_cached() copies 32 bytes");

static void cell_cached(struct app *a, unsigned int f, const char *s)
{
	struct name_cache *c = name_slot(a, f, s);

	if (c->key != s && cell_fill(c, s)) {
		cell(&a->out, s);
		return;
	}
	if (c->len <= 32) {
		/* one constant-size copy (str holds NAME_MAX_ESC bytes) */
		memcpy(out_room(&a->out, 32), c->str, 32);
		a->out.len += c->len;
		return;
	}
	out_mem(&a->out, c->str, c->len);
}

/* "00" "01" ... "FF" */
#define UD(v) (char)((v) < 10 ? '0' + (v) : 'A' + (v) - 10)
#define U1(x) UD((x) >> 4), UD((x) & 0xf)
#define U4(x) U1(x), U1((x) + 1), U1((x) + 2), U1((x) + 3)
#define U16(x) U4(x), U4((x) + 4), U4((x) + 8), U4((x) + 12)
#define U64(x) U16(x), U16((x) + 16), U16((x) + 32), U16((x) + 48)
static const char hex2u[512] = { U64(0), U64(64), U64(128), U64(192) };

/* the 8 uppercase hex digits of v, most significant first, as the
 * bytes of a word in memory order: each nibble spread to a byte, then
 * '0' added and 7 more where it is above 9 (no lane carries) */
static inline uint64_t hex8_upper(uint32_t v)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t x = v;

	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	/* nibble i in byte i (counted from the least significant) */
	x += '0' * ones + (((x + 6 * ones) >> 4) & ones) * 7;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* "0x" and the low n (8 or 16) uppercase hex digits of v at p; the end */
static inline char *put_hex_upper(char *p, uint64_t v, unsigned int n)
{
	uint64_t w;

	*p++ = '0';
	*p++ = 'x';
	if (n == 16) {
		w = hex8_upper((uint32_t)(v >> 32));
		memcpy(p, &w, 8);
		p += 8;
	}
	w = hex8_upper((uint32_t)v);
	memcpy(p, &w, 8);
	return p + 8;
}

/* "0x" and the low n (8 or 16) uppercase hex digits of v */
static void hex_upper(struct out *o, uint64_t v, unsigned int n)
{
	out_end(o, put_hex_upper(out_room(o, n + 2), v, n));
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

/* all bytes of a message as uppercase hex: the printer's payload for a
 * message it could not decode (two digits a byte, see the docs) */
static void hex_dump_upper(struct out *o, const uint8_t *p, size_t n)
{
	out_hexpairs(o, p, n, hex2u);
}

/* a one- or two-word message (SHORT32/SHORT64, compact BUILD) */
static int is_short(const struct mttd_syst_msg *m)
{
	return m->type == MTTD_SYST_SHORT32 || m->type == MTTD_SYST_SHORT64 ||
	       (m->type == MTTD_SYST_BUILD &&
		(m->subtype == MTTD_SYST_BUILD_COMPACT32 ||
		 m->subtype == MTTD_SYST_BUILD_COMPACT64));
}

/* SHORT32/SHORT64: does the client's collateral have a format for it? */
static int short_format(struct app *a, const struct mttd_syst_msg *m)
{
	uint8_t key[16];
	int client;

	if (!a->coll || !m->client)
		return 0;
	mttd_syst_key_guid(m, key);
	client = mttd_coll_client(a->coll, key);
	return client >= 0 &&
	       mttd_coll_find(a->coll, client, m->type == MTTD_SYST_SHORT64 ?
			      MTTD_COLL_SHORT64 : MTTD_COLL_SHORT32,
			      m->value) != NULL;
}

static unsigned int catalog_id_digits(const struct mttd_syst_msg *m)
{
	return m->subtype == MTTD_SYST_CATALOG_ID64_P32 ||
	       m->subtype == MTTD_SYST_CATALOG_ID64_P64 ? 16 : 8;
}

/* the Payload cell of a decoded message, inside its quotes */
static void payload(struct app *a, const struct sview *v, int undef)
{
	const struct mttd_syst_msg *m = v->m;
	struct out *o = &a->out;
	const char *t, *nul;
	size_t n;

	switch (m->type) {
	case MTTD_SYST_BUILD:
		hex_upper(o, m->value,
			  m->subtype == MTTD_SYST_BUILD_COMPACT32 ? 8 : 16);
		if (m->subtype != MTTD_SYST_BUILD_LONG || m->payload_len <= 8)
			return;
		t = (const char *)m->payload + 8;
		n = m->payload_len - 8;
		nul = memchr(t, 0, n);
		if (nul)
			n = (size_t)(nul - t);
		if (n) {
			out_char(o, ' ');
			cell_text(o, t, n);
		}
		return;
	case MTTD_SYST_SHORT32:
	case MTTD_SYST_SHORT64:
		if (!short_format(a, m)) {
			hex_upper(o, m->value,
				  m->type == MTTD_SYST_SHORT32 ? 8 : 16);
			return;
		}
		break;
	case MTTD_SYST_CATALOG:
		if (undef) {
			/* the printer's spelling, its doubled "0x" included */
			out_str(o, "Undefined catalog id 0x");
			hex_upper(o, m->value, catalog_id_digits(m));
			return;
		}
		break;
	case MTTD_SYST_RAW:
		out_hexbytes(o, m->payload, m->payload_len);
		return;
	}
	/* no '"' or line feed in it: the cell text is the text */
	if (!out_plain(o, v->plain, v->text, v->text_len))
		cell_text(o, v->text, v->text_len);
}

/* the Location cell: file:line (the message's own, else the catalog
 * format's when its File is not 0), then the address if any */
static void location(struct out *o, const struct mttd_syst_msg *m)
{
	const char *name = NULL;
	uint32_t id = 0, line = 0;
	int fl = 0, addr = (m->flags & MTTD_SYST_F_LOC) && (m->loc_format & 2);
	int q;

	if ((m->flags & MTTD_SYST_F_LOC) && !(m->loc_format & 2)) {
		fl = 1;
		name = m->file;
		id = m->loc_file;
		line = m->loc_line;
	} else if ((m->flags & MTTD_SYST_F_CATLOC) && m->cat_file_id) {
		fl = 1;
		name = m->cat_file;
		id = m->cat_file_id;
		line = m->cat_line;
	}
	q = name && needs_quotes(name, strlen(name));
	if (q)
		out_char(o, '"');
	if (fl) {
		if (name)
			cell_text(o, name, strlen(name));
		else
			out_u64(o, id);
		out_char(o, ':');
		out_u64(o, line);
		if (addr)
			out_char(o, ' ');
	}
	if (addr)
		hex_upper(o, m->loc_addr, (m->loc_format & 1) ? 16 : 8);
	if (q)
		out_char(o, '"');
}

/* the cells of the status names and of the severity names, with the
 * comma after them ("," and a quote for the status: the Payload cell
 * opens), in fixed-size slots: one constant-size copy each */
struct cell8 {
	char s[24];
	size_t n;
};

#define CELL8(str) { str, sizeof(str) - 1 }
static const struct cell8 status_cell[MTTD_SYST_STATUS_COUNT] = {
	CELL8("OK,\""), CELL8("CHECKSUM_ERROR,\""), CELL8("TOO_SHORT,\""),
	CELL8("UNKNOWN_TYPE,\""), CELL8("MISSING_COLLATERAL,\""),
};

static const struct cell8 sev_cell[8] = {
	CELL8(",MAX,"), CELL8(",FATAL,"), CELL8(",ERROR,"), CELL8(",WARNING,"),
	CELL8(",INFO,"), CELL8(",USER1,"), CELL8(",USER2,"), CELL8(",DEBUG,"),
};

static inline char *put_cell8(char *p, const struct cell8 *c)
{
	memcpy(p, c->s, sizeof(c->s));
	return p + c->n;
}

static void csv_syst(struct app *a, const struct sview *v)
{
	const struct mttd_syst_msg *m = v->m;
	struct out *o = &a->out;
	char g[MTTD_GUID_STR];
	int sev = (m->flags & MTTD_SYST_F_SEV) != 0;
	unsigned int st = m->status;
	int undef = 0;
	char *p;

	/* an id missing from the client's collateral is not MISSING_COLLATERAL
	 * for the printer; a client without collateral is */
	if (st == MTTD_SYST_MISSING_COLLATERAL && m->client) {
		st = MTTD_SYST_OK;
		undef = 1;
	}
	if (st < MTTD_SYST_STATUS_COUNT) {
		out_end(o, put_cell8(out_room(o, sizeof(status_cell[0].s)),
				     &status_cell[st]));
	} else {
		out_str(o, mttd_syst_status_name(st));
		out_str(o, ",\"");
	}
	if (st == MTTD_SYST_OK)
		payload(a, v, undef);
	else
		hex_dump_upper(o, m->raw, m->size);
	out_str(o, "\",");
	if (st != MTTD_SYST_OK && st != MTTD_SYST_MISSING_COLLATERAL) {
		/* the printer: nothing of a failed message can be trusted */
		out_str(o, ",,,,,,,,,");
		goto end;
	}
	cell_n(o, v->type, v->type_len);
	if (!sev || m->severity < 8) {
		out_end(o, put_cell8(out_room(o, sizeof(sev_cell[0].s)),
				     &sev_cell[sev ? m->severity : 0]));
	} else {
		out_char(o, ',');
		out_str(o, mttd_syst_severity_name(m->severity));
		out_char(o, ',');
	}
	if (is_short(m)) {
		/* the printer never names a short message's client */
	} else if (m->client) {
		cell_cached(a, NC_CSV_ORIGIN, m->client);
	} else if (m->flags & MTTD_SYST_F_GUID) {
		mttd_syst_guid_str(m->guid, g);
		out_str(o, g);
	} else if (sev) {
		out_u64(o, m->origin);
	}
	/* ",unit,[ts],stp ts," */
	p = out_room(o, 1 + 20 + 1 + 18 + 1 + 18 + 1);
	*p++ = ',';
	p = put_u64(p, sev ? m->unit : 0);
	*p++ = ',';
	if (m->flags & MTTD_SYST_F_TS)
		p = put_hex_upper(p, m->ts, 16);
	*p++ = ',';
	p = put_hex_upper(p, (m->flags & MTTD_SYST_F_STP_TS) ? m->stp_ts : 0,
			  16);
	*p++ = ',';
	out_end(o, p);
	if (m->flags & (MTTD_SYST_F_LOC | MTTD_SYST_F_CATLOC))
		location(o, m);
	/* ",size,[crc]," */
	p = out_room(o, 1 + 20 + 1 + 10 + 1);
	*p++ = ',';
	p = put_u64(p, m->size);
	*p++ = ',';
	if (m->flags & MTTD_SYST_F_CHK)
		p = put_hex_upper(p, m->crc, 8);
	*p++ = ',';
	out_end(o, p);
	if (m->collateral)
		cell_cached(a, NC_CSV_COLL, m->collateral);
end:
	if (a->o.csv_extra)
		extra(a, v->source, (m->flags & MTTD_SYST_F_STP) != 0,
		      m->master, m->channel, v->guid, m->offset,
		      !(m->flags & (MTTD_SYST_F_INCOMPLETE |
				    MTTD_SYST_F_TRUNCATED)));
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

/* an MTT frame: the columns the header comment above gives */
static void csv_mtt(struct app *a, const struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;
	const char *cmd = mttd_mtt_cmd_name(f->cmd);
	struct out *o = &a->out;

	out_str(o, f->crc_ok == 0 ? "CHECKSUM_ERROR,\"" : "OK,\"");
	if (v->name && f->cmd != MTT_FRAME_CMD_META) {
		cell_text(o, v->name, strlen(v->name));
		out_str(o, " = ");
	}
	cell_text(o, v->value, v->value_len);
	out_str(o, "\",MTT:");
	if (cmd)
		out_str(o, cmd);
	else
		hex_upper(o, f->cmd, 8);
	out_char(o, ',');
	if (v->level)
		out_str(o, v->level);
	out_char(o, ',');
	if (v->comp) {
		cell(o, v->comp);
	} else {
		out_str(o, "comp:");
		hex_upper(o, f->comp, 8);
	}
	out_char(o, ',');
	if (f->flags & MTT_FRAME_F_CTXT)
		out_u64(o, f->ctx);
	out_char(o, ',');
	if (f->flags & (MTT_FRAME_F_TS64 | MTT_FRAME_F_TSTV))
		hex_upper(o, f->ts, 16);
	out_char(o, ',');
	hex_upper(o, v->has_stp_ts ? v->stp_ts : 0, 16);
	out_char(o, ',');
	if (f->trace_id)
		hex_upper(o, f->trace_id, 8);
	out_char(o, ',');
	out_u64(o, f->len);
	out_str(o, ",,");
	extra(a, v->source, v->stp, v->master, v->channel, "", v->offset, 1);
	out_char(o, '\n');
}

static void csv_mtt_skip(struct app *a, uint64_t offset, uint64_t bytes)
{
	struct out *o = &a->out;

	row_start(o, "LOSS");
	out_str(o, "MTT framing lost at offset ");
	out_u64(o, offset);
	out_str(o, ", ");
	out_u64(o, bytes);
	out_str(o, " bytes skipped");
	row_end(a, 0, 0, 0, offset);
}

static void csv_encap(struct app *a, const struct mttd_rv_packet *p,
		      uint64_t offset)
{
	struct out *o = &a->out;
	size_t n = (p->payload_bits + 7) / 8;

	out_str(o, "OK,\"");
	out_hexbytes(o, p->payload, n);
	out_str(o, "\",ENCAP:FLOW");
	out_u64(o, p->flow);
	out_str(o, ",,srcid:");
	out_u64(o, p->srcid);
	out_str(o, ",,");
	if (p->extend)
		hex_upper(o, p->ts, 16);
	out_char(o, ',');
	hex_upper(o, 0, 16);
	out_str(o, ",,");
	out_u64(o, n);
	out_str(o, ",,");
	extra(a, NULL, 0, 0, 0, "", offset, 1);
	out_char(o, '\n');
}

/* CSV holds SyS-T messages, MTT frames, encapsulated packets (and
 * losses) only */
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
	.encap = csv_encap,
	.msg = csv_msg,
	.event = csv_event,
	.mtt = csv_mtt,
	.mtt_skip = csv_mtt_skip,
};
