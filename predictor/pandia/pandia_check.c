/*
 * pandia_check.c - after the sequential fit: the joint fit over every
 * run, the competing explanations it tests, and the check runs that
 * test the fit on placements far from the runs it was made from
 * (predictor/pandia/fit_joint.h, docs/profiling.md "The joint fit",
 * "Ambiguity" and "Check runs").
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"
#include "predictor/pandia/fit_joint.h"
#include "predictor/pandia/pandia_internal.h"
#include "predictor/pandia/params.h"

/* As fit_joint.c's: beyond the runs' noise (2 sigma on one degree). */
#define AMB_COST_MARGIN 4.0
/* A refit with the check runs may move no run beyond 2 sigma. */
#define AMB_WORST_RUNS 2.0

/* The purposes of the check runs that only measure the misfit begin so
   (add_check's prefix): the uneven placement and the half-shared one */
#define UNEVEN_PURPOSE "check: uneven"
#define SHARED_PURPOSE "check: half the cores shared"

/* Whether a check run of PURPOSE only measures the misfit. */
static bool misfit_only(const char *purpose)
{
	return purpose &&
		(!strncmp(purpose, UNEVEN_PURPOSE, strlen(UNEVEN_PURPOSE)) ||
		 !strncmp(purpose, SHARED_PURPOSE, strlen(SHARED_PURPOSE)));
}

static const char *const check_ids[PANDIA_CHECKS] = {
	"check1", "check2", "check3", "check4"
};

static double median_times(const struct wl_run *r)
{
	return r ? median_known(r->times, r->n_times) : NAN;
}

static double half_range(const struct wl_run *r)
{
	return r ? half_range_of(r->times, r->n_times) : 0;
}

/*
 * Whether demand R of PP is a bound that says nothing of the demand:
 * one core's link to its level or more, or a loss within the host's
 * drift (probe.c's drift_bound(): "not a measure of what it took").
 */
static bool empty_bound(const struct pandia_machine *m,
			const struct pandia_params *pp, int r)
{
	const struct wl_param *d = &pp->demand[r];
	int lvl = r - WR_L1;

	if (!wl_param_is_bound(d))
		return false;
	if (strstr(d->status, WL_DRIFT_BOUND))
		return true;
	if (lvl < 0 || lvl >= LVL_COUNT || !m->links[lvl].present ||
	    !(m->links[lvl].per_core_bw > 0))
		return false;
	return d->value >= m->links[lvl].per_core_bw * (1 - 1e-9);
}

void pandia_base_params(const struct pandia_machine *m,
			const struct pandia_workload *w, double t1,
			struct model_params *base)
{
	const struct pandia_params *pp = pandia_params(w);
	int r;

	memset(base, 0, sizeof(*base));
	base->t1 = t1;
	base->p = 1;
	base->serial_first = serial_first(pp);
	for (r = 0; r < WR_COUNT; r++)
		base->d[r] = pp->listed[r] && pp->demand[r].known &&
			!empty_bound(m, pp, r) ? pp->demand[r].value : 0;
}

/* The check runs recorded in w, as placements the fit can predict. */
static void load_checks(const struct pandia_machine *m,
			const struct pandia_workload *w,
			struct pandia_runs *r)
{
	int i, j;

	for (i = 0; i < PANDIA_CHECKS; i++) {
		struct wl_run *wr = (struct wl_run *)
			workload_run_named(w, check_ids[i]);
		struct fit_extra *e = &r->ex[r->n_ex];
		int *pus;

		if (!wr || !wr->n_times || wr->n_cpus < 1)
			continue;
		pus = xmalloc(sizeof(int) * (size_t)wr->n_cpus);
		for (j = 0; j < wr->n_cpus; j++) {
			pus[j] = machine_pu_index(m, wr->cpus[j]);
			if (pus[j] < 0)
				break;
		}
		if (j < wr->n_cpus) {
			free(pus);
			continue;
		}
		r->ex_run[r->n_ex] = wr;
		r->ex_pus[r->n_ex] = pus;
		if (!misfit_only(wr->purpose))
			r->n_fit_ex = r->n_ex + 1;
		e->n = wr->n_cpus;
		e->pus = pus;
		e->t = median_times(wr);
		e->delta = half_range(wr);
		r->n_ex++;
	}
}

/*
 * The host's drift: run 1 made again after every other run, against
 * run 1's own median.  Each run's half range gains it in quadrature:
 * the runs were made minutes apart, their repetitions seconds apart.
 */
static void add_drift(const struct pandia_workload *w, struct pandia_runs *r)
{
	struct wl_run *d = (struct wl_run *)workload_run_named(w,
							       PANDIA_DRIFT_ID);
	double td = median_times(d);
	int x;

	r->drift_run = d;
	r->drift = 0;
	if (!(td > 0) || !(r->t[PR1] > 0))
		return;
	r->drift = fabs(td - r->t[PR1]) / r->t[PR1];
	for (x = 0; x < FIT_RUNS; x++)
		if (r->t[x] > 0)
			r->delta[x] = hypot(r->delta[x], r->drift * r->t[x]);
	for (x = 0; x < r->n_ex; x++)
		r->ex[x].delta = hypot(r->ex[x].delta, r->drift * r->ex[x].t);
}

/*
 * Run 8's noise: the largest half range over the median of runs 2, 4,
 * 5 and 8 (the runs it is compared with; a run of one repetition
 * tells none), 0 when none has two.
 */
static double run8_noise(const struct pandia_runs *r)
{
	static const int runs[] = { PR2, PR4, PR5, PR8 };
	double most = 0;
	int k;

	for (k = 0; k < 4; k++) {
		int x = runs[k];

		if (r->t[x] > 0 && r->delta[x] / r->t[x] > most)
			most = r->delta[x] / r->t[x];
	}
	return most;
}

int pandia_runs_load(const struct model_env *env,
		     const struct pandia_workload *w, struct pandia_runs *r,
		     struct pandia_error *err)
{
	int x;

	memset(r, 0, sizeof(*r));
	for (x = 0; x < FIT_RUNS; x++) {
		r->xr[x] = (struct wl_run *)workload_run_named(w, fit_run_id(x));
		r->t[x] = median_times(r->xr[x]);
		r->delta[x] = half_range(r->xr[x]);
	}
	if (!r->xr[PR1] || !r->xr[PR2] || !(r->t[PR1] > 0) ||
	    !(r->t[PR2] > 0))
		return perr_set(err, "the Pandia model needs runs 1 and 2 "
				"with their times");
	pandia_base_params(env->m, w, r->t[PR1], &r->base);
	if (env->serial != SERIAL_BY_RUN)
		r->base.serial_first = env->serial == SERIAL_GIVEN_FIRST;
	if (fit_plan_make_at(&r->pl, env->m, &r->base, r->xr[PR2]->n_cpus,
			     err) < 0)
		return -1;
	/* run 8 tells where the serial work runs, unless --serial did;
	   without it (a description from before it), as recorded */
	r->pl.serial_auto = env->serial == SERIAL_BY_RUN && r->xr[PR8];
	r->pl.run8_noise = run8_noise(r);
	r->pl.run8_reps = r->xr[PR8] ? r->xr[PR8]->n_times : 0;
	/* where the profile found the pages decides run 3's DRAM traffic
	   over the link, so the fit sees it too */
	if (w->has_memory &&
	    fit_plan_set_memory(&r->pl, &w->memory, err) < 0) {
		fit_plan_release(&r->pl);
		return -1;
	}
	/* the runs --quick left out, as pandia_plan() did */
	if (env->quick)
		fit_plan_quick(&r->pl);
	load_checks(env->m, w, r);
	add_drift(w, r);
	pandia_runs_ranges(r);
	pandia_runs_interference(r, w);
	return 0;
}

void pandia_runs_release(struct pandia_runs *r)
{
	int i;

	fit_plan_release(&r->pl);
	for (i = 0; i < r->n_ex; i++)
		free(r->ex_pus[i]);
	memset(r, 0, sizeof(*r));
}

void pandia_warn(const struct model_env *env, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	if (!env->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	env->warn(env->warn_arg, msg);
}

/* ---- planning the check runs ------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Whether placements A (N) and B (NB) run on the same PUs. */
static bool same_pus(const int *a, int n, const int *b, int nb)
{
	int *x, *y;
	bool same;

	if (n != nb)
		return false;
	x = xmalloc(sizeof(int) * (size_t)n);
	y = xmalloc(sizeof(int) * (size_t)n);
	memcpy(x, a, sizeof(int) * (size_t)n);
	memcpy(y, b, sizeof(int) * (size_t)n);
	qsort(x, (size_t)n, sizeof(int), cmp_int);
	qsort(y, (size_t)n, sizeof(int), cmp_int);
	same = !memcmp(x, y, sizeof(int) * (size_t)n);
	free(x);
	free(y);
	return same;
}

/* Whether PUS is a run already planned (the plan's, or RUNS' first N). */
static bool made_already(const struct fit_plan *pl, const int *pus, int n,
			 const struct model_run *runs, int nr)
{
	int x;

	for (x = 0; x < FIT_RUNS; x++)
		if (pl->made[x] && !pl->beside[x] &&
		    same_pus(pl->pus[x], pl->n_pus[x], pus, n))
			return true;
	for (x = 0; x < nr; x++)
		if (same_pus(runs[x].pus, runs[x].n, pus, n))
			return true;
	return false;
}

/* The sockets placement PUS uses. */
static int sockets_of(const struct pandia_machine *m, const int *pus, int n)
{
	bool *used = xcalloc((size_t)m->n_sockets, sizeof(bool));
	int i, k = 0;

	for (i = 0; i < n; i++) {
		int s = m->cores[m->pus[pus[i]].core].socket;

		k += !used[s];
		used[s] = true;
	}
	free(used);
	return k;
}

static void add_check(struct model_run *runs, int *nr,
		      const struct pandia_machine *m, int *pus, int n,
		      double t, const char *why)
{
	struct model_run *r = &runs[*nr];

	memset(r, 0, sizeof(*r));
	r->id = xstrdup(check_ids[*nr]);
	r->purpose = xasprintf("check: %s, %d threads on %d socket%s", why,
			       n, sockets_of(m, pus, n),
			       sockets_of(m, pus, n) > 1 ? "s" : "");
	r->n = n;
	r->pus = pus;
	r->size = NAN;
	r->optional = true;
	r->expect = t;
	(*nr)++;
}

/* A check run at PUS (N threads, taken) unless it was made already. */
static void add_new(struct model_run *runs, int *nr, const struct fit_plan *pl,
		    const struct pandia_machine *m, int *pus, int n, double t,
		    const char *why)
{
	if (n > 0 && !made_already(pl, pus, n, runs, *nr))
		add_check(runs, nr, m, pus, n, t, why);
	else
		free(pus);
}

/*
 * Run 1 again, last: how far the host drifted while the profile ran,
 * which the repetitions of each run, made close together, cannot see
 * (docs/profiling.md, "Uncertainty").
 */
static void add_drift_run(struct model_run *runs, int *nr,
			  const struct fit_plan *pl, double t1)
{
	struct model_run *r = &runs[*nr];

	if (!pl->made[PR1] || pl->n_pus[PR1] < 1)
		return;
	memset(r, 0, sizeof(*r));
	r->id = xstrdup(PANDIA_DRIFT_ID);
	r->purpose = xstrdup("drift: run 1 again after every other run, "
			     "for how far the host drifted meanwhile");
	r->n = pl->n_pus[PR1];
	r->pus = xmalloc(sizeof(int) * (size_t)r->n);
	memcpy(r->pus, pl->pus[PR1], sizeof(int) * (size_t)r->n);
	r->size = NAN;
	r->optional = true;
	r->quiet = true;
	r->expect = t1;
	(*nr)++;
}

/*
 * Every core of socket 0 and one of socket 1, one thread each (a new
 * array in *pus; its threads returned, 0 without two sockets): the
 * profile's runs spread threads evenly, where every rule for the
 * pages' placement and the link agrees; a placement this uneven is
 * where they differ most, and a check run there measures how far the
 * model's rule is from the machine's.
 */
static int uneven_placement(const struct pandia_machine *m, int **pus)
{
	const struct pandia_socket *s0, *s1;
	int i, n = 0;

	*pus = NULL;
	if (m->n_sockets < 2 || m->sockets[0].n_cores < 2 ||
	    m->sockets[1].n_cores < 1)
		return 0;
	s0 = &m->sockets[0];
	s1 = &m->sockets[1];
	*pus = xcalloc((size_t)s0->n_cores + 2, sizeof(int));
	for (i = 0; i < s0->n_cores; i++)
		(*pus)[n++] = m->cores[s0->cores[i]].pus[0];
	(*pus)[n++] = m->cores[s1->cores[0]].pus[0];
	return n;
}

/*
 * Every core of the first two sockets (one on a one-socket machine)
 * with a thread, and a second thread on another PU of the first half
 * of them (a new array in *pus; its threads returned, 0 without SMT):
 * the profile's runs share every core or none (run 6, the predicted
 * best with every PU), so a placement where threads that share a core
 * meet threads alone on theirs, across sockets, is where the model's
 * rules for SMT, the load balance and the link combine as no run
 * showed them.
 */
static int shared_placement(const struct pandia_machine *m, int **pus)
{
	int ns = m->n_sockets > 1 ? 2 : 1, i, s, n = 0, most = 0;

	*pus = NULL;
	for (s = 0; s < ns; s++) {
		const struct pandia_socket *so = &m->sockets[s];

		for (i = 0; i < so->n_cores; i++)
			if (m->cores[so->cores[i]].n_pus < 2)
				return 0;
		most += 2 * so->n_cores;
	}
	if (most < 4)
		return 0;
	*pus = xcalloc((size_t)most, sizeof(int));
	for (s = 0; s < ns; s++) {
		const struct pandia_socket *so = &m->sockets[s];

		for (i = 0; i < so->n_cores; i++)
			(*pus)[n++] = m->cores[so->cores[i]].pus[0];
		for (i = 0; i < so->n_cores / 2; i++)
			(*pus)[n++] = m->cores[so->cores[i]].pus[1];
	}
	return n;
}

int pandia_check_plan(const struct model_env *env,
		      const struct pandia_workload *w,
		      struct model_run **runs, struct pandia_error *err)
{
	struct pandia_runs r;
	struct fit_solution sol;
	struct fit_result jr;
	struct fit_amb amb[AMB_KINDS];
	struct fit_data d;
	double t, most = 0;
	const char *purpose;
	int *pus, n, k, pick = -1, nr = 0;

	*runs = NULL;
	if (env->no_check || env->paper ||
	    workload_run_named(w, check_ids[0]) ||
	    workload_run_named(w, PANDIA_DRIFT_ID))
		return 0;
	if (pandia_runs_load(env, w, &r, err) < 0)
		return -1;
	d = (struct fit_data){ &r.pl, &r.base, r.t, r.delta, NULL, 0 };
	fit_solve(&r.pl, &r.base, r.t, FIT_MODEL, &sol);
	fit_joint(&d, &sol, &jr);
	fit_ambiguities(&d, &jr, amb);
	*runs = xcalloc(PANDIA_CHECKS + 1, sizeof(**runs));
	/* first, as the budget may not last: the run that saturates a
	   shared level if a poorly conditioned estimate of its demand is
	   right */
	n = pandia_saturation_placement(env, w, &r.pl, &pus);
	purpose = "every core of run 1's node (or its L3), where a probe "
		"estimate of a demand says the level saturates";
	if (n >= 4 && made_already(&r.pl, pus, n, *runs, nr) &&
	    !(w->has_memory && w->memory.kind == MEM_INTERLEAVE)) {
		/* run 2 has every core already, and p, fitted from it,
		   takes what the level held back: half of them pin p
		   (not with the pages interleaved: half the cores of one
		   node load every node's DRAM then, and how the machine
		   places those pages is another question) */
		n /= 2;
		purpose = "half the cores of run 1's node (or its L3), where a "
			"probe estimate of a demand says the level saturates "
			"and run 2 has every core: p with less of the level "
			"used";
	}
	add_new(*runs, &nr, &r.pl, env->m, pus, n,
		n > 0 ? fit_time_pus(r.pl.sp, &jr.prm, pus, n) : NAN,
		purpose);
	n = fit_best_placement(&r.pl, &jr.prm, &pus, &t);
	add_new(*runs, &nr, &r.pl, env->m, pus, n, t, "the predicted best "
		"placement with the most threads");
	for (k = 0; k < AMB_KINDS; k++)
		if (amb[k].ambiguous && amb[k].diff > most) {
			most = amb[k].diff;
			pick = k;
		}
	if (pick >= 0 && !made_already(&r.pl, amb[pick].pus, amb[pick].n_pus,
				       *runs, nr)) {
		char why[128];

		snprintf(why, sizeof(why), "where %s differ most",
			 fit_amb_name(amb[pick].kind));
		t = fit_time_pus(r.pl.sp, &jr.prm, amb[pick].pus,
				 amb[pick].n_pus);
		add_check(*runs, &nr, env->m, amb[pick].pus, amb[pick].n_pus,
			  t, why);
		amb[pick].pus = NULL;
	}
	/* a slot left: the uneven placement */
	if (nr < PANDIA_CHECKS) {
		n = uneven_placement(env->m, &pus);
		add_new(*runs, &nr, &r.pl, env->m, pus, n,
			n > 0 ? fit_time_pus(r.pl.sp, &jr.prm, pus, n) : NAN,
			"uneven over two sockets, where the rules for the "
			"pages and the link differ most");
	}
	/* and one more: threads sharing a core beside threads alone */
	if (nr < PANDIA_CHECKS) {
		n = shared_placement(env->m, &pus);
		add_new(*runs, &nr, &r.pl, env->m, pus, n,
			n > 0 ? fit_time_pus(r.pl.sp, &jr.prm, pus, n) : NAN,
			"half the cores shared, where threads sharing a core "
			"meet threads alone on theirs");
	}
	for (k = 0; k < AMB_KINDS; k++)
		fit_amb_release(&amb[k]);
	add_drift_run(*runs, &nr, &r.pl, r.t[PR1]);
	fit_solution_release(&sol);
	pandia_runs_release(&r);
	if (!nr) {
		free(*runs);
		*runs = NULL;
	}
	return nr;
}

/* ---- the joint fit, written into the description ----------------- */

/*
 * The relative range of the prediction of placement E under PRM: the
 * parameters' uncertainties UNC (p, o_s, l, b; -1: none) one by one,
 * the check run's own spread and the noise floor, in quadrature, and
 * twice that (about 95% for a normal error).
 */
static double check_range(const struct fit_plan *pl,
			  const struct model_params *prm, const double *unc,
			  const struct fit_extra *e)
{
	double t0 = fit_time_pus(pl->sp, prm, e->pus, e->n), sum;
	double sp = e->t > 0 ? e->delta / e->t : 0;
	int k;

	sum = FIT_SIGMA_FLOOR * FIT_SIGMA_FLOOR + sp * sp;
	for (k = 0; k < 4; k++) {
		struct model_params q = *prm;
		double *v = k == 0 ? &q.p : k == 1 ? &q.o_s : k == 2 ? &q.l :
			&q.b, dt;

		if (!(unc[k] > 0))
			continue;
		*v += unc[k];
		if (k == 0 && q.p > 1)
			q.p = prm->p - unc[k];
		if (k == 2 && q.l > 1)
			q.l = prm->l - unc[k];
		dt = fit_time_pus(pl->sp, &q, e->pus, e->n) / t0 - 1;
		sum += dt * dt;
	}
	return 2 * sqrt(sum);
}

/* JSON of one ambiguity (a new reference). */
static json_t *amb_json(const struct fit_amb *a,
			const struct pandia_machine *m, bool resolved,
			const char *checked)
{
	json_t *o = json_object(), *alt = json_object();
	const struct model_params *q = &a->alt.prm;
	int *os = xmalloc(sizeof(int) * (size_t)(a->n_pus + 1)), i;
	char *list;

	for (i = 0; i < a->n_pus; i++)
		os[i] = m->pus[a->pus[i]].os_index;
	list = cpulist_format(os, a->n_pus);
	json_object_set_new(o, "between", json_string(fit_amb_name(a->kind)));
	json_object_set_new(o, "note", json_string(a->text));
	json_object_set_new(o, "difference", json_real(exp(a->diff) - 1));
	json_object_set_new(o, "placements_differing", json_real(
		a->n_sampled ? (double)a->n_differ / a->n_sampled : 0));
	json_object_set_new(o, "placement", json_string(list));
	json_object_set_new(alt, "p", json_real(q->p));
	json_object_set_new(alt, "o_s", json_real(q->o_s));
	json_object_set_new(alt, "l", json_real(q->l));
	json_object_set_new(alt, "b", json_real(q->b));
	json_object_set_new(alt, "dram", json_real(q->d[WR_DRAM]));
	json_object_set_new(alt, "interconnect",
			    json_real(q->d[WR_INTERCONNECT]));
	json_object_set_new(o, "alternative", alt);
	json_object_set_new(o, "resolved", json_boolean(resolved));
	if (checked)
		json_object_set_new(o, "checked", json_string(checked));
	free(list);
	free(os);
	return o;
}

/*
 * The check runs against the joint fit JR: each one's prediction,
 * range and miss recorded on it and said.  Returns whether one missed
 * by more than its range.
 */
static bool judge_checks(const struct model_env *env,
			 const struct pandia_runs *r,
			 const struct fit_result *jr, const double *unc)
{
	bool missed = false;
	int i;

	for (i = 0; i < r->n_ex; i++) {
		const struct fit_extra *e = &r->ex[i];
		struct wl_run *wr = r->ex_run[i];
		double pred = fit_time_pus(r->pl.sp, &jr->prm, e->pus, e->n);
		double range = check_range(&r->pl, &jr->prm, unc, e);
		double miss = e->t / pred - 1;

		wl_run_add_counter(wr, "model_predicted", pred);
		wl_run_add_counter(wr, "model_range", range);
		wl_run_add_counter(wr, "model_miss", miss);
		if (!(fabs(log(e->t / pred)) > log(1 + range)))
			continue;
		missed = true;
		pandia_warn(env, "%s (%s): measured %.4g s, predicted %.4g s "
			    "(%+.1f%%, range +-%.1f%%): outside its range, "
			    "fitted again with the check runs", wr->id,
			    wr->purpose, e->t, pred, 100 * miss, 100 * range);
	}
	return missed;
}

/* The sequential solution SOL takes the joint fit JR's values. */
static void take(struct fit_solution *sol, const struct fit_result *jr)
{
	sol->p = jr->prm.p;
	if (sol->have_o_s)
		sol->o_s = jr->prm.o_s;
	if (sol->have_l) {
		sol->l = jr->prm.l;
		sol->corun = jr->corun;
	}
	if (sol->have_b)
		sol->b = jr->prm.b;
	if (sol->have_os_form)
		sol->os_fraction = jr->prm.os_fraction;
}

/*
 * What the check runs say of ambiguity A (AMB2: fitted again with
 * them; MAIN_COST the fit's cost with them), or NULL when none were
 * made; *resolved when they favour the fit.
 */
static const char *checked(const struct fit_amb *amb2, double main_cost,
			   bool *resolved)
{
	*resolved = false;
	if (!amb2 || !amb2->tested)
		return NULL;
	if (main_cost > amb2->alt.cost + AMB_COST_MARGIN &&
	    amb2->diff > FIT_DIFFER)
		return "the check runs favour the alternative: profile "
			"again with other check runs, or trust the "
			"placements that do not depend on it";
	if (!amb2->ambiguous) {
		*resolved = true;
		return "the check runs favour the fit";
	}
	return "the check runs do not tell them apart";
}

/* What the ambiguities of the runs became: into the description. */
static void record_ambiguities(const struct model_env *env,
			       struct pandia_params *pp,
			       const struct fit_amb *amb,
			       const struct fit_amb *amb2, double main_cost,
			       int taken)
{
	int k;

	json_decref(pp->ambiguities);
	pp->ambiguities = NULL;
	for (k = 0; k < AMB_KINDS; k++) {
		/* one taken that the runs alone did not flag: as the check
		   runs found it */
		const struct fit_amb *a = amb[k].ambiguous ? &amb[k] :
			amb2 ? &amb2[k] : NULL;
		const char *say;
		bool resolved;

		if (!amb[k].ambiguous && k != taken)
			continue;
		say = checked(amb2 ? &amb2[k] : NULL, main_cost, &resolved);
		if (k == taken) {
			resolved = true;
			say = "the check runs favour the alternative: taken, "
				"its demands too";
		}
		if (!pp->ambiguities)
			pp->ambiguities = json_array();
		json_array_append_new(pp->ambiguities,
				      amb_json(a, env->m, resolved, say));
		if (!resolved)
			pandia_warn(env, "ambiguity: %s%s%s; predict flags the "
				    "placements that depend on it",
				    a->text, say ? ": " : "", say ? say : "");
	}
}

/*
 * The joint fit again with the check runs (D1), after one MISSED its
 * range or lay beyond its noise.  Taken only when it keeps the runs of
 * the plan (D0) within their noise: a check run that the parameters
 * can only reproduce by moving off the runs they were measured by
 * shows where the model misses, not better parameters.
 */
static void refit_with_checks(const struct model_env *env,
			      const struct pandia_runs *r,
			      const struct fit_data *d0,
			      const struct fit_data *d1,
			      const struct fit_solution *sol,
			      struct fit_result *jr, bool missed)
{
	struct fit_result j2;
	double worst;
	int i;

	fit_joint(d1, sol, &j2);
	fit_score(d0, &j2, &worst);
	for (i = 0; i < r->n_fit_ex; i++)
		wl_run_add_counter(r->ex_run[i], "model_refitted",
				   worst <= AMB_WORST_RUNS);
	if (worst <= AMB_WORST_RUNS) {
		*jr = j2;
		return;
	}
	if (missed)
		pandia_warn(env, "the parameters that reproduce the check "
			    "runs move a profiling run by %.1f sigma: kept "
			    "as fitted without them; the model misses the "
			    "check runs' placements by more than its range "
			    "(their counters say by how much)", worst);
}

static bool same_value(double a, double b)
{
	return fabs(a - b) <= 1e-6 * (fabs(a) + fabs(b));
}

void pandia_move_demand(struct pandia_params *pp, int res, double v,
			double from, const char *why)
{
	struct wl_param *d = &pp->demand[res];
	char *st;

	if (!pp->listed[res] || !d->known || same_value(v, d->value) ||
	    same_value(v, from))
		return;
	st = xasprintf("%s%smoved from %.4g by the joint fit: %s",
		       d->status ? d->status : "", d->status ? "; " : "",
		       d->value, why);
	free(d->status);
	d->status = st;
	d->value = v;
}

/*
 * Where the fit (COST, WORST with the check runs) does not reproduce
 * the runs within their noise and a competing explanation of AMB2
 * reproduces them all, check runs included, and fits clearly better:
 * that explanation is taken, its demands too.  Returns its kind, or -1.
 */
static int take_alternative(const struct model_env *env,
			    const struct fit_data *d1,
			    struct pandia_params *pp, struct fit_result *jr,
			    const struct fit_amb *amb2, double cost,
			    double worst)
{
	struct fit_result dem;
	const char *why;
	double dworst;
	int k, pick = -1;

	if (worst <= AMB_WORST_RUNS)
		return -1;
	for (k = 0; k < AMB_KINDS; k++)
		if (amb2[k].tested && amb2[k].alt.worst <= AMB_WORST_RUNS &&
		    amb2[k].alt.cost + AMB_COST_MARGIN < cost &&
		    (pick < 0 || amb2[k].alt.cost < amb2[pick].alt.cost))
			pick = k;
	if (pick >= 0) {
		*jr = amb2[pick].alt;
		dworst = amb2[pick].alt.worst;
		/* one that predicts alike is no explanation of its own */
		if (!(amb2[pick].diff > FIT_DIFFER))
			pick = AMB_KINDS;
	} else if (fit_demands(d1, jr, &dem) &&
		   fit_score(d1, &dem, &dworst) + AMB_COST_MARGIN < cost &&
		   dworst <= AMB_WORST_RUNS) {
		/* no competing explanation, but the DRAM demand freed */
		*jr = dem;
		pick = AMB_KINDS;
	} else {
		return -1;
	}
	why = pick < AMB_KINDS ? "the check runs favour the explanation "
		"with this demand (model.ambiguities)" : "with it the runs "
		"and the check runs are reproduced within their noise, "
		"with the value measured they were not";
	pandia_move_demand(pp, WR_DRAM, jr->prm.d[WR_DRAM],
			   d1->base->d[WR_DRAM], why);
	pandia_move_demand(pp, WR_INTERCONNECT, jr->prm.d[WR_INTERCONNECT],
			   d1->base->d[WR_INTERCONNECT], why);
	pandia_move_demand(pp, WR_L3, jr->prm.d[WR_L3], d1->base->d[WR_L3],
			   why);
	pandia_warn(env, "the fit missed a run by %.1f sigma and %s did not "
		    "(%.1f sigma, check runs included): taken instead",
		    worst, pick < AMB_KINDS ? fit_amb_name(pick) :
		    "a fit with the demands free", dworst);
	return pick;
}

/*
 * The model's misfit on the check runs: the RMS of log(t / pred), pred
 * the final fit JR's, or for a check run the fit may take, the fit
 * without the check runs (HELD): once fitted with, a run's residual no
 * longer measures how far the model misses placements it has not seen.
 */
static double misfit_of(const struct pandia_runs *r,
			const struct fit_result *jr,
			const struct fit_result *held)
{
	double sum = 0, pred, m;
	int i, n = 0;

	for (i = 0; i < r->n_ex; i++) {
		const struct fit_extra *e = &r->ex[i];
		const struct fit_result *by = i < r->n_fit_ex ? held : jr;

		pred = fit_time_pus(r->pl.sp, &by->prm, e->pus, e->n);
		if (!(pred > 0) || !(e->t > 0))
			continue;
		m = log(e->t / pred);
		sum += m * m;
		n++;
	}
	return n ? sqrt(sum / n) : 0;
}

void pandia_fit_joint(const struct model_env *env, struct pandia_workload *w,
		      struct pandia_runs *r, struct fit_solution *sol,
		      const double *unc)
{
	struct fit_data d0 = { &r->pl, &r->base, r->t, r->delta, NULL, 0 };
	struct fit_data d1 = { &r->pl, &r->base, r->t, r->delta, r->ex,
			       r->n_fit_ex };
	struct fit_data dall = { &r->pl, &r->base, r->t, r->delta, r->ex,
				 r->n_ex };
	struct fit_amb amb[AMB_KINDS], amb2[AMB_KINDS];
	struct pandia_params *pp = pandia_params(w);
	struct fit_result jr, held;
	double cost = 0, worst;
	bool refit = false;
	int k, taken = -1;

	fit_joint(&d0, sol, &jr);
	held = jr;
	fit_ambiguities(&d0, &jr, amb);
	if (r->n_ex) {
		refit = judge_checks(env, r, &jr, unc);
		/* a check run beyond its noise tells the parameters what
		   the plan's runs could not (o_s from two sockets carried
		   to four): fitted again with it, inside its range too */
		if (refit || fit_extra_worst(&d1, &jr) > AMB_WORST_RUNS)
			refit_with_checks(env, r, &d0, &d1, sol, &jr, refit);
		/* the check runs tell the explanations apart, or not */
		fit_ambiguities(&d1, &jr, amb2);
		cost = fit_score(&d1, &jr, &worst);
		/* only where a check run missed by more than its range */
		if (refit)
			taken = take_alternative(env, &d1, pp, &jr, amb2, cost,
						 worst);
		if (taken >= 0)
			cost = fit_score(&d1, &jr, &worst);
		if (taken == AMB_KINDS)
			taken = -1;	/* no ambiguity of its own */
	}
	take(sol, &jr);
	r->misfit = misfit_of(r, &jr, &held);
	r->misfit_all = fit_misfit(&dall, &jr);
	record_ambiguities(env, pp, amb, r->n_ex ? amb2 : NULL, cost, taken);
	for (k = 0; k < AMB_KINDS; k++) {
		fit_amb_release(&amb[k]);
		if (r->n_ex)
			fit_amb_release(&amb2[k]);
	}
}
