// SPDX-License-Identifier: GPL-2.0
/*
 * swstm: a software STM (System Trace Module) device.
 *
 * Each of nr_devs devices registers an STM device "swstm.N" with the STM
 * class; what the class writes to it comes out, encoded as a MIPI STPv2
 * stream, from the sink /dev/swstm.N-sink.  See Documentation/swstm.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <uapi/linux/stm.h>

#include "swstm.h"

#define SWSTM_MAX_DEVS		16
#define SWSTM_MAX_CHANNELS	65536
#define SWSTM_MIN_SINK		SZ_4K
#define SWSTM_MAX_SINK		SZ_256M
#define SWSTM_MAX_SYNC		SZ_1G

static unsigned int nr_devs = 1;
module_param(nr_devs, uint, 0444);
MODULE_PARM_DESC(nr_devs, "number of swstm devices, 1..16 (default 1)");

static unsigned int master_min;
module_param(master_min, uint, 0444);
MODULE_PARM_DESC(master_min, "first STP master (default 0)");

static unsigned int master_max = 15;
module_param(master_max, uint, 0444);
MODULE_PARM_DESC(master_max, "last STP master, up to 65535 (default 15)");

static unsigned int nr_channels = 256;
module_param(nr_channels, uint, 0444);
MODULE_PARM_DESC(nr_channels, "channels per master, 1..65536 (default 256)");

static unsigned int sink_size = SZ_1M;
module_param(sink_size, uint, 0444);
MODULE_PARM_DESC(sink_size,
		 "sink buffer bytes, 4KiB..256MiB, rounded up to a power of two (default 1MiB)");

unsigned int swstm_sync_interval = 4096;
module_param_named(sync_interval, swstm_sync_interval, uint, 0444);
MODULE_PARM_DESC(sync_interval,
		 "STP bytes between ASYNC/VERSION/FREQ, 0 = only at open (default 4096)");

static char format[8] = "stp";
module_param_string(format, format, sizeof(format), 0444);
MODULE_PARM_DESC(format,
		 "sink stream format of every device at load: stp (MIPI STPv2, default) or riscv (RISC-V trace encapsulation)");

static unsigned int srcid_bits = 16;
module_param(srcid_bits, uint, 0444);
MODULE_PARM_DESC(srcid_bits, "riscv format: srcID bits at load, 0..16 (default 16)");

static unsigned int ts_bytes = 8;
module_param(ts_bytes, uint, 0444);
MODULE_PARM_DESC(ts_bytes, "riscv format: timestamp bytes at load, 0..8 (default 8)");

static struct swstm_dev *swstm_devs[SWSTM_MAX_DEVS];

/* The SWSTM_FORMAT() word of the module parameters (checked at init). */
unsigned int swstm_default_format(void)
{
	unsigned int fmt = strcmp(format, "riscv") ? SWSTM_FMT_STP :
			   SWSTM_FMT_RISCV;

	return SWSTM_FORMAT(fmt, srcid_bits, ts_bytes);
}

/*
 * stm_data::packet.  Any context, NMI included: no locks, no allocation,
 * no sleeping.  Stores the packet raw; a full sink drops a packet (the
 * stream marks it) but still reports it consumed, as hardware would.
 */
static notrace ssize_t swstm_packet(struct stm_data *data, unsigned int master,
				    unsigned int channel, unsigned int packet,
				    unsigned int flags, unsigned int size,
				    const unsigned char *payload)
{
	struct swstm_dev *sw = container_of(data, struct swstm_dev, stm);
	unsigned int n;

	switch (packet) {
	case STP_PACKET_DATA:
		if (!size)
			return -EINVAL;
		/* the largest power of two <= min(size, 8) */
		n = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
		break;
	case STP_PACKET_FLAG:
		n = 0;
		break;
	case STP_PACKET_TRIG:
	case STP_PACKET_MERR:
	case STP_PACKET_GERR:
		n = min(size, 1U);
		break;
	default:
		return -EINVAL;
	}

	flags &= STP_PACKET_MARKED | STP_PACKET_TIMESTAMPED;

	/* keep claim-to-commit short: the reader waits on a claimed slot */
	preempt_disable_notrace();
	if (swstm_ring_write(&sw->ring, master, channel, packet, flags, n,
			     payload))
		swstm_sink_kick(sw);
	preempt_enable_notrace();
	return n;
}

/* Module init. */
static int swstm_dev_create(unsigned int id, size_t ring_bytes)
{
	struct swstm_dev *sw;
	int err;

	sw = kzalloc(sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return -ENOMEM;
	snprintf(sw->name, sizeof(sw->name), "swstm.%u", id);
	snprintf(sw->sink_name, sizeof(sw->sink_name), "swstm.%u-sink", id);
	sw->format = swstm_default_format();

	err = swstm_ring_init(&sw->ring, ring_bytes);
	if (err)
		goto err_free;
	err = swstm_sink_register(sw);
	if (err)
		goto err_ring;

	sw->stm.name = sw->name;
	sw->stm.sw_start = master_min;
	sw->stm.sw_end = master_max;
	sw->stm.sw_nchannels = nr_channels;
	sw->stm.sw_mmiosz = 0;
	sw->stm.packet = swstm_packet;
	err = stm_register_device(sw->misc.this_device, &sw->stm, THIS_MODULE);
	if (err)
		goto err_sink;

	swstm_devs[id] = sw;
	return 0;

err_sink:
	swstm_sink_unregister(sw);
err_ring:
	swstm_ring_free(&sw->ring);
err_free:
	kfree(sw);
	return err;
}

/* Module init (error path) and exit. */
static void swstm_dev_destroy(unsigned int id)
{
	struct swstm_dev *sw = swstm_devs[id];

	/* no packet() call is in flight once this returns */
	stm_unregister_device(&sw->stm);
	swstm_sink_unregister(sw);
	swstm_ring_free(&sw->ring);
	kfree(sw);
	swstm_devs[id] = NULL;
}

static int __init swstm_check_params(void)
{
	if (nr_devs < 1 || nr_devs > SWSTM_MAX_DEVS) {
		pr_err("nr_devs=%u: must be 1..%u\n", nr_devs, SWSTM_MAX_DEVS);
		return -EINVAL;
	}
	if (master_min > master_max || master_max > STP_MASTER_MAX) {
		pr_err("master_min=%u master_max=%u: need master_min <= master_max <= %u\n",
		       master_min, master_max, STP_MASTER_MAX);
		return -EINVAL;
	}
	if (nr_channels < 1 || nr_channels > SWSTM_MAX_CHANNELS) {
		pr_err("nr_channels=%u: must be 1..%u\n", nr_channels,
		       SWSTM_MAX_CHANNELS);
		return -EINVAL;
	}
	if (sink_size < SWSTM_MIN_SINK || sink_size > SWSTM_MAX_SINK) {
		pr_err("sink_size=%u: must be %u..%u bytes\n", sink_size,
		       SWSTM_MIN_SINK, SWSTM_MAX_SINK);
		return -EINVAL;
	}
	if (swstm_sync_interval > SWSTM_MAX_SYNC) {
		pr_err("sync_interval=%u: must be 0..%u bytes\n",
		       swstm_sync_interval, SWSTM_MAX_SYNC);
		return -EINVAL;
	}
	if (strcmp(format, "stp") && strcmp(format, "riscv")) {
		pr_err("format=%s: must be stp or riscv\n", format);
		return -EINVAL;
	}
	if (srcid_bits > SWSTM_RV_MAX_SRCID || ts_bytes > SWSTM_RV_MAX_TS) {
		pr_err("srcid_bits=%u ts_bytes=%u: must be 0..%u and 0..%u\n",
		       srcid_bits, ts_bytes, SWSTM_RV_MAX_SRCID,
		       SWSTM_RV_MAX_TS);
		return -EINVAL;
	}
	return 0;
}

static int __init swstm_init(void)
{
	unsigned int i;
	int err;

	err = swstm_check_params();
	if (err)
		return err;

	for (i = 0; i < nr_devs; i++) {
		err = swstm_dev_create(i, roundup_pow_of_two(sink_size));
		if (err) {
			pr_err("swstm.%u: cannot create device: %d\n", i, err);
			while (i--)
				swstm_dev_destroy(i);
			return err;
		}
	}
	return 0;
}

static void __exit swstm_exit(void)
{
	unsigned int i;

	for (i = nr_devs; i--; )
		swstm_dev_destroy(i);
}

module_init(swstm_init);
module_exit(swstm_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Software STM device: STP packets to an STPv2 sink");
