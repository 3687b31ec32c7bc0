// SPDX-License-Identifier: GPL-2.0
/*
 * namestest.c - policy snapshots (parsing, deepest node wins), kallsyms
 * lookups, tracefs format files and ftrace record rendering, from the
 * handmade files in tests/host/data and records written out by hand
 * (struct trace_entry: u16 type, u8 flags, u8 preempt_count, s32 pid,
 * then the event's fields, little-endian).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"

static int load(struct mttd_policy *p, const char *text, char err[256])
{
	return mttd_policy_load_mem(p, text, strlen(text), "mem", err, 256);
}

static void policy(void)
{
	struct mttd_policy *p = mttd_policy_new();
	char err[256];
	const char *s;

	ok(mttd_policy_load_file(p, TESTDATA "/policy.txt", err,
				 sizeof(err)) == 0, "policy file loads");
	is_u64(mttd_policy_nodes(p), 6, "6 nodes");
	s = mttd_policy_lookup(p, 3, 5);
	is_str(s ? s : "(null)", "user/app", "m3 c5: user/app, deeper than user");
	s = mttd_policy_lookup(p, 3, 16);
	is_str(s ? s : "(null)", "user", "m3 c16: outside user/app: user");
	s = mttd_policy_lookup(p, 4, 1);
	is_str(s ? s : "(null)", "heartbeat.0", "m4 c1: heartbeat.0");
	s = mttd_policy_lookup(p, 5, 255);
	is_str(s ? s : "(null)", "ftrace", "m5 c255: ftrace");
	ok(mttd_policy_lookup(p, 7, 0) == NULL, "m7: no node");
	mttd_policy_free(p);

	p = mttd_policy_new();
	ok(load(p, "a 1 1 0 9\n  a/b  c 1 1 0 9 \na/b 1 1 4 4\n", err) == 0,
	   "spaces inside a node path; tabs and blanks around");
	s = mttd_policy_lookup(p, 1, 4);
	is_str(s ? s : "(null)", "a/b", "same depth: the smaller range wins");
	s = mttd_policy_lookup(p, 1, 5);
	is_str(s ? s : "(null)", "a/b  c", "a path with spaces");
	ok(load(p, "x 1 1 0\n", err) == -1 && strstr(err, "mem:1:"),
	   "missing field rejected with line number");
	ok(load(p, "\n\nx 2 1 0 0\n", err) == -1 && strstr(err, "mem:3:"),
	   "first master after last rejected");
	ok(load(p, "x 1 70000 0 0\n", err) == -1,
	   "master above 65535 rejected");
	ok(mttd_policy_load_file(p, TESTDATA "/nope.txt", err,
				 sizeof(err)) == -1 && strstr(err, "nope.txt"),
	   "missing file reported");
	mttd_policy_free(p);
}

static struct mttd_ftrace *loaded(void)
{
	struct mttd_ftrace *f = mttd_ftrace_new();
	char err[256];

	if (!f || mttd_ftrace_load_kallsyms(f, TESTDATA "/kallsyms.txt", err,
					    sizeof(err)) ||
	    mttd_ftrace_load_tracefs(f, TESTDATA "/tracefs", err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	return f;
}

static void symbols(void)
{
	struct mttd_ftrace *f = loaded();
	uint64_t off = 0;
	const char *s;

	is_u64(mttd_ftrace_symbols(f), 4, "text symbols only, no zero address");
	s = mttd_ftrace_symbol(f, 0xffffffff81000010ull, &off);
	ok(s && !strcmp(s, "do_thing") && off == 0x10, "address in do_thing");
	s = mttd_ftrace_symbol(f, 0xffffffff81000100ull, &off);
	ok(s && !strcmp(s, "helper_fn") && off == 0, "symbol start");
	s = mttd_ftrace_symbol(f, 0xffffffffc0000004ull, &off);
	ok(s && !strcmp(s, "mod_fn") && off == 4, "module symbol");
	ok(mttd_ftrace_symbol(f, 0xffffffff80000000ull, &off) == NULL,
	   "below every symbol: none");
	ok(mttd_ftrace_symbol(f, 0xfffffffff0000000ull, &off) == NULL,
	   "far above the last symbol: none");
	is_u64(mttd_ftrace_events(f), 2, "two format files found");
	mttd_ftrace_free(f);
}

static const char *render(struct mttd_ftrace *f, const char *bytes)
{
	static char out[1024];
	uint8_t *b;
	size_t n = hex(bytes, &b);

	if (!mttd_ftrace_render(f, b, n, out, sizeof(out)))
		strcpy(out, "(nothing)");
	return out;
}

static void records(void)
{
	struct mttd_ftrace *f = loaded(), *bare = mttd_ftrace_new();
	char small[16];
	uint8_t *b;
	size_t n;

	/* function entry: type 1, flags 0, preempt 1, pid 42;
	 * ip 0xffffffff81000010, parent_ip 0xffffffff81000120 */
	is_str(render(f, "01 00 00 01 2a 00 00 00 "
		      "10 00 00 81 ff ff ff ff 20 01 00 81 ff ff ff ff"),
	       "function: do_thing+0x10 <- helper_fn+0x20",
	       "function tracer entry with kallsyms");
	is_str(render(bare, "01 00 00 01 2a 00 00 00 "
		      "10 00 00 81 ff ff ff ff 20 01 00 81 ff ff ff ff"),
	       "function: 0xffffffff81000010 <- 0xffffffff81000120",
	       "function entry without kallsyms or formats (built-in)");
	/* trace_marker: type 5, ip, "hello\n" NUL (built-in print event) */
	is_str(render(bare, "05 00 00 00 07 00 00 00 "
		      "00 00 00 00 00 00 00 00 68 65 6c 6c 6f 0a 00"),
	       "print: ip=0x0 buf=hello", "trace_marker write (built-in)");
	/* sample/my_event (ID 300 = 0x12c): value -5, name "abc",
	 * msg __data_loc (length 3 << 16 | offset 32), func
	 * 0xffffffff81000110, then "yo" NUL at offset 32 */
	is_str(render(f, "2c 01 00 00 07 00 00 00 fb ff ff ff "
		      "61 62 63 00 00 00 00 00 20 00 03 00 "
		      "10 01 00 81 ff ff ff ff 79 6f 00"),
	       "my_event: value=-5 name=abc msg=yo func=helper_fn+0x10",
	       "event decoded from its format file");
	/* the same record cut after name: the rest is "?" */
	is_str(render(f, "2c 01 00 00 07 00 00 00 fb ff ff ff "
		      "61 62 63 00 00 00 00 00"),
	       "my_event: value=-5 name=abc msg=? func=?",
	       "fields outside the record");
	/* __data_loc pointing outside the record */
	is_str(render(f, "2c 01 00 00 07 00 00 00 fb ff ff ff "
		      "61 62 63 00 00 00 00 00 f0 00 09 00 "
		      "10 01 00 81 ff ff ff ff"),
	       "my_event: value=-5 name=abc msg=? func=helper_fn+0x10",
	       "__data_loc outside the record");
	is_str(render(f, "63 00 00 00 00 00 00 00 01 02"),
	       "ftrace event 99 (10 bytes)", "unknown event id");
	is_str(render(f, "01 00 00 00"), "(nothing)",
	       "shorter than a trace_entry");
	n = hex("2c 01 00 00 07 00 00 00 fb ff ff ff 61 62 63 00 00 00 00 00",
		&b);
	ok(mttd_ftrace_render(f, b, n, small, sizeof(small)) == 15 &&
	   strlen(small) == 15, "output cut at the buffer size");
	ok(mttd_ftrace_add_format(bare, "x", "no id here\n", 11) == -1,
	   "format without name/ID rejected");
	mttd_ftrace_free(f);
	mttd_ftrace_free(bare);
}

int main(void)
{
	char err[256];
	struct mttd_ftrace *f = mttd_ftrace_new();

	policy();
	symbols();
	records();
	ok(mttd_ftrace_load_tracefs(f, TESTDATA "/coll-a.xml", err,
				    sizeof(err)) == -1,
	   "tracefs: not a directory");
	ok(mttd_ftrace_load_tracefs(f, TESTDATA, err, sizeof(err)) == -1 &&
	   strstr(err, "no event format"), "tracefs: no format files");
	mttd_ftrace_free(f);
	return done_testing();
}
