/*
 * pandia.c - the Pandia model behind the interface of
 * predictor/models.h: the six runs of section 4 as the profiler makes
 * them, their fit (fit.c), and the prediction of section 5 (model.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "predictor/blackbox.h"
#include "predictor/models.h"
#include "predictor/pandia/fit.h"
#include "predictor/pandia/fit_tune.h"
#include "predictor/pandia/model.h"
#include "predictor/pandia/pandia_internal.h"
#include "predictor/pandia/params.h"


static char *purpose_of(const struct fit_plan *pl, int x)
{
	const struct pandia_machine *m = pl->m;
	int n = pl->n_pus[x];

	switch (x) {
	case PR1:
		return xstrdup("t1 and the demands: one thread alone");
	case PR2:
		return xasprintf("p: %d threads, one per core on socket %d", n,
				 m->sockets[0].os_index);
	case PR3:
		return xasprintf("o_s: %d threads, %d on each of sockets %d "
				 "and %d", n, n / 2, m->sockets[0].os_index,
				 m->sockets[1].os_index);
	case PR4:
	case PR5:
		return xasprintf("l: run 2 with a CPU-bound co-runner %s %s",
				 pl->smt ? "on the other PU of the core of" :
				 "time-sharing the PU of",
				 x == PR4 ? "every thread" :
				 pl->smt ? "the last thread" :
				 "the last thread (no SMT)");
	case PR6:
		return xasprintf("b: %d threads packed two to a %s on %d "
				 "cores%s", n, pl->smt ? "core" : "PU", n / 2,
				 pl->smt ? "" : " (no SMT: time-sharing "
				 "instead of core sharing)");
	case PR7:
		return xasprintf("o_s's form: %d threads, %d on each of "
				 "sockets %d and %d", n, n / 2,
				 m->sockets[0].os_index,
				 m->sockets[1].os_index);
	case PR8:
		return xasprintf("where the serial work runs: run 2 with a "
				 "CPU-bound co-runner %s the first thread",
				 pl->smt ? "on the other PU of the core of" :
				 "time-sharing the PU of");
	default:
		return xstrdup("");
	}
}

static void run_from_plan(const struct fit_plan *pl, int x,
			  struct model_run *r)
{
	memset(r, 0, sizeof(*r));
	r->id = xstrdup(fit_run_id(x));
	r->purpose = purpose_of(pl, x);
	r->n = pl->n_pus[x];
	r->pus = xmalloc(sizeof(int) * (size_t)r->n);
	memcpy(r->pus, pl->pus[x], sizeof(int) * (size_t)r->n);
	r->n_corun = pl->n_corun[x];
	if (r->n_corun) {
		r->corun = xmalloc(sizeof(int) * (size_t)r->n_corun);
		memcpy(r->corun, pl->corun[x],
		       sizeof(int) * (size_t)r->n_corun);
	}
	r->size = NAN;
}

/*
 * Run 1 first (its time and the demands the counter backend measures
 * beside it decide run 2's thread count), then runs 2 to 6.
 */
static int pandia_plan(const struct model_env *env,
		       const struct pandia_workload *w,
		       struct model_run **runs, struct pandia_error *err)
{
	struct model_params base;
	struct fit_plan pl;
	int x, n = 0;

	*runs = NULL;
	if (env->checking)
		return pandia_check_plan(env, w, runs, err);
	if (workload_run_named(w, fit_run_id(PR2)))
		return 0;
	pandia_base_params(env->m, w, 1, &base);
	if (fit_plan_make(&pl, env->m, &base, err) < 0)
		return -1;
	if (env->quick)
		fit_plan_quick(&pl);
	*runs = xcalloc(FIT_RUNS, sizeof(**runs));
	if (!workload_run_named(w, fit_run_id(PR1))) {
		run_from_plan(&pl, PR1, &(*runs)[n++]);
	} else {
		for (x = PR2; x < FIT_RUNS; x++)
			if (pl.made[x])
				run_from_plan(&pl, x, &(*runs)[n++]);
	}
	fit_plan_release(&pl);
	return n;
}

/*
 * The warm-up at run 2's placement as planned before any demand is
 * known (every core of socket 0, an even count): half run 1's time or
 * less, and the roles of run 2's threads.  The demands can make run 2
 * smaller (a run that would oversubscribe a link); the profiler then
 * finds run 2's roles in its first call, as without the warm-up.
 */
static int pandia_warmup(const struct model_env *env, struct model_run *run,
			 struct pandia_error *err)
{
	struct model_params base;
	struct fit_plan pl;

	memset(&base, 0, sizeof(base));
	base.t1 = 1;
	base.p = 1;
	if (fit_plan_make(&pl, env->m, &base, err) < 0)
		return -1;
	run_from_plan(&pl, PR2, run);
	fit_plan_release(&pl);
	return 1;
}

static void set_param(struct wl_param *prm, bool have, double v, double unc,
		      const char *source, char *status)
{
	wl_param_release(prm);
	if (have)
		wl_param_set(prm, v, unc >= 0 ? unc : NAN, source);
	prm->status = status;
}

/* What run 2 says of the plan and the description's clock. */
static void warn_run2(const struct model_env *env, const struct fit_plan *pl,
		      const struct fit_solution *sol)
{
	if (pl->n_note)
		pandia_warn(env, "run 2 uses %s", pl->n_note);
	if (sol->clock_run2 > 1)
		pandia_warn(env, "run 2 was faster than the machine "
			    "description's clock allows (with run 2's cores "
			    "busy it says %.2f times slower than a lone "
			    "core; run 2 allows at most %.2f): placements "
			    "with many cores busy may be predicted too slow, "
			    "and every predicted time's range takes the "
			    "%.1f%%; measure the machine again ('pandia "
			    "machine') on a quiet host", sol->clock_run2,
			    sol->clock_allowed, 100 * (sol->clock_run2 /
			    sol->clock_allowed - 1));
}

/*
 * Each run's evidence: the step's r, k, u and f, the closed forms, run
 * 4's co-runner factor and the two forms' predictions of runs 7 and 8.
 */
static void record_steps(struct wl_run *const *xr,
			 const struct fit_solution *sol)
{
	int x;

	for (x = PR2; x < FIT_RUNS; x++) {
		struct wl_run *wr = xr[x];
		const struct fit_step *st = &sol->step[x];

		if (!wr)
			continue;
		wl_run_add_counter(wr, "model_r", st->r);
		wl_run_add_counter(wr, "model_k", st->k);
		wl_run_add_counter(wr, "model_u", st->u);
		wl_run_add_counter(wr, "model_f", st->f);
		if (x == PR2) {
			wl_run_add_counter(wr, "closed_form_p", sol->paper_p);
			pandia_record_unseen(wr, sol);
		}
		if (x == PR3)
			wl_run_add_counter(wr, "closed_form_o_s", sol->paper_o_s);
		if (x == PR4)
			wl_run_add_counter(wr, "corun_factor", sol->corun);
		if (x == PR5)
			wl_run_add_counter(wr, "closed_form_l", sol->paper_l);
		if (x == PR6)
			wl_run_add_counter(wr, "closed_form_b", sol->paper_b);
		if (x == PR8 && sol->have_serial_form) {
			wl_run_add_counter(wr, "model_time_serial_spread",
					   sol->t8_spread);
			wl_run_add_counter(wr, "model_time_serial_first",
					   sol->t8_first);
		}
		if (x == PR7 && sol->have_os_form) {
			wl_run_add_counter(wr, "model_time_per_remote_thread",
					   sol->t7_thread);
			wl_run_add_counter(wr, "model_time_per_remote_fraction",
					   sol->t7_fraction);
			wl_run_add_counter(wr, "o_s_per_remote_thread",
					   sol->o_s_thread);
			wl_run_add_counter(wr, "o_s_per_remote_fraction",
					   sol->o_s_fraction);
		}
	}
}

/*
 * Section 4 on the runs recorded in w: each run's median time, the
 * plan rebuilt from the demands (it depends on nothing else), the
 * parameters solved, their uncertainty from the repetitions' spread,
 * and each step's r, k, u and f recorded on its run as evidence.
 */
static int pandia_fit(const struct model_env *env, struct pandia_workload *w,
		      struct pandia_error *err)
{
	struct pandia_params *pp = pandia_params(w);
	enum fit_mode mode = env->paper ? FIT_PAPER : FIT_MODEL;
	struct pandia_runs rr;
	struct wl_run **xr = rr.xr;
	struct fit_solution sol;
	const struct fit_plan *plp = &rr.pl;
	double *t = rr.t, *delta = rr.delta, unc[4], stated[4];
	bool again = false;

load:
	if (pandia_runs_load(env, w, &rr, err) < 0)
		return -1;
	if (rr.drift_run)
		wl_run_add_counter(rr.drift_run, "drift", rr.drift);
	memset(&sol, 0, sizeof(sol));
	fit_solve(plp, &rr.base, t, mode, &sol);
	fit_uncertainty(plp, &rr.base, t, delta, mode, unc);
	/* the fit's own test of its check runs keeps the half ranges;
	   what is stated is a 90% range (ranges.c) */
	fit_uncertainty(plp, &rr.base, t, rr.range, mode, stated);
	/* the joint fit over every run (--solve paper: the closed forms
	   alone) */
	if (mode == FIT_MODEL)
		pandia_fit_joint(env, w, &rr, &sol, unc);
	/* a poorly conditioned L3 or DRAM demand the runs give better:
	   the fit again with it (once) */
	if (mode == FIT_MODEL && !again &&
	    pandia_saturation(env, w, &rr, &sol)) {
		fit_solution_release(&sol);
		pandia_runs_release(&rr);
		again = true;
		goto load;
	}
	warn_run2(env, plp, &sol);
	pandia_demands_harmless(env->m, w);
	/* a slowdown beside the probes that no demand explains: the runs
	   on several cores moved by it together */
	{
		char *why = pandia_interference_ranges(&rr, mode, stated);

		if (why)
			sol.p_status = join_status(sol.p_status, why);
		free(why);
	}
	pandia_cpu_check(env, w, &rr, &sol, &stated[0]);
	record_steps(xr, &sol);
	/* o_s's form: recorded when run 7 tested it, else the paper's */
	pp->has_o_s_form = sol.have_os_form;
	pp->o_s_form = sol.os_fraction ? OS_PER_FRACTION : OS_PER_THREAD;
	pp->has_b_form = sol.b_core;
	pp->b_form = sol.b_core ? B_CORE : B_WHOLE;
	/* where the serial work runs: recorded when run 8 tested it or
	   --serial put it on the first thread, else the paper's */
	pp->has_serial_form = sol.have_serial_form || sol.serial_first;
	pp->serial_form = sol.serial_first ? SERIAL_FIRST : SERIAL_SPREAD;
	/* t1's range carries what no repetition shows: the drift (in
	   the range already), the model's misfit on the check runs and
	   on every run it did not need, and a clock run 2 contradicts,
	   so that every predicted time's range does */
	{
		double mf = rr.misfit_all > rr.misfit ? rr.misfit_all :
			rr.misfit;
		double u = pandia_t1_range(&rr, mf, &sol, t[PR1]);

		set_param(&pp->t1, true, t[PR1], u > 0 ? u : NAN, "run1",
			  NULL);
	}
	set_param(&pp->p, true, sol.p, stated[0], "run1,run2", sol.p_status);
	set_param(&pp->o_s, sol.have_o_s, sol.o_s, stated[1],
		  sol.have_os_form ? "run1,run2,run3,run7" : "run1,run2,run3",
		  sol.o_s_status ? sol.o_s_status : sol.form_status);
	if (sol.o_s_status)
		free(sol.form_status);
	sol.form_status = NULL;
	/* l's own caveat and what run 8 told, both said */
	sol.l_status = join_status(sol.l_status, sol.serial_status);
	free(sol.serial_status);
	sol.serial_status = NULL;
	set_param(&pp->l, sol.have_l, sol.l, stated[2],
		  sol.have_serial_form ? "run1,run2,run4,run5,run8" :
		  "run1,run2,run4,run5", sol.l_status);
	set_param(&pp->b, sol.have_b, sol.b, stated[3], "run1,run2,run6",
		  sol.b_status);
	pp->have_spread = true;
	/* the repetitions' spread (and the drift), as the refusal says:
	   the model's misfit widens the ranges stated, it does not make
	   t1 uncertain to rank with (a check run 11% off refused every
	   profile of the simulated X2-4's mixed workload) */
	pp->spread[0] = delta[PR1];
	pp->spread[1] = unc[0] >= 0 ? unc[0] : NAN;
	pp->spread[2] = unc[2] >= 0 ? unc[2] : NAN;
	sol.p_status = sol.o_s_status = sol.l_status = sol.b_status = NULL;
	fit_solution_release(&sol);
	pandia_runs_release(&rr);
	return 0;
}

struct pandia_state {
	struct space *sp;
	struct model md;
	const struct pandia_workload *w;	/* borrowed; NULL: params */
	struct model_params prm;	/* as profiled */
	/* the last size asked for; md holds t1 and p at it */
	double size;
	const char *warning;	/* the black-box model's, at that size */
};

/* t1 and p at SIZE from the black-box model BB (see models.h). */
static int t1_at(const struct blackbox *bb, const struct pandia_workload *w,
		 double size, double *t1, double *p, const char **warning,
		 struct pandia_error *err)
{
	const struct pandia_params *pp = pandia_params(w);
	unsigned warn = 0;
	double tx, t0;

	if (!isfinite(size))
		return perr_set(err, "the input size must be a finite number");
	if (blackbox_predict(bb, size, 1, &tx, &warn, err) < 0)
		return -1;
	if (warning)
		*warning = warn & BB_WARN_NEGATIVE ?
			blackbox_flag_text(BB_WARN_NEGATIVE) :
			warn & BB_WARN_OUTSIDE ?
			blackbox_flag_text(BB_WARN_OUTSIDE) : NULL;
	if (!(tx > 0))
		return perr_set(err, "the black-box model predicts %.4g s at "
				"one thread for size %g: not a time (the "
				"polynomial is used outside the sizes "
				"measured)", tx, size);
	*t1 = tx;
	if (w->has_size && pp->t1.known) {
		t0 = blackbox_tseq(bb, w->size);
		if (!(t0 > 0))
			return perr_set(err, "the black-box model predicts "
					"%.4g s at one thread for size %g, "
					"the size the Pandia model was "
					"profiled at: cannot scale t1", t0,
					w->size);
		*t1 = pp->t1.value * tx / t0;
		if (p && pp->p.known) {
			/*
			 * The constant term in t1's units, at most the
			 * serial part measured; the rest of the serial
			 * part keeps its share of what grows.
			 */
			double t10 = pp->t1.value, p0 = pp->p.value;
			double fix = t10 * bb->coef[0] / t0, sigma, ser;

			if (fix < 0)
				fix = 0;
			if (fix > (1 - p0) * t10)
				fix = (1 - p0) * t10;
			sigma = t10 > fix ? ((1 - p0) * t10 - fix) /
				(t10 - fix) : 0;
			ser = *t1 > fix ? fix + sigma * (*t1 - fix) : *t1;
			*p = 1 - ser / *t1;
			if (*p < 0)
				*p = 0;
		}
	}
	return 0;
}

int model_pandia_at(const struct pandia_workload *w, double size,
		    double *t1, double *p, const char **warning,
		    struct pandia_error *err)
{
	const struct pandia_params *pp = pandia_params(w);
	struct blackbox bb;

	if (warning)
		*warning = NULL;
	if (p)
		*p = pp->p.known ? pp->p.value : 1;
	if (blackbox_of_workload(&bb, w, err) < 0)
		return -1;
	return t1_at(&bb, w, size, t1, p, warning, err);
}

void *model_pandia_open_params(const struct pandia_machine *m,
				const struct model_params *prm,
				const struct pandia_mempolicy *mem,
				struct pandia_error *err)
{
	struct pandia_mempolicy local = { MEM_LOCAL, -1 };
	struct pandia_state *s = xcalloc(1, sizeof(*s));

	s->sp = space_new(m, 1, mem ? mem : &local, err);
	if (!s->sp) {
		free(s);
		return NULL;
	}
	model_init(&s->md, s->sp, prm);
	s->prm = *prm;
	s->size = NAN;
	return s;
}

static void *pandia_open(const struct pandia_machine *m,
			 const struct pandia_workload *w,
			 const struct pandia_mempolicy *mem,
			 struct pandia_error *err)
{
	const struct pandia_params *pp = pandia_params(w);
	struct model_params prm;
	struct pandia_state *s;

	if (!pp->t1.known)
		return perr_set(err, "the workload has no Pandia model (no "
				"t1): profile it"), NULL;
	model_params_of(w, &prm);
	s = model_pandia_open_params(m, &prm, mem, err);
	if (s)
		s->w = w;
	return s;
}

/*
 * At another input size, t1 and p change (model_pandia_at()); the
 * demands, being rates, stay.
 */
static int pandia_predict(void *model, const int *pus, int n, double size,
			  struct model_prediction *out,
			  struct pandia_error *err)
{
	struct pandia_state *s = model;

	if (!isnan(size) && !(size == s->size)) {
		struct model_params prm = s->prm;

		if (!s->w)
			return perr_set(err, "the Pandia model from "
					"parameters knows no input sizes");
		if (model_pandia_at(s->w, size, &prm.t1, &prm.p,
				    &s->warning, err) < 0)
			return -1;
		model_release(&s->md);
		model_init(&s->md, s->sp, &prm);
		s->size = size;
	} else if (isnan(size) && !isnan(s->size)) {
		model_release(&s->md);
		model_init(&s->md, s->sp, &s->prm);
		s->size = NAN;
	}
	if (model_time_pus(&s->md, pus, n) < 0)
		return perr_set(err, "a placement needs at least one thread");
	out->time = s->md.time;
	out->speedup = s->md.speedup;
	out->bottleneck = model_bottleneck(&s->md);
	out->warning = isnan(size) ? NULL : s->warning;
	out->core_time = NAN;
	return 0;
}

static void pandia_close(void *model)
{
	struct pandia_state *s = model;

	if (!s)
		return;
	model_release(&s->md);
	space_free(s->sp);
	free(s);
}

/*
 * Workloads running together (docs/model.md, "Co-runs"): each one's
 * placement built as usual, the others' threads beside it loading the
 * resources they share (model_background()) at their utilisations;
 * the workloads are solved in turn, each from the others' utilisations
 * of the round before (half the step, so that two workloads that slow
 * each other do not oscillate), until no time moves by more than a
 * millionth.
 */
#define CORUN_ROUNDS 200
#define CORUN_TOL 1e-6

static int pandia_corun(const struct model_corun_part *parts, int nw,
			struct model_prediction *out, struct pandia_error *err)
{
	struct model_bg_thread *bg;
	double **f, *prev;
	int i, j, t, nbg = 0, round, ret = -1;

	for (i = 0; i < nw; i++) {
		if (!parts[i].pus)
			return perr_set(err, "the Pandia model predicts "
					"placements, not unpinned copies: give "
					"each workload a placement (the MVA "
					"model predicts copies)");
		if (parts[i].n < 1)
			return perr_set(err, "workload %d: a placement needs "
					"at least one thread", i + 1);
		nbg += parts[i].n;
	}
	bg = xcalloc((size_t)nbg + 1, sizeof(*bg));
	f = xcalloc((size_t)nw, sizeof(*f));
	prev = xcalloc((size_t)nw, sizeof(*prev));
	/* round 0: each alone */
	for (i = 0; i < nw; i++) {
		struct pandia_state *s = parts[i].state;

		model_time_pus(&s->md, parts[i].pus, parts[i].n);
		prev[i] = s->md.time;
		f[i] = xcalloc((size_t)parts[i].n, sizeof(double));
		for (t = 0; t < parts[i].n; t++)
			f[i][t] = s->md.f0[s->md.thread_class[t]];
	}
	for (round = 1; round <= CORUN_ROUNDS; round++) {
		double change = 0;

		for (i = 0; i < nw; i++) {
			struct pandia_state *s = parts[i].state;
			int k = 0;

			for (j = 0; j < nw; j++) {
				struct pandia_state *o = parts[j].state;

				if (j == i)
					continue;
				for (t = 0; t < parts[j].n; t++) {
					bg[k].pu = parts[j].pus[t];
					bg[k].f = f[j][t];
					bg[k].d = o->md.prm.d;
					k++;
				}
			}
			model_build_pus(&s->md, parts[i].pus, parts[i].n);
			model_background(&s->md, bg, k);
			model_solve(&s->md);
			if (fabs(s->md.time - prev[i]) > change * prev[i])
				change = fabs(s->md.time - prev[i]) / prev[i];
			prev[i] = s->md.time;
		}
		for (i = 0; i < nw; i++) {
			struct pandia_state *s = parts[i].state;

			for (t = 0; t < parts[i].n; t++)
				f[i][t] = 0.5 * (f[i][t] +
					s->md.f0[s->md.thread_class[t]]);
		}
		if (change <= CORUN_TOL && round > 1)
			break;
	}
	if (round > CORUN_ROUNDS) {
		perr_set(err, "the co-run did not settle in %d rounds",
			 CORUN_ROUNDS);
		goto out;
	}
	for (i = 0; i < nw; i++) {
		struct pandia_state *s = parts[i].state;

		out[i].time = s->md.time;
		out[i].speedup = s->md.speedup;
		out[i].bottleneck = model_bottleneck(&s->md);
		out[i].core_time = NAN;
	}
	ret = 0;
out:
	for (i = 0; i < nw; i++)
		free(f[i]);
	free(f);
	free(prev);
	free(bg);
	return ret;
}

/* Runs 1, 2, 4, 5, 6 (3 and 7 on two sockets), less those --quick
   leaves out. */
static int pandia_runs_total(const struct model_env *env)
{
	const struct pandia_machine *m = env->m;

	return 1 + (m->n_sockets < 2 ? 5 : 7) -
		(env->quick ? fit_quick_left_out(m) : 0);
}

/* The note's "parameters of the pandia model ...": how they were solved. */
static const char *pandia_fit_note(const struct model_env *env)
{
	return env->paper ? "by the closed forms of sections 4.2-4.5" :
		"fitted so that the partial model reproduces each run";
}

/*
 * The uncertainty beyond which a parameter is refused (docs/profiling.md),
 * made from the repetitions' half ranges (pandia_params' spread), not
 * the 90% range stated.
 */
#define MAX_UNC_P 0.1
#define MAX_UNC_L 0.3
#define MAX_UNC_T1 0.1		/* relative */

/*
 * t1, p and l: too uncertain, or measured too disturbed, to rank
 * placements with, they fail the profile; l only where it changes some
 * placement of one thread per PU on the machine.
 */
static int pandia_fit_checks(const struct model_env *env,
			     const struct pandia_workload *w,
			     struct model_check *out)
{
	/* l where it changes no placement of one thread per PU: kept,
	   said, and left to predict -k 2's ranges */
	const char *kept = "kept, since l changes no placement with one "
		"thread per PU on this machine: predict -k 2 shows it in the "
		"ranges of the placements that time-share a PU (for a firmer "
		"l, profile at a quieter time or with more repetitions)";
	const struct pandia_params *pp = pandia_params(w);
	/* the spread of the repetitions, where the fit left it */
	const double *sp = pp->have_spread ? pp->spread : NULL;

	out[0] = (struct model_check){ "t1", &pp->t1, MAX_UNC_T1, true,
				       NULL, sp ? &sp[0] : NULL };
	out[1] = (struct model_check){ "p", &pp->p, MAX_UNC_P, false, NULL,
				       sp ? &sp[1] : NULL };
	out[2] = (struct model_check){ "l", &pp->l, MAX_UNC_L, false,
				       fit_l_decides(env->m, 1) ? NULL : kept,
				       sp ? &sp[2] : NULL };
	return 3;
}

/* What w's predictions are made without (none without a "model"). */
static void pandia_unmeasured(const struct pandia_workload *w,
			      const struct pandia_machine *m, int k,
			      void (*say)(void *arg, const char *text),
			      void *arg)
{
	if (workload_has_model(w))
		fit_unmeasured(w, m, k, say, arg);
}

const struct model_def model_pandia = {
	.name = "pandia",
	.summary = "the Pandia model: six runs, contention per resource "
		   "(EuroSys 2017, sections 4 and 5)",
	.demands = true,
	.model_section = true,
	.check_runs = true,
	.plan = pandia_plan,
	.warmup = pandia_warmup,
	.runs_total = pandia_runs_total,
	.numbered_runs = 6,
	.fit = pandia_fit,
	.fit_note = pandia_fit_note,
	.fit_checks = pandia_fit_checks,
	.unmeasured = pandia_unmeasured,
	.refit = pandia_refit_tuned,
	.open = pandia_open,
	.predict = pandia_predict,
	.close = pandia_close,
	.corun = pandia_corun,
	.rank_fast = pandia_rank_fast,
};
