// SPDX-License-Identifier: GPL-2.0
/*
 * stm_console: the kernel log over an STM device.  The stm_source
 * "console" (one channel) registers a console while it is linked: the
 * console first replays the log buffer (CON_PRINTBUFFER), then receives
 * every printk record, each sent as one message.
 */
#include <linux/console.h>
#include <linux/module.h>
#include <linux/stm.h>
#include <linux/string.h>

static int stm_console_link(struct stm_source_data *data);
static void stm_console_unlink(struct stm_source_data *data);

/**
 * struct stm_console - the source and its console
 * @data:	the stm_source "console"
 * @console:	registered while linked
 */
struct stm_console {
	struct stm_source_data	data;
	struct console		console;
};

static struct stm_console stm_console = {
	.data	= {
		.name		= "console",
		.nr_chans	= 1,
		.link		= stm_console_link,
		.unlink		= stm_console_unlink,
	},
};

/*
 * Console write callback: one log record.  Context: any (console_lock
 * held, often with interrupts off; NMI on some panic paths): only
 * stm_source_write() here.
 */
static void notrace stm_console_write(struct console *con, const char *buf,
				      unsigned int len)
{
	struct stm_console *sc = container_of(con, struct stm_console,
					      console);

	stm_source_write(&sc->data, 0, buf, len);
}

/* Register the console; it replays the log first.  Context: process. */
static int stm_console_link(struct stm_source_data *data)
{
	struct stm_console *sc = container_of(data, struct stm_console, data);
	struct console *con = &sc->console;

	/* register_console() changes fields: start afresh on every link */
	memset(con, 0, sizeof(*con));
	strscpy(con->name, "stm_console", sizeof(con->name));
	con->write = stm_console_write;
	con->flags = CON_ENABLED | CON_PRINTBUFFER;
	register_console(con);
	return 0;
}

/*
 * Unregister the console; no write callback runs after it returns.
 * Context: process.
 */
static void stm_console_unlink(struct stm_source_data *data)
{
	struct stm_console *sc = container_of(data, struct stm_console, data);

	unregister_console(&sc->console);
}

static int __init stm_console_init(void)
{
	return stm_source_register_device(NULL, &stm_console.data);
}
module_init(stm_console_init);

static void __exit stm_console_exit(void)
{
	stm_source_unregister_device(&stm_console.data);
}
module_exit(stm_console_exit);

MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("stm_source: kernel log (console) over STM (out-of-tree)");
