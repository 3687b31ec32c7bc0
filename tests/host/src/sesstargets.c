// SPDX-License-Identifier: GPL-2.0
/*
 * sesstargets.c - libmttsession's readers of a session's serial targets
 * (tools/lib/session): the names mttsession lists (bad ones left out),
 * a target's metadata file, and its read times, files written here by
 * hand from Documentation/sessions.rst ("targets/NAME/"): "MTTREAD1",
 * the opening time (64-bit little-endian), then (offset, t_ns) as
 * ULEB128 differences; a cut pair and a wrong magic are errors.  The
 * clock exchange requests: "MTTSYNC1", then { seq u32 LE, t1 u64 LE }
 * records; none, a cut record and a wrong magic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "../../../tools/lib/session/include/session/session.h"

static void put(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		abort();
}

static void requests(const char *dir)
{
	/* (7, 0x1122334455667788), (8, 0x1122334455667799) */
	static const unsigned char q[] = {
		'M', 'T', 'T', 'S', 'Y', 'N', 'C', '1',
		7, 0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		8, 0, 0, 0, 0x99, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	};
	struct mtts_requests *it = (struct mtts_requests *)&it;
	char path[4096];
	uint64_t t1 = 0;
	uint32_t seq = 0;

	errno = 0;
	ok(mtts_requests_open(dir, "mcu", &it) == -1 && errno == ENOENT &&
	   !it, "mtts_requests_open: no requests file: -1, ENOENT");
	snprintf(path, sizeof(path), "%s/targets/mcu", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/targets/mcu/requests", dir);
	put(path, q, sizeof(q));
	ok(!mtts_requests_open(dir, "mcu", &it) && it, "mtts_requests_open");
	ok(mtts_requests_next(it, &seq, &t1) == 1 && seq == 7 &&
	   t1 == 0x1122334455667788ull, "record 1: seq 7, t1");
	ok(mtts_requests_next(it, &seq, &t1) == 1 && seq == 8 &&
	   t1 == 0x1122334455667799ull, "record 2: seq 8, t1");
	ok(mtts_requests_next(it, &seq, &t1) == 0, "then the end");
	mtts_requests_close(it);
	put(path, q, sizeof(q) - 1);
	mtts_requests_open(dir, "mcu", &it);
	mtts_requests_next(it, &seq, &t1);
	errno = 0;
	ok(mtts_requests_next(it, &seq, &t1) == -1 && errno == EINVAL,
	   "a cut record: -1, EINVAL");
	mtts_requests_close(it);
	put(path, "MTTREAD1", 8);
	errno = 0;
	ok(mtts_requests_open(dir, "mcu", &it) == -1 && errno == EINVAL,
	   "another magic: -1, EINVAL");
}

int main(int argc, char **argv)
{
	/* base 0x0102030405060708; (10, 1000), (+300 = ac 02, +1), (+1,
	 * +2^35 = 80 80 80 80 80 01) */
	static const unsigned char reads[] = {
		'M', 'T', 'T', 'R', 'E', 'A', 'D', '1',
		8, 7, 6, 5, 4, 3, 2, 1,
		10, 0xe8, 0x07,
		0xac, 0x02, 1,
		1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
	};
	static const char sess[] =
		"mttsession 1\ntarget mcu\ntarget ../up\ntarget a/b\n"
		"target rv\ndevice none\n";
	static const char meta[] =
		"# a comment\ntarget 1\nname rv\nprotocol riscv-encap\n"
		"port /dev/pts/4\nbaud 921600\nsrcid_bits 8\nts_bytes 4\n"
		"unframed 1\ncapture capture.bin\nreads reads\n"
		"decode mttdecode --input=riscv-encap capture.bin\n";
	char path[4096], dir[4000];
	struct mtts_target t;
	struct mtts_reads r;
	char **v = NULL;
	int n = 0, got;

	if (argc != 2)
		return 2;
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	snprintf(path, sizeof(path), "%s/mttsession", dir);
	put(path, sess, strlen(sess));
	ok(!mtts_targets(dir, &v, &n) && n == 2 && !strcmp(v[0], "mcu") &&
	   !strcmp(v[1], "rv"), "mtts_targets: mcu and rv, the bad names left out");
	mtts_free_list(v, n);

	snprintf(path, sizeof(path), "%s/targets", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/targets/rv", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/targets/rv/target", dir);
	put(path, meta, strlen(meta));
	snprintf(path, sizeof(path), "%s/targets/rv", dir);
	got = mtts_target_read(path, &t);
	snprintf(path, sizeof(path), "%s/targets/rv/capture.bin", dir);
	ok(!got && !strcmp(t.name, "rv") && !strcmp(t.protocol, "riscv-encap") &&
	   !strcmp(t.port, "/dev/pts/4") && t.baud == 921600 &&
	   t.srcid_bits == 8 && t.ts_bytes == 4 && t.unframed && !t.elf &&
	   !strcmp(t.capture, path) && strstr(t.reads, "/targets/rv/reads") &&
	   !strcmp(t.decode, "mttdecode --input=riscv-encap capture.bin"),
	   "mtts_target_read: every key, the files in the target's directory");
	mtts_target_free(&t);
	snprintf(path, sizeof(path), "%s/targets", dir);
	ok(mtts_target_read(path, &t) == -1, "no target file: -1");
	mtts_target_free(&t);

	snprintf(path, sizeof(path), "%s/reads", dir);
	put(path, reads, sizeof(reads));
	ok(!mtts_reads_open(path, &r) && r.t_ns == 0x0102030405060708ull,
	   "mtts_reads_open: the opening time");
	ok(mtts_reads_next(&r) == 1 && r.off == 10 &&
	   r.t_ns == 0x0102030405060708ull + 1000, "pair 1: (10, +1000)");
	ok(mtts_reads_next(&r) == 1 && r.off == 310 &&
	   r.t_ns == 0x0102030405060708ull + 1001, "pair 2: (+300, +1)");
	ok(mtts_reads_next(&r) == 1 && r.off == 311 &&
	   r.t_ns == 0x0102030405060708ull + 1001 + (1ull << 35),
	   "pair 3: (+1, +2^35)");
	ok(mtts_reads_next(&r) == 0, "then the end");
	mtts_reads_close(&r);

	put(path, reads, sizeof(reads) - 1);	/* the last time cut */
	mtts_reads_open(path, &r);
	mtts_reads_next(&r);
	mtts_reads_next(&r);
	errno = 0;
	ok(mtts_reads_next(&r) == -1 && errno == EINVAL, "a cut pair: -1, EINVAL");
	mtts_reads_close(&r);
	put(path, "MTTREAD2\0\0\0\0\0\0\0\0", 16);
	errno = 0;
	ok(mtts_reads_open(path, &r) == -1 && errno == EINVAL,
	   "another magic: -1, EINVAL");
	requests(dir);
	return done_testing();
}
