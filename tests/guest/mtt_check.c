// SPDX-License-Identifier: GPL-2.0
/*
 * mtt_check: byte-level checks of native MTT frames in an swstm capture,
 * written from the frame layout of Documentation/mtt.rst and independent
 * of the decoder's MTT layer.  Input is mttdecode's "--format json"
 * output (each complete STP message's "data" hex), or that of
 * "syst_check unwrap" for frames carried in SyS-T messages.
 *
 *   mtt_check frames [-m MASTER] [-c CHANNEL|C0-C1] JSONFILE
 *       One line per message:
 *         m=M c=C cmd=0xCCCC flags=0xFFFF target=T comp=0xID tid=0xTID
 *         type=0xTYPEINFO ctx=N|- ts=NS|- level=0xL|- hint=TEXT|-
 *         size=N data=HEX
 *       A message that is not exactly one frame (sync, version 1.0, the
 *       length its preamble gives) prints "m=M c=C error=REASON".
 *
 * Exit status 0 unless the file cannot be read (2).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_line.h"

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mtt_check: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

static long sel_master = -1, sel_c0 = -1, sel_c1 = -1;

static void parse_chan(const char *s)
{
	char *end;

	sel_c0 = strtol(s, &end, 0);
	sel_c1 = sel_c0;
	if (*end == '-')
		sel_c1 = strtol(end + 1, &end, 0);
	if (*end || sel_c0 < 0 || sel_c1 < sel_c0)
		die("bad channel '%s'", s);
}

static int selected(unsigned long long m, unsigned long long c)
{
	if (sel_master >= 0 && m != (unsigned long long)sel_master)
		return 0;
	if (sel_c0 >= 0 && (c < (unsigned long long)sel_c0 ||
			    c > (unsigned long long)sel_c1))
		return 0;
	return 1;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#define F_CTXT	0x0001u
#define F_TS64	0x0002u
#define F_LEVEL	0x0004u
#define F_HINT	0x0008u
#define F_TSTV	0x0020u
#define F_CRC	0x0800u

/* Parse and print one frame of @n bytes (the whole message). */
static void frame(unsigned long long m, unsigned long long c,
		  const unsigned char *b, size_t n)
{
	uint32_t w0, w1, ti;
	size_t off = 20, size, want, i;

	printf("m=%llu c=%llu ", m, c);
	if (n < 20) {
		printf("error=short\n");
		return;
	}
	w0 = le32(b);
	w1 = le32(b + 4);
	ti = le32(b + 16);
	if ((w0 & 0xfff00000u) != 0xeee00000u) {
		printf("error=sync\n");
		return;
	}
	if ((w0 >> 8 & 0xff) != 0x10) {
		printf("error=version\n");
		return;
	}
	size = ti & 0xffff;
	want = 20 + (w1 & F_CTXT ? 4 : 0) + (w1 & (F_TS64 | F_TSTV) ? 8 : 0) +
	       (w1 & F_LEVEL ? 4 : 0) + ((size + 3) & ~(size_t)3) +
	       (w1 & F_HINT ? 12 : 0) + (w1 & F_CRC ? 4 : 0);
	if (want != n) {
		printf("error=length(%zu!=%zu)\n", n, want);
		return;
	}
	printf("cmd=0x%04x flags=0x%04x target=%u comp=0x%08x tid=0x%08x type=0x%08x",
	       w1 >> 16, w1 & 0xffff, w0 & 0xff, le32(b + 8), le32(b + 12), ti);
	if (w1 & F_CTXT) {
		printf(" ctx=%u", le32(b + off));
		off += 4;
	} else {
		printf(" ctx=-");
	}
	if (w1 & (F_TS64 | F_TSTV)) {
		printf(" ts=%llu", (unsigned long long)le32(b + off) |
		       (unsigned long long)le32(b + off + 4) << 32);
		off += 8;
	} else {
		printf(" ts=-");
	}
	if (w1 & F_LEVEL) {
		printf(" level=0x%08x", le32(b + off));
		off += 4;
	} else {
		printf(" level=-");
	}
	if (w1 & F_HINT) {
		const unsigned char *h = b + off + ((size + 3) & ~(size_t)3);

		printf(" hint=");
		for (i = 0; i < 12 && h[i]; i++)
			putchar(isgraph(h[i]) ? h[i] : '?');
	} else {
		printf(" hint=-");
	}
	for (i = size; i < ((size + 3) & ~(size_t)3); i++)
		if (b[off + i]) {
			printf(" error=padding\n");
			return;
		}
	printf(" size=%zu data=", size);
	for (i = 0; i < size; i++)
		printf("%02x", b[off + i]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	unsigned char *buf = NULL;
	size_t cap = 0, linecap = 0;
	char *line = NULL;
	FILE *f;
	int opt;

	if (argc < 2 || strcmp(argv[1], "frames"))
		die("usage: mtt_check frames [-m MASTER] [-c CHANNEL|C0-C1] JSONFILE");
	optind = 2;
	while ((opt = getopt(argc, argv, "m:c:")) != -1) {
		if (opt == 'm')
			sel_master = strtol(optarg, NULL, 0);
		else if (opt == 'c')
			parse_chan(optarg);
		else
			die("bad option");
	}
	if (optind != argc - 1)
		die("one JSON file expected");
	f = fopen(argv[optind], "r");
	if (!f)
		die("%s: %s", argv[optind], strerror(errno));
	while (getline(&line, &linecap, f) > 0) {
		unsigned long long m, c;
		const char *hex;
		size_t hlen;
		long n;

		if (!json_is(line, "kind", "\"msg\"") ||
		    json_num(line, "master", &m) || json_num(line, "channel", &c) ||
		    !selected(m, c))
			continue;
		hex = json_str(line, "data", &hlen);
		if (!hex)
			continue;
		if (hlen / 2 + 1 > cap) {
			cap = hlen / 2 + 1;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory");
		}
		n = unhex(hex, hlen, buf);
		if (n < 0 || !json_is(line, "complete", "true")) {
			printf("m=%llu c=%llu error=%s\n", m, c,
			       n < 0 ? "bad-hex" : "incomplete");
			continue;
		}
		frame(m, c, buf, (size_t)n);
	}
	free(line);
	free(buf);
	fclose(f);
	return 0;
}
