/*
 * check_refit.c - the Pandia model refitted with the placements pandia
 * tune measured (predictor/pandia/fit_tune.c): on a synthetic profile
 * of a hidden model, tune runs that agree with it narrow the ranges
 * and leave the parameters where they were; tune runs 20% slower than
 * the model move its predictions at their placements toward what was
 * measured, widen the ranges by the misfit, and record how far the
 * profile's own parameters missed; the profile's parameters are kept
 * and a second refit gives the same; a description without the
 * profile's runs is not refitted and says why.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "common/cpulist.h"
#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/fit_joint.h"
#include "predictor/pandia/fit_tune.h"
#include "predictor/pandia/pandia_internal.h"
#include "predictor/pandia/params.h"
#include "tests/lib/testkit.h"


/* The hidden model: two sockets of four cores of two PUs. */
static const struct model_params hidden = {
	.t1 = 1, .p = 0.95, .o_s = 0.05, .l = 0.5, .b = 0.3,
	.d = { [WR_INSTRUCTIONS] = 2e9, [WR_DRAM] = 1e9 },
};

/* The tune runs' placements (OS indexes, one thread each). */
static const char *const tuned[] = { "0-15", "0,2,4,6,8,10,12,14",
				     "0-7", "0,2,4,6", "0-11" };
#define N_TUNED (sizeof(tuned) / sizeof(tuned[0]))

static struct wl_run *add_run(struct pandia_workload *w, const char *id,
			      const char *purpose, const int *os, int n,
			      double t)
{
	struct wl_run *r;

	w->runs = xrealloc(w->runs, sizeof(*w->runs) *
			   (size_t)(w->n_runs + 1));
	r = &w->runs[w->n_runs++];
	memset(r, 0, sizeof(*r));
	r->id = xstrdup(id);
	r->purpose = xstrdup(purpose);
	r->n_cpus = n;
	r->cpus = xmalloc(sizeof(int) * (size_t)n);
	memcpy(r->cpus, os, sizeof(int) * (size_t)n);
	/* three repetitions 0.5% apart */
	r->n_times = 3;
	r->times = xmalloc(sizeof(double) * 3);
	r->times[0] = t * 0.995;
	r->times[1] = t;
	r->times[2] = t * 1.005;
	return r;
}

/* A profile of the hidden model on M, fitted as pandia profile fits. */
static struct pandia_workload *profiled(struct pandia_machine *m,
					struct fit_plan *pl)
{
	struct pandia_workload *w = workload_new();
	struct pandia_params *pp = pandia_params(w);
	struct model_env env = { .m = m };
	struct pandia_error err;
	int x, i, os[64];

	pp->listed[WR_INSTRUCTIONS] = pp->listed[WR_DRAM] = true;
	wl_param_set(&pp->demand[WR_INSTRUCTIONS], 2e9, NAN, "run1");
	wl_param_set(&pp->demand[WR_DRAM], 1e9, NAN, "run1");
	ck_assert_msg(fit_plan_make(pl, m, &hidden, &err) == 0, "%s",
		      err.text);
	for (x = 0; x < FIT_RUNS; x++) {
		if (!pl->made[x])
			continue;
		for (i = 0; i < pl->n_pus[x]; i++)
			os[i] = m->pus[pl->pus[x][i]].os_index;
		add_run(w, fit_run_id(x), "profile", os, pl->n_pus[x],
			fit_model_time(pl, &hidden, x,
				       fit_corun_run(x) ? 2 : 1, NULL,
				       NULL));
	}
	ck_assert_msg(model_pandia.fit(&env, w, &err) == 0, "%s", err.text);
	return w;
}

/* Tune runs at the placements of tuned[], FACTOR times the truth. */
static void add_tuned(struct pandia_workload *w, struct pandia_machine *m,
		      const struct fit_plan *pl, double factor)
{
	size_t k;
	char id[16];

	for (k = 0; k < N_TUNED; k++) {
		int *os = NULL, n, pus[64], i;
		struct pandia_error err;

		ck_assert(cpulist_parse(tuned[k], &os, &n, &err) == 0);
		for (i = 0; i < n; i++)
			pus[i] = machine_pu_index(m, os[i]);
		snprintf(id, sizeof(id), "tune-%zu", k + 1);
		add_run(w, id, MODEL_TUNE_PURPOSE, os, n, factor *
			fit_time_pus(pl->sp, &hidden, pus, n));
		free(os);
	}
	/* an unpinned one: recorded, not fitted */
	add_run(w, "tune-9", MODEL_TUNE_UNPINNED " (the OS scheduler)",
		(const int[]){ 0 }, 1, 0.1);
}

/* The model's time at tune run K's placement under W's parameters. */
static double predicted(const struct pandia_workload *w,
			struct pandia_machine *m, const struct fit_plan *pl,
			size_t k)
{
	const struct pandia_params *pp = pandia_params(w);
	struct model_params q = hidden;
	int *os = NULL, n, pus[64], i;
	struct pandia_error err;

	q.t1 = pp->t1.value;
	q.p = pp->p.value;
	q.o_s = pp->o_s.value;
	q.l = pp->l.value;
	q.b = pp->b.value;
	q.os_fraction = pp->has_o_s_form && pp->o_s_form == OS_PER_FRACTION;
	q.b_core = pp->has_b_form && pp->b_form == B_CORE;
	ck_assert(cpulist_parse(tuned[k], &os, &n, &err) == 0);
	for (i = 0; i < n; i++)
		pus[i] = machine_pu_index(m, os[i]);
	free(os);
	return fit_time_pus(pl->sp, &q, pus, n);
}

/* The parameters' values and uncertainties: t1, p, o_s, l, b. */
static void params_now(const struct pandia_workload *w, double *v, double *u)
{
	const struct pandia_params *pp = pandia_params(w);
	const struct wl_param *q[5] = { &pp->t1, &pp->p, &pp->o_s, &pp->l,
					&pp->b };
	int k;

	for (k = 0; k < 5; k++) {
		ck_assert(q[k]->known);
		v[k] = q[k]->value;
		u[k] = q[k]->uncertainty;
	}
}

/* Tune runs that agree with the model: ranges narrow, nothing moves. */
START_TEST(test_right_narrows)
{
	struct pandia_machine *m = tk_machine("pack:2 core:4 pu:2",
					      "tests/data/assume-full.json");
	struct fit_plan pl;
	struct pandia_workload *w = profiled(m, &pl);
	double v0[5], u0[5], v1[5], u1[5];
	json_t *rf;
	char *say;
	int k;

	params_now(w, v0, u0);
	add_tuned(w, m, &pl, 1);
	ck_assert_int_eq(pandia_refit_tuned(m, w, &say), 1);
	ck_assert_msg(strstr(say, "refitted with 5 pinned runs"), "%s", say);
	free(say);
	params_now(w, v1, u1);
	for (k = 0; k < 5; k++) {
		ck_assert_msg(fabs(v1[k] - v0[k]) < 1e-3,
			      "param %d moved %g -> %g", k, v0[k], v1[k]);
		ck_assert_msg(u1[k] <= u0[k] * (1 + 1e-9),
			      "param %d widened %g -> %g", k, u0[k], u1[k]);
	}
	/* p, which every tune run measures, narrows by a tenth at least */
	ck_assert_msg(u1[1] < 0.9 * u0[1], "p: %g -> %g", u0[1], u1[1]);
	rf = pandia_params(w)->refit;
	ck_assert(rf && json_is_true(json_object_get(rf, "refitted")));
	ck_assert_double_eq_tol(json_real_value(json_object_get(
		json_object_get(rf, "profiled"), "p")), v0[1], 1e-12);
	ck_assert_double_eq_tol(json_real_value(json_object_get(
		json_object_get(rf, "profiled"), "p_uncertainty")), u0[1],
		1e-12);
	ck_assert_msg(json_real_value(json_object_get(rf, "misfit")) < 0.005,
		      "misfit %g", json_real_value(json_object_get(rf,
							       "misfit")));
	ck_assert_int_eq(json_array_size(json_object_get(rf, "runs")),
			 N_TUNED);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(
		rf, "not_fitted"), 0)), "tune-9");
	/* again: from the profile's parameters, the same */
	ck_assert_int_eq(pandia_refit_tuned(m, w, &say), 1);
	free(say);
	params_now(w, v0, u0);
	for (k = 0; k < 5; k++) {
		ck_assert_double_eq(v0[k], v1[k]);
		ck_assert_double_eq(u0[k], u1[k]);
	}
	workload_free(w);
	fit_plan_release(&pl);
	machine_free(m);
}
END_TEST

/*
 * A check run the profile fitted with, 4% off at a placement the tune
 * runs measure as the model has it: the refit splits the difference,
 * but the misfit keeps the check run's miss before the profile took it
 * (model_miss), as the profile states it.
 */
START_TEST(test_check_held_out)
{
	struct pandia_machine *m = tk_machine("pack:2 core:4 pu:2",
					      "tests/data/assume-full.json");
	struct fit_plan pl;
	struct pandia_workload *w = profiled(m, &pl);
	int *os = NULL, n, pus[64], i;
	struct pandia_error err;
	struct wl_run *c;
	double mf;
	char *say;

	ck_assert(cpulist_parse(tuned[0], &os, &n, &err) == 0);
	for (i = 0; i < n; i++)
		pus[i] = machine_pu_index(m, os[i]);
	c = add_run(w, "check1", "check: the predicted best placement with "
		    "the most threads", os, n,
		    1.04 * fit_time_pus(pl.sp, &hidden, pus, n));
	free(os);
	wl_run_add_counter(c, "model_miss", 0.04);
	wl_run_add_counter(c, "model_refitted", 1);
	add_tuned(w, m, &pl, 1);
	ck_assert_int_eq(pandia_refit_tuned(m, w, &say), 1);
	free(say);
	mf = json_real_value(json_object_get(pandia_params(w)->refit,
					     "misfit"));
	ck_assert_msg(mf >= 0.99 * log1p(0.04), "misfit %g", mf);
	workload_free(w);
	fit_plan_release(&pl);
	machine_free(m);
}
END_TEST

/*
 * Tune runs 20% slower than the model at their placements: the refit
 * moves its predictions there toward what was measured, the misfit
 * widens t1's range, and the refit records the profile's miss.
 */
START_TEST(test_wrong_moves)
{
	struct pandia_machine *m = tk_machine("pack:2 core:4 pu:2",
					      "tests/data/assume-full.json");
	struct fit_plan pl;
	struct pandia_workload *w = profiled(m, &pl);
	double before[N_TUNED], v0[5], u0[5], v1[5], u1[5], mf;
	json_t *rf, *o;
	size_t k;
	char *say;

	params_now(w, v0, u0);
	for (k = 0; k < N_TUNED; k++)
		before[k] = predicted(w, m, &pl, k);
	add_tuned(w, m, &pl, 1.2);
	ck_assert_int_eq(pandia_refit_tuned(m, w, &say), 1);
	free(say);
	params_now(w, v1, u1);
	rf = pandia_params(w)->refit;
	for (k = 0; k < N_TUNED; k++) {
		double meas = 1.2 * before[k], now = predicted(w, m, &pl, k);

		ck_assert_msg(fabs(now - meas) < fabs(before[k] - meas),
			      "%s: %g -> %g, measured %g", tuned[k],
			      before[k], now, meas);
		o = json_array_get(json_object_get(rf, "runs"), k);
		/* the profile's miss: 1 / 1.2 - 1 */
		ck_assert_double_eq_tol(json_real_value(json_object_get(
			o, "profiled")) / json_real_value(json_object_get(
			o, "measured")) - 1, 1 / 1.2 - 1, 1e-6);
		ck_assert_double_eq_tol(json_real_value(json_object_get(
			o, "refitted")), now, 1e-9 * now);
	}
	/* some of the 20% the parameters cannot take is the misfit */
	mf = json_real_value(json_object_get(rf, "misfit"));
	ck_assert_msg(mf > 0.03, "misfit %g", mf);
	ck_assert_msg(u1[0] > u0[0] && u1[0] >= 0.9 * mf * v1[0],
		      "t1's range %g -> %g, misfit %g", u0[0], u1[0], mf);
	workload_free(w);
	fit_plan_release(&pl);
	machine_free(m);
}
END_TEST

/* No profiling runs: not refitted, said, the misfit widens t1's range. */
START_TEST(test_cannot)
{
	struct pandia_machine *m = tk_machine("pack:2 core:4 pu:2",
					      "tests/data/assume-full.json");
	struct fit_plan pl;
	struct pandia_workload *w = profiled(m, &pl), *h = workload_new();
	struct pandia_params *pp = pandia_params(w), *hp = pandia_params(h);
	double u, p;
	char *say;
	int i;

	/* the parameters alone, as a description written by hand */
	wl_param_set(&hp->t1, pp->t1.value, 0.01, NULL);
	wl_param_set(&hp->p, pp->p.value, NAN, NULL);
	for (i = 0; i < WR_COUNT; i++) {
		hp->listed[i] = pp->listed[i];
		if (pp->listed[i])
			wl_param_set(&hp->demand[i], pp->demand[i].value, NAN,
				     NULL);
	}
	add_tuned(h, m, &pl, 1);
	ck_assert_int_eq(pandia_refit_tuned(m, h, &say), 0);
	ck_assert_msg(strstr(say, "not refitted: the description has no "
			     "profiling runs 1 and 2"), "%s", say);
	free(say);
	ck_assert(hp->refit == NULL);
	ck_assert_double_eq(hp->t1.uncertainty, 0.01);
	workload_free(h);

	/* a run of the plan lost: the runs widen t1's range only */
	for (i = 0; i < w->n_runs; i++)
		if (!strcmp(w->runs[i].id, "run6")) {
			free(w->runs[i].id);
			w->runs[i].id = xstrdup("lost");
		}
	u = pp->t1.uncertainty;
	p = pp->p.value;
	add_tuned(w, m, &pl, 1.2);
	ck_assert_int_eq(pandia_refit_tuned(m, w, &say), 0);
	ck_assert_msg(strstr(say, "not refitted: the description lacks a "
			     "run"), "%s", say);
	free(say);
	ck_assert(json_is_false(json_object_get(pp->refit, "refitted")));
	ck_assert_double_eq(pp->p.value, p);
	ck_assert_msg(pp->t1.uncertainty > u + 0.05 * pp->t1.value,
		      "t1's range %g -> %g", u, pp->t1.uncertainty);
	workload_free(w);
	fit_plan_release(&pl);
	machine_free(m);
}
END_TEST

/*
 * What the profile stated of t1 that no tune run measures (run 2's
 * counters: a clock it beat, contention its CPU time did not show)
 * stays in t1's range through the refit, as the profile stated it.
 */
START_TEST(test_unseen_kept)
{
	struct pandia_machine *m = tk_machine("pack:2 core:4 pu:2",
					      "tests/data/assume-full.json");
	struct fit_plan pl;
	struct pandia_workload *w = profiled(m, &pl);
	struct pandia_params *pp = pandia_params(w);
	struct wl_run *r2 = (struct wl_run *)workload_run_named(w, "run2");
	double rel, want = hypot(0.2, 0.1);
	char *say;

	ck_assert_ptr_nonnull(r2);
	/* the hidden model's profile has neither */
	ck_assert(isnan(wl_run_counter(r2, UNSEEN_CPU)) &&
		  isnan(wl_run_counter(r2, UNSEEN_CLOCK)));
	wl_run_add_counter(r2, UNSEEN_CPU, 0.2);
	wl_run_add_counter(r2, UNSEEN_CLOCK, 0.1);
	add_tuned(w, m, &pl, 1);
	ck_assert_int_eq(pandia_refit_tuned(m, w, &say), 1);
	free(say);
	rel = pp->t1.uncertainty / pp->t1.value;
	ck_assert_msg(rel >= want && rel < want + 0.01, "t1 +- %g, want %g",
		      rel, want);
	workload_free(w);
	fit_plan_release(&pl);
	machine_free(m);
}
END_TEST

static Suite *refit_suite(void)
{
	Suite *s = suite_create("refit");
	TCase *tc = tcase_create("refit");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_right_narrows);
	tcase_add_test(tc, test_wrong_moves);
	tcase_add_test(tc, test_cannot);
	tcase_add_test(tc, test_unseen_kept);
	tcase_add_test(tc, test_check_held_out);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { refit_suite, NULL };
