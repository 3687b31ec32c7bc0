// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * core.c - libmprofdev's freestanding core (see core.h): the hooks, the
 * command parser, the responses.
 *
 * The hooks keep a stack of entry times (the port says whose: the
 * thread's, or the one stack of a microcontroller).  Depth is counted
 * even while not profiling, so depths are real call depths.  An
 * interrupt handler that runs instrumented code between two of a hook's
 * steps leaves the stack as it found it (handlers return in the order
 * they were entered), so the hooks need no lock and mask nothing: entry
 * claims its slot (depth + 1) before writing it, exit reads its slot
 * before releasing it.  On return, while profiling, one record goes into
 * the ring (a full ring counts an overflow), and a port that transmits
 * from an interrupt is kicked once a packet's worth is waiting.
 *
 * The exit hook keeps to what only it can do: the second clock read, a
 * slot claimed (one CAS, retried only when another producer claimed
 * meanwhile) and filled with the raw values, and the kick test.  The consumer makes
 * the wire's record of them (records()); the number captured is the
 * ring's count of claims, not a second atomic counter.
 */
#include <string.h>

#include "core.h"

/* the running instance, or NULL: the only global, as the compiler's
 * hooks take no context */
static _Atomic(struct mprofdev_core *) active;

/* keep the compiler from moving stack accesses across these points (an
 * interrupt handler on this core may run between any two) */
#define ORDER() atomic_signal_fence(memory_order_seq_cst)

NO_INSTR void __cyg_profile_func_enter(void *fn, void *site);
NO_INSTR void __cyg_profile_func_exit(void *fn, void *site);

NO_INSTR void __cyg_profile_func_enter(void *fn, void *site)
{
	struct mprofdev_stack *s = MPROFDEV_HOOK_STACK();
	unsigned int d = s->depth;

	(void)fn;
	(void)site;
	s->depth = d + 1;
	ORDER();
	if (d < MPROFDEV_MAX_DEPTH)
		s->t[d] = MPROFDEV_HOOK_NOW_US();
}

NO_INSTR void __cyg_profile_func_exit(void *fn, void *site)
{
	struct mprofdev_stack *s = MPROFDEV_HOOK_STACK();
	struct mprofdev_core *c;
	struct ring_slot *slot;
	unsigned int d = s->depth;
	uint32_t entry, now;

	(void)site;
	if (!d)
		return;
	d--;
	if (d >= MPROFDEV_MAX_DEPTH) {
		s->depth = d;	/* deeper than recorded: counted only */
		return;
	}
	entry = s->t[d];
	ORDER();
	s->depth = d;
	c = atomic_load_explicit(&active, memory_order_acquire);
	if (!c || !atomic_load_explicit(&c->profiling, memory_order_relaxed))
		return;
	/* the clock before the claim: a handler that runs in between has
	 * its record before this one, as its call ended first */
	now = MPROFDEV_HOOK_NOW_US();
	slot = ring_claim(&c->ring);
	if (!slot) {
		atomic_fetch_add_explicit(&c->overflows, 1, memory_order_relaxed);
		return;
	}
	slot->r.fn = (uintptr_t)fn;
	slot->r.entry = entry;
	slot->r.exit = now;
	slot->r.depth = d;
	ring_publish(slot);
	if (ring_used(&c->ring) >= c->rpp && c->kick && !c->burst)
		mprofdev_core_kick(c);
}

NO_INSTR void mprofdev_core_init(struct mprofdev_core *c,
				 struct ring_slot *slots, unsigned int order,
				 uint8_t *out, unsigned int rpp,
				 const struct mprof_metadata *meta, int burst)
{
	memset(c, 0, sizeof(*c));
	ring_init(&c->ring, slots, order);
	c->meta = *meta;
	c->addr_mask = ~(uintptr_t)0;
	c->rpp = rpp;
	c->burst = burst;
	c->out = out;
	c->outcap = MPROFDEV_OUT_SIZE(rpp);
	atomic_init(&c->profiling, 0);
	atomic_init(&c->tx_idle, 1);
	atomic_init(&c->overflows, 0);
	atomic_init(&c->done, 0);
}

NO_INSTR int mprofdev_core_activate(struct mprofdev_core *c)
{
	struct mprofdev_core *none = NULL;

	return atomic_compare_exchange_strong(&active, &none, c) ? 0 : -1;
}

NO_INSTR void mprofdev_core_deactivate(struct mprofdev_core *c)
{
	atomic_compare_exchange_strong(&active, &c, NULL);
}

NO_INSTR void mprofdev_core_kick(struct mprofdev_core *c)
{
	if (c->kick && atomic_load_explicit(&c->tx_idle, memory_order_relaxed) &&
	    atomic_exchange(&c->tx_idle, 0))
		c->kick();
}

NO_INSTR void mprofdev_core_tx_stopped(struct mprofdev_core *c)
{
	atomic_store(&c->tx_idle, 1);
	/* what came between the transmitter's last look and now */
	if (c->qlen || (atomic_load(&c->profiling) && !c->burst &&
			ring_used(&c->ring)))
		mprofdev_core_kick(c);
}

/* act on a well-formed command (c->cmd, its last byte just taken);
 * queue it for its response */
static NO_INSTR void command(struct mprofdev_core *c)
{
	uint8_t cmd = c->cmd[1];
	struct mprofdev_cmdq *e;

	if (cmd == MPROF_CMD_START)
		atomic_store(&c->profiling, 1);
	else if (cmd == MPROF_CMD_STOP)
		atomic_store(&c->profiling, 0);
	if (c->qlen >= MPROFDEV_CMDQ)
		return;
	e = &c->q[(c->qhead + c->qlen++) % MPROFDEV_CMDQ];
	e->cmd = cmd;
#ifndef MPROFDEV_NO_TIME_SYNC
	if (cmd == MPROF_CMD_TIME_SYNC &&
	    c->cmd[2] != MPROF_TIME_SYNC_CMD_LEN)
		e->cmd = 0;	/* no seq: answered NACK */
	else if (cmd == MPROF_CMD_TIME_SYNC) {
		/* the receipt time: now, in the command's last byte's pass */
		e->t_rx = MPROFDEV_HOOK_NOW_US() - c->t0_us;
		e->seq = mprof_get32(c->cmd + 3);
	}
#endif
}

/* assemble commands from the bytes received; after a bad one go on
 * from the next 55 inside it */
NO_INSTR unsigned int mprofdev_core_rx(struct mprofdev_core *c,
				       const uint8_t *p, size_t n)
{
	unsigned int taken = 0;

	while (n--) {
		uint8_t b = *p++;

		if (!c->cmdlen && b != MPROF_CMD_SYNC)
			continue;
		c->cmd[c->cmdlen++] = b;
		while (c->cmdlen == MPROF_CMD_LEN) {
			unsigned int i, s;

			if (mprof_cmd_valid(c->cmd)) {
				command(c);
				taken++;
				c->cmdlen = 0;
				break;
			}
			for (s = 1; s < MPROF_CMD_LEN && c->cmd[s] != MPROF_CMD_SYNC; s++)
				;
			c->cmdlen = MPROF_CMD_LEN - s;
			for (i = 0; i < c->cmdlen; i++)
				c->cmd[i] = c->cmd[s + i];
		}
	}
	if (taken)
		mprofdev_core_kick(c);
	return taken;
}

static NO_INSTR size_t respond(struct mprofdev_core *c, uint8_t type,
			       const uint8_t *payload, size_t len)
{
	return mprof_rsp_encode(c->out, c->outcap, type, payload, len);
}

/* up to rpp records (discard: all of them, dropped) */
static NO_INSTR size_t records(struct mprofdev_core *c, int discard)
{
	uint8_t *pl = c->out + MPROF_RSP_HDR;
	struct mprof_record r;
	struct ring_rec raw;
	unsigned int n = 0, total = 0;

	while ((discard || n < c->rpp) && !ring_pop(&c->ring, &raw)) {
		total++;
		if (discard)
			continue;
		/* the wire's record of the hook's raw values */
		r.func_addr = (uint32_t)((raw.fn - c->addr_bias) &
					 c->addr_mask);
		r.entry_time = raw.entry - c->t0_us;
		r.duration_us = raw.exit - raw.entry;
		r.depth = (uint16_t)raw.depth;
		mprof_record_put(pl + MPROF_PROFILE_HDR_LEN +
				 (size_t)n++ * MPROF_RECORD_LEN, &r);
	}
	if (total)
		atomic_fetch_add(&c->done, total);
	if (!n)
		return 0;
	pl[0] = MPROF_PROTO_VERSION;
	mprof_put16(pl + 1, (uint16_t)n);
	return respond(c, MPROF_RSP_PROFILE_DATA, pl,
		       MPROF_PROFILE_HDR_LEN + (size_t)n * MPROF_RECORD_LEN);
}

static NO_INSTR size_t status(struct mprofdev_core *c)
{
	struct mprof_status s;
	uint8_t pl[MPROF_STATUS_LEN];
	size_t used = ring_used(&c->ring), size = c->ring.mask + 1;

	s.is_profiling = (uint8_t)atomic_load(&c->profiling);
	s.buffer_overflows = atomic_load(&c->overflows);
	s.records_captured = mprofdev_core_captured(c);
	s.buffer_usage_percent = (uint8_t)(used >= size ? 100 : used * 100 / size);
	mprof_status_put(pl, &s);
	return respond(c, MPROF_RSP_STATUS, pl, sizeof(pl));
}

#ifndef MPROFDEV_NO_TIME_SYNC
/* the exchange's reply: t_tx read last, just before it is framed */
static NO_INSTR size_t time_sync(struct mprofdev_core *c,
				 const struct mprofdev_cmdq *e)
{
	struct mprof_time_sync t = { .seq = e->seq, .t_rx = e->t_rx };
	uint8_t pl[MPROF_TIME_SYNC_LEN];

	t.t_tx = MPROFDEV_HOOK_NOW_US() - c->t0_us;
	mprof_time_sync_put(pl, &t);
	return respond(c, MPROF_RSP_TIME_SYNC, pl, sizeof(pl));
}
#endif

NO_INSTR size_t mprofdev_core_next(struct mprofdev_core *c)
{
	uint8_t pl[MPROF_METADATA_LEN];
	struct mprofdev_cmdq e;
	uint8_t cmd;
	size_t n;

	if (!c->qlen)
		return atomic_load(&c->profiling) && !c->burst ?
		       records(c, 0) : 0;
	e = c->q[c->qhead];
	cmd = e.cmd;
	/* STOP: every record still in the ring goes before its ACK */
	if (cmd == MPROF_CMD_STOP && (n = records(c, 0)))
		return n;
	c->qhead = (c->qhead + 1) % MPROFDEV_CMDQ;
	c->qlen--;
	switch (cmd) {
	case MPROF_CMD_GET_METADATA:
		mprof_metadata_put(pl, &c->meta);
		return respond(c, MPROF_RSP_METADATA, pl, MPROF_METADATA_LEN);
	case MPROF_CMD_GET_STATUS:
		return status(c);
	case MPROF_CMD_RESET:
		records(c, 1);
		atomic_store(&c->overflows, 0);
		/* fall through */
	case MPROF_CMD_START:
	case MPROF_CMD_STOP:
	case MPROF_CMD_SET_CONFIG:	/* reserved: accepted, ignored */
		return respond(c, MPROF_RSP_ACK, NULL, 0);
#ifndef MPROFDEV_NO_TIME_SYNC
	case MPROF_CMD_TIME_SYNC:
		return time_sync(c, &e);
#endif
	default:
		return respond(c, MPROF_RSP_NACK, NULL, 0);
	}
}

NO_INSTR int mprofdev_core_tx_byte(struct mprofdev_core *c)
{
	if (c->txpos == c->txlen) {
		c->txpos = 0;
		c->txlen = mprofdev_core_next(c);
		if (!c->txlen)
			return -1;
	}
	return c->out[c->txpos++];
}
