// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c - function names for MiniProfiler addresses, read with
 * libelf from the profiled program's ELF file (.symtab, else .dynsym;
 * STT_FUNC symbols), and the CRC32 of its .text that the device sends
 * as elf_build_id, so a report can say whether the ELF is the one that
 * ran, and its GNU build id (.note.gnu.build-id) when it has one.
 * Addresses are link-time addresses (the device library subtracts a
 * PIE's load bias before sending them).  A symbol covers [value,
 * value + size); one without a size (hand-written assembly such as
 * _init, _fini) ends where the next symbol starts or its section ends,
 * so an address past every function is not named after the last one.
 * In an Arm ELF a Thumb function's symbol value has bit 0 set (the ARM
 * ELF ABI's marker, not part of the address): it is cleared, as the
 * device (libmprofdev's firmware glue) clears it in the addresses sent.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mprof/mprof.h"
#include "wire/crc.h"

struct sym_ent {
	uint64_t addr, size;	/* size 0: unsized */
	uint64_t end;		/* what it covers: [addr, end) */
	uint64_t reach;		/* highest end of this and every entry before */
	uint64_t sec_end;	/* end of its section */
	char *name;
};

struct mprof_sym {
	struct sym_ent *v;
	size_t n;
	uint32_t text_crc;
	int has_text;
	uint8_t build_id[MPROF_GNU_ID_MAX];
	size_t build_id_len;
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
	uint64_t sec_end, mask = ~(uint64_t)0;
	GElf_Ehdr eh;
	size_t i, n;

	if (gelf_getehdr(e, &eh) && eh.e_machine == EM_ARM)
		mask = ~(uint64_t)1;	/* the Thumb bit */
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
		sec_end = UINT64_MAX;
		if (sym.st_shndx < SHN_LORESERVE) {
			GElf_Shdr ss;
			Elf_Scn *in = elf_getscn(e, sym.st_shndx);

			if (in && gelf_getshdr(in, &ss))
				sec_end = ss.sh_addr + ss.sh_size;
		}
		v = realloc(s->v, (s->n + 1) * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		v[s->n].addr = sym.st_value & mask;
		v[s->n].size = sym.st_size;
		v[s->n].sec_end = sec_end;
		v[s->n].name = strdup(nm);
		if (!v[s->n].name)
			return -1;
		s->n++;
	}
	return 0;
}

/* the GNU build id, from an SHT_NOTE section holding NT_GNU_BUILD_ID */
static void gnu_build_id(struct mprof_sym *s, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	if (!d || s->build_id_len)
		return;
	while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + name_off, "GNU", 4) &&
		    nh.n_descsz && nh.n_descsz <= MPROF_GNU_ID_MAX) {
			memcpy(s->build_id, (const char *)d->d_buf + desc_off,
			       nh.n_descsz);
			s->build_id_len = nh.n_descsz;
			return;
		}
		off = next;
	}
}

/*
 * What each symbol covers once sorted: its size; an unsized one up to
 * the next symbol at a higher address, at most to its section's end.
 * reach lets a lookup walk back over a symbol that ends early to one
 * that spans it.
 */
static void bound(struct mprof_sym *s)
{
	uint64_t reach = 0;
	size_t i, j = 0;

	for (i = 0; i < s->n; i++) {
		struct sym_ent *e = &s->v[i];

		if (e->size) {
			e->end = e->addr + e->size;
		} else {
			if (j <= i)
				j = i + 1;
			while (j < s->n && s->v[j].addr == e->addr)
				j++;
			e->end = j < s->n && s->v[j].addr < e->sec_end ?
				 s->v[j].addr : e->sec_end;
		}
		if (e->end < e->addr)
			e->end = e->addr;
		if (e->end > reach)
			reach = e->end;
		e->reach = reach;
	}
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
		} else if (sh.sh_type == SHT_NOTE) {
			gnu_build_id(s, scn);
		} else if (nm && !strcmp(nm, ".text") &&
			   sh.sh_type == SHT_PROGBITS) {
			Elf_Data *d = elf_rawdata(scn, NULL);

			if (d && d->d_buf) {
				s->text_crc = wire_crc32(0, d->d_buf, d->d_size);
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
	bound(s);
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
	/* back to one that holds addr (sized first at one address) */
	for (; lo; lo--) {
		e = &s->v[lo - 1];
		if (e->reach <= addr)
			return NULL;
		while (lo > 1 && s->v[lo - 2].addr == e->addr &&
		       s->v[lo - 2].end > addr)
			e = &s->v[--lo - 1];
		if (e->end > addr) {
			*off = (uint32_t)(addr - e->addr);
			return e->name;
		}
	}
	return NULL;
}

uint32_t mprof_sym_text_crc(const struct mprof_sym *s, int *has_text)
{
	*has_text = s->has_text;
	return s->text_crc;
}

size_t mprof_sym_build_id(const struct mprof_sym *s, char *hex, size_t n)
{
	size_t i;

	if (n)
		hex[0] = 0;
	if (n < 2 * s->build_id_len + 1)
		return 0;
	for (i = 0; i < s->build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", s->build_id[i]);
	return s->build_id_len;
}

void mprof_sym_write_ids(FILE *f, const char *elf, const struct mprof_sym *s)
{
	char id[2 * MPROF_GNU_ID_MAX + 1];
	int has_text;
	uint32_t crc = mprof_sym_text_crc(s, &has_text);

	fprintf(f, "elf=%s\n", elf);
	if (has_text)
		fprintf(f, "elf_text_crc32=0x%08x\n", (unsigned int)crc);
	if (mprof_sym_build_id(s, id, sizeof(id)))
		fprintf(f, "elf_gnu_build_id=%s\n", id);
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
