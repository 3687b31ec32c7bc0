// SPDX-License-Identifier: GPL-2.0
/*
 * mtt_test: test-only MTT component "mtt_test" for the VM suite.
 * Writing to /sys/module/mtt_test/parameters/run:
 *   api       every API call, checked (result: "ok" or "fail: what"),
 *             then one trace of every type, a print and a raw frame
 *   trace N   N traces of a u32 1..N, hint "seq", level INFO
 *   ctx N     from one CPU at once: a task loop tracing "task" 1..3000,
 *             an hrtimer tracing "irq" 1..N in hard IRQ context and
 *             sending an NMI to its own CPU that traces "nmi" 1..N
 *             (x86 local APIC), all on this one component
 *   timer N   an hrtimer traces "tmr" 1..N, one every 0.5 ms (hard IRQ)
 *   bench N   ns per mtt_trace() enabled and filtered out (make bench)
 *   cycle N   N times: open a new component "mtt_race", trace one u32,
 *             close it (t-68 writes its sysfs attributes meanwhile)
 * result holds the outcome of the last run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/mtt.h>
#include <stm_compat.h>

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#define MT_HAVE_NMI	1
#else
#define MT_HAVE_NMI	0
#endif

static char result[128] = "none";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "outcome of the last run");

static mtt_comp_handle_t mt_h;
static DEFINE_MUTEX(mt_mutex);	/* one run at a time */

static bool mt_failed;

/* Record the first failed check in result.  Context: process. */
static void mt_check(bool ok, int line, const char *what)
{
	if (ok || mt_failed)
		return;
	mt_failed = true;
	snprintf(result, sizeof(result), "fail: line %d: %s", line, what);
}

#define MT_CHECK(cond) mt_check(cond, __LINE__, #cond)

/* One trace of every type.  Context: process. */
static void mt_types(void)
{
	u8 u8v = 0xa5;
	s8 s8v = -2;
	u16 u16v = 0xbeef;
	s16 s16v = -3;
	u32 u32v = 4242;
	s32 s32v = -4;
	u64 u64v = 0x0123456789abcdefULL;
	s64 s64v = -5;
	u32 fl = 0x40490fdb;			/* 3.14159274f */
	u64 db = 0x400921fb54442d18ULL;		/* 3.141592653589793 */
	u32 bo = 1;
	u32 ptr = 0xc0ffee00;
	static const char str[] = "hello mtt";
	static const u8 blob[5] = { 1, 2, 3, 4, 5 };
	static const u32 dump[3] = { 0xdeadbeef, 0x12345678, 0 };
	static const u16 v16[3] = { 1, 2, 3 };
	static const s32 v32[2] = { -1, 7 };
	static const u64 v64[2] = { 1, 0xffffffffffffffffULL };

	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT8, &u8v, "u8");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_INT8, &s8v, "i8");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT16, &u16v, "u16");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_INT16, &s16v, "i16");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &u32v, "signal0");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_INT32, &s32v, "i32");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT64, &u64v, "u64");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_INT64, &s64v, "i64");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_FLOAT, &fl, "float");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_DOUBLE, &db, "double");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_BOOL, &bo, "bool");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_PTR32, &ptr, "ptr32");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_STRING(sizeof(str) - 1),
		  str, "string");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_BLOB(sizeof(blob)), blob,
		  "blob");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_DUMP(ARRAY_SIZE(dump)),
		  dump, "dump");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEVECTOR_UINT16(ARRAY_SIZE(v16)),
		  v16, "vu16");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEVECTOR_INT32(ARRAY_SIZE(v32)),
		  v32, "vi32");
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEVECTOR_UINT64(ARRAY_SIZE(v64)),
		  v64, "vu64");
	mtt_trace(mt_h, MTT_LEVEL_WARNING, MTT_TRACEITEM_UINT32, &u32v,
		  "a_long_hint_cut_at_12");
	mtt_trace(mt_h, MTT_LEVEL_USER3, MTT_TRACEITEM_UINT32, &u32v, NULL);
	mtt_trace16(mt_h, MTT_LEVEL_DEBUG, u16v);
	mtt_trace32(mt_h, MTT_LEVEL_ERROR, u32v);
}

/*
 * mt_api()'s component list: static, not on the stack, where it made the
 * frame over 1024 bytes on 32-bit Arm (-Wframe-larger-than); one run at a
 * time (mt_mutex).
 */
static mtt_comp_info_t mt_api_info[8];

/* Every API call, checked.  Context: process, under mt_mutex. */
static int mt_api(void)
{
	static const char raw[5] = "raw!!";
	mtt_comp_info_t *info = mt_api_info;
	mtt_comp_handle_t h2, h3;
	mtt_comp_info_list_t list;
	mtt_api_caps_t caps;
	mtt_init_param_t ip = { 0 };
	u32 v = 0, prev;
	u64 sent;

	mt_failed = false;

	MT_CHECK(mtt_initialize(&ip) == MTT_ERR_NONE);
	MT_CHECK(mtt_get_capabilities(&caps) == MTT_ERR_NONE);
	MT_CHECK(caps.impl_info.version == MTT_API_VERSION);
	MT_CHECK(caps.caps & MTT_CAPS_LOG_LEVEL);

	/* names: shared by name, by id; bad names refused */
	MT_CHECK(mtt_open(MTT_COMP_ID_ANY, "mtt_test", &h2) == MTT_ERR_NONE);
	MT_CHECK(h2 == mt_h);
	MT_CHECK(mtt_get_component_info(mt_h, &info[0]) == MTT_ERR_NONE);
	MT_CHECK(!strcmp(info[0].name, "mtt_test"));
	MT_CHECK(info[0].level == MTT_LEVEL_ALL);
	MT_CHECK(info[0].handle == mt_h);
	MT_CHECK(info[0].id >= 1 && info[0].id <= MTT_COMP_ID_KERNEL);
	MT_CHECK(mtt_open(info[0].id, "mtt_test", &h3) == MTT_ERR_NONE);
	MT_CHECK(h3 == mt_h);
	MT_CHECK(mtt_close(h3) == MTT_ERR_NONE);
	MT_CHECK(mtt_close(h2) == MTT_ERR_NONE);
	MT_CHECK(mtt_open(MTT_COMP_ID_ANY, "a/b", &h2) == MTT_ERR_PARAM);
	MT_CHECK(mtt_open(MTT_COMP_ID_ANY, "", &h2) == MTT_ERR_PARAM);
	MT_CHECK(mtt_open(MTT_COMP_ID_ANY, NULL, &h2) == MTT_ERR_PARAM);
	/* a failed open's handle traces nothing and is not closable */
	MT_CHECK(mtt_trace(h2, MTT_LEVEL_ALL, MTT_TRACEITEM_UINT32, &v,
			   "x") == MTT_ERR_NONE);
	MT_CHECK(mtt_close(h2) == MTT_ERR_PARAM);
	MT_CHECK(mtt_open(0x1234, "mtt_test", &h2) == MTT_ERR_PARAM);

	MT_CHECK(mtt_get_component_handle(info[0].id, &h2) == MTT_ERR_NONE);
	MT_CHECK(h2 == mt_h);
	MT_CHECK(mtt_get_component_handle(0x3ffffff0, &h2) == MTT_ERR_PARAM);

	/* filters */
	MT_CHECK(mtt_get_component_filter(mt_h, &v) == MTT_ERR_NONE);
	MT_CHECK(v == MTT_LEVEL_ALL);
	MT_CHECK(mtt_set_component_filter(mt_h, MTT_LEVEL_ERROR, &prev) ==
		 MTT_ERR_NONE);
	MT_CHECK(prev == MTT_LEVEL_ALL);
	MT_CHECK(mtt_get_component_filter(mt_h, &v) == MTT_ERR_NONE);
	MT_CHECK(v == MTT_LEVEL_ERROR);
	mtt_get_component_info(mt_h, &info[0]);
	sent = info[0].stat[0];
	/* filtered out: nothing is sent */
	MT_CHECK(mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v,
			   "filtered") == MTT_ERR_NONE);
	MT_CHECK(mtt_print(mt_h, MTT_LEVEL_DEBUG, "filtered %d", 1) ==
		 MTT_ERR_NONE);
	MT_CHECK(mtt_data_raw(info[0].id, MTT_LEVEL_INFO, 1, raw) ==
		 MTT_ERR_NONE);
	mtt_get_component_info(mt_h, &info[0]);
	MT_CHECK(info[0].stat[0] == sent);
	MT_CHECK(mtt_set_component_filter(mt_h, MTT_LEVEL_ALL, NULL) ==
		 MTT_ERR_NONE);

	MT_CHECK(mtt_get_core_filter(&v) == MTT_ERR_NONE);
	MT_CHECK(v == MTT_LEVEL_ALL);
	MT_CHECK(mtt_set_core_filter(MTT_LEVEL_ERROR, &prev) == MTT_ERR_NONE);
	MT_CHECK(prev == MTT_LEVEL_ALL);
	MT_CHECK(mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v,
			   "filtered") == MTT_ERR_NONE);
	mtt_get_component_info(mt_h, &info[0]);
	MT_CHECK(info[0].stat[0] == sent);
	MT_CHECK(mtt_set_core_filter(MTT_LEVEL_ALL, &prev) == MTT_ERR_NONE);
	MT_CHECK(prev == MTT_LEVEL_ERROR);

	/* the list */
	list.nb = ARRAY_SIZE(mt_api_info);
	list.comp_info = info;
	MT_CHECK(mtt_get_component_info_list(&list) == MTT_ERR_NONE);
	MT_CHECK(list.nb >= 1);
	list.nb = 0;
	list.comp_info = NULL;
	MT_CHECK(mtt_get_component_info_list(&list) == MTT_ERR_NONE);
	MT_CHECK(list.nb >= 1);

	MT_CHECK(mtt_trigger(mt_h, NULL, NULL, 0) == MTT_ERR_FN_UNIMPLEMENTED);
	MT_CHECK(mtt_uninitialize() == MTT_ERR_NONE);

	/* bad sizes and data */
	MT_CHECK(mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_STRING(0xffff),
			   raw, NULL) == MTT_ERR_PARAM);
	MT_CHECK(mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, NULL,
			   NULL) == MTT_ERR_PARAM);
	MT_CHECK(mtt_data_raw(0x3ffffff0, MTT_LEVEL_INFO, 1, raw) ==
		 MTT_ERR_PARAM);

	/* what the guest script checks in the stream */
	mt_types();
	MT_CHECK(mtt_print(mt_h, MTT_LEVEL_API_RETURN, "print %d %s", 42,
			   "abc") == MTT_ERR_NONE);
	mtt_get_component_info(mt_h, &info[0]);
	MT_CHECK(mtt_data_raw(info[0].id, MTT_LEVEL_INFO, sizeof(raw), raw) ==
		 MTT_ERR_NONE);
	if (mt_failed)
		return -EINVAL;
	strscpy(result, "ok", sizeof(result));
	return 0;
}

/* ---- contexts ----------------------------------------------------------- */

#define MT_TASK_N	3000	/* task context traces of a ctx run */

static unsigned int mt_n;		/* IRQ and NMI traces wanted */
static unsigned int mt_irq_seq, mt_nmi_seq;
#if MT_HAVE_NMI
static atomic_t mt_nmi_pending = ATOMIC_INIT(0);
#endif
static int mt_cpu;
static struct hrtimer mt_timer;
static DECLARE_COMPLETION(mt_done);

#if MT_HAVE_NMI
/* Context: NMI. */
static int notrace mt_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_xchg(&mt_nmi_pending, 0))
		return NMI_DONE;
	mt_nmi_seq++;
	mtt_trace(mt_h, MTT_LEVEL_DEBUG, MTT_TRACEITEM_UINT32, &mt_nmi_seq,
		  "nmi");
	return NMI_HANDLED;
}
#endif

/* Context: hard IRQ. */
static enum hrtimer_restart mt_tick(struct hrtimer *t)
{
	/* the NMI may land while this trace is being built */
#if MT_HAVE_NMI
	if (!atomic_cmpxchg(&mt_nmi_pending, 0, 1))
		apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
#endif
	mt_irq_seq++;
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &mt_irq_seq,
		  "irq");
	if (mt_irq_seq >= mt_n) {
		complete(&mt_done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* Context: process. */
static int mt_ctx(unsigned int n)
{
	unsigned int task_seq = 0;
	int i;

	mt_n = n;
	mt_irq_seq = 0;
	mt_nmi_seq = 0;
	reinit_completion(&mt_done);
#if MT_HAVE_NMI
	if (register_nmi_handler(NMI_LOCAL, mt_nmi, 0, KBUILD_MODNAME))
		return -EBUSY;
#endif
	mt_cpu = get_cpu();
	stm_compat_hrtimer_setup(&mt_timer, mt_tick, CLOCK_MONOTONIC,
				 HRTIMER_MODE_REL_PINNED_HARD);
	hrtimer_start(&mt_timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	put_cpu();
	/* a fixed amount of tracing from task context meanwhile */
	while (task_seq < MT_TASK_N) {
		task_seq++;
		mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &task_seq,
			  "task");
		if (!(task_seq % 64))
			cond_resched();
	}
	wait_for_completion(&mt_done);
	hrtimer_cancel(&mt_timer);
#if MT_HAVE_NMI
	/* the last NMI sent must find the handler */
	for (i = 0; i < 1000 && atomic_read(&mt_nmi_pending); i++)
		usleep_range(1000, 2000);
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
#else
	i = 0;
#endif
	snprintf(result, sizeof(result), "task=%u irq=%u nmi=%u", task_seq,
		 mt_irq_seq, mt_nmi_seq);
	return i == 1000 ? -ETIMEDOUT : 0;
}

/* Context: hard IRQ. */
static enum hrtimer_restart mt_tmr_tick(struct hrtimer *t)
{
	mt_irq_seq++;
	mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &mt_irq_seq,
		  "tmr");
	if (mt_irq_seq >= mt_n) {
		complete(&mt_done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, ns_to_ktime(500 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/*
 * An hrtimer traces "tmr" 1..@n (every 0.5 ms, hard IRQ context); waits
 * for it.  Context: process.
 */
static void mt_timer_run(unsigned int n)
{
	mt_n = n;
	mt_irq_seq = 0;
	reinit_completion(&mt_done);
	stm_compat_hrtimer_setup(&mt_timer, mt_tmr_tick, CLOCK_MONOTONIC,
				 HRTIMER_MODE_REL_HARD);
	hrtimer_start(&mt_timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	wait_for_completion(&mt_done);
	hrtimer_cancel(&mt_timer);
	snprintf(result, sizeof(result), "timer=%u", mt_irq_seq);
}

/*
 * make bench: ns per mtt_trace() with the level let through (to whatever
 * the source is linked to) and filtered out.  Context: process.
 */
static void mt_bench(unsigned int n)
{
	u64 t0, t1, t2;
	unsigned int i;
	u32 v = 1;

	mtt_set_component_filter(mt_h, MTT_LEVEL_ALL, NULL);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v,
			  "bench");
	t1 = ktime_get_ns();
	mtt_set_component_filter(mt_h, MTT_LEVEL_NONE, NULL);
	for (i = 0; i < n; i++)
		mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v,
			  "bench");
	t2 = ktime_get_ns();
	mtt_set_component_filter(mt_h, MTT_LEVEL_ALL, NULL);
	t2 = div_u64((t2 - t1) * 100, n);
	snprintf(result, sizeof(result),
		 "%u calls: enabled %llu ns, filtered out %llu.%02llu ns",
		 n, div_u64(t1 - t0, n), div_u64(t2, 100), t2 % 100);
}

/*
 * Open and close a component @n times, for sysfs writes racing its
 * removal.  Context: process.
 */
static int mt_cycle(unsigned int n)
{
	mtt_comp_handle_t h;
	unsigned int i;
	u32 v;

	for (i = 1; i <= n; i++) {
		if (mtt_open(MTT_COMP_ID_ANY, "mtt_race", &h) != MTT_ERR_NONE) {
			snprintf(result, sizeof(result),
				 "fail: open %u of %u", i, n);
			return -EINVAL;
		}
		v = i;
		mtt_trace(h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &v, "race");
		if (mtt_close(h) != MTT_ERR_NONE) {
			snprintf(result, sizeof(result),
				 "fail: close %u of %u", i, n);
			return -EINVAL;
		}
	}
	snprintf(result, sizeof(result), "cycles=%u", n);
	return 0;
}

/* Context: process (sysfs write). */
static int mt_run_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int err = 0;

	mutex_lock(&mt_mutex);
	if (sysfs_streq(val, "api")) {
		err = mt_api();
	} else if (sscanf(val, "trace %u", &n) == 1) {
		for (i = 1; i <= n; i++)
			mtt_trace(mt_h, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32,
				  &i, "seq");
		snprintf(result, sizeof(result), "traced %u", n);
	} else if (sscanf(val, "bench %u", &n) == 1 && n) {
		mt_bench(n);
	} else if (sscanf(val, "timer %u", &n) == 1 && n) {
		mt_timer_run(n);
	} else if (sscanf(val, "ctx %u", &n) == 1 && n) {
		err = mt_ctx(n);
	} else if (sscanf(val, "cycle %u", &n) == 1 && n) {
		err = mt_cycle(n);
	} else {
		err = -EINVAL;
	}
	mutex_unlock(&mt_mutex);
	return err;
}

static const struct kernel_param_ops mt_run_ops = {
	.set	= mt_run_set,
};
module_param_cb(run, &mt_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "api | trace N | ctx N | timer N | bench N | cycle N");

static int __init mtest_init(void)
{
	return mtt_open(MTT_COMPONENTID_ANY, MTTDEV_NAME, &mt_h) ==
	       MTT_ERR_NONE ? 0 : -EINVAL;
}
module_init(mtest_init);

static void __exit mtest_exit(void)
{
	mtt_close(mt_h);
}
module_exit(mtest_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("MTT API test component (test-only)");
