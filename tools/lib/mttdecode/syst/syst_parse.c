// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_parse.c - the SyS-T header and optional fields of one message
 * whose size is known (from STP framing, a text line or the stream
 * framer).
 *
 * Header (u32 LE): [3:0] type, [6:4] severity, 7 reserved, 8 LOC, 9 LEN,
 * 10 CHK, 11 TS, [22:12] origin/unit, 23 GUID, [29:24] subtype, 30..31
 * reserved.  Then GUID (16), location (format byte + 4 or 8), length
 * (u16), timestamp (u64), payload, CRC-32C (u32) over everything before
 * it.  The payload is the length field's count of bytes when there is
 * one (bytes after payload and CRC are ignored), else all bytes up to the
 * CRC.
 *
 * SHORT32/SHORT64 are one word, value = word >> 4 (28/60 bits).  BUILD
 * COMPACT32/COMPACT64 hold a build id in the header instead of the
 * severity/flags/origin fields: id bits [19:0] are header [23:4], [21:20]
 * header [31:30]; COMPACT64 adds a u32 after the header as id [53:22].
 */
#include "syst_internal.h"

static void too_short(struct mttd_syst_msg *m)
{
	mttd__syst_status(m, MTTD_SYST_TOO_SHORT);
}

/* single-word forms; returns 1 if the message is one of them */
static int compact(const uint8_t *p, size_t n, struct mttd_syst_msg *m)
{
	uint32_t h = m->header;

	if (m->type == MTTD_SYST_SHORT32) {
		m->value = h >> 4;
		m->flags |= MTTD_SYST_F_VALUE;
		return 1;
	}
	if (m->type == MTTD_SYST_SHORT64) {
		if (n < 8) {
			too_short(m);
			return 1;
		}
		m->value = mttd__le64v(p) >> 4;
		m->flags |= MTTD_SYST_F_VALUE;
		return 1;
	}
	if (m->type == MTTD_SYST_BUILD &&
	    (m->subtype == MTTD_SYST_BUILD_COMPACT32 ||
	     m->subtype == MTTD_SYST_BUILD_COMPACT64)) {
		m->value = ((h >> 4) & 0xfffffu) | (uint64_t)(h >> 30) << 20;
		if (m->subtype == MTTD_SYST_BUILD_COMPACT64) {
			if (n < 8) {
				too_short(m);
				return 1;
			}
			m->value |= (uint64_t)mttd__le32(p + 4) << 22;
		}
		m->flags |= MTTD_SYST_F_VALUE;
		return 1;
	}
	return 0;
}

void mttd__syst_parse(const uint8_t *p, size_t n, struct mttd_syst_msg *m)
{
	uint32_t h, has_len;
	size_t q = 4, end, mask;

	m->raw = p;
	m->size = n;
	m->payload = p;
	m->payload_len = 0;
	if (n < 4) {
		m->header = (uint32_t)mttd__lexx(p, (unsigned int)n);
		m->type = (uint8_t)(m->header & 0xf);
		m->payload = p + n;
		too_short(m);
		return;
	}
	h = mttd__le32(p);
	m->header = h;
	m->type = (uint8_t)(h & 0xf);
	m->subtype = (uint8_t)((h >> 24) & 0x3f);
	m->payload = p + 4;
	if (compact(p, n, m))
		return;

	m->flags |= MTTD_SYST_F_SEV;
	m->severity = (uint8_t)((h >> 4) & 7);
	if (h & (1u << 23)) {
		m->flags |= MTTD_SYST_F_GUID;
		m->unit = (uint16_t)((h >> 12) & 0x7ff);
	} else {
		m->origin = (uint16_t)((h >> 16) & 0x7f);
		m->unit = (uint16_t)((h >> 12) & 0xf);
	}
	if (h & (1u << 23)) {
		if (n < q + 16) {
			memcpy(m->guid, p + q, n - q);	/* what there is */
			goto cut_field;
		}
		memcpy(m->guid, p + q, 16);
		q += 16;
	}
	if (h & (1u << 8)) {
		unsigned int sz;

		if (n < q + 1)
			goto cut_field;
		m->loc_format = p[q];
		sz = (m->loc_format & 1) ? 8 : 4;
		if (n < q + 1 + sz)
			goto cut_field;
		m->flags |= MTTD_SYST_F_LOC;
		if (m->loc_format & 2) {
			m->loc_addr = mttd__lexx(p + q + 1, sz);
		} else if (sz == 4) {
			m->loc_file = mttd__le16(p + q + 1);
			m->loc_line = mttd__le16(p + q + 3);
		} else {
			m->loc_file = mttd__le32(p + q + 1);
			m->loc_line = mttd__le32(p + q + 5);
		}
		q += 1 + sz;
	}
	/*
	 * The length field without a branch on whether there is one: the
	 * sources of one stream mix both (p_sys-t's do_len), so that
	 * branch would go the wrong way about every other message.
	 * Without one, p[0..1] is read and masked off.
	 */
	has_len = (h >> 9) & 1;
	mask = -(size_t)has_len;
	if (n < q + 2 * has_len)
		goto cut_field;
	m->len = (uint16_t)(mttd__le16(p + (q & mask)) & mask);
	m->flags |= MTTD_SYST_F_LEN & -has_len;
	q += 2 * has_len;
	if (h & (1u << 11)) {
		if (n < q + 8)
			goto cut_field;
		m->ts = mttd__le64v(p + q);
		m->flags |= MTTD_SYST_F_TS;
		q += 8;
	}
	m->payload = p + q;
	end = n;
	if (h & (1u << 10)) {
		if (n < q + 4)
			goto cut;
		end = n - 4;
	}
	/* a length that asks for more than is there: cut */
	if (has_len & (m->len > end - q))
		goto cut;
	end = (end & ~mask) | ((q + m->len) & mask);
	m->payload_len = end - q;
	if (h & (1u << 10)) {
		m->flags |= MTTD_SYST_F_CHK;
		m->crc = mttd__le32(p + end);
		m->crc_calc = mttd_crc32c(p, end);
		if (m->crc != m->crc_calc)
			mttd__syst_status(m, MTTD_SYST_CHECKSUM_ERROR);
	}
	return;
cut:
	/* the part of the payload that is there */
	m->payload = p + q;
	m->payload_len = n - q;
	too_short(m);
	return;
cut_field:
	/* a field before the payload is cut: no payload */
	m->payload = p + n;
	m->payload_len = 0;
	too_short(m);
}
