/*
 * pandia_internal.h - the hooks of the Pandia model's row (pandia.c, the
 * model_def of predictor/models.h) that live in other files of the
 * model, private to predictor/pandia/.
 */
#ifndef PANDIA_PREDICTOR_PANDIA_INTERNAL_H
#define PANDIA_PREDICTOR_PANDIA_INTERNAL_H

#include "predictor/models.h"
#include "predictor/pandia/fit_joint.h"
#include "predictor/pandia/model.h"

struct pandia_params;
struct ranking;

/* rank_fast (rank_fast.c): the ranking predicted in parallel. */
void pandia_rank_fast(struct ranking *r, const struct model_params *prm,
		      int workers);

/* The demands the fit and run 2's plan get from w: known values,
   bounds included but for those that say nothing (one core's link on
   m or more, a loss within the host's drift), else 0; t1 T1, p 1, the
   rest 0 (pandia_check.c). */
void pandia_base_params(const struct pandia_machine *m,
			const struct pandia_workload *w, double t1,
			struct model_params *base);

/* Demand RES of pp, which the joint fit moved from FROM (what the fit
   started from: a bound that says nothing started at 0) to V: set to
   V, its status saying so after what it said before.  Left as it is
   where the fit left it where it started, where V is its value
   already, and where it is not listed or not known (pandia_check.c). */
void pandia_move_demand(struct pandia_params *pp, int res, double v,
			double from, const char *why);

/* A warning for people through env->warn (formatted; none without). */
void pandia_warn(const struct model_env *env, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Check runs at most (pandia_check.c). */
#define PANDIA_CHECKS 4

/* The runs recorded in a description, as the fits take them. */
struct pandia_runs {
	struct wl_run *xr[FIT_RUNS];	/* the plan's runs, or NULL */
	double t[FIT_RUNS];		/* median times; NAN: none */
	double delta[FIT_RUNS];		/* half their range */
	/* what each run's median may move by for the ranges stated
	   (ranges.c): 0 for none */
	double range[FIT_RUNS];
	double sigma;			/* the noise pooled for them */
	int sigma_dof;			/* its degrees of freedom */
	struct model_params base;	/* t1 and the demands */
	struct fit_plan pl;
	int n_ex;			/* check runs with times */
	/* of them, the first n_fit_ex the fit may be refitted with: the
	   uneven placement and the half-shared one (always last) only
	   measure the misfit, since a rule the model lacks (for the pages;
	   for threads sharing a core beside threads alone) is no parameter
	   to move */
	int n_fit_ex;
	struct fit_extra ex[PANDIA_CHECKS];
	struct wl_run *ex_run[PANDIA_CHECKS];
	int *ex_pus[PANDIA_CHECKS];	/* owned */
	/* run 1 made again at the end ("drift"): its median against
	   run 1's, relative; 0 when not made */
	double drift;
	struct wl_run *drift_run;	/* that run, or NULL */
	/* the final fit's root mean square relative miss on the check
	   runs (the model's own misfit, which no repetition shows); 0
	   when none was made */
	double misfit;
	/* the same over every run the fit did not need to set its
	   parameters: the root of the squared relative misses of the
	   runs after run 1 and the check runs, over their number less
	   the unknowns that moved them (fit_result.n_free); 0 when the
	   runs only set the parameters */
	double misfit_all;
	/* run 1's slowdown beside probes on other cores where no demand
	   the model takes explains it (of the deepest level whose demand
	   is a bound and which the probes could not fill: its probes also
	   keep another core busy and stream through the levels above), a
	   ratio, and that probe run; 0 and NULL when none
	   (pandia_runs_interference()) */
	double interference_lo;
	const struct wl_run *interference_run;
	int interference_res;		/* its demand, WR_L3 ... */
	/* where another such level was probed, the largest slowdown
	   beside its probes (not its log), its run and its demand; 0 and
	   NULL when none */
	double interference_hi;
	const struct wl_run *interference_hi_run;
	int interference_hi_res;
};

/*
 * The L3 and DRAM demands from the workload's own runs
 * (fit_saturation.c).  pandia_saturation_placement(): where one is a
 * probe estimate that amplifies noise more than 3, every core of run
 * 1's node (DRAM; L3: of its cache), one thread each (a new array in
 * *pus; its threads returned; 0: none): the run that the level holds
 * back if the estimate is right.  pandia_saturation(): with the model
 * fitted (SOL), the demand from a run on that instance the level held
 * back, else an estimate above what the runs allow capped there (true:
 * the demand changed and the fit must be made again).
 */
int pandia_saturation_placement(const struct model_env *env,
				const struct pandia_workload *w,
				const struct fit_plan *pl, int **pus);
bool pandia_saturation(const struct model_env *env, struct pandia_workload *w,
		       const struct pandia_runs *r,
		       const struct fit_solution *sol);

/*
 * Each L3 or DRAM demand of w, a probe estimate that amplifies noise
 * more than 3, that no placement on M could push past what the level
 * sustains even at the top of its range (machine_level_fills()): its
 * status says so, once (fit_saturation.c).
 */
void pandia_demands_harmless(const struct pandia_machine *m,
			     struct pandia_workload *w);

/* The id of run 1 made again at the end, for the host's drift. */
#define PANDIA_DRIFT_ID "drift"

/*
 * The runs of w (pandia_check.c): the plan rebuilt from the demands
 * with the memory the profile found, less the runs --quick left out,
 * and the check runs.  Where run 1 was made again at the end, the
 * host's drift between the two widens every run's half range (what
 * the repetitions of one run, made close together, cannot see).  0, or
 * -1 with err (no run 1 or 2).  Release with pandia_runs_release().
 */
int pandia_runs_load(const struct model_env *env,
		     const struct pandia_workload *w, struct pandia_runs *r,
		     struct pandia_error *err);
void pandia_runs_release(struct pandia_runs *r);

/*
 * r->range, r->sigma and r->sigma_dof from the runs' repetitions and
 * the drift (ranges.c; pandia_runs_load() calls it).
 */
void pandia_runs_ranges(struct pandia_runs *r);

/*
 * r->interference_lo from w's probe runs (ranges.c): run 1's thread
 * slowed beside probes on other cores that could not fill the level,
 * for a level whose demand is only a bound (the model takes no
 * contention there), is slowed by something the model does not have
 * (a core or cache shared where the description shows none); the runs
 * on several cores may carry it or not.  Where two levels' probes
 * were such, the deeper level's (DRAM's before L3's): its probes also
 * keep another core busy and stream through the cache, so whatever
 * slows the workload beside the L3 probes slows it beside them too,
 * with DRAM's contention besides, where a disturbance slows one run.
 * pandia_runs_load() calls it.
 */
void pandia_runs_interference(struct pandia_runs *r,
			      const struct pandia_workload *w);

/*
 * The ranges STATED of p, o_s, l, b (-1: none stated, left so) joined
 * in quadrature with their move when every run on more than one core
 * moves by the log of r->interference_lo together
 * (fit_uncertainty_joint()).
 * Returns p's caveat saying so (owned) where that slowdown is 3% or
 * more, else NULL (ranges.c).
 */
char *pandia_interference_ranges(const struct pandia_runs *r,
				 enum fit_mode mode, double stated[4]);

/*
 * t1's stated range, what no repetition shows carried into every
 * predicted time's (ranges.c): run 1's 90% move (the drift in it), the
 * model's misfit MF (a root mean square, taken 1.645 times: a 90%
 * range), where run 2 beat the description's clock
 * (S->clock_run2 > 1) the clock's excess over what run 2 allows
 * (S->clock_run2 / S->clock_allowed - 1), and the contention run 2's
 * CPU time did not show (S->cpu_gap), relative to T1, in quadrature.
 */
double pandia_t1_range(const struct pandia_runs *r, double mf,
		       const struct fit_solution *s, double t1);

/*
 * The two shares of t1's range that no later run measures again (the
 * clock's excess over run 2 and the contention its CPU time did not
 * show), kept as run 2's counters UNSEEN_CLOCK and UNSEEN_CPU where
 * above 0, so that pandia tune's refit states them as the profile did
 * (ranges.c): pandia_record_unseen() writes them from S,
 * pandia_unseen_of() puts them back into S.
 */
#define UNSEEN_CLOCK "t1_unseen_clock"
#define UNSEEN_CPU "t1_unseen_cpu"
void pandia_record_unseen(struct wl_run *r2, const struct fit_solution *s);
void pandia_unseen_of(const struct wl_run *r2, struct fit_solution *s);

/*
 * Run 2's CPU time against the contention the model sees in it, with
 * p fitted in S (fit_cputime.c): where its threads were timed busy
 * (cpus_busy of runs 1 and 2) and the CPU time shows less than half
 * of that contention, by 5% of run 1's CPU time or more, S->cpu_gap
 * and S->p_cpu are set, p's status says so, *P_RANGE (p's stated
 * range) reaches p_cpu and the runs' noise in it, and env->warn is
 * told; else S->cpu_gap = 0.
 */
void pandia_cpu_check(const struct model_env *env,
		      const struct pandia_workload *w,
		      const struct pandia_runs *r, struct fit_solution *s,
		      double *p_range);

/*
 * The check runs (env->checking): the predicted best placement with
 * the most threads, and where the competing explanations of the runs
 * differ most, when they do; none already made.  As the plan hook of
 * models.h: how many in *runs, or -1 with err.
 */
int pandia_check_plan(const struct model_env *env,
		      const struct pandia_workload *w,
		      struct model_run **runs, struct pandia_error *err);

/*
 * After the sequential fit SOL (FIT_MODEL) of the runs R: the joint
 * fit over every run, the check runs judged against it (recorded on
 * them, said through env->warn) and, when one misses by more than its
 * range (UNC: the parameters' uncertainties), the joint fit again with
 * them; SOL takes its values, w's model its ambiguities.
 */
void pandia_fit_joint(const struct model_env *env, struct pandia_workload *w,
		      struct pandia_runs *r, struct fit_solution *sol,
		      const double *unc);

#endif
