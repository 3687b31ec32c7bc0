// SPDX-License-Identifier: GPL-2.0
/*
 * report_events.c - a capture as it was received, for mttdecode: one
 * line per response, PROFILE_DATA record and stream error, as text or
 * as JSON lines ("kind": metadata, status, ack, nack, profile_data,
 * record, time_sync, error), and the per-function statistics as JSON lines ("kind":
 * function).  The text format's statistics are mprof_write_text()'s.
 */
#include <stdlib.h>

#include "mprof/mprof.h"

static void jhex(FILE *f, const char *key, uint32_t v)
{
	fprintf(f, ",\"%s\":\"0x%08x\"", key, (unsigned int)v);
}

/* addr as "func" or "func+0xoff" into buf, or NULL when not named */
static const char *fname(const struct mprof_sym *sym, uint32_t addr,
			 char *buf, size_t n)
{
	uint32_t off = 0;
	const char *s = sym ? mprof_sym_lookup(sym, addr, &off) : NULL;

	if (!s)
		return NULL;
	if (off)
		snprintf(buf, n, "%s+0x%x", s, (unsigned int)off);
	else
		snprintf(buf, n, "%s", s);
	return buf;
}

static void records(FILE *f, int js, const struct mprof_sym *sym,
		    const struct mprof_event *ev)
{
	unsigned int version = 0, count = 0, i;
	int ret = mprof_profile_check(ev->payload, ev->len, &version, &count);
	unsigned long long off = (unsigned long long)ev->offset;

	if (ret) {
		const char *why = ret == -2 ? "version" : "payload";

		if (js)
			fprintf(f, "{\"kind\":\"error\",\"error\":\"%s\",\"offset\":%llu,\"type\":5,\"version\":%u,\"len\":%zu}\n",
				why, off, version, ev->len);
		else
			fprintf(f, "!! PROFILE_DATA at @%llu: %s, skipped\n", off,
				ret == -2 ? "unsupported version" :
				"record count does not match its length");
		return;
	}
	if (js)
		fprintf(f, "{\"kind\":\"profile_data\",\"offset\":%llu,\"version\":%u,\"records\":%u}\n",
			off, version, count);
	else
		fprintf(f, "@%llu PROFILE_DATA version=%u records=%u\n", off,
			version, count);
	for (i = 0; i < count; i++) {
		struct mprof_record r;
		char nb[512];
		const char *nm;

		mprof_record_get(&r, ev->payload + MPROF_PROFILE_HDR_LEN +
				 (size_t)i * MPROF_RECORD_LEN);
		nm = fname(sym, r.func_addr, nb, sizeof(nb));
		if (js) {
			fputs("{\"kind\":\"record\"", f);
			jhex(f, "func_addr", r.func_addr);
			if (nm) {
				fputs(",\"name\":", f);
				mprof_json_str(f, nm);
			}
			fprintf(f, ",\"entry_time\":%u,\"duration_us\":%u,\"depth\":%u}\n",
				(unsigned int)r.entry_time,
				(unsigned int)r.duration_us,
				(unsigned int)r.depth);
		} else {
			fprintf(f, "  0x%08x entry=%u dur=%u depth=%u%s%s\n",
				(unsigned int)r.func_addr,
				(unsigned int)r.entry_time,
				(unsigned int)r.duration_us,
				(unsigned int)r.depth, nm ? " " : "",
				nm ? nm : "");
		}
	}
}

static void stream_error(FILE *f, int js, const struct mprof_event *ev)
{
	static const char *const what[] = {
		[MPROF_EV_GARBAGE] = "garbage", [MPROF_EV_CRC] = "crc",
		[MPROF_EV_BAD_END] = "end_marker",
		[MPROF_EV_TRUNCATED] = "truncated",
	};
	unsigned long long off = (unsigned long long)ev->offset;

	if (js) {
		fprintf(f, "{\"kind\":\"error\",\"error\":\"%s\",\"offset\":%llu,\"len\":%zu",
			what[ev->kind], off, ev->len);
		if (ev->kind == MPROF_EV_CRC)
			fprintf(f, ",\"type\":%u,\"crc\":\"0x%04x\",\"expected\":\"0x%04x\"",
				ev->type, ev->crc_got, ev->crc_want);
		fputs("}\n", f);
	} else if (ev->kind == MPROF_EV_GARBAGE) {
		fprintf(f, "!! skipped %zu bytes at @%llu\n", ev->len, off);
	} else if (ev->kind == MPROF_EV_CRC) {
		fprintf(f, "!! CRC error at @%llu: %s, %zu bytes, CRC 0x%04x, expected 0x%04x; discarded\n",
			off, mprof_type_name(ev->type), ev->len, ev->crc_got,
			ev->crc_want);
	} else {
		fprintf(f, "!! %s at @%llu (%zu bytes); discarded\n",
			ev->kind == MPROF_EV_BAD_END ? "bad end marker" :
			"packet cut short", off, ev->len);
	}
}

void mprof_write_event(FILE *f, int json, const struct mprof_sym *sym,
		       const struct mprof_event *ev)
{
	unsigned long long off = (unsigned long long)ev->offset;
	int js = json;

	if (ev->kind != MPROF_EV_PACKET) {
		stream_error(f, js, ev);
		return;
	}
	switch (ev->type) {
	case MPROF_RSP_METADATA: {
		struct mprof_metadata m;

		if (mprof_metadata_get(&m, ev->payload, ev->len)) {
			fprintf(f, js ? "{\"kind\":\"error\",\"error\":\"payload\",\"offset\":%llu,\"type\":3,\"len\":%zu}\n" :
				"!! METADATA at @%llu too short (%zu bytes)\n", off, ev->len);
			break;
		}
		if (js) {
			fprintf(f, "{\"kind\":\"metadata\",\"offset\":%llu,\"mcu_clock_hz\":%u,\"timer_freq\":%u",
				off, (unsigned int)m.mcu_clock_hz,
				(unsigned int)m.timer_freq);
			jhex(f, "elf_build_id", m.elf_build_id);
			fputs(",\"fw_version\":", f);
			mprof_json_str(f, m.fw_version);
			fputs("}\n", f);
		} else {
			fprintf(f, "@%llu METADATA mcu_clock_hz=%u timer_freq=%u elf_build_id=0x%08x fw_version=\"%s\"\n",
				off, (unsigned int)m.mcu_clock_hz,
				(unsigned int)m.timer_freq,
				(unsigned int)m.elf_build_id, m.fw_version);
		}
		break;
	}
	case MPROF_RSP_STATUS: {
		struct mprof_status s;

		if (mprof_status_get(&s, ev->payload, ev->len)) {
			fprintf(f, js ? "{\"kind\":\"error\",\"error\":\"payload\",\"offset\":%llu,\"type\":4,\"len\":%zu}\n" :
				"!! STATUS at @%llu too short (%zu bytes)\n", off, ev->len);
			break;
		}
		fprintf(f, js ? "{\"kind\":\"status\",\"offset\":%llu,\"is_profiling\":%u,\"buffer_overflows\":%u,\"records_captured\":%u,\"buffer_usage_percent\":%u}\n" :
			"@%llu STATUS is_profiling=%u buffer_overflows=%u records_captured=%u buffer_usage_percent=%u\n",
			off, s.is_profiling, (unsigned int)s.buffer_overflows,
			(unsigned int)s.records_captured,
			s.buffer_usage_percent);
		break;
	}
	case MPROF_RSP_ACK:
	case MPROF_RSP_NACK:
		fprintf(f, js ? "{\"kind\":\"%s\",\"offset\":%llu}\n" : "@%2$llu %1$s\n",
			js ? (ev->type == MPROF_RSP_ACK ? "ack" : "nack") :
			mprof_type_name(ev->type), off);
		break;
	case MPROF_RSP_PROFILE_DATA:
		records(f, js, sym, ev);
		break;
	case MPROF_RSP_TIME_SYNC: {
		struct mprof_time_sync t;
		unsigned long long end = off + MPROF_RSP_OVERHEAD + ev->len;

		if (mprof_time_sync_get(&t, ev->payload, ev->len)) {
			fprintf(f, js ? "{\"kind\":\"error\",\"error\":\"payload\",\"offset\":%llu,\"type\":6,\"len\":%zu}\n" :
				"!! TIME_SYNC at @%llu too short (%zu bytes)\n", off, ev->len);
			break;
		}
		fprintf(f, js ? "{\"kind\":\"time_sync\",\"offset\":%llu,\"seq\":%u,\"t_rx\":%u,\"t_tx\":%u,\"end_offset\":%llu}\n" :
			"@%llu TIME_SYNC seq=%u t_rx=%u t_tx=%u end=%llu\n",
			off, (unsigned int)t.seq, (unsigned int)t.t_rx,
			(unsigned int)t.t_tx, end);
		break;
	}
	}
}

int mprof_write_functions_json(FILE *f, const struct mprof_profile *p)
{
	const struct mprof_func_stats **v = mprof_profile_sorted(p);
	size_t i;

	if (!v)
		return -1;
	for (i = 0; v[i]; i++) {
		fputs("{\"kind\":\"function\",\"name\":", f);
		mprof_json_str(f, v[i]->name);
		jhex(f, "addr", v[i]->addr);
		fprintf(f, ",\"calls\":%llu,\"total_us\":%llu,\"self_us\":%llu,\"min_us\":%u,\"max_us\":%u}\n",
			(unsigned long long)v[i]->calls,
			(unsigned long long)v[i]->total_us,
			(unsigned long long)v[i]->self_us,
			(unsigned int)v[i]->min_us, (unsigned int)v[i]->max_us);
	}
	free(v);
	return ferror(f) ? -1 : 0;
}
