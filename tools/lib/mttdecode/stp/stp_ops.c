// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stp_ops.c - STPv2 opcode tables and names.
 *
 * 1 nibble:  0 NULL, 1 M8, 2 MERR, 3 C8, 4..7 D8..D64, 8..B D8MTS..D64MTS,
 *            C D4, D D4MTS, E FLAG_TS, F escape
 * 2 nibbles: F0 escape, F1 M16, F2 GERR, F3 C16, F4..F7 D8TS..D64TS,
 *            F8..FB D8M..D64M, FC D4TS, FD D4M, FE FLAG, FF ASYNC
 * 3 nibbles: F00 VERSION, F01 NULL_TS, F02/F03 USER(_TS), F04/F05
 *            TIME(_TS), F06/F07 TRIG(_TS), F08/F09 FREQ(_TS), F0A/F0B
 *            XSYNC(_TS), F0C..F0E reserved, F0F escape
 * 4 nibbles: F0F0/F0F1 FREQ_40(_TS), F0F2 DIP, F0F3..F0FF reserved
 * Payload sizes in nibbles: M8/MERR/C8/GERR/TRIG/XSYNC 2, M16/C16 4,
 * VERSION 1, FREQ 8, FREQ_40 10, Dn n/4, DIP 0.  USER: a nibble holding
 * (count - 1) then count data nibbles; TIME: clock id, format, and a
 * timestamp-coded time (length nibble + nibbles).
 */
#include <stddef.h>

#include "mttdecode/stp.h"
#include "stp_ops.h"
#include "stp_ts.h"

/* the decoder copies an entry's first four bytes into an event */
_Static_assert(offsetof(struct mttd_stp_event, op) ==
	       offsetof(struct mttd_stp_event, type) + 1 &&
	       offsetof(struct mttd_stp_event, nibbles) ==
	       offsetof(struct mttd_stp_event, type) + 2 &&
	       offsetof(struct mttd_stp_event, flags) ==
	       offsetof(struct mttd_stp_event, type) + 3 &&
	       offsetof(struct mttd__opd, op) == 1 &&
	       offsetof(struct mttd__opd, pay) == 2 &&
	       offsetof(struct mttd__opd, flags) == 3,
	       "mttd__opd and mttd_stp_event layouts differ");

#define D(o, h, p, k) { \
	MTTD_EV_PACKET, MTTD_OP_##o, p, \
	(((k) & K_MASK) == K_DATA ? MTTD_PKT_DATA : 0) | \
	(((k) & KF_MARKED) ? MTTD_PKT_MARKED : 0) | \
	(((k) & KF_TS) ? MTTD_PKT_TS : 0), \
	h, k, (64 - 4 * (p)) & 63, (p) ? 0xff : 0 }

#define S0  D(NULL, 1, 0, K_NULL)
#define S1  D(M8, 1, 2, K_MASTER)
#define S2  D(MERR, 1, 2, K_MERR)
#define S3  D(C8, 1, 2, K_C8)
#define S4  D(D8, 1, 2, K_DATA)
#define S5  D(D16, 1, 4, K_DATA)
#define S6  D(D32, 1, 8, K_DATA)
#define S7  D(D64, 1, 16, K_DATA)
#define S8  D(D8MTS, 1, 2, K_DATA | KF_TS | KF_MARKED)
#define S9  D(D16MTS, 1, 4, K_DATA | KF_TS | KF_MARKED)
#define S10 D(D32MTS, 1, 8, K_DATA | KF_TS | KF_MARKED)
#define S11 D(D64MTS, 1, 16, K_DATA | KF_TS | KF_MARKED)
#define S12 D(D4, 1, 1, K_DATA)
#define S13 D(D4MTS, 1, 1, K_DATA | KF_TS | KF_MARKED)
#define S14 D(FLAG_TS, 1, 0, K_FLAG | KF_TS)
#define SINGLES S0, S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, S12, S13, S14

#define F0  D(NULL, 2, 0, K_ESC)
#define F1  D(M16, 2, 4, K_MASTER)
#define F2  D(GERR, 2, 2, K_GERR)
#define F3  D(C16, 2, 4, K_C16)
#define F4  D(D8TS, 2, 2, K_DATA | KF_TS)
#define F5  D(D16TS, 2, 4, K_DATA | KF_TS)
#define F6  D(D32TS, 2, 8, K_DATA | KF_TS)
#define F7  D(D64TS, 2, 16, K_DATA | KF_TS)
#define F8  D(D8M, 2, 2, K_DATA | KF_MARKED)
#define F9  D(D16M, 2, 4, K_DATA | KF_MARKED)
#define F10 D(D32M, 2, 8, K_DATA | KF_MARKED)
#define F11 D(D64M, 2, 16, K_DATA | KF_MARKED)
#define F12 D(D4TS, 2, 1, K_DATA | KF_TS)
#define F13 D(D4M, 2, 1, K_DATA | KF_MARKED)
#define F14 D(FLAG, 2, 0, K_FLAG)
#define F15 D(ASYNC, 2, 0, K_ASYNC)

/* index = second nibble << 4 | first nibble: row = second nibble */
#define ROW1(f) SINGLES, f
const struct mttd__opd mttd__op1[256] = {
	ROW1(F0), ROW1(F1), ROW1(F2), ROW1(F3), ROW1(F4), ROW1(F5),
	ROW1(F6), ROW1(F7), ROW1(F8), ROW1(F9), ROW1(F10), ROW1(F11),
	ROW1(F12), ROW1(F13), ROW1(F14), ROW1(F15),
};

#define T0  D(VERSION, 3, 1, K_VERSION)
#define T1  D(NULL_TS, 3, 0, K_OTHER | KF_TS)
#define T2  D(USER, 3, 0, K_USER)
#define T3  D(USER_TS, 3, 0, K_USER | KF_TS)
#define T4  D(TIME, 3, 0, K_TIME)
#define T5  D(TIME_TS, 3, 0, K_TIME | KF_TS)
#define T6  D(TRIG, 3, 2, K_OTHER)
#define T7  D(TRIG_TS, 3, 2, K_OTHER | KF_TS)
#define T8  D(FREQ, 3, 8, K_FREQ)
#define T9  D(FREQ_TS, 3, 8, K_FREQ | KF_TS)
#define T10 D(XSYNC, 3, 2, K_OTHER)
#define T11 D(XSYNC_TS, 3, 2, K_OTHER | KF_TS)
#define TR  D(NULL, 3, 0, K_RESERVED)
#define THREES T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, TR, TR, TR

#define Q0  D(FREQ_40, 4, 10, K_FREQ)
#define Q1  D(FREQ_40_TS, 4, 10, K_FREQ | KF_TS)
#define Q2  D(DIP, 4, 0, K_OTHER)
#define QR  D(NULL, 4, 0, K_RESERVED)

/* index = fourth nibble << 4 | third nibble: row = fourth nibble */
#define ROW2(q) THREES, q
const struct mttd__opd mttd__op2[256] = {
	ROW2(Q0), ROW2(Q1), ROW2(Q2), ROW2(QR), ROW2(QR), ROW2(QR),
	ROW2(QR), ROW2(QR), ROW2(QR), ROW2(QR), ROW2(QR), ROW2(QR),
	ROW2(QR), ROW2(QR), ROW2(QR), ROW2(QR),
};

const uint8_t mttd__ts_len[16] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, MTTD_TS_LEN_BAD
};

static const char *const op_names[MTTD_OP_COUNT] = {
	"NULL", "M8", "MERR", "C8", "D8", "D16", "D32", "D64",
	"D8MTS", "D16MTS", "D32MTS", "D64MTS", "D4", "D4MTS", "FLAG_TS",
	"M16", "GERR", "C16", "D8TS", "D16TS", "D32TS", "D64TS",
	"D8M", "D16M", "D32M", "D64M", "D4TS", "D4M", "FLAG", "ASYNC",
	"VERSION", "NULL_TS", "USER", "USER_TS", "TIME", "TIME_TS",
	"TRIG", "TRIG_TS", "FREQ", "FREQ_TS", "XSYNC", "XSYNC_TS",
	"FREQ_40", "FREQ_40_TS", "DIP",
};

static const char *const err_names[MTTD_ERR_COUNT] = {
	"no error", "reserved opcode", "bad timestamp length",
	"bad ASYNC", "packet overlapping ASYNC", "unsupported VERSION",
	"bad encapsulated packet",
};

const char *mttd_op_name(unsigned int op)
{
	return op < MTTD_OP_COUNT ? op_names[op] : "?";
}

const char *mttd_err_name(unsigned int err)
{
	return err < MTTD_ERR_COUNT ? err_names[err] : "?";
}
