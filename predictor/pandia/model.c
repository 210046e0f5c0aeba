/*
 * model.c - the iterative slowdown model of the Pandia paper, section 5,
 * computed per class of equivalent threads.
 *
 * Building turns a placement into classes, resources and an incidence
 * list (which class loads which resource, by how much per unit of
 * utilisation); solving iterates sections 5.1 to 5.4 on them.  Every
 * choice the paper leaves open is explained in docs/model.md.
 */
#include "predictor/pandia/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"

static const char *const kind_names[RK_COUNT] = {
	"instructions", "PU time", "L1 link", "L2 link", "L3 link",
	"L2 aggregate", "L3 aggregate", "DRAM link", "DRAM",
	"interconnect link",
	"interconnect",
};

const char *res_kind_name(int kind)
{
	return kind >= 0 && kind < RK_COUNT ? kind_names[kind] : "?";
}

void model_params_of(const struct pandia_workload *w,
		     struct model_params *prm)
{
	int r;

	memset(prm, 0, sizeof(*prm));
	prm->t1 = wl_value(&w->t1, 1);
	prm->p = wl_value(&w->p, 1);
	prm->o_s = wl_value(&w->o_s, 0);
	prm->l = wl_value(&w->l, 0);
	prm->b = wl_value(&w->b, 0);
	prm->os_fraction = w->has_o_s_form && w->o_s_form == OS_PER_FRACTION;
	prm->b_core = w->has_b_form && w->b_form == B_CORE;
	/*
	 * A demand known only to be below some rate is no measurement:
	 * taking the bound would invent contention (a compute-bound
	 * workload would saturate DRAM), so it counts as unknown.
	 */
	for (r = 0; r < WR_COUNT; r++)
		prm->d[r] = w->listed[r] && !wl_param_is_bound(&w->demand[r]) ?
			wl_value(&w->demand[r], 0) : 0;
}

/* ---- workspace -------------------------------------------------- */

/* Scratch for building, kept in the model between builds. */
struct model_scratch {
	double *memfrac;	/* per group: share of DRAM traffic that
				   goes to the nodes of one of its sockets */
	double *remote;		/* per group: share leaving a socket */
	int *pair;		/* groups^2: link resource, or -1 */
	int *node;		/* (groups + 1) * n_numa + groups: node
				   resources, then virtual ones */
	int *offs;		/* per group position: cores consumed */
	int *cres;		/* shared caches seen: count, (key, res)... */
	int node0, node1;	/* interleave, node:N: the node resources */
	int *snode;		/* spread: per group, its node resource */
	int cap_g, cap_pair, cap_node, cap_offs, cap_cres;
};


#define GROW(ptr, cap, need) do {					\
	if ((need) > (cap)) {						\
		(cap) = 2 * (need) + 16;				\
		(ptr) = xrealloc((ptr), sizeof(*(ptr)) * (size_t)(cap)); \
	}								\
} while (0)

void model_init(struct model *md, const struct space *sp,
		const struct model_params *prm)
{
	memset(md, 0, sizeof(*md));
	md->sp = sp;
	md->prm = *prm;
	md->scratch = xcalloc(1, sizeof(*md->scratch));
	md->accelerate = true;
	md->tol = MODEL_TOL;
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

/* Make room for the per-class state of n classes and g groups. */
static void state_room(struct model *md, int n, int g)
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

/* ---- building --------------------------------------------------- */

static int add_res(struct model *md, int kind, int a, int b, double cap)
{
	struct mres *r;

	GROW(md->res, md->cap_res, md->n_res + 1);
	r = &md->res[md->n_res];
	r->kind = kind;
	r->a = a;
	r->b = b;
	r->cap = cap;
	/* one thread alone reached its demand: never less capacity */
	r->cap_eff = cap > md->solo[kind] ? cap : md->solo[kind];
	return md->n_res++;
}

/* The last class loads resource r with THREADS threads of demand PT
   (build_prepare() made room). */
static inline void add_inc(struct model *md, int r, double threads,
			   double pt)
{
	struct minc *x;

	if (r < 0 || !(pt > 0) || !(threads > 0))
		return;
	x = &md->inc[md->n_inc];
	x->res = r;
	x->coef = threads * pt;
	md->incpt[md->n_inc] = pt;
	md->n_inc++;
	md->cls[md->n_classes - 1].ninc++;
}

static double core_rate(const struct pandia_machine *m, int pus_used,
			int n_pus)
{
	if (pus_used <= 1 || !m->smt_applicable || n_pus < 2)
		return m->peak_rate;
	/* between one thread alone and all PUs busy, linearly */
	return m->peak_rate + (m->smt_rate - m->peak_rate) *
		(pus_used - 1) / (n_pus - 1);
}

/* Socket s's share of every thread's DRAM traffic under the policy. */
static double mem_share(const struct space *sp, int s)
{
	const struct pandia_machine *m = sp->m;

	switch (sp->mem.kind) {
	case MEM_INTERLEAVE:
		return sp->n_memnodes ?
			(double)sp->sock_memnodes[s] / sp->n_memnodes : 0;
	case MEM_NODE:
		return m->numa[sp->mem_node].socket == s ? 1 : 0;
	default:
		return 0;
	}
}

/*
 * The share of every thread's DRAM traffic that goes to nodes on no
 * socket: those of some cores' own (a node over several sockets, whose
 * cores reach it without a link) when OFF is false, the memory-only
 * ones (reached over the interconnect from every socket) when true.
 */
static double nosocket_share(const struct space *sp, bool off)
{
	const struct pandia_machine *m = sp->m;
	int i, n = 0;

	switch (sp->mem.kind) {
	case MEM_INTERLEAVE:
		for (i = 0; i < m->n_numa; i++)
			n += sp->memnode[i] && m->numa[i].socket < 0 &&
				sp->offnode[i] == off;
		return sp->n_memnodes ? (double)n / sp->n_memnodes : 0;
	case MEM_NODE:
		return m->numa[sp->mem_node].socket < 0 &&
			sp->offnode[sp->mem_node] == off ? 1 : 0;
	default:
		return 0;
	}
}

static double global_share(const struct space *sp)
{
	return nosocket_share(sp, false);
}

/* The socket whose node holds the local pages of core group CG of
   socket S when that is another socket (its own node excluded by the
   cpuset), else -1. */
static int away_socket(const struct space *sp, const struct core_group *cg,
		       int s)
{
	const struct pandia_machine *m = sp->m;
	int x;

	if (!sp->remote_local || cg->numa < 0 ||
	    !(sp->mem.kind == MEM_LOCAL ||
	      (sp->mem.kind == MEM_INTERLEAVE && !sp->n_memnodes)))
		return -1;
	x = m->numa[cg->numa].socket;
	return x >= 0 && x != s ? x : -1;
}

/* The group of socket X (a socket whose node other sockets use is in a
   class of its own, so its group is X alone), or -1. */
static int group_of_socket(const struct model *md, int x)
{
	int gi;

	for (gi = 0; gi < md->n_groups; gi++)
		if (md->groups[gi].socket == x)
			return gi;
	return -1;
}

/* The share of a thread's DRAM traffic that leaves socket s. */
static double remote_share(const struct space *sp, int s)
{
	double r;

	if (sp->mem.kind == MEM_LOCAL || sp->mem.kind == MEM_SPREAD ||
	    (sp->mem.kind == MEM_INTERLEAVE && !sp->n_memnodes))
		return 0;
	r = 1 - mem_share(sp, s) - global_share(sp);
	return r < 1e-12 ? 0 : r;
}

/*
 * MEM_SPREAD (first touch by the threads): the pages are on the
 * sockets in use in proportion to their threads, so a thread of group
 * GI sends tsock / n of its DRAM traffic to each socket of a group
 * with tsock threads (*share, for one socket of group GI) and the
 * rest away from its own (*remote).  False, nothing changed, for the
 * other policies.  One thread alone keeps all its pages local, as
 * under MEM_LOCAL, so compute_solo() treats the two alike.
 */
static bool spread_share(const struct model *md, int gi, double *share,
			 double *remote)
{
	if (md->sp->mem.kind != MEM_SPREAD)
		return false;
	*share = md->n > 0 ? md->groups[gi].tsock / md->n : 0;
	*remote = 1 - *share;
	return true;
}

/* The node that takes socket S's pages under MEM_SPREAD. */
static int spread_node(const struct space *sp, int s)
{
	return sp->groups[sp->sock_group0[s]].numa;
}

/*
 * What one thread alone can demand of each kind of resource under the
 * memory policy, wherever it runs: no resource has less capacity than
 * that, since the profile's one-thread run reached it (so one thread
 * always predicts t1, and capacities do not depend on the placement).
 */
static void compute_solo(struct model *md)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	double d = p->d[WR_DRAM], far = 0, remote = 0;
	int s, lvl;

	for (s = 0; s < m->n_sockets; s++) {
		double share = mem_share(sp, s), r = remote_share(sp, s);

		far = share > far ? share : far;
		remote = r > remote ? r : remote;
	}
	/* memory-only nodes, local pages on another socket: all of it */
	if (nosocket_share(sp, true) > far)
		far = nosocket_share(sp, true);
	if (sp->remote_local && sp->mem.kind == MEM_LOCAL)
		far = remote = 1;
	md->solo[RK_INSTR] = p->d[WR_INSTRUCTIONS];
	md->solo[RK_PU] = 1;
	for (lvl = 0; lvl < 3; lvl++)
		md->solo[RK_L1 + lvl] = p->d[WR_L1 + lvl];
	md->solo[RK_L2_AGG] = p->d[WR_L2];
	md->solo[RK_L3_AGG] = p->d[WR_L3];
	md->solo[RK_DRAM_LINK] = d;
	md->solo[RK_NODE] = sp->mem.kind == MEM_INTERLEAVE && sp->n_memnodes ?
		d / sp->n_memnodes : d;
	md->solo[RK_IC_LINK] = d * remote;
	md->solo[RK_PAIR] = d * far;
}

/* Demand over effective capacity (never below the solo demand). */
static double alpha(const struct model *md, int kind, double pt, double cap)
{
	double s = md->solo[kind];

	return pt > 0 ? pt / (cap > s ? cap : s) : 0;
}

/* The node resource for node index NODE seen from group GI. */
static int node_res(struct model *md, int gi, int node)
{
	struct model_scratch *bc = md->scratch;
	const struct pandia_machine *m = md->sp->m;
	int row, *slot;

	if (node < 0) {
		/* a core without a NUMA node (a description whose nodes
		   have no memory): one DRAM for the machine, never one
		   invented per socket */
		slot = &bc->node[(md->n_groups + 1) * m->n_numa];
		if (*slot < 0)
			*slot = add_res(md, RK_NODE, -1, -1,
					m->links[LVL_DRAM].aggregate_bw);
		return *slot;
	}
	/* a node on no socket is one resource; a node on the group's
	   socket is one per socket of the group; a node on another socket
	   (cores whose own node the cpuset excludes) is that socket's */
	row = m->numa[node].socket < 0 ? md->n_groups :
		m->numa[node].socket == md->groups[gi].socket ? gi :
		group_of_socket(md, m->numa[node].socket);
	if (row < 0)
		row = md->n_groups;
	slot = &bc->node[row * m->n_numa + node];
	if (*slot < 0)
		*slot = add_res(md, RK_NODE, node, m->numa[node].socket,
				m->links[LVL_DRAM].aggregate_bw);
	return *slot;
}

/* Whether group GI's local pages are on socket X (away_socket()). */
static bool reaches(const struct model *md, int gi, int x)
{
	const struct space *sp = md->sp;
	const struct mgroup *g = &md->groups[gi];
	int it;

	if (!sp->remote_local)
		return false;
	for (it = 0; it < g->n_items; it++) {
		const struct core_group *cg = &sp->groups[
			sp->sock_group0[g->socket] + g->items[it].gpos];

		if (away_socket(sp, cg, g->socket) == x)
			return true;
	}
	return false;
}

static void build_prepare(struct model *md)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	int G = md->n_groups, ns = m->n_sockets, gi, gj, i;
	double n = 0;
	bool dram = m->links[LVL_DRAM].present && p->d[WR_DRAM] > 0;

	compute_solo(md);

	md->n_classes = md->n_res = md->n_inc = 0;
	for (gi = 0; gi < G; gi++) {
		struct mgroup *g = &md->groups[gi];

		g->tsock = 0;
		for (i = 0; i < g->n_items; i++)
			g->tsock += g->items[i].ncores *
				g->items[i].cs.threads;
		n += g->tsock * g->mult;
	}
	md->n = n;
	if (G + 1 > bc->cap_g) {
		bc->cap_g = 2 * G + 16;
		bc->memfrac = xrealloc(bc->memfrac, sizeof(double) *
				       (size_t)bc->cap_g);
		bc->remote = xrealloc(bc->remote, sizeof(double) *
				      (size_t)bc->cap_g);
		bc->snode = xrealloc(bc->snode, sizeof(int) *
				     (size_t)bc->cap_g);
	}
	GROW(bc->pair, bc->cap_pair, G * G + 1);
	GROW(bc->node, bc->cap_node, (G + 1) * (m->n_numa + 1) + G + 1);
	for (i = 0; i < (G + 1) * m->n_numa + G + 1; i++)
		bc->node[i] = -1;
	for (gi = 0; gi < G; gi++) {
		int s = md->groups[gi].socket;

		bc->memfrac[gi] = mem_share(sp, s);
		bc->remote[gi] = remote_share(sp, s);
		spread_share(md, gi, &bc->memfrac[gi], &bc->remote[gi]);
		if (bc->remote[gi] < 1e-12)
			bc->remote[gi] = 0;
		bc->snode[gi] = -1;
	}
	/* inter-socket links between groups, and within a group */
	for (gi = 0; gi < G; gi++)
		for (gj = gi; gj < G; gj++) {
			const struct mgroup *a = &md->groups[gi];
			const struct mgroup *b = &md->groups[gj];
			int sa = a->socks[0], sb;
			double bw;
			int r = -1;
			bool far;

			if (gi == gj && a->mult < 2) {
				bc->pair[gi * G + gj] = -1;
				continue;
			}
			sb = gi == gj ? a->socks[1] : b->socks[0];
			bw = sp->pair_bw[sa * ns + sb];
			/* local pages on the other's node */
			far = gi != gj && (reaches(md, gi, b->socket) ||
					   reaches(md, gj, a->socket));
			if (bw > 0 && ((dram && (bc->memfrac[gi] > 0 ||
						 bc->memfrac[gj] > 0 || far)) ||
				       p->d[WR_INTERCONNECT] > 0))
				r = add_res(md, RK_PAIR, sa, sb, bw);
			bc->pair[gi * G + gj] = r;
			bc->pair[gj * G + gi] = r;
		}
	/* nodes: every node that takes pages under the policy */
	bc->node0 = md->n_res;
	if (dram && sp->mem.kind == MEM_INTERLEAVE) {
		for (gi = 0; gi < G; gi++)
			for (i = 0; i < m->n_numa; i++)
				if (sp->memnode[i] &&
				    m->numa[i].socket == md->groups[gi].socket)
					node_res(md, gi, i);
		for (i = 0; i < m->n_numa; i++)
			if (sp->memnode[i] && m->numa[i].socket < 0)
				node_res(md, 0, i);
	} else if (dram && sp->mem.kind == MEM_SPREAD) {
		for (gi = 0; gi < G; gi++)
			if (bc->memfrac[gi] > 0)
				bc->snode[gi] = node_res(md, gi,
					spread_node(sp, md->groups[gi].socket));
	} else if (dram && sp->mem.kind == MEM_NODE) {
		int s = m->numa[sp->mem_node].socket;

		for (gi = 0; gi < G; gi++)
			if (s < 0 || md->groups[gi].socket == s)
				break;
		node_res(md, gi < G ? gi : 0, sp->mem_node);
	}
	bc->node1 = md->n_res;
	GROW(bc->offs, bc->cap_offs, sp->n_groups + 1);
	/* room for everything build_group() adds (add_inc checks not) */
	{
		size_t items = 0;
		int per;

		for (gi = 0; gi < G; gi++)
			items += (size_t)md->groups[gi].n_items;
		per = SPACE_MAX_SMT * (RK_COUNT + 5 + G + m->n_numa);
		GROW(md->res, md->cap_res, md->n_res + (int)items * per + G +
		     8);
		if ((int)items * per + 8 > md->cap_inc) {
			md->cap_inc = (int)items * per + 8;
			md->inc = xrealloc(md->inc, sizeof(*md->inc) *
					   (size_t)md->cap_inc);
			md->incpt = xrealloc(md->incpt, sizeof(*md->incpt) *
					     (size_t)md->cap_inc);
		}
	}
	GROW(bc->cres, bc->cap_cres, 6 * sp->n_groups + 1);
}

/* The resource of a shared cache (level L, 1..3) for a core group. */
static int shared_res(struct model *md, int gi, const struct core_group *cg,
		      int level, int *cache_res)
{
	const struct pandia_machine *m = md->sp->m;
	int key = cg->shared[level - 1], i;

	if (key < 0 && level == 3 && m->cores[cg->cores[0]].cache[2] < 0)
		key = -2;	/* no L3 object: one per socket */
	if (key == -1)
		return -1;
	for (i = 0; i < cache_res[0]; i++)
		if (cache_res[1 + 2 * i] == key)
			return cache_res[2 + 2 * i];
	i = add_res(md, level == 2 ? RK_L2_AGG : RK_L3_AGG, key >= 0 ? key : -1,
		    md->groups[gi].socket,
		    m->links[level - 1].aggregate_bw);
	cache_res[1 + 2 * cache_res[0]] = key;
	cache_res[2 + 2 * cache_res[0]] = i;
	cache_res[0]++;
	return i;
}

/* A resource of one core: its kind, capacity and one thread's demand. */
struct cand {
	int kind, res;
	double cap, pt, ratio;
};

static void core_cand(const struct model *md, struct cand *c, int kind,
		      double cap, double pt)
{
	double ce = cap > md->solo[kind] ? cap : md->solo[kind];

	c->kind = kind;
	c->cap = cap;
	c->pt = pt;
	c->ratio = ce > 0 ? pt / ce : 0;
	c->res = -1;
}

static void build_group(struct model *md, int gi)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	const struct mgroup *g = &md->groups[gi];
	int G = md->n_groups, s = g->socket, it, lvl, gj, k;
	double n = md->n, mult = g->mult;
	int *cache_res = bc->cres;
	bool dram = m->links[LVL_DRAM].present && p->d[WR_DRAM] > 0;
	double ic_pt = p->d[WR_INTERCONNECT] > 0 && n > 1 ?
		p->d[WR_INTERCONNECT] * (n - g->tsock) / (n - 1) : 0;
	double remote_pt = (dram ? p->d[WR_DRAM] * bc->remote[gi] : 0) + ic_pt;
	double off = dram ? nosocket_share(sp, true) : 0;
	int r_off = -1;

	/* memory-only nodes: over this socket's link to them */
	if (off > 0 && m->links[LVL_INTERCONNECT].present && g->tsock > 0)
		r_off = add_res(md, RK_PAIR, s, -1,
				m->links[LVL_INTERCONNECT].aggregate_bw);
	cache_res[0] = 0;
	for (k = 0; k < sp->sock_ngroups[s]; k++)
		bc->offs[k] = 0;
	for (it = 0; it < g->n_items; it++) {
		const struct sitem *item = &g->items[it];
		const struct core_group *cg =
			&sp->groups[sp->sock_group0[s] + item->gpos];
		const struct core_state *cs = &item->cs;
		int core = item->core >= 0 ? item->core :
			cg->cores[bc->offs[item->gpos]];
		const struct pandia_core *co = &m->cores[core];
		struct cand cand[RK_COUNT];
		int r_agg[3], r_node = -1, pos, nk;
		double inst_cores = item->ncores, cinstr;
		/* a slower kind of core: the thread runs q times slower
		   and so asks q times less of everything per second */
		double slow = machine_core_slowdown(m, core), iq = 1 / slow;
		int away = away_socket(sp, cg, s);
		int gx = away >= 0 ? group_of_socket(md, away) : -1;
		double item_remote = remote_pt +
			(away >= 0 && dram ? p->d[WR_DRAM] : 0);
		bool shared_node = cg->numa < 0 ||
			m->numa[cg->numa].socket != s;

		if (item->core < 0)
			bc->offs[item->gpos] += item->ncores;
		/* the resources of one core in this state */
		nk = 0;
		if (p->d[WR_INSTRUCTIONS] > 0 && m->peak_rate > 0) {
			double rate = core_rate(m, cs->pus_used, cs->n_pus);

			core_cand(md, &cand[nk++], RK_INSTR, rate * iq,
				  p->d[WR_INSTRUCTIONS] * iq);
			if (slow != 1) {
				/* the floor of one thread alone, in the
				   same units */
				double ce = rate > md->solo[RK_INSTR] ? rate :
					md->solo[RK_INSTR];

				cand[nk - 1].ratio = cand[nk - 1].pt /
					(ce * iq);
			}
		}
		for (lvl = 0; lvl < 3; lvl++) {
			r_agg[lvl] = -1;
			if (!m->links[lvl].present || !(p->d[WR_L1 + lvl] > 0))
				continue;
			core_cand(md, &cand[nk++], RK_L1 + lvl,
				  m->links[lvl].per_core_bw,
				  p->d[WR_L1 + lvl] * iq);
			if (lvl > 0)
				r_agg[lvl] = shared_res(md, gi, cg, lvl + 1,
							cache_res);
		}
		if (dram) {
			core_cand(md, &cand[nk++], RK_DRAM_LINK,
				  m->links[LVL_DRAM].per_core_bw,
				  p->d[WR_DRAM] * iq);
			if (sp->mem.kind == MEM_LOCAL ||
			    (sp->mem.kind == MEM_INTERLEAVE &&
			     !sp->n_memnodes))
				r_node = node_res(md, gi, cg->numa);
		}
		if (m->links[LVL_INTERCONNECT].present && item_remote > 0)
			core_cand(md, &cand[nk++], RK_IC_LINK,
				  m->links[LVL_INTERCONNECT].per_core_bw,
				  item_remote * iq);
		/* b's core part: the core's instruction load per unit of
		   utilisation (the ratio is the same on a slower kind) */
		cinstr = p->d[WR_INSTRUCTIONS] > 0 ? cs->threads *
			alpha(md, RK_INSTR, p->d[WR_INSTRUCTIONS],
			      core_rate(m, cs->pus_used, cs->n_pus)) : 0;
		/*
		 * The same threads load all of these, in fixed proportions:
		 * only the one with the highest demand/capacity can be the
		 * most oversubscribed, so a ranking keeps that one alone.
		 */
		if (md->merge && nk > 1) {
			int best = 0;

			for (k = 1; k < nk; k++)
				if (cand[k].ratio > cand[best].ratio)
					best = k;
			cand[0] = cand[best];
			nk = 1;
		}
		for (k = 0; k < nk; k++) {
			cand[k].res = add_res(md, cand[k].kind, core, -1,
					      cand[k].cap);
			if (cand[k].kind == RK_INSTR && slow != 1)
				md->res[cand[k].res].cap_eff =
					cand[k].pt / cand[k].ratio;
		}

		/* one class per distinct thread count on a PU */
		for (pos = 0; pos < cs->n_pus && cs->cnt[pos]; ) {
			int kappa = cs->cnt[pos], npos = 0, q;
			double per_core, per_sock, total;
			struct mclass *c;

			for (q = pos; q < cs->n_pus && cs->cnt[q] == kappa; q++)
				npos++;
			per_core = (double)kappa * npos;
			per_sock = per_core * inst_cores;
			total = per_sock * mult;
			GROW(md->cls, md->cap_classes, md->n_classes + 1);
			c = &md->cls[md->n_classes++];
			c->n = total;
			c->group = gi;
			c->socket = s;
			c->core = core;
			c->pu = co->pus[item->pupos[pos]];
			c->kappa = kappa;
			c->corun = 1;
			c->smt = cs->pus_used >= 2;
			c->tsock = g->tsock;
			c->cinstr = cinstr;
			c->slow = slow;
			c->inc0 = md->n_inc;
			c->ninc = 0;

			/* a PU's time (pu_time()): one thread alone cannot
			   overload it, so only shared PUs count, and every
			   PU of an explicit placement, where a co-runner
			   may share it (model_corun()) */
			if (kappa > 1 || !md->merge)
				add_inc(md, add_res(md, RK_PU, c->pu, -1, 1),
					kappa, 1);
			for (k = 0; k < nk; k++)
				add_inc(md, cand[k].res, per_core, cand[k].pt);
			for (lvl = 1; lvl < 3; lvl++)
				add_inc(md, r_agg[lvl], per_sock,
					p->d[WR_L1 + lvl] * iq);
			/* a node on another socket or on none (or the
			   machine's one DRAM): all of the group's sockets
			   load that one node */
			add_inc(md, r_node, shared_node ? total : per_sock,
				p->d[WR_DRAM] * iq);
			add_inc(md, r_off, per_sock, p->d[WR_DRAM] * off * iq);
			if (dram && (sp->mem.kind == MEM_NODE ||
				     (sp->mem.kind == MEM_INTERLEAVE &&
				      sp->n_memnodes))) {
				int i;

				/* every thread's share reaches every node */
				double pt = p->d[WR_DRAM] /
					(sp->mem.kind == MEM_NODE ? 1 :
					 sp->n_memnodes);

				for (i = bc->node0; i < bc->node1; i++)
					add_inc(md, i, total, pt * iq);
			}
			/* spread: each socket in use takes its share */
			for (gj = 0; dram && sp->mem.kind == MEM_SPREAD &&
			     gj < G; gj++)
				add_inc(md, bc->snode[gj], total,
					p->d[WR_DRAM] * bc->memfrac[gj]);
			for (gj = 0; gj < G; gj++) {
				int r = bc->pair[gi * G + gj];
				double pt;

				if (r < 0)
					continue;
				pt = (dram ? p->d[WR_DRAM] *
				      bc->memfrac[gj] : 0);
				if (gj == gx && dram)
					pt += p->d[WR_DRAM];
				if (n > 1)
					pt += p->d[WR_INTERCONNECT] *
						md->groups[gj].tsock / (n - 1);
				add_inc(md, r, per_sock * (gi == gj ? 2 : 1),
					pt * iq);
			}
			pos = q;
		}
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
static void build_fast(struct model *md)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	int G = md->n_groups, ns = m->n_sockets, gi, gj, it, lvl, k;
	bool dram = m->links[LVL_DRAM].present && p->d[WR_DRAM] > 0;
	bool global = dram && (sp->mem.kind == MEM_NODE ||
			       (sp->mem.kind == MEM_INTERLEAVE &&
				sp->n_memnodes));
	double n = 0, node_cap;

	compute_solo(md);
	md->n_classes = md->n_res = md->n_inc = md->n_sinc = 0;
	for (gi = 0; gi < G; gi++) {
		struct mgroup *g = &md->groups[gi];

		g->tsock = 0;
		for (it = 0; it < g->n_items; it++)
			g->tsock += g->items[it].ncores *
				g->items[it].cs.threads;
		n += g->tsock * g->mult;
	}
	md->n = n;
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
	node_cap = m->links[LVL_DRAM].aggregate_bw;
	md->zbeta = global ? alpha(md, RK_NODE, p->d[WR_DRAM] /
				   (sp->mem.kind == MEM_NODE ? 1 :
				    sp->n_memnodes), node_cap) : 0;
	for (gi = 0; gi < G; gi++) {
		double r = 0;

		md->gfrac[gi] = mem_share(sp, md->groups[gi].socket);
		md->gsz[gi] = 0;
		if (dram && spread_share(md, gi, &md->gfrac[gi], &r))
			md->gsz[gi] = alpha(md, RK_NODE, p->d[WR_DRAM] *
					    md->gfrac[gi], node_cap);
	}

	/* links: a_GH = what one thread of G sends to H over capacity */
	for (gi = 0; gi < G; gi++)
		for (gj = 0; gj < G; gj++) {
			const struct mgroup *a = &md->groups[gi];
			const struct mgroup *b = &md->groups[gj];
			double bw, pt = 0, back = 0;
			int sa = a->socks[0], sb;

			md->pa[gi * G + gj] = 0;
			if (gi == gj && a->mult < 2)
				continue;
			sb = gi == gj ? a->socks[1] : b->socks[0];
			bw = sp->pair_bw[sa * ns + sb];
			if (!(bw > 0))
				continue;
			if (dram) {
				pt = p->d[WR_DRAM] * md->gfrac[gj];
				back = p->d[WR_DRAM] * md->gfrac[gi];
			}
			if (n > 1) {
				pt += p->d[WR_INTERCONNECT] * b->tsock /
					(n - 1);
				back += p->d[WR_INTERCONNECT] * a->tsock /
					(n - 1);
			}
			(void)back;
			if (!(pt > 0) || !(a->tsock > 0))
				continue;
			md->pa[gi * G + gj] = alpha(md, RK_PAIR, pt, bw) *
				(gi == gj ? 2 : 1);
		}

	/* the same as lists: per group, its links that carry traffic */
	if (G * G + 1 > md->cap_glinks) {
		md->cap_glinks = G * G + 16;
		md->glinks = xrealloc(md->glinks, sizeof(*md->glinks) *
				      (size_t)md->cap_glinks);
		md->glink0 = xrealloc(md->glink0, sizeof(int) *
				      (size_t)md->cap_glinks);
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

	for (gi = 0; gi < G; gi++) {
		const struct mgroup *g = &md->groups[gi];
		const struct core_group *cg = &sp->groups[sp->sock_group0[
			g->socket]];
		double ic_pt = p->d[WR_INTERCONNECT] > 0 && n > 1 ?
			p->d[WR_INTERCONNECT] * (n - g->tsock) / (n - 1) : 0;
		double remote = remote_share(sp, g->socket), remote_pt;
		int used = 0;

		spread_share(md, gi, &md->gfrac[gi], &remote);
		if (remote < 1e-12)
			remote = 0;
		remote_pt = (dram ? p->d[WR_DRAM] * remote : 0) + ic_pt;

		/* the socket-level resources: the largest ratio only */
		md->gas[gi] = 0;
		md->gkind[gi] = -1;
		for (lvl = 1; lvl < 3; lvl++) {
			double a;

			if (!m->links[lvl].present ||
			    !(p->d[WR_L1 + lvl] > 0) ||
			    (cg->shared[lvl] < 0 && !(lvl == 2 &&
			     m->cores[cg->cores[0]].cache[2] < 0)))
				continue;
			a = alpha(md, lvl == 1 ? RK_L2_AGG : RK_L3_AGG,
				  p->d[WR_L1 + lvl],
				  m->links[lvl].aggregate_bw);
			if (a > md->gas[gi]) {
				md->gas[gi] = a;
				md->gkind[gi] = lvl == 1 ? RK_L2_AGG :
					RK_L3_AGG;
			}
		}
		if (dram && !global && sp->mem.kind != MEM_SPREAD) {
			double a = alpha(md, RK_NODE, p->d[WR_DRAM],
					 node_cap);

			if (a > md->gas[gi]) {
				md->gas[gi] = a;
				md->gkind[gi] = RK_NODE;
			}
		}

		for (it = 0; it < g->n_items; it++) {
			const struct sitem *item = &g->items[it];
			const struct core_state *cs = &item->cs;
			int core = item->core >= 0 ? item->core :
				cg->cores[used];
			const struct pandia_core *co = &m->cores[core];
			double best = 0, a, cinstr;
			int bkind = -1, pos;

			if (item->core < 0)
				used += item->ncores;
			cinstr = p->d[WR_INSTRUCTIONS] > 0 ? cs->threads *
				alpha(md, RK_INSTR, p->d[WR_INSTRUCTIONS],
				      core_rate(m, cs->pus_used, cs->n_pus)) :
				0;
			/* the core's own resources: the largest ratio */
#define CAND(kind_, cap_, pt_) do {					\
	a = alpha(md, (kind_), (pt_), (cap_));				\
	if (a > best) {							\
		best = a;						\
		bkind = (kind_);					\
	}								\
} while (0)
			if (p->d[WR_INSTRUCTIONS] > 0 && m->peak_rate > 0)
				CAND(RK_INSTR, core_rate(m, cs->pus_used,
							 cs->n_pus),
				     p->d[WR_INSTRUCTIONS]);
			for (lvl = 0; lvl < 3; lvl++)
				if (m->links[lvl].present)
					CAND(RK_L1 + lvl,
					     m->links[lvl].per_core_bw,
					     p->d[WR_L1 + lvl]);
			if (dram)
				CAND(RK_DRAM_LINK,
				     m->links[LVL_DRAM].per_core_bw,
				     p->d[WR_DRAM]);
			if (m->links[LVL_INTERCONNECT].present)
				CAND(RK_IC_LINK,
				     m->links[LVL_INTERCONNECT].per_core_bw,
				     remote_pt);
#undef CAND
			for (pos = 0; pos < cs->n_pus && cs->cnt[pos]; ) {
				int kappa = cs->cnt[pos], npos = 0, q;
				double per_core;
				struct mclass *c;

				for (q = pos; q < cs->n_pus &&
				     cs->cnt[q] == kappa; q++)
					npos++;
				per_core = (double)kappa * npos;
				GROW(md->cls, md->cap_classes,
				     md->n_classes + 1);
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
				pos = q;
			}
		}
	}
	state_room(md, md->n_classes, md->n_groups);
}

static void partition(struct model *md);

/* Normalise: coefficients become load / cap_eff per unit of f. */
static void build_finish(struct model *md)
{
	int i;

	for (i = 0; i < md->n_res; i++) {
		struct mres *r = &md->res[i];

		if (!(r->cap_eff > 0))
			r->cap_eff = 1;
	}
	for (i = 0; i < md->n_inc; i++)
		md->inc[i].coef /= md->res[md->inc[i].res].cap_eff;
	state_room(md, md->n_classes, md->n_groups);
	partition(md);
}

/*
 * A resource that only one class loads is oversubscribed by coef * f0:
 * fold those into the class's own maximum, and keep the shared ones
 * (and those that other workloads load too: model_background()) in a
 * second list for the solver.
 */
static void partition(struct model *md)
{
	int *owner, i, c;

	GROW(md->owner, md->cap_owner, md->n_res + 1);
	owner = md->owner;
	for (i = 0; i < md->n_res; i++)
		owner[i] = md->has_bg && md->bgload[i] > 0 ? -2 : -1;
	for (c = 0; c < md->n_classes; c++)
		for (i = md->cls[c].inc0; i < md->cls[c].inc0 +
		     md->cls[c].ninc; i++) {
			int r = md->inc[i].res;

			owner[r] = owner[r] == -1 ? c : -2;
		}
	GROW(md->sinc, md->cap_sinc, md->n_inc + 1);
	md->n_sinc = 0;
	for (c = 0; c < md->n_classes; c++) {
		struct mclass *cl = &md->cls[c];

		cl->pmax = 0;
		cl->sinc0 = md->n_sinc;
		for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++) {
			/* a PU's time is not a load: pu_time() */
			if (md->res[md->inc[i].res].kind == RK_PU)
				continue;
			if (owner[md->inc[i].res] == c) {
				if (md->inc[i].coef > cl->pmax)
					cl->pmax = md->inc[i].coef;
				continue;
			}
			md->sinc[md->n_sinc++] = md->inc[i];
		}
		cl->nsinc = md->n_sinc - cl->sinc0;
	}
}

/* Whether the group-structured form applies (see build_fast()). */
static bool fast_ok(const struct model *md)
{
	int gi;

	if (!md->merge || md->trace || md->general)
		return false;
	/* kinds of core, pages across the interconnect that are no
	   socket's, local pages on a node of no socket (one node for
	   several sockets): the general form */
	if (md->sp->m->n_kinds || md->sp->remote_local ||
	    nosocket_share(md->sp, true) > 0 || md->sp->local_nosocket)
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

static void build(struct model *md)
{
	int gi;

	md->has_bg = false;
	md->fast = fast_ok(md);
	if (md->fast) {
		build_fast(md);
		return;
	}
	build_prepare(md);
	for (gi = 0; gi < md->n_groups; gi++)
		build_group(md, gi);
	build_finish(md);
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

/* ---- solving ---------------------------------------------------- */

/*
 * The slowdown of a class's threads from the time of their PU: kappa
 * threads time-share it, and the others run only while in parallel
 * work, so a thread waits p x (kappa - 1) x f0 per unit of its own
 * time (for n threads on n / kappa PUs this gives exactly Amdahl's
 * law at n / kappa threads); a co-runner beside takes corun - 1 more.
 * A PU that one thread has alone is loaded by its utilisation.
 */
static inline double pu_time(const struct model *md, const struct mclass *cl,
			     double f0)
{
	if (cl->kappa <= 1 && !(cl->corun > 1))
		return f0;
	return 1 + md->prm.p * (cl->kappa - 1) * f0 + (cl->corun - 1);
}

/* Every resource's load at the current f0 (the solver skips those that
   one class loads alone). */
static void full_loads(struct model *md)
{
	int c, i;

	for (i = 0; i < md->n_res; i++)
		md->load[i] = md->has_bg ? md->bgload[i] : 0;
	for (c = 0; c < md->n_classes; c++) {
		const struct mclass *cl = &md->cls[c];

		for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++) {
			int r = md->inc[i].res;

			md->load[r] += md->res[r].kind == RK_PU ?
				pu_time(md, cl, md->f0[c]) :
				md->inc[i].coef * md->f0[c];
		}
	}
}

/* Each class's most oversubscribed resource in the current loads. */
static void find_bottlenecks(struct model *md)
{
	int c, i;

	for (c = 0; c < md->n_classes; c++) {
		const struct mclass *cl = &md->cls[c];
		double mx = 0;

		md->bott[c] = -1;
		for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++)
			if (md->load[md->inc[i].res] > mx) {
				mx = md->load[md->inc[i].res];
				md->bott[c] = md->inc[i].res;
			}
	}
}

/* Step (b) in the group-structured form: U, Z, links, group maxima. */
static void fast_loads(struct model *md)
{
	int G = md->n_groups, C = md->n_classes, g, c, i;
	const struct mclass *restrict cls = md->cls;
	const double *restrict f0 = md->f0;
	double *restrict U = md->gU, Z = 0, S = 0;
	bool spread = md->sp->mem.kind == MEM_SPREAD;

	for (g = 0; g < G; g++)
		U[g] = 0;
	for (c = 0; c < C; c++)
		U[cls[c].group] += cls[c].ps * f0[c];
	if (md->zbeta > 0 || spread) {
		for (g = 0; g < G; g++)
			S += md->groups[g].mult * U[g];
		Z = S * md->zbeta;
	}
	for (g = 0; g < G; g++) {
		double M = md->gas[g] * U[g];
		int k = md->gkind[g];

		if (spread && md->gsz[g] * S > M) {
			M = md->gsz[g] * S;
			k = RK_NODE;
		}

		if (md->zbeta > 0 && Z > M) {
			M = Z;
			k = RK_NODE;
		}
		/* the links of g: U_g a_gh + U_h a_hg */
		for (i = md->glink0[g]; i < md->glink0[g + 1]; i++) {
			const struct glink *x = &md->glinks[i];
			double l = U[g] * x->out + U[x->h] * x->in;

			if (l > M) {
				M = l;
				k = RK_PAIR;
			}
		}
		md->gM[g] = M;
		md->gMk[g] = k;
	}
}

/* The slowest class's bottleneck kind in the group-structured form. */
static void fast_bottleneck(struct model *md)
{
	int c = md->slowest, i;
	const struct mclass *cl = &md->cls[c];
	double own = cl->pmax * md->f0[c], pu = pu_time(md, cl, md->f0[c]);
	int kind = cl->pkind;

	for (i = 0; i < md->n_classes; i++)
		md->bott[i] = -1;
	if (pu > 1 && pu > own) {
		own = pu;
		kind = RK_PU;
	}
	md->fast_kind = own >= md->gM[cl->group] ? kind : md->gMk[cl->group];
}

/*
 * For ranking: the bottleneck of the slowest class only, from the
 * shared loads of the last iteration and its own resources' coef * f0
 * (the other classes' bott stay -1).
 */
static void slowest_bottleneck(struct model *md)
{
	int c = md->slowest, i;
	const struct mclass *cl = &md->cls[c];
	double mx = 0;

	for (i = 0; i < md->n_classes; i++)
		md->bott[i] = -1;
	for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++) {
		int r = md->inc[i].res;
		double l = md->res[r].kind == RK_PU ?
			pu_time(md, cl, md->f0[c]) : md->owner[r] == c ?
			md->inc[i].coef * md->f0[c] : md->load[r];

		if (l > mx) {
			mx = l;
			md->bott[c] = r;
		}
	}
}

/* The utilisations after a step, for the trace: f0 / slowdown so far. */
static void trace_step(struct model *md, int it, char step)
{
	int c;

	for (c = 0; c < md->n_classes; c++) {
		double s = md->sres[c];

		if (step >= 'd')
			s += md->comm[c];
		if (step >= 'e')
			s += md->lb[c];
		md->f[c] = md->f0[c] / s;
	}
	md->trace(md, it, step, md->trace_arg);
}

/*
 * Sections 5.1 to 5.5.  Per iteration and class c, with f0 the
 * utilisation at the start of the iteration:
 *   sres = max(1, max load/capacity on its path), + sres*b*f0 if its
 *          core runs threads on other PUs;
 *   comm = (l * indep + (1 - l) * lockstep) * f0 / sres;
 *   lb   = (1 - l) * (max(sres + comm) - (sres + comm));
 *   sfin = sres + comm + lb;
 * and the next iteration starts from f0 = finit * sres / sfin.
 */
void model_solve(struct model *md)
{
	bool accelerate, jumped = false;
	double prev_delta = INFINITY;
	const struct model_params *p = &md->prm;
	const struct mclass *restrict cls = md->cls;
	double *restrict f0 = md->f0, *restrict sres = md->sres;
	double *restrict comm = md->comm, *restrict lb = md->lb;
	double *restrict sfin = md->sfin, *restrict ratio = md->ratio;
	double *restrict dprev = md->dprev, *restrict isres = md->isres;
	double *restrict gw = md->gw, *restrict rawmax = md->rawmax;
	int C = md->n_classes, G = md->n_groups, it, c, i;
	double n = md->n, pp = p->p, A, finit, *load;
	bool tr = md->trace != NULL, do_comm = false;
	const double ll = p->l, bb = p->b;
	/* o_s per remote fraction: per remote thread over n - 1 others */
	const double os = p->os_fraction && md->n > 1 ?
		p->o_s / (md->n - 1) : p->o_s;

	if (md->n_res > md->cap_load) {
		md->cap_load = 2 * md->n_res + 16;
		free(md->load);
		md->load = xcalloc((size_t)md->cap_load, sizeof(double));
	}
	load = md->load;
	A = 1 / ((1 - pp) + pp / n);
	finit = A / n;
	md->amdahl = A;
	md->converged = false;
	/* communication only when threads are on several sockets */
	for (c = 0; c < C; c++) {
		ratio[c] = 1;
		dprev[c] = 0;
		md->rprev[c] = 1;
		if (os > 0 && cls[c].tsock < n)
			do_comm = true;
	}
	for (i = 0; i < G; i++)
		md->gmul[i] = 1.0 / md->groups[i].mult;
	accelerate = md->accelerate;
	for (it = 1; it <= MODEL_MAX_ITER; it++) {
		double smax = 1, delta = 0, W = 0, num = 0, den = 0, q;
		bool jump;

		/* (a) utilisations: Amdahl at the start (5.1), carried from
		   the last iteration after it (5.4) */
		for (c = 0; c < C; c++)
			f0[c] = finit * ratio[c];
		if (tr) {
			for (c = 0; c < C; c++) {
				sres[c] = sfin[c] = 1;
				comm[c] = lb[c] = 0;
			}
			trace_step(md, it, 'a');
		}

		/* (b) naive demands: rates scaled by utilisation (5.1) */
		if (md->fast) {
			fast_loads(md);
		} else {
			for (i = 0; i < md->n_res; i++)
				load[i] = md->has_bg ? md->bgload[i] : 0;
			for (c = 0; c < C; c++) {
				const struct minc *x = &md->sinc[cls[c].sinc0];

				for (i = 0; i < cls[c].nsinc; i++)
					load[x[i].res] += x[i].coef * f0[c];
			}
			if (tr) {
				full_loads(md);
				md->trace(md, it, 'b', md->trace_arg);
			}
		}

		/* (c) the most oversubscribed resource, plus burstiness
		   where threads share a core (5.1) */
		for (i = 0; i < G; i++)
			gw[i] = 0;
		for (c = 0; c < C; c++) {
			const struct mclass *cl = &cls[c];
			double mx = cl->pmax * f0[c], sc;
			double pu = pu_time(md, cl, f0[c]);

			mx = pu > mx ? pu : mx;

			if (md->fast) {
				double g = md->gM[cl->group];

				mx = g > mx ? g : mx;
			} else {
				const struct minc *x = &md->sinc[cl->sinc0];

				for (i = 0; i < cl->nsinc; i++) {
					double l = load[x[i].res];

					mx = l > mx ? l : mx;
				}
			}
			rawmax[c] = mx;
			sc = mx > 1 ? mx : 1;
			/* 5.1: "whenever threads share a core", be it on
			 * other PUs of it (SMT) or time-sharing its PU */
			if ((cl->smt || cl->kappa > 1) && p->b_core) {
				/* b on the core's throughput only: the
				   part of the slowdown the core sets */
				double core = cl->cinstr * f0[c];

				core = pu > core ? pu : core;
				core = core > 1 ? core : 1;
				core += core * bb * f0[c];
				sc = core > sc ? core : sc;
			} else if (cl->smt || cl->kappa > 1) {
				sc += sc * bb * f0[c];
			}
			/* a core of a slower kind (1 on one kind) */
			sc *= cl->slow;
			if (sc > MODEL_SLOW_MAX)
				sc = MODEL_SLOW_MAX;
			sres[c] = sc;
			isres[c] = 1 / sc;
			W += cl->n * isres[c];
			gw[cl->group] += cl->n * isres[c];
			comm[c] = 0;
		}
		if (tr) {
			find_bottlenecks(md);
			trace_step(md, it, 'c');
		}

		/* (d) inter-socket communication (5.2): the work weights
		   w_j = (1/s_j) / W; gw sums them per socket group */
		if (do_comm) {
			double iw = 1 / W;

			for (c = 0; c < C; c++) {
				const struct mclass *cl = &cls[c];
				double lock = os * (n - cl->tsock);
				double ind = n * os * (1 - gw[cl->group] * iw *
						       md->gmul[cl->group]);

				if (ind < 0)
					ind = 0;
				comm[c] = (ll * ind + (1 - ll) * lock) * f0[c] *
					isres[c];
			}
		}
		for (c = 0; c < C; c++) {
			double sc = sres[c] + comm[c];

			if (sc > MODEL_SLOW_MAX) {
				sc = MODEL_SLOW_MAX;
				comm[c] = sc - sres[c];
			}
			smax = sc > smax ? sc : smax;
		}
		if (tr)
			trace_step(md, it, 'd');

		/* (e) load balance towards the slowest thread (5.3), and
		   what carries into the next iteration (5.4): g = the
		   change the iteration asks for */
		for (c = 0; c < C; c++) {
			double sc = sres[c] + comm[c], g;

			lb[c] = (1 - ll) * (smax - sc);
			sfin[c] = sc + lb[c];
			g = sres[c] / sfin[c] - ratio[c];
			if (fabs(g) > delta)
				delta = fabs(g);
			/* Anderson(1): secant on the residuals */
			num += (g - dprev[c]) * g;
			den += (g - dprev[c]) * (g - dprev[c]);
			isres[c] = g;
		}
		if (tr)
			trace_step(md, it, 'e');

		/*
		 * The carry (5.4): the next iteration starts from
		 * f0 = finit x ratio.  From iteration 3 on, step with
		 * Anderson acceleration (depth 1):
		 * r' = r + g - gamma (dr + dg), the secant
		 * through the last two residuals.  It finds the fixed
		 * point of the plain iteration (r' = r + g) in fewer
		 * steps; iterations 1 and 2 (Figures 7 and 9) are plain.
		 */
		/*
		 * Safeguard: an accelerated step that made the residual
		 * grow is not trusted; the plain iteration goes on alone.
		 */
		if (jumped && delta > prev_delta)
			accelerate = false;
		prev_delta = delta;
		q = den > 0 ? num / den : 0;
		jump = accelerate && it >= 3 && it <= MODEL_DAMP_AFTER &&
			den > 0 && isfinite(q);
		jumped = jump;
		for (c = 0; c < C; c++) {
			double g = isres[c], r = ratio[c] + g;

			if (jump) {
				r -= q * (ratio[c] - md->rprev[c] + g -
					  dprev[c]);
				r = r > 1 ? 1 : r < 1e-12 ? 1e-12 : r;
			}
			if (it > MODEL_DAMP_AFTER) {
				double alpha = it <= 2 * MODEL_DAMP_AFTER ?
					0.5 : 0.5 * MODEL_DAMP_AFTER /
					(it - MODEL_DAMP_AFTER);

				r = ratio[c] + alpha * (r - ratio[c]);
			}
			md->rprev[c] = ratio[c];
			dprev[c] = g;
			ratio[c] = r;
		}
		if (delta <= md->tol) {
			md->converged = true;
			break;
		}
	}
	md->iterations = it > MODEL_MAX_ITER ? MODEL_MAX_ITER : it;

	/* the speedup: Amdahl x mean(1 / s_i) (5.5) */
	{
		double sum = 0, worst = 0;

		md->slowest = 0;
		for (c = 0; c < C; c++) {
			sum += cls[c].n / sfin[c];
			md->f[c] = f0[c] / sfin[c];
			if (sfin[c] > worst) {
				worst = sfin[c];
				md->slowest = c;
			}
		}
		md->speedup = A * sum / n;
		md->time = p->t1 / md->speedup;
		if (!isfinite(md->time))
			md->time = 1e300;
		if (md->fast) {
			fast_bottleneck(md);
		} else if (md->merge && !tr) {
			slowest_bottleneck(md);
		} else {
			full_loads(md);
			find_bottlenecks(md);
		}
	}
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
	partition(md);
}

/* ---- naming ----------------------------------------------------- */

static int core_name(const struct pandia_machine *m, int core, char *buf,
		     int size)
{
	const struct pandia_core *co = &m->cores[core];
	int n = snprintf(buf, (size_t)size, "core{"), i;

	for (i = 0; i < co->n_pus && n < size; i++)
		n += snprintf(buf + n, (size_t)(size - n), "%s%d", i ? "," : "",
			      m->pus[co->pus[i]].os_index);
	if (n < size)
		n += snprintf(buf + n, (size_t)(size - n), "}");
	return n;
}

const char *model_res_name(const struct model *md, int r, char *buf,
			   int size)
{
	const struct pandia_machine *m = md->sp->m;
	const struct mres *x = &md->res[r];
	char where[96];

	switch (x->kind) {
	case RK_PU:
		snprintf(where, sizeof(where), "PU %d", m->pus[x->a].os_index);
		break;
	case RK_L2_AGG:
	case RK_L3_AGG:
		if (x->a >= 0 && m->caches[x->a].n_cores > 0) {
			/* the instance by the PUs that share it */
			const struct pandia_cache *ca = &m->caches[x->a];
			int *os = NULL, n = 0, i, j;
			char *set;

			for (i = 0; i < ca->n_cores; i++) {
				const struct pandia_core *co =
					&m->cores[ca->cores[i]];

				os = xrealloc(os, sizeof(*os) *
					      (size_t)(n + co->n_pus));
				for (j = 0; j < co->n_pus; j++)
					os[n++] = m->pus[co->pus[j]].os_index;
			}
			set = cpuset_format(os, n);
			snprintf(where, sizeof(where), "shared by PU%s %s",
				 n == 1 ? "" : "s", set);
			free(set);
			free(os);
		} else {
			snprintf(where, sizeof(where), "of socket %d",
				 m->sockets[x->b].os_index);
		}
		break;
	case RK_NODE:
		if (x->a >= 0)
			snprintf(where, sizeof(where), "node %d",
				 m->numa[x->a].os_index);
		else if (x->b >= 0)
			snprintf(where, sizeof(where), "of socket %d",
				 m->sockets[x->b].os_index);
		else
			snprintf(where, sizeof(where), "of the machine");
		break;
	case RK_PAIR:
		if (x->b >= 0)
			snprintf(where, sizeof(where), "sockets %d-%d",
				 m->sockets[x->a].os_index,
				 m->sockets[x->b].os_index);
		else
			snprintf(where, sizeof(where), "socket %d to "
				 "memory-only nodes",
				 m->sockets[x->a].os_index);
		break;
	default:
		core_name(m, x->a, where, (int)sizeof(where));
		break;
	}
	snprintf(buf, (size_t)size, "%s %s", res_kind_name(x->kind), where);
	return buf;
}

int model_bottleneck_code(const struct model *md)
{
	int c = md->slowest;

	if (!md->n_classes)
		return BN_NONE;
	if (md->fast && md->rawmax[c] > 1 + 1e-12 && md->fast_kind >= 0)
		return md->fast_kind;
	if (md->rawmax[c] > 1 + 1e-12 && md->bott[c] >= 0)
		return md->res[md->bott[c]].kind;
	if (md->sres[c] > md->cls[c].slow * (1 + 1e-12))
		return BN_CORE_SHARING;
	if (md->cls[c].slow > 1 + 1e-12)
		return BN_SLOW_KIND;
	if (md->comm[c] > 1e-12)
		return BN_INTER_SOCKET;
	return BN_NONE;
}

const char *bottleneck_name(int code)
{
	if (code >= 0 && code < RK_COUNT)
		return res_kind_name(code);
	switch (code) {
	case BN_CORE_SHARING:
		return "core sharing";
	case BN_INTER_SOCKET:
		return "inter-socket";
	case BN_SLOW_KIND:
		return "slower core kind";
	default:
		return "-";
	}
}

const char *model_bottleneck(const struct model *md)
{
	return bottleneck_name(model_bottleneck_code(md));
}
