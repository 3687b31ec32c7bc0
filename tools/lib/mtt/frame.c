// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * frame.c - build one native MTT frame in a buffer: the five-word
 * preamble, the optional context, timestamp and level words, the payload
 * padded to 32 bits and the 12-byte hint (Documentation/mtt.rst).
 */
#include <string.h>

#include "internal/frame.h"

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
	return p + 4;
}

size_t mttl_frame_len(const struct mttl_rec *r)
{
	size_t n = MTT_FRAME_PREAMBLE_BYTES;
	size_t size = r->type_info & 0xffffu;

	if (r->flags & MTT_FRAME_F_CTXT)
		n += 4;
	if (r->flags & MTT_FRAME_F_TS64)
		n += 8;
	if (r->flags & MTT_FRAME_F_LEVEL)
		n += 4;
	n += (size + 3) & ~(size_t)3;
	if (r->flags & MTT_FRAME_F_HINT)
		n += MTT_FRAME_HINT_BYTES;
	return n;
}

size_t mttl_frame_put(uint8_t *buf, const struct mttl_rec *r)
{
	size_t size = r->type_info & 0xffffu;
	uint32_t target = r->target > MTT_FRAME_TARGET_CPU_MAX ? MTT_FRAME_TARGET_CPU_MAX :
			  r->target;
	uint8_t *p = buf;

	p = put32(p, MTT_FRAME_WORD0(target));
	p = put32(p, r->cmd | (r->flags & 0xffffu));
	p = put32(p, r->comp);
	p = put32(p, r->trace_id);
	p = put32(p, r->type_info);
	if (r->flags & MTT_FRAME_F_CTXT)
		p = put32(p, r->ctx);
	if (r->flags & MTT_FRAME_F_TS64) {
		p = put32(p, (uint32_t)r->ts);
		p = put32(p, (uint32_t)(r->ts >> 32));
	}
	if (r->flags & MTT_FRAME_F_LEVEL)
		p = put32(p, r->level);
	if (size)
		memcpy(p, r->payload, size);
	p += size;
	while (size & 3) {
		*p++ = 0;
		size++;
	}
	if (r->flags & MTT_FRAME_F_HINT) {
		size_t hl = strnlen(r->hint, MTT_FRAME_HINT_BYTES);

		memcpy(p, r->hint, hl);
		memset(p + hl, 0, MTT_FRAME_HINT_BYTES - hl);
		p += MTT_FRAME_HINT_BYTES;
	}
	return (size_t)(p - buf);
}

uint32_t mttl_name_id(const char *name)
{
	uint32_t h = 0x811c9dc5u;

	for (; *name; name++) {
		h ^= (uint8_t)*name;
		h *= 0x01000193u;
	}
	return h;
}
