// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_export_pin: a test-only ftrace export that discards what it gets.
 * Loaded, it keeps the kernel's ftrace export branches (function, event,
 * marker) switched on, so that linking and unlinking an ftrace STM source
 * while loaded only adds and removes list entries and never patches
 * kernel text.  t-43 loads it on every lane: on our class the links flip
 * the same branches as upstream's; on Debian's 6.12 that patching, done
 * while traced functions run, Oopsed under multi-threaded QEMU TCG
 * (Documentation/kernels.rst).  "records" counts what it was given.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/trace.h>

static atomic_long_t pin_records = ATOMIC_LONG_INIT(0);

static int records_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&pin_records));
}

static const struct kernel_param_ops records_ops = {
	.get = records_get,
};
module_param_cb(records, &records_ops, NULL, 0400);
MODULE_PARM_DESC(records, "records the export was given");

/*
 * Context: any (called by the tracer, NMI included); must not be traced.
 */
static notrace void pin_write(struct trace_export *export, const void *entry,
			      unsigned int size)
{
	atomic_long_inc(&pin_records);
}

static struct trace_export pin_export = {
	.write = pin_write,
	.flags = TRACE_EXPORT_FUNCTION | TRACE_EXPORT_EVENT |
		 TRACE_EXPORT_MARKER,
};

static int __init pin_init(void)
{
	return register_ftrace_export(&pin_export);
}

static void __exit pin_exit(void)
{
	unregister_ftrace_export(&pin_export);
}

module_init(pin_init);
module_exit(pin_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test-only ftrace export keeping the export branches on");
