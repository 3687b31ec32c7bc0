// SPDX-License-Identifier: GPL-2.0
/*
 * msgtest.c - message reassembly and loss reporting.  Most cases push
 * hand-made decoder events straight into the message layer; the last
 * ones decode hand-derived STPv2 bytes end to end.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"

#define PKT MTTD_EV_PACKET

/* a data event: op, master, channel, value, flags; nibbles from op */
static struct mttd_stp_event dat(unsigned int op, unsigned int m,
				 unsigned int c, uint64_t v, uint64_t ts,
				 uint64_t byte)
{
	static const struct { unsigned int op, nib, fl; } t[] = {
		{ MTTD_OP_D8, 2, 0 }, { MTTD_OP_D16, 4, 0 },
		{ MTTD_OP_D32, 8, 0 }, { MTTD_OP_D64, 16, 0 },
		{ MTTD_OP_D4, 1, 0 }, { MTTD_OP_D8M, 2, MTTD_PKT_MARKED },
		{ MTTD_OP_D32M, 8, MTTD_PKT_MARKED },
		{ MTTD_OP_D8TS, 2, MTTD_PKT_TS }, { MTTD_OP_D32TS, 8, MTTD_PKT_TS },
		{ MTTD_OP_D64TS, 16, MTTD_PKT_TS },
		{ MTTD_OP_D8MTS, 2, MTTD_PKT_TS | MTTD_PKT_MARKED },
		{ MTTD_OP_D32MTS, 8, MTTD_PKT_TS | MTTD_PKT_MARKED },
	};
	struct mttd_stp_event e = {
		.nib = byte * 2, .value = v, .ts = ts, .master = (uint16_t)m,
		.channel = (uint16_t)c, .type = PKT, .op = (uint8_t)op,
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].op == op) {
			e.nibbles = (uint8_t)t[i].nib;
			e.flags = (uint8_t)(t[i].fl | MTTD_PKT_DATA);
		}
	return e;
}

static struct mttd_stp_event pkt(unsigned int op, unsigned int m,
				 unsigned int c, uint64_t v, uint64_t byte)
{
	struct mttd_stp_event e = {
		.nib = byte * 2, .value = v, .master = (uint16_t)m,
		.channel = (uint16_t)c, .type = PKT, .op = (uint8_t)op,
		.nibbles = 2,
	};

	return e;
}

static struct mttd_stp_event other(unsigned int type, unsigned int code,
				   uint64_t v, uint64_t byte)
{
	struct mttd_stp_event e = {
		.nib = byte * 2, .value = v, .type = (uint8_t)type,
		.op = (uint8_t)code,
	};

	return e;
}

static struct mttd_stp_event chan(struct mttd_stp_event e, unsigned int m,
				  unsigned int c)
{
	e.master = (uint16_t)m;
	e.channel = (uint16_t)c;
	return e;
}

static void check(const char *name, const struct mttd_stp_event *ev,
		  size_t n, const char *want, size_t max_len,
		  unsigned int max_open)
{
	struct strbuf out = { 0 };
	struct mttd_msg_config cfg = { .max_len = max_len,
				       .max_open = max_open };
	struct mttd_msgdec *m = mttd_msg_new(&cfg);
	struct mttd_msg_sink s = { tu_on_msg, tu_on_mev, &out };
	struct mttd_stp_event end = other(MTTD_EV_END, 0, 0, 999);

	sb_printf(&out, "%s", "");
	mttd_msg_add_sink(m, &s);
	mttd_msg_push(m, ev, n);
	mttd_msg_push(m, &end, 1);
	is_str(out.s, want, name);
	mttd_msg_free(m);
	sb_free(&out);
}

#define CHECK(name, want, ...) do { \
	const struct mttd_stp_event ev_[] = { __VA_ARGS__ }; \
	check(name, ev_, sizeof(ev_) / sizeof(ev_[0]), want, 0, 0); \
} while (0)

static void rules(void)
{
	CHECK("DnTS ... DnM makes one message, bytes little-endian",
	      "MSG m7 c3 ts=123 \"68656c6c6f\" complete end=0\n",
	      dat(MTTD_OP_D32TS, 7, 3, 0x6c6c6568, 123, 10),
	      dat(MTTD_OP_D8M, 7, 3, 0x6f, 0, 16));
	CHECK("D32 value 0x21542d53 gives bytes 53 2d 54 21",
	      "MSG m0 c0 ts=- \"532d5421\" complete end=1\n",
	      dat(MTTD_OP_D32, 0, 0, 0x21542d53, 0, 10),
	      pkt(MTTD_OP_FLAG, 0, 0, 0, 15));
	CHECK("a single DnMTS is a message",
	      "MSG m1 c2 ts=9 \"41\" complete end=0\n",
	      dat(MTTD_OP_D8MTS, 1, 2, 0x41, 9, 10));
	CHECK("message without a timestamp, D64 and D4",
	      "MSG m1 c2 ts=- \"0807060504030201050a\" complete end=0\n",
	      dat(MTTD_OP_D64, 1, 2, 0x0102030405060708ULL, 0, 10),
	      dat(MTTD_OP_D4, 1, 2, 5, 0, 19),
	      dat(MTTD_OP_D8M, 1, 2, 0x0a, 0, 20));
	CHECK("FLAG_TS ends it too; a lone FLAG is ignored",
	      "MSG m1 c2 ts=5 \"01\" complete end=1\n",
	      pkt(MTTD_OP_FLAG, 1, 2, 0, 5),
	      dat(MTTD_OP_D8TS, 1, 2, 1, 5, 10),
	      pkt(MTTD_OP_FLAG_TS, 1, 2, 0, 12),
	      pkt(MTTD_OP_FLAG, 1, 2, 0, 13));
	CHECK("channels are reassembled separately",
	      "MSG m1 c1 ts=1 \"1112\" complete end=0\n"
	      "MSG m1 c2 ts=2 \"2122\" complete end=1\n",
	      dat(MTTD_OP_D8TS, 1, 1, 0x11, 1, 10),
	      dat(MTTD_OP_D8TS, 1, 2, 0x21, 2, 12),
	      dat(MTTD_OP_D8M, 1, 1, 0x12, 0, 14),
	      dat(MTTD_OP_D8, 1, 2, 0x22, 0, 16),
	      pkt(MTTD_OP_FLAG, 1, 2, 0, 18));
	CHECK("same channel number on another master is another channel",
	      "MSG m2 c1 ts=- \"22\" complete end=0\n"
	      "MSG m1 c1 ts=- \"11\" incomplete end=5\n",
	      dat(MTTD_OP_D8, 1, 1, 0x11, 0, 10),
	      dat(MTTD_OP_D8M, 2, 1, 0x22, 0, 12));
	CHECK("a new DnTS ends the open message as incomplete",
	      "MSG m1 c1 ts=1 \"0102\" incomplete end=2\n"
	      "MSG m1 c1 ts=2 \"03\" complete end=1\n",
	      dat(MTTD_OP_D8TS, 1, 1, 1, 1, 10),
	      dat(MTTD_OP_D8, 1, 1, 2, 0, 12),
	      dat(MTTD_OP_D8TS, 1, 1, 3, 2, 14),
	      pkt(MTTD_OP_FLAG, 1, 1, 0, 16));
	CHECK("GERR ends every open message and reports the count",
	      "MSG m1 c1 ts=- \"01\" incomplete end=3\n"
	      "MSG m2 c1 ts=- \"02\" incomplete end=3\n"
	      "LOSS gerr@20 m2 c1 n=255\n"
	      "MSG m0 c0 ts=- \"03\" complete end=0\n",
	      dat(MTTD_OP_D8, 1, 1, 1, 0, 10),
	      dat(MTTD_OP_D8, 2, 1, 2, 0, 12),
	      pkt(MTTD_OP_GERR, 2, 1, 0xff, 20),
	      dat(MTTD_OP_D8M, 0, 0, 3, 0, 22));
	CHECK("MERR ends only that master's messages",
	      "MSG m2 c1 ts=- \"02\" incomplete end=3\n"
	      "MSG m2 c5 ts=- \"05\" incomplete end=3\n"
	      "LOSS merr@20 m2 c5 n=7\n"
	      "MSG m1 c1 ts=- \"0111\" complete end=0\n",
	      dat(MTTD_OP_D8, 1, 1, 1, 0, 10),
	      dat(MTTD_OP_D8, 2, 1, 2, 0, 12),
	      dat(MTTD_OP_D8, 2, 5, 5, 0, 14),
	      pkt(MTTD_OP_MERR, 2, 5, 7, 20),
	      dat(MTTD_OP_D8M, 1, 1, 0x11, 0, 22));
	CHECK("desync ends messages; the loss is reported at the resync",
	      "MSG m1 c1 ts=- \"01\" incomplete end=3\n"
	      "LOSS desync@12 m1 c1 n=40\n"
	      "MSG m0 c0 ts=- \"02\" complete end=0\n",
	      dat(MTTD_OP_D8, 1, 1, 1, 0, 10),
	      chan(other(MTTD_EV_DESYNC, MTTD_ERR_RESERVED_OP, 0, 12), 1, 1),
	      pkt(MTTD_OP_ASYNC, 0, 0, 40, 52),
	      dat(MTTD_OP_D8M, 0, 0, 2, 0, 70));
	CHECK("desync never resynced: loss at the end",
	      "MSG m1 c1 ts=- \"01\" incomplete end=3\n"
	      "LOSS desync@12 m0 c0 n=33\n",
	      dat(MTTD_OP_D8, 1, 1, 1, 0, 10),
	      other(MTTD_EV_DESYNC, MTTD_ERR_TS_LEN, 0, 12),
	      other(MTTD_EV_END, 0, 33, 45));
	CHECK("a stream cut inside a packet",
	      "MSG m1 c1 ts=- \"01\" incomplete end=3\n"
	      "LOSS truncated@12 m0 c0 n=2\n",
	      dat(MTTD_OP_D8, 1, 1, 1, 0, 10),
	      other(MTTD_EV_TRUNCATED, 0, 3, 12));
	CHECK("open messages at the end are incomplete",
	      "MSG m1 c1 ts=4 \"01\" incomplete end=5\n",
	      dat(MTTD_OP_D8TS, 1, 1, 1, 4, 10));
}

static void limits(void)
{
	struct mttd_stp_event ev[40];
	size_t i;

	for (i = 0; i < 5; i++)
		ev[i] = dat(MTTD_OP_D32, 1, 1, 0x04030201, 0, 10 + i * 5);
	ev[5] = dat(MTTD_OP_D8M, 1, 1, 0xff, 0, 40);
	check("longer than max_len: cut and flagged", ev, 6,
	      "MSG m1 c1 ts=- \"01020304010203040102030401020304\" "
	      "complete trunc end=0\n", 16, 0);

	for (i = 0; i < 3; i++)
		ev[i] = dat(MTTD_OP_D8, 1, (unsigned int)i, i, 0, 10 + i);
	ev[3] = pkt(MTTD_OP_FLAG, 1, 1, 0, 20);
	ev[4] = pkt(MTTD_OP_FLAG, 1, 2, 0, 21);
	check("more than max_open: the oldest is evicted", ev, 5,
	      "MSG m1 c0 ts=- \"00\" incomplete end=4\n"
	      "MSG m1 c1 ts=- \"01\" complete end=1\n"
	      "MSG m1 c2 ts=- \"02\" complete end=1\n", 0, 2);

	{
		struct mttd_msg_config bad1 = { .max_len = 8 };
		struct mttd_msg_config bad2 = { .max_open = 70000 };
		struct mttd_msgdec *m = mttd_msg_new(NULL);
		struct mttd_msg_sink s = { 0 };
		int r = 0;

		ok(mttd_msg_new(&bad1) == NULL && mttd_msg_new(&bad2) == NULL,
		   "bad limits are refused");
		for (i = 0; i < MTTD_MSG_SINKS_MAX; i++)
			r |= mttd_msg_add_sink(m, &s);
		ok(r == 0 && mttd_msg_add_sink(m, &s) == -1,
		   "at most MTTD_MSG_SINKS_MAX sinks");
		mttd_msg_free(m);
	}
}

/* the spec's nibble order: first nibble in bits [3:0] */
static void put_nib(uint8_t *buf, size_t *nib, unsigned int v)
{
	v &= 0xf;
	if (*nib & 1)
		buf[*nib / 2] |= (uint8_t)(v << 4);
	else
		buf[*nib / 2] = (uint8_t)v;
	(*nib)++;
}

/* a 64 KiB message through the whole stack, 1 byte at a time too */
static void big(void)
{
	/* P, M8 07, C8 03, D64TS (first 8 bytes) ts L=1, D64 x 8190,
	 * D64M: nibbles built here the way the spec says (MSB first) */
	static uint8_t buf[80000];
	size_t nib = 0, i, k;
	struct decode_opts o = { .messages = 1 };
	struct strbuf a, b;
	const char *pre = "ffffffffffffffffffff0f0f30";

#define NIB(x) put_nib(buf, &nib, (x))
	for (i = 0; pre[i]; i += 2) {
		unsigned int v;

		sscanf(pre + i, "%2x", &v);
		NIB(v & 0xf);
		NIB(v >> 4);
	}
	NIB(1); NIB(0); NIB(7); NIB(3); NIB(0); NIB(3);
	for (k = 0; k < 8192; k++) {
		/* bytes 8k .. 8k+7 are (8k + j) & 0xff, little-endian */
		uint64_t v = 0;
		int j;

		for (j = 7; j >= 0; j--)
			v = v << 8 | ((8 * k + (size_t)j) & 0xff);
		if (k == 0) {
			NIB(0xf); NIB(7);
		} else if (k == 8191) {
			NIB(0xf); NIB(0xb);
		} else {
			NIB(7);
		}
		for (j = 15; j >= 0; j--)
			NIB((unsigned int)(v >> (4 * j)));
		if (k == 0) {
			NIB(1); NIB(9);
		}
	}
	a = decode(buf, (nib + 1) / 2, &o);
	o.chunk = 1;
	b = decode(buf, (nib + 1) / 2, &o);
	ok(strstr(a.s, "MSG m7 c3 ts=9 \"000102030405060708090a0b") &&
	   strstr(a.s, "fafbfcfdfeff\" complete end=0\n") &&
	   !strstr(a.s, "trunc"), "a 64 KiB message arrives whole");
	ok(!strcmp(a.s, b.s), "... and the same one byte at a time");
	sb_free(&a);
	sb_free(&b);
}

static void bytes(void)
{
	struct decode_opts o = { .messages = 1 };
	struct strbuf s;
	uint8_t *b;
	size_t n;

	/* P | 1 0 7 | 3 0 3 | F 6 6c6c6568 1 5 | F 8 6 f */
	n = hex("ff ff ff ff ff ff ff ff ff ff 0f 0f 30 "
		"01 37 30 6f c6 c6 56 86 51 8f f6", &b);
	s = decode(b, n, &o);
	ok(strstr(s.s, "MSG m7 c3 ts=5 \"68656c6c6f\" complete end=0\n") != NULL,
	   "\"hello\" decoded end to end");
	sb_free(&s);

	/* P | 1 0 7 | 3 0 3 | F 6 6c6c6568 1 5 | F 2 0 3 | (end) */
	n = hex("ff ff ff ff ff ff ff ff ff ff 0f 0f 30 "
		"01 37 30 6f c6 c6 56 86 51 2f 30", &b);
	s = decode(b, n, &o);
	ok(strstr(s.s, "MSG m7 c3 ts=5 \"68656c6c\" incomplete end=3\n"
		  "LOSS gerr@22 m7 c3 n=3\n") != NULL,
	   "GERR from the wire cuts the message and reports 3 lost");
	sb_free(&s);
}

int main(void)
{
	rules();
	limits();
	big();
	bytes();
	return done_testing();
}
