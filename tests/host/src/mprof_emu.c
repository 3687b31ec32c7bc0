// SPDX-License-Identifier: GPL-2.0
/*
 * mprof_emu.c - a MiniProfiler device emulator written from the seed
 * (shared/seeds/001, "MiniProfiler Communication Protocol") alone: its
 * own CRC16-CCITT, CRC32 and little-endian packing, nothing from this
 * project's libmprofdev or libmprof.  The tests drive the host tools
 * with it.
 *
 *   mprof_emu file OUT [OPTIONS] <RECORDS
 *       write the responses a device sends in a session (METADATA, the
 *       ACK of START, PROFILE_DATA, the ACK of STOP, STATUS) to OUT
 *   mprof_emu pty PATHFILE [OPTIONS] <RECORDS
 *       open a pty, write its slave's path to PATHFILE and answer the
 *       host's commands on the master; after the ACK of START every
 *       record is sent; exits 0 when the host hangs up (3 after 60 s
 *       without one, a hang guard)
 *
 * RECORDS: one "FUNC_ADDR ENTRY_TIME DURATION DEPTH" line per record,
 * in the order a device sends them (numbers in C syntax).
 * OPTIONS:
 *   --nack-metadata=N   answer the first N GET_METADATA with NACK
 *   --nack-start        answer START_PROFILING with NACK
 *   --build-id=N        METADATA's elf_build_id (default 0xDEADBEEF)
 *   --text=FILE         elf_build_id = CRC32 of FILE (a dumped .text)
 *   --per-packet=N      records per PROFILE_DATA (1..4000; default 20)
 *   --log=FILE          (pty) one line per command received: its name
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "spec_crc16.h"

struct rec {
	uint32_t addr, entry, dur;
	uint16_t depth;
};

static struct rec *recs;
static size_t nrecs;
static unsigned long nack_meta, per_packet = 20;
static int nack_start;
static uint32_t build_id = 0xdeadbeef;
static FILE *logf;

/* CRC32 as the seed's "CRC32 of .text": IEEE 802.3, reflected */
static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int b;

	while (n--) {
		c ^= *p++;
		for (b = 0; b < 8; b++)
			c = c & 1 ? c >> 1 ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

static void le16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *p, uint32_t v)
{
	le16(p, v);
	le16(p + 2, v >> 16);
}

/* a response: AA 55, type, u16 length, payload, CRC16, 0A */
static size_t response(uint8_t *out, uint8_t type, const uint8_t *pl,
		       size_t n)
{
	out[0] = 0xaa;
	out[1] = 0x55;
	out[2] = type;
	le16(out + 3, (uint32_t)n);
	if (n)
		memcpy(out + 5, pl, n);
	le16(out + 5 + n, spec_crc16(out, 5 + n));
	out[7 + n] = 0x0a;
	return 8 + n;
}

static void put(int fd, const uint8_t *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);

		if (w > 0) {
			b += w;
			n -= (size_t)w;
		} else if (w < 0 && errno != EINTR && errno != EAGAIN) {
			perror("mprof_emu: write");
			exit(1);
		}
	}
}

static void simple(int fd, uint8_t type)
{
	uint8_t b[8];

	put(fd, b, response(b, type, NULL, 0));
}

static void metadata(int fd)
{
	uint8_t pl[28] = { 0 }, b[64];

	le32(pl, 168000000);		/* mcu_clock_hz */
	le32(pl + 4, 1000000);		/* timer_freq */
	le32(pl + 8, build_id);
	memcpy(pl + 12, "emu-1.0", 7);
	put(fd, b, response(b, 0x03, pl, sizeof(pl)));
}

static void status(int fd, int profiling)
{
	uint8_t pl[10] = { 0 }, b[32];

	pl[0] = (uint8_t)profiling;
	le32(pl + 5, (uint32_t)nrecs);	/* records_captured */
	put(fd, b, response(b, 0x04, pl, sizeof(pl)));
}

/* every record, per_packet to a PROFILE_DATA (version 1) */
static void profile_data(int fd)
{
	size_t i = 0;

	while (i < nrecs) {
		size_t k, n = nrecs - i < per_packet ? nrecs - i : per_packet;
		uint8_t *pl = malloc(3 + 14 * n), *b = malloc(11 + 14 * n);

		if (!pl || !b)
			exit(1);
		pl[0] = 1;
		le16(pl + 1, (uint32_t)n);
		for (k = 0; k < n; k++, i++) {
			uint8_t *r = pl + 3 + 14 * k;

			le32(r, recs[i].addr);
			le32(r + 4, recs[i].entry);
			le32(r + 8, recs[i].dur);
			le16(r + 12, recs[i].depth);
		}
		put(fd, b, response(b, 0x05, pl, 3 + 14 * n));
		free(pl);
		free(b);
	}
}

/* one command of 12 bytes: 55, code, length, 8 bytes, checksum */
static void command(int fd, const uint8_t *c, int *profiling)
{
	static const char *const names[] = {
		"?", "START_PROFILING", "STOP_PROFILING", "GET_STATUS",
		"RESET_BUFFERS", "GET_METADATA", "SET_CONFIG",
	};
	unsigned int sum = 0, i;

	for (i = 0; i < 11; i++)
		sum += c[i];
	if ((sum & 0xff) != c[11] || c[2] > 8) {
		if (logf)
			fprintf(logf, "bad command\n");
		return;
	}
	if (logf) {
		fprintf(logf, "%s\n", c[1] <= 6 ? names[c[1]] : "?");
		fflush(logf);
	}
	switch (c[1]) {
	case 0x01:
		if (nack_start) {
			simple(fd, 0x02);
			break;
		}
		simple(fd, 0x01);
		*profiling = 1;
		profile_data(fd);
		break;
	case 0x02:
		*profiling = 0;
		simple(fd, 0x01);
		break;
	case 0x03:
		status(fd, *profiling);
		break;
	case 0x05:
		if (nack_meta) {
			nack_meta--;
			simple(fd, 0x02);
		} else {
			metadata(fd);
		}
		break;
	case 0x04:
	case 0x06:
		simple(fd, 0x01);
		break;
	default:
		simple(fd, 0x02);
	}
}

static int serve(const char *pathfile)
{
	char tmp[4096];
	uint8_t buf[256], cmd[12];
	size_t have = 0;
	int m, peer = 0, profiling = 0;
	time_t guard = time(NULL) + 60;
	FILE *f;

	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m) || !ptsname(m)) {
		perror("mprof_emu: pty");
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", pathfile);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%s\n", ptsname(m)) < 0 || fclose(f) ||
	    rename(tmp, pathfile))
		return 1;
	while (time(NULL) < guard) {
		struct pollfd pf = { .fd = m, .events = POLLIN };
		ssize_t r;
		size_t i;

		if (poll(&pf, 1, 20) <= 0)
			continue;
		if (!(pf.revents & POLLIN)) {
			/* no slave open yet, or the host closed it */
			if (peer)
				return 0;
			usleep(20000);
			continue;
		}
		r = read(m, buf, sizeof(buf));
		if (r <= 0) {
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (peer)
				return 0;
			usleep(20000);
			continue;
		}
		peer = 1;
		for (i = 0; i < (size_t)r; i++) {
			if (!have && buf[i] != 0x55)
				continue;	/* hunt for a command's 55 */
			cmd[have++] = buf[i];
			if (have == sizeof(cmd)) {
				command(m, cmd, &profiling);
				have = 0;
			}
		}
	}
	fprintf(stderr, "mprof_emu: no hang-up within 60 s\n");
	return 3;
}

static int capture(const char *out)
{
	uint8_t cmd[12] = { 0x55 };
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int profiling = 0, c;

	if (fd < 0) {
		perror(out);
		return 1;
	}
	/* the host's GET_METADATA, START, STOP and GET_STATUS */
	for (c = 0; c < 4; c++) {
		static const uint8_t codes[] = { 0x05, 0x01, 0x02, 0x03 };

		cmd[1] = codes[c];
		cmd[11] = (uint8_t)(0x55 + codes[c]);
		command(fd, cmd, &profiling);
	}
	return close(fd) ? 1 : 0;
}

static void read_records(void)
{
	char line[256];
	size_t cap = 0;

	while (fgets(line, sizeof(line), stdin)) {
		unsigned long long a, e, d, dp;

		if (sscanf(line, "%lli %lli %lli %lli", &a, &e, &d, &dp) != 4)
			continue;
		if (nrecs == cap) {
			cap = cap ? cap * 2 : 64;
			recs = realloc(recs, cap * sizeof(*recs));
			if (!recs)
				exit(1);
		}
		recs[nrecs].addr = (uint32_t)a;
		recs[nrecs].entry = (uint32_t)e;
		recs[nrecs].dur = (uint32_t)d;
		recs[nrecs].depth = (uint16_t)dp;
		nrecs++;
	}
}

static uint32_t file_crc32(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	size_t n = 0, cap = 0, k;
	uint32_t c;

	if (!f) {
		perror(path);
		exit(1);
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			b = realloc(b, cap);
			if (!b)
				exit(1);
		}
		k = fread(b + n, 1, cap - n, f);
		n += k;
	} while (k);
	fclose(f);
	c = crc32(b, n);
	free(b);
	return c;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: mprof_emu file|pty PATH [OPTIONS] <RECORDS\n");
		return 2;
	}
	for (i = 3; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--nack-metadata=", 16))
			nack_meta = strtoul(a + 16, NULL, 0);
		else if (!strcmp(a, "--nack-start"))
			nack_start = 1;
		else if (!strncmp(a, "--build-id=", 11))
			build_id = (uint32_t)strtoul(a + 11, NULL, 0);
		else if (!strncmp(a, "--text=", 7))
			build_id = file_crc32(a + 7);
		else if (!strncmp(a, "--per-packet=", 13))
			per_packet = strtoul(a + 13, NULL, 0);
		else if (!strncmp(a, "--log=", 6))
			logf = fopen(a + 6, "w");
		else {
			fprintf(stderr, "mprof_emu: unknown option %s\n", a);
			return 2;
		}
	}
	if (per_packet < 1 || per_packet > 4000)
		per_packet = 20;
	read_records();
	if (!strcmp(argv[1], "file"))
		return capture(argv[2]);
	if (!strcmp(argv[1], "pty"))
		return serve(argv[2]);
	fprintf(stderr, "mprof_emu: file or pty, not %s\n", argv[1]);
	return 2;
}
