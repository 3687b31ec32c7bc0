/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * core.h - libmprofdev's freestanding core, shared by every port: the
 * -finstrument-functions hooks, the record ring, the 12-byte command
 * parser and the responses (METADATA, STATUS, ACK/NACK, PROFILE_DATA
 * batches, TIME_SYNC: our clock exchange; a core built with
 * -DMPROFDEV_NO_TIME_SYNC answers it NACK, as a device that predates it).  No allocation, no threads, no libc beyond memcpy and
 * memset: the Linux port (port/linux.c: a writer thread on an fd) and
 * the firmware glue (fw/mprofdev_fw.c with a board file such as
 * port/stm32f4.c) drive it.
 *
 * Contexts: the hooks run anywhere (any thread, any interrupt priority,
 * nested); everything else (mprofdev_core_rx(), mprofdev_core_next())
 * runs in one consumer context at a time (the writer thread; the UART
 * interrupt).  The two meet only in the lock-free ring and atomics.
 */
#ifndef MPROFDEV_CORE_H
#define MPROFDEV_CORE_H

#include <stdatomic.h>
#include <stdint.h>

#include "ring.h"
#include "wire/mprof_wire.h"

#define NO_INSTR __attribute__((no_instrument_function))

/* call depth tracked per stack (deeper calls are counted, not recorded) */
#ifndef MPROFDEV_MAX_DEPTH
#define MPROFDEV_MAX_DEPTH 512
#endif
/* commands waiting for their response */
#define MPROFDEV_CMDQ 8

/* One stack of entry times: per thread on Linux; one per core on a
 * microcontroller (interrupts nest last in, first out) */
struct mprofdev_stack {
	unsigned int depth;
	uint32_t t[MPROFDEV_MAX_DEPTH];
};

struct mprofdev_core {
	struct mprof_metadata meta;
	struct ring ring;
	uintptr_t addr_bias;	/* sent address = (fn - bias) & mask */
	uintptr_t addr_mask;
	uint32_t t0_us;		/* entry times are relative to this */
	unsigned int rpp;	/* records per PROFILE_DATA packet */
	int burst;		/* keep records until STOP */
	/* the port's "start transmitting" (enable the TX interrupt), or
	 * NULL when a thread polls mprofdev_core_next() anyway */
	void (*kick)(void);
	atomic_int profiling;
	atomic_int tx_idle;	/* 1: the transmitter waits for a kick */
	atomic_uint overflows;	/* records dropped: ring full */
	/* records put in the ring: ring_claimed(&ring), no counter */
	atomic_uint done;	/* records sent or discarded */
	/* consumer context only */
	uint8_t cmd[MPROF_CMD_LEN];
	unsigned int cmdlen;
	struct mprofdev_cmdq {	/* commands to answer, in order */
		uint8_t cmd;
		uint32_t seq;	/* TIME_SYNC: its payload */
		uint32_t t_rx;	/* TIME_SYNC: the clock (from t0_us) when
				 * its last byte was taken */
	} q[MPROFDEV_CMDQ];
	unsigned int qhead, qlen;
	uint8_t *out;		/* the packet being built or sent */
	size_t outcap;
	size_t txpos, txlen;	/* mprofdev_core_tx_byte()'s place in out */
};

/* The buffer a packet of rpp records needs */
#define MPROFDEV_OUT_SIZE(rpp) \
	(MPROF_RSP_OVERHEAD + MPROF_PROFILE_HDR_LEN + (size_t)(rpp) * MPROF_RECORD_LEN)

/*
 * Set up c over the caller's storage: 2^order ring slots, an output
 * buffer of MPROFDEV_OUT_SIZE(rpp) bytes.  meta's fields are sent as
 * they are; the port sets addr_bias, addr_mask, t0_us and kick after
 * (the consumer applies the first three to each record as it sends it:
 * set them before the hooks record).
 */
void mprofdev_core_init(struct mprofdev_core *c, struct ring_slot *slots,
			unsigned int order, uint8_t *out, unsigned int rpp,
			const struct mprof_metadata *meta, int burst);
/* Make c the instance the hooks record into; 0, or -1 if another is */
int mprofdev_core_activate(struct mprofdev_core *c);
void mprofdev_core_deactivate(struct mprofdev_core *c);

/* Bytes received from the host: complete commands are acted on and
 * queued for their response; returns how many commands were taken */
unsigned int mprofdev_core_rx(struct mprofdev_core *c, const uint8_t *p,
			      size_t n);
/* Build the next packet to send into c->out: a queued response, or
 * records (before a queued STOP's ACK: every record; while profiling
 * and not in burst mode: what the ring holds).  Its length, 0 if none */
size_t mprofdev_core_next(struct mprofdev_core *c);
/* The next byte to send (packets from mprofdev_core_next()), or -1 */
int mprofdev_core_tx_byte(struct mprofdev_core *c);
/* The transmitter found nothing to send and stopped (its interrupt
 * disabled): mark it idle, and kick it again if something came */
void mprofdev_core_tx_stopped(struct mprofdev_core *c);
/* Kick the transmitter if it is idle */
void mprofdev_core_kick(struct mprofdev_core *c);

/* Records put in the ring since mprofdev_core_init() (wrapping) */
static inline unsigned int mprofdev_core_captured(struct mprofdev_core *c)
{
	return (unsigned int)ring_claimed(&c->ring);
}

/* The port's two hook helpers (defined by each port) */
uint32_t mprofdev_port_now_us(void);
struct mprofdev_stack *mprofdev_port_stack(void);

/*
 * A port with one stack and a board timer (the firmware glue) may have
 * core.c built with -DMPROFDEV_ONE_STACK: the hooks then use the glue's
 * stack and the board's clock directly, not through the two helpers
 * (two calls fewer on each hook's path).
 */
#ifdef MPROFDEV_ONE_STACK
extern struct mprofdev_stack mprofdev_one_stack;
uint32_t mprofdev_board_now_us(void);
#define MPROFDEV_HOOK_STACK()	(&mprofdev_one_stack)
#define MPROFDEV_HOOK_NOW_US()	mprofdev_board_now_us()
#else
#define MPROFDEV_HOOK_STACK()	mprofdev_port_stack()
#define MPROFDEV_HOOK_NOW_US()	mprofdev_port_now_us()
#endif

#endif
