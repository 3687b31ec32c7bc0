/*
 * out.c - buffered output: write(2) in 64 KiB blocks, integer and hex
 * formatting by hand.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

static const char hexd[] = "0123456789abcdef";

void out_init(struct out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->len = 0;
}

int out_flush(struct out *o)
{
	size_t done = 0;

	while (done < o->len) {
		ssize_t r = write(o->fd, o->buf + done, o->len - done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (!o->err)
				o->err = errno;
			break;
		}
		done += (size_t)r;
	}
	o->len = 0;
	return o->err ? -1 : 0;
}

void out_mem(struct out *o, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		size_t k = n < OUT_BUF ? n : OUT_BUF;

		memcpy(out_room(o, k), s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

void out_char(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->len++;
}

static unsigned int fmt_u64(char *tmp, uint64_t v)
{
	unsigned int n = 0;

	do {
		tmp[19 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return n;
}

void out_u64(struct out *o, uint64_t v)
{
	char tmp[20];
	unsigned int n = fmt_u64(tmp, v);

	out_mem(o, tmp + 20 - n, n);
}

void out_u64_w(struct out *o, uint64_t v, unsigned int width)
{
	char tmp[20];
	unsigned int n = fmt_u64(tmp, v);

	while (width-- > n)
		out_char(o, ' ');
	out_mem(o, tmp + 20 - n, n);
}

void out_str_w(struct out *o, const char *s, unsigned int width)
{
	size_t n = strlen(s);

	while (width-- > n)
		out_char(o, ' ');
	out_mem(o, s, n);
}

void out_hexn(struct out *o, uint64_t v, unsigned int n)
{
	char *b = out_room(o, n);
	unsigned int i;

	for (i = 0; i < n; i++)
		b[i] = hexd[(v >> (4 * (n - 1 - i))) & 0xf];
	o->len += n;
}

void out_hexbytes(struct out *o, const uint8_t *p, size_t n)
{
	while (n) {
		size_t k = n < OUT_BUF / 2 ? n : OUT_BUF / 2, i;
		char *b = out_room(o, 2 * k);

		for (i = 0; i < k; i++) {
			b[2 * i] = hexd[p[i] >> 4];
			b[2 * i + 1] = hexd[p[i] & 0xf];
		}
		o->len += 2 * k;
		p += k;
		n -= k;
	}
}
