// SPDX-License-Identifier: GPL-2.0
/*
 * mtt_peer: test-only module with several MTT components at once, for
 * the VM suite.  At load it opens "peer0".."peer<comps-1>" and each
 * traces a u32 1..n (hint "peer"); at unload it closes them.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mtt.h>

#define PEER_MAX	16

static unsigned int comps = 4;
module_param(comps, uint, 0444);
MODULE_PARM_DESC(comps, "components to open, 1..16 (default 4)");

static unsigned int n = 10;
module_param(n, uint, 0444);
MODULE_PARM_DESC(n, "values each component traces at load (default 10)");

static mtt_comp_handle_t peer_h[PEER_MAX];

static int __init peer_init(void)
{
	char name[16];
	unsigned int i, v;

	if (!comps || comps > PEER_MAX)
		return -EINVAL;
	for (i = 0; i < comps; i++) {
		snprintf(name, sizeof(name), "peer%u", i);
		if (mtt_open(MTT_COMP_ID_ANY, name, &peer_h[i]) !=
		    MTT_ERR_NONE) {
			while (i--)
				mtt_close(peer_h[i]);
			return -EINVAL;
		}
	}
	for (v = 1; v <= n; v++)
		for (i = 0; i < comps; i++)
			mtt_trace(peer_h[i], MTT_LEVEL_INFO,
				  MTT_TRACEITEM_UINT32, &v, "peer");
	return 0;
}
module_init(peer_init);

static void __exit peer_exit(void)
{
	unsigned int i;

	for (i = 0; i < comps; i++)
		mtt_close(peer_h[i]);
}
module_exit(peer_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("MTT components from another module (test-only)");
