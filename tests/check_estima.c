/*
 * check_estima.c - ESTIMA (shared/seeds/000_*.txt, digest
 * seed-estima.md; docs/extrapolate.md) and its runs file.
 *
 *   - every kernel fitted to points made from itself gives its
 *     parameters back; what cannot be fitted is refused with a reason;
 *   - unrealistic fits are rejected: poles (also between two integer
 *     counts), non-finite and negative values on [1, N];
 *   - the digest's synthetic test (section 5b): noise-free, the times
 *     at 16, 24, 36, 48 within 0.5% and the limit at 18; with 1%
 *     Gaussian noise over 10 seeds, the limit in 15..18 in 8 or more,
 *     the max error over 13..48 within 1..6% in 7 or more, and the
 *     time-extrapolation baseline "keeps scaling" to 48 in all 10;
 *   - the frequency correction, and every refusal of estima_run();
 *   - the runs file: a good file field by field, save and load give
 *     the same bytes, every bad file refused with exactly the message
 *     beside it.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "predictor/estima.h"
#include "predictor/scaling.h"
#include "tests/lib/testkit.h"

#define DATA "tests/data/scaling"
#define BAD_DIR DATA "/bad"

/* ---- the digest's synthetic workload (section 5b) ----------------- */

static double s_a(double n)
{
	return 1e9 + 1e7 * n;
}

static double s_b(double n)
{
	return 5e5 * pow(n, 2.5);
}

static double true_time(double n)
{
	return (s_a(n) + s_b(n)) / n / 2.1e9;
}

/*
 * Runs at 1..M threads; every value times (1 + NOISE z), z standard
 * normal, drawn in the order s_A, s_B, T per run from seed SEED.
 */
static struct pandia_scaling *synthetic(int m, double noise, uint64_t seed)
{
	struct pandia_scaling *s = scaling_new();
	struct pandia_error err;
	uint64_t rng = seed;
	int n;

	ck_assert_int_eq(scaling_add_category(s, "A", &err), 0);
	ck_assert_int_eq(scaling_add_category(s, "B", &err), 1);
	for (n = 1; n <= m; n++) {
		double a = s_a(n) * (1 + noise * tk_rng_normal(&rng));
		double b = s_b(n) * (1 + noise * tk_rng_normal(&rng));
		double t = true_time(n) * (1 + noise * tk_rng_normal(&rng));
		struct scaling_run *r = scaling_add_run(s, n, t);

		r->stalls[0] = a;
		r->stalls[1] = b;
	}
	return s;
}

static struct estima_result *run_ok(const struct pandia_scaling *s, int N,
				    int c)
{
	struct estima_options opt;
	struct pandia_error err;
	struct estima_result *r;

	estima_options_init(&opt);
	opt.target = N;
	opt.checkpoints = c;
	r = estima_run(s, &opt, &err);
	ck_assert_msg(r != NULL, "estima_run: %s", err.text);
	return r;
}

static double max_error(const double *t, int from, int to)
{
	double e = 0;
	int n;

	for (n = from; n <= to; n++)
		e = fmax(e, fabs(t[n - 1] / true_time(n) - 1));
	return e;
}

/* ---- kernels ---------------------------------------------------- */

static const struct {
	int line;
	enum estima_kernel k;
	double p[ESTIMA_MAX_PARAMS];
} kernel_rows[] = {
	/* denominators with roots at -10 (double), or complex */
	{ __LINE__, EK_RAT22, { 2, 3, 0.5, 0.2, 0.01 } },
	{ __LINE__, EK_RAT23, { 1, 2, 3, 0.5, 0.1, 0.01 } },
	{ __LINE__, EK_RAT33, { 1, 2, 3, 0.5, 0.3, 0.05, 0.002 } },
	{ __LINE__, EK_CUBICLN, { 5, -2, 1, 0.3 } },
	{ __LINE__, EK_EXPRAT, { 1, 0.5, 1, 0.1 } },
	{ __LINE__, EK_EXPRAT, { 20, -0.3, 1, 0.02 } },
	{ __LINE__, EK_POLY25, { 100, -3, 0.5, 0.1 } },
	/* the digest's categories are Poly25s */
	{ __LINE__, EK_POLY25, { 1e9, 1e7, 0, 0 } },
	{ __LINE__, EK_POLY25, { 0, 0, 0, 5e5 } },
};

/* Points at n = 1..12 from the kernel come back as its parameters. */
START_TEST(test_kernel_round_trip)
{
	int line = kernel_rows[_i].line, n, j, np;
	enum estima_kernel k = kernel_rows[_i].k;
	struct estima_fit truth = { .kernel = k }, fit;
	struct pandia_error err;
	double x[12], y[12], big = 0;

	np = estima_kernel_n_params(k);
	memcpy(truth.p, kernel_rows[_i].p, sizeof(truth.p));
	for (n = 1; n <= 12; n++) {
		x[n - 1] = n;
		y[n - 1] = estima_eval(&truth, n);
	}
	ck_assert_msg(estima_fit_kernel(k, x, y, 12, &fit, &err) == 0,
		      "line %d: %s", line, err.text);
	ck_assert_int_eq(fit.points, 12);
	for (j = 0; j < np; j++)
		big = fmax(big, fabs(truth.p[j]));
	for (j = 0; j < np; j++)
		ck_assert_msg(fabs(fit.p[j] - truth.p[j]) <= 1e-6 * big,
			      "line %d: %s p[%d] = %.12g, want %.12g", line,
			      estima_kernel_name(k), j, fit.p[j], truth.p[j]);
	/* and so does its extrapolation */
	for (n = 13; n <= 48; n++) {
		double want = estima_eval(&truth, n);

		ck_assert_msg(fabs(estima_eval(&fit, n) - want) <=
			      1e-6 * fabs(want), "line %d: at %d", line, n);
	}
	ck_assert_msg(estima_fit_realistic(&fit, 48, y[11], NULL, 0),
		      "line %d: refused", line);
}
END_TEST

START_TEST(test_kernel_names)
{
	int k;

	for (k = 0; k < EK_COUNT; k++)
		ck_assert_int_eq(estima_kernel_from_name(
					 estima_kernel_name(k)), k);
	ck_assert_int_eq(estima_kernel_from_name("Rat44"), -1);
	ck_assert_int_eq(estima_kernel_free_params(EK_EXPRAT), 3);
	ck_assert_int_eq(estima_kernel_n_params(EK_EXPRAT), 4);
	ck_assert_int_eq(estima_kernel_free_params(EK_RAT33), 7);
}
END_TEST

static const struct {
	int line;
	enum estima_kernel k;
	int n;			/* points: n = 1..n */
	int shape;		/* 0 linear, 1 constant, 2 one value 0 */
	const char *why;	/* part of the message */
} unfit_rows[] = {
	{ __LINE__, EK_POLY25, 3, 0, "needs 4 points, 3 given" },
	{ __LINE__, EK_RAT33, 6, 0, "needs 7 points, 6 given" },
	{ __LINE__, EK_EXPRAT, 2, 0, "needs 3 points" },
	/* y (1 + b1 n + b2 n^2) = a0 + ... has a line of solutions
	   when y is a line */
	{ __LINE__, EK_RAT22, 12, 0, "do not determine" },
	{ __LINE__, EK_RAT33, 12, 0, "do not determine" },
	/* ln y constant: -n ln y is a multiple of n */
	{ __LINE__, EK_EXPRAT, 12, 1, "do not determine" },
	{ __LINE__, EK_EXPRAT, 12, 2, "positive values" },
};

START_TEST(test_kernel_unfit)
{
	int line = unfit_rows[_i].line, n;
	struct pandia_error err;
	struct estima_fit fit;
	double x[12], y[12];

	for (n = 1; n <= 12; n++) {
		x[n - 1] = n;
		y[n - 1] = unfit_rows[_i].shape == 1 ? 5 : 1e9 + 1e7 * n;
	}
	if (unfit_rows[_i].shape == 2)
		y[4] = 0;
	ck_assert_msg(estima_fit_kernel(unfit_rows[_i].k, x, y,
					unfit_rows[_i].n, &fit, &err) < 0,
		      "line %d: fitted", line);
	ck_assert_msg(strstr(err.text, unfit_rows[_i].why) != NULL,
		      "line %d: '%s' lacks '%s'", line, err.text,
		      unfit_rows[_i].why);
}
END_TEST

/* ---- realistic or not ------------------------------------------- */

static const struct {
	int line;
	enum estima_kernel k;
	double p[ESTIMA_MAX_PARAMS];
	double scale;
	const char *why;	/* NULL: realistic */
} real_rows[] = {
	{ __LINE__, EK_RAT22, { 1, 0, 0, -0.1, 0 }, 1, "a pole in [1, 48]" },
	/* roots at 10.2 and 10.8: every integer count is fine, the
	   function still goes through infinity between 10 and 11 */
	{ __LINE__, EK_RAT22, { 1, 0, 0, -21 / 110.16, 1 / 110.16 }, 1,
	  "a pole in [1, 48]" },
	/* 1 - n^3 / 27000: zero at 30 */
	{ __LINE__, EK_RAT23, { 1, 0, 0, 0, 0, -1 / 27000.0 }, 1,
	  "a pole in [1, 48]" },
	/* zero at 60, beyond N: realistic */
	{ __LINE__, EK_RAT33, { 1, 0, 0, 0, -1 / 60.0, 0, 0 }, 1, NULL },
	/* (n - 10.3) (n - 10.6) (n + 5) / 545.9: positive at both ends
	   and at every integer, negative between 10.3 and 10.6 */
	{ __LINE__, EK_RAT23, { 1, 0, 0, 4.68 / 545.9, -15.9 / 545.9,
				1 / 545.9 }, 1, "a pole in [1, 48]" },
	{ __LINE__, EK_EXPRAT, { 0, 0.1, 1, -0.05 }, 1, "a pole in [1, 48]" },
	{ __LINE__, EK_EXPRAT, { 0, 1000, 1, 0 }, 1, "not finite at n = 1" },
	{ __LINE__, EK_POLY25, { 10, -1, 0, 0 }, 10, "negative at n = 11" },
	/* a rounding error's negative is not negative */
	{ __LINE__, EK_POLY25, { -1e-12, 0, 0, 0 }, 1, NULL },
	{ __LINE__, EK_POLY25, { -1e-6, 0, 0, 0 }, 1, "negative at n = 1" },
	{ __LINE__, EK_POLY25, { NAN, 0, 0, 0 }, 1,
	  "a parameter is not finite" },
	{ __LINE__, EK_CUBICLN, { 5, -2, 1, 0.3 }, 5, NULL },
};

START_TEST(test_realistic)
{
	int line = real_rows[_i].line;
	struct estima_fit fit = { .kernel = real_rows[_i].k };
	char why[128] = "";
	bool ok;

	memcpy(fit.p, real_rows[_i].p, sizeof(fit.p));
	ok = estima_fit_realistic(&fit, 48, real_rows[_i].scale, why,
				  sizeof(why));
	if (!real_rows[_i].why) {
		ck_assert_msg(ok, "line %d: refused: %s", line, why);
		return;
	}
	ck_assert_msg(!ok, "line %d: accepted", line);
	ck_assert_msg(strstr(why, real_rows[_i].why) != NULL,
		      "line %d: '%s' lacks '%s'", line, why,
		      real_rows[_i].why);
}
END_TEST

/* ---- the synthetic test ------------------------------------------- */

static void check_noise_free(struct estima_result *r)
{
	static const struct {
		int n;
		double t;
	} want[] = {
		/* the digest's table, section 5b */
		{ 1, 0.48119 }, { 12, 0.05434 }, { 16, 0.04976 },
		{ 24, 0.05260 }, { 36, 0.06942 }, { 48, 0.09386 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		double got = r->time[want[i].n - 1];

		ck_assert_msg(fabs(got / want[i].t - 1) < 0.005,
			      "T(%d) = %.5f, want %.5f", want[i].n, got,
			      want[i].t);
	}
	/* S' = 0 at n^2.5 = 4000/3: n = 17.8 */
	ck_assert_int_eq(r->limit, 18);
	ck_assert_int_eq(r->n_categories, 2);
	ck_assert_int_eq(r->categories[0].fit.kernel, EK_POLY25);
	ck_assert_int_eq(r->categories[1].fit.kernel, EK_POLY25);
	ck_assert_double_eq_tol(r->speedup[0], 1, 1e-9);
	ck_assert_double_eq_tol(r->factor.corr, 1, 1e-9);
	/* the baseline finds 18 too, but is 9.2% off at worst */
	ck_assert(r->baseline.ok);
	ck_assert_int_eq(r->baseline.limit, 18);
	ck_assert_double_eq_tol(max_error(r->baseline.time, 13, 48), 0.092,
				0.002);
}

START_TEST(test_synthetic_exact)
{
	struct pandia_scaling *s = synthetic(12, 0, 1);
	struct estima_result *r = run_ok(s, 48, 2);

	check_noise_free(r);
	ck_assert_double_eq_tol(max_error(r->time, 1, 48), 0, 1e-6);
	estima_result_free(r);
	scaling_free(s);
}
END_TEST

/* The same from the runs file (values written to 10 digits). */
START_TEST(test_synthetic_file)
{
	struct pandia_error err;
	struct pandia_scaling *s = scaling_load(DATA "/synthetic.json", &err);
	struct estima_result *r;

	ck_assert_msg(s != NULL, "%s", err.text);
	r = run_ok(s, 48, 2);
	check_noise_free(r);
	estima_result_free(r);
	scaling_free(s);
}
END_TEST

/*
 * 1% noise, seeds 1..10.  The digest: limit in 15..18 in 8 of 10, max
 * error over 13..48 in 1..6% in 7 of 10, the baseline "keeps scaling
 * to 48" in 10 of 10 with 63..66% error.  This generator gives limits
 * 14 18 18 18 17 17 17 18 18 18, errors 103 2.2 3.5 4.1 8.9 4.2 32 2.6
 * 3.7 5.2 %, and the baseline at 48 in all, 62..65% off: estima is
 * closer in 9 of 10 (not in seed 1, where the Poly25 fit of s_A runs
 * away).
 */
START_TEST(test_synthetic_noise)
{
	int seed, in_range = 0, small = 0, base48 = 0, better = 0;

	for (seed = 1; seed <= 10; seed++) {
		struct pandia_scaling *s = synthetic(12, 0.01,
						     (uint64_t)seed);
		struct estima_result *r = run_ok(s, 48, 2);
		double e = max_error(r->time, 13, 48);
		double eb;

		in_range += r->limit >= 15 && r->limit <= 18;
		small += e >= 0.01 && e <= 0.06;
		ck_assert_msg(r->baseline.ok, "seed %d: %s", seed,
			      r->baseline.why);
		eb = max_error(r->baseline.time, 13, 48);
		base48 += r->baseline.limit == 48;
		ck_assert_msg(eb > 0.6 && eb < 0.7, "seed %d: baseline "
			      "error %.3f", seed, eb);
		/* the trend shows in the stalls before it reaches time */
		better += e < eb;
		estima_result_free(r);
		scaling_free(s);
	}
	ck_assert_msg(in_range >= 8, "limit in 15..18 in %d of 10", in_range);
	ck_assert_msg(small >= 7, "max error 1..6%% in %d of 10", small);
	ck_assert_int_eq(base48, 10);
	ck_assert_msg(better >= 9, "better than the baseline in %d of 10",
		      better);
}
END_TEST

/* 4 checkpoints (the paper's other setting) still find the limit. */
START_TEST(test_synthetic_four_checkpoints)
{
	struct pandia_scaling *s = synthetic(12, 0, 1);
	struct estima_result *r = run_ok(s, 48, 4);

	ck_assert_int_eq(r->checkpoints, 4);
	ck_assert_int_ge(r->limit, 17);
	ck_assert_int_le(r->limit, 19);
	ck_assert_double_eq_tol(max_error(r->time, 13, 48), 0, 0.005);
	estima_result_free(r);
	scaling_free(s);
}
END_TEST

/* T' = T f_meas / f_target: every time scales, speedups do not. */
START_TEST(test_frequency)
{
	struct pandia_scaling *s = synthetic(12, 0.01, 3);
	struct estima_options opt;
	struct estima_result *r1, *r2;
	struct pandia_error err;
	double ratio = 3.4 / 2.8;
	int n;

	r1 = run_ok(s, 48, 2);
	estima_options_init(&opt);
	opt.target = 48;
	opt.freq_ratio = ratio;
	r2 = estima_run(s, &opt, &err);
	ck_assert_msg(r2 != NULL, "%s", err.text);
	for (n = 1; n <= 48; n++) {
		ck_assert_double_eq_tol(r2->time[n - 1],
					r1->time[n - 1] * ratio,
					1e-9 * r1->time[n - 1]);
		ck_assert_double_eq_tol(r2->speedup[n - 1],
					r1->speedup[n - 1], 1e-9);
		ck_assert_double_eq_tol(r2->baseline.time[n - 1],
					r1->baseline.time[n - 1] * ratio,
					1e-9 * r1->baseline.time[n - 1]);
	}
	ck_assert_int_eq(r2->limit, r1->limit);
	ck_assert_double_eq_tol(r2->run_time[0], s->runs[0].time * ratio,
				1e-12);
	estima_result_free(r1);
	estima_result_free(r2);
	scaling_free(s);
}
END_TEST

/* ---- refusals ------------------------------------------------------ */

enum spoil {
	SP_NONE, SP_FEW, SP_ORDER, SP_NAN_TIME, SP_NEG_STALL, SP_ZERO_SUM,
	SP_NO_CATEGORY, SP_INF_STALL,
};

static const struct {
	int line;
	enum spoil spoil;
	int target, checkpoints;
	double ratio;
	const char *msg;	/* part of err.text */
} refuse_rows[] = {
	{ __LINE__, SP_FEW, 48, 2, 1, "too few runs to extrapolate from: "
	  "4 given, 5 needed with 2 checkpoints (3 to fit, then the "
	  "checkpoints): 1 more" },
	{ __LINE__, SP_NONE, 48, 10, 1, "13 needed with 10 checkpoints "
	  "(3 to fit, then the checkpoints): 1 more" },
	{ __LINE__, SP_NONE, 48, 0, 1, "checkpoints must be at least 1" },
	{ __LINE__, SP_NONE, 11, 2, 1, "the target must be from 12" },
	{ __LINE__, SP_NONE, 48, 2, 0, "frequency ratio" },
	{ __LINE__, SP_NONE, 48, 2, NAN, "frequency ratio" },
	{ __LINE__, SP_ORDER, 48, 2, 1, "runs[5].threads: must be more "
	  "than the 5 of runs[4] (threads increase from run to run), not 5" },
	{ __LINE__, SP_NAN_TIME, 48, 2, 1, "runs[2].time: must be a finite "
	  "number of seconds, at least 1e-09, not nan" },
	{ __LINE__, SP_NEG_STALL, 48, 2, 1, "runs[3].stalls.B: must be a "
	  "finite count, 0 or more" },
	{ __LINE__, SP_INF_STALL, 48, 2, 1, "runs[3].stalls.A: must be a "
	  "finite count, 0 or more, not inf" },
	{ __LINE__, SP_ZERO_SUM, 48, 2, 1, "runs[0]: the stalls at 1 "
	  "threads sum to 0" },
	{ __LINE__, SP_NO_CATEGORY, 48, 2, 1, "no stall category" },
};

START_TEST(test_refused)
{
	int line = refuse_rows[_i].line;
	struct pandia_scaling *s = synthetic(12, 0, 1);
	struct estima_options opt;
	struct pandia_error err;
	struct estima_result *r;
	int i;

	switch (refuse_rows[_i].spoil) {
	case SP_FEW:
		s->n_runs = 4;	/* the rest stay owned: freed below */
		break;
	case SP_ORDER:
		s->runs[5].threads = 5;
		break;
	case SP_NAN_TIME:
		s->runs[2].time = NAN;
		break;
	case SP_NEG_STALL:
		s->runs[3].stalls[1] = -1;
		break;
	case SP_INF_STALL:
		s->runs[3].stalls[0] = INFINITY;
		break;
	case SP_ZERO_SUM:
		s->runs[0].stalls[0] = s->runs[0].stalls[1] = 0;
		break;
	case SP_NO_CATEGORY:
		for (i = 0; i < s->n_categories; i++)
			free(s->categories[i]);
		s->n_categories = 0;
		break;
	default:
		break;
	}
	estima_options_init(&opt);
	opt.target = refuse_rows[_i].target;
	opt.checkpoints = refuse_rows[_i].checkpoints;
	opt.freq_ratio = refuse_rows[_i].ratio;
	r = estima_run(s, &opt, &err);
	ck_assert_msg(r == NULL, "line %d: accepted", line);
	ck_assert_msg(strstr(err.text, refuse_rows[_i].msg) != NULL,
		      "line %d: '%s' lacks '%s'", line, err.text,
		      refuse_rows[_i].msg);
	if (refuse_rows[_i].spoil == SP_FEW)
		s->n_runs = 12;
	scaling_free(s);
}
END_TEST

/* A category that no kernel fits is named. */
START_TEST(test_category_unfit)
{
	struct pandia_scaling *s = synthetic(12, 0, 1);
	struct estima_options opt;
	struct pandia_error err;
	int n;

	/* a line down to 0 at 12: every fit goes negative past it, and
	   ExpRat takes no 0 */
	ck_assert_int_eq(scaling_add_category(s, "falling", &err), 2);
	for (n = 1; n <= 12; n++)
		s->runs[n - 1].stalls[2] = 1e9 * (12 - n);
	estima_options_init(&opt);
	opt.target = 48;
	ck_assert(estima_run(s, &opt, &err) == NULL);
	ck_assert_msg(strstr(err.text, "stall category 'falling': no kernel "
			     "fits it realistically on [1, 48]") != NULL,
		      "%s", err.text);
	scaling_free(s);
}
END_TEST

/* The result as JSON: the fields the command prints. */
START_TEST(test_result_json)
{
	struct pandia_scaling *s = synthetic(12, 0, 1);
	struct estima_result *r = run_ok(s, 48, 2);
	json_t *j = estima_result_to_json(r), *p, *c;

	ck_assert_int_eq(json_integer_value(json_object_get(j, "limit")), 18);
	p = json_object_get(j, "predictions");
	ck_assert_int_eq(json_array_size(p), 48);
	ck_assert_int_eq(json_integer_value(json_object_get(
				 json_array_get(p, 47), "threads")), 48);
	ck_assert_double_eq_tol(json_real_value(json_object_get(
				json_array_get(p, 47), "time")), 0.09386, 1e-5);
	ck_assert(json_object_get(json_array_get(p, 11), "measured"));
	ck_assert(!json_object_get(json_array_get(p, 12), "measured"));
	c = json_object_get(json_object_get(j, "categories"), "B");
	ck_assert_str_eq(json_string_value(json_object_get(c, "kernel")),
			 "Poly25");
	ck_assert_int_eq(json_array_size(json_object_get(c, "values")), 48);
	ck_assert_int_eq(json_integer_value(json_object_get(
			json_object_get(j, "baseline"), "limit")), 18);
	json_decref(j);
	estima_result_free(r);
	scaling_free(s);
}
END_TEST

/* ---- the runs file ----------------------------------------------- */

START_TEST(test_file_fields)
{
	struct pandia_error err;
	struct pandia_scaling *s = scaling_load(DATA "/full.json", &err);

	ck_assert_msg(s != NULL, "%s", err.text);
	ck_assert_int_eq(s->n_command, 3);
	ck_assert_str_eq(s->command[2], "{threads}");
	ck_assert_str_eq(s->machine, "machines/opteron.json");
	ck_assert_double_eq(s->frequency, 2.1e9);
	ck_assert_str_eq(s->counters, "perf");
	ck_assert_str_eq(s->stall_unit, "cycles");
	ck_assert_int_eq(s->n_categories, 2);
	/* in run 0's order; later runs may list them in any order */
	ck_assert_str_eq(s->categories[0], "r0d5");
	ck_assert_str_eq(s->categories[1], "lock");
	ck_assert_int_eq(s->n_runs, 3);
	ck_assert_int_eq(s->runs[2].threads, 4);
	ck_assert_str_eq(s->runs[2].cpus, "0-3");
	ck_assert_double_eq(s->runs[1].stalls[0], 1.6e9);
	ck_assert_double_eq(s->runs[1].stalls[1], 2e7);
	/* time given wins; times alone give their median */
	ck_assert_double_eq(s->runs[0].time, 2.0);
	ck_assert_double_eq_tol(s->runs[1].time, 1.1, 1e-12);
	ck_assert_int_eq(s->runs[1].n_times, 3);
	ck_assert_int_eq(s->runs[2].n_times, 0);
	scaling_free(s);
}
END_TEST

static const char *const trip_files[] = {
	DATA "/full.json", DATA "/synthetic.json"
};

/* Saved text, loaded and saved again, is the same bytes. */
START_TEST(test_file_round_trip)
{
	struct pandia_error err;
	struct pandia_scaling *s = scaling_load(trip_files[_i], &err), *s2;
	char *t1, *t2;

	ck_assert_msg(s != NULL, "%s", err.text);
	t1 = scaling_to_string(s);
	s2 = scaling_parse(t1, "saved", &err);
	ck_assert_msg(s2 != NULL, "%s: %s", trip_files[_i], err.text);
	t2 = scaling_to_string(s2);
	ck_assert_str_eq(t1, t2);
	free(t1);
	free(t2);
	scaling_free(s);
	scaling_free(s2);
}
END_TEST

/* Built in memory, saved atomically, loaded back; a refused save
   leaves the old file as it was. */
START_TEST(test_file_save)
{
	char *dir, *path, *before, *after;
	struct pandia_scaling *s = synthetic(6, 0.01, 7), *back;
	struct pandia_error err;

	dir = tk_tmpdir("scaling");
	path = xasprintf("%s/runs.json", dir);
	s->note = xstrdup("test");
	ck_assert_msg(scaling_save(s, path, &err) == 0, "%s", err.text);
	back = scaling_load(path, &err);
	ck_assert_msg(back != NULL, "%s", err.text);
	ck_assert_int_eq(back->n_runs, 6);
	ck_assert_double_eq_tol(back->runs[5].stalls[1], s->runs[5].stalls[1],
				1e-9 * s->runs[5].stalls[1]);
	ck_assert_str_eq(back->note, "test");
	before = read_file(path, NULL, &err);
	s->runs[3].threads = 2;
	ck_assert(scaling_save(s, path, &err) < 0);
	ck_assert_msg(strstr(err.text, "runs[3].threads") != NULL, "%s",
		      err.text);
	after = read_file(path, NULL, &err);
	ck_assert_str_eq(before, after);
	ck_assert(scaling_add_category(s, "A", &err) < 0);
	ck_assert_msg(strstr(err.text, "'A' is there already"), "%s",
		      err.text);
	ck_assert(scaling_add_category(s, "x[1]", &err) < 0);
	tk_tmpdir_remove(dir);
	free(before);
	free(after);
	free(path);
	scaling_free(back);
	scaling_free(s);
}
END_TEST

static bool load_scaling(const char *path, struct pandia_error *err)
{
	struct pandia_scaling *s = scaling_load(path, err);
	bool ok = s != NULL;

	scaling_free(s);
	return ok;
}

/* Every file in BAD_DIR is refused with exactly the message beside it. */
START_TEST(test_file_bad)
{
	tk_bad_dir(BAD_DIR, 25, load_scaling);
}
END_TEST

static Suite *estima_suite(void)
{
	Suite *s = suite_create("estima");
	TCase *tc = tcase_create("estima");

	tcase_add_loop_test(tc, test_kernel_round_trip, 0,
			    ARRAY_SIZE(kernel_rows));
	tcase_add_test(tc, test_kernel_names);
	tcase_add_loop_test(tc, test_kernel_unfit, 0, ARRAY_SIZE(unfit_rows));
	tcase_add_loop_test(tc, test_realistic, 0, ARRAY_SIZE(real_rows));
	tcase_add_test(tc, test_synthetic_exact);
	tcase_add_test(tc, test_synthetic_file);
	tcase_add_test(tc, test_synthetic_noise);
	tcase_add_test(tc, test_synthetic_four_checkpoints);
	tcase_add_test(tc, test_frequency);
	tcase_add_loop_test(tc, test_refused, 0, ARRAY_SIZE(refuse_rows));
	tcase_add_test(tc, test_category_unfit);
	tcase_add_test(tc, test_result_json);
	tcase_add_test(tc, test_file_fields);
	tcase_add_loop_test(tc, test_file_round_trip, 0,
			    ARRAY_SIZE(trip_files));
	tcase_add_test(tc, test_file_save);
	tcase_add_test(tc, test_file_bad);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { estima_suite, NULL };
