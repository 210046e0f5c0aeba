/*
 * check_tune.c - the statistics of pandia tune (predictor/tune.c):
 * Student's t against tabulated quantiles, Welch's comparison on log
 * times worked by hand, which candidates a round drops, the verdict on
 * pinning, and the pooled noise and 90% move of a stated range.
 */
#include <check.h>
#include <math.h>

#include "common/util.h"
#include "predictor/tune.h"
#include "tests/lib/testkit.h"

/* Quantiles of Student's t (any table, e.g. Abramowitz and Stegun
   26.10), to the 6 digits given there. */
static const struct {
	int line;
	double p, df, t;
} t_rows[] = {
	{ __LINE__, 0.975, 1, 12.706205 },
	{ __LINE__, 0.975, 2, 4.302653 },
	{ __LINE__, 0.975, 10, 2.228139 },
	{ __LINE__, 0.95, 5, 2.015048 },
	{ __LINE__, 0.995, 30, 2.749996 },
	{ __LINE__, 0.5, 7, 0 },
	{ __LINE__, 0.025, 10, -2.228139 },
	/* a fractional df, as Welch's gives: Simpson's rule on the
	   density, 200000 steps */
	{ __LINE__, 0.975, 2.5, 3.574655 },
};

START_TEST(test_t_quantile)
{
	double q = tune_t_quantile(t_rows[_i].p, t_rows[_i].df);

	ck_assert_msg(fabs(q - t_rows[_i].t) < 2e-6,
		      "line %d: t(%g, %g) = %.7f, not %.7f", t_rows[_i].line,
		      t_rows[_i].p, t_rows[_i].df, q, t_rows[_i].t);
	ck_assert(fabs(tune_t_cdf(q, t_rows[_i].df) - t_rows[_i].p) < 1e-9);
}
END_TEST

/*
 * a = {e^0.1, e^0.2, e^0.3}, b = {e^0, e^0.1, e^0.2}: log means 0.2 and
 * 0.1, variances 0.01 each; se = sqrt(0.01/3 + 0.01/3) = 0.0816497,
 * t = 0.1 / se = 1.2247449, df = 4 (equal variances and sizes);
 * ratio e^0.1 = 1.1051709; the 95% interval e^(0.1 +- 2.7764451 *
 * 0.0816497) = [0.8775, 1.3919]; p = P(T > 1.2247) with 4 df = 0.14393;
 * slower by more than 0.5%: t = (0.1 - ln 1.005) / se = 1.1636602,
 * p = 0.154621 (both by Simpson's rule on the density).
 */
START_TEST(test_compare)
{
	const double a[] = { exp(0.1), exp(0.2), exp(0.3) };
	const double b[] = { exp(0.0), exp(0.1), exp(0.2) };
	struct tune_cmp c;

	tune_compare(a, 3, b, 3, 0.95, &c);
	ck_assert(c.valid);
	ck_assert(fabs(c.ratio - 1.1051709) < 1e-6);
	ck_assert_msg(fabs(c.lo - exp(0.1 - 2.7764451 * 0.0816497)) < 1e-5,
		      "lo %.6f", c.lo);
	ck_assert(fabs(c.hi - exp(0.1 + 2.7764451 * 0.0816497)) < 1e-5);
	ck_assert_msg(fabs(c.p_slower - 0.14393) < 1e-4, "p %.6f",
		      c.p_slower);
	ck_assert_msg(fabs(c.p_slower_min - 0.154621) < 1e-5, "p %.6f",
		      c.p_slower_min);
	ck_assert(fabs(c.noise - 0.1) < 1e-9);
	/* one run: nothing to compare */
	tune_compare(a, 1, b, 3, 0.95, &c);
	ck_assert(!c.valid);
	ck_assert(c.p_slower == 1);
}
END_TEST

/* TIME with relative deviations DEV into v[0..n). */
static void fill(double *v, int n, double time, const double *dev)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = time * (1 + dev[i]);
}

/* ten: fill() reads eight from dev + 1 and dev + 2 as well */
static const double dev[] = { 0.004, -0.006, 0.001, -0.002, 0.005,
			      -0.003, 0.002, -0.001, 0.003, -0.004 };

START_TEST(test_drop)
{
	double fast[8], slow[8], same[8], a[8], b[8];
	struct tune_cand c[3] = {
		{ TUNE_LIVE, false, 3, fast, 0 },
		{ TUNE_LIVE, false, 3, slow, 0 },
		{ TUNE_LIVE, true, 3, same, 0 },
	};
	struct tune_cand d[2] = {
		{ TUNE_LIVE, false, 8, a, 0 },
		{ TUNE_LIVE, false, 8, b, 0 },
	};
	int i;

	/* 0.3% slower, spreads far below that: slower beyond doubt, but
	   within TUNE_MIN_DIFF, a tie; 0.8% slower alike: dropped */
	for (i = 0; i < 8; i++) {
		a[i] = 1 + 1e-4 * dev[i];
		b[i] = 1.003 + 1e-4 * dev[(i + 3) % 8];
	}
	ck_assert_int_eq(tune_drop(d, 2, 0.95, 1), 2);
	for (i = 0; i < 8; i++)
		b[i] = 1.008 + 1e-4 * dev[(i + 3) % 8];
	ck_assert_int_eq(tune_drop(d, 2, 0.95, 2), 1);
	ck_assert_int_eq(d[1].status, TUNE_DROPPED);

	fill(fast, 8, 1.0, dev);
	fill(slow, 8, 1.2, dev + 1);
	fill(same, 8, 1.0, dev + 2);
	/* fewer than TUNE_MIN_RUNS: nobody is dropped */
	c[0].n = c[1].n = c[2].n = 2;
	ck_assert_int_eq(tune_drop(c, 3, 0.95, 2), 3);
	c[0].n = c[1].n = c[2].n = 3;
	ck_assert_int_eq(tune_drop(c, 3, 0.95, 3), 2);
	ck_assert_int_eq(c[1].status, TUNE_DROPPED);
	ck_assert_int_eq(c[1].dropped_round, 3);
	ck_assert_int_eq(c[0].status, TUNE_LIVE);
	ck_assert_int_eq(c[2].status, TUNE_LIVE);
	ck_assert_int_eq(tune_leader(c, 3), 0);
}
END_TEST

START_TEST(test_verdict)
{
	double pin[8], unp[8];
	struct tune_cand c[2] = {
		{ TUNE_LIVE, false, 8, pin, 0 },
		{ TUNE_LIVE, true, 8, unp, 0 },
	};
	struct tune_verdict v;
	int i;

	/* the same times: pinning does not help, decided */
	fill(pin, 8, 1.0, dev);
	fill(unp, 8, 1.0, dev + 0);
	tune_verdict(c, 2, 0.95, &v);
	ck_assert_int_eq(v.kind, TUNE_V_NO_HELP);
	ck_assert(v.decided);
	ck_assert(v.within >= TUNE_MIN_DIFF);
	/* 3% slower unpinned: it helps, by about 3% */
	fill(unp, 8, 1.03, dev + 0);
	tune_verdict(c, 2, 0.95, &v);
	ck_assert_int_eq(v.kind, TUNE_V_HELPS);
	ck_assert_int_eq(v.best, 0);
	ck_assert(fabs(v.cmp.ratio - 1.03) < 1e-3);
	ck_assert(v.cmp.lo > 1 && v.cmp.hi < 1.06);
	/* 0.3% slower, below the 0.5% threshold: does not help */
	fill(unp, 8, 1.003, dev + 0);
	tune_verdict(c, 2, 0.95, &v);
	ck_assert_int_eq(v.kind, TUNE_V_NO_HELP);
	/* 1.5% slower beyond doubt, but with a noise of about 1.1% the
	   interval's near end is within it: does not help, undecided */
	for (i = 0; i < 8; i++)
		unp[i] = 1.015 * (1 + 3 * dev[i]);
	tune_verdict(c, 2, 0.95, &v);
	ck_assert_msg(v.cmp.lo > 1 && v.cmp.ratio - 1 > v.threshold,
		      "ratio %g [%g, %g], threshold %g", v.cmp.ratio,
		      v.cmp.lo, v.cmp.hi, v.threshold);
	ck_assert_int_eq(v.kind, TUNE_V_NO_HELP);
	ck_assert(!v.decided);
	/* unpinned 4% faster */
	fill(unp, 8, 0.96, dev + 0);
	tune_verdict(c, 2, 0.95, &v);
	ck_assert_int_eq(v.kind, TUNE_V_UNPINNED_BEST);
	ck_assert_int_eq(v.best, 1);
	/* no unpinned run: the best against the next */
	c[1].unpinned = false;
	tune_verdict(c, 2, 0.95, &v);
	ck_assert_int_eq(v.kind, TUNE_V_NO_DEFAULT);
	ck_assert_int_eq(v.best, 1);
	ck_assert_int_eq(v.other, 0);
	ck_assert(v.decided);
	/* one run each: nothing to say */
	c[0].n = c[1].n = 1;
	tune_verdict(c, 2, 0.95, &v);
	ck_assert_int_eq(v.kind, TUNE_V_NONE);
}
END_TEST

/*
 * Pooling: {e^0.1, e^0.2, e^0.3} adds 0.02 over 2 degrees, {e^0.05,
 * e^0.15} 0.005 over 1; a series of one, or with a value not above 0,
 * adds nothing.  sigma = sqrt(0.025 / 3) = 0.0912871; with 3 degrees,
 * t(0.95) = 2.353363 (tabulated), so the median of 2 repetitions moves
 * 2.353363 x 0.0912871 x 1 = 0.214832.  Below the floor, the floor:
 * one degree, t(0.95) = 6.313752, 3 repetitions: 6.313752 x 0.005 x
 * sqrt(2 / 3) = 0.0257756.
 */
START_TEST(test_range_move)
{
	const double a[] = { exp(0.1), exp(0.2), exp(0.3) };
	const double b[] = { exp(0.05), exp(0.15) };
	const double bad[] = { 1, 0, 2 }, c[] = { 1.0, 1.0001 };
	double ss = 0;
	int dof = 0;

	tune_pool_log(a, 3, &ss, &dof);
	tune_pool_log(b, 2, &ss, &dof);
	tune_pool_log(a, 1, &ss, &dof);
	tune_pool_log(bad, 3, &ss, &dof);
	ck_assert_int_eq(dof, 3);
	ck_assert(fabs(ss - 0.025) < 1e-12);
	ck_assert(fabs(tune_range_move(ss, dof, 2) - 0.214832) < 1e-6);
	ss = 0;
	dof = 0;
	tune_pool_log(c, 2, &ss, &dof);
	ck_assert(fabs(tune_range_move(ss, dof, 3) - 0.0257756) < 1e-6);
	/* nothing pooled, or no repetition: no move */
	ck_assert(tune_range_move(0, 0, 3) == 0);
	ck_assert(tune_range_move(ss, dof, 0) == 0);
}
END_TEST

static Suite *tune_suite(void)
{
	Suite *s = suite_create("tune");
	TCase *tc = tcase_create("tune");

	tcase_add_loop_test(tc, test_t_quantile, 0, ARRAY_SIZE(t_rows));
	tcase_add_test(tc, test_compare);
	tcase_add_test(tc, test_drop);
	tcase_add_test(tc, test_verdict);
	tcase_add_test(tc, test_range_move);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { tune_suite, NULL };
