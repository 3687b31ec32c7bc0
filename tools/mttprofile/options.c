// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - mttprofile's command line, --help and --version.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mttdecode/mttdecode.h"	/* MTTD_VERSION_STRING: the package's */
#include "mttprofile.h"

static const char usage[] =
"Usage: mttprofile [OPTIONS] DEVICE\n"
"       mttprofile --report [--elf=FILE] [-o DIR] SESSION-DIR|CAPTURE-FILE\n"
"Profile a program or firmware that speaks the MiniProfiler protocol on a\n"
"serial line (a UART, a USB serial adapter, a pty): ask for its metadata,\n"
"start profiling, stream the function records into a session directory,\n"
"stop, then write the analysis (statistics, call tree, flame graph).\n"
"It speaks version 1 of the MiniProfiler protocol.\n"
"\n"
"Options:\n"
"  -b, --baud=RATE          line speed (default 115200; 9600..4000000, a\n"
"                           rate termios knows); ignored by a pty\n"
"  -o, --output=DIR         session directory (default\n"
"                           mprof-session-YYYYMMDD-HHMMSS; created, may exist)\n"
"  -e, --elf=FILE           the profiled program's ELF: function names, and\n"
"                           a check of its .text CRC32 against the device's\n"
"                           build id (a mismatch is warned about)\n"
"      --duration=SECONDS   stop after this long (default: until Ctrl-C,\n"
"                           SIGTERM or the line hanging up)\n"
"      --records=N          stop once N records have arrived\n"
"      --status-interval=SECONDS  ask for the device's status this often\n"
"                           while profiling (default 1; 0: never); buffer\n"
"                           overflows are warned about as they grow\n"
"  -t, --timeout=SECONDS    wait this long for a command's response\n"
"                           (default 2); GET_METADATA is tried 3 times\n"
"                           (a time-out or a NACK ends a try)\n"
"  -q, --quiet              no progress lines, warnings only\n"
"      --report             no device: analyse an existing session directory\n"
"                           (its capture.mprof) or capture file into DIR\n"
"                           (default: the session directory itself)\n"
"  -h, --help               show this help and exit\n"
"  -V, --version            show the version and exit\n"
"\n"
"The session directory holds:\n"
"  capture.mprof        every byte the device sent (mttdecode reads it)\n"
"  session.txt          device, baud, times, device metadata, counters;\n"
"                       the ELF's absolute path and ids (mttdecode DIR)\n"
"  profile.txt          per-function table (calls, total, self, min, max,\n"
"                       average, in microseconds) and the call tree\n"
"  profile.folded       folded stacks for flamegraph.pl or speedscope\n"
"  profile.chrome.json  Chrome trace (complete events) for Perfetto\n"
"  profile.html         flame graph, timeline and sortable table; one\n"
"                       self-contained page, no network needed\n"
"\n"
"Stream problems (bytes skipped, CRC or end marker errors, a packet cut\n"
"short, PROFILE_DATA of an unsupported version) are counted, warned\n"
"about and skipped; capture goes on.\n"
"\n"
"Exit status: 0 on success, 1 on an error (line, device not answering or\n"
"refusing GET_METADATA 3 times, START refused: then no report is written;\n"
"a capture with no packet for --report, a report not written), 2 on a\n"
"usage error.\n";

/* a usage error (Documentation/cli.rst): "mttprofile: OPT 'ARG': WHY"
 * (without ARG if NULL) and the hint to --help; 1 */
static int usage_error(const char *opt, const char *arg, const char *why)
{
	if (arg)
		fprintf(stderr, "mttprofile: %s '%s': %s\n", opt, arg, why);
	else
		fprintf(stderr, "mttprofile: %s: %s\n", opt, why);
	fputs("Try 'mttprofile --help' for more information.\n", stderr);
	return 1;
}

static double num(const char *s, const char *opt, int *bad)
{
	char *end;
	double v = strtod(s, &end);

	if (!*bad && (end == s || *end || v < 0))
		*bad = usage_error(opt, s, "not a number >= 0");
	return v;
}

enum { OPT_DURATION = 256, OPT_RECORDS, OPT_STATUS, OPT_REPORT };

int parse_popts(struct popts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "baud", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "elf", required_argument, NULL, 'e' },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "records", required_argument, NULL, OPT_RECORDS },
		{ "status-interval", required_argument, NULL, OPT_STATUS },
		{ "timeout", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "report", no_argument, NULL, OPT_REPORT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, bad = 0;

	memset(o, 0, sizeof(*o));
	o->baud = 115200;
	o->status_every = 1;
	o->timeout = 2;
	opterr = 0;
	while (!bad && (c = getopt_long(argc, argv, ":b:o:e:t:qhV", lo,
					NULL)) != -1) {
		switch (c) {
		case 'b':
			o->baud = (unsigned long)num(optarg, "--baud", &bad);
			break;
		case 'o':
			o->dir = optarg;
			break;
		case 'e':
			o->elf = optarg;
			break;
		case OPT_DURATION:
			o->duration = num(optarg, "--duration", &bad);
			break;
		case OPT_RECORDS:
			o->records = (unsigned long)num(optarg, "--records", &bad);
			break;
		case OPT_STATUS:
			o->status_every = num(optarg, "--status-interval", &bad);
			break;
		case 't':
			o->timeout = num(optarg, "--timeout", &bad);
			if (!bad && o->timeout <= 0)
				o->timeout = 2;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_REPORT:
			o->report = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 2;
		case 'V':
			printf("mttprofile %s\n", MTTD_VERSION_STRING);
			return 2;
		case ':':
			bad = usage_error(argv[optind - 1], NULL,
					  "missing argument");
			break;
		default:
			bad = usage_error(optopt ? (char[]){ '-', (char)optopt, 0 } :
					  argv[optind - 1], NULL,
					  "unknown option");
		}
	}
	if (bad)
		return 1;
	if (optind == argc)
		return usage_error(o->report ? "SESSION-DIR|CAPTURE-FILE" :
				   "DEVICE", NULL, "missing");
	if (optind < argc - 1)
		return usage_error(argv[optind + 1], NULL,
				   "unexpected argument (one DEVICE only)");
	o->device = argv[optind];
	return 0;
}
