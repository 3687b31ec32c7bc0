// SPDX-License-Identifier: GPL-2.0
/*
 * syst_check: byte-level checks of MIPI SyS-T messages in an swstm
 * capture, independent of the decoder's SyS-T layer.  Input is
 * mttdecode's "--format json" output: every complete STP message is one
 * SyS-T message (its "data" hex).
 *
 *   syst_check msgs [-m MASTER] [-c CHANNEL|C0-C1] [-x] JSONFILE
 *       One line per message on MASTER/CHANNEL (default: any):
 *         m=M c=C stp=NS hdr=0xHHHHHHHH type=T sub=S sev=V guid=UUID|-
 *         origin=MOD:UNIT|- lenf=N|- ts=NS|- crc=ok|bad|- clock=NS|-
 *         freq=HZ|- size=N [hex=..] text=PAYLOAD
 *       stp is the STP timestamp of the message's first packet, lenf the
 *       length field, ts the SyS-T timestamp, clock/freq the payload of a
 *       CLOCK message; text (always last) is the payload with bytes
 *       outside 0x20..0x7e, and backslash, as \xNN.  A message that does
 *       not parse has "error=REASON" instead of everything after hdr.
 *   syst_check frames [-m MASTER] [-c CHANNEL|C0-C1] PACKETJSON
 *       PACKETJSON is "mttdecode --packets --no-messages --format json"
 *       output.  Every SyS-T message must be framed as upstream p_sys-t
 *       does: the header alone in a D32TS, then D8..D64 packets without
 *       timestamp or marker, then a FLAG.  Prints "OK messages=N" or
 *       FAIL lines.
 *   syst_check unwrap [-m MASTER] [-c CHANNEL|C0-C1] JSONFILE
 *       the same JSON with each data message's "data" replaced by its
 *       SyS-T payload (CLOCK messages and messages that do not parse are
 *       left out), for swstm_check msgs.
 *   syst_check crc STRING
 *       prints the CRC-32C of STRING as 8 hex digits.
 *   syst_check ftrace -k KALLSYMS -e FORMAT [-e FORMAT]... [-m MASTER]
 *                     [-c C0-C1] JSONFILE
 *       decodes ftrace records (SyS-T payloads) with tracefs event format
 *       files: one line per record, "cpu=N pid=P EVENT field=value ...";
 *       fields named *ip are shown as symbols from KALLSYMS, char arrays
 *       and __data_loc strings as text, other fields as numbers.  Records
 *       of unknown events print "event=ID".
 *
 * Exit status 0 unless a file cannot be read or a check fails.
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

#define SYST_TYPE_CLOCK	8
#define HDR_LOC		(1u << 8)
#define HDR_LEN		(1u << 9)
#define HDR_CHK		(1u << 10)
#define HDR_TS		(1u << 11)
#define HDR_GUID	(1u << 23)

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "syst_check: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

static void usage(void)
{
	die("usage: syst_check msgs|unwrap|frames|crc|ftrace ... (see the source)");
}

/* ---- CRC-32C ------------------------------------------------------------- */

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t i, bit, v;

	for (i = 0; i < 256; i++) {
		v = i;
		for (bit = 0; bit < 8; bit++)
			v = (v >> 1) ^ ((v & 1) ? 0x82f63b78u : 0);
		crc_table[i] = v;
	}
}

static uint32_t crc32c(const unsigned char *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--)
		crc = (crc >> 8) ^ crc_table[(crc ^ *p++) & 0xff];
	return ~crc;
}

/* ---- selection --------------------------------------------------------------- */

static long sel_master = -1;
static long sel_c0 = -1, sel_c1 = -1;

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

static FILE *open_in(const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

/* ---- SyS-T messages -------------------------------------------------------------- */

struct syst_msg {
	unsigned long long m, c, stp;
	int has_stp;
	uint32_t hdr;
	const char *error;
	const unsigned char *guid;	/* 16 bytes or NULL */
	int has_len, has_ts, has_crc, crc_ok, is_clock;
	unsigned int lenf;
	unsigned long long ts, clock, freq;
	const unsigned char *payload;
	size_t size;
};

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void syst_parse(struct syst_msg *s, const unsigned char *b, size_t n)
{
	size_t pos = 4, end = n;

	if (n < 4) {
		s->error = "too-short";
		return;
	}
	s->hdr = (uint32_t)le(b, 4);
	if (s->hdr & HDR_CHK) {
		if (n < 8) {
			s->error = "too-short";
			return;
		}
		end = n - 4;
		s->has_crc = 1;
		s->crc_ok = crc32c(b, end) == (uint32_t)le(b + end, 4);
	}
	if (s->hdr & HDR_GUID) {
		if (pos + 16 > end)
			goto short_msg;
		s->guid = b + pos;
		pos += 16;
	}
	if (s->hdr & HDR_LOC) {
		if (pos + 1 > end)
			goto short_msg;
		pos += 1 + ((b[pos] & 1) ? 8 : 4);
		if (pos > end)
			goto short_msg;
	}
	if (s->hdr & HDR_LEN) {
		if (pos + 2 > end)
			goto short_msg;
		s->has_len = 1;
		s->lenf = (unsigned int)le(b + pos, 2);
		pos += 2;
	}
	if (s->hdr & HDR_TS) {
		if (pos + 8 > end)
			goto short_msg;
		s->has_ts = 1;
		s->ts = le(b + pos, 8);
		pos += 8;
	}
	s->payload = b + pos;
	s->size = end - pos;
	if (s->has_len && s->lenf != s->size) {
		s->error = "length-mismatch";
		return;
	}
	if ((s->hdr & 0xf) == SYST_TYPE_CLOCK) {
		if (s->size != 16) {
			s->error = "bad-clock-payload";
			return;
		}
		s->is_clock = 1;
		s->clock = le(s->payload, 8);
		s->freq = le(s->payload + 8, 8);
	}
	return;
short_msg:
	s->error = "too-short";
}

static void print_escaped(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] >= 0x20 && p[i] <= 0x7e && p[i] != '\\')
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
}

static void print_guid(const unsigned char *g)
{
	int i;

	for (i = 0; i < 16; i++) {
		printf("%02x", g[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			putchar('-');
	}
}

static void print_msg(const struct syst_msg *s, int hex)
{
	size_t i;

	printf("m=%llu c=%llu stp=", s->m, s->c);
	if (s->has_stp)
		printf("%llu", s->stp);
	else
		putchar('-');
	printf(" hdr=0x%08x", s->hdr);
	if (s->error) {
		printf(" error=%s\n", s->error);
		return;
	}
	printf(" type=%u sub=%u sev=%u guid=", s->hdr & 0xf,
	       (s->hdr >> 24) & 0x3f, (s->hdr >> 4) & 7);
	if (s->guid)
		print_guid(s->guid);
	else
		putchar('-');
	if (s->hdr & HDR_GUID)
		printf(" origin=-");
	else
		printf(" origin=%u:%u", (s->hdr >> 16) & 0x7f,
		       (s->hdr >> 12) & 0xf);
	if (s->has_len)
		printf(" lenf=%u", s->lenf);
	else
		printf(" lenf=-");
	if (s->has_ts)
		printf(" ts=%llu", s->ts);
	else
		printf(" ts=-");
	printf(" crc=%s", s->has_crc ? (s->crc_ok ? "ok" : "bad") : "-");
	if (s->is_clock)
		printf(" clock=%llu freq=%llu", s->clock, s->freq);
	else
		printf(" clock=- freq=-");
	printf(" size=%zu", s->size);
	if (hex) {
		printf(" hex=");
		for (i = 0; i < s->size; i++)
			printf("%02x", s->payload[i]);
	}
	printf(" text=");
	print_escaped(s->payload, s->size);
	putchar('\n');
}

/*
 * Call @fn for every complete message selected in a JSON file.  Returns
 * the number of messages.
 */
static unsigned long for_each_msg(const char *path,
				  void (*fn)(struct syst_msg *s, void *arg),
				  void *arg)
{
	FILE *f = open_in(path);
	unsigned char *buf = NULL;
	size_t cap = 0, linecap = 0;
	char *line = NULL;
	unsigned long count = 0;

	while (getline(&line, &linecap, f) > 0) {
		struct syst_msg s;
		const char *hex;
		size_t hlen;
		long n;

		if (!json_is(line, "kind", "\"msg\""))
			continue;
		memset(&s, 0, sizeof(s));
		if (json_num(line, "master", &s.m) || json_num(line, "channel", &s.c))
			continue;
		if (!selected(s.m, s.c))
			continue;
		s.has_stp = !json_num(line, "ts", &s.stp);
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
		if (n < 0)
			s.error = "bad-hex";
		else if (!json_is(line, "complete", "true"))
			s.error = "incomplete";
		else
			syst_parse(&s, buf, (size_t)n);
		fn(&s, arg);
		count++;
	}
	free(line);
	free(buf);
	fclose(f);
	return count;
}

static void msgs_one(struct syst_msg *s, void *arg)
{
	print_msg(s, *(int *)arg);
}

static void unwrap_one(struct syst_msg *s, void *arg)
{
	size_t i;

	(void)arg;
	if (s->error || s->is_clock)
		return;
	printf("{\"kind\":\"msg\",\"master\":%llu,\"channel\":%llu,\"ts\":",
	       s->m, s->c);
	if (s->has_stp)
		printf("%llu", s->stp);
	else
		printf("null");
	printf(",\"len\":%zu,\"data\":\"", s->size);
	for (i = 0; i < s->size; i++)
		printf("%02x", s->payload[i]);
	printf("\",\"complete\":true}\n");
}

/* ---- frames ------------------------------------------------------------------------- */

struct frame_chan {
	unsigned long long m, c;
	int open;
};

static struct frame_chan fchans[4096];
static int nfchans;
static int ffail;

static void frame_fail(unsigned long long off, unsigned long long m,
		       unsigned long long c, const char *what)
{
	if (!ffail++)
		printf("FAIL\n");
	if (ffail <= 20)
		printf("FAIL: offset %llu m%llu c%llu: %s\n", off, m, c, what);
}

static int cmd_frames(const char *path)
{
	FILE *f = open_in(path);
	char *line = NULL;
	size_t linecap = 0;
	unsigned long msgs = 0;
	int i;

	while (getline(&line, &linecap, f) > 0) {
		unsigned long long m, c, off = 0;
		struct frame_chan *fc = NULL;
		char op[16];
		const char *p;
		size_t len;

		if (json_is(line, "kind", "\"loss\"")) {
			for (i = 0; i < nfchans; i++)
				fchans[i].open = 0;
			continue;
		}
		if (!json_is(line, "kind", "\"packet\""))
			continue;
		p = json_str(line, "op", &len);
		if (!p || len >= sizeof(op))
			continue;
		memcpy(op, p, len);
		op[len] = 0;
		if (strncmp(op, "D", 1) && strcmp(op, "FLAG") && strcmp(op, "FLAG_TS"))
			continue;
		if (!strcmp(op, "DIP"))
			continue;
		if (json_num(line, "master", &m) || json_num(line, "channel", &c))
			continue;
		if (!selected(m, c))
			continue;
		json_num(line, "offset", &off);
		for (i = 0; i < nfchans; i++)
			if (fchans[i].m == m && fchans[i].c == c)
				fc = &fchans[i];
		if (!fc) {
			if (nfchans == (int)(sizeof(fchans) / sizeof(fchans[0])))
				die("too many channels");
			fc = &fchans[nfchans++];
			fc->m = m;
			fc->c = c;
			fc->open = 0;
		}

		if (!strcmp(op, "D32TS")) {
			if (fc->open)
				frame_fail(off, m, c, "D32TS inside a message (no FLAG before)");
			fc->open = 1;
		} else if (!strcmp(op, "FLAG")) {
			if (!fc->open)
				frame_fail(off, m, c, "FLAG outside a message");
			else
				msgs++;
			fc->open = 0;
		} else if (!strcmp(op, "D8") || !strcmp(op, "D16") ||
			   !strcmp(op, "D32") || !strcmp(op, "D64")) {
			if (!fc->open)
				frame_fail(off, m, c, "data outside a message (no D32TS header)");
		} else {
			char what[64];

			snprintf(what, sizeof(what), "unexpected %s", op);
			frame_fail(off, m, c, what);
		}
	}
	for (i = 0; i < nfchans; i++)
		if (fchans[i].open)
			frame_fail(0, fchans[i].m, fchans[i].c, "message without FLAG at the end");
	free(line);
	fclose(f);
	if (ffail)
		return 1;
	printf("OK messages=%lu\n", msgs);
	return 0;
}

/* ---- ftrace records ----------------------------------------------------------------------- */

struct sym {
	unsigned long long addr;
	char *name;
};

static struct sym *syms;
static size_t nsyms;

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void load_kallsyms(const char *path)
{
	FILE *f = open_in(path);
	char *line = NULL;
	size_t linecap = 0, cap = 0;

	while (getline(&line, &linecap, f) > 0) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (nsyms == cap) {
			cap = cap ? cap * 2 : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				die("out of memory");
		}
		syms[nsyms].addr = addr;
		syms[nsyms].name = strdup(name);
		nsyms++;
	}
	free(line);
	fclose(f);
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
}

static const char *sym_name(unsigned long long addr)
{
	size_t lo = 0, hi = nsyms;

	if (!nsyms || addr < syms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return syms[lo].name;
}

#define MAX_FIELDS	32
#define MAX_EVENTS	64

struct field {
	char name[64];
	unsigned int offset, size;
	int is_signed, is_char_array, is_data_loc;
};

struct event {
	char name[64];
	unsigned long id;
	int nfields;
	struct field fields[MAX_FIELDS];
};

static struct event events[MAX_EVENTS];
static int nevents;

static void load_format(const char *path)
{
	FILE *f = open_in(path);
	struct event *ev;
	char *line = NULL;
	size_t linecap = 0;

	if (nevents == MAX_EVENTS)
		die("too many event formats");
	ev = &events[nevents++];
	memset(ev, 0, sizeof(*ev));
	while (getline(&line, &linecap, f) > 0) {
		char *p = line, *decl, *semi, *name;
		struct field *fd;

		while (isspace((unsigned char)*p))
			p++;
		if (!strncmp(p, "name:", 5)) {
			sscanf(p + 5, "%63s", ev->name);
			continue;
		}
		if (!strncmp(p, "ID:", 3)) {
			ev->id = strtoul(p + 3, NULL, 10);
			continue;
		}
		if (strncmp(p, "field:", 6) || ev->nfields == MAX_FIELDS)
			continue;
		decl = p + 6;
		semi = strchr(decl, ';');
		if (!semi)
			continue;
		*semi = 0;
		fd = &ev->fields[ev->nfields];
		memset(fd, 0, sizeof(*fd));
		fd->is_data_loc = !strncmp(decl, "__data_loc", 10);
		fd->is_char_array = strstr(decl, "char") && strchr(decl, '[');
		/* the name: the last identifier, before any [N] */
		name = strchr(decl, '[');
		if (name && !fd->is_data_loc)
			*name = 0;
		name = decl + strlen(decl);
		while (name > decl && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
			name--;
		snprintf(fd->name, sizeof(fd->name), "%s", name);
		p = strstr(semi + 1, "offset:");
		if (!p)
			continue;
		fd->offset = (unsigned int)strtoul(p + 7, NULL, 10);
		p = strstr(semi + 1, "size:");
		fd->size = p ? (unsigned int)strtoul(p + 5, NULL, 10) : 0;
		p = strstr(semi + 1, "signed:");
		fd->is_signed = p ? atoi(p + 7) : 0;
		ev->nfields++;
	}
	free(line);
	fclose(f);
	if (!ev->id || !ev->name[0])
		die("%s: not an event format file", path);
}

static void print_text(const unsigned char *p, size_t n)
{
	size_t len = 0;

	while (len < n && p[len])
		len++;
	print_escaped(p, len);
}

static void print_field(const struct field *fd, const unsigned char *rec,
			size_t n)
{
	unsigned long long v;

	if (fd->offset > n)
		return;
	printf(" %s=", fd->name);
	if (fd->is_data_loc) {
		unsigned int loc, off, len;

		if (fd->offset + 4 > n)
			return;
		loc = (unsigned int)le(rec + fd->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (off + len <= n)
			print_text(rec + off, len);
		return;
	}
	if (fd->is_char_array) {
		size_t len = fd->size ? fd->size : n - fd->offset;

		if (fd->offset + len > n)
			len = n - fd->offset;
		print_text(rec + fd->offset, len);
		return;
	}
	if (!fd->size || fd->size > 8 || fd->offset + fd->size > n) {
		printf("?");
		return;
	}
	v = le(rec + fd->offset, (int)fd->size);
	if (strlen(fd->name) >= 2 && !strcmp(fd->name + strlen(fd->name) - 2, "ip")) {
		const char *s = sym_name(v);

		if (s) {
			printf("%s", s);
			return;
		}
		printf("0x%llx", v);
	} else if (fd->is_signed && fd->size < 8 &&
		   (v >> (fd->size * 8 - 1)) & 1) {
		printf("%lld", (long long)(v | (~0ULL << (fd->size * 8))));
	} else if (fd->is_signed) {
		printf("%lld", (long long)v);
	} else {
		printf("%llu", v);
	}
}

static void ftrace_one(struct syst_msg *s, void *arg)
{
	const unsigned char *r = s->payload;
	unsigned long type;
	int i, j;

	(void)arg;
	if (s->error || s->is_clock)
		return;
	printf("cpu=%lld", (long long)(s->c - (unsigned long long)(sel_c0 > 0 ? sel_c0 : 0)));
	if (s->size < 8) {
		printf(" short-record size=%zu\n", s->size);
		return;
	}
	type = (unsigned long)le(r, 2);
	printf(" pid=%d", (int)(uint32_t)le(r + 4, 4));
	for (i = 0; i < nevents; i++) {
		if (events[i].id != type)
			continue;
		printf(" %s", events[i].name);
		for (j = 0; j < events[i].nfields; j++)
			if (strncmp(events[i].fields[j].name, "common_", 7))
				print_field(&events[i].fields[j], r, s->size);
		putchar('\n');
		return;
	}
	printf(" event=%lu size=%zu\n", type, s->size);
}

int main(int argc, char **argv)
{
	const char *cmd, *kallsyms = NULL;
	int opt, hex = 0;

	if (argc < 2)
		usage();
	crc_init();
	cmd = argv[1];
	argv++;
	argc--;

	if (!strcmp(cmd, "crc")) {
		if (argc != 2)
			usage();
		printf("%08x\n", crc32c((const unsigned char *)argv[1], strlen(argv[1])));
		return 0;
	}

	while ((opt = getopt(argc, argv, "m:c:xk:e:")) != -1) {
		switch (opt) {
		case 'm':
			sel_master = strtol(optarg, NULL, 0);
			break;
		case 'c':
			parse_chan(optarg);
			break;
		case 'x':
			hex = 1;
			break;
		case 'k':
			kallsyms = optarg;
			break;
		case 'e':
			load_format(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();

	if (!strcmp(cmd, "msgs")) {
		for_each_msg(argv[optind], msgs_one, &hex);
		return 0;
	}
	if (!strcmp(cmd, "unwrap")) {
		for_each_msg(argv[optind], unwrap_one, NULL);
		return 0;
	}
	if (!strcmp(cmd, "frames"))
		return cmd_frames(argv[optind]);
	if (!strcmp(cmd, "ftrace")) {
		if (kallsyms)
			load_kallsyms(kallsyms);
		for_each_msg(argv[optind], ftrace_one, NULL);
		return 0;
	}
	usage();
	return 2;
}
