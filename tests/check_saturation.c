/*
 * check_saturation.c - the counter-free demands from the workload's own
 * runs (predictor/pandia/fit_saturation.c): the run with every core of
 * run 1's node planned where an estimate amplifies noise more than 3;
 * a run the level holds back gives the demand, amplification 1; an
 * estimate above what a run not held back allows capped there (its
 * range not narrowed); one the runs allow kept and said; the level
 * nearer saturation taken first; well-conditioned estimates, bounds
 * and counted demands left alone; p pinned by a run on fewer cores
 * where run 2 has them all.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "common/machine.h"
#include "common/util.h"
#include "predictor/pandia/params.h"
#include "predictor/pandia/pandia_internal.h"
#include "tests/lib/testkit.h"

#define GB 1e9

static struct wl_run check1 = { .id = "check1" };

/* 16 cores, one node: DRAM 40 GB/s, L3 150 GB/s (assume-full.json) */
static struct pandia_machine *machine16(void)
{
	return tk_machine("pack:1 core:16 pu:1",
			  "tests/data/assume-full.json");
}

/* Demand RES of w set to the probes' estimate D. */
static void probe_set(struct pandia_workload *w, int res, double d,
		      double amp, double rel)
{
	struct pandia_params *pp = pandia_params(w);
	struct wl_param *dp = &pp->demand[res];

	pp->listed[res] = true;
	wl_param_set(dp, d, d * rel, res == WR_DRAM ? "run1,probe-dram" :
		     "run1,probe-L3");
	dp->status = xstrdup("estimate from 15 co-run probe(s)");
	pp->demand_amp[res] = amp;
}

/* A workload whose DRAM demand is the probes' estimate D. */
static struct pandia_workload *probed(double d, double amp, double rel)
{
	struct pandia_workload *w = workload_new();

	probe_set(w, WR_DRAM, d, amp, rel);
	return w;
}

/* The fitted model: p = 1, nothing else measured. */
static const struct fit_solution sol1 = { .p = 1 };

/*
 * The runs: run 1 (1 s), run 2 on N2 cores in T2 (NAN: not made), a
 * check run on the first NX of the 16 cores in TX (NAN: none).
 */
static void runs_at(struct pandia_runs *r, const struct pandia_machine *m,
		    int n2, double t2, int nx, double tx, int *pus16)
{
	struct model_params base = { .t1 = 1, .p = 1 };
	struct pandia_error err;
	int x;

	memset(r, 0, sizeof(*r));
	r->base = base;
	ck_assert_msg(fit_plan_make_at(&r->pl, m, &base, n2, &err) == 0,
		      "%s", err.text);
	ck_assert_int_eq(r->pl.n_pus[PR2], n2);
	for (x = 0; x < FIT_RUNS; x++)
		r->t[x] = NAN;
	r->t[PR1] = 1;
	r->t[PR2] = t2;
	for (x = 0; x < 16; x++)
		pus16[x] = x;
	if (!isnan(tx)) {
		r->ex_run[0] = &check1;
		r->ex[0] = (struct fit_extra){ nx, pus16, tx, 0 };
		r->n_ex = 1;
	}
}

/* run 2 on 10 cores in T2, a check run on all 16 in T16 (NAN: none) */
static void runs_of(struct pandia_runs *r, const struct pandia_machine *m,
		    double t2, double t16, int *pus16)
{
	runs_at(r, m, 10, t2, 16, t16, pus16);
}

static const struct wl_param *dram(const struct pandia_workload *w)
{
	return &pandia_params(w)->demand[WR_DRAM];
}

/*
 * The device's case, held back: 10 GB/s a thread from the probes; 10
 * and 16 threads take 0.2 s, the time of 8 GB/s a thread through 40
 * GB/s (the compute alone: 0.1 and 0.0625 s).
 */
START_TEST(test_held_back)
{
	struct pandia_machine *m = machine16();
	struct model_env env = { .m = m };
	struct pandia_workload *w = probed(10 * GB, 12.5, 0.3);
	struct pandia_runs r;
	int pus16[16], *pus, n;

	runs_of(&r, m, 0.2, NAN, pus16);
	/* before the check stage: every core of the node */
	n = pandia_saturation_placement(&env, w, &r.pl, &pus);
	ck_assert_int_eq(n, 16);
	free(pus);
	fit_plan_release(&r.pl);
	runs_of(&r, m, 0.2, 0.2, pus16);
	ck_assert(pandia_saturation(&env, w, &r, &sol1));
	ck_assert_msg(fabs(dram(w)->value - 8 * GB) < 1e-4 * GB, "%g",
		      dram(w)->value);
	ck_assert_msg(fabs(pandia_params(w)->demand_amp[WR_DRAM] - 1) < 0.01,
		      "%g", pandia_params(w)->demand_amp[WR_DRAM]);
	ck_assert_str_eq(dram(w)->source, "run1,probe-dram,check1");
	ck_assert_msg(strstr(dram(w)->status, "estimate from check1's time, "
			     "which DRAM holds back: 16 threads") &&
		      strstr(dram(w)->status, "8 GB/s a thread in the model, "
			     "amplification 1; the probes gave 10 GB/s"), "%s",
		      dram(w)->status);
	/* 1% in each run's time and 3% in the capacity */
	ck_assert_msg(fabs(dram(w)->uncertainty - 8 * GB * sqrt(0.0011)) <
		      0.01 * GB, "%g", dram(w)->uncertainty);
	/* once: the replaced demand is not checked again */
	ck_assert(!pandia_saturation(&env, w, &r, &sol1));
	ck_assert_int_eq(pandia_saturation_placement(&env, w, &r.pl, &pus), 0);
	fit_plan_release(&r.pl);
	workload_free(w);
	machine_free(m);
}
END_TEST

/*
 * Not held back: 16 threads in 0.0625 s, the compute alone, allow at
 * most the demand that keeps them within 2 sigma (2.83%) of it:
 * 0.0625 x 1.0283 x 40 GB/s = 2.57 GB/s.  The probes' 10 is capped.
 */
START_TEST(test_capped)
{
	struct pandia_machine *m = machine16();
	struct model_env env = { .m = m };
	struct pandia_workload *w = probed(10 * GB, 12.5, 0.3);
	struct pandia_runs r;
	int pus16[16];
	double b = 0.0625 * (1 + 2 * sqrt(2) * 0.01) * 40 * GB;

	runs_of(&r, m, 0.1, 0.0625, pus16);
	ck_assert(pandia_saturation(&env, w, &r, &sol1));
	ck_assert_msg(fabs(dram(w)->value - b) < 1e-4 * GB, "%g against %g",
		      dram(w)->value, b);
	ck_assert(pandia_params(w)->demand_amp[WR_DRAM] == 1);
	ck_assert_str_eq(dram(w)->source, "run1,probe-dram,check1");
	ck_assert_msg(strstr(dram(w)->status, "the most check1 allows, 2.57 "
			     "GB/s") && strstr(dram(w)->status,
					       "capped there"), "%s",
		      dram(w)->status);
	/* not narrower than the probes' range: 10 GB/s +-30% */
	ck_assert_msg(fabs(dram(w)->uncertainty - 3 * GB) < 1, "%g",
		      dram(w)->uncertainty);
	ck_assert(!pandia_saturation(&env, w, &r, &sol1));
	fit_plan_release(&r.pl);
	workload_free(w);
	machine_free(m);
}
END_TEST

/* 2 GB/s a thread: below what the runs allow; kept, and said once. */
START_TEST(test_consistent)
{
	struct pandia_machine *m = machine16();
	struct model_env env = { .m = m };
	struct pandia_workload *w = probed(2 * GB, 40, 0.05);
	struct pandia_runs r;
	int pus16[16], *pus;

	runs_of(&r, m, 0.1, 0.0625, pus16);
	/* no run planned: 16 x (2 + 2 x 0.1) GB/s stays below 40 */
	ck_assert_int_eq(pandia_saturation_placement(&env, w, &r.pl, &pus), 0);
	ck_assert_ptr_null(pus);
	ck_assert(!pandia_saturation(&env, w, &r, &sol1));
	ck_assert(dram(w)->value == 2 * GB);
	ck_assert(pandia_params(w)->demand_amp[WR_DRAM] == 40);
	ck_assert_msg(strstr(dram(w)->status, "; checked against the runs: "
			     "check1 (16 threads on run 1's node, which DRAM "
			     "did not hold back) allows up to 2.57 GB/s: "
			     "consistent with it"), "%s", dram(w)->status);
	ck_assert(!pandia_saturation(&env, w, &r, &sol1));
	ck_assert(!strstr(strstr(dram(w)->status, "; checked") + 1,
			  "; checked"));
	/* its range inside what the runs allow: as it was */
	ck_assert(fabs(dram(w)->uncertainty - 0.1 * GB) < 1);
	ck_assert(!strstr(dram(w)->status, "range cut"));
	fit_plan_release(&r.pl);
	workload_free(w);
	machine_free(m);
}
END_TEST

/*
 * An estimate the runs allow with a range far past what they allow
 * (the probes nearly saturate DRAM: amplification 1e5): cut to the
 * bound, 2.57 GB/s, or to twice the estimate when that is above half
 * of it, and said.
 */
START_TEST(test_range_cut)
{
	struct pandia_machine *m = machine16();
	struct model_env env = { .m = m };
	const double d[2] = { 0.2 * GB, 2 * GB }, rel[2] = { 100, 3 };
	struct pandia_runs r;
	int pus16[16], i;
	double b = 0.0625 * (1 + 2 * sqrt(2) * 0.01) * 40 * GB;

	for (i = 0; i < 2; i++) {
		struct pandia_workload *w = probed(d[i], 1e5, rel[i]);
		double want = i ? d[i] : b - d[i];

		runs_of(&r, m, 0.1, 0.0625, pus16);
		ck_assert(!pandia_saturation(&env, w, &r, &sol1));
		ck_assert(dram(w)->value == d[i]);
		ck_assert_msg(fabs(dram(w)->uncertainty - want) < 1e-4 * GB,
			      "%g: range %g, not %g", d[i],
			      dram(w)->uncertainty, want);
		ck_assert_msg(strstr(dram(w)->status, "allows up to 2.57 GB/s: "
				     "consistent with it; its range cut to "
				     "what the runs allow, +-"), "%s",
			      dram(w)->status);
		fit_plan_release(&r.pl);
		workload_free(w);
	}
	machine_free(m);
}
END_TEST

/*
 * L3 and DRAM both poorly conditioned, the run held back by DRAM (16
 * x 10 GB/s of 40, against 16 x 2 of 150 for L3): DRAM takes the
 * run's time; L3, given it, was not held back and keeps its estimate.
 * Taken the other way round, L3 would have been given the run.
 */
START_TEST(test_nearer_first)
{
	struct pandia_machine *m = machine16();
	struct model_env env = { .m = m };
	struct pandia_workload *w = probed(10 * GB, 12.5, 0.3);
	const struct wl_param *l3 = &pandia_params(w)->demand[WR_L3];
	struct pandia_runs r;
	int pus16[16];

	probe_set(w, WR_L3, 2 * GB, 30, 0.3);
	runs_of(&r, m, NAN, 0.2, pus16);
	r.pl.made[PR2] = false;
	ck_assert(pandia_saturation(&env, w, &r, &sol1));
	ck_assert_msg(fabs(dram(w)->value - 8 * GB) < 1e-4 * GB, "%g",
		      dram(w)->value);
	ck_assert(l3->value == 2 * GB);
	ck_assert(pandia_params(w)->demand_amp[WR_L3] == 30);
	ck_assert_msg(strstr(l3->status, "which L3 did not hold back"), "%s",
		      l3->status);
	fit_plan_release(&r.pl);
	workload_free(w);
	machine_free(m);
}
END_TEST

/* What is left alone. */
START_TEST(test_left_alone)
{
	struct pandia_machine *m = machine16();
	struct model_env env = { .m = m };
	struct pandia_workload *w;
	struct pandia_runs r;
	int pus16[16], *pus;

	/* well conditioned */
	w = probed(10 * GB, 2.5, 0.02);
	runs_of(&r, m, 0.3, 0.2, pus16);
	ck_assert_int_eq(pandia_saturation_placement(&env, w, &r.pl, &pus), 0);
	ck_assert(!pandia_saturation(&env, w, &r, &sol1));
	ck_assert(dram(w)->value == 10 * GB);
	ck_assert_str_eq(dram(w)->status, "estimate from 15 co-run probe(s)");
	fit_plan_release(&r.pl);
	workload_free(w);
	/* a bound, even where a run looks held back */
	w = probed(10 * GB, 12.5, 0.3);
	free(pandia_params(w)->demand[WR_DRAM].status);
	pandia_params(w)->demand[WR_DRAM].status = xstrdup("upper bound: x");
	runs_of(&r, m, 0.2, 0.2, pus16);
	ck_assert(!pandia_saturation(&env, w, &r, &sol1));
	ck_assert(dram(w)->value == 10 * GB);
	ck_assert_str_eq(dram(w)->status, "upper bound: x");
	fit_plan_release(&r.pl);
	workload_free(w);
	/* measured by counters (no probe in its source) */
	w = probed(10 * GB, 12.5, 0.3);
	free(pandia_params(w)->demand[WR_DRAM].source);
	pandia_params(w)->demand[WR_DRAM].source = xstrdup("run1");
	runs_of(&r, m, 0.3, 0.2, pus16);
	ck_assert(!pandia_saturation(&env, w, &r, &sol1));
	fit_plan_release(&r.pl);
	workload_free(w);
	machine_free(m);
}
END_TEST

/*
 * Run 2 with every core of the node, p fitted from it: 16 threads at 4
 * GB/s a thread want 64 of DRAM's 40 GB/s and take 0.1 s, which p =
 * 0.96 gives without the demand, so run 2 alone shows nothing.  A
 * check run on half the cores (8 threads, 32 GB/s, 0.125 s: not held
 * back) pins p at 1, and run 2 then gives the demand.
 */
START_TEST(test_pinned)
{
	struct pandia_machine *m = machine16();
	struct model_env env = { .m = m };
	struct pandia_workload *w = probed(3 * GB, 50, 1.0);
	const struct fit_solution sol = { .p = 0.96 };
	struct pandia_runs r;
	int pus16[16], *pus, n;

	runs_at(&r, m, 16, 0.1, 8, NAN, pus16);
	/* the saturation run is run 2: the check stage plans half */
	n = pandia_saturation_placement(&env, w, &r.pl, &pus);
	ck_assert_int_eq(n, 16);
	free(pus);
	/* without the half run: run 2 allows it, nothing held back */
	ck_assert(!pandia_saturation(&env, w, &r, &sol));
	ck_assert_msg(strstr(dram(w)->status, "checked against the runs: "
			     "run2"), "%s", dram(w)->status);
	workload_free(w);
	fit_plan_release(&r.pl);
	w = probed(3 * GB, 50, 1.0);
	runs_at(&r, m, 16, 0.1, 8, 0.125, pus16);
	ck_assert(pandia_saturation(&env, w, &r, &sol));
	ck_assert_msg(fabs(dram(w)->value / (4 * GB) - 1) < 1e-3, "%g",
		      dram(w)->value);
	ck_assert_str_eq(dram(w)->source, "run1,probe-dram,run2");
	ck_assert_msg(strstr(dram(w)->status, "estimate from run2's time, "
			     "which DRAM holds back: 16 threads") &&
		      strstr(dram(w)->status, "with p 1 from check1 (8 "
			     "threads)"), "%s", dram(w)->status);
	/* a half run as slow as p = 0.96 gives (0.16 s): p stays, nothing
	   taken */
	workload_free(w);
	w = probed(3 * GB, 50, 1.0);
	r.ex[0].t = 0.161;
	ck_assert(!pandia_saturation(&env, w, &r, &sol));
	ck_assert_ptr_null(strstr(dram(w)->status, "holds back"));
	fit_plan_release(&r.pl);
	workload_free(w);
	machine_free(m);
}
END_TEST

/*
 * A bound at one core's link or above says nothing of the demand, nor
 * does one from a loss within the host's drift: the fit and run 2's
 * plan take it as 0, as predictions do, where another bound (a level
 * the probes saturated and kept) and an estimate enter as their
 * value.  With DRAM at 12 GB/s a core and 40 in all, 16
 * threads of such a bound would saturate DRAM and shrink run 2.
 */
START_TEST(test_empty_bound)
{
	struct pandia_machine *m = machine16();
	struct pandia_workload *w = probed(12 * GB, NAN, NAN);
	struct wl_param *d = &pandia_params(w)->demand[WR_DRAM];
	struct model_params base;
	struct pandia_error err;
	struct fit_plan pl;

	free(d->status);
	d->status = xstrdup("upper bound: below 12 GB/s: within the drift");
	pandia_base_params(m, w, 1, &base);
	ck_assert_double_eq(base.d[WR_DRAM], 0);
	ck_assert_msg(fit_plan_make(&pl, m, &base, &err) == 0, "%s",
		      err.text);
	ck_assert_int_eq(pl.n_pus[PR2], 16);
	fit_plan_release(&pl);
	/* a bound below the link: the fit takes it */
	d->value = 6 * GB;
	pandia_base_params(m, w, 1, &base);
	ck_assert_double_eq(base.d[WR_DRAM], 6 * GB);
	ck_assert_msg(fit_plan_make(&pl, m, &base, &err) == 0, "%s",
		      err.text);
	ck_assert_int_lt(pl.n_pus[PR2], 16);
	fit_plan_release(&pl);
	/* ... unless the loss was within the host's drift */
	free(d->status);
	d->status = xstrdup("upper bound: below 6 GB/s: ... "
			    WL_DRIFT_BOUND ", not a measure of what it took");
	pandia_base_params(m, w, 1, &base);
	ck_assert_double_eq(base.d[WR_DRAM], 0);
	/* an estimate at the link: a measurement, taken */
	d->value = 12 * GB;
	free(d->status);
	d->status = xstrdup("estimate from 15 co-run probe(s)");
	pandia_base_params(m, w, 1, &base);
	ck_assert_double_eq(base.d[WR_DRAM], 12 * GB);
	workload_free(w);
	machine_free(m);
}
END_TEST

/*
 * What the joint fit moves (take_alternative): a demand it moved,
 * value and status; one it left where it started (a bound that says
 * nothing started at 0, and stays 0), one at its value already, one not
 * listed and one not known: untouched.
 */
START_TEST(test_move_guard)
{
	struct pandia_workload *w = probed(12 * GB, NAN, NAN);
	struct pandia_params *pp = pandia_params(w);
	struct wl_param *d = &pp->demand[WR_DRAM];
	const char *was = "upper bound: below 12 GB/s: " WL_DRIFT_BOUND;

	free(d->status);
	d->status = xstrdup(was);
	/* the bound the fit started at 0 and left there */
	pandia_move_demand(pp, WR_DRAM, 0, 0, "why");
	ck_assert_double_eq(d->value, 12 * GB);
	ck_assert_str_eq(d->status, was);
	/* at its value already */
	pandia_move_demand(pp, WR_DRAM, 12 * GB * (1 + 1e-9), 0, "why");
	ck_assert_double_eq(d->value, 12 * GB);
	ck_assert_str_eq(d->status, was);
	/* not listed, or not known */
	pp->listed[WR_DRAM] = false;
	pandia_move_demand(pp, WR_DRAM, 4 * GB, 0, "why");
	ck_assert_double_eq(d->value, 12 * GB);
	pp->listed[WR_DRAM] = true;
	d->known = false;
	pandia_move_demand(pp, WR_DRAM, 4 * GB, 0, "why");
	ck_assert_double_eq(d->value, 12 * GB);
	d->known = true;
	/* moved: the value, and the status after what it said */
	pandia_move_demand(pp, WR_DRAM, 4 * GB, 0, "the runs say so");
	ck_assert_double_eq(d->value, 4 * GB);
	ck_assert_msg(strstr(d->status, was) == d->status &&
		      strstr(d->status, "; moved from 1.2e+10 by the joint "
			     "fit: the runs say so"), "%s", d->status);
	/* from a value the fit started at */
	pandia_move_demand(pp, WR_DRAM, 5 * GB, 5 * GB, "again");
	ck_assert_double_eq(d->value, 4 * GB);
	ck_assert_ptr_null(strstr(d->status, "again"));
	workload_free(w);
}
END_TEST

static Suite *saturation_suite(void)
{
	Suite *s = suite_create("saturation");
	TCase *tc = tcase_create("saturation");

	tcase_add_test(tc, test_held_back);
	tcase_add_test(tc, test_capped);
	tcase_add_test(tc, test_consistent);
	tcase_add_test(tc, test_range_cut);
	tcase_add_test(tc, test_nearer_first);
	tcase_add_test(tc, test_left_alone);
	tcase_add_test(tc, test_pinned);
	tcase_add_test(tc, test_empty_bound);
	tcase_add_test(tc, test_move_guard);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { saturation_suite, NULL };
