// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - mttcontrol: the command line, --help, and the dispatch to
 * status, setup/teardown, start/stop/view.  Exit status: 0 ok, 1 the
 * command failed, 2 usage error, 3 fatal (out of memory, a rollback that
 * could not undo everything).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mttcontrol.h"
#include "mttdecode/mttdecode.h"	/* MTTD_VERSION_STRING: the package's */

static const char usage[] =
"Usage: mttcontrol COMMAND [OPTIONS] [FILE]\n"
"Set up STM trace policies, sources and sinks from a configuration file,\n"
"and record trace sessions that mttdecode decodes later, anywhere.\n"
"\n"
"Commands (exactly one):\n"
"  -s, --status           show STM devices and sinks, protocol drivers,\n"
"                         policies and their nodes, sources and links, MTT\n"
"                         components and filters, and the running session\n"
"  -S, --setup [FILE]     apply FILE (default " MC_DEFAULT_CONF "): load\n"
"                         modules, create the policy and its nodes, set\n"
"                         protocol attributes, the sink mode, MTT filters,\n"
"                         link sources.  What is already as described is\n"
"                         left alone (a second run changes nothing).  All\n"
"                         or nothing: on any failure every change made is\n"
"                         undone.  FILE is read and checked in full before\n"
"                         anything is touched.\n"
"  -T, --teardown [FILE]  unlink FILE's sources from its device and remove\n"
"                         its policy with all the nodes in it\n"
"      --check [FILE]     only read and check FILE (no system access)\n"
"      --start            start a session: a collector process (detached,\n"
"                         pid in /run/mttcontrol/session) drains the\n"
"                         device's sink, and the configuration's serial\n"
"                         targets, into a session directory\n"
"      --stop             end the session: the collector drains what is\n"
"                         left; print the bytes, messages and losses, and\n"
"                         each serial target's\n"
"      --view             print the running session's messages as they\n"
"                         arrive (decoded by mttdecode) until it ends or\n"
"                         Ctrl-C\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Options:\n"
"  -n, --dry-run          --setup/--teardown: print the configfs and sysfs\n"
"                         operations (mkdir, echo ... >, rmdir, modprobe)\n"
"                         instead of doing them\n"
"  -J, --json             --status: one JSON object; --view: JSON lines\n"
"  -c, --config=FILE      the configuration file (as FILE above); for\n"
"                         --start: its device, rotate_size, serial\n"
"                         targets, and a copy in the session directory\n"
"  -o, --output=DIR       --start: the session directory (default\n"
"                         ./mtt-session-YYYYMMDD-HHMMSS); created, must\n"
"                         be empty\n"
"  -d, --device=NAME      --start: the STM device (default: the\n"
"                         configuration's, else the only one with a sink)\n"
"  -r, --rotate-size=N    --start: a new stream file every N bytes\n"
"                         (>= 4096; default: the configuration's, else one\n"
"                         file)\n"
"  -l, --live             --start: then print messages as with --view;\n"
"                         Ctrl-C stops the session\n"
"\n"
"A session directory holds the stream (stream-NNNN.stp), the policy as\n"
"applied (policy.txt), /proc/kallsyms, the tracefs event formats\n"
"(events/), the configuration, MTT collateral, clock and kernel facts\n"
"(mttsession), each serial target's capture (targets/NAME/) and, once\n"
"stopped, a summary: \"mttdecode DIR\" decodes it with no other option.\n"
"\n"
"Exit status: 0 success, 1 the command failed (the message names what,\n"
"with file:line for configuration errors), 2 usage error, 3 fatal error\n"
"(out of memory; a failed --setup whose undo did not complete).\n"
"See mttcontrol(8) for the configuration file.\n";

enum {
	CMD_NONE, CMD_STATUS, CMD_SETUP, CMD_TEARDOWN, CMD_CHECK, CMD_START,
	CMD_STOP, CMD_VIEW
};

enum { OPT_CHECK = 256, OPT_START, OPT_STOP, OPT_VIEW };

static const struct option longopts[] = {
	{ "status", no_argument, NULL, 's' },
	{ "setup", no_argument, NULL, 'S' },
	{ "teardown", no_argument, NULL, 'T' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "start", no_argument, NULL, OPT_START },
	{ "stop", no_argument, NULL, OPT_STOP },
	{ "view", no_argument, NULL, OPT_VIEW },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'J' },
	{ "config", required_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "device", required_argument, NULL, 'd' },
	{ "rotate-size", required_argument, NULL, 'r' },
	{ "live", no_argument, NULL, 'l' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int bad_usage(const char *fmt, const char *arg)
{
	fputs("mttcontrol: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'mttcontrol --help' for more information.\n", stderr);
	return MC_USAGE;
}

static int set_cmd(int *cmd, int c, const char *name)
{
	if (*cmd && *cmd != c)
		return bad_usage("%s: only one command at a time", name);
	*cmd = c;
	return 0;
}

static int report(struct mc_err *e)
{
	fprintf(stderr, "mttcontrol: %s\n", e->msg);
	return e->fatal ? MC_FATAL : MC_ERR;
}

int main(int argc, char **argv)
{
	struct mc_opts o = { 0 };
	struct mc_config cfg;
	struct mc_err e = { .msg = "", .fatal = 0 };
	const char *file;
	int cmd = CMD_NONE, c, ret, have_cfg = 0;
	char *end;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":sSTnJc:o:d:r:lhV", longopts,
				NULL)) != -1) {
		ret = 0;
		switch (c) {
		case 's': ret = set_cmd(&cmd, CMD_STATUS, "--status"); break;
		case 'S': ret = set_cmd(&cmd, CMD_SETUP, "--setup"); break;
		case 'T': ret = set_cmd(&cmd, CMD_TEARDOWN, "--teardown"); break;
		case OPT_CHECK: ret = set_cmd(&cmd, CMD_CHECK, "--check"); break;
		case OPT_START: ret = set_cmd(&cmd, CMD_START, "--start"); break;
		case OPT_STOP: ret = set_cmd(&cmd, CMD_STOP, "--stop"); break;
		case OPT_VIEW: ret = set_cmd(&cmd, CMD_VIEW, "--view"); break;
		case 'n': o.dry_run = 1; break;
		case 'J': o.json = 1; break;
		case 'c': o.conf = optarg; break;
		case 'o': o.outdir = optarg; break;
		case 'd': o.device = optarg; break;
		case 'l': o.live = 1; break;
		case 'r':
			o.rotate_size = strtoul(optarg, &end, 0);
			if (*end || optarg[0] == '-' || o.rotate_size < 4096)
				return bad_usage("--rotate-size '%s': a number of bytes, at least 4096",
						 optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return MC_OK;
		case 'V':
			printf("mttcontrol %s\n", MTTD_VERSION_STRING);
			return MC_OK;
		case ':':
			return bad_usage("%s: missing argument", argv[optind - 1]);
		default:
			return bad_usage("%s: unknown option", optopt ?
					 (char[]){ '-', (char)optopt, 0 } :
					 argv[optind - 1]);
		}
		if (ret)
			return ret;
	}
	if (!cmd)
		return bad_usage("%s", "no command: give --status, --setup, --teardown, --check, --start, --stop or --view");
	if (o.live && cmd != CMD_START)
		return bad_usage("%s", "--live: goes with --start only");
	if (o.dry_run && cmd != CMD_SETUP && cmd != CMD_TEARDOWN)
		return bad_usage("%s", "--dry-run: goes with --setup or --teardown only");
	if (optind < argc - 1)
		return bad_usage("%s: unexpected argument", argv[optind + 1]);
	if (optind == argc - 1) {
		if (cmd != CMD_SETUP && cmd != CMD_TEARDOWN &&
		    cmd != CMD_CHECK && cmd != CMD_START)
			return bad_usage("%s: unexpected argument", argv[optind]);
		if (o.conf)
			return bad_usage("%s: the file is given twice (and --config)", argv[optind]);
		o.conf = argv[optind];
	}
	file = o.conf ? o.conf : MC_DEFAULT_CONF;
	if (cmd == CMD_SETUP || cmd == CMD_TEARDOWN || cmd == CMD_CHECK ||
	    (cmd == CMD_START && (o.conf || !access(file, F_OK)))) {
		if (mc_config_load(&cfg, file, &e))
			return report(&e);
		have_cfg = 1;
		if ((cmd == CMD_SETUP || cmd == CMD_TEARDOWN) && !*cfg.device) {
			mc_fail(&e, "%s: no \"device\": nothing to set up (its serial targets are recorded by --start)",
				file);
			mc_config_free(&cfg);
			return report(&e);
		}
	}
	switch (cmd) {
	case CMD_STATUS: ret = mc_status(&o, &e); break;
	case CMD_SETUP: ret = mc_setup(&cfg, &o, &e); break;
	case CMD_TEARDOWN: ret = mc_teardown(&cfg, &o, &e); break;
	case CMD_CHECK:
		printf("%s: ok\n", file);
		ret = 0;
		break;
	case CMD_START:
		ret = mc_start(have_cfg ? &cfg : NULL, &o, &e);
		break;
	case CMD_STOP: ret = mc_stop(&o, &e); break;
	default: ret = mc_view(&o, &e); break;
	}
	if (have_cfg)
		mc_config_free(&cfg);
	if (ret)
		return report(&e);
	if (fflush(stdout)) {
		fprintf(stderr, "mttcontrol: write error\n");
		return MC_ERR;
	}
	return MC_OK;
}
