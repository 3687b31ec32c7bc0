/*
 * options.c - mttdecode's command line: options, --help and --version.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
"Usage: mttdecode [OPTIONS] [FILE|-]\n"
"Decode a raw MIPI STPv2 trace stream (FILE, or standard input when FILE\n"
"is absent or \"-\") into messages and, optionally, packets.\n"
"\n"
"Output selection:\n"
"  -m, --messages         print reassembled messages (the default)\n"
"  -M, --no-messages      do not print messages\n"
"  -p, --packets          print every packet (NULL packets only with --nulls)\n"
"      --nulls            with --packets, print NULL packets as well\n"
"  -f, --format=FORMAT    text (the default) or json (one object per line)\n"
"  -n, --no-output        decode only and print nothing (for benchmarks)\n"
"  -s, --stats            print a summary to standard error at the end\n"
"\n"
"Limits:\n"
"      --max-message=N    keep at most N bytes of a message (default 65536,\n"
"                         16..16777216); longer ones are cut and flagged\n"
"      --max-open=N       at most N messages open at once (default 1024,\n"
"                         1..65536); beyond that the oldest is printed as\n"
"                         incomplete\n"
"\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Messages are reassembled per master/channel: a message starts at a\n"
"timestamped data packet (or any data packet when none is open) and ends\n"
"at a marked data packet or a FLAG.  Payload bytes are taken little-endian\n"
"from each data packet.  Losses (GERR, MERR, loss of synchronisation, a\n"
"truncated stream) end open messages as incomplete and are reported.\n"
"\n"
"Text output, one line per item:\n"
"  <ts|-> m<master> c<channel> <len>  \"<data, escaped>\" [(incomplete)]\n"
"  @<offset> <OP> m<master> c<channel> [<value>] [marked] [ts=<ts>]\n"
"  !! loss: ...            -- sync / version / frequency notes\n"
"JSON output: {\"kind\":\"msg\"|\"packet\"|\"loss\"|\"sync\"|\"version\"|\"freq\",...}\n"
"\n"
"Exit status: 0 when the input was read (even if it held bad data, which\n"
"is reported in the output), 1 on a usage or I/O error.\n"
"See mttdecode(1) for the full description of the formats.\n";

enum { OPT_NULLS = 256, OPT_MAX_MSG, OPT_MAX_OPEN };

static const struct option longopts[] = {
	{ "messages", no_argument, NULL, 'm' },
	{ "no-messages", no_argument, NULL, 'M' },
	{ "packets", no_argument, NULL, 'p' },
	{ "nulls", no_argument, NULL, OPT_NULLS },
	{ "format", required_argument, NULL, 'f' },
	{ "no-output", no_argument, NULL, 'n' },
	{ "stats", no_argument, NULL, 's' },
	{ "max-message", required_argument, NULL, OPT_MAX_MSG },
	{ "max-open", required_argument, NULL, OPT_MAX_OPEN },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int number(const char *s, unsigned long lo, unsigned long hi,
		  unsigned long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*v = strtoul(s, &end, 0);
	return (*end || *v < lo || *v > hi) ? -1 : 0;
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "mttdecode: invalid %s: '%s'\n"
		"Try 'mttdecode --help' for more information.\n", what, arg);
	return 1;
}

int parse_options(struct opts *o, int argc, char **argv)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->messages = 1;
	o->max_len = MTTD_MSG_MAX_LEN;
	o->max_open = MTTD_MSG_MAX_OPEN;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":mMpf:nshV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'm': o->messages = 1; break;
		case 'M': o->messages = 0; break;
		case 'p': o->packets = 1; break;
		case OPT_NULLS: o->nulls = 1; break;
		case 'n': o->no_output = 1; break;
		case 's': o->stats = 1; break;
		case 'f':
			if (!strcmp(optarg, "json"))
				o->json = 1;
			else if (!strcmp(optarg, "text"))
				o->json = 0;
			else
				return bad("format", optarg);
			break;
		case OPT_MAX_MSG:
			if (number(optarg, 16, 16ul << 20, &o->max_len))
				return bad("--max-message", optarg);
			break;
		case OPT_MAX_OPEN:
			if (number(optarg, 1, 65536, &o->max_open))
				return bad("--max-open", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return 2;
		case 'V':
			printf("mttdecode %s\n", mttd_version());
			return 2;
		case ':':
			return bad("option (missing argument)",
				   argv[optind - 1]);
		default:
			return bad("option", optopt ?
				   (char[]){ '-', (char)optopt, 0 } :
				   argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		return bad("arguments (one FILE at most)", argv[optind + 1]);
	if (optind < argc)
		o->file = argv[optind];
	return 0;
}
