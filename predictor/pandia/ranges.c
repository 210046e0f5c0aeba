/*
 * ranges.c - the 90% ranges stated for the Pandia model's parameters
 * and, through t1, for every predicted time (docs/profiling.md,
 * "Uncertainty").
 *
 * A range says where another profile of the same program on the same
 * host would put the value, nine times in ten.  The repetitions alone
 * do not say it: two or three of them made seconds apart see little of
 * the noise, and their half range is often a tenth of the next
 * profile's difference.  So the runs' relative noise is pooled over
 * every run with repetitions (the log times about each run's mean, one
 * degree of freedom per repetition beyond the first), never below
 * TUNE_SIGMA_FLOOR, and a run of n repetitions moves by
 *
 *	t(0.95, dof) x sigma x sqrt(2 / n)	(tune_range_move())
 *
 * of its time: its median against another profile's, each of n
 * repetitions, with Student's factor for a noise estimated from dof
 * degrees of freedom.  The host's drift (run 1 made again at the end)
 * joins it in quadrature.  These moves replace the half ranges only in
 * what is stated; the fit weighs the runs by their half ranges.
 *
 * t1's range then takes what no run's repetitions show, and every
 * predicted time's range with it: the model's misfit, a clock in the
 * machine description that run 2 contradicts, and contention that run
 * 2's CPU time does not show (fit_cputime.c).  The misfit is a root
 * mean square, one standard deviation of the model's miss: a 90% range
 * is MISFIT_Z90 of them.  The other two are each one shift measured,
 * taken as they are.
 *
 * The parameters' ranges also take run 1's slowdown beside the probes
 * of a level whose demand is a bound and which they could not fill,
 * which nothing in the model explains: every run on several cores
 * moved by it together (pandia_interference_ranges()); the deepest
 * level's where two levels' probes were such.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "predictor/pandia/pandia_internal.h"
#include "predictor/pandia/params.h"
#include "predictor/tune.h"

/*
 * A normal deviate's 95th percentile: +- this many standard deviations
 * hold nine draws in ten.  Not Student's t on the misfit's degrees of
 * freedom: with one or two check runs that is 6.3 or 2.9, a range that
 * says nothing (docs/profiling.md, "The model's misfit").
 */
#define MISFIT_Z90 1.645

/*
 * The least interference (relative) worth a word in p's status: a
 * probe run of one repetition is as noisy as that on a quiet 2-vCPU
 * guest (docs/profiling.md, "A slowdown beside the probes").  Smaller
 * ones still widen the ranges: the noise errs wide.
 */
#define INTERFERENCE_SAY 0.03

/* Add run R's log times about their mean to *SS, its degrees to *DOF. */
static void pool(const struct wl_run *r, double *ss, int *dof)
{
	if (r)
		tune_pool_log(r->times, r->n_times, ss, dof);
}

void pandia_runs_ranges(struct pandia_runs *r)
{
	double ss = 0, drift = r->drift, t;
	int x, n, dof = 0;

	for (x = 0; x < FIT_RUNS; x++)
		pool(r->xr[x], &ss, &dof);
	for (x = 0; x < r->n_ex; x++)
		pool(r->ex_run[x], &ss, &dof);
	pool(r->drift_run, &ss, &dof);
	r->sigma = 0;
	r->sigma_dof = 0;
	if (dof == 0 && drift > 0) {
		/* single runs (--quick): the drift is the one difference
		   measured, of two runs */
		ss = drift * drift / 2;
		dof = 1;
		drift = 0;
	} else if (dof == 0) {
		for (x = 0; x < FIT_RUNS; x++)
			r->range[x] = 0;
		return;
	}
	r->sigma = tune_pooled_sigma(ss, dof);
	r->sigma_dof = dof;
	for (x = 0; x < FIT_RUNS; x++) {
		t = r->t[x];
		n = r->xr[x] ? r->xr[x]->n_times : 0;
		r->range[x] = r->xr[x] && t > 0 && n >= 1 ?
			hypot(tune_range_move(ss, dof, n) * t, drift * t) : 0;
	}
}

/* Whether SOURCE, run ids separated by commas, names run ID. */
static bool names_run(const char *source, const char *id)
{
	size_t n = strlen(id), len;

	for (; source; source += len + 1) {
		len = strcspn(source, ",");
		if (len == n && !strncmp(source, id, n))
			return true;
		if (!source[len])
			break;
	}
	return false;
}

/*
 * The slowdown of run 1 beside the probes of level LVL (its run
 * "probe-LVL": the workload's one thread beside probes on other cores)
 * over run 1's time T1, and that run, where demand D, only a bound,
 * came from it; 0 when not, and when the probes' rate alone nearly
 * saturated the level or is not known: beside a full level the
 * slowdown may be the level's arbitration (the heaviest streams served
 * first), which the workload's own threads need not meet, and says
 * nothing of the other runs.
 */
static double probe_slowdown(const struct pandia_workload *w,
			     const struct pandia_machine *m, int lvl,
			     const struct wl_param *d, double t1,
			     const struct wl_run **run)
{
	const struct wl_run *pr;
	double t, alone, c = m->links[lvl].aggregate_bw;
	char id[64];

	snprintf(id, sizeof(id), "probe-%s", level_name(lvl));
	if (!d->known || !wl_param_is_bound(d) || !names_run(d->source, id))
		return 0;
	pr = workload_run_named(w, id);
	if (!pr || pr->n_cpus != 1)
		return 0;
	alone = wl_run_counter(pr, "probe_alone_bytes_per_s");
	if (!(alone > 0) || !(c > 0) || alone >= PROBE_SATURATE * c)
		return 0;
	t = median_known(pr->times, pr->n_times);
	if (!(t > 0) || !(t1 > 0))
		return 0;
	*run = pr;
	return t / t1;
}

void pandia_runs_interference(struct pandia_runs *r,
			      const struct pandia_workload *w)
{
	const struct pandia_params *pp = pandia_params(w);
	double lo = 0, hi = 0;
	int lvl;

	r->interference_lo = r->interference_hi = 0;
	r->interference_run = r->interference_hi_run = NULL;
	/* the deepest level first: its probes are the one taken */
	for (lvl = LVL_DRAM; lvl >= LVL_L2; lvl--) {
		const struct wl_run *pr = NULL;
		double s = pp->listed[WR_L1 + lvl] ?
			probe_slowdown(w, r->pl.m, lvl, &pp->demand[WR_L1 + lvl],
				       r->t[PR1], &pr) : 0;

		if (!(s > 0))
			continue;
		if (!r->interference_run) {
			lo = s;
			r->interference_run = pr;
			r->interference_res = WR_L1 + lvl;
		} else if (s > hi) {
			hi = s;
			r->interference_hi_run = pr;
			r->interference_hi_res = WR_L1 + lvl;
		}
	}
	r->interference_lo = lo;
	r->interference_hi = hi;
}

/*
 * p's caveat where a level above the one taken slowed run 1 by 3% or
 * more and the one taken not (NULL: no such).
 */
static char *interference_disturbed(const struct pandia_runs *r)
{
	if (!r->interference_hi_run ||
	    r->interference_lo >= 1 + INTERFERENCE_SAY ||
	    !(r->interference_hi >= 1 + INTERFERENCE_SAY))
		return NULL;
	return xasprintf("run 1 ran %.3gx slower beside the %s probe(s) on "
			 "other cores (%s) but %.3gx beside the %s probe(s) "
			 "(%s), which also keep another core busy and stream "
			 "through the cache: taken for a disturbance of that "
			 "one run: the ranges take only the %s one",
			 r->interference_hi,
			 wl_resource_name(r->interference_hi_res),
			 r->interference_hi_run->id,
			 r->interference_lo,
			 wl_resource_name(r->interference_res),
			 r->interference_run->id,
			 wl_resource_name(r->interference_res));
}

char *pandia_interference_ranges(const struct pandia_runs *r,
				 enum fit_mode mode, double stated[4])
{
	const struct wl_run *hr = r->interference_hi_run;
	char both[192] = "", which[128], by[160] = "it";
	/* the runs move by its log, where it slowed run 1 */
	double j[4], move = r->interference_lo > 1 ?
		log(r->interference_lo) : 0;
	int k;

	fit_uncertainty_joint(&r->pl, &r->base, r->t, move, mode, j);
	for (k = 0; k < 4; k++)
		if (stated[k] >= 0 && j[k] > 0)
			stated[k] = hypot(stated[k], j[k]);
	if (!(r->interference_lo >= 1 + INTERFERENCE_SAY) || !(j[0] > 0) ||
	    !r->interference_run)
		return interference_disturbed(r);
	if (hr) {
		snprintf(both, sizeof(both), " and %.3gx beside the %s "
			 "probe(s) (%s)", r->interference_hi,
			 wl_resource_name(r->interference_hi_res), hr->id);
		snprintf(which, sizeof(which), "%s's and %s's demands are "
			 "only bounds, the probes cannot fill those levels",
			 wl_resource_name(r->interference_res),
			 wl_resource_name(r->interference_hi_res));
		snprintf(by, sizeof(by), "the %s one (those probes also keep "
			 "another core busy and stream through the cache)",
			 wl_resource_name(r->interference_res));
	} else {
		snprintf(which, sizeof(which), "%s's demand is only a "
			 "bound, the probes cannot fill that level",
			 wl_resource_name(r->interference_res));
	}
	return xasprintf("run 1 ran %.3gx slower beside the %s probe(s) on "
			 "other cores (%s)%s, and no demand explains it: %s. "
			 "Something the description does not show slows "
			 "this workload beside work on other cores (two "
			 "vCPUs on one physical core, a shared cache); the "
			 "runs on several cores may carry it or not, so p's "
			 "range takes them all moved by %s (+- %.2g of it)",
			 r->interference_lo,
			 wl_resource_name(r->interference_res),
			 r->interference_run->id, both, which, by, j[0]);
}

/* The clock's excess over what run 2 allows (0: none). */
static double clock_unseen(const struct fit_solution *s)
{
	return s && s->clock_run2 > 1 && s->clock_allowed > 0 ?
		s->clock_run2 / s->clock_allowed - 1 : 0;
}

double pandia_t1_range(const struct pandia_runs *r, double mf,
		       const struct fit_solution *s, double t1)
{
	double unseen = s && s->cpu_gap > 0 ? s->cpu_gap : 0;

	return hypot(r->range[PR1], hypot(MISFIT_Z90 * mf,
					  hypot(clock_unseen(s), unseen)) * t1);
}

void pandia_record_unseen(struct wl_run *r2, const struct fit_solution *s)
{
	if (clock_unseen(s) > 0)
		wl_run_add_counter(r2, UNSEEN_CLOCK, clock_unseen(s));
	if (s->cpu_gap > 0)
		wl_run_add_counter(r2, UNSEEN_CPU, s->cpu_gap);
}

void pandia_unseen_of(const struct wl_run *r2, struct fit_solution *s)
{
	double c = wl_run_counter(r2, UNSEEN_CLOCK);
	double g = wl_run_counter(r2, UNSEEN_CPU);

	if (c > 0) {
		s->clock_run2 = 1 + c;
		s->clock_allowed = 1;
	}
	if (g > 0)
		s->cpu_gap = g;
}
