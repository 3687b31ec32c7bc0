// SPDX-License-Identifier: GPL-2.0
/*
 * testutil.c - see testutil.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		b->s = realloc(b->s, cap);
		if (!b->s)
			abort();
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

size_t hex(const char *s, uint8_t **out)
{
	static uint8_t buf[1 << 16];
	size_t n = 0;
	unsigned int v;
	int k;

	while (*s) {
		if (sscanf(s, " %2x%n", &v, &k) != 1)
			break;
		buf[n++] = (uint8_t)v;
		s += k;
	}
	*out = buf;
	return n;
}

void fmt_event(struct strbuf *b, const struct mttd_stp_event *e)
{
	switch (e->type) {
	case MTTD_EV_PACKET:
		sb_printf(b, "%s@%llu m%u c%u", mttd_op_name(e->op),
			  (unsigned long long)(e->nib >> 1), e->master,
			  e->channel);
		if (e->nibbles && e->op != MTTD_OP_M8 &&
		    e->op != MTTD_OP_M16 && e->op != MTTD_OP_C8 &&
		    e->op != MTTD_OP_C16)
			sb_printf(b, " v=%0*llx", (int)e->nibbles,
				  (unsigned long long)e->value);
		if (e->op == MTTD_OP_ASYNC && e->value)
			sb_printf(b, " skip=%llu",
				  (unsigned long long)e->value);
		if (e->aux)
			sb_printf(b, " a=%02x", e->aux);
		if (e->flags & MTTD_PKT_MARKED)
			sb_printf(b, " M");
		if (e->flags & MTTD_PKT_TS)
			sb_printf(b, " ts=%llx", (unsigned long long)e->ts);
		break;
	case MTTD_EV_DESYNC:
		sb_printf(b, "DESYNC(%s)@%llu", mttd_err_name(e->op),
			  (unsigned long long)(e->nib >> 1));
		break;
	case MTTD_EV_TRUNCATED:
		sb_printf(b, "TRUNC@%llu n=%llu",
			  (unsigned long long)(e->nib >> 1),
			  (unsigned long long)e->value);
		break;
	default:
		sb_printf(b, "END@%llu skip=%llu",
			  (unsigned long long)(e->nib >> 1),
			  (unsigned long long)e->value);
		break;
	}
}

/* out must stay the first member: tu_on_msg() takes a strbuf too */
struct ctx {
	struct strbuf out;
	struct mttd_msgdec *msg;
};

static void on_events(void *p, const struct mttd_stp_event *ev, size_t n)
{
	struct ctx *c = p;
	size_t i;

	for (i = 0; i < n; i++) {
		if (ev[i].type != MTTD_EV_END) {
			fmt_event(&c->out, &ev[i]);
			sb_printf(&c->out, "\n");
		}
		if (c->msg)
			mttd_msg_push(c->msg, &ev[i], 1);
		if (ev[i].type == MTTD_EV_END) {
			fmt_event(&c->out, &ev[i]);
			sb_printf(&c->out, "\n");
		}
	}
}

void tu_on_msg(void *p, const struct mttd_msg *m)
{
	struct ctx *c = p;
	size_t i;

	sb_printf(&c->out, "MSG m%u c%u ts=", m->master, m->channel);
	if (m->flags & MTTD_MSG_HAS_TS)
		sb_printf(&c->out, "%llu", (unsigned long long)m->ts);
	else
		sb_printf(&c->out, "-");
	sb_printf(&c->out, " \"");
	for (i = 0; i < m->len; i++)
		sb_printf(&c->out, "%02x", m->data[i]);
	sb_printf(&c->out, "\" %s%s end=%u\n",
		  (m->flags & MTTD_MSG_COMPLETE) ? "complete" : "incomplete",
		  (m->flags & MTTD_MSG_TRUNCATED) ? " trunc" : "", m->end);
}

void tu_on_mev(void *p, const struct mttd_msg_event *e)
{
	struct ctx *c = p;

	if (e->kind != MTTD_ME_LOSS)
		return;
	sb_printf(&c->out, "LOSS %s@%llu m%u c%u n=%llu\n",
		  mttd_loss_name(e->reason), (unsigned long long)e->offset,
		  e->master, e->channel, (unsigned long long)e->value);
}

uint64_t rnd64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct strbuf decode(const uint8_t *buf, size_t len,
		     const struct decode_opts *o)
{
	struct ctx c = { 0 };
	struct mttd_stp_config cfg = {
		.fn = on_events, .ctx = &c, .flags = o->flags,
		.version = o->version,
	};
	struct mttd_stp *d;
	uint64_t seed = o->seed;

	if (o->messages) {
		struct mttd_msg_config mc = {
			.max_len = o->max_len, .max_open = o->max_open,
		};
		struct mttd_msg_sink sink = {
			.msg = tu_on_msg, .event = tu_on_mev, .ctx = &c,
		};

		c.msg = mttd_msg_new(&mc);
		if (!c.msg)
			abort();
		mttd_msg_add_sink(c.msg, &sink);
	}
	d = mttd_stp_new(&cfg);
	if (!d)
		abort();
	sb_printf(&c.out, "%s", "");
	tu_feed(d, buf, len, o->chunk, o->seed ? &seed : NULL);
	mttd_stp_finish(d);
	mttd_stp_free(d);
	mttd_msg_free(c.msg);
	return c.out;
}

void tu_feed(struct mttd_stp *d, const uint8_t *buf, size_t len,
	     size_t chunk, uint64_t *seed)
{
	size_t off = 0;

	while (off < len) {
		size_t n = len - off;

		if (chunk) {
			size_t k = seed ? 1 + rnd64(seed) % chunk : chunk;

			if (k < n)
				n = k;
		}
		/* a private copy: the decoder must not read past it */
		{
			uint8_t *copy = malloc(n);

			if (!copy)
				abort();
			memcpy(copy, buf + off, n);
			mttd_stp_feed(d, copy, n);
			free(copy);
		}
		off += n;
	}
}

struct mttd_stp_stats decode_stats(const uint8_t *buf, size_t len)
{
	struct ctx c = { 0 };
	struct mttd_stp_config cfg = { .fn = on_events, .ctx = &c };
	struct mttd_stp *d = mttd_stp_new(&cfg);
	struct mttd_stp_stats st;

	mttd_stp_feed(d, buf, len);
	mttd_stp_finish(d);
	st = *mttd_stp_stats(d);
	mttd_stp_free(d);
	sb_free(&c.out);
	return st;
}
