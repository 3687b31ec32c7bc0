// SPDX-License-Identifier: GPL-2.0
/*
 * mctty.c - mttcontrol's serial target look-up with libudev
 * (tools/mttcontrol/udev.c, mc_udev_tty()) against this host's
 * /sys/class/tty: the first ttyS* there is found by its kernel name, by
 * its DEVNAME property, by a sysfs attribute and by the sysfs path of
 * its parent device (the DEVPATH form too); a glob that matches several
 * ttys and a name that matches none are errors naming the target and
 * the file:line; a target with a port is the port.  Without a ttyS*
 * (a container without serial ports) the look-ups are skipped, said.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../../../tools/mttcontrol/mttcontrol.h"

static int look(struct mc_target *t, char *node, struct mc_err *e)
{
	e->msg[0] = 0;
	node[0] = 0;
	return mc_udev_tty(t, "t.conf", node, PATH_MAX, e);
}

int main(void)
{
	char node[PATH_MAX], want[PATH_MAX], path[PATH_MAX + 64];
	char parent[PATH_MAX];
	struct mc_target t;
	struct mc_kv kv;
	struct mc_err e;
	struct dirent *de;
	char tty[64] = "";
	FILE *f;
	DIR *d;

	memset(&t, 0, sizeof(t));
	strcpy(t.name, "board");
	t.line = 7;
	strcpy(t.port, "/dev/pts/77");
	ok(!look(&t, node, &e) && !strcmp(node, "/dev/pts/77"),
	   "a port given is the port");

	t.has_match = 1;
	strcpy(t.sysname, "mttcontrol-test-none*");
	ok(look(&t, node, &e) &&
	   !strcmp(e.msg, "t.conf:7: target \"board\": no tty device matches"),
	   "a match of no tty: an error naming the target (%s)", e.msg);
	strcpy(t.sysname, "tty*");
	ok(look(&t, node, &e) &&
	   strstr(e.msg, "t.conf:7: target \"board\": ") == e.msg &&
	   strstr(e.msg, " tty devices match (/dev/tty"),
	   "a match of several ttys: an error naming the target and them");

	d = opendir("/sys/class/tty");
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "ttyS", 4) &&
		    strlen(de->d_name) < sizeof(tty) &&
		    (!tty[0] || strverscmp(de->d_name, tty) < 0))
			memcpy(tty, de->d_name, strlen(de->d_name) + 1);
	if (d)
		closedir(d);
	if (!tty[0]) {
		diag("no /sys/class/tty/ttyS*: look-ups of a real port skipped");
		return done_testing();
	}
	snprintf(want, sizeof(want), "/dev/%s", tty);

	strcpy(t.sysname, tty);
	ok(!look(&t, node, &e) && !strcmp(node, want),
	   "by sysname %s: %s (%s)", tty, node, e.msg);

	t.sysname[0] = 0;
	strcpy(kv.key, "DEVNAME");
	strcpy(kv.value, want);
	t.props = &kv;
	t.nprops = 1;
	ok(!look(&t, node, &e) && !strcmp(node, want),
	   "by property DEVNAME=%s: %s (%s)", want, node, e.msg);
	t.props = NULL;
	t.nprops = 0;

	strcpy(t.sysname, "ttyS*");
	strcpy(kv.key, "line");
	snprintf(path, sizeof(path), "/sys/class/tty/%s/line", tty);
	f = fopen(path, "r");
	kv.value[0] = 0;
	if (f) {
		if (!fgets(kv.value, sizeof(kv.value), f))
			kv.value[0] = 0;
		fclose(f);
	}
	kv.value[strcspn(kv.value, "\n")] = 0;
	t.sysattrs = &kv;
	t.nsysattrs = 1;
	ok(!look(&t, node, &e) && !strcmp(node, want),
	   "by sysname ttyS* and sysattr line=%s: %s (%s)", kv.value, node,
	   e.msg);
	t.sysattrs = NULL;
	t.nsysattrs = 0;
	t.sysname[0] = 0;

	snprintf(path, sizeof(path), "/sys/class/tty/%s/device", tty);
	if (!realpath(path, parent)) {
		diag("%s has no parent device: syspath look-ups skipped", tty);
		return done_testing();
	}
	strcpy(t.syspath, parent);
	ok(!look(&t, node, &e) && !strcmp(node, want),
	   "by the parent's sysfs path %s: %s (%s)", parent, node, e.msg);
	strcpy(t.syspath, parent + 4);	/* "/devices/...", DEVPATH's form */
	strcat(t.syspath, "/");
	ok(!look(&t, node, &e) && !strcmp(node, want),
	   "by the DEVPATH form %s: %s (%s)", t.syspath, node, e.msg);
	return done_testing();
}
