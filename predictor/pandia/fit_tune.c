/*
 * fit_tune.c - the Pandia model refitted with the placements pandia
 * tune measured, the profile's own parameters kept beside the refitted
 * ones (predictor/pandia/fit_tune.h; docs/tune.md, "What it leaves
 * behind").
 *
 * The refit is the profile's joint fit (fit_joint.h) over the
 * profile's runs, its check runs and the pinned tune runs, from the
 * profile's parameters, with t1 and the demands as recorded: a demand
 * the profile's fit moved is not moved again.  The ranges narrow by
 * the ratio of each parameter's standard error with the tune runs to
 * that without them (fit_joint_se()), both at the refitted values; the
 * misfit, the model's miss beyond the runs' own noise, replaces the
 * profile's in t1's range.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/util.h"
#include "predictor/pandia/fit_tune.h"
#include "predictor/pandia/pandia_internal.h"
#include "predictor/pandia/params.h"
#include "predictor/tune.h"

/* The parameters the refit can move, and t1 (recorded, never moved). */
enum { TP_T1, TP_P, TP_OS, TP_L, TP_B, TP_N };
static const char *const tp_names[TP_N] = { "t1", "p", "o_s", "l", "b" };

static struct wl_param *tp_param(struct pandia_params *pp, int k)
{
	return k == TP_T1 ? &pp->t1 : k == TP_P ? &pp->p : k == TP_OS ?
		&pp->o_s : k == TP_L ? &pp->l : &pp->b;
}

/* The runs the refit sees beyond the plan's, and what they are. */
struct tuned {
	struct fit_extra ex[FIT_MAX_EXTRA];
	const struct wl_run *run[FIT_MAX_EXTRA];
	int *pus[FIT_MAX_EXTRA];	/* owned, the tune runs' */
	int n;			/* in ex */
	int n_fit;		/* the first n_fit are fitted */
	int tune0, n_tune;	/* where the tune runs are in ex */
	json_t *left;		/* tune runs not fitted: their ids */
};

static bool is_tune(const struct wl_run *r, bool *pinned)
{
	if (!r->purpose)
		return false;
	*pinned = !strcmp(r->purpose, MODEL_TUNE_PURPOSE);
	return *pinned || !strncmp(r->purpose, MODEL_TUNE_UNPINNED,
				   strlen(MODEL_TUNE_UNPINNED));
}

/* The profile's parameters of PP as JSON (new reference). */
static json_t *snapshot(struct pandia_params *pp)
{
	json_t *o = json_object();
	char key[32];
	int k;

	for (k = 0; k < TP_N; k++) {
		const struct wl_param *q = tp_param(pp, k);

		json_object_set_new(o, tp_names[k], q->known ?
				    json_real(q->value) : json_null());
		snprintf(key, sizeof(key), "%s_uncertainty", tp_names[k]);
		if (q->known && isfinite(q->uncertainty))
			json_object_set_new(o, key, json_real(q->uncertainty));
	}
	return o;
}

/* PP's parameters from an earlier refit's "profiled", when there is one. */
static void restore(struct pandia_params *pp)
{
	json_t *o = pp->refit ? json_object_get(pp->refit, "profiled") : NULL;
	char key[32];
	int k;

	if (!json_is_object(o))
		return;
	for (k = 0; k < TP_N; k++) {
		struct wl_param *q = tp_param(pp, k);
		json_t *v = json_object_get(o, tp_names[k]), *u;

		snprintf(key, sizeof(key), "%s_uncertainty", tp_names[k]);
		u = json_object_get(o, key);
		if (!q->known || !json_is_number(v))
			continue;
		q->value = json_number_value(v);
		q->uncertainty = json_is_number(u) ? json_number_value(u) :
			NAN;
	}
}

/* The profile's solution, as the joint fit starts from it. */
static void seq_of(const struct pandia_params *pp, const struct wl_run *r4,
		   struct fit_solution *s)
{
	memset(s, 0, sizeof(*s));
	s->p = pp->p.value;
	s->have_o_s = pp->o_s.known;
	s->o_s = pp->o_s.known ? pp->o_s.value : 0;
	s->have_l = pp->l.known;
	s->l = pp->l.known ? pp->l.value : 0;
	s->have_b = pp->b.known;
	s->b = pp->b.known ? pp->b.value : 0;
	s->corun = wl_run_counter(r4, "corun_factor");
	if (isnan(s->corun))
		s->corun = 2;
	/* the profile chose the form; the refit keeps it */
	s->os_fraction = pp->has_o_s_form && pp->o_s_form == OS_PER_FRACTION;
	s->b_core = pp->has_b_form && pp->b_form == B_CORE;
	s->serial_first = serial_first(pp);
}

/*
 * The plan's runs of w: those of a full profile, else those --quick
 * makes.  0 when every run is there; 1 when one is missing (*why,
 * static: r then holds the plan --quick makes, enough to predict the
 * tune runs' placements, not to fit); -1 without runs 1 and 2 (*why).
 */
static int load_runs(const struct pandia_machine *m,
		     const struct pandia_workload *w, struct pandia_runs *r,
		     bool *quick, const char **why)
{
	struct model_env env = { .m = m };
	struct pandia_error err;
	int pass, x;

	for (pass = 0; pass < 2; pass++) {
		env.quick = *quick = pass;
		if (pandia_runs_load(&env, w, r, &err) < 0) {
			*why = "the description has no profiling runs 1 and 2";
			return -1;
		}
		/* run 8 is newer than some descriptions: without it the
		   serial work stays where the profile put it */
		for (x = 0; x < FIT_RUNS; x++)
			if (r->pl.made[x] && !(r->t[x] > 0) && x != PR8)
				break;
		if (x == FIT_RUNS)
			return 0;
		if (pass)
			break;
		pandia_runs_release(r);
	}
	*why = "the description lacks a run of the profile's plan";
	return 1;
}

/* A tune run's placement as m->pus indexes (new array), or NULL. */
static int *pus_of(const struct pandia_machine *m, const struct wl_run *wr)
{
	int *pus = xcalloc((size_t)wr->n_cpus + 1, sizeof(int)), j;

	for (j = 0; j < wr->n_cpus; j++)
		if ((pus[j] = machine_pu_index(m, wr->cpus[j])) < 0) {
			free(pus);
			return NULL;
		}
	return pus;
}

/*
 * A tune run's noise as the fit weighs it (the delta of a fit_extra,
 * relative): the standard deviation of its log times over the square
 * root of their number, the noise of its median.  tune repeats a
 * candidate until it is decided, three to ten times, where a profile
 * run's two or three repetitions show about one run's noise; the fit's
 * floor (FIT_SIGMA_FLOOR) bounds it below for both.  0 for one run.
 */
static double median_noise(const struct wl_run *wr)
{
	double mean, var;
	int j;

	for (j = 0; j < wr->n_times; j++)
		if (!(wr->times[j] > 0))
			return 0;
	if (wr->n_times < 2)
		return 0;
	tune_log_moments(wr->times, wr->n_times, &mean, &var);
	return sqrt(var / wr->n_times);
}

static void put(struct tuned *t, const struct fit_extra *e,
		const struct wl_run *wr)
{
	t->ex[t->n] = *e;
	t->run[t->n++] = wr;
}

/*
 * The extra runs: the check runs the profile may fit with, the pinned
 * tune runs, then the check run that only measures the misfit.
 */
static void gather(const struct pandia_machine *m,
		   const struct pandia_workload *w,
		   const struct pandia_runs *r, struct tuned *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->left = json_array();
	for (i = 0; i < r->n_fit_ex; i++)
		put(t, &r->ex[i], r->ex_run[i]);
	t->tune0 = t->n;
	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *wr = &w->runs[i];
		struct fit_extra e;
		bool pinned;
		int *pus;

		if (!is_tune(wr, &pinned) || wr->n_times < 1)
			continue;
		pus = pinned && wr->n_cpus > 0 &&
			t->n < FIT_MAX_EXTRA - PANDIA_CHECKS ?
			pus_of(m, wr) : NULL;
		if (!pus) {
			json_array_append_new(t->left, json_string(wr->id));
			continue;
		}
		e.n = wr->n_cpus;
		e.pus = pus;
		e.t = median_of(wr->times, wr->n_times);
		e.delta = e.t * median_noise(wr);
		t->pus[t->n] = pus;
		put(t, &e, wr);
	}
	t->n_tune = t->n - t->tune0;
	t->n_fit = t->n;
	for (i = r->n_fit_ex; i < r->n_ex; i++)
		put(t, &r->ex[i], r->ex_run[i]);
}

static void tuned_release(struct tuned *t)
{
	int i;

	for (i = 0; i < t->n; i++)
		free(t->pus[i]);
	json_decref(t->left);
}

static double sigma_of(const struct fit_extra *e)
{
	double s = e->t > 0 && e->delta > 0 ? e->delta / e->t : 0;

	return s > FIT_SIGMA_FLOOR ? s : FIT_SIGMA_FLOOR;
}

/*
 * The model's miss beyond the runs' noise under JR: the largest of
 * the RMS miss on the check runs (as the profile states it: those the
 * fit takes with their miss before it took them), that of
 * the tune runs less their noise, and that of every run the
 * parameters did not need, less the noise.  The noise is in the
 * ranges already (t1's, the parameters'); counted again here, a model
 * that was right would widen its ranges with every run that agreed.
 */
static double misfit(const struct fit_data *d, const struct pandia_runs *r,
		     const struct tuned *t, const struct fit_result *jr)
{
	double chk = 0, tun = 0, all = 0, noise = 0, v, s, mf;
	int i, x, nc = 0, n = 0;

	for (i = 0; i < t->n; i++) {
		v = fit_residual(d, jr, -1 - i);
		s = sigma_of(&t->ex[i]);
		if (!isfinite(v))
			continue;
		if (i >= t->tune0 && i < t->tune0 + t->n_tune) {
			tun += v * v - s * s;
		} else {
			/* a check run fitted with: its miss before the
			   profile fitted with it (pandia_check.c) */
			double h = i < t->tune0 ?
				log1p(wl_run_counter(t->run[i], "model_miss")) :
				NAN;

			chk += isfinite(h) ? h * h : v * v;
			nc++;
		}
		all += v * v;
		noise += s * s;
		n++;
	}
	for (x = PR2; x < FIT_RUNS; x++) {
		if (!r->pl.made[x] || (fit_corun_run(x) && isnan(jr->corun)))
			continue;
		v = fit_residual(d, jr, x);
		s = r->delta[x] / r->t[x];
		s = s > FIT_SIGMA_FLOOR ? s : FIT_SIGMA_FLOOR;
		if (!isfinite(v))
			continue;
		all += v * v;
		noise += s * s;
		n++;
	}
	mf = nc ? sqrt(chk / nc) : 0;
	if (t->n_tune && tun > 0 && sqrt(tun / t->n_tune) > mf)
		mf = sqrt(tun / t->n_tune);
	if (n > jr->n_free) {
		v = all / (n - jr->n_free) - noise / n;
		if (v > 0 && sqrt(v) > mf)
			mf = sqrt(v);
	}
	return mf;
}

/* Each tune run: measured, predicted by the profile's and the refit's. */
static json_t *runs_json(const struct fit_plan *pl, const struct tuned *t,
			 const struct model_params *before,
			 const struct model_params *after)
{
	json_t *a = json_array();
	int i;

	for (i = t->tune0; i < t->tune0 + t->n_tune; i++) {
		const struct fit_extra *e = &t->ex[i];
		json_t *o = json_object();

		json_object_set_new(o, "run", json_string(t->run[i]->id));
		json_object_set_new(o, "measured", json_real(e->t));
		json_object_set_new(o, "profiled", json_real(
			fit_time_pus(pl->sp, before, e->pus, e->n)));
		if (after)
			json_object_set_new(o, "refitted", json_real(
				fit_time_pus(pl->sp, after, e->pus, e->n)));
		json_array_append_new(a, o);
	}
	return a;
}

/* The model_params of the profile's solution S over BASE. */
static void params_of(const struct pandia_runs *r,
		      const struct fit_solution *s, struct model_params *q)
{
	fit_params_of(s, &r->base, r->base.t1, q);
}

/*
 * Nothing refitted (the model kept as profiled): the tune runs' miss
 * beyond their noise widens t1's range, in quadrature with what it
 * had.  Returns that miss.
 */
static double widen_only(struct pandia_params *pp, const struct tuned *t,
			 const struct fit_data *d,
			 const struct fit_result *prof)
{
	double sum = 0, v, s;
	int i;

	for (i = t->tune0; i < t->tune0 + t->n_tune; i++) {
		v = fit_residual(d, prof, -1 - i);
		s = sigma_of(&t->ex[i]);
		if (isfinite(v))
			sum += v * v - s * s;
	}
	if (!t->n_tune || !(sum > 0))
		return 0;
	v = sqrt(sum / t->n_tune);
	pp->t1.uncertainty = hypot(isfinite(pp->t1.uncertainty) ?
				   pp->t1.uncertainty : 0,
				   v * pp->t1.value);
	return v;
}

/* The refitted values and ranges into PP; what moved into *say. */
static void apply(struct pandia_params *pp, const struct pandia_runs *r,
		  const struct fit_result *jr, const double *se0,
		  const double *se1, double mf,
		  const struct fit_solution *seq, json_t *rec, char **say)
{
	const double v[TP_N] = { 0, jr->prm.p, jr->prm.o_s, jr->prm.l,
				 jr->prm.b };
	json_t *nar = json_object();
	char *s = xstrdup(""), *s2;
	int k;

	for (k = TP_P; k < TP_N; k++) {
		struct wl_param *q = tp_param(pp, k);
		double was = q->value, wu = q->uncertainty, f = 1;

		if (!q->known)
			continue;
		if (se0[k - 1] > 0 && se1[k - 1] > 0 && se1[k - 1] < se0[k - 1])
			f = se1[k - 1] / se0[k - 1];
		q->value = v[k];
		if (isfinite(wu))
			q->uncertainty = wu * f;
		json_object_set_new(nar, tp_names[k], json_real(f));
		s2 = isfinite(wu) ?
			xasprintf("%s%s%s %.4g -> %.4g (+-%.3g -> +-%.3g)", s,
				  *s ? ", " : "", tp_names[k], was, q->value,
				  wu, q->uncertainty) :
			xasprintf("%s%s%s %.4g -> %.4g", s, *s ? ", " : "",
				  tp_names[k], was, q->value);
		free(s);
		s = s2;
	}
	{
		double u = pandia_t1_range(r, mf, seq, pp->t1.value);

		s2 = xasprintf("%s; t1's range +-%.3g -> +-%.3g s (misfit "
			       "%.1f%%)", s, pp->t1.uncertainty, u, 100 * mf);
		free(s);
		s = s2;
		pp->t1.uncertainty = u > 0 ? u : NAN;
	}
	json_object_set_new(rec, "narrowed", nar);
	*say = s;
}

/*
 * The refit proper into PP and REC (WHY NULL; *what: what moved), or,
 * when WHY says why it cannot be, the tune runs' miss alone under the
 * profile's parameters SEQ, which widens t1's range.
 */
static void fit_or_widen(struct pandia_params *pp,
			 const struct pandia_runs *r, const struct tuned *t,
			 const struct fit_solution *seq, const char *why,
			 json_t *rec, char **what)
{
	const struct fit_data d0 = { &r->pl, &r->base, r->t, r->delta,
				     t->ex, t->tune0 };
	const struct fit_data d1 = { &r->pl, &r->base, r->t, r->delta,
				     t->ex, t->n_fit };
	const struct fit_data dall = { &r->pl, &r->base, r->t, r->delta,
				       t->ex, t->n };
	struct model_params before;
	struct fit_result jr;
	double se0[4], se1[4], mf;

	params_of(r, seq, &before);
	if (why) {
		memset(&jr, 0, sizeof(jr));
		jr.prm = before;
		jr.corun = seq->have_l ? seq->corun : NAN;
		json_object_set_new(rec, "runs", runs_json(&r->pl, t, &before,
							   NULL));
		mf = widen_only(pp, t, &dall, &jr);
	} else {
		fit_joint(&d1, seq, &jr);
		fit_joint_se(&d0, seq, &jr, se0);
		fit_joint_se(&d1, seq, &jr, se1);
		mf = misfit(&dall, r, t, &jr);
		json_object_set_new(rec, "runs", runs_json(&r->pl, t, &before,
							   &jr.prm));
		apply(pp, r, &jr, se0, se1, mf, seq, rec, what);
	}
	json_object_set_new(rec, "misfit", json_real(mf));
}

int pandia_refit_tuned(const struct pandia_machine *m,
		       struct pandia_workload *w, char **say)
{
	struct pandia_params *pp = pandia_params(w);
	struct fit_solution seq;
	struct pandia_runs r;
	struct tuned t;
	const char *why = NULL;
	char *what = NULL;
	json_t *rec;
	bool quick;
	int n_left;

	*say = NULL;
	restore(pp);
	json_decref(pp->refit);
	pp->refit = NULL;
	if (!pp->t1.known || !pp->p.known) {
		*say = xstrdup("not refitted: the description has no fitted "
			       "t1 and p; the tune runs only say how far the "
			       "model missed");
		return 0;
	}
	if (load_runs(m, w, &r, &quick, &why) < 0) {
		*say = xasprintf("not refitted: %s; the tune runs only say how "
				 "far the model missed", why);
		return 0;
	}
	rec = json_object();
	json_object_set_new(rec, "profiled", snapshot(pp));
	gather(m, w, &r, &t);
	if (!why && !t.n_tune)
		why = "no pinned run of tune's (an unpinned one has no "
			"placement the model can fit)";
	seq_of(pp, r.xr[PR4], &seq);
	/* what the profile stated of t1 that no tune run measures */
	pandia_unseen_of(r.xr[PR2], &seq);
	fit_or_widen(pp, &r, &t, &seq, why, rec, &what);
	n_left = (int)json_array_size(t.left);
	json_object_set_new(rec, "refitted", json_boolean(!why));
	if (why)
		json_object_set_new(rec, "why_not", json_string(why));
	json_object_set_new(rec, "quick", json_boolean(quick));
	json_object_set_new(rec, "not_fitted", json_incref(t.left));
	if (why)
		*say = xasprintf("not refitted: %s; the tune runs only widen "
				 "the ranges by how far the model missed them",
				 why);
	else
		*say = xasprintf("refitted with %d pinned run%s of tune's%s: "
				 "%s", t.n_tune, t.n_tune == 1 ? "" : "s",
				 n_left ? " (the unpinned ones measure no "
				 "placement the model can fit)" : "", what);
	pp->refit = rec;
	free(what);
	tuned_release(&t);
	pandia_runs_release(&r);
	return !why;
}
