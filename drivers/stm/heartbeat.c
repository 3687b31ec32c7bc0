// SPDX-License-Identifier: GPL-2.0
/*
 * stm_heartbeat: nr_devs stm_sources "heartbeat.N" (one channel each).
 * While linked, each sends the string "heartbeat" every interval_ms
 * milliseconds from an hrtimer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/stm.h>
#include <stm_compat.h>

#define STM_HEARTBEAT_MAX	32
#define STM_HEARTBEAT_MAX_MS	3600000U

static int nr_devs = 4;
module_param(nr_devs, int, 0400);
MODULE_PARM_DESC(nr_devs, "number of heartbeat sources (default 4, max 32)");

static unsigned int interval_ms = 10;

/* interval_ms: 1 ms .. 1 hour; read by the timers at each beat */
static int interval_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int err;

	err = kstrtouint(val, 0, &ms);
	if (err || !ms || ms > STM_HEARTBEAT_MAX_MS)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, ms);
	return 0;
}

static const struct kernel_param_ops interval_ms_ops = {
	.set	= interval_ms_set,
	.get	= param_get_uint,
};
module_param_cb(interval_ms, &interval_ms_ops, &interval_ms, 0600);
MODULE_PARM_DESC(interval_ms, "milliseconds between beats (default 10)");

static const char stm_heartbeat_msg[] = "heartbeat";

/**
 * struct stm_heartbeat - one heartbeat source
 * @data:	the stm_source "heartbeat.N"
 * @hrtimer:	beats while linked
 */
struct stm_heartbeat {
	struct stm_source_data	data;
	struct hrtimer		hrtimer;
};

static struct stm_heartbeat *stm_heartbeats;

static ktime_t stm_heartbeat_interval(void)
{
	return ms_to_ktime(READ_ONCE(interval_ms));
}

/*
 * One beat.  Context: hrtimer callback (hard IRQ; softirq on
 * PREEMPT_RT).
 */
static enum hrtimer_restart notrace stm_heartbeat_beat(struct hrtimer *t)
{
	struct stm_heartbeat *hb = container_of(t, struct stm_heartbeat,
						hrtimer);

	stm_source_write(&hb->data, 0, stm_heartbeat_msg,
			 sizeof(stm_heartbeat_msg) - 1);
	hrtimer_forward_now(t, stm_heartbeat_interval());
	return HRTIMER_RESTART;
}

/* Start beating.  Context: process. */
static int stm_heartbeat_link(struct stm_source_data *data)
{
	struct stm_heartbeat *hb = container_of(data, struct stm_heartbeat,
						data);

	hrtimer_start(&hb->hrtimer, stm_heartbeat_interval(),
		      HRTIMER_MODE_REL);
	return 0;
}

/* Stop; no beat runs after this returns.  Context: process. */
static void stm_heartbeat_unlink(struct stm_source_data *data)
{
	struct stm_heartbeat *hb = container_of(data, struct stm_heartbeat,
						data);

	hrtimer_cancel(&hb->hrtimer);
}

/* Unregister and free sources 0..@n-1.  Context: process. */
static void stm_heartbeat_destroy(int n)
{
	while (n--) {
		stm_source_unregister_device(&stm_heartbeats[n].data);
		hrtimer_cancel(&stm_heartbeats[n].hrtimer);
		kfree(stm_heartbeats[n].data.name);
	}
	kfree(stm_heartbeats);
	stm_heartbeats = NULL;
}

static int __init stm_heartbeat_init(void)
{
	int i, err;

	if (nr_devs < 0 || nr_devs > STM_HEARTBEAT_MAX) {
		pr_err("nr_devs=%d: must be 0..%d\n", nr_devs,
		       STM_HEARTBEAT_MAX);
		return -EINVAL;
	}

	stm_heartbeats = kcalloc(nr_devs, sizeof(*stm_heartbeats),
				 GFP_KERNEL);
	if (!stm_heartbeats && nr_devs)
		return -ENOMEM;

	for (i = 0; i < nr_devs; i++) {
		struct stm_heartbeat *hb = &stm_heartbeats[i];

		stm_compat_hrtimer_setup(&hb->hrtimer, stm_heartbeat_beat,
					 CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		hb->data.nr_chans = 1;
		hb->data.link = stm_heartbeat_link;
		hb->data.unlink = stm_heartbeat_unlink;
		hb->data.name = kasprintf(GFP_KERNEL, "heartbeat.%d", i);
		if (!hb->data.name) {
			err = -ENOMEM;
			goto fail;
		}

		err = stm_source_register_device(NULL, &hb->data);
		if (err) {
			kfree(hb->data.name);
			goto fail;
		}
	}
	return 0;

fail:
	stm_heartbeat_destroy(i);
	return err;
}
module_init(stm_heartbeat_init);

static void __exit stm_heartbeat_exit(void)
{
	stm_heartbeat_destroy(nr_devs);
}
module_exit(stm_heartbeat_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("stm_source: periodic heartbeat messages over STM (out-of-tree)");
