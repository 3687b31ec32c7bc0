// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - a session directory and the run files of the one session
 * a system runs at a time.
 *
 * Run files (in /run/mttcontrol, or $MTTCONTROL_RUNDIR): "lock", held
 * with flock() by the collector for as long as it runs (so a collector
 * that died, even by SIGKILL, holds nothing), and "session": the
 * collector's pid and the session directory, one a line.
 *
 * A session directory: "mttsession" (what, when, where, the stream's
 * format: key value lines), the stream in stream-NNNN.stp files (STPv2,
 * or RISC-V trace encapsulation when the sink emits that), "policy.txt" (the policy as
 * applied, mttdecode --policy format), "kallsyms", "events/" (the
 * tracefs formats of the ftrace system and of the events enabled at the
 * start or at the end of the session), "mttcontrol.conf" (the configuration used, if any),
 * "collateral.xml" (MTT's, if any) and, once the collector has ended,
 * "summary".  Read back (streams, metadata) with libmttsession
 * (tools/lib/session), as mttdecode reads it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "mttcontrol.h"

const char *mc_rundir(void)
{
	const char *r = getenv("MTTCONTROL_RUNDIR");

	return r && *r ? r : "/run/mttcontrol";
}

int mc_run_get(struct mc_run *r, struct mc_err *e)
{
	char path[PATH_MAX], buf[PATH_MAX + 64], *nl;
	int fd, running;

	memset(r, 0, sizeof(*r));
	r->lockfd = -1;
	mc_snprintf(path, sizeof(path), "%s/lock", mc_rundir());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return mc_fail(e, "%s: %s", path, strerror(errno));
	}
	running = flock(fd, LOCK_SH | LOCK_NB) != 0;
	close(fd);
	mc_snprintf(path, sizeof(path), "%s/session", mc_rundir());
	if (mc_read(path, buf, sizeof(buf)))
		return running;
	r->pid = strtol(buf, &nl, 10);
	if (*nl == '\n')
		mc_snprintf(r->dir, sizeof(r->dir), "%s", nl + 1);
	return running;
}

static int put(FILE *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int put(FILE *f, const char *key, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%s ", key);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fputc('\n', f);
}

int mc_policy_dump(const char *device, const char *file, char *proto_out,
		   size_t protolen, struct mc_err *e)
{
	DIR *d = opendir(mc_policy_root());
	struct dirent *de;
	char pol[PATH_MAX] = "";
	FILE *f;
	int ret;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX], dev[MC_NAME_MAX];

		if (de->d_name[0] == '.')
			continue;
		mc_snprintf(path, sizeof(path), "%s/%s/device", mc_policy_root(),
			 de->d_name);
		if (!mc_read(path, dev, sizeof(dev)) && !strcmp(dev, device))
			mc_snprintf(pol, sizeof(pol), "%s/%s", mc_policy_root(),
				 de->d_name);
	}
	if (d)
		closedir(d);
	f = fopen(file, "w");
	if (!f)
		return mc_fail(e, "%s: %s", file, strerror(errno));
	if (!pol[0]) {
		fprintf(f, "# stp-policy-dump: none (device %s has no policy)\n",
			device);
	} else {
		char proto[MC_NAME_MAX] = "?", path[PATH_MAX + 16];
		size_t plen = strlen(pol);
		FILE *p;
		char cmd[PATH_MAX + 128], line[PATH_MAX];

		mc_snprintf(path, sizeof(path), "%s/protocol", pol);
		mc_read(path, proto, sizeof(proto));
		if (proto_out)
			mc_snprintf(proto_out, protolen, "%s", proto);
		fprintf(f, "# stp-policy-dump: %s\n# device %s protocol %s\n",
			strrchr(pol, '/') + 1, device, proto);
		/* node directories, parents first (sorted paths) */
		mc_snprintf(cmd, sizeof(cmd),
			 "find '%s' -mindepth 1 -type d | LC_ALL=C sort", pol);
		p = popen(cmd, "r");
		while (p && fgets(line, sizeof(line), p)) {
			char m[64], c[64];

			line[strcspn(line, "\n")] = 0;
			mc_snprintf(path, sizeof(path), "%s/masters", line);
			if (mc_read(path, m, sizeof(m)))
				continue;
			mc_snprintf(path, sizeof(path), "%s/channels", line);
			if (mc_read(path, c, sizeof(c)))
				continue;
			fprintf(f, "%s %s %s\n", line + plen + 1, m, c);
		}
		if (p)
			pclose(p);
	}
	ret = fclose(f);
	if (ret)
		return mc_fail(e, "%s: %s", file, strerror(errno));
	return 0;
}

/* copy one event's format to DIR/events/<system>/<event>/format */
static void copy_event(const char *root, const char *dir, const char *sys,
		       const char *ev)
{
	char from[PATH_MAX], to[PATH_MAX];

	mc_snprintf(from, sizeof(from), "%s/%s/%s/format", root, sys, ev);
	mc_snprintf(to, sizeof(to), "%s/events/%s/%s/format", dir, sys, ev);
	if (mc_exists(to) || !mc_exists(from))
		return;
	mc_snprintf(to, sizeof(to), "%s/events", dir);
	mkdir(to, 0755);
	mc_snprintf(to, sizeof(to), "%s/events/%s", dir, sys);
	mkdir(to, 0755);
	mc_snprintf(to, sizeof(to), "%s/events/%s/%s", dir, sys, ev);
	mkdir(to, 0755);
	mc_snprintf(to, sizeof(to), "%s/events/%s/%s/format", dir, sys, ev);
	mc_copy_file(from, to);
}

void mc_session_copy_events(const char *dir)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing", NULL
	};
	const char *root = NULL;
	char path[PATH_MAX], line[512], *colon;
	struct dirent *de;
	FILE *f;
	DIR *d;
	int i;

	for (i = 0; roots[i] && !root; i++) {
		mc_snprintf(path, sizeof(path), "%s/events", roots[i]);
		if (mc_isdir(path))
			root = roots[i];
	}
	if (!root)
		return;
	/* the ftrace system: function, print (trace_marker), ... */
	char events[PATH_MAX];

	mc_snprintf(events, sizeof(events), "%s/events", root);
	mc_snprintf(path, sizeof(path), "%s/ftrace", events);
	d = opendir(path);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			copy_event(events, dir, "ftrace", de->d_name);
	if (d)
		closedir(d);
	/* the events enabled now, "system:event" a line */
	mc_snprintf(path, sizeof(path), "%s/set_event", root);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		colon = strchr(line, ':');
		if (!colon || strchr(colon + 1, '/') || strchr(line, '/'))
			continue;
		*colon = 0;
		copy_event(events, dir, line, colon + 1);
	}
	if (f)
		fclose(f);
}

int mc_session_write_meta(const char *dir, const struct mc_devinfo *d,
			  const struct mc_config *cf, struct mc_err *e)
{
	const char *conf = cf ? cf->file : NULL;
	int i;
	char path[PATH_MAX + 32], host[256] = "?", date[64];
	char proto[MC_NAME_MAX] = "none";
	struct mc_format fmt;
	struct timespec rt, mono;
	struct utsname u;
	time_t now = time(NULL);
	struct mc_err ce;
	FILE *f;

	mc_snprintf(path, sizeof(path), "%s/mttsession", dir);
	f = fopen(path, "w");
	if (!f)
		return mc_fail(e, "%s: %s", path, strerror(errno));
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	uname(&u);
	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "# mttcontrol session: decode with \"mttdecode %s\"\n",
		dir);
	put(f, "mttsession", "1");
	put(f, "started", "%s", date);
	put(f, "host", "%s", host);
	put(f, "kernel", "%s %s %s %s", u.sysname, u.release, u.version,
	    u.machine);
	put(f, "clock_realtime_ns", "%lld",
	    (long long)rt.tv_sec * 1000000000 + rt.tv_nsec);
	put(f, "clock_monotonic_ns", "%lld",
	    (long long)mono.tv_sec * 1000000000 + mono.tv_nsec);
	/* serial targets, each in targets/NAME/ */
	for (i = 0; cf && i < cf->ntargets; i++)
		put(f, "target", "%s", cf->targets[i].name);
	if (!d) {	/* serial targets only */
		put(f, "device", "none");
		if (fclose(f))
			return mc_fail(e, "%s: %s", path, strerror(errno));
		goto conf;
	}
	put(f, "device", "%s", d->name);
	put(f, "sink", "%s", d->sink_devnode);
	/* what the sink emits: mttdecode DIR picks its input from it */
	mc_sink_format(d, &fmt);
	put(f, "format", "%s", fmt.riscv ? "riscv" : "stp");
	if (fmt.riscv) {
		put(f, "srcid_bits", "%u", fmt.srcid_bits);
		put(f, "ts_bytes", "%u", fmt.ts_bytes);
	}
	put(f, "stream", "stream-*.stp");
	put(f, "policy", "policy.txt");
	mc_snprintf(path, sizeof(path), "%s/policy.txt", dir);
	if (mc_policy_dump(d->name, path, proto, sizeof(proto), e)) {
		fclose(f);
		return -1;
	}
	/* mttdecode decodes a p_sys-t session's messages as SyS-T */
	put(f, "protocol", "%s", proto);
	if (fclose(f))
		return mc_fail(e, "%s: %s", path, strerror(errno));
	mc_snprintf(path, sizeof(path), "%s/kallsyms", dir);
	if (mc_copy_file("/proc/kallsyms", path))
		unlink(path);
	mc_session_copy_events(dir);
conf:
	if (conf) {
		mc_snprintf(path, sizeof(path), "%s/mttcontrol.conf", dir);
		if (mc_copy_file(conf, path))
			return mc_fail(e, "%s: %s", conf, strerror(errno));
	}
	if (d && mc_session_copy_collateral(dir, &ce))
		fprintf(stderr, "mttcontrol: warning: %s\n", ce.msg);
	return 0;
}

/*
 * MTT's collateral (if the mtt module is loaded): at the start, and
 * again when the collector ends, for the dictionary ids given out
 * during the session (ids never change, so the later copy names
 * everything the earlier did, but components closed in between: META
 * frames name those).  Read as one snapshot (collateral.c).
 */
int mc_session_copy_collateral(const char *dir, struct mc_err *e)
{
	char path[PATH_MAX], to[PATH_MAX + 32];

	mc_snprintf(path, sizeof(path), "%s/collateral.xml", mc_mtt_root());
	if (!mc_exists(path))
		return 0;
	mc_snprintf(to, sizeof(to), "%s/collateral.xml", dir);
	return mc_collateral_copy(path, to, e);
}
