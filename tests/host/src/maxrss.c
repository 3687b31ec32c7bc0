// SPDX-License-Identifier: GPL-2.0
/*
 * maxrss.c - run a command with its standard output to a file and print
 * its peak resident set size in KiB (getrusage's ru_maxrss of the child,
 * from wait4()), for jmem.t.  Exit status: the command's, 127 when it
 * could not be run.
 *
 * usage: maxrss OUT CMD [ARGS...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int st, fd;

	if (argc < 3) {
		fprintf(stderr, "usage: maxrss OUT CMD [ARGS...]\n");
		return 127;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 127;
	}
	pid = fork();
	if (pid < 0)
		return 127;
	if (!pid) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	close(fd);
	if (wait4(pid, &st, 0, &ru) != pid)
		return 127;
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}
