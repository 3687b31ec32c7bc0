// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ith_msc.c - Intel Trace Hub MSC multi-block captures: strips the 64-byte
 * block descriptors, keeps valid_dw's worth of each block, and passes a
 * wrapped window on from its oldest block (see mttdecode/framing.h).
 *
 * Streaming: a descriptor is collected, then the block's body goes by,
 * its valid part passed on.  In a wrapped window the blocks up to the
 * last one written are the newest: they are held until the window's end
 * (or the capture's) and passed on after the older blocks that follow
 * them.  A 64-byte unit that is not a descriptor is skipped, so the
 * unframer finds the next block on its own.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/framing.h"

#define SW_LASTBLK 0x1u
#define HW_WRAP 0x6u		/* block wrap, window wrap */
#define MAX_UNITS (1u << 18)	/* 16 MiB blocks at most */
#define HOLD_MAX (256u << 20)	/* past this, a window is not reordered */

enum { WIN_START, WIN_PLAIN, WIN_HOLD, WIN_AFTER };

struct mttd_msc {
	mttd_bytes_fn fn;
	void *ctx;
	struct mttd_msc_stats st;
	uint8_t desc[MTTD_MSC_DESC];
	size_t dlen;		/* bytes of desc collected */
	uint64_t body;		/* body bytes of the block still to come */
	uint64_t valid;		/* ... of which still to pass on */
	int last;		/* the block ends its window */
	int short_blk;		/* ... is not full: the last written */
	int win;		/* WIN_* */
	uint8_t *held;		/* a wrapped window's newest blocks */
	size_t nheld, cheld;
	int failed;		/* out of memory: feed() says -1 */
	int done;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* a descriptor: the tags' unused bits and the reserved words are 0, the
 * block holds at least its descriptor, valid_dw within it */
static int desc_ok(const uint8_t *d, uint32_t *units)
{
	uint32_t sw = le32(d), bsz = le32(d + 4), hw = le32(d + 32);
	uint32_t vdw = le32(d + 36);
	int i;

	if (sw > 3 || hw > 15 || !bsz || bsz > MAX_UNITS)
		return 0;
	for (i = 16; i < 32; i++)
		if (d[i] || d[i + 32])
			return 0;
	if (vdw && (vdw < MTTD_MSC_DESC / 4 || (uint64_t)vdw * 4 >
						 (uint64_t)bsz * 64))
		return 0;
	*units = bsz;
	return 1;
}

int mttd_msc_probe(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t units, next;
	uint64_t sz;

	if (!p || len < MTTD_MSC_DESC || !desc_ok(p, &units))
		return 0;
	sz = (uint64_t)units * 64;
	if (len >= sz + MTTD_MSC_DESC &&
	    (!desc_ok(p + sz, &next) || next != units))
		return 0;
	return 1;
}

struct mttd_msc *mttd_msc_new(const struct mttd_msc_config *cfg)
{
	struct mttd_msc *m;

	if (!cfg || !cfg->fn)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->fn = cfg->fn;
	m->ctx = cfg->ctx;
	return m;
}

void mttd_msc_free(struct mttd_msc *m)
{
	if (m)
		free(m->held);
	free(m);
}

const struct mttd_msc_stats *mttd_msc_stats(const struct mttd_msc *m)
{
	return &m->st;
}

static void release(struct mttd_msc *m)
{
	if (m->nheld)
		m->fn(m->ctx, m->held, m->nheld);
	m->nheld = 0;
}

static void out(struct mttd_msc *m, const uint8_t *p, size_t n)
{
	if (!n)
		return;
	m->st.data += n;
	if (m->win == WIN_HOLD) {
		if (m->nheld + n > HOLD_MAX) {
			/* too big to reorder: on in capture order */
			release(m);
			m->win = WIN_PLAIN;
		} else {
			if (m->nheld + n > m->cheld) {
				size_t c = m->cheld ? m->cheld : 65536;
				uint8_t *h;

				while (c < m->nheld + n)
					c *= 2;
				h = realloc(m->held, c);
				if (!h) {
					m->failed = 1;
					return;
				}
				m->held = h;
				m->cheld = c;
			}
			memcpy(m->held + m->nheld, p, n);
			m->nheld += n;
			return;
		}
	}
	m->fn(m->ctx, p, n);
}

/* desc[] is complete: start its block */
static void start_block(struct mttd_msc *m)
{
	const uint8_t *d = m->desc;
	uint32_t units, vdw;

	m->dlen = 0;
	if (!desc_ok(d, &units)) {
		m->st.bad++;
		return;
	}
	vdw = le32(d + 36);
	m->st.blocks++;
	m->st.last_ts = (uint64_t)le32(d + 44) << 32 | le32(d + 40);
	m->body = (uint64_t)units * 64 - MTTD_MSC_DESC;
	m->valid = vdw ? (uint64_t)vdw * 4 - MTTD_MSC_DESC : 0;
	m->short_blk = m->valid < m->body;
	m->last = le32(d) & SW_LASTBLK;
	if (m->win == WIN_START) {
		m->win = WIN_PLAIN;
		if (le32(d + 32) & HW_WRAP) {
			m->win = WIN_HOLD;
			m->st.wrapped++;
		}
	}
	m->dlen = MTTD_MSC_DESC;	/* in a block */
}

/* the block's body has gone by */
static void end_block(struct mttd_msc *m)
{
	m->dlen = 0;
	if (m->win == WIN_HOLD && m->short_blk)
		m->win = WIN_AFTER;	/* the last block written */
	if (m->last) {
		m->st.windows++;
		release(m);
		m->win = WIN_START;
	}
}

int mttd_msc_feed(struct mttd_msc *m, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (m->done || m->failed)
		return -1;
	m->st.bytes += len;
	while (len) {
		if (m->dlen < MTTD_MSC_DESC) {
			size_t k = MTTD_MSC_DESC - m->dlen;

			if (k > len)
				k = len;
			memcpy(m->desc + m->dlen, p, k);
			m->dlen += k;
			p += k;
			len -= k;
			if (m->dlen == MTTD_MSC_DESC) {
				start_block(m);
				if (m->dlen && !m->body)
					end_block(m);
			}
			continue;
		}
		{
			size_t k = len < m->body ? len : (size_t)m->body;
			size_t v = k < m->valid ? k : (size_t)m->valid;

			out(m, p, v);
			m->valid -= v;
			m->body -= k;
			p += k;
			len -= k;
			if (!m->body)
				end_block(m);
		}
	}
	return m->failed ? -1 : 0;
}

int mttd_msc_finish(struct mttd_msc *m)
{
	if (m->done)
		return -1;
	m->done = 1;
	if (m->dlen)
		m->st.truncated = 1;
	release(m);
	m->win = WIN_START;
	return m->failed ? -1 : 0;
}
