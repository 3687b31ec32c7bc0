// SPDX-License-Identifier: GPL-2.0
/*
 * report_chrome.c - Chrome Trace Event Format JSON: one complete event
 * ("ph":"X") per call, microsecond timestamps (entry times unwrapped
 * past their 32-bit wrap), depth and address in args; opens in
 * Perfetto (ui.perfetto.dev) and chrome://tracing.
 * Also mprof_json_str(), the JSON string writer the HTML page shares.
 */
#include "mprof/mprof.h"

void mprof_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&' ||
			 c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int mprof_write_chrome(FILE *f, const struct mprof_profile *p)
{
	size_t i;

	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
	fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
	      "\"args\":{\"name\":", f);
	mprof_json_str(f, p->have_meta && p->meta.fw_version[0] ?
		       p->meta.fw_version : "MiniProfiler");
	fputs("}}", f);
	for (i = 0; i < p->nrec; i++) {
		const struct mprof_call *c = &p->calls[i];

		fputs(",\n{\"name\":", f);
		mprof_json_str(f, p->funcs[c->func].name);
		fprintf(f, ",\"cat\":\"function\",\"ph\":\"X\",\"ts\":%llu,\"dur\":%u,"
			"\"pid\":1,\"tid\":1,\"args\":{\"addr\":\"0x%08x\","
			"\"depth\":%u,\"self_us\":%u}}",
			(unsigned long long)c->entry,
			(unsigned int)c->r.duration_us,
			(unsigned int)c->r.func_addr, (unsigned int)c->r.depth,
			(unsigned int)c->self_us);
	}
	fputs("\n]}\n", f);
	return ferror(f) ? -1 : 0;
}
