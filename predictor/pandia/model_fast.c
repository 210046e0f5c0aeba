/*
 * model_fast.c - the group-structured form of the model, for ranking
 * when every socket is one core group: how it is built, and its step
 * (b) and bottleneck for model_solve().
 */
#include "predictor/pandia/model.h"

#include <string.h>

#include "predictor/pandia/model_internal.h"

/* Room for the per-group arrays of G groups. */
static void fast_room(struct model *md, int G)
{
	if (G + 1 > md->cap_fg) {
		md->cap_fg = 2 * G + 16;
		md->gU = xrealloc(md->gU, sizeof(double) * (size_t)md->cap_fg);
		md->gas = xrealloc(md->gas, sizeof(double) *
				   (size_t)md->cap_fg);
		md->gM = xrealloc(md->gM, sizeof(double) * (size_t)md->cap_fg);
		md->gkind = xrealloc(md->gkind, sizeof(int) *
				     (size_t)md->cap_fg);
		md->gMk = xrealloc(md->gMk, sizeof(int) * (size_t)md->cap_fg);
		md->gfrac = xrealloc(md->gfrac, sizeof(double) *
				     (size_t)md->cap_fg);
		md->pa = xrealloc(md->pa, sizeof(double) *
				  (size_t)md->cap_fg * (size_t)md->cap_fg);
		md->gsz = xrealloc(md->gsz, sizeof(double) *
				   (size_t)md->cap_fg);
	}
	if (G * G + 1 > md->cap_glinks) {
		md->cap_glinks = G * G + 16;
		md->glinks = xrealloc(md->glinks, sizeof(*md->glinks) *
				      (size_t)md->cap_glinks);
		md->glink0 = xrealloc(md->glink0, sizeof(int) *
				      (size_t)md->cap_glinks);
	}
}

/* The nodes' ratios: Z's (interleave, node:N) and, under spread, each
   group's share of every thread's pages. */
static void fast_node_ratios(struct model *md, bool dram, bool global)
{
	const struct space *sp = md->sp;
	const struct model_params *p = &md->prm;
	double node_cap = sp->m->links[LVL_DRAM].aggregate_bw;
	int gi;

	md->zbeta = global ? model_alpha(md, RK_NODE, p->d[WR_DRAM] /
					 (sp->mem.kind == MEM_NODE ? 1 :
					  sp->n_memnodes), node_cap) : 0;
	for (gi = 0; gi < md->n_groups; gi++) {
		double r = 0;

		md->gfrac[gi] = model_mem_share(sp, md->groups[gi].socket);
		md->gsz[gi] = 0;
		if (dram && model_spread_share(md, gi, &md->gfrac[gi], &r))
			md->gsz[gi] = model_alpha(md, RK_NODE, p->d[WR_DRAM] *
						  md->gfrac[gi], node_cap);
	}
}

/* The links: a_GH = what one thread of G sends to H over capacity,
   as a matrix (pa), then per group as a list of those that carry
   traffic (glinks from glink0). */
static void fast_links(struct model *md, bool dram)
{
	const struct space *sp = md->sp;
	const struct model_params *p = &md->prm;
	int G = md->n_groups, ns = sp->m->n_sockets, gi, gj, k;
	double n = md->n;

	for (gi = 0; gi < G; gi++)
		for (gj = 0; gj < G; gj++) {
			const struct mgroup *a = &md->groups[gi];
			const struct mgroup *b = &md->groups[gj];
			double bw, pt = 0;
			int sa = a->socks[0], sb;

			md->pa[gi * G + gj] = 0;
			if (gi == gj && a->mult < 2)
				continue;
			sb = gi == gj ? a->socks[1] : b->socks[0];
			bw = sp->pair_bw[sa * ns + sb];
			if (!(bw > 0))
				continue;
			if (dram)
				pt = p->d[WR_DRAM] * md->gfrac[gj];
			if (n > 1)
				pt += p->d[WR_INTERCONNECT] * b->tsock /
					(n - 1);
			if (!(pt > 0) || !(a->tsock > 0))
				continue;
			md->pa[gi * G + gj] =
				model_alpha(md, RK_PAIR, pt, bw) *
				(gi == gj ? 2 : 1);
		}

	k = 0;
	for (gi = 0; gi < G; gi++) {
		md->glink0[gi] = k;
		for (gj = 0; gj < G; gj++) {
			if (!(md->pa[gi * G + gj] > 0))
				continue;
			md->glinks[k].h = gj;
			md->glinks[k].out = md->pa[gi * G + gj];
			md->glinks[k].in = gi == gj ? 0 : md->pa[gj * G + gi];
			k++;
		}
	}
	md->glink0[G] = k;
}

/* Group GI's socket-level resources (shared L2, L3, its node): the
   largest ratio only, into gas and gkind. */
static void fast_socket_ratio(struct model *md, int gi, bool dram,
			      bool global)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	const struct core_group *cg =
		&sp->groups[sp->sock_group0[md->groups[gi].socket]];
	int lvl;

	md->gas[gi] = 0;
	md->gkind[gi] = -1;
	for (lvl = 1; lvl < 3; lvl++) {
		double a;

		if (!m->links[lvl].present || !(p->d[WR_L1 + lvl] > 0) ||
		    (cg->shared[lvl] < 0 &&
		     !(lvl == 2 && m->cores[cg->cores[0]].cache[2] < 0)))
			continue;
		a = model_alpha(md, lvl == 1 ? RK_L2_AGG : RK_L3_AGG,
				p->d[WR_L1 + lvl], m->links[lvl].aggregate_bw);
		if (a > md->gas[gi]) {
			md->gas[gi] = a;
			md->gkind[gi] = lvl == 1 ? RK_L2_AGG : RK_L3_AGG;
		}
	}
	if (dram && !global && sp->mem.kind != MEM_SPREAD) {
		double a = model_alpha(md, RK_NODE, p->d[WR_DRAM],
				       m->links[LVL_DRAM].aggregate_bw);

		if (a > md->gas[gi]) {
			md->gas[gi] = a;
			md->gkind[gi] = RK_NODE;
		}
	}
}

/* A thread's traffic off group GI's socket: to other sockets' nodes
   and to other threads. */
static double fast_remote_demand(struct model *md, int gi, bool dram)
{
	const struct model_params *p = &md->prm;
	const struct mgroup *g = &md->groups[gi];
	double n = md->n;
	double ic_pt = p->d[WR_INTERCONNECT] > 0 && n > 1 ?
		p->d[WR_INTERCONNECT] * (n - g->tsock) / (n - 1) : 0;
	double remote = model_remote_share(md->sp, g->socket);

	model_spread_share(md, gi, &md->gfrac[gi], &remote);
	if (remote < 1e-12)
		remote = 0;
	return (dram ? p->d[WR_DRAM] * remote : 0) + ic_pt;
}

/* A core's own resources in state CS: the largest ratio (its kind in
   *KIND, -1 if none). */
static double fast_core_ratio(const struct model *md,
			      const struct core_state *cs, bool dram,
			      double remote_pt, int *kind)
{
	const struct pandia_machine *m = md->sp->m;
	const struct model_params *p = &md->prm;
	double best = 0, a;
	int lvl;

	*kind = -1;
#define CAND(kind_, cap_, pt_) do {					\
	a = model_alpha(md, (kind_), (pt_), (cap_));			\
	if (a > best) {							\
		best = a;						\
		*kind = (kind_);					\
	}								\
} while (0)
	if (p->d[WR_INSTRUCTIONS] > 0 && m->peak_rate > 0)
		CAND(RK_INSTR, model_core_rate(m, cs->pus_used, cs->n_pus),
		     p->d[WR_INSTRUCTIONS]);
	for (lvl = 0; lvl < 3; lvl++)
		if (m->links[lvl].present)
			CAND(RK_L1 + lvl, m->links[lvl].per_core_bw,
			     p->d[WR_L1 + lvl]);
	if (dram)
		CAND(RK_DRAM_LINK, m->links[LVL_DRAM].per_core_bw,
		     p->d[WR_DRAM]);
	if (m->links[LVL_INTERCONNECT].present)
		CAND(RK_IC_LINK, m->links[LVL_INTERCONNECT].per_core_bw,
		     remote_pt);
#undef CAND
	return best;
}

/* The classes of ITEM of group GI on core CORE: one per distinct
   thread count on a PU, its own resources folded into pmax. */
static void fast_item_classes(struct model *md, int gi,
			      const struct sitem *item, int core,
			      double best, int bkind)
{
	const struct pandia_machine *m = md->sp->m;
	const struct model_params *p = &md->prm;
	const struct mgroup *g = &md->groups[gi];
	const struct core_state *cs = &item->cs;
	const struct pandia_core *co = &m->cores[core];
	double cinstr;
	int pos;

	cinstr = p->d[WR_INSTRUCTIONS] > 0 ? cs->threads *
		model_alpha(md, RK_INSTR, p->d[WR_INSTRUCTIONS],
			    model_core_rate(m, cs->pus_used, cs->n_pus)) : 0;
	for (pos = 0; pos < cs->n_pus && cs->cnt[pos]; ) {
		int kappa = cs->cnt[pos], npos = 0, q;
		double per_core;
		struct mclass *c;

		for (q = pos; q < cs->n_pus && cs->cnt[q] == kappa; q++)
			npos++;
		per_core = (double)kappa * npos;
		GROW(md->cls, md->cap_classes, md->n_classes + 1);
		c = &md->cls[md->n_classes++];
		memset(c, 0, sizeof(*c));
		c->ps = per_core * item->ncores;
		c->n = c->ps * g->mult;
		c->group = gi;
		c->socket = g->socket;
		c->core = core;
		c->pu = co->pus[item->pupos[pos]];
		c->kappa = kappa;
		c->corun = 1;
		c->smt = cs->pus_used >= 2;
		c->tsock = g->tsock;
		c->cinstr = cinstr;
		c->pmax = best * per_core;
		c->pkind = bkind;
		c->slow = 1;
		c->clock = 1;
		pos = q;
	}
}

/*
 * The group-structured form, for ranking when every socket is one core
 * group.  Then each socket-level resource (shared L2/L3, the local
 * node) is loaded by U_G = sum over the socket's classes of threads x
 * utilisation, times its demand over capacity; the nodes under
 * interleave or node:N all carry Z = sum of mult_G U_G x demand over
 * capacity; the link between two sockets carries U_G a_GH + U_H a_HG.
 * Only the largest socket-level ratio can be a class's maximum, and
 * resources that one class loads alone fold into its pmax, so the
 * solver needs per iteration only U, Z, the links and one maximum per
 * group: the same numbers as the general form, with far less work.
 */
void model_build_fast(struct model *md)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	int G = md->n_groups, gi, it;
	bool dram = m->links[LVL_DRAM].present && p->d[WR_DRAM] > 0;
	bool global = dram && (sp->mem.kind == MEM_NODE ||
			       (sp->mem.kind == MEM_INTERLEAVE &&
				sp->n_memnodes));

	model_compute_solo(md);
	md->n_classes = md->n_res = md->n_inc = md->n_sinc = 0;
	md->quota_res = -1;	/* the quota is fast_bottleneck()'s */
	model_count_threads(md);
	fast_room(md, G);
	fast_node_ratios(md, dram, global);
	fast_links(md, dram);
	for (gi = 0; gi < G; gi++) {
		const struct mgroup *g = &md->groups[gi];
		const struct core_group *cg =
			&sp->groups[sp->sock_group0[g->socket]];
		double remote_pt = fast_remote_demand(md, gi, dram);
		int used = 0;

		fast_socket_ratio(md, gi, dram, global);
		for (it = 0; it < g->n_items; it++) {
			const struct sitem *item = &g->items[it];
			int core = item->core >= 0 ? item->core :
				cg->cores[used];
			double best;
			int bkind;

			if (item->core < 0)
				used += item->ncores;
			best = fast_core_ratio(md, &item->cs, dram, remote_pt,
					       &bkind);
			fast_item_classes(md, gi, item, core, best, bkind);
		}
	}
	model_state_room(md, md->n_classes, md->n_groups);
}

/* Whether the group-structured form applies (see model_build_fast()). */
bool model_fast_ok(const struct model *md)
{
	int gi;

	if (!md->merge || md->trace || md->general)
		return false;
	/* kinds of core, pages across the interconnect that are no
	   socket's, local pages on a node of no socket (one node for
	   several sockets): the general form */
	if (md->sp->m->n_kinds || md->sp->m->all_busy_rate > 0 ||
	    md->sp->mem.kind == MEM_EVEN ||
	    md->sp->remote_local ||
	    model_nosocket_share(md->sp, true) > 0 || md->sp->local_nosocket)
		return false;
	for (gi = 0; gi < md->n_groups; gi++) {
		const struct mgroup *g = &md->groups[gi];
		int it;

		if (md->sp->sock_ngroups[g->socket] != 1)
			return false;
		/* a core with different counts on its PUs holds two
		   classes that share its resources: the general form */
		for (it = 0; it < g->n_items; it++) {
			const struct core_state *cs = &g->items[it].cs;

			if (cs->pus_used > 1 &&
			    cs->cnt[cs->pus_used - 1] != cs->cnt[0])
				return false;
		}
	}
	return true;
}
