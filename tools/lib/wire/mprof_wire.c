// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mprof_wire.c - MiniProfiler framing and payload layouts (see
 * mprof_wire.h), used by the device library and the host decoder alike.
 * Freestanding (no libc beyond memcpy and memset): firmware builds it.
 */
#include <string.h>

#include "wire/crc.h"
#include "wire/mprof_wire.h"

#ifdef __GNUC__
#define NO_INSTR __attribute__((no_instrument_function))
#else
#define NO_INSTR
#endif

static NO_INSTR uint8_t sum8(const uint8_t *p, size_t n)
{
	unsigned int s = 0;

	while (n--)
		s += *p++;
	return (uint8_t)s;
}

NO_INSTR int mprof_cmd_encode(uint8_t *out, uint8_t cmd, const uint8_t *payload,
			      size_t len)
{
	if (len > MPROF_CMD_PAYLOAD)
		return -1;
	memset(out, 0, MPROF_CMD_LEN);
	out[0] = MPROF_CMD_SYNC;
	out[1] = cmd;
	out[2] = (uint8_t)len;
	if (len)
		memcpy(out + 3, payload, len);
	out[MPROF_CMD_LEN - 1] = sum8(out, MPROF_CMD_LEN - 1);
	return 0;
}

NO_INSTR int mprof_cmd_valid(const uint8_t *c)
{
	return c[0] == MPROF_CMD_SYNC && c[2] <= MPROF_CMD_PAYLOAD &&
	       c[MPROF_CMD_LEN - 1] == sum8(c, MPROF_CMD_LEN - 1);
}

NO_INSTR size_t mprof_rsp_encode(uint8_t *out, size_t cap, uint8_t type,
				 const uint8_t *payload, size_t len)
{
	size_t total = len + MPROF_RSP_OVERHEAD;

	if (len > MPROF_RSP_MAX_PAYLOAD || cap < total)
		return 0;
	out[0] = MPROF_RSP_SYNC0;
	out[1] = MPROF_RSP_SYNC1;
	out[2] = type;
	mprof_put16(out + 3, (uint16_t)len);
	if (len && payload != out + MPROF_RSP_HDR)
		memcpy(out + MPROF_RSP_HDR, payload, len);
	mprof_put16(out + MPROF_RSP_HDR + len,
		    wire_crc16_ccitt(WIRE_CRC16_START, out, MPROF_RSP_HDR + len));
	out[total - 1] = MPROF_RSP_END;
	return total;
}

NO_INSTR void mprof_metadata_put(uint8_t *out, const struct mprof_metadata *m)
{
	size_t n = 0;

	while (n < MPROF_FW_VERSION_LEN - 1 && m->fw_version[n])
		n++;
	mprof_put32(out, m->mcu_clock_hz);
	mprof_put32(out + 4, m->timer_freq);
	mprof_put32(out + 8, m->elf_build_id);
	memset(out + 12, 0, MPROF_FW_VERSION_LEN);
	memcpy(out + 12, m->fw_version, n);
}

NO_INSTR int mprof_metadata_get(struct mprof_metadata *m, const uint8_t *p,
				size_t n)
{
	if (n < MPROF_METADATA_LEN)
		return -1;
	m->mcu_clock_hz = mprof_get32(p);
	m->timer_freq = mprof_get32(p + 4);
	m->elf_build_id = mprof_get32(p + 8);
	memcpy(m->fw_version, p + 12, MPROF_FW_VERSION_LEN);
	m->fw_version[MPROF_FW_VERSION_LEN] = 0;
	return 0;
}

NO_INSTR void mprof_status_put(uint8_t *out, const struct mprof_status *s)
{
	out[0] = s->is_profiling;
	mprof_put32(out + 1, s->buffer_overflows);
	mprof_put32(out + 5, s->records_captured);
	out[9] = s->buffer_usage_percent;
}

NO_INSTR int mprof_status_get(struct mprof_status *s, const uint8_t *p, size_t n)
{
	if (n < MPROF_STATUS_LEN)
		return -1;
	s->is_profiling = p[0];
	s->buffer_overflows = mprof_get32(p + 1);
	s->records_captured = mprof_get32(p + 5);
	s->buffer_usage_percent = p[9];
	return 0;
}

NO_INSTR void mprof_time_sync_put(uint8_t *out,
				  const struct mprof_time_sync *t)
{
	mprof_put32(out, t->seq);
	mprof_put32(out + 4, t->t_rx);
	mprof_put32(out + 8, t->t_tx);
}

NO_INSTR int mprof_time_sync_get(struct mprof_time_sync *t, const uint8_t *p,
				 size_t n)
{
	if (n < MPROF_TIME_SYNC_LEN)
		return -1;
	t->seq = mprof_get32(p);
	t->t_rx = mprof_get32(p + 4);
	t->t_tx = mprof_get32(p + 8);
	return 0;
}

NO_INSTR void mprof_time_sync_cmd(uint8_t *out, uint32_t seq)
{
	uint8_t pl[MPROF_TIME_SYNC_CMD_LEN];

	mprof_put32(pl, seq);
	mprof_cmd_encode(out, MPROF_CMD_TIME_SYNC, pl, sizeof(pl));
}

NO_INSTR void mprof_record_put(uint8_t *out, const struct mprof_record *r)
{
	mprof_put32(out, r->func_addr);
	mprof_put32(out + 4, r->entry_time);
	mprof_put32(out + 8, r->duration_us);
	mprof_put16(out + 12, r->depth);
}

NO_INSTR void mprof_record_get(struct mprof_record *r, const uint8_t *p)
{
	r->func_addr = mprof_get32(p);
	r->entry_time = mprof_get32(p + 4);
	r->duration_us = mprof_get32(p + 8);
	r->depth = mprof_get16(p + 12);
}
