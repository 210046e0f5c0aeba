/*
 * model_build.c - the general form of the model: a placement's socket
 * groups turned into classes of threads, resources and the incidence
 * list (which class loads which resource, by how much per unit of
 * utilisation), then normalised and partitioned for the solver.
 */
#include "predictor/pandia/model.h"

#include <string.h>

#include "predictor/pandia/model_internal.h"

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

/* Whether group GI's local pages are on socket X (model_away_socket()). */
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

		if (model_away_socket(sp, cg, g->socket) == x)
			return true;
	}
	return false;
}

/* Room in the scratch, and each group's shares of DRAM traffic. */
static void prepare_shares(struct model *md)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	int G = md->n_groups, gi, i;

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

		bc->memfrac[gi] = model_mem_share(sp, s);
		bc->remote[gi] = model_remote_share(sp, s);
		model_spread_share(md, gi, &bc->memfrac[gi], &bc->remote[gi]);
		if (bc->remote[gi] < 1e-12)
			bc->remote[gi] = 0;
		bc->snode[gi] = -1;
	}
}

/* The inter-socket links between groups, and within a group, that
   carry traffic, into the scratch's pair matrix. */
static void prepare_links(struct model *md, bool dram)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	int G = md->n_groups, ns = sp->m->n_sockets, gi, gj;

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
				       md->prm.d[WR_INTERCONNECT] > 0))
				r = add_res(md, RK_PAIR, sa, sb, bw);
			bc->pair[gi * G + gj] = r;
			bc->pair[gj * G + gi] = r;
		}
}

/* The nodes: every node that takes pages under the policy (not the
   local nodes of MEM_LOCAL, which build_group() adds per core). */
static void prepare_nodes(struct model *md, bool dram)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	int G = md->n_groups, gi, i;

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
	} else if (dram && mem_first_touch(sp->mem.kind)) {
		for (gi = 0; gi < G; gi++)
			if (bc->memfrac[gi] > 0)
				bc->snode[gi] = node_res(md, gi,
					model_spread_node(sp,
						md->groups[gi].socket));
	} else if (dram && sp->mem.kind == MEM_NODE) {
		int s = m->numa[sp->mem_node].socket;

		for (gi = 0; gi < G; gi++)
			if (s < 0 || md->groups[gi].socket == s)
				break;
		node_res(md, gi < G ? gi : 0, sp->mem_node);
	}
	bc->node1 = md->n_res;
}

/* Room for everything build_group() adds (add_inc checks not). */
static void prepare_room(struct model *md)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	int G = md->n_groups, gi, per;
	size_t items = 0;

	GROW(bc->offs, bc->cap_offs, sp->n_groups + 1);
	for (gi = 0; gi < G; gi++)
		items += (size_t)md->groups[gi].n_items;
	per = SPACE_MAX_SMT * (RK_COUNT + 5 + G + sp->m->n_numa);
	GROW(md->res, md->cap_res, md->n_res + (int)items * per + G + 8);
	if ((int)items * per + 8 > md->cap_inc) {
		md->cap_inc = (int)items * per + 8;
		md->inc = xrealloc(md->inc, sizeof(*md->inc) *
				   (size_t)md->cap_inc);
		md->incpt = xrealloc(md->incpt, sizeof(*md->incpt) *
				     (size_t)md->cap_inc);
	}
	GROW(bc->cres, bc->cap_cres, 6 * sp->n_groups + 1);
}

/* Before the groups: what one thread alone demands, the threads, and
   the resources that groups share (links, nodes). */
static void build_prepare(struct model *md)
{
	const struct pandia_machine *m = md->sp->m;
	bool dram = m->links[LVL_DRAM].present && md->prm.d[WR_DRAM] > 0;

	model_compute_solo(md);

	md->n_classes = md->n_res = md->n_inc = 0;
	model_count_threads(md);
	prepare_shares(md);
	prepare_links(md, dram);
	prepare_nodes(md, dram);
	prepare_room(md);
	/* the process's CPU quota: one resource for every thread, a
	   slowdown of its own like a PU's time (quota_time()) */
	md->quota_res = md->quota > 0 ?
		add_res(md, RK_QUOTA, -1, -1, md->quota) : -1;
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

/* What every item of one socket group shares (build_group()). */
struct group_build {
	int gi;			/* the group */
	int socket;		/* its first socket (m->sockets) */
	bool dram;		/* DRAM is described and demanded */
	double remote_pt;	/* a thread's traffic off its socket */
	double off;		/* share of DRAM on memory-only nodes */
	int r_off;		/* the link to them, or -1 */
	double clock;		/* the sockets' lower clock with their
				   busy cores (1: none) */
};

/* One item of the group: a core in one state, and its resources. */
struct item_build {
	const struct sitem *item;
	const struct core_group *cg;
	int core;		/* m->cores */
	/* a slower kind of core: the thread runs q times slower and so
	   asks q times less of everything per second */
	double slow, iq;	/* q and 1 / q */
	int gx;			/* group whose node holds its local pages
				   when that is another socket's, or -1 */
	double item_remote;	/* a thread's traffic off its socket */
	bool shared_node;	/* its node is on another socket or none */
	double cinstr;		/* b's core part (struct mclass) */
	struct cand cand[RK_COUNT];	/* the core's own resources */
	int nk;
	int r_agg[3];		/* the shared L2 and L3, or -1 */
	int r_node;		/* its node (local pages), or -1 */
};

/* The cores of each of group G's sockets that run threads. */
static int busy_cores(const struct mgroup *g)
{
	int it, busy = 0;

	for (it = 0; it < g->n_items; it++)
		if (g->items[it].cs.pus_used > 0)
			busy += g->items[it].ncores;
	return busy;
}

static void group_start(struct model *md, int gi, struct group_build *gb)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	const struct mgroup *g = &md->groups[gi];
	double n = md->n;
	double ic_pt = p->d[WR_INTERCONNECT] > 0 && n > 1 ?
		p->d[WR_INTERCONNECT] * (n - g->tsock) / (n - 1) : 0;
	int k;

	gb->gi = gi;
	gb->socket = g->socket;
	gb->dram = m->links[LVL_DRAM].present && p->d[WR_DRAM] > 0;
	gb->remote_pt = (gb->dram ? p->d[WR_DRAM] * bc->remote[gi] : 0) +
		ic_pt;
	gb->off = gb->dram ? model_nosocket_share(sp, true) : 0;
	gb->r_off = -1;
	gb->clock = machine_clock_slowdown(m, gb->socket, busy_cores(g));
	/* memory-only nodes: over this socket's link to them */
	if (gb->off > 0 && m->links[LVL_INTERCONNECT].present &&
	    g->tsock > 0)
		gb->r_off = add_res(md, RK_PAIR, gb->socket, -1,
				    m->links[LVL_INTERCONNECT].aggregate_bw);
	bc->cres[0] = 0;
	for (k = 0; k < sp->sock_ngroups[gb->socket]; k++)
		bc->offs[k] = 0;
}

/* The item's core (the next free one of its core group if the item
   names none) and where its pages are. */
static void item_start(struct model *md, const struct group_build *gb,
		       const struct sitem *item, struct item_build *ib)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	int s = gb->socket, away;

	ib->item = item;
	ib->cg = &sp->groups[sp->sock_group0[s] + item->gpos];
	ib->core = item->core >= 0 ? item->core :
		ib->cg->cores[bc->offs[item->gpos]];
	ib->slow = machine_core_slowdown(m, ib->core) * gb->clock;
	ib->iq = 1 / ib->slow;
	away = model_away_socket(sp, ib->cg, s);
	ib->gx = away >= 0 ? group_of_socket(md, away) : -1;
	ib->item_remote = gb->remote_pt +
		(away >= 0 && gb->dram ? md->prm.d[WR_DRAM] : 0);
	ib->shared_node = ib->cg->numa < 0 ||
		m->numa[ib->cg->numa].socket != s;
	if (item->core < 0)
		bc->offs[item->gpos] += item->ncores;
}

/* The resources of one core in this state, the shared caches above
   it and its node, and b's core part. */
static void item_candidates(struct model *md, const struct group_build *gb,
			    struct item_build *ib)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	const struct core_state *cs = &ib->item->cs;
	struct cand *cand = ib->cand;
	double iq = ib->iq;
	int lvl, nk = 0;

	ib->r_node = -1;
	if (p->d[WR_INSTRUCTIONS] > 0 && m->peak_rate > 0) {
		double rate = model_core_rate(m, cs->pus_used, cs->n_pus);

		core_cand(md, &cand[nk++], RK_INSTR, rate * iq,
			  p->d[WR_INSTRUCTIONS] * iq);
		if (ib->slow != 1) {
			/* the floor of one thread alone, in the
			   same units */
			double ce = rate > md->solo[RK_INSTR] ? rate :
				md->solo[RK_INSTR];

			cand[nk - 1].ratio = cand[nk - 1].pt / (ce * iq);
		}
	}
	for (lvl = 0; lvl < 3; lvl++) {
		ib->r_agg[lvl] = -1;
		if (!m->links[lvl].present || !(p->d[WR_L1 + lvl] > 0))
			continue;
		core_cand(md, &cand[nk++], RK_L1 + lvl,
			  m->links[lvl].per_core_bw, p->d[WR_L1 + lvl] * iq);
		if (lvl > 0)
			ib->r_agg[lvl] = shared_res(md, gb->gi, ib->cg,
						    lvl + 1, md->scratch->cres);
	}
	if (gb->dram) {
		core_cand(md, &cand[nk++], RK_DRAM_LINK,
			  m->links[LVL_DRAM].per_core_bw, p->d[WR_DRAM] * iq);
		if (sp->mem.kind == MEM_LOCAL ||
		    (sp->mem.kind == MEM_INTERLEAVE && !sp->n_memnodes))
			ib->r_node = node_res(md, gb->gi, ib->cg->numa);
	}
	if (m->links[LVL_INTERCONNECT].present && ib->item_remote > 0)
		core_cand(md, &cand[nk++], RK_IC_LINK,
			  m->links[LVL_INTERCONNECT].per_core_bw,
			  ib->item_remote * iq);
	ib->nk = nk;
	/* b's core part: the core's instruction load per unit of
	   utilisation (the ratio is the same on a slower kind) */
	ib->cinstr = p->d[WR_INSTRUCTIONS] > 0 ? cs->threads *
		model_alpha(md, RK_INSTR, p->d[WR_INSTRUCTIONS],
			    model_core_rate(m, cs->pus_used, cs->n_pus)) : 0;
}

/*
 * The same threads load all of the core's own resources, in fixed
 * proportions: only the one with the highest demand/capacity can be
 * the most oversubscribed, so a ranking keeps that one alone.  Then
 * the resources are added.
 */
static void item_resources(struct model *md, struct item_build *ib)
{
	struct cand *cand = ib->cand;
	int k;

	if (md->merge && ib->nk > 1) {
		int best = 0;

		for (k = 1; k < ib->nk; k++)
			if (cand[k].ratio > cand[best].ratio)
				best = k;
		cand[0] = cand[best];
		ib->nk = 1;
	}
	for (k = 0; k < ib->nk; k++) {
		cand[k].res = add_res(md, cand[k].kind, ib->core, -1,
				      cand[k].cap);
		if (cand[k].kind == RK_INSTR && ib->slow != 1)
			md->res[cand[k].res].cap_eff =
				cand[k].pt / cand[k].ratio;
	}
}

/* A new class of KAPPA threads on each of its PUs, the first at
   position POS of the item's core. */
static struct mclass *new_class(struct model *md,
				const struct group_build *gb,
				const struct item_build *ib, int pos,
				int kappa, double total)
{
	const struct pandia_machine *m = md->sp->m;
	const struct mgroup *g = &md->groups[gb->gi];
	const struct core_state *cs = &ib->item->cs;
	struct mclass *c;

	GROW(md->cls, md->cap_classes, md->n_classes + 1);
	c = &md->cls[md->n_classes++];
	c->n = total;
	c->group = gb->gi;
	c->socket = gb->socket;
	c->core = ib->core;
	c->pu = m->cores[ib->core].pus[ib->item->pupos[pos]];
	c->kappa = kappa;
	c->corun = 1;
	c->smt = cs->pus_used >= 2;
	c->tsock = g->tsock;
	c->cinstr = ib->cinstr;
	c->slow = ib->slow;
	c->clock = gb->clock;
	c->inc0 = md->n_inc;
	c->ninc = 0;
	return c;
}

/* The DRAM a class of TOTAL threads loads, PER_SOCK on each socket of
   its group, and the links between sockets it loads. */
static void class_memory_loads(struct model *md,
			       const struct group_build *gb,
			       const struct item_build *ib, double per_sock,
			       double total)
{
	struct model_scratch *bc = md->scratch;
	const struct space *sp = md->sp;
	const struct model_params *p = &md->prm;
	int G = md->n_groups, gi = gb->gi, gj;
	double n = md->n, iq = ib->iq;
	bool dram = gb->dram;

	/* a node on another socket or on none (or the
	   machine's one DRAM): all of the group's sockets
	   load that one node */
	add_inc(md, ib->r_node, ib->shared_node ? total : per_sock,
		p->d[WR_DRAM] * iq);
	add_inc(md, gb->r_off, per_sock, p->d[WR_DRAM] * gb->off * iq);
	if (dram && (sp->mem.kind == MEM_NODE ||
		     (sp->mem.kind == MEM_INTERLEAVE && sp->n_memnodes))) {
		int i;

		/* every thread's share reaches every node */
		double pt = p->d[WR_DRAM] /
			(sp->mem.kind == MEM_NODE ? 1 : sp->n_memnodes);

		for (i = bc->node0; i < bc->node1; i++)
			add_inc(md, i, total, pt * iq);
	}
	/* spread: each socket in use takes its share */
	for (gj = 0; dram && mem_first_touch(sp->mem.kind) && gj < G; gj++)
		add_inc(md, bc->snode[gj], total,
			p->d[WR_DRAM] * bc->memfrac[gj] * iq);
	for (gj = 0; gj < G; gj++) {
		int r = bc->pair[gi * G + gj];
		double pt;

		if (r < 0)
			continue;
		pt = (dram ? p->d[WR_DRAM] * bc->memfrac[gj] : 0);
		if (gj == ib->gx && dram)
			pt += p->d[WR_DRAM];
		if (n > 1)
			pt += p->d[WR_INTERCONNECT] * md->groups[gj].tsock /
				(n - 1);
		add_inc(md, r, per_sock * (gi == gj ? 2 : 1), pt * iq);
	}
}

/* The item's classes: one per distinct thread count on a PU. */
static void item_classes(struct model *md, const struct group_build *gb,
			 const struct item_build *ib)
{
	const struct model_params *p = &md->prm;
	const struct core_state *cs = &ib->item->cs;
	double inst_cores = ib->item->ncores;
	double mult = md->groups[gb->gi].mult;
	int pos, k, lvl;

	for (pos = 0; pos < cs->n_pus && cs->cnt[pos]; ) {
		int kappa = cs->cnt[pos], npos = 0, q;
		double per_core, per_sock, total;
		struct mclass *c;

		for (q = pos; q < cs->n_pus && cs->cnt[q] == kappa; q++)
			npos++;
		per_core = (double)kappa * npos;
		per_sock = per_core * inst_cores;
		total = per_sock * mult;
		c = new_class(md, gb, ib, pos, kappa, total);

		/* a PU's time (pu_time()): one thread alone cannot
		   overload it, so only shared PUs count, and every
		   PU of an explicit placement, where a co-runner
		   may share it (model_corun()) */
		if (kappa > 1 || !md->merge)
			add_inc(md, add_res(md, RK_PU, c->pu, -1, 1),
				kappa, 1);
		add_inc(md, md->quota_res, total, 1);
		for (k = 0; k < ib->nk; k++)
			add_inc(md, ib->cand[k].res, per_core, ib->cand[k].pt);
		for (lvl = 1; lvl < 3; lvl++)
			add_inc(md, ib->r_agg[lvl], per_sock,
				p->d[WR_L1 + lvl] * ib->iq);
		class_memory_loads(md, gb, ib, per_sock, total);
		pos = q;
	}
}

/* Group GI's classes, resources and incidences. */
static void build_group(struct model *md, int gi)
{
	const struct mgroup *g = &md->groups[gi];
	struct group_build gb;
	struct item_build ib;
	int it;

	group_start(md, gi, &gb);
	for (it = 0; it < g->n_items; it++) {
		item_start(md, &gb, &g->items[it], &ib);
		item_candidates(md, &gb, &ib);
		item_resources(md, &ib);
		item_classes(md, &gb, &ib);
	}
}

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
	model_state_room(md, md->n_classes, md->n_groups);
	model_partition(md);
}

/*
 * A resource that only one class loads is oversubscribed by coef * f0:
 * fold those into the class's own maximum, and keep the shared ones
 * (and those that other workloads load too: model_background()) in a
 * second list for the solver.
 */
void model_partition(struct model *md)
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
			/* a PU's time and the quota are no loads:
			   pu_time(), quota_time() */
			if (md->res[md->inc[i].res].kind == RK_PU ||
			    md->res[md->inc[i].res].kind == RK_QUOTA)
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

void model_build_general(struct model *md)
{
	int gi;

	build_prepare(md);
	for (gi = 0; gi < md->n_groups; gi++)
		build_group(md, gi);
	build_finish(md);
}
