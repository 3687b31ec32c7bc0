// SPDX-License-Identifier: GPL-2.0
/*
 * stmctl: drive one STM class file descriptor through a sequence of
 * operations for the guest tests, printing one result token per
 * operation on one line: "OK", "OK:<detail>" or an errno name.
 *
 *   stmctl DEVICE OP...
 *     set=ID[,width=W][,size=S][,res0=N][,res1=N]  STP_POLICY_ID_SET
 *                                   -> OK:master:channel:width
 *     setnull                       STP_POLICY_ID_SET with a NULL pointer
 *     settrunc=SIZE                 a 16-byte header at the end of a mapping
 *                                   claiming SIZE bytes (truncated struct)
 *     get                           STP_POLICY_ID_GET -> master:channel:width
 *     write=TEXT                    write(2) -> OK:bytes
 *     writen=N                      write N pattern bytes -> OK:bytes
 *     opt=VALUE                     STP_SET_OPTIONS
 *     mmap=LEN[,pgoff=P]            mmap, touch every byte, munmap
 *     ioctl=CMD                     raw ioctl (hex) with a zeroed buffer
 *     sleep=MS                      pause (to keep the fd open)
 *     touch=FILE                    create FILE (tell the script "I am here")
 *     waitfor=FILE                  wait until FILE exists (at most 600 s,
 *                                   a hang guard) -> OK or TIMEOUT
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/stm.h>

static char big[PATH_MAX + 64];

/* Value of "key=" inside a comma-separated option string, or @def. */
static unsigned long optval(const char *opts, const char *key,
			    unsigned long def)
{
	size_t klen = strlen(key);
	const char *p = opts;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return strtoul(p + klen + 1, NULL, 0);
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return def;
}

static const char *errname(int err)
{
	const char *name = strerrorname_np(err);
	static char num[16];

	if (name)
		return name;
	snprintf(num, sizeof(num), "E%d", err);
	return num;
}

static void put_err(void)
{
	printf("%s", errname(errno));
}

static void op_set(int fd, const char *arg)
{
	struct stp_policy_id *id = (struct stp_policy_id *)big;
	const char *comma = strchr(arg, ',');
	size_t idlen = comma ? (size_t)(comma - arg) : strlen(arg);

	memset(big, 0, sizeof(big));
	memcpy(id->id, arg, idlen);
	id->size = optval(comma, "size", sizeof(*id) + idlen + 1);
	id->width = optval(comma, "width", 1);
	id->__reserved_0 = optval(comma, "res0", 0);
	id->__reserved_1 = optval(comma, "res1", 0);
	if (ioctl(fd, STP_POLICY_ID_SET, id))
		put_err();
	else
		printf("OK:%u:%u:%u", id->master, id->channel, id->width);
}

static void op_get(int fd)
{
	struct stp_policy_id id;

	memset(&id, 0xff, sizeof(id));
	if (ioctl(fd, STP_POLICY_ID_GET, &id))
		put_err();
	else
		printf("%u:%u:%u", id.master, id.channel, id.width);
}

static void op_write(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	if (n < 0)
		put_err();
	else
		printf("OK:%zd", n);
}

static void op_mmap(int fd, const char *arg)
{
	size_t len = strtoul(arg, NULL, 0);
	off_t pgoff = optval(strchr(arg, ','), "pgoff", 0);
	volatile unsigned char *p;
	size_t i;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 pgoff * sysconf(_SC_PAGESIZE));
	if (p == MAP_FAILED) {
		put_err();
		return;
	}
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)i;
	munmap((void *)p, len);
	printf("OK");
}

/* A header whose claimed size runs into an unmapped page. */
static void op_settrunc(int fd, const char *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stp_policy_id *id;
	char *map;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + page, page, PROT_NONE)) {
		put_err();
		return;
	}
	id = (struct stp_policy_id *)(map + page - sizeof(*id));
	memset(id, 0, sizeof(*id));
	id->size = strtoul(arg, NULL, 0);
	id->width = 1;
	if (ioctl(fd, STP_POLICY_ID_SET, id))
		put_err();
	else
		printf("OK");
	munmap(map, 2 * page);
}

static void run_op(int fd, const char *op)
{
	if (!strncmp(op, "set=", 4)) {
		op_set(fd, op + 4);
	} else if (!strcmp(op, "setnull")) {
		if (ioctl(fd, STP_POLICY_ID_SET, NULL))
			put_err();
		else
			printf("OK");
	} else if (!strncmp(op, "settrunc=", 9)) {
		op_settrunc(fd, op + 9);
	} else if (!strcmp(op, "get")) {
		op_get(fd);
	} else if (!strncmp(op, "write=", 6)) {
		op_write(fd, op + 6, strlen(op + 6));
	} else if (!strncmp(op, "writen=", 7)) {
		size_t n = strtoul(op + 7, NULL, 0);
		char *buf = malloc(n ? n : 1);
		size_t i;

		for (i = 0; i < n; i++)
			buf[i] = 'a' + i % 26;
		op_write(fd, buf, n);
		free(buf);
	} else if (!strncmp(op, "opt=", 4)) {
		uint64_t v = strtoull(op + 4, NULL, 0);

		if (ioctl(fd, STP_SET_OPTIONS, &v))
			put_err();
		else
			printf("OK");
	} else if (!strncmp(op, "mmap=", 5)) {
		op_mmap(fd, op + 5);
	} else if (!strncmp(op, "ioctl=", 6)) {
		memset(big, 0, sizeof(big));
		if (ioctl(fd, strtoul(op + 6, NULL, 16), big))
			put_err();
		else
			printf("OK");
	} else if (!strncmp(op, "sleep=", 6)) {
		usleep(strtoul(op + 6, NULL, 0) * 1000);
		printf("OK");
	} else if (!strncmp(op, "touch=", 6)) {
		int t = open(op + 6, O_WRONLY | O_CREAT, 0644);

		if (t < 0) {
			put_err();
		} else {
			close(t);
			printf("OK");
		}
	} else if (!strncmp(op, "waitfor=", 8)) {
		int tries = 0;

		while (access(op + 8, F_OK) && tries++ < 6000)
			usleep(100000);
		printf(access(op + 8, F_OK) ? "TIMEOUT" : "OK");
	} else {
		printf("BADOP");
	}
}

int main(int argc, char **argv)
{
	int fd, i;

	if (argc < 2) {
		fprintf(stderr, "usage: stmctl DEVICE OP...\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	for (i = 2; i < argc; i++) {
		if (i > 2)
			putchar(' ');
		run_op(fd, argv[i]);
		fflush(stdout);
	}
	putchar('\n');
	close(fd);
	return 0;
}
