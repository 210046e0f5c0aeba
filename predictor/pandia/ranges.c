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
 * RANGE_SIGMA_FLOOR, and a run of n repetitions moves by
 *
 *	t(0.95, dof) x sigma x sqrt(2 / n)
 *
 * of its time: its median against another profile's, each of n
 * repetitions, with Student's factor for a noise estimated from dof
 * degrees of freedom.  The host's drift (run 1 made again at the end)
 * joins it in quadrature.  These moves replace the half ranges only in
 * what is stated; the fit weighs the runs by their half ranges.
 */
#include <math.h>
#include <stddef.h>

#include "predictor/pandia/pandia_internal.h"
#include "predictor/tune.h"

/*
 * The least relative noise a range assumes: profiles made minutes
 * apart on the hosts pandia was measured on (docs/profiling.md) never
 * agreed better than this, whatever their repetitions said.
 */
#define RANGE_SIGMA_FLOOR 0.005

/* Add run R's log times about their mean to *SS, its degrees to *DOF. */
static void pool(const struct wl_run *r, double *ss, int *dof)
{
	double mean = 0, d;
	int i;

	if (!r || r->n_times < 2)
		return;
	for (i = 0; i < r->n_times; i++) {
		if (!(r->times[i] > 0))
			return;
		mean += log(r->times[i]);
	}
	mean /= r->n_times;
	for (i = 0; i < r->n_times; i++) {
		d = log(r->times[i]) - mean;
		*ss += d * d;
	}
	*dof += r->n_times - 1;
}

/* The move of a run of N repetitions and median T. */
static double move(double t, int n, double k, double drift)
{
	if (!(t > 0) || n < 1)
		return 0;
	return hypot(k * sqrt(2.0 / n) * t, drift * t);
}

void pandia_runs_ranges(struct pandia_runs *r)
{
	double ss = 0, sigma, k, drift = r->drift;
	int x, dof = 0;

	for (x = 0; x < FIT_RUNS; x++)
		pool(r->xr[x], &ss, &dof);
	for (x = 0; x < r->n_ex; x++)
		pool(r->ex_run[x], &ss, &dof);
	pool(r->drift_run, &ss, &dof);
	r->sigma = 0;
	r->sigma_dof = 0;
	if (dof > 0) {
		sigma = sqrt(ss / dof);
	} else if (drift > 0) {
		/* single runs (--quick): the drift is the one difference
		   measured, of two runs */
		sigma = drift / sqrt(2.0);
		dof = 1;
		drift = 0;
	} else {
		for (x = 0; x < FIT_RUNS; x++)
			r->range[x] = 0;
		return;
	}
	if (sigma < RANGE_SIGMA_FLOOR)
		sigma = RANGE_SIGMA_FLOOR;
	r->sigma = sigma;
	r->sigma_dof = dof;
	k = tune_t_quantile(0.95, dof) * sigma;
	for (x = 0; x < FIT_RUNS; x++)
		r->range[x] = r->xr[x] ? move(r->t[x], r->xr[x]->n_times, k,
					      drift) : 0;
}
