/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what the parts of the mttdecode command share: options, the
 * decoders and resources, the output, and the printer interface (text,
 * JSON lines, CSV, Chrome trace JSON).
 */
#ifndef MTTD_CLI_H
#define MTTD_CLI_H

#include <stdint.h>

#include "mttdecode/mttdecode.h"
#include "out.h"

enum { IN_STP, IN_SYST, IN_SYSTTEXT };
enum { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_CHROME };

#define MAX_COLLATERAL 64
#define FTRACE_BUF 8192	/* one ftrace record rendered */

struct opts {
	int packets;		/* print packets */
	int nulls;		/* ... NULL packets too */
	int messages;		/* print messages */
	int format;		/* FMT_* */
	int no_output;
	int stats;
	int syst;		/* decode message payloads as SyS-T */
	int input;		/* IN_* */
	unsigned long max_len;
	unsigned long max_open;
	const char *file;	/* NULL or "-": stdin */
	const char *policy;
	const char *kallsyms;
	const char *tracefs;
	const char *collateral[MAX_COLLATERAL];
	int ncollateral;
};

/* text printer state: what was last announced */
struct text_state {
	int have_version;
	unsigned int version;
	int have_freq;
	uint64_t freq;
};

/* Chrome trace printer state */
#define CHROME_TRACKS 4096
struct chrome_track {
	uint8_t key[16];
	uint32_t tid;
	uint8_t used;
};
struct chrome_state {
	int events;		/* events written (for the commas) */
	uint64_t last_ns;	/* time of the last event */
	uint32_t next_tid;
	uint8_t seen_pid[65536 / 8];	/* process_name written */
	struct chrome_track track[CHROME_TRACKS];
};

/* A SyS-T message as the printers see it */
struct sview {
	const struct mttd_syst_msg *m;
	const char *source;	/* policy node, or NULL */
	const char *text;	/* m->text, or its ftrace rendering */
	size_t text_len;
	char type[32];
	char loc[128];		/* "" if none */
	char guid[MTTD_GUID_STR];	/* the message's GUID, or "" */
};

struct app {
	struct opts o;
	struct mttd_stp *stp;
	struct mttd_msgdec *msg;
	struct mttd_syst *syst;
	struct mttd_syst_stream *stream;
	struct mttd_syst_text *text;
	struct mttd_coll *coll;
	struct mttd_policy *policy;
	struct mttd_ftrace *ftrace;
	const struct printer *pr;
	uint64_t stp_hz;	/* from FREQ packets; 1 GHz until one */
	uint64_t syst_hz;	/* from the last CLOCK message, or 0 */
	/* policy lookup cache */
	uint32_t src_key;
	const char *src_name;
	char *fbuf;		/* ftrace rendering */
	struct text_state ts;
	struct chrome_state *chrome;
	struct out out;
};

struct printer {
	void (*begin)(struct app *a);
	void (*end)(struct app *a);
	void (*packet)(struct app *a, const struct mttd_stp_event *e);
	void (*desync)(struct app *a, const struct mttd_stp_event *e);
	void (*msg)(struct app *a, const struct mttd_msg *m);
	void (*event)(struct app *a, const struct mttd_msg_event *e);
	void (*syst)(struct app *a, const struct sview *v);
	void (*syst_event)(struct app *a, const struct mttd_syst_event *e);
};

extern const struct printer text_printer;
extern const struct printer json_printer;
extern const struct printer csv_printer;
extern const struct printer chrome_printer;

/* options.c: 0 ok, 1 usage error, 2 --help/--version done */
int parse_options(struct opts *o, int argc, char **argv);
/* setup.c: decoders, resources and sinks; 0, or 1 after printing why */
int setup(struct app *a);
void teardown(struct app *a);
/* input.c: decode fd to its end; 0, or 1 on a read error */
int decode_fd(struct app *a, int fd, const char *name);
/* sview.c: the SyS-T message callback (policy names, ftrace) */
void on_syst(void *ctx, const struct mttd_syst_msg *m);
void on_syst_event(void *ctx, const struct mttd_syst_event *e);
/* stats.c */
void print_stats(const struct app *a);

/* packets printed with a value: all but M8/M16/C8/C16 */
static inline int packet_has_value(const struct mttd_stp_event *e)
{
	return e->nibbles && e->op != MTTD_OP_M8 && e->op != MTTD_OP_M16 &&
	       e->op != MTTD_OP_C8 && e->op != MTTD_OP_C16;
}

#endif
