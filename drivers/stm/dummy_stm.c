// SPDX-License-Identifier: GPL-2.0
/*
 * dummy_stm: STM devices that throw their data away, with upstream's
 * parameters (nr_dummies, fail_mode, master_min, master_max,
 * nr_channels) plus two of ours for testing the class: mmiosz (give the
 * devices channel MMIO so mmap and width > 1 work) and has_options
 * (implement set_options).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stm.h>
#include <uapi/linux/stm.h>

#define DUMMY_STM_MAX		32
#define DUMMY_STM_MMIO_MAX	SZ_1M

static int nr_dummies = 4;
module_param(nr_dummies, int, 0400);
MODULE_PARM_DESC(nr_dummies, "number of devices dummy_stm.0.. (0-32, default 4)");

static unsigned int fail_mode;
module_param(fail_mode, uint, 0600);
MODULE_PARM_DESC(fail_mode, "link() fails with -EINVAL when (channel & fail_mode)");

static unsigned int master_min;
module_param(master_min, uint, 0400);
MODULE_PARM_DESC(master_min, "first master (default 0)");

static unsigned int master_max = STP_MASTER_MAX;
module_param(master_max, uint, 0400);
MODULE_PARM_DESC(master_max, "last master (default 65535)");

static unsigned int nr_channels = STP_CHANNEL_MAX;
module_param(nr_channels, uint, 0400);
MODULE_PARM_DESC(nr_channels, "channels per master (default 65535)");

static unsigned int mmiosz;
module_param(mmiosz, uint, 0400);
MODULE_PARM_DESC(mmiosz, "bytes of MMIO per channel, 0 for none (test aid; needs a small master/channel space)");

static bool has_options;
module_param(has_options, bool, 0400);
MODULE_PARM_DESC(has_options, "implement set_options: accept options below 2^32, -EINVAL otherwise");

struct dummy_stm {
	struct stm_data	data;
	char		name[16];
	void		*mmio;
	size_t		mmio_size;
};

static struct dummy_stm *dummies;

/* Context: any; discards the packet. */
static ssize_t notrace dummy_stm_packet(struct stm_data *data,
					unsigned int master,
					unsigned int channel,
					unsigned int packet,
					unsigned int flags,
					unsigned int size,
					const unsigned char *payload)
{
	return size;
}

static int dummy_stm_link(struct stm_data *data, unsigned int master,
			  unsigned int channel)
{
	if (READ_ONCE(fail_mode) && (channel & READ_ONCE(fail_mode)))
		return -EINVAL;
	return 0;
}

static phys_addr_t dummy_stm_mmio_addr(struct stm_data *data,
				       unsigned int master,
				       unsigned int channel,
				       unsigned int nr_chans)
{
	struct dummy_stm *d = container_of(data, struct dummy_stm, data);
	size_t off = ((size_t)(master - master_min) * nr_channels + channel) *
		     mmiosz;

	if (off + (size_t)nr_chans * mmiosz > d->mmio_size)
		return 0;
	return virt_to_phys(d->mmio + off);
}

static long dummy_stm_set_options(struct stm_data *data, unsigned int master,
				  unsigned int channel, unsigned int nr_chans,
				  unsigned long options)
{
	return upper_32_bits((u64)options) ? -EINVAL : 0;
}

static int dummy_stm_check_params(void)
{
	if (nr_dummies < 0 || nr_dummies > DUMMY_STM_MAX)
		return -EINVAL;
	if (master_min > master_max || master_max > STP_MASTER_MAX)
		return -EINVAL;
	if (!nr_channels || nr_channels > STP_CHANNEL_MAX + 1)
		return -EINVAL;
	if (mmiosz && (mmiosz > PAGE_SIZE ||
		       (u64)(master_max - master_min + 1) * nr_channels *
		       mmiosz > DUMMY_STM_MMIO_MAX))
		return -EINVAL;
	return 0;
}

static void dummy_stm_free(struct dummy_stm *d)
{
	if (d->mmio)
		free_pages_exact(d->mmio, d->mmio_size);
}

static int __init dummy_stm_init(void)
{
	unsigned int i;
	int err;

	err = dummy_stm_check_params();
	if (err) {
		pr_err("invalid parameters (nr_dummies 0-%d, master_min <= master_max <= %d, nr_channels 1-%d, mmiosz*masters*channels <= %u)\n",
		       DUMMY_STM_MAX, STP_MASTER_MAX, STP_CHANNEL_MAX + 1,
		       (unsigned int)DUMMY_STM_MMIO_MAX);
		return err;
	}

	/* nr_dummies=0 loads with no devices, as upstream's does. */
	if (!nr_dummies)
		return 0;

	dummies = kcalloc(nr_dummies, sizeof(*dummies), GFP_KERNEL);
	if (!dummies)
		return -ENOMEM;

	for (i = 0; i < (unsigned int)nr_dummies; i++) {
		struct dummy_stm *d = &dummies[i];

		snprintf(d->name, sizeof(d->name), "dummy_stm.%u", i);
		d->data.name = d->name;
		d->data.sw_start = master_min;
		d->data.sw_end = master_max;
		d->data.sw_nchannels = nr_channels;
		d->data.packet = dummy_stm_packet;
		d->data.link = dummy_stm_link;
		if (has_options)
			d->data.set_options = dummy_stm_set_options;
		if (mmiosz) {
			d->mmio_size = PAGE_ALIGN((size_t)(master_max -
					master_min + 1) * nr_channels * mmiosz);
			d->mmio = alloc_pages_exact(d->mmio_size,
						    GFP_KERNEL | __GFP_ZERO);
			if (!d->mmio) {
				err = -ENOMEM;
				goto err_unregister;
			}
			d->data.sw_mmiosz = mmiosz;
			d->data.mmio_addr = dummy_stm_mmio_addr;
		}

		err = stm_register_device(NULL, &d->data, THIS_MODULE);
		if (err) {
			dummy_stm_free(d);
			goto err_unregister;
		}
	}
	return 0;

err_unregister:
	while (i--) {
		stm_unregister_device(&dummies[i].data);
		dummy_stm_free(&dummies[i]);
	}
	kfree(dummies);
	return err;
}
module_init(dummy_stm_init);

static void __exit dummy_stm_exit(void)
{
	unsigned int i;

	for (i = 0; i < (unsigned int)nr_dummies; i++) {
		stm_unregister_device(&dummies[i].data);
		dummy_stm_free(&dummies[i]);
	}
	kfree(dummies);
}
module_exit(dummy_stm_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("STM devices that discard their data, for testing (out-of-tree)");
