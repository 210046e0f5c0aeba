/*
 * elfdeps.h - which shared libraries a program needs, read from its
 * ELF dynamic section, and whether it needs the dynamic loader at all
 * (nothing is run).
 */
#ifndef PANDIA_ELFDEPS_H
#define PANDIA_ELFDEPS_H

#include <stdbool.h>

#include "common/error.h"

/*
 * The file a command word runs: CMD itself when it holds a '/', else
 * the first executable CMD on $PATH.  New string, or NULL.
 */
char *elf_which(const char *cmd);

/*
 * Whether the ELF file PATH lists a DT_NEEDED library whose name
 * starts with one of PREFIXES (NULL-terminated, such as "libgomp.").
 * Returns 1 or 0, or -1 with err when PATH is not a readable ELF
 * file of this machine's byte order (a script, say).
 */
int elf_needs(const char *path, const char *const *prefixes,
	      struct pandia_error *err);

/*
 * Whether command word CMD is an OpenMP program: its ELF needs
 * libgomp, libomp or libiomp5.  False when that cannot be told.
 */
bool elf_is_openmp(const char *cmd);

/*
 * Whether command word CMD (found as elf_which() finds it) is a
 * statically linked ELF executable of this machine's byte order: no
 * PT_INTERP among its program headers, so the dynamic loader never
 * runs and LD_PRELOAD cannot act.  False when that cannot be told.
 */
bool elf_is_static(const char *cmd);

#endif
