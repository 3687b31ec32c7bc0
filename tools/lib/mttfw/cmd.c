// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cmd.c - commands from the host (<linux/mtt_frame.h>, "Commands and
 * replies" in Documentation/mtt.rst): frames found in the received bytes
 * by their sync word, applied when they address this target, and
 * answered with a reply frame on the instance's output.  TIME_SYNC (our
 * clock exchange) is answered with the instance's clock at the receipt
 * of the command's first byte and just before the reply.
 */
#include "mttfw/fwstring.h"

#include "mttfw/mttfw.h"

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* the reply frame: type_info ti (0: none) over payload */
static void reply_ti(struct mttfw *m, uint32_t cmd, uint32_t flags,
		     uint32_t comp, uint32_t seq, uint32_t ti,
		     const void *payload)
{
	uint8_t buf[MTT_FRAME_PREAMBLE_BYTES + 8 + 16 + MTT_FRAME_CRC_BYTES];
	uint64_t ts = 0;
	size_t n;

	if (m->cfg.now_ns) {
		flags |= MTT_FRAME_F_TS64;
		ts = m->cfg.now_ns(m->cfg.now_ctx);
	}
	n = mttfw_frame(buf, m->cfg.target, cmd | MTT_FRAME_F_RET | flags,
			comp, seq, ti, ts, 0, payload, NULL);
	n = mttfw_add_crc(m, buf, n);
	if (m->cfg.out.put)
		m->cfg.out.put(m->cfg.out.ctx, buf, n);
}

static void reply(struct mttfw *m, uint32_t cmd, uint32_t flags,
		  uint32_t comp, uint32_t seq, int with_value, uint32_t value)
{
	reply_ti(m, cmd, flags, comp, seq,
		 with_value ? (uint32_t)MTT_TRACEITEM_PTR32 : 0, &value);
}

static void put64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* TIME_SYNC's reply (our extension): t_rx, and t_tx read last */
static void time_sync(struct mttfw *m, uint32_t comp, uint32_t seq,
		      uint64_t t_rx)
{
	uint8_t pl[16];

	put64(pl, t_rx);
	put64(pl + 8, m->cfg.now_ns(m->cfg.now_ctx));
	reply_ti(m, MTT_FRAME_CMD_TIME_SYNC, MTT_FRAME_F_RETV, comp, seq,
		 MTT_FRAME_TIME_SYNC_TI, pl);
}

/* Apply the command frame f (len bytes, whole); MTTFW_RX_* bits. */
static unsigned int command(struct mttfw *m, const uint8_t *f, size_t len)
{
	uint32_t w0 = get32(f), w1 = get32(f + 4), comp = get32(f + 8);
	uint32_t seq = get32(f + 12), ti = get32(f + 16);
	uint32_t cmd = w1 & MTT_FRAME_CMD_MASK, arg = 0, val = 0;
	uint32_t target = w0 & MTT_FRAME_TARGET_MASK;
	mtt_return_t err = MTT_ERR_NONE;
	struct mttfw_comp *c = NULL;
	unsigned int ret = MTTFW_RX_COMMAND;
	int has_arg;

	if ((target != MTT_FRAME_TARGET_CONTROL && target != m->cfg.target) ||
	    (w1 & MTT_FRAME_F_RET) || cmd == MTT_FRAME_CMD_TRACE ||
	    cmd == MTT_FRAME_CMD_META || cmd == MTT_FRAME_CMD_RAW)
		return 0;	/* another target's, a reply, or no command */
	has_arg = (ti & (MTT_TYPE_MASK | MTT_TYPE_SIZE_MASK)) ==
		  (MTT_TYPE_UINT32 | 4);
	if (has_arg)
		arg = get32(f + len - 4 -
			    ((w1 & MTT_FRAME_F_HINT) ? MTT_FRAME_HINT_BYTES : 0) -
			    ((w1 & MTT_FRAME_F_CRC) ? 4 : 0));
	if (cmd == MTT_FRAME_CMD_TIME_SYNC && m->cfg.now_ns) {
		/* receipt: when its first byte was taken (an instance
		 * without a clock answers NACK, as one that predates the
		 * command: MTT_ERR_FN_UNIMPLEMENTED) */
		time_sync(m, comp, seq, m->rx_t0);
		return ret;
	}
	switch (cmd) {
	case MTT_FRAME_CMD_SET_COMP_FILTER:
	case MTT_FRAME_CMD_GET_COMP_FILTER:
		c = mttfw_find(m, comp);
		if (!c || (cmd == MTT_FRAME_CMD_SET_COMP_FILTER && !has_arg))
			err = MTT_ERR_PARAM;
		else if (cmd == MTT_FRAME_CMD_SET_COMP_FILTER)
			err = mttfw_set_component_filter(&c->pub, arg, &val);
		else
			err = mttfw_get_component_filter(&c->pub, &val);
		break;
	case MTT_FRAME_CMD_SET_CORE_FILTER:
		if (!has_arg)
			err = MTT_ERR_PARAM;
		else
			err = mttfw_set_core_filter(m, arg, &val);
		break;
	case MTT_FRAME_CMD_GET_CORE_FILTER:
		err = mttfw_get_core_filter(m, &val);
		break;
	case MTT_FRAME_CMD_START:
		ret |= MTTFW_RX_START;
		break;
	case MTT_FRAME_CMD_STOP:
		ret |= MTTFW_RX_STOP;
		break;
	default:
		err = MTT_ERR_FN_UNIMPLEMENTED;
		break;
	}
	if (err)
		reply(m, cmd, MTT_FRAME_F_NACK, comp, seq, 1, err);
	else if (cmd == MTT_FRAME_CMD_START || cmd == MTT_FRAME_CMD_STOP)
		reply(m, cmd, 0, comp, seq, 0, 0);
	else
		reply(m, cmd, MTT_FRAME_F_RETV, comp, seq, 1, val);
	return err ? MTTFW_RX_COMMAND : ret;
}

static int could_sync(const uint8_t *p, uint32_t n, uint32_t w0)
{
	uint32_t i;

	for (i = 1; i < n && i < 4; i++)
		if (p[i] != (uint8_t)(w0 >> (8 * i)))
			return 0;
	return 1;
}

static void drop1(struct mttfw *m)
{
	uint32_t i;

	for (i = 1; i < m->rx_len; i++)
		m->rx[i - 1] = m->rx[i];
	m->rx_len--;
}

unsigned int mttfw_rx(struct mttfw *m, const uint8_t *p, size_t n)
{
	unsigned int ret = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t len, w0;
		int first = !m->rx_len;	/* rx[0] is a byte not timed yet */

		m->rx[m->rx_len++] = p[i];
		/* hunt: keep the bytes while they can begin a sync word
		 * (bytes 1..3 of word 0; byte 0, the target, is any) */
		w0 = MTT_FRAME_WORD0(0);
		while (m->rx_len && !could_sync(m->rx, m->rx_len, w0)) {
			drop1(m);
			first = 1;
		}
		/* rx[0]'s time: read now, at or after its arrival */
		if (first && m->rx_len && m->cfg.now_ns)
			m->rx_t0 = m->cfg.now_ns(m->cfg.now_ctx);
		if (m->rx_len < MTT_FRAME_PREAMBLE_BYTES)
			continue;
		len = mtt_frame_len(get32(m->rx + 4), get32(m->rx + 16));
		if (len > sizeof(m->rx)) {
			/* no command is that long: look past this sync */
			drop1(m);
			if (m->cfg.now_ns)
				m->rx_t0 = m->cfg.now_ns(m->cfg.now_ctx);
			continue;
		}
		if (m->rx_len < len)
			continue;
		ret |= command(m, m->rx, len);
		m->rx_len = 0;
	}
	return ret;
}
