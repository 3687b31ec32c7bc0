// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the analysis files of a session directory: profile.txt,
 * profile.folded, profile.chrome.json and profile.html, from a
 * collected stream, with names from the ELF when one is given (and a
 * warning when its .text CRC32 is not the device's build id).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mttprofile.h"

static int one(const char *dir, const char *name, struct mprof_profile *p,
	       int (*fn)(FILE *, const struct mprof_profile *), int html)
{
	char path[4096];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "mttprofile: %s: %s\n", path, strerror(errno));
		return 1;
	}
	ret = html ? mprof_write_html(f, p, dir) : fn(f, p);
	if (fclose(f) || ret) {
		fprintf(stderr, "mttprofile: %s: write error\n", path);
		return 1;
	}
	return 0;
}

struct mprof_sym *load_elf(const char *elf)
{
	struct mprof_sym *sym;
	char err[512];

	sym = mprof_sym_load(elf, err, sizeof(err));
	if (!sym)
		fprintf(stderr, "mttprofile: %s\n", err);
	return sym;
}

int write_reports(const char *dir, struct mprof_collect *c,
		  struct mprof_sym *sym, const char *elf, int quiet)
{
	int ret = 0;

	if (sym && c->prof.have_meta) {
		int has_text;
		uint32_t crc = mprof_sym_text_crc(sym, &has_text);

		if (!has_text)
			fprintf(stderr, "mttprofile: warning: %s has no .text: build id not checked\n",
				elf);
		else if (crc != c->prof.meta.elf_build_id)
			fprintf(stderr, "mttprofile: warning: %s does not match the device (its .text CRC32 is 0x%08x, the device's build id 0x%08x): names may be wrong\n",
				elf, (unsigned int)crc,
				(unsigned int)c->prof.meta.elf_build_id);
		else if (!quiet)
			fprintf(stderr, "mttprofile: %s matches the device's build id 0x%08x\n",
				elf, (unsigned int)crc);
	}
	c->prof.sym = sym;
	if (mprof_profile_analyse(&c->prof)) {
		fprintf(stderr, "mttprofile: out of memory\n");
		c->prof.sym = NULL;
		return 1;
	}
	ret |= one(dir, "profile.txt", &c->prof, mprof_write_text, 0);
	ret |= one(dir, "profile.folded", &c->prof, mprof_write_folded, 0);
	ret |= one(dir, "profile.chrome.json", &c->prof, mprof_write_chrome, 0);
	ret |= one(dir, "profile.html", &c->prof, NULL, 1);
	/* names point into the analysis, not the symbols */
	c->prof.sym = NULL;
	if (!ret && !quiet)
		fprintf(stderr, "mttprofile: %zu calls of %zu functions: %s/profile.html\n",
			c->prof.nrec, c->prof.nfuncs, dir);
	return ret;
}
