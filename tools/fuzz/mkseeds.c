// SPDX-License-Identifier: GPL-2.0
/*
 * mkseeds.c - writes the SyS-T seed files of fuzz/corpus/ ("make -C
 * tools seeds"): streams shaped like what the Linux STM class with the
 * p_sys-t protocol emits (ASYNC/VERSION/FREQ, per-source masters and
 * channels, D32TS header, GUID, optional length and timestamp, payload
 * in D64..D8 pieces, FLAG; clock syncs; console text, ftrace records as
 * STRING and SBD payloads), plus a plain SyS-T byte stream and reference
 * printer text.  Test tooling only: the messages are built by a few lines
 * here, the STP packets by tests/host/enc/stpenc.  With COLLDIR, collateral XML
 * seeds for fuzz_coll too: every section, masks, CDATA and plain text,
 * entities, a RAW protocol name format and many small text pieces.
 *
 * usage: mkseeds DIR [COLLDIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "stpenc.h"

struct bytes {
	uint8_t b[4096];
	size_t n;
};

static void put(struct bytes *m, const void *p, size_t n)
{
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void le(struct bytes *m, uint64_t v, unsigned int n)
{
	while (n--) {
		m->b[m->n++] = (uint8_t)v;
		v >>= 8;
	}
}

static const uint8_t guid_console[16] = {
	0x6a, 0x6f, 0x1c, 0x2e, 0x8b, 0x44, 0x4d, 0x1b,
	0x9b, 0x0e, 0x51, 0x7f, 0x3c, 0x22, 0x90, 0x01,
};
static const uint8_t guid_ftrace[16] = {
	0xf7, 0x2c, 0x00, 0x11, 0x5a, 0x3d, 0x47, 0x80,
	0xa1, 0x61, 0x2b, 0x93, 0xcc, 0x04, 0x7e, 0x55,
};

/* a p_sys-t data message: header, GUID, [len], [ts], payload */
static void psyst(struct bytes *m, uint32_t header, const uint8_t *guid,
		  int do_len, uint64_t ts, int do_ts, const void *p, size_t n)
{
	m->n = 0;
	if (do_len)
		header |= 1u << 9;
	if (do_ts)
		header |= 1u << 11;
	le(m, header, 4);
	put(m, guid, 16);
	if (do_len)
		le(m, n, 2);
	if (do_ts)
		le(m, ts, 8);
	put(m, p, n);
}

/* the STP packets for one message: D32TS header, Dn body, FLAG */
static void stp_msg(struct stpenc *e, const struct bytes *m, uint64_t ts)
{
	stpenc_syst_msg(e, m->b[0] | m->b[1] << 8 | m->b[2] << 16 |
			(uint32_t)m->b[3] << 24, m->b + 4, m->n > 4 ? m->n - 4 : 0, ts);
}

static void chan(struct stpenc *e, unsigned int m, unsigned int c)
{
	stpenc_packet(e, MTTD_OP_M8, m, 0, 0, 0, 0);
	stpenc_packet(e, MTTD_OP_C8, c, 0, 0, 0, 0);
}

static int write_file(const char *dir, const char *name, const void *p,
		      size_t n)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "mkseeds: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

static int linux_stream(const char *dir)
{
	static const char *const lines[] = {
		"[    0.000000] Linux version 6.1.0-18-amd64",
		"[    0.004012] Command line: console=ttyS0 stm_console",
		"[    1.234567] stm_console: linked to swstm.0",
		"[    2.000001] random: crng init done",
	};
	struct stpenc e;
	struct bytes m;
	uint64_t ts = 1000000;
	unsigned int i;
	int r;

	stpenc_init(&e, 3);
	stpenc_async(&e);
	stpenc_packet(&e, MTTD_OP_VERSION, 3, 0, 0, 0, 0);
	stpenc_packet(&e, MTTD_OP_FREQ, 1000000000, 0, 0, 0, 0);
	for (i = 0; i < 12; i++) {
		/* clock sync first on each output, then data */
		if (i % 4 == 0) {
			chan(&e, 4, 0);
			m.n = 0;
			le(&m, 0x01000008, 4);
			le(&m, 1700000000000000000ull + ts, 8);
			le(&m, 1000000000, 8);
			stp_msg(&e, &m, ts);
		}
		chan(&e, 4, 0);
		psyst(&m, 0x01800042, guid_console, i & 1, 1700000000000000000ull +
		      ts, i & 2, lines[i % 4], strlen(lines[i % 4]));
		stp_msg(&e, &m, ts += 1337);
		/* ftrace function record (x86-64), CPU i % 2 */
		chan(&e, 5, i % 2);
		{
			uint8_t rec[24] = { 1, 0, 0, 1, 0x2a, 0, 0, 0 };
			uint64_t ip = 0xffffffff81000010ull + 0x40 * i;
			uint64_t pip = 0xffffffff81000120ull;

			memcpy(rec + 8, &ip, 8);
			memcpy(rec + 16, &pip, 8);
			psyst(&m, 0x01800042, guid_ftrace, 0, 0, 0, rec, 24);
			stp_msg(&e, &m, ts += 211);
			/* the same as an SBD (newer kernels) */
			memset(rec + 2, 0, 6);
			psyst(&m, 0x01800049, guid_ftrace, 0, 0, 0, rec, 24);
			stp_msg(&e, &m, ts += 97);
		}
		/* a SHORT32 value in one D32MTS */
		chan(&e, 6, 3);
		stpenc_packet(&e, MTTD_OP_D32MTS, (0x100000u + i) << 4 | 1, 0, 0,
			      ts += 50, -1);
	}
	stpenc_pad(&e);
	r = write_file(dir, "syst-linux.stp", e.buf, stpenc_bytes(&e));
	stpenc_free(&e);
	return r;
}

static int plain_stream(const char *dir)
{
	struct bytes all = { .n = 0 }, m;
	static const char fmt[] = "irq %d on cpu %u: %s (%p)";
	uint32_t crc;

	/* STRING with LEN, no GUID */
	m.n = 0;
	le(&m, 0x01000242, 4);
	le(&m, 4, 2);
	put(&m, "boot", 4);
	put(&all, m.b, m.n);
	/* PRINTF_32 without LEN */
	le(&all, 0x0b000042, 4);
	put(&all, fmt, sizeof(fmt));
	le(&all, 17, 4);
	le(&all, 1, 4);
	put(&all, "eth0", 5);
	le(&all, 0xc0ffee00, 4);
	/* CLOCK */
	le(&all, 0x01000008, 4);
	le(&all, 123456789, 8);
	le(&all, 19200000, 8);
	/* SHORT32, SHORT64, COMPACT32 build */
	le(&all, 0x12345671, 4);
	le(&all, 0x0fedcba987654327ull, 8);
	le(&all, 0xc0abcde0, 4);
	/* CATALOG ID32_P32 with LEN, CRC */
	m.n = 0;
	le(&m, 0x01000643, 4);
	le(&m, 12, 2);
	le(&m, 0x10, 4);
	le(&m, 42, 4);
	le(&m, 7, 4);
	crc = mttd_crc32c(m.b, m.n);
	le(&m, crc, 4);
	put(&all, m.b, m.n);
	/* location + timestamp */
	le(&all, 0x01000b42, 4);
	all.b[all.n++] = 0;
	le(&all, 7, 2);
	le(&all, 42, 2);
	le(&all, 3, 2);
	le(&all, 99, 8);
	put(&all, "ok!", 3);
	return write_file(dir, "syst-plain.bin", all.b, all.n);
}

static int text_file(const char *dir)
{
	static const char t[] =
		"SyS-T reference printer input\n"
		"SYS-T RAW DATA: 42028001a1b2c3d4e5f60718293a4b5c6d7e8f900500"
		"68656c6c6f\n"
		"SYS-T RAW DATA: 0800000100e1f5050000000000ca9a3b00000000\n"
		"other line\n"
		"SYS-T RAW DATA: 71000001\n"
		"SYS-T RAW DATA: 4300000110000000 2a000000 07000000\n";

	return write_file(dir, "syst-ref.txt", t, sizeof(t) - 1);
}

static const char coll_full[] =
	"<?xml version=\"1.0\"?>\n"
	"<syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n"
	" <syst:Client Name=\"app\">\n"
	"  <syst:Guids><syst:Guid ID=\"{494E5443-A2AE-4C70-ABB5-D1A79E9CEA35}\""
	" Mask=\"{FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF}\"/></syst:Guids>\n"
	"  <syst:Builds><syst:Build ID=\"0x3ABCDE\" Mask=\"0x3FFFFF\">"
	"release 7</syst:Build></syst:Builds>\n"
	"  <syst:Modules><syst:Module ID=\"5\">net</syst:Module>"
	"</syst:Modules>\n"
	"  <syst:SourceFiles><syst:File ID=\"7\">drv/net.c</syst:File>"
	"</syst:SourceFiles>\n"
	"  <syst:Catalog32><syst:Format ID=\"0x10\" File=\"7\" Line=\"99\">"
	"<![CDATA[queue %u depth %d]]></syst:Format>\n"
	"   <syst:Format ID=\"0x200\" Mask=\"0xF00\">masked %x</syst:Format>"
	"</syst:Catalog32>\n"
	"  <syst:Catalog64><syst:Format ID=\"0x1122334455667788\">"
	"<![CDATA[cat64 %s %lld]]></syst:Format></syst:Catalog64>\n"
	"  <syst:Short32><syst:Format ID=\"0x0100000\" Mask=\"0xFF00000\">"
	"short %d</syst:Format></syst:Short32>\n"
	"  <syst:Short64><syst:Format ID=\"0\" Mask=\"0\">%llx</syst:Format>"
	"</syst:Short64>\n"
	"  <syst:Write><syst:Protocol ID=\"1\" Mask=\"0xFF\">Protocol%d"
	"</syst:Protocol></syst:Write>\n"
	" </syst:Client>\n"
	" <syst:Client Name=\"any\"/>\n"
	"</syst:Collateral>\n";

static const char coll_entities[] =
	"<?xml version=\"1.0\"?>\n"
	"<!DOCTYPE c [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>\n"
	"<Collateral><Client Name=\"&b;\"><Catalog32>"
	"<Format ID=\"1\">&b;&b;&#10;&amp;&lt;</Format>"
	"<Format ID=\"2\">\n\n\n<![CDATA[a]]>\n<![CDATA[b]]></Format>"
	"</Catalog32></Client></Collateral>\n";

static int coll_seeds(const char *dir)
{
	char lines[4096];
	size_t i, n = 0;

	/* text in many pieces: one character data callback per line */
	n += (size_t)snprintf(lines, sizeof(lines), "<Collateral><Client>"
			      "<Short32><Format ID=\"0\" Mask=\"0\">");
	for (i = 0; i < 1000; i++)
		lines[n++] = i % 10 ? '\n' : 'x';
	n += (size_t)snprintf(lines + n, sizeof(lines) - n,
			      "</Format></Short32></Client></Collateral>\n");
	return write_file(dir, "coll-full.xml", coll_full,
			  sizeof(coll_full) - 1) |
	       write_file(dir, "coll-entities.xml", coll_entities,
			  sizeof(coll_entities) - 1) |
	       write_file(dir, "coll-lines.xml", lines, n);
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: mkseeds DIR [COLLDIR]\n");
		return 2;
	}
	return linux_stream(argv[1]) | plain_stream(argv[1]) |
	       text_file(argv[1]) | (argc == 3 ? coll_seeds(argv[2]) : 0);
}
