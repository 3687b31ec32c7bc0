// SPDX-License-Identifier: GPL-2.0
/*
 * mergegen.c - writes an mttcontrol session directory with two serial
 * targets by hand, for session-merge.t (mttdecode SESSION), from the
 * specifications: Documentation/sessions.rst (mttsession, targets/NAME/
 * target, reads), the native MTT frame (include/uapi/linux/mtt_frame.h,
 * Documentation/mtt.rst), the MiniProfiler response framing (its CRC
 * from spec_crc16.h), STPv2 by the test encoder (tests/host/enc), and
 * issue 21's contract for TIME_SYNC replies and "requests".
 *
 *   mergegen DIR N MODE
 *
 * N rounds of 10 ms from reference time 1 s.  Round i has, in
 * reference-time order:
 *   +0      linux   "L<i>"           an STP message (m1 c2, 1 GHz)
 *   +2.5 ms prof    0x0800010<i%4>0     a MiniProfiler call (1 ms) that
 *                                    returns then; clock -200 ppm, the
 *                                    device 7 s ahead
 *   +5 ms   mcu     value i          an MTT frame, TS64, target 0x40,
 *                                    comp 5, level INFO; clock +500 ppm,
 *                                    offset 3 s: ref = 1.0005 dev - 3e9
 *   read+10 us linux "ack<i>"        for every 8th round: Linux traced
 *                                    the mcu frame after reading it
 * Each target's bytes are read 50..199 us (+ their wire time at 115200
 * baud) after they were sent; "reads" says so.  Every 16th round the
 * mcu answers a TIME_SYNC (request in "requests"; its reply frame
 * between the records).  The Linux messages are written as CPUs
 * interleave them: every 50th one 3 messages later than its time.  MODE
 * ok: all as above; conflict: one request's t1 is 1 s later than it was
 * (no line fits); late: also the 6th Linux message (L4) written after
 * 1100 later ones (more than the reorder window); unpaced: as ok, but
 * the ports move bytes faster than the baud (an emulator's UART): each
 * read 50..199 us after the send with no wire time, the targets not
 * "paced" (sessions.rst).  The others' targets are "paced 1".  rv: also
 * a third
 * target, "rv", RISC-V trace encapsulation (srcID 8 bits, timestamp 4
 * bytes, srcid_proto "1:mtt", packets by the test encoder rvenc from
 * the spec) whose srcID 1 carries MTT frames cut into packets of at
 * most 31 bytes: a value i at +6 ms (TS64; clock -300 ppm, offset 2 s:
 * ref = 0.9997 dev - 2e9) and, every 16th round, a TIME_SYNC reply at
 * +8 ms; DIR/rvtruth gets "i REF" for each of its values.
 * DIR/expect gets "TARGET TEXT" per record in reference-time order.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rvenc.h"
#include "stpenc.h"
#include "spec_crc16.h"
#include "mttdecode/stp.h"
#include <linux/mtt_frame.h>
#include <linux/mtt_defs.h>

#define BAUD 115200
#define MPROF_HDR_BYTES 3	/* PROFILE_DATA: version 01, u16 count */
#define MPROF_RSP_DATA 0x05	/* PROFILE_DATA */
#define NS_PER_BYTE (10e9 / BAUD)
#define ROUND_NS 10000000LL
#define START_NS 1000000000LL

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void le(struct buf *b, uint64_t v, int n)
{
	uint8_t t[8];
	int i;

	for (i = 0; i < n; i++)
		t[i] = (uint8_t)(v >> (8 * i));
	put(b, t, (size_t)n);
}

static void uleb(struct buf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		if (v)
			c |= 0x80;
		put(b, &c, 1);
	} while (v);
}

/* reads: (offset, t) pairs as ULEB128 differences */
struct reads {
	struct buf b;
	uint64_t off, t;
};

static void read_pair(struct reads *r, uint64_t off, uint64_t t)
{
	uleb(&r->b, off - r->off);
	uleb(&r->b, t - r->t);
	r->off = off;
	r->t = t;
}

static void wr(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* the mcu's clock: ref = 1.0005 dev - 3e9 */
static int64_t mcu_dev(int64_t ref)
{
	return llround((double)(ref + 3000000000LL) / 1.0005);
}

static int64_t mcu_ref(int64_t dev)
{
	return llround(1.0005 * (double)dev) - 3000000000LL;
}

/* the rv's clock: ref = 0.9997 dev - 2e9 */
static int64_t rv_dev(int64_t ref)
{
	return llround((double)(ref + 2000000000LL) / 0.9997);
}

static int64_t rv_ref(int64_t dev)
{
	return llround(0.9997 * (double)dev) - 2000000000LL;
}

/* the rv's srcID 1 (MTT): the frame in b from `from` on, cut into
 * packets of at most 31 payload bytes (8-bit srcIDs: header.length is
 * the payload's bytes); b is then cut back to from */
static void rv_frame(struct rvenc *e, struct buf *b, size_t from)
{
	size_t i, n;

	for (i = from; i < b->n; i += n) {
		n = b->n - i < 31 ? b->n - i : 31;
		rvenc_raw(e, 0, 0, 1, 0, b->p + i, (unsigned int)(8 * n));
	}
	b->n = from;
}

/* the prof's clock (us): ref = 0.9998 * us * 1000 - 7e9 */
static int64_t prof_us(int64_t ref)
{
	return llround((double)(ref + 7000000000LL) / 0.9998 / 1000);
}

static void mtt_frame(struct buf *b, uint32_t cmd_flags, uint32_t comp,
		      uint32_t id, uint32_t type_info, const uint64_t *ts,
		      const uint32_t *level, const void *pl, size_t n)
{
	le(b, MTT_FRAME_WORD0(0x40), 4);
	le(b, cmd_flags, 4);
	le(b, comp, 4);
	le(b, id, 4);
	le(b, type_info, 4);
	if (ts)
		le(b, *ts, 8);
	if (level)
		le(b, *level, 4);
	put(b, pl, n);
	while (n++ % 4)
		put(b, "", 1);
}

static void mprof_rsp(struct buf *b, uint8_t type, const uint8_t *pl,
		      size_t n)
{
	size_t start = b->n;
	uint16_t crc;

	put(b, "\xaa\x55", 2);
	put(b, &type, 1);
	le(b, n, 2);
	put(b, pl, n);
	crc = spec_crc16(b->p + start, b->n - start);
	le(b, crc, 2);
	put(b, "\x0a", 1);
}

static void stp_msg(struct stpenc *e, const char *s, uint64_t ts)
{
	size_t i;

	stpenc_packet(e, MTTD_OP_M8, 1, 0, 0, 0, 0);
	stpenc_packet(e, MTTD_OP_C8, 2, 0, 0, 0, 0);
	for (i = 0; s[i]; i++)
		stpenc_packet(e, i ? MTTD_OP_D8 : MTTD_OP_D8TS,
			      (uint8_t)s[i], 0, 0, ts, -1);
	stpenc_packet(e, MTTD_OP_FLAG, 0, 0, 0, 0, 0);
}

struct ev {
	int64_t ref;
	int tgt;		/* 0 linux, 1 prof, 2 mcu, 3 rv */
	long i;
	char text[24];
};

static int by_ref(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->ref != y->ref)
		return x->ref < y->ref ? -1 : 1;
	return x->tgt - y->tgt;
}

int main(int argc, char **argv)
{
	static const char *const tname[] = { "linux", "prof", "mcu", "rv" };
	struct buf mcu = { 0 }, prof = { 0 }, req = { 0 }, rreq = { 0 };
	struct buf fr = { 0 }, truth = { 0 };
	struct reads rm = { { 0 }, 0, 0 }, rp = { { 0 }, 0, 0 };
	struct reads rr = { { 0 }, 0, 0 };
	struct rvenc rve;
	struct stpenc e;
	struct ev *ev;
	long n, i, nev = 0, bad_seq = -1;
	char path[4096];
	const char *dir;
	int conflict, late, unpaced, rv;
	double npb;	/* ns a byte on the wire; 0 unpaced */
	long *lx, nl = 0;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: mergegen DIR N ok|conflict|late|unpaced|rv\n");
		return 2;
	}
	dir = argv[1];
	n = atol(argv[2]);
	conflict = !strcmp(argv[3], "conflict");
	late = !strcmp(argv[3], "late");
	unpaced = !strcmp(argv[3], "unpaced");
	npb = unpaced ? 0 : NS_PER_BYTE;
	rv = !strcmp(argv[3], "rv");
	ev = calloc((size_t)n * 5 + 1, sizeof(*ev));
	lx = calloc((size_t)n * 5 + 1, sizeof(*lx));
	if (!ev || !lx)
		return 1;
	snprintf(path, sizeof(path), "%s/targets/mcu", dir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/targets", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/targets/mcu", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/targets/prof", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/targets/rv", dir);
	if (rv)
		mkdir(path, 0755);

	put(&req, "MTTSYNC1", 8);
	put(&rreq, "MTTSYNC1", 8);
	rvenc_init(&rve, 8, 4);
	rvenc_sync(&rve);
	for (i = 0; i < 3; i++) {
		struct reads *r = i == 2 ? &rr : i ? &rp : &rm;

		put(&r->b, "MTTREAD1", 8);
		le(&r->b, START_NS - 1000000, 8);
		r->t = START_NS - 1000000;
	}
	for (i = 0; i < n; i++) {
		int64_t base = START_NS + i * ROUND_NS, t, sent, rd;
		int64_t lat = 50000 + (i * 37 % 150) * 1000;
		uint8_t pl[MPROF_HDR_BYTES + 14];
		uint32_t level = MTT_LEVEL_INFO, v = (uint32_t)i;
		uint64_t ts;
		int64_t exit_us;

		/* linux */
		ev[nev] = (struct ev){ base, 0, i, "" };
		snprintf(ev[nev++].text, 24, "L%ld", i);
		/* prof: a call returning at +2.5 ms, sent then */
		t = base + 2500000;
		exit_us = prof_us(t);
		pl[0] = 1;			/* version */
		pl[1] = 1;			/* one record */
		pl[2] = 0;
		pl[3] = (uint8_t)(0x08000100 + 0x10 * (i % 4));
		pl[4] = (uint8_t)((0x08000100 + 0x10 * (i % 4)) >> 8);
		pl[5] = 0;
		pl[6] = 8;
		{
			uint32_t entry = (uint32_t)(exit_us - 1000);

			pl[7] = (uint8_t)entry;
			pl[8] = (uint8_t)(entry >> 8);
			pl[9] = (uint8_t)(entry >> 16);
			pl[10] = (uint8_t)(entry >> 24);
		}
		pl[11] = 0xe8;			/* 1000 us */
		pl[12] = 0x03;
		pl[13] = 0;
		pl[14] = 0;
		pl[15] = 0;			/* depth */
		pl[16] = 0;
		mprof_rsp(&prof, MPROF_RSP_DATA, pl, sizeof(pl));
		rd = t + llround((double)(8 + sizeof(pl)) * npb) + lat;
		read_pair(&rp, prof.n, (uint64_t)rd);
		ev[nev] = (struct ev){ t, 1, i, "" };
		snprintf(ev[nev++].text, 24, "0x%08lx",
			 0x08000100 + 0x10 * (i % 4));

		/* mcu: a value at +5 ms */
		t = base + 5000000;
		ts = (uint64_t)mcu_dev(t);
		sent = mcu.n;
		mtt_frame(&mcu, MTT_FRAME_CMD_TRACE | MTT_FRAME_F_TS64 |
			  MTT_FRAME_F_LEVEL, 5, 0x1000, MTT_TRACEITEM_UINT32,
			  &ts, &level, &v, 4);
		rd = t + llround((double)(mcu.n - sent) * npb) + lat;
		read_pair(&rm, mcu.n, (uint64_t)rd);
		ev[nev] = (struct ev){ t, 2, i, "" };
		snprintf(ev[nev++].text, 24, "%ld", i);
		if (i % 8 == 0) {
			ev[nev] = (struct ev){ rd + 10000, 0, i, "" };
			snprintf(ev[nev++].text, 24, "ack%ld", i);
		}
		/* a TIME_SYNC exchange at +7 ms */
		if (i % 16 == 0) {
			int64_t t1 = base + 7000000, rx, tx;
			uint64_t p[2];

			rx = mcu_dev(t1 + llround(npb) + 30000);
			tx = rx + 40000;
			p[0] = (uint64_t)rx;
			p[1] = (uint64_t)tx;
			le(&req, (uint64_t)i, 4);
			if (conflict && bad_seq < 0 && i >= 16) {
				bad_seq = i;
				t1 += 1000000000;
			}
			le(&req, (uint64_t)t1, 8);
			sent = mcu.n;
			{
				uint8_t b[16];
				int k;

				for (k = 0; k < 8; k++) {
					b[k] = (uint8_t)(p[0] >> (8 * k));
					b[8 + k] = (uint8_t)(p[1] >> (8 * k));
				}
				/* type_info: a vector of two u64
				 * (mtt.rst, "Clock exchanges") */
				mtt_frame(&mcu, 0x07000000U | MTT_FRAME_F_RET |
					  MTT_FRAME_F_RETV, 0xffffffffU,
					  (uint32_t)i, 0x07010010U, NULL, NULL,
					  b, 16);
			}
			rd = mcu_ref(tx) + llround((double)(mcu.n - sent) *
						   npb) + lat;
			read_pair(&rm, mcu.n, (uint64_t)rd);
		}
	}
	for (i = 0; rv && i < n; i++) {
		int64_t base = START_NS + i * ROUND_NS, t, rd;
		int64_t lat = 50000 + (i * 53 % 150) * 1000;
		uint32_t level = MTT_LEVEL_INFO, v = (uint32_t)i;
		uint64_t ts;
		size_t sent = rve.len;
		char line[48];

		/* a value at +6 ms */
		t = base + 6000000;
		ts = (uint64_t)rv_dev(t);
		mtt_frame(&fr, MTT_FRAME_CMD_TRACE | MTT_FRAME_F_TS64 |
			  MTT_FRAME_F_LEVEL, 6, 0x1000, MTT_TRACEITEM_UINT32,
			  &ts, &level, &v, 4);
		rv_frame(&rve, &fr, 0);
		rd = t + llround((double)(rve.len - sent) * NS_PER_BYTE) + lat;
		read_pair(&rr, rve.len, (uint64_t)rd);
		ev[nev] = (struct ev){ t, 3, i, "" };
		snprintf(ev[nev++].text, 24, "%ld", i);
		snprintf(line, sizeof(line), "%ld %lld\n", i, (long long)t);
		put(&truth, line, strlen(line));
		/* a TIME_SYNC exchange at +8 ms */
		if (i % 16 == 0) {
			int64_t t1 = base + 8000000, rx, tx;
			uint8_t b[16];
			int k;

			rx = rv_dev(t1 + llround(NS_PER_BYTE) + 30000);
			tx = rx + 40000;
			for (k = 0; k < 8; k++) {
				b[k] = (uint8_t)((uint64_t)rx >> (8 * k));
				b[8 + k] = (uint8_t)((uint64_t)tx >> (8 * k));
			}
			le(&rreq, (uint64_t)i, 4);
			le(&rreq, (uint64_t)t1, 8);
			sent = rve.len;
			mtt_frame(&fr, 0x07000000U | MTT_FRAME_F_RET |
				  MTT_FRAME_F_RETV, 0xffffffffU, (uint32_t)i,
				  0x07010010U, NULL, NULL, b, 16);
			rv_frame(&rve, &fr, 0);
			rd = rv_ref(tx) + llround((double)(rve.len - sent) *
						  NS_PER_BYTE) + lat;
			read_pair(&rr, rve.len, (uint64_t)rd);
		}
	}
	/* the Linux stream, in time order */
	qsort(ev, (size_t)nev, sizeof(*ev), by_ref);
	stpenc_init(&e, 3);
	stpenc_async(&e);
	stpenc_packet(&e, MTTD_OP_VERSION, 3, 0, 0, 0, 0);
	stpenc_packet(&e, MTTD_OP_FREQ, 1000000000u, 0, 0, 0, 0);
	snprintf(path, sizeof(path), "%s/expect", dir);
	f = fopen(path, "w");
	if (!f)
		return 1;
	for (i = 0; i < nev; i++) {
		if (ev[i].tgt == 0)
			lx[nl++] = i;
		fprintf(f, "%s %s\n", tname[ev[i].tgt], ev[i].text);
	}
	/* as CPUs interleave: every 50th message written 3 later */
	for (i = 1; i + 3 < nl; i += 50) {
		long k = lx[i];

		lx[i] = lx[i + 3];
		lx[i + 3] = k;
	}
	/* late: the 6th message (L4) written after 1100 later ones */
	if (late && nl > 1106) {
		long k = lx[5];

		memmove(lx + 5, lx + 6, 1100 * sizeof(*lx));
		lx[1105] = k;
	}
	for (i = 0; i < nl; i++)
		stp_msg(&e, ev[lx[i]].text, (uint64_t)ev[lx[i]].ref);
	stpenc_pad(&e);
	if (fclose(f) || e.oom)
		return 1;
	wr(dir, "stream-0000.stp", e.buf, stpenc_bytes(&e));
	if (rv)
		wr(dir, "mttsession", "mttsession 1\nformat stp\ntarget mcu\n"
		   "target prof\ntarget rv\n", 57);
	else
		wr(dir, "mttsession",
		   "mttsession 1\nformat stp\ntarget mcu\ntarget prof\n", 47);
	{
		static const char mt[] =
			"name mcu\nprotocol mtt\nport /dev/ttyS1\nbaud 115200\n"
			"capture capture.bin\nreads reads\npaced 1\n";
		static const char pt[] =
			"name prof\nprotocol mprof\nport /dev/ttyS2\nbaud 115200\n"
			"capture capture.mprof\nreads reads\npaced 1\n";
		/* unpaced: without the last line */
		size_t cut = unpaced ? 8 : 0;

		snprintf(path, sizeof(path), "%s/targets/mcu", dir);
		wr(path, "target", mt, sizeof(mt) - 1 - cut);
		wr(path, "capture.bin", mcu.p, mcu.n);
		wr(path, "reads", rm.b.p, rm.b.n);
		wr(path, "requests", req.p, req.n);
		snprintf(path, sizeof(path), "%s/targets/prof", dir);
		wr(path, "target", pt, sizeof(pt) - 1 - cut);
		wr(path, "capture.mprof", prof.p, prof.n);
		wr(path, "reads", rp.b.p, rp.b.n);
	}
	if (rv) {
		static const char rt[] =
			"name rv\nprotocol riscv-encap\nport /dev/ttyS3\n"
			"baud 115200\ncapture capture.bin\nreads reads\n"
			"srcid_bits 8\nts_bytes 4\nunframed 0\n"
			"srcid_proto 1:mtt\npaced 1\n";

		if (rve.oom)
			return 1;
		wr(dir, "rvtruth", truth.p, truth.n);
		snprintf(path, sizeof(path), "%s/targets/rv", dir);
		wr(path, "target", rt, sizeof(rt) - 1);
		wr(path, "capture.bin", rve.buf, rve.len);
		wr(path, "reads", rr.b.p, rr.b.n);
		wr(path, "requests", rreq.p, rreq.n);
	}
	if (bad_seq >= 0)
		printf("%ld\n", bad_seq);
	stpenc_free(&e);
	free(mcu.p);
	free(prof.p);
	free(req.p);
	free(rreq.p);
	free(fr.p);
	free(truth.p);
	free(rr.b.p);
	rvenc_free(&rve);
	free(rm.b.p);
	free(rp.b.p);
	free(ev);
	free(lx);
	return 0;
}
