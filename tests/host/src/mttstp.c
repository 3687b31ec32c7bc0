// SPDX-License-Identifier: GPL-2.0
/*
 * mttstp.c - writes an STPv2 stream (to stdout) with MTT frames in every
 * form the kernel side emits (Documentation/mtt.rst): a META and a TRACE
 * frame as whole STP messages (p_basic / p_mtt: first packet
 * timestamped, FLAG at the end), the same frame in a SyS-T RAW message of
 * protocol 0x31 (our p_sys-t) and tunnelled in a STRING/GENERIC message
 * (upstream p_sys-t), with a plain text message and a SyS-T string
 * message in between.  mttstp.t decodes it with mttdecode.
 */
#include <stdio.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "stpenc.h"

static const uint8_t guid[16] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};

/* mtt_trace(comp 3, INFO, UINT32, &4242, "signal0"), the rst example */
static const uint8_t trace[] = {
	0x01, 0x10, 0xe0, 0xee, 0x0f, 0x00, 0x00, 0x00,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0xde, 0xc0,
	0x04, 0x00, 0x00, 0x05, 0x64, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x20, 0x92, 0x10, 0x00, 0x00,
	's', 'i', 'g', 'n', 'a', 'l', '0', 0, 0, 0, 0, 0,
};

/* META: component 3 is "sample" */
static const uint8_t meta[] = {
	0x00, 0x10, 0xe0, 0xee, 0x03, 0x00, 0x00, 0x40,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x06, 0x00, 0x02, 0x01, 0x64, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	's', 'a', 'm', 'p', 'l', 'e', 0, 0,
};

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void chan(struct stpenc *e, unsigned int m, unsigned int c)
{
	stpenc_packet(e, MTTD_OP_M8, m, 0, 0, 0, 0);
	stpenc_packet(e, MTTD_OP_C8, c, 0, 0, 0, 0);
}

/* header, GUID, then body as one SyS-T message */
static void syst(struct stpenc *e, uint32_t header, const void *body,
		 size_t n, uint64_t ts)
{
	uint8_t b[256];

	memcpy(b, guid, 16);
	memcpy(b + 16, body, n);
	stpenc_syst_msg(e, header, b, 16 + n, ts);
}

int main(void)
{
	struct stpenc e;

	stpenc_init(&e, 3);
	stpenc_async(&e);
	stpenc_packet(&e, MTTD_OP_VERSION, 3, 0, 0, 0, 0);
	/* p_basic / p_mtt: the frame is the message */
	chan(&e, 8, 1);
	stpenc_syst_msg(&e, le32(meta), meta + 4, sizeof(meta) - 4, 1000);
	stpenc_syst_msg(&e, le32(trace), trace + 4, sizeof(trace) - 4, 2000);
	/* a SyS-T string on another channel */
	chan(&e, 8, 2);
	syst(&e, 0x01800042, "hello", 5, 3000);
	/* our p_sys-t: RAW, protocol 0x31, INFO, unit 3, GUID */
	chan(&e, 8, 3);
	syst(&e, 0x31803046, trace, sizeof(trace), 4000);
	/* upstream p_sys-t: the frame tunnelled in STRING/GENERIC */
	syst(&e, 0x01800042, trace, sizeof(trace), 5000);
	if (e.oom || fwrite(e.buf, 1, stpenc_bytes(&e), stdout) !=
	    stpenc_bytes(&e))
		return 1;
	stpenc_free(&e);
	return 0;
}
