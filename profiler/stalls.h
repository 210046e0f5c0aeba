/*
 * stalls.h - the stall categories 'pandia extrapolate' records for each
 * run (ESTIMA; docs/extrapolate.md, "Collecting the runs"):
 *
 *   - user categories, as the paper's plugin: a POSIX extended regex on
 *     the command's output (stdout and stderr) and a reducer (min, max,
 *     sum, avg) over the values of the lines that match in one run;
 *   - hardware backend stall events counted by perf (counters.h), the
 *     paper's events where this host's PMU is in the table, else the
 *     kernel's generic stalled-cycles-backend;
 *   - software stalls from the runner's per-thread accounting (lock,
 *     barrier and condition waits, run-queue wait, other blocked time).
 *
 * Units: every count is in cycles.  A value in seconds (a software
 * stall, or a user value written with a time unit: s, ms, us, ns) is
 * multiplied by the clock frequency of the machine measured on.
 *
 * Library code: nothing here prints or exits.
 */
#ifndef PANDIA_PROFILER_STALLS_H
#define PANDIA_PROFILER_STALLS_H

#include <stdbool.h>

#include "common/error.h"
#include "profiler/run.h"

/* ---- user categories: NAME=REGEX:REDUCER -------------------------- */

enum stall_reducer {
	STALL_MIN,
	STALL_MAX,
	STALL_SUM,
	STALL_AVG,
};

/* "min", "max", "sum", "avg" (static). */
const char *stall_reducer_name(enum stall_reducer r);

struct stall_user_regex;

struct stall_user {
	char *name;		/* the category (owned) */
	char *regex;		/* as written (owned) */
	enum stall_reducer reducer;
	struct stall_user_regex *rx;	/* compiled (owned) */
};

/*
 * Parse SPEC, "NAME=REGEX:REDUCER" (the reducer after the last ':', so
 * that the regex may hold colons), into *u (released with
 * stall_user_release()).  NAME: letters, digits, '_' and '-'.  The
 * value of a matching line is the regex's first parenthesised group
 * when it has one, else the number that follows the match (after
 * blanks, ':' or '=').  Returns 0, or -1 with err saying what is wrong
 * with SPEC.
 */
int stall_user_parse(const char *spec, struct stall_user *u,
		     struct pandia_error *err);
void stall_user_release(struct stall_user *u);

/*
 * The value LINE gives category u: true when the line matches and
 * holds a number there.  *value is the number, and *seconds says
 * whether a time unit followed it (s, ms, us or ns: *value is then in
 * seconds); a bare number or one followed by "cycles" is a count.
 */
bool stall_user_match(const struct stall_user *u, const char *line,
		      double *value, bool *seconds);

/* The values of one category in one run, reduced. */
struct stall_acc {
	int n;
	double sum, min, max;
};

void stall_acc_reset(struct stall_acc *a);
void stall_acc_add(struct stall_acc *a, double v);
/*
 * The reduced value into *v.  With no value, sum gives 0 and the
 * others fail (return false): their result is not defined.
 */
bool stall_acc_value(const struct stall_acc *a, enum stall_reducer r,
		     double *v);

/* ---- hardware categories ------------------------------------------ */

struct stall_hw_event {
	const char *category;	/* "rob_full" */
	const char *event;	/* libpfm4 name without the PMU:
				   "RESOURCE_STALLS:ROB" */
};

/*
 * The backend stall events for PMU (libpfm4's name of the core PMU:
 * "hsw", "amd64_fam10h_barcelona"; "perf" or one not in the table: the
 * generic perf::PERF_COUNT_HW_STALLED_CYCLES_BACKEND, category
 * "backend"), *n of them (static).  *generic says which.
 */
const struct stall_hw_event *stalls_hw_events(const char *pmu, int *n,
					      bool *generic);

/*
 * The libpfm4 name to count for event e on PMU: "hsw::RESOURCE_STALLS:
 * ROB", or e->event as it is when it names its PMU ("perf::...").
 * New string.
 */
char *stalls_hw_event_name(const char *pmu, const struct stall_hw_event *e);

/* ---- software categories ------------------------------------------ */

enum stall_sw {
	STALL_SW_LOCK,		/* waiting for a mutex or rwlock */
	STALL_SW_BARRIER,	/* waiting at a barrier */
	STALL_SW_COND,		/* waiting on a condition variable */
	STALL_SW_RUNQUEUE,	/* runnable, waiting for a PU */
	STALL_SW_BLOCKED,	/* blocked for any other reason (I/O,
				   sleep, futex not above) */
	STALL_SW_COUNT
};

/* "sw_lock", "sw_barrier", "sw_cond", "sw_runqueue", "sw_blocked". */
const char *stall_sw_name(enum stall_sw k);

/*
 * The software stall categories of run r, summed over its threads and
 * turned from seconds into cycles at HZ: out[k] for every k.  Returns
 * 0, or -1 with err saying why they are not known (the runner did not
 * account for the threads: a runner template, or an accounting that
 * is not there).
 */
int stalls_software(const struct run_result *r, double hz,
		    double out[STALL_SW_COUNT], struct pandia_error *err);

/* ---- the clock ---------------------------------------------------- */

/*
 * The nominal clock frequency of this host in Hz: cpufreq's
 * base_frequency, else cpuinfo_max_freq of PU 0, else the "cpu MHz"
 * of /proc/cpuinfo (the current clock of the first PU).  *source gets
 * a static string naming where it came from.  Returns 0 when none of
 * them can be read.
 */
double stalls_host_frequency(const char **source);

#endif
