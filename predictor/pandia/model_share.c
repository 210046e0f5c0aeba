/*
 * model_share.c - how the memory policy shares a thread's DRAM traffic
 * among sockets and nodes, a core's instruction rate under SMT, and
 * what one thread alone demands of each kind of resource (the floor
 * of every capacity: docs/model.md).
 */
#include "predictor/pandia/model.h"

#include "predictor/pandia/model_internal.h"

/* Socket s's share of every thread's DRAM traffic under the policy. */
double model_mem_share(const struct space *sp, int s)
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
double model_nosocket_share(const struct space *sp, bool off)
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

double model_global_share(const struct space *sp)
{
	return model_nosocket_share(sp, false);
}

/* The socket whose node holds the local pages of core group CG of
   socket S when that is another socket (its own node excluded by the
   cpuset), else -1. */
int model_away_socket(const struct space *sp, const struct core_group *cg,
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

/* The share of a thread's DRAM traffic that leaves socket s. */
double model_remote_share(const struct space *sp, int s)
{
	double r;

	if (sp->mem.kind == MEM_LOCAL || mem_first_touch(sp->mem.kind) ||
	    (sp->mem.kind == MEM_INTERLEAVE && !sp->n_memnodes))
		return 0;
	r = 1 - model_mem_share(sp, s) - model_global_share(sp);
	return r < 1e-12 ? 0 : r;
}

/*
 * MEM_SPREAD (first touch by the threads): the pages are on the
 * sockets in use in proportion to their threads, so a thread of group
 * GI sends tsock / n of its DRAM traffic to each socket of a group
 * with tsock threads (*share, for one socket of group GI) and the
 * rest away from its own (*remote).  False, nothing changed, for the
 * other policies.  One thread alone keeps all its pages local, as
 * under MEM_LOCAL, so model_compute_solo() treats the two alike.
 * MEM_EVEN: every socket in use takes the same share.
 */
bool model_spread_share(const struct model *md, int gi, double *share,
			double *remote)
{
	int g, used = 0;

	if (!mem_first_touch(md->sp->mem.kind))
		return false;
	if (md->sp->mem.kind == MEM_SPREAD) {
		*share = md->n > 0 ? md->groups[gi].tsock / md->n : 0;
	} else {
		/* MEM_EVEN: the same share on every socket in use */
		for (g = 0; g < md->n_groups; g++)
			if (md->groups[g].tsock > 0)
				used += md->groups[g].mult;
		*share = used && md->groups[gi].tsock > 0 ? 1.0 / used : 0;
	}
	*remote = 1 - *share;
	return true;
}

/* The node that takes socket S's pages under MEM_SPREAD or MEM_EVEN. */
int model_spread_node(const struct space *sp, int s)
{
	return sp->groups[sp->sock_group0[s]].numa;
}

/*
 * What one thread alone can demand of each kind of resource under the
 * memory policy, wherever it runs: no resource has less capacity than
 * that, since the profile's one-thread run reached it (so one thread
 * always predicts t1, and capacities do not depend on the placement).
 */
void model_compute_solo(struct model *md)
{
	const struct space *sp = md->sp;
	const struct pandia_machine *m = sp->m;
	const struct model_params *p = &md->prm;
	double d = p->d[WR_DRAM], far = 0, remote = 0;
	int s, lvl;

	for (s = 0; s < m->n_sockets; s++) {
		double share = model_mem_share(sp, s);
		double r = model_remote_share(sp, s);

		far = share > far ? share : far;
		remote = r > remote ? r : remote;
	}
	/* memory-only nodes, local pages on another socket: all of it */
	if (model_nosocket_share(sp, true) > far)
		far = model_nosocket_share(sp, true);
	if (sp->remote_local && sp->mem.kind == MEM_LOCAL)
		far = remote = 1;
	md->solo[RK_INSTR] = p->d[WR_INSTRUCTIONS];
	md->solo[RK_PU] = 1;
	md->solo[RK_QUOTA] = 1;
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
