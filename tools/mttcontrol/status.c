// SPDX-License-Identifier: GPL-2.0
/*
 * status.c - --status: STM devices and their sinks, protocol drivers,
 * policies with their nodes and attributes, sources and their links, MTT
 * components and filters, and the running session; as text, or with
 * --json as one JSON object.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mttcontrol.h"
#include "session/session.h"

struct out {
	FILE *f;
	int json;
	int n;		/* items written in the current JSON array */
};

void mc_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void jkey(struct out *o, const char *k, const char *v, int first)
{
	if (!first)
		fputc(',', o->f);
	mc_json_str(o->f, k);
	fputc(':', o->f);
	mc_json_str(o->f, v);
}

static void jnum(struct out *o, const char *k, const char *v)
{
	char *end;

	fputc(',', o->f);
	mc_json_str(o->f, k);
	fputc(':', o->f);
	strtoull(v, &end, 10);
	if (*v && !*end && v[0] != '-')
		fputs(v, o->f);
	else
		mc_json_str(o->f, v);
}

static void item(struct out *o)
{
	if (o->n++)
		fputc(',', o->f);
}

static void attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 64];

	mc_snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mc_read(path, buf, len))
		mc_snprintf(buf, len, "?");
}

static void one_device(void *ctx, const char *name, const char *syspath)
{
	static const char *const sinkattrs[] = {
		"size", "overwrite", "packets", "bytes_written", "drops",
		"bytes_read", "queued", NULL
	};
	struct out *o = ctx;
	struct mc_devinfo d;
	char m[64], c[64], v[64];
	int i;

	if (mc_udev_stm(name, &d))
		return;
	attr(syspath, "masters", m, sizeof(m));
	attr(syspath, "channels", c, sizeof(c));
	if (o->json) {
		item(o);
		fputc('{', o->f);
		jkey(o, "name", name, 1);
		jkey(o, "devnode", d.devnode, 0);
		jkey(o, "masters", m, 0);
		jnum(o, "channels", c);
	} else {
		o->n++;
		fprintf(o->f, "  %s: %s, masters %s, channels %s per master\n",
			name, d.devnode[0] ? d.devnode : "(no node)", m, c);
	}
	if (d.sink_devnode[0]) {
		char vals[8][64];

		for (i = 0; sinkattrs[i]; i++)
			attr(d.sink_syspath, sinkattrs[i], vals[i], sizeof(vals[i]));
		if (o->json) {
			fputs(",\"sink\":{", o->f);
			jkey(o, "devnode", d.sink_devnode, 1);
			for (i = 0; sinkattrs[i]; i++)
				jnum(o, sinkattrs[i], vals[i]);
			fputc('}', o->f);
		} else {
			unsigned long sz = strtoul(vals[0], NULL, 10);
			unsigned long q = strtoul(vals[6], NULL, 10);

			if (vals[6][0] == '?' || !sz)
				mc_snprintf(v, sizeof(v), "?");
			else
				mc_snprintf(v, sizeof(v), "%lu%%",
					 q * 32 * 100 / sz);
			fprintf(o->f, "    sink %s: %s bytes, %s mode, fill %s, packets %s, drops %s, bytes read %s\n",
				d.sink_devnode, vals[0],
				vals[1][0] == '1' || vals[1][0] == 'Y' ?
				"overwrite" : "drop", v, vals[2], vals[4],
				vals[5]);
		}
	}
	if (o->json)
		fputc('}', o->f);
}

static void protocols(struct out *o)
{
	DIR *d = opendir("/sys/module");
	struct dirent *de;
	int n = 0;

	if (o->json)
		fputs(",\"protocols\":[", o->f);
	else
		fputs("Protocol drivers:", o->f);
	while (d && (de = readdir(d))) {
		char name[MC_NAME_MAX], *p;

		if (strncmp(de->d_name, "stm_p_", 6))
			continue;
		mc_snprintf(name, sizeof(name), "%s", de->d_name + 4);
		if ((p = strstr(name, "sys_t")))
			p[3] = '-';	/* the module is stm_p_sys-t */
		if (o->json) {
			if (n)
				fputc(',', o->f);
			mc_json_str(o->f, name);
		} else {
			fprintf(o->f, " %s", name);
		}
		n++;
	}
	if (d)
		closedir(d);
	if (o->json)
		fputc(']', o->f);
	else
		fputs(n ? "\n" : " none loaded\n", o->f);
}

static int by_name(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* the attributes of a node (every file but the read-only ones) */
static void node_attrs(struct out *o, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int n = 0, i;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX + 256];
		char **nn;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "masters") ||
		    !strcmp(de->d_name, "channels"))
			continue;
		mc_snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (mc_isdir(path))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn)
			break;
		names = nn;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		char v[MC_VAL_MAX];

		attr(dir, names[i], v, sizeof(v));
		if (o->json)
			jkey(o, names[i], v, 0);
		else
			fprintf(o->f, " %s=%s", names[i], v);
		free(names[i]);
	}
	free(names);
}

static void nodes(struct out *o, const char *pol, const char *dir, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **subs = NULL;
	int ns = 0, i;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX];
		char **nn;

		if (de->d_name[0] == '.')
			continue;
		mc_snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!mc_isdir(path))
			continue;
		nn = realloc(subs, (ns + 1) * sizeof(*subs));
		if (!nn)
			break;
		subs = nn;
		subs[ns] = strdup(path);
		if (subs[ns])
			ns++;
	}
	if (d)
		closedir(d);
	if (ns)
		qsort(subs, ns, sizeof(*subs), by_name);
	for (i = 0; i < ns; i++) {
		const char *rel = subs[i] + strlen(pol) + 1;
		char m[64], c[64];

		attr(subs[i], "masters", m, sizeof(m));
		attr(subs[i], "channels", c, sizeof(c));
		if (o->json) {
			if ((*n)++)
				fputc(',', o->f);
			fputc('{', o->f);
			jkey(o, "path", rel, 1);
			jkey(o, "masters", m, 0);
			jkey(o, "channels", c, 0);
		} else {
			fprintf(o->f, "    %s: masters %s, channels %s", rel, m, c);
		}
		node_attrs(o, subs[i]);
		if (o->json)
			fputc('}', o->f);
		else
			fputc('\n', o->f);
		nodes(o, pol, subs[i], n);
		free(subs[i]);
	}
	free(subs);
}

static void policies(struct out *o)
{
	DIR *d = opendir(mc_policy_root());
	struct dirent *de;
	int n = 0;

	if (o->json)
		fputs(",\"policies\":[", o->f);
	else
		fprintf(o->f, "Policies (%s):%s\n", mc_policy_root(),
			d ? "" : " none (configfs or stm_core not loaded)");
	while (d && (de = readdir(d))) {
		char pol[PATH_MAX], dev[MC_NAME_MAX], proto[MC_NAME_MAX];
		int nn = 0;

		if (de->d_name[0] == '.')
			continue;
		mc_snprintf(pol, sizeof(pol), "%s/%s", mc_policy_root(), de->d_name);
		if (!mc_isdir(pol))
			continue;
		attr(pol, "device", dev, sizeof(dev));
		attr(pol, "protocol", proto, sizeof(proto));
		if (o->json) {
			if (n)
				fputc(',', o->f);
			fputc('{', o->f);
			jkey(o, "name", de->d_name, 1);
			jkey(o, "device", dev, 0);
			jkey(o, "protocol", proto, 0);
			fputs(",\"nodes\":[", o->f);
		} else {
			fprintf(o->f, "  %s: device %s, protocol %s\n",
				de->d_name, dev, proto);
		}
		nodes(o, pol, pol, &nn);
		if (o->json)
			fputs("]}", o->f);
		n++;
	}
	if (d)
		closedir(d);
	if (o->json)
		fputc(']', o->f);
	else if (d && !n)
		fputs("  none\n", o->f);
}

static void one_source(void *ctx, const char *name, const char *syspath)
{
	struct out *o = ctx;
	char link[MC_NAME_MAX], drops[64], path[PATH_MAX + 16];

	attr(syspath, "stm_source_link", link, sizeof(link));
	/* our class's counter; upstream's class has none: "-" */
	mc_snprintf(path, sizeof(path), "%s/drops", syspath);
	if (mc_read(path, drops, sizeof(drops)))
		mc_snprintf(drops, sizeof(drops), "-");
	if (o->json) {
		item(o);
		fputc('{', o->f);
		jkey(o, "name", name, 1);
		jkey(o, "link", link, 0);
		if (strcmp(drops, "-"))
			jnum(o, "drops", drops);
		else
			fputs(",\"drops\":null", o->f);
		fputc('}', o->f);
	} else {
		o->n++;
		fprintf(o->f, "  %s: linked to %s, drops %s\n", name, link,
			drops);
	}
}

static void mtt(struct out *o)
{
	char path[PATH_MAX], v[64];
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (!mc_isdir(mc_mtt_root())) {
		if (o->json)
			fputs(",\"mtt\":null", o->f);
		else
			fputs("MTT: not loaded\n", o->f);
		return;
	}
	attr(mc_mtt_root(), "filter", v, sizeof(v));
	if (o->json) {
		fputs(",\"mtt\":{", o->f);
		jkey(o, "filter", v, 1);
		fputs(",\"components\":[", o->f);
	} else {
		fprintf(o->f, "MTT: core filter %s\n", v);
	}
	mc_snprintf(path, sizeof(path), "%s/components", mc_mtt_root());
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char cp[PATH_MAX + 256], id[64], f[64], ch[64];

		if (de->d_name[0] == '.')
			continue;
		mc_snprintf(cp, sizeof(cp), "%s/%s", path, de->d_name);
		attr(cp, "id", id, sizeof(id));
		attr(cp, "filter", f, sizeof(f));
		attr(cp, "channel", ch, sizeof(ch));
		if (o->json) {
			if (n)
				fputc(',', o->f);
			fputc('{', o->f);
			jkey(o, "name", de->d_name, 1);
			jkey(o, "id", id, 0);
			jkey(o, "filter", f, 0);
			jkey(o, "channel", ch, 0);
			fputc('}', o->f);
		} else {
			fprintf(o->f, "  component %s: id %s, filter %s, channel %s\n",
				de->d_name, id, f, ch);
		}
		n++;
	}
	if (d)
		closedir(d);
	if (o->json)
		fputs("]}", o->f);
}

static void session(struct out *o, struct mc_err *e)
{
	struct mc_run r;
	int running = mc_run_get(&r, e) == 1;
	unsigned long long bytes = 0;
	char **f = NULL;
	int n = 0, i;

	if (running) {
		mtts_streams(r.dir, &f, &n);	/* out of memory: those listed */
		for (i = 0; i < n; i++) {
			struct stat st;

			if (!stat(f[i], &st))
				bytes += (unsigned long long)st.st_size;
		}
		mtts_free_list(f, n);
	}
	if (o->json) {
		fputs(",\"session\":", o->f);
		if (!running) {
			fputs("null", o->f);
			return;
		}
		fprintf(o->f, "{\"pid\":%ld,", r.pid);
		mc_json_str(o->f, "dir");
		fputc(':', o->f);
		mc_json_str(o->f, r.dir);
		fprintf(o->f, ",\"files\":%d,\"bytes\":%llu", n, bytes);
		mc_status_targets(o->f, 1, r.dir);
		fputc('}', o->f);
	} else if (running) {
		fprintf(o->f, "Session: running, collector pid %ld, %s: %llu bytes in %d file%s\n",
			r.pid, r.dir, bytes, n, n == 1 ? "" : "s");
		mc_status_targets(o->f, 0, r.dir);
	} else {
		fputs("Session: none\n", o->f);
	}
}

int mc_status(const struct mc_opts *opts, struct mc_err *e)
{
	struct out o = { .f = stdout, .json = opts->json };

	if (o.json)
		fputs("{\"devices\":[", o.f);
	else
		fputs("STM devices:\n", o.f);
	if (mc_udev_each("stm", one_device, &o))
		return mc_fail(e, "cannot enumerate STM devices with libudev");
	if (o.json)
		fputc(']', o.f);
	else if (!o.n)
		fputs("  none\n", o.f);
	protocols(&o);
	policies(&o);
	o.n = 0;
	if (o.json)
		fputs(",\"sources\":[", o.f);
	else
		fputs("Sources:\n", o.f);
	mc_udev_each("stm_source", one_source, &o);
	if (o.json)
		fputc(']', o.f);
	else if (!o.n)
		fputs("  none\n", o.f);
	mtt(&o);
	session(&o, e);
	if (o.json)
		fputs("}\n", o.f);
	return fflush(o.f) ? mc_fail(e, "write error") : 0;
}
