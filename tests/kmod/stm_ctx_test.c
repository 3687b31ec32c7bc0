// SPDX-License-Identifier: GPL-2.0
/*
 * stm_ctx_test: a test-only stm_source, "ctx_test", that writes from every
 * context on every CPU at once while "run" is 1, for the VM suite
 * (tests/guest/t-50-contexts.sh):
 *
 *   P  process:   a kthread bound to each CPU, bursts of p_burst writes
 *                 with usleep_range(p_sleep_us, 2 * p_sleep_us) between
 *   S  softirq:   a pinned timer_list per CPU, s_burst writes a jiffy
 *   H  hard IRQ:  a pinned hrtimer per CPU in hard-IRQ mode (hard IRQ under
 *                 PREEMPT_RT too), h_burst writes every h_period_us
 *   F  ftrace:    an ftrace_ops callback on the function ftrace_func,
 *                 one write every f_every-th call on a CPU
 *   N  NMI:       n_burst writes from the overflow handler of a perf
 *                 hardware cycles counter per CPU (every nmi_period
 *                 cycles); without a PMU (QEMU TCG), from an NMI handler
 *                 that the H timer of the previous CPU triggers with an
 *                 NMI IPI every n_every-th tick (x86 local APIC).
 *                 Where perf's overflow handler turns out to be a plain
 *                 interrupt (ARMv7 has no NMI; arm64 without pseudo-NMIs)
 *                 N writes nothing: nmi_source reads "perf-irq" and
 *                 nmi_active N, the NMI path is not proven there
 *
 * Message: "<ctx>:<cpu>:<seq>", ctx one of P S H F N, sent on channel
 * ctx * CTX_CPUS + cpu of the source.  A channel has one writer only at
 * any time (p_basic sends a message as several packets, which must not
 * interleave on a channel): a kthread, a timer or an hrtimer is one
 * writer; the ftrace callback skips calls nested in itself on a CPU
 * (counted in ftrace_nested); NMIs do not nest.
 *
 * <seq> counts per context and CPU the messages that went out: it goes up
 * when stm_source_write() sent something, so the numbers in the stream are
 * contiguous except across a loss.  A failed write (-ENODEV while the
 * source is unlinked) sent nothing and the next write reuses its number.
 * Only CPUs 0..CTX_CPUS-1 write.  CPU hotplug during a run is not
 * supported.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/stm.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <stm_compat.h>

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#define CTX_HAVE_NMI_IPI	1
#else
#define CTX_HAVE_NMI_IPI	0
#endif

#define CTX_CPUS	4	/* CPUs that write */
#define CTX_CHANS	32	/* CTX_NR * CTX_CPUS, rounded up to a power of two */
#define CTX_MIN_US	10	/* shortest sleep or timer period */

enum ctx_kind { CTX_P, CTX_S, CTX_H, CTX_F, CTX_N, CTX_NR };

static const char ctx_letter[CTX_NR] = { 'P', 'S', 'H', 'F', 'N' };

/*
 * CTX_NMI_PERF_IRQ: the perf counters run, but their overflow handler
 * turned out not to be an NMI (ARMv7 has none; arm64 without pseudo-NMIs):
 * no N writer, the NMI path not proven.
 */
enum ctx_nmi_source {
	CTX_NMI_NONE, CTX_NMI_PERF, CTX_NMI_PERF_IRQ, CTX_NMI_IPI
};

static const char * const ctx_nmi_names[] = {
	[CTX_NMI_NONE]		= "none",
	[CTX_NMI_PERF]		= "perf",
	[CTX_NMI_PERF_IRQ]	= "perf-irq",
	[CTX_NMI_IPI]		= "ipi",
};

/* ---- parameters ------------------------------------------------------ */

static unsigned int p_burst = 8;
module_param(p_burst, uint, 0644);
MODULE_PARM_DESC(p_burst, "P: writes per burst (default 8)");

static unsigned int p_sleep_us = 200;
module_param(p_sleep_us, uint, 0644);
MODULE_PARM_DESC(p_sleep_us, "P: sleep between bursts, us, at least 10 (default 200)");

static unsigned int s_burst = 4;
module_param(s_burst, uint, 0644);
MODULE_PARM_DESC(s_burst, "S: writes per timer tick (default 4)");

static unsigned int h_period_us = 100;
module_param(h_period_us, uint, 0644);
MODULE_PARM_DESC(h_period_us, "H: hrtimer period, us, at least 10 (default 100)");

static unsigned int h_burst = 1;
module_param(h_burst, uint, 0644);
MODULE_PARM_DESC(h_burst, "H: writes per hrtimer tick (default 1)");

static char *ftrace_func = "ktime_get";
module_param(ftrace_func, charp, 0644);
MODULE_PARM_DESC(ftrace_func, "F: function to hook, read at start, empty = off (default ktime_get)");

static unsigned int f_every = 16;
module_param(f_every, uint, 0644);
MODULE_PARM_DESC(f_every, "F: write on every N-th call on a CPU (default 16)");

static char *nmi = "auto";
module_param(nmi, charp, 0644);
MODULE_PARM_DESC(nmi, "N: auto (perf, else ipi), perf, ipi or off; read at start");

static unsigned long nmi_period = 2000000;
module_param(nmi_period, ulong, 0644);
MODULE_PARM_DESC(nmi_period, "N, perf: cycles between NMIs (default 2000000)");

static unsigned int n_every = 4;
module_param(n_every, uint, 0644);
MODULE_PARM_DESC(n_every, "N, ipi: an NMI every N-th H tick of each CPU (default 4)");

static unsigned int n_burst = 2;
module_param(n_burst, uint, 0644);
MODULE_PARM_DESC(n_burst, "N: writes per NMI (default 2)");

static int ftrace_status;
module_param(ftrace_status, int, 0444);
MODULE_PARM_DESC(ftrace_status, "F: 1 hooked, 0 off, < 0 the error of the last start");

static unsigned long links;
module_param(links, ulong, 0444);
MODULE_PARM_DESC(links, "link callbacks seen");

/* ---- state ----------------------------------------------------------- */

/* What one context wrote on one CPU; only that context's writer updates it. */
struct ctx_slot {
	unsigned long	seq;		/* number of the next message */
	unsigned long	ok;		/* messages sent whole */
	unsigned long	failed;		/* writes that sent nothing or a part */
} ____cacheline_aligned_in_smp;

static struct ctx_slot ctx_slots[CTX_NR][CTX_CPUS];

/* short writes, errors other than -ENODEV, timers off their CPU: none */
static atomic_long_t ctx_unexpected = ATOMIC_LONG_INIT(0);
static atomic_long_t ctx_f_nested = ATOMIC_LONG_INIT(0);
static atomic_long_t ctx_nmi_sent = ATOMIC_LONG_INIT(0);

static DEFINE_PER_CPU(unsigned int, ctx_f_nest);
static DEFINE_PER_CPU(unsigned long, ctx_f_hits);
/* F writes by where the hooked function ran: task, softirq, hardirq, NMI */
static unsigned long ctx_f_where[CTX_CPUS][4];

static DEFINE_MUTEX(ctx_mutex);		/* start, stop, ctx_ready */
static bool ctx_ready;			/* init done, exit not started */
static bool ctx_run_at_init;		/* run=1 given to insmod */
static bool ctx_started;		/* contexts set up (under ctx_mutex) */
static bool ctx_running;		/* writers may write (read anywhere) */
static unsigned long ctx_cpu_bits;	/* CPUs of this run */
static enum ctx_nmi_source ctx_nmi_src;
static bool ctx_f_registered;

static struct task_struct *ctx_threads[CTX_CPUS];
static struct timer_list ctx_timers[CTX_CPUS];
static struct hrtimer ctx_hrtimers[CTX_CPUS];
static struct perf_event *ctx_perf[CTX_CPUS];

/* Context: process. */
static int ctx_link(struct stm_source_data *data)
{
	WRITE_ONCE(links, links + 1);
	return 0;
}

static struct stm_source_data ctx_source = {
	.name		= "ctx_test",
	.nr_chans	= CTX_CHANS,
	.link		= ctx_link,
};

/* ---- the write ------------------------------------------------------- */

/*
 * Send the next message of @kind on @cpu's channel.  Context: any, NMI
 * included; the caller is the channel's only writer.  Never sleeps.
 */
static void notrace ctx_write(enum ctx_kind kind, unsigned int cpu)
{
	struct ctx_slot *s = &ctx_slots[kind][cpu];
	char msg[32];
	int len, ret;

	len = scnprintf(msg, sizeof(msg), "%c:%u:%lu", ctx_letter[kind], cpu,
			s->seq);
	ret = stm_source_write(&ctx_source, kind * CTX_CPUS + cpu, msg, len);
	if (ret > 0)
		WRITE_ONCE(s->seq, s->seq + 1);
	if (ret == len) {
		WRITE_ONCE(s->ok, s->ok + 1);
		return;
	}
	WRITE_ONCE(s->failed, s->failed + 1);
	if (ret != -ENODEV)
		atomic_long_inc(&ctx_unexpected);
}

/* Context: any; counts a timer callback that runs off its CPU @cpu. */
static void notrace ctx_check_cpu(unsigned int cpu)
{
	if (raw_smp_processor_id() != cpu)
		atomic_long_inc(&ctx_unexpected);
}

/* ---- P: process context ------------------------------------------------ */

/* Context: process, a kthread bound to CPU @arg. */
static int ctx_proc_fn(void *arg)
{
	unsigned int cpu = (unsigned long)arg;
	unsigned int i, n, us;

	while (!kthread_should_stop()) {
		n = READ_ONCE(p_burst);
		for (i = 0; i < n; i++)
			ctx_write(CTX_P, cpu);
		us = max_t(unsigned int, READ_ONCE(p_sleep_us), CTX_MIN_US);
		usleep_range(us, 2 * us);
	}
	return 0;
}

/* ---- S: softirq -------------------------------------------------------- */

/* Context: softirq (a per-CPU thread under PREEMPT_RT), timer's CPU. */
static void ctx_softirq_fn(struct timer_list *t)
{
	unsigned int cpu = t - ctx_timers;
	unsigned int i, n = READ_ONCE(s_burst);

	ctx_check_cpu(cpu);
	for (i = 0; i < n; i++)
		ctx_write(CTX_S, cpu);
	if (READ_ONCE(ctx_running))
		mod_timer(t, jiffies + 1);
}

/* ---- N: NMI ------------------------------------------------------------ */

/* Context: NMI (or whatever the PMU interrupt is off x86). */
static void notrace ctx_nmi_write(void)
{
	unsigned int cpu = raw_smp_processor_id();
	unsigned int i, n = READ_ONCE(n_burst);

	if (cpu >= CTX_CPUS || !READ_ONCE(ctx_running))
		return;
	if (!in_nmi()) {
		enum ctx_nmi_source src = READ_ONCE(ctx_nmi_src);

		/*
		 * perf's overflow handler is a plain interrupt here: that is
		 * no NMI writer; say so (perf-irq: nmi_active N) rather than
		 * let the run wait for N writes that will never come
		 */
		if (src == CTX_NMI_PERF || src == CTX_NMI_PERF_IRQ)
			WRITE_ONCE(ctx_nmi_src, CTX_NMI_PERF_IRQ);
		else
			atomic_long_inc(&ctx_unexpected);
		return;
	}
	for (i = 0; i < n; i++)
		ctx_write(CTX_N, cpu);
}

/* Context: NMI on x86; elsewhere the PMU's interrupt (NMI or not). */
static void notrace ctx_perf_fn(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	ctx_nmi_write();
}

/* Context: process.  Return: 0 with one counter per CPU running, or -errno. */
static int ctx_perf_start(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.config		= PERF_COUNT_HW_CPU_CYCLES,
		.size		= sizeof(attr),
		.pinned		= 1,
		.disabled	= 1,
	};
	struct perf_event *event;
	unsigned int cpu;

	attr.sample_period = max(READ_ONCE(nmi_period), 1000UL);
	for_each_set_bit(cpu, &ctx_cpu_bits, CTX_CPUS) {
		event = perf_event_create_kernel_counter(&attr, cpu, NULL,
							 ctx_perf_fn, NULL);
		if (IS_ERR(event))
			return PTR_ERR(event);
		ctx_perf[cpu] = event;
	}
	for_each_set_bit(cpu, &ctx_cpu_bits, CTX_CPUS)
		perf_event_enable(ctx_perf[cpu]);
	return 0;
}

/* Context: process. */
static void ctx_perf_stop(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < CTX_CPUS; cpu++) {
		if (!ctx_perf[cpu])
			continue;
		perf_event_disable(ctx_perf[cpu]);
		perf_event_release_kernel(ctx_perf[cpu]);
		ctx_perf[cpu] = NULL;
	}
}

#if CTX_HAVE_NMI_IPI
static unsigned int ctx_h_ticks[CTX_CPUS];	/* H ticks, per H timer */
static atomic_t ctx_nmi_pending[CTX_CPUS];	/* an NMI is on its way */

/* Context: NMI; an NMI is ours if we flagged this CPU before sending it. */
static int notrace ctx_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	unsigned int cpu = raw_smp_processor_id();

	if (cpu >= CTX_CPUS || !atomic_xchg(&ctx_nmi_pending[cpu], 0))
		return NMI_DONE;
	ctx_nmi_write();
	return NMI_HANDLED;
}

/* Context: hard IRQ, the H timer of @cpu: NMI the next CPU of the run. */
static void ctx_nmi_kick(unsigned int cpu)
{
	unsigned int every = max(READ_ONCE(n_every), 1U);
	unsigned long target;

	if (ctx_nmi_src != CTX_NMI_IPI || ++ctx_h_ticks[cpu] % every)
		return;
	target = find_next_bit(&ctx_cpu_bits, CTX_CPUS, cpu + 1);
	if (target >= CTX_CPUS)
		target = find_first_bit(&ctx_cpu_bits, CTX_CPUS);
	/* one NMI on its way to a CPU at a time: the handler clears it */
	if (atomic_cmpxchg(&ctx_nmi_pending[target], 0, 1))
		return;
	apic->send_IPI_mask(cpumask_of(target), NMI_VECTOR);
	atomic_long_inc(&ctx_nmi_sent);
}

/* Context: process. */
static int ctx_ipi_start(void)
{
	return register_nmi_handler(NMI_LOCAL, ctx_nmi_fn, 0, KBUILD_MODNAME);
}

/* Context: process, after the H timers stopped: no NMI is sent any more. */
static void ctx_ipi_stop(void)
{
	unsigned int cpu, i;

	/* an NMI still on its way must find the handler */
	for (i = 0; i < 1000; i++) {
		for (cpu = 0; cpu < CTX_CPUS; cpu++)
			if (atomic_read(&ctx_nmi_pending[cpu]))
				break;
		if (cpu == CTX_CPUS)
			break;
		usleep_range(1000, 2000);
	}
	if (i == 1000)
		pr_info("an NMI sent did not arrive\n");
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
}
#else
/* Context: hard IRQ; no NMI IPIs here. */
static void ctx_nmi_kick(unsigned int cpu)
{
}

/* Context: process. */
static int ctx_ipi_start(void)
{
	return -EOPNOTSUPP;
}

/* Context: process. */
static void ctx_ipi_stop(void)
{
}
#endif

/* Context: process.  Picks the NMI source by the nmi parameter. */
static void ctx_nmi_start(void)
{
	bool perf = sysfs_streq(nmi, "auto") || sysfs_streq(nmi, "perf");
	bool ipi = sysfs_streq(nmi, "auto") || sysfs_streq(nmi, "ipi");
	int err = -EINVAL;

	ctx_nmi_src = CTX_NMI_NONE;
	if (perf) {
		/* before the counters start: their handler reads it */
		WRITE_ONCE(ctx_nmi_src, CTX_NMI_PERF);
		err = ctx_perf_start();
		if (err) {
			pr_info("no perf cycles counter (%d)\n", err);
			ctx_perf_stop();
			WRITE_ONCE(ctx_nmi_src, CTX_NMI_NONE);
		}
	}
	if (ctx_nmi_src == CTX_NMI_NONE && ipi) {
		err = ctx_ipi_start();
		if (!err)
			WRITE_ONCE(ctx_nmi_src, CTX_NMI_IPI);
		else
			pr_info("no NMI IPIs (%d)\n", err);
	}
}

/* Context: process, after the H timers stopped. */
static void ctx_nmi_stop(void)
{
	if (ctx_nmi_src == CTX_NMI_PERF || ctx_nmi_src == CTX_NMI_PERF_IRQ)
		ctx_perf_stop();
	else if (ctx_nmi_src == CTX_NMI_IPI)
		ctx_ipi_stop();
}

/* ---- H: hard IRQ --------------------------------------------------------- */

/* Context: any; the H period from its parameter. */
static ktime_t ctx_h_period(void)
{
	unsigned int us = max_t(unsigned int, READ_ONCE(h_period_us),
				CTX_MIN_US);

	return ns_to_ktime((u64)us * NSEC_PER_USEC);
}

/* Context: hard IRQ (HRTIMER_MODE_HARD, also under PREEMPT_RT). */
static enum hrtimer_restart ctx_hardirq_fn(struct hrtimer *t)
{
	unsigned int cpu = t - ctx_hrtimers;
	unsigned int i, n = READ_ONCE(h_burst);

	ctx_check_cpu(cpu);
	for (i = 0; i < n; i++)
		ctx_write(CTX_H, cpu);
	ctx_nmi_kick(cpu);
	if (!READ_ONCE(ctx_running))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ctx_h_period());
	return HRTIMER_RESTART;
}

/* Context: hard IRQ (IPI) on the CPU whose timer it starts. */
static void ctx_hrtimer_arm(void *unused)
{
	hrtimer_start(&ctx_hrtimers[smp_processor_id()], ctx_h_period(),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* ---- F: ftrace callback ---------------------------------------------------- */

/* Context: any; the nesting level, for the ftrace_where counters. */
static unsigned int notrace ctx_level(void)
{
	if (in_nmi())
		return 3;
	if (in_hardirq())
		return 2;
	return in_serving_softirq() ? 1 : 0;
}

/*
 * Context: any the hooked function runs in, with RCU watching
 * (FTRACE_OPS_FL_RCU); ftrace keeps it from recursing in one context
 * (FTRACE_OPS_FL_RECURSION), ctx_f_nest across contexts of a CPU.
 */
static void notrace ctx_ftrace_fn(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op,
				  struct ftrace_regs *fregs)
{
	unsigned int cpu, every;

	preempt_disable_notrace();
	cpu = raw_smp_processor_id();
	every = max(READ_ONCE(f_every), 1U);
	if (!READ_ONCE(ctx_running) || cpu >= CTX_CPUS ||
	    this_cpu_inc_return(ctx_f_hits) % every)
		goto out;
	if (this_cpu_inc_return(ctx_f_nest) == 1) {
		ctx_f_where[cpu][ctx_level()]++;
		ctx_write(CTX_F, cpu);
	} else {
		atomic_long_inc(&ctx_f_nested);
	}
	this_cpu_dec(ctx_f_nest);
out:
	preempt_enable_notrace();
}

static struct ftrace_ops ctx_ftrace_ops = {
	.func	= ctx_ftrace_fn,
	.flags	= FTRACE_OPS_FL_RECURSION | FTRACE_OPS_FL_RCU,
};

/*
 * Context: process.  Nothing on the write path calls the default hook,
 * ktime_get() (swstm timestamps with the notrace
 * ktime_get_mono_fast_ns()); if another hook is, the guards above skip
 * the nested call.  Return: 1 hooked, 0 off, or -errno.
 */
static int ctx_ftrace_start(void)
{
	char func[128];
	int err;

	if (!ftrace_func || strscpy(func, ftrace_func, sizeof(func)) < 0)
		return -EINVAL;
	strim(func);
	if (!*func)
		return 0;
	err = ftrace_set_filter(&ctx_ftrace_ops, func, strlen(func), 1);
	if (!err)
		err = register_ftrace_function(&ctx_ftrace_ops);
	if (err) {
		pr_info("cannot hook %s (%d)\n", func, err);
		return err;
	}
	ctx_f_registered = true;
	return 1;
}

/* Context: process.  Returns once no callback runs any more. */
static void ctx_ftrace_stop(void)
{
	if (!ctx_f_registered)
		return;
	unregister_ftrace_function(&ctx_ftrace_ops);
	ctx_f_registered = false;
}

/* ---- start and stop --------------------------------------------------------- */

/* Context: process, ctx_mutex held.  Waits until every context stopped. */
static void ctx_stop(void)
{
	unsigned int cpu;

	WRITE_ONCE(ctx_running, false);
	for (cpu = 0; cpu < CTX_CPUS; cpu++) {
		hrtimer_cancel(&ctx_hrtimers[cpu]);
		timer_delete_sync(&ctx_timers[cpu]);
		if (ctx_threads[cpu]) {
			kthread_stop(ctx_threads[cpu]);
			ctx_threads[cpu] = NULL;
		}
	}
	ctx_ftrace_stop();
	ctx_nmi_stop();
	ctx_started = false;
}

/* Context: process, ctx_mutex held. */
static int ctx_start(void)
{
	struct task_struct *t;
	unsigned int cpu;

	ctx_cpu_bits = 0;
	for_each_online_cpu(cpu)
		if (cpu < CTX_CPUS)
			__set_bit(cpu, &ctx_cpu_bits);
	if (num_online_cpus() > CTX_CPUS)
		pr_info("only CPUs 0-%d write\n", CTX_CPUS - 1);

	ctx_started = true;
	WRITE_ONCE(ctx_running, true);
	ctx_nmi_start();
	ftrace_status = ctx_ftrace_start();
	for_each_set_bit(cpu, &ctx_cpu_bits, CTX_CPUS) {
		t = kthread_create_on_cpu(ctx_proc_fn, (void *)(unsigned long)cpu,
					  cpu, "stm_ctx_p/%u");
		if (IS_ERR(t)) {
			ctx_stop();
			return PTR_ERR(t);
		}
		ctx_threads[cpu] = t;
		wake_up_process(t);
	}
	for_each_set_bit(cpu, &ctx_cpu_bits, CTX_CPUS) {
		ctx_timers[cpu].expires = jiffies + 1;
		add_timer_on(&ctx_timers[cpu], cpu);
		smp_call_function_single(cpu, ctx_hrtimer_arm, NULL, 1);
	}
	return 0;
}

/* ---- parameters with callbacks ---------------------------------------------- */

/* Context: process (sysfs write or insmod); starts or stops the run. */
static int ctx_run_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err;

	err = kstrtobool(val, &on);
	if (err)
		return err;
	mutex_lock(&ctx_mutex);
	if (!ctx_ready)
		ctx_run_at_init = on;
	else if (on && !ctx_started)
		err = ctx_start();
	else if (!on && ctx_started)
		ctx_stop();
	mutex_unlock(&ctx_mutex);
	return err;
}

/* Context: process (sysfs read). */
static int ctx_run_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", READ_ONCE(ctx_running));
}

static const struct kernel_param_ops ctx_run_ops = {
	.set	= ctx_run_set,
	.get	= ctx_run_get,
};
module_param_cb(run, &ctx_run_ops, NULL, 0644);
MODULE_PARM_DESC(run, "1 starts every context, 0 stops them (and waits)");

/* Which counter a read-only parameter shows. */
struct ctx_count {
	enum ctx_kind	kind;
	bool		failed;
};

static struct ctx_count ctx_counts[CTX_NR][2] = {
	[CTX_P] = { { CTX_P, false }, { CTX_P, true } },
	[CTX_S] = { { CTX_S, false }, { CTX_S, true } },
	[CTX_H] = { { CTX_H, false }, { CTX_H, true } },
	[CTX_F] = { { CTX_F, false }, { CTX_F, true } },
	[CTX_N] = { { CTX_N, false }, { CTX_N, true } },
};

/* Context: process (sysfs read); sums the CPUs' counters. */
static int ctx_count_get(char *buf, const struct kernel_param *kp)
{
	const struct ctx_count *c = kp->arg;
	unsigned long sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < CTX_CPUS; cpu++) {
		const struct ctx_slot *s = &ctx_slots[c->kind][cpu];

		sum += c->failed ? READ_ONCE(s->failed) : READ_ONCE(s->ok);
	}
	return scnprintf(buf, PAGE_SIZE, "%lu\n", sum);
}

static const struct kernel_param_ops ctx_count_ops = {
	.get	= ctx_count_get,
};
module_param_cb(proc_ok, &ctx_count_ops, &ctx_counts[CTX_P][0], 0444);
MODULE_PARM_DESC(proc_ok, "P: messages sent");
module_param_cb(proc_failed, &ctx_count_ops, &ctx_counts[CTX_P][1], 0444);
MODULE_PARM_DESC(proc_failed, "P: failed writes");
module_param_cb(softirq_ok, &ctx_count_ops, &ctx_counts[CTX_S][0], 0444);
MODULE_PARM_DESC(softirq_ok, "S: messages sent");
module_param_cb(softirq_failed, &ctx_count_ops, &ctx_counts[CTX_S][1], 0444);
MODULE_PARM_DESC(softirq_failed, "S: failed writes");
module_param_cb(hardirq_ok, &ctx_count_ops, &ctx_counts[CTX_H][0], 0444);
MODULE_PARM_DESC(hardirq_ok, "H: messages sent");
module_param_cb(hardirq_failed, &ctx_count_ops, &ctx_counts[CTX_H][1], 0444);
MODULE_PARM_DESC(hardirq_failed, "H: failed writes");
module_param_cb(ftrace_ok, &ctx_count_ops, &ctx_counts[CTX_F][0], 0444);
MODULE_PARM_DESC(ftrace_ok, "F: messages sent");
module_param_cb(ftrace_failed, &ctx_count_ops, &ctx_counts[CTX_F][1], 0444);
MODULE_PARM_DESC(ftrace_failed, "F: failed writes");
module_param_cb(nmi_ok, &ctx_count_ops, &ctx_counts[CTX_N][0], 0444);
MODULE_PARM_DESC(nmi_ok, "N: messages sent");
module_param_cb(nmi_failed, &ctx_count_ops, &ctx_counts[CTX_N][1], 0444);
MODULE_PARM_DESC(nmi_failed, "N: failed writes");

/* Context: process (sysfs read). */
static int ctx_atomic_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%ld\n",
			 atomic_long_read((atomic_long_t *)kp->arg));
}

static const struct kernel_param_ops ctx_atomic_ops = {
	.get	= ctx_atomic_get,
};
module_param_cb(unexpected, &ctx_atomic_ops, &ctx_unexpected, 0444);
MODULE_PARM_DESC(unexpected, "short writes, errors but -ENODEV, timers off their CPU (must be 0)");
module_param_cb(ftrace_nested, &ctx_atomic_ops, &ctx_f_nested, 0444);
MODULE_PARM_DESC(ftrace_nested, "F: calls skipped, nested in the callback on their CPU");
module_param_cb(nmi_sent, &ctx_atomic_ops, &ctx_nmi_sent, 0444);
MODULE_PARM_DESC(nmi_sent, "N, ipi: NMIs sent");

/* Context: process (sysfs read). */
static int ctx_where_get(char *buf, const struct kernel_param *kp)
{
	unsigned long sum[4] = { 0 };
	unsigned int cpu, l;

	for (cpu = 0; cpu < CTX_CPUS; cpu++)
		for (l = 0; l < 4; l++)
			sum[l] += READ_ONCE(ctx_f_where[cpu][l]);
	return scnprintf(buf, PAGE_SIZE,
			 "task=%lu softirq=%lu hardirq=%lu nmi=%lu\n",
			 sum[0], sum[1], sum[2], sum[3]);
}

static const struct kernel_param_ops ctx_where_ops = {
	.get	= ctx_where_get,
};
module_param_cb(ftrace_where, &ctx_where_ops, NULL, 0444);
MODULE_PARM_DESC(ftrace_where, "F: writes by the context the hooked function ran in");

/* Context: process (sysfs read). */
static int ctx_hits_get(char *buf, const struct kernel_param *kp)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(ctx_f_hits, cpu));
	return scnprintf(buf, PAGE_SIZE, "%lu\n", sum);
}

static const struct kernel_param_ops ctx_hits_ops = {
	.get	= ctx_hits_get,
};
module_param_cb(ftrace_hits, &ctx_hits_ops, NULL, 0444);
MODULE_PARM_DESC(ftrace_hits, "F: calls of the hooked function seen while running");

/* Context: process (sysfs read). */
static int ctx_nmi_source_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 ctx_nmi_names[READ_ONCE(ctx_nmi_src)]);
}

static const struct kernel_param_ops ctx_nmi_source_ops = {
	.get	= ctx_nmi_source_get,
};
module_param_cb(nmi_source, &ctx_nmi_source_ops, NULL, 0444);
MODULE_PARM_DESC(nmi_source, "N: none, perf, perf-irq or ipi (of the last start)");

/* Context: process (sysfs read). */
static int ctx_nmi_active_get(char *buf, const struct kernel_param *kp)
{
	enum ctx_nmi_source src = READ_ONCE(ctx_nmi_src);

	return scnprintf(buf, PAGE_SIZE, "%c\n",
			 src == CTX_NMI_PERF || src == CTX_NMI_IPI ? 'Y' : 'N');
}

static const struct kernel_param_ops ctx_nmi_active_ops = {
	.get	= ctx_nmi_active_get,
};
module_param_cb(nmi_active, &ctx_nmi_active_ops, NULL, 0444);
MODULE_PARM_DESC(nmi_active, "N: an NMI source runs (see nmi_source); N for perf-irq");

/* ---- module ------------------------------------------------------------------- */

/* Context: process (module load). */
static int __init ctx_init(void)
{
	unsigned int cpu;
	int err;

	for (cpu = 0; cpu < CTX_CPUS; cpu++) {
		timer_setup(&ctx_timers[cpu], ctx_softirq_fn, TIMER_PINNED);
		stm_compat_hrtimer_setup(&ctx_hrtimers[cpu], ctx_hardirq_fn,
					 CLOCK_MONOTONIC,
					 HRTIMER_MODE_REL_PINNED_HARD);
	}
	err = stm_source_register_device(NULL, &ctx_source);
	if (err)
		return err;

	mutex_lock(&ctx_mutex);
	ctx_ready = true;
	if (ctx_run_at_init)
		err = ctx_start();
	mutex_unlock(&ctx_mutex);
	if (err)
		stm_source_unregister_device(&ctx_source);
	return err;
}
module_init(ctx_init);

/* Context: process (module unload); stops a run still going. */
static void __exit ctx_exit(void)
{
	mutex_lock(&ctx_mutex);
	ctx_ready = false;
	if (ctx_started)
		ctx_stop();
	mutex_unlock(&ctx_mutex);
	stm_source_unregister_device(&ctx_source);
	ftrace_free_filter(&ctx_ftrace_ops);
}
module_exit(ctx_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("Test-only stm_source writing from every context (out-of-tree STM suite)");
