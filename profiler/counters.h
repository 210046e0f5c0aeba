/*
 * counters.h - the counter backends behind 'pandia profile --counters':
 * the single-thread demand vector d of run 1 (section 4.1 of the Pandia
 * paper) from hardware counters, and the decision to fall back to the
 * probe backend when this machine cannot count.
 *
 * The profiler calls one function for run 1, after its timed runs:
 *
 *	struct counters_result cr;
 *	int rc;
 *
 *	counters_result_init(&cr);
 *	rc = counters_demands(mode, machine, &run1_opts, argv, "run1",
 *			      &cr, &err);
 *	if (rc == COUNTERS_MEASURED) {
 *		counters_result_apply(&cr, w, run1);	// demands, evidence
 *	} else if (rc == COUNTERS_UNAVAILABLE) {
 *		// only for --counters auto (or probe): nothing was run
 *		fprintf(stderr, "pandia: %s; using --counters probe\n",
 *			cr.why);
 *		... probe backend; w->counters = "probe",
 *		... w->counters_note = the same text ...
 *	} else {
 *		// -1: err says why; with --counters perf this is also the
 *		// "perf unavailable" message.  If cr.run.interrupted,
 *		// run_reraise(cr.run.interrupted).
 *	}
 *	counters_result_release(&cr);
 *
 * How perf counts the whole command: the events are opened on the
 * calling thread (pid 0, cpu -1), disabled, with inherit and
 * enable_on_exec.  run_execute() forks the command, which inherits
 * them disabled; its execve() enables them, and every thread and
 * process it then creates inherits them counting.  Stressors and the
 * runner's own work (forked, never exec'd) stay uncounted, and so does
 * pandia itself.  When the command's processes exit their counts are
 * folded into the events opened here, which are read after
 * run_execute() has returned (it reaps everything).  So no change to
 * the runner is needed, at the price of one extra run: the counted run
 * is o with one repetition and no warm-up.
 *
 * This relies on the runner starting stressors without exec (it forks
 * them) and the command with one execve() per run.
 *
 * The arithmetic is separate from the counting, so that recorded
 * counts can be replayed through it on a machine without a PMU:
 * counters_reading_load() into res.reading, then
 * counters_result_fill(), is exactly what the live path does after
 * reading its file descriptors.
 *
 * Library code: nothing here prints or exits.  Strings returned in
 * structs are owned by the struct and freed by its _release().
 */
#ifndef PANDIA_PROFILER_COUNTERS_H
#define PANDIA_PROFILER_COUNTERS_H

#include <stdbool.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"
#include "profiler/run.h"

/* ---- --counters auto|perf|probe ---------------------------------- */

enum counters_mode {
	COUNTERS_AUTO,		/* perf when it works, else probe */
	COUNTERS_PERF,		/* perf or fail with the reason */
	COUNTERS_PROBE,		/* co-run probes, no PMU needed */
};

/*
 * Parse "auto", "perf" or "probe".  Returns 0, or -1 with err
 * "unknown counter backend 'X' (expected auto, perf or probe)".
 */
int counters_mode_parse(const char *s, enum counters_mode *mode,
			struct pandia_error *err);
/* "auto", "perf", "probe" (static). */
const char *counters_mode_name(enum counters_mode mode);

/* ---- what is counted --------------------------------------------- */

/*
 * The quantities the demands are computed from.  Each is one or more
 * libpfm4 events summed (a PMU-specific choice first, a generic
 * PERF_COUNT_* fallback second); docs/counters.md has the table.
 */
enum counters_role {
	CR_INSTRUCTIONS,	/* instructions retired */
	CR_CYCLES,		/* core cycles, not halted */
	CR_TASK_CLOCK,		/* CPU time of every thread, ns (software) */
	CR_L1_ACCESSES,		/* loads and stores executed at the L1D */
	CR_L1_REFILLS,		/* lines into the L1D (from L2 or beyond) */
	CR_L2_MISSES,		/* lines into the L2 from L3 or beyond */
	CR_LLC_MISSES,		/* lines from DRAM (last level missed) */
	CR_COUNT
};

/* "instructions", "cycles", "task_clock", "l1d_accesses",
   "l1d_refills", "l2_misses", "llc_misses" (static) */
const char *counters_role_name(enum counters_role role);

/* Bytes assumed per L1D access: the access width is not counted. */
#define COUNTERS_L1_ACCESS_BYTES 8

/* ---- a reading: counts as read, or as recorded -------------------- */

struct counters_event {
	char *name;		/* as given to libpfm4, PMU-qualified:
				   "hsw::L1D:REPLACEMENT",
				   "perf::PERF_COUNT_HW_INSTRUCTIONS" */
	bool counted;		/* false: error says why */
	double value;		/* scaled by enabled/running */
	double enabled;		/* ns the event was enabled (summed over
				   the threads); 0 when not known */
	double running;		/* ns it was on a counter; 0: not known */
	char *error;		/* why not counted, or NULL */
};

struct counters_reading {
	char *pmu;		/* libpfm4 name of the core PMU the
				   events are for ("hsw",
				   "amd64_fam19h_zen3"; "perf": generic
				   events only) */
	char *cpu_model;	/* or NULL */
	char *note;		/* provenance of a recording, or NULL */
	double seconds;		/* wall time the counts cover, > 0 */
	double line_bytes;	/* cache line size, bytes */
	bool kernel;		/* kernel mode counted too */
	int n_events;
	struct counters_event *events;
};

void counters_reading_init(struct counters_reading *rd);
/* Release what rd owns and initialise it again.  NULL is a no-op. */
void counters_reading_release(struct counters_reading *rd);
/* Append one event (strings copied; error NULL when counted). */
void counters_reading_add(struct counters_reading *rd, const char *name,
			  bool counted, double value, double enabled,
			  double running, const char *error);

/*
 * A recording (schema "pandia-counters/1", docs/counters.md): the
 * reading as JSON.  load() fills rd (initialised by the caller) or
 * returns -1 with err naming FILE:LINE:COLUMN and the field.
 */
int counters_reading_load(const char *path, struct counters_reading *rd,
			  struct pandia_error *err);
int counters_reading_parse(const char *text, const char *source,
			   struct counters_reading *rd,
			   struct pandia_error *err);
/* New string, ends in a newline. */
char *counters_reading_to_string(const struct counters_reading *rd);
int counters_reading_save(const struct counters_reading *rd,
			  const char *path, struct pandia_error *err);

/*
 * The value of ROLE in rd: the first of the role's alternatives for
 * rd->pmu whose events were all counted, summed.  Returns true and
 * sets *value (and *caveat, static or NULL, and *events, a new string
 * "A + B" naming what was summed; both may be NULL).  Returns false
 * when no alternative was counted; *why (may be NULL) then gets a new
 * string naming the event that was unavailable and the reason.
 */
bool counters_role_value(const struct counters_reading *rd,
			 enum counters_role role, double *value,
			 const char **caveat, char **events, char **why);

/*
 * The arithmetic (section 4.1): rates over rd->seconds.
 *   demand[WR_INSTRUCTIONS] = instructions / s               (ops/s)
 *   demand[WR_L1]   = L1D accesses x COUNTERS_L1_ACCESS_BYTES / s
 *   demand[WR_L2]   = L1D refills  x line_bytes / s   (bytes from L2)
 *   demand[WR_L3]   = L2 misses    x line_bytes / s   (bytes from L3)
 *   demand[WR_DRAM] = LLC misses   x line_bytes / s   (bytes from DRAM)
 * Each of these five is listed; one whose counter is missing is not
 * known and its status names the unavailable event (never a guessed
 * number); a known one may carry a caveat in its status (an estimate,
 * a lower bound, scaled after multiplexing).  A level machine m (may
 * be NULL) does not have is listed as not measured, saying so.
 * WR_INTERCONNECT is not touched (counters do not give it).  SOURCE
 * (may be NULL) becomes each known demand's source.  demand[] entries
 * are released first; listed[] entries of the five are set.
 * Returns 0, or -1 with err when rd->seconds or line_bytes is not
 * positive.
 */
int counters_compute(const struct counters_reading *rd,
		     const struct pandia_machine *m, const char *source,
		     bool listed[WR_COUNT], struct wl_param demand[WR_COUNT],
		     struct pandia_error *err);

/* ---- can perf count here? ---------------------------------------- */

/* What decides whether perf works on this host (gathered, or made up
   by tests). */
struct counters_host {
	int sw_errno;		/* opening task-clock on self: 0 or errno */
	int hw_errno;		/* opening instructions, user mode */
	int hw_kernel_errno;	/* instructions, user and kernel mode */
	int paranoid;		/* perf_event_paranoid; -100: unreadable */
	bool cap_perfmon;	/* effective CAP_PERFMON */
	bool cap_sys_admin;	/* effective CAP_SYS_ADMIN */
	int seccomp;		/* "Seccomp:" of /proc/self/status; -1 */
	bool cpu_pmu;		/* a core PMU in /sys/bus/event_source */
};

/* Gather the facts on this host (opens and closes test events). */
void counters_host_probe(struct counters_host *h);

/*
 * Whether perf can count hardware events, from the facts.  When it
 * can, *kernel says whether kernel mode may be counted too and *why
 * is NULL.  When not, *why gets a new string saying why (no PMU,
 * perf_event_paranoid, capabilities, seccomp) and what to do, always
 * ending with the --counters probe alternative.
 */
bool counters_host_usable(const struct counters_host *h, bool *kernel,
			  char **why);

/* counters_host_probe() then counters_host_usable(). */
bool counters_perf_available(bool *kernel, char **why);

/*
 * Cut the profiler's alternative ("use --counters probe") off the end
 * of WHY, for a command that has no probe backend (explain,
 * extrapolate).
 */
void counters_drop_probe_advice(char *why);

/* ---- event encoding ---------------------------------------------- */

struct counters_encoding {
	enum counters_role role;
	char *event;		/* PMU-qualified name given to libpfm4 */
	char *fstr;		/* libpfm4's fully qualified string */
	unsigned type;		/* perf_event_attr.type */
	unsigned long long config, config1;
	bool exclude_kernel;
	char *error;		/* NULL: encoded; else pfm_strerror text */
};

/*
 * The libpfm4 name of this host's core PMU ("hsw",
 * "amd64_fam19h_zen3"), or "perf" when libpfm4 knows none (generic
 * events only).  Static string; NULL with err if libpfm4 cannot start.
 */
const char *counters_host_pmu(struct pandia_error *err);

/*
 * Encode, without opening anything, every event pandia would use on
 * PMU (NULL: this host's): all alternatives of every role, in order,
 * one entry per (role, event).  An event that does not encode has
 * error set; that is not a failure of the call.  A PMU that is not
 * this host's needs LIBPFM_ENCODE_INACTIVE=1 in the environment
 * before libpfm4 starts.  Returns 0 with a new array in *enc (free
 * with counters_encodings_free()), or -1 with err (libpfm4 would not
 * start, PMU unknown to libpfm4).
 */
int counters_encode(const char *pmu, bool kernel,
		    struct counters_encoding **enc, int *n,
		    struct pandia_error *err);
void counters_encodings_free(struct counters_encoding *enc, int n);

/*
 * The counting step alone: EVENTS (libpfm4 names, "perf::..." or
 * PMU-qualified) opened on the calling thread as described at the top,
 * one run of ARGV as o says with one repetition and no warm-up, and
 * every event read into rd (reset first; an event that would not
 * encode or open is in rd with its error).  r gets the run.  Nothing
 * is checked beforehand: on a host without a PMU the hardware events
 * come back with errors and software ones (PERF_COUNT_SW_*) still
 * count, which is how the mechanism is tested there.  Returns 0, or
 * -1 with err when libpfm4 will not start or the run failed.
 */
int counters_count(const char *const *events, int n_events, bool kernel,
		   const struct run_opts *o, char *const *argv,
		   struct counters_reading *rd, struct run_result *r,
		   struct pandia_error *err);

/* ---- the call the profiler makes ---------------------------------- */

#define COUNTERS_MEASURED	0
#define COUNTERS_UNAVAILABLE	1

struct counters_result {
	const char *backend;	/* "perf" when measured, else NULL */
	char *why;		/* UNAVAILABLE: why perf was not used and
				   what to do (for stderr and the JSON's
				   counters_note) */
	char *note;		/* MEASURED: how it was measured and its
				   caveats, for counters_note */
	double seconds;		/* wall time the counts cover */
	double cpu_use;		/* task-clock / seconds: CPUs busy on
				   average; NAN when not known */
	bool listed[WR_COUNT];
	struct wl_param demand[WR_COUNT];
	int n_counters;		/* evidence for wl_run: every counted
				   event by its libpfm4 name, scaled, and
				   "wall_seconds", the time they cover */
	char **counter_names;
	double *counter_values;
	struct counters_reading reading;	/* the raw counts */
	struct run_result run;	/* the counted run (failure fields set
				   when it failed) */
};

void counters_result_init(struct counters_result *res);
/* Release what res owns and initialise it again.  NULL is a no-op. */
void counters_result_release(struct counters_result *res);

/*
 * Run 1's demands, as MODE says:
 *  - COUNTERS_PROBE: returns COUNTERS_UNAVAILABLE at once, res->why
 *    saying that probe was asked for;
 *  - COUNTERS_AUTO: when perf cannot count here (no PMU, refused, or
 *    o->runner set: the command may run elsewhere), returns
 *    COUNTERS_UNAVAILABLE with res->why; nothing is run;
 *  - COUNTERS_PERF: the same cases return -1 with err holding the same
 *    text;
 *  - otherwise makes one counted run of ARGV as o says (o copied with
 *    repetitions 1 and no warm-up; its stressors, if any, are not
 *    counted), fills res->demand/listed as counters_compute() does with
 *    source SOURCE, the evidence, res->reading, res->note and
 *    res->cpu_use, and returns COUNTERS_MEASURED.
 * A failed run returns -1 with err, res->run holding how it ended
 * (res->run.interrupted: the caller should run_reraise()).  m (may be
 * NULL) is the machine the demands are for.  res must have been
 * initialised with counters_result_init().
 */
int counters_demands(enum counters_mode mode, const struct pandia_machine *m,
		     const struct run_opts *o, char *const *argv,
		     const char *source, struct counters_result *res,
		     struct pandia_error *err);

/*
 * What counters_demands() does once res->reading holds the counts:
 * counters_compute() into res->demand/listed, then res->seconds,
 * cpu_use, the evidence, note and backend ("perf").  Public so that a
 * recording loaded into res->reading goes through the same code.
 * Returns 0, or -1 with err as counters_compute().
 */
int counters_result_fill(struct counters_result *res,
			 const struct pandia_machine *m, const char *source,
			 struct pandia_error *err);

/*
 * Move a measured result into the workload: demands and listed flags
 * of the five resources counters_compute() sets, w->counters = "perf",
 * w->counters_note = res->note, and the evidence into run's
 * counter_names/counter_values (replacing what run had; run may be
 * NULL).  res keeps its reading and run; its moved fields are reset.
 */
void counters_result_apply(struct counters_result *res,
			   struct pandia_workload *w, struct wl_run *run);

#endif
