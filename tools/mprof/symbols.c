// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c - function names for MiniProfiler addresses, read with
 * libelf from the profiled program's ELF file (.symtab, else .dynsym;
 * STT_FUNC symbols), and the CRC32 of its .text that the device sends
 * as elf_build_id, so a report can say whether the ELF is the one that
 * ran.  Addresses are link-time addresses (the device library subtracts
 * a PIE's load bias before sending them).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mprof.h"

struct sym_ent {
	uint64_t addr, size;
	char *name;
};

struct mprof_sym {
	struct sym_ent *v;
	size_t n;
	uint32_t text_crc;
	int has_text;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym_ent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* the sized, then alphabetically first, symbol wins at one address */
	if ((x->size != 0) != (y->size != 0))
		return x->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int add_symtab(struct mprof_sym *s, Elf *e, Elf_Scn *scn,
		      const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *nm;
		struct sym_ent *v;

		if (!gelf_getsym(d, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		nm = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!nm || !*nm)
			continue;
		v = realloc(s->v, (s->n + 1) * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		v[s->n].addr = sym.st_value;
		v[s->n].size = sym.st_size;
		v[s->n].name = strdup(nm);
		if (!v[s->n].name)
			return -1;
		s->n++;
	}
	return 0;
}

static int load(struct mprof_sym *s, Elf *e, char *err, size_t errsz)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	GElf_Shdr sh, dynsh, tabsh;
	size_t shstr;

	if (elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstr)) {
		snprintf(err, errsz, "not an ELF file: %s", elf_errmsg(-1));
		return -1;
	}
	while ((scn = elf_nextscn(e, scn))) {
		const char *nm;

		if (!gelf_getshdr(scn, &sh))
			continue;
		nm = elf_strptr(e, shstr, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB) {
			tab = scn;
			tabsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dynsh = sh;
		} else if (nm && !strcmp(nm, ".text") &&
			   sh.sh_type == SHT_PROGBITS) {
			Elf_Data *d = elf_rawdata(scn, NULL);

			if (d && d->d_buf) {
				s->text_crc = mprof_crc32(0, d->d_buf, d->d_size);
				s->has_text = 1;
			}
		}
	}
	if ((tab && add_symtab(s, e, tab, &tabsh)) ||
	    (!tab && dyn && add_symtab(s, e, dyn, &dynsh))) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	qsort(s->v, s->n, sizeof(*s->v), cmp_sym);
	return 0;
}

struct mprof_sym *mprof_sym_load(const char *path, char *err, size_t errsz)
{
	struct mprof_sym *s;
	Elf *e;
	int fd, ret;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errsz, "libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errsz, "%s: cannot open", path);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!s || !e) {
		snprintf(err, errsz, "%s: %s", path,
			 s ? elf_errmsg(-1) : "out of memory");
		if (e)
			elf_end(e);
		free(s);
		close(fd);
		return NULL;
	}
	ret = load(s, e, err, errsz);
	elf_end(e);
	close(fd);
	if (ret) {
		mprof_sym_free(s);
		return NULL;
	}
	return s;
}

const char *mprof_sym_lookup(const struct mprof_sym *s, uint32_t addr,
			     uint32_t *off)
{
	size_t lo = 0, hi = s->n;
	const struct sym_ent *e;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	e = &s->v[lo - 1];
	/* first entry at that address (sorted sized first) */
	while (lo > 1 && s->v[lo - 2].addr == e->addr)
		e = &s->v[--lo - 1];
	if (e->size && addr - e->addr >= e->size)
		return NULL;
	*off = (uint32_t)(addr - e->addr);
	return e->name;
}

uint32_t mprof_sym_text_crc(const struct mprof_sym *s, int *has_text)
{
	*has_text = s->has_text;
	return s->text_crc;
}

void mprof_sym_free(struct mprof_sym *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	free(s);
}
