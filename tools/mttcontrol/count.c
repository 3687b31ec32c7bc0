// SPDX-License-Identifier: GPL-2.0
/*
 * count.c - what a session captured: its stream files decoded in order
 * as one stream (as mttdecode DIR does, STPv2 or RISC-V trace
 * encapsulation as its mttsession says) with libmttdecode, to count
 * bytes, messages and losses.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mttdecode/msg.h"
#include "mttdecode/riscv.h"
#include "mttdecode/stp.h"
#include "mttcontrol.h"
#include "session/session.h"

static void on_event(void *ctx, const struct mttd_msg_event *ev)
{
	struct mc_counts *n = ctx;

	if (ev->kind != MTTD_ME_LOSS)
		return;
	/* GERR/MERR say how many packets; a desync or a cut is one loss */
	if (ev->reason == MTTD_LOSS_GERR || ev->reason == MTTD_LOSS_MERR)
		n->losses += ev->value ? ev->value : 1;
	else
		n->losses++;
}

int mc_count(const char *dir, struct mc_counts *n, struct mc_err *e)
{
	struct mttd_msg_sink sink = { .event = on_event, .ctx = n };
	struct mttd_msgdec *msg = mttd_msg_new(NULL);
	struct mttd_stp_config sc = { .fn = mttd_msg_stp_fn, .ctx = msg };
	struct mttd_rv_config rc = { .fn = mttd_msg_stp_fn, .ctx = msg };
	struct mttd_stp *stp = NULL;
	struct mttd_rv *rv = NULL;
	struct mc_format fmt;
	char *buf = malloc(65536);
	int i, nf = 0, fd, ret = 0;
	char **f = NULL;
	ssize_t r;

	memset(n, 0, sizeof(*n));
	mtts_streams(dir, &f, &nf);	/* out of memory: those listed */
	mc_session_format(dir, &fmt);
	rc.srcid_bits = fmt.srcid_bits;
	rc.ts_bytes = fmt.ts_bytes;
	if (msg && fmt.riscv)
		rv = mttd_rv_new(&rc);
	else if (msg)
		stp = mttd_stp_new(&sc);
	if ((!stp && !rv) || !buf || mttd_msg_add_sink(msg, &sink)) {
		e->fatal = 1;
		ret = mc_fail(e, "out of memory");
	}
	for (i = 0; i < nf && !ret; i++) {
		fd = open(f[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = mc_fail(e, "%s: %s", f[i], strerror(errno));
			break;
		}
		while ((r = read(fd, buf, 65536)) > 0) {
			if (rv)
				mttd_rv_feed(rv, buf, (size_t)r);
			else
				mttd_stp_feed(stp, buf, (size_t)r);
			n->bytes += (uint64_t)r;
		}
		if (r < 0)
			ret = mc_fail(e, "%s: %s", f[i], strerror(errno));
		close(fd);
		n->files++;
	}
	if (stp || rv) {
		if (rv)
			mttd_rv_finish(rv);
		else
			mttd_stp_finish(stp);
		n->messages = mttd_msg_stats(msg)->messages;
		n->incomplete = mttd_msg_stats(msg)->incomplete;
	}
	mtts_free_list(f, nf);
	free(buf);
	mttd_stp_free(stp);
	mttd_rv_free(rv);
	mttd_msg_free(msg);
	return ret;
}
