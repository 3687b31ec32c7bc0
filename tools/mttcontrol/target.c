// SPDX-License-Identifier: GPL-2.0
/*
 * target.c - serial targets in a session (Documentation/sessions.rst,
 * "Serial targets"): each one's port found (given, or by its udev match)
 * and opened raw at its baud rate by --start, recorded by the collector
 * into DIR/targets/NAME/ (the bytes as received, the reference time of
 * the reads, a metadata file), and decoded with the project's libraries
 * for --stop's summary.
 *
 * The read times ("reads"): the 8 bytes "MTTREAD1", CLOCK_MONOTONIC at
 * the port's opening (ns, 64-bit little-endian), then pairs (offset,
 * t_ns) as two ULEB128 numbers each, the differences from the pair
 * before (the first: from 0 and the opening time): by time t_ns the
 * first offset bytes of the capture had been read.  A read less than
 * MC_READS_NS after the last pair written is held back and replaced by
 * the next such read, so a byte's time is late by less than that, and
 * the file holds at most one pair per read and two per MC_READS_NS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mprof/mprof.h"
#include "mttdecode/mttframe.h"
#include "mttdecode/riscv.h"
#include "mttdecode/syst.h"
#include "mttcontrol.h"
#include "session/session.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const char *capture_name(enum mc_tproto p)
{
	/* mttprofile's name: "mttdecode targets/NAME" decodes it */
	return p == MC_TP_MPROF ? "capture.mprof" : "capture.bin";
}

/* the mttdecode command line that decodes the capture (in its directory) */
static void decode_cmd(const struct mc_target *t, char *buf, size_t len)
{
	size_t n;
	int i;

	switch (t->proto) {
	case MC_TP_MPROF:
		mc_snprintf(buf, len, "mttdecode .");
		break;
	case MC_TP_MTT:
		mc_snprintf(buf, len, "mttdecode --input=mtt capture.bin");
		break;
	case MC_TP_SYST:
		mc_snprintf(buf, len, "mttdecode --input=syst capture.bin");
		break;
	case MC_TP_RISCV:
		n = (size_t)mc_snprintf(buf, len, "mttdecode --input=riscv-encap --srcid-bits=%u --ts-bytes=%u%s",
					t->srcid_bits, t->ts_bytes,
					t->unframed ? " --unframed" : "");
		for (i = 0; i < t->nsrcid_proto && n < len; i++)
			n += (size_t)mc_snprintf(buf + n, len - n,
						 " --srcid-proto=%s",
						 t->srcid_proto[i]);
		if (n < len)
			mc_snprintf(buf + n, len - n, " capture.bin");
		break;
	default:
		mc_snprintf(buf, len, "(raw: not decoded)");
	}
}

/* session.txt's ELF lines, as mttprofile writes them: the file, and
 * what tells later that it is still the ELF of the session (its .text
 * CRC32, the device's build id; its GNU build id) */
static void elf_ids(FILE *f, const char *elf)
{
	char err[256];
	struct mprof_sym *sym = mprof_sym_load(elf, err, sizeof(err));

	if (!sym) {
		fprintf(f, "elf=%s\n", elf);
		return;		/* mttdecode says why when it reads it */
	}
	mprof_sym_write_ids(f, elf, sym);
	mprof_sym_free(sym);
}

static int write_meta(const struct mc_tgt *g, struct mc_err *e)
{
	const struct mc_target *t = g->t;
	char path[PATH_MAX + 32], cmd[512];
	FILE *f;
	int i;

	mc_snprintf(path, sizeof(path), "%s/target", g->dir);
	f = fopen(path, "we");
	if (!f)
		return mc_fail(e, "%s: %s", path, strerror(errno));
	decode_cmd(t, cmd, sizeof(cmd));
	fprintf(f, "# mttcontrol serial target: decode with \"%s\" here\n",
		cmd);
	fprintf(f, "target 1\nname %s\nprotocol %s\nport %s\nbaud %lu\n",
		t->name, mc_tproto_name(t->proto), g->port, t->baud);
	if (t->paced)
		fprintf(f, "paced 1\n");
	if (t->proto == MC_TP_RISCV)
		fprintf(f, "srcid_bits %u\nts_bytes %u\nunframed %d\n",
			t->srcid_bits, t->ts_bytes, t->unframed);
	for (i = 0; i < t->nsrcid_proto; i++)
		fprintf(f, "%s%s%s", i ? " " : "srcid_proto ",
			t->srcid_proto[i], i + 1 < t->nsrcid_proto ? "" : "\n");
	if (t->elf[0])
		fprintf(f, "elf %s\n", g->elf);
	fprintf(f, "capture %s\nreads reads\ndecode %s\n",
		capture_name(t->proto), cmd);
	if (fclose(f))
		return mc_fail(e, "%s: %s", path, strerror(errno));
	if (t->proto != MC_TP_MPROF)
		return 0;
	/* what mttprofile's session.txt says: the ELF to name functions */
	mc_snprintf(path, sizeof(path), "%s/session.txt", g->dir);
	f = fopen(path, "we");
	if (!f)
		return mc_fail(e, "%s: %s", path, strerror(errno));
	fprintf(f, "port=%s\nbaud=%lu\n", g->port, t->baud);
	if (t->elf[0])
		elf_ids(f, g->elf);
	if (fclose(f))
		return mc_fail(e, "%s: %s", path, strerror(errno));
	return 0;
}

int mc_put_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static size_t uleb(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			p[n] |= 0x80;
		n++;
	} while (v);
	return n;
}

static int put_pair(struct mc_tgt *g, uint64_t off, uint64_t t)
{
	uint8_t b[20];
	size_t n = uleb(b, off - g->r_off);

	n += uleb(b + n, t - g->r_t);
	g->r_off = off;
	g->r_t = t;
	return mc_put_all(g->rfd, b, n);
}

/* the read that ended at offset off, at time t */
static int note_read(struct mc_tgt *g, uint64_t off, uint64_t t)
{
	if (g->npairs && t - g->r_t < MC_READS_NS) {
		g->p_off = off;
		g->p_t = t;
		g->pend = 1;
		return 0;
	}
	if (g->pend && put_pair(g, g->p_off, g->p_t))
		return -1;
	g->pend = 0;
	g->npairs++;
	return put_pair(g, off, t);
}

int mc_tgt_open(struct mc_tgt *g, const struct mc_target *t,
		const char *sessdir, const char *file, struct mc_err *e)
{
	char path[PATH_MAX + 32];
	uint8_t head[16];
	int i;

	memset(g, 0, sizeof(*g));
	g->t = t;
	g->fd = g->out = g->rfd = -1;
	if (mc_udev_tty(t, file, g->port, sizeof(g->port), e))
		return -1;
	if (t->elf[0] && !realpath(t->elf, g->elf))
		return mc_fail(e, "%s:%d: target \"%s\": elf %s: %s", file,
			       t->line, t->name, t->elf, strerror(errno));
	mc_snprintf(g->dir, sizeof(g->dir), "%s/targets", sessdir);
	if (mkdir(g->dir, 0755) && errno != EEXIST)
		return mc_fail(e, "%s: %s", g->dir, strerror(errno));
	mc_snprintf(g->dir, sizeof(g->dir), "%s/targets/%s", sessdir,
		    t->name);
	if (mkdir(g->dir, 0755))
		return mc_fail(e, "%s: %s", g->dir, strerror(errno));
	g->fd = mprof_serial_open(g->port, t->baud);
	if (g->fd < 0)
		return mc_fail(e, "target \"%s\": %s: %s", t->name, g->port,
			       strerror(errno));
	if (write_meta(g, e))
		return -1;
	mc_snprintf(path, sizeof(path), "%s/%s", g->dir,
		    capture_name(t->proto));
	g->out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (g->out < 0)
		return mc_fail(e, "%s: %s", path, strerror(errno));
	mc_snprintf(path, sizeof(path), "%s/reads", g->dir);
	g->rfd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (g->rfd < 0)
		return mc_fail(e, "%s: %s", path, strerror(errno));
	g->r_t = now_ns();
	memcpy(head, MTTS_READS_MAGIC, 8);
	for (i = 0; i < 8; i++)
		head[8 + i] = (uint8_t)(g->r_t >> (8 * i));
	if (mc_put_all(g->rfd, head, sizeof(head)))
		return mc_fail(e, "%s: %s", path, strerror(errno));
	return mc_sync_open(g, e);
}

int mc_tgt_begin(struct mc_tgt *g, struct mc_err *e)
{
	const struct mc_target *t = g->t;
	/* START to any target (Documentation/mtt.rst, "Commands and
	 * replies"): the preamble alone, no value, no CRC */
	const uint32_t w[MTT_FRAME_PREAMBLE_WORDS] = {
		MTT_FRAME_WORD0(MTT_FRAME_TARGET_CONTROL), MTT_FRAME_CMD_START
	};
	uint8_t f[MTT_FRAME_PREAMBLE_BYTES];
	int i, bad = 0;

	/* a MiniProfiler device says what it is, and starts profiling */
	if (t->proto == MC_TP_MPROF)
		bad = mprof_serial_cmd(g->fd, MPROF_CMD_GET_METADATA) ||
		      mprof_serial_cmd(g->fd, MPROF_CMD_START);
	else if (t->mtt_start) {	/* mtt and riscv-encap only */
		for (i = 0; i < MTT_FRAME_PREAMBLE_BYTES; i++)
			f[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
		bad = mc_put_all(g->fd, f, sizeof(f));
	}
	if (bad)
		return mc_fail(e, "target \"%s\": %s: sending START: %s",
			       t->name, g->port, strerror(errno));
	return 0;
}

int mc_srcid_proto(const char *s, unsigned long max, unsigned long *lo,
		   unsigned long *hi, int *mtt)
{
	const char *colon = strrchr(s, ':');
	char *end;

	if (!colon || colon == s)
		return -1;
	if (!strcmp(colon, ":mtt"))
		*mtt = 1;
	else if (!strcmp(colon, ":stp") || !strcmp(colon, ":raw"))
		*mtt = 0;
	else
		return -1;
	*lo = 0;
	*hi = max;
	if (colon - s == 1 && *s == '*')
		return 0;
	if (*s < '0' || *s > '9')
		return -1;
	*lo = strtoul(s, &end, 10);
	*hi = *lo;
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			return -1;
		*hi = strtoul(end + 1, &end, 10);
	}
	return end != colon || *lo > *hi || *hi > max ? -1 : 0;
}

unsigned long mc_rv_mtt_srcids(const struct mc_target *t, uint8_t *map)
{
	unsigned long lo, hi, id, n = 0;
	int i, mtt;

	memset(map, 0, MC_RV_MAP_BYTES);
	for (i = 0; i < t->nsrcid_proto; i++) {
		if (mc_srcid_proto(t->srcid_proto[i],
				   (1ul << t->srcid_bits) - 1, &lo, &hi, &mtt))
			continue;	/* the configuration said so */
		for (id = lo; id <= hi; id++)
			if (mtt)
				map[id / 8] |= (uint8_t)(1u << (id % 8));
			else
				map[id / 8] &= (uint8_t)~(1u << (id % 8));
	}
	for (id = 0; id < (1ul << t->srcid_bits); id++)
		n += map[id / 8] >> (id % 8) & 1;
	return n;
}

int mc_tgt_stop(struct mc_tgt *g, FILE *log)
{
	if (g->fd < 0 || g->t->proto != MC_TP_MPROF)
		return 0;
	if (mprof_serial_cmd(g->fd, MPROF_CMD_STOP) ||
	    mprof_serial_cmd(g->fd, MPROF_CMD_GET_STATUS)) {
		fprintf(log, "collector: target %s: sending STOP: %s\n",
			g->t->name, strerror(errno));
		return 0;
	}
	return 1;
}

/* the port is gone: said in the log and in DIR/targets/NAME/vanished */
static void vanished(struct mc_tgt *g, FILE *log)
{
	char path[PATH_MAX + 16];
	FILE *f;

	fprintf(log, "collector: target %s: port %s vanished (%s) after %llu bytes\n",
		g->t->name, g->port, g->why, (unsigned long long)g->bytes);
	fflush(log);
	mc_snprintf(path, sizeof(path), "%s/vanished", g->dir);
	f = fopen(path, "we");
	if (f) {
		fprintf(f, "%s\n", g->why);
		fclose(f);
	}
	close(g->fd);
	g->fd = -1;
}

int mc_tgt_pump(struct mc_tgt *g, char *buf, size_t len, int hup,
		FILE *log)
{
	ssize_t r;

	if (g->fd < 0)
		return 0;
	r = read(g->fd, buf, len);
	/* raw mode, VMIN 0: 0 is "nothing there", unless poll saw a hangup */
	if ((r < 0 && (errno == EAGAIN || errno == EINTR)) || (!r && !hup))
		return 0;
	if (r <= 0) {	/* EIO (a USB adapter unplugged), or a hangup */
		mc_snprintf(g->why, sizeof(g->why), "%s",
			    r ? strerror(errno) : "hung up");
		vanished(g, log);
		return -1;
	}
	if (mc_put_all(g->out, buf, (size_t)r)) {
		mc_snprintf(g->why, sizeof(g->why), "not kept: %s",
			    strerror(errno));
		vanished(g, log);
		return -1;
	}
	g->bytes += (uint64_t)r;
	mc_sync_feed(g, (const uint8_t *)buf, (size_t)r);
	if (note_read(g, g->bytes, now_ns()) && !g->rerr) {
		g->rerr = 1;
		fprintf(log, "collector: target %s: reads: %s\n", g->t->name,
			strerror(errno));
	}
	return 1;
}

void mc_tgt_close(struct mc_tgt *g, FILE *summary)
{
	if (g->rfd >= 0 && g->pend)
		put_pair(g, g->p_off, g->p_t);
	if (summary)
		fprintf(summary, "target %s bytes %llu vanished %s\n",
			g->t->name, (unsigned long long)g->bytes,
			g->why[0] ? g->why : "-");
	if (summary && mc_sync_state(g))
		fprintf(summary, "target_clock %s %s\n", g->t->name,
			mc_sync_state(g));
	mc_sync_close(g);
	if (g->fd >= 0)
		close(g->fd);
	if (g->out >= 0)
		close(g->out);
	if (g->rfd >= 0)
		close(g->rfd);
	g->fd = g->out = g->rfd = -1;
}

/* ---- reading a session's targets back ----------------------------------- */

/* the metadata's "srcid_proto" words (NULL: none) into t */
static void protos_of(const char *v, struct mc_target *t)
{
	size_t n;

	while (v && *v && t->nsrcid_proto < MC_SRCID_PROTOS) {
		n = strcspn(v, " ");
		if (n && n < sizeof(t->srcid_proto[0]))
			mc_snprintf(t->srcid_proto[t->nsrcid_proto++],
				    sizeof(t->srcid_proto[0]), "%.*s", (int)n,
				    v);
		v += n + strspn(v + n, " ");
	}
}

/* TDIR's metadata (libmttsession) as a struct mc_target: 0, or -1 */
static int target_of(const char *tdir, struct mc_target *t)
{
	struct mtts_target m;
	int p, ret = mtts_target_read(tdir, &m);

	memset(t, 0, sizeof(*t));
	if (!ret) {
		p = m.protocol ? mc_tproto_parse(m.protocol) : -1;
		t->proto = p < 0 ? MC_TP_RAW : (enum mc_tproto)p;
		mc_snprintf(t->name, sizeof(t->name), "%s", m.name);
		mc_snprintf(t->port, sizeof(t->port), "%s",
			    m.port ? m.port : "?");
		mc_snprintf(t->elf, sizeof(t->elf), "%s", m.elf ? m.elf : "");
		t->baud = m.baud;
		t->paced = m.paced;
		t->srcid_bits = m.srcid_bits <= MC_RV_MAX_SRCID_BITS ?
				(unsigned int)m.srcid_bits : MC_RV_SRCID_BITS;
		t->ts_bytes = m.ts_bytes <= MC_RV_MAX_TS_BYTES ?
			      (unsigned int)m.ts_bytes : MC_RV_TS_BYTES;
		t->unframed = m.unframed;
		protos_of(m.srcid_proto, t);
	}
	mtts_target_free(&m);
	return ret;
}

int mc_session_targets(const char *dir,
		       void (*fn)(void *ctx, const char *name,
				  const char *tdir),
		       void *ctx)
{
	char path[PATH_MAX + MC_NAME_MAX];
	char **v = NULL;
	int i, n = 0;

	mtts_targets(dir, &v, &n);	/* out of memory: those listed */
	for (i = 0; fn && i < n; i++) {
		mc_snprintf(path, sizeof(path), "%s/targets/%s", dir, v[i]);
		fn(ctx, v[i], path);
	}
	mtts_free_list(v, n);
	return n;
}

/* ---- counting what a capture holds ---------------------------------------- */

static void on_frame(void *ctx, const struct mttd_mtt_frame *fr, uint64_t off)
{
	struct mc_tcounts *n = ctx;

	(void)fr;
	(void)off;
	n->records++;
}

static void on_skip(void *ctx, uint64_t off, uint64_t bytes)
{
	struct mc_tcounts *n = ctx;

	(void)off;
	n->errors++;
	n->skipped += bytes;
}

static void on_syst(void *ctx, const struct mttd_syst_msg *m)
{
	(void)ctx;
	(void)m;
}

static void on_rv_stp(void *ctx, const struct mttd_stp_event *ev, size_t n)
{
	(void)ctx;
	(void)ev;
	(void)n;
}

/* the decoder of one protocol, fed the capture in chunks */
struct counter {
	enum mc_tproto p;
	struct mttd_mtt_stream *mtt;
	struct mttd_syst *syst;
	struct mttd_syst_stream *sst;
	struct mttd_rv *rv;
	struct mttd_rv_mtt *rv_mtt;	/* riscv: the MTT srcIDs' frames */
	struct mc_tcounts *n;
	int oom;
	struct mprof_collect mp;
	int mp_init;
};

static void on_rv_frame(void *ctx, uint32_t srcid,
			const struct mttd_mtt_frame *f, uint64_t off)
{
	(void)srcid;
	on_frame(ctx, f, off);
}

static void on_rv_skip(void *ctx, uint32_t srcid, uint64_t off,
		       uint64_t bytes)
{
	(void)srcid;
	on_skip(ctx, off, bytes);
}

/* a packet: to its srcID's frames if it is an MTT srcID, else counted */
static void on_rv_pkt(void *ctx, const struct mttd_rv_packet *pkt,
		      uint64_t off)
{
	struct counter *c = ctx;
	int r = 0;

	(void)off;
	if (!pkt->length)
		return;
	if (c->rv_mtt)
		r = mttd_rv_mtt_push(c->rv_mtt, pkt);
	if (!r)
		c->n->records++;
	else if (r < 0)
		c->oom = 1;
}

int mc_rv_open(const struct mc_target *t, struct mttd_rv_config *c,
	       mttd_rv_mtt_frame_fn fn, mttd_rv_mtt_skip_fn skip, void *ctx,
	       struct mttd_rv **rv, struct mttd_rv_mtt **rvm)
{
	uint8_t *map = malloc(MC_RV_MAP_BYTES);
	uint8_t *none = calloc(1, MC_RV_MAP_BYTES);
	int r = -1;

	*rv = NULL;
	*rvm = NULL;
	if (map && none) {
		c->stp_srcids = none;
		*rv = mttd_rv_new(c);
		if (!mc_rv_mtt_srcids(t, map))
			r = *rv ? 0 : -1;
		else if ((*rvm = mttd_rv_mtt_new(map, t->srcid_bits, fn, skip,
						 ctx)))
			r = *rv ? 0 : -1;
	}
	free(map);
	free(none);
	return r;
}

static int counter_new(struct counter *c, const struct mc_target *t,
		       struct mc_tcounts *n)
{
	struct mttd_syst_config sc = { .fn = on_syst };
	struct mttd_rv_config rc = {
		.fn = on_rv_stp, .ctx = c, .pkt_fn = on_rv_pkt,
		.srcid_bits = t->srcid_bits, .ts_bytes = t->ts_bytes,
		.flags = t->unframed ? MTTD_RV_UNFRAMED : 0,
	};

	memset(c, 0, sizeof(*c));
	c->p = t->proto;
	c->n = n;
	switch (t->proto) {
	case MC_TP_MTT:
		c->mtt = mttd_mtt_stream_new(on_frame, on_skip, n);
		return c->mtt ? 0 : -1;
	case MC_TP_SYST:
		c->syst = mttd_syst_new(&sc);
		c->sst = c->syst ? mttd_syst_stream_new(c->syst) : NULL;
		return c->sst ? 0 : -1;
	case MC_TP_RISCV:
		return mc_rv_open(t, &rc, on_rv_frame, on_rv_skip, n, &c->rv,
				  &c->rv_mtt);
	case MC_TP_MPROF:
		if (mprof_collect_init(&c->mp, NULL, NULL))
			return -1;
		c->mp_init = 1;
		return 0;
	default:
		return 0;
	}
}

static int counter_feed(struct counter *c, const uint8_t *p, size_t len)
{
	if (c->mtt)
		return mttd_mtt_stream_push(c->mtt, p, len);
	if (c->sst)
		return mttd_syst_stream_feed(c->sst, p, len);
	if (c->rv)
		return mttd_rv_feed(c->rv, p, len) || c->oom ? -1 : 0;
	if (c->mp_init)
		return mprof_collect_feed(&c->mp, p, len);
	return 0;
}

static void counter_end(struct counter *c, struct mc_tcounts *n)
{
	if (c->mtt)
		mttd_mtt_stream_finish(c->mtt);
	if (c->sst) {
		const struct mttd_syst_stats *s;

		mttd_syst_stream_finish(c->sst);
		s = mttd_syst_stats(c->syst);
		n->records = s->messages;
		n->errors = s->resyncs;
		n->skipped = s->skipped;
	}
	if (c->rv) {
		const struct mttd_stp_stats *s;

		mttd_rv_finish(c->rv);
		if (c->rv_mtt)
			mttd_rv_mtt_finish(c->rv_mtt);
		s = mttd_rv_stats(c->rv);
		/* a synchronisation lost (a bad packet, the null.alignment
		 * rule broken), not a sync (a UART's encoder repeats them),
		 * and a packet cut at the end; added to the MTT srcIDs'
		 * damaged runs */
		n->errors += s->desyncs + s->truncated;
		n->skipped += s->unsynced_nibbles / 2;
	}
	if (c->mp_init) {
		const struct mprof_parser_stats *s;

		mprof_collect_finish(&c->mp);
		s = mprof_parser_stats(c->mp.parser);
		n->records = s->packets;
		n->errors = s->garbage_runs + s->crc_errors + s->end_errors +
			    s->truncated;
		n->skipped = s->garbage_bytes;
		n->profile_records = c->mp.records;
		if (c->mp.have_status)
			n->losses = c->mp.status.buffer_overflows;
	}
}

static void counter_free(struct counter *c)
{
	mttd_mtt_stream_free(c->mtt);
	mttd_syst_stream_free(c->sst);
	mttd_syst_free(c->syst);
	mttd_rv_free(c->rv);
	mttd_rv_mtt_free(c->rv_mtt);
	if (c->mp_init)
		mprof_collect_free(&c->mp);
}

int mc_target_count(const char *tdir, const struct mc_target *t,
		    struct mc_tcounts *n, struct mc_err *e)
{
	char path[PATH_MAX + 32];
	struct counter c;
	uint8_t *buf = malloc(65536);
	ssize_t r = 0;
	int fd, ret = 0;

	memset(n, 0, sizeof(*n));
	if (!buf || counter_new(&c, t, n)) {
		free(buf);
		if (buf)
			counter_free(&c);
		e->fatal = 1;
		return mc_fail(e, "out of memory");
	}
	mc_snprintf(path, sizeof(path), "%s/%s", tdir, capture_name(t->proto));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		ret = mc_fail(e, "%s: %s", path, strerror(errno));
	while (fd >= 0 && (r = read(fd, buf, 65536)) > 0) {
		n->bytes += (uint64_t)r;
		if (counter_feed(&c, buf, (size_t)r)) {
			e->fatal = 1;
			ret = mc_fail(e, "out of memory");
			break;
		}
	}
	if (fd >= 0 && r < 0)
		ret = mc_fail(e, "%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (!ret)
		counter_end(&c, n);
	counter_free(&c);
	free(buf);
	return ret;
}

/* ---- --stop and --status ---------------------------------------------------- */

struct show {
	FILE *f;
	int json, n, ret;
	struct mc_err *e;
};

/* the reason its port vanished, or "" */
static void why_vanished(const char *tdir, char *buf, size_t len)
{
	char path[PATH_MAX + 16];

	buf[0] = 0;
	mc_snprintf(path, sizeof(path), "%s/vanished", tdir);
	mc_read(path, buf, len);
}

/* the collector's word on the target's clock exchanges (DIR/summary's
 * "target_clock NAME STATE" line, TDIR being DIR/targets/NAME): 1 and
 * buf, or 0 (none: a protocol without them, or no summary) */
static int clock_of(const char *tdir, const char *name, char *buf,
		    size_t len)
{
	char path[PATH_MAX + 32], line[MC_NAME_MAX + 96];
	size_t k = strlen("target_clock ") + strlen(name);
	FILE *f;
	int found = 0;

	mc_snprintf(path, sizeof(path), "%s/../../summary", tdir);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "target_clock ", 13) &&
		    !strncmp(line + 13, name, strlen(name)) && line[k] == ' ') {
			line[strcspn(line, "\n")] = 0;
			mc_snprintf(buf, len, "%s", line + k + 1);
			found = 1;
		}
	if (f)
		fclose(f);
	return found;
}

static void stop_one(void *ctx, const char *name, const char *tdir)
{
	struct show *s = ctx;
	struct mc_target t;
	struct mc_tcounts n;
	char why[96], clk[64];

	if (target_of(tdir, &t)) {
		printf("target %s: %s/target: unreadable\n", name, tdir);
		return;
	}
	if (mc_target_count(tdir, &t, &n, s->e)) {
		s->ret = -1;
		return;
	}
	printf("target %s (%s on %s): captured %llu bytes: %llu record%s, %llu error%s (%llu bytes skipped), %llu losses",
	       name, mc_tproto_name(t.proto), t.port,
	       (unsigned long long)n.bytes, (unsigned long long)n.records,
	       n.records == 1 ? "" : "s", (unsigned long long)n.errors,
	       n.errors == 1 ? "" : "s", (unsigned long long)n.skipped,
	       (unsigned long long)n.losses);
	if (t.proto == MC_TP_MPROF)
		printf(", %llu profile records",
		       (unsigned long long)n.profile_records);
	if (t.proto == MC_TP_RAW)
		fputs(" (raw: not decoded)", stdout);
	if (clock_of(tdir, name, clk, sizeof(clk)))
		printf("; clock: %s", clk);
	putchar('\n');
	why_vanished(tdir, why, sizeof(why));
	if (why[0])
		printf("target %s: its port %s vanished during the session (%s): what came before is kept\n",
		       name, t.port, why);
}

int mc_print_targets(const char *dir, struct mc_err *e)
{
	struct show s = { .f = stdout, .e = e };

	mc_session_targets(dir, stop_one, &s);
	return s.ret;
}

static void status_one(void *ctx, const char *name, const char *tdir)
{
	struct show *s = ctx;
	struct mc_target t;
	char path[PATH_MAX + 32], why[96];
	unsigned long long bytes = 0;
	struct stat st;

	if (target_of(tdir, &t))
		return;
	mc_snprintf(path, sizeof(path), "%s/%s", tdir,
		    capture_name(t.proto));
	if (!stat(path, &st))
		bytes = (unsigned long long)st.st_size;
	why_vanished(tdir, why, sizeof(why));
	if (s->json) {
		fputs(s->n++ ? ",{" : "{", s->f);
		mc_json_str(s->f, "name");
		fputc(':', s->f);
		mc_json_str(s->f, name);
		fputs(",\"port\":", s->f);
		mc_json_str(s->f, t.port);
		fputs(",\"protocol\":", s->f);
		mc_json_str(s->f, mc_tproto_name(t.proto));
		fprintf(s->f, ",\"baud\":%lu,\"bytes\":%llu,\"vanished\":",
			t.baud, bytes);
		if (why[0])
			mc_json_str(s->f, why);
		else
			fputs("null", s->f);
		fputc('}', s->f);
		return;
	}
	fprintf(s->f, "  target %s: %s on %s at %lu baud: %llu bytes%s%s%s\n",
		name, mc_tproto_name(t.proto), t.port, t.baud, bytes,
		why[0] ? " (port vanished: " : "", why, why[0] ? ")" : "");
}

void mc_status_targets(FILE *f, int json, const char *dir)
{
	struct show s = { .f = f, .json = json };

	if (json)
		fputs(",\"targets\":[", f);
	mc_session_targets(dir, status_one, &s);
	if (json)
		fputc(']', f);
}
