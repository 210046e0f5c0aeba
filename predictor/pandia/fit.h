/*
 * fit.h - section 4 of the Pandia paper: the placements of the six
 * profiling runs and the parameters p, o_s, l and b solved from their
 * times.
 *
 *   run 1  one thread                              t1, demands d
 *   run 2  n threads, one per core, one socket     p
 *   run 3  the same n split over two sockets       o_s
 *   run 4  run 2 + a CPU-bound co-runner beside    } l
 *   run 5  every thread, then beside one thread    }
 *   run 6  n threads packed two to a core          b
 *   run 7  2 threads, one on each of two sockets   o_s's form
 *          (4, two on each, when n is 2)
 *
 * Every parameter is solved so that the partial model built so far,
 * computed by the model's own code (predictor/pandia/model.h),
 * reproduces the run that measures it: u_x = r_x / k_x with k_x the
 * partial model's time for run x relative to t1.  The closed forms of
 * sections 4.2 to 4.5 are computed as well, from the same k_x and f_x,
 * and recorded beside the fitted values (docs/profiling.md says where
 * and why the two differ).
 *
 * Machines that cannot make a run: one socket (no run 3: o_s is not
 * measured), no SMT (the co-runner of runs 4 and 5 time-shares the
 * thread's PU; run 6 packs two threads on each PU).
 *
 * A co-runner (a CPU-bound loop on the same PU, time-sharing it, or on
 * a sibling PU of the same core) is represented in the model as a
 * reduction of the PU time left to the threads of one class: the
 * coefficient of the class's "PU time" resource is multiplied by
 * FACTOR (>= 1), so the class's load on its PU becomes
 * kappa * f * FACTOR and its resource slowdown is at least that
 * (section 5.1's "most oversubscribed resource").  FACTOR 2 is a fair
 * share of the PU with one always-busy loop; the fit takes FACTOR from
 * run 4 and uses it for run 5 (docs/profiling.md, "Load balancing").
 *
 * Library code: nothing here prints, runs a command or exits; the
 * profiler (profiler/profile.h) makes the runs and calls this.
 */
#ifndef PANDIA_PREDICTOR_PANDIA_FIT_H
#define PANDIA_PREDICTOR_PANDIA_FIT_H

#include <stdbool.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"	/* enum fit_mode */
#include "predictor/pandia/model.h"
#include "predictor/space.h"

/*
 * The profile's runs: 1 to 6 the paper's, 7 o_s's form, 8 where the
 * serial work runs (run 2 with a co-runner beside its first thread).
 */
enum fit_run { PR1, PR2, PR3, PR4, PR5, PR6, PR7, PR8, FIT_RUNS };

/* "run1" ... "run8": the runs' ids in a description */
const char *fit_run_id(int x);

/* Runs 4, 5 and 8 have co-runners (struct fit_plan's beside). */
static inline bool fit_corun_run(int x)
{
	return x == PR4 || x == PR5 || x == PR8;
}

/* ---- the placements ---------------------------------------------- */

/*
 * The placements of the six runs on machine m.  PU lists are m->pus
 * indexes, one per thread; beside[i] marks the threads of runs 4 and 5
 * that get a co-runner, corun the PUs those co-runners run on.
 */
struct fit_plan {
	const struct pandia_machine *m;	/* borrowed */
	struct space *sp;		/* owned */
	bool smt;			/* socket 0's cores have 2+ PUs */
	int n;				/* threads of runs 2 to 6 */
	char *n_note;			/* why n, or NULL */
	bool made[FIT_RUNS];
	char *why_not[FIT_RUNS];	/* when !made */
	int n_pus[FIT_RUNS];
	int *pus[FIT_RUNS];
	bool *beside[FIT_RUNS];	/* runs 4, 5, 8; else NULL */
	int n_corun[FIT_RUNS];
	int *corun[FIT_RUNS];	/* m->pus indexes */
	/*
	 * The fit chooses where the serial work runs by run 8
	 * (fit_solve()); false: base->serial_first as given.  run8_noise:
	 * the largest half range over the median of runs 2, 4, 5 and 8
	 * (0: one repetition each).
	 */
	bool serial_auto;
	double run8_noise;
	int run8_reps;		/* run 8's repetitions */
};

/*
 * Plan the runs on machine m for a workload of single-thread time and
 * demands BASE (base->p etc. unused): run 2's thread count is the
 * largest even count of cores on socket 0 for which the partial model
 * (steps 1 and 2 with p = 1) oversubscribes nothing.  Returns 0, or -1
 * with err when the machine has fewer than two cores on socket 0.
 * Release with fit_plan_release().
 */
int fit_plan_make(struct fit_plan *pl, const struct pandia_machine *m,
		      const struct model_params *base,
		      struct pandia_error *err);
void fit_plan_release(struct fit_plan *pl);
/*
 * The same with run 2's thread count N_RUNS (>= 2: the count the runs
 * were made with, so that a fit after the demands were corrected sees
 * the placements that ran); 0: chosen as above.
 */
int fit_plan_make_at(struct fit_plan *pl, const struct pandia_machine *m,
		     const struct model_params *base, int n_runs,
		     struct pandia_error *err);

/*
 * Solve under memory policy MEM (the profile's finding) instead of
 * local: the plan's space is made again.  The placements stay (run 2's
 * thread count was chosen with the memory local: on one socket, local
 * and spread are the same).  Returns 0, or -1 with err (a node the
 * machine lacks).
 */
int fit_plan_set_memory(struct fit_plan *pl,
			const struct pandia_mempolicy *mem,
			struct pandia_error *err);

/*
 * Whether the parameter l (b) changes the predicted time of any
 * placement of at most K threads per PU on m: l acts only between
 * threads that run at different speeds (SMT, several sockets, or
 * several kinds of core or cache domains), b only between threads that
 * share a core (SMT, or K > 1).
 */
bool fit_l_decides(const struct pandia_machine *m, int k);
bool fit_b_decides(const struct pandia_machine *m, int k);

/*
 * The parameters of w's Pandia model that were not measured and change
 * some placement of at most K threads per PU on m (o_s on several
 * sockets, l, b), each said as one line to say(arg, text): what is
 * predicted without it, and why it was not measured.
 */
void fit_unmeasured(const struct pandia_workload *w,
		    const struct pandia_machine *m, int k,
		    void (*say)(void *arg, const char *text), void *arg);

/*
 * The profile's --quick: leave out the runs whose parameter changes
 * no placement with one thread per PU on the plan's machine (runs 4
 * and 5 for l, run 6 for b; made false, why_not says so).  Returns how
 * many runs were left out.
 */
int fit_plan_quick(struct fit_plan *pl);
/* How many of the runs fit_plan_quick() leaves out on machine m (0 to 3),
   before any run is planned: for the profile's progress. */
int fit_quick_left_out(const struct pandia_machine *m);

/* ---- solving ----------------------------------------------------- */

/* What a step found for one run (relative times, section 4). */
struct fit_step {
	double r;		/* t_x / t1 */
	double k;		/* partial model's t_x / t1 before the step */
	double u;		/* r / k */
	double f;		/* partial model's mean utilisation */
};

struct fit_solution {
	double p, o_s, l, b;
	bool have_o_s, have_l, have_b;
	double corun;		/* fitted co-runner factor (runs 4, 5) */
	/*
	 * o_s's form, tested by run 7 (have_os_form): the form whose o_s
	 * fitted to run 3 predicts run 7 closer; t7_thread, t7_fraction
	 * the two predictions (seconds; NAN when not made).
	 */
	bool os_fraction, have_os_form;
	double o_s_thread, o_s_fraction, t7_thread, t7_fraction;
	bool b_core;		/* b fitted on the core's part */
	/*
	 * Where the serial work runs (model.serial_form), tested by run 8
	 * (have_serial_form) when the plan leaves it to the fit: the form
	 * whose fit predicts run 8 closer; t8_spread, t8_first the two
	 * predictions (seconds; NAN when not made); serial_status why it
	 * was not tested, or what run 8 could not tell (owned, or NULL).
	 */
	bool serial_first, have_serial_form;
	double t8_spread, t8_first;
	char *serial_status;
	/*
	 * Run 2 faster than the description's clock alone allows (p at 1):
	 * that clock's slowdown with run 2's cores busy (> 1), and the
	 * most run 2 allows; both 0 when not so.
	 */
	double clock_run2, clock_allowed;
	/*
	 * Run 2's CPU time showing little of the contention the model
	 * sees in it (pandia_cpu_check()): that contention's share not
	 * seen (> 0), and p by the CPU time; 0 when not so.
	 */
	double cpu_gap, p_cpu;
	/* the closed forms of sections 4.2-4.5; NAN when not computed */
	double paper_p, paper_o_s, paper_l, paper_b;
	/*
	 * p, o_s, l, b held at a bound because no value inside reproduces
	 * their run (runs 2, 3, 5, 6): that run's time at the bound (the
	 * partial model's, or where the closed form reaches it); 0 when
	 * not held.  p held at 1 is the clock's (clock_run2), not here.
	 */
	double bound_time[4];
	struct fit_step step[FIT_RUNS];
	/* caveats or why not measured (owned; NULL when none) */
	char *p_status, *o_s_status, *l_status, *b_status;
	char *form_status;	/* why o_s's form was not tested, or NULL */
};

void fit_solution_release(struct fit_solution *s);

/*
 * Solve p, o_s, l and b from the median times T[PR1..PR8] (seconds;
 * runs not made are ignored) of plan pl, with BASE giving t1 (ignored:
 * T[PR1] is used) and the demands.  Always fills *s.  Where the serial
 * work runs: with pl->serial_auto the form run 8 favours (both fitted,
 * fit_serial.c), else base->serial_first; the paper's closed forms
 * spread it.
 */
void fit_solve(const struct fit_plan *pl,
		   const struct model_params *base, const double *t,
		   enum fit_mode mode, struct fit_solution *s);

/* The same in the form base->serial_first gives (fit.c). */
void fit_solve_as(const struct fit_plan *pl,
		  const struct model_params *base, const double *t,
		  enum fit_mode mode, struct fit_solution *s);

/*
 * The model's parameters as solution S gives them over BASE (the
 * demands), t1 = T1: an unmeasured parameter at its stand-in 0.
 */
void fit_params_of(const struct fit_solution *s,
		   const struct model_params *base, double t1,
		   struct model_params *q);

/*
 * Uncertainties of p, o_s, l, b (out[0..3]) from the repetitions'
 * spread: each run's median is moved by DELTA[x] (half the range of
 * its repetitions) up and down, the parameters solved again, and the
 * largest change of each summed in quadrature over the runs.  A
 * parameter held at its bound (bound_time) is also solved with its
 * run moved by DELTA[x] from the time at the bound: moved from its own
 * time, past the bound, it stays there and shows none of the noise
 * (docs/profiling.md, "Uncertainty").  -1 when no run had two
 * repetitions.
 */
void fit_uncertainty(const struct fit_plan *pl,
			 const struct model_params *base, const double *t,
			 const double *delta, enum fit_mode mode,
			 double out[4]);

/*
 * How far p, o_s, l, b (out[0..3]; 0 when not solved) move when every
 * run with threads on more than one core (run 1 never) takes REL more
 * or less of its log time, all together: a slowdown beside work on
 * other cores that the model does not have, which such runs may carry
 * or not (fit_range.c; docs/profiling.md, "Uncertainty").  All 0 when
 * REL is not above 0 or no such run was made.
 */
void fit_uncertainty_joint(const struct fit_plan *pl,
			   const struct model_params *base, const double *t,
			   double rel, enum fit_mode mode, double out[4]);

/*
 * The partial model's time for run X of plan pl with parameters PRM
 * and, for runs 4, 5 and 8, co-runners leaving 1/CORUN of their PU
 * (predictor/pandia/fit.h).  *f0 and *f (may be NULL) get the mean
 * utilisations.  This is also what the simulated workload of the
 * tests prints.
 */
double fit_model_time(const struct fit_plan *pl,
			  const struct model_params *prm, int x, double corun,
			  double *f0, double *f);


/* ---- co-runners and summaries of a solved model ----------------- */

/*
 * Give every thread i with BESIDE[i] true (indexes into the placement
 * of the last model_build_pus()) a co-runner that slows the threads
 * of its class by FACTOR - 1 more on their PU (one always busy process
 * time-sharing it: 2).  A class is marked once however many of its
 * threads are.  Call once between a build and a
 * solve.  Returns 0, or -1 when FACTOR is below 1, the model holds
 * no explicit placement, or it was built in the group-structured form
 * (md->merge, for ranking).
 */
int model_corun(struct model *md, const bool *beside, double factor);

/*
 * The thread-weighted mean of the classes' utilisation at the start of
 * the last iteration (md->f0) and after it (md->f), for a solved model.
 */
double model_mean_f0(const struct model *md);
double model_mean_f(const struct model *md);

/*
 * Whether any class of the built placement shares a core, so that the
 * model applies the burstiness b to it: threads on other PUs of its
 * core (SMT), or more than one thread on its PU (time-sharing).
 */
bool model_shares_core(const struct model *md);

#endif
