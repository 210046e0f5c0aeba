/*
 * estima.h - ESTIMA: extrapolate scaling past the cores measured, from
 * categories of stalled cycles (shared/seeds/000_*.txt, digest
 * seed-estima.md; our words and every formula in docs/extrapolate.md).
 *
 * From runs at thread counts n_1 < ... < n_m (time T and the stalls of
 * every category k), predict the time at every n = 1..N:
 *   1. each category s_k is fitted alone with six kernels, on every
 *      prefix of the first m - c runs; the fit with the least RMSE at
 *      the c last runs (the checkpoints) is kept, unrealistic fits
 *      (a pole, a non-finite or a negative value on [1, N]) never;
 *   2. stalls per core S(n) = sum_k s_k(n) / n;
 *   3. the factor F = T / S at the measured counts is fitted with the
 *      same kernels on every prefix of the runs, and the fit whose
 *      times F(n) S(n) correlate best with S(n) over 1..N is kept;
 *   4. T(n) = F(n) S(n); the scaling limit is the n of the least T.
 * Beside it, the paper's baseline: the same kernels fitted to the time
 * directly and chosen as in step 1.
 *
 * Every fit is a linear least-squares problem (rationals and ExpRat
 * linearised), solved by Householder QR with column pivoting on
 * columns scaled to unit norm: no normal equations.
 *
 * Library code: nothing here prints, runs a command or exits.
 */
#ifndef PANDIA_PREDICTOR_ESTIMA_H
#define PANDIA_PREDICTOR_ESTIMA_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/error.h"
#include "predictor/scaling.h"

/* The kernels of Table 1 of the paper, in its order. */
enum estima_kernel {
	EK_RAT22,	/* (a0 + a1 n + a2 n^2) / (1 + b1 n + b2 n^2) */
	EK_RAT23,	/* (a0 + a1 n + a2 n^2) / (1 + b1 n + .. + b3 n^3) */
	EK_RAT33,	/* (a0 + .. + a3 n^3) / (1 + b1 n + b2 n^2 + b3 n^3) */
	EK_CUBICLN,	/* a + b ln n + c ln^2 n + d ln^3 n */
	EK_EXPRAT,	/* exp((a + b n) / (c + d n)), c = 1 */
	EK_POLY25,	/* a + b n + c n^2 + d n^2.5 */
	EK_COUNT
};

#define ESTIMA_MAX_PARAMS 7

/* "Rat22", "Rat23", "Rat33", "CubicLn", "ExpRat", "Poly25". */
const char *estima_kernel_name(enum estima_kernel k);
/* The kernel called NAME (case as above), or -1. */
int estima_kernel_from_name(const char *name);
/* How many free parameters the kernel has (ExpRat: 3). */
int estima_kernel_free_params(enum estima_kernel k);
/*
 * How many values estima_fit.p holds for the kernel, in the order of
 * the formula: Rat22 a0 a1 a2 b1 b2; Rat23 a0 a1 a2 b1 b2 b3; Rat33
 * a0 a1 a2 a3 b1 b2 b3; CubicLn a b c d; ExpRat a b c d (c is 1);
 * Poly25 a b c d.
 */
int estima_kernel_n_params(enum estima_kernel k);

/* One fitted function. */
struct estima_fit {
	enum estima_kernel kernel;
	int points;		/* fitted to the first POINTS runs */
	double p[ESTIMA_MAX_PARAMS];	/* see estima_kernel_n_params() */
	double rmse;		/* at the checkpoints (category, baseline);
				   for the factor, at every run */
	double corr;		/* factor only: Pearson correlation of
				   F(n) S(n) with S(n) over 1..N; else NAN */
};

/*
 * Fit kernel K to the points (x[i], y[i]), i < n, by linear least
 * squares; x must be > 0.  Fills fit->kernel, points (= n) and p;
 * rmse and corr are set to NAN.  Returns 0, or -1 with err saying why
 * the kernel cannot be fitted: fewer points than free parameters,
 * ExpRat on a value <= 0, or parameters the points do not determine
 * (a rank-deficient system: the kernel has more freedom than the
 * data, as a rational fitted to a polynomial has).
 */
int estima_fit_kernel(enum estima_kernel k, const double *x,
		      const double *y, int n, struct estima_fit *fit,
		      struct pandia_error *err);

/* The fitted function at n (> 0). */
double estima_eval(const struct estima_fit *fit, double n);

/*
 * Whether the fit is realistic on [1, N]: its denominator (rationals,
 * ExpRat) has no zero anywhere in the real interval [1, N], and its
 * value at every integer 1..N is finite and not below -1e-9 * SCALE
 * (SCALE: the largest magnitude of the data fitted; the slack lets an
 * exact zero come back as a rounding error's negative).  When false
 * and why is not NULL, writes the reason into why (size bytes).
 */
bool estima_fit_realistic(const struct estima_fit *fit, int N, double scale,
			  char *why, size_t size);

/* The fit as text: "Poly25(a=1e9, b=1e7, c=0, d=0) on 4 runs". */
void estima_fit_format(const struct estima_fit *fit, char *buf,
		       size_t size);

struct estima_options {
	int target;		/* N: predict n = 1..N (>= 1) */
	int checkpoints;	/* c >= 1; the paper used 2 and 4 */
	double freq_ratio;	/* f_measured / f_target; every measured
				   time is multiplied by it; 1: none */
};

/* target 0 (must be set), checkpoints 2, freq_ratio 1. */
void estima_options_init(struct estima_options *opt);

/*
 * How many runs the algorithm needs with C checkpoints: C + 3 (the
 * shortest prefix fitted has 3 runs).  A caller that has fewer says
 * how many more are needed.
 */
int estima_runs_needed(int checkpoints);

/* One stall category, extrapolated. */
struct estima_category {
	char *name;		/* owned */
	struct estima_fit fit;	/* the fit chosen */
	double *values;		/* owned; values[n - 1] = s_k(n), n = 1..N */
	int tried;		/* (prefix, kernel) pairs with enough runs */
	int unfitted;		/* of those, not fitted (see
				   estima_fit_kernel()) */
	int rejected;		/* of those, fitted but unrealistic */
};

/* The time-extrapolation baseline. */
struct estima_baseline {
	bool ok;		/* false: no kernel fitted; why says so */
	char why[256];
	struct estima_fit fit;
	double *time;		/* owned; time[n - 1], seconds; NULL if !ok */
	int limit;		/* n of the least time; 0 if !ok */
};

struct estima_result {
	int target;		/* N */
	int checkpoints;	/* c */
	double freq_ratio;
	int n_categories;
	struct estima_category *categories;	/* owned */
	double *stalls_per_core;	/* owned; S(n), n = 1..N */
	double *measured_factor;	/* owned; F = T / S at each run, in
					   the order of the runs */
	struct estima_fit factor;	/* F chosen; corr set */
	double *factor_values;	/* owned; F(n), n = 1..N */
	double *time;		/* owned; T(n), seconds, n = 1..N */
	int n_runs;
	int *run_threads;	/* owned; the runs' thread counts */
	double *run_time;	/* owned; their times, frequency-corrected */
	double t1;		/* the time speedups are relative to:
				   the measured time at 1 thread
				   (frequency-corrected), or T(1) when
				   no run has 1 thread */
	double *speedup;	/* owned; t1 / T(n), n = 1..N */
	int limit;		/* the scaling limit: n of the least T(n),
				   the smallest such n */
	struct estima_baseline baseline;
};

/*
 * Run ESTIMA on the runs of S (checked with scaling_check() first)
 * with options OPT.  Returns a new result (caller frees with
 * estima_result_free()); S is only read.  On failure returns NULL
 * with err saying what is wrong: too few runs (and how many more are
 * needed), a run whose stalls sum to zero, a category that no kernel
 * fits realistically, a bad option; and every error scaling_check()
 * reports (threads not increasing, non-finite values).  A baseline
 * that cannot be fitted is not a failure: baseline.ok says so.
 */
struct estima_result *estima_run(const struct pandia_scaling *s,
				 const struct estima_options *opt,
				 struct pandia_error *err);

/* Release r and everything it owns.  NULL is a no-op. */
void estima_result_free(struct estima_result *r);

/*
 * The result as JSON (new reference, caller decrefs):
 *   target, checkpoints, freq_ratio, limit, t1,
 *   predictions[]: {threads, time, speedup, stalls_per_core, factor},
 *   categories: {NAME: {kernel, points, params[], rmse, tried,
 *                       rejected, values[]}},
 *   factor: {kernel, points, params[], corr, measured[]},
 *   baseline: {kernel, points, params[], rmse, limit, time[]} or
 *             {error} when not fitted.
 * Units: seconds; stalls in the runs file's unit.
 */
json_t *estima_result_to_json(const struct estima_result *r);

#endif
