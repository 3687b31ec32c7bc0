// SPDX-License-Identifier: GPL-2.0
/*
 * libmtttest.c - libmtt on the host, writing to a file (argv[1]): the
 * frame encoder against the hand-written frame of Documentation/mtt.rst,
 * the component id hash, every API call and its errors, filters, every
 * type traced and decoded back (round trip through libmttdecode), and
 * threads writing at once with no frame damaged or interleaved; the
 * output choice ($MTT_IO) and the stores of the mmap path, into memory.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mtt.h>

#include "internal/frame.h"
#include "internal/mmio.h"
#include "mttdecode/mttdecode.h"
#include "tap.h"

static const char *path;

static const uint8_t golden[] = {
	0x01, 0x10, 0xe0, 0xee, 0x0f, 0x00, 0x00, 0x00,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0xde, 0xc0,
	0x04, 0x00, 0x00, 0x05, 0x64, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x20, 0x92, 0x10, 0x00, 0x00,
	's', 'i', 'g', 'n', 'a', 'l', '0', 0, 0, 0, 0, 0,
};

static void test_encoder(void)
{
	uint32_t v = 4242;
	struct mttl_rec r = {
		.target = 1, .cmd = MTT_FRAME_CMD_TRACE,
		.flags = MTT_FRAME_F_CTXT | MTT_FRAME_F_TS64 | MTT_FRAME_F_LEVEL | MTT_FRAME_F_HINT,
		.comp = 3, .trace_id = 0xc0de0000u, .type_info = 0x05000004u,
		.ctx = 100, .ts = 0x100000002ull, .level = 0x20000000u,
		.payload = &v, .hint = "signal0",
	};
	uint8_t b[128];
	size_t n;

	is_u64(mttl_frame_len(&r), sizeof(golden), "encoder: frame length 52");
	n = mttl_frame_put(b, &r);
	ok(n == sizeof(golden) && !memcmp(b, golden, n),
	   "encoder: the frame of Documentation/mtt.rst byte for byte");
	r.hint = "a_hint_longer_than_12";
	mttl_frame_put(b, &r);
	ok(!memcmp(b + 40, "a_hint_longe", 12), "a long hint is cut to 12 bytes");
	r.target = 200;
	mttl_frame_put(b, &r);
	is_u64(b[0], 0x3f, "CPUs past 0x3f are target 0x3f");
	/* FNV-1a 32 check values */
	is_u64(mttl_name_id(""), 0x811c9dc5u, "FNV-1a of \"\"");
	is_u64(mttl_name_id("a"), 0xe40c292cu, "FNV-1a of \"a\"");
	is_u64(mttl_name_id("foobar"), 0xbf9cf968u, "FNV-1a of \"foobar\"");
}

static off_t fsize(void)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static void test_api(void)
{
	mtt_comp_handle_t h, h2, h3;
	mtt_comp_info_t info, list[4];
	mtt_comp_info_list_t l = { 4, list };
	mtt_api_caps_t caps;
	mtt_init_param_t p;
	uint32_t lv, prev, v = 1;
	off_t sz;

	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", path);
	is_u64(mtt_initialize(&p), MTT_ERR_NONE, "mtt_initialize(file)");
	is_u64(mtt_get_capabilities(&caps), MTT_ERR_NONE, "capabilities");
	is_u64(caps.impl_info.version, 0x10002, "API version 1.2");
	is_u64(mtt_get_capabilities(NULL), MTT_ERR_PARAM, "caps(NULL)");
	is_u64(mtt_open(MTT_COMPONENTID_ANY, NULL, &h), MTT_ERR_PARAM,
	       "open without a name");
	is_u64(mtt_open(MTT_COMPONENTID_ANY, "a/b", &h), MTT_ERR_PARAM,
	       "a name with a slash");
	is_u64(mtt_open(MTT_COMPONENTID_ANY, "app", &h), MTT_ERR_NONE,
	       "open \"app\"");
	is_u64(mtt_open(MTT_COMP_ID_ANY, "app", &h2), MTT_ERR_NONE,
	       "open \"app\" again");
	ok(h == h2, "the same name gives the same component");
	is_u64(mtt_get_component_info(h, &info), MTT_ERR_NONE, "info");
	is_u64(info.id, 0x40000000u | (mttl_name_id("app") & 0x3fffffffu),
	       "id: user bit | FNV-1a of the name");
	is_str(info.name, "app", "info name");
	is_u64(info.level, MTT_LEVEL_ALL, "a new component lets all through");
	is_u64(mtt_get_component_handle(info.id, &h3), MTT_ERR_NONE,
	       "handle by id");
	ok(h3 == h, "the same handle");
	is_u64(mtt_get_component_handle(0x1234, &h3), MTT_ERR_PARAM,
	       "unknown id");
	is_u64(mtt_open(0x77, "fixed", &h3), MTT_ERR_NONE, "open id 0x77");
	is_u64(mtt_open(0x78, "fixed", &h2), MTT_ERR_PARAM,
	       "the same name with another id");
	is_u64(mtt_open(0x77, "other", &h2), MTT_ERR_ALREADY_OPENED,
	       "the same id with another name");
	is_u64(mtt_get_component_info_list(&l), MTT_ERR_NONE, "info list");
	is_u64(l.nb, 2, "two components open");

	sz = fsize();
	is_u64(mtt_set_component_filter(h, MTT_LEVEL_ERROR, &prev),
	       MTT_ERR_NONE, "set component filter");
	is_u64(prev, MTT_LEVEL_ALL, "previous filter");
	is_u64(mtt_get_component_filter(h, &lv), MTT_ERR_NONE, "get filter");
	is_u64(lv, MTT_LEVEL_ERROR, "filter read back");
	ok(!mtt_level_on(h, MTT_LEVEL_INFO) && mtt_level_on(h, MTT_LEVEL_ERROR),
	   "the inline test follows the filter");
	is_u64(mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, "x"),
	       MTT_ERR_NONE, "a filtered trace returns NONE");
	is_u64(mtt_print(h, MTT_LEVEL_DEBUG, "%d", 1), MTT_ERR_NONE,
	       "a filtered print returns NONE");
	is_u64(mtt_data_raw(info.id, MTT_LEVEL_INFO, 1, "x"), MTT_ERR_NONE,
	       "filtered raw data returns NONE");
	ok(fsize() == sz, "filtered calls write nothing");
	mtt_set_component_filter(h, MTT_LEVEL_ALL, NULL);
	is_u64(mtt_set_core_filter(MTT_LEVEL_WARNING, &prev), MTT_ERR_NONE,
	       "set core filter");
	is_u64(prev, MTT_LEVEL_ALL, "previous core filter");
	mtt_get_core_filter(&lv);
	is_u64(lv, MTT_LEVEL_WARNING, "core filter read back");
	ok(!mtt_level_on(h, MTT_LEVEL_INFO) &&
	   mtt_level_on(h, MTT_LEVEL_WARNING), "the core filter applies");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, "x");
	ok(fsize() == sz, "core-filtered calls write nothing");
	mtt_set_core_filter(MTT_LEVEL_ALL, NULL);
	is_u64(mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, NULL, "x"),
	       MTT_ERR_PARAM, "a payload without data");
	is_u64(mtt_data_raw(0x1234, MTT_LEVEL_INFO, 1, "x"), MTT_ERR_PARAM,
	       "raw data to an unknown id");
	is_u64(mtt_trigger(h, NULL, NULL, 0), MTT_ERR_FN_UNIMPLEMENTED,
	       "mtt_trigger is not implemented");
	is_u64(mtt_close(h3), MTT_ERR_NONE, "close \"fixed\"");
	is_u64(mtt_get_component_filter(h3, &lv), MTT_ERR_USAGE,
	       "a closed component");
	ok(!mtt_level_on(h3, MTT_LEVEL_ALL), "a closed component traces nothing");
	is_u64(mtt_close(h3), MTT_ERR_USAGE, "closing twice");
	mtt_close(h);
	is_u64(mtt_get_component_handle(info.id, &h3), MTT_ERR_NONE,
	       "still open once");
	mtt_close(h);
	is_u64(mtt_get_component_handle(info.id, &h3), MTT_ERR_PARAM,
	       "closed as often as opened: gone");
}

/* decoded frames, as lines */
struct dec {
	char *s;
	size_t len, cap;
	unsigned long frames, metas, skipped;
	unsigned int next[64];	/* per thread: next sequence number */
	uint32_t ctx[64];
	int order_ok;
	int threads;
};

static void add(struct dec *d, const char *line)
{
	size_t n = strlen(line);

	if (d->len + n + 1 > d->cap) {
		d->cap = (d->len + n + 1) * 2;
		d->s = realloc(d->s, d->cap);
	}
	memcpy(d->s + d->len, line, n + 1);
	d->len += n;
}

static void on_frame(void *ctx, const struct mttd_mtt_frame *f, uint64_t off)
{
	struct dec *d = ctx;
	char v[256], line[512], lb[11];

	(void)off;
	d->frames++;
	if (f->cmd == MTT_FRAME_CMD_META) {
		d->metas++;
		if (d->threads)
			return;
	}
	if (d->threads) {
		/* hint "t<thread>", value = sequence number */
		unsigned int t = (unsigned int)atoi(f->hint + 1);
		uint32_t seq;

		memcpy(&seq, f->payload, 4);
		if (t >= 64 || seq != d->next[t] ||
		    (d->next[t] && d->ctx[t] != f->ctx))
			d->order_ok = 0;
		d->ctx[t] = f->ctx;
		d->next[t]++;
		return;
	}
	mttd_mtt_value(f, v, sizeof(v));
	snprintf(line, sizeof(line), "%s %s %s=%s|",
		 f->cmd == MTT_FRAME_CMD_META ? "META" :
		 f->cmd == MTT_FRAME_CMD_RAW ? "RAW" : "TRACE",
		 (f->flags & MTT_FRAME_F_LEVEL) ?
		 mttd_mtt_level_name(f->level, lb) : "-", f->hint, v);
	add(d, line);
}

static void on_skip(void *ctx, uint64_t off, uint64_t n)
{
	struct dec *d = ctx;

	(void)off;
	d->skipped += n;
}

static void decode(struct dec *d)
{
	struct mttd_mtt_stream *s = mttd_mtt_stream_new(on_frame, on_skip, d);
	uint8_t buf[4096];
	FILE *fp = fopen(path, "rb");
	size_t n;

	while (fp && (n = fread(buf, 1, sizeof(buf), fp)) > 0)
		mttd_mtt_stream_push(s, buf, n);
	if (fp)
		fclose(fp);
	mttd_mtt_stream_finish(s);
	mttd_mtt_stream_free(s);
}

static void test_round_trip(void)
{
	static const char want[] =
		"META - =\"rt\"|"
		"TRACE INFO u8=200|TRACE ERROR i8=-3|TRACE WARNING u16=65535|"
		"TRACE DEBUG i16=-300|TRACE INFO signal0=4242|"
		"TRACE INFO i32=-70000|TRACE INFO u64=18446744073709551615|"
		"TRACE INFO i64=-5|TRACE INFO f=0.25|TRACE INFO d=-2.5|"
		"TRACE INFO b=true|TRACE INFO ptr=0xdeadbeef|"
		"TRACE USER3 vec=[1, -2, 3]|TRACE USER15 dump=[0x00000001, 0x00000002]|"
		"TRACE ASSERT str=\"hello\"|TRACE CALLSTACK blob=[1, 2, 3]|"
		"TRACE API_ENTRY =-|TRACE API_RETURN =\"fake_alsa_init 7\"|"
		"RAW INFO =[120, 121]|";
	mtt_comp_handle_t h;
	uint8_t u8 = 200, blob[3] = { 1, 2, 3 };
	int8_t i8 = -3;
	uint16_t u16 = 65535;
	int16_t i16 = -300, vec[3] = { 1, -2, 3 };
	uint32_t u32 = 4242, ptr = 0xdeadbeef, dump[2] = { 1, 2 }, b = 1;
	int32_t i32 = -70000;
	uint64_t u64 = UINT64_MAX;
	int64_t i64 = -5;
	float fl = 0.25f;
	double d = -2.5;
	mtt_comp_info_t info;
	struct dec dec = { 0 };

	fclose(fopen(path, "w"));	/* empty the file */
	mtt_open(MTT_COMPONENTID_ANY, "rt", &h);
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT8, &u8, "u8");
	mtt_trace(h, MTT_LEVEL_ERROR, MTT_TRACEITEM_INT8, &i8, "i8");
	mtt_trace(h, MTT_LEVEL_WARNING, MTT_TRACEITEM_UINT16, &u16, "u16");
	mtt_trace(h, MTT_LEVEL_DEBUG, MTT_TRACEITEM_INT16, &i16, "i16");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &u32, "signal0");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_INT32, &i32, "i32");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT64, &u64, "u64");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_INT64, &i64, "i64");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_FLOAT, &fl, "f");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_DOUBLE, &d, "d");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_BOOL, &b, "b");
	mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_PTR32, &ptr, "ptr");
	mtt_trace(h, MTT_LEVEL_USER3, MTT_TRACEVECTOR_INT16(3), vec, "vec");
	mtt_trace(h, MTT_LEVEL_USER15, MTT_TRACEITEM_DUMP(2), dump, "dump");
	mtt_trace(h, MTT_LEVEL_ASSERT, MTT_TRACEITEM_STRING(5), "hello", "str");
	mtt_trace(h, MTT_LEVEL_CALLSTACK, MTT_TRACEITEM_BLOB(3), blob, "blob");
	mtt_trace(h, MTT_LEVEL_API_ENTRY, MTT_TRACEITEM_UINT32 & ~0xffffu,
		  NULL, NULL);
	mtt_print(h, MTT_LEVEL_API_RETURN, "fake_alsa_init %d", 7);
	mtt_get_component_info(h, &info);
	mtt_data_raw(info.id, MTT_LEVEL_INFO, 2, "xy");
	is_u64(info.stat[0], 18, "18 traces counted as sent");
	decode(&dec);
	is_str(dec.s ? dec.s : "", want, "every type decodes back");
	is_u64(dec.skipped, 0, "no byte skipped");
	free(dec.s);
	mtt_close(h);
}

#define THREADS 8
#define PER_THREAD 300

struct targ {
	mtt_comp_handle_t h;
	unsigned int t;
	pthread_barrier_t *bar;
	int errors;
};

static void *writer(void *p)
{
	struct targ *a = p;
	char hint[8];
	uint32_t i;

	snprintf(hint, sizeof(hint), "t%u", a->t);
	pthread_barrier_wait(a->bar);
	for (i = 0; i < PER_THREAD; i++)
		if (mtt_trace(a->h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &i,
			      hint))
			a->errors++;
	return NULL;
}

static void test_threads(void)
{
	pthread_t th[THREADS];
	struct targ a[THREADS];
	pthread_barrier_t bar;
	mtt_comp_handle_t h;
	struct dec dec = { 0 };
	int errors = 0;
	unsigned int i;

	fclose(fopen(path, "w"));	/* empty the file */
	mtt_open(MTT_COMPONENTID_ANY, "threads", &h);
	pthread_barrier_init(&bar, NULL, THREADS);
	for (i = 0; i < THREADS; i++) {
		a[i] = (struct targ){ .h = h, .t = i, .bar = &bar };
		pthread_create(&th[i], NULL, writer, &a[i]);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		errors += a[i].errors;
	}
	pthread_barrier_destroy(&bar);
	is_u64(errors, 0, "no call failed");
	dec.threads = 1;
	dec.order_ok = 1;
	decode(&dec);
	is_u64(dec.skipped, 0, "no damaged byte");
	is_u64(dec.metas, THREADS, "one META frame per thread's channel");
	is_u64(dec.frames - dec.metas, THREADS * PER_THREAD,
	       "every trace is one whole frame");
	ok(dec.order_ok, "each thread's values in order, with one context id");
	for (i = 0; i < THREADS; i++)
		if (dec.next[i] != PER_THREAD)
			break;
	ok(i == THREADS, "each thread's %d traces all there", PER_THREAD);
	mtt_close(h);
}

static void test_errors(void)
{
	mtt_init_param_t p;
	mtt_comp_handle_t h;
	mtt_comp_info_t info;
	uint32_t v = 0;

	mtt_uninitialize();
	memset(&p, 0, sizeof(p));
	strcpy(p.name, "/");		/* a directory: not an output */
	mtt_initialize(&p);
	mtt_open(MTT_COMPONENTID_ANY, "nowhere", &h);
	is_u64(mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, NULL),
	       MTT_ERR_CONNECTION, "no output: MTT_ERR_CONNECTION");
	mtt_get_component_info(h, &info);
	is_u64(info.stat[1], 1, "counted as dropped");
	mtt_close(h);
	memset(&p, 0, sizeof(p));
	memset(p.name, 'x', sizeof(p.name));
	is_u64(mtt_initialize(&p), MTT_ERR_PARAM, "an unterminated name");
	mtt_uninitialize();
}

static void test_io(void)
{
	uint32_t win[32];
	uint8_t odd[7] = { 1, 2, 3, 4, 5, 6, 7 };
	mtt_init_param_t p;
	mtt_comp_handle_t h;
	uint32_t v = 7;
	off_t sz;

	is_u64(mttl_io_mode(NULL), MTTL_IO_AUTO, "MTT_IO unset: auto");
	is_u64(mttl_io_mode(""), MTTL_IO_AUTO, "MTT_IO empty: auto");
	is_u64(mttl_io_mode("auto"), MTTL_IO_AUTO, "MTT_IO=auto");
	is_u64(mttl_io_mode("write"), MTTL_IO_WRITE, "MTT_IO=write");
	is_u64(mttl_io_mode("mmap"), MTTL_IO_MMAP, "MTT_IO=mmap");
	ok(mttl_io_mode("mmap ") < 0 && mttl_io_mode("MMAP") < 0,
	   "any other MTT_IO is refused");

	/* the window holds the frame byte for byte, nothing past it */
	memset(win, 0xa5, sizeof(win));
	mttl_mmio_store(win, golden, sizeof(golden));
	ok(!memcmp(win, golden, sizeof(golden)),
	   "mmio stores: the window holds the frame byte for byte");
	ok(((uint8_t *)win)[sizeof(golden)] == 0xa5 &&
	   win[31] == 0xa5a5a5a5u, "and nothing past its end");
	mttl_mmio_store(win, odd, sizeof(odd));
	ok(!memcmp(win, odd, sizeof(odd)) && ((uint8_t *)win)[7] ==
	   golden[7], "a length not a multiple of 4: its tail bytes only");

	/* a file has no window: mmap forced fails, write and auto write */
	mtt_uninitialize();
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "%s", path);
	mtt_initialize(&p);
	mtt_open(MTT_COMPONENTID_ANY, "io", &h);
	sz = fsize();
	setenv("MTT_IO", "mmap", 1);
	is_u64(mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, NULL),
	       MTT_ERR_CONNECTION, "MTT_IO=mmap on a file: MTT_ERR_CONNECTION");
	setenv("MTT_IO", "bogus", 1);
	is_u64(mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, NULL),
	       MTT_ERR_CONNECTION, "MTT_IO=bogus: MTT_ERR_CONNECTION");
	ok(fsize() == sz, "neither wrote anything");
	setenv("MTT_IO", "write", 1);
	is_u64(mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, NULL),
	       MTT_ERR_NONE, "MTT_IO=write on a file");
	ok(fsize() > sz, "wrote its frames");
	unsetenv("MTT_IO");
	mtt_close(h);
	mtt_uninitialize();
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: libmtttest FILE\n");
		return 2;
	}
	path = argv[1];
	test_encoder();
	test_api();
	test_round_trip();
	test_threads();
	test_errors();
	test_io();
	return done_testing();
}
