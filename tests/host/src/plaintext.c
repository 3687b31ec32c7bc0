// SPDX-License-Identifier: GPL-2.0
/*
 * plaintext.c - MTTD_SYST_F_PLAIN, the decoder's word that a message's
 * text needs no escaping (printable ASCII other than '"' and '\\'), on
 * which mttdecode's text printer copies the text without its escaper.
 *
 * 1. mttd__plain_run() (libmttdecode's internal/plain.h) against a byte
 *    by byte reference: every length 0..100, one byte that is not plain
 *    at every place (controls, '"', '\\', 0x7f, 0x80, UTF-8, 0xff) and
 *    two of them, every byte value alone; with the AVX2 steps and
 *    without (SSE2 or words), whatever the CPU has.
 * 2. Messages whose text comes through every way the decoder writes
 *    it: a compiled catalog format's literals (quote, backslash, tab,
 *    line feed, DEL, UTF-8) and every conversion kind (integers,
 *    floats, %c and %lc, %s, %p, %n, padding, '*', an unknown
 *    conversion), STRING payloads with every kind of byte and a NUL,
 *    BUILD text from the payload and from the collateral, SHORT, RAW,
 *    CLOCK, a catalog message without collateral, a PRINTF message.
 *    Each: the text expected, and the flag set exactly when the text is
 *    plain (for the kinds the decoder flags; never on a text that is
 *    not plain).
 * With --write HEX COLL: the same messages as "SYS-T RAW DATA:" lines
 * and their collateral, for plaintext.t to decode with mttdecode and
 * compare with the text expected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/plain.h"	/* mttd__plain_run(): the library's own */
#include "mttdecode/collateral.h"
#include "mttdecode/syst.h"
#include "systenc.h"
#include "tap.h"

static int ref_plain(uint8_t c)
{
	return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
}

static size_t ref_run(const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n && ref_plain(p[i]))
		i++;
	return i;
}

static const uint8_t bad[] = {
	0x00, 0x01, 0x09, 0x0a, 0x0d, 0x1f, '"', '\\', 0x7f, 0x80, 0xc3,
	0xe2, 0xff,
};
/* plain bytes next to the ones that are not */
static const uint8_t edge[] = { 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7e, 'a' };

static void run_checks(int avx2)
{
	uint8_t buf[128];
	size_t n, i, j, k, wrong = 0, tried = 0;

	for (n = 0; n <= 100; n++) {
		for (i = 0; i < n; i++)
			buf[i] = edge[(i * 7 + n) % sizeof(edge)];
		tried++;
		if (mttd__plain_run(buf, n, avx2) != n)
			wrong++;
		for (i = 0; i < n; i++) {
			for (k = 0; k < sizeof(bad); k++) {
				uint8_t keep = buf[i];

				buf[i] = bad[k];
				tried++;
				if (mttd__plain_run(buf, n, avx2) != i)
					wrong++;
				/* a second one after it */
				for (j = i + 1; j < n; j += 5) {
					uint8_t keep2 = buf[j];

					buf[j] = bad[(k + j) % sizeof(bad)];
					tried++;
					if (mttd__plain_run(buf, n, avx2) != i)
						wrong++;
					buf[j] = keep2;
				}
				buf[i] = keep;
			}
		}
	}
	ok(wrong == 0, "plain run, avx2=%d: %zu of %zu scans right", avx2,
	   tried - wrong, tried);
	/* every byte value, at each place of 40 */
	wrong = 0;
	for (k = 0; k < 256; k++) {
		for (i = 0; i < 40; i++) {
			memset(buf, 'x', 40);
			buf[i] = (uint8_t)k;
			if (mttd__plain_run(buf, 40, avx2) != ref_run(buf, 40))
				wrong++;
		}
	}
	ok(wrong == 0, "plain run, avx2=%d: every byte value (%zu wrong)",
	   avx2, wrong);
}

/* ---- messages ---- */

#define CLIENT "plain"

/* catalog formats (Catalog32, ids from 0x10), in the collateral's CDATA:
 * no control bytes but tab and line feed, no ']]>' */
static const char *const formats[] = {
	/* 0x10 */ "say \"%s\" now",
	/* 0x11 */ "path C:\\dir\\%s",
	/* 0x12 */ "tab\there %d",
	/* 0x13 */ "line\nfeed %u",
	/* 0x14 */ "del\x7f %x",
	/* 0x15 */ "caf\xc3\xa9 %d",
	/* 0x16 */ "s=[%s]",
	/* 0x17 */ "c=[%c]",
	/* 0x18 */ "lc=[%lc]",
	/* 0x19 */ "nums d=%d i=%i u=%u o=%o x=%x X=%X ld=%lld f=%f "
		   ".2f=%.2f e=%e g=%g a=%a p=%p n=%n w=[%5d|%-5u|%05x] "
		   "star=[%*d|%.*f] bad=%y pct=%% end",
	/* 0x1a */ "s=[%-6s|%.2s|%8s]",
	/* 0x1b */ "plain words %s and %d",
};
#define NFMT (sizeof(formats) / sizeof(formats[0]))

static char *coll_text(void)
{
	static const char head[] =
		"<?xml version=\"1.0\"?>\n<syst:Collateral "
		"xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n"
		"<syst:Client Name=\"" CLIENT "\"><syst:Guids><syst:Guid "
		"ID=\"{00000000-0000-0000-0000-000000000000}\" "
		"Mask=\"{00000000-0000-0000-0000-000000000000}\"/>"
		"</syst:Guids>\n<syst:Catalog32>\n";
	static const char tail[] =
		"</syst:Catalog32>\n<syst:Builds><syst:Build ID=\"0x77\">"
		"<![CDATA[fw \"rc\" \\1]]></syst:Build><syst:Build "
		"ID=\"0x78\"><![CDATA[fw plain 2.0]]></syst:Build>"
		"</syst:Builds>\n</syst:Client>\n</syst:Collateral>\n";
	size_t n = sizeof(head) + sizeof(tail), i;
	char *x, *p;

	for (i = 0; i < NFMT; i++)
		n += strlen(formats[i]) + 64;
	x = malloc(n);
	if (!x)
		return NULL;
	p = x + sprintf(x, "%s", head);
	for (i = 0; i < NFMT; i++)
		p += sprintf(p, "<syst:Format ID=\"0x%zx\"><![CDATA[%s]]>"
			     "</syst:Format>\n", 0x10 + i, formats[i]);
	sprintf(p, "%s", tail);
	return x;
}

struct want {
	const char *what;
	uint32_t header;	/* type, subtype; SEV INFO and LEN added */
	struct systenc pl;
	const char *text;	/* expected */
	size_t text_len;	/* of text (it may hold a NUL: no) */
	int flagged;		/* the decoder knows this kind: the flag is
				 * set exactly when the text is plain */
};

#define MAXW 80
static struct want w[MAXW];
static unsigned int nw;

static struct want *add(const char *what, uint32_t type, uint32_t sub,
			const char *text, int flagged)
{
	struct want *x = &w[nw++];

	if (nw > MAXW) {
		printf("Bail out! too many messages\n");
		exit(1);
	}
	x->what = what;
	x->header = SYSTENC_TYPE(type) | SYSTENC_SUB(sub);
	systenc_init(&x->pl);
	x->text = text;
	x->text_len = strlen(text);
	x->flagged = flagged;
	return x;
}

static struct want *cat(const char *what, unsigned int id, const char *text)
{
	struct want *x = add(what, MTTD_SYST_CATALOG,
			     MTTD_SYST_CATALOG_ID32_P64, text, 1);

	systenc_le(&x->pl, id, 4);
	return x;
}

static void str_arg(struct want *x, const char *s)
{
	systenc_put(&x->pl, s, strlen(s) + 1);
}

static void messages(void)
{
	static const char *const strs[] = {
		"quote \" in it", "back\\slash", "ctl\x01here", "tab\tx",
		"lf\nx", "cr\rx", "del\x7fx", "utf8 caf\xc3\xa9",
		"high \x80\xff", "plain ~ !#[]{}|", "",
		/* past 32 bytes: the vector steps */
		"a text of more than thirty-two bytes, then \\ at its end",
		"a text of more than thirty-two bytes, then \" at its end",
		"a text of more than thirty-two bytes, then \x1b at its end",
		"a text of more than thirty-two bytes and all of them plain",
	};
	char *buf;
	struct want *x;
	unsigned int i;

	/* literals */
	str_arg(cat("literal quote", 0x10, "say \"it\" now"), "it");
	str_arg(cat("literal backslash", 0x11, "path C:\\dir\\x"), "x");
	systenc_le(&cat("literal tab", 0x12, "tab\there 5")->pl, 5, 4);
	systenc_le(&cat("literal line feed", 0x13, "line\nfeed 6")->pl, 6,
		   4);
	systenc_le(&cat("literal DEL", 0x14, "del\x7f ff")->pl, 255, 4);
	systenc_le(&cat("literal UTF-8", 0x15, "caf\xc3\xa9 7")->pl, 7, 4);
	/* %s with every kind of byte */
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		buf = malloc(strlen(strs[i]) + 8);
		if (!buf)
			exit(1);
		sprintf(buf, "s=[%s]", strs[i]);
		str_arg(cat("%s argument", 0x16, buf), strs[i]);
	}
	/* %c of bytes that need escaping and of plain ones */
	{
		static const char *const cw[] = {
			"c=[\"]", "c=[\\]", "c=[\x01]", "c=[\x7f]", "c=[A]",
			"c=[ ]",
		};
		static const uint8_t cv[] = { '"', '\\', 1, 0x7f, 'A', ' ' };

		for (i = 0; i < sizeof(cv); i++)
			systenc_le(&cat("%c argument", 0x17, cw[i])->pl, cv[i],
				   4);
	}
	systenc_le(&cat("%lc argument, U+20AC", 0x18,
			"lc=[\xe2\x82\xac]")->pl, 0x20ac, 4);
	systenc_le(&cat("%lc argument, '\"'", 0x18, "lc=[\"]")->pl, '"', 4);
	systenc_le(&cat("%lc argument, 'z'", 0x18, "lc=[z]")->pl, 'z', 4);
	/* every numeric conversion kind, all plain */
	x = cat("every numeric conversion", 0x19,
		"nums d=-42 i=7 u=4000000000 o=10 x=beef X=BEEF "
		"ld=-5000000000 f=3.141590 .2f=2.67 e=1.234568e+04 "
		"g=0.0001234 a=0x1p+0 p=0x1234 n= w=[   42|7    |000ff] "
		"star=[    42|1.500] bad=%y pct=% end");
	systenc_le(&x->pl, (uint32_t)-42, 4);
	systenc_le(&x->pl, 7, 4);
	systenc_le(&x->pl, 4000000000u, 4);
	systenc_le(&x->pl, 8, 4);
	systenc_le(&x->pl, 0xbeef, 4);
	systenc_le(&x->pl, 0xbeef, 4);
	systenc_le(&x->pl, (uint64_t)-5000000000ll, 8);
	systenc_f64(&x->pl, 3.14159);
	systenc_f64(&x->pl, 2.675);
	systenc_f64(&x->pl, 12345.678);
	systenc_f64(&x->pl, 0.0001234);
	systenc_f64(&x->pl, 1.0);
	systenc_le(&x->pl, 0x1234, 8);
	systenc_le(&x->pl, 0xdead, 8);		/* %n */
	systenc_le(&x->pl, 42, 4);
	systenc_le(&x->pl, 7, 4);
	systenc_le(&x->pl, 255, 4);
	systenc_le(&x->pl, 6, 4);		/* %*d */
	systenc_le(&x->pl, 42, 4);
	systenc_le(&x->pl, 3, 4);		/* %.*f */
	systenc_f64(&x->pl, 1.5);
	/* padded and cut strings */
	x = cat("padded %s with a quote", 0x1a, "s=[a\"    |b\\|      \x01z]");
	str_arg(x, "a\"");
	str_arg(x, "b\\c");
	str_arg(x, "\x01z");
	x = cat("padded %s, plain", 0x1a, "s=[ab    |cd|      ef]");
	str_arg(x, "ab");
	str_arg(x, "cde");
	str_arg(x, "ef");
	x = cat("plain literal, %s and %d", 0x1b, "plain words xyz and 3");
	str_arg(x, "xyz");
	systenc_le(&x->pl, 3, 4);
	x = cat("plain literal, %s with a backslash", 0x1b,
		"plain words x\\y and 3");
	str_arg(x, "x\\y");
	systenc_le(&x->pl, 3, 4);
	x = cat("an argument missing", 0x1b, "plain words xyz and <?>");
	str_arg(x, "xyz");
	/* STRING payloads */
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		x = add("STRING payload", MTTD_SYST_STRING,
			MTTD_SYST_STRING_GENERIC, strs[i], 1);
		systenc_put(&x->pl, strs[i], strlen(strs[i]));
	}
	x = add("STRING payload, 40 plain bytes then a NUL and a control",
		MTTD_SYST_STRING, MTTD_SYST_STRING_GENERIC,
		"0123456789012345678901234567890123456789", 1);
	systenc_put(&x->pl, x->text, 40);
	systenc_put(&x->pl, "\0\x01", 2);
	x = add("STRING payload, 40 bytes, a quote at 33", MTTD_SYST_STRING,
		MTTD_SYST_STRING_GENERIC,
		"012345678901234567890123456789012\"456789", 1);
	systenc_put(&x->pl, x->text, 40);
	x = add("STRING payload, 20 bytes, a backslash at 19",
		MTTD_SYST_STRING, MTTD_SYST_STRING_GENERIC,
		"0123456789012345678\\", 1);
	systenc_put(&x->pl, x->text, 20);
	/* PRINTF: interpreted, not flagged */
	x = add("PRINTF", MTTD_SYST_STRING, MTTD_SYST_STRING_PRINTF_32,
		"p \"q\" 5", 0);
	systenc_put(&x->pl, "p \"%s\" %d", 10);
	str_arg(x, "q");
	systenc_le(&x->pl, 5, 4);
	/* BUILD: text from the payload and from the collateral */
	x = add("BUILD, payload text with a quote", MTTD_SYST_BUILD,
		MTTD_SYST_BUILD_LONG, "build 0x5 fw \"x\"", 1);
	systenc_le(&x->pl, 5, 8);
	systenc_put(&x->pl, "fw \"x\"", 7);
	x = add("BUILD, payload text, plain", MTTD_SYST_BUILD,
		MTTD_SYST_BUILD_LONG, "build 0x5 fw 1.2", 1);
	systenc_le(&x->pl, 5, 8);
	systenc_put(&x->pl, "fw 1.2", 7);
	x = add("BUILD, collateral text with a quote and a backslash",
		MTTD_SYST_BUILD, MTTD_SYST_BUILD_LONG,
		"build 0x77 fw \"rc\" \\1", 1);
	systenc_le(&x->pl, 0x77, 8);
	x = add("BUILD, collateral text, plain", MTTD_SYST_BUILD,
		MTTD_SYST_BUILD_LONG, "build 0x78 fw plain 2.0", 1);
	systenc_le(&x->pl, 0x78, 8);
	/* hex and decimals only */
	x = add("CLOCK", MTTD_SYST_CLOCK, MTTD_SYST_CLOCK_SYNC,
		"clock 123 at 1000 Hz", 1);
	systenc_le(&x->pl, 123, 8);
	systenc_le(&x->pl, 1000, 8);
	x = add("RAW", MTTD_SYST_RAW, 3, "22005c7f", 1);
	systenc_put(&x->pl, "\"\0\\\x7f", 4);
	x = cat("catalog without collateral", 0x99,
		"catalog 0x00000099 args 225c0100");
	systenc_put(&x->pl, "\"\\\x01", 4);
}

/* ---- decoding them ---- */

struct seen {
	char text[512];
	size_t len;
	uint32_t flags;
	unsigned int n;
};

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	struct seen *s = ctx;

	s->len = m->text_len < sizeof(s->text) ? m->text_len :
		 sizeof(s->text);
	memcpy(s->text, m->text ? m->text : "", m->text ? s->len : 0);
	s->flags = m->flags;
	s->n++;
}

static void encode(struct systenc *msg, const struct want *x)
{
	systenc_init(msg);
	systenc_msg(msg, x->header | SYSTENC_SEV(4) | SYSTENC_LEN, 0,
		    &x->pl);
	if (msg->oom) {
		printf("Bail out! no memory\n");
		exit(1);
	}
}

static int decode_all(void)
{
	struct mttd_coll *c = mttd_coll_new();
	char *xml = coll_text();
	struct seen sn;
	struct mttd_syst_config cfg = { .fn = on_msg, .ctx = &sn };
	struct mttd_syst *s;
	char err[256];
	unsigned int i;

	if (!c || !xml || mttd_coll_load_mem(c, xml, strlen(xml), CLIENT,
					     err, sizeof(err))) {
		printf("Bail out! collateral: %s\n", c && xml ? err :
		       "no memory");
		return 1;
	}
	free(xml);
	cfg.coll = c;
	s = mttd_syst_new(&cfg);
	if (!s) {
		printf("Bail out! mttd_syst_new\n");
		return 1;
	}
	for (i = 0; i < nw; i++) {
		const struct want *x = &w[i];
		int plain = ref_run((const uint8_t *)x->text, x->text_len) ==
			    x->text_len;
		int fl;
		struct systenc msg;

		encode(&msg, x);
		sn.n = 0;
		mttd_syst_decode(s, NULL, msg.buf, msg.len);
		systenc_free(&msg);
		fl = (sn.flags & MTTD_SYST_F_PLAIN) != 0;
		ok(sn.n == 1 && sn.len == x->text_len &&
		   !memcmp(sn.text, x->text, x->text_len),
		   "%u %s: the text", i, x->what);
		if (sn.len != x->text_len ||
		    memcmp(sn.text, x->text, x->text_len))
			diag("got \"%.*s\"\nwant \"%s\"", (int)sn.len, sn.text,
			     x->text);
		/* never a flag on a text that is not plain; on every plain
		 * text of a kind the decoder flags */
		ok(x->flagged ? fl == plain : !fl,
		   "%u %s: plain %d, flagged %d", i, x->what, plain, fl);
	}
	mttd_syst_free(s);
	mttd_coll_free(c);
	return 0;
}

static int write_files(const char *hex, const char *coll)
{
	FILE *f = fopen(hex, "w");
	FILE *g = fopen(coll, "w");
	char *xml = coll_text();
	struct systenc out;
	unsigned int i;

	if (!f || !g || !xml)
		return 1;
	systenc_init(&out);
	for (i = 0; i < nw; i++) {
		struct systenc msg;

		encode(&msg, &w[i]);
		systenc_hexline(&out, msg.buf, msg.len);
		systenc_free(&msg);
	}
	if (out.oom || fwrite(out.buf, 1, out.len, f) != out.len ||
	    fputs(xml, g) < 0)
		return 1;
	systenc_free(&out);
	free(xml);
	return fclose(f) | fclose(g);
}

int main(int argc, char **argv)
{
	messages();
	if (argc == 4 && !strcmp(argv[1], "--write"))
		return write_files(argv[2], argv[3]);
	run_checks(0);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (__builtin_cpu_supports("avx2"))
		run_checks(1);
	else
		ok(1, "plain run, avx2=1 # SKIP the CPU has no AVX2");
#else
	ok(1, "plain run, avx2=1 # SKIP not x86-64");
#endif
	return decode_all() || done_testing();
}
