/*
 * check_ranges.c - the 90% ranges the Pandia model states
 * (predictor/pandia/ranges.c): the runs' noise pooled over every run
 * with repetitions, Student's factor for its degrees of freedom, the
 * floor, the drift in quadrature, and the drift alone for single runs.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "predictor/pandia/pandia_internal.h"
#include "predictor/tune.h"
#include "tests/lib/testkit.h"

static struct wl_run run_a, run_b, run_c;

static void set_run(struct wl_run *r, double *times, int n)
{
	memset(r, 0, sizeof(*r));
	r->times = times;
	r->n_times = n;
}

/* runs 1 and 2 of two repetitions, run 4 of one */
static void three_runs(struct pandia_runs *r, double *a, double *b,
		       double *c)
{
	memset(r, 0, sizeof(*r));
	set_run(&run_a, a, 2);
	set_run(&run_b, b, 2);
	set_run(&run_c, c, 1);
	r->xr[PR1] = &run_a;
	r->xr[PR2] = &run_b;
	r->xr[PR4] = &run_c;
	r->t[PR1] = (a[0] + a[1]) / 2;
	r->t[PR2] = (b[0] + b[1]) / 2;
	r->t[PR4] = c[0];
}

/* half the log ratio, squared, twice: a run of two repetitions */
static double ss2(const double *v)
{
	double d = log(v[0] / v[1]) / 2;

	return 2 * d * d;
}

START_TEST(test_pooled)
{
	double a[] = { 1.0, 1.04 }, b[] = { 0.5, 0.51 }, c[] = { 2.0 };
	struct pandia_runs r;
	double sigma, k;

	three_runs(&r, a, b, c);
	pandia_runs_ranges(&r);
	sigma = sqrt((ss2(a) + ss2(b)) / 2);
	k = tune_t_quantile(0.95, 2) * sigma;
	ck_assert_int_eq(r.sigma_dof, 2);
	ck_assert_double_eq_tol(r.sigma, sigma, 1e-12);
	/* two repetitions: sqrt(2 / 2); one: sqrt(2) */
	ck_assert_double_eq_tol(r.range[PR1], k * r.t[PR1], 1e-12);
	ck_assert_double_eq_tol(r.range[PR2], k * r.t[PR2], 1e-12);
	ck_assert_double_eq_tol(r.range[PR4], k * sqrt(2) * 2.0, 1e-12);
	ck_assert(r.range[PR3] == 0);
	/* wider than the half range, as two repetitions demand */
	ck_assert(r.range[PR1] > 3 * (a[1] - a[0]) / 2);
}
END_TEST

START_TEST(test_floor_and_drift)
{
	double a[] = { 1.0, 1.0 }, b[] = { 0.5, 0.5 }, c[] = { 2.0 };
	struct pandia_runs r;
	double k = tune_t_quantile(0.95, 2) * 0.005;

	three_runs(&r, a, b, c);
	pandia_runs_ranges(&r);
	ck_assert_double_eq_tol(r.sigma, 0.005, 1e-15);
	ck_assert_double_eq_tol(r.range[PR1], k, 1e-12);
	three_runs(&r, a, b, c);
	r.drift = 0.03;
	pandia_runs_ranges(&r);
	ck_assert_double_eq_tol(r.range[PR1], hypot(k, 0.03), 1e-12);
	ck_assert_double_eq_tol(r.range[PR4], hypot(k * sqrt(2) * 2,
						    0.03 * 2), 1e-12);
}
END_TEST

START_TEST(test_single_runs)
{
	/* two of each, of which the runs keep one */
	double a[] = { 1.0, 1.0 }, b[] = { 0.5, 0.5 }, c[] = { 2.0 };
	struct pandia_runs r;

	three_runs(&r, a, b, c);
	run_a.n_times = run_b.n_times = 1;
	pandia_runs_ranges(&r);
	ck_assert(r.range[PR1] == 0 && r.range[PR4] == 0);
	ck_assert(r.sigma == 0);
	/* --quick with the drift run: the one difference measured */
	r.drift = 0.02;
	pandia_runs_ranges(&r);
	ck_assert_int_eq(r.sigma_dof, 1);
	ck_assert_double_eq_tol(r.range[PR1], tune_t_quantile(0.95, 1) *
				0.02, 1e-12);
}
END_TEST

static Suite *ranges_suite(void)
{
	Suite *s = suite_create("ranges");
	TCase *tc = tcase_create("ranges");

	tcase_add_test(tc, test_pooled);
	tcase_add_test(tc, test_floor_and_drift);
	tcase_add_test(tc, test_single_runs);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { ranges_suite, NULL };
