/*
 * model.c - the iterative slowdown model of the Pandia paper, section 5,
 * computed per class of equivalent threads: the workspace, and the
 * placement (canonical or explicit) turned into socket groups.
 *
 * Building turns a placement into classes, resources and an incidence
 * list (which class loads which resource, by how much per unit of
 * utilisation): model_build.c, or model_fast.c for ranking; solving
 * iterates sections 5.1 to 5.4 on them: model_solve.c.  Every choice
 * the paper leaves open is explained in docs/model.md.
 */
#include "predictor/pandia/model.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "predictor/pandia/model_internal.h"
#include "predictor/pandia/params.h"

void model_params_of(const struct pandia_workload *w,
		     struct model_params *prm)
{
	const struct pandia_params *pp = pandia_params(w);
	int r;

	memset(prm, 0, sizeof(*prm));
	prm->t1 = wl_value(&pp->t1, 1);
	prm->p = wl_value(&pp->p, 1);
	prm->o_s = wl_value(&pp->o_s, 0);
	prm->l = wl_value(&pp->l, 0);
	prm->b = wl_value(&pp->b, 0);
	prm->os_fraction = pp->has_o_s_form &&
		pp->o_s_form == OS_PER_FRACTION;
	prm->b_core = pp->has_b_form && pp->b_form == B_CORE;
	prm->serial_first = serial_first(pp);
	/*
	 * A demand known only to be below some rate is no measurement:
	 * taking the bound would invent contention (a compute-bound
	 * workload would saturate DRAM), so it counts as unknown.
	 */
	for (r = 0; r < WR_COUNT; r++)
		prm->d[r] = pp->listed[r] &&
			!wl_param_is_bound(&pp->demand[r]) ?
			wl_value(&pp->demand[r], 0) : 0;
}

/* ---- workspace -------------------------------------------------- */

void model_init(struct model *md, const struct space *sp,
		const struct model_params *prm)
{
	memset(md, 0, sizeof(*md));
	md->sp = sp;
	md->prm = *prm;
	md->scratch = xcalloc(1, sizeof(*md->scratch));
	md->accelerate = true;
	md->tol = MODEL_TOL;
	md->quota = sp->m->limits.cpu_quota > 0 ?
		sp->m->limits.cpu_quota : 0;
	md->quota_res = -1;
}

static void free_state(struct model *md)
{
	free(md->f0);
	free(md->rawmax);
	free(md->bott);
	free(md->sres);
	free(md->comm);
	free(md->lb);
	free(md->sfin);
	free(md->ratio);
	free(md->f);
	free(md->isres);
	free(md->dprev);
	free(md->rprev);
}

void model_release(struct model *md)
{
	free(md->groups);
	free(md->cls);
	free(md->res);
	free(md->inc);
	free(md->incpt);
	free(md->sinc);
	free(md->owner);
	free(md->gU);
	free(md->gas);
	free(md->gM);
	free(md->gkind);
	free(md->gMk);
	free(md->gfrac);
	free(md->gsz);
	free(md->pa);
	free(md->glinks);
	free(md->glink0);
	free(md->thread_class);
	free(md->thread_pu);
	free(md->xitems);
	free(md->xsocks);
	free(md->gw);
	free(md->gmul);
	free(md->load);
	free(md->bgload);
	if (md->scratch) {
		free(md->scratch->memfrac);
		free(md->scratch->remote);
		free(md->scratch->snode);
		free(md->scratch->pair);
		free(md->scratch->node);
		free(md->scratch->offs);
		free(md->scratch->cres);
		free(md->scratch);
	}
	free_state(md);
	memset(md, 0, sizeof(*md));
}

void model_state_room(struct model *md, int n, int g)
{
	if (n > md->cap_state) {
		int cap = 2 * n + 16;

		free_state(md);
		md->cap_state = cap;
		md->f0 = xcalloc((size_t)cap, sizeof(double));
		md->rawmax = xcalloc((size_t)cap, sizeof(double));
		md->bott = xcalloc((size_t)cap, sizeof(int));
		md->sres = xcalloc((size_t)cap, sizeof(double));
		md->comm = xcalloc((size_t)cap, sizeof(double));
		md->lb = xcalloc((size_t)cap, sizeof(double));
		md->sfin = xcalloc((size_t)cap, sizeof(double));
		md->ratio = xcalloc((size_t)cap, sizeof(double));
		md->f = xcalloc((size_t)cap, sizeof(double));
		md->isres = xcalloc((size_t)cap, sizeof(double));
		md->dprev = xcalloc((size_t)cap, sizeof(double));
		md->rprev = xcalloc((size_t)cap, sizeof(double));
	}
	if (g + 1 > md->cap_gw) {
		md->cap_gw = 2 * g + 16;
		md->gw = xrealloc(md->gw, sizeof(double) * (size_t)md->cap_gw);
		md->gmul = xrealloc(md->gmul, sizeof(double) *
				    (size_t)md->cap_gw);
	}
}

void model_count_threads(struct model *md)
{
	double n = 0;
	int gi, it;

	for (gi = 0; gi < md->n_groups; gi++) {
		struct mgroup *g = &md->groups[gi];

		g->tsock = 0;
		for (it = 0; it < g->n_items; it++)
			g->tsock += g->items[it].ncores *
				g->items[it].cs.threads;
		n += g->tsock * g->mult;
	}
	md->n = n;
}

/* The problem of md->groups, in the form that applies. */
static void build(struct model *md)
{
	md->has_bg = false;
	md->fast = model_fast_ok(md);
	if (md->fast) {
		model_build_fast(md);
		return;
	}
	model_build_general(md);
}

void model_build_canonical(struct model *md, const uint16_t *st)
{
	const struct space *sp = md->sp;
	int s = 0;

	md->n_groups = 0;
	md->n_threads = 0;
	GROW(md->groups, md->cap_groups, sp->n_slots + 1);
	while (s < sp->n_slots) {
		const struct sclass *cl = &sp->classes[sp->slot_class[s]];
		const struct sstate *ss = &cl->states[st[s]];
		struct mgroup *g = &md->groups[md->n_groups++];
		int e = s + 1;

		while (e < cl->slot0 + cl->n_sockets && st[e] == st[s])
			e++;
		g->socks = &cl->sockets[s - cl->slot0];
		g->socket = g->socks[0];
		g->mult = e - s;
		g->n_items = ss->n_items;
		g->items = &cl->items[ss->item0];
		s = e;
	}
	build(md);
}

int model_build_pus(struct model *md, const int *pus, int n)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	int *cnt, *first, s, i, c, ni = 0;

	if (n < 1)
		return -1;
	cnt = xcalloc((size_t)m->n_pus, sizeof(int));
	first = xcalloc((size_t)m->n_cores, sizeof(int));
	for (i = 0; i < n; i++)
		cnt[pus[i]]++;
	md->xitems = xrealloc(md->xitems, sizeof(*md->xitems) *
			      (size_t)(m->n_cores + 1));
	md->xsocks = xrealloc(md->xsocks, sizeof(int) *
			      (size_t)(m->n_sockets + 1));
	GROW(md->groups, md->cap_groups, m->n_sockets + 1);
	md->n_groups = 0;
	for (s = 0; s < m->n_sockets; s++) {
		struct mgroup *g = &md->groups[md->n_groups++];
		int k;

		md->xsocks[s] = s;
		g->socks = &md->xsocks[s];
		g->socket = s;
		g->mult = 1;
		g->items = &md->xitems[ni];
		g->n_items = 0;
		for (k = 0; k < sp->sock_ngroups[s]; k++) {
			const struct core_group *cg =
				&sp->groups[sp->sock_group0[s] + k];

			for (i = 0; i < cg->n_cores; i++) {
				const struct pandia_core *co =
					&m->cores[cg->cores[i]];
				struct sitem *it = &md->xitems[ni];
				int v[SPACE_MAX_SMT], p;

				for (p = 0; p < co->n_pus && p < SPACE_MAX_SMT;
				     p++)
					v[p] = cnt[co->pus[p]];
				memset(it, 0, sizeof(*it));
				core_state_of(&it->cs, v, co->n_pus,
					      it->pupos);
				if (!it->cs.threads)
					continue;
				it->gpos = (unsigned short)k;
				it->ncores = 1;
				it->core = cg->cores[i];
				ni++;
				g->n_items++;
			}
		}
	}
	build(md);
	/* each thread's class: same core, same count on its PU */
	for (c = md->n_classes - 1; c >= 0; c--)
		first[md->cls[c].core] = c;
	if (n > md->cap_threads) {
		md->cap_threads = 2 * n + 16;
		md->thread_class = xrealloc(md->thread_class, sizeof(int) *
					    (size_t)md->cap_threads);
		md->thread_pu = xrealloc(md->thread_pu, sizeof(int) *
					 (size_t)md->cap_threads);
	}
	memcpy(md->thread_pu, pus, sizeof(int) * (size_t)n);
	md->n_threads = n;
	for (i = 0; i < n; i++) {
		int core = m->pus[pus[i]].core;

		for (c = first[core]; c < md->n_classes; c++)
			if (md->cls[c].core == core &&
			    md->cls[c].kappa == cnt[pus[i]])
				break;
		md->thread_class[i] = c;
	}
	free(cnt);
	free(first);
	return 0;
}

double model_time_canonical(struct model *md, const uint16_t *st)
{
	model_build_canonical(md, st);
	model_solve(md);
	return md->time;
}

double model_time_pus(struct model *md, const int *pus, int n)
{
	if (model_build_pus(md, pus, n) < 0)
		return -1;
	model_solve(md);
	return md->time;
}
