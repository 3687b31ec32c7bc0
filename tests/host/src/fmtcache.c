// SPDX-License-Identifier: GPL-2.0
/*
 * fmtcache.c - collateral formats are compiled once, when their entry is
 * loaded (libmttdecode's include/internal/coll.h), and rendered from the
 * compiled form for every message: every conversion kind a format may
 * hold (integers of every length, flags, widths, precisions, '*' widths
 * and precisions, negative ones, %f %e %g %a, %c %lc, %s, %p, %n, "%%",
 * an unknown conversion, a '%' at the end) in a catalog format, decoded
 * twice (the compiled form used again) and compared with the expected
 * text and with the same format sent as a PRINTF message (which is
 * interpreted per message, not compiled); SHORT and RAW protocol formats
 * too; then the entry changed (another collateral with the same id) and
 * a more specific client loaded into the same collateral: the new text,
 * never the old one.  Messages from tests/host/enc/systenc.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/coll.h"	/* mttd__coll_fmtc(): the library's own */
#include "mttdecode/collateral.h"
#include "mttdecode/syst.h"
#include "systenc.h"
#include "tap.h"

#define CAT_ID 0x42u

static const char all_fmt[] =
	"d=%d i=%i u=%u o=%o x=%x X=%X hhd=%hhd hu=%hu ld=%ld lld=%lld "
	"zu=%zu w=[%5d|%-5d|%05d|%+d|% d|%#x|%#o|%8.3d] f=%f .2f=%.2f "
	"e=%e g=%g a=%a E=%E G=%G F=%F c=%c lc=%lc s=%s .3s=%.3s "
	"ws=[%8s|%-8s] p=%p nil=%p n=%n%% star=[%*d|%-*d|%.*f|%*.*f|%.*s] "
	"bad=%y end%";

static const char all_want[] =
	"d=-42 i=7 u=4000000000 o=10 x=beef X=BEEF hhd=-1 hu=9029 "
	"ld=-5000000000 lld=123456789012345 zu=99 "
	"w=[   42|42   |00042|+42| 42|0xff|010|     042] f=3.141590 "
	".2f=2.67 e=1.234568e+04 g=0.0001234 a=0x1p+0 E=1.000000E-10 "
	"G=1E+20 F=-0.500000 c=A lc=\xe2\x82\xac s=hello .3s=abc "
	"ws=[      ab|ab      ] p=0x1234 nil=(nil) n=% "
	"star=[    42|7   |1.500|2.2     |xy] bad=%y end%";

/* the arguments of all_fmt, P64 (long, size_t, pointers: 8 bytes) */
static void all_args(struct systenc *p)
{
	systenc_le(p, (uint32_t)-42, 4);
	systenc_le(p, 7, 4);
	systenc_le(p, 4000000000u, 4);
	systenc_le(p, 8, 4);
	systenc_le(p, 0xbeef, 4);
	systenc_le(p, 0xbeef, 4);
	systenc_le(p, 0x1ff, 4);
	systenc_le(p, 0x12345, 4);
	systenc_le(p, (uint64_t)-5000000000ll, 8);
	systenc_le(p, 123456789012345ull, 8);
	systenc_le(p, 99, 8);
	systenc_le(p, 42, 4);
	systenc_le(p, 42, 4);
	systenc_le(p, 42, 4);
	systenc_le(p, 42, 4);
	systenc_le(p, 42, 4);
	systenc_le(p, 255, 4);
	systenc_le(p, 8, 4);
	systenc_le(p, 42, 4);
	systenc_f64(p, 3.14159);
	systenc_f64(p, 2.675);
	systenc_f64(p, 12345.678);
	systenc_f64(p, 0.0001234);
	systenc_f64(p, 1.0);
	systenc_f64(p, 1e-10);
	systenc_f64(p, 1e20);
	systenc_f64(p, -0.5);
	systenc_le(p, 'A', 4);
	systenc_le(p, 0x20ac, 4);
	systenc_put(p, "hello", 6);
	systenc_put(p, "abcdef", 7);
	systenc_put(p, "ab", 3);
	systenc_put(p, "ab", 3);
	systenc_le(p, 0x1234, 8);
	systenc_le(p, 0, 8);
	systenc_le(p, 0xdead, 8);		/* %n */
	systenc_le(p, 6, 4);			/* %*d */
	systenc_le(p, 42, 4);
	systenc_le(p, 4, 4);			/* %-*d */
	systenc_le(p, 7, 4);
	systenc_le(p, 3, 4);			/* %.*f */
	systenc_f64(p, 1.5);
	systenc_le(p, (uint32_t)-8, 4);		/* %*.*f: left, 8 wide */
	systenc_le(p, 1, 4);
	systenc_f64(p, 2.25);
	systenc_le(p, 2, 4);			/* %.*s */
	systenc_put(p, "xyz", 4);
}

struct seen {
	char text[1024];
	const char *protocol;
	char proto[64];
	unsigned int status, n;
};

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	struct seen *s = ctx;
	size_t n = m->text_len < sizeof(s->text) - 1 ? m->text_len :
		   sizeof(s->text) - 1;

	memcpy(s->text, m->text ? m->text : "", m->text ? n : 0);
	s->text[m->text ? n : 0] = 0;
	snprintf(s->proto, sizeof(s->proto), "%s",
		 m->protocol ? m->protocol : "(none)");
	s->status = m->status;
	s->n++;
}

static char *coll_xml(const char *client, const char *guid_mask,
		      const char *cat_fmt)
{
	static const char head[] =
		"<?xml version=\"1.0\"?>\n<syst:Collateral "
		"xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n";
	const char *fmt =
		"%s<syst:Client Name=\"%s\"><syst:Guids><syst:Guid "
		"ID=\"{00000000-0000-0000-0000-000000000000}\" Mask=\"%s\"/>"
		"</syst:Guids>\n<syst:Catalog32><syst:Format ID=\"0x%x\">"
		"<![CDATA[%s]]></syst:Format></syst:Catalog32>\n"
		"<syst:Short32><syst:Format ID=\"0x1000000\" "
		"Mask=\"0xffff000\"><![CDATA[short %%03x%%%%]]></syst:Format>"
		"</syst:Short32>\n<syst:Write><syst:Protocol ID=\"0x5\" "
		"Mask=\"0xff\"><![CDATA[proto-%%d/%%s]]></syst:Protocol>"
		"</syst:Write>\n</syst:Client>\n</syst:Collateral>\n";
	size_t n = strlen(head) + strlen(fmt) + strlen(client) +
		   strlen(guid_mask) + strlen(cat_fmt) + 16;
	char *x = malloc(n);

	if (x)
		snprintf(x, n, fmt, head, client, guid_mask, CAT_ID, cat_fmt);
	return x;
}

static struct mttd_coll *load(struct mttd_coll *c, const char *client,
			      const char *mask, const char *cat_fmt)
{
	char *x = coll_xml(client, mask, cat_fmt);
	char err[256];

	if (!c)
		c = mttd_coll_new();
	if (!c || !x || mttd_coll_load_mem(c, x, strlen(x), client, err,
					   sizeof(err))) {
		printf("Bail out! collateral %s: %s\n", client,
		       x && c ? err : "no memory");
		exit(1);
	}
	free(x);
	return c;
}

/* one message of header h (SEV INFO added) and payload pl decoded */
static void decode(struct mttd_syst *s, struct seen *sn, uint32_t h,
		   const struct systenc *pl)
{
	struct systenc msg;

	systenc_init(&msg);
	systenc_msg(&msg, h | SYSTENC_SEV(4), 0, pl);
	if (msg.oom) {
		printf("Bail out! no memory\n");
		exit(1);
	}
	sn->n = 0;
	mttd_syst_decode(s, NULL, msg.buf, msg.len);
	systenc_free(&msg);
}

static void catalog(struct mttd_syst *s, struct seen *sn, int all)
{
	struct systenc pl;

	systenc_init(&pl);
	systenc_le(&pl, CAT_ID, 4);
	if (all)
		all_args(&pl);
	else {
		systenc_le(&pl, 5, 4);
		systenc_put(&pl, "new", 4);
	}
	decode(s, sn, SYSTENC_TYPE(MTTD_SYST_CATALOG) | SYSTENC_LEN |
	       SYSTENC_SUB(MTTD_SYST_CATALOG_ID32_P64), &pl);
	systenc_free(&pl);
}

static int is_text(const struct seen *sn, const char *want, const char *what)
{
	int r = sn->n == 1 && !strcmp(sn->text, want);

	ok(r, "%s", what);
	if (!r)
		diag("got  \"%s\"\nwant \"%s\"", sn->text, want);
	return r;
}

static void short_and_raw(struct mttd_syst *s, struct seen *sn)
{
	struct systenc pl;
	uint8_t raw[3] = { 1, 2, 3 };

	systenc_init(&pl);
	/* value: header bits 31:4, decode()'s severity (4) the lowest */
	decode(s, sn, SYSTENC_TYPE(MTTD_SYST_SHORT32) | 0x1000ab0u << 4, &pl);
	is_text(sn, "short ab4%", "SHORT32 format: the value less its mask");
	systenc_put(&pl, raw, sizeof(raw));
	decode(s, sn, SYSTENC_TYPE(MTTD_SYST_RAW) | SYSTENC_LEN |
	       SYSTENC_SUB(5), &pl);
	ok(sn->n == 1 && !strcmp(sn->proto, "proto-5/"),
	   "RAW protocol name: a format given the id (%s)", sn->proto);
	systenc_free(&pl);
}

int main(void)
{
	static const char zero[] = "{00000000-0000-0000-0000-000000000000}";
	static const char ones[] = "{ffffffff-ffff-ffff-ffff-ffffffffffff}";
	struct seen sn = { 0 };
	struct mttd_syst_config cfg = { .fn = on_msg, .ctx = &sn };
	struct mttd_coll *c = load(NULL, "one", zero, all_fmt), *c2;
	struct mttd_syst *s, *s2;
	struct systenc pl;
	int i;

	/* the formats have their compiled form (else every check below
	 * would test the interpreter) */
	ok(mttd__coll_fmtc(mttd_coll_find(c, 0, MTTD_COLL_CATALOG32,
					  CAT_ID)) &&
	   mttd__coll_fmtc(mttd_coll_find(c, 0, MTTD_COLL_SHORT32,
					  0x1000000)) &&
	   mttd__coll_fmtc(mttd_coll_find(c, 0, MTTD_COLL_PROTOCOL, 5)),
	   "catalog, short and protocol formats compiled when loaded");
	cfg.coll = c;
	s = mttd_syst_new(&cfg);
	if (!s) {
		printf("Bail out! mttd_syst_new\n");
		return 1;
	}
	for (i = 0; i < 2; i++) {
		catalog(s, &sn, 1);
		is_text(&sn, all_want, i ? "every conversion kind, again "
			"(the compiled format used again)" :
			"every conversion kind from the compiled format");
		ok(sn.status == MTTD_SYST_OK, "status OK (%u)", sn.status);
	}

	/* the same format, interpreted: a PRINTF_64 message */
	systenc_init(&pl);
	systenc_put(&pl, all_fmt, sizeof(all_fmt));
	all_args(&pl);
	decode(s, &sn, SYSTENC_TYPE(MTTD_SYST_STRING) | SYSTENC_LEN |
	       SYSTENC_SUB(MTTD_SYST_STRING_PRINTF_64), &pl);
	systenc_free(&pl);
	is_text(&sn, all_want, "the same format as PRINTF (interpreted): "
		"the same text");

	/* an argument missing: "<?>" and TOO_SHORT, as interpreted */
	systenc_init(&pl);
	systenc_le(&pl, CAT_ID, 4);
	systenc_le(&pl, (uint32_t)-42, 4);
	decode(s, &sn, SYSTENC_TYPE(MTTD_SYST_CATALOG) | SYSTENC_LEN |
	       SYSTENC_SUB(MTTD_SYST_CATALOG_ID32_P64), &pl);
	systenc_free(&pl);
	ok(sn.status == MTTD_SYST_TOO_SHORT && !strncmp(sn.text,
	   "d=-42 i=<?> u=<?>", 17), "arguments cut short: <?>, TOO_SHORT");

	short_and_raw(s, &sn);

	/* the entry changed: another collateral, the same id */
	c2 = load(NULL, "two", zero, "changed %d %s");
	cfg.coll = c2;
	s2 = mttd_syst_new(&cfg);
	catalog(s2, &sn, 0);
	is_text(&sn, "changed 5 new", "the entry changed: its new format");
	mttd_syst_free(s2);
	mttd_syst_free(s);
	mttd_coll_free(c2);

	/* the first decoder's collateral again: its own format still */
	cfg.coll = c;
	s = mttd_syst_new(&cfg);
	catalog(s, &sn, 1);
	is_text(&sn, all_want, "the first collateral again: its format");
	mttd_syst_free(s);

	/* a more specific client loaded into the same collateral (the
	 * entries sorted again, moved in memory): its format now */
	load(c, "three", ones, "three [%5s|%x]");
	s = mttd_syst_new(&cfg);
	catalog(s, &sn, 0);
	/* %5s of 05 00, %x of 00 00 'n' 'e' */
	is_text(&sn, "three [    \5|656e0000]",
		"another collateral loaded: the new client's format");
	catalog(s, &sn, 0);
	is_text(&sn, "three [    \5|656e0000]", "the same, again");
	short_and_raw(s, &sn);
	mttd_syst_free(s);
	mttd_coll_free(c);
	return done_testing();
}
