// SPDX-License-Identifier: GPL-2.0
/*
 * mprof.c - mttdecode for MiniProfiler captures (the bytes a device
 * sent, as mttprofile keeps them in capture.mprof): every response and
 * stream error as text or JSON lines followed by the per-function
 * statistics, or the profile as Chrome trace JSON, folded stacks or the
 * HTML page, all through libmprof (the code mttprofile uses).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mprof/mprof.h"
#include "mprof_cli.h"

enum { MF_TEXT, MF_JSON, MF_CHROME, MF_FOLDED, MF_HTML };

struct mdec {
	int format;
	FILE *out;
	struct mprof_collect c;
	struct mprof_sym *sym;
	const char *elf;	/* its file, for messages */
	int checked;		/* against the device's build id */
};

static const char musage[] =
"Usage: mttdecode --input=mprof [OPTIONS] [FILE|DIR|-]\n"
"Decode a MiniProfiler capture (the responses a device sent: METADATA,\n"
"STATUS, ACK/NACK, PROFILE_DATA records), as mttprofile saves it in\n"
"capture.mprof.  Chosen automatically when the first FILE starts with a\n"
"MiniProfiler header (AA 55), or is a mttprofile session directory:\n"
"then its capture.mprof is decoded, with symbols from the ELF its\n"
"session.txt names unless --elf is given (a relative path there is the\n"
"session directory's; an ELF whose build id is not the one recorded is\n"
"refused, exit status 1).  Entry times are unwrapped past 2^32 us.\n"
"Exit status: 0 success, 1 an error, 2 a usage error, 3 when no packet\n"
"synchronised (said on stderr).\n"
"\n"
"  -f, --format=FORMAT  text (default): one line per response, record\n"
"                       and stream error, then per-function statistics;\n"
"                       json: the same as JSON lines (\"kind\": metadata,\n"
"                       status, ack, nack, profile_data, record, error,\n"
"                       function); chrome: Trace Event Format JSON;\n"
"                       folded: folded stacks; html: the profile page\n"
"      --elf=FILE       name functions from this ELF's symbols (warned\n"
"                       about when its .text CRC32 is not the device's\n"
"                       build id)\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show the version and exit\n";

/* a usage error with the hint to this help; EXIT_USAGE */
static int musage_error(const char *opt, const char *arg, const char *why)
{
	return usage_error("--input=mprof --help", opt, arg, why);
}

static void jhex(FILE *f, const char *key, uint32_t v)
{
	fprintf(f, ",\"%s\":\"0x%08x\"", key, (unsigned int)v);
}

static const char *fname(struct mdec *d, uint32_t addr, char *buf, size_t n)
{
	uint32_t off = 0;
	const char *s = d->sym ? mprof_sym_lookup(d->sym, addr, &off) : NULL;

	if (!s)
		return NULL;
	if (off)
		snprintf(buf, n, "%s+0x%x", s, (unsigned int)off);
	else
		snprintf(buf, n, "%s", s);
	return buf;
}

static void records(struct mdec *d, const struct mprof_event *ev)
{
	unsigned int version = 0, count = 0, i;
	int ret = mprof_profile_check(ev->payload, ev->len, &version, &count);
	unsigned long long off = (unsigned long long)ev->offset;
	FILE *f = d->out;

	if (ret) {
		const char *why = ret == -2 ? "version" : "payload";

		if (d->format == MF_JSON)
			fprintf(f, "{\"kind\":\"error\",\"error\":\"%s\",\"offset\":%llu,\"type\":5,\"version\":%u,\"len\":%zu}\n",
				why, off, version, ev->len);
		else
			fprintf(f, "!! PROFILE_DATA at @%llu: %s, skipped\n", off,
				ret == -2 ? "unsupported version" :
				"record count does not match its length");
		return;
	}
	if (d->format == MF_JSON)
		fprintf(f, "{\"kind\":\"profile_data\",\"offset\":%llu,\"version\":%u,\"records\":%u}\n",
			off, version, count);
	else
		fprintf(f, "@%llu PROFILE_DATA version=%u records=%u\n", off,
			version, count);
	for (i = 0; i < count; i++) {
		struct mprof_record r;
		char nb[512];
		const char *nm;

		mprof_record_get(&r, ev->payload + MPROF_PROFILE_HDR_LEN +
				 (size_t)i * MPROF_RECORD_LEN);
		nm = fname(d, r.func_addr, nb, sizeof(nb));
		if (d->format == MF_JSON) {
			fputs("{\"kind\":\"record\"", f);
			jhex(f, "func_addr", r.func_addr);
			if (nm) {
				fputs(",\"name\":", f);
				mprof_json_str(f, nm);
			}
			fprintf(f, ",\"entry_time\":%u,\"duration_us\":%u,\"depth\":%u}\n",
				(unsigned int)r.entry_time,
				(unsigned int)r.duration_us,
				(unsigned int)r.depth);
		} else {
			fprintf(f, "  0x%08x entry=%u dur=%u depth=%u%s%s\n",
				(unsigned int)r.func_addr,
				(unsigned int)r.entry_time,
				(unsigned int)r.duration_us,
				(unsigned int)r.depth, nm ? " " : "",
				nm ? nm : "");
		}
	}
}

/* the ELF in use against the device's build id, once (a warning) */
static void elf_check(struct mdec *d, const struct mprof_metadata *m)
{
	int has_text;
	uint32_t crc;

	if (!d->sym || d->checked)
		return;
	d->checked = 1;
	crc = mprof_sym_text_crc(d->sym, &has_text);
	if (has_text && crc != m->elf_build_id)
		fprintf(stderr, "mttdecode: warning: %s does not match the device (its .text CRC32 is 0x%08x, the device's build id 0x%08x): names may be wrong\n",
			d->elf, (unsigned int)crc,
			(unsigned int)m->elf_build_id);
}

static void on_event(void *ctx, const struct mprof_event *ev)
{
	struct mdec *d = ctx;
	FILE *f = d->out;
	unsigned long long off = (unsigned long long)ev->offset;
	int js = d->format == MF_JSON;
	static const char *const what[] = {
		[MPROF_EV_GARBAGE] = "garbage", [MPROF_EV_CRC] = "crc",
		[MPROF_EV_BAD_END] = "end_marker",
		[MPROF_EV_TRUNCATED] = "truncated",
	};

	if (d->format != MF_TEXT && !js)
		return;
	if (ev->kind != MPROF_EV_PACKET) {
		if (js) {
			fprintf(f, "{\"kind\":\"error\",\"error\":\"%s\",\"offset\":%llu,\"len\":%zu",
				what[ev->kind], off, ev->len);
			if (ev->kind == MPROF_EV_CRC)
				fprintf(f, ",\"type\":%u,\"crc\":\"0x%04x\",\"expected\":\"0x%04x\"",
					ev->type, ev->crc_got, ev->crc_want);
			fputs("}\n", f);
		} else if (ev->kind == MPROF_EV_GARBAGE) {
			fprintf(f, "!! skipped %zu bytes at @%llu\n", ev->len, off);
		} else if (ev->kind == MPROF_EV_CRC) {
			fprintf(f, "!! CRC error at @%llu: %s, %zu bytes, CRC 0x%04x, expected 0x%04x; discarded\n",
				off, mprof_type_name(ev->type), ev->len,
				ev->crc_got, ev->crc_want);
		} else {
			fprintf(f, "!! %s at @%llu (%zu bytes); discarded\n",
				ev->kind == MPROF_EV_BAD_END ? "bad end marker" :
				"packet cut short", off, ev->len);
		}
		return;
	}
	switch (ev->type) {
	case MPROF_RSP_METADATA: {
		struct mprof_metadata m;

		if (mprof_metadata_get(&m, ev->payload, ev->len)) {
			fprintf(f, js ? "{\"kind\":\"error\",\"error\":\"payload\",\"offset\":%llu,\"type\":3,\"len\":%zu}\n" :
				"!! METADATA at @%llu too short (%zu bytes)\n", off, ev->len);
			break;
		}
		elf_check(d, &m);
		if (js) {
			fprintf(f, "{\"kind\":\"metadata\",\"offset\":%llu,\"mcu_clock_hz\":%u,\"timer_freq\":%u",
				off, (unsigned int)m.mcu_clock_hz,
				(unsigned int)m.timer_freq);
			jhex(f, "elf_build_id", m.elf_build_id);
			fputs(",\"fw_version\":", f);
			mprof_json_str(f, m.fw_version);
			fputs("}\n", f);
		} else {
			fprintf(f, "@%llu METADATA mcu_clock_hz=%u timer_freq=%u elf_build_id=0x%08x fw_version=\"%s\"\n",
				off, (unsigned int)m.mcu_clock_hz,
				(unsigned int)m.timer_freq,
				(unsigned int)m.elf_build_id, m.fw_version);
		}
		break;
	}
	case MPROF_RSP_STATUS: {
		struct mprof_status s;

		if (mprof_status_get(&s, ev->payload, ev->len)) {
			fprintf(f, js ? "{\"kind\":\"error\",\"error\":\"payload\",\"offset\":%llu,\"type\":4,\"len\":%zu}\n" :
				"!! STATUS at @%llu too short (%zu bytes)\n", off, ev->len);
			break;
		}
		fprintf(f, js ? "{\"kind\":\"status\",\"offset\":%llu,\"is_profiling\":%u,\"buffer_overflows\":%u,\"records_captured\":%u,\"buffer_usage_percent\":%u}\n" :
			"@%llu STATUS is_profiling=%u buffer_overflows=%u records_captured=%u buffer_usage_percent=%u\n",
			off, s.is_profiling, (unsigned int)s.buffer_overflows,
			(unsigned int)s.records_captured,
			s.buffer_usage_percent);
		break;
	}
	case MPROF_RSP_ACK:
	case MPROF_RSP_NACK:
		fprintf(f, js ? "{\"kind\":\"%s\",\"offset\":%llu}\n" : "@%2$llu %1$s\n",
			js ? (ev->type == MPROF_RSP_ACK ? "ack" : "nack") :
			mprof_type_name(ev->type), off);
		break;
	case MPROF_RSP_PROFILE_DATA:
		records(d, ev);
		break;
	}
}

static void functions_json(struct mdec *d)
{
	const struct mprof_func_stats **v = mprof_profile_sorted(&d->c.prof);
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++) {
		fputs("{\"kind\":\"function\",\"name\":", d->out);
		mprof_json_str(d->out, v[i]->name);
		jhex(d->out, "addr", v[i]->addr);
		fprintf(d->out, ",\"calls\":%llu,\"total_us\":%llu,\"self_us\":%llu,\"min_us\":%u,\"max_us\":%u}\n",
			(unsigned long long)v[i]->calls,
			(unsigned long long)v[i]->total_us,
			(unsigned long long)v[i]->self_us,
			(unsigned int)v[i]->min_us, (unsigned int)v[i]->max_us);
	}
	free(v);
}

/* an option of mttdecode given with its value in the next argument */
static int takes_value(const char *a)
{
	static const char *const opts[] = {
		"--input", "--format", "--policy", "--collateral",
		"--short-guid", "--kallsyms", "--tracefs", "--max-message",
		"--max-open", "--elf", "--jobs", "--srcid-bits", "--ts-bytes",
		NULL,
	};
	int i;

	if (!strcmp(a, "-f") || !strcmp(a, "-j"))
		return 1;
	for (i = 0; opts[i]; i++)
		if (!strcmp(a, opts[i]))
			return 1;
	return 0;
}

/* DIR is a mttprofile session: it holds capture.mprof */
static int is_mprof_session(const char *dir)
{
	return session_dir_has(dir, "capture.mprof");
}

/* what a mttprofile session's session.txt says about its ELF */
struct sess_elf {
	char *path;		/* elf=: absolute, or relative to the session */
	char text_crc[16];	/* elf_text_crc32=: the ELF's at capture time */
	char gnu_id[2 * MPROF_GNU_ID_MAX + 1];	/* elf_gnu_build_id= */
	char device_id[16];	/* elf_build_id=: the device's METADATA */
};

/* a value into dst[n]; one too long is cut (and will not match) */
static void kv_copy(char *dst, size_t n, const char *v)
{
	size_t l = strnlen(v, n - 1);

	memcpy(dst, v, l);
	dst[l] = 0;
}

/* 0, or -1 when session.txt names no ELF */
static int session_elf(const char *dir, struct sess_elf *se)
{
	char path[4096], line[4096 + 32];
	FILE *f;

	memset(se, 0, sizeof(*se));
	snprintf(path, sizeof(path), "%s/session.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "elf=", 4) && !se->path && line[4]) {
			/* a relative path is the session directory's */
			size_t n = strlen(dir) + strlen(line) + 2;

			se->path = malloc(n);
			if (se->path && line[4] == '/')
				snprintf(se->path, n, "%s", line + 4);
			else if (se->path)
				snprintf(se->path, n, "%s/%s", dir, line + 4);
		} else if (!strncmp(line, "elf_text_crc32=", 15)) {
			kv_copy(se->text_crc, sizeof(se->text_crc), line + 15);
		} else if (!strncmp(line, "elf_gnu_build_id=", 17)) {
			kv_copy(se->gnu_id, sizeof(se->gnu_id), line + 17);
		} else if (!strncmp(line, "elf_build_id=", 13)) {
			kv_copy(se->device_id, sizeof(se->device_id), line + 13);
		}
	}
	fclose(f);
	return se->path ? 0 : -1;
}

/*
 * Is sym the ELF the session used?  Its GNU build id and .text CRC32 as
 * recorded at capture time; a session without them (older mttprofile)
 * has the device's build id, the CRC32 of the .text that ran.  0 when
 * every one recorded matches; -1 with why set otherwise.
 */
static int session_elf_check(const struct sess_elf *se,
			     const struct mprof_sym *sym, char *why, size_t n)
{
	char id[2 * MPROF_GNU_ID_MAX + 1], crc[16];
	int has_text;

	mprof_sym_build_id(sym, id, sizeof(id));
	snprintf(crc, sizeof(crc), "0x%08x",
		 (unsigned int)mprof_sym_text_crc(sym, &has_text));
	if (!has_text)
		crc[0] = 0;
	if (se->gnu_id[0] && strcmp(se->gnu_id, id)) {
		snprintf(why, n, "its GNU build id is %s, the session recorded %s",
			 id[0] ? id : "none", se->gnu_id);
		return -1;
	}
	if (se->text_crc[0] && strcasecmp(se->text_crc, crc)) {
		snprintf(why, n, "its .text CRC32 is %s, the session recorded %s",
			 crc[0] ? crc : "none (no .text)", se->text_crc);
		return -1;
	}
	if (!se->gnu_id[0] && !se->text_crc[0] && se->device_id[0] &&
	    strcasecmp(se->device_id, crc)) {
		snprintf(why, n, "its .text CRC32 is %s, the device's build id %s",
			 crc[0] ? crc : "none (no .text)", se->device_id);
		return -1;
	}
	return 0;
}

/*
 * The symbols of the ELF a session names, for names when --elf is not
 * given: found from the session directory (not the current one) and
 * checked to be the ELF that was profiled.  1 with *sym and *path (to
 * free) set, 0 no ELF usable (warned; addresses stay unnamed), -1
 * refused (said).
 */
static int load_session_elf(const char *dir, struct mprof_sym **sym,
			    char **path)
{
	struct sess_elf se;
	char err[512], why[640];

	*sym = NULL;
	if (session_elf(dir, &se))
		return 0;
	*sym = mprof_sym_load(se.path, err, sizeof(err));
	if (!*sym) {
		fprintf(stderr, "mttdecode: %s/session.txt names an ELF that cannot be read (%s): addresses shown unnamed; give --elf=FILE\n",
			dir, err);
		free(se.path);
		return 0;
	}
	if (session_elf_check(&se, *sym, why, sizeof(why))) {
		fprintf(stderr, "mttdecode: %s/session.txt names %s, but that is not the ELF that was profiled (%s): not naming functions from it; give the right one with --elf=FILE\n",
			dir, se.path, why);
		mprof_sym_free(*sym);
		*sym = NULL;
		free(se.path);
		return -1;
	}
	if (!se.gnu_id[0] && !se.text_crc[0] && !se.device_id[0])
		fprintf(stderr, "mttdecode: warning: %s/session.txt records no build id: %s is used unchecked\n",
			dir, se.path);
	*path = se.path;
	return 1;
}

int mprof_wanted(int argc, char **argv)
{
	const char *first = NULL;
	int i, input_given = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--input=mprof") ||
		    (!strcmp(argv[i], "--input") && i + 1 < argc &&
		     !strcmp(argv[i + 1], "mprof")))
			return 1;
		if (!strncmp(argv[i], "--input", 7) ||
		    !strncmp(argv[i], "--srcid-bits", 12) ||
		    !strncmp(argv[i], "--ts-bytes", 10))
			input_given = 1;
		if (takes_value(argv[i]))
			i++;
		else if (!first && argv[i][0] != '-')
			first = argv[i];
	}
	if (!input_given && first && is_mprof_session(first))
		return 1;
	if (!input_given && first) {
		uint8_t h[3];
		int fd = open(first, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, h, sizeof(h)) : -1;

		if (fd >= 0)
			close(fd);
		return n == 3 && h[0] == MPROF_RSP_SYNC0 &&
		       h[1] == MPROF_RSP_SYNC1 && h[2] >= MPROF_RSP_ACK &&
		       h[2] <= MPROF_RSP_PROFILE_DATA;
	}
	return 0;
}

int mprof_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "elf", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = {
		"text", "json", "chrome", "folded", "html",
	};
	struct mdec d = { .out = stdout };
	char err[512], capture[4096 + 16];
	const char *file;
	int c, i, ret = 0, nothing = 0;
	char *sess_elf = NULL;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:hV", lo, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (strcmp(optarg, "mprof") && strcmp(optarg, "auto"))
				return musage_error("--input", optarg,
						    "not mprof with a MiniProfiler capture");
			break;
		case 'f':
			for (i = 0; i < 5 && strcmp(optarg, formats[i]); i++)
				;
			if (i == 5)
				return musage_error("--format", optarg,
						    "MiniProfiler formats: text, json, chrome, folded, html");
			d.format = i;
			break;
		case 'e':
			mprof_sym_free(d.sym);
			d.elf = optarg;
			d.sym = mprof_sym_load(optarg, err, sizeof(err));
			if (!d.sym) {
				fprintf(stderr, "mttdecode: %s\n", err);
				return 1;
			}
			break;
		case 'h':
			fputs(musage, stdout);
			mprof_sym_free(d.sym);
			return EXIT_OK;
		case 'V':
			printf("mttdecode %s\n", MTTD_VERSION_STRING);
			mprof_sym_free(d.sym);
			return EXIT_OK;
		case ':':
			mprof_sym_free(d.sym);
			return musage_error(argv[optind - 1], NULL,
					    "missing argument");
		default:
			mprof_sym_free(d.sym);
			return musage_error(optopt ? (char[]){ '-', (char)optopt, 0 } :
					    argv[optind - 1], NULL,
					    "not an option with MiniProfiler input (--format, --elf only)");
		}
	}
	if (argc - optind > 1) {
		mprof_sym_free(d.sym);
		return musage_error(argv[optind + 1], NULL,
				    "one MiniProfiler capture at a time");
	}
	file = optind < argc ? argv[optind] : "-";
	if (strcmp(file, "-") && is_mprof_session(file)) {
		/* a mttprofile session: its capture, and its ELF for names */
		if (!d.sym && load_session_elf(file, &d.sym, &sess_elf) < 0)
			return 1;
		if (sess_elf)
			d.elf = sess_elf;
		snprintf(capture, sizeof(capture), "%s/capture.mprof", file);
		file = capture;
	}
	if (mprof_collect_init(&d.c, on_event, &d) ||
	    mprof_collect_file(&d.c, file)) {
		fprintf(stderr, "mttdecode: %s: %s\n",
			strcmp(file, "-") ? file : "<stdin>", strerror(errno));
		ret = 1;
	} else {
		if (!mprof_collect_synced(&d.c) &&
		    mprof_parser_stats(d.c.parser)->bytes) {
			/* as the STP input: said on stderr, exit status 2 */
			mprof_collect_nothing(&d.c, err, sizeof(err));
			fprintf(stderr, "mttdecode: %s: %s\n",
				strcmp(file, "-") ? file : "<stdin>", err);
			nothing = 1;
		}
		d.c.prof.sym = d.sym;
		if (mprof_profile_analyse(&d.c.prof)) {
			fprintf(stderr, "mttdecode: out of memory\n");
			ret = 1;
		} else if (d.format == MF_TEXT) {
			fputc('\n', d.out);
			ret = mprof_write_text(d.out, &d.c.prof);
		} else if (d.format == MF_JSON) {
			functions_json(&d);
		} else if (d.format == MF_CHROME) {
			ret = mprof_write_chrome(d.out, &d.c.prof);
		} else if (d.format == MF_FOLDED) {
			ret = mprof_write_folded(d.out, &d.c.prof);
		} else {
			ret = mprof_write_html(d.out, &d.c.prof,
					       strcmp(file, "-") ? file : "stdin");
		}
	}
	if (fflush(d.out) || ferror(d.out)) {
		fprintf(stderr, "mttdecode: write error\n");
		ret = 1;
	}
	mprof_collect_free(&d.c);
	mprof_sym_free(d.sym);
	free(sess_elf);
	return ret ? EXIT_FAIL : nothing ? EXIT_NOTHING : EXIT_OK;
}
