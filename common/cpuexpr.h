/*
 * cpuexpr.h - CPU expressions as likwid-pin, hwloc and taskset users
 * write them, turned into OS PU lists.
 *
 * Accepted (several joined with '@' are concatenated):
 *   0,2-5,2          OS PU numbers and ranges, in order, repeats kept
 *   0x3              a hex mask (bit i is OS PU i), ascending
 *   S0:0-3           likwid-pin domains: N (the node), S# (socket),
 *   N:0-7            M# (NUMA node), C# (last-level cache), D# (die,
 *   M0:  C0:         here a socket); the list after ':' counts the
 *                    domain's PUs with physical cores first (the
 *                    first PU of every core, then the second ...);
 *                    an empty list is the whole domain
 *   E:S0:4:1:2       likwid-pin expression E:DOMAIN:COUNT[:CHUNK:STRIDE]
 *                    over the domain's PUs with a core's PUs adjacent:
 *                    COUNT PUs, CHUNK at a time, chunks STRIDE apart
 *   S:scatter        every PU, dealt round robin over the domains of
 *                    the kind (physical cores first in each)
 *   core:0-3         hwloc locations: TYPE:INDEXES[.TYPE:INDEXES]...,
 *   socket:1.pu:0    TYPE pu, core, socket (package), numa (node), l1,
 *                    l2, l3 or machine; INDEXES logical (hwloc's
 *                    order), a list, a range or 'all'; an inner level
 *                    counts within the outer object
 * Logical indexes are only ever input: the result is OS numbers.
 */
#ifndef PANDIA_CPUEXPR_H
#define PANDIA_CPUEXPR_H

#include <stdbool.h>

#include "common/error.h"
#include "common/machine.h"

/* Whether EXPR needs a machine description (a domain or location). */
bool cpuexpr_needs_machine(const char *expr);

/*
 * Parse EXPR for machine M into a new array *out of *n OS PU numbers
 * (caller frees).  M may be NULL when EXPR is a plain list or mask
 * (cpuexpr_needs_machine() false).  Order and repeats are kept.
 * Returns 0, or -1 with err naming EXPR, what was wrong and the
 * accepted forms.
 */
int cpuexpr_parse(const struct pandia_machine *m, const char *expr,
		  int **out, int *n, struct pandia_error *err);

#endif
