// SPDX-License-Identifier: GPL-2.0
/*
 * stm_test_source: a test-only stm_source for the VM suite.  It registers
 * the source "test_source" (nr_chans channels), sends the string written
 * to its "msg" parameter on channel "chan" from process context (result
 * in "last_ret"), and while linked can send "tick N" from an hrtimer
 * (hard-IRQ context) every period_us microseconds.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/stm.h>
#include <stm_compat.h>

static unsigned int nr_chans = 1;
module_param(nr_chans, uint, 0400);
MODULE_PARM_DESC(nr_chans, "channels the source asks for (default 1)");

static unsigned int chan;
module_param(chan, uint, 0600);
MODULE_PARM_DESC(chan, "channel offset used by msg writes");

static int last_ret;
module_param(last_ret, int, 0400);
MODULE_PARM_DESC(last_ret, "return value of the last msg write");

static unsigned int period_us;
module_param(period_us, uint, 0400);
MODULE_PARM_DESC(period_us, "hrtimer tick period while linked, 0 = off");

static unsigned long ticks;
module_param(ticks, ulong, 0400);
MODULE_PARM_DESC(ticks, "tick messages sent successfully");

static unsigned long links;
module_param(links, ulong, 0400);
MODULE_PARM_DESC(links, "link callbacks seen");

static struct hrtimer tick_timer;
static unsigned long tick_seq;

static struct stm_source_data test_source = {
	.name		= "test_source",
};

/* Context: hard IRQ. */
static enum hrtimer_restart test_source_tick(struct hrtimer *t)
{
	char msg[32];
	int len;

	len = scnprintf(msg, sizeof(msg), "tick %lu", tick_seq++);
	if (stm_source_write(&test_source, 0, msg, len) == len)
		ticks++;
	hrtimer_forward_now(t, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int test_source_link(struct stm_source_data *data)
{
	links++;
	if (period_us)
		hrtimer_start(&tick_timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL);
	return 0;
}

static void test_source_unlink(struct stm_source_data *data)
{
	hrtimer_cancel(&tick_timer);
}

static int msg_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strlen(val);

	if (len && val[len - 1] == '\n')
		len--;
	last_ret = stm_source_write(&test_source, READ_ONCE(chan), val, len);
	return 0;
}

static const struct kernel_param_ops msg_ops = {
	.set	= msg_set,
};
module_param_cb(msg, &msg_ops, NULL, 0200);
MODULE_PARM_DESC(msg, "write a message through the source");

static int __init test_source_init(void)
{
	stm_compat_hrtimer_setup(&tick_timer, test_source_tick, CLOCK_MONOTONIC,
				 HRTIMER_MODE_REL);
	test_source.nr_chans = nr_chans;
	test_source.link = test_source_link;
	test_source.unlink = test_source_unlink;
	return stm_source_register_device(NULL, &test_source);
}
module_init(test_source_init);

static void __exit test_source_exit(void)
{
	stm_source_unregister_device(&test_source);
	hrtimer_cancel(&tick_timer);
}
module_exit(test_source_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("Test-only stm_source (out-of-tree STM suite)");
