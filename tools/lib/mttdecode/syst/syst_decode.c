// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_decode.c - what each SyS-T message type carries, rendered as text,
 * with collateral lookups (client, module, file, catalog and short
 * formats, build and protocol names).
 *
 *  BUILD    COMPACT32/64: id from the header (syst_parse.c); LONG: u64 id
 *           then optional text.  Text "build 0x<id>[ <text>]".
 *  SHORT    value; text is the collateral Short32/Short64 format rendered
 *           with value & ~Mask as its argument, else "0x<value>".
 *  STRING   the payload up to its NUL or its end (Linux p_sys-t sends no
 *           NUL); PRINTF_32/64: format, NUL, packed arguments.
 *  CATALOG  u32/u64 id, packed arguments (P32/P64: 32/64-bit long and
 *           pointers); format from the collateral, else MISSING_COLLATERAL
 *           and "catalog 0x<id>[ args <hex>]".
 *  RAW      subtype = protocol id; "<hex>"; the collateral protocol name
 *           is a format rendered with the id (m->protocol).
 *  CLOCK    TRANSPORT_SYNC: u64 clock, u64 Hz; "clock <value> at <hz> Hz".
 *  SBD      u32/u64 id, optional address (16/32/64), optional NUL-ended
 *           name, blob; "sbd 0x<id>[ <name>][ @0x<addr>] <n> bytes: <hex>".
 */
#include "internal/coll.h"
#include "internal/plain.h"
#include "syst_fmt.h"
#include "syst_internal.h"

#define HEX_MAX 256	/* payload bytes shown in hex at most */

static void hex_capped(struct mttd__tbuf *tb, const uint8_t *p, size_t n)
{
	mttd__tb_hexbytes(tb, p, n < HEX_MAX ? n : HEX_MAX);
	if (n > HEX_MAX)
		mttd__tb_put(tb, "...", 3);
}

/* the client's entry for key in table; a table the client has no
 * entries in (most clients have no modules, for one) is not looked at,
 * and the lookups are kept in the decoder's cache (catalog ids repeat) */
static const struct mttd_coll_entry *find(struct mttd_syst *s,
					  const struct mttd__ccache *cc,
					  unsigned int table, uint64_t key)
{
	struct mttd__ecache *c;

	if (!(cc->tables >> table & 1))
		return NULL;
	_Static_assert(SYST_ENTRY_CACHE == 1u << 6, "the hash's width");
	c = &s->ecache[((key ^ (uint64_t)table << 56) *
			0x9e3779b97f4a7c15ull) >> (64 - 6)];
	if (c->client != cc->client || c->key != key || c->table != table) {
		c->e = mttd_coll_find(s->coll, cc->client, table, key);
		c->client = cc->client;
		c->key = key;
		c->table = table;
	}
	return c->e;
}

/* text = p[0..n) up to its first NUL, without copying; the scan for
 * the NUL is the scan for plain bytes (a NUL is not one) */
static void string_text(struct mttd_syst *s, struct mttd_syst_msg *m,
			const uint8_t *p, size_t n)
{
	size_t k = mttd__plain_run(p, n, s->avx2);
	const uint8_t *nul;

	m->text = (const char *)p;
	if (k == n || !p[k]) {
		m->text_len = k;
		m->flags |= MTTD_SYST_F_PLAIN;
		return;
	}
	nul = memchr(p + k, 0, n - k);
	m->text_len = nul ? (size_t)(nul - p) : n;
}

static void render(struct mttd_syst *s, struct mttd_syst_msg *m,
		   const char *fmt, size_t flen, const uint8_t *args,
		   size_t nargs, unsigned int ptr)
{
	struct mttd__args a = {
		.p = args, .n = nargs, .ptr = ptr, .m = m,
	};

	mttd__fmt(&s->text, fmt, flen, &a);
	if (a.missing)
		mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
}

/* a collateral entry's format into tb: compiled when the entry was
 * loaded, else (no memory for it then) interpreted, the same text */
static void fmt_entry(struct mttd__tbuf *tb, const struct mttd_coll_entry *e,
		      struct mttd__args *a)
{
	const struct mttd__fmtc *c = mttd__coll_fmtc(e);

	if (c)
		mttd__fmt_run(tb, c, a);
	else
		mttd__fmt(tb, e->text, e->text_len, a);
}

/* a collateral entry's format as the message's text */
static void render_entry(struct mttd_syst *s, struct mttd_syst_msg *m,
			 const struct mttd_coll_entry *e, const uint8_t *args,
			 size_t nargs, unsigned int ptr)
{
	struct mttd__args a = {
		.p = args, .n = nargs, .ptr = ptr, .m = m, .avx2 = s->avx2,
	};

	fmt_entry(&s->text, e, &a);
	if (a.missing)
		mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
	if (a.plain)
		m->flags |= MTTD_SYST_F_PLAIN;
}

static void build(struct mttd_syst *s, struct mttd_syst_msg *m, const struct mttd__ccache *cc)
{
	struct mttd__tbuf *tb = &s->text;
	const struct mttd_coll_entry *e;

	if (m->subtype == MTTD_SYST_BUILD_LONG) {
		if (m->payload_len < 8) {
			mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
			return;
		}
		m->value = mttd__le64v(m->payload);
		m->flags |= MTTD_SYST_F_VALUE;
	} else if (m->subtype > MTTD_SYST_BUILD_LONG) {
		mttd__syst_status(m, MTTD_SYST_UNKNOWN_TYPE);
		return;
	}
	if (!(m->flags & MTTD_SYST_F_VALUE))
		return;		/* a compact one cut short */
	mttd__tb_puts(tb, "build ");
	mttd__tb_hex(tb, m->value, 1);
	if (m->subtype == MTTD_SYST_BUILD_LONG && m->payload_len > 8) {
		const uint8_t *t = m->payload + 8;
		const uint8_t *nul = memchr(t, 0, m->payload_len - 8);
		size_t n = nul ? (size_t)(nul - t) : m->payload_len - 8;

		if (n) {
			mttd__tb_putc(tb, ' ');
			mttd__tb_put(tb, t, n);
		}
		if (mttd__plain_run(t, n, s->avx2) == n)
			m->flags |= MTTD_SYST_F_PLAIN;
		return;
	}
	e = find(s, cc, MTTD_COLL_BUILD, m->value);
	if (e && e->text_len) {
		mttd__tb_putc(tb, ' ');
		mttd__tb_put(tb, e->text, e->text_len);
		if (mttd__plain_run(e->text, e->text_len, s->avx2) !=
		    e->text_len)
			return;
	}
	m->flags |= MTTD_SYST_F_PLAIN;
}

static void short_msg(struct mttd_syst *s, struct mttd_syst_msg *m,
		      const struct mttd__ccache *cc)
{
	int is64 = m->type == MTTD_SYST_SHORT64;
	const struct mttd_coll_entry *e;
	uint8_t arg[8];
	uint64_t v;
	unsigned int i;

	if (!(m->flags & MTTD_SYST_F_VALUE))
		return;
	e = find(s, cc, is64 ? MTTD_COLL_SHORT64 : MTTD_COLL_SHORT32,
		 m->value);
	if (!e) {
		mttd__tb_hex(&s->text, m->value, 1);
		m->flags |= MTTD_SYST_F_PLAIN;
		return;
	}
	v = m->value & ~e->mask;
	for (i = 0; i < 8; i++)
		arg[i] = (uint8_t)(v >> (8 * i));
	render_entry(s, m, e, arg, is64 ? 8 : 4, is64 ? 8 : 4);
	/* a format that asks for more than the value is not "too short" */
	if (m->status == MTTD_SYST_TOO_SHORT)
		m->status = MTTD_SYST_OK;
}

static void string_msg(struct mttd_syst *s, struct mttd_syst_msg *m)
{
	const uint8_t *p = m->payload, *nul;
	size_t n = m->payload_len;

	switch (m->subtype) {
	case MTTD_SYST_STRING_GENERIC:
	case MTTD_SYST_STRING_FUNCTIONENTER:
	case MTTD_SYST_STRING_FUNCTIONEXIT:
	case MTTD_SYST_STRING_INVALIDPARAM:
	case MTTD_SYST_STRING_ASSERT:
		string_text(s, m, p, n);
		return;
	case MTTD_SYST_STRING_PRINTF_32:
	case MTTD_SYST_STRING_PRINTF_64:
		nul = memchr(p, 0, n);
		if (!nul) {
			render(s, m, (const char *)p, n, p + n, 0,
			       m->subtype == MTTD_SYST_STRING_PRINTF_64 ? 8 : 4);
			return;
		}
		render(s, m, (const char *)p, (size_t)(nul - p), nul + 1,
		       n - (size_t)(nul - p) - 1,
		       m->subtype == MTTD_SYST_STRING_PRINTF_64 ? 8 : 4);
		return;
	default:
		mttd__syst_status(m, MTTD_SYST_UNKNOWN_TYPE);
		string_text(s, m, p, n);
		return;
	}
}

static void catalog(struct mttd_syst *s, struct mttd_syst_msg *m,
		    const struct mttd__ccache *cc)
{
	unsigned int idsz, ptr;
	const struct mttd_coll_entry *e;
	const uint8_t *args;
	size_t nargs, i;

	switch (m->subtype) {
	case MTTD_SYST_CATALOG_ID32_P32: idsz = 4; ptr = 4; break;
	case MTTD_SYST_CATALOG_ID64_P32: idsz = 8; ptr = 4; break;
	case MTTD_SYST_CATALOG_ID32_P64: idsz = 4; ptr = 8; break;
	case MTTD_SYST_CATALOG_ID64_P64: idsz = 8; ptr = 8; break;
	default:
		mttd__syst_status(m, MTTD_SYST_UNKNOWN_TYPE);
		return;
	}
	if (m->payload_len < idsz) {
		mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
		return;
	}
	m->value = mttd__lexx(m->payload, idsz);
	m->flags |= MTTD_SYST_F_VALUE;
	args = m->payload + idsz;
	nargs = m->payload_len - idsz;
	e = find(s, cc, idsz == 4 ? MTTD_COLL_CATALOG32 :
		 MTTD_COLL_CATALOG64, m->value);
	if (e) {
		if (e->file >= 0 && e->line >= 0) {
			const struct mttd_coll_entry *f;

			m->flags |= MTTD_SYST_F_CATLOC;
			m->cat_file_id = (uint32_t)e->file;
			m->cat_line = (uint32_t)e->line;
			f = find(s, cc, MTTD_COLL_FILE, (uint64_t)e->file);
			m->cat_file = f ? f->text : NULL;
		}
		render_entry(s, m, e, args, nargs, ptr);
		return;
	}
	mttd__syst_status(m, MTTD_SYST_MISSING_COLLATERAL);
	mttd__tb_puts(&s->text, "catalog ");
	mttd__tb_hex(&s->text, m->value, idsz * 2);
	if (nargs) {
		mttd__tb_puts(&s->text, " args ");
		hex_capped(&s->text, args, nargs);
	}
	/* without the format: 32-bit argument slots */
	m->flags |= MTTD_SYST_F_PLAIN;	/* hex digits */
	for (i = 0; i + 4 <= nargs && m->nargs < MTTD_SYST_MAX_ARGS; i += 4) {
		m->args[m->nargs].kind = MTTD_SYST_ARG_UINT;
		m->args[m->nargs++].v.u = mttd__le32(args + i);
	}
}

static void raw(struct mttd_syst *s, struct mttd_syst_msg *m, const struct mttd__ccache *cc)
{
	const struct mttd_coll_entry *e;

	m->value = m->subtype;
	m->flags |= MTTD_SYST_F_VALUE;
	e = find(s, cc, MTTD_COLL_PROTOCOL, m->subtype);
	if (e) {
		/* the name is a format given the protocol id ("Protocol%d") */
		uint8_t arg[4] = { m->subtype };
		struct mttd__args a = { .p = arg, .n = 4, .ptr = 4 };

		mttd__tb_reset(&s->proto);
		fmt_entry(&s->proto, e, &a);
		m->protocol = mttd__tb_str(&s->proto);
	}
	hex_capped(&s->text, m->payload, m->payload_len);
	m->flags |= MTTD_SYST_F_PLAIN;
}

static void clock_msg(struct mttd_syst *s, struct mttd_syst_msg *m)
{
	if (m->subtype != MTTD_SYST_CLOCK_SYNC) {
		mttd__syst_status(m, MTTD_SYST_UNKNOWN_TYPE);
		return;
	}
	if (m->payload_len < 16) {
		mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
		return;
	}
	m->value = mttd__le64v(m->payload);
	m->freq = mttd__le64v(m->payload + 8);
	m->flags |= MTTD_SYST_F_VALUE | MTTD_SYST_F_FREQ;
	mttd__tb_puts(&s->text, "clock ");
	mttd__tb_dec(&s->text, m->value);
	mttd__tb_puts(&s->text, " at ");
	mttd__tb_dec(&s->text, m->freq);
	mttd__tb_puts(&s->text, " Hz");
	m->flags |= MTTD_SYST_F_PLAIN;
	mttd__syst_clock_sync(s, m);
}

static void sbd(struct mttd_syst *s, struct mttd_syst_msg *m)
{
	static const uint8_t addr_size[4] = { 0, 2, 4, 8 };
	unsigned int idsz = (m->subtype & MTTD_SYST_SBD_ID64) ? 8 : 4;
	unsigned int asz = addr_size[(m->subtype >> 2) & 3];
	const uint8_t *p = m->payload, *name = NULL;
	size_t n = m->payload_len, q = idsz + asz, nlen = 0;
	struct mttd__tbuf *tb = &s->text;

	if (m->subtype & 0x30) {
		mttd__syst_status(m, MTTD_SYST_UNKNOWN_TYPE);
		return;
	}
	if (n < q) {
		mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
		return;
	}
	m->value = mttd__lexx(p, idsz);
	m->sbd_addr = mttd__lexx(p + idsz, asz);
	m->flags |= MTTD_SYST_F_VALUE;
	if (m->subtype & MTTD_SYST_SBD_NAME) {
		const uint8_t *nul = memchr(p + q, 0, n - q);

		name = p + q;
		if (!nul) {
			mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
			nlen = n - q;
			q = n;
		} else {
			nlen = (size_t)(nul - name);
			q += nlen + 1;
		}
	}
	mttd__tb_puts(tb, "sbd ");
	mttd__tb_hex(tb, m->value, idsz * 2);
	if (name) {
		mttd__tb_putc(tb, ' ');
		mttd__tb_put(tb, name, nlen);
	}
	if (asz) {
		mttd__tb_puts(tb, " @");
		mttd__tb_hex(tb, m->sbd_addr, asz * 2);
	}
	mttd__tb_putc(tb, ' ');
	mttd__tb_dec(tb, n - q);
	mttd__tb_puts(tb, " bytes");
	if (n > q) {
		mttd__tb_puts(tb, ": ");
		hex_capped(tb, p + q, n - q);
	}
}

void mttd__syst_content(struct mttd_syst *s, struct mttd_syst_msg *m)
{
	static const struct mttd__ccache none = { .client = -1 };
	const struct mttd__ccache *cc = &none;

	mttd__tb_reset(&s->text);
	m->text = NULL;
	if (s->coll) {
		cc = mttd__syst_client(s, m);
		if (cc->client >= 0) {
			const struct mttd_coll_entry *e;

			m->client = cc->name;
			m->collateral = cc->file;
			if ((m->flags & (MTTD_SYST_F_SEV | MTTD_SYST_F_GUID)) ==
			    MTTD_SYST_F_SEV) {
				e = find(s, cc, MTTD_COLL_MODULE, m->origin);
				m->module = e ? e->text : NULL;
			}
			if ((m->flags & MTTD_SYST_F_LOC) && !(m->loc_format & 2)) {
				e = find(s, cc, MTTD_COLL_FILE, m->loc_file);
				m->file = e ? e->text : NULL;
			}
		}
	}
	if (m->status != MTTD_SYST_TOO_SHORT || m->type == MTTD_SYST_STRING) {
		switch (m->type) {
		case MTTD_SYST_BUILD: build(s, m, cc); break;
		case MTTD_SYST_SHORT32:
		case MTTD_SYST_SHORT64: short_msg(s, m, cc); break;
		case MTTD_SYST_STRING: string_msg(s, m); break;
		case MTTD_SYST_CATALOG: catalog(s, m, cc); break;
		case MTTD_SYST_RAW: raw(s, m, cc); break;
		case MTTD_SYST_CLOCK: clock_msg(s, m); break;
		case MTTD_SYST_SBD: sbd(s, m); break;
		default:
			mttd__syst_status(m, MTTD_SYST_UNKNOWN_TYPE);
			break;
		}
	}
	if (!m->text) {
		m->text = mttd__tb_str(&s->text);
		m->text_len = s->text.len;
	}
	if (s->text.cut)
		m->flags |= MTTD_SYST_F_TEXT_CUT;
	if (m->flags & MTTD_SYST_F_TS)
		mttd__syst_clock_apply(s, m);
}
