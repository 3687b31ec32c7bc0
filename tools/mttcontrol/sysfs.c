// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - reading and writing sysfs and configfs attributes, copying
 * files, the roots of configfs policies and MTT components (which tests
 * may point elsewhere with MTTCONTROL_POLICY_ROOT / MTTCONTROL_MTT_ROOT),
 * loaded modules, and the error helper.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mttcontrol.h"

int mc_fail(struct mc_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int mc_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

int mc_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

int mc_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(val);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	saved = errno;
	if (close(fd) && n >= 0) {
		saved = errno;
		n = -1;
	}
	if (n < 0 || (size_t)n != len) {
		errno = n < 0 ? saved : EIO;
		return -1;
	}
	return 0;
}

int mc_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int mc_isdir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int mc_copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, saved = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		saved = errno;
		close(in);
		errno = saved;
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			saved = errno ? errno : EIO;
			break;
		}
	}
	if (n < 0)
		saved = errno;
	close(in);
	if (close(out) && !saved)
		saved = errno;
	if (saved) {
		errno = saved;
		return -1;
	}
	return 0;
}

const char *mc_policy_root(void)
{
	const char *r = getenv("MTTCONTROL_POLICY_ROOT");

	return r && *r ? r : MC_POLICY_ROOT;
}

const char *mc_mtt_root(void)
{
	const char *r = getenv("MTTCONTROL_MTT_ROOT");

	return r && *r ? r : MC_MTT_ROOT;
}

int mc_module_loaded(const char *name)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	for (p = path + 12; *p; p++)
		if (*p == '-')
			*p = '_';
	/* built-in modules have a directory too, without initstate */
	if (!mc_isdir(path))
		return 0;
	strncat(path, "/initstate", sizeof(path) - strlen(path) - 1);
	if (!mc_exists(path))
		return 1;
	{
		char st[32];

		return mc_read(path, st, sizeof(st)) == 0 &&
		       !strcmp(st, "live");
	}
}
