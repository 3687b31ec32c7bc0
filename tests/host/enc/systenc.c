// SPDX-License-Identifier: GPL-2.0
/*
 * systenc.c - SyS-T messages from the specification (see systenc.h).
 */
#include <stdlib.h>
#include <string.h>

#include "systenc.h"

void systenc_init(struct systenc *e)
{
	memset(e, 0, sizeof(*e));
}

void systenc_free(struct systenc *e)
{
	free(e->buf);
	systenc_init(e);
}

static uint8_t *room(struct systenc *e, size_t n)
{
	if (e->cap - e->len < n) {
		size_t cap = e->cap ? e->cap : 256;
		uint8_t *p;

		while (cap - e->len < n)
			cap *= 2;
		p = realloc(e->buf, cap);
		if (!p) {
			e->oom = 1;
			return NULL;
		}
		e->buf = p;
		e->cap = cap;
	}
	return e->buf + e->len;
}

void systenc_put(struct systenc *e, const void *p, size_t n)
{
	uint8_t *d = n ? room(e, n) : NULL;

	if (!d)
		return;
	memcpy(d, p, n);
	e->len += n;
}

void systenc_le(struct systenc *e, uint64_t v, unsigned int n)
{
	uint8_t b[8];
	unsigned int i;

	for (i = 0; i < n && i < 8; i++, v >>= 8)
		b[i] = (uint8_t)v;
	systenc_put(e, b, i);
}

void systenc_f64(struct systenc *e, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	systenc_le(e, v, 8);
}

uint32_t systenc_crc32c(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (b = 0; b < 8; b++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
	}
	return ~c;
}

void systenc_msg(struct systenc *out, uint32_t header, uint64_t ts,
		 const struct systenc *pl)
{
	size_t start = out->len;

	systenc_le(out, header, 4);
	if (header & SYSTENC_LEN)
		systenc_le(out, pl->len, 2);
	if (header & SYSTENC_TS)
		systenc_le(out, ts, 8);
	systenc_put(out, pl->buf, pl->len);
	if ((header & SYSTENC_CHK) && !out->oom)
		systenc_le(out, systenc_crc32c(out->buf + start,
					       out->len - start), 4);
}

void systenc_hexline(struct systenc *out, const uint8_t *p, size_t n)
{
	static const char hd[] = "0123456789ABCDEF";
	static const char lead[] = "SYS-T RAW DATA: ";
	uint8_t *d = room(out, sizeof(lead) + 2 * n);
	size_t i;

	if (!d)
		return;
	memcpy(d, lead, sizeof(lead) - 1);
	d += sizeof(lead) - 1;
	for (i = 0; i < n; i++) {
		*d++ = (uint8_t)hd[p[i] >> 4];
		*d++ = (uint8_t)hd[p[i] & 15];
	}
	*d = '\n';
	out->len += sizeof(lead) + 2 * n;
}
