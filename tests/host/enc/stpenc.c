// SPDX-License-Identifier: GPL-2.0
/*
 * stpenc.c - STPv2 encoder for tests and the benchmark (see stpenc.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/stp.h"
#include "stpenc.h"

/* opcode nibbles, as a string of hex digits, per enum mttd_op */
static const char *const opcode[MTTD_OP_COUNT] = {
	[MTTD_OP_NULL] = "0", [MTTD_OP_M8] = "1", [MTTD_OP_MERR] = "2",
	[MTTD_OP_C8] = "3", [MTTD_OP_D8] = "4", [MTTD_OP_D16] = "5",
	[MTTD_OP_D32] = "6", [MTTD_OP_D64] = "7", [MTTD_OP_D8MTS] = "8",
	[MTTD_OP_D16MTS] = "9", [MTTD_OP_D32MTS] = "a",
	[MTTD_OP_D64MTS] = "b", [MTTD_OP_D4] = "c", [MTTD_OP_D4MTS] = "d",
	[MTTD_OP_FLAG_TS] = "e", [MTTD_OP_M16] = "f1", [MTTD_OP_GERR] = "f2",
	[MTTD_OP_C16] = "f3", [MTTD_OP_D8TS] = "f4", [MTTD_OP_D16TS] = "f5",
	[MTTD_OP_D32TS] = "f6", [MTTD_OP_D64TS] = "f7", [MTTD_OP_D8M] = "f8",
	[MTTD_OP_D16M] = "f9", [MTTD_OP_D32M] = "fa", [MTTD_OP_D64M] = "fb",
	[MTTD_OP_D4TS] = "fc", [MTTD_OP_D4M] = "fd", [MTTD_OP_FLAG] = "fe",
	[MTTD_OP_ASYNC] = "ff", [MTTD_OP_VERSION] = "f00",
	[MTTD_OP_NULL_TS] = "f01", [MTTD_OP_USER] = "f02",
	[MTTD_OP_USER_TS] = "f03", [MTTD_OP_TIME] = "f04",
	[MTTD_OP_TIME_TS] = "f05", [MTTD_OP_TRIG] = "f06",
	[MTTD_OP_TRIG_TS] = "f07", [MTTD_OP_FREQ] = "f08",
	[MTTD_OP_FREQ_TS] = "f09", [MTTD_OP_XSYNC] = "f0a",
	[MTTD_OP_XSYNC_TS] = "f0b", [MTTD_OP_FREQ_40] = "f0f0",
	[MTTD_OP_FREQ_40_TS] = "f0f1", [MTTD_OP_DIP] = "f0f2",
};

/* payload nibbles; -1 variable */
static const signed char payload[MTTD_OP_COUNT] = {
	[MTTD_OP_M8] = 2, [MTTD_OP_MERR] = 2, [MTTD_OP_C8] = 2,
	[MTTD_OP_D8] = 2, [MTTD_OP_D16] = 4, [MTTD_OP_D32] = 8,
	[MTTD_OP_D64] = 16, [MTTD_OP_D8MTS] = 2, [MTTD_OP_D16MTS] = 4,
	[MTTD_OP_D32MTS] = 8, [MTTD_OP_D64MTS] = 16, [MTTD_OP_D4] = 1,
	[MTTD_OP_D4MTS] = 1, [MTTD_OP_M16] = 4, [MTTD_OP_GERR] = 2,
	[MTTD_OP_C16] = 4, [MTTD_OP_D8TS] = 2, [MTTD_OP_D16TS] = 4,
	[MTTD_OP_D32TS] = 8, [MTTD_OP_D64TS] = 16, [MTTD_OP_D8M] = 2,
	[MTTD_OP_D16M] = 4, [MTTD_OP_D32M] = 8, [MTTD_OP_D64M] = 16,
	[MTTD_OP_D4TS] = 1, [MTTD_OP_D4M] = 1, [MTTD_OP_ASYNC] = -1,
	[MTTD_OP_VERSION] = 1, [MTTD_OP_USER] = -1, [MTTD_OP_USER_TS] = -1,
	[MTTD_OP_TIME] = -1, [MTTD_OP_TIME_TS] = -1, [MTTD_OP_TRIG] = 2,
	[MTTD_OP_TRIG_TS] = 2, [MTTD_OP_FREQ] = 8, [MTTD_OP_FREQ_TS] = 8,
	[MTTD_OP_XSYNC] = 2, [MTTD_OP_XSYNC_TS] = 2, [MTTD_OP_FREQ_40] = 10,
	[MTTD_OP_FREQ_40_TS] = 10,
};

int stpenc_payload(unsigned int op)
{
	return op < MTTD_OP_COUNT ? payload[op] : 0;
}

int stpenc_has_ts(unsigned int op)
{
	switch (op) {
	case MTTD_OP_D8MTS: case MTTD_OP_D16MTS: case MTTD_OP_D32MTS:
	case MTTD_OP_D64MTS: case MTTD_OP_D4MTS: case MTTD_OP_FLAG_TS:
	case MTTD_OP_D8TS: case MTTD_OP_D16TS: case MTTD_OP_D32TS:
	case MTTD_OP_D64TS: case MTTD_OP_D4TS: case MTTD_OP_NULL_TS:
	case MTTD_OP_USER_TS: case MTTD_OP_TIME_TS: case MTTD_OP_TRIG_TS:
	case MTTD_OP_FREQ_TS: case MTTD_OP_XSYNC_TS: case MTTD_OP_FREQ_40_TS:
		return 1;
	default:
		return 0;
	}
}

void stpenc_init(struct stpenc *e, unsigned int version)
{
	memset(e, 0, sizeof(*e));
	e->version = version;
}

void stpenc_free(struct stpenc *e)
{
	free(e->buf);
	e->buf = NULL;
}

size_t stpenc_bytes(const struct stpenc *e)
{
	return (e->nib + 1) / 2;
}

void stpenc_nib(struct stpenc *e, unsigned int n)
{
	size_t b = e->nib / 2;

	if (b >= e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 4096;
		uint8_t *nb = realloc(e->buf, cap);

		if (!nb) {
			e->oom = 1;
			return;
		}
		e->buf = nb;
		e->cap = cap;
	}
	if (e->nib & 1)
		e->buf[b] |= (uint8_t)((n & 0xf) << 4);
	else
		e->buf[b] = (uint8_t)(n & 0xf);
	e->nib++;
}

void stpenc_val(struct stpenc *e, uint64_t v, unsigned int nibbles)
{
	while (nibbles--)
		stpenc_nib(e, (unsigned int)(v >> (4 * nibbles)) & 0xf);
}

void stpenc_pad(struct stpenc *e)
{
	if (e->nib & 1)
		stpenc_nib(e, 0);
}

void stpenc_async(struct stpenc *e)
{
	int i;

	for (i = 0; i < 21; i++)
		stpenc_nib(e, 0xf);
	stpenc_nib(e, 0);
}

void stpenc_op(struct stpenc *e, unsigned int op)
{
	const char *s = op < MTTD_OP_COUNT ? opcode[op] : "0";

	for (; *s; s++)
		stpenc_nib(e, (unsigned int)(*s <= '9' ? *s - '0' :
					     *s - 'a' + 10));
}

static unsigned int nibbles_for(uint64_t v)
{
	unsigned int n = 0;

	while (v) {
		n++;
		v >>= 4;
	}
	return n;
}

static uint64_t gray(uint64_t b)
{
	return b ^ (b >> 1);
}

int stpenc_ts(struct stpenc *e, uint64_t ts, int tsn)
{
	uint64_t field, prev_field;
	unsigned int n;

	if (e->version == 2) {
		field = ts - e->ts;
		prev_field = 0;
	} else if (e->version == 4) {
		field = gray(ts);
		prev_field = gray(e->ts);
	} else {
		field = ts;
		prev_field = e->ts;
	}
	if (tsn < 0) {
		n = nibbles_for(e->version == 2 ? field : field ^ prev_field);
		if (n == 13 || n == 15)
			n++;
	} else {
		n = (unsigned int)tsn;
	}
	stpenc_nib(e, n <= 12 ? n : n == 14 ? 0xd : 0xe);
	stpenc_val(e, field, n);
	e->ts = ts;
	return (int)n;
}

int stpenc_packet(struct stpenc *e, unsigned int op, uint64_t value,
		  unsigned int n, unsigned int aux, uint64_t ts, int tsn)
{
	int p = stpenc_payload(op);

	stpenc_op(e, op);
	if (op == MTTD_OP_USER || op == MTTD_OP_USER_TS) {
		stpenc_nib(e, n - 1);
		stpenc_val(e, value, n);
	} else if (op == MTTD_OP_TIME || op == MTTD_OP_TIME_TS) {
		stpenc_nib(e, aux >> 4);
		stpenc_nib(e, aux & 0xf);
		stpenc_nib(e, n <= 12 ? n : n == 14 ? 0xd : 0xe);
		stpenc_val(e, value, n);
	} else if (p > 0) {
		stpenc_val(e, value, (unsigned int)p);
	}
	if (stpenc_has_ts(op))
		return stpenc_ts(e, ts, tsn);
	return 0;
}

void stpenc_syst_msg(struct stpenc *e, uint32_t header, const uint8_t *body,
		     size_t n, uint64_t ts)
{
	static const unsigned int dn[4] = {
		MTTD_OP_D8, MTTD_OP_D16, MTTD_OP_D32, MTTD_OP_D64
	};
	size_t off = 0;

	stpenc_packet(e, MTTD_OP_D32TS, header, 0, 0, ts, -1);
	while (off < n) {
		size_t left = n - off;
		unsigned int k = left >= 8 ? 3 : left >= 4 ? 2 : left >= 2 ? 1 : 0;
		uint64_t v = 0;
		unsigned int i;

		for (i = 0; i < (1u << k); i++)
			v |= (uint64_t)body[off + i] << (8 * i);
		stpenc_packet(e, dn[k], v, 0, 0, 0, 0);
		off += 1u << k;
	}
	stpenc_packet(e, MTTD_OP_FLAG, 0, 0, 0, 0, 0);
}
