// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - mttdecode's command line: options, --help and --version.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
"Usage: mttdecode [OPTIONS] [FILE|DIR|-]...\n"
"Decode MIPI STPv2 trace streams into messages and, optionally, packets;\n"
"decode MIPI SyS-T messages carried in them, or read SyS-T directly.\n"
"Each FILE (standard input when there is none, or for \"-\") is decoded\n"
"on its own, in the order given, into one output.  A FILE that is a\n"
"session directory of mttcontrol(8) stands for its stream files, with\n"
"its policy, kallsyms, tracefs formats and collateral (unless given),\n"
"and its stream format (riscv-encap and widths, unless --input,\n"
"--srcid-bits or --ts-bytes are given); one with serial targets, given\n"
"alone with no option but --format/-f (text, json, csv, chrome, html),\n"
"--html-max and --stats, is merged: the stream and every target in one\n"
"output on the stream's clock (mttdecode(1), MERGED SESSIONS).  A\n"
"MiniProfiler capture (the responses a device sent, as mttprofile(1)\n"
"keeps them in capture.mprof) is decoded alone; a mttprofile session\n"
"directory stands for its capture, with the ELF its session.txt names\n"
"(refused, exit status 1, when it is not the ELF that was profiled)\n"
"unless --elf is given.\n"
"\n"
"Input:\n"
"      --input=KIND       auto (the default): each input's kind is told\n"
"                         from its first bytes (an STP ASYNC, a \"SYS-T RAW\n"
"                         DATA:\" line, SyS-T messages that frame; else\n"
"                         STP); stp: raw STPv2;\n"
"                         syst: SyS-T messages back to back (UART style);\n"
"                         systtext: \"SYS-T RAW DATA: <hex>\" lines (the\n"
"                         MIPI reference printer's input);\n"
"                         riscv-encap: RISC-V trace encapsulation (swstm\n"
"                         format riscv), widths as below;\n"
"                         mprof: a MiniProfiler capture (auto takes a first\n"
"                         input that is a file starting with a response\n"
"                         header, AA 55, as mprof; Documentation/\n"
"                         miniprofiler.rst); entry times unwrapped past\n"
"                         2^32 us;\n"
"                         intel-th-msc: Intel Trace Hub MSC multi-block\n"
"                         capture (64-byte block descriptors; detected);\n"
"                         coresight: CoreSight formatter frames from a TMC\n"
"                         sink or TPIU (detected when an STP ASYNC of one\n"
"                         trace ID is in the first 64 KiB);\n"
"                         mtt: native MTT frames back to back (libmtt\n"
"                         writing to a file); auto takes a file starting\n"
"                         with an MTT sync word as mtt\n"
"      --srcid-bits=N     riscv-encap: srcID width in bits, 0..16 (default\n"
"                         16, swstm's); implies --input=riscv-encap\n"
"      --ts-bytes=T       riscv-encap: timestamp width in bytes, 0..8\n"
"                         (default 8); implies --input=riscv-encap\n"
"      --srcid-proto=IDS:PROTO  riscv-encap: what the srcIDs IDS (N,\n"
"                         FIRST-LAST or *) carry: stp (swstm's layout,\n"
"                         decoded as STP; the default for every srcID),\n"
"                         raw (shown as packets: flow, srcID, timestamp,\n"
"                         payload) or mtt (the payloads, end to end, are\n"
"                         native MTT frames; source \"src<ID>\"); may be\n"
"                         given several times, in order;\n"
"                         implies --input=riscv-encap.  A packet that is\n"
"                         not in swstm's layout is shown raw whatever its\n"
"                         srcID\n"
"      --unframed         riscv-encap: the stream is unframed (PIB, memory):\n"
"                         a sync needs its null.alignment, and a packet\n"
"                         after a null.idle, or a null of a flow other than\n"
"                         0, is a loss of synchronisation\n"
"      --trace-id=N       coresight: the STM's trace ID (1..0x6f); default:\n"
"                         the first ID whose data holds an STP ASYNC\n"
"      --cs-sync=MODE     coresight: frame (default): 16-byte aligned frames\n"
"                         as a TMC ETF/ETB/ETR writes them; fsync: frames\n"
"                         found by FSYNC (TPIU port capture); hsync: fsync\n"
"                         and HSYNC halfwords removed\n"
"      --syst             decode each STP message as a SyS-T message\n"
"                         (implied by --input=syst|systtext, --format=csv,\n"
"                         a p_sys-t session; with --input=auto, by STP\n"
"                         whose first 16 messages are all valid SyS-T)\n"
"      --no-syst          never: STP messages stay bytes\n"
"\n"
"Output selection:\n"
"  -m, --messages         print reassembled messages (the default)\n"
"  -M, --no-messages      do not print messages\n"
"  -p, --packets          print every packet (NULL packets only with --nulls)\n"
"      --nulls            with --packets, print NULL packets as well\n"
"  -f, --format=FORMAT    text (the default), json (one object per line),\n"
"                         csv (the reference printer's CSV; SyS-T, MTT) or\n"
"                         chrome (Trace Event Format JSON for Perfetto)\n"
"                         or html (the viewer: one self-contained page);\n"
"                         of a MiniProfiler capture: text (every response,\n"
"                         record and stream error, then per-function\n"
"                         statistics and the call tree), json (the same as\n"
"                         JSON lines), chrome, folded (folded stacks) or\n"
"                         html (the profile page)\n"
"      --csv-extra        CSV: add Source,Master,Channel,GUID,Offset,\n"
"                         Complete columns after the printer's\n"
"      --from=NS          chrome: only events at or after NS (ns on the\n"
"                         trace's clock, as \"ts\" x 1000)\n"
"      --to=NS            chrome: only events at or before NS\n"
"      --wall-clock       chrome: \"ts\" on the wall clock (us since the\n"
"                         epoch), from a session's clocks at its start\n"
"      --html-max=N       html: records held in full (default 1000000);\n"
"                         later ones are summarised per track\n"
"      --no-output        decode only and print nothing (for benchmarks)\n"
"      --no-mtt           no MTT layer: an STP or SyS-T message holding an\n"
"                         MTT frame is shown as the message it is (its\n"
"                         bytes), not as the frame's values\n"
"      --stats            print a summary to standard error at the end\n"
"\n"
"Names and formats:\n"
"      --policy=FILE      STP policy snapshot (from stp-policy-dump):\n"
"                         lines \"<node> <first master> <last master>\n"
"                         <first channel> <last channel>\"; messages are\n"
"                         named after the deepest node holding them\n"
"      --collateral=FILE  SyS-T collateral XML (catalog and short formats,\n"
"                         names); may be given several times\n"
"      --short-guid=GUID  the collateral client of SHORT32/SHORT64 messages\n"
"                         (they carry no GUID), as {xxxxxxxx-xxxx-...}\n"
"      --kallsyms=FILE    /proc/kallsyms snapshot: ftrace addresses as\n"
"                         func+0xoff\n"
"      --tracefs=DIR      copy of /sys/kernel/tracing/events: ftrace records\n"
"                         decoded by their event format\n"
"      --elf=FILE         MiniProfiler: name functions from this ELF's\n"
"                         symbols (warned about when its .text CRC32 is\n"
"                         not the device's build id)\n"
"\n"
"Limits:\n"
"      --max-message=N    keep at most N bytes of a message (default 65536,\n"
"                         16..16777216), from every kind of input; longer\n"
"                         ones are cut and flagged truncated\n"
"      --max-open=N       at most N messages open at once (default 1024,\n"
"                         1..65536); beyond that the oldest is printed as\n"
"                         incomplete\n"
"\n"
"Speed:\n"
"  -j, --jobs=N           decode a raw STP file or a file of SYS-T RAW DATA\n"
"                         lines (not a pipe) on N threads\n"
"                         (default: every online CPU; 1 to 1024): pieces\n"
"                         of the file are decoded in parallel, each after\n"
"                         a warm-up on the bytes before it, and used only\n"
"                         when the decoders' state after the warm-up is the\n"
"                         state the piece before left, else decoded again\n"
"                         in order, so the output is always that of -j1\n"
"      --segment=BYTES    bytes per piece for -j (4096..1073741824;\n"
"                         default 4 MiB, 8 MiB with --syst and for hex\n"
"                         lines, whose warm-up is 1 MiB instead of 64\n"
"                         KiB); a piece\n"
"                         holds at most 3 x BYTES of output, the rest\n"
"                         of it is decoded in order\n"
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
"  <ts|-> <source|m<M>/c<C>> <SEVERITY> <origin> <TYPE> <text> [[STATUS]]\n"
"  @<offset> <OP> m<master> c<channel> [<value>] [marked] [ts=<ts>]\n"
"               [flow=<flow>]      (riscv-encap: the packet's flow)\n"
"  @<offset> ENCAP flow=<F> srcid=<S> [ts=<ts>] len=<bytes> [bits=<B>] <hex>\n"
"  !! loss: ...            -- sync / version / frequency notes\n"
"JSON output: {\"kind\":\"msg\"|\"syst\"|\"packet\"|\"encap\"|\"loss\"|\"sync\"|\n"
"\"version\"|\"freq\",...}\n"
"\n"
"Exit status: 0 when the inputs were read (even if they held bad data,\n"
"which is reported in the output), 1 on an error (an input or a file an\n"
"option names cannot be read, the output cannot be written), 2 on a\n"
"usage error, 3 when an input was not empty but nothing in it\n"
"synchronised (said on stderr).\n"
"See mttdecode(1) for the full description of the formats.\n";

enum {
	OPT_NULLS = 256, OPT_MAX_MSG, OPT_MAX_OPEN, OPT_SYST, OPT_NO_SYST, OPT_FROM, OPT_TO, OPT_WALL, OPT_INPUT,
	OPT_POLICY, OPT_COLLATERAL, OPT_KALLSYMS, OPT_TRACEFS, OPT_SHORT_GUID,
	OPT_CSV_EXTRA, OPT_SEGMENT, OPT_SRCID_BITS, OPT_TS_BYTES, OPT_TRACE_ID,
	OPT_CS_SYNC, OPT_NO_MTT, OPT_SRCID_PROTO, OPT_UNFRAMED, OPT_NO_OUTPUT,
	OPT_STATS, OPT_ELF, OPT_HTML_MAX
};

static const struct option longopts[] = {
	{ "messages", no_argument, NULL, 'm' },
	{ "no-messages", no_argument, NULL, 'M' },
	{ "packets", no_argument, NULL, 'p' },
	{ "nulls", no_argument, NULL, OPT_NULLS },
	{ "format", required_argument, NULL, 'f' },
	{ "no-output", no_argument, NULL, OPT_NO_OUTPUT },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "max-message", required_argument, NULL, OPT_MAX_MSG },
	{ "max-open", required_argument, NULL, OPT_MAX_OPEN },
	{ "syst", no_argument, NULL, OPT_SYST },
	{ "no-syst", no_argument, NULL, OPT_NO_SYST },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "wall-clock", no_argument, NULL, OPT_WALL },
	{ "html-max", required_argument, NULL, OPT_HTML_MAX },
	{ "no-mtt", no_argument, NULL, OPT_NO_MTT },
	{ "input", required_argument, NULL, OPT_INPUT },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "collateral", required_argument, NULL, OPT_COLLATERAL },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "tracefs", required_argument, NULL, OPT_TRACEFS },
	{ "elf", required_argument, NULL, OPT_ELF },
	{ "short-guid", required_argument, NULL, OPT_SHORT_GUID },
	{ "csv-extra", no_argument, NULL, OPT_CSV_EXTRA },
	{ "jobs", required_argument, NULL, 'j' },
	{ "segment", required_argument, NULL, OPT_SEGMENT },
	{ "srcid-bits", required_argument, NULL, OPT_SRCID_BITS },
	{ "ts-bytes", required_argument, NULL, OPT_TS_BYTES },
	{ "srcid-proto", required_argument, NULL, OPT_SRCID_PROTO },
	{ "unframed", no_argument, NULL, OPT_UNFRAMED },
	{ "trace-id", required_argument, NULL, OPT_TRACE_ID },
	{ "cs-sync", required_argument, NULL, OPT_CS_SYNC },
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

int usage_error(const char *help, const char *opt, const char *arg,
		const char *why)
{
	if (arg)
		fprintf(stderr, "mttdecode: %s '%s': %s\n", opt, arg, why);
	else
		fprintf(stderr, "mttdecode: %s: %s\n", opt, why);
	fprintf(stderr, "Try 'mttdecode %s' for more information.\n", help);
	return EXIT_USAGE;
}

static int bad(const char *opt, const char *arg, const char *why)
{
	return usage_error("--help", opt, arg, why);
}

/* a decimal count of ns; 0, or -1 if it is not one */
static int ns_arg(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

static int word(const char *arg, const char *const *words, int *v)
{
	int i;

	for (i = 0; words[i]; i++) {
		if (!strcmp(arg, words[i])) {
			*v = i;
			return 0;
		}
	}
	return -1;
}

int srcid_proto(struct opts *o, const char *arg)
{
	static const char *const protos[] = { "raw", "stp", "mtt", NULL };
	unsigned long lo = 0, hi = 65535, i;
	const char *colon = strrchr(arg, ':');
	char ids[16], *dash;
	int stp, mtt;

	if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof(ids) ||
	    word(colon + 1, protos, &stp))
		return -1;
	memcpy(ids, arg, (size_t)(colon - arg));
	ids[colon - arg] = 0;
	if (strcmp(ids, "*")) {
		dash = strchr(ids, '-');
		if (dash)
			*dash = 0;
		if (number(ids, 0, 65535, &lo) ||
		    number(dash ? dash + 1 : ids, lo, 65535, &hi))
			return -1;
		if ((long)hi > o->rv_max_named)
			o->rv_max_named = (long)hi;
	}
	mtt = stp == 2;
	stp = stp == 1;
	if (!o->rv_stp) {
		o->rv_stp = malloc(65536 / 8);
		if (!o->rv_stp)
			return -1;
		memset(o->rv_stp, 0xff, 65536 / 8);
	}
	if (mtt && !o->rv_mtt) {
		o->rv_mtt = calloc(1, 65536 / 8);
		if (!o->rv_mtt)
			return -1;
	}
	for (i = lo; i <= hi; i++) {
		if (stp)
			o->rv_stp[i / 8] |= (uint8_t)(1u << (i % 8));
		else
			o->rv_stp[i / 8] &= (uint8_t)~(1u << (i % 8));
		if (mtt)
			o->rv_mtt[i / 8] |= (uint8_t)(1u << (i % 8));
		else if (o->rv_mtt)
			o->rv_mtt[i / 8] &= (uint8_t)~(1u << (i % 8));
	}
	return 0;
}

int parse_options(struct opts *o, int argc, char **argv)
{
	static const char *const formats[] = {
		"text", "json", "csv", "chrome", "folded", "html", NULL
	};
	static const char *const inputs[] = {	/* IN_* order */
		"auto", "stp", "syst", "systtext", "riscv-encap", "intel-th-msc",
		"coresight", "mtt", "mprof", NULL
	};
	int c, rv_widths = 0;

	memset(o, 0, sizeof(*o));
	o->html_max = HTML_MAX_DEFAULT;
	o->srcid_bits = 16;
	o->ts_bytes = 8;
	o->rv_max_named = -1;
	o->messages = 1;
	o->max_len = MTTD_MSG_MAX_LEN;
	o->max_open = MTTD_MSG_MAX_OPEN;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":mMpf:hVj:", longopts,
				NULL)) != -1) {
		/* what a merged session takes: --format, --stats, --html-max */
		if (c != 'f' && c != OPT_STATS && c != OPT_HTML_MAX)
			o->other_opts++;
		switch (c) {
		case 'm': o->messages = 1; break;
		case 'M': o->messages = 0; break;
		case 'p': o->packets = 1; break;
		case OPT_NULLS: o->nulls = 1; break;
		case OPT_NO_OUTPUT: o->no_output = 1; break;
		case OPT_STATS: o->stats = 1; break;
		case OPT_SYST: o->syst = 1; break;
		case OPT_NO_SYST: o->no_syst = 1; break;
		case OPT_FROM:
		case OPT_TO:
			if (ns_arg(optarg, c == OPT_FROM ? &o->from_ns :
				   &o->to_ns))
				return bad(c == OPT_FROM ? "--from" : "--to",
					   optarg, "not a number of ns");
			*(c == OPT_FROM ? &o->has_from : &o->has_to) = 1;
			break;
		case OPT_WALL: o->wall_clock = 1; break;
		case OPT_NO_MTT: o->no_mtt = 1; break;
		case 'f':
			if (word(optarg, formats, &o->format))
				return bad("--format", optarg,
					   "not text, json, csv or chrome");
			break;
		case OPT_INPUT:
			if (word(optarg, inputs, &o->input))
				return bad("--input", optarg,
					   "not an input kind (see --help)");
			o->input_given = 1;
			break;
		case OPT_TRACE_ID:
		case OPT_CS_SYNC:
			if (frame_option(o, c == OPT_TRACE_ID, optarg))
				return bad(c == OPT_TRACE_ID ? "--trace-id" :
					   "--cs-sync", optarg, c == OPT_TRACE_ID ?
					   "not a trace ID (1..0x6f)" :
					   "not frame, fsync or hsync");
			break;
		case OPT_POLICY: o->policy = optarg; break;
		case OPT_KALLSYMS: o->kallsyms = optarg; break;
		case OPT_TRACEFS: o->tracefs = optarg; break;
		case OPT_ELF: o->elf = optarg; break;
		case OPT_CSV_EXTRA: o->csv_extra = 1; break;
		case OPT_SHORT_GUID:
			if (mttd_guid_parse(optarg, o->short_guid))
				return bad("--short-guid", optarg,
					   "not a GUID");
			o->has_short_guid = 1;
			break;
		case OPT_COLLATERAL:
			if (!*optarg)
				return bad("--collateral", optarg,
					   "empty file name");
			if (o->ncollateral == MAX_COLLATERAL)
				return bad("--collateral", optarg,
					   "more than 64 files");
			o->collateral[o->ncollateral++] = optarg;
			break;
		case OPT_MAX_MSG:
			if (number(optarg, 16, 16ul << 20, &o->max_len))
				return bad("--max-message", optarg,
					   "not a number in 16..16777216");
			break;
		case OPT_SRCID_BITS:
			if (number(optarg, 0, MTTD_RV_MAX_SRCID_BITS,
				   &o->srcid_bits))
				return bad("--srcid-bits", optarg,
					   "not a number in 0..16");
			rv_widths = 1;
			o->input_given = 1;
			break;
		case OPT_TS_BYTES:
			if (number(optarg, 0, MTTD_RV_MAX_TS_BYTES, &o->ts_bytes))
				return bad("--ts-bytes", optarg,
					   "not a number in 0..8");
			rv_widths = 1;
			o->input_given = 1;
			break;
		case OPT_SRCID_PROTO:
			if (srcid_proto(o, optarg))
				return bad("--srcid-proto", optarg,
					   "not IDS:stp or IDS:raw");
			rv_widths = 1;	/* a session's widths still apply */
			break;
		case OPT_UNFRAMED:
			o->rv_unframed = 1;
			rv_widths = 1;
			break;
		case OPT_MAX_OPEN:
			if (number(optarg, 1, 65536, &o->max_open))
				return bad("--max-open", optarg,
					   "not a number in 1..65536");
			break;
		case 'j':
			if (number(optarg, 1, 1024, &o->jobs))
				return bad("--jobs", optarg,
					   "not a number in 1..1024");
			break;
		case OPT_HTML_MAX:
			if (number(optarg, 0, 5000000, &o->html_max))
				return bad("--html-max", optarg,
					   "not a number in 0..5000000");
			break;
		case OPT_SEGMENT:
			if (number(optarg, 4096, 1ul << 30, &o->segment))
				return bad("--segment", optarg,
					   "not a number in 4096..1073741824");
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		case 'V':
			printf("mttdecode %s\n", MTTD_VERSION_STRING);
			return -1;
		case ':':
			return bad(argv[optind - 1], NULL, "missing argument");
		default:
			return bad(optopt ? (char[]){ '-', (char)optopt, 0 } :
				   argv[optind - 1], NULL, "unknown option");
		}
	}
	o->files = argv + optind;
	o->nfiles = argc - optind;
	if (o->input == IN_AUTO && rv_widths)
		o->input = IN_RISCV;
	if (o->input == IN_AUTO && (o->packets || o->nulls))
		o->input = IN_STP;	/* packets are STP's */
	if (o->input == IN_SYST || o->input == IN_SYSTTEXT) {
		if (o->packets)
			return bad("--packets", NULL,
				   "does not go with --input=syst|systtext");
		o->syst = 1;
	}
	if (o->format == FMT_CSV)
		o->syst = 1;
	if ((o->has_from || o->has_to || o->wall_clock) &&
	    o->format != FMT_CHROME)
		return bad(o->wall_clock && !o->has_from && !o->has_to ?
			   "--wall-clock" : o->has_from ? "--from" : "--to",
			   NULL, "goes with --format=chrome only");
	if (o->html_max != HTML_MAX_DEFAULT && o->format != FMT_HTML)
		return bad("--html-max", NULL, "goes with --format=html only");
	if (o->has_from && o->has_to && o->from_ns > o->to_ns)
		return bad("--from", NULL, "after --to");
	if (o->no_syst && o->syst)
		return bad("--no-syst", NULL, "does not go with --syst, "
			   "--input=syst|systtext or --format=csv");
	return 0;
}
