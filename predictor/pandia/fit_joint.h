/*
 * fit_joint.h - the joint fit of the Pandia model's parameters over
 * every run made, and what it cannot tell apart (docs/profiling.md,
 * "The joint fit", "Ambiguity", "Check runs").
 *
 * The sequential fit (fit.h) gives each parameter the run that
 * measures it.  The joint fit starts there and moves p, o_s (either
 * form), the co-runner factor, l and b together so that the model's
 * own times (fit_model_time()) reproduce all the runs at once: least
 * squares on log times, each run weighted by its repetitions' spread
 * (at least FIT_SIGMA_FLOOR), the parameters within their bounds, by
 * Levenberg-Marquardt with numerical derivatives.  With the six runs
 * alone the system is square and it gives back the sequential fit;
 * it matters when check runs are added, and to test a competing
 * explanation: a parameter pinned to 0 and a demand freed instead
 * (o_s against the link, b against memory bandwidth).
 *
 * Library code: nothing here prints, runs a command or exits.
 */
#ifndef PANDIA_PREDICTOR_PANDIA_FIT_JOINT_H
#define PANDIA_PREDICTOR_PANDIA_FIT_JOINT_H

#include <stdbool.h>

#include "predictor/pandia/fit.h"

/* The least relative noise a run is taken to have (1%). */
#define FIT_SIGMA_FLOOR 0.01
/* A prediction that moves by more than this depends on a choice (5%). */
#define FIT_DIFFER 0.05

/* The extra runs a fit takes at most (check runs and tune's). */
#define FIT_MAX_EXTRA 32

/* A run beyond the plan's (a check run): placement and median time. */
struct fit_extra {
	int n;
	const int *pus;		/* m->pus indexes, borrowed */
	double t;		/* median seconds */
	double delta;		/* half the range of its repetitions */
};

/* All the runs a fit sees. */
struct fit_data {
	const struct fit_plan *pl;
	const struct model_params *base;	/* t1 (t[PR1]), demands */
	const double *t, *delta;	/* per plan run; NAN / 0: none */
	const struct fit_extra *ex;
	int n_ex;
};

/* What a fit gives: the parameters and how well they fit. */
struct fit_result {
	struct model_params prm;	/* with its demands */
	double corun;		/* NAN: runs 4 and 5 not fitted */
	double cost;		/* sum of squared residuals / sigma */
	double worst;		/* largest |residual| / sigma */
	int n_res;		/* runs fitted */
	/* unknowns that move some run's time (the others cannot be told
	   from the runs: b without SMT), so n_res - n_free runs test the
	   model rather than set it */
	int n_free;
};

/*
 * The joint fit from the sequential solution SEQ (fit_solve() in
 * FIT_MODEL mode on the same plan runs).  The parameters SEQ did not
 * measure stay as SEQ has them; the o_s form is the one that fits
 * the runs better (SEQ's on a tie).  Always fills *out.
 */
void fit_joint(const struct fit_data *d, const struct fit_solution *seq,
	       struct fit_result *out);

/*
 * The standard errors of p, o_s, l and b (se[0..3]) of the joint fit
 * over the runs of D at the parameters of AT (SEQ as fit_joint() takes
 * it: which unknowns are fitted), linearized: the diagonal of the
 * inverse of J'J, J the Jacobian of the runs' residuals each divided
 * by its sigma as the fit weighs them.  -1 for a parameter not fitted
 * or that no run moves.  Only ratios of two of these are meaningful:
 * how much runs added to D narrow a parameter.
 */
void fit_joint_se(const struct fit_data *d, const struct fit_solution *seq,
		  const struct fit_result *at, double se[4]);

/* The competing explanations tested (enum fit_amb_kind). */
enum fit_amb_kind {
	AMB_OS_LINK,		/* o_s against a saturated link */
	AMB_B_MEMORY,		/* b against a memory bottleneck */
	AMB_KINDS
};

/* "o_s or the link", "b or memory bandwidth" */
const char *fit_amb_name(enum fit_amb_kind k);

/* One competing explanation, fitted and compared. */
struct fit_amb {
	enum fit_amb_kind kind;
	bool tested;		/* the runs allow it */
	bool ambiguous;		/* fits the runs within their noise and
				   predicts some placement differently */
	struct fit_result alt;
	double diff;		/* most |log ratio| of its predictions to
				   the main fit's over the sample */
	int n_pus;
	int *pus;		/* the placement of diff (owned), or NULL */
	int n_sampled, n_differ;	/* by more than FIT_DIFFER */
	char *text;		/* what it is, for people (owned) */
};

/*
 * Test each competing explanation of MAIN against the runs of D:
 * the explanation's parameter pinned (o_s or b at 0 when MAIN has it,
 * else freed with the demand cut), the link's or DRAM's demand freed,
 * everything else refitted; then both predicted over a sample of the
 * placements of one thread per PU.  out[AMB_KINDS].
 */
void fit_ambiguities(const struct fit_data *d, const struct fit_result *main,
		     struct fit_amb *out);
void fit_amb_release(struct fit_amb *a);

/*
 * MAIN refitted on the runs of D with the DRAM demand free as well
 * (from a few starting points, most of them lower: a counter-free
 * estimate errs high where the probes' loss is small).  False when
 * the model has no DRAM demand to move.
 */
bool fit_demands(const struct fit_data *d, const struct fit_result *main,
		 struct fit_result *out);

/* The model's time for placement PUS of N threads under PRM on SP. */
double fit_time_pus(const struct space *sp, const struct model_params *prm,
		    const int *pus, int n);

/*
 * The predicted best placement of one thread per PU under PRM, and of
 * those within 1% of it the one with the most threads: a new array in
 * *pus, its threads returned (0 when none), its time in *t.
 */
int fit_best_placement(const struct fit_plan *pl,
		       const struct model_params *prm, int **pus, double *t);

/*
 * The fit's residual for the run of plan run X (X >= 0) or extra run
 * -1 - X: log(model / measured); NAN when the run has no time.
 */
double fit_residual(const struct fit_data *d, const struct fit_result *r,
		    int x);

/*
 * The model's misfit on the runs of D under R: the root of the
 * squared residuals (log(model / measured)) of the runs after run 1
 * (which sets t1) and the extra ones, over their number less the
 * unknowns that moved them (r->n_free), less the mean square of their
 * own noise (each run's half range over its time, where it has
 * repetitions: the ranges carry that noise already); 0 when the runs
 * only set the parameters, or the noise explains the residuals.  A model that cannot express what a run shows (a
 * program faster two threads to a PU than alone) misses that run
 * whatever its parameters, and every range should say so.
 */
double fit_misfit(const struct fit_data *d, const struct fit_result *r);

/*
 * The sum of squared residuals / sigma of R over the runs of D (the
 * plan's and the extra ones, as fit_joint() weighs them), and the
 * largest in *worst.
 */
double fit_score(const struct fit_data *d, const struct fit_result *r,
		 double *worst);

/*
 * The largest |residual| / sigma of R over the extra runs of D (as
 * fit_score() weighs them); 0 when D has none.
 */
double fit_extra_worst(const struct fit_data *d, const struct fit_result *r);

#endif
