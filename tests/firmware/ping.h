/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ping.h - the test firmwares' ping (riscv32/firmware.c, stm32f4/mtt.c;
 * Documentation/firmware.rst, "The ping byte"): a behaviour of these
 * test firmwares for the causal tests (tests/firmware/multi.t), not a
 * protocol feature.  The byte FW_PING_BYTE, received by the UART that
 * carries the MTT commands while no command frame is partly received,
 * is not given to mttfw_rx(): the receive interrupt calls fw_ping(),
 * which traces the arrival, INFO "ping" UINT32 "received" = k, and
 * then the reply, INFO "ping" UINT32 "pong" = k (k = 1, 2... the
 * pings received), each frame timestamped when it is built.  The
 * component "ping" is opened at the first ping, so a firmware never
 * pinged writes exactly what it wrote before.  0x70 ('p') is neither
 * firmware's target id (0x50, 0x60) nor MTT_FRAME_TARGET_CONTROL, so it
 * never begins a command frame addressed to them.  Include it after
 * mttfw/mttfw.h.
 */
#ifndef FW_PING_H
#define FW_PING_H

#define FW_PING_BYTE	0x70u

struct fw_ping {
	mtt_comp_handle_t comp;
	uint32_t k;
};

/* b, from the receive interrupt: 1 if it was a ping (answered), 0 if it
 * is for mttfw_rx() */
static inline int fw_ping(struct fw_ping *p, struct mttfw *m, uint8_t b)
{
	if (b != FW_PING_BYTE || m->rx_len)
		return 0;
	if (!p->comp)
		mttfw_open(m, MTT_COMPONENTID_ANY, "ping", &p->comp);
	p->k++;
	mtt_trace(p->comp, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &p->k,
		  "received");
	mtt_trace(p->comp, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &p->k,
		  "pong");
	return 1;
}

#endif
