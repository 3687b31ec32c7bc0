// SPDX-License-Identifier: GPL-2.0
/*
 * mttfwtest.c - libmttfw (tools/lib/mttfw) built for the host, writing to
 * a memory sink: every frame decodes with libmttdecode to exactly what was
 * traced (ids, levels, type_info, values, hints, META names, TS64); a
 * filtered-out call (component filter, core filter) writes nothing; the
 * command frames of <linux/mtt_frame.h>, written here from the
 * documentation's layout, set and read filters with the replies it gives;
 * the crc16 option puts the specification's CRC word on every frame (or
 * on none), which libmttdecode checks;
 * the RISC-V encapsulation writer gives the specification's byte-exact
 * vectors (flow 0) and, for several widths, a stream from which the
 * libmttdecode RISC-V decoder gets the frames back per srcID.
 */
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"
#include "mttdecode/mttframe.h"
#include "mttfw/mttfw.h"
#include "mttfw/rvencap.h"
#include "wire/crc.h"
#include "tap.h"

struct mttfw mttfw_default;	/* the instance the <linux/mtt.h> calls use */

struct sink {
	uint8_t buf[8192];
	size_t len;
	unsigned int calls;
};

static void sink_put(void *ctx, const uint8_t *p, size_t n)
{
	struct sink *s = ctx;

	if (s->len + n <= sizeof(s->buf))
		memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->calls++;
}

static uint64_t clock_ns(void *ctx)
{
	uint64_t *t = ctx;

	return *t += 1000;
}

/* the frames of s, parsed in order into f[]: their count */
static size_t frames(const struct sink *s, struct mttd_mtt_frame *f,
		     size_t max)
{
	size_t off = 0, n = 0;

	while (off < s->len && n < max) {
		long r = mttd_mtt_parse(s->buf + off, s->len - off, &f[n]);

		if (r <= 0)
			return (size_t)-1;
		off += (size_t)r;
		n++;
	}
	return n;
}

static void le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A command frame from Documentation/mtt.rst: 20 or 24 bytes. */
static size_t command(uint8_t *b, uint32_t target, uint32_t cmd,
		      uint32_t comp, uint32_t seq, int has_arg, uint32_t arg)
{
	le32(b, 0xeee01000u | target);
	le32(b + 4, cmd);
	le32(b + 8, comp);
	le32(b + 12, seq);
	le32(b + 16, has_arg ? 0x05000004u : 0);
	if (!has_arg)
		return 20;
	le32(b + 20, arg);
	return 24;
}

static uint32_t u32_of(const struct mttd_mtt_frame *f)
{
	return f->payload_len == 4 ? (uint32_t)f->payload[0] |
	       (uint32_t)f->payload[1] << 8 | (uint32_t)f->payload[2] << 16 |
	       (uint32_t)f->payload[3] << 24 : 0xdeadbeefu;
}

static void api(void)
{
	struct sink s = { .len = 0 };
	uint64_t t = 0;
	struct mttfw_comp comps[3];
	struct mttfw_config cfg = {
		.target = 0x50, .out = { sink_put, &s }, .now_ns = clock_ns,
		.now_ctx = &t, .comps = comps, .ncomps = 3,
	};
	struct mttd_mtt_frame f[16];
	mtt_comp_handle_t a = NULL, b = NULL, c = NULL, d = NULL, bad = NULL;
	uint32_t v = 0x12345678u, prev = 0;
	int16_t vec[3] = { 1, -2, 3 };
	char buf[64];
	size_t n;

	mttfw_init(&mttfw_default, &cfg);
	ok(mtt_open(MTT_COMPONENTID_ANY, "alpha", &a) == MTT_ERR_NONE &&
	   mtt_open(7, "beta", &b) == MTT_ERR_NONE &&
	   mtt_open(MTT_COMPONENTID_ANY, "alpha", &c) == MTT_ERR_NONE &&
	   c == a, "open: new ids, the same name shares the component");
	ok(mtt_open(8, "beta", &bad) == MTT_ERR_PARAM && !(bad->active),
	   "open: a name of another id is refused, the handle traces nothing");
	ok(mtt_open(MTT_COMPONENTID_ANY, "gamma", &d) == MTT_ERR_NONE &&
	   mtt_open(MTT_COMPONENTID_ANY, "delta", &bad) == MTT_ERR_OTHER &&
	   !bad->active, "open: a full table is refused");
	n = frames(&s, f, 16);
	ok(n == 3 && f[0].cmd == MTT_FRAME_CMD_META && f[0].comp == 1 &&
	   f[0].payload_len == 5 && !memcmp(f[0].payload, "alpha", 5) &&
	   f[1].comp == 7 && !memcmp(f[1].payload, "beta", 4) &&
	   f[2].comp == 2 && f[0].target == 0x50,
	   "a META frame names each new component (%zu frames)", n);

	s.len = 0;
	mtt_trace(a, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, "signal0");
	mtt_trace(b, MTT_LEVEL_DEBUG, MTT_TRACEVECTOR_INT16(3), vec, NULL);
	mtt_trace(a, MTT_LEVEL_USER3, MTT_TRACEITEM_PTR32, &v,
		  "a_hint_longer_than_12");
	mtt_print(b, MTT_LEVEL_API_RETURN, "x=%d u=%u h=%08x s=%s c=%c %%",
		  -42, 7u, 0xbeefu, "str", 'Z');
	n = frames(&s, f, 16);
	ok(n == 4, "four traces, four frames (%zu)", n);
	ok(f[0].cmd == MTT_FRAME_CMD_TRACE && f[0].comp == 1 &&
	   f[0].level == MTT_LEVEL_INFO &&
	   f[0].type_info == MTT_TRACEITEM_UINT32 && u32_of(&f[0]) == v &&
	   !strcmp(f[0].hint, "signal0") && f[0].target == 0x50 &&
	   (f[0].flags & MTT_FRAME_F_TS64) && f[0].ts == 4000 &&
	   f[0].trace_id != 0, "uint32 with a hint: every field");
	ok(f[1].comp == 7 && f[1].level == MTT_LEVEL_DEBUG &&
	   f[1].payload_len == 6 && !memcmp(f[1].payload, vec, 6) &&
	   !(f[1].flags & MTT_FRAME_F_HINT) && f[1].ts == 5000,
	   "vector of int16, no hint");
	mttd_mtt_value(&f[2], buf, sizeof(buf));
	ok(!strcmp(f[2].hint, "a_hint_longe") && !strcmp(buf, "0x12345678") &&
	   f[2].level == MTT_LEVEL_USER3, "hint cut to 12 bytes; PTR32 (%s)",
	   buf);
	mttd_mtt_value(&f[3], buf, sizeof(buf));
	is_str(buf, "\"x=-42 u=7 h=0000beef s=str c=Z %\"",
	       "mtt_print formats");

	/* filters: a filtered-out call writes nothing, not even a byte */
	s.len = 0;
	s.calls = 0;
	ok(mtt_set_component_filter(a, MTT_LEVEL_ERROR | MTT_LEVEL_INFO,
				    &prev) == MTT_ERR_NONE &&
	   prev == MTT_LEVEL_ALL, "component filter set, previous ALL");
	mtt_trace(a, MTT_LEVEL_DEBUG, MTT_TRACEITEM_UINT32, &v, "x");
	mtt_print(a, MTT_LEVEL_WARNING, "%d", (int)(v = 99));
	ok(s.calls == 0 && s.len == 0 && v == 0x12345678u,
	   "filtered out: no output, the arguments of mtt_print not evaluated");
	mtt_trace(a, MTT_LEVEL_ERROR, MTT_TRACEITEM_UINT32, &v, "x");
	ok(s.calls == 1, "a level of the filter passes");
	mtt_set_core_filter(~MTT_LEVEL_ERROR, &prev);
	mtt_trace(a, MTT_LEVEL_ERROR, MTT_TRACEITEM_UINT32, &v, "x");
	mtt_trace(b, MTT_LEVEL_ERROR, MTT_TRACEITEM_UINT32, &v, "x");
	mtt_trace(b, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, "x");
	ok(s.calls == 2 && prev == MTT_LEVEL_ALL,
	   "core filter ANDed with every component's");
	mtt_set_core_filter(MTT_LEVEL_ALL, NULL);
	ok(mttfw_trace_out(a, MTT_LEVEL_ERROR,
			   MTT_TRACEVECTOR_UINT8(MTTFW_MAX_PAYLOAD + 1), buf,
			   NULL) == MTT_ERR_PARAM && s.calls == 2,
	   "a payload over MTTFW_MAX_PAYLOAD is refused, nothing written");
	ok(mtt_close(c) == MTT_ERR_NONE && a->active &&
	   mtt_close(a) == MTT_ERR_NONE && !a->active,
	   "the last close ends the component");
	mtt_trace(a, MTT_LEVEL_ERROR, MTT_TRACEITEM_UINT32, &v, "x");
	ok(s.calls == 2, "a closed component traces nothing");
}

static void commands(void)
{
	struct sink s = { .len = 0 };
	struct mttfw_comp comps[2];
	struct mttfw m;
	struct mttfw_config cfg = {
		.target = 0x50, .out = { sink_put, &s }, .comps = comps,
		.ncomps = 2,
	};
	struct mttd_mtt_frame f[16];
	mtt_comp_handle_t a;
	uint8_t in[256];
	size_t len = 0, n, i;
	unsigned int r = 0;
	uint32_t v = 1;

	mttfw_init(&m, &cfg);
	mttfw_open(&m, (uint32_t)MTT_COMP_ID_ANY, "alpha", &a);
	s.len = 0;
	in[len++] = 0x55;	/* noise before the first sync word */
	in[len++] = 0xee;
	len += command(in + len, 0x50, MTT_FRAME_CMD_SET_COMP_FILTER, 1, 11,
		       1, MTT_LEVEL_ERROR);
	len += command(in + len, 0xff, MTT_FRAME_CMD_SET_CORE_FILTER,
		       MTT_FRAME_CMD_ANY_COMP, 12, 1, ~MTT_LEVEL_DEBUG);
	len += command(in + len, 0x51, MTT_FRAME_CMD_SET_CORE_FILTER, 0, 13,
		       1, 0);	/* another target's: ignored */
	len += command(in + len, 0x50, MTT_FRAME_CMD_GET_COMP_FILTER, 1, 14,
		       0, 0);
	len += command(in + len, 0x50, MTT_FRAME_CMD_SET_COMP_FILTER, 9, 15,
		       1, 0);
	len += command(in + len, 0x50, 0x00770000u << 8, 0, 16, 0, 0);
	len += command(in + len, 0x50, MTT_FRAME_CMD_START, 0, 17, 0, 0);
	/* one byte at a time, as from a UART */
	for (i = 0; i < len; i++)
		r |= mttfw_rx(&m, in + i, 1);
	ok(r == (MTTFW_RX_COMMAND | MTTFW_RX_START), "commands seen, START");
	n = frames(&s, f, 16);
	ok(n == 6, "six replies (the other target's command unanswered): %zu",
	   n);
	ok(f[0].cmd == MTT_FRAME_CMD_SET_COMP_FILTER &&
	   (f[0].flags & (MTT_FRAME_F_RET | MTT_FRAME_F_RETV)) ==
	   (MTT_FRAME_F_RET | MTT_FRAME_F_RETV) && f[0].trace_id == 11 &&
	   f[0].comp == 1 && u32_of(&f[0]) == MTT_LEVEL_ALL &&
	   f[0].target == 0x50, "SET_COMP_FILTER: reply, previous filter");
	ok(f[1].cmd == MTT_FRAME_CMD_SET_CORE_FILTER && f[1].trace_id == 12 &&
	   u32_of(&f[1]) == MTT_LEVEL_ALL, "SET_CORE_FILTER to any target");
	ok(f[2].cmd == MTT_FRAME_CMD_GET_COMP_FILTER && f[2].trace_id == 14 &&
	   u32_of(&f[2]) == MTT_LEVEL_ERROR, "GET_COMP_FILTER");
	ok(f[3].trace_id == 15 && (f[3].flags & MTT_FRAME_F_NACK) &&
	   u32_of(&f[3]) == MTT_ERR_PARAM, "no such component: NACK, PARAM");
	ok(f[4].trace_id == 16 && (f[4].flags & MTT_FRAME_F_NACK) &&
	   u32_of(&f[4]) == MTT_ERR_FN_UNIMPLEMENTED,
	   "an unknown command: NACK, FN_UNIMPLEMENTED");
	ok(f[5].cmd == MTT_FRAME_CMD_START && f[5].trace_id == 17 &&
	   !(f[5].flags & MTT_FRAME_F_NACK) && !f[5].payload_len,
	   "START: reply without a value");
	ok(a->active == (MTT_LEVEL_ERROR & ~MTT_LEVEL_DEBUG),
	   "the filters took effect");
	s.len = 0;
	mtt_trace(a, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, NULL);
	ok(s.len == 0, "a level the host filtered out writes nothing");
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* TIME_SYNC (Documentation/mtt.rst, "Clock exchanges"): the reply's
 * bytes checked against the layout there, on a clock that advances
 * 1000 ns a read; an instance without a clock answers NACK, as a target
 * that predates the command */
static void time_sync(void)
{
	struct sink s = { .len = 0 };
	struct mttfw m;
	uint64_t t = 5000000;
	struct mttfw_config cfg = {
		.target = 0x50, .out = { sink_put, &s }, .now_ns = clock_ns,
		.now_ctx = &t,
	};
	struct mttd_mtt_frame f[4];
	uint8_t in[64];
	const uint8_t *b;
	size_t len = 0, i;
	unsigned int r = 0;

	mttfw_init(&m, &cfg);
	s.len = 0;
	len += command(in + len, 0x50, 0x07000000u, 0xffffffffu, 0x01020304u,
		       0, 0);
	for (i = 0; i < len; i++)
		r |= mttfw_rx(&m, in + i, 1);
	b = s.buf;
	/* preamble, TS64, two u64: 20 + 8 + 16 bytes */
	ok(r == MTTFW_RX_COMMAND && s.len == 44 && frames(&s, f, 4) == 1,
	   "TIME_SYNC: one 44-byte reply");
	ok(get64(b) == 0x07003002eee01050ull,
	   "words 0, 1: target 0x50; TIME_SYNC | RET | RETV | TS64");
	ok(get64(b + 8) == 0x01020304ffffffffull &&
	   (uint32_t)get64(b + 16) == 0x07010010u,
	   "component echoed, seq echoed, type_info 0x07010010 (two u64)");
	is_u64(get64(b + 28), 5001000, "t_rx: the clock at the first byte's pass");
	is_u64(get64(b + 36), 5002000, "t_tx: read after t_rx");
	is_u64(get64(b + 20), 5003000, "the frame's own TS64: after t_tx");
	{
		struct mttd_mtt_time_sync ts = { 0 };

		ok(mttd_mtt_time_sync(&f[0], &ts) && ts.seq == 0x01020304u &&
		   ts.t_rx == 5001000 && ts.t_tx == 5002000,
		   "libmttdecode's mttd_mtt_time_sync() reads them back");
	}
	cfg.now_ns = NULL;
	mttfw_init(&m, &cfg);
	s.len = 0;
	for (i = 0; i < len; i++)
		mttfw_rx(&m, in + i, 1);
	ok(frames(&s, f, 4) == 1 && (f[0].flags & MTT_FRAME_F_NACK) &&
	   f[0].trace_id == 0x01020304u &&
	   u32_of(&f[0]) == MTT_ERR_FN_UNIMPLEMENTED,
	   "no clock: NACK, FN_UNIMPLEMENTED (what an older target answers)");
	{
		struct mttd_mtt_time_sync ts;

		ok(!mttd_mtt_time_sync(&f[0], &ts),
		   "a NACK is no exchange for mttd_mtt_time_sync()");
	}
}

/* the clock of a test that sets it per byte */
static uint64_t clock_at(void *ctx)
{
	return *(uint64_t *)ctx;
}

/* TIME_SYNC's t_rx is the first byte's time, whatever came before it:
 * bytes handed one at a time on a clock the test moves 1000 ns a byte,
 * after bytes that are no command (dropped in the hunt for a sync
 * word), a byte that looks like a sync word's start, and a frame too
 * long for a command (dropped past its sync) */
static void time_sync_first(void)
{
	static const uint8_t junk[] = { 0x00, 0x55, 0x50, 0x10, 0xe0, 0x11 };
	struct sink s = { .len = 0 };
	struct mttfw m;
	uint64_t t = 0;
	struct mttfw_config cfg = {
		.target = 0x50, .out = { sink_put, &s }, .now_ns = clock_at,
		.now_ctx = &t,
	};
	struct mttd_mtt_frame f[4];
	struct mttd_mtt_time_sync ts = { 0 };
	uint8_t in[128];
	size_t len = 0, at, i;

	mttfw_init(&m, &cfg);
	memcpy(in, junk, sizeof(junk));
	len = sizeof(junk);
	/* a sync and preamble whose type_info says a 4 KiB payload */
	len += command(in + len, 0x50, 0x07000000u, 0xffffffffu, 1, 0, 0);
	le32(in + len - 4, 0x05001000u);
	at = len;
	len += command(in + len, 0x50, 0x07000000u, 0xffffffffu, 2, 0, 0);
	for (i = 0; i < len; i++) {
		t = 1000000 + 1000 * i;
		mttfw_rx(&m, in + i, 1);
	}
	ok(frames(&s, f, 4) == 1 && mttd_mtt_time_sync(&f[0], &ts) &&
	   ts.seq == 2, "TIME_SYNC after junk and a frame too long: one reply");
	is_u64(ts.t_rx, 1000000 + 1000 * at,
	       "t_rx: the time of the command's first byte");
	is_u64(ts.t_tx, 1000000 + 1000 * (len - 1),
	       "t_tx: the time of the reply (its last byte's pass)");
}

/* CRC-16/CCITT-FALSE from its definition (polynomial 0x1021, initial
 * value 0xffff, most significant bit first, not reflected, no final
 * xor): a bit at a time, independent of any table */
static uint16_t spec_crc16(const uint8_t *p, size_t n)
{
	uint16_t c = 0xffff;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		c ^= (uint16_t)(p[i] << 8);
		for (b = 0; b < 8; b++)
			c = (uint16_t)(c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1);
	}
	return c;
}

/* every frame in s ends with the CRC word of Documentation/mtt.rst:
 * the specification's CRC of the bytes before it, then two zero bytes */
static int crc_words_good(const struct sink *s, const struct mttd_mtt_frame *f,
			  size_t n)
{
	size_t i, off = 0;

	for (i = 0; i < n; i++) {
		const uint8_t *w = s->buf + off + f[i].len - 4;
		uint16_t c = spec_crc16(s->buf + off, f[i].len - 4);

		if (!(f[i].flags & MTT_FRAME_F_CRC) || f[i].crc_ok != 1 ||
		    w[0] != (uint8_t)c || w[1] != (uint8_t)(c >> 8) || w[2] ||
		    w[3])
			return 0;
		off += f[i].len;
	}
	return off == s->len;
}

/* The crc16 option: on, every frame (trace, META, reply, the firmware's
 * own) carries the CRC word; off, none does, and the frames are the same
 * bytes but for the flag and the word. */
static void crc_option(void)
{
	struct sink on = { .len = 0 }, off = { .len = 0 };
	struct mttfw_comp comps[2];
	struct mttfw m;
	struct mttfw_config cfg = {
		.target = 0x42, .out = { sink_put, &on }, .comps = comps,
		.ncomps = 2, .crc16 = wire_crc16_ccitt,
	};
	struct mttd_mtt_frame f[8], g[8];
	mtt_comp_handle_t a;
	uint8_t in[32], stop[MTT_FRAME_PREAMBLE_BYTES + MTT_FRAME_CRC_BYTES];
	uint32_t v = 0xa5a55a5au;
	size_t n, k, i, so = 0, sf = 0;
	int same = 1;
	struct sink *s;

	for (k = 0; k < 2; k++) {
		s = k ? &off : &on;
		cfg.out.ctx = s;
		cfg.crc16 = k ? NULL : wire_crc16_ccitt;
		mttfw_init(&m, &cfg);
		mttfw_open(&m, (uint32_t)MTT_COMP_ID_ANY, "crc", &a);
		mtt_trace(a, MTT_LEVEL_WARNING, MTT_TRACEITEM_UINT32, &v, "v");
		mttfw_print_out(a, MTT_LEVEL_INFO, "n=%d", 7);
		n = command(in, 0x42, MTT_FRAME_CMD_GET_CORE_FILTER, 0, 3, 0,
			    0);
		mttfw_rx(&m, in, n);
		n = mttfw_frame(stop, 0x42, MTT_FRAME_CMD_STOP, 0, 0, 0, 0, 0,
				NULL, NULL);
		n = mttfw_add_crc(&m, stop, n);
		sink_put(s, stop, n);
	}
	n = frames(&on, f, 8);
	ok(n == 5 && crc_words_good(&on, f, n),
	   "crc16 on: META, trace, print, reply and STOP carry the CRC word (%zu frames)",
	   n);
	n = frames(&off, g, 8);
	for (i = 0; i < n && i < 5; i++) {
		same &= g[i].crc_ok == -1 && !(g[i].flags & MTT_FRAME_F_CRC) &&
			g[i].len + 4 == f[i].len && g[i].cmd == f[i].cmd &&
			g[i].trace_id == f[i].trace_id &&
			!memcmp(on.buf + so + 8, off.buf + sf + 8, g[i].len - 8);
		so += f[i].len;
		sf += g[i].len;
	}
	ok(n == 5 && same && f[1].level == MTT_LEVEL_WARNING &&
	   u32_of(&f[1]) == v && !strcmp(f[1].hint, "v") &&
	   f[3].cmd == MTT_FRAME_CMD_GET_CORE_FILTER,
	   "crc16 off: no CRC word, otherwise the same frames");
	on.buf[f[0].len + 24] ^= 0x10;	/* a byte of the trace's payload */
	n = frames(&on, f, 8);
	ok(n == 5 && f[0].crc_ok == 1 && f[1].crc_ok == 0 && f[2].crc_ok == 1,
	   "a damaged byte: libmttdecode finds that frame's CRC bad");
}

/* the RISC-V encapsulation writer: the link's ctx is the case */
struct rvcase {
	struct mttfw_rv_link link;
	struct sink out;
	uint64_t ts;
};

static void rv_write(void *ctx, const uint8_t *p, size_t n)
{
	sink_put(&((struct rvcase *)ctx)->out, p, n);
}

static uint64_t rv_now(void *ctx)
{
	return ((struct rvcase *)ctx)->ts;
}

static void rv_init(struct rvcase *c, unsigned int w, unsigned int t,
		    uint32_t interval)
{
	memset(c, 0, sizeof(*c));
	c->link.write = rv_write;
	c->link.now = rv_now;
	c->link.ctx = c;
	c->link.srcid_bits = w;
	c->link.ts_bytes = t;
	c->link.sync_interval = interval;
}

static void rv_vectors(void)
{
	static const uint8_t pay[9] = {
		0x73, 0, 0, 0, 0, 0x19, 0x41, 0, 0x08,
	};
	/* the specification's examples, with flow 0 (the writer's) */
	static const uint8_t v8[12] = {
		0x89, 0x31, 0x8d, 0x73, 0, 0, 0, 0, 0x19, 0x41, 0, 0x08,
	};
	static const uint8_t v4[12] = {
		0x8a, 0xd3, 0x38, 0x07, 0, 0, 0, 0x90, 0x11, 0x04, 0x80, 0,
	};
	unsigned int w;

	for (w = 4; w <= 8; w += 4) {
		struct rvcase c;
		struct mttfw_rv_src src = { &c.link, w == 8 ? 0x31 : 3 };
		unsigned int nsync = 31 + 1 + w / 8, i, zero = 1;

		rv_init(&c, w, 1, 0);
		c.ts = 0x8d;
		mttfw_rv_put(&src, pay, sizeof(pay));
		for (i = 0; i < nsync; i++)
			zero &= c.out.buf[i] == 0;
		ok(c.out.len == nsync + 1 + 12 && zero &&
		   c.out.buf[nsync] == 0x80,
		   "srcID %u bits: the stream starts with N = %u null.idle and a null.alignment",
		   w, nsync);
		ok(!memcmp(c.out.buf + nsync + 1, w == 8 ? v8 : v4, 12),
		   "srcID %u bits: the specification's packet, byte for byte", w);
	}
}

/* frames back per srcID through libmttdecode's decoder */
struct rvback {
	struct sink got[3];
	unsigned int bad;
	uint32_t first_ts_pkts;
};

static void rv_ev(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ev[i].type == MTTD_EV_DESYNC)
			((struct rvback *)ctx)->bad++;
}

static void rv_pkt(void *ctx, const struct mttd_rv_packet *p, uint64_t off)
{
	struct rvback *b = ctx;

	(void)off;
	if (p->srcid > 2 || p->flow) {
		b->bad++;
		return;
	}
	b->first_ts_pkts += p->extend;
	sink_put(&b->got[p->srcid], p->payload, p->payload_bits / 8);
}

static void rv_roundtrip(unsigned int w, unsigned int t)
{
	struct rvcase c;
	struct mttfw_rv_src s1 = { &c.link, 1 }, s2 = { &c.link, 2 };
	struct sink want[3];
	struct mttfw_comp comps[2];
	struct mttfw m;
	struct mttfw_out o2 = { mttfw_rv_put, &s2 };
	struct mttfw_config cfg = {
		.target = 0x51, .out = { mttfw_rv_put, &s1 }, .comps = comps,
		.ncomps = 2,
	};
	struct rvback back;
	struct mttd_rv_config rc = {
		.fn = rv_ev, .ctx = &back, .flags = MTTD_RV_UNFRAMED,
		.srcid_bits = w, .ts_bytes = t, .pkt_fn = rv_pkt,
		.stp_srcids = (const uint8_t[8192]){ 0 },
	};
	struct mttd_rv *d;
	mtt_comp_handle_t a, b;
	unsigned int i, frames_n = 0;
	uint8_t blob[40];

	memset(&back, 0, sizeof(back));
	memset(want, 0, sizeof(want));
	rv_init(&c, w, t, 100);
	mttfw_init(&m, &cfg);
	mttfw_open(&m, (uint32_t)MTT_COMP_ID_ANY, "one", &a);
	mttfw_open(&m, (uint32_t)MTT_COMP_ID_ANY, "two", &b);
	mttfw_set_out(b, &o2);
	for (i = 0; i < sizeof(blob); i++)
		blob[i] = (uint8_t)(i * 7);
	for (i = 0; i < 20; i++) {
		c.ts += 1000;
		mtt_trace(a, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &i, "i");
		mtt_trace(b, MTT_LEVEL_DEBUG, MTT_TRACEITEM_BLOB(i * 2), blob,
			  NULL);
		frames_n += 2;
	}
	d = mttd_rv_new(&rc);
	mttd_rv_feed(d, c.out.buf, c.out.len);
	mttd_rv_finish(d);
	ok(!back.bad && mttd_rv_stats(d)->syncs >= 2,
	   "srcID %u bits, ts %u bytes: no desync, no stray packet, %llu syncs",
	   w, t, (unsigned long long)mttd_rv_stats(d)->syncs);
	mttd_rv_free(d);
	/* what srcID 1 and 2 carried is exactly their frames back to back */
	{
		struct mttd_mtt_frame f[64];
		size_t n1 = frames(&back.got[1], f, 64);
		int good = n1 == 22 && f[0].cmd == MTT_FRAME_CMD_META;

		for (i = 0; good && i < 20; i++)
			good = f[2 + i].level == MTT_LEVEL_INFO &&
			       u32_of(&f[2 + i]) == i && f[2 + i].target == 0x51;
		ok(good, "srcID 1: two META frames and 20 values in order (%zu frames)",
		   n1);
		n1 = frames(&back.got[2], f, 64);
		good = n1 == 20;
		for (i = 0; good && i < 20; i++)
			good = f[i].payload_len == i * 2 &&
			       !memcmp(f[i].payload, blob, i * 2) &&
			       f[i].comp == 2;
		ok(good, "srcID 2: 20 blobs of 0..38 bytes, split over packets (%zu frames)",
		   n1);
	}
	ok(back.first_ts_pkts == (t ? frames_n + 2 : 0),
	   "a timestamp on the first packet of each frame only (%u)",
	   back.first_ts_pkts);
}

int main(void)
{
	api();
	commands();
	time_sync();
	time_sync_first();
	crc_option();
	rv_vectors();
	rv_roundtrip(8, 4);
	rv_roundtrip(4, 0);
	rv_roundtrip(12, 2);
	rv_roundtrip(16, 8);
	return done_testing();
}
