// SPDX-License-Identifier: GPL-2.0
/*
 * stm_test_device: a test-only STM device whose name is a parameter, so
 * the VM suite can register names dummy_stm cannot make (e.g. with a
 * colon, to check how policy directory names are split).  It discards
 * its data; 4 masters (0-3) of 16 channels.  With "fail_errno" set it
 * refuses every packet with that error instead, so a test can make a
 * linked source fail an exact number of writes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/stm.h>

static char *name = "stm_test:dev";
module_param(name, charp, 0400);
MODULE_PARM_DESC(name, "device name (default \"stm_test:dev\")");

static unsigned int fail_errno;
module_param(fail_errno, uint, 0600);
MODULE_PARM_DESC(fail_errno, "refuse every packet with -fail_errno (0: accept, the default)");

/* Context: any; discards the packet, or refuses it (fail_errno). */
static ssize_t notrace test_device_packet(struct stm_data *data,
					  unsigned int master,
					  unsigned int channel,
					  unsigned int packet,
					  unsigned int flags,
					  unsigned int size,
					  const unsigned char *payload)
{
	unsigned int err = READ_ONCE(fail_errno);

	if (err)
		return -(ssize_t)err;
	return size;
}

static struct stm_data test_device = {
	.sw_start	= 0,
	.sw_end		= 3,
	.sw_nchannels	= 16,
	.packet		= test_device_packet,
};

static int __init test_device_init(void)
{
	test_device.name = name;
	return stm_register_device(NULL, &test_device, THIS_MODULE);
}
module_init(test_device_init);

static void __exit test_device_exit(void)
{
	stm_unregister_device(&test_device);
}
module_exit(test_device_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("Test-only STM device with a chosen name (out-of-tree STM suite)");
