// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * selfinfo.c - what the device library learns about the program it runs
 * in: the main program's load bias (so addresses sent are link-time
 * addresses, which the host finds in the ELF's symbol table) and the
 * CRC32 of its .text as read from /proc/self/exe (the build id the
 * host checks the ELF against).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev_internal.h"
#include "wire/crc.h"

static NO_INSTR int first_object(struct dl_phdr_info *info, size_t size,
				 void *data)
{
	(void)size;
	*(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
	return 1;	/* the first object is the main program */
}

NO_INSTR uintptr_t mprofdev__bias(void)
{
	uintptr_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	return bias;
}

NO_INSTR uint32_t mprofdev_addr(const void *fn)
{
	return (uint32_t)((uintptr_t)fn - mprofdev__bias());
}

static NO_INSTR int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* offset and size of ".text" in an ELF64 file */
static NO_INSTR int find_text(int fd, uint64_t *off, uint64_t *size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strsh;
	char name[8];
	unsigned int i;

	if (read_at(fd, &eh, sizeof(eh), 0) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
	    read_at(fd, &strsh, sizeof(strsh),
		    eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(sh)))
		return -1;
	for (i = 0; i < eh.e_shnum; i++) {
		if (read_at(fd, &sh, sizeof(sh), eh.e_shoff + (uint64_t)i * sizeof(sh)))
			return -1;
		if (sh.sh_type != SHT_PROGBITS ||
		    read_at(fd, name, sizeof(name), strsh.sh_offset + sh.sh_name))
			continue;
		if (!memcmp(name, ".text", 6)) {
			*off = sh.sh_offset;
			*size = sh.sh_size;
			return 0;
		}
	}
	return -1;
}

NO_INSTR uint32_t mprofdev__text_crc(void)
{
	uint64_t off, size, done = 0;
	uint32_t crc = 0;
	uint8_t buf[8192];
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (find_text(fd, &off, &size)) {
		close(fd);
		return 0;
	}
	while (done < size) {
		size_t n = size - done < sizeof(buf) ? (size_t)(size - done) :
			   sizeof(buf);

		if (read_at(fd, buf, n, off + done)) {
			crc = 0;
			break;
		}
		crc = wire_crc32(crc, buf, n);
		done += n;
	}
	close(fd);
	return crc;
}
