/*
 * profile.h - 'pandia profile': the runs a model needs, made pinned
 * through the runner, the demands from counters or probes, and the
 * workload description they give.  For the Pandia model the runs are
 * the six of its section 4, whose placements and parameters come from
 * the model's plan and fit (predictor/models.h); this file only runs
 * them.
 *
 * Library code: it never prints; progress goes to a callback, warnings
 * into the result, failures into struct pandia_error.
 */
#ifndef PANDIA_PROFILER_PROFILE_H
#define PANDIA_PROFILER_PROFILE_H

#include <stdbool.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "profiler/counters.h"
#include "profiler/run.h"

/* ---- profiling a command ------------------------------------------ */

struct profile_progress {
	const char *id;		/* "run2", "probe-dram" */
	const char *what;	/* what the run is for */
	int run;		/* 1..6, or 0 for a probe run or a run of
				   another model (id then says which) */
	bool probe;		/* a probe run */
	int numbered;		/* the model's numbered runs (RUN of them),
				   or 0 */
	int rep;		/* 0: warm-up, else 1..reps */
	bool again;		/* REP made again: the last try was disturbed */
	int reps;
	double elapsed;		/* seconds since profiling began */
	double left;		/* estimated seconds left; < 0: unknown */
};

struct profile_opts {
	const struct pandia_machine *m;	/* borrowed */
	const char *machine_file;	/* recorded in the description */
	char *const *argv;	/* NULL-terminated; may be empty with a
				   runner template */
	int repetitions;	/* >= 1, default 3 */
	bool fixed_reps;	/* every run gets exactly REPETITIONS (-r
				   given); else 2, and more up to it only
				   where the spread needs them */
	bool warmup;		/* default true */
	const char *runner;	/* command template, or NULL */
	const char *time_from;	/* regex, or NULL: wall time */
	double timeout;		/* per run, seconds; 0: none */
	bool busy_idle;		/* core-local loops on idle cores */
	bool set_nice;		/* run everything at niceness nice */
	int nice;
	const char *shim_path;	/* libpandia-pin.so; NULL: the runner's
				   default */
	enum counters_mode counters;
	enum fit_mode solve;
	/* the memory policy every run is made under (--membind ...);
	   NULL: the default */
	const struct run_mempolicy *mem;
	/*
	 * --memory: the policy recorded, instead of the one the pages of
	 * run 3 show (docs/profiling.md, "Where the memory is").
	 */
	bool has_memory;
	struct pandia_mempolicy memory;
	const struct model_def *model;	/* NULL: the default (pandia) */
	/*
	 * The input size: --size, the one size of every run (recorded
	 * as the description's "size"); NAN: none.  --sizes, --threads
	 * and --degree go to a model of time against size (struct
	 * model_env).
	 */
	double size;
	const double *sizes;
	int n_sizes;
	const int *threads;
	int n_threads;
	int degree;		/* -1: the model's default */
	/*
	 * The budget, in units of t1 (default 12; 0: no limit): repetitions
	 * beyond each run's first two and disturbed repetitions made
	 * again are made only while the profile's wall time stays within
	 * BUDGET x t1.  QUICK: one repetition of each run, and the DRAM
	 * probe only.  KEEP_UNRELIABLE: a parameter too uncertain to
	 * rank with is written, marked ("unreliable"), instead of
	 * failing the profile.
	 */
	double budget;
	bool quick;
	bool keep_unreliable;
	/* NO_CHECK: no check runs after the fit (the model's check_runs) */
	bool no_check;
	/* --serial: where the Pandia model's serial work runs, left to
	   run 8 or given (model_env's serial) */
	enum serial_choice serial;
	void (*progress)(const struct profile_progress *pp, void *arg);
	void *progress_arg;
};

/* Defaults: 3 repetitions, warm-up, auto counters, fit, no size. */
void profile_opts_init(struct profile_opts *o);

struct profile_result {
	struct pandia_workload *w;	/* the description (owned) */
	int n_warnings;
	char **warnings;		/* owned */
	char *backend_note;		/* which backend and why (owned) */
	double seconds;			/* profiling took, wall */
	double t1;			/* run 1's median */
	/* on failure */
	char *failed_stderr;	/* the command's stderr, last lines */
	int interrupted;		/* signal that stopped it, or 0 */
};

void profile_result_init(struct profile_result *r);
void profile_result_release(struct profile_result *r);

/*
 * Profile o->argv on machine o->m: run 1, the probe runs of the probe
 * backend, runs 2 to 6 (their repetitions interleaved, so that a
 * burst of other activity does not fall on one run), then solve.  On
 * success r->w holds the description.  On failure returns -1 with err
 * naming the run, r->failed_stderr with the command's stderr and no
 * description; r->interrupted when a signal stopped it (the caller
 * should then run_reraise() it).
 */
int profile_workload(const struct profile_opts *o, struct profile_result *r,
		     struct pandia_error *err);

#endif
