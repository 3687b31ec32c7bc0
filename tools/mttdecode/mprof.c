// SPDX-License-Identifier: GPL-2.0
/*
 * mprof.c - mttdecode's MiniProfiler input: a capture (--input=mprof, or
 * sniffed: sniff.c) or a mttprofile session directory's (session.c) is
 * handed whole to libmprof (mprof_decode_stream()), which writes the
 * report; here mttdecode's options become its options, the session's
 * ELF (session.txt, read by libmttsession) is named to it, and what it
 * returns is said on stderr (and its counters with --stats).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mprof/mprof.h"
#include "session/session.h"

/* --stats: the capture's counters, on stderr */
static void stats(const struct mprof_decode_result *r)
{
	const struct mprof_parser_stats *p = &r->parser;

	fprintf(stderr,
		"bytes in:        %llu\n"
		"packets:         %llu (metadata %llu, status %llu, ack %llu, "
		"nack %llu, profile_data %llu)\n"
		"records:         %llu (%llu PROFILE_DATA of another version, "
		"%llu bad payloads skipped)\n"
		"stream errors:   %llu bytes skipped, %llu CRC errors, %llu bad "
		"end markers, %llu packets cut short\n",
		(unsigned long long)p->bytes, (unsigned long long)p->packets,
		(unsigned long long)p->by_type[MPROF_RSP_METADATA],
		(unsigned long long)p->by_type[MPROF_RSP_STATUS],
		(unsigned long long)p->by_type[MPROF_RSP_ACK],
		(unsigned long long)p->by_type[MPROF_RSP_NACK],
		(unsigned long long)p->by_type[MPROF_RSP_PROFILE_DATA],
		(unsigned long long)r->records,
		(unsigned long long)r->bad_version,
		(unsigned long long)r->bad_payload,
		(unsigned long long)p->garbage_bytes,
		(unsigned long long)p->crc_errors,
		(unsigned long long)p->end_errors,
		(unsigned long long)p->truncated);
}

/* what r says (warnings, then an error), on stderr; dir: the session */
static void say(const struct mprof_decode_result *r,
		enum mprof_decode_status st, const char *name,
		const char *dir, const char *elf)
{
	if (r->warn & MPROF_WARN_ELF_UNREADABLE)
		fprintf(stderr, "mttdecode: %s/session.txt names an ELF that cannot be read (%s): addresses shown unnamed; give --elf=FILE\n",
			dir, r->elf_err);
	if (r->warn & MPROF_WARN_UNCHECKED)
		fprintf(stderr, "mttdecode: warning: %s/session.txt records no build id: %s is used unchecked\n",
			dir, elf);
	if (r->warn & MPROF_WARN_DEVICE)
		fprintf(stderr, "mttdecode: warning: %s does not match the device (its .text CRC32 is 0x%08x, the device's build id 0x%08x): names may be wrong\n",
			elf, (unsigned int)r->elf_crc,
			(unsigned int)r->device_build_id);
	if (r->nothing_synced)
		fprintf(stderr, "mttdecode: %s: %s\n", name, r->nothing);
	switch (st) {
	case MPROF_DECODE_OK:
		break;
	case MPROF_DECODE_ELF:
		fprintf(stderr, "mttdecode: %s\n", r->elf_err);
		break;
	case MPROF_DECODE_ELF_REFUSED:
		fprintf(stderr, "mttdecode: %s/session.txt names %s, but that is not the ELF that was profiled (%s): not naming functions from it; give the right one with --elf=FILE\n",
			dir, elf, r->why);
		break;
	case MPROF_DECODE_READ:
		fprintf(stderr, "mttdecode: %s: %s\n", name, strerror(r->err));
		break;
	case MPROF_DECODE_NOMEM:
		fprintf(stderr, "mttdecode: out of memory\n");
		break;
	case MPROF_DECODE_WRITE:
		fprintf(stderr, "mttdecode: write error\n");
		break;
	}
}

int mprof_decode(const struct opts *o)
{
	static const enum mprof_format formats[] = {
		[FMT_TEXT] = MPROF_FMT_TEXT, [FMT_JSON] = MPROF_FMT_JSON,
		[FMT_CHROME] = MPROF_FMT_CHROME,
		[FMT_FOLDED] = MPROF_FMT_FOLDED, [FMT_HTML] = MPROF_FMT_HTML,
	};
	const char *file = o->nfiles ? o->files[0] : "-";
	int std = !strcmp(file, "-");
	const char *name = std ? "<stdin>" : file;
	struct mprof_decode_opts mo = {
		.format = formats[o->format], .elf = o->elf,
		.title = std ? "stdin" : file, .no_output = o->no_output,
	};
	struct mtts_profile sp = { 0 };
	struct mprof_elf_ids ids;
	struct mprof_decode_result r;
	enum mprof_decode_status st;
	int fd = STDIN_FILENO;

	if (o->nfiles > 1) {
		fprintf(stderr, "mttdecode: one MiniProfiler capture at a time\n");
		return EXIT_FAIL;
	}
	if (o->format == FMT_CSV) {
		fprintf(stderr, "mttdecode: %s: a MiniProfiler capture: its formats are text, json, chrome, folded, html\n",
			name);
		return EXIT_FAIL;
	}
	/* a session's ELF names the functions unless --elf is given */
	if (o->mprof_session && !o->elf &&
	    !mtts_profile_read(o->mprof_session, &sp) && sp.elf) {
		ids.text_crc32 = sp.elf_text_crc32;
		ids.gnu_build_id = sp.elf_gnu_build_id;
		ids.device_build_id = sp.elf_build_id;
		mo.elf = sp.elf;
		mo.expect = &ids;
	}
	if (!std && (fd = open(file, O_RDONLY)) < 0) {
		fprintf(stderr, "mttdecode: %s: %s\n", file, strerror(errno));
		mtts_profile_free(&sp);
		return EXIT_FAIL;
	}
	st = mprof_decode_stream(&mo, fd, stdout, &r);
	if (!std)
		close(fd);
	say(&r, st, name, o->mprof_session, mo.elf);
	if (o->stats && st != MPROF_DECODE_ELF &&
	    st != MPROF_DECODE_ELF_REFUSED && st != MPROF_DECODE_READ)
		stats(&r);
	mtts_profile_free(&sp);
	return st ? EXIT_FAIL : r.nothing_synced ? EXIT_NOTHING : EXIT_OK;
}
