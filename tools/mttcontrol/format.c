// SPDX-License-Identifier: GPL-2.0
/*
 * format.c - the stream format of a session: what the sink emits
 * (swstm's "format", "srcid_bits" and "ts_bytes" attributes; a sink
 * without them emits STPv2), as mttsession records it at the start, and
 * read back from mttsession to decode the stream (--view, --stop's
 * counts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttcontrol.h"
#include "session/session.h"

/* a width attribute of the sink; def when it is absent or unreadable */
static unsigned int sink_width(const char *syspath, const char *attr,
			       unsigned int max, unsigned int def)
{
	char path[PATH_MAX + 32], buf[32], *end;
	unsigned long v;

	mc_snprintf(path, sizeof(path), "%s/%s", syspath, attr);
	if (mc_read(path, buf, sizeof(buf)))
		return def;
	v = strtoul(buf, &end, 10);
	return end == buf || *end || v > max ? def : (unsigned int)v;
}

void mc_sink_format(const struct mc_devinfo *d, struct mc_format *f)
{
	char path[PATH_MAX + 16], buf[32];

	memset(f, 0, sizeof(*f));
	if (!d->sink_syspath[0])
		return;
	mc_snprintf(path, sizeof(path), "%s/format", d->sink_syspath);
	if (mc_read(path, buf, sizeof(buf)) || strcmp(buf, "riscv"))
		return;
	f->riscv = 1;
	f->srcid_bits = sink_width(d->sink_syspath, "srcid_bits",
				   MC_RV_MAX_SRCID_BITS, MC_RV_SRCID_BITS);
	f->ts_bytes = sink_width(d->sink_syspath, "ts_bytes",
				 MC_RV_MAX_TS_BYTES, MC_RV_TS_BYTES);
}

void mc_session_format(const char *dir, struct mc_format *f)
{
	struct mtts_meta m;

	/* a bad line is left out; what the others say holds */
	mtts_meta_read(dir, &m, MC_RV_MAX_SRCID_BITS, MC_RV_MAX_TS_BYTES);
	memset(f, 0, sizeof(*f));
	f->riscv = m.riscv;
	f->srcid_bits = (unsigned int)m.srcid_bits;
	f->ts_bytes = (unsigned int)m.ts_bytes;
}
