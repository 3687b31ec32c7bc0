// SPDX-License-Identifier: GPL-2.0
/*
 * mtt_sample: an MTT component written the way the MTT README shows.
 * A timer traces a counter, a named signal, a string, a vector and a
 * printf-style line every interval_ms, count times (0: until unloaded).
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>

#define MTTDEV_NAME "mtt_sample"
#include <linux/mtt.h>

static unsigned int interval_ms = 100;
module_param(interval_ms, uint, 0444);
MODULE_PARM_DESC(interval_ms, "period of the timer in ms (default 100)");

static unsigned int count;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "periods to trace, 0 for no limit (default 0)");

static mtt_comp_handle_t mtt_handle;
static struct timer_list sample_timer;
static unsigned int sample_ticks;

/* Context: softirq (timer). */
static void sample_tick(struct timer_list *t)
{
	static const char name[] = "mtt_sample";
	u16 vec[4];
	u32 signal;
	int i;

	sample_ticks++;
	signal = sample_ticks * 10;
	for (i = 0; i < ARRAY_SIZE(vec); i++)
		vec[i] = sample_ticks + i;

	mtt_trace(mtt_handle, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32,
		  &sample_ticks, "NULL");
	mtt_trace(mtt_handle, MTT_LEVEL_INFO, MTT_TRACEITEM_UINT32, &signal,
		  "signal0");
	mtt_trace(mtt_handle, MTT_LEVEL_DEBUG,
		  MTT_TRACEITEM_STRING(sizeof(name) - 1), name, "name");
	mtt_trace(mtt_handle, MTT_LEVEL_DEBUG,
		  MTT_TRACEVECTOR_UINT16(ARRAY_SIZE(vec)), vec, "vec");
	mtt_print(mtt_handle, MTT_LEVEL_API_RETURN, "tick %u of %u",
		  sample_ticks, count);

	if (!count || sample_ticks < count)
		mod_timer(&sample_timer,
			  jiffies + msecs_to_jiffies(interval_ms));
}

static int __init sample_init(void)
{
	mtt_return_t ret;

	ret = mtt_open(MTT_COMPONENTID_ANY, MTTDEV_NAME, &mtt_handle);
	if (ret != MTT_ERR_NONE)
		return -EINVAL;
	mtt_print(mtt_handle, MTT_LEVEL_API_ENTRY, "fake_alsa_init");
	timer_setup(&sample_timer, sample_tick, 0);
	mod_timer(&sample_timer, jiffies + msecs_to_jiffies(interval_ms));
	return 0;
}
module_init(sample_init);

static void __exit sample_exit(void)
{
	del_timer_sync(&sample_timer);
	mtt_print(mtt_handle, MTT_LEVEL_API_RETURN, "fake_alsa_exit");
	mtt_close(mtt_handle);
}
module_exit(sample_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("MTT sample component: values, strings, vectors, prints");
