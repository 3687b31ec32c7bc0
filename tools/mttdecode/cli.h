/*
 * cli.h - what the parts of the mttdecode command share: options, the
 * output, and the printer interface (text or JSON lines).
 */
#ifndef MTTD_CLI_H
#define MTTD_CLI_H

#include <stdint.h>

#include "mttdecode/mttdecode.h"
#include "out.h"

struct opts {
	int packets;		/* print packets */
	int nulls;		/* ... NULL packets too */
	int messages;		/* print messages */
	int json;		/* JSON lines instead of text */
	int no_output;
	int stats;
	unsigned long max_len;
	unsigned long max_open;
	const char *file;	/* NULL or "-": stdin */
};

/* text printer state: what was last announced */
struct text_state {
	int have_version;
	unsigned int version;
	int have_freq;
	uint64_t freq;
};

struct app {
	struct opts o;
	struct mttd_stp *stp;
	struct mttd_msgdec *msg;
	const struct printer *pr;
	struct text_state ts;
	struct out out;
};

struct printer {
	void (*packet)(struct app *a, const struct mttd_stp_event *e);
	void (*desync)(struct app *a, const struct mttd_stp_event *e);
	void (*msg)(struct app *a, const struct mttd_msg *m);
	void (*event)(struct app *a, const struct mttd_msg_event *e);
};

extern const struct printer text_printer;
extern const struct printer json_printer;

/* options.c: 0 ok, 1 usage error, 2 --help/--version done */
int parse_options(struct opts *o, int argc, char **argv);
/* stats.c */
void print_stats(const struct app *a);

/* packets printed with a value: all but M8/M16/C8/C16 */
static inline int packet_has_value(const struct mttd_stp_event *e)
{
	return e->nibbles && e->op != MTTD_OP_M8 && e->op != MTTD_OP_M16 &&
	       e->op != MTTD_OP_C8 && e->op != MTTD_OP_C16;
}

#endif
