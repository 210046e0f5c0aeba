/*
 * profile.c - the six profiling runs and the parameters they give
 * (profiler/profile.h, docs/profiling.md).
 */
#include "profiler/profile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <errno.h>

#include "common/cpulist.h"
#include "common/util.h"
#include "predictor/partial.h"
#include "profiler/probe.h"
#include "profiler/run.h"

#ifndef PANDIA_VERSION
#define PANDIA_VERSION "unknown"
#endif

/* A co-runner that slows the workload by less than this tells no l. */
#define MIN_CORUN_SLOWDOWN 0.02
/* Bisection steps: the range shrinks by 2^-BISECT_STEPS. */
#define BISECT_STEPS 48
/* Calibration runs of the probes last this long at least, seconds. */
#define PROBE_CAL_MIN 0.3
/*
 * A repetition during which other processes (or the hypervisor) took
 * more than this share of the time of the PUs it used is disturbed:
 * it is made again, up to as many times as there are repetitions.
 */
#define DISTURBED 0.1
/* PUs whose busy time /proc/stat is read for (OS indexes below it). */
#define STAT_PUS 4096

static const char *const run_ids[PROFILE_RUNS] = {
	"run1", "run2", "run3", "run4", "run5", "run6"
};

/* ---- the placements ---------------------------------------------- */

static void plan_set(struct profile_plan *pl, int x, const int *pus, int n)
{
	pl->made[x] = true;
	pl->n_pus[x] = n;
	pl->pus[x] = xmalloc(sizeof(int) * (size_t)n);
	memcpy(pl->pus[x], pus, sizeof(int) * (size_t)n);
}

/*
 * The largest load on any resource of placement PUS with every thread
 * fully busy (p = 1, no other parameter): above 1, something is
 * oversubscribed.  *what gets the resource's name.
 */
static double max_load(const struct space *sp, const struct model_params *b,
		       const int *pus, int n, char *what, int size)
{
	struct model_params prm = *b;
	struct model md;
	double mx = 0;
	int c;

	prm.p = 1;
	prm.o_s = prm.l = prm.b = 0;
	model_init(&md, sp, &prm);
	model_build_pus(&md, pus, n);
	model_solve(&md);
	*what = 0;
	for (c = 0; c < md.n_classes; c++)
		if (md.rawmax[c] > mx) {
			mx = md.rawmax[c];
			if (md.bott[c] >= 0)
				model_res_name(&md, md.bott[c], what, size);
		}
	model_release(&md);
	return mx;
}

int profile_plan_make(struct profile_plan *pl, const struct pandia_machine *m,
		      const struct model_params *base,
		      struct pandia_error *err)
{
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	const struct pandia_socket *s0;
	int *v = NULL, i, n, nc, ret = -1;
	char what[128] = "", first_what[128] = "";
	double load = 0, first_load = 0;

	memset(pl, 0, sizeof(*pl));
	pl->m = m;
	if (m->n_sockets < 1 || m->sockets[0].n_cores < 2) {
		perr_set(err, "profiling needs two cores on one socket; "
			 "socket 0 of this machine has %d",
			 m->n_sockets < 1 ? 0 : m->sockets[0].n_cores);
		goto out;
	}
	pl->sp = space_new(m, 2, &mem, err);
	if (!pl->sp)
		goto out;
	s0 = &m->sockets[0];
	nc = s0->n_cores;
	pl->smt = true;
	for (i = 0; i < nc; i++)
		if (m->cores[s0->cores[i]].n_pus < 2)
			pl->smt = false;
	v = xcalloc((size_t)(2 * nc + 2), sizeof(int));

	/* run 1: one thread on the first core */
	v[0] = m->cores[s0->cores[0]].pus[0];
	plan_set(pl, PR1, v, 1);

	/* run 2: the largest even count that oversubscribes nothing */
	for (n = nc & ~1; n >= 2; n -= 2) {
		for (i = 0; i < n; i++)
			v[i] = m->cores[s0->cores[i]].pus[0];
		load = max_load(pl->sp, base, v, n, what, sizeof(what));
		if (n == (nc & ~1)) {
			first_load = load;
			memcpy(first_what, what, sizeof(what));
		}
		if (load <= 1 + 1e-9)
			break;
	}
	if (n < 2) {
		n = 2;
		for (i = 0; i < n; i++)
			v[i] = m->cores[s0->cores[i]].pus[0];
		pl->n_note = xasprintf("even 2 threads oversubscribe %s "
				       "(load %.3g): run 2 is not free of "
				       "contention, k2 includes it", what,
				       load);
	} else if (n < (nc & ~1)) {
		pl->n_note = xasprintf("%d threads: %d would oversubscribe %s "
				       "(load %.3g)", n, nc & ~1, first_what,
				       first_load);
	}
	pl->n = n;
	plan_set(pl, PR2, v, n);

	/* run 3: the same count over two sockets */
	if (m->n_sockets < 2) {
		pl->why_not[PR3] = xstrdup("this machine has one socket");
	} else {
		const struct pandia_socket *s1 = &m->sockets[1];
		int h = n / 2;

		if (s1->n_cores < h)
			h = s1->n_cores;
		for (i = 0; i < h; i++) {
			v[i] = m->cores[s0->cores[i]].pus[0];
			v[h + i] = m->cores[s1->cores[i]].pus[0];
		}
		if (h < 1)
			pl->why_not[PR3] = xstrdup("socket 1 has no core");
		else
			plan_set(pl, PR3, v, 2 * h);
	}

	/* runs 4 and 5: run 2 with co-runners */
	for (int x = PR4; x <= PR5; x++) {
		plan_set(pl, x, pl->pus[PR2], n);
		pl->beside[x] = xcalloc((size_t)n, sizeof(bool));
		pl->corun[x] = xcalloc((size_t)n, sizeof(int));
		for (i = x == PR4 ? 0 : n - 1; i < n; i++) {
			const struct pandia_core *co =
				&m->cores[m->pus[pl->pus[x][i]].core];

			pl->beside[x][i] = true;
			pl->corun[x][pl->n_corun[x]++] =
				pl->smt ? co->pus[1] : co->pus[0];
		}
	}

	/* run 6: packed two to a core (no SMT: two to a PU) */
	for (i = 0; i < n / 2; i++) {
		const struct pandia_core *co = &m->cores[s0->cores[i]];

		v[2 * i] = co->pus[0];
		v[2 * i + 1] = pl->smt ? co->pus[1] : co->pus[0];
	}
	plan_set(pl, PR6, v, n);
	ret = 0;
out:
	free(v);
	if (ret < 0)
		profile_plan_release(pl);
	return ret;
}

void profile_plan_release(struct profile_plan *pl)
{
	int x;

	if (!pl)
		return;
	space_free(pl->sp);
	free(pl->n_note);
	for (x = 0; x < PROFILE_RUNS; x++) {
		free(pl->why_not[x]);
		free(pl->pus[x]);
		free(pl->beside[x]);
		free(pl->corun[x]);
	}
	memset(pl, 0, sizeof(*pl));
}

/* ---- the partial model ------------------------------------------- */

double profile_model_time(const struct profile_plan *pl,
			  const struct model_params *prm, int x, double corun,
			  double *f0, double *f)
{
	struct model md;
	double t;

	model_init(&md, pl->sp, prm);
	if (model_build_pus(&md, pl->pus[x], pl->n_pus[x]) < 0) {
		model_release(&md);
		return NAN;
	}
	if (corun > 1 && pl->beside[x])
		model_corun(&md, pl->beside[x], corun);
	model_solve(&md);
	t = md.time;
	if (f0)
		*f0 = model_mean_f0(&md);
	if (f)
		*f = model_mean_f(&md);
	model_release(&md);
	return t;
}

/* Whether the model applies b to any thread of run x. */
static bool run_shares_core(const struct profile_plan *pl,
			    const struct model_params *prm, int x)
{
	struct model md;
	bool shared;

	model_init(&md, pl->sp, prm);
	model_build_pus(&md, pl->pus[x], pl->n_pus[x]);
	shared = model_shares_core(&md);
	model_release(&md);
	return shared;
}

/* One unknown of the partial model, and the run that measures it. */
enum unknown { U_P, U_OS, U_CORUN, U_L, U_B };

struct fit {
	const struct profile_plan *pl;
	struct model_params prm;
	int x;			/* the run */
	enum unknown what;
	double corun;		/* for runs 4 and 5 */
};

static double fit_time(const struct fit *ft, double v)
{
	struct model_params prm = ft->prm;
	double corun = ft->corun;

	switch (ft->what) {
	case U_P:
		prm.p = v;
		break;
	case U_OS:
		prm.o_s = v;
		break;
	case U_CORUN:
		corun = v;
		break;
	case U_L:
		prm.l = v;
		break;
	case U_B:
		prm.b = v;
		break;
	}
	return profile_model_time(ft->pl, &prm, ft->x, corun, NULL, NULL);
}

/*
 * The value in [lo, hi] for which the partial model predicts TARGET
 * seconds for the run.  The model's time is monotonic in the unknown,
 * increasing when INC; when GROW, hi doubles (up to HMAX) until the
 * target is inside.  *clamped: -1 when the answer is lo because no value
 * in the range reaches down to the target (for INC; up to it for !INC),
 * +1 when it is hi because none reaches that far the other way, else 0.
 */
static double fit_solve(const struct fit *ft, double lo, double hi,
			double hmax, bool inc, double target, int *clamped)
{
	double sgn = inc ? 1 : -1, flo, fhi;
	int i;

	*clamped = 0;
	flo = sgn * fit_time(ft, lo);
	fhi = sgn * fit_time(ft, hi);
	target *= sgn;
	if (!(target > flo)) {
		*clamped = -1;
		return lo;
	}
	while (fhi < target && hi < hmax) {
		lo = hi;
		hi *= 2;
		fhi = sgn * fit_time(ft, hi);
	}
	if (fhi < target) {
		*clamped = 1;
		return hi;
	}
	for (i = 0; i < BISECT_STEPS; i++) {
		double mid = (lo + hi) / 2;

		if (sgn * fit_time(ft, mid) < target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

void profile_solution_release(struct profile_solution *s)
{
	if (!s)
		return;
	free(s->p_status);
	free(s->o_s_status);
	free(s->l_status);
	free(s->b_status);
	memset(s, 0, sizeof(*s));
}

/* k, u and f of run x under the partial model prm (corun for 4, 5) */
static double step_of(struct profile_solution *s,
		      const struct profile_plan *pl,
		      const struct model_params *prm, const double *t, int x,
		      double corun, double *f0)
{
	struct profile_step *st = &s->step[x];
	double tm = profile_model_time(pl, prm, x, corun, f0, &st->f);

	st->r = t[x] / t[PR1];
	st->k = tm / t[PR1];
	st->u = st->r / st->k;
	return tm;
}

/* Step 2 (section 4.2): p from run 2. */
static void solve_p(const struct profile_plan *pl, struct model_params *prm,
		    const double *t, enum profile_solve mode,
		    struct profile_solution *s)
{
	struct fit ft = { pl, *prm, PR2, U_P, 1 };
	struct profile_step *st = &s->step[PR2];
	double n = pl->n_pus[PR2], tm, u2;
	int cl;

	/* k2: the contention the model sees with every thread busy */
	ft.prm.p = 1;
	tm = profile_model_time(pl, &ft.prm, PR2, 1, NULL, &st->f);
	st->r = t[PR2] / t[PR1];
	st->k = tm / (t[PR1] / n);
	st->u = u2 = st->r / st->k;
	s->paper_p = (1 - u2) / (1 - 1 / n);
	if (mode == PROFILE_SOLVE_PAPER) {
		s->p = clamp01(s->paper_p);
		cl = s->paper_p < 0 ? -1 : s->paper_p > 1 ? 1 : 0;
	} else {
		s->p = fit_solve(&ft, 0, 1, 1, false, t[PR2], &cl);
	}
	if (cl > 0)
		s->p_status = xasprintf("run 2 (%g threads) was more than "
					"%g times faster than run 1 (r2 = "
					"%.4g): p = 1", n, n, st->r);
	else if (cl < 0)
		s->p_status = xasprintf("run 2 (%g threads) was no faster "
					"than the model allows for p = 0 (r2 "
					"= %.4g): p = 0", n, st->r);
	prm->p = s->p;
}

/* Step 3 (section 4.3): o_s from run 3. */
static void solve_os(const struct profile_plan *pl, struct model_params *prm,
		     const double *t, enum profile_solve mode,
		     struct profile_solution *s)
{
	struct fit ft = { pl, *prm, PR3, U_OS, 1 };
	struct profile_step *st = &s->step[PR3];
	double half = pl->n_pus[PR3] / 2.0;
	int cl;

	if (!pl->made[PR3]) {
		s->o_s_status = xasprintf("not measured: %s (run 3 needs "
					  "two)", pl->why_not[PR3]);
		prm->o_s = 0;
		return;
	}
	ft.prm.o_s = 0;
	step_of(s, pl, &ft.prm, t, PR3, 1, NULL);
	s->paper_o_s = (st->u - 1) * st->f / half;
	if (mode == PROFILE_SOLVE_PAPER) {
		s->o_s = s->paper_o_s > 0 ? s->paper_o_s : 0;
		cl = s->paper_o_s < 0 ? -1 : 0;
	} else {
		s->o_s = fit_solve(&ft, 0, 1, 1e3, true, t[PR3], &cl);
	}
	if (cl < 0)
		s->o_s_status = xasprintf("run 3 was no slower than the model "
					  "without o_s predicts (u3 = %.4g): "
					  "o_s = 0", st->u);
	s->have_o_s = true;
	prm->o_s = s->o_s;
}

/* Step 4 (section 4.4): l from runs 2, 4 and 5. */
static void solve_l(const struct profile_plan *pl, struct model_params *prm,
		    const double *t, enum profile_solve mode,
		    struct profile_solution *s)
{
	struct fit ft = { pl, *prm, PR4, U_CORUN, 1 };
	double n = pl->n, p = prm->p, u2, sl, s5, slock, sbal;
	int cl;

	u2 = t[PR2] / profile_model_time(pl, prm, PR2, 1, NULL, NULL);
	step_of(s, pl, prm, t, PR4, 1, NULL);
	step_of(s, pl, prm, t, PR5, 1, NULL);
	sl = s->step[PR4].u / u2;
	s5 = s->step[PR5].u / u2;
	/* the closed form: interpolate between the two extremes */
	slock = (1 - p) + p * sl;
	sbal = (1 - p) + n * p / ((n - 1) + 1 / sl);
	if (slock - sbal > 1e-12)
		s->paper_l = (slock - s5) / (slock - sbal);
	if (sl - 1 < MIN_CORUN_SLOWDOWN) {
		s->l_status = xasprintf("not measured: the co-runners of run "
					"4 slowed the workload by only %.1f%% "
					"(t4/t2 = %.4g), too little to tell "
					"how it balances load", 100 * (sl - 1),
					sl);
		prm->l = 0;
		return;
	}
	if (mode == PROFILE_SOLVE_PAPER) {
		s->l = clamp01(s->paper_l);
		cl = s->paper_l < 0 ? -1 : s->paper_l > 1 ? 1 : 0;
	} else {
		/* the co-runner's share of the PU, as the model sees it */
		s->corun = fit_solve(&ft, 1, 2, 1e6, true, t[PR4], &cl);
		ft.x = PR5;
		ft.what = U_L;
		ft.corun = s->corun;
		s->l = fit_solve(&ft, 0, 1, 1, false, t[PR5], &cl);
	}
	if (cl < 0)
		s->l_status = xasprintf("run 5 was slower than lock-step "
					"predicts (t5/t2 = %.4g, t4/t2 = "
					"%.4g): l = 0", s5, sl);
	else if (cl > 0)
		s->l_status = xasprintf("run 5 was faster than dynamic "
					"balancing predicts (t5/t2 = %.4g, "
					"t4/t2 = %.4g): l = 1", s5, sl);
	s->have_l = true;
	prm->l = s->l;
}

/* Step 5 (section 4.5): b from runs 2 and 6. */
static void solve_b(const struct profile_plan *pl, struct model_params *prm,
		    const double *t, enum profile_solve mode,
		    struct profile_solution *s)
{
	struct fit ft = { pl, *prm, PR6, U_B, 1 };
	double u2, f6 = NAN;
	bool shared;
	int cl = 0;

	ft.prm.b = 0;
	u2 = t[PR2] / profile_model_time(pl, &ft.prm, PR2, 1, NULL, NULL);
	step_of(s, pl, &ft.prm, t, PR6, 1, &f6);
	s->paper_b = (s->step[PR6].u / u2 - 1) / f6;
	shared = run_shares_core(pl, &ft.prm, PR6);
	if (mode == PROFILE_SOLVE_PAPER || !shared) {
		s->b = s->paper_b > 0 ? s->paper_b : 0;
		cl = s->paper_b < 0 ? -1 : 0;
	} else {
		s->b = fit_solve(&ft, 0, 1, 1e3, true, t[PR6], &cl);
	}
	if (!pl->smt)
		s->b_status = xasprintf(
			"measured instead with two threads time-sharing each "
			"PU (no SMT on this machine): the slowdown of sharing "
			"a PU beyond what the PU-time resource accounts for%s",
			cl < 0 ? "; run 6 was no slower than predicted "
			"without it: b = 0" : "");
	else if (cl < 0)
		s->b_status = xasprintf("run 6 was no slower than the model "
					"without b predicts (u6 = %.4g): b = 0",
					s->step[PR6].u);
	s->have_b = true;
	prm->b = s->b;
}

void profile_solve(const struct profile_plan *pl,
		   const struct model_params *base, const double *t,
		   enum profile_solve mode, struct profile_solution *s)
{
	struct model_params prm = *base;

	memset(s, 0, sizeof(*s));
	s->paper_p = s->paper_o_s = s->paper_l = s->paper_b = NAN;
	s->corun = NAN;
	prm.t1 = t[PR1];
	prm.p = 1;
	prm.o_s = prm.l = prm.b = 0;
	s->step[PR1].r = s->step[PR1].k = s->step[PR1].u = 1;
	s->step[PR1].f = 1;
	solve_p(pl, &prm, t, mode, s);
	solve_os(pl, &prm, t, mode, s);
	solve_l(pl, &prm, t, mode, s);
	solve_b(pl, &prm, t, mode, s);
}

static void params_of(const struct profile_solution *s, double v[4])
{
	v[0] = s->p;
	v[1] = s->have_o_s ? s->o_s : NAN;
	v[2] = s->have_l ? s->l : NAN;
	v[3] = s->have_b ? s->b : NAN;
}

void profile_uncertainty(const struct profile_plan *pl,
			 const struct model_params *base, const double *t,
			 const double *delta, enum profile_solve mode,
			 double out[4])
{
	struct profile_solution s0, s1;
	double v0[4], v1[4], sum[4] = { 0, 0, 0, 0 };
	double tt[PROFILE_RUNS];
	bool any = false;
	int x, k, sgn;

	profile_solve(pl, base, t, mode, &s0);
	params_of(&s0, v0);
	for (x = 0; x < PROFILE_RUNS; x++) {
		double worst[4] = { 0, 0, 0, 0 };

		if (!pl->made[x] || !(delta[x] > 0))
			continue;
		any = true;
		for (sgn = -1; sgn <= 1; sgn += 2) {
			memcpy(tt, t, sizeof(tt));
			tt[x] += sgn * delta[x];
			if (!(tt[x] > 0))
				continue;
			profile_solve(pl, base, tt, mode, &s1);
			params_of(&s1, v1);
			for (k = 0; k < 4; k++)
				if (isfinite(v0[k]) && isfinite(v1[k]) &&
				    fabs(v1[k] - v0[k]) > worst[k])
					worst[k] = fabs(v1[k] - v0[k]);
			profile_solution_release(&s1);
		}
		for (k = 0; k < 4; k++)
			sum[k] += worst[k] * worst[k];
	}
	for (k = 0; k < 4; k++)
		out[k] = any && isfinite(v0[k]) ? sqrt(sum[k]) : -1;
	profile_solution_release(&s0);
}

/* ---- profiling a command ------------------------------------------ */

void profile_opts_init(struct profile_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->repetitions = 3;
	o->warmup = true;
	o->counters = COUNTERS_AUTO;
	o->solve = PROFILE_SOLVE_FIT;
}

void profile_result_init(struct profile_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t1 = NAN;
}

void profile_result_release(struct profile_result *r)
{
	int i;

	if (!r)
		return;
	workload_free(r->w);
	for (i = 0; i < r->n_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r->backend_note);
	free(r->failed_stderr);
	profile_result_init(r);
}

static void __attribute__((format(printf, 2, 3)))
warn(struct profile_result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	r->warnings = xrealloc(r->warnings, sizeof(char *) *
			       (size_t)(r->n_warnings + 1));
	r->warnings[r->n_warnings++] = s;
}

/* One run as it is made: placement, stressors, what it measured. */
struct prun {
	char *id;
	char *purpose;
	int run;		/* 1..6; 0: a probe run */
	int level;		/* probe runs: enum pandia_level */
	int n_cpus;
	int *cpus;		/* OS indexes */
	int n_stress;
	char *spec[2];		/* [0] co-runner or probe, [1] loops */
	struct run_stressor stress[2];
	bool probe;		/* spec[0] is a bandwidth probe */
	bool calibration;	/* the command is sleep: probes alone */
	bool count_cpu;		/* measure the command's CPU use */
	int n_times;
	double *times;
	double *rates;		/* probe runs: probes' total, per rep */
	int calls;
	double wall;		/* seconds spent in its calls */
	double cpu, cpu_wall;	/* CPU use over its calls */
	const char *cpu_method;
	int threads_created;	/* shim's count in the last call; -1 */
	int processes;
	bool warmed;
	int redone;		/* disturbed repetitions made again */
	int disturbed;		/* disturbed repetitions kept */
	double foreign;		/* most others took of a kept one */
};

struct prof {
	const struct profile_opts *o;
	struct profile_result *res;
	struct pandia_error *err;
	const struct pandia_machine *m;
	double start;
	int n_runs;
	struct prun runs[PROFILE_RUNS + 8];
	int total;		/* runs to make in all, for progress */
	char sleep_secs[32];
	double *stat0, *stat1;	/* /proc/stat busy seconds per PU */
};

static void prun_release(struct prun *R)
{
	int i;

	free(R->id);
	free(R->purpose);
	free(R->cpus);
	for (i = 0; i < R->n_stress; i++) {
		free(R->spec[i]);
		run_stressor_release(&R->stress[i]);
	}
	free(R->times);
	free(R->rates);
}

static char *os_list(const struct pandia_machine *m, const int *pus, int n)
{
	int *v = xmalloc(sizeof(int) * (size_t)(n ? n : 1)), i;
	char *s;

	for (i = 0; i < n; i++)
		v[i] = m->pus[pus[i]].os_index;
	s = cpulist_format(v, n);
	free(v);
	return s;
}

/* Add stressor TEXT ("cpu@1,2") to R.  0 or -1 with err. */
static int add_stress(struct prof *P, struct prun *R, char *text)
{
	struct pandia_error e;

	if (run_stressor_parse(text, &R->stress[R->n_stress], &e) < 0) {
		perr_set(P->err, "internal error: stressor '%s': %s", text,
			 e.text);
		free(text);
		return -1;
	}
	R->spec[R->n_stress++] = text;
	return 0;
}

/*
 * A new run: PUS (m->pus indexes) for the command, CORUN PUs for the
 * co-runner or probe of KIND ("cpu", "bw:dram"), and with --busy-idle
 * a core-local loop on the first PU of every core left idle.
 */
static struct prun *new_run(struct prof *P, const char *id, int run,
			    const int *pus, int n, const int *corun,
			    int n_corun, const char *kind, char *purpose)
{
	const struct pandia_machine *m = P->m;
	struct prun *R = &P->runs[P->n_runs++];
	bool *busy = xcalloc((size_t)m->n_cores + 1, sizeof(bool));
	int *idle = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	int i, n_idle = 0;

	memset(R, 0, sizeof(*R));
	R->id = xstrdup(id);
	R->run = run;
	R->level = -1;
	R->threads_created = -1;
	R->n_cpus = n;
	R->cpus = xmalloc(sizeof(int) * (size_t)n);
	for (i = 0; i < n; i++) {
		R->cpus[i] = m->pus[pus[i]].os_index;
		busy[m->pus[pus[i]].core] = true;
	}
	for (i = 0; i < n_corun; i++)
		busy[m->pus[corun[i]].core] = true;
	if (n_corun > 0) {
		char *l = os_list(m, corun, n_corun);

		add_stress(P, R, xasprintf("%s@%s", kind, l));
		free(l);
	}
	if (P->o->busy_idle) {
		for (i = 0; i < m->n_cores; i++)
			if (!busy[i] && m->cores[i].n_pus > 0)
				idle[n_idle++] = m->cores[i].pus[0];
		if (n_idle) {
			char *l = os_list(m, idle, n_idle), *np;

			add_stress(P, R, xasprintf("cpu@%s", l));
			np = xasprintf("%s; core-local loops on the idle "
				       "cores' PUs %s", purpose, l);
			free(purpose);
			purpose = np;
			free(l);
		}
	}
	R->purpose = purpose;
	/* CPU use means something only for the command alone, here */
	R->count_cpu = !P->o->runner && R->n_stress == 0;
	free(busy);
	free(idle);
	return R;
}

static const char *run_label(const struct prun *R, char *buf, size_t size)
{
	if (R->run)
		snprintf(buf, size, "run %d of 6 (%s)", R->run, R->purpose);
	else
		snprintf(buf, size, "probe run '%s' (%s)", R->id, R->purpose);
	return buf;
}

static double est_call(const struct prof *P, const struct prun *R)
{
	const struct prun *R1 = &P->runs[0];

	if (R->calls)
		return R->wall / R->calls;
	return R1->calls ? R1->wall / R1->calls : -1;
}

static void progress(struct prof *P, struct prun *R, int index, int rep)
{
	struct profile_progress pp;
	double left = 0;
	int i, n;

	if (!P->o->progress)
		return;
	memset(&pp, 0, sizeof(pp));
	pp.id = R->id;
	pp.what = R->purpose;
	pp.run = R->run;
	pp.index = index;
	pp.total = P->total;
	pp.rep = rep;
	pp.reps = P->o->repetitions;
	pp.elapsed = now_seconds() - P->start;
	/* every call left, at the time such a call took so far */
	for (i = 0; i < P->n_runs && left >= 0; i++) {
		double e = est_call(P, &P->runs[i]);

		n = P->o->repetitions - P->runs[i].n_times;
		if (n > 0)
			left = e < 0 ? -1 : left + n * e;
	}
	if (left >= 0 && P->total > P->n_runs) {
		double e = est_call(P, &P->runs[0]);

		left = e < 0 ? -1 :
			left + (P->total - P->n_runs) * P->o->repetitions * e;
	}
	pp.left = left;
	P->o->progress(&pp, P->o->progress_arg);
}

/*
 * The share of the time of the PUs R kept busy that went to other
 * processes while it ran: their busy time from /proc/stat (P->stat0
 * to P->stat1) less the CPU time of the command and the stressors.
 */
static double foreign_share(const struct prof *P, const struct prun *R,
			    double cpu, double wall)
{
	bool *used = xcalloc(STAT_PUS, sizeof(bool));
	double busy = 0;
	int i, j, n = 0;

	if (!R->calibration)	/* sleep keeps no PU busy */
		for (i = 0; i < R->n_cpus; i++)
			if (R->cpus[i] < STAT_PUS)
				used[R->cpus[i]] = true;
	for (i = 0; i < R->n_stress; i++)
		for (j = 0; j < R->stress[i].n_pus; j++)
			if (R->stress[i].pus[j] >= 0 &&
			    R->stress[i].pus[j] < STAT_PUS)
				used[R->stress[i].pus[j]] = true;
	for (i = 0; i < STAT_PUS; i++)
		if (used[i]) {
			busy += P->stat1[i] - P->stat0[i];
			n++;
		}
	free(used);
	if (!n || !(wall > 0))
		return 0;
	/*
	 * Others took time the command would have had only if the PUs
	 * were full: time they used while it slept harmed nobody.
	 */
	if (busy < (1 - DISTURBED) * wall * n)
		return 0;
	return (busy - cpu) / (wall * n);
}

/*
 * The runner's message without its own count of runs ("run 1 of 1: ",
 * "the warm-up run: "): each call makes one, the caller says which.
 */
static const char *runner_text(const char *text)
{
	static const char *const prefix[] = {
		"run 1 of 1", "the warm-up run"
	};
	size_t k, n;

	for (k = 0; k < ARRAY_SIZE(prefix); k++) {
		n = strlen(prefix[k]);
		if (!strncmp(text, prefix[k], n)) {
			text += n;
			while (*text == ':' || *text == ' ')
				text++;
			break;
		}
	}
	return text;
}

/* Make one measured repetition of R (after its warm-up, the first time). */
static int call_run(struct prof *P, struct prun *R, int index)
{
	const struct profile_opts *o = P->o;
	char *const sleep_argv[] = { "sleep", P->sleep_secs, NULL };
	struct run_opts ro;
	struct run_result rr;
	struct pandia_error e;
	struct probe_cpu pc;
	char label[600], rep[64];
	double t0, cpu = 0, w = 0, foreign = 0;
	bool have_stat = false;
	int ret = -1, rc, i;

	progress(P, R, index, R->n_times + 1);
	run_opts_init(&ro);
	ro.cpus = R->cpus;
	ro.n_cpus = R->n_cpus;
	ro.stress = R->stress;
	ro.n_stress = R->n_stress;
	ro.repetitions = 1;
	ro.warmup = o->warmup && !R->warmed;
	ro.timeout = o->timeout;
	ro.time_from = R->calibration ? NULL : o->time_from;
	ro.runner = o->runner;
	ro.machine = P->m;
	ro.shim_path = o->shim_path;
	run_result_init(&rr);
	if (!o->runner) {
		have_stat = probe_stat_busy(P->stat0, STAT_PUS) > 0;
		probe_cpu_begin(&pc);
	}
	t0 = now_seconds();
	rc = run_execute(&ro, R->calibration ? sleep_argv : o->argv, &rr, &e);
	R->wall += now_seconds() - t0;
	R->calls++;
	if (!o->runner) {
		probe_cpu_end(&pc, &cpu, &w);
		if (have_stat && probe_stat_busy(P->stat1, STAT_PUS) > 0)
			foreign = foreign_share(P, R, cpu, w);
		if (R->count_cpu) {
			R->cpu += cpu;
			R->cpu_wall += w;
			R->cpu_method = pc.method;
		}
	}
	if (rc < 0) {
		run_label(R, label, sizeof(label));
		if (rr.failed_run == 0)
			snprintf(rep, sizeof(rep), "warm-up");
		else
			snprintf(rep, sizeof(rep), "repetition %d of %d",
				 R->n_times + 1, o->repetitions);
		P->res->interrupted = rr.interrupted;
		if (rr.stderr_tail)
			P->res->failed_stderr = xstrdup(rr.stderr_tail);
		if (rr.interrupted)
			perr_set(P->err, "%s", e.text);
		else if (rr.failed_run < 0 || rr.exit_status < 0) {
			if (rr.timed_out)
				perr_set(P->err, "%s, %s: the command timed "
					 "out after %g s", label, rep,
					 o->timeout);
			else if (rr.term_signal)
				perr_set(P->err, "%s, %s: the command was "
					 "killed by signal %d (%s)", label,
					 rep, rr.term_signal,
					 strsignal(rr.term_signal));
			else
				perr_set(P->err, "%s, %s: %s", label, rep,
					 runner_text(e.text));
		} else if (rr.exit_status > 0) {
			perr_set(P->err, "%s, %s: the command exited with "
				 "status %d", label, rep, rr.exit_status);
		} else {
			perr_set(P->err, "%s, %s: %s", label, rep,
				 runner_text(e.text));
		}
		goto out;
	}
	R->warmed = true;
	if (foreign > DISTURBED) {
		if (R->redone < o->repetitions) {
			/* others took its PUs: make it again, later */
			R->redone++;
			ret = 0;
			goto out;
		}
		R->disturbed++;
		if (foreign > R->foreign)
			R->foreign = foreign;
	}
	R->times = xrealloc(R->times, sizeof(double) *
			    (size_t)(R->n_times + 1));
	R->times[R->n_times] = rr.times[0];
	if (R->probe) {
		double sum = 0;

		for (i = 0; i < rr.n_stress; i++)
			if (!strcmp(rr.stress[i].spec, R->spec[0]))
				sum += rr.stress[i].rates[0];
		R->rates = xrealloc(R->rates, sizeof(double) *
				    (size_t)(R->n_times + 1));
		R->rates[R->n_times] = sum;
	}
	R->n_times++;
	R->threads_created = rr.threads_created;
	R->processes = rr.processes;
	ret = 0;
out:
	run_result_release(&rr);
	return ret;
}

/* All repetitions of R, one after the other. */
static int make_run(struct prof *P, struct prun *R, int index)
{
	while (R->n_times < P->o->repetitions)
		if (call_run(P, R, index) < 0)
			return -1;
	return 0;
}

static double med(const double *v, int n)
{
	return n ? median_of(v, n) : NAN;
}

static double half_range(const double *v, int n)
{
	double lo = INFINITY, hi = -INFINITY;
	int i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	return (hi - lo) / 2;
}

/* ---- demands ------------------------------------------------------ */

static void demand_unknown(struct pandia_workload *w, int r, char *status)
{
	wl_param_release(&w->demand[r]);
	w->listed[r] = true;
	w->demand[r].status = status;
}

/* The probe runs of level LVL for run 1's PU: created, not yet made. */
static int plan_probe(struct prof *P, int pu0, int lvl,
		      struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	const char *why, *ln = level_name(lvl);
	char id[64], kind[32], *l;
	struct prun *R;
	int *pus, n;

	n = probe_pus(m, pu0, lvl, &pus, &why);
	if (!n) {
		demand_unknown(w, WR_L1 + lvl, xasprintf("not measured: %s",
							 why));
		return 0;
	}
	l = os_list(m, pus, n);
	snprintf(kind, sizeof(kind), "bw:%s", ln);
	if (!P->o->runner) {
		snprintf(id, sizeof(id), "probe-%s-alone", ln);
		R = new_run(P, id, 0, &pu0, 1, pus, n, kind,
			    xasprintf("%s probes on PUs %s alone: their "
				      "rate, to calibrate (the command is "
				      "'sleep')", ln, l));
		R->probe = R->calibration = true;
		R->level = lvl;
	}
	snprintf(id, sizeof(id), "probe-%s", ln);
	R = new_run(P, id, 0, &pu0, 1, pus, n, kind,
		    xasprintf("%s demand: run 1 beside %s probes on PUs %s",
			      ln, ln, l));
	R->probe = true;
	R->level = lvl;
	free(l);
	free(pus);
	return n;
}

/* Number of probe levels run 1's PU allows (for the progress total). */
static int count_probe_runs(const struct prof *P, int pu0)
{
	int lvl, n = 0, *pus;
	const char *why;

	for (lvl = LVL_L1; lvl <= LVL_DRAM; lvl++)
		if (probe_pus(P->m, pu0, lvl, &pus, &why) > 0) {
			n += P->o->runner ? 1 : 2;
			free(pus);
		}
	return n;
}

/* The demand at a probed level from its runs. */
static void probe_demand(struct prof *P, struct prun *cal, struct prun *co,
			 struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	const struct pandia_link *lk = &m->links[co->level];
	struct probe_input in = { 0 };
	struct probe_estimate est;
	struct wl_param *d = &w->demand[WR_L1 + co->level];
	int n = co->stress[0].n_pus;

	in.level = co->level;
	in.n_probes = n;
	in.per_core_bw = lk->per_core_bw;
	in.aggregate_bw = lk->aggregate_bw;
	if (cal) {
		in.alone = med(cal->rates, cal->n_times);
	} else {
		/* a runner template: the description's figures */
		in.alone = n * lk->per_core_bw;
		if (in.alone > lk->aggregate_bw)
			in.alone = lk->aggregate_bw;
	}
	in.corun = med(co->rates, co->n_times);
	in.corun_spread = half_range(co->rates, co->n_times);
	in.slowdown = med(co->times, co->n_times) / P->res->t1;
	if (!isfinite(in.corun)) {
		demand_unknown(w, WR_L1 + co->level, xasprintf(
			"not measured: the runner template reported no "
			"probe rate (a line 'pandia-stress: I RATE')"));
		return;
	}
	probe_estimate_demand(&in, &est);
	wl_param_release(d);
	w->listed[WR_L1 + co->level] = true;
	d->known = est.known;
	d->value = est.value;
	d->uncertainty = est.uncertainty;
	d->source = est.known ? xasprintf("run1,%s", co->id) : NULL;
	d->status = est.status;
}

/* ---- the description ---------------------------------------------- */

static void add_counter(struct wl_run *wr, const char *name, double v)
{
	if (!isfinite(v))
		return;
	wr->counter_names = xrealloc(wr->counter_names, sizeof(char *) *
				     (size_t)(wr->n_counters + 1));
	wr->counter_values = xrealloc(wr->counter_values, sizeof(double) *
				      (size_t)(wr->n_counters + 1));
	wr->counter_names[wr->n_counters] = xstrdup(name);
	wr->counter_values[wr->n_counters++] = v;
}

/* R as evidence in the description. */
static void record_run(const struct prun *R, struct wl_run *wr)
{
	int i;

	wr->id = xstrdup(R->id);
	wr->purpose = xstrdup(R->purpose);
	wr->n_cpus = R->n_cpus;
	wr->cpus = xmalloc(sizeof(int) * (size_t)R->n_cpus);
	memcpy(wr->cpus, R->cpus, sizeof(int) * (size_t)R->n_cpus);
	wr->n_stress = R->n_stress;
	wr->stress = xcalloc((size_t)R->n_stress + 1, sizeof(char *));
	for (i = 0; i < R->n_stress; i++)
		wr->stress[i] = xstrdup(R->spec[i]);
	wr->n_times = R->n_times;
	wr->times = xmalloc(sizeof(double) * (size_t)R->n_times);
	memcpy(wr->times, R->times, sizeof(double) * (size_t)R->n_times);
	if (R->count_cpu && R->cpu_wall > 0) {
		add_counter(wr, "cpu_seconds", R->cpu);
		add_counter(wr, "cpus_busy", R->cpu / R->cpu_wall);
	}
	if (R->probe)
		add_counter(wr, "probe_bytes_per_s",
			    med(R->rates, R->n_times));
	if (R->redone)
		add_counter(wr, "disturbed_repeated", R->redone);
	if (R->disturbed)
		add_counter(wr, "disturbed_kept", R->disturbed);
}

static void record_step(struct wl_run *wr, const struct profile_step *st)
{
	add_counter(wr, "model_r", st->r);
	add_counter(wr, "model_k", st->k);
	add_counter(wr, "model_u", st->u);
	add_counter(wr, "model_f", st->f);
}

static void set_param(struct wl_param *prm, bool have, double v, double unc,
		      const char *source, char *status)
{
	wl_param_release(prm);
	if (have)
		wl_param_set(prm, v, unc >= 0 ? unc : NAN, source);
	prm->status = status;
}

static char *iso_now(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

static void identity(struct prof *P, struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	char *const *a;
	int i;

	for (a = P->o->argv; a && *a; a++)
		w->n_command++;
	w->command = xcalloc((size_t)w->n_command + 1, sizeof(char *));
	for (i = 0; i < w->n_command; i++)
		w->command[i] = xstrdup(P->o->argv[i]);
	w->host = m->host ? xstrdup(m->host) : NULL;
	w->cpu_model = m->cpu_model ? xstrdup(m->cpu_model) : NULL;
	w->n_pus = m->n_pus;
	w->pus = xmalloc(sizeof(int) * (size_t)(m->n_pus ? m->n_pus : 1));
	for (i = 0; i < m->n_pus; i++)
		w->pus[i] = m->pus[i].os_index;
	w->machine_file = P->o->machine_file ?
		xstrdup(P->o->machine_file) : NULL;
	w->has_memory = true;
	w->memory.kind = MEM_LOCAL;
	w->memory.node = -1;
	w->date = iso_now();
	w->version = xstrdup(PANDIA_VERSION);
}

static char *purpose_of(const struct profile_plan *pl, int x)
{
	const struct pandia_machine *m = pl->m;
	int n = pl->n_pus[x];

	switch (x) {
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
	default:
		return xstrdup("");
	}
}

/* The demands the model gets: known values (bounds included), else 0. */
static void base_params(const struct pandia_workload *w, double t1,
			struct model_params *base)
{
	int r;

	memset(base, 0, sizeof(*base));
	base->t1 = t1;
	base->p = 1;
	for (r = 0; r < WR_COUNT; r++)
		base->d[r] = w->listed[r] && w->demand[r].known ?
			w->demand[r].value : 0;
}

/* Run 1's runner options, for the counted run of the perf backend. */
static void run1_opts(const struct prof *P, const struct prun *R1,
		      struct run_opts *ro)
{
	run_opts_init(ro);
	ro->cpus = R1->cpus;
	ro->n_cpus = R1->n_cpus;
	ro->stress = R1->stress;
	ro->n_stress = R1->n_stress;
	ro->repetitions = 1;
	ro->warmup = false;
	ro->timeout = P->o->timeout;
	ro->time_from = P->o->time_from;
	ro->runner = P->o->runner;
	ro->machine = P->m;
	ro->shim_path = P->o->shim_path;
}

/* The backend: perf's counted run, or the probe runs. */
static int demands(struct prof *P, int pu0, struct pandia_workload *w,
		   struct wl_run *ev1)
{
	const struct profile_opts *o = P->o;
	struct counters_result cr;
	struct run_opts ro;
	int rc, ret = -1, first, i, lvl;

	counters_result_init(&cr);
	run1_opts(P, &P->runs[0], &ro);
	rc = counters_demands(o->counters, P->m, &ro, o->argv, "run1", &cr,
			      P->err);
	if (rc == COUNTERS_MEASURED) {
		counters_result_apply(&cr, w, ev1);
		ret = 0;
		goto out;
	}
	if (rc != COUNTERS_UNAVAILABLE) {
		struct pandia_error e = *P->err;

		P->res->interrupted = cr.run.interrupted;
		if (cr.run.stderr_tail)
			P->res->failed_stderr = xstrdup(cr.run.stderr_tail);
		if (cr.run.failed_run >= 0 && !cr.run.interrupted)
			perr_set(P->err, "run 1 of 6, counted with perf: %s",
				 e.text);
		goto out;
	}
	free(w->counters);
	w->counters = xstrdup("probe");
	free(w->counters_note);
	if (o->counters == COUNTERS_PROBE) {
		w->counters_note = xstrdup("probe, as asked (--counters "
					   "probe): CPU use from task-clock, "
					   "demands at shared levels from "
					   "co-run bandwidth probes");
	} else {
		w->counters_note = xasprintf("auto: %s; used the probe "
					     "backend instead", cr.why);
		P->res->backend_note = xasprintf("%s (--counters auto: "
						 "using the probe backend)",
						 cr.why);
	}

	first = P->n_runs;
	for (lvl = LVL_L1; lvl <= LVL_DRAM; lvl++)
		plan_probe(P, pu0, lvl, w);
	for (i = first; i < P->n_runs; i++)
		if (make_run(P, &P->runs[i], i + 1) < 0)
			goto out;
	for (i = first; i < P->n_runs; i++) {
		struct prun *R = &P->runs[i];

		if (R->calibration)
			continue;
		probe_demand(P, i > first && P->runs[i - 1].calibration ?
			     &P->runs[i - 1] : NULL, R, w);
	}
	if (P->runs[0].count_cpu && P->runs[0].cpu_wall > 0)
		demand_unknown(w, WR_INSTRUCTIONS, xasprintf(
			"not measured: instructions need hardware counters "
			"(probe backend); run 1 kept %.2f PUs busy (%s)",
			P->runs[0].cpu / P->runs[0].cpu_wall,
			P->runs[0].cpu_method));
	else
		demand_unknown(w, WR_INSTRUCTIONS, xstrdup(
			"not measured: instructions need hardware counters "
			"(probe backend)"));
	ret = 0;
out:
	if (ret == 0 && !w->listed[WR_INTERCONNECT])
		demand_unknown(w, WR_INTERCONNECT, xstrdup(
			P->m->n_sockets < 2 ?
			"not measured: this machine has one socket" :
			"not measured: inter-socket traffic is not counted"));
	counters_result_release(&cr);
	return ret;
}

static void check_threads(struct prof *P, const struct prun *R1,
			  const struct prun *R2)
{
	double r2 = med(R2->times, R2->n_times) / med(R1->times, R1->n_times);

	if (R2->threads_created == 0 && R2->processes <= 1)
		warn(P->res, "run 2 asked the command for %d threads but it "
		     "created none: put {threads} in its arguments or make "
		     "it honour OMP_NUM_THREADS (pandia sets both, and "
		     "PANDIA_THREADS)", R2->n_cpus);
	else if (r2 > 0.9)
		warn(P->res, "run 2 (%d threads) took %.0f%% of the time of "
		     "run 1 (one thread): the command may ignore the thread "
		     "count; put {threads} in its arguments or make it "
		     "honour OMP_NUM_THREADS", R2->n_cpus, 100 * r2);
}

static void check_spread(struct prof *P)
{
	int i;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];
		double mdn = med(R->times, R->n_times);
		double sp = 2 * half_range(R->times, R->n_times) / mdn;

		if (R->disturbed)
			warn(P->res, "%s: %d of its %d repetitions ran while "
			     "other processes took up to %.0f%% of its PUs' "
			     "time (%d made again already): its time may be "
			     "theirs as much as the command's; profile on a "
			     "quieter machine", R->id, R->disturbed,
			     R->n_times, 100 * R->foreign, R->redone);
		else if (sp > 0.2)
			warn(P->res, "%s: its repetitions spread %.0f%% of "
			     "their median: the machine may be busy; more "
			     "repetitions (-r) help", R->id, 100 * sp);
	}
}

int profile_workload(const struct profile_opts *o, struct profile_result *res,
		     struct pandia_error *err)
{
	const struct pandia_machine *m = o->m;
	struct prof P;
	struct profile_plan pl;
	struct profile_solution sol;
	struct pandia_workload *w = NULL;
	struct wl_run ev1;
	struct model_params base;
	struct prun *R1, *xr[PROFILE_RUNS] = { NULL };
	double t[PROFILE_RUNS], delta[PROFILE_RUNS], unc[4];
	int pu0, x, i, rep, ret = -1;
	bool perf = false, kernel = false, niced = false;
	int old_nice = 0;
	char *why = NULL;

	memset(&P, 0, sizeof(P));
	memset(&pl, 0, sizeof(pl));
	memset(&sol, 0, sizeof(sol));
	memset(&ev1, 0, sizeof(ev1));
	P.o = o;
	P.res = res;
	P.err = err;
	P.m = m;
	P.start = now_seconds();
	P.stat0 = xcalloc(STAT_PUS, sizeof(double));
	P.stat1 = xcalloc(STAT_PUS, sizeof(double));
	perr_clear(err);
	if (o->repetitions < 1) {
		perr_set(err, "the number of repetitions must be at least 1");
		goto out;
	}
	if ((!o->argv || !o->argv[0]) && !o->runner) {
		perr_set(err, "no command given");
		goto out;
	}
	if (m->n_sockets < 1 || m->sockets[0].n_cores < 2) {
		perr_set(err, "profiling needs two cores on one socket; "
			 "socket 0 of this machine has %d",
			 m->n_sockets < 1 ? 0 : m->sockets[0].n_cores);
		goto out;
	}
	pu0 = m->cores[m->sockets[0].cores[0]].pus[0];
	w = workload_new();
	identity(&P, w);
	if (o->set_nice) {
		/* this thread's niceness, inherited by all it starts */
		errno = 0;
		old_nice = getpriority(PRIO_PROCESS, 0);
		if (setpriority(PRIO_PROCESS, 0, o->nice) < 0)
			warn(res, "cannot run at niceness %d (%s): profiling "
			     "at %d", o->nice, strerror(errno), old_nice);
		else
			niced = true;
	}

	/* how many runs, for the progress lines */
	if (o->counters == COUNTERS_PERF)
		perf = true;
	else if (o->counters == COUNTERS_AUTO && !o->runner)
		perf = counters_perf_available(&kernel, &why);
	free(why);
	P.total = 1 + (m->n_sockets < 2 ? 4 : 5) +
		(perf ? 0 : count_probe_runs(&P, pu0));

	/* run 1, then the demands */
	R1 = new_run(&P, "run1", 1, &pu0, 1, NULL, 0, NULL,
		     xstrdup("t1 and the demands: one thread alone"));
	/* its other repetitions come with those of runs 2 to 6 */
	if (call_run(&P, R1, 1) < 0)
		goto out;
	res->t1 = med(R1->times, R1->n_times);
	snprintf(P.sleep_secs, sizeof(P.sleep_secs), "%.3f",
		 res->t1 > PROBE_CAL_MIN ? res->t1 : PROBE_CAL_MIN);
	if (demands(&P, pu0, w, &ev1) < 0)
		goto out;

	/* runs 1 to 6, their repetitions interleaved */
	base_params(w, res->t1, &base);
	if (profile_plan_make(&pl, m, &base, err) < 0)
		goto out;
	P.total = P.n_runs;
	for (x = PR2; x < PROFILE_RUNS; x++)
		P.total += pl.made[x];
	for (x = PR2; x < PROFILE_RUNS; x++)
		if (pl.made[x])
			xr[x] = new_run(&P, run_ids[x], x + 1, pl.pus[x],
					pl.n_pus[x], pl.corun[x],
					pl.n_corun[x], "cpu",
					purpose_of(&pl, x));
	xr[PR1] = R1;
	do {
		/* one round: a repetition of every run that needs one */
		rep = 0;
		for (x = PR1; x < PROFILE_RUNS; x++) {
			if (!xr[x] || xr[x]->n_times >= o->repetitions)
				continue;
			rep++;
			if (call_run(&P, xr[x], (int)(xr[x] - P.runs) + 1) < 0)
				goto out;
		}
	} while (rep);
	res->t1 = med(R1->times, R1->n_times);

	/* the parameters */
	for (x = 0; x < PROFILE_RUNS; x++) {
		const struct prun *R = xr[x];

		t[x] = R ? med(R->times, R->n_times) : NAN;
		delta[x] = R ? half_range(R->times, R->n_times) : 0;
	}
	profile_solve(&pl, &base, t, o->solve, &sol);
	profile_uncertainty(&pl, &base, t, delta, o->solve, unc);
	check_threads(&P, R1, xr[PR2]);
	if (pl.n_note)
		warn(res, "run 2 uses %s", pl.n_note);
	check_spread(&P);

	/* the description */
	w->runs = xcalloc((size_t)P.n_runs, sizeof(struct wl_run));
	w->n_runs = P.n_runs;
	for (i = 0; i < P.n_runs; i++)
		record_run(&P.runs[i], &w->runs[i]);
	for (i = 0; i < ev1.n_counters; i++)
		add_counter(&w->runs[0], ev1.counter_names[i],
			    ev1.counter_values[i]);
	for (x = PR2; x < PROFILE_RUNS; x++) {
		struct wl_run *wr;

		if (!xr[x])
			continue;
		wr = &w->runs[xr[x] - P.runs];
		record_step(wr, &sol.step[x]);
		if (x == PR2)
			add_counter(wr, "closed_form_p", sol.paper_p);
		if (x == PR3)
			add_counter(wr, "closed_form_o_s", sol.paper_o_s);
		if (x == PR4)
			add_counter(wr, "corun_factor", sol.corun);
		if (x == PR5)
			add_counter(wr, "closed_form_l", sol.paper_l);
		if (x == PR6)
			add_counter(wr, "closed_form_b", sol.paper_b);
	}
	set_param(&w->t1, true, res->t1, delta[PR1] > 0 ? delta[PR1] : NAN,
		  "run1", NULL);
	set_param(&w->p, true, sol.p, unc[0], "run1,run2", sol.p_status);
	set_param(&w->o_s, sol.have_o_s, sol.o_s, unc[1], "run1,run2,run3",
		  sol.o_s_status);
	set_param(&w->l, sol.have_l, sol.l, unc[2], "run1,run2,run4,run5",
		  sol.l_status);
	set_param(&w->b, sol.have_b, sol.b, unc[3], "run1,run2,run6",
		  sol.b_status);
	sol.p_status = sol.o_s_status = sol.l_status = sol.b_status = NULL;
	res->seconds = now_seconds() - P.start;
	w->note = xasprintf(
		"profiled in %.1f s (%.1f x t1): %d runs of %d repetitions "
		"(median kept)%s, the repetitions of runs 1 to 6 "
		"interleaved; parameters %s%s%s", res->seconds,
		res->seconds / res->t1, P.n_runs, o->repetitions,
		o->warmup ? " after a warm-up each" : "",
		o->solve == PROFILE_SOLVE_FIT ?
		"fitted so that the partial model reproduces each run" :
		"by the closed forms of sections 4.2-4.5",
		o->runner ? "; runner template: " : "",
		o->runner ? o->runner : "");
	if (workload_check(w, err) < 0) {
		struct pandia_error e = *err;

		perr_set(err, "internal error: the description is not valid: "
			 "%s", e.text);
		goto out;
	}
	res->w = w;
	w = NULL;
	ret = 0;
out:
	workload_free(w);
	for (i = 0; i < ev1.n_counters; i++)
		free(ev1.counter_names[i]);
	free(ev1.counter_names);
	free(ev1.counter_values);
	profile_solution_release(&sol);
	profile_plan_release(&pl);
	for (i = 0; i < P.n_runs; i++)
		prun_release(&P.runs[i]);
	free(P.stat0);
	free(P.stat1);
	if (niced)
		setpriority(PRIO_PROCESS, 0, old_nice);
	return ret;
}
