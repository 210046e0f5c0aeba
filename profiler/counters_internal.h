/*
 * counters_internal.h - what the files of the counter backend share
 * among themselves (profiler/counters*.c) and callers do not see: the
 * per-PMU event tables (counters_events.c), the lookup of an event in
 * a reading (counters.c) and libpfm4's start and encoding
 * (counters_pfm.c).  The public API is profiler/counters.h.
 */
#ifndef PANDIA_PROFILER_COUNTERS_INTERNAL_H
#define PANDIA_PROFILER_COUNTERS_INTERNAL_H

#include <stdbool.h>

#include "common/error.h"
#include "profiler/counters.h"

#define COUNTERS_DEFAULT_LINE_BYTES	64
#define COUNTERS_MAX_PARTS	3	/* events summed for one role */

struct perf_event_attr;

/* One way to count a role: events summed, and what it leaves out. */
struct counters_alt {
	const char *parts[COUNTERS_MAX_PARTS];	/* without the PMU
						   prefix */
	const char *caveat;			/* or NULL */
};

/*
 * The alternatives for ROLE on PMU, best first: up to two, with their
 * PMU prefixes ("hsw", "perf").  Returns how many.  The tables are
 * static.
 */
int counters_alternatives(const char *pmu, enum counters_role role,
			  const struct counters_alt *alt[2],
			  const char *prefix[2]);
/* "PREFIX::PART", a new string. */
char *counters_qualified(const char *prefix, const char *part);

/* The event called NAME in rd (borrowed), or NULL. */
const struct counters_event *counters_find_event(
	const struct counters_reading *rd, const char *name);

/* Start libpfm4 (once; later calls return the first result). */
int counters_pfm_start(struct pandia_error *err);

/*
 * Encode one event for perf_event_open (user mode, and kernel mode
 * when KERNEL).  Returns 0, or a libpfm4 error code (pfm_strerror()).
 * *fstr (if fstr is not NULL) gets libpfm4's string, to free().
 */
int counters_encode_one(const char *name, bool kernel,
			struct perf_event_attr *attr, char **fstr);

#endif
