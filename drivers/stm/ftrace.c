// SPDX-License-Identifier: GPL-2.0
/*
 * stm_ftrace: ftrace records over an STM device.  While the stm_source
 * "ftrace" is linked, a trace export receives every function, event and
 * trace_marker record the global trace buffer commits and sends its raw
 * bytes (struct trace_entry and the event's fields, as described by the
 * tracefs format files) on the channel of the CPU that recorded it.
 */
#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/stm.h>
#include <linux/trace.h>

#define STM_FTRACE_EXPORTS \
	(TRACE_EXPORT_FUNCTION | TRACE_EXPORT_EVENT | TRACE_EXPORT_MARKER)

static int stm_ftrace_link(struct stm_source_data *data);
static void stm_ftrace_unlink(struct stm_source_data *data);

/**
 * struct stm_ftrace - the source and its trace export
 * @data:	the stm_source "ftrace", one channel per CPU id up to the
 *		highest possible one (nr_cpu_ids, rounded up to a power of
 *		two): a record goes out on its CPU's channel
 * @export:	registered while linked
 */
struct stm_ftrace {
	struct stm_source_data	data;
	struct trace_export	export;
};

static struct stm_ftrace stm_ftrace = {
	.data	= {
		.name	= "ftrace",
		.link	= stm_ftrace_link,
		.unlink	= stm_ftrace_unlink,
	},
};

/*
 * Trace export callback: one record.  Context: any, NMI included, with
 * preemption disabled (the tracer's).
 */
static void notrace stm_ftrace_write(struct trace_export *export,
				     const void *buf, unsigned int len)
{
	struct stm_ftrace *sf = container_of(export, struct stm_ftrace,
					     export);

	stm_source_write(&sf->data, smp_processor_id(), buf, len);
}

/* Context: process. */
static int stm_ftrace_link(struct stm_source_data *data)
{
	struct stm_ftrace *sf = container_of(data, struct stm_ftrace, data);

	sf->export.write = stm_ftrace_write;
	sf->export.flags = STM_FTRACE_EXPORTS;
	return register_ftrace_export(&sf->export);
}

/*
 * Context: process.  The class waits for writers in flight (RCU) after
 * this returns and before the channels are freed.
 */
static void stm_ftrace_unlink(struct stm_source_data *data)
{
	struct stm_ftrace *sf = container_of(data, struct stm_ftrace, data);

	unregister_ftrace_export(&sf->export);
}

static int __init stm_ftrace_init(void)
{
	/*
	 * Indexed by smp_processor_id(): with a sparse possible mask the
	 * count of possible CPUs would leave the highest ones out.
	 */
	stm_ftrace.data.nr_chans = roundup_pow_of_two(nr_cpu_ids);
	return stm_source_register_device(NULL, &stm_ftrace.data);
}
module_init(stm_ftrace_init);

static void __exit stm_ftrace_exit(void)
{
	stm_source_unregister_device(&stm_ftrace.data);
}
module_exit(stm_ftrace_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("stm_source: ftrace records over STM (out-of-tree)");
