// SPDX-License-Identifier: GPL-2.0
/*
 * serial.c - the host's serial line: open a tty (a USB serial adapter,
 * a UART, or a pty in tests) in raw mode at a given baud rate, and send
 * MiniProfiler commands on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include "mprof/mprof.h"

static const struct {
	unsigned long baud;
	speed_t code;
} speeds[] = {
	{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
	{ 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
	{ 460800, B460800 }, { 500000, B500000 }, { 576000, B576000 },
	{ 921600, B921600 }, { 1000000, B1000000 }, { 1152000, B1152000 },
	{ 1500000, B1500000 }, { 2000000, B2000000 }, { 2500000, B2500000 },
	{ 3000000, B3000000 }, { 3500000, B3500000 }, { 4000000, B4000000 },
};

static speed_t speed_code(unsigned long baud)
{
	size_t i;

	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].baud == baud)
			return speeds[i].code;
	return 0;
}

int mprof_serial_baud_ok(unsigned long baud)
{
	return speed_code(baud) != 0;
}

int mprof_serial_open(const char *path, unsigned long baud)
{
	struct termios t;
	speed_t code = speed_code(baud);
	int fd, e;

	if (!code) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (tcgetattr(fd, &t))
		goto fail;
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cflag &= ~(tcflag_t)(CSTOPB | CRTSCTS);
	t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (cfsetispeed(&t, code) || cfsetospeed(&t, code) ||
	    tcsetattr(fd, TCSANOW, &t))
		goto fail;
	tcflush(fd, TCIOFLUSH);
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

int mprof_serial_cmd(int fd, uint8_t cmd)
{
	uint8_t c[MPROF_CMD_LEN];
	size_t done = 0;

	mprof_cmd_encode(c, cmd, NULL, 0);
	while (done < sizeof(c)) {
		ssize_t w = write(fd, c + done, sizeof(c) - done);

		if (w > 0) {
			done += (size_t)w;
		} else if (w < 0 && errno == EAGAIN) {
			struct pollfd pf = { .fd = fd, .events = POLLOUT };

			if (poll(&pf, 1, 1000) <= 0) {
				errno = ETIMEDOUT;
				return -1;
			}
		} else if (!(w < 0 && errno == EINTR)) {
			return -1;
		}
	}
	return 0;
}
