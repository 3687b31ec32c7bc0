// SPDX-License-Identifier: GPL-2.0
/*
 * stm_p_unended: a test-only framing protocol, "p_unended", for the VM
 * suite (tests/guest/t-47-swstm-staging.sh).  A message is sent as DATA
 * packets, the first one timestamped, none marked: the message never
 * ends, as if its writer gave up half-way.  On swstm such packets stay
 * in the writing CPU's staging buffer until something else stores them
 * (the next timestamped packet there, a flush request of the sink's
 * reader, the CPU going offline).  Our class only (it needs the class's
 * internal protocol API, drivers/stm/stm.h).
 */
#include <linux/module.h>

#include "stm.h"

/* Context: any, NMI included; never sleeps. */
static ssize_t notrace unended_write(struct stm_data *data,
				     struct stm_output *output,
				     unsigned int chan, const char *buf,
				     size_t count,
				     struct stm_source_data *source)
{
	return stm_data_write(data, output->master, output->channel + chan,
			      true, buf, count);
}

static const struct stm_protocol_driver unended_pdrv = {
	.owner	= THIS_MODULE,
	.name	= "p_unended",
	.write	= unended_write,
};

static int __init unended_init(void)
{
	return stm_register_protocol(&unended_pdrv);
}
module_init(unended_init);

static void __exit unended_exit(void)
{
	stm_unregister_protocol(&unended_pdrv);
}
module_exit(unended_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("STM protocol that never ends a message (test-only)");
