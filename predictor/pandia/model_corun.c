/*
 * model_corun.c - co-runs: other workloads' threads beside an explicit
 * placement load its resources and time-share its PUs; and for the
 * fit, a co-runner beside some threads and the summaries it reads of a
 * solved model (fit.h).
 */
#include "predictor/pandia/model.h"

#include <math.h>
#include <stdlib.h>

#include "predictor/pandia/fit.h"
#include "predictor/pandia/model_internal.h"

/* ---- co-runs ---------------------------------------------------- */

/* Whether thread T of another workload loads resource X, and by what. */
static double bg_demand(const struct model *md, const struct mres *x,
			const struct model_bg_thread *t)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	int core = m->pus[t->pu].core, lvl;
	const struct pandia_core *co = &m->cores[core];

	switch (x->kind) {
	case RK_INSTR:
		return x->a == core ? t->d[WR_INSTRUCTIONS] : 0;
	case RK_L1:
	case RK_L2:
	case RK_L3:
		return x->a == core ? t->d[WR_L1 + x->kind - RK_L1] : 0;
	case RK_DRAM_LINK:
		return x->a == core ? t->d[WR_DRAM] : 0;
	case RK_L2_AGG:
	case RK_L3_AGG:
		lvl = x->kind == RK_L2_AGG ? 1 : 2;
		if (x->a >= 0)
			return co->cache[lvl] == x->a ? t->d[WR_L1 + lvl] : 0;
		return co->socket == x->b ? t->d[WR_L1 + lvl] : 0;
	case RK_NODE:
		if (sp->mem.kind == MEM_NODE)
			return x->a == sp->mem_node ? t->d[WR_DRAM] : 0;
		if (sp->mem.kind == MEM_INTERLEAVE && sp->n_memnodes)
			return x->a >= 0 && sp->memnode[x->a] ?
				t->d[WR_DRAM] / sp->n_memnodes : 0;
		if (x->a >= 0)
			return co->numa == x->a ? t->d[WR_DRAM] : 0;
		return co->numa < 0 && co->socket == x->b ? t->d[WR_DRAM] : 0;
	default:
		return 0;	/* PU time: below; links: not counted */
	}
}

void model_background(struct model *md, const struct model_bg_thread *bg,
		      int nbg)
{
	const struct pandia_machine *m = md->sp->m;
	double *extra, *cnt;
	int r, i, t, c;

	if (md->fast || md->n_threads < 1)
		return;
	GROW(md->bgload, md->cap_bgload, md->n_res + 1);
	for (r = 0; r < md->n_res; r++) {
		const struct mres *x = &md->res[r];
		double sum = 0;

		for (i = 0; i < nbg; i++)
			sum += bg_demand(md, x, &bg[i]) * bg[i].f;
		md->bgload[r] = sum / x->cap_eff;
	}
	/* a PU shared with other workloads' threads: corun = 1 + their
	   utilisation there, averaged over the class's threads */
	extra = xcalloc((size_t)md->n_classes + 1, sizeof(double));
	cnt = xcalloc((size_t)md->n_classes + 1, sizeof(double));
	for (t = 0; t < md->n_threads; t++) {
		int pu = md->thread_pu[t], core = m->pus[pu].core;

		c = md->thread_class[t];
		cnt[c]++;
		for (i = 0; i < nbg; i++) {
			int bc = m->pus[bg[i].pu].core;

			if (bg[i].pu == pu)
				extra[c] += bg[i].f;
			else if (bc == core)
				md->cls[c].smt = true;
		}
	}
	for (c = 0; c < md->n_classes; c++)
		md->cls[c].corun = 1 + (cnt[c] > 0 ? extra[c] / cnt[c] : 0);
	free(extra);
	free(cnt);
	md->has_bg = true;
	model_partition(md);
}

/* ---- co-runners and summaries of a solved model ----------------- */

int model_corun(struct model *md, const bool *beside, double factor)
{
	int t;

	if (!(factor >= 1) || md->n_threads < 1 || md->fast)
		return -1;
	/* pu_time() in model_internal.h: the co-runner's share of the PU */
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
