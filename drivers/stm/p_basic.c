// SPDX-License-Identifier: GPL-2.0
/*
 * p_basic: the default STM protocol.  A message goes out as-is in DATA
 * packets of 8/4/2/1 bytes: the first packet timestamped, the last one
 * marked, so a decoder sees where each message starts and ends.
 */
#include <linux/module.h>

#include "stm.h"

/* Context: any, NMI included; never sleeps. */
static ssize_t notrace basic_write(struct stm_data *data,
				   struct stm_output *output,
				   unsigned int chan, const char *buf,
				   size_t count, struct stm_source_data *source)
{
	return stm_data_write_marked(data, output->master,
				     output->channel + chan, true, buf, count);
}

static const struct stm_protocol_driver basic_pdrv = {
	.owner	= THIS_MODULE,
	.name	= "p_basic",
	.write	= basic_write,
};

static int __init basic_stm_init(void)
{
	return stm_register_protocol(&basic_pdrv);
}
module_init(basic_stm_init);

static void __exit basic_stm_exit(void)
{
	stm_unregister_protocol(&basic_pdrv);
}
module_exit(basic_stm_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("Basic STM framing protocol driver (out-of-tree)");
