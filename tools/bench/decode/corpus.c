// SPDX-License-Identifier: GPL-2.0
/*
 * corpus.c - the MIPI reference printer's kind of input, as
 * bench-printer and mttdecode -j's benchmark (par.c) time it: "SYS-T RAW
 * DATA:" hex lines of catalog messages (32- and 64-bit IDs, 32- and
 * 64-bit integer, double and string arguments), strings, BUILD, CLOCK,
 * RAW and SHORT messages, half of them with a CRC-32C, some with a
 * timestamp, and the collateral that describes them.  The messages are
 * encoded by tests/host/enc/systenc.c (written from the SyS-T
 * specification).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "systenc.h"

static const char *const cat32[] = {
	"queue %u depth %d flags 0x%x",
	"temperature %f C, limit %.2f",
	"device %s state %u",
	"counter %lld delta %llx",
	"sensor %d: %.3f V (%s)",
	"ratio %.6f over %u samples",
};

static const char *const cat64[] = {
	"block %lld of %lld",
	"average %f",
	"mount %s at %s",
};

static const char *const words[] = {
	"eth0", "usb1", "sda", "mmcblk0p2", "i2c-3", "spi1.0", "wlan0",
	"thermal_zone0", "cpu1", "gpio-keys",
};

static const char text_src[] =
	"usb 1-1: new high-speed USB device number 2 using xhci_hcd "
	"EXT4-fs (vda1): mounted filesystem with ordered data mode "
	"random: crng init done audit: type=1400 apparmor=STATUS ";

static double some_double(void)
{
	switch (rnd() % 4) {
	case 0:
		return (double)(int32_t)rnd() / 1000.0;
	case 1:		/* a tie at two or three decimals, often */
		return (double)(rnd() % 100000) / 8.0;
	case 2:
		return (double)rnd() * 1e-9;
	default:
		return -(double)(rnd() % 1000000) / 7.0;
	}
}

static void word(struct systenc *p)
{
	const char *w = words[rnd() % (sizeof(words) / sizeof(words[0]))];

	systenc_put(p, w, strlen(w) + 1);
}

/* the arguments of cat32[i] (P32) or cat64[i] (P64) */
static void cat_args(struct systenc *p, int c64, unsigned int i)
{
	if (c64) {
		if (i == 0) {
			systenc_le(p, rnd() % 100000, 8);
			systenc_le(p, 100000, 8);
		} else if (i == 1) {
			systenc_f64(p, some_double());
		} else {
			word(p);
			word(p);
		}
		return;
	}
	switch (i) {
	case 0:
		systenc_le(p, rnd() % 64, 4);
		systenc_le(p, rnd() % 4096, 4);
		systenc_le(p, rnd(), 4);
		break;
	case 1:
		systenc_f64(p, some_double());
		systenc_f64(p, some_double());
		break;
	case 2:
		word(p);
		systenc_le(p, rnd() % 8, 4);
		break;
	case 3:
		systenc_le(p, (uint64_t)rnd() << 20 | rnd(), 8);
		systenc_le(p, rnd(), 8);
		break;
	case 4:
		systenc_le(p, (uint32_t)(int32_t)(rnd() % 200 - 100), 4);
		systenc_f64(p, some_double());
		word(p);
		break;
	default:
		systenc_f64(p, some_double());
		systenc_le(p, rnd() % 100000, 4);
		break;
	}
}

/* hex lines appended to out until it holds bytes bytes; *ts: the
 * timestamp of the line before (CORPUS_TS0 at the start), updated;
 * returns the message count */
uint64_t corpus_build(struct systenc *out, size_t bytes, uint64_t *tsp)
{
	struct systenc m, p;
	uint64_t ts = *tsp, n = 0;

	systenc_init(&m);
	systenc_init(&p);
	while (out->len < bytes && !out->oom && !m.oom && !p.oom) {
		unsigned int k = rnd() % 100, i;
		uint32_t h = SYSTENC_SEV(1 + rnd() % 7) | SYSTENC_LEN;

		m.len = p.len = 0;
		ts += 100 + rnd() % 5000;
		if (rnd() & 1)
			h |= SYSTENC_CHK;
		if (rnd() % 4 == 0)
			h |= SYSTENC_TS;
		if (k < 30) {		/* CATALOG ID32_P32 */
			i = rnd() % (sizeof(cat32) / sizeof(cat32[0]));
			h |= SYSTENC_TYPE(3) | SYSTENC_SUB(1);
			systenc_le(&p, 0x10 + i, 4);
			cat_args(&p, 0, i);
		} else if (k < 40) {	/* CATALOG ID64_P64 */
			i = rnd() % (sizeof(cat64) / sizeof(cat64[0]));
			h |= SYSTENC_TYPE(3) | SYSTENC_SUB(6);
			systenc_le(&p, 0x100000010ull + i, 8);
			cat_args(&p, 1, i);
		} else if (k < 65) {	/* STRING GENERIC */
			unsigned int len = 16 + rnd() % 100;
			unsigned int at = rnd() % (sizeof(text_src) - 1);

			h |= SYSTENC_TYPE(2) | SYSTENC_SUB(1);
			for (i = 0; i < len; i++)
				systenc_le(&p, (uint8_t)text_src[(at + i) %
					   (sizeof(text_src) - 1)], 1);
			systenc_le(&p, 0, 1);
		} else if (k < 75) {	/* SHORT32: the header alone */
			h = SYSTENC_TYPE(1) | (0x100000u + (rnd() & 0xfff)) << 4;
		} else if (k < 80) {	/* RAW, protocol 1 */
			unsigned int len = 4 + rnd() % 29;

			h |= SYSTENC_TYPE(6) | SYSTENC_SUB(1);
			for (i = 0; i < len; i++)
				systenc_le(&p, rnd(), 1);
		} else if (k < 85) {	/* BUILD long: ID and text */
			static const char v[] = "fw 2.4.1-rc3 (gcc 12)";

			h |= SYSTENC_TYPE(0) | SYSTENC_SUB(2);
			systenc_le(&p, 0x0204010003ull, 8);
			systenc_put(&p, v, sizeof(v));
		} else {		/* CLOCK sync: clock, frequency */
			h |= SYSTENC_TYPE(8) | SYSTENC_SUB(1);
			systenc_le(&p, ts, 8);
			systenc_le(&p, 1000000000, 8);
		}
		systenc_msg(&m, h, ts, &p);
		systenc_hexline(out, m.buf, m.len);
		n++;
	}
	if (m.oom || p.oom)
		out->oom = 1;
	systenc_free(&m);
	systenc_free(&p);
	*tsp = ts;
	return n;
}

int corpus_coll(const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (!f)
		return -1;
	fprintf(f, "<?xml version=\"1.0\"?>\n<syst:Collateral "
		"xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n"
		"<syst:Client Name=\"bench\">\n<syst:Guids><syst:Guid"
		" ID=\"{00000000-0000-0000-0000-000000000000}\""
		" Mask=\"{00000000-0000-0000-0000-000000000000}\"/>"
		"</syst:Guids>\n<syst:Catalog32>\n");
	for (i = 0; i < sizeof(cat32) / sizeof(cat32[0]); i++)
		fprintf(f, "<syst:Format ID=\"0x%x\"><![CDATA[%s]]>"
			"</syst:Format>\n", 0x10 + i, cat32[i]);
	fprintf(f, "</syst:Catalog32>\n<syst:Catalog64>\n");
	for (i = 0; i < sizeof(cat64) / sizeof(cat64[0]); i++)
		fprintf(f, "<syst:Format ID=\"0x%llx\"><![CDATA[%s]]>"
			"</syst:Format>\n", 0x100000010ull + i, cat64[i]);
	fprintf(f, "</syst:Catalog64>\n</syst:Client>\n</syst:Collateral>\n");
	return fclose(f) ? -1 : 0;
}

