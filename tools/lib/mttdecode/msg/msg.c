// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * msg.c - message reassembly and loss reporting over STP decoder events
 * (rules in mttdecode/msg.h), delivering to the registered sinks.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/msg.h"
#include "internal/msg_chan.h"
#include "internal/msg_internal.h"
#include "internal/state.h"

struct mttd_msgdec *mttd_msg_new(const struct mttd_msg_config *cfg)
{
	size_t max_len = cfg && cfg->max_len ? cfg->max_len : MTTD_MSG_MAX_LEN;
	unsigned int max_open = cfg && cfg->max_open ? cfg->max_open :
			MTTD_MSG_MAX_OPEN;
	struct mttd_msgdec *m;

	if (max_len < 16 || max_len > (16u << 20) || max_open > 65536)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	if (mttd__chans_init(&m->ch, max_open, (uint32_t)max_len)) {
		free(m);
		return NULL;
	}
	m->cur_key = UINT32_MAX;
	m->cur = -1;
	return m;
}

void mttd_msg_free(struct mttd_msgdec *m)
{
	if (!m)
		return;
	mttd__chans_fini(&m->ch);
	free(m);
}

int mttd_msg_add_sink(struct mttd_msgdec *m, const struct mttd_msg_sink *s)
{
	if (m->nsinks == MTTD_MSG_SINKS_MAX)
		return -1;
	m->sink[m->nsinks++] = *s;
	return 0;
}

const struct mttd_msg_stats *mttd_msg_stats(const struct mttd_msgdec *m)
{
	return &m->st;
}

const char *mttd_loss_name(unsigned int reason)
{
	static const char *const names[] = {
		"gerr", "merr", "desync", "truncated"
	};

	return reason < 4 ? names[reason] : "?";
}

static void send_event(struct mttd_msgdec *m, const struct mttd_msg_event *e)
{
	unsigned int i;

	for (i = 0; i < m->nsinks; i++)
		if (m->sink[i].event)
			m->sink[i].event(m->sink[i].ctx, e);
}

/* Deliver the message in slot i and free the slot. */
static void deliver(struct mttd_msgdec *m, int32_t i, uint32_t flags,
		    unsigned int end)
{
	struct mttd__slot *s = &m->ch.slot[i];
	struct mttd_msg msg = {
		.offset = s->offset, .ts = s->ts, .data = s->buf,
		.len = s->len, .master = (uint16_t)(s->key >> 16),
		.channel = (uint16_t)s->key, .end = end,
	};
	unsigned int k;

	msg.flags = flags | (s->has_ts ? MTTD_MSG_HAS_TS : 0) |
		    (s->truncated ? MTTD_MSG_TRUNCATED : 0);
	m->st.messages++;
	if (!(msg.flags & MTTD_MSG_COMPLETE))
		m->st.incomplete++;
	if (s->truncated)
		m->st.truncated++;
	for (k = 0; k < m->nsinks; k++)
		if (m->sink[k].msg)
			m->sink[k].msg(m->sink[k].ctx, &msg);
	if (s->key == m->cur_key)
		m->cur = -1;
	mttd__chans_close(&m->ch, i);
}

static int32_t open_msg(struct mttd_msgdec *m, uint32_t key, uint64_t off,
			uint64_t ts, int has_ts)
{
	struct mttd__slot *s;
	int32_t i;

	if (m->ch.nopen == m->ch.max_open) {
		m->st.evicted++;
		deliver(m, m->ch.head, MTTD_MSG_EVICTED, MTTD_END_EVICTED);
	}
	i = mttd__chans_open(&m->ch, key);
	s = &m->ch.slot[i];
	s->offset = off;
	s->ts = ts;
	s->has_ts = (uint8_t)has_ts;
	m->cur_key = key;
	m->cur = i;
	return i;
}

/* bytes a data packet adds: its payload, or one byte for D4 */
static inline unsigned int data_bytes(const struct mttd_stp_event *e)
{
	return e->nibbles > 1 ? e->nibbles / 2u : 1u;
}

void mttd__msg_data(struct mttd_msgdec *m, uint32_t key, uint64_t nib,
		    uint64_t ts, unsigned int flags, uint64_t value,
		    unsigned int nbytes)
{
	int32_t i = mttd__msg_lookup(m, key);

	if (flags & MTTD_PKT_TS) {
		if (i >= 0)
			deliver(m, i, 0, MTTD_END_NEW_TS);
		i = open_msg(m, key, nib >> 1, ts, 1);
	} else if (i < 0) {
		i = open_msg(m, key, nib >> 1, ts, 0);
	}
	mttd__append(&m->ch, &m->ch.slot[i], value, nbytes);
	if (flags & MTTD_PKT_MARKED)
		deliver(m, i, MTTD_MSG_COMPLETE, MTTD_END_MARKED);
}

static void data(struct mttd_msgdec *m, const struct mttd_stp_event *e)
{
	mttd__msg_data(m, (uint32_t)e->master << 16 | e->channel, e->nib,
		       e->ts, e->flags, e->value, data_bytes(e));
}

void mttd__msg_flag(struct mttd_msgdec *m, uint32_t key)
{
	int32_t i = mttd__msg_lookup(m, key);

	if (i >= 0)
		deliver(m, i, MTTD_MSG_COMPLETE, MTTD_END_FLAG);
	else
		m->st.stray_flags++;
}

/* End open messages, all of them or (master >= 0) those of one master. */
static void flush(struct mttd_msgdec *m, long master, unsigned int end)
{
	int32_t i = m->ch.head;

	while (i >= 0) {
		int32_t next = m->ch.slot[i].next;

		if (master < 0 || (long)(m->ch.slot[i].key >> 16) == master)
			deliver(m, i, 0, end);
		i = next;
	}
}

static void loss(struct mttd_msgdec *m, unsigned int reason, uint64_t off,
		 uint16_t master, uint16_t channel, uint64_t count,
		 unsigned int err)
{
	struct mttd_msg_event e = {
		.offset = off, .value = count, .master = master,
		.channel = channel, .kind = MTTD_ME_LOSS,
		.reason = (uint8_t)reason, .err = (uint8_t)err,
	};

	m->st.losses[reason]++;
	send_event(m, &e);
}

static void end_desync(struct mttd_msgdec *m, uint64_t skipped)
{
	if (!m->pending)
		return;
	m->pending = 0;
	loss(m, MTTD_LOSS_DESYNC, m->pend_off, m->pend_master,
	     m->pend_channel, skipped, m->pend_err);
}

static void simple(struct mttd_msgdec *m, unsigned int kind,
		   const struct mttd_stp_event *e)
{
	struct mttd_msg_event me = {
		.offset = e->nib >> 1, .value = e->value, .master = e->master,
		.channel = e->channel, .kind = (uint8_t)kind,
	};

	if (kind == MTTD_ME_SYNC) {
		me.first = !m->synced_once || m->sync_lost;
		m->synced_once = 1;
		m->sync_lost = 0;
	}
	send_event(m, &me);
}

static void packet(struct mttd_msgdec *m, const struct mttd_stp_event *e)
{
	switch (e->op) {
	case MTTD_OP_FLAG:
	case MTTD_OP_FLAG_TS:
		mttd__msg_flag(m, (uint32_t)e->master << 16 | e->channel);
		break;
	case MTTD_OP_GERR:
		flush(m, -1, MTTD_END_LOSS);
		loss(m, MTTD_LOSS_GERR, e->nib >> 1, e->master, e->channel,
		     e->value, 0);
		break;
	case MTTD_OP_MERR:
		flush(m, e->master, MTTD_END_LOSS);
		loss(m, MTTD_LOSS_MERR, e->nib >> 1, e->master, e->channel,
		     e->value, 0);
		break;
	case MTTD_OP_ASYNC:
		end_desync(m, e->value);
		simple(m, MTTD_ME_SYNC, e);
		break;
	case MTTD_OP_VERSION:
		simple(m, MTTD_ME_VERSION, e);
		break;
	case MTTD_OP_FREQ:
	case MTTD_OP_FREQ_TS:
	case MTTD_OP_FREQ_40:
	case MTTD_OP_FREQ_40_TS:
		simple(m, MTTD_ME_FREQ, e);
		break;
	default:
		break;
	}
}

/*
 * The fast path reads an event's type/op/nibbles/flags and its
 * master/channel as two 32-bit words (they are adjacent, see stp_ops.c).
 */
_Static_assert(offsetof(struct mttd_stp_event, channel) ==
	       offsetof(struct mttd_stp_event, master) + 2 &&
	       offsetof(struct mttd_stp_event, nibbles) ==
	       offsetof(struct mttd_stp_event, type) + 2 &&
	       offsetof(struct mttd_stp_event, flags) ==
	       offsetof(struct mttd_stp_event, type) + 3,
	       "event layout");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define B0(x)		((uint32_t)(x) << 24)
#define B3(x)		((uint32_t)(x))
#define NIBBLES(w)	(((w) >> 8) & 0xff)
#define MCKEY(key)	(key)
#else
#define B0(x)		((uint32_t)(x))
#define B3(x)		((uint32_t)(x) << 24)
#define NIBBLES(w)	(((w) >> 16) & 0xff)
#define MCKEY(key)	((key) >> 16 | (key) << 16)
#endif
#define TF_MASK	(B0(0xff) | B3(MTTD_PKT_DATA | MTTD_PKT_TS | MTTD_PKT_MARKED))
#define TF_DATA	(B0(MTTD_EV_PACKET) | B3(MTTD_PKT_DATA))

/*
 * The common case: a run of unmarked, untimestamped data packets for the
 * message open on the current channel.  Appends them with the length in
 * a register; returns the first event it did not take.
 */
static const struct mttd_stp_event *
run_of_data(struct mttd_msgdec *m, const struct mttd_stp_event *e,
	    const struct mttd_stp_event *end)
{
	struct mttd__slot *s;
	uint32_t len, cap, tf, mc, mck = MCKEY(m->cur_key);
	uint8_t *buf;

	if (m->cur < 0)
		return e;
	memcpy(&tf, &e->type, 4);
	memcpy(&mc, &e->master, 4);
	if ((tf & TF_MASK) != TF_DATA || mc != mck)
		return e;
	s = &m->ch.slot[m->cur];
	/* in locals: the byte stores could alias the slot otherwise */
	len = s->len;
	cap = s->cap;
	buf = s->buf;
	do {
		uint32_t nib = NIBBLES(tf);

		if (!mttd__put8(buf, len, cap, e->value))
			break;
		len += nib > 1 ? nib / 2u : 1u;
		if (++e == end)
			break;
		memcpy(&tf, &e->type, 4);
		memcpy(&mc, &e->master, 4);
	} while ((tf & TF_MASK) == TF_DATA && mc == mck);
	s->len = len;
	return e;
}

void mttd__msg_packet(struct mttd_msgdec *m, const struct mttd_stp_event *e)
{
	if (e->flags & MTTD_PKT_DATA)
		data(m, e);
	else
		packet(m, e);
}

void mttd_msg_push(struct mttd_msgdec *m, const struct mttd_stp_event *ev,
		   size_t n)
{
	const struct mttd_stp_event *e, *end = ev + n;

	for (e = ev; e < end; e++) {
		e = run_of_data(m, e, end);
		if (e == end)
			break;
		if (e->type == MTTD_EV_PACKET) {
			if (e->flags & MTTD_PKT_DATA)
				data(m, e);
			else
				packet(m, e);
			continue;
		}
		switch (e->type) {
		case MTTD_EV_DESYNC:
			flush(m, -1, MTTD_END_LOSS);
			m->sync_lost = 1;
			if (!m->pending) {
				m->pending = 1;
				m->pend_off = e->nib >> 1;
				m->pend_master = e->master;
				m->pend_channel = e->channel;
				m->pend_err = e->op;
			}
			break;
		case MTTD_EV_TRUNCATED:
			flush(m, -1, MTTD_END_LOSS);
			loss(m, MTTD_LOSS_TRUNCATED, e->nib >> 1, e->master,
			     e->channel, (e->value + 1) / 2, 0);
			break;
		case MTTD_EV_END:
			end_desync(m, e->value);
			flush(m, -1, MTTD_END_FINISH);
			break;
		default:
			break;
		}
	}
}

void mttd_msg_stp_fn(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	mttd_msg_push(ctx, ev, n);
}

#define PUT(b, x) mttd__blob_put((b), &(x), sizeof(x))

void mttd__msg_state(const struct mttd_msgdec *m, struct mttd__blob *b)
{
	int32_t i;

	PUT(b, m->pending);
	if (m->pending) {
		PUT(b, m->pend_off);
		PUT(b, m->pend_master);
		PUT(b, m->pend_channel);
		PUT(b, m->pend_err);
	}
	PUT(b, m->synced_once);
	PUT(b, m->sync_lost);
	PUT(b, m->nsinks);
	PUT(b, m->ch.nopen);
	/* the open messages, oldest first (the order they are evicted in) */
	for (i = m->ch.head; i >= 0; i = m->ch.slot[i].next) {
		const struct mttd__slot *s = &m->ch.slot[i];

		PUT(b, s->key);
		PUT(b, s->offset);
		PUT(b, s->ts);
		PUT(b, s->has_ts);
		PUT(b, s->truncated);
		PUT(b, s->len);
		mttd__blob_put(b, s->buf, s->len);
	}
}
