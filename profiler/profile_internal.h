/*
 * profile_internal.h - what the files of the profiler share among
 * themselves (profiler/profile*.c) and callers do not see: a run as it
 * is made (struct prun), the profile in progress (struct prof) and the
 * steps the files hand each other.  The public API is
 * profiler/profile.h.
 */
#ifndef PANDIA_PROFILER_PROFILE_INTERNAL_H
#define PANDIA_PROFILER_PROFILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "profiler/probe.h"
#include "profiler/profile.h"
#include "profiler/run.h"

/* One run as it is made: placement, stressors, what it measured. */
struct prun {
	char *id;
	char *purpose;
	int run;		/* 1..6; 0: a probe run */
	int level;		/* probe runs: enum pandia_level */
	int n_cpus;
	int *cpus;		/* OS indexes */
	double size;		/* {size}; NAN: none */
	int n_stress;
	char *spec[2];		/* [0] co-runner or probe, [1] loops */
	struct run_stressor stress[2];
	bool probe;		/* spec[0] is a bandwidth probe */
	bool chosen;		/* probe runs: its estimate is the level's */
	struct probe_estimate est;	/* probe runs: its own estimate */
	bool count_cpu;		/* measure the command's CPU use */
	bool warmup_only;	/* the profile's warm-up: not timed */
	bool optional;		/* a check run: only within the budget */
	double expect;		/* its predicted seconds; 0: not known */
	int n_times;
	double *times;
	double *rates;		/* probe runs: probes' total, per rep */
	double *alone;		/* and alone before the command */
	double *after;		/* and alone after it; NAN: not known */
	int calls;
	double wall;		/* seconds spent in its calls */
	double cpu, cpu_wall;	/* CPU use over its calls */
	double cpu_timed;	/* their times summed, warm-ups too */
	const char *cpu_method;
	int threads_created;	/* shim's count in the last call; -1 */
	int processes;
	int unpinned;		/* processes without the library in it */
	int unpinned_narrow;	/* their threads on less than the set */
	char unpinned_name[64];	/* the first one's name */
	/* the accounting of the last call (profiler/run.h) */
	char *helpers;		/* found by the first call, given to the
				   others: no run made only to find them */
	int threads;		/* threads seen */
	int most_workers;	/* worker threads alive at once */
	double busiest[2];	/* CPU time of the two busiest threads */
	bool warmed;
	int redone;		/* disturbed repetitions made again */
	bool again;		/* the next call makes a disturbed one again */
	int disturbed;		/* disturbed repetitions kept */
	double foreign;		/* most others took of a kept one */
	char *numa_maps;	/* where its pages were (run 3, check runs), or NULL */
	struct probe_disturbance worst;	/* of any repetition, kept or not */
};

struct prof {
	const struct profile_opts *o;
	struct profile_result *res;
	struct pandia_error *err;
	const struct pandia_machine *m;
	double start;
	int n_runs, cap;
	struct prun *runs;	/* grown by prof_new_run(): index, never
				   keep a pointer across it */
	int total;		/* runs to make in all, for progress */
	int numbered;		/* the model's numbered runs, or 0 */
	double alone_secs;	/* probes alone before their co-run */
	bool warmed;		/* the profile's one warm-up was made */
	char *helpers;		/* helper threads the first run found */
	int helpers_n;		/* in a run of that many threads */
	bool warm_helpers;	/* found by the warm-up: not yet checked
				   against the run that needs them */
	double budget;		/* seconds of wall time; 0: none */
	/* of it, held back for the model's last run (the drift: run 1
	   again) until the check stage makes it; 0: none */
	double reserve;
	int min_reps;
};

/* ---- profile.c ---------------------------------------------------- */

/* Add a warning to r (formatted; dropped if out of memory). */
void prof_warn(struct profile_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- profile_run.c ------------------------------------------------ */

void prof_run_release(struct prun *R);
/* Whether another call of R fits in the profile's budget. */
bool prof_budget_left(const struct prof *P, const struct prun *R);
/*
 * Whether R's second repetition waits on the budget: runs 4 on (l, b
 * and the forms) and the check runs, unless -r fixes the repetitions.
 */
bool prof_second_waits(const struct prof *P, const struct prun *R);
/* The OS indexes of PUS (m->pus indexes) as a CPU list, a new string. */
char *prof_os_list(const struct pandia_machine *m, const int *pus, int n);
/*
 * A new run called ID ("runN" ids are the model's numbered runs): PUS
 * (m->pus indexes) for the command, CORUN PUs for the co-runner or
 * probe of KIND ("cpu", "bw:dram"), and with --busy-idle a core-local
 * loop on the first PU of every core left idle.  PURPOSE is taken.
 * The pointer is valid until the next prof_new_run().
 */
struct prun *prof_new_run(struct prof *P, const char *id,
			  const int *pus, int n, const int *corun,
			  int n_corun, const char *kind, char *purpose);
/* One thread on each listed PU and nothing beside. */
bool prof_runs_alone(const struct prun *R);
/* One measured repetition of R.  0 or -1. */
int prof_call_run(struct prof *P, struct prun *R);
/* A probe run's repetition, made again while disturbed.  0 or -1. */
int prof_make_run(struct prof *P, struct prun *R);
/* The profile's one warm-up where the model places it.  0 or -1. */
int prof_warm_up(struct prof *P, const struct model_def *model,
		 const struct model_env *env);

/* ---- profile_progress.c ------------------------------------------- */

/* Tell the caller's callback: R's repetition REP (0: warm-up). */
void prof_progress(struct prof *P, struct prun *R, int rep);

/* ---- profile_demands.c -------------------------------------------- */

/* The number of probe runs run 1's PU (PU0) allows, for the total. */
int prof_count_probe_runs(const struct prof *P, int pu0);
/*
 * The demands beside run 1 (on PU0) into w: perf's counted run (its
 * evidence into EV1) or the probe runs.  0 or -1 with P->err.
 */
int prof_demands(struct prof *P, int pu0, struct pandia_workload *w,
		 struct wl_run *ev1);
/* A DRAM demand the probes saw, scaled to where the pages are. */
void prof_scale_probed_dram(struct prof *P, struct pandia_workload *w);

/* ---- profile_describe.c ------------------------------------------- */

/* The command, machine, date and version of the description. */
void prof_identity(struct prof *P, struct pandia_workload *w);
/* Record every run made so far in w->runs (what the model is told). */
void prof_sync_runs(struct prof *P, struct pandia_workload *w);
/* The memory policy of the description. */
void prof_set_memory(struct prof *P, struct pandia_workload *w);
/*
 * Whether a check run uneven over the sockets (numa_maps read) found
 * its first-touched pages evenly over the nodes in use rather than in
 * proportion to each socket's threads: the evidence as a new JSON
 * object when even, else NULL (profile_pages.c).
 */
json_t *prof_even_pages(const struct prof *P);

/* ---- profile_checks.c --------------------------------------------- */

/* Warn when run 2 shows the command ignored the thread count. */
void prof_check_threads(struct prof *P, const struct prun *R1,
			const struct prun *R2);
/* Warn of runs disturbed or spread widely. */
void prof_check_spread(struct prof *P);
/*
 * A parameter the model checks (its fit_checks) too uncertain to rank
 * with.  0, or -1 with err.
 */
int prof_unreliable(struct prof *P, const struct model_def *model,
		    const struct model_env *env,
		    const struct pandia_workload *w,
		    struct pandia_error *err);

#endif
