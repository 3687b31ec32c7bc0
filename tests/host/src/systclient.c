// SPDX-License-Identifier: GPL-2.0
/*
 * systclient.c - a SyS-T message gets the collateral client of its GUID
 * however many sources a trace interleaves and in whatever order they
 * come (the decoder keeps the clients it chose by GUID): 100 GUIDs, 90
 * of them with a client of their own and 10 left to a catch-all client
 * (a Guid with an all-zero Mask), and messages without a GUID, keyed by
 * their master and channel, in several orders, one GUID alternating
 * with another, each message's client and collateral checked.  Messages
 * from the spec-written encoder (tests/host/enc/systenc.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/collateral.h"
#include "mttdecode/syst.h"
#include "systenc.h"
#include "tap.h"

#define NGUID	100u
#define NOWN	90u	/* GUIDs 0..NOWN-1 have a client of their own */

struct seen {
	const char *client;
	const char *collateral;
	unsigned int n;
};

static void on_msg(void *ctx, const struct mttd_syst_msg *m)
{
	struct seen *s = ctx;

	s->client = m->client;
	s->collateral = m->collateral;
	s->n++;
}

/* all 16 bytes k: the same in any byte order */
static void guid_str(char *b, size_t n, unsigned int k)
{
	snprintf(b, n, "{%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x}", k, k, k, k, k, k, k, k, k, k, k,
		 k, k, k, k, k);
}

static char *collateral(void)
{
	struct systenc x;
	char b[160];
	unsigned int k;

	systenc_init(&x);
#define PUT(s) systenc_put(&x, s, strlen(s))
	PUT("<?xml version=\"1.0\"?>\n<syst:Collateral "
	    "xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n");
	for (k = 0; k < NOWN; k++) {
		char g[48];

		guid_str(g, sizeof(g), k);
		snprintf(b, sizeof(b), "<syst:Client Name=\"c%u\"><syst:Guids>"
			 "<syst:Guid ID=\"%s\"/></syst:Guids></syst:Client>\n",
			 k, g);
		PUT(b);
	}
	/* master 1, channel 2, origin 0 as a GUID (mttd_syst_pseudo_guid) */
	PUT("<syst:Client Name=\"m1c2\"><syst:Guids><syst:Guid "
	    "ID=\"{00000000-0001-0002-0000-000000000000}\"/></syst:Guids>"
	    "</syst:Client>\n");
	PUT("<syst:Client Name=\"any\"><syst:Guids><syst:Guid "
	    "ID=\"{00000000-0000-0000-0000-000000000000}\" "
	    "Mask=\"{00000000-0000-0000-0000-000000000000}\"/></syst:Guids>"
	    "</syst:Client>\n</syst:Collateral>\n");
#undef PUT
	systenc_put(&x, "", 1);
	return x.oom ? NULL : (char *)x.buf;
}

/*
 * Message k (k < NGUID: STRING with GUID k; NGUID + c: without a GUID,
 * master 1, channel c) decoded: 1 if it got the client it should have.
 */
static int check(struct mttd_syst *s, struct seen *sn, unsigned int k)
{
	struct mttd_syst_src src = { .master = 1, .flags = MTTD_SYST_F_STP };
	struct systenc pl, msg;
	char want[16];
	uint32_t h = 0x01000042;	/* STRING:GENERIC, INFO */
	int r;

	systenc_init(&pl);
	systenc_init(&msg);
	if (k < NGUID) {
		uint8_t g[16];

		memset(g, (int)k, 16);
		systenc_put(&pl, g, 16);
		h |= 1u << 23;		/* the GUID follows the header */
		snprintf(want, sizeof(want), k < NOWN ? "c%u" : "any", k);
	} else {
		src.channel = (uint16_t)(k - NGUID);
		snprintf(want, sizeof(want), "%s",
			 k == NGUID + 2 ? "m1c2" : "any");
	}
	systenc_put(&pl, "text", 4);
	systenc_msg(&msg, h, 0, &pl);
	sn->client = NULL;
	sn->n = 0;
	mttd_syst_decode(s, &src, msg.buf, msg.len);
	r = !msg.oom && sn->n == 1 && sn->client &&
	    !strcmp(sn->client, want) && sn->collateral &&
	    !strcmp(sn->collateral, "clients.xml");
	if (!r)
		diag("message %u: client %s, want %s", k,
		     sn->client ? sn->client : "(none)", want);
	systenc_free(&pl);
	systenc_free(&msg);
	return r;
}

int main(void)
{
	struct seen sn = { 0 };
	struct mttd_syst_config cfg = { .fn = on_msg, .ctx = &sn };
	struct mttd_coll *c = mttd_coll_new();
	char *xml = collateral();
	char err[256];
	struct mttd_syst *s;
	unsigned int i, bad;

	if (!c || !xml || mttd_coll_load_mem(c, xml, strlen(xml),
					     "clients.xml", err,
					     sizeof(err))) {
		printf("Bail out! collateral: %s\n", xml ? err : "no memory");
		return 1;
	}
	cfg.coll = c;
	s = mttd_syst_new(&cfg);
	if (!s) {
		printf("Bail out! mttd_syst_new\n");
		return 1;
	}
	for (bad = 0, i = 0; i < NGUID + 4; i++)
		bad += !check(s, &sn, i);
	ok(!bad, "every GUID and channel once, in order: its client");
	for (bad = 0, i = NGUID + 4; i--;)
		bad += !check(s, &sn, i);
	ok(!bad, "again in reverse order");
	for (bad = 0, i = 0; i < 3 * (NGUID + 4); i++)
		bad += !check(s, &sn, (i * 37) % (NGUID + 4));
	ok(!bad, "three times in a stride of 37");
	for (bad = 0, i = 0; i < 200; i++)
		bad += !check(s, &sn, i & 1 ? NGUID + 2 : (i / 2) % NGUID);
	ok(!bad, "master 1 channel 2 between every other GUID");
	for (bad = 0, i = 0; i < 64; i++)
		bad += !check(s, &sn, i % 3 == 0 ? 5 : i % 3 == 1 ? 95 : 40);
	ok(!bad, "three GUIDs in turn");
	mttd_syst_free(s);
	mttd_coll_free(c);
	free(xml);
	return done_testing();
}
