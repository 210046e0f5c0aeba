/*
 * profile.h - the six profiling runs of the Pandia paper (section 4)
 * and the workload description they give: 'pandia profile'.
 *
 *   run 1  one thread                              t1, demands d
 *   run 2  n threads, one per core, one socket     p
 *   run 3  the same n split over two sockets       o_s
 *   run 4  run 2 + a CPU-bound co-runner beside    } l
 *   run 5  every thread, then beside one thread    }
 *   run 6  n threads packed two to a core          b
 *
 * Every parameter is solved so that the partial model built so far,
 * computed by the predictor's own code (predictor/model.h), reproduces
 * the run that measures it: u_x = r_x / k_x with k_x the partial
 * model's time for run x relative to t1.  The closed forms of sections
 * 4.2 to 4.5 are computed as well, from the same k_x and f_x, and
 * recorded beside the fitted values (docs/profiling.md says where and
 * why the two differ).
 *
 * Machines that cannot make a run: one socket (no run 3: o_s is not
 * measured), no SMT (the co-runner of runs 4 and 5 time-shares the
 * thread's PU; run 6 packs two threads on each PU).
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
#include "predictor/model.h"
#include "predictor/space.h"
#include "profiler/counters.h"

enum profile_run { PR1, PR2, PR3, PR4, PR5, PR6, PROFILE_RUNS };

/* How each parameter is solved from its run. */
enum profile_solve {
	PROFILE_SOLVE_FIT,	/* the partial model reproduces the run */
	PROFILE_SOLVE_PAPER,	/* the closed forms of sections 4.2-4.5 */
};

/* ---- the placements ---------------------------------------------- */

/*
 * The placements of the six runs on machine m.  PU lists are m->pus
 * indexes, one per thread; beside[i] marks the threads of runs 4 and 5
 * that get a co-runner, corun the PUs those co-runners run on.
 */
struct profile_plan {
	const struct pandia_machine *m;	/* borrowed */
	struct space *sp;		/* owned */
	bool smt;			/* socket 0's cores have 2+ PUs */
	int n;				/* threads of runs 2 to 6 */
	char *n_note;			/* why n, or NULL */
	bool made[PROFILE_RUNS];
	char *why_not[PROFILE_RUNS];	/* when !made */
	int n_pus[PROFILE_RUNS];
	int *pus[PROFILE_RUNS];
	bool *beside[PROFILE_RUNS];	/* runs 4, 5; else NULL */
	int n_corun[PROFILE_RUNS];
	int *corun[PROFILE_RUNS];	/* m->pus indexes */
};

/*
 * Plan the runs on machine m for a workload of single-thread time and
 * demands BASE (base->p etc. unused): run 2's thread count is the
 * largest even count of cores on socket 0 for which the partial model
 * (steps 1 and 2 with p = 1) oversubscribes nothing.  Returns 0, or -1
 * with err when the machine has fewer than two cores on socket 0.
 * Release with profile_plan_release().
 */
int profile_plan_make(struct profile_plan *pl, const struct pandia_machine *m,
		      const struct model_params *base,
		      struct pandia_error *err);
void profile_plan_release(struct profile_plan *pl);

/* ---- solving ----------------------------------------------------- */

/* What a step found for one run (relative times, section 4). */
struct profile_step {
	double r;		/* t_x / t1 */
	double k;		/* partial model's t_x / t1 before the step */
	double u;		/* r / k */
	double f;		/* partial model's mean utilisation */
};

struct profile_solution {
	double p, o_s, l, b;
	bool have_o_s, have_l, have_b;
	double corun;		/* fitted co-runner factor (runs 4, 5) */
	/* the closed forms of sections 4.2-4.5; NAN when not computed */
	double paper_p, paper_o_s, paper_l, paper_b;
	struct profile_step step[PROFILE_RUNS];
	/* caveats or why not measured (owned; NULL when none) */
	char *p_status, *o_s_status, *l_status, *b_status;
};

void profile_solution_release(struct profile_solution *s);

/*
 * Solve p, o_s, l and b from the median times T[PR1..PR6] (seconds;
 * runs not made are ignored) of plan pl, with BASE giving t1 (ignored:
 * T[PR1] is used) and the demands.  Always fills *s.
 */
void profile_solve(const struct profile_plan *pl,
		   const struct model_params *base, const double *t,
		   enum profile_solve mode, struct profile_solution *s);

/*
 * Uncertainties of p, o_s, l, b (out[0..3]) from the repetitions'
 * spread: each run's median is moved by DELTA[x] (half the range of
 * its repetitions) up and down, the parameters solved again, and the
 * largest change of each summed in quadrature over the runs.  -1 when
 * no run had two repetitions.
 */
void profile_uncertainty(const struct profile_plan *pl,
			 const struct model_params *base, const double *t,
			 const double *delta, enum profile_solve mode,
			 double out[4]);

/*
 * The partial model's time for run X of plan pl with parameters PRM
 * and, for runs 4 and 5, co-runners leaving 1/CORUN of their PU
 * (predictor/partial.h).  *f0 and *f (may be NULL) get the mean
 * utilisations.  This is also what the simulated workload of the
 * tests prints.
 */
double profile_model_time(const struct profile_plan *pl,
			  const struct model_params *prm, int x, double corun,
			  double *f0, double *f);

/* ---- profiling a command ------------------------------------------ */

struct profile_progress {
	const char *id;		/* "run2", "probe-dram" */
	const char *what;	/* what the run is for */
	int run;		/* 1..6, or 0 for a probe run */
	int index, total;	/* this run among all runs made, 1-based */
	int rep;		/* 0: warm-up, else 1..reps */
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
	enum profile_solve solve;
	void (*progress)(const struct profile_progress *pp, void *arg);
	void *progress_arg;
};

/* Defaults: 3 repetitions, warm-up, auto counters, fit. */
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
