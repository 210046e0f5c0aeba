/*
 * check_blackbox.c - the black-box model of run time against input
 * size (predictor/blackbox.c, docs/blackbox.md), with the faithfulness
 * tests of the digest (shared/seeds/seed-blackbox.md, section 5):
 *
 *   - exact recovery: a = (1e-3, 2e-6, 5e-9, 3e-10), alpha = 0.97,
 *     x in {50, 100, ..., 2500}, p in {1, 2, 4, 8, 16, 32, 40, 47},
 *     noise-free: a and alpha back within 1e-8 relative, batch and
 *     online, every prediction equal to its observation, every
 *     alpha_i equal to alpha;
 *   - the formulas on points computed by hand (t = T_seq / p gives
 *     alpha 1, t = T_seq gives 0);
 *   - incremental equals batch: after every prefix of a noisy shuffled
 *     stream, the running sums give the coefficients of blackbox_fit()
 *     and of a Householder QR least-squares fit of the points written
 *     here; k + 1 distinct sizes interpolate;
 *   - the reset rule of alpha's key, observation by observation;
 *   - online beats static (T_seq frozen at its first fit) on noisy
 *     shuffled streams, predict first, then update (paper, 3.5);
 *   - the max-(p, x) alpha beats the plain and clamped means at 47
 *     threads and large x under 5 ms noise (paper, Figure 4);
 *   - bad input: observations, too few sizes, singular and
 *     ill-conditioned fits, warnings; the JSON state: a golden text,
 *     bit-exact round trips through the description writer, and the
 *     message of every malformed field;
 *   - through the model interface (blackbox_model.c): the runs planned
 *     (every size at every thread count, one thread per core, socket 0
 *     first), the exact recovery from runs recorded as the profiler
 *     does, predictions at a size, what plan refuses, p as cores, and
 *     the Pandia model's t1 scaled by T_seq to another size.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/blackbox.h"
#include "predictor/models.h"
#include "tests/lib/testkit.h"

/* ---- the digest's workload ---------------------------------------- */

static const double a_true[] = { 1e-3, 2e-6, 5e-9, 3e-10 };
#define ALPHA_TRUE 0.97
#define DEGREE 3
static const int p_set[] = { 1, 2, 4, 8, 16, 32, 40, 47 };
#define N_SIZES 50		/* x = 50, 100, ..., 2500 */
#define MAX_OBS (N_SIZES * 8 * 10)
#define SIGMA 0.005		/* the paper's measurement error, seconds */

static double tseq_true(double x)
{
	return ((a_true[3] * x + a_true[2]) * x + a_true[1]) * x + a_true[0];
}

static double t_true(double x, int p)
{
	return blackbox_formula(tseq_true(x), ALPHA_TRUE, p);
}

/*
 * Every (x, p) of the digest REPS times, with Gaussian noise of SIGMA
 * seconds (a noisy time is at least 0.1 ms), shuffled if SEED is not
 * 0.
 */
static size_t make_obs(struct bb_obs *o, int reps, double sigma,
		       uint64_t seed)
{
	uint64_t s = seed;
	size_t n = 0, i, j;
	struct bb_obs tmp;
	int xi, pi, r;

	for (r = 0; r < reps; r++)
		for (xi = 1; xi <= N_SIZES; xi++)
			for (pi = 0; pi < (int)ARRAY_SIZE(p_set); pi++) {
				double x = 50.0 * xi;
				double t = t_true(x, p_set[pi]);

				if (sigma > 0)
					t = fmax(t + sigma * tk_rng_normal(&s),
						 1e-4);
				o[n].x = x;
				o[n].p = p_set[pi];
				o[n].t = t;
				n++;
			}
	if (seed)
		for (i = n - 1; i > 0; i--) {
			j = tk_rng_next(&s) % (i + 1);
			tmp = o[i];
			o[i] = o[j];
			o[j] = tmp;
		}
	return n;
}

static double rel(double got, double want)
{
	return fabs(got - want) / fabs(want);
}

/* ---- a reference fit: Householder QR on the Vandermonde matrix ---- */

/*
 * Least squares of degree K through the p = 1 points of OBS[0..n), x
 * scaled by XS inside; coefficients of x into A.  Returns the number
 * of rows used.
 */
static int qr_fit(const struct bb_obs *obs, size_t n, int k, double xs,
		  double *a)
{
	static long double v[MAX_OBS][BB_MAX_DEGREE + 2];
	long double s, nrm, alpha, c[BB_MAX_DEGREE + 1];
	int m = 0, i, j, l, cols = k + 1;
	size_t q;

	for (q = 0; q < n; q++) {
		if (obs[q].p != 1)
			continue;
		for (s = 1, j = 0; j < cols; j++, s *= obs[q].x / xs)
			v[m][j] = s;
		v[m][cols] = obs[q].t;
		m++;
	}
	for (j = 0; j < cols; j++) {
		for (nrm = 0, i = j; i < m; i++)
			nrm += v[i][j] * v[i][j];
		nrm = sqrtl(nrm);
		alpha = v[j][j] > 0 ? -nrm : nrm;
		v[j][j] -= alpha;
		/* the reflector u = v[j..m)[j]; |u|^2 = 2 nrm (nrm + |x0|) */
		for (nrm = 0, i = j; i < m; i++)
			nrm += v[i][j] * v[i][j];
		for (l = j + 1; l <= cols; l++) {
			for (s = 0, i = j; i < m; i++)
				s += v[i][j] * v[i][l];
			for (i = j; i < m; i++)
				v[i][l] -= 2 * s / nrm * v[i][j];
		}
		v[j][j] = alpha;
	}
	for (j = cols - 1; j >= 0; j--) {
		for (s = v[j][cols], l = j + 1; l < cols; l++)
			s -= v[j][l] * c[l];
		c[j] = s / v[j][j];
	}
	for (j = 0; j < cols; j++)
		a[j] = (double)(c[j] / powl(xs, j));
	return m;
}

/* Coefficients compared as terms at X, relative to the largest. */
static double coef_gap(const double *a, const double *b, int k, double x)
{
	double big = 0, gap = 0, pw = 1;
	int j;

	for (j = 0; j <= k; j++, pw *= x)
		if (fabs(b[j] * pw) > big)
			big = fabs(b[j] * pw);
	for (pw = 1, j = 0; j <= k; j++, pw *= x)
		if (fabs(a[j] - b[j]) * pw > gap)
			gap = fabs(a[j] - b[j]) * pw;
	return gap / big;
}

/* ---- exact recovery ------------------------------------------------ */

static void check_recovered(const struct blackbox *bb, const char *how,
			    double tol_alpha)
{
	int j;

	ck_assert_int_eq(bb->fit, BB_FIT_OK);
	for (j = 0; j <= DEGREE; j++)
		ck_assert_msg(rel(bb->coef[j], a_true[j]) < 1e-8,
			      "%s: a_%d = %.17g, want %g", how, j, bb->coef[j],
			      a_true[j]);
	ck_assert(bb->has_alpha);
	ck_assert_msg(rel(bb->alpha, ALPHA_TRUE) < tol_alpha,
		      "%s: alpha = %.17g", how, bb->alpha);
	ck_assert_int_eq(bb->alpha_p, 47);
	ck_assert(bb->alpha_x == 2500);
}

START_TEST(test_recovery)
{
	static struct bb_obs o[MAX_OBS];
	size_t n = make_obs(o, 1, 0, 0), i;
	struct pandia_error err;
	struct blackbox bb;
	unsigned warn;
	double t;

	ck_assert_msg(blackbox_fit(&bb, DEGREE, o, n, &err) == 0, "%s",
		      err.text);
	check_recovered(&bb, "batch", 1e-8);
	ck_assert_int_eq(bb.alpha_count, 1);
	ck_assert(bb.cond < BB_COND_LIMIT);
	for (i = 0; i < n; i++) {
		double ts = blackbox_tseq(&bb, o[i].x);

		ck_assert_msg(blackbox_predict(&bb, o[i].x, o[i].p, &t, &warn,
					       &err) == 0, "%s", err.text);
		ck_assert_msg(rel(t, o[i].t) < 1e-10, "x %g p %d: %.17g, "
			      "observed %.17g", o[i].x, o[i].p, t, o[i].t);
		ck_assert_uint_eq(warn, 0);
		if (o[i].p > 1)
			ck_assert_msg(rel(blackbox_alpha_i(ts, o[i].p, o[i].t),
					  ALPHA_TRUE) < 1e-8,
				      "alpha_i at x %g p %d", o[i].x, o[i].p);
	}
}
END_TEST

/* The same points streamed, in order and shuffled: the same model. */
static const uint64_t stream_seeds[] = { 0, 1, 2, 3, 4 };

START_TEST(test_recovery_online)
{
	static struct bb_obs o[MAX_OBS];
	size_t n = make_obs(o, 1, 0, stream_seeds[_i]), i;
	struct pandia_error err;
	struct blackbox bb;

	ck_assert(blackbox_init(&bb, DEGREE, &err) == 0);
	for (i = 0; i < n; i++)
		ck_assert_msg(blackbox_update(&bb, o[i].x, o[i].p, o[i].t,
					      NULL, &err) == 0, "%s", err.text);
	/*
	 * alpha_i uses T_seq as it was when each arrived; the first fits
	 * interpolate four sizes and are already exact to about 1e-12.
	 */
	check_recovered(&bb, "online", 1e-8);
	ck_assert_int_eq(bb.alpha_count, 1);
	ck_assert(bb.pow_sum[0] == N_SIZES);
	ck_assert_int_eq(blackbox_sizes_needed(&bb), 0);
}
END_TEST

/* ---- the formulas, by hand ------------------------------------------ */

static const struct {
	int line;
	double tseq;
	int p;
	double t, alpha;	/* NAN: undefined */
} alpha_rows[] = {
	{ __LINE__, 2.0, 4, 0.5, 1.0 },		/* t = T_seq / p: 1 */
	{ __LINE__, 2.0, 4, 2.0, 0.0 },		/* t = T_seq: 0 */
	{ __LINE__, 10.0, 47, 10.0 / 47, 1.0 },
	{ __LINE__, 10.0, 47, 10.0, 0.0 },
	{ __LINE__, 10.0, 2, 7.5, 0.5 },	/* 2/1 (1 - 0.75) */
	{ __LINE__, 1.0, 2, 1.5, -1.0 },	/* slower than one: < 0 */
	{ __LINE__, 1.0, 2, 0.25, 1.5 },	/* superlinear: > 1 */
	{ __LINE__, 4.0, 3, 2.0, 0.75 },	/* 3/2 (1 - 1/2) */
	{ __LINE__, 1.0, 1, 1.0, NAN },		/* p = 1: undefined */
	{ __LINE__, 0.0, 4, 1.0, NAN },		/* T_seq 0 */
	{ __LINE__, -1.0, 4, 1.0, NAN },	/* T_seq < 0 */
};

START_TEST(test_alpha_formula)
{
	double a = blackbox_alpha_i(alpha_rows[_i].tseq, alpha_rows[_i].p,
				    alpha_rows[_i].t);

	if (isnan(alpha_rows[_i].alpha))
		ck_assert_msg(isnan(a), "row %d: %g", alpha_rows[_i].line, a);
	else
		ck_assert_msg(fabs(a - alpha_rows[_i].alpha) < 1e-12,
			      "row %d: %.17g", alpha_rows[_i].line, a);
}
END_TEST

static const struct {
	int line;
	double tseq, alpha;
	int p;
	double t;
} formula_rows[] = {
	{ __LINE__, 10, 0.5, 2, 7.5 },		/* 10 (0.25 + 0.5) */
	{ __LINE__, 10, 1.0, 4, 2.5 },		/* all parallel: T / p */
	{ __LINE__, 10, 0.0, 4, 10 },		/* all serial: T */
	{ __LINE__, 10, 0.97, 1, 10 },		/* p = 1: T whatever alpha */
	{ __LINE__, 2, 0.97, 47, 0.1012765957 },	/* 2 (0.97/47 + 0.03) */
	{ __LINE__, 1, 1.5, 2, 0.25 },		/* 1 (0.75 - 0.5) */
};

START_TEST(test_formula)
{
	double t = blackbox_formula(formula_rows[_i].tseq,
				    formula_rows[_i].alpha, formula_rows[_i].p);

	ck_assert_msg(fabs(t - formula_rows[_i].t) < 1e-9, "row %d: %.17g",
		      formula_rows[_i].line, t);
	/* and alpha_i inverts it */
	if (formula_rows[_i].p > 1)
		ck_assert_msg(fabs(blackbox_alpha_i(formula_rows[_i].tseq,
						    formula_rows[_i].p, t) -
				   formula_rows[_i].alpha) < 1e-12,
			      "row %d", formula_rows[_i].line);
}
END_TEST

/* ---- incremental equals batch -------------------------------------- */

START_TEST(test_incremental_batch)
{
	static struct bb_obs o[MAX_OBS];
	size_t n = make_obs(o, 1, SIGMA, 11 + _i), i, fits = 0;
	struct pandia_error err;
	struct blackbox on, ba;
	double ref[DEGREE + 1];

	ck_assert(blackbox_init(&on, DEGREE, &err) == 0);
	for (i = 0; i < n; i++) {
		ck_assert(blackbox_update(&on, o[i].x, o[i].p, o[i].t, NULL,
					  &err) == 0);
		if (on.fit != BB_FIT_OK) {
			ck_assert_int_eq(blackbox_fit(&ba, DEGREE, o, i + 1,
						      &err), -1);
			ck_assert(strstr(err.text, "more distinct size"));
			continue;
		}
		fits++;
		ck_assert_msg(blackbox_fit(&ba, DEGREE, o, i + 1, &err) == 0,
			      "prefix %zu: %s", i + 1, err.text);
		ck_assert(qr_fit(o, i + 1, DEGREE, 2500, ref) >= DEGREE + 1);
		ck_assert_msg(coef_gap(on.coef, ba.coef, DEGREE, 2500) < 1e-12,
			      "prefix %zu: online against batch %g", i + 1,
			      coef_gap(on.coef, ba.coef, DEGREE, 2500));
		ck_assert_msg(coef_gap(on.coef, ref, DEGREE, 2500) < 1e-9,
			      "prefix %zu: online against QR %g", i + 1,
			      coef_gap(on.coef, ref, DEGREE, 2500));
	}
	ck_assert(fits > 300);
}
END_TEST

/* Exactly k + 1 distinct sizes: the fit interpolates them. */
static const struct {
	int line;
	int k;
	double x[BB_MAX_DEGREE + 1];
} interp_rows[] = {
	{ __LINE__, 0, { 700 } },
	{ __LINE__, 1, { 50, 2500 } },
	{ __LINE__, 3, { 50, 100, 150, 200 } },
	{ __LINE__, 3, { 50, 900, 1700, 2500 } },
	{ __LINE__, 4, { 3, 5, 8, 13, 21 } },
	/* Chebyshev-like: 1, 2, ..., 7 is refused (condition 1.4e10) */
	{ __LINE__, 6, { 50, 214, 662, 1275, 1888, 2336, 2500 } },
};

START_TEST(test_interpolate)
{
	const int k = interp_rows[_i].k;
	struct pandia_error err;
	struct blackbox bb;
	double t, tmax = 0;
	unsigned fl;
	int j;

	ck_assert(blackbox_init(&bb, k, &err) == 0);
	for (j = 0; j <= k; j++) {
		/* some times that no polynomial of lower degree fits */
		t = 1 + 0.25 * j * j * (j % 2 ? -1 : 1) + 3 * j;
		tmax = fmax(tmax, fabs(t));
		ck_assert(blackbox_update(&bb, interp_rows[_i].x[j], 1, t, &fl,
					  &err) == 0);
		ck_assert_int_eq(blackbox_sizes_needed(&bb), k - j);
		ck_assert_uint_eq(fl, BB_ADDED_TSEQ | (j == k ? BB_REFITTED :
							0));
	}
	ck_assert_msg(bb.fit == BB_FIT_OK, "row %d: cond %g",
		      interp_rows[_i].line, bb.cond);
	/* within what the condition number allows: 1e-15 cond |t|max */
	for (j = 0; j <= k; j++) {
		t = 1 + 0.25 * j * j * (j % 2 ? -1 : 1) + 3 * j;
		ck_assert_msg(fabs(blackbox_tseq(&bb, interp_rows[_i].x[j]) -
				   t) < fmax(1e-15 * bb.cond, 1e-12) * tmax,
			      "row %d, size %d: %g off, cond %g",
			      interp_rows[_i].line, j,
			      blackbox_tseq(&bb, interp_rows[_i].x[j]) - t,
			      bb.cond);
	}
}
END_TEST

/* ---- alpha's key ----------------------------------------------------- */

static const struct {
	int line;
	int p;
	double x, alpha_i;	/* the time is made from alpha_i */
	unsigned flags;
	double alpha;		/* after the row */
	long count;
	int key_p;
	double key_x;
} key_rows[] = {
	{ __LINE__, 8, 2500, 0.5, BB_ALPHA_RESET, 0.5, 1, 8, 2500 },
	/* more threads beats a larger size */
	{ __LINE__, 47, 100, 0.6, BB_ALPHA_RESET, 0.6, 1, 47, 100 },
	{ __LINE__, 47, 2500, 0.9, BB_ALPHA_RESET, 0.9, 1, 47, 2500 },
	{ __LINE__, 16, 2500, 0.1, BB_ALPHA_LOWER, 0.9, 1, 47, 2500 },
	{ __LINE__, 47, 2500, 0.8, BB_ALPHA_FOLDED, 0.85, 2, 47, 2500 },
	{ __LINE__, 47, 1000, 0.2, BB_ALPHA_LOWER, 0.85, 2, 47, 2500 },
	{ __LINE__, 16, 100, 0.3, BB_ALPHA_LOWER, 0.85, 2, 47, 2500 },
	{ __LINE__, 2, 2500, 0.3, BB_ALPHA_LOWER, 0.85, 2, 47, 2500 },
	{ __LINE__, 47, 2500, 0.7, BB_ALPHA_FOLDED, 0.8, 3, 47, 2500 },
	/* one thread: into T_seq, alpha untouched */
	{ __LINE__, 1, 2500, 0, BB_ADDED_TSEQ | BB_REFITTED, 0.8, 3, 47,
	  2500 },
	{ __LINE__, 47, 2500.5, 0.1, BB_ALPHA_RESET, 0.1, 1, 47, 2500.5 },
};

START_TEST(test_key_rule)
{
	static struct bb_obs o[MAX_OBS];
	struct pandia_error err;
	struct blackbox bb;
	unsigned fl;
	size_t i, r;

	/* T_seq exact from the one-thread points */
	ck_assert(blackbox_init(&bb, DEGREE, &err) == 0);
	make_obs(o, 1, 0, 0);
	for (i = 0; i < N_SIZES * ARRAY_SIZE(p_set); i++)
		if (o[i].p == 1)
			ck_assert(blackbox_update(&bb, o[i].x, 1, o[i].t, &fl,
						  &err) == 0);
	ck_assert(!bb.has_alpha);
	for (r = 0; r < ARRAY_SIZE(key_rows); r++) {
		double x = key_rows[r].x;
		double t = blackbox_formula(tseq_true(x), key_rows[r].alpha_i,
					    key_rows[r].p);

		ck_assert(blackbox_update(&bb, x, key_rows[r].p, t, &fl,
					  &err) == 0);
		ck_assert_msg(fl == key_rows[r].flags, "row %d: flags %#x",
			      key_rows[r].line, fl);
		ck_assert_msg(fabs(bb.alpha - key_rows[r].alpha) < 1e-9,
			      "row %d: alpha %.17g", key_rows[r].line,
			      bb.alpha);
		ck_assert_msg(bb.alpha_count == key_rows[r].count &&
			      bb.alpha_p == key_rows[r].key_p &&
			      bb.alpha_x == key_rows[r].key_x,
			      "row %d: count %ld key (%d, %g)",
			      key_rows[r].line, bb.alpha_count, bb.alpha_p,
			      bb.alpha_x);
	}
}
END_TEST

/* ---- online against static, predict first then update ------------ */

/*
 * The paper's protocol (3.5): every (x, p) ten times, shuffled and
 * streamed; each point is predicted first, then added.  The static
 * model keeps T_seq from the first moment the model could predict;
 * alpha goes on by the same rule (the paper freezes only "the first
 * possible estimate of T_seq").  The two are the same model at the
 * freeze, so the largest error over the whole stream may be one they
 * share (seeds 113 and 120 here): over the whole stream the online
 * model is never worse; over the second half it is always better, and
 * so is its mean error.
 */
static const uint64_t online_seeds[] = {
	101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
	111, 112, 113, 114, 115, 116, 117, 118, 119, 120,
};

START_TEST(test_online_beats_static)
{
	static struct bb_obs o[MAX_OBS];
	size_t n = make_obs(o, 10, SIGMA, online_seeds[_i]), i, cnt = 0;
	double max_on = 0, max_st = 0, late_on = 0, late_st = 0;
	double sum_on = 0, sum_st = 0, eon, est, t;
	unsigned long long seed = online_seeds[_i];
	struct pandia_error err;
	struct blackbox on, st;
	bool frozen = false;

	ck_assert(blackbox_init(&on, DEGREE, &err) == 0);
	for (i = 0; i < n; i++) {
		if (frozen) {
			ck_assert(blackbox_predict(&on, o[i].x, o[i].p, &t,
						   NULL, &err) == 0);
			eon = fabs(t - o[i].t);
			ck_assert(blackbox_predict(&st, o[i].x, o[i].p, &t,
						   NULL, &err) == 0);
			est = fabs(t - o[i].t);
			max_on = fmax(max_on, eon);
			max_st = fmax(max_st, est);
			if (i >= n / 2) {
				late_on = fmax(late_on, eon);
				late_st = fmax(late_st, est);
			}
			sum_on += eon;
			sum_st += est;
			cnt++;
		}
		ck_assert(blackbox_update(&on, o[i].x, o[i].p, o[i].t, NULL,
					  &err) == 0);
		if (frozen && o[i].p > 1)
			ck_assert(blackbox_update(&st, o[i].x, o[i].p, o[i].t,
						  NULL, &err) == 0);
		if (!frozen && on.fit == BB_FIT_OK && on.has_alpha) {
			st = on;
			frozen = true;
		}
	}
	ck_assert(cnt > n - n / 10);
	ck_assert_msg(max_on <= max_st, "seed %llu: largest error online "
		      "%.4f s, static %.4f s", seed, max_on, max_st);
	ck_assert_msg(late_on < late_st, "seed %llu: largest error in the "
		      "second half online %.4f s, static %.4f s", seed,
		      late_on, late_st);
	ck_assert_msg(sum_on < sum_st, "seed %llu: mean error online %.4f s, "
		      "static %.4f s", seed, sum_on / cnt, sum_st / cnt);
	/* the online model ends near the truth */
	ck_assert(fabs(on.alpha - ALPHA_TRUE) < 0.005);
	for (t = 50; t <= 2500; t += 50)
		ck_assert(fabs(blackbox_tseq(&on, t) - tseq_true(t)) <
			  0.001 * tseq_true(2500));
}
END_TEST

/* ---- how alpha is aggregated --------------------------------------- */

static const uint64_t choice_seeds[] = { 201, 202, 203, 204, 205, 206,
	207, 208, 209, 210 };

/* Mean relative error at 47 threads over x >= 2000 against the truth. */
static double err47(const struct blackbox *bb, double alpha)
{
	struct blackbox b = *bb;
	double sum = 0, t, x;
	int n = 0;

	b.alpha = alpha;
	for (x = 2000; x <= 2500; x += 50, n++) {
		ck_assert(blackbox_predict(&b, x, 47, &t, NULL, NULL) == 0);
		sum += rel(t, t_true(x, 47));
	}
	return sum / n;
}

START_TEST(test_alpha_choice)
{
	static struct bb_obs o[MAX_OBS];
	size_t n = make_obs(o, 3, SIGMA, choice_seeds[_i]);
	double plain, clamped, e_key, e_plain, e_clamped;
	struct pandia_error err;
	struct blackbox bb;

	ck_assert_msg(blackbox_fit(&bb, DEGREE, o, n, &err) == 0, "%s",
		      err.text);
	ck_assert_int_eq(bb.alpha_count, 3);
	ck_assert(blackbox_alpha_mean(&bb, o, n, false, &plain, &err) == 0);
	ck_assert(blackbox_alpha_mean(&bb, o, n, true, &clamped, &err) == 0);
	e_key = err47(&bb, bb.alpha);
	e_plain = err47(&bb, plain);
	e_clamped = err47(&bb, clamped);
	ck_assert_msg(e_key < e_plain && e_key < e_clamped, "seed %llu: "
		      "max-key %.4f (alpha %.4f), mean %.4f (%.4f), clamped "
		      "%.4f (%.4f)", (unsigned long long)choice_seeds[_i],
		      e_key, bb.alpha, e_plain, plain, e_clamped, clamped);
	ck_assert_msg(e_key < 0.05, "max-key error %.4f", e_key);
}
END_TEST

/* ---- bad input -------------------------------------------------------- */

static const struct {
	int line;
	double x;
	int p;
	double t;
	const char *text;
} bad_obs_rows[] = {
	{ __LINE__, NAN, 1, 1, "the size must be a finite number, not nan" },
	{ __LINE__, INFINITY, 4, 1, "the size must be a finite number, "
	  "not inf" },
	{ __LINE__, 100, 0, 1, "the thread count must be at least 1, not 0" },
	{ __LINE__, 100, -3, 1, "the thread count must be at least 1, "
	  "not -3" },
	{ __LINE__, 100, 1, 0, "the time must be a finite number of seconds "
	  "above 0, not 0" },
	{ __LINE__, 100, 2, -1, "the time must be a finite number of seconds "
	  "above 0, not -1" },
	{ __LINE__, 100, 1, NAN, "the time must be a finite number of "
	  "seconds above 0, not nan" },
	{ __LINE__, 100, 8, INFINITY, "the time must be a finite number of "
	  "seconds above 0, not inf" },
};

START_TEST(test_bad_obs)
{
	struct blackbox bb, before;
	struct bb_obs ob = { bad_obs_rows[_i].x, bad_obs_rows[_i].p,
			     bad_obs_rows[_i].t };
	struct bb_obs two[2] = { { 100, 1, 1 }, ob };
	struct pandia_error err;
	char want[300];
	unsigned fl = 99;

	ck_assert(blackbox_init(&bb, 1, &err) == 0);
	ck_assert(blackbox_update(&bb, 50, 1, 0.5, NULL, &err) == 0);
	ck_assert(blackbox_update(&bb, 60, 1, 0.6, NULL, &err) == 0);
	memcpy(&before, &bb, sizeof(bb));
	ck_assert_int_eq(blackbox_update(&bb, ob.x, ob.p, ob.t, &fl, &err),
			 -1);
	ck_assert_msg(!strcmp(err.text, bad_obs_rows[_i].text), "row %d: %s",
		      bad_obs_rows[_i].line, err.text);
	ck_assert_uint_eq(fl, 0);
	ck_assert_msg(!memcmp(&before, &bb, sizeof(bb)), "row %d: changed",
		      bad_obs_rows[_i].line);
	/* the batch fit names the observation */
	ck_assert_int_eq(blackbox_fit(&bb, 1, two, 2, &err), -1);
	snprintf(want, sizeof(want), "observation 2: %s",
		 bad_obs_rows[_i].text);
	ck_assert_str_eq(err.text, want);
	/* and predict refuses the same size and thread count */
	if (!isfinite(ob.x) || ob.p < 1) {
		double t;

		ck_assert_int_eq(blackbox_predict(&before, ob.x, ob.p, &t,
						  NULL, &err), -1);
		ck_assert_str_eq(err.text, bad_obs_rows[_i].text);
	}
}
END_TEST

START_TEST(test_degree_range)
{
	struct pandia_error err;
	struct blackbox bb;

	ck_assert_int_eq(blackbox_init(&bb, -1, &err), -1);
	ck_assert_str_eq(err.text, "the degree of T_seq must be from 0 to 6, "
			 "not -1");
	ck_assert_int_eq(blackbox_init(&bb, BB_MAX_DEGREE + 1, &err), -1);
	ck_assert_int_eq(blackbox_fit(&bb, 7, NULL, 0, &err), -1);
	ck_assert_str_eq(err.text, "the degree of T_seq must be from 0 to 6, "
			 "not 7");
	ck_assert_int_eq(blackbox_init(&bb, 0, &err), 0);
}
END_TEST

/* Fewer than k + 1 distinct sizes: how many more, wherever asked. */
static const struct {
	int line;
	int n;
	struct bb_obs o[6];
	const char *text;
} few_rows[] = {
	{ __LINE__, 0, { { 0, 0, 0 } },
	  "T_seq needs 4 more distinct sizes at one thread (degree 3 needs "
	  "4, 0 seen)" },
	{ __LINE__, 2, { { 100, 2, 1 }, { 200, 47, 1 } },
	  "T_seq needs 4 more distinct sizes at one thread (degree 3 needs "
	  "4, 0 seen)" },
	{ __LINE__, 5, { { 100, 1, 1 }, { 200, 1, 2 }, { 100, 1, 1.1 },
			 { 200, 1, 2.1 }, { 200, 8, 1 } },
	  "T_seq needs 2 more distinct sizes at one thread (degree 3 needs "
	  "4, 2 seen)" },
	{ __LINE__, 3, { { 100, 1, 1 }, { 200, 1, 2 }, { 300, 1, 3 } },
	  "T_seq needs 1 more distinct size at one thread (degree 3 needs "
	  "4, 3 seen)" },
};

START_TEST(test_too_few_sizes)
{
	struct pandia_error err;
	struct blackbox bb;
	unsigned fl;
	double t;
	int i, seen = 0;

	ck_assert_int_eq(blackbox_fit(&bb, DEGREE, few_rows[_i].o,
				      (size_t)few_rows[_i].n, &err), -1);
	ck_assert_msg(!strcmp(err.text, few_rows[_i].text), "row %d: %s",
		      few_rows[_i].line, err.text);
	ck_assert(blackbox_init(&bb, DEGREE, &err) == 0);
	for (i = 0; i < few_rows[_i].n; i++) {
		const struct bb_obs *o = &few_rows[_i].o[i];

		ck_assert(blackbox_update(&bb, o->x, o->p, o->t, &fl,
					  &err) == 0);
		if (o->p > 1)
			ck_assert_uint_eq(fl, BB_ALPHA_NO_FIT);
		else
			seen = bb.n_sizes;
	}
	ck_assert_int_eq(blackbox_sizes_needed(&bb), DEGREE + 1 - seen);
	ck_assert(!bb.has_alpha);
	ck_assert_int_eq(blackbox_predict(&bb, 1000, 1, &t, NULL, &err), -1);
	ck_assert_str_eq(err.text, few_rows[_i].text);
}
END_TEST

/* Distinct sizes too close for the degree: refused, not printed. */
START_TEST(test_ill_conditioned)
{
	static const double x[] = { 1e6, 1e6 + 1, 1e6 + 2, 1e6 + 3 };
	struct bb_obs o[4];
	struct pandia_error err;
	struct blackbox bb;
	unsigned fl;
	double t;
	int i;

	ck_assert(blackbox_init(&bb, DEGREE, &err) == 0);
	for (i = 0; i < 4; i++) {
		o[i] = (struct bb_obs){ x[i], 1, 1 + i };
		ck_assert(blackbox_update(&bb, x[i], 1, 1 + i, &fl, &err) == 0);
	}
	ck_assert_uint_eq(fl, BB_ADDED_TSEQ | BB_REFITTED | BB_FIT_FAILED);
	ck_assert_int_eq(bb.fit, BB_FIT_ILL);
	ck_assert(bb.cond > BB_COND_LIMIT);
	ck_assert_int_eq(blackbox_predict(&bb, 1e6, 1, &t, NULL, &err), -1);
	ck_assert_msg(strstr(err.text, "the fit of T_seq is ill-conditioned "
			     "(condition number ") &&
		      strstr(err.text, "the limit is 1e+10): measure "
			     "one-thread sizes further apart, or lower the "
			     "degree from 3"), "%s", err.text);
	/* no alpha from a fit that is not there */
	ck_assert(blackbox_update(&bb, 1e6, 4, 0.5, &fl, &err) == 0);
	ck_assert_uint_eq(fl, BB_ALPHA_NO_FIT);
	ck_assert_int_eq(blackbox_fit(&bb, DEGREE, o, 4, &err), -1);
	ck_assert(strstr(err.text, "ill-conditioned"));
	/*
	 * Monomials are not centred: even a line through sizes this
	 * close to each other, relative to their size, is refused.
	 */
	ck_assert_int_eq(blackbox_fit(&bb, 1, o, 4, &err), -1);
	ck_assert(strstr(err.text, "ill-conditioned"));
	ck_assert_int_eq(blackbox_fit(&bb, 0, o, 4, &err), 0);
	ck_assert(fabs(blackbox_tseq(&bb, 1e6) - 2.5) < 1e-12);
}
END_TEST

/* Warnings come back as flags: negative times, extrapolation, alpha. */
START_TEST(test_warnings)
{
	struct pandia_error err;
	struct blackbox bb;
	unsigned fl, w;
	double t;

	/* T_seq(x) = 0.5 - 0.001 x from two sizes */
	ck_assert(blackbox_init(&bb, 1, &err) == 0);
	ck_assert(blackbox_update(&bb, 100, 1, 0.4, NULL, &err) == 0);
	ck_assert(blackbox_update(&bb, 200, 1, 0.3, &fl, &err) == 0);
	ck_assert_uint_eq(fl, BB_ADDED_TSEQ | BB_REFITTED);
	ck_assert(blackbox_predict(&bb, 150, 1, &t, &w, &err) == 0);
	ck_assert(fabs(t - 0.35) < 1e-12);
	ck_assert_uint_eq(w, 0);
	ck_assert(blackbox_predict(&bb, 300, 1, &t, &w, &err) == 0);
	ck_assert_uint_eq(w, BB_WARN_OUTSIDE);
	ck_assert(blackbox_predict(&bb, 1000, 1, &t, &w, &err) == 0);
	ck_assert(fabs(t + 0.5) < 1e-12);
	ck_assert_uint_eq(w, BB_WARN_NEGATIVE | BB_WARN_OUTSIDE);
	ck_assert_str_eq(blackbox_flag_text(BB_WARN_NEGATIVE), "the predicted "
			 "time is not positive: the polynomial is used outside "
			 "the sizes measured");
	/* more threads, but no alpha yet */
	ck_assert_int_eq(blackbox_predict(&bb, 150, 2, &t, &w, &err), -1);
	ck_assert_str_eq(err.text, "alpha is not known yet: no observation "
			 "with more than one thread since T_seq was fitted");
	/* T_seq <= 0 at the size: no alpha_i */
	ck_assert(blackbox_update(&bb, 1000, 2, 0.1, &fl, &err) == 0);
	ck_assert_uint_eq(fl, BB_ALPHA_BAD_TSEQ);
	ck_assert(!bb.has_alpha);
	/* superlinear: alpha_i = 2 (1 - 0.1 / 0.3) = 4/3 */
	ck_assert(blackbox_update(&bb, 200, 2, 0.1, &fl, &err) == 0);
	ck_assert_uint_eq(fl, BB_ALPHA_RESET);
	ck_assert(blackbox_predict(&bb, 150, 2, &t, &w, &err) == 0);
	ck_assert_uint_eq(w, BB_WARN_ALPHA_RANGE);
	ck_assert(fabs(t - 0.35 * (2.0 / 3 - 1.0 / 3)) < 1e-12);
	/* every flag has a text */
	for (fl = 1; fl <= BB_WARN_ALPHA_RANGE; fl <<= 1)
		ck_assert(blackbox_flag_text(fl)[0]);
	ck_assert_str_eq(blackbox_flag_text(3), "");
}
END_TEST

/*
 * A model one odd run would wreck: T_seq(x) = 0.1 + 0.001 x from sizes
 * 100 and 200 (alpha 0.9 at 4 threads, size 200); a run at 4 threads
 * and size 5000, slower than T_seq extrapolated there, would make alpha
 * negative.  The update is judged, and a model already out of range is
 * not judged again.
 */
START_TEST(test_plausible)
{
	struct pandia_error err;
	struct blackbox bb, after;

	ck_assert(blackbox_init(&bb, 1, &err) == 0);
	ck_assert(blackbox_update(&bb, 100, 1, 0.2, NULL, &err) == 0);
	ck_assert(blackbox_update(&bb, 200, 1, 0.3, NULL, &err) == 0);
	ck_assert(blackbox_update(&bb, 200, 4, 0.3 * (0.9 / 4 + 0.1), NULL,
				  &err) == 0);
	ck_assert(fabs(bb.alpha - 0.9) < 1e-9);
	after = bb;
	ck_assert(blackbox_update(&after, 200, 4, 0.3 * (0.8 / 4 + 0.2), NULL,
				  &err) == 0);
	ck_assert_int_eq(blackbox_plausible(&bb, &after, 200, &err), 0);
	/* T_seq(5000) = 5.1 s; 6 s on 4 cores: alpha_i = -0.235 */
	after = bb;
	ck_assert(blackbox_update(&after, 5000, 4, 6, NULL, &err) == 0);
	ck_assert(after.alpha < 0);
	ck_assert_int_eq(blackbox_plausible(&bb, &after, 5000, &err), -1);
	ck_assert_msg(strstr(err.text, "alpha would become -0.2353, outside "
			     "[0, 1]") &&
		      strstr(err.text, "T_seq(5000) = 5.1 s is extrapolated "
			     "from the one-thread sizes 100 to 200"),
		      "%s", err.text);
	/* already out of range: not judged again */
	ck_assert_int_eq(blackbox_plausible(&after, &after, 5000, &err), 0);
	/* a one-thread run that makes T_seq negative at an end: the
	   line through (100, 0.2), (200, 0.3), (300, 5) is -0.57 at 100 */
	after = bb;
	ck_assert(blackbox_update(&after, 300, 1, 5, NULL, &err) == 0);
	ck_assert(blackbox_tseq(&after, 300) <= 0 ||
		  blackbox_tseq(&after, 100) <= 0 ||
		  blackbox_tseq(&after, 200) <= 0);
	ck_assert_int_eq(blackbox_plausible(&bb, &after, 300, &err), -1);
	ck_assert_msg(strstr(err.text, "T_seq would not be positive"), "%s",
		      err.text);
}
END_TEST

/* ---- JSON ------------------------------------------------------------ */

/*
 * Degree 1 from (100, 1, 0.4), (200, 1, 0.3), (200, 2, 0.2): sizes
 * over 2^8 = 256 (100 chose 2^7, 200 doubled it, the sums halved
 * exactly): 0.390625 and 0.78125; T_seq = 0.5 - 0.001 x; alpha_i =
 * 2 (1 - 0.2 / 0.3) = 2/3 at key (2, 200).
 */
static const char golden[] =
	"{\n"
	"  \"degree\": 1,\n"
	"  \"coefficients\": [0.5, -0.001],\n"
	"  \"alpha\": 0.6666666667,\n"
	"  \"alpha_key\": {\n"
	"    \"threads\": 2,\n"
	"    \"size\": \"200\",\n"
	"    \"count\": 1\n"
	"  },\n"
	"  \"sums\": {\n"
	"    \"scale_exp\": 8,\n"
	"    \"size_powers\": [\"2\", \"1.171875\", \"0.762939453125\"],\n"
	"    \"time_moments\": [\"0.69999999999999996\", \"0.390625\"],\n"
	"    \"sizes_seen\": [\"100\", \"200\"],\n"
	"    \"size_range\": [\"100\", \"200\"]\n"
	"  }\n"
	"}\n";

static void golden_model(struct blackbox *bb)
{
	struct pandia_error err;

	ck_assert(blackbox_init(bb, 1, &err) == 0);
	ck_assert(blackbox_update(bb, 100, 1, 0.4, NULL, &err) == 0);
	ck_assert(blackbox_update(bb, 200, 1, 0.3, NULL, &err) == 0);
	ck_assert(blackbox_update(bb, 200, 2, 0.2, NULL, &err) == 0);
}

/* Parse TEXT and load its models.blackbox; 0 or -1 with err. */
static int load_text(const char *text, struct blackbox *bb,
		     struct pandia_error *err)
{
	struct json_src src = { text, "w.json", err };
	json_t *root = json_src_parse(&src), *o;
	int ret;

	if (!root)
		return -1;
	o = json_object_get(json_object_get(root, "models"), "blackbox");
	ck_assert(o != NULL);
	ret = blackbox_from_json(bb, o, &src, "models.blackbox");
	json_decref(root);
	return ret;
}

/* "{ "models": { "blackbox": BODY } }" with BODY's lines indented. */
static char *wrap(const char *body)
{
	return xasprintf("{\n\"models\": {\n\"blackbox\": %s}\n}\n", body);
}

START_TEST(test_json_golden)
{
	struct pandia_error err;
	struct blackbox bb, back;
	json_t *j;
	char *s, *doc;

	golden_model(&bb);
	j = blackbox_to_json(&bb);
	s = json_to_text(j);
	ck_assert_str_eq(s, golden);
	doc = wrap(s);
	ck_assert_msg(load_text(doc, &back, &err) == 0, "%d:%d: %s", err.line,
		      err.column, err.text);
	ck_assert(!memcmp(back.pow_sum, bb.pow_sum, sizeof(bb.pow_sum)));
	ck_assert(back.alpha_x == 200 && back.alpha_p == 2);
	ck_assert(fabs(blackbox_tseq(&back, 150) - 0.35) < 1e-12);
	json_decref(j);
	free(s);
	free(doc);
}
END_TEST

/* Every field of the state, bit for bit. */
static void same_state(const struct blackbox *a, const struct blackbox *b)
{
	int k = a->degree;

	ck_assert_int_eq(a->degree, b->degree);
	ck_assert_int_eq(a->scale_exp, b->scale_exp);
	ck_assert(!memcmp(a->pow_sum, b->pow_sum, sizeof(double) *
			  (2 * k + 1)));
	ck_assert(!memcmp(a->moment, b->moment, sizeof(double) * (k + 1)));
	ck_assert_int_eq(a->n_sizes, b->n_sizes);
	ck_assert(!memcmp(a->sizes, b->sizes, sizeof(double) * a->n_sizes));
	ck_assert(a->size_min == b->size_min && a->size_max == b->size_max);
	ck_assert_int_eq(a->fit, b->fit);
	ck_assert(!memcmp(a->coef, b->coef, sizeof(double) * (k + 1)));
	ck_assert(a->has_alpha == b->has_alpha);
	if (a->has_alpha) {
		/* alpha goes through the writer's 10 digits */
		ck_assert(rel(a->alpha, b->alpha) < 1e-9);
		ck_assert(a->alpha_p == b->alpha_p &&
			  a->alpha_x == b->alpha_x &&
			  a->alpha_count == b->alpha_count);
	}
}

/*
 * Save, load, update both: the same state.  The refit on loading uses
 * the very sums, so the coefficients are bit for bit those saved.
 */
START_TEST(test_json_round_trip)
{
	static struct bb_obs o[MAX_OBS];
	size_t n = make_obs(o, 1, SIGMA, 31 + _i), i;
	struct pandia_error err;
	struct blackbox bb, back;
	char *s, *s2, *doc;
	json_t *j;

	ck_assert(blackbox_init(&bb, DEGREE, &err) == 0);
	for (i = 0; i < n; i++) {
		ck_assert(blackbox_update(&bb, o[i].x, o[i].p, o[i].t, NULL,
					  &err) == 0);
		if (i % 37 && i != n - 1)
			continue;
		j = blackbox_to_json(&bb);
		s = json_to_text(j);
		json_decref(j);
		doc = wrap(s);
		ck_assert_msg(load_text(doc, &back, &err) == 0,
			      "after %zu: %d:%d: %s", i + 1, err.line,
			      err.column, err.text);
		same_state(&bb, &back);
		j = blackbox_to_json(&back);
		s2 = json_to_text(j);
		json_decref(j);
		ck_assert_str_eq(s, s2);
		free(s);
		free(s2);
		free(doc);
	}
}
END_TEST

/* A hand-written model: coefficients and alpha, no sums. */
START_TEST(test_json_by_hand)
{
	static const char doc[] =
		"{\"models\": {\"blackbox\": {\"degree\": 2,"
		" \"coefficients\": [1, 0, 1e-6], \"alpha\": 0.9,"
		" \"alpha_key\": {\"threads\": 8, \"size\": 1000,"
		" \"count\": 1}, \"sums\": {\"scale_exp\": 0,"
		" \"size_powers\": [0, 0, 0, 0, 0],"
		" \"time_moments\": [0, 0, 0], \"sizes_seen\": [],"
		" \"size_range\": null}}}}";
	struct pandia_error err;
	struct blackbox bb;
	unsigned w;
	double t;

	ck_assert_msg(load_text(doc, &bb, &err) == 0, "%s", err.text);
	ck_assert_int_eq(blackbox_sizes_needed(&bb), 3);
	ck_assert(blackbox_predict(&bb, 1000, 8, &t, &w, &err) == 0);
	ck_assert(fabs(t - 2 * (0.9 / 8 + 0.1)) < 1e-12);
	ck_assert_uint_eq(w, BB_WARN_OUTSIDE);
	/* the sums take over once they determine a fit */
	ck_assert(blackbox_update(&bb, 10, 1, 1, NULL, &err) == 0);
	ck_assert(blackbox_update(&bb, 20, 1, 2, NULL, &err) == 0);
	ck_assert(fabs(blackbox_tseq(&bb, 1000) - 2) < 1e-12);
	ck_assert(blackbox_update(&bb, 30, 1, 3, NULL, &err) == 0);
	ck_assert(fabs(blackbox_tseq(&bb, 1000) - 100) < 1e-9);
}
END_TEST

/* Sums that are singular: loaded, no T_seq, and predict says why. */
START_TEST(test_json_singular)
{
	static const char fmt[] =
		"{\"models\": {\"blackbox\": {\"degree\": 1,"
		" \"coefficients\": %s, \"alpha\": null, \"alpha_key\": null,"
		" \"sums\": {\"scale_exp\": 0, \"size_powers\": [2, 2, 2],"
		" \"time_moments\": [1, 1], \"sizes_seen\": [1, 0.5],"
		" \"size_range\": [0.5, 1]}}}}";
	struct pandia_error err;
	struct blackbox bb;
	char *doc;
	double t;

	doc = xasprintf(fmt, "null");
	ck_assert_msg(load_text(doc, &bb, &err) == 0, "%s", err.text);
	free(doc);
	ck_assert_int_eq(bb.fit, BB_FIT_SINGULAR);
	ck_assert_int_eq(blackbox_predict(&bb, 1, 1, &t, NULL, &err), -1);
	ck_assert_str_eq(err.text, "the fit of T_seq is singular: the "
			 "one-thread sizes do not determine a polynomial of "
			 "degree 1");
	doc = xasprintf(fmt, "[1, 2]");
	ck_assert_int_eq(load_text(doc, &bb, &err), -1);
	free(doc);
	ck_assert_str_eq(err.text, "models.blackbox.coefficients: given, but "
			 "the sums give no fit: the fit of T_seq is singular: "
			 "the one-thread sizes do not determine a polynomial "
			 "of degree 1");
}
END_TEST

/* The golden text with one change, and the message it must give. */
static const struct {
	int line;
	const char *from, *to, *text;
} json_bad_rows[] = {
	{ __LINE__, "\"degree\": 1", "\"degree\": \"1\"",
	  "models.blackbox.degree: must be an integer, not a string" },
	{ __LINE__, "\"degree\": 1", "\"degree\": 9",
	  "models.blackbox.degree: must be from 0 to 6, not 9" },
	{ __LINE__, "\"degree\": 1,", "",
	  "models.blackbox: missing field 'degree'" },
	{ __LINE__, "\"degree\": 1", "\"degre\": 1",
	  "models.blackbox.degre: unknown field 'degre'" },
	{ __LINE__, "[0.5, -0.001]", "[0.5]",
	  "models.blackbox.coefficients: must hold 2 values, not 1" },
	{ __LINE__, "[0.5, -0.001]", "[0.5, \"x\"]",
	  "models.blackbox.coefficients[1]: must be a number, not a string" },
	{ __LINE__, "[0.5, -0.001]", "[0.5, -0.002]",
	  "models.blackbox.coefficients[1]: -0.002 does not match the fit of "
	  "the sums (-0.001): edit neither by hand, or drop the sums" },
	{ __LINE__, "[0.5, -0.001]", "{}",
	  "models.blackbox.coefficients: must be an array, not an object" },
	{ __LINE__, "\"alpha\": 0.6666666667", "\"alpha\": null",
	  "models.blackbox.alpha: alpha and alpha_key must both be null or "
	  "both given" },
	{ __LINE__, "\"alpha\": 0.6666666667", "\"alpha\": \"0.6\"",
	  "models.blackbox.alpha: must be a finite number or null, not a "
	  "string" },
	{ __LINE__, "\"threads\": 2", "\"threads\": 1",
	  "models.blackbox.alpha_key.threads: must be from 2 to 1073741824, "
	  "not 1" },
	{ __LINE__, "\"size\": \"200\"", "\"size\": \"big\"",
	  "models.blackbox.alpha_key.size: 'big' is not a number" },
	{ __LINE__, "\"count\": 1", "\"count\": 0",
	  "models.blackbox.alpha_key.count: must be from 1 to "
	  "4611686018427387904, not 0" },
	{ __LINE__, "\"count\": 1", "\"cnt\": 1",
	  "models.blackbox.alpha_key.cnt: unknown field 'cnt'" },
	{ __LINE__, "\"scale_exp\": 8", "\"scale_exp\": -1",
	  "models.blackbox.sums.scale_exp: must be from 0 to 1000, not -1" },
	{ __LINE__, "\"scale_exp\": 8", "\"scale_exp\": 7",
	  "models.blackbox.sums.sizes_seen[1]: 200 is beyond 2^scale_exp" },
	{ __LINE__, "[\"2\", \"1.171875\", \"0.762939453125\"]",
	  "[\"2\", \"1.171875\"]",
	  "models.blackbox.sums.size_powers: must hold 3 values, not 2" },
	{ __LINE__, "\"1.171875\"", "\"nan\"",
	  "models.blackbox.sums.size_powers[1]: must be finite" },
	{ __LINE__, "\"1.171875\"", "true",
	  "models.blackbox.sums.size_powers[1]: must be a number or a string "
	  "holding one, not a boolean" },
	{ __LINE__, "[\"2\", \"1.171875\"", "[\"2.5\", \"1.171875\"",
	  "models.blackbox.sums.size_powers: the first, the number of "
	  "one-thread observations, must be a whole number, not 2.5" },
	{ __LINE__, "\"0.762939453125\"]", "\"-1\"]",
	  "models.blackbox.sums.size_powers[2]: an even power sum must not "
	  "be negative" },
	{ __LINE__, "\"sizes_seen\": [\"100\", \"200\"]",
	  "\"sizes_seen\": [\"100\", \"100\"]",
	  "models.blackbox.sums.sizes_seen[1]: 100 is listed twice" },
	{ __LINE__, "\"sizes_seen\": [\"100\", \"200\"]",
	  "\"sizes_seen\": [\"100\", \"200\", \"3\"]",
	  "models.blackbox.sums.sizes_seen: must hold at most 2 values, "
	  "not 3" },
	{ __LINE__, "\"sizes_seen\": [\"100\", \"200\"]", "\"sizes_seen\": []",
	  "models.blackbox.sums.sizes_seen: 0 sizes, but 2 one-thread "
	  "observations" },
	{ __LINE__, "\"size_range\": [\"100\", \"200\"]",
	  "\"size_range\": [\"200\", \"100\"]",
	  "models.blackbox.sums.size_range: must be [min, max] within "
	  "2^scale_exp" },
	{ __LINE__, "\"size_range\": [\"100\", \"200\"]",
	  "\"size_range\": [\"150\", \"200\"]",
	  "models.blackbox.sums.size_range: does not hold size 100 of "
	  "sizes_seen" },
	{ __LINE__, "\"size_range\": [\"100\", \"200\"]",
	  "\"size_range\": null",
	  "models.blackbox.sums.size_range: must be given when there are "
	  "one-thread observations" },
	{ __LINE__, "\"time_moments\"", "\"time_moment\"",
	  "models.blackbox.sums.time_moment: unknown field 'time_moment'" },
	{ __LINE__, "\"sums\": {", "\"sums\": [{",
	  NULL },	/* not JSON: the parser's own message */
};

/* Replace the first FROM in S by TO (new string). */
static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);

	ck_assert_msg(at != NULL, "'%s' not in the golden text", from);
	return xasprintf("%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
}

START_TEST(test_json_bad)
{
	struct pandia_error err;
	struct blackbox bb;
	char *body, *doc;

	body = replace(golden, json_bad_rows[_i].from, json_bad_rows[_i].to);
	doc = wrap(body);
	ck_assert_int_eq(load_text(doc, &bb, &err), -1);
	ck_assert_str_eq(err.source, "w.json");
	ck_assert_msg(err.line > 0 && err.column > 0, "row %d: no position",
		      json_bad_rows[_i].line);
	if (json_bad_rows[_i].text)
		ck_assert_msg(!strcmp(err.text, json_bad_rows[_i].text),
			      "row %d: %s", json_bad_rows[_i].line, err.text);
	else
		ck_assert(!strncmp(err.text, "not valid JSON", 14));
	free(body);
	free(doc);
}
END_TEST

/* The error sits at the bad value's line and column. */
START_TEST(test_json_position)
{
	struct pandia_error err;
	struct blackbox bb;
	char *body = replace(golden, "\"threads\": 2", "\"threads\": 0");
	char *doc = wrap(body);

	ck_assert_int_eq(load_text(doc, &bb, &err), -1);
	/* "{", "\"models\": {", "\"blackbox\": {", then the golden's */
	ck_assert_int_eq(err.line, 8);
	ck_assert_int_eq(err.column, 16);
	free(body);
	free(doc);
}
END_TEST

/* ---- through the model interface (blackbox_model.c) ---------------- */

/*
 * The digest's workload through plan, fit, open and predict on a
 * 48-core machine: the runs planned (every size at every thread count,
 * one thread per core, socket 0 first), their times from the formula
 * recorded as the profiler would, the fit into models.blackbox, and
 * predictions equal to the formula.
 */
START_TEST(test_interface)
{
	struct pandia_machine *m = tk_machine("pack:2 core:24 pu:1", NULL);
	struct pandia_workload *w = workload_new();
	double sizes[N_SIZES];
	struct model_env env = {
		.m = m, .sizes = sizes, .n_sizes = N_SIZES,
		.threads = p_set, .n_threads = ARRAY_SIZE(p_set),
		.degree = DEGREE,
	};
	struct model_prediction pr = { NAN, NAN, NULL, NULL, NAN };
	struct model_run *runs, *more;
	struct pandia_error err;
	struct blackbox bb;
	void *st;
	int n, i, j, pus[4] = { 0, 1, 2, 3 };

	for (i = 0; i < N_SIZES; i++)
		sizes[i] = 50.0 * (i + 1);
	n = model_blackbox.plan(&env, w, &runs, &err);
	ck_assert_msg(n == N_SIZES * (int)ARRAY_SIZE(p_set), "%d: %s", n,
		      err.text);
	ck_assert(!model_blackbox.demands);
	w->runs = xcalloc((size_t)n, sizeof(*w->runs));
	for (i = 0; i < n; i++) {
		struct wl_run *r = &w->runs[w->n_runs++];

		ck_assert_int_eq(runs[i].n, p_set[i % ARRAY_SIZE(p_set)]);
		ck_assert(runs[i].size == sizes[i / ARRAY_SIZE(p_set)]);
		ck_assert_int_eq(runs[i].n_corun, 0);
		r->id = xstrdup(runs[i].id);
		r->n_cpus = runs[i].n;
		r->cpus = xcalloc((size_t)r->n_cpus, sizeof(int));
		for (j = 0; j < r->n_cpus; j++) {
			/* one per core, socket 0 filled first */
			ck_assert_int_eq(runs[i].pus[j], j);
			r->cpus[j] = m->pus[runs[i].pus[j]].os_index;
		}
		r->n_times = 1;
		r->times = xmalloc(sizeof(double));
		r->times[0] = t_true(runs[i].size, runs[i].n);
		r->has_size = true;
		r->size = runs[i].size;
	}
	model_runs_free(runs, n);
	/* one stage: with the runs in, nothing more to make */
	ck_assert_int_eq(model_blackbox.plan(&env, w, &more, &err), 0);
	ck_assert_msg(model_blackbox.fit(&env, w, &err) == 0, "%s", err.text);
	ck_assert_msg(blackbox_of_workload(&bb, w, &err) == 0, "%s",
		      err.text);
	check_recovered(&bb, "through the interface", 1e-8);

	st = model_blackbox.open(m, w, NULL, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	ck_assert(model_blackbox.predict(st, pus, 4, NAN, &pr, &err) < 0);
	ck_assert_msg(strstr(err.text, "--size"), "%s", err.text);
	ck_assert(model_blackbox.predict(st, pus, 4, 1234, &pr, &err) == 0);
	ck_assert_msg(rel(pr.time, t_true(1234, 4)) < 1e-9, "%.17g",
		      pr.time);
	ck_assert(rel(pr.speedup, tseq_true(1234) / t_true(1234, 4)) < 1e-9);
	ck_assert(pr.warning == NULL);
	ck_assert(model_blackbox.predict(st, pus, 1, 5000, &pr, &err) == 0);
	ck_assert_msg(pr.warning && strstr(pr.warning, "extrapolated"),
		      "%s", pr.warning ? pr.warning : "no warning");
	model_blackbox.close(st);
	workload_free(w);
	machine_free(m);
}
END_TEST

/* p is the cores a placement uses: threads sharing a core count once. */
START_TEST(test_cores)
{
	struct pandia_machine *m = tk_machine("pack:1 core:2 pu:2", NULL);
	int a[] = { 0, 1 }, b[] = { 0, 2 }, c[] = { 0, 0, 1, 3 };

	ck_assert_int_eq(m->pus[0].core, m->pus[1].core);
	ck_assert_int_eq(blackbox_cores(m, a, 2), 1);
	ck_assert_int_eq(blackbox_cores(m, b, 2), 2);
	ck_assert_int_eq(blackbox_cores(m, c, 4), 2);
	machine_free(m);
}
END_TEST

/* What plan refuses, before anything runs. */
static const struct {
	int line;
	int n_sizes;
	double sizes[4];
	int n_threads;
	int threads[3];
	int degree;
	const char *msg;
} plan_bad_rows[] = {
	{ __LINE__, 0, { 0 }, 1, { 1 }, 1, "needs input sizes" },
	{ __LINE__, 3, { 1, 2, 2 }, 1, { 1 }, 2,
	  "degree 2 needs 3 distinct sizes; --sizes gives 2: 1 more" },
	{ __LINE__, 2, { 1, 2 }, 2, { 2, 4 }, 1, "must include 1" },
	{ __LINE__, 2, { 1, 2 }, 2, { 1, 49 }, 1,
	  "49 threads: the machine has 48 cores" },
};

START_TEST(test_plan_bad)
{
	struct pandia_machine *m = tk_machine("pack:2 core:24 pu:1", NULL);
	struct pandia_workload *w = workload_new();
	struct model_env env = {
		.m = m, .sizes = plan_bad_rows[_i].sizes,
		.n_sizes = plan_bad_rows[_i].n_sizes,
		.threads = plan_bad_rows[_i].threads,
		.n_threads = plan_bad_rows[_i].n_threads,
		.degree = plan_bad_rows[_i].degree,
	};
	struct model_run *runs = NULL;
	struct pandia_error err;

	ck_assert_int_eq(model_blackbox.plan(&env, w, &runs, &err), -1);
	ck_assert_msg(strstr(err.text, plan_bad_rows[_i].msg),
		      "line %d: %s", plan_bad_rows[_i].line, err.text);
	ck_assert(runs == NULL);
	workload_free(w);
	machine_free(m);
}
END_TEST

/*
 * The Pandia model at another size: t1 scaled by T_seq; p from T_seq's
 * constant term counted as serial (docs/blackbox.md).
 */
START_TEST(test_pandia_t1_at)
{
	static const char doc[] =
		"{\"schema\": \"pandia-workload/1\", \"size\": 1000,\n"
		" \"model\": {\"t1\": 10, \"p\": 0.9, \"o_s\": 0, \"l\": 0,"
		" \"b\": 0, \"demands\": {}},\n"
		" \"models\": {\"blackbox\": {\"degree\": 3,"
		" \"coefficients\": [1e-3, 2e-6, 5e-9, 3e-10],"
		" \"alpha\": null, \"alpha_key\": null,"
		" \"sums\": {\"scale_exp\": 0,"
		" \"size_powers\": [0, 0, 0, 0, 0, 0, 0],"
		" \"time_moments\": [0, 0, 0, 0], \"sizes_seen\": [],"
		" \"size_range\": null}}}}";
	static const double sizes[] = { 2000, 1000, 10 };
	struct pandia_error err;
	struct pandia_workload *w = workload_parse(doc, "t.json", &err);
	const char *warn;
	double t1, p;
	size_t i;

	ck_assert_msg(w != NULL, "%s", err.text);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		double x = sizes[i], t0 = tseq_true(1000);
		double want_t1 = 10 * tseq_true(x) / t0;
		/* by hand: the constant term in t1's units is serial, the
		   rest of the serial second grows with the rest */
		double fix = 10 * 1e-3 / t0;
		double sigma = (1 - fix) / (10 - fix);
		double want_p = 1 - (fix + sigma * (want_t1 - fix)) / want_t1;

		ck_assert(model_pandia_at(w, x, &t1, &p, &warn, &err) == 0);
		ck_assert_msg(rel(t1, want_t1) < 1e-12, "%.17g", t1);
		ck_assert_msg(fabs(p - want_p) < 1e-12, "size %g: p %.17g, "
			      "want %.17g", x, p, want_p);
	}
	/* at the size profiled p is the profile's; a tiny input is
	   nearly serial: the best thread count moves with the size */
	ck_assert(model_pandia_at(w, 1000, &t1, &p, &warn, &err) == 0);
	ck_assert(fabs(p - 0.9) < 1e-12);
	ck_assert(model_pandia_at(w, 10, &t1, &p, &warn, &err) == 0);
	ck_assert_msg(p < 0.05, "%g", p);
	/* no size recorded: T_seq itself, the profile's p */
	w->has_size = false;
	ck_assert(model_pandia_at(w, 2000, &t1, &p, &warn, &err) == 0);
	ck_assert(rel(t1, tseq_true(2000)) < 1e-12);
	ck_assert(p == 0.9);
	ck_assert(model_pandia_at(w, NAN, &t1, NULL, &warn, &err) < 0);
	json_decref(w->models);
	w->models = NULL;
	ck_assert(model_pandia_at(w, 2000, &t1, NULL, &warn, &err) < 0);
	ck_assert_msg(strstr(err.text, "--model blackbox"), "%s", err.text);
	workload_free(w);
}
END_TEST

static Suite *blackbox_suite(void)
{
	Suite *s = suite_create("blackbox");
	TCase *tc = tcase_create("blackbox");

	tcase_add_test(tc, test_recovery);
	tcase_add_loop_test(tc, test_recovery_online, 0,
			    ARRAY_SIZE(stream_seeds));
	tcase_add_loop_test(tc, test_alpha_formula, 0, ARRAY_SIZE(alpha_rows));
	tcase_add_loop_test(tc, test_formula, 0, ARRAY_SIZE(formula_rows));
	tcase_add_loop_test(tc, test_incremental_batch, 0, 3);
	tcase_add_loop_test(tc, test_interpolate, 0, ARRAY_SIZE(interp_rows));
	tcase_add_test(tc, test_key_rule);
	tcase_add_loop_test(tc, test_online_beats_static, 0,
			    ARRAY_SIZE(online_seeds));
	tcase_add_loop_test(tc, test_alpha_choice, 0,
			    ARRAY_SIZE(choice_seeds));
	tcase_add_loop_test(tc, test_bad_obs, 0, ARRAY_SIZE(bad_obs_rows));
	tcase_add_test(tc, test_degree_range);
	tcase_add_loop_test(tc, test_too_few_sizes, 0, ARRAY_SIZE(few_rows));
	tcase_add_test(tc, test_ill_conditioned);
	tcase_add_test(tc, test_warnings);
	tcase_add_test(tc, test_plausible);
	tcase_add_test(tc, test_json_golden);
	tcase_add_loop_test(tc, test_json_round_trip, 0, 3);
	tcase_add_test(tc, test_json_by_hand);
	tcase_add_test(tc, test_json_singular);
	tcase_add_loop_test(tc, test_json_bad, 0, ARRAY_SIZE(json_bad_rows));
	tcase_add_test(tc, test_json_position);
	tcase_add_test(tc, test_interface);
	tcase_add_test(tc, test_cores);
	tcase_add_loop_test(tc, test_plan_bad, 0, ARRAY_SIZE(plan_bad_rows));
	tcase_add_test(tc, test_pandia_t1_at);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { blackbox_suite, NULL };
