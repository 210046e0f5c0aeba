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
	bool *done;
	int t, i;

	if (!(factor >= 1) || md->n_threads < 1 || md->fast)
		return -1;
	done = xcalloc((size_t)md->n_classes + 1, sizeof(bool));
	for (t = 0; t < md->n_threads; t++) {
		int c = md->thread_class[t];
		struct mclass *cl;

		if (!beside[t] || c < 0 || c >= md->n_classes || done[c])
			continue;
		done[c] = true;
		cl = &md->cls[c];
		for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++) {
			int r = md->inc[i].res, j;

			if (md->res[r].kind != RK_PU)
				continue;
			md->inc[i].coef *= factor;
			/*
			 * The solver reads a resource shared with other
			 * classes from sinc[], one the class loads alone
			 * through its pmax (model.c, build_finish()).
			 */
			for (j = cl->sinc0; j < cl->sinc0 + cl->nsinc; j++)
				if (md->sinc[j].res == r)
					break;
			if (j < cl->sinc0 + cl->nsinc)
				md->sinc[j].coef *= factor;
			else if (md->inc[i].coef > cl->pmax)
				cl->pmax = md->inc[i].coef;
		}
	}
	free(done);
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
