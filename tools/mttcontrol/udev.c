// SPDX-License-Identifier: GPL-2.0
/*
 * udev.c - STM devices, their sinks, sources and components found with
 * libudev (no /dev names are assumed: device nodes come from udev), and
 * waiting for a device's "add" uevent with a time-out after a module
 * load.  The kernel's uevents are read (not udevd's), so this works on
 * systems without udevd too, as long as devtmpfs makes the nodes.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libudev.h>

#include "mttcontrol.h"

static void copy(char *dst, size_t len, const char *src)
{
	mc_snprintf(dst, len, "%s", src ? src : "");
}

static void fill(struct udev_device *dev, struct mc_devinfo *d)
{
	struct udev_device *parent;

	memset(d, 0, sizeof(*d));
	copy(d->name, sizeof(d->name), udev_device_get_sysname(dev));
	copy(d->syspath, sizeof(d->syspath), udev_device_get_syspath(dev));
	copy(d->devnode, sizeof(d->devnode), udev_device_get_devnode(dev));
	/* a software STM (swstm) is registered under its sink's device */
	parent = udev_device_get_parent(dev);
	if (parent && udev_device_get_devnode(parent)) {
		copy(d->sink_syspath, sizeof(d->sink_syspath),
		     udev_device_get_syspath(parent));
		copy(d->sink_devnode, sizeof(d->sink_devnode),
		     udev_device_get_devnode(parent));
	}
}

int mc_udev_stm(const char *name, struct mc_devinfo *d)
{
	struct udev *u = udev_new();
	struct udev_device *dev;

	if (!u)
		return -1;
	dev = udev_device_new_from_subsystem_sysname(u, "stm", name);
	if (!dev) {
		udev_unref(u);
		return -1;
	}
	fill(dev, d);
	udev_device_unref(dev);
	udev_unref(u);
	return 0;
}

static int present(struct udev *u, const char *subsystem, const char *name)
{
	struct udev_device *dev;

	dev = udev_device_new_from_subsystem_sysname(u, subsystem, name);
	if (!dev)
		return 0;
	udev_device_unref(dev);
	return 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int mc_udev_wait(const char *subsystem, const char *name, int timeout)
{
	struct udev *u = udev_new();
	struct udev_monitor *mon = NULL;
	long long end = now_ms() + (long long)timeout * 1000;
	int ret = -1;

	if (!u)
		return -1;
	/* listen first, then look: an event between the two is not lost */
	mon = udev_monitor_new_from_netlink(u, "kernel");
	if (mon) {
		udev_monitor_filter_add_match_subsystem_devtype(mon, subsystem,
								NULL);
		if (udev_monitor_enable_receiving(mon) < 0) {
			udev_monitor_unref(mon);
			mon = NULL;
		}
	}
	while (!present(u, subsystem, name)) {
		long long left = end - now_ms();
		struct pollfd p;

		if (left <= 0)
			goto out;
		if (!mon) {	/* no netlink: look again in a while */
			struct timespec ts = { 0, 50 * 1000000L };

			nanosleep(&ts, NULL);
			continue;
		}
		p.fd = udev_monitor_get_fd(mon);
		p.events = POLLIN;
		if (poll(&p, 1, (int)left) > 0) {
			struct udev_device *dev = udev_monitor_receive_device(mon);

			if (dev)
				udev_device_unref(dev);
		}
	}
	ret = 0;
out:
	if (mon)
		udev_monitor_unref(mon);
	udev_unref(u);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int mc_udev_each(const char *subsystem,
		 void (*fn)(void *ctx, const char *name, const char *syspath),
		 void *ctx)
{
	struct udev *u = udev_new();
	struct udev_enumerate *en;
	struct udev_list_entry *le;
	char **paths = NULL;
	int n = 0, i;

	if (!u)
		return -1;
	en = udev_enumerate_new(u);
	if (!en || udev_enumerate_add_match_subsystem(en, subsystem) < 0 ||
	    udev_enumerate_scan_devices(en) < 0) {
		udev_enumerate_unref(en);
		udev_unref(u);
		return -1;
	}
	udev_list_entry_foreach(le, udev_enumerate_get_list_entry(en)) {
		char **np = realloc(paths, (n + 1) * sizeof(*paths));

		if (!np)
			break;
		paths = np;
		paths[n] = strdup(udev_list_entry_get_name(le));
		if (paths[n])
			n++;
	}
	for (i = 0; i < n; i++) {	/* "name\0syspath", sorted by name */
		const char *s = strrchr(paths[i], '/');
		size_t l = strlen(paths[i]) + 1, nl;
		char *t;

		s = s ? s + 1 : paths[i];
		nl = strlen(s) + 1;
		t = malloc(nl + l);
		if (!t)
			return -1;
		memcpy(t, s, nl);
		memcpy(t + nl, paths[i], l);
		free(paths[i]);
		paths[i] = t;
	}
	if (n)
		qsort(paths, n, sizeof(*paths), by_name);
	for (i = 0; i < n; i++) {
		fn(ctx, paths[i], paths[i] + strlen(paths[i]) + 1);
		free(paths[i]);
	}
	free(paths);
	udev_enumerate_unref(en);
	udev_unref(u);
	return 0;
}

struct only {
	int n;
	struct mc_devinfo *d;
};

static void only_one(void *ctx, const char *name, const char *syspath)
{
	struct only *o = ctx;
	struct mc_devinfo d;

	(void)syspath;
	if (mc_udev_stm(name, &d) || !d.sink_devnode[0])
		return;
	if (!o->n++)
		*o->d = d;
}

int mc_udev_only_stm(struct mc_devinfo *d, struct mc_err *e)
{
	struct only o = { 0, d };

	if (mc_udev_each("stm", only_one, &o))
		return mc_fail(e, "cannot enumerate STM devices with libudev");
	if (o.n == 1)
		return 0;
	if (!o.n)
		return mc_fail(e, "no STM device with a sink (load swstm, or name a device with -d)");
	return mc_fail(e, "%d STM devices with a sink: name one with -d DEVICE or a configuration file",
		       o.n);
}

/*
 * Is the tty device at syspath the device path want, or under it (a USB
 * adapter's interface, say)?  want: "/sys/devices/..." or the DEVPATH
 * form "/devices/...".
 */
static int under(const char *syspath, const char *want)
{
	size_t n = strlen(want);

	if (strncmp(want, "/sys/", 5) && !strncmp(syspath, "/sys/", 5))
		syspath += 4;
	while (n > 1 && want[n - 1] == '/')
		n--;
	return !strncmp(syspath, want, n) &&
	       (syspath[n] == 0 || syspath[n] == '/');
}

int mc_udev_tty(const struct mc_target *t, const char *file, char *devnode,
		size_t len, struct mc_err *e)
{
	struct udev *u;
	struct udev_enumerate *en;
	struct udev_list_entry *le;
	char found[512] = "";
	int i, n = 0, ok;

	if (!t->has_match) {
		mc_snprintf(devnode, len, "%s", t->port);
		return 0;
	}
	u = udev_new();
	en = u ? udev_enumerate_new(u) : NULL;
	ok = en && udev_enumerate_add_match_subsystem(en, "tty") >= 0 &&
	     (!t->sysname[0] ||
	      udev_enumerate_add_match_sysname(en, t->sysname) >= 0);
	for (i = 0; ok && i < t->nprops; i++)
		ok = udev_enumerate_add_match_property(en, t->props[i].key,
						       t->props[i].value) >= 0;
	for (i = 0; ok && i < t->nsysattrs; i++)
		ok = udev_enumerate_add_match_sysattr(en, t->sysattrs[i].key,
						      t->sysattrs[i].value) >= 0;
	if (!ok || udev_enumerate_scan_devices(en) < 0) {
		udev_enumerate_unref(en);
		udev_unref(u);
		return mc_fail(e, "%s:%d: target \"%s\": cannot enumerate tty devices with libudev",
			       file, t->line, t->name);
	}
	udev_list_entry_foreach(le, udev_enumerate_get_list_entry(en)) {
		const char *sp = udev_list_entry_get_name(le);
		struct udev_device *d;
		const char *node;

		if (t->syspath[0] && !under(sp, t->syspath))
			continue;
		d = udev_device_new_from_syspath(u, sp);
		node = d ? udev_device_get_devnode(d) : NULL;
		if (node) {
			if (!n)
				mc_snprintf(devnode, len, "%s", node);
			if (strlen(found) + strlen(node) + 8 < sizeof(found))
				mc_snprintf(found + strlen(found),
					    sizeof(found) - strlen(found),
					    "%s%s", n ? ", " : "", node);
			else if (!strstr(found, ", ..."))
				strcat(found, ", ...");
			n++;
		}
		if (d)
			udev_device_unref(d);
	}
	udev_enumerate_unref(en);
	udev_unref(u);
	if (n == 1)
		return 0;
	if (!n)
		return mc_fail(e, "%s:%d: target \"%s\": no tty device matches",
			       file, t->line, t->name);
	return mc_fail(e, "%s:%d: target \"%s\": %d tty devices match (%s): make the match narrower",
		       file, t->line, t->name, n, found);
}
