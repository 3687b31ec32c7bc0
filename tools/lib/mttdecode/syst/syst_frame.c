// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_frame.c - where a SyS-T message ends in a plain byte stream, from
 * its own header (rules in syst.h, mttd_syst_stream_new), and whether
 * four bytes look like a header when resynchronising.
 */
#include "syst_fmt.h"
#include "syst_internal.h"

#define PAYLOAD_MAX 65535u

/* the NUL-ended field at p[q..avail): size through the NUL, 0 to wait, -1
 * if none within PAYLOAD_MAX; at the end the rest counts */
static long nul_end(const uint8_t *p, size_t q, size_t avail, int final)
{
	size_t lim = avail - q < PAYLOAD_MAX ? avail - q : PAYLOAD_MAX;
	const uint8_t *nul = memchr(p + q, 0, lim);

	if (nul)
		return (long)(nul - p) + 1;
	if (avail - q >= PAYLOAD_MAX)
		return -1;
	return final ? (long)avail : 0;
}

/* the end of arguments for format f at p[q..avail) */
static long args_end(const char *f, size_t flen, const uint8_t *p,
		     size_t q, size_t avail, unsigned int ptr, int final)
{
	struct mttd__args a = {
		.p = p + q, .n = avail - q, .ptr = ptr,
	};

	mttd__fmt(NULL, f, flen, &a);
	if (!a.missing)
		return (long)(q + a.pos);
	if (avail - q >= PAYLOAD_MAX)
		return -1;
	return final ? (long)avail : 0;
}

static long catalog_end(struct mttd_syst *s, const uint8_t *p, size_t q,
			size_t avail, int final)
{
	unsigned int sub = (mttd__le32(p) >> 24) & 0x3f;
	unsigned int idsz = (sub == 2 || sub == 6) ? 8 : 4;
	unsigned int ptr = (sub == 5 || sub == 6) ? 8 : 4;
	const struct mttd_coll_entry *e;
	struct mttd_syst_msg m;
	int client;

	if (sub != 1 && sub != 2 && sub != 5 && sub != 6)
		return -1;
	if (avail < q + idsz)
		return final ? (long)avail : 0;
	if (!s->coll)
		return -1;
	/* only what client selection looks at */
	memset(&m, 0, offsetof(struct mttd_syst_msg, args));
	m.flags = MTTD_SYST_F_SEV;
	m.origin = (mttd__le32(p) >> 16) & 0x7f;
	if (mttd__le32(p) & (1u << 23)) {
		m.flags |= MTTD_SYST_F_GUID;
		memcpy(m.guid, p + 4, 16);
	}
	client = mttd__syst_client(s, &m)->client;
	e = client < 0 ? NULL : mttd_coll_find(s->coll, client, idsz == 4 ?
			MTTD_COLL_CATALOG32 : MTTD_COLL_CATALOG64,
			mttd__lexx(p + q, idsz));
	if (!e)
		return -1;
	return args_end(e->text, e->text_len, p, q + idsz, avail, ptr,
			final);
}

/* payload end without a length field */
static long payload_end(struct mttd_syst *s, const uint8_t *p, size_t q,
			size_t avail, int final)
{
	uint32_t h = mttd__le32(p);
	unsigned int type = h & 0xf, sub = (h >> 24) & 0x3f;
	long e;

	switch (type) {
	case MTTD_SYST_CLOCK:
		return sub == MTTD_SYST_CLOCK_SYNC ? (long)(q + 16) : -1;
	case MTTD_SYST_BUILD:
		if (sub != MTTD_SYST_BUILD_LONG)
			return -1;
		if (avail < q + 8)
			return final ? (long)avail : 0;
		return nul_end(p, q + 8, avail, final);
	case MTTD_SYST_STRING:
		if (sub != MTTD_SYST_STRING_PRINTF_32 &&
		    sub != MTTD_SYST_STRING_PRINTF_64)
			return nul_end(p, q, avail, final);
		e = nul_end(p, q, avail, 0);
		if (e <= 0)
			return e < 0 || !final ? e : (long)avail;
		return args_end((const char *)p + q, (size_t)e - q - 1, p,
				(size_t)e, avail,
				sub == MTTD_SYST_STRING_PRINTF_64 ? 8 : 4, final);
	case MTTD_SYST_CATALOG:
		return catalog_end(s, p, q, avail, final);
	default:
		return -1;
	}
}

/* the size of a one- or two-word message (SHORT32/64, compact BUILD)
 * with header h, else 0 */
static unsigned int word_size(uint32_t h)
{
	unsigned int type = h & 0xf, sub = (h >> 24) & 0x3f;

	if (type == MTTD_SYST_SHORT32 ||
	    (type == MTTD_SYST_BUILD && sub == MTTD_SYST_BUILD_COMPACT32))
		return 4;
	if (type == MTTD_SYST_SHORT64 ||
	    (type == MTTD_SYST_BUILD && sub == MTTD_SYST_BUILD_COMPACT64))
		return 8;
	return 0;
}

long mttd__syst_frame(struct mttd_syst *s, const uint8_t *p, size_t avail,
		      int final)
{
	uint32_t h;
	unsigned int type;
	size_t q = 4, chk;
	long e;

	if (avail < 4)
		return 0;
	h = mttd__le32(p);
	type = h & 0xf;
	if (word_size(h))
		return word_size(h);
	if (type == 4 || type == 5 || type > MTTD_SYST_SBD)
		return -1;
	if (h & (1u << 23))
		q += 16;
	if (h & (1u << 8)) {
		if (avail < q + 1)
			return 0;
		q += 1 + ((p[q] & 1) ? 8 : 4);
	}
	chk = (h & (1u << 10)) ? 4 : 0;
	if (h & (1u << 9)) {
		if (avail < q + 2)
			return 0;
		return (long)(q + 2 + ((h & (1u << 11)) ? 8 : 0) +
			      mttd__le16(p + q) + chk);
	}
	if (h & (1u << 11))
		q += 8;
	if (avail < q)
		return 0;
	e = payload_end(s, p, q, avail, final);
	return e > 0 ? e + (long)chk : e;
}

int mttd__syst_plausible(const uint8_t *p)
{
	uint32_t h = mttd__le32(p);
	unsigned int sub = (h >> 24) & 0x3f;

	if (h & 0xc0000080u)
		return 0;
	switch (h & 0xf) {
	case MTTD_SYST_STRING:
		return sub == 1 || sub == 2 || sub == 3 || sub == 5 ||
		       sub == 7 || sub == 11 || sub == 12;
	case MTTD_SYST_CATALOG:
		return sub == 1 || sub == 2 || sub == 5 || sub == 6;
	case MTTD_SYST_CLOCK:
		return sub == MTTD_SYST_CLOCK_SYNC;
	case MTTD_SYST_BUILD:
		return sub == MTTD_SYST_BUILD_LONG;
	case MTTD_SYST_RAW:
		return 1;
	case MTTD_SYST_SBD:
		return !(sub & 0x30);
	default:
		return 0;	/* SHORT and compact BUILD: any word */
	}
}

int mttd_syst_is_msg(const void *buf, size_t n)
{
	const uint8_t *p = buf;
	struct mttd_syst_msg m;
	unsigned int type, sub, chk;
	uint32_t h;

	if (n < 4)
		return 0;
	h = mttd__le32(p);
	type = h & 0xf;
	sub = (h >> 24) & 0x3f;
	if (word_size(h))
		return n == word_size(h) ? MTTD_SYST_IS_SHORT : 0;
	if (!mttd__syst_plausible(p))
		return 0;
	memset(&m, 0, offsetof(struct mttd_syst_msg, args));
	mttd__syst_parse(p, n, &m);
	if (m.status != MTTD_SYST_OK)
		return 0;	/* fields cut, or a CRC that does not match */
	chk = (m.flags & MTTD_SYST_F_CHK) ? 4 : 0;
	if ((m.flags & MTTD_SYST_F_LEN) &&
	    (size_t)(m.payload - p) + m.payload_len + chk != n)
		return 0;	/* a length field that is not the payload's */
	switch (type) {
	case MTTD_SYST_CLOCK:
		return m.payload_len == 16 ? MTTD_SYST_IS_NORMAL : 0;
	case MTTD_SYST_BUILD:
		return m.payload_len >= 8 ? MTTD_SYST_IS_NORMAL : 0;
	case MTTD_SYST_CATALOG:
		return m.payload_len >= ((sub == 2 || sub == 6) ? 8u : 4u) ?
		       MTTD_SYST_IS_NORMAL : 0;
	case MTTD_SYST_SBD:
		return m.payload_len >= ((sub & MTTD_SYST_SBD_ID64) ? 8u : 4u) ?
		       MTTD_SYST_IS_NORMAL : 0;
	default:
		return MTTD_SYST_IS_NORMAL;
	}
}
