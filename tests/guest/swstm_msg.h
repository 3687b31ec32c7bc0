/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test messages shared by the swstm guest helpers: message number SEQ of
 * writer TAG, SIZE bytes long, has deterministic contents, so a checker
 * can rebuild it.  Messages of SWSTM_HDR_LEN (8) bytes or more start with
 * a header "<tag><low 24 bits of seq as 6 hex digits>:" that identifies
 * them (an 8-byte message is one STP packet); shorter ones are identified
 * by their position.
 */
#ifndef SWSTM_MSG_H
#define SWSTM_MSG_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWSTM_HDR_LEN	8
#define SWSTM_MAX_MSG	4095	/* the class cuts writes to PAGE_SIZE - 1 */
#define SWSTM_MAX_SIZES	64

static inline void swstm_msg_fill(unsigned char *b, size_t size,
				  unsigned char tag, unsigned long seq)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < size; i++)
		b[i] = (unsigned char)(tag + seq * 131 + i * 7 + (i >> 8) * 3);
	if (size < SWSTM_HDR_LEN)
		return;
	b[0] = tag;
	for (i = 0; i < 6; i++)
		b[1 + i] = hex[(seq >> (20 - 4 * i)) & 0xf];
	b[7] = ':';
}

/* Parse a header; returns 0 and fills *tag, *seq if @b has one. */
static inline int swstm_msg_header(const unsigned char *b, size_t size,
				   unsigned char *tag, unsigned long *seq)
{
	unsigned long v = 0;
	size_t i;

	if (size < SWSTM_HDR_LEN || b[7] != ':')
		return -1;
	for (i = 1; i < 7; i++) {
		unsigned char c = b[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (unsigned long)(c - 'a' + 10);
		else
			return -1;
	}
	*tag = b[0];
	*seq = v;
	return 0;
}

/*
 * Size specification: "N", "A-B" (every size from A to B) or "A,B,C";
 * message SEQ has size sizes[SEQ % n].
 */
struct swstm_sizes {
	unsigned int n;
	unsigned int lo, hi;		/* range form when n == 0 */
	unsigned int list[SWSTM_MAX_SIZES];
};

static inline int swstm_sizes_parse(struct swstm_sizes *s, const char *spec)
{
	char *end;
	unsigned long a, b;

	memset(s, 0, sizeof(*s));
	a = strtoul(spec, &end, 0);
	if (*end == '-') {
		b = strtoul(end + 1, &end, 0);
		if (*end || !a || b < a || b > SWSTM_MAX_MSG)
			return -EINVAL;
		s->lo = (unsigned int)a;
		s->hi = (unsigned int)b;
		return 0;
	}
	for (;;) {
		if (!a || a > SWSTM_MAX_MSG || s->n == SWSTM_MAX_SIZES)
			return -EINVAL;
		s->list[s->n++] = (unsigned int)a;
		if (!*end)
			return 0;
		if (*end != ',')
			return -EINVAL;
		a = strtoul(end + 1, &end, 0);
	}
}

static inline size_t swstm_sizes_get(const struct swstm_sizes *s,
				     unsigned long seq)
{
	if (!s->n)
		return s->lo + seq % (s->hi - s->lo + 1);
	return s->list[seq % s->n];
}

#endif /* SWSTM_MSG_H */
