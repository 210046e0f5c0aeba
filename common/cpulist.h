/*
 * cpulist.h - PU lists as users write them: "0,1,1" or "0-3,8".
 *
 * A placement is an ordered list of OS PU indexes, one per software
 * thread, in thread-creation order; a PU may repeat (time sharing).
 */
#ifndef PANDIA_CPULIST_H
#define PANDIA_CPULIST_H

#include "common/error.h"

/* What a bad list's error ends with: the forms that are accepted. */
#define CPULIST_FORMS "accepted: OS PU numbers and ranges (0,2-5,2), " \
	"hex masks (0x3), likwid-pin domains and expressions (S0:0-3, " \
	"N:0-7, M0:, C0:, E:S0:4:1:2, S:scatter, joined with @) and " \
	"hwloc locations (core:0-3, socket:1.pu:0); see 'pandia cpus " \
	"--help'"

/*
 * Parse LIST (comma-separated OS indexes, ranges "a-b" and hex masks
 * "0x3" allowed) into a new array *out of *n entries (caller frees).
 * Order and repeats are kept; a mask gives its PUs in ascending order.
 * An empty list, a negative or malformed number is an error naming it
 * (cpuexpr_parse() adds the accepted forms for users).  The forms that need a machine (domains,
 * locations) are cpuexpr_parse()'s (common/cpuexpr.h).  Returns 0 or
 * -1.
 */
int cpulist_parse(const char *list, int **out, int *n,
		  struct pandia_error *err);

/* "a,b,c" in the given order, repeats kept.  New string. */
char *cpulist_format(const int *pus, int n);

/*
 * A placement as 'pandia run --cpus' takes it back: thread order and
 * repeats kept, ascending runs of three or more written "a-b"
 * ("0-3,8,8").  New string.
 */
char *cpulist_format_compact(const int *os, int n);

/*
 * The set of PUs as taskset and numactl take it: sorted, each once,
 * runs of three or more written "a-b".  New string.
 */
char *cpuset_format(const int *pus, int n);

#endif
