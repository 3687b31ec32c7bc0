// SPDX-License-Identifier: GPL-2.0
/*
 * mtt.c - MTT frames for the printers: frames that are a whole STP
 * message (p_mtt, or the mtt source through p_basic), frames carried in
 * SyS-T messages (RAW subtype 0x31, or tunnelled in STRING/GENERIC by an
 * upstream p_sys-t), raw files of frames (--input=mtt) and the payloads
 * of riscv-encap srcIDs named mtt (--srcid-proto=IDS:mtt).  Components
 * are named from META frames and the collateral; META frames themselves
 * are shown too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int mtt_setup(struct app *a)
{
	a->mtt_names = mttd_mtt_names_new(a->coll);
	a->mtt_value = malloc(MTT_VALUE_BUF);
	return a->mtt_names && a->mtt_value ? 0 : -1;
}

void mtt_teardown(struct app *a)
{
	mttd_mtt_stream_free(a->mtt_stream);
	mttd_rv_mtt_free(a->rv_mtt);
	mttd_mtt_names_free(a->mtt_names);
	free(a->mtt_value);
}

static const char *source(struct app *a, unsigned int master,
			  unsigned int channel)
{
	if (!a->policy)
		return NULL;
	return mttd_policy_lookup(a->policy, master, channel);
}

static void show(struct app *a, struct mview *v)
{
	const struct mttd_mtt_frame *f = v->f;
	size_t n;

	mttd_mtt_names_learn(a->mtt_names, f);
	if (a->o.no_output || !a->o.messages || !a->pr->mtt)
		return;
	v->comp = mttd_mtt_comp_name(a->mtt_names, f->comp);
	v->name = mttd_mtt_value_name(a->mtt_names, f);
	v->level = (f->flags & MTT_FRAME_F_LEVEL) ?
		   mttd_mtt_level_name(f->level, v->level_buf) : NULL;
	n = mttd_mtt_value(f, a->mtt_value, MTT_VALUE_BUF);
	v->value = a->mtt_value;
	v->value_len = n < MTT_VALUE_BUF ? n : MTT_VALUE_BUF - 1;
	a->pr->mtt(a, v);
}

int mtt_from_msg(struct app *a, const struct mttd_msg *m)
{
	struct mttd_mtt_frame f;
	struct mview v;

	if (!mttd_mtt_is_frame(m->data, m->len) ||
	    mttd_mtt_parse(m->data, m->len, &f) <= 0)
		return 0;
	memset(&v, 0, sizeof(v));
	v.f = &f;
	v.via = "stp";
	v.stp = 1;
	v.master = m->master;
	v.channel = m->channel;
	v.has_stp_ts = (m->flags & MTTD_MSG_HAS_TS) != 0;
	v.stp_ts = m->ts;
	v.offset = m->offset;
	v.source = source(a, m->master, m->channel);
	show(a, &v);
	return 1;
}

int mtt_from_syst(struct app *a, const struct mttd_syst_msg *m)
{
	struct mttd_mtt_frame f;
	struct mview v;

	if (!mtt_syst_carrier(m) || !mttd_mtt_is_frame(m->payload, m->payload_len) ||
	    mttd_mtt_parse(m->payload, m->payload_len, &f) <= 0)
		return 0;
	memset(&v, 0, sizeof(v));
	v.f = &f;
	v.via = "syst";
	v.stp = (m->flags & MTTD_SYST_F_STP) != 0;
	v.master = m->master;
	v.channel = m->channel;
	v.has_stp_ts = (m->flags & MTTD_SYST_F_STP_TS) != 0;
	v.stp_ts = m->stp_ts;
	v.offset = m->offset;
	if (v.stp)
		v.source = source(a, m->master, m->channel);
	show(a, &v);
	return 1;
}

/* a frame of a raw stream (a file, or a riscv-encap srcID's payloads) */
static void show_raw(struct app *a, const struct mttd_mtt_frame *f,
		     uint64_t offset, uint64_t end, const char *via,
		     const char *source)
{
	struct mview v;

	memset(&v, 0, sizeof(v));
	v.f = f;
	v.via = via;
	v.source = source;
	v.offset = offset;
	v.end = end;
	show(a, &v);
}

static void on_frame(void *ctx, const struct mttd_mtt_frame *f,
		     uint64_t offset)
{
	show_raw(ctx, f, offset, 0, "file", NULL);
}

static void on_skip(void *ctx, uint64_t offset, uint64_t bytes)
{
	struct app *a = ctx;

	if (!a->o.no_output && a->pr->mtt_skip)
		a->pr->mtt_skip(a, offset, bytes);
}

int mtt_stream_open(struct app *a)
{
	mttd_mtt_stream_free(a->mtt_stream);
	a->mtt_stream = mttd_mtt_stream_new(on_frame, on_skip, a);
	return a->mtt_stream ? 0 : -1;
}

void mtt_stream_feed(struct app *a, const uint8_t *p, size_t n)
{
	if (mttd_mtt_stream_push(a->mtt_stream, p, n))
		fprintf(stderr, "mttdecode: %s: out of memory\n", a->name);
}

void mtt_stream_close(struct app *a)
{
	mttd_mtt_stream_finish(a->mtt_stream);
	mttd_mtt_stream_free(a->mtt_stream);
	a->mtt_stream = NULL;
}

/*
 * riscv-encap: the payloads of each MTT srcID, end to end, are a raw
 * stream of frames (libmttfw's RISC-V encapsulation, Documentation/
 * firmware-mtt.rst), kept apart by the library (mttd_rv_mtt_new(3));
 * each is shown as source "src<ID>", offsets counted in that srcID's
 * payload bytes; a frame's end in the input is that of the packet that
 * completed it (a frame completes while that packet is pushed).
 */
static void on_rv_frame(void *ctx, uint32_t srcid,
			const struct mttd_mtt_frame *f, uint64_t offset)
{
	struct app *a = ctx;
	char name[16];

	snprintf(name, sizeof(name), "src%u", (unsigned int)srcid);
	show_raw(a, f, offset, a->rv_mtt_end, "riscv", name);
}

static void on_rv_skip(void *ctx, uint32_t srcid, uint64_t offset,
		       uint64_t bytes)
{
	(void)srcid;
	on_skip(ctx, offset, bytes);
}

int mtt_encap_open(struct app *a)
{
	if (!a->o.rv_mtt)
		return 0;
	a->rv_mtt = mttd_rv_mtt_new(a->o.rv_mtt, (unsigned int)a->o.srcid_bits,
				    on_rv_frame, on_rv_skip, a);
	return a->rv_mtt ? 0 : -1;
}

int mtt_encap(struct app *a, const struct mttd_rv_packet *p, uint64_t end)
{
	int r;

	if (!a->rv_mtt)
		return 0;
	a->rv_mtt_end = end;
	r = mttd_rv_mtt_push(a->rv_mtt, p);
	if (r < 0)
		fprintf(stderr, "mttdecode: %s: out of memory\n", a->name);
	return r != 0;
}

void mtt_encap_close(struct app *a)
{
	mttd_rv_mtt_finish(a->rv_mtt);
	mttd_rv_mtt_free(a->rv_mtt);
	a->rv_mtt = NULL;
}
