/*
 * mechsim_flow.c - the flows and resources of one simulated run and
 * their speeds: each flow's demands on the resources, the resources'
 * capacities, and the filling that shares them out (tests/progs/
 * mechsim.c has the rules, and which variant changes which).
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "tests/progs/mechsim.h"

/* how fast the saturating communication cost saturates */
#define SAT_K 4.0

static int node_socket(const struct pandia_machine *m, int k)
{
	return m->numa[k].socket;
}

/* Flow f (the last built) uses resource RES at COEF per unit of its
   rate (of its speed when ON_X). */
static void dem(struct sim *s, struct flow *f, int res, double coef,
		bool on_x)
{
	if (!(coef > 0) || res < 0)
		return;
	if (s->nd == s->capd) {
		s->capd = s->capd ? 2 * s->capd : 1024;
		s->d = xrealloc(s->d, sizeof(*s->d) * (size_t)s->capd);
	}
	s->d[s->nd].res = res;
	s->d[s->nd].coef = coef;
	s->d[s->nd].on_x = on_x;
	s->nd++;
	f->nd++;
}

/*
 * The link between sockets A and B.  The description gives both
 * directions added (docs/machine-format.md), and so does this: traffic
 * either way shares the pair's bandwidth.
 */
static int pair_res(const struct sim *s, int a, int b)
{
	if (a > b) {
		int t = a;

		a = b;
		b = t;
	}
	return s->r_pair + a * s->m->n_sockets + b;
}

/* How many flows run on pu and, beside it, on its core. */
static void neighbours(const struct sim *s, int i, int *on_pu, int *on_core)
{
	int j;

	*on_pu = *on_core = 0;
	for (j = 0; j < s->nf; j++) {
		if (j == i || !s->f[j].active)
			continue;
		if (s->f[j].pu == s->f[i].pu)
			(*on_pu)++;
		else if (s->f[j].core == s->f[i].core)
			(*on_core)++;
	}
}

/*
 * Turbo: the clock of socket SOCK's cores relative to one busy core,
 * 1 / (1 + turbo) with all busy, linear in the busy cores between
 * (turbo_exp 1), or a power of their share.  A core is busy with an
 * active flow on it, or (waits=spin) any thread of the workload.
 */
static double turbo_clock(const struct sim *s, int sock)
{
	const struct pandia_machine *m = s->m;
	int c, j, busy = 0, all = 0;

	if (!(s->v->turbo > 0))
		return 1;
	for (c = 0; c < m->n_cores; c++) {
		if (m->cores[c].socket != sock)
			continue;
		all++;
		for (j = 0; j < s->nf; j++)
			if ((s->f[j].active || (j < s->n &&
			     s->v->waits == W_SPIN)) && s->f[j].core == c) {
				busy++;
				break;
			}
	}
	if (all < 2 || busy < 2)
		return 1;
	return (1 + s->v->turbo * pow((double)(all - busy) / (all - 1),
				      s->v->turbo_exp)) / (1 + s->v->turbo);
}

/*
 * The capacities of S's resources for the current active set: a PU
 * runs one flow; a core its peak rate, or its SMT rate shared out when
 * several of its PUs are busy; the links their bandwidths; the lock one
 * holder.  What has no limit is infinite.
 */
static void set_capacities(struct sim *s)
{
	const struct pandia_machine *m = s->m;
	int i, j, k, lvl, c;

	for (i = 0; i < s->nres; i++)
		s->cap[i] = INFINITY;
	for (i = 0; i < m->n_pus; i++)
		s->cap[s->r_pu + i] = 1;
	for (c = 0; c < m->n_cores; c++) {
		int busy = 0, p;
		const struct pandia_core *co = &m->cores[c];
		double clock = turbo_clock(s, co->socket);

		for (p = 0; p < co->n_pus; p++)
			for (j = 0; j < s->nf; j++)
				if (s->f[j].active &&
				    s->f[j].pu == co->pus[p]) {
					busy++;
					break;
				}
		s->cap[s->r_core + c] = busy > 1 && m->smt_applicable &&
			co->n_pus > 1 ? m->peak_rate + (m->smt_rate -
			m->peak_rate) * (busy - 1) / (co->n_pus - 1) :
			m->peak_rate;
		if (clock < 1) {
			s->cap[s->r_core + c] *= clock;
			for (p = 0; p < co->n_pus; p++)
				s->cap[s->r_pu + co->pus[p]] = clock;
		}
		for (lvl = 0; lvl < LVL_COUNT; lvl++)
			if (m->links[lvl].present)
				s->cap[s->r_link[lvl] + c] =
					m->links[lvl].per_core_bw;
	}
	for (i = 0; i < m->n_sockets; i++)
		if (m->links[LVL_L3].present)
			s->cap[s->r_l3 + i] = m->links[LVL_L3].aggregate_bw;
	for (k = 0; k < m->n_numa; k++)
		s->cap[s->r_node + k] = m->links[LVL_DRAM].aggregate_bw;
	for (i = 0; i < m->n_sockets; i++)
		for (j = i + 1; j < m->n_sockets; j++) {
			double bw = machine_pair_bw(m, i, j);

			s->cap[pair_res(s, i, j)] = bw > 0 ? bw : INFINITY;
		}
	s->cap[s->r_lock] = 1;
}

/*
 * The stall per unit of work of a thread with RCOMM of its partners
 * remote: the workload's own form (comm_per), or the variant's.  ALL
 * is the stall with every partner remote; a per-partner workload's is
 * its comm_lat times the partners of a full machine, so that every
 * form agrees there.
 */
static double comm_stall(const struct sim *s, double rcomm)
{
	const struct wl *w = s->w;
	double n = s->n, q = rcomm / (n - 1), all, per;

	all = w->comm_pair ? w->comm_lat * (s->m->n_pus - 1) : w->comm_lat;
	per = w->comm_pair ? w->comm_lat : w->comm_lat / (s->m->n_pus - 1);
	switch (s->v->comm) {
	case C_PAIR:
		return per * rcomm;
	case C_FRACTION:
		return all * q;
	case C_SATURATING:
		return all * (1 - exp(-SAT_K * q)) / (1 - exp(-SAT_K));
	default:
		return w->comm_lat * (w->comm_pair ? rcomm : rcomm / (n - 1));
	}
}

/*
 * A flow's priority in the filling under the variant's arbitration of
 * DRAM bandwidth, from what it asks of DRAM (D) against a workload
 * thread (every thread asks the same): equal bytes (1 / D) or the
 * heaviest first (D); 1 for a flow that asks nothing of DRAM.
 */
static double arb_weight(const struct sim *s, double d)
{
	double ref = s->w->demand[LVL_DRAM];

	if (s->v->bw == BW_FAIR || !(d > 0) || !(ref > 0))
		return 1;
	return s->v->bw == BW_EQUAL ? ref / d : d / ref;
}

/* The demands of stressor F. */
static void stress_demands(struct sim *s, struct flow *f)
{
	const struct pandia_machine *m = s->m;
	int lvl = f->level;

	if (lvl < 0) {
		dem(s, f, s->r_core + f->core, m->peak_rate, true);
		return;
	}
	/* a bandwidth probe: its level's core link and shared structure,
	   at the level's per-core rate */
	dem(s, f, s->r_link[lvl] + f->core, m->links[lvl].per_core_bw,
	    false);
	if (lvl == LVL_L3)
		dem(s, f, s->r_l3 + f->socket, m->links[lvl].per_core_bw,
		    false);
	if (lvl == LVL_DRAM && f->node >= 0) {
		dem(s, f, s->r_node + f->node, m->links[lvl].per_core_bw,
		    false);
		f->weight = arb_weight(s, m->links[lvl].per_core_bw);
	}
}

/* The DRAM demands of workload thread I; its remote share. */
static double dram_demands(struct sim *s, int i)
{
	const struct pandia_machine *m = s->m;
	const struct wl *w = s->w;
	struct flow *f = &s->f[i];
	double remote = 0;
	int k;

	if (!m->links[LVL_DRAM].present || !(w->demand[LVL_DRAM] > 0))
		return 0;
	dem(s, f, s->r_link[LVL_DRAM] + f->core, w->demand[LVL_DRAM], false);
	for (k = 0; k < m->n_numa; k++) {
		double sh = s->share[i * m->n_numa + k];
		int ks = node_socket(m, k);

		if (!(sh > 0))
			continue;
		dem(s, f, s->r_node + k, w->demand[LVL_DRAM] * sh, false);
		if (ks >= 0 && ks != f->socket) {
			remote += sh;
			/* the data come from ks */
			dem(s, f, pair_res(s, ks, f->socket),
			    w->demand[LVL_DRAM] * sh, false);
		}
	}
	f->weight = arb_weight(s, w->demand[LVL_DRAM]);
	return remote;
}

/* The demands of workload thread I; PREM: the lock's remote chance. */
static void thread_demands(struct sim *s, int i, bool shared, double prem)
{
	const struct pandia_machine *m = s->m;
	const struct wl *w = s->w;
	struct flow *f = &s->f[i];
	double n = s->n, remote, rcomm = 0, instr = w->instr;
	int j, lvl;

	/* sharing a core: collisions slow everything it does, at its
	   PU's clock (set_capacities()), or (smt core) cost issue slots
	   of the core only */
	if (shared && s->v->smt == SMT_CORE)
		instr *= 1 + w->burst;
	else if (shared)
		f->xmax = s->cap[s->r_pu + f->pu] / (1 + w->burst);
	dem(s, f, s->r_core + f->core, instr, true);
	for (lvl = 0; lvl <= LVL_L3; lvl++)
		if (m->links[lvl].present)
			dem(s, f, s->r_link[lvl] + f->core, w->demand[lvl],
			    false);
	if (m->links[LVL_L3].present)
		dem(s, f, s->r_l3 + f->socket, w->demand[LVL_L3], false);
	remote = dram_demands(s, i);
	/* communication with the other threads */
	if (s->n > 1 && (w->comm > 0 || w->comm_lat > 0)) {
		double per = w->comm_pair ? w->comm : w->comm / (n - 1);

		for (j = 0; j < s->n; j++) {
			if (j == i || s->f[j].socket == f->socket)
				continue;
			rcomm++;
			/* exchanged: half each way, on the one resource of
			   the pair */
			dem(s, f, pair_res(s, f->socket, s->f[j].socket),
			    per / 2, false);
			dem(s, f, pair_res(s, s->f[j].socket, f->socket),
			    per / 2, false);
		}
		if (m->links[LVL_INTERCONNECT].present)
			dem(s, f, s->r_link[LVL_INTERCONNECT] + f->core,
			    per * rcomm + w->demand[LVL_DRAM] * remote, false);
		f->lat += comm_stall(s, rcomm);
	} else if (m->links[LVL_INTERCONNECT].present) {
		dem(s, f, s->r_link[LVL_INTERCONNECT] + f->core,
		    w->demand[LVL_DRAM] * remote, false);
	}
	f->lat += w->numa_lat * remote;
	if (w->lock_hold > 0)
		dem(s, f, s->r_lock, w->lock_hold * (1 + w->lock_xfer * prem),
		    false);
}

/*
 * The demands of every active flow, for the current active set (the
 * core's throughput and the burst depend on who else runs).
 */
static void build(struct sim *s)
{
	const struct pandia_machine *m = s->m;
	int i;
	double n = s->n, prem = 0;

	s->nd = 0;
	set_capacities(s);

	/* the lock: how often it comes from another socket */
	for (i = 0; i < m->n_sockets; i++)
		prem += (s->tsock[i] / n) * (s->tsock[i] / n);
	prem = 1 - prem;

	for (i = 0; i < s->nf; i++) {
		struct flow *f = &s->f[i];
		int on_pu, on_core;

		f->d0 = s->nd;
		f->nd = 0;
		if (!f->active)
			continue;
		neighbours(s, i, &on_pu, &on_core);
		f->xmax = 1;
		f->lat = 0;
		f->weight = 1;
		dem(s, f, s->r_pu + f->pu, 1, true);
		if (f->stress >= 0)
			stress_demands(s, f);
		else
			thread_demands(s, i, on_pu || on_core, prem);
	}
}

double ms_rate_of(const struct flow *f, double x)
{
	return x / (1 + f->lat * x);
}

/*
 * The speed of unfrozen flow F at fill level T: T xmax, or with a
 * priority T weight xmax up to xmax.
 */
static double speed_at(const struct flow *f, double t)
{
	if (f->weight == 1)
		return t * f->xmax;
	return fmin(f->xmax, t * f->weight * f->xmax);
}

/* Resource use at speeds x (unfrozen flows at speed_at(T)). */
static bool feasible(struct sim *s, double t)
{
	int i, k;

	for (i = 0; i < s->nres; i++)
		s->use[i] = 0;
	for (i = 0; i < s->nf; i++) {
		const struct flow *f = &s->f[i];
		double x, r;

		if (!f->active)
			continue;
		x = f->frozen ? f->x : speed_at(f, t);
		r = ms_rate_of(f, x);
		for (k = f->d0; k < f->d0 + f->nd; k++)
			s->use[s->d[k].res] += s->d[k].coef *
				(s->d[k].on_x ? x : r);
	}
	for (i = 0; i < s->nres; i++)
		if (s->use[i] > s->cap[i] * (1 + 1e-12))
			return false;
	return true;
}

/*
 * Max-min fair speeds of the active flows (progressive filling), each
 * flow's speed raised in proportion to its priority.
 */
void ms_solve(struct sim *s)
{
	double lo = 0, top;
	int i, k, it, left;

	build(s);
	for (i = 0; i < s->nf; i++) {
		s->f[i].frozen = !s->f[i].active;
		s->f[i].x = 0;
	}
	for (;;) {
		double hi;

		left = 0;
		top = 1;
		for (i = 0; i < s->nf; i++)
			if (!s->f[i].frozen) {
				left++;
				/* the level at which it reaches xmax */
				if (s->f[i].weight != 1)
					top = fmax(top, 1 / s->f[i].weight);
			}
		if (!left)
			break;
		hi = top;
		if (feasible(s, top)) {
			for (i = 0; i < s->nf; i++)
				if (!s->f[i].frozen) {
					s->f[i].x = s->f[i].xmax;
					s->f[i].frozen = true;
				}
			break;
		}
		for (it = 0; it < 60; it++) {
			double mid = (lo + hi) / 2;

			if (feasible(s, mid))
				lo = mid;
			else
				hi = mid;
		}
		/* freeze the flows on a resource that is full at hi */
		feasible(s, hi);
		left = 0;
		for (i = 0; i < s->nf; i++) {
			struct flow *f = &s->f[i];

			if (f->frozen)
				continue;
			for (k = f->d0; k < f->d0 + f->nd; k++)
				if (s->use[s->d[k].res] >
				    s->cap[s->d[k].res] * (1 + 1e-12))
					break;
			if (k < f->d0 + f->nd) {
				f->x = speed_at(f, lo);
				f->frozen = true;
				left++;
			}
		}
		if (!left)
			for (i = 0; i < s->nf; i++)
				if (!s->f[i].frozen) {
					s->f[i].x = speed_at(&s->f[i], lo);
					s->f[i].frozen = true;
				}
	}
}

/*
 * The resources of S's machine, numbered: its PUs, cores, each level's
 * links per core, L3s, nodes, socket pairs and the lock; their
 * capacities and uses, zero.
 */
void ms_number_resources(struct sim *s)
{
	const struct pandia_machine *m = s->m;
	int i;

	s->r_pu = 0;
	s->r_core = s->r_pu + m->n_pus;
	for (i = 0; i < LVL_COUNT; i++)
		s->r_link[i] = s->r_core + m->n_cores * (1 + i);
	s->r_l3 = s->r_core + m->n_cores * (1 + LVL_COUNT);
	s->r_node = s->r_l3 + m->n_sockets;
	s->r_pair = s->r_node + m->n_numa;
	s->r_lock = s->r_pair + m->n_sockets * m->n_sockets;
	s->nres = s->r_lock + 1;
	s->cap = xcalloc((size_t)s->nres, sizeof(double));
	s->use = xcalloc((size_t)s->nres, sizeof(double));
}
