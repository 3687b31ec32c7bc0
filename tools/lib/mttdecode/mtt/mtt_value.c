// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mtt_value.c - an MTT frame's typed value (type_info) as text and as
 * numbers: scalars, vectors as lists, strings, SHOWHEX as hex, blobs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mttdecode/mttframe.h"

struct sbuf {
	char *p;
	size_t cap, len;
};

static void put(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->len < b->cap ? b->p + b->len : NULL,
		      b->len < b->cap ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

/* element size of a scalar type (bits 31:24), 0 if unknown */
static unsigned int elem_size(uint32_t type)
{
	static const unsigned char size[] = {
		0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4,
	};

	return type < sizeof(size) ? size[type] : 0;
}

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

size_t mttd_mtt_count(const struct mttd_mtt_frame *f)
{
	unsigned int es = elem_size(f->type_info >> 24);

	return es ? f->payload_len / es : 0;
}

int mttd_mtt_number(const struct mttd_mtt_frame *f, size_t i, double *v)
{
	uint32_t type = f->type_info >> 24;
	unsigned int es = elem_size(type);
	const uint8_t *p;
	uint64_t u;

	if (!es || (f->type_info & MTT_TYPEP_STRING) ||
	    (i + 1) * es > f->payload_len)
		return 0;
	p = f->payload + i * es;
	u = le(p, es);
	switch (type) {
	case 2: *v = (int8_t)u; break;
	case 4: *v = (int16_t)u; break;
	case 6: *v = (int32_t)u; break;
	case 8: *v = (double)(int64_t)u; break;
	case 9: {
		float fl;
		uint32_t w = (uint32_t)u;

		memcpy(&fl, &w, 4);
		*v = fl;
		break;
	}
	case 10:
		memcpy(v, &u, 8);
		break;
	case 11: *v = u != 0; break;
	default: *v = (double)u; break;
	}
	return 1;
}

static void elem(struct sbuf *b, const struct mttd_mtt_frame *f, size_t i)
{
	uint32_t type = f->type_info >> 24;
	unsigned int es = elem_size(type);
	uint64_t u = le(f->payload + i * es, es);
	double d;

	if (f->type_info & MTT_TYPEP_SHOWHEX) {
		put(b, "0x%0*llx", (int)es * 2, (unsigned long long)u);
		return;
	}
	switch (type) {
	case 2: case 4: case 6: case 8:
		/* sign-extend */
		if (es < 8 && (u >> (es * 8 - 1)) & 1)
			u |= ~0ull << (es * 8);
		put(b, "%lld", (long long)u);
		break;
	case 9: case 10:
		mttd_mtt_number(f, i, &d);
		put(b, "%.9g", d);
		break;
	case 11:
		put(b, "%s", u ? "true" : "false");
		break;
	default:
		put(b, "%llu", (unsigned long long)u);
	}
}

static void string(struct sbuf *b, const uint8_t *p, size_t n)
{
	size_t i;

	/* up to the first NUL */
	for (i = 0; i < n && p[i]; i++)
		;
	n = i;
	put(b, "\"");
	for (i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c == '"' || c == '\\')
			put(b, "\\%c", c);
		else if (c == '\n')
			put(b, "\\n");
		else if (c == '\t')
			put(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			put(b, "\\x%02x", c);
		else
			put(b, "%c", c);
	}
	put(b, "\"");
}

size_t mttd_mtt_value(const struct mttd_mtt_frame *f, char *buf, size_t cap)
{
	struct sbuf b = { buf, cap, 0 };
	uint32_t type = f->type_info >> 24;
	unsigned int es = elem_size(type);
	size_t i, n;

	if (cap)
		buf[0] = 0;
	if (f->type_info & MTT_TYPEP_STRING) {
		string(&b, f->payload, f->payload_len);
	} else if (!f->payload_len) {
		put(&b, "-");
	} else if (!es || f->payload_len % es) {
		for (i = 0; i < f->payload_len; i++)
			put(&b, "%s%02x", i ? " " : "", f->payload[i]);
	} else if (!(f->type_info & MTT_TYPEP_VECTOR) &&
		   f->payload_len == es) {
		elem(&b, f, 0);
	} else {
		n = f->payload_len / es;
		put(&b, "[");
		for (i = 0; i < n; i++) {
			if (i)
				put(&b, ", ");
			elem(&b, f, i);
		}
		put(&b, "]");
	}
	if (cap && b.len >= cap)
		buf[cap - 1] = 0;
	return b.len;
}
