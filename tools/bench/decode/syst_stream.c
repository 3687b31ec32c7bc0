// SPDX-License-Identifier: GPL-2.0
/*
 * syst_stream.c - SyS-T over STP shaped like the Linux STM class with the
 * p_sys-t protocol: 16 sources (masters 16..19, channels 0..3), each with
 * its own GUID and do_len setting; per message a D32TS header, the GUID,
 * the length, now and then a timestamp, a kernel-log-like text of 16..200
 * bytes, FLAG; a CLOCK sync every 256 messages of a source; mixed in,
 * SHORT32 values (one D32MTS), CATALOG messages (collateral from
 * write_collateral()) and PRINTF_32 messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define SOURCES 16

struct body {
	uint8_t b[512];
	size_t n;
};

static void le(struct body *m, uint64_t v, unsigned int n)
{
	while (n--) {
		m->b[m->n++] = (uint8_t)v;
		v >>= 8;
	}
}

static void put(struct body *m, const void *p, size_t n)
{
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

/* D32TS header, the body in D64..D8 packets, FLAG */
static void send(struct stpenc *e, uint32_t header, const struct body *m,
		 uint64_t ts)
{
	stpenc_syst_msg(e, header, m->b, m->n, ts);
}

static void text(struct body *m, unsigned int len)
{
	static const char words[] =
		"usb 1-1: new high-speed USB device number 2 using xhci_hcd "
		"EXT4-fs (vda1): mounted filesystem with ordered data mode "
		"random: crng init done audit: type=1400 apparmor=STATUS ";
	unsigned int at = rnd() % (sizeof(words) - 1), i;

	for (i = 0; i < len; i++)
		m->b[m->n++] = (uint8_t)words[(at + i) % (sizeof(words) - 1)];
}

uint64_t build_syst(struct stpenc *e, size_t bytes)
{
	uint8_t guid[SOURCES][16];
	unsigned int count[SOURCES] = { 0 };
	uint64_t ts = 1000000, next_sync = 0, msgs = 0;
	unsigned int cur = ~0u, i, j;
	struct body m;

	for (i = 0; i < SOURCES; i++)
		for (j = 0; j < 16; j++)
			guid[i][j] = (uint8_t)rnd();
	while (stpenc_bytes(e) < bytes && !e->oom) {
		unsigned int s = rnd() % SOURCES, kind = rnd() % 100;
		int do_len = s & 1;
		uint32_t h;

		if (stpenc_bytes(e) >= next_sync) {
			sync_block(e);
			next_sync += 65536;
			cur = ~0u;
			e->ts = 0;
		}
		if (s != cur) {
			stpenc_packet(e, MTTD_OP_M8, 16 + s / 4, 0, 0, 0, 0);
			stpenc_packet(e, MTTD_OP_C8, s % 4, 0, 0, 0, 0);
			cur = s;
		}
		ts += 100 + rnd() % 5000;
		msgs++;
		if (count[s]++ % 256 == 0) {
			m.n = 0;
			le(&m, 1700000000000000000ull + ts, 8);
			le(&m, 1000000000, 8);
			send(e, 0x01000008, &m, ts);
			msgs++;
			ts += 100;
		}
		if (kind < 10) {	/* SHORT32 */
			stpenc_packet(e, MTTD_OP_D32MTS,
				      (0x100000u + (rnd() & 0xff)) << 4 | 1,
				      0, 0, ts, -1);
			continue;
		}
		m.n = 0;
		if (kind < 15) {	/* CATALOG ID32_P32, 2 arguments */
			le(&m, 0x10 + rnd() % 4, 4);
			le(&m, rnd() % 1000, 4);
			le(&m, rnd(), 4);
			send(e, 0x01000043, &m, ts);
			continue;
		}
		put(&m, guid[s], 16);
		h = 0x01800042;
		if (kind < 18) {	/* PRINTF_32 */
			static const char fmt[] = "%s: %u bytes at %p";

			h = 0x0b800042;
			put(&m, fmt, sizeof(fmt));
			put(&m, "eth0", 5);
			le(&m, rnd() % 1500, 4);
			le(&m, rnd(), 4);
			send(e, h, &m, ts);
			continue;
		}
		{
			unsigned int len = 16 + rnd() % 185;

			if (do_len) {
				h |= 1u << 9;
				le(&m, len, 2);
			}
			if (count[s] % 16 == 0) {
				h |= 1u << 11;
				le(&m, 1700000000000000000ull + ts, 8);
			}
			text(&m, len);
			send(e, h, &m, ts);
		}
	}
	stpenc_pad(e);
	return msgs;
}

int write_collateral(char path[32])
{
	static const char xml[] =
		"<?xml version=\"1.0\"?>\n"
		"<syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n"
		"<syst:Client Name=\"bench\">\n"
		/* every message: a Guid with an all-zero Mask */
		"<syst:Guids><syst:Guid"
		" ID=\"{00000000-0000-0000-0000-000000000000}\""
		" Mask=\"{00000000-0000-0000-0000-000000000000}\"/>"
		"</syst:Guids>\n<syst:Catalog32>\n"
		"<syst:Format ID=\"0x10\"><![CDATA[queue %u depth %u]]>"
		"</syst:Format>\n"
		"<syst:Format ID=\"0x11\"><![CDATA[irq %u count %x]]>"
		"</syst:Format>\n"
		"<syst:Format ID=\"0x12\"><![CDATA[temp %d.%u C]]>"
		"</syst:Format>\n"
		"<syst:Format ID=\"0x13\"><![CDATA[state %u -> %u]]>"
		"</syst:Format>\n"
		"</syst:Catalog32>\n</syst:Client>\n</syst:Collateral>\n";
	FILE *f;
	int fd;

	snprintf(path, 32, "/tmp/mttdecode-coll-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	f = fopen(path, "w");
	if (!f || fputs(xml, f) == EOF || fclose(f))
		return -1;
	return 0;
}
