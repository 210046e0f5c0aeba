/*
 * elfstatic.h - whether an ELF file open on a descriptor is statically
 * linked, read with pread alone: no allocation, no lock, so that the
 * pinning library can ask it in a vfork's child before an exec
 * (profiler/shim/exec.c) as common/elfdeps.c asks it of a command.
 * Header-only: the library is built without libpandia.
 */
#ifndef PANDIA_COMMON_ELFSTATIC_H
#define PANDIA_COMMON_ELFSTATIC_H

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_HOST_DATA ELFDATA2LSB
#else
#define ELF_HOST_DATA ELFDATA2MSB
#endif

static inline bool elf_read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

/*
 * The program headers' place in the ELF file on FD: false when it is
 * not an ELF file of this machine or they cannot be read as entries of
 * at least a type word and at most an Elf64_Phdr.
 */
static inline bool elf_phdrs(int fd, uint64_t *phoff, uint16_t *phentsize,
			     uint16_t *phnum)
{
	unsigned char ident[EI_NIDENT];

	if (!elf_read_at(fd, ident, sizeof(ident), 0) ||
	    memcmp(ident, ELFMAG, SELFMAG) || ident[EI_DATA] != ELF_HOST_DATA)
		return false;
	if (ident[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr h;

		if (!elf_read_at(fd, &h, sizeof(h), 0))
			return false;
		*phoff = h.e_phoff;
		*phentsize = h.e_phentsize;
		*phnum = h.e_phnum;
	} else {
		Elf32_Ehdr h;

		if (!elf_read_at(fd, &h, sizeof(h), 0))
			return false;
		*phoff = h.e_phoff;
		*phentsize = h.e_phentsize;
		*phnum = h.e_phnum;
	}
	return *phentsize >= sizeof(uint32_t) &&
	       *phentsize <= sizeof(Elf64_Phdr) && *phnum;
}

/*
 * Whether the file on FD is a statically linked ELF executable of this
 * machine's byte order: no PT_INTERP among its program headers, so the
 * dynamic loader never runs and LD_PRELOAD cannot act.  False when
 * that cannot be told.
 */
static inline bool elf_fd_is_static(int fd)
{
	unsigned char ph[sizeof(Elf64_Phdr)];
	uint16_t phentsize, phnum, i;
	uint64_t phoff;
	uint32_t type;

	if (!elf_phdrs(fd, &phoff, &phentsize, &phnum))
		return false;
	for (i = 0; i < phnum; i++) {
		if (!elf_read_at(fd, ph, phentsize,
				 phoff + (uint64_t)i * phentsize))
			return false;
		memcpy(&type, ph, sizeof(type));
		if (type == PT_INTERP)
			return false;
	}
	return true;
}

#endif
