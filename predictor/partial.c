/*
 * partial.c - co-runners in the model, and summaries of a solved model
 * for the profiler (predictor/partial.h).
 */
#include "predictor/partial.h"

#include <math.h>
#include <stdlib.h>

#include "common/util.h"

int model_corun(struct model *md, const bool *beside, double factor)
{
	int t;

	if (!(factor >= 1) || md->n_threads < 1 || md->fast)
		return -1;
	/* pu_time() in model.c: the co-runner's share of the PU */
	for (t = 0; t < md->n_threads; t++) {
		int c = md->thread_class[t];

		if (beside[t] && c >= 0 && c < md->n_classes)
			md->cls[c].corun = factor;
	}
	return 0;
}

static double mean_of(const struct model *md, const double *v)
{
	double sum = 0, n = 0;
	int c;

	for (c = 0; c < md->n_classes; c++) {
		sum += md->cls[c].n * v[c];
		n += md->cls[c].n;
	}
	return n > 0 ? sum / n : NAN;
}

double model_mean_f0(const struct model *md)
{
	return mean_of(md, md->f0);
}

double model_mean_f(const struct model *md)
{
	return mean_of(md, md->f);
}

bool model_shares_core(const struct model *md)
{
	int c;

	for (c = 0; c < md->n_classes; c++)
		if (md->cls[c].smt || md->cls[c].kappa > 1)
			return true;
	return false;
}
