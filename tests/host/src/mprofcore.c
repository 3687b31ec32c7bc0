// SPDX-License-Identifier: GPL-2.0
/*
 * mprofcore.c - libmprofdev's freestanding core (tools/lib/mprofdev/
 * core.c, ring.c) on its own, as a port drives it, run by
 * tests/host/mprof-core.t: this program is the port (a scripted
 * microsecond clock, one stack) and the host (commands written and
 * responses checked from the seed's protocol text, CRC-16 included:
 * spec_crc16.h).  The 12-byte command parser and its resync after a
 * bad checksum under every chunking, every response, the hooks' records
 * and depths (an "interrupt" run from inside a hook, between its
 * steps), PROFILE_DATA batches, the transmitter's kicks, overflow counts in
 * STATUS, STOP's records before its ACK, RESET.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "spec_crc16.h"
#include "tap.h"

/* --- the port: a clock that advances 10 us a read, one stack ---------- */

static uint32_t clock_us = 1000;
static struct mprofdev_stack stack;
/* at this clock read, run nested() first (an interrupt), once */
static unsigned int reads, irq_at;
static void (*irq)(void);

uint32_t mprofdev_port_now_us(void)
{
	reads++;
	if (irq && reads == irq_at) {
		void (*f)(void) = irq;

		irq = NULL;
		f();
	}
	clock_us += 10;
	return clock_us;
}

struct mprofdev_stack *mprofdev_port_stack(void)
{
	return &stack;
}

static unsigned int kicks;

static void kick(void)
{
	kicks++;
}

/* --- the host side, from the protocol text ------------------------------ */

static void cmd(uint8_t *out, uint8_t code, uint8_t len)
{
	unsigned int i, sum = 0;

	memset(out, 0, 12);
	out[0] = 0x55;
	out[1] = code;
	out[2] = len;
	for (i = 0; i < 11; i++)
		sum += out[i];
	out[11] = (uint8_t)sum;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* a response's type, its payload in *pl and *len; -1 if the frame is bad */
static int rsp(const uint8_t *p, size_t n, const uint8_t **pl, size_t *len)
{
	size_t l;

	if (n < 8 || p[0] != 0xaa || p[1] != 0x55)
		return -1;
	l = (size_t)(p[3] | p[4] << 8);
	if (n != l + 8 || p[n - 1] != 0x0a ||
	    spec_crc16(p, 5 + l) != (uint16_t)(p[5 + l] | p[6 + l] << 8))
		return -1;
	*pl = p + 5;
	*len = l;
	return p[2];
}

/* the n records of a PROFILE_DATA payload are want's (addr, entry,
 * duration, depth); the differences said */
static int same_records(const uint8_t *pl, const uint32_t want[][4],
			unsigned int n)
{
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++) {
		const uint8_t *r = pl + 3 + 14 * i;
		uint32_t got[4] = { le32(r), le32(r + 4), le32(r + 8),
				    (uint32_t)(r[12] | r[13] << 8) };

		if (memcmp(got, want[i], sizeof(got))) {
			diag("record %u: %#x %u %u %u, expected %#x %u %u %u", i,
			     got[0], got[1], got[2], got[3], want[i][0],
			     want[i][1], want[i][2], want[i][3]);
			bad++;
		}
	}
	return !bad;
}

static struct mprofdev_core core;
static struct ring_slot slots[8];
static uint8_t outbuf[MPROFDEV_OUT_SIZE(4)];

/* the type of the next packet the core builds (0: none, -1: bad) */
static int next(const uint8_t **pl, size_t *len)
{
	size_t n = mprofdev_core_next(&core);

	if (!n)
		return 0;
	return rsp(core.out, n, pl, len);
}

static int next_type(void)
{
	const uint8_t *pl;
	size_t len;

	return next(&pl, &len);
}

static void reset_core(void)
{
	struct mprof_metadata m = { .mcu_clock_hz = 168000000,
				    .timer_freq = 1000000,
				    .elf_build_id = 0xdeadbeef };

	mprofdev_core_deactivate(&core);
	strcpy(m.fw_version, "core-test");
	mprofdev_core_init(&core, slots, 3, outbuf, 4, &m, 0);
	core.t0_us = 1000;
	stack.depth = 0;
	ok(!mprofdev_core_activate(&core), "a fresh core is the active instance");
}

static unsigned int send(const uint8_t *p, size_t n, size_t chunk)
{
	unsigned int taken = 0;
	size_t i;

	for (i = 0; i < n; i += chunk)
		taken += mprofdev_core_rx(&core, p + i, n - i < chunk ? n - i : chunk);
	return taken;
}

/* what -finstrument-functions calls, defined by the core */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

static void call(uintptr_t fn, void (*body)(void))
{
	__cyg_profile_func_enter((void *)fn, NULL);
	if (body)
		body();
	__cyg_profile_func_exit((void *)fn, NULL);
}

static void leaf(void)
{
	call(0x2000, NULL);
}

static void outer_body(void)
{
	leaf();
	leaf();
}

static void isr(void)
{
	call(0x3000, NULL);
}

/* --- the tests ------------------------------------------------------------ */

static void parser(void)
{
	uint8_t c[12], s[64];
	const uint8_t *pl;
	size_t len, chunk;
	int t;

	reset_core();
	cmd(c, 0x05, 0);
	ok(send(c, 12, 12) == 1, "GET_METADATA taken");
	t = next(&pl, &len);
	ok(t == 0x03 && len == 28 && le32(pl) == 168000000 &&
	   le32(pl + 4) == 1000000 && le32(pl + 8) == 0xdeadbeef &&
	   !strcmp((const char *)pl + 12, "core-test"),
	   "METADATA: a good frame, clock, timer, build id, version");
	ok(next_type() == 0, "nothing more to send");

	/* bad checksum, garbage, then a GET_STATUS that starts inside a
	 * broken command: 55 07 | 55 03 00 ... sum */
	for (chunk = 1; chunk <= 40; chunk++) {
		size_t n = 0;

		cmd(c, 0x01, 0);
		c[11]++;			/* START, bad checksum */
		memcpy(s + n, c, 12);
		n += 12;
		s[n++] = 0x00;
		s[n++] = 0x13;
		s[n++] = 0x55;
		s[n++] = 0x07;
		cmd(c, 0x03, 0);
		memcpy(s + n, c, 12);
		n += 12;
		cmd(c, 0x01, 9);		/* length 9: not a command */
		memcpy(s + n, c, 12);
		n += 12;
		if (send(s, n, chunk) != 1 || next_type() != 0x04 ||
		    next_type() != 0 || atomic_load(&core.profiling)) {
			ok(0, "resync in chunks of %zu", chunk);
			return;
		}
	}
	ok(1, "a bad checksum, garbage, a length over 8 skipped; the command inside a broken one found; in chunks of 1 to 40 bytes");
	cmd(c, 0x09, 0);
	ok(send(c, 12, 5) == 1 && next_type() == 0x02, "an unknown command: NACK");
	cmd(c, 0x06, 3);
	ok(send(c, 12, 12) == 1 && next_type() == 0x01, "SET_CONFIG: ACK");
}

static void records(void)
{
	uint8_t c[12];
	const uint8_t *pl;
	size_t len;
	const uint32_t want[3][4] = {
		/* addr, entry (from t0), duration, depth */
		{ 0x2000, 20, 10, 1 },
		{ 0x2000, 40, 10, 1 },
		{ 0x1000, 10, 50, 0 },
	};
	const uint32_t want_irq[3][4] = {
		{ 0x3000, 10, 10, 1 },	/* in outer's entry: one level down */
		{ 0x3000, 40, 10, 0 },	/* in its exit, after the release */
		{ 0x1000, 30, 30, 0 },	/* outer's own times */
	};

	reset_core();
	call(0x1000, outer_body);
	ok(next_type() == 0 && ring_used(&core.ring) == 0,
	   "not profiling: no record");
	cmd(c, 0x01, 0);
	ok(send(c, 12, 12) == 1 && atomic_load(&core.profiling) &&
	   next_type() == 0x01, "START: profiling, ACK");
	clock_us = 1000;
	call(0x1000, outer_body);
	ok(next(&pl, &len) == 0x05 && len == 3 + 3 * 14 && pl[0] == 1 &&
	   pl[1] == 3 && pl[2] == 0, "PROFILE_DATA v1 with 3 records");
	ok(same_records(pl, want, 3),
	   "leaf, leaf (depth 1), outer (depth 0): exit order, times from t0");

	/* an "interrupt" in outer's entry hook, after its slot is claimed
	 * (at the clock read), and one in its exit hook, after its slot is
	 * released (at the clock read) */
	clock_us = 1000;
	reads = 0;
	irq_at = 1;
	irq = isr;
	__cyg_profile_func_enter((void *)0x1000, NULL);
	reads = 0;
	irq_at = 1;
	irq = isr;
	__cyg_profile_func_exit((void *)0x1000, NULL);
	ok(next(&pl, &len) == 0x05 && pl[1] == 3 && same_records(pl, want_irq, 3),
	   "interrupted hooks: the handler's call one level down in an entry, at the same level after an exit's release; outer's times its own");
	ok(stack.depth == 0, "the stack is back at depth 0");

	/* address bias and mask (a Thumb address) */
	core.addr_bias = 0x100;
	core.addr_mask = ~(uintptr_t)1;
	call(0x1101, NULL);
	ok(next(&pl, &len) == 0x05 && le32(pl + 3) == 0x1000,
	   "address: minus the bias, bit 0 masked");
}

static void batches(void)
{
	uint8_t c[12];
	const uint8_t *pl;
	size_t len;
	unsigned int i;
	int b, n;

	reset_core();
	core.kick = kick;
	kicks = 0;
	cmd(c, 0x01, 0);
	send(c, 12, 12);
	ok(kicks == 1, "a command kicks the idle transmitter");
	/* the transmitter sends the ACK, finds nothing more, stops */
	for (n = 0; (b = mprofdev_core_tx_byte(&core)) >= 0; n++)
		;
	mprofdev_core_tx_stopped(&core);
	ok(n == 8 && kicks == 1 && atomic_load(&core.tx_idle) == 1,
	   "tx_byte: the 8 bytes of the ACK, then -1; idle");
	for (i = 0; i < 3; i++)
		call(0x1000, NULL);
	ok(kicks == 1, "3 records (a packet is 4): no kick");
	call(0x1000, NULL);
	ok(kicks == 2, "the 4th record kicks");
	call(0x1000, NULL);
	ok(kicks == 2, "a 5th: the transmitter is already running");
	ok(next(&pl, &len) == 0x05 && pl[1] == 4, "PROFILE_DATA: 4 records");
	mprofdev_core_tx_stopped(&core);
	ok(kicks == 3, "stopped with a record waiting: kicked again");
	ok(next(&pl, &len) == 0x05 && pl[1] == 1 && next_type() == 0,
	   "then the 5th alone, then nothing");
	mprofdev_core_tx_stopped(&core);
	ok(kicks == 3 && atomic_load(&core.tx_idle) == 1, "nothing waiting: idle");

	/* overflows: 11 calls into 8 slots */
	for (i = 0; i < 11; i++)
		call(0x1000, NULL);
	cmd(c, 0x03, 0);
	send(c, 12, 12);
	ok(next(&pl, &len) == 0x04 && len == 10 && pl[0] == 1 &&
	   le32(pl + 1) == 3 && le32(pl + 5) == 5 + 8 && pl[9] == 100,
	   "STATUS first: profiling, 3 overflows, 13 captured, buffer 100%%");
	/* STOP: the 8 records, then the ACK */
	cmd(c, 0x02, 0);
	send(c, 12, 12);
	ok(!atomic_load(&core.profiling), "STOP: profiling off at once");
	call(0x1000, NULL);
	ok(next(&pl, &len) == 0x05 && pl[1] == 4 &&
	   next(&pl, &len) == 0x05 && pl[1] == 4 && next_type() == 0x01 &&
	   next_type() == 0, "STOP: every record (2 packets), then its ACK; none after");
	for (i = 0; i < 5; i++)
		call(0x1000, NULL);
	ok(ring_used(&core.ring) == 0, "stopped: calls not recorded");
}

static void reset_cmd(void)
{
	uint8_t c[12];
	const uint8_t *pl;
	size_t len;
	unsigned int i;

	reset_core();
	core.burst = 1;
	cmd(c, 0x01, 0);
	send(c, 12, 12);
	ok(next_type() == 0x01, "burst: START acknowledged");
	for (i = 0; i < 10; i++)
		call(0x1000, NULL);
	ok(next_type() == 0, "burst: records kept while profiling");
	cmd(c, 0x04, 0);
	send(c, 12, 12);
	cmd(c, 0x03, 0);
	send(c, 12, 12);
	ok(next_type() == 0x01 && next(&pl, &len) == 0x04 &&
	   le32(pl + 1) == 0 && pl[9] == 0 && atomic_load(&core.done) == 8,
	   "RESET: records dropped, overflows cleared; ACK, then STATUS");

	/* the queue holds 8 commands; a 9th is dropped */
	for (i = 0; i < 9; i++) {
		cmd(c, 0x03, 0);
		send(c, 12, 12);
	}
	for (i = 0; next_type() == 0x04; i++)
		;
	ok(i == 8, "8 commands queued, the 9th dropped (%u answered)", i);
}

/*
 * TIME_SYNC (our extension, Documentation/miniprofiler.rst, "Clock
 * exchanges"): the command's bytes as the table there spells them, the
 * response's checked byte for byte.  Built with -DMPROFDEV_NO_TIME_SYNC
 * the core is a device that predates it: NACK.
 */
static void time_sync(void)
{
	/* 55 | 07 | length 4 | seq 0x12345678 LE | zero padding | sum */
	static const uint8_t c[12] = { 0x55, 0x07, 0x04, 0x78, 0x56, 0x34,
				       0x12, 0, 0, 0, 0, 0x74 };
	/* seq, t_rx = 5010 - t0 1000, t_tx = 5020 - 1000 (LE) */
	static const uint8_t want[12] = { 0x78, 0x56, 0x34, 0x12, 0xaa, 0x0f,
					  0, 0, 0xb4, 0x0f, 0, 0 };
	uint8_t bad[12];
	const uint8_t *pl;
	size_t len, chunk;
	int t;

	for (chunk = 1; chunk <= 12; chunk++) {
		reset_core();
		clock_us = 5000;
		reads = 0;
		if (send(c, 12, chunk) != 1)
			break;
		t = next(&pl, &len);
#ifdef MPROFDEV_NO_TIME_SYNC
		if (t != 0x02 || reads)
			break;
#else
		if (t != 0x06 || len != 12 || memcmp(pl, want, 12) ||
		    reads != 2)
			break;
#endif
	}
#ifdef MPROFDEV_NO_TIME_SYNC
	ok(chunk == 13, "a device without TIME_SYNC: NACK, its clock not read");
	(void)want;
	(void)bad;
#else
	ok(chunk == 13, "TIME_SYNC in chunks of 1 to 12: response 06, seq echoed, t_rx 4010 and t_tx 4020 us from t0 (one clock read each)");
	reset_core();
	memcpy(bad, c, 12);
	bad[2] = 3;		/* no room for a seq */
	bad[11] = (uint8_t)(bad[11] - 1);
	ok(send(bad, 12, 12) == 1 && next_type() == 0x02,
	   "TIME_SYNC with a payload of 3 bytes: NACK");
#endif
}

int main(void)
{
	struct mprofdev_core other;

#ifdef MPROFDEV_NO_TIME_SYNC
	time_sync();
	done_testing();
	return 0;
#endif
	time_sync();
	parser();
	records();
	batches();
	reset_cmd();
	ok(mprofdev_core_activate(&other) == -1,
	   "one active instance: a second is refused");
	done_testing();
	return 0;
}
