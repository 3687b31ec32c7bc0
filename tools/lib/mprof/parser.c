// SPDX-License-Identifier: GPL-2.0
/*
 * parser.c - MiniProfiler response parser: a state machine over a byte
 * stream that finds AA 55 headers anywhere, waits for a whole packet
 * (however the bytes are chunked), checks CRC16 and the end marker, and
 * reports packets, skipped garbage, CRC and end-marker errors and a
 * packet cut short at the end as events.  After a bad packet the search
 * resumes two bytes after its header, so a real packet hidden inside a
 * corrupted one is still found.  Headers of unknown types, or with a
 * length their type cannot have, are skipped as garbage at once.  Decisions are made only on complete
 * data, so chunking never changes the events.
 */
#include <stdlib.h>
#include <string.h>

#include "mprof/mprof.h"
#include "wire/crc.h"

#define MPROF_SHORT_MAX 256	/* longest METADATA or STATUS accepted */

struct mprof_parser {
	mprof_event_fn fn;
	void *ctx;
	size_t max_payload;
	uint8_t *buf;		/* bytes not yet consumed */
	size_t len, cap;
	uint64_t base;		/* stream offset of buf[0] */
	uint64_t gstart;	/* pending garbage run */
	size_t gcount;
	struct mprof_parser_stats st;
};

struct mprof_parser *mprof_parser_new(mprof_event_fn fn, void *ctx,
				      size_t max_payload)
{
	struct mprof_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->fn = fn;
	p->ctx = ctx;
	p->max_payload = max_payload && max_payload < MPROF_RSP_MAX_PAYLOAD ?
			 max_payload : MPROF_RSP_MAX_PAYLOAD;
	return p;
}

void mprof_parser_free(struct mprof_parser *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p);
}

const struct mprof_parser_stats *mprof_parser_stats(const struct mprof_parser *p)
{
	return &p->st;
}

static void emit(struct mprof_parser *p, struct mprof_event *ev)
{
	if (p->fn)
		p->fn(p->ctx, ev);
}

static void garbage(struct mprof_parser *p, size_t at, size_t n)
{
	if (!n)
		return;
	if (!p->gcount)
		p->gstart = p->base + at;
	p->gcount += n;
	p->st.garbage_bytes += n;
}

static void flush_garbage(struct mprof_parser *p)
{
	struct mprof_event ev = { .kind = MPROF_EV_GARBAGE };

	if (!p->gcount)
		return;
	ev.offset = p->gstart;
	ev.len = p->gcount;
	p->gcount = 0;
	p->st.garbage_runs++;
	emit(p, &ev);
}

/* a header worth waiting for: a known type, and a length it can have
 * (ACK/NACK carry nothing; METADATA, STATUS and TIME_SYNC are short, with room for
 * later versions to grow; only PROFILE_DATA may be long), so a damaged
 * header rarely makes the parser wait for bytes that never belonged to
 * it */
static int plausible(uint8_t type, size_t len)
{
	switch (type) {
	case MPROF_RSP_ACK:
	case MPROF_RSP_NACK:
		return len == 0;
	case MPROF_RSP_METADATA:
	case MPROF_RSP_STATUS:
	case MPROF_RSP_TIME_SYNC:	/* our extension */
		return len <= MPROF_SHORT_MAX;
	case MPROF_RSP_PROFILE_DATA:
		return 1;
	}
	return 0;
}

/* consume what can be decided in buf; final: no more bytes will come */
static void process(struct mprof_parser *p, int final)
{
	const uint8_t *b = p->buf;
	size_t i = 0, n = p->len;

	while (i < n) {
		struct mprof_event ev = { 0 };
		const uint8_t *h;
		size_t plen, need;
		uint16_t want;

		h = memchr(b + i, MPROF_RSP_SYNC0, n - i);
		if (!h) {
			garbage(p, i, n - i);
			i = n;
			break;
		}
		garbage(p, i, (size_t)(h - b) - i);
		i = (size_t)(h - b);
		if (n - i < 2 && !final)
			break;
		if (n - i < 2 || b[i + 1] != MPROF_RSP_SYNC1) {
			garbage(p, i, 1);
			i++;
			continue;
		}
		if (n - i < MPROF_RSP_HDR && !final)
			break;
		if (n - i >= MPROF_RSP_HDR) {
			plen = mprof_get16(b + i + 3);
			if (!plausible(b[i + 2], plen) || plen > p->max_payload) {
				garbage(p, i, 1);
				i++;
				continue;
			}
			need = plen + MPROF_RSP_OVERHEAD;
		} else {
			plen = 0;
			need = SIZE_MAX;
		}
		ev.offset = p->base + i;
		ev.type = n - i > 2 ? b[i + 2] : 0;
		if (n - i < need) {
			if (!final)
				break;
			flush_garbage(p);
			ev.kind = MPROF_EV_TRUNCATED;
			ev.len = n - i;
			p->st.truncated++;
			emit(p, &ev);
			i += 2;
			continue;
		}
		want = wire_crc16_ccitt(WIRE_CRC16_START, b + i, MPROF_RSP_HDR + plen);
		ev.crc_got = mprof_get16(b + i + MPROF_RSP_HDR + plen);
		ev.crc_want = want;
		ev.len = plen;
		flush_garbage(p);
		if (ev.crc_got != want) {
			ev.kind = MPROF_EV_CRC;
			p->st.crc_errors++;
			emit(p, &ev);
			i += 2;
			continue;
		}
		if (b[i + need - 1] != MPROF_RSP_END) {
			ev.kind = MPROF_EV_BAD_END;
			p->st.end_errors++;
			emit(p, &ev);
			i += 2;
			continue;
		}
		ev.kind = MPROF_EV_PACKET;
		ev.payload = b + i + MPROF_RSP_HDR;
		p->st.packets++;
		p->st.by_type[ev.type <= 5 ? ev.type : 0]++;
		emit(p, &ev);
		i += need;
	}
	if (final)
		flush_garbage(p);
	if (i) {
		memmove(p->buf, p->buf + i, n - i);
		p->len = n - i;
		p->base += i;
	}
}

int mprof_parser_feed(struct mprof_parser *p, const uint8_t *buf, size_t n)
{
	if (!n)
		return 0;
	if (p->len + n > p->cap) {
		size_t cap = p->cap ? p->cap : 4096;
		uint8_t *nb;

		while (cap < p->len + n)
			cap *= 2;
		nb = realloc(p->buf, cap);
		if (!nb)
			return -1;
		p->buf = nb;
		p->cap = cap;
	}
	memcpy(p->buf + p->len, buf, n);
	p->len += n;
	p->st.bytes += n;
	process(p, 0);
	return 0;
}

void mprof_parser_finish(struct mprof_parser *p)
{
	process(p, 1);
}

const char *mprof_type_name(uint8_t type)
{
	static const char *const names[] = {
		"?", "ACK", "NACK", "METADATA", "STATUS", "PROFILE_DATA",
		"TIME_SYNC",
	};

	return type <= 6 ? names[type] : "?";
}

const char *mprof_cmd_name(uint8_t cmd)
{
	static const char *const names[] = {
		"?", "START_PROFILING", "STOP_PROFILING", "GET_STATUS",
		"RESET_BUFFERS", "GET_METADATA", "SET_CONFIG", "TIME_SYNC",
	};

	return cmd <= 7 ? names[cmd] : "?";
}

int mprof_profile_check(const uint8_t *p, size_t n, unsigned int *version,
			unsigned int *count)
{
	if (n < MPROF_PROFILE_HDR_LEN)
		return -1;
	*version = p[0];
	if (p[0] != MPROF_PROTO_VERSION)
		return -2;
	*count = mprof_get16(p + 1);
	if ((size_t)*count * MPROF_RECORD_LEN + MPROF_PROFILE_HDR_LEN != n)
		return -1;
	return 0;
}
