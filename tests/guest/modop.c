// SPDX-License-Identifier: GPL-2.0
/*
 * modop: unload a module and print "OK" or the errno name, for tests
 * that check how an in-use module refuses to go (EAGAIN from
 * delete_module(2) with O_NONBLOCK, which is what rmmod uses).
 *
 *   modop rm NAME
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *name;

	if (argc != 3 || strcmp(argv[1], "rm")) {
		fprintf(stderr, "usage: modop rm NAME\n");
		return 2;
	}
	if (syscall(SYS_delete_module, argv[2], O_NONBLOCK) == 0) {
		printf("OK\n");
		return 0;
	}
	name = strerrorname_np(errno);
	if (name)
		printf("%s\n", name);
	else
		printf("E%d\n", errno);
	return 0;
}
