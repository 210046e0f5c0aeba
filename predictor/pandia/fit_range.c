/*
 * fit_range.c - how far the parameters solved by fit.c move with
 * their runs' times (docs/profiling.md, "Uncertainty"): each run moved
 * alone by its noise (fit_uncertainty()), and every run on several
 * cores moved together by what slowed the workload beside work on
 * other cores that the model does not explain (fit_uncertainty_joint()).
 */
#include "predictor/pandia/fit.h"
#include <math.h>
#include <stdbool.h>
#include <string.h>

static void params_of(const struct fit_solution *s, double v[4])
{
	v[0] = s->p;
	v[1] = s->have_o_s ? s->o_s : NAN;
	v[2] = s->have_l ? s->l : NAN;
	v[3] = s->have_b ? s->b : NAN;
}

/* The run that solves p, o_s, l, b (sections 4.2 to 4.5). */
static const int param_run[4] = { PR2, PR3, PR5, PR6 };

/*
 * The parameters solved from times TT: each one's change from V0 (all,
 * or parameter ONLY when >= 0) raises WORST[k] to it.
 */
static void perturbed(const struct fit_plan *pl,
		      const struct model_params *base, const double *tt,
		      enum fit_mode mode, const double v0[4], int only,
		      double worst[4])
{
	struct fit_solution s1;
	double v1[4];
	int k;

	fit_solve(pl, base, tt, mode, &s1);
	params_of(&s1, v1);
	for (k = 0; k < 4; k++)
		if ((only < 0 || k == only) && isfinite(v0[k]) &&
		    isfinite(v1[k]) && fabs(v1[k] - v0[k]) > worst[k])
			worst[k] = fabs(v1[k] - v0[k]);
	fit_solution_release(&s1);
}

void fit_uncertainty(const struct fit_plan *pl,
			 const struct model_params *base, const double *t,
			 const double *delta, enum fit_mode mode,
			 double out[4])
{
	struct fit_solution s0;
	double v0[4], sum[4] = { 0, 0, 0, 0 };
	double tt[FIT_RUNS];
	bool any = false;
	int x, k, sgn;

	fit_solve(pl, base, t, mode, &s0);
	params_of(&s0, v0);
	for (x = 0; x < FIT_RUNS; x++) {
		double worst[4] = { 0, 0, 0, 0 };

		if (!pl->made[x] || !(delta[x] > 0))
			continue;
		any = true;
		for (sgn = -1; sgn <= 1; sgn += 2) {
			memcpy(tt, t, sizeof(tt));
			tt[x] += sgn * delta[x];
			if (tt[x] > 0)
				perturbed(pl, base, tt, mode, v0, -1, worst);
		}
		/* a parameter held at its bound by this run: the run moved
		   from the bound's time */
		for (k = 0; k < 4; k++) {
			if (x != param_run[k] || !(s0.bound_time[k] > 0))
				continue;
			for (sgn = -1; sgn <= 1; sgn += 2) {
				memcpy(tt, t, sizeof(tt));
				tt[x] = s0.bound_time[k] + sgn * delta[x];
				if (tt[x] > 0)
					perturbed(pl, base, tt, mode, v0, k,
						  worst);
			}
		}
		for (k = 0; k < 4; k++)
			sum[k] += worst[k] * worst[k];
	}
	for (k = 0; k < 4; k++)
		out[k] = any && isfinite(v0[k]) ? sqrt(sum[k]) : -1;
	fit_solution_release(&s0);
}

/* Whether run X of plan PL has threads on more than one core. */
static bool several_cores(const struct fit_plan *pl, int x)
{
	int i, c0;

	if (!pl->made[x] || pl->n_pus[x] < 2)
		return false;
	c0 = pl->m->pus[pl->pus[x][0]].core;
	for (i = 1; i < pl->n_pus[x]; i++)
		if (pl->m->pus[pl->pus[x][i]].core != c0)
			return true;
	return false;
}

void fit_uncertainty_joint(const struct fit_plan *pl,
			   const struct model_params *base, const double *t,
			   double rel, enum fit_mode mode, double out[4])
{
	struct fit_solution s0;
	double v0[4], tt[FIT_RUNS], worst[4] = { 0, 0, 0, 0 };
	bool any = false;
	int x, k, sgn;

	for (k = 0; k < 4; k++)
		out[k] = 0;
	for (x = PR2; x < FIT_RUNS; x++)
		any = any || (several_cores(pl, x) && t[x] > 0);
	if (!(rel > 0) || !any)
		return;
	fit_solve(pl, base, t, mode, &s0);
	params_of(&s0, v0);
	for (sgn = -1; sgn <= 1; sgn += 2) {
		memcpy(tt, t, sizeof(tt));
		for (x = PR2; x < FIT_RUNS; x++)
			if (several_cores(pl, x) && t[x] > 0)
				tt[x] = t[x] * exp(sgn * rel);
		perturbed(pl, base, tt, mode, v0, -1, worst);
	}
	for (k = 0; k < 4; k++)
		out[k] = isfinite(v0[k]) ? worst[k] : 0;
	fit_solution_release(&s0);
}
