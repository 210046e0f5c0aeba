/*
 * fit_saturation.c - the counter-free demands at shared levels (L3 and
 * DRAM) from the workload's own runs (docs/profiling.md, "The saturated
 * throughput").  The probes' estimate, what they left of the level
 * beside one thread, amplifies its inputs' noise by about C / d.  A run
 * of the workload's own threads on one instance of the level (every
 * core of run 1's node, which the check stage makes first) that the
 * level holds back gives the demand from its time through the model,
 * with an amplification near 1; one it does not hold back bounds the
 * demand, and an estimate above the bound is capped there.
 */
#include "predictor/pandia/pandia_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "predictor/pandia/params.h"

/* Above this amplification an estimate is poorly conditioned (as the
   probe backend's PROBE_AMP_HIGH, profiler/probe.h). */
#define SAT_AMP_HIGH 3.0
/* ... or where its stated 90% range is wider than this, relative: 3%
   noise amplified 2.99 times gives +-25%. */
#define SAT_REL_HIGH 0.10
/* What the status of a demand this file set says (it is not set twice). */
#define SAT_MARK "; the probes gave"
/* The least relative uncertainty of a described capacity. */
#define SAT_C_NOISE 0.03
/* The relative noise of one input when the repetitions show none. */
#define SAT_NOISE_FLOOR 0.01
/* A run is held back by the level when it took longer than the model
   without the demand by more than this many sigma of its noise. */
#define SAT_SIGMAS 2.0
/* The relative step of the numerical amplification. */
#define SAT_STEP 0.01

/* The levels checked, the shared ones the probes estimate: DRAM first
   (its instance, a node, holds L3's, a socket's cache, or is it). */
static const int sat_levels[] = { LVL_DRAM, LVL_L3 };
#define SAT_LEVELS ((int)(sizeof(sat_levels) / sizeof(sat_levels[0])))

/*
 * The instance of level LVL that PU index PU uses: its memory node (or
 * socket, without nodes) for DRAM, its L3 cache for L3; -1: none.
 */
static int group_of(const struct pandia_machine *m, int pu, int lvl)
{
	const struct pandia_core *c = &m->cores[m->pus[pu].core];

	if (lvl == LVL_L3)
		return c->cache[2];
	return c->numa >= 0 ? c->numa : 1000000 + c->socket;
}

/*
 * The demand of w on level LVL when it is a probe estimate that
 * amplifies noise more than SAT_AMP_HIGH, or states a range wider than
 * SAT_REL_HIGH (the wide run's estimates amplify less, and one
 * repetition of it in 3% noise is still poor), not yet replaced here;
 * else NULL.  Bounds are left alone: with the level's demand at 0 in the
 * model, any misfit of a run would be taken for it (on the simulated
 * X5-2, a workload wanting 1.5 GB/s a thread got 4).
 */
static struct wl_param *poor_estimate(const struct pandia_workload *w,
				      int lvl, double *amp)
{
	struct pandia_params *pp = pandia_params(w);
	struct wl_param *d = &pp->demand[WR_L1 + lvl];
	char probe[32];

	snprintf(probe, sizeof(probe), "probe-%s", level_name(lvl));
	*amp = pp->demand_amp[WR_L1 + lvl];
	if (!pp->listed[WR_L1 + lvl] || !d->known || wl_param_is_bound(d) ||
	    !d->source || !strstr(d->source, probe) ||
	    (d->status && strstr(d->status, SAT_MARK)) || !(d->value > 0) ||
	    !(*amp > SAT_AMP_HIGH || d->uncertainty > SAT_REL_HIGH * d->value))
		return NULL;
	return d;
}

/* The cores (their first PUs) of instance G of level LVL into PUS. */
static int group_cores(const struct pandia_machine *m, int lvl, int g,
		       int *pus)
{
	int c, n = 0;

	for (c = 0; c < m->n_cores; c++)
		if (m->cores[c].n_pus > 0 &&
		    group_of(m, m->cores[c].pus[0], lvl) == g)
			pus[n++] = m->cores[c].pus[0];
	return n;
}

/*
 * Whether N threads at demand D, up by twice its uncertainty (or by
 * its amplification times 2%, without one), would saturate level LVL:
 * only then can a run on every core show the level holding it back.
 */
static bool may_saturate(const struct pandia_machine *m, int lvl,
			 const struct wl_param *d, double amp, int n)
{
	double u = isfinite(d->uncertainty) && d->uncertainty > 0 ?
		d->uncertainty : d->value * amp * SAT_NOISE_FLOOR;

	return n * (d->value + 2 * u) >= m->links[lvl].aggregate_bw;
}

int pandia_saturation_placement(const struct model_env *env,
				const struct pandia_workload *w,
				const struct fit_plan *pl, int **pus)
{
	const struct pandia_machine *m = env->m;
	const struct wl_param *d;
	double amp;
	int n, k, lvl;

	*pus = NULL;
	if (!pl->made[PR1] || pl->n_pus[PR1] < 1)
		return 0;
	*pus = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	for (k = 0; k < SAT_LEVELS; k++) {
		lvl = sat_levels[k];
		if (!m->links[lvl].present ||
		    !(d = poor_estimate(w, lvl, &amp)))
			continue;
		n = group_cores(m, lvl, group_of(m, pl->pus[PR1][0], lvl),
				*pus);
		if (n >= 2 && may_saturate(m, lvl, d, amp, n))
			return n;
	}
	free(*pus);
	*pus = NULL;
	return 0;
}

/* One run on run 1's instance of the level. */
struct sat_run {
	const char *id;
	const int *pus;
	int n;
	double t, delta;
	double pin_noise;	/* its time's relative noise from p's pin */
};

/* Whether every thread of PUS uses instance G of level LVL. */
static bool on_group(const struct pandia_machine *m, const int *pus, int n,
		     int lvl, int g)
{
	int i;

	for (i = 0; i < n; i++)
		if (group_of(m, pus[i], lvl) != g)
			return false;
	return n > 1;
}

/*
 * The runs on run 1's instance of LVL: run 2 and the check runs (not
 * runs 4 and 5, whose co-runners are another program, nor run 6, whose
 * second thread on a PU b explains as well as the level).
 */
static int sat_runs(const struct pandia_machine *m,
		    const struct pandia_runs *r, int lvl, struct sat_run *out)
{
	const struct fit_plan *pl = &r->pl;
	int g = group_of(m, pl->pus[PR1][0], lvl), x, n = 0;

	if (pl->made[PR2] && r->t[PR2] > 0 &&
	    on_group(m, pl->pus[PR2], pl->n_pus[PR2], lvl, g))
		out[n++] = (struct sat_run){ "run2", pl->pus[PR2],
					     pl->n_pus[PR2], r->t[PR2],
					     r->delta[PR2], 0 };
	for (x = 0; x < r->n_ex; x++) {
		const struct fit_extra *e = &r->ex[x];

		if (!(e->t > 0) || !on_group(m, e->pus, e->n, lvl, g))
			continue;
		out[n++] = (struct sat_run){ r->ex_run[x]->id, e->pus, e->n,
					     e->t, e->delta, 0 };
	}
	return n;
}

/* The relative noise of time T with half range DELTA, at least 1%. */
static double noise_of(double t, double delta)
{
	double s = t > 0 && delta > 0 ? delta / t : 0;

	return s > SAT_NOISE_FLOOR ? s : SAT_NOISE_FLOOR;
}

/*
 * The relative uncertainty of the level's described capacity: the
 * spread its measurement recorded, at least SAT_C_NOISE (a description
 * measured on another day; as the probes take it, profiler/probe.h's
 * PROBE_C_NOISE).
 */
static double capacity_noise(const struct pandia_link *lk)
{
	double s = machine_link_spread(lk);

	return s > SAT_C_NOISE ? s : SAT_C_NOISE;
}

/* The model as fitted, one demand (RES) free. */
struct sat_model {
	const struct fit_plan *pl;
	struct model_params prm;
	int res;
	const struct sat_run *pin;	/* the run p was taken from, or
					   NULL: p as fitted */
	double p_fit;			/* p as fitted */
};

/* The model's time of run S with the demand at D and t1 at T1. */
static double time_at(const struct sat_model *c, const struct sat_run *s,
		      double d, double t1)
{
	struct model_params prm = c->prm;

	prm.d[c->res] = d;
	prm.t1 = t1;
	return fit_time_pus(c->pl->sp, &prm, s->pus, s->n);
}

/*
 * The demand at which the model gives run S the time T (t1 at T1), by
 * bisection (the time never falls as a demand grows); NAN when the
 * model takes T or longer without it, or no demand reaches T.
 */
static double solve_demand(const struct sat_model *c, const struct sat_run *s,
			   double t, double t1, double hi)
{
	double lo = 0, mid, t0 = time_at(c, s, 0, t1);
	int i;

	if (!(t0 > 0) || !(t > t0) || !(hi > 0))
		return NAN;
	for (i = 0; i < 60 && time_at(c, s, hi, t1) < t; i++)
		hi *= 2;
	if (i == 60)
		return NAN;
	for (i = 0; i < 80 && hi - lo > 1e-9 * hi; i++) {
		mid = 0.5 * (lo + hi);
		if (time_at(c, s, mid, t1) < t)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/*
 * The amplification of D = solve_demand(T, T1): the largest relative
 * change of D over a relative change of one input, T and t1 each moved
 * by SAT_STEP.  The capacity's is 1: the model's time depends on a
 * level's demand over its capacity.
 */
static double amplification(const struct sat_model *c, const struct sat_run *s,
			    double t, double t1, double d)
{
	double a = 1, v, k;
	int i;

	for (i = 0; i < 2; i++) {
		v = i ? solve_demand(c, s, t, t1 * (1 + SAT_STEP), d) :
			solve_demand(c, s, t * (1 + SAT_STEP), t1, d);
		if (!(v > 0))
			return INFINITY;
		k = fabs(log(v / d)) / log(1 + SAT_STEP);
		a = k > a ? k : a;
	}
	return a;
}

/*
 * p at which the model, the demand at 0, gives run S the time T (t1 at
 * T1), by bisection in [0, 1] (the time falls as p grows).
 */
static double solve_p_at(const struct sat_model *c, const struct sat_run *s,
			 double t, double t1)
{
	struct sat_model q = *c;
	double lo = 0, hi = 1;
	int i;

	for (i = 0; i < 60; i++) {
		q.prm.p = 0.5 * (lo + hi);
		if (time_at(&q, s, 0, t1) > t)
			lo = q.prm.p;
		else
			hi = q.prm.p;
	}
	return 0.5 * (lo + hi);
}

/*
 * p from the run with the fewest threads, where the others have more:
 * p fitted from every run takes what the level held back in the
 * largest (run 2 with every core of the node absorbs it all), so a run
 * with fewer threads, which the level holds back less, pins it where
 * it gives a higher p; each larger run's pin_noise is then how much
 * its predicted time moves when the pinning run's time moves by its
 * noise (N1: run 1's).
 */
static void pin_p(struct sat_model *c, struct sat_run *runs, int n,
		  double t1, double n1)
{
	const struct sat_run *s = NULL;
	struct sat_model q;
	double p, pn, t0;
	int i, most = 0;

	for (i = 0; i < n; i++) {
		most = runs[i].n > most ? runs[i].n : most;
		if (!s || runs[i].n < s->n)
			s = &runs[i];
	}
	if (!s || s->n >= most)
		return;
	p = solve_p_at(c, s, s->t, t1);
	/* only a higher p is what the larger run absorbed: a lower one
	   is the level holding the smaller run back too */
	if (!(p > c->prm.p + 1e-9))
		return;
	pn = solve_p_at(c, s, s->t * (1 + hypot(noise_of(s->t, s->delta),
						n1)), t1);
	c->prm.p = p;
	c->pin = s;
	q = *c;
	q.prm.p = pn;
	for (i = 0; i < n; i++) {
		if (runs[i].n <= s->n)
			continue;
		t0 = time_at(c, &runs[i], 0, t1);
		runs[i].pin_noise = fabs(log(time_at(&q, &runs[i], 0, t1) /
					     t0));
	}
}

/* What the runs on the level say of its demand. */
struct sat_found {
	const struct sat_run *run;	/* held back: the demand from it */
	double d, amp, rel;
	const struct sat_run *brun;	/* not held back: the bound */
	double bound;
};

/*
 * Each run on the instance: held back by the level (longer than the
 * model without the demand by more than SAT_SIGMAS of its and run 1's
 * noise), the demand that gives its time, the least amplified of them;
 * else the most demand its time allows within that noise, the least
 * of them.  REL_C: the capacity's relative uncertainty.
 */
static void sat_find(const struct sat_model *c, const struct sat_run *runs,
		     int n, double t1, double n1, double rel_c,
		     struct sat_found *f)
{
	double C = c->pl->m->links[c->res - WR_L1].aggregate_bw, nt, m, d,
	       a, t0, b;
	int i;

	memset(f, 0, sizeof(*f));
	f->bound = INFINITY;
	for (i = 0; i < n; i++) {
		const struct sat_run *s = &runs[i];
		double hi = C * s->t / t1;

		nt = hypot(noise_of(s->t, s->delta), s->pin_noise);
		m = SAT_SIGMAS * hypot(nt, n1);
		t0 = time_at(c, s, 0, t1);
		if (!(t0 > 0))
			continue;
		if (s->t > t0 * (1 + m)) {
			d = solve_demand(c, s, s->t, t1, hi);
			a = d > 0 ? amplification(c, s, s->t, t1, d) : INFINITY;
			if (isfinite(a) && (!f->run || a < f->amp)) {
				f->run = s;
				f->d = d;
				f->amp = a;
				f->rel = a * sqrt(nt * nt + n1 * n1 +
						  rel_c * rel_c);
			}
			continue;
		}
		b = solve_demand(c, s, s->t * (1 + m), t1, hi * (1 + m));
		if (b > 0 && b < f->bound) {
			f->bound = b;
			f->brun = s;
		}
	}
}

/* Where a run of the instance (LVL) is: "run 1's node", "run 1's L3". */
static const char *where(int lvl)
{
	return lvl == LVL_L3 ? "run 1's L3" : "run 1's node";
}

/* The level's name in a status: "DRAM", "L3". */
static const char *label(int lvl)
{
	return lvl == LVL_L3 ? "L3" : "DRAM";
}

/* D's status replaced by ST (taken), RUN added to its source. */
static void restate(struct wl_param *d, char *st, const struct sat_run *run)
{
	char *src = strstr(d->source, run->id) ? xstrdup(d->source) :
		xasprintf("%s,%s", d->source, run->id);

	free(d->source);
	d->source = src;
	free(d->status);
	d->status = st;
}

/* The demand replaced by F's: its value, range and status. */
static void from_run(struct pandia_params *pp, int lvl,
		     const struct sat_model *c, const struct sat_found *f,
		     double amp_p)
{
	struct wl_param *d = &pp->demand[WR_L1 + lvl];
	char pin[96] = "";

	if (c->pin)
		snprintf(pin, sizeof(pin), " with p %.4g from %s (%d threads)",
			 c->prm.p, c->pin->id, c->pin->n);
	restate(d, xasprintf("estimate from %s's time, which %s holds back: "
			     "%d threads on %s took %.4g s, %.3g GB/s a "
			     "thread in the model%s, amplification %.2g"
			     SAT_MARK " %.3g GB/s (amplification %.3g)",
			     f->run->id, label(lvl), f->run->n, where(lvl),
			     f->run->t, f->d / 1e9, pin, f->amp,
			     d->value / 1e9, amp_p), f->run);
	d->value = f->d;
	d->uncertainty = f->d * f->rel;
	pp->demand_amp[WR_L1 + lvl] = f->amp;
}

/*
 * The demand capped at F's bound: its range not narrowed below the
 * probes' (the bound says where the demand is not, not how well it is
 * known below it).
 */
static void capped(struct pandia_params *pp, int lvl,
		   const struct sat_found *f, double amp_p)
{
	struct wl_param *d = &pp->demand[WR_L1 + lvl];

	restate(d, xasprintf("estimate: the most %s allows, %.3g GB/s (%d "
			     "threads on %s took %.4g s, which %s did not "
			     "hold back)" SAT_MARK " more, %.3g GB/s "
			     "(amplification %.3g): capped there",
			     f->brun->id, f->bound / 1e9, f->brun->n,
			     where(lvl), f->brun->t, label(lvl),
			     d->value / 1e9, amp_p), f->brun);
	if (!(d->uncertainty > 0) || !isfinite(d->uncertainty))
		d->uncertainty = f->bound * amp_p * SAT_NOISE_FLOOR;
	d->value = f->bound;
	pp->demand_amp[WR_L1 + lvl] = 1;
}

/*
 * An estimate the runs allow: said, once.  Its range kept to what they
 * allow: a poorly conditioned estimate's can reach a hundred times past
 * the bound (the probes say nothing), and every prediction's range
 * with it.  Up to the bound, or, for an estimate above half of it,
 * from 0 to twice the estimate (the range is symmetric): no narrower
 * below the estimate than the runs show.
 */
static void allowed(struct wl_param *d, int lvl, const struct sat_found *f)
{
	double most = fmax(f->bound - d->value, d->value);
	char cut[80] = "";
	char *st;

	if (!f->brun)
		return;
	/* past MOST, the range reaches past the bound too */
	if (f->bound > 0 && most < d->uncertainty) {
		d->uncertainty = most;
		snprintf(cut, sizeof(cut), "; its range cut to what the runs "
			 "allow, +-%.3g GB/s", d->uncertainty / 1e9);
	}
	if (strstr(d->status ? d->status : "", "; checked"))
		return;
	st = xasprintf("%s; checked against the runs: %s (%d threads on %s, "
		       "which %s did not hold back) allows up to %.3g GB/s: "
		       "consistent with it%s", d->status ? d->status :
		       "estimate", f->brun->id, f->brun->n, where(lvl),
		       label(lvl), f->bound / 1e9, cut);
	free(d->status);
	d->status = st;
}

/*
 * The model as fitted (SOL), on R's plan, with R's demands, a bound
 * counting 0 as in the model's predictions (model_params_of()).
 */
static void model_of(const struct pandia_workload *w,
		     const struct pandia_runs *r,
		     const struct fit_solution *sol, struct sat_model *c)
{
	int k;

	c->pl = &r->pl;
	fit_params_of(sol, &r->base, r->t[PR1], &c->prm);
	for (k = WR_L1; k <= WR_INTERCONNECT; k++)
		if (wl_param_is_bound(&pandia_params(w)->demand[k]))
			c->prm.d[k] = 0;
	c->p_fit = sol->p;
	c->pin = NULL;
	c->res = -1;
}

/*
 * Level LVL's demand against the runs (C: the model, the demands so
 * far); true when it was replaced, and C then has the new one.
 */
static bool saturation_at(const struct pandia_machine *m,
			  struct pandia_workload *w,
			  const struct pandia_runs *r, struct sat_model *c,
			  int lvl)
{
	struct sat_run runs[FIT_RUNS + PANDIA_CHECKS];
	struct pandia_params *pp = pandia_params(w);
	double amp_p, t1 = r->t[PR1], n1 = noise_of(t1, r->delta[PR1]);
	struct wl_param *d = poor_estimate(w, lvl, &amp_p);
	struct sat_found f;
	int n;

	if (!d || !m->links[lvl].present || !(t1 > 0))
		return false;
	n = sat_runs(m, r, lvl, runs);
	if (!n)
		return false;
	c->res = WR_L1 + lvl;
	c->prm.p = c->p_fit;
	c->pin = NULL;
	pin_p(c, runs, n, t1, n1);
	sat_find(c, runs, n, t1, n1, capacity_noise(&m->links[lvl]), &f);
	if (f.run && f.amp < amp_p)
		from_run(pp, lvl, c, &f, amp_p);
	else if (f.brun && d->value > f.bound)
		capped(pp, lvl, &f, amp_p);
	else {
		allowed(d, lvl, &f);
		return false;
	}
	c->prm.d[WR_L1 + lvl] = d->value;
	return true;
}

/*
 * The load the demand of level LVL puts on it in the run with the most
 * threads on run 1's instance, over its capacity (0: none): the level
 * nearest saturation is the one that holds such a run back.
 */
static double load_of(const struct pandia_machine *m,
		      const struct pandia_workload *w,
		      const struct pandia_runs *r, int lvl)
{
	struct sat_run runs[FIT_RUNS + PANDIA_CHECKS];
	const struct wl_param *d = &pandia_params(w)->demand[WR_L1 + lvl];
	double C = m->links[lvl].aggregate_bw;
	int i, n, most = 0;

	if (!m->links[lvl].present || !(C > 0) || !d->known ||
	    !(d->value > 0))
		return 0;
	n = sat_runs(m, r, lvl, runs);
	for (i = 0; i < n; i++)
		most = runs[i].n > most ? runs[i].n : most;
	return most * d->value / C;
}

bool pandia_saturation(const struct model_env *env, struct pandia_workload *w,
		       const struct pandia_runs *r,
		       const struct fit_solution *sol)
{
	struct sat_model c;
	bool moved = false, swap;
	int k;

	if (!r->pl.made[PR1] || r->pl.n_pus[PR1] < 1 || !(r->t[PR1] > 0))
		return false;
	model_of(w, r, sol, &c);
	/* the level nearer saturation first: a run it holds back is not
	   then taken as held back by the other */
	swap = load_of(env->m, w, r, sat_levels[1]) >
		load_of(env->m, w, r, sat_levels[0]);
	for (k = 0; k < SAT_LEVELS; k++)
		moved |= saturation_at(env->m, w, r, &c,
				       sat_levels[swap ? SAT_LEVELS - 1 - k : k]);
	return moved;
}

/* What the status of a demand pandia_demands_harmless() saw says. */
#define HARMLESS_MARK "; no placement on this machine depends on it"

void pandia_demands_harmless(const struct pandia_machine *m,
			     struct pandia_workload *w)
{
	struct pandia_params *pp = pandia_params(w);
	int k, lvl, n;

	for (k = 0; k < SAT_LEVELS; k++) {
		struct wl_param *d;
		double amp, top;
		char *st;

		lvl = sat_levels[k];
		d = &pp->demand[WR_L1 + lvl];
		amp = pp->demand_amp[WR_L1 + lvl];
		if (!pp->listed[WR_L1 + lvl] || !d->known ||
		    wl_param_is_bound(d) || !(amp > SAT_AMP_HIGH) ||
		    (d->status && strstr(d->status, HARMLESS_MARK)))
			continue;
		top = d->value + (d->uncertainty > 0 &&
				  isfinite(d->uncertainty) ?
				  d->uncertainty : 0);
		n = machine_level_pus(m, lvl);
		if (machine_level_fills(m, lvl, top))
			continue;
		st = xasprintf("%s" HARMLESS_MARK ": %d threads at %.3g GB/s "
			       "(its value and range), one on each PU that "
			       "can reach one %s, would take %.3g of the %.3g "
			       "GB/s it sustains", d->status ? d->status :
			       "estimate", n, top / 1e9,
			       lvl == LVL_L3 ? "L3" : "node's DRAM",
			       n * top / 1e9,
			       m->links[lvl].aggregate_bw / 1e9);
		free(d->status);
		d->status = st;
	}
}
