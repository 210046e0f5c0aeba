/*
 * models.h - the prediction models, each behind one interface, and the
 * table of them that '--model NAME' chooses from.
 *
 * A model provides:
 *   - the runs it needs (plan): placements, co-runners and input sizes
 *     for the profiler to make, asked for in stages, so that a model
 *     may choose its later runs from what the earlier ones measured;
 *   - a fit of its parameters from those runs (fit), written into the
 *     workload description: the Pandia model's under "model", every
 *     other one's under "models.NAME";
 *   - a prediction for one placement, and input size where the model
 *     knows sizes (open, predict, close);
 *   - optionally, what the library would otherwise test the model's
 *     identity for: a parallel fast path for a ranking (rank_fast),
 *     the note on how its fit solved (fit_note), the parameters the
 *     profiler checks before it writes them (fit_checks), the runs
 *     in all for the progress (runs_total), what its predictions
 *     are made without (unmeasured), and the flags model_section
 *     and sizes (which options and sections of the commands are its).
 *
 * Models live in predictor/ and never run anything: the profiler
 * (profiler/profile.h) makes the runs a model plans, records them in
 * the description and calls its fit; predict and validate call its
 * predictions.  Adding a model: its own file(s) under predictor/, one
 * row in the table of models.c, one test suite, one docs page
 * (docs/architecture.md walks through it).
 *
 * Placements are m->pus indexes, one per software thread in creation
 * order, never OS numbers.
 */
#ifndef PANDIA_PREDICTOR_MODELS_H
#define PANDIA_PREDICTOR_MODELS_H

#include <stdbool.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"

/* A run a model asks the profiler for.  Owns its arrays and strings. */
struct model_run {
	char *id;		/* "run2": how its wl_run will be named */
	char *purpose;		/* for people */
	int n;			/* threads */
	int *pus;		/* m->pus indexes, one per thread */
	int n_corun;
	int *corun;		/* PUs of the co-runners (m->pus) */
	char *corun_kind;	/* their stressor kind ("bw:dram"); NULL:
				   CPU-bound ("cpu") */
	double size;		/* input size for {size}; NAN: none */
	/*
	 * A check run (the model's check stage): made, and repeated,
	 * only while the profile's budget lasts; EXPECT its predicted
	 * seconds (0: not known) for the budget's test before its first
	 * call.
	 */
	bool optional;
	double expect;
	/* an optional run that only widens the ranges (the drift), the
	   last: the profile holds back one call of run 1 for it from the
	   start; when the budget is spent even so it is left out without
	   a warning */
	bool quiet;
};

void model_runs_free(struct model_run *runs, int n);

/*
 * How the Pandia model solves each parameter from its run (the
 * profile's --paper; model_env's paper).  Here, not in its fit.h,
 * because the profiler's options carry it.
 */
enum fit_mode {
	FIT_MODEL,	/* the partial model reproduces the run */
	FIT_PAPER,	/* the closed forms of sections 4.2-4.5 */
};

/*
 * What a model is told while profiling: the machine, and the
 * description so far (identity, t1 and demands once run 1 and the
 * counter backend have measured them, every run made in w->runs with
 * its times).  Warnings for people go to warn (may be NULL).
 */
/* Where the serial work runs: run 8 tells (the default), or given. */
enum serial_choice { SERIAL_BY_RUN, SERIAL_GIVEN_SPREAD, SERIAL_GIVEN_FIRST };

struct model_env {
	const struct pandia_machine *m;
	bool paper;		/* closed forms instead of the fit (the
				   Pandia model's --paper) */
	bool quick;		/* the profile's --quick: the runs of a
				   parameter that changes no placement with
				   one thread per PU may be left out */
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
	/*
	 * checking: the profile asks for the check runs (after every
	 * run's repetitions, see model_def's check_runs); no_check: the
	 * profile's --no-check, none wanted.
	 */
	bool checking, no_check;
	/*
	 * The Pandia model's --serial: where the serial work runs
	 * (model.serial_form), left to its run 8 or given.
	 */
	enum serial_choice serial;
	/*
	 * For the models of run time against input size (--sizes,
	 * --threads, --degree of pandia profile): the sizes to measure,
	 * the thread counts (one thread per core), the degree of the
	 * polynomial; none (NULL, 0, -1) when not given.
	 */
	const double *sizes;
	int n_sizes;
	const int *threads;
	int n_threads;
	int degree;
};

/*
 * One workload of a co-run: its model's state (open() of that
 * workload; each part its own, since a model may rebuild it) and where
 * its threads run.
 */
struct model_corun_part {
	void *state;
	const int *pus;		/* m->pus indexes, one per thread; NULL:
				   n copies of a single-threaded job,
				   unpinned over the whole machine */
	int n;			/* threads (or copies) */
};

/*
 * A parameter of a fit whose uncertainty the profiler checks before it
 * writes the description (fit_checks).
 */
struct model_check {
	const char *name;		/* "t1" */
	const struct wl_param *param;	/* in the description */
	double max;		/* the most uncertainty it may have */
	bool relative;		/* max is a share of its value */
	/*
	 * NULL: the parameter ranks placements, so too uncertain (or
	 * measured too disturbed) fails the profile.  Else it changes no
	 * placement the profile's ranking makes: a doubtful value is
	 * kept, and this (static) text says why in the warning.
	 */
	const char *kept;
	/* the uncertainty tested, when not the parameter's own (NULL) */
	const double *unc;
};

#define MODEL_MAX_CHECKS 8

struct ranking;
struct model_params;

/* One prediction. */
struct model_prediction {
	double time;		/* seconds */
	double speedup;		/* over the model's single-thread time */
	const char *bottleneck;	/* static string, or NULL */
	const char *warning;	/* for people (static), or NULL: a time
				   the model gives but doubts */
	double core_time;	/* queueing models: the time on a core,
				   memory included, the wait for a core
				   not (MVA's T); NAN: not said */
};

/* The purpose of a pinned run of pandia tune's in a description, and
   the beginning of an unpinned one's (builtin/tune_output.c). */
#define MODEL_TUNE_PURPOSE "tune"
#define MODEL_TUNE_UNPINNED "tune, unpinned"

struct model_def {
	const char *name;	/* what --model takes */
	const char *summary;	/* one line for --help */
	/*
	 * Whether the profiler measures the demands (counters or probes)
	 * beside the first run: the Pandia model needs them, a model of
	 * time against size does not.
	 */
	bool demands;
	/*
	 * Whether its parameters are the description's "model" section
	 * (struct model_params, the fields other tools read) rather than
	 * "models.NAME": profile writes them with -o, never --into; predict
	 * reads them directly (its header, --trace, --explain, t1 at
	 * --size) and checks them before it ranks.  The Pandia model's.
	 */
	bool model_section;
	/*
	 * Whether it models run time against input size: the profile
	 * takes --sizes LIST (needed), --threads and --degree for it,
	 * measures no t1, and says so in its summary.
	 */
	bool sizes;
	/*
	 * How many runs it numbers run1 .. runN (its paper's), for the
	 * progress's "run 2 of 6"; a run numbered beyond is said without
	 * "of".  0: the progress counts every run instead.
	 */
	int numbered_runs;
	/*
	 * Whether plan, called once more after every run's repetitions
	 * with env->checking, may ask for check runs: placements its fit
	 * predicts, made to test it (optional runs, within the budget).
	 */
	bool check_runs;
	/*
	 * The runs needed after those already in w->runs (none at the
	 * first call): a new array in *runs (model_runs_free()).
	 * Returns how many, 0 when it has every run it needs, -1 with
	 * err.
	 */
	int (*plan)(const struct model_env *env,
		    const struct pandia_workload *w, struct model_run **runs,
		    struct pandia_error *err);
	/*
	 * Where the profile's one warm-up runs, before the first run:
	 * the placement of a later run with several threads, so that the
	 * warm-up costs a fraction of run 1's time and finds the roles
	 * of that run's threads (no run made to find them).  Fills *run
	 * and returns 1, or returns 0 (the first run's first call is the
	 * warm-up) or -1 with err.  May be NULL: 0.
	 */
	int (*warmup)(const struct model_env *env, struct model_run *run,
		      struct pandia_error *err);
	/*
	 * How many runs its stages make in all (the probe runs of the
	 * demands not counted), before any is planned: for the
	 * profile's progress.  May be NULL: the first stage's count.
	 */
	int (*runs_total)(const struct model_env *env);
	/*
	 * Fit the parameters from the runs in w->runs into w.  Returns
	 * 0 or -1 with err.
	 */
	int (*fit)(const struct model_env *env, struct pandia_workload *w,
		   struct pandia_error *err);
	/*
	 * How the fit obtained the parameters, for the description's
	 * note ("... parameters of the NAME model <this>"): a static
	 * text.  May be NULL: "by its fit".
	 */
	const char *(*fit_note)(const struct model_env *env);
	/*
	 * The parameters of the fitted description w that the profiler
	 * checks before it writes w: at most MODEL_MAX_CHECKS into out.
	 * Returns how many.  May be NULL: none checked.
	 */
	int (*fit_checks)(const struct model_env *env,
			  const struct pandia_workload *w,
			  struct model_check *out);
	/*
	 * The parameters of w's that were not measured and change some
	 * placement of at most K threads per PU on m, each said as one
	 * line to say(arg, text): what is predicted without it, and why.
	 * May be NULL: the model says nothing.
	 */
	void (*unmeasured)(const struct pandia_workload *w,
			   const struct pandia_machine *m, int k,
			   void (*say)(void *arg, const char *text),
			   void *arg);
	/*
	 * Refit w's parameters on m with the placements pandia tune
	 * measured (w's runs of purpose MODEL_TUNE_PURPOSE), from the
	 * profile's own parameters, which it keeps in w: *say gets one
	 * line for people (new string), what moved or why nothing did.
	 * Returns 1 when refitted, else 0.  May be NULL: the model has no
	 * parameters those runs can move.
	 */
	int (*refit)(const struct pandia_machine *m,
		     struct pandia_workload *w, char **say);
	/*
	 * A predictor for workload w on machine m (both borrowed for its
	 * life), or NULL with err when w has no parameters of this model
	 * or they do not fit m.
	 */
	void *(*open)(const struct pandia_machine *m,
		      const struct pandia_workload *w,
		      const struct pandia_mempolicy *mem,
		      struct pandia_error *err);
	/*
	 * Predict placement PUS of N threads for input size SIZE (NAN:
	 * the size as profiled).  0 or -1 with err (a model that knows
	 * no sizes, or no size X, says so).
	 */
	int (*predict)(void *model, const int *pus, int n, double size,
		       struct model_prediction *out,
		       struct pandia_error *err);
	void (*close)(void *model);
	/*
	 * Optional (NULL: the model does not predict co-runs): NW
	 * workloads running together on the machine they were opened
	 * for; out[i] the time of workload i (of one of its copies).
	 * Returns 0 or -1 with err.
	 */
	int (*corun)(const struct model_corun_part *parts, int nw,
		     struct model_prediction *out, struct pandia_error *err);
	/*
	 * Optional (NULL: rank_all() calls predict for each placement,
	 * one after the other): every placement of r (enumerated, not yet
	 * predicted) predicted at once from the parameters PRM, on up to
	 * WORKERS threads (0: one per online CPU), r->workers set.  The
	 * Pandia model's parallel fast path.
	 */
	void (*rank_fast)(struct ranking *r, const struct model_params *prm,
			  int workers);
};

/*
 * The Pandia model's parameters in w (its "model" section), for the
 * code outside the model that measures or shows them: the profiler
 * writes t1 and the demands, profile's summary prints them, and MVA
 * takes t1 as its E(1).  Defined by the model
 * (predictor/pandia/params.c); each returns what w owns, borrowed.
 */
/* The parameter NAME ("t1", "p", "o_s", "l", "b"), or NULL. */
struct wl_param *model_param(const struct pandia_workload *w,
			     const char *name);
/* The demand on R, listed in w or not (then unknown). */
struct wl_param *model_demand(const struct pandia_workload *w,
			      enum wl_resource r);
/* Whether w lists the demand on R; and making it so (or not). */
bool model_demand_listed(const struct pandia_workload *w,
			 enum wl_resource r);
void model_demand_list(struct pandia_workload *w, enum wl_resource r,
		       bool listed);
/* The noise amplification of the demand on R (NAN: none stated), to
   read or set. */
double *model_demand_amplification(const struct pandia_workload *w,
				   enum wl_resource r);
/* What the profile's runs could not tell apart (the model section's
   "ambiguities": an array, borrowed), or NULL when none. */
struct json_t;
struct json_t *model_ambiguities(const struct pandia_workload *w);
/* How o_s grows ("per_remote_thread" ...) when the profile tested it,
   else NULL. */
const char *model_o_s_form(const struct pandia_workload *w);
/* Where the serial work runs ("spread", "first") when the description
   says, else NULL. */
const char *model_serial_form(const struct pandia_workload *w);

/*
 * Install the models' readers of the description's sections into
 * common/ (the Pandia model's "model", workload_set_model_ops()).
 * Every program calls it once before it loads or saves a workload.
 */
void models_install(void);

/* The model called NAME, or NULL. */
const struct model_def *model_find(const char *name);
/* The models in the table: *n of them. */
const struct model_def *const *model_list(int *n);
/* The names of the models, comma-separated, for messages. */
const char *model_names(void);
/* The default model ("pandia"). */
const struct model_def *model_default(void);

/* The Pandia model (predictor/pandia/). */
extern const struct model_def model_pandia;
/* The black-box model of time against size (predictor/blackbox*.c). */
extern const struct model_def model_blackbox;
/* Bardhan and Menasce's queueing model (predictor/mva_model.c). */
extern const struct model_def model_mva;
struct model_params;
/*
 * An instance of the Pandia model from parameters PRM rather than a
 * workload description (tests, the simulated workload); close it with
 * model_pandia.close().
 */
void *model_pandia_open_params(const struct pandia_machine *m,
				const struct model_params *prm,
				const struct pandia_mempolicy *mem,
				struct pandia_error *err);

/*
 * The Pandia model's t1 and p for input size SIZE.  t1: the black-box
 * model's T_seq(SIZE) scaled by t1 / T_seq(w->size) when w records the
 * size it was profiled at, else T_seq(SIZE) itself (both are one
 * thread alone; the demands stay, being rates).  p (may be NULL): when
 * w records its size, T_seq's constant term a_0 (the time no size
 * makes longer: start-up, reading the input's header) counts as
 * serial work, the rest of the serial part grows with the size, so a
 * small input has a smaller parallel fraction (docs/blackbox.md,
 * "Placements for a size"); else w's p.  *warning (may be NULL) gets a
 * static text when the black-box model doubts it (NULL otherwise).
 * Returns 0, or -1 with err when w has no black-box model, its T_seq
 * cannot be used, or the time is not positive.
 */
int model_pandia_at(const struct pandia_workload *w, double size,
		    double *t1, double *p, const char **warning,
		    struct pandia_error *err);

#endif
