/*
 * elfdeps.c - DT_NEEDED from an ELF file's section headers, PT_INTERP
 * from its program headers.
 */
#include "common/elfdeps.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/elfstatic.h"
#include "common/util.h"


char *elf_which(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *e;

	if (!cmd || !*cmd)
		return NULL;
	if (strchr(cmd, '/'))
		return xstrdup(cmd);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		char *f;

		e = p + strcspn(p, ":");
		f = xasprintf("%.*s/%s", (int)(e - p), e == p ? "." : p, cmd);
		if (access(f, X_OK) == 0)
			return f;
		free(f);
		if (!*e)
			return NULL;
	}
}


/* One section header, either class. */
struct shdr {
	uint32_t type, link;
	uint64_t offset, size, entsize;
};

static bool get_shdr(int fd, bool is64, uint64_t shoff, uint16_t shentsize,
		     unsigned i, struct shdr *s)
{
	uint64_t off = shoff + (uint64_t)i * shentsize;

	if (is64) {
		Elf64_Shdr h;

		if (shentsize < sizeof(h) ||
		    !elf_read_at(fd, &h, sizeof(h), off))
			return false;
		*s = (struct shdr){ h.sh_type, h.sh_link, h.sh_offset,
				    h.sh_size, h.sh_entsize };
	} else {
		Elf32_Shdr h;

		if (shentsize < sizeof(h) ||
		    !elf_read_at(fd, &h, sizeof(h), off))
			return false;
		*s = (struct shdr){ h.sh_type, h.sh_link, h.sh_offset,
				    h.sh_size, h.sh_entsize };
	}
	return true;
}

int elf_needs(const char *path, const char *const *prefixes,
	      struct pandia_error *err)
{
	unsigned char ident[EI_NIDENT];
	uint64_t shoff;
	uint16_t shentsize, shnum;
	struct shdr dyn, str;
	bool is64;
	int fd, ret = -1;
	unsigned i;
	uint64_t k;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perr_errno(err, "cannot open '%s'", path);
	if (!elf_read_at(fd, ident, sizeof(ident), 0) ||
	    memcmp(ident, ELFMAG, SELFMAG) ||
	    (ident[EI_CLASS] != ELFCLASS64 && ident[EI_CLASS] != ELFCLASS32) ||
	    ident[EI_DATA] != ELF_HOST_DATA) {
		perr_set(err, "'%s' is not an ELF file of this machine", path);
		goto out;
	}
	is64 = ident[EI_CLASS] == ELFCLASS64;
	if (is64) {
		Elf64_Ehdr h;

		if (!elf_read_at(fd, &h, sizeof(h), 0))
			goto bad;
		shoff = h.e_shoff;
		shentsize = h.e_shentsize;
		shnum = h.e_shnum;
	} else {
		Elf32_Ehdr h;

		if (!elf_read_at(fd, &h, sizeof(h), 0))
			goto bad;
		shoff = h.e_shoff;
		shentsize = h.e_shentsize;
		shnum = h.e_shnum;
	}
	for (i = 0; i < shnum; i++) {
		if (!get_shdr(fd, is64, shoff, shentsize, i, &dyn))
			goto bad;
		if (dyn.type == SHT_DYNAMIC)
			break;
	}
	ret = 0;
	if (i == shnum)
		goto out;	/* static: needs nothing */
	if (dyn.link >= shnum || !get_shdr(fd, is64, shoff, shentsize,
					    dyn.link, &str))
		goto bad;
	for (k = 0; k + (is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn)) <=
	     dyn.size; k += is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn)) {
		uint64_t tag, val;
		char name[256];
		const char *const *p;

		if (is64) {
			Elf64_Dyn d;

			if (!elf_read_at(fd, &d, sizeof(d), dyn.offset + k))
				goto bad;
			tag = (uint64_t)d.d_tag;
			val = d.d_un.d_val;
		} else {
			Elf32_Dyn d;

			if (!elf_read_at(fd, &d, sizeof(d), dyn.offset + k))
				goto bad;
			tag = (uint64_t)d.d_tag;
			val = d.d_un.d_val;
		}
		if (tag == DT_NULL)
			break;
		if (tag != DT_NEEDED || val >= str.size)
			continue;
		memset(name, 0, sizeof(name));
		if (pread(fd, name, sizeof(name) - 1,
			  (off_t)(str.offset + val)) <= 0)
			goto bad;
		for (p = prefixes; *p; p++)
			if (!strncmp(name, *p, strlen(*p))) {
				ret = 1;
				goto out;
			}
	}
	goto out;
bad:
	ret = -1;
	perr_set(err, "'%s': a truncated or malformed ELF file", path);
out:
	close(fd);
	return ret;
}

bool elf_is_openmp(const char *cmd)
{
	static const char *const omp[] = {
		"libgomp.", "libomp.", "libiomp5.", NULL
	};
	char *path = elf_which(cmd);
	bool yes = path && elf_needs(path, omp, NULL) == 1;

	free(path);
	return yes;
}

bool elf_is_static(const char *cmd)
{
	char *path = elf_which(cmd);
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	bool st = fd >= 0 && elf_fd_is_static(fd);

	if (fd >= 0)
		close(fd);
	free(path);
	return st;
}
