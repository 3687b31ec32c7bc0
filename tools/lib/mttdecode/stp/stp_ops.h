/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stp_ops.h - the STPv2 opcode tables (internal).
 *
 * mttd__op1 is indexed by the first two nibbles of a packet (first nibble
 * in bits [3:0]) and describes every 1- and 2-nibble opcode; for the F0
 * escape it says K_ESC and mttd__op2, indexed by nibbles 3 and 4, gives
 * the 3- and 4-nibble opcodes.  One or two lookups decode any opcode.
 */
#ifndef MTTD_STP_OPS_H
#define MTTD_STP_OPS_H

#include <stdint.h>

/* what a packet does: kf & K_MASK */
enum {
	K_NULL, K_DATA, K_MASTER, K_C8, K_C16, K_MERR, K_GERR, K_VERSION,
	K_FREQ, K_FLAG, K_OTHER,
	K_SLOW,			/* kinds from here on leave the fast path */
	K_USER = K_SLOW,	/* payload: count-1 nibble, then count nibbles */
	K_TIME,			/* payload: clock, format, length, time */
	K_ASYNC,		/* FF: the start of an ASYNC F run */
	K_RESERVED,
	K_ESC			/* F0: look at mttd__op2 */
};
#define K_MASK		0x0f
#define KF_TS		0x10	/* a timestamp follows the payload */
#define KF_MARKED	0x20

/*
 * The first four bytes are laid out like mttd_stp_event's type, op,
 * nibbles and flags, so the decoder copies them into an event in one go.
 */
struct mttd__opd {
	uint8_t type;	/* MTTD_EV_PACKET */
	uint8_t op;	/* enum mttd_op */
	uint8_t pay;	/* fixed payload nibbles */
	uint8_t flags;	/* MTTD_PKT_* */
	uint8_t hdr;	/* opcode nibbles */
	uint8_t kf;	/* kind | KF_* */
	uint8_t vshift;	/* (64 - 4 * pay) & 63: see mttd__take() */
	uint8_t vmask;	/* 0xff if pay, else 0 */
};

extern const struct mttd__opd mttd__op1[256];
extern const struct mttd__opd mttd__op2[256];

#endif
