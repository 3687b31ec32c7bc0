// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mtt_frame.c - native MTT frames: length from the preamble, parsing,
 * the CRC-16 check, level, severity and command names.
 */
#include <stdio.h>
#include <string.h>

#include "mttdecode/mttframe.h"
#include "wire/crc.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

long mttd_mtt_frame_len(const uint8_t *p, size_t n)
{
	if (n < 8)
		return -1;
	if (!mtt_frame_head_ok(le32(p)))
		return 0;
	/* before word 4, at least the length without a payload: the size
	 * is not known yet */
	return (long)mtt_frame_len(le32(p + 4), n < MTT_FRAME_PREAMBLE_BYTES ?
					       0 : le32(p + 16));
}

long mttd_mtt_parse(const uint8_t *p, size_t n, struct mttd_mtt_frame *f)
{
	long len = mttd_mtt_frame_len(p, n);
	const uint8_t *q;
	uint32_t w0, w1;

	if (len == 0)
		return 0;
	if (len < 0 || n < MTT_FRAME_PREAMBLE_BYTES || (size_t)len > n)
		return -1;
	memset(f, 0, sizeof(*f));
	w0 = le32(p);
	w1 = le32(p + 4);
	f->target = w0 & 0xff;
	f->version = (w0 >> 8) & 0xff;
	f->cmd = w1 & 0xffff0000u;
	f->flags = w1 & 0xffffu;
	f->comp = le32(p + 8);
	f->trace_id = le32(p + 12);
	f->type_info = le32(p + 16);
	q = p + MTT_FRAME_PREAMBLE_BYTES;
	if (f->flags & MTT_FRAME_F_CTXT) {
		f->ctx = le32(q);
		q += 4;
	}
	if (f->flags & MTT_FRAME_F_TS64) {
		f->ts = (uint64_t)le32(q) | (uint64_t)le32(q + 4) << 32;
		q += 8;
	} else if (f->flags & MTT_FRAME_F_TSTV) {
		f->ts = (uint64_t)le32(q) * 1000000000u +
			(uint64_t)le32(q + 4) * 1000u;
		q += 8;
	}
	if (f->flags & MTT_FRAME_F_LEVEL) {
		f->level = le32(q);
		q += 4;
	}
	f->payload = q;
	f->payload_len = f->type_info & 0xffffu;
	q += (f->payload_len + 3) & ~(size_t)3;
	if (f->flags & MTT_FRAME_F_HINT) {
		memcpy(f->hint, q, MTT_FRAME_HINT_BYTES);
		f->hint[MTT_FRAME_HINT_BYTES] = 0;
		q += MTT_FRAME_HINT_BYTES;
	}
	f->crc_ok = -1;
	if (f->flags & MTT_FRAME_F_CRC)
		f->crc_ok = le32(q) == wire_crc16_ccitt(WIRE_CRC16_START, p,
							(size_t)(q - p));
	f->len = (size_t)len;
	return len;
}

int mttd_mtt_is_frame(const uint8_t *p, size_t n)
{
	long len;

	/* most messages are not frames: the sync word decides (decoders
	 * ask this of every message) */
	if (n < MTT_FRAME_PREAMBLE_BYTES || !mtt_frame_sync(le32(p)))
		return 0;
	len = mttd_mtt_frame_len(p, n);
	return len > 0 && (size_t)len == n;
}

const char *mttd_mtt_level_name(uint32_t level, char buf[11])
{
	static const char *const high[] = {
		"ERROR", "WARNING", "INFO", "DEBUG", "ASSERT", "CALLSTACK",
	};
	static const char *const cursor[] = {
		"API_ENTRY", "API_RETURN", "CURSORC", "CURSORD",
	};
	static const char *const user[] = {
		"USER0", "USER1", "USER2", "USER3", "USER4", "USER5",
		"USER6", "USER7", "USER8", "USER9", "USER10", "USER11",
		"USER12", "USER13", "USER14", "USER15",
	};
	unsigned int i;

	if (!level)
		return "NONE";
	for (i = 0; i < 6; i++)
		if (level == 0x80000000u >> i)
			return high[i];
	for (i = 0; i < 4; i++)
		if (level == 0x00010000u << i)
			return cursor[i];
	for (i = 0; i < 16; i++)
		if (level == 1u << i)
			return user[i];
	snprintf(buf, 11, "0x%08x", level);
	return buf;
}

unsigned int mttd_mtt_severity(uint32_t level)
{
	if (level & 0x80000000u)
		return 2;	/* ERROR */
	if (level & 0x40000000u)
		return 3;	/* WARNING */
	if (level & 0x20000000u)
		return 4;	/* INFO */
	if (level & 0x10000000u)
		return 7;	/* DEBUG */
	if (level & 0x08000000u)
		return 1;	/* ASSERT: FATAL */
	if (level & 0x04000000u)
		return 7;	/* CALLSTACK */
	if (level & 0x000f0000u)
		return 7;	/* cursors */
	if (level & 0xff00u)
		return 6;	/* USER8..15: USER2 */
	if (level & 0x00ffu)
		return 5;	/* USER0..7: USER1 */
	return 4;
}

const char *mttd_mtt_cmd_name(uint32_t cmd)
{
	switch (cmd) {
	case MTT_FRAME_CMD_TRACE: return "TRACE";
	case MTT_FRAME_CMD_META: return "META";
	case MTT_FRAME_CMD_RAW: return "RAW";
	case MTT_FRAME_CMD_START: return "START";
	case MTT_FRAME_CMD_STOP: return "STOP";
	case MTT_FRAME_CMD_SET_COMP_FILTER: return "SET_COMP_FILTER";
	case MTT_FRAME_CMD_SET_CORE_FILTER: return "SET_CORE_FILTER";
	case MTT_FRAME_CMD_GET_COMP_FILTER: return "GET_COMP_FILTER";
	case MTT_FRAME_CMD_GET_CORE_FILTER: return "GET_CORE_FILTER";
	case MTT_FRAME_CMD_TIME_SYNC: return "TIME_SYNC";
	default: return NULL;
	}
}

int mttd_mtt_time_sync(const struct mttd_mtt_frame *f,
		       struct mttd_mtt_time_sync *t)
{
	if (f->cmd != MTT_FRAME_CMD_TIME_SYNC ||
	    (f->flags & (MTT_FRAME_F_RET | MTT_FRAME_F_RETV | MTT_FRAME_F_NACK)) !=
	    (MTT_FRAME_F_RET | MTT_FRAME_F_RETV) ||
	    f->type_info != MTT_FRAME_TIME_SYNC_TI || f->payload_len < 16)
		return 0;
	t->seq = f->trace_id;
	t->t_rx = le32(f->payload) | (uint64_t)le32(f->payload + 4) << 32;
	t->t_tx = le32(f->payload + 8) | (uint64_t)le32(f->payload + 12) << 32;
	return 1;
}
