/*
 * cpulist.h - PU lists as users write them: "0,1,1" or "0-3,8".
 *
 * A placement is an ordered list of OS PU indexes, one per software
 * thread, in thread-creation order; a PU may repeat (time sharing).
 */
#ifndef PANDIA_CPULIST_H
#define PANDIA_CPULIST_H

#include "common/error.h"

/*
 * Parse LIST (comma-separated OS indexes, ranges "a-b" allowed) into
 * a new array *out of *n entries (caller frees).  Order and repeats
 * are kept.  An empty list, a negative or malformed number is an
 * error naming it.  Returns 0 or -1.
 */
int cpulist_parse(const char *list, int **out, int *n,
		  struct pandia_error *err);

/* "a,b,c" in the given order, repeats kept.  New string. */
char *cpulist_format(const int *pus, int n);

/*
 * The set of PUs as taskset and numactl take it: sorted, each once,
 * runs of three or more written "a-b".  New string.
 */
char *cpuset_format(const int *pus, int n);

#endif
