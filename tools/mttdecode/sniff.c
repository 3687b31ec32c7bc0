// SPDX-License-Identifier: GPL-2.0
/*
 * sniff.c - telling the kind of an input from its first bytes
 * (--input=auto), once per input, before any of it is decoded:
 *
 *  - Intel TH MSC blocks or CoreSight frames (framing.c), before all else;
 *  - MTT: the first word is an MTT sync word (version 1.0);
 *  - STP: an ASYNC (21 nibbles F then a 0 nibble, at any nibble);
 *  - reference printer text: "SYS-T RAW DATA:";
 *    whichever of these two comes first wins;
 *  - neither within SNIFF_MAX bytes (or the whole input): plain SyS-T
 *    when messages frame back to back from the first byte to the end of
 *    what was read (mttd_syst_probe()); else STP, whose decoder goes on
 *    hunting for an ASYNC (and the input is reported as not synchronised
 *    if it never finds one).
 *
 * Before all this, once for the whole command (sniff_mprof()): is the
 * first input a MiniProfiler capture (a response header, AA 55 and a
 * response type)?  Then it is handed whole to libmprof (mprof.c).
 *
 * Then, for STP (sniff_syst()), whether its messages are SyS-T: the
 * first SNIFF_SYST_MSGS complete messages within those bytes (MTT frames
 * left out: they decode either way; not with --no-mtt) must each be exactly one valid SyS-T
 * message (mttd_syst_is_msg(): reserved bits, type and subtype, field
 * sizes, length field, CRC-32C), at least one of them more than a one-
 * or two-word message (any 4 or 8 bytes are a SHORT).
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mprof/mprof.h"

static const char marker[] = "SYS-T RAW DATA:";

/* offset of the first ASYNC in p[0..n), or n */
static size_t find_async(const uint8_t *p, size_t n)
{
	size_t i, run = 0;

	/* 21 F nibbles are ten 0xff bytes at least: none, no ASYNC (text
	 * has none) */
	if (!memchr(p, 0xff, n))
		return n;

	for (i = 0; i < n; i++) {
		uint8_t b = p[i];
		int hi_f;

		if (b == 0xff) {
			run++;
			continue;
		}
		/* 21 F nibbles and a 0 nibble end here (low nibble first) */
		hi_f = i > run && (p[i - run - 1] >> 4) == 0xf;
		if ((b == 0x0f && run >= 10) ||
		    (!(b & 0x0f) && (run >= 11 || (run == 10 && hi_f))))
			return i - run - (run == 10 && b != 0x0f);
		run = 0;
	}
	return n;
}

/* offset of the first text marker in p[0..n), or n */
static size_t find_marker(const uint8_t *p, size_t n)
{
	const size_t k = sizeof(marker) - 1;
	const uint8_t *c = p, *end = p + n;

	while ((size_t)(end - c) >= k &&
	       (c = memchr(c, 'S', (size_t)(end - c) - k + 1))) {
		if (!memcmp(c, marker, k))
			return (size_t)(c - p);
		c++;
	}
	return n;
}

/* what the probe's message sink counts (sniff_syst()) */
struct syst_probe {
	unsigned int msgs;	/* complete messages looked at */
	unsigned int normal;	/* of them SyS-T, more than one word */
	unsigned int bad;	/* of them not SyS-T */
	int mtt;		/* MTT frames are left out (else: not SyS-T) */
};

static void probe_msg(void *ctx, const struct mttd_msg *m)
{
	struct syst_probe *pr = ctx;
	int k;

	if (pr->msgs >= SNIFF_SYST_MSGS ||
	    (m->flags & (MTTD_MSG_TRUNCATED | MTTD_MSG_EVICTED)) ||
	    !(m->flags & MTTD_MSG_COMPLETE) ||
	    (pr->mtt && mttd_mtt_is_frame(m->data, m->len)))
		return;
	k = mttd_syst_is_msg(m->data, m->len);
	pr->msgs++;
	pr->normal += k == MTTD_SYST_IS_NORMAL;
	pr->bad += !k;
}

static void probe_event(void *ctx, const struct mttd_msg_event *e)
{
	(void)ctx;
	(void)e;
}

int sniff_syst(const uint8_t *p, size_t n, int mtt)
{
	struct syst_probe pr = { .mtt = mtt };
	struct mttd_msg_config mc = { 0 };
	struct mttd_msg_sink sink = {
		.msg = probe_msg, .event = probe_event, .ctx = &pr,
	};
	struct mttd_msgdec *md = mttd_msg_new(&mc);
	struct mttd_stp_config sc = { .fn = mttd_msg_stp_fn, .ctx = md };
	struct mttd_stp *d = md ? mttd_stp_new(&sc) : NULL;

	/* finished: packets held for the next bytes count; a message
	 * still open is incomplete, left out */
	if (d && !mttd_msg_add_sink(md, &sink)) {
		mttd_stp_feed(d, p, n);
		mttd_stp_finish(d);
	}
	mttd_stp_free(d);
	mttd_msg_free(md);
	if (pr.bad)
		return 0;
	if (pr.msgs < SNIFF_SYST_MSGS)
		return pr.normal ? -1 : -2;
	return pr.normal > 0;
}

/*
 * The input is STP: with neither --syst nor --no-syst, hold its bytes
 * until its first messages tell whether they are SyS-T (sniff_syst(): all
 * SNIFF_SYST_MSGS of them, or whatever came in SNIFF_MAX bytes or the
 * whole input); a file is probed again only when the bytes held have
 * doubled, so that small reads cost linear time.  A live input (a pipe)
 * is probed at every read and not held past its first complete message
 * that is more than a word: SyS-T if all so far are (what it writes next
 * may never come).
 */
static int stp_kind(struct app *a, const uint8_t *p, size_t n, int final)
{
	int r, last = final || n >= SNIFF_MAX;

	a->sniff_stp = 1;
	if (!a->o.syst_auto)
		return IN_STP;
	if (!last && !a->live && n < 2 * a->sniff_probed)
		return IN_AUTO;
	a->sniff_probed = n;
	r = sniff_syst(p, n, !a->o.no_mtt);
	if ((r == -2 || (r == -1 && !a->live)) && !last)
		return IN_AUTO;
	a->o.syst = r == 1 || r == -1;
	return IN_STP;
}

int sniff_kind(struct app *a, const uint8_t *p, size_t n, int final)
{
	/* p[0..scanned) held neither: look again only from where one that
	 * ends past it could start (an ASYNC may start 12 bytes earlier) */
	size_t from = a->sniff_scanned > 16 ? a->sniff_scanned - 16 : 0;
	size_t as = from + find_async(p + from, n - from);
	size_t tx = from + find_marker(p + from, n - from);
	int clean, fr;

	if (a->sniff_stp)
		return stp_kind(a, p, n, final);
	fr = sniff_frame(p, n, final);
	if (fr != -1)
		return fr;	/* framed (framing.c), or too short to tell */
	a->sniff_scanned = n;
	/* a raw MTT file: a sync word at offset 0 */
	if (mttd_mtt_frame_len(p, n) > 0)
		return IN_MTT;
	if (as < n || tx < n)
		return as < tx ? stp_kind(a, p, n, final) : IN_SYSTTEXT;
	if (!final && n < SNIFF_MAX)
		return IN_AUTO;
	if (mttd_syst_probe(a->syst, p, n, final, &clean) && clean)
		return IN_SYST;
	return IN_STP;
}

int sniff_mprof(const struct opts *o)
{
	uint8_t h[3];
	struct stat st;
	ssize_t n = -1;
	int fd;

	if (o->input == IN_MPROF || o->mprof_session)
		return 1;
	if (o->input != IN_AUTO || !o->nfiles || !strcmp(o->files[0], "-"))
		return 0;
	/* a regular file only: its bytes are read again from the start */
	fd = open(o->files[0], O_RDONLY);
	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		n = pread(fd, h, sizeof(h), 0);
	close(fd);
	return n > 0 && mprof_is_capture(h, (size_t)n);
}
