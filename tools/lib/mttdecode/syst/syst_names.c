// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syst_names.c - SyS-T names and strings: status, severity, type names as
 * the reference printer writes them, GUID text, the pseudo-GUID and the
 * location text.
 */
#include <stdio.h>
#include <string.h>

#include "syst_internal.h"

const char *mttd_syst_status_name(unsigned int status)
{
	static const char *const names[MTTD_SYST_STATUS_COUNT] = {
		"OK", "CHECKSUM_ERROR", "TOO_SHORT", "UNKNOWN_TYPE",
		"MISSING_COLLATERAL",
	};

	return status < MTTD_SYST_STATUS_COUNT ? names[status] : "?";
}

const char *mttd_syst_severity_name(unsigned int severity)
{
	static const char *const names[8] = {
		"MAX", "FATAL", "ERROR", "WARNING", "INFO", "USER1", "USER2",
		"DEBUG",
	};

	return severity < 8 ? names[severity] : "?";
}

static const char *subtype_name(unsigned int type, unsigned int sub)
{
	switch (type) {
	case MTTD_SYST_BUILD:
		switch (sub) {
		case MTTD_SYST_BUILD_COMPACT32: return "COMPACT32";
		case MTTD_SYST_BUILD_COMPACT64: return "COMPACT64";
		case MTTD_SYST_BUILD_LONG: return "LONG";
		}
		break;
	case MTTD_SYST_STRING:
		switch (sub) {
		case MTTD_SYST_STRING_GENERIC: return "GENERIC";
		case MTTD_SYST_STRING_FUNCTIONENTER: return "ENTER";
		case MTTD_SYST_STRING_FUNCTIONEXIT: return "EXIT";
		case MTTD_SYST_STRING_INVALIDPARAM: return "INVPARAM";
		case MTTD_SYST_STRING_ASSERT: return "ASSERT";
		case MTTD_SYST_STRING_PRINTF_32: return "PRINTF32";
		case MTTD_SYST_STRING_PRINTF_64: return "PRINTF64";
		}
		break;
	case MTTD_SYST_CATALOG:
		switch (sub) {
		case MTTD_SYST_CATALOG_ID32_P32: return "ID32P32";
		case MTTD_SYST_CATALOG_ID64_P32: return "ID64P32";
		case MTTD_SYST_CATALOG_ID32_P64: return "ID32P64";
		case MTTD_SYST_CATALOG_ID64_P64: return "ID64P64";
		}
		break;
	case MTTD_SYST_CLOCK:
		if (sub == MTTD_SYST_CLOCK_SYNC)
			return "SYNC";
		break;
	case MTTD_SYST_SBD:
		if (!(sub & 0x30))
			return (sub & MTTD_SYST_SBD_ID64) ? "ID64" : "ID32";
		break;
	}
	return NULL;
}

/* append s to buf[*at..n) (always NUL-terminated) */
static void cat(char *buf, size_t n, size_t *at, const char *s)
{
	size_t k = strlen(s);

	if (*at + k >= n)
		k = n - 1 - *at;
	memcpy(buf + *at, s, k);
	*at += k;
	buf[*at] = 0;
}

static void cat_num(char *buf, size_t n, size_t *at, unsigned int v)
{
	char t[12];
	unsigned int k = sizeof(t) - 1;

	t[k] = 0;
	do {
		t[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	cat(buf, n, at, t + k);
}

const char *mttd_syst_type_name(unsigned int type, unsigned int subtype,
				char *buf, size_t n)
{
	static const char *const types[16] = {
		"BUILD", "SHORT32", "STRING", "CATALOG", NULL, NULL, "RAW",
		"SHORT64", "CLOCK", "SBD",
	};
	const char *t = type < 16 ? types[type] : NULL;
	const char *s;
	size_t at = 0;

	if (!n)
		return buf;
	buf[0] = 0;
	if (!t) {
		cat(buf, n, &at, "UNKNOWN(");
		cat_num(buf, n, &at, type);
		cat(buf, n, &at, ")");
		return buf;
	}
	cat(buf, n, &at, t);
	if (type == MTTD_SYST_SHORT32 || type == MTTD_SYST_SHORT64)
		return buf;
	cat(buf, n, &at, ":");
	if (type == MTTD_SYST_RAW) {
		cat_num(buf, n, &at, subtype);
		return buf;
	}
	s = subtype_name(type, subtype);
	if (s) {
		cat(buf, n, &at, s);
	} else {
		cat(buf, n, &at, "UNKNOWN(");
		cat_num(buf, n, &at, subtype);
		cat(buf, n, &at, ")");
	}
	return buf;
}

/*
 * Bytes g[0..3] as 8 lower-case hex digits at o, a word at a time: each
 * byte goes to a 16-bit lane, its high nibble to the lane's first byte
 * and its low nibble to the second; a nibble n becomes '0' + n, plus
 * 'a' - '0' - 10 when n > 9 (n + 0x76 has bit 7 set; no lane carries).
 */
static inline void hex4(const uint8_t *g, char *o)
{
	const uint64_t m = 0x000f000f000f000fULL, ones = 0x0101010101010101ULL;
	uint64_t v = (uint64_t)g[0] | (uint64_t)g[1] << 16 |
		     (uint64_t)g[2] << 32 | (uint64_t)g[3] << 48;
	uint64_t n = ((v >> 4) & m) | ((v & m) << 8);
	uint64_t c = n + '0' * ones +
		     (((n + 0x76 * ones) >> 7) & ones) * ('a' - '0' - 10);

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	c = __builtin_bswap64(c);
#endif
	memcpy(o, &c, 8);	/* first digit in the lowest byte */
}

void mttd_syst_guid_str(const uint8_t g[16], char out[MTTD_GUID_STR])
{
	char t[32];

	hex4(g, t);
	hex4(g + 4, t + 8);
	hex4(g + 8, t + 16);
	hex4(g + 12, t + 24);
	/* {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx} */
	out[0] = '{';
	memcpy(out + 1, t, 8);
	out[9] = '-';
	memcpy(out + 10, t + 8, 4);
	out[14] = '-';
	memcpy(out + 15, t + 12, 4);
	out[19] = '-';
	memcpy(out + 20, t + 16, 4);
	out[24] = '-';
	memcpy(out + 25, t + 20, 12);
	out[37] = '}';
	out[38] = 0;
}

void mttd_syst_pseudo_guid(unsigned int master, unsigned int channel,
			   unsigned int origin, uint8_t out[16])
{
	memset(out, 0, 16);
	out[4] = (uint8_t)(master >> 8);
	out[5] = (uint8_t)master;
	out[6] = (uint8_t)(channel >> 8);
	out[7] = (uint8_t)channel;
	out[8] = (uint8_t)origin;
}

void mttd_syst_key_guid(const struct mttd_syst_msg *m, uint8_t out[16])
{
	int stp = (m->flags & MTTD_SYST_F_STP) != 0;

	if (m->flags & (MTTD_SYST_F_GUID | MTTD_SYST_F_SHORT_GUID))
		memcpy(out, m->guid, 16);
	else
		mttd_syst_pseudo_guid(stp ? m->master : 0,
				      stp ? m->channel : 0,
				      (m->flags & MTTD_SYST_F_SEV) ?
				      m->origin : 0, out);
}

static size_t file_line(char *buf, size_t n, const char *name,
			uint32_t id, uint32_t line)
{
	int r = name ? snprintf(buf, n, "%s:%u", name, line) :
		       snprintf(buf, n, "%u:%u", id, line);

	return r < 0 ? 0 : (size_t)r < n ? (size_t)r : n ? n - 1 : 0;
}

size_t mttd_syst_location(const struct mttd_syst_msg *m, char *buf,
			  size_t n)
{
	int r;

	if (!n)
		return 0;
	buf[0] = 0;
	if (m->flags & MTTD_SYST_F_LOC) {
		if (!(m->loc_format & 2))
			return file_line(buf, n, m->file, m->loc_file,
					 m->loc_line);
		r = snprintf(buf, n, "0x%0*llx", (m->loc_format & 1) ? 16 : 8,
			     (unsigned long long)m->loc_addr);
		return r < 0 ? 0 : (size_t)r < n ? (size_t)r : n - 1;
	}
	if (m->flags & MTTD_SYST_F_CATLOC)
		return file_line(buf, n, m->cat_file, m->cat_file_id,
				 m->cat_line);
	return 0;
}
