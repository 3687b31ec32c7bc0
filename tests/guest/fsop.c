// SPDX-License-Identifier: GPL-2.0
/*
 * fsop: one file-system operation, result printed for shell tests.
 *
 *   fsop write   PATH STRING   write STRING (no newline) in one write()
 *   fsop writeln PATH STRING   same, with a trailing newline
 *   fsop read    PATH          "OK", then the file's contents
 *   fsop cat     PATH          the contents only (errno name on failure, exit 1)
 *   fsop mkdir   PATH          mkdir(PATH, 0755)
 *   fsop rmdir   PATH
 *   fsop open    PATH [rw|ro|wo]   open then close
 *   fsop symlink TARGET PATH
 *   fsop unlink  PATH
 *   fsop insmod  KO [PARAM...]  finit_module(2) only: busybox insmod retries
 *                               a failed load with init_module(2), which
 *                               runs a failing module init twice
 *
 * Prints "OK" on success or the errno name (EINVAL, EBUSY, ...) of the
 * first failing call and exits 0, so tap_errno can compare exact errnos.
 * A write that stores fewer bytes than given prints "SHORT n/len".
 * Exit 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Kernel-internal codes that must never reach user space, by number. */
static const char *const kernel_internal[] = {
	"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
	"ERESTART_RESTARTBLOCK", "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM",
	"E520", "EBADHANDLE", "ENOTSYNC", "EBADCOOKIE", "ENOTSUPP",
	"ETOOSMALL", "ESERVERFAULT", "EBADTYPE", "EJUKEBOX", "EIOCBQUEUED",
	"ERECALLCONFLICT",
};

static void print_errno(int err)
{
	const char *name = strerrorname_np(err);
	unsigned int ki = (unsigned int)err - 512;

	if (name)
		printf("%s\n", name);
	else if (ki < sizeof(kernel_internal) / sizeof(kernel_internal[0]))
		printf("%s\n", kernel_internal[ki]);
	else
		printf("E%d\n", err);
}

/* Report a failed call: print the errno name; status for the caller. */
static int fail(void)
{
	print_errno(errno);
	return 0;
}

static int do_write(const char *path, const char *str, int newline)
{
	size_t len = strlen(str);
	char *buf = malloc(len + 2);
	ssize_t n;
	int fd;

	if (!buf)
		return fail();
	memcpy(buf, str, len);
	if (newline)
		buf[len++] = '\n';
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		free(buf);
		return fail();
	}
	n = write(fd, buf, len);
	free(buf);
	if (n < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return fail();
	}
	if (close(fd) < 0)
		return fail();
	if ((size_t)n != len)
		printf("SHORT %zd/%zu\n", n, len);
	else
		printf("OK\n");
	return 0;
}

/* Read the whole file; print OK then the data (or only the data). */
static int do_read(const char *path, int quiet)
{
	char buf[4096];
	size_t cap = 0, used = 0;
	char *data = NULL;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fail();
		return quiet;
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			int err = errno;

			close(fd);
			free(data);
			errno = err;
			fail();
			return quiet;
		}
		if (n == 0)
			break;
		if (used + n > cap) {
			char *p;

			cap = (used + n) * 2;
			p = realloc(data, cap);
			if (!p) {
				free(data);
				close(fd);
				fail();
				return quiet;
			}
			data = p;
		}
		memcpy(data + used, buf, n);
		used += n;
	}
	close(fd);
	if (!quiet)
		printf("OK\n");
	if (used)
		fwrite(data, 1, used, stdout);
	free(data);
	return 0;
}

static int do_open(const char *path, const char *mode)
{
	int flags = O_RDWR;
	int fd;

	if (!mode || !strcmp(mode, "rw"))
		flags = O_RDWR;
	else if (!strcmp(mode, "ro"))
		flags = O_RDONLY;
	else if (!strcmp(mode, "wo"))
		flags = O_WRONLY;
	else
		return 2;
	fd = open(path, flags);
	if (fd < 0)
		return fail();
	if (close(fd) < 0)
		return fail();
	printf("OK\n");
	return 0;
}

/* Load a module with its parameters joined by spaces. */
static int do_insmod(const char *path, int nparams, char **params)
{
	size_t len = 1;
	char *opts;
	int fd, i, ret;

	for (i = 0; i < nparams; i++)
		len += strlen(params[i]) + 1;
	opts = calloc(1, len);
	if (!opts)
		return fail();
	for (i = 0; i < nparams; i++) {
		if (i)
			strcat(opts, " ");
		strcat(opts, params[i]);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(opts);
		return fail();
	}
	ret = syscall(SYS_finit_module, fd, opts, 0);
	free(opts);
	if (ret != 0) {
		int err = errno;

		close(fd);
		errno = err;
		return fail();
	}
	close(fd);
	printf("OK\n");
	return 0;
}

static int result(int ret)
{
	if (ret < 0)
		return fail();
	printf("OK\n");
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: fsop write|writeln PATH STRING | read|cat|mkdir|rmdir|unlink PATH\n"
		"       fsop open PATH [rw|ro|wo] | symlink TARGET PATH\n"
		"       fsop insmod KO [PARAM...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	int ret;

	if (argc == 4 && !strcmp(op, "write"))
		ret = do_write(argv[2], argv[3], 0);
	else if (argc == 4 && !strcmp(op, "writeln"))
		ret = do_write(argv[2], argv[3], 1);
	else if (argc == 3 && !strcmp(op, "read"))
		ret = do_read(argv[2], 0);
	else if (argc == 3 && !strcmp(op, "cat"))
		ret = do_read(argv[2], 1);
	else if (argc == 3 && !strcmp(op, "mkdir"))
		ret = result(mkdir(argv[2], 0755));
	else if (argc == 3 && !strcmp(op, "rmdir"))
		ret = result(rmdir(argv[2]));
	else if (argc == 3 && !strcmp(op, "unlink"))
		ret = result(unlink(argv[2]));
	else if (argc == 4 && !strcmp(op, "symlink"))
		ret = result(symlink(argv[2], argv[3]));
	else if (argc >= 3 && !strcmp(op, "insmod"))
		ret = do_insmod(argv[2], argc - 3, argv + 3);
	else if ((argc == 3 || argc == 4) && !strcmp(op, "open"))
		ret = do_open(argv[2], argc == 4 ? argv[3] : NULL);
	else
		return usage();
	if (ret == 2)
		return usage();
	fflush(stdout);
	return ret;
}
