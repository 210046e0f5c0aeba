/*
 * check_model.c - the Pandia model (paper, section 5).
 *
 *   - the paper's worked example, Figures 7 (a) to (e) and 9 (a),
 *     step by step, and its final speedup;
 *   - a per-thread reference implementation of section 5 written
 *     independently of the class machinery, against the model on
 *     random placements, parameters and memory policies;
 *   - the invariants: one thread predicts t1; p = 1 without
 *     contention gives speedup n; placements equal under symmetry
 *     predict the same; more demand never predicts less time; the
 *     ranking's fast form equals the general one;
 *   - robustness: thousands of random parameter sets, extremes
 *     included, always end with a finite positive time.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/pandia/fit.h"
#include "predictor/pandia/model.h"
#include "predictor/pandia/params.h"
#include "predictor/space.h"
#include "stress/assume.h"
#include "tests/lib/testkit.h"

#define FIG3_TOPOLOGY "Package:2 [NUMANode(memory=1073741824)] Core:2 PU:2"
#define FIG3_ASSUME "machines/paper-figure3.assume.json"
#define PAPER_WORKLOAD "tests/data/paper-section4-workload.json"
#define ASSUME "tests/data/assume-full.json"

/* Machines with caches, SMT, several sockets; one with L2 clusters. */
static const char *const machines[] = {
	"Package:2 [NUMANode(memory=1073741824)] L3Cache:1(size=8388608) "
	"L2Cache:2(size=262144) L1dCache:1(size=32768) Core:1 PU:2",
	"Package:3 [NUMANode(memory=1073741824)] L3Cache:1(size=8388608) "
	"Core:2 PU:2",
	"Package:2 [NUMANode(memory=1073741824)] L3Cache:1(size=8388608) "
	"L2Cache:2(size=524288) Core:2 PU:1",
	"Package:1 [NUMANode(memory=1073741824)] Core:3 PU:1",
};

/* ---- the worked example (section 5, Figures 7 and 9) ------------ */

/* What the trace saw: per iteration 1..2, step a..e, thread 0..2. */
struct seen {
	double res[3][5][3], comm[3][5][3], lb[3][5][3], all[3][5][3];
	double util[3][5][3];
	double ic_load[3], ic_ratio[3], dram_load[3][2];
	int bott_kind[3][3];
};

static void record(const struct model *md, int it, char step, void *arg)
{
	struct seen *s = arg;
	int t, r, k = step - 'a';

	if (it > 2)
		return;
	if (step == 'b') {
		for (r = 0; r < md->n_res; r++) {
			const struct mres *x = &md->res[r];
			double l = md->load[r] * x->cap_eff;

			if (x->kind == RK_PAIR) {
				s->ic_load[it] = l / 1e9;
				s->ic_ratio[it] = l / x->cap;
			}
			if (x->kind == RK_NODE)
				s->dram_load[it][x->a] = l / 1e9;
		}
		return;
	}
	for (t = 0; t < md->n_threads; t++) {
		int c = md->thread_class[t];

		s->res[it][k][t] = md->sres[c];
		s->comm[it][k][t] = md->comm[c];
		s->lb[it][k][t] = md->lb[c];
		s->all[it][k][t] = md->sres[c] + md->comm[c] + md->lb[c];
		s->util[it][k][t] = md->f[c];
		if (step == 'c')
			s->bott_kind[it][t] = md->bott[c] >= 0 ?
				md->res[md->bott[c]].kind : -1;
	}
}

enum field { RES, COMM, LB, ALL, UTIL };

/*
 * The printed tables, cell by cell (threads U, V, W = PUs 0, 1, 4).
 * slack: the paper's value may differ from ours by this much; every
 * cell but two matches to the printed two decimals.  The two: in
 * Figure 7(e) the paper gives W 0.40 and 2.48, "the point 50% between
 * 2.08 and 2.87", computed from the rounded 2.08 and 2.87 (2.475,
 * rounded up).  From the unrounded 2.0783 and 2.8663 the point is
 * 2.4723 and the penalty 0.3940 (docs/model.md, "The worked example").
 */
static const struct cell {
	int line;
	int it;
	char step;
	enum field field;
	double u, v, w;
	double slack;
} cells[] = {
	/* Figure 7 (a): start of the first iteration */
	{ __LINE__, 1, 'a', RES, 1.00, 1.00, 1.00, 0 },
	{ __LINE__, 1, 'a', COMM, 0.00, 0.00, 0.00, 0 },
	{ __LINE__, 1, 'a', LB, 0.00, 0.00, 0.00, 0 },
	{ __LINE__, 1, 'a', ALL, 1.00, 1.00, 1.00, 0 },
	{ __LINE__, 1, 'a', UTIL, 0.83, 0.83, 0.83, 0 },
	/* Figure 7 (c): most oversubscribed resource + burstiness */
	{ __LINE__, 1, 'c', RES, 2.83, 2.83, 2.00, 0 },
	{ __LINE__, 1, 'c', COMM, 0.00, 0.00, 0.00, 0 },
	{ __LINE__, 1, 'c', LB, 0.00, 0.00, 0.00, 0 },
	{ __LINE__, 1, 'c', ALL, 2.83, 2.83, 2.00, 0 },
	{ __LINE__, 1, 'c', UTIL, 0.29, 0.29, 0.42, 0 },
	/* Figure 7 (d): communication */
	{ __LINE__, 1, 'd', RES, 2.83, 2.83, 2.00, 0 },
	{ __LINE__, 1, 'd', COMM, 0.03, 0.03, 0.08, 0 },
	{ __LINE__, 1, 'd', LB, 0.00, 0.00, 0.00, 0 },
	{ __LINE__, 1, 'd', ALL, 2.87, 2.87, 2.08, 0 },
	{ __LINE__, 1, 'd', UTIL, 0.29, 0.29, 0.40, 0 },
	/* Figure 7 (e): load balance */
	{ __LINE__, 1, 'e', RES, 2.83, 2.83, 2.00, 0 },
	{ __LINE__, 1, 'e', COMM, 0.03, 0.03, 0.08, 0 },
	{ __LINE__, 1, 'e', LB, 0.00, 0.00, 0.40, 0.01 },
	{ __LINE__, 1, 'e', ALL, 2.87, 2.87, 2.48, 0.01 },
	{ __LINE__, 1, 'e', UTIL, 0.29, 0.29, 0.34, 0 },
	/* Figure 9 (a): start of the second iteration */
	{ __LINE__, 2, 'a', RES, 1.00, 1.00, 1.00, 0 },
	{ __LINE__, 2, 'a', COMM, 0.00, 0.00, 0.00, 0 },
	{ __LINE__, 2, 'a', LB, 0.00, 0.00, 0.00, 0 },
	{ __LINE__, 2, 'a', ALL, 1.00, 1.00, 1.00, 0 },
	{ __LINE__, 2, 'a', UTIL, 0.82, 0.82, 0.67, 0 },
};

/* v printed with two decimals, as the paper prints it */
static double two(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.2f", v);
	return atof(buf);
}

static struct seen example;
static double example_speedup;
static int example_iterations;

static void run_example(void)
{
	static bool done;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct pandia_error err;
	struct model_params prm = { 0 };
	struct space *sp;
	struct model md;
	int pus[3];

	if (done)
		return;
	m = tk_machine(FIG3_TOPOLOGY, FIG3_ASSUME);
	w = workload_load(PAPER_WORKLOAD, &err);
	ck_assert_msg(w != NULL, "%s", err.text);
	ck_assert_int_eq(w->memory.kind, MEM_INTERLEAVE);
	sp = space_new(m, 1, &w->memory, &err);
	ck_assert_ptr_nonnull(sp);
	model_params_of(w, &prm);
	model_init(&md, sp, &prm);
	md.trace = record;
	md.trace_arg = &example;
	pus[0] = machine_pu_index(m, 0);
	pus[1] = machine_pu_index(m, 1);
	pus[2] = machine_pu_index(m, 4);
	model_time_pus(&md, pus, 3);
	example_speedup = md.speedup;
	example_iterations = md.iterations;
	model_release(&md);
	space_free(sp);
	workload_free(w);
	machine_free(m);
	done = true;
}

START_TEST(test_figure_cells)
{
	const struct cell *c = &cells[_i];
	const double want[3] = { c->u, c->v, c->w };
	int t;

	run_example();
	for (t = 0; t < 3; t++) {
		int k = c->step - 'a';
		double got = c->field == RES ? example.res[c->it][k][t] :
			c->field == COMM ? example.comm[c->it][k][t] :
			c->field == LB ? example.lb[c->it][k][t] :
			c->field == ALL ? example.all[c->it][k][t] :
			example.util[c->it][k][t];

		ck_assert_msg(fabs(two(got) - want[t]) <= c->slack + 1e-9,
			      "line %d: iteration %d (%c) thread %c: %.4f, "
			      "the paper prints %.2f", c->line, c->it,
			      c->step, "UVW"[t], got, want[t]);
	}
}
END_TEST

/* Figure 7 (b): 3 x 40 x 0.83 = 100 on the link and on each socket's
   memory, 100/50 = 2.00 on the link; in 9 (b) the link stays the
   bottleneck with W's load reduced. */
START_TEST(test_figure_demands)
{
	run_example();
	ck_assert_msg(fabs(example.ic_load[1] - 100) < 1e-9, "%f",
		      example.ic_load[1]);
	ck_assert(fabs(example.ic_ratio[1] - 2) < 1e-12);
	ck_assert(fabs(example.dram_load[1][0] - 100) < 1e-9);
	ck_assert(fabs(example.dram_load[1][1] - 100) < 1e-9);
	ck_assert(example.bott_kind[1][0] == RK_PAIR &&
		  example.bott_kind[1][1] == RK_PAIR &&
		  example.bott_kind[1][2] == RK_PAIR);
	ck_assert(example.ic_load[2] < example.ic_load[1]);
	ck_assert(example.ic_ratio[2] > 1);
	ck_assert(example.bott_kind[2][0] == RK_PAIR &&
		  example.bott_kind[2][2] == RK_PAIR);
}
END_TEST

/* Section 5.5: "a predicted speedup of 1.005 after 4 iterations"; the
   careful reading gives 0.9919 (docs/model.md). */
START_TEST(test_figure_speedup)
{
	run_example();
	ck_assert_msg(fabs(example_speedup / 1.005 - 1) < 0.02,
		      "speedup %.4f", example_speedup);
	ck_assert_msg(fabs(example_speedup - 0.99185) < 2e-4,
		      "speedup %.5f", example_speedup);
	ck_assert_int_le(example_iterations, 10);
}
END_TEST

/* ---- a per-thread reference of section 5 ------------------------ */

/*
 * Written from the paper and docs/model.md alone, one thread at a time
 * and one resource instance at a time, with the plain iteration; it
 * shares no code with predictor/pandia/model.c.
 */
struct ref {
	const struct pandia_machine *m;
	const struct model_params *p;
	struct pandia_mempolicy mem;
	int n;
	const int *pu;		/* m->pus index per thread */
};

static double ref_cap(double cap, double pt)
{
	return cap > pt ? cap : pt;
}

static int node_of(const struct pandia_machine *m, int core)
{
	return m->cores[core].numa;
}

/* share of a thread's DRAM traffic that goes to socket s's nodes */
static double ref_share(const struct ref *R, int s)
{
	const struct pandia_machine *m = R->m;
	int i, on = 0, all = 0;

	if (R->mem.kind == MEM_LOCAL)
		return 0;
	if (R->mem.kind == MEM_SPREAD) {
		/* first touch: the threads on socket s over all of them */
		for (i = 0; i < R->n; i++)
			on += m->cores[m->pus[R->pu[i]].core].socket == s;
		return (double)on / R->n;
	}
	for (i = 0; i < m->n_numa; i++) {
		if (R->mem.kind == MEM_NODE) {
			if (m->numa[i].os_index == R->mem.node)
				return m->numa[i].socket == s;
			continue;
		}
		all++;
		on += m->numa[i].socket == s;
	}
	return (double)on / all;
}

/* whether some core has node a as its own */
static bool ref_owned(const struct pandia_machine *m, int a)
{
	int c;

	for (c = 0; c < m->n_cores; c++)
		if (m->cores[c].numa == a)
			return true;
	return false;
}

/* share of a thread's DRAM traffic on nodes of no socket: those some
   core has as its own (UMA, reached without a link) when OFF is false,
   the memory-only ones (across the interconnect) when true */
static double ref_nosocket(const struct ref *R, bool off)
{
	const struct pandia_machine *m = R->m;
	int i, on = 0;

	if (R->mem.kind == MEM_LOCAL)
		return 0;
	for (i = 0; i < m->n_numa; i++) {
		bool mine = m->numa[i].socket < 0 &&
			ref_owned(m, i) != off;

		if (R->mem.kind == MEM_NODE) {
			if (m->numa[i].os_index == R->mem.node)
				return mine;
			continue;
		}
		on += mine;
	}
	return (double)on / m->n_numa;
}

/* share of its DRAM traffic that leaves socket s (none when local) */
static double ref_remote(const struct ref *R, int s)
{
	return R->mem.kind == MEM_LOCAL ? 0 : 1 - ref_share(R, s) -
		ref_nosocket(R, false);
}

/* the socket of core c's node when that is not its own, else -1 */
static int ref_away(const struct ref *R, int c)
{
	const struct pandia_machine *m = R->m;
	int a = m->cores[c].numa;

	if (R->mem.kind != MEM_LOCAL || a < 0 || m->numa[a].socket < 0 ||
	    m->numa[a].socket == m->cores[c].socket)
		return -1;
	return m->numa[a].socket;
}

/* the DRAM share of a thread on core c that goes to socket b */
static double ref_to(const struct ref *R, int c, int b)
{
	if (R->mem.kind == MEM_LOCAL)
		return ref_away(R, c) == b ? 1 : 0;
	return ref_share(R, b);
}

/* a core of a slower kind: peak_rate / its kind's rate */
static double ref_kind(const struct pandia_machine *m, int c)
{
	if (!m->n_kinds)
		return 1;
	return m->peak_rate / m->kinds[m->cores[c].kind].rate;
}

/* Most of a thread's DRAM traffic that leaves its socket (REMOTE), or
   that reaches one other socket, wherever the thread is. */
static double ref_far(const struct ref *R, bool remote)
{
	double most = 0;
	int s;

	if (!(R->m->links[LVL_DRAM].present && R->p->d[WR_DRAM] > 0) ||
	    R->mem.kind == MEM_SPREAD)
		return 0;	/* spread: one thread alone is local */
	for (s = 0; s < R->m->n_sockets; s++) {
		double v = remote ? ref_remote(R, s) : ref_share(R, s);

		most = v > most ? v : most;
	}
	for (s = 0; s < R->m->n_cores; s++)
		if (ref_away(R, s) >= 0)
			most = 1;
	if (!remote && ref_nosocket(R, true) > most)
		most = ref_nosocket(R, true);
	return most;
}

static int ref_nmem(const struct ref *R)
{
	return R->mem.kind == MEM_NODE ? 1 : R->m->n_numa;
}

/* the DRAM traffic per second of thread j, its kind considered */
static double ref_dj(const struct ref *R, int j, double d)
{
	return d / ref_kind(R->m, R->m->pus[R->pu[j]].core);
}

/* one thread's per-PU-count classes: threads on its PU */
static int on_pu(const struct ref *R, int p)
{
	int j, k = 0;

	for (j = 0; j < R->n; j++)
		k += R->pu[j] == p;
	return k;
}

/* One thread's view of an iteration of ref_solve(). */
struct ref_it {
	const struct ref *R;
	const double *f0;	/* the utilisations at its start */
	const double *tsock;	/* the threads on each socket */
	bool dram;		/* the workload has DRAM traffic */
};

/*
 * 5.1, thread i's core: instructions at the core's capacity CAPI, its
 * links to L1-L3, DRAM and the other sockets.  The most loaded.
 */
static double ref_core_links(const struct ref_it *ctx, int i, double capi)
{
	const struct ref *R = ctx->R;
	const struct pandia_machine *m = R->m;
	const struct model_params *p = R->p;
	const double *f0 = ctx->f0;
	int n = R->n, ci = m->pus[R->pu[i]].core;
	int si = m->cores[ci].socket, q, j;
	const double *tsock = ctx->tsock;
	bool dram = ctx->dram;
	double mx = 0, cap = capi, pt, l;

	for (q = 0; q < 6; q++) {
		if (q == 0) {
			pt = p->d[WR_INSTRUCTIONS];
		} else if (q <= 3) {
			if (!m->links[q - 1].present)
				continue;
			pt = p->d[WR_L1 + q - 1];
			cap = m->links[q - 1].per_core_bw;
		} else if (q == 4) {
			if (!dram)
				continue;
			pt = p->d[WR_DRAM];
			cap = m->links[LVL_DRAM].per_core_bw;
		} else {
			if (!m->links[LVL_INTERCONNECT].present)
				continue;
			pt = (dram ? p->d[WR_DRAM] *
			      (ref_remote(R, si) +
			       (ref_away(R, ci) >= 0)) : 0) +
				(n > 1 ? p->d[WR_INTERCONNECT] *
				 (n - tsock[si]) / (n - 1) : 0);
			cap = m->links[LVL_INTERCONNECT]
				.per_core_bw;
		}
		if (!(pt > 0))
			continue;
		l = 0;
		/* a slower kind asks less per second, of
		   everything but its own core's rate, which is
		   as much less */
		for (j = 0; j < n; j++)
			l += m->pus[R->pu[j]].core == ci ?
				f0[j] * (q ? ref_dj(R, j, pt) :
					 pt) : 0;
		/* capacity: at least one thread's demand
		   alone; for the link to other sockets, from
		   the socket farthest from its memory */
		mx = fmax(mx, l / ref_cap(cap, q < 5 ? pt :
			  p->d[WR_DRAM] * ref_far(R, true)));
	}
	return mx;
}

/* 5.1, thread i's shared caches: the most loaded. */
static double ref_caches(const struct ref_it *ctx, int i)
{
	const struct ref *R = ctx->R;
	const struct pandia_machine *m = R->m;
	const struct model_params *p = R->p;
	const double *f0 = ctx->f0;
	int n = R->n, ci = m->pus[R->pu[i]].core;
	const struct pandia_core *co = &m->cores[ci];
	int si = co->socket, lvl, j;
	double mx = 0, pt, l;

	/* shared caches: the cores of its L2 / L3 (one per
	   socket when there is no L3 object) */
	for (lvl = 1; lvl < 3; lvl++) {
		int cache = co->cache[lvl];

		if (!m->links[lvl].present ||
		    !(p->d[WR_L1 + lvl] > 0))
			continue;
		if (cache >= 0 && m->caches[cache].n_cores < 2)
			continue;
		if (cache < 0 && lvl == 1)
			continue;
		pt = p->d[WR_L1 + lvl];
		l = 0;
		for (j = 0; j < n; j++) {
			int cj = m->pus[R->pu[j]].core;

			if (cache >= 0 ?
			    m->cores[cj].cache[lvl] == cache :
			    m->cores[cj].socket == si)
				l += f0[j] * ref_dj(R, j, pt);
		}
		mx = fmax(mx, l / ref_cap(m->links[lvl]
					  .aggregate_bw, pt));
	}
	return mx;
}

/* 5.1, thread i's memory: the most loaded node. */
static double ref_memory(const struct ref_it *ctx, int i)
{
	const struct ref *R = ctx->R;
	const struct pandia_machine *m = R->m;
	const struct model_params *p = R->p;
	const double *f0 = ctx->f0;
	int n = R->n, ci = m->pus[R->pu[i]].core;
	double mx = 0, pt, l;
	int a, j;

	/* its node, or every node it spreads to */
	if (!ctx->dram)
		return 0;
	for (a = 0; a < m->n_numa; a++) {
		bool mine;

		pt = p->d[WR_DRAM];
		if (R->mem.kind == MEM_SPREAD) {
			int sa = m->numa[a].socket;

			/* a socket's pages on the node
			   of its first core */
			mine = sa >= 0 && node_of(m,
				m->sockets[sa].cores[0])
				== a;
			pt *= mine ? ref_share(R, sa) :
				0;
			mine = mine && pt > 0;
		} else if (R->mem.kind == MEM_LOCAL) {
			mine = node_of(m, ci) == a;
		} else if (R->mem.kind == MEM_NODE) {
			mine = m->numa[a].os_index ==
				R->mem.node;
		} else {
			mine = true;
			pt /= ref_nmem(R);
		}
		if (!mine)
			continue;
		l = 0;
		for (j = 0; j < n; j++) {
			int cj = m->pus[R->pu[j]].core;

			if (R->mem.kind != MEM_LOCAL ||
			    node_of(m, cj) == a)
				l += f0[j] *
					ref_dj(R, j, pt);
		}
		mx = fmax(mx, l / ref_cap(m->links[
			LVL_DRAM].aggregate_bw,
			R->mem.kind == MEM_SPREAD ?
			p->d[WR_DRAM] : pt));
	}
	return mx;
}

/* 5.1, the links from thread i's socket to every other: the busiest. */
static double ref_sockets(const struct ref_it *ctx, int i)
{
	const struct ref *R = ctx->R;
	const struct pandia_machine *m = R->m;
	const struct model_params *p = R->p;
	const double *f0 = ctx->f0;
	int n = R->n, ci = m->pus[R->pu[i]].core;
	int si = m->cores[ci].socket, S = m->n_sockets, b, j;
	const double *tsock = ctx->tsock;
	bool dram = ctx->dram;
	double mx = 0, l;

	for (b = 0; b < S; b++) {
		double bw = 0, pab, capx;
		int x;

		if (b == si)
			continue;
		if (m->links[LVL_INTERCONNECT].present)
			bw = m->links[LVL_INTERCONNECT]
				.aggregate_bw;
		for (x = 0; x < m->n_xlinks; x++)
			if ((m->xlinks[x].from == si &&
			     m->xlinks[x].to == b) ||
			    (m->xlinks[x].from == b &&
			     m->xlinks[x].to == si))
				bw = m->xlinks[x].bw;
		if (!(bw > 0))
			continue;
		pab = (dram ? p->d[WR_DRAM] *
		       ref_to(R, ci, b) : 0) +
			(n > 1 ? p->d[WR_INTERCONNECT] *
			 tsock[b] / (n - 1) : 0);
		if (!(pab > 0))
			continue;
		capx = ref_cap(bw, p->d[WR_DRAM] *
			       ref_far(R, false));
		l = 0;
		for (j = 0; j < n; j++) {
			int cj = m->pus[R->pu[j]].core;
			int sj = m->cores[cj].socket;
			double tj = n > 1 ?
				p->d[WR_INTERCONNECT] *
				tsock[sj == si ? b : si] /
				(n - 1) : 0;

			if (sj == si)
				tj += dram ? p->d[WR_DRAM] *
					ref_to(R, cj, b) : 0;
			else if (sj == b)
				tj += dram ? p->d[WR_DRAM] *
					ref_to(R, cj, si) : 0;
			else
				continue;
			l += f0[j] * ref_dj(R, j, tj);
		}
		mx = fmax(mx, l / capx);
	}
	return mx;
}

/* 5.1, memory-only nodes: thread i's socket's link to them. */
static double ref_memonly(const struct ref_it *ctx, int i)
{
	const struct ref *R = ctx->R;
	const struct pandia_machine *m = R->m;
	const struct model_params *p = R->p;
	const double *f0 = ctx->f0;
	int n = R->n, ci = m->pus[R->pu[i]].core;
	int si = m->cores[ci].socket, j;
	bool dram = ctx->dram;
	double mx = 0, pt, l;

	pt = dram ? p->d[WR_DRAM] * ref_nosocket(R, true) : 0;
	if (pt > 0 && m->links[LVL_INTERCONNECT].present) {
		l = 0;
		for (j = 0; j < n; j++)
			if (m->cores[m->pus[R->pu[j]].core]
			    .socket == si)
				l += f0[j] * ref_dj(R, j, pt);
		mx = fmax(mx, l / ref_cap(m->links[
			LVL_INTERCONNECT].aggregate_bw,
			p->d[WR_DRAM] * ref_far(R, false)));
	}
	return mx;
}

/*
 * 5.1, thread i's slowdown by its resources: its PU's time (the others
 * on it run only in parallel work), the most loaded resource on its
 * path, its burstiness when its core runs other threads, its kind.
 */
static double ref_sres(const struct ref_it *ctx, int i)
{
	const struct ref *R = ctx->R;
	const struct pandia_machine *m = R->m;
	const struct model_params *p = R->p;
	const double *f0 = ctx->f0;
	int n = R->n, ci = m->pus[R->pu[i]].core;
	const struct pandia_core *co = &m->cores[ci];
	double mx, l = 0, cap, capi, pui, sres;
	int used = 0, q, j;

	for (j = 0; j < n; j++)
		l += j != i && R->pu[j] == R->pu[i] ? f0[j] : 0;
	pui = l > 0 ? 1 + p->p * l : f0[i];
	for (q = 0; q < co->n_pus; q++)
		used += on_pu(R, co->pus[q]) > 0;
	cap = m->peak_rate;
	if (used > 1 && m->smt_applicable)
		cap += (m->smt_rate - m->peak_rate) *
			(used - 1) / (co->n_pus - 1);
	capi = cap;
	mx = fmax(pui, ref_core_links(ctx, i, capi));
	mx = fmax(mx, ref_caches(ctx, i));
	mx = fmax(mx, ref_memory(ctx, i));
	mx = fmax(mx, ref_sockets(ctx, i));
	mx = fmax(mx, ref_memonly(ctx, i));
	sres = mx > 1 ? mx : 1;
	/*
	 * burstiness when its core runs other threads: on
	 * another PU of the core, or time-sharing its PU
	 */
	if ((used > 1 || on_pu(R, R->pu[i]) > 1) &&
	    p->b_core) {
		/* b on the core's part only: its threads'
		   instruction load at this thread's
		   utilisation, or its PU's time */
		double core = 0;

		for (j = 0; j < n; j++)
			core += m->pus[R->pu[j]].core == ci;
		core *= p->d[WR_INSTRUCTIONS] > 0 ? f0[i] *
			p->d[WR_INSTRUCTIONS] / ref_cap(capi,
			p->d[WR_INSTRUCTIONS]) : 0;
		core = fmax(1, fmax(core, pui));
		core += core * p->b * f0[i];
		sres = fmax(sres, core);
	} else if (used > 1 || on_pu(R, R->pu[i]) > 1) {
		sres += sres * p->b * f0[i];
	}
	return sres * ref_kind(m, ci);
}

static double ref_solve(const struct ref *R)
{
	const struct pandia_machine *m = R->m;
	const struct model_params *p = R->p;
	int n = R->n, i, j, it, S = m->n_sockets;
	double *f0 = calloc((size_t)n, sizeof(double));
	double *sres = calloc((size_t)n, sizeof(double));
	double *s = calloc((size_t)n, sizeof(double));
	double *ratio = calloc((size_t)n, sizeof(double));
	double *tsock = calloc((size_t)S, sizeof(double));
	double A = 1 / ((1 - p->p) + p->p / n), fi = A / n, sum = 0;
	struct ref_it ctx = { R, f0, tsock,
			      m->links[LVL_DRAM].present && p->d[WR_DRAM] > 0 };

	for (i = 0; i < n; i++) {
		ratio[i] = 1;
		tsock[m->cores[m->pus[R->pu[i]].core].socket]++;
	}
	for (it = 1; it <= 2000; it++) {
		double smax = 1, W = 0, delta = 0;

		for (i = 0; i < n; i++)
			f0[i] = fi * ratio[i];
		/* 5.1: every resource instance on thread i's path */
		for (i = 0; i < n; i++) {
			sres[i] = ref_sres(&ctx, i);
			W += 1 / sres[i];
		}
		/* 5.2: lock-step and independent, mixed by l */
		for (i = 0; i < n; i++) {
			int si = m->cores[m->pus[R->pu[i]].core].socket;
			double lock = 0, ind = 0;

			for (j = 0; j < n; j++) {
				int sj = m->cores[m->pus[R->pu[j]].core].socket;
				double o = si != sj ? p->o_s : 0;

				if (p->os_fraction && n > 1)
					o /= n - 1;

				lock += o;
				ind += (1 / sres[j]) / W * o;
			}
			ind *= n;
			s[i] = sres[i] + (p->l * ind + (1 - p->l) * lock) *
				f0[i] / sres[i];
			smax = fmax(smax, s[i]);
		}
		/* 5.3 and 5.4 */
		for (i = 0; i < n; i++) {
			double r;

			s[i] += (1 - p->l) * (smax - s[i]);
			r = sres[i] / s[i];
			delta = fmax(delta, fabs(r - ratio[i]));
			ratio[i] = r;
		}
		if (delta < 1e-13)
			break;
	}
	for (i = 0; i < n; i++)
		sum += 1 / s[i];
	free(f0);
	free(sres);
	free(s);
	free(ratio);
	free(tsock);
	return p->t1 / (A * sum / n);
}

static double urand(unsigned *seed)
{
	return (double)rand_r(seed) / RAND_MAX;
}

static void random_params(struct model_params *p, unsigned *seed)
{
	int r;

	memset(p, 0, sizeof(*p));
	p->t1 = 0.5 + 10 * urand(seed);
	p->p = urand(seed);
	p->o_s = urand(seed) < 0.3 ? 0 : 0.05 * urand(seed);
	p->l = urand(seed);
	p->b = urand(seed);
	p->os_fraction = urand(seed) < 0.5;
	p->b_core = urand(seed) < 0.5;
	for (r = 0; r < WR_COUNT; r++)
		p->d[r] = urand(seed) < 0.2 ? 0 : urand(seed) *
			(r == WR_INSTRUCTIONS ? 1.5e10 : r == WR_L1 ? 3e11 :
			 r == WR_L2 ? 1.5e11 : r == WR_L3 ? 1e11 :
			 r == WR_DRAM ? 3e10 : 5e9);
}

/* n threads on random PUs, at most k on a PU (m->pus indexes) */
static int random_placement(const struct pandia_machine *m, int k,
			    unsigned *seed, int *pus)
{
	int *cnt = calloc((size_t)m->n_pus, sizeof(int));
	int n = 1 + rand_r(seed) % (m->n_pus * k), i = 0;

	while (i < n) {
		int p = rand_r(seed) % m->n_pus;

		if (cnt[p] < k) {
			cnt[p]++;
			pus[i++] = p;
		}
	}
	free(cnt);
	return n;
}

static const char *const policies[] = {
	"local", "interleave", "node:1", "spread"
};

static void reference_trials(const struct pandia_machine *m,
			     const char *const *pol, int n_pol, unsigned seed,
			     int which)
{
	int trial, pus[64];

	for (trial = 0; trial < 60; trial++) {
		struct pandia_mempolicy mem;
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct model md;
		struct space *sp;
		struct ref R;
		double want, got;
		int n;

		random_params(&prm, &seed);
		mempolicy_parse(pol[trial % n_pol], &mem, &err);
		n = random_placement(m, 1 + trial % 2, &seed, pus);
		sp = space_new(m, 1, &mem, &err);
		ck_assert_msg(sp != NULL, "%s", err.text);
		R = (struct ref){ m, &prm, mem, n, pus };
		want = ref_solve(&R);
		model_init(&md, sp, &prm);
		md.accelerate = false;
		md.tol = 1e-13;
		got = model_time_pus(&md, pus, n);
		ck_assert_msg(fabs(got / want - 1) < 1e-9,
			      "machine %d trial %d (%s, %d threads): model "
			      "%.12g, reference %.12g", which, trial,
			      pol[trial % n_pol], n, got, want);
		/* the accelerated iteration finds the same fixed point */
		md.accelerate = true;
		md.tol = MODEL_TOL;
		got = model_time_pus(&md, pus, n);
		ck_assert_msg(fabs(got / want - 1) < 1e-5,
			      "machine %d trial %d accelerated: %.12g vs "
			      "%.12g", which, trial, got, want);
		model_release(&md);
		space_free(sp);
	}
}

START_TEST(test_reference)
{
	struct pandia_machine *m = tk_machine(machines[_i % 3], ASSUME);

	reference_trials(m, policies, 4, 1000 + (unsigned)_i, _i);
	machine_free(m);
}
END_TEST

/* ---- invariants ------------------------------------------------- */

/* One thread alone predicts t1, on every PU, whatever the demands. */
START_TEST(test_one_thread_is_t1)
{
	struct pandia_machine *m = tk_machine(machines[_i], ASSUME);
	unsigned seed = 7 + (unsigned)_i;
	int trial, p;

	for (trial = 0; trial < 20; trial++) {
		struct pandia_mempolicy mem;
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct model md;
		struct space *sp;

		random_params(&prm, &seed);
		if (trial % 4 == 0)
			for (p = 0; p < WR_COUNT; p++)
				prm.d[p] = 1e30;	/* beyond any link */
		mempolicy_parse(policies[trial % (m->n_sockets > 1 ? 3 : 2)],
				&mem, &err);
		sp = space_new(m, 1, &mem, &err);
		ck_assert_ptr_nonnull(sp);
		model_init(&md, sp, &prm);
		for (p = 0; p < m->n_pus; p++) {
			double t = model_time_pus(&md, &p, 1);

			ck_assert_msg(fabs(t / prm.t1 - 1) < 1e-12,
				      "machine %d PU %d: %.15g, t1 %.15g", _i,
				      p, t, prm.t1);
		}
		model_release(&md);
		space_free(sp);
	}
	machine_free(m);
}
END_TEST

/* p = 1 and nothing to contend for: n threads, speedup n. */
START_TEST(test_perfect_scaling)
{
	struct pandia_machine *m = tk_machine(machines[_i], ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct model_params prm = { .t1 = 4, .p = 1, .o_s = 0.1, .l = 0.3,
				    .b = 0 };
	struct pandia_error err;
	struct space *sp = space_new(m, 1, &mem, &err);
	unsigned seed = 3;
	struct model md;
	int trial;

	ck_assert_ptr_nonnull(sp);
	model_init(&md, sp, &prm);
	for (trial = 0; trial < 50; trial++) {
		int pus[64], n = 0, p;

		/* distinct PUs on one socket (o_s > 0 costs nothing
		   there), or anywhere with o_s 0 */
		md.prm.o_s = trial % 2 ? 0 : 0.1;
		for (p = 0; p < m->n_pus; p++)
			if (urand(&seed) < 0.5 && (trial % 2 ||
			    m->cores[m->pus[p].core].socket == 0))
				pus[n++] = p;
		if (!n)
			pus[n++] = 0;
		model_time_pus(&md, pus, n);
		ck_assert_msg(fabs(md.speedup / n - 1) < 1e-12,
			      "machine %d, %d threads: speedup %.15g", _i, n,
			      md.speedup);
	}
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/*
 * Time-sharing: KAPPA threads on each of k PUs, nothing else to contend
 * for, run the parallel work k at a time and the serial part alone:
 * Amdahl's law at k threads, whatever p.
 */
START_TEST(test_time_sharing)
{
	struct pandia_machine *m = tk_machine(machines[_i], ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct model_params prm = { .t1 = 3, .p = 1 };
	struct pandia_error err;
	struct space *sp = space_new(m, 4, &mem, &err);
	unsigned seed = 5 + (unsigned)_i;
	struct model md;
	int trial;

	ck_assert_ptr_nonnull(sp);
	model_init(&md, sp, &prm);
	for (trial = 0; trial < 40; trial++) {
		int pus[256], n = 0, k = 0, kappa = 2 + trial % 3, p, j;
		double want;

		md.prm.p = 0.2 + 0.8 * urand(&seed);
		for (p = 0; p < m->n_pus && n + kappa <= 256; p++) {
			if (k && urand(&seed) < 0.5)
				continue;
			for (j = 0; j < kappa; j++)
				pus[n++] = p;
			k++;
		}
		want = 1 / ((1 - md.prm.p) + md.prm.p / k);
		model_time_pus(&md, pus, n);
		ck_assert_msg(fabs(md.speedup / want - 1) < 1e-9,
			      "machine %d, %d threads on %d PUs, p %.3f: "
			      "speedup %.12g, Amdahl at %d: %.12g", _i, n, k,
			      md.prm.p, md.speedup, k, want);
	}
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/*
 * Co-runs (model_background()): other workloads' threads load the
 * resources they share with this one.  One thread of 10 GB/s of DRAM
 * on 3 cores of one node (40 GB/s): two others of 20 GB/s make the node
 * 50 / 40 = 1.25 times oversubscribed; a busy thread on its PU doubles
 * its time, one busy half the time makes it 1.5 times; none changes
 * nothing.
 */
START_TEST(test_background)
{
	struct pandia_machine *m = tk_machine(machines[3], ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct model_params prm = { .t1 = 1, .p = 1 };
	double heavy[WR_COUNT] = { 0 }, none[WR_COUNT] = { 0 };
	struct model_bg_thread bg[2];
	struct pandia_error err;
	struct space *sp;
	struct model md;
	int pu0 = 0;

	prm.d[WR_DRAM] = 10e9;
	heavy[WR_DRAM] = 20e9;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	model_init(&md, sp, &prm);
	ck_assert_double_eq_tol(model_time_pus(&md, &pu0, 1), 1, 1e-12);
	model_build_pus(&md, &pu0, 1);
	model_background(&md, bg, 0);
	model_solve(&md);
	ck_assert_double_eq_tol(md.time, 1, 1e-12);

	bg[0] = (struct model_bg_thread){ 1, 1, heavy };
	bg[1] = (struct model_bg_thread){ 2, 1, heavy };
	model_build_pus(&md, &pu0, 1);
	model_background(&md, bg, 2);
	model_solve(&md);
	ck_assert_msg(fabs(md.time - 1.25) < 1e-9, "DRAM shared: %.12g",
		      md.time);
	ck_assert_str_eq(model_bottleneck(&md), "DRAM");

	bg[0] = (struct model_bg_thread){ 0, 1, none };
	model_build_pus(&md, &pu0, 1);
	model_background(&md, bg, 1);
	model_solve(&md);
	ck_assert_msg(fabs(md.time - 2) < 1e-9, "PU shared: %.12g", md.time);
	bg[0].f = 0.5;
	model_build_pus(&md, &pu0, 1);
	model_background(&md, bg, 1);
	model_solve(&md);
	ck_assert_msg(fabs(md.time - 1.5) < 1e-9, "PU half shared: %.12g",
		      md.time);
	/* the next build forgets the background */
	ck_assert_double_eq_tol(model_time_pus(&md, &pu0, 1), 1, 1e-12);
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/* A random symmetry of the machine: sockets, cores, PUs swapped. */
static void permute(const struct space *sp, unsigned *seed, int *map)
{
	const struct pandia_machine *m = sp->m;
	int c, s, i;

	for (i = 0; i < m->n_pus; i++)
		map[i] = i;
	/* swap two sockets of one class, core by core */
	for (c = 0; c < sp->n_classes; c++) {
		const struct sclass *cl = &sp->classes[c];
		int a, b, k;

		if (cl->n_sockets < 2)
			continue;
		a = cl->sockets[rand_r(seed) % cl->n_sockets];
		b = cl->sockets[rand_r(seed) % cl->n_sockets];
		if (a == b)
			continue;
		for (k = 0; k < m->sockets[a].n_cores; k++) {
			const struct pandia_core *x =
				&m->cores[m->sockets[a].cores[k]];
			const struct pandia_core *y =
				&m->cores[m->sockets[b].cores[k]];

			for (i = 0; i < x->n_pus; i++) {
				map[x->pus[i]] = y->pus[i];
				map[y->pus[i]] = x->pus[i];
			}
		}
	}
	/* then swap two cores of a group, and the PUs of a core */
	for (s = 0; s < sp->n_groups; s++) {
		const struct core_group *g = &sp->groups[s];
		int a = g->cores[rand_r(seed) % g->n_cores];
		int b = g->cores[rand_r(seed) % g->n_cores];
		int *tmp = calloc((size_t)m->n_pus, sizeof(int));

		memcpy(tmp, map, sizeof(int) * (size_t)m->n_pus);
		for (i = 0; i < m->n_pus; i++) {
			int p = tmp[i], core = m->pus[p].core, k;

			if (core != a && core != b)
				continue;
			for (k = 0; k < m->cores[core].n_pus; k++)
				if (m->cores[core].pus[k] == p)
					break;
			map[i] = m->cores[core == a ? b : a].pus[k];
		}
		free(tmp);
	}
	for (c = 0; c < m->n_cores; c++) {
		const struct pandia_core *co = &m->cores[c];

		if (co->n_pus < 2 || rand_r(seed) % 2)
			continue;
		for (i = 0; i < m->n_pus; i++) {
			if (map[i] == co->pus[0])
				map[i] = co->pus[1];
			else if (map[i] == co->pus[1])
				map[i] = co->pus[0];
		}
	}
}

START_TEST(test_symmetry)
{
	struct pandia_machine *m = tk_machine(machines[_i], ASSUME);
	unsigned seed = 11 + (unsigned)_i;
	int trial;

	for (trial = 0; trial < 40; trial++) {
		struct pandia_mempolicy mem;
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct model md, mc;
		struct space *sp;
		int pus[64], img[64], map[64], n, i;
		uint16_t st[16];
		double t0, t1, tc;

		random_params(&prm, &seed);
		/* every policy but node:1 (not every machine has it) */
		mempolicy_parse(policies[trial % 4 == 2 ? 3 : trial % 4],
				&mem, &err);
		sp = space_new(m, 2, &mem, &err);
		ck_assert_ptr_nonnull(sp);
		n = random_placement(m, 1 + trial % 2, &seed, pus);
		permute(sp, &seed, map);
		for (i = 0; i < n; i++)
			img[i] = map[pus[i]];
		model_init(&md, sp, &prm);
		t0 = model_time_pus(&md, pus, n);
		t1 = model_time_pus(&md, img, n);
		ck_assert_msg(fabs(t0 / t1 - 1) < 1e-12, "machine %d trial "
			      "%d: %.15g vs its image %.15g", _i, trial, t0,
			      t1);
		/* and the canonical form, as the ranking computes it */
		ck_assert_int_eq(space_canonical(sp, pus, n, st), 0);
		model_init(&mc, sp, &prm);
		mc.merge = true;
		tc = model_time_canonical(&mc, st);
		ck_assert_msg(fabs(t0 / tc - 1) < 1e-6, "machine %d trial %d:"
			      " explicit %.15g, canonical %.15g", _i, trial,
			      t0, tc);
		mc.general = true;
		ck_assert_msg(fabs(model_time_canonical(&mc, st) / tc - 1) <
			      1e-12, "machine %d trial %d: general form",
			      _i, trial);
		model_release(&mc);
		model_release(&md);
		space_free(sp);
	}
	machine_free(m);
}
END_TEST

/*
 * Machines as they are (issue 19): on topologies made by hwloc's tools
 * with cpuset-excluded nodes, a memory-only node, one node for several
 * sockets, nodes under groups and kinds of core, the ranking's
 * canonical form of every placement predicts what the placement itself
 * does, under every memory policy: the symmetry the space assumes holds
 * for the new resources.
 */
static const struct {
	const char *topo, *node;	/* a node:N policy */
} as_they_are[] = {
	{ "tests/data/topologies/2socket-node-excluded.xml", "node:0" },
	{ "tests/data/topologies/4socket-nodes-excluded.xml", "node:2" },
	{ "tests/data/topologies/2socket-memonly.xml", "node:2" },
	{ "tests/data/topologies/4socket-nosize.xml", "node:0" },
	{ "tests/data/topologies/2socket-groups.xml", "node:3" },
	{ "tests/data/topologies/hybrid-3kinds.xml", "node:0" },
};

struct canon_arg {
	struct model *md, *mc;
	long seen, skip;
	const char *what;
};

static int check_canonical(const struct space *sp, const uint16_t *st,
			   void *arg)
{
	struct canon_arg *a = arg;
	int *pus, n;
	double te, tc;

	if (a->seen++ % a->skip)
		return 0;
	n = space_pus(sp, st, &pus);
	te = model_time_pus(a->md, pus, n);
	tc = model_time_canonical(a->mc, st);
	ck_assert_msg(fabs(te / tc - 1) < 1e-9, "%s, %d threads (first PU "
		      "%d): explicit %.12g, canonical %.12g", a->what, n,
		      sp->m->pus[pus[0]].os_index, te, tc);
	free(pus);
	return 0;
}

START_TEST(test_as_they_are)
{
	struct pandia_machine *m = tk_machine(as_they_are[_i].topo, ASSUME);
	const char *pol[3] = { "local", "interleave", as_they_are[_i].node };
	unsigned seed = 77 + (unsigned)_i;
	int k;

	for (k = 0; k < 6; k++) {
		struct pandia_mempolicy mem;
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct model md, mc;
		struct space *sp;
		struct canon_arg a;
		char what[160];
		struct space_count c;

		random_params(&prm, &seed);
		/* memory is what these machines are about: always some */
		prm.d[WR_DRAM] = k < 3 ? 8e9 : 2.5e10;
		prm.p = 0.95;
		ck_assert_int_eq(mempolicy_parse(pol[k % 3], &mem, &err), 0);
		sp = space_new(m, 1, &mem, &err);
		ck_assert_msg(sp != NULL, "%s", err.text);
		model_init(&md, sp, &prm);
		model_init(&mc, sp, &prm);
		mc.merge = true;
		/* converged far enough that the two forms must agree */
		md.accelerate = mc.accelerate = false;
		md.tol = mc.tol = 1e-13;
		c = space_count_all(sp);
		snprintf(what, sizeof(what), "%s, %s", as_they_are[_i].topo,
			 pol[k % 3]);
		a = (struct canon_arg){ &md, &mc, 0, (long)(c.n / 3000) + 1,
					what };
		space_enumerate(sp, 0, 0, check_canonical, &a);
		model_release(&mc);
		model_release(&md);
		space_free(sp);
	}
	machine_free(m);
}
END_TEST

/* The per-thread reference on the same machines: cpuset-excluded and
   memory-only nodes, one node for four sockets, kinds of core. */
START_TEST(test_reference_as_they_are)
{
	struct pandia_machine *m = tk_machine(as_they_are[_i].topo, ASSUME);
	const char *pol[3] = { "local", "interleave", as_they_are[_i].node };

	reference_trials(m, pol, 3, 2000 + (unsigned)_i, 100 + _i);
	machine_free(m);
}
END_TEST

/* A thread alone on a core of a slower kind: peak / rate times t1. */
START_TEST(test_kind_one_thread)
{
	struct pandia_machine *m = tk_machine("tests/data/topologies/"
					      "hybrid-3kinds.xml", ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	static const double want[8] = { 2, 2, 2, 2, 4.0 / 3, 4.0 / 3, 1, 1 };
	unsigned seed = 5;
	int trial, p;

	for (trial = 0; trial < 10; trial++) {
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct model md;
		struct space *sp = space_new(m, 1, &mem, &err);

		random_params(&prm, &seed);
		model_init(&md, sp, &prm);
		for (p = 0; p < m->n_pus; p++) {
			double t = model_time_pus(&md, &p, 1);

			ck_assert_msg(fabs(t / (prm.t1 * want[p]) - 1) < 1e-12,
				      "PU %d: %.15g, t1 %.15g", p, t, prm.t1);
		}
		model_release(&md);
		space_free(sp);
	}
	machine_free(m);
}
END_TEST

/* Raising a demand never makes a placement faster. */
START_TEST(test_monotone_demand)
{
	struct pandia_machine *m = tk_machine(machines[_i], ASSUME);
	unsigned seed = 21 + (unsigned)_i;
	int trial, worse = 0;

	for (trial = 0; trial < 300; trial++) {
		struct pandia_mempolicy mem;
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct model md;
		struct space *sp;
		int pus[64], n, r = trial % WR_COUNT, i;
		double t0, t1;

		random_params(&prm, &seed);
		mempolicy_parse(policies[trial % 2], &mem, &err);
		sp = space_new(m, 1, &mem, &err);
		n = random_placement(m, 1 + trial % 2, &seed, pus);
		model_init(&md, sp, &prm);
		t0 = model_time_pus(&md, pus, n);
		md.prm.d[r] = prm.d[r] * (1 + 3 * urand(&seed)) + 1e8;
		t1 = model_time_pus(&md, pus, n);
		if (t1 < t0 * (1 - 1e-6)) {
			worse++;
			fprintf(stderr, "machine %d trial %d: demand %s up, "
				"time %.9g -> %.9g; p %g o_s %g l %g b %g n %d "
				"%s\n", _i, trial, wl_resource_name(r), t0, t1,
				prm.p, prm.o_s, prm.l, prm.b, n,
				policies[trial % 2]);
			for (i = 0; i < n; i++)
				fprintf(stderr, "%d,", pus[i]);
			for (i = 0; i < WR_COUNT; i++)
				fprintf(stderr, " %g", prm.d[i]);
			fprintf(stderr, " -> %g\n", md.prm.d[r]);
		}
		model_release(&md);
		space_free(sp);
	}
	ck_assert_int_eq(worse, 0);
	machine_free(m);
}
END_TEST

/* ---- robustness ------------------------------------------------- */

static double pick(unsigned *seed, const double *v, int n)
{
	return v[rand_r(seed) % n];
}

START_TEST(test_robust)
{
	static const double ps[] = { 0, 1, 0.5, 0.999, 1e-9 };
	static const double ls[] = { 0, 1, 0.5, 0.01 };
	static const double os[] = { 0, 0.01, 1, 1e3, 1e6 };
	static const double bs[] = { 0, 0.5, 10, 1e4 };
	static const double ds[] = { 0, 1e3, 1e9, 1e11, 1e30 };
	struct pandia_machine *m = tk_machine(_i < 4 ? machines[_i] :
		"Package:2 [NUMANode(memory=1073741824)] "
		"L3Cache:1(size=8388608) Core:18 PU:2", ASSUME);
	unsigned seed = 99 + (unsigned)_i;
	int trial, capped = 0, total = 0;

	for (trial = 0; trial < 800; trial++) {
		struct pandia_mempolicy mem;
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct model md;
		struct space *sp;
		int pus[512], n, r, which = trial % 4, i;

		prm.t1 = 1e-3 + urand(&seed) * 1e3;
		prm.p = pick(&seed, ps, 5);
		prm.l = pick(&seed, ls, 4);
		prm.o_s = pick(&seed, os, 5);
		prm.b = pick(&seed, bs, 4);
		for (r = 0; r < WR_COUNT; r++)
			prm.d[r] = pick(&seed, ds, 5);
		mempolicy_parse(policies[trial % 2], &mem, &err);
		sp = space_new(m, 1, &mem, &err);
		ck_assert_ptr_nonnull(sp);
		model_init(&md, sp, &prm);
		md.merge = trial % 3 == 0;
		if (which == 0) {		/* one thread */
			n = 1;
			pus[0] = rand_r(&seed) % m->n_pus;
		} else if (which == 1) {	/* all PUs */
			n = m->n_pus;
			for (i = 0; i < n; i++)
				pus[i] = i;
		} else {			/* random, up to 3 per PU */
			n = random_placement(m, which == 2 ? 1 : 3, &seed,
					     pus);
		}
		model_time_pus(&md, pus, n);
		ck_assert_msg(isfinite(md.time) && md.time > 0 &&
			      isfinite(md.speedup) && md.speedup > 0,
			      "trial %d: time %g speedup %g", trial, md.time,
			      md.speedup);
		ck_assert_int_le(md.iterations, MODEL_MAX_ITER);
		for (i = 0; i < md.n_classes; i++)
			ck_assert(isfinite(md.sfin[i]) && md.sfin[i] >= 1);
		capped += !md.converged;
		total++;
		model_release(&md);
		space_free(sp);
	}
	/* the damping after 100 iterations makes nearly all converge */
	ck_assert_msg(capped * 100 <= total, "%d of %d did not converge",
		      capped, total);
	machine_free(m);
}
END_TEST


/*
 * A demand known only as an upper bound (the probe backend's "upper
 * bound: ...") is no measurement: the model takes it as unknown (0),
 * like a null demand, and a measured demand as it is.
 */
START_TEST(test_bound_demand)
{
	struct pandia_workload *w = workload_new();
	struct pandia_params *pp = pandia_params(w);
	struct model_params prm = { 0 };

	wl_param_set(&pp->t1, 2, NAN, "run1");
	wl_param_set(&pp->p, 0.9, NAN, "run2");
	pp->listed[WR_DRAM] = pp->listed[WR_L3] = true;
	wl_param_set(&pp->demand[WR_DRAM], 2e10, NAN, "run1");
	pp->demand[WR_DRAM].status = xstrdup("upper bound: below 20 GB/s");
	wl_param_set(&pp->demand[WR_L3], 3e10, NAN, "run1");
	pp->demand[WR_L3].status = xstrdup("estimate from 1 probe");
	ck_assert(wl_param_is_bound(&pp->demand[WR_DRAM]));
	ck_assert(!wl_param_is_bound(&pp->demand[WR_L3]));
	model_params_of(w, &prm);
	ck_assert_double_eq(prm.d[WR_DRAM], 0);
	ck_assert_double_eq(prm.d[WR_L3], 3e10);
	workload_free(w);
}
END_TEST

/*
 * --quick leaves out the runs of l and b where they change no
 * placement with one thread per PU (fit_l_decides(), fit_b_decides()).
 * Checked on the model itself: on the machines said to need neither,
 * no placement of one thread per PU changes time with l or b, for
 * random parameters; where they are said to decide, some placement
 * does; with two threads per PU both always decide.
 */
static const struct {
	const char *topo;
	bool l, b;		/* decide with one thread per PU */
} decide_rows[] = {
	{ "Package:1 [NUMANode(memory=1073741824)] Core:3 PU:1", false,
	  false },
	{ "Package:1 [NUMANode(memory=1073741824)] L3Cache:1"
	  "(size=8388608) Core:4 PU:1", false, false },
	{ "Package:1 [NUMANode(memory=1073741824)] L3Cache:1"
	  "(size=8388608) L2Cache:2(size=524288) Core:2 PU:1", true,
	  false },
	{ "Package:2 [NUMANode(memory=1073741824)] Core:2 PU:1", true,
	  false },
	{ "Package:1 [NUMANode(memory=1073741824)] Core:2 PU:2", true,
	  true },
};

/* The largest relative change of time over TRIALS random placements
   of at most K threads per PU when l (WHICH 0) or b (1) goes 0 -> 1. */
static double param_effect(const struct pandia_machine *m, int k,
			   int which, unsigned seed)
{
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp = space_new(m, k, &mem, &err);
	double worst = 0;
	int trial, pus[64];

	ck_assert_msg(sp != NULL, "%s", err.text);
	for (trial = 0; trial < 300; trial++) {
		struct model_params prm;
		struct model md;
		double t0, t1;
		int n;

		random_params(&prm, &seed);
		n = random_placement(m, k, &seed, pus);
		model_init(&md, sp, &prm);
		md.accelerate = false;
		md.tol = 1e-13;
		*(which ? &md.prm.b : &md.prm.l) = 0;
		t0 = model_time_pus(&md, pus, n);
		*(which ? &md.prm.b : &md.prm.l) = 1;
		t1 = model_time_pus(&md, pus, n);
		if (fabs(t1 / t0 - 1) > worst)
			worst = fabs(t1 / t0 - 1);
		model_release(&md);
	}
	space_free(sp);
	return worst;
}

START_TEST(test_quick_decides)
{
	struct pandia_machine *m = tk_machine(decide_rows[_i].topo, ASSUME);
	bool want[2] = { decide_rows[_i].l, decide_rows[_i].b };
	bool got[2] = { fit_l_decides(m, 1), fit_b_decides(m, 1) };
	const char *name[2] = { "l", "b" };
	int w;

	for (w = 0; w < 2; w++) {
		double e1 = param_effect(m, 1, w, 11 + (unsigned)_i);
		double e2 = param_effect(m, 2, w, 17 + (unsigned)_i);

		ck_assert_msg(got[w] == want[w], "row %d: %s decides %d, not "
			      "%d", _i, name[w], got[w], want[w]);
		if (want[w])
			ck_assert_msg(e1 > 1e-6, "row %d: %s changes no time "
				      "with one thread per PU (%.3g) though "
				      "said to decide", _i, name[w], e1);
		else
			ck_assert_msg(e1 < 1e-9, "row %d: %s changes a time "
				      "by %.3g with one thread per PU though "
				      "said to decide none", _i, name[w], e1);
		ck_assert(fit_l_decides(m, 2) && fit_b_decides(m, 2));
		ck_assert_msg(e2 > 1e-6, "row %d: %s changes no time with two "
			      "threads per PU (%.3g)", _i, name[w], e2);
	}
	machine_free(m);
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("paper");

	tcase_add_loop_test(tc, test_figure_cells, 0, ARRAY_SIZE(cells));
	tcase_add_test(tc, test_figure_demands);
	tcase_add_test(tc, test_figure_speedup);
	suite_add_tcase(s, tc);

	tc = tcase_create("reference");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_reference, 0, 6);
	suite_add_tcase(s, tc);

	tc = tcase_create("invariants");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_one_thread_is_t1, 0,
			    ARRAY_SIZE(machines));
	tcase_add_loop_test(tc, test_perfect_scaling, 0,
			    ARRAY_SIZE(machines));
	tcase_add_loop_test(tc, test_time_sharing, 0, ARRAY_SIZE(machines));
	tcase_add_loop_test(tc, test_symmetry, 0, ARRAY_SIZE(machines));
	tcase_add_loop_test(tc, test_monotone_demand, 0,
			    ARRAY_SIZE(machines));
	tcase_add_test(tc, test_bound_demand);
	tcase_add_test(tc, test_background);
	tcase_add_loop_test(tc, test_as_they_are, 0, ARRAY_SIZE(as_they_are));
	tcase_add_loop_test(tc, test_reference_as_they_are, 0,
			    ARRAY_SIZE(as_they_are));
	tcase_add_test(tc, test_kind_one_thread);
	tcase_add_loop_test(tc, test_quick_decides, 0,
			    ARRAY_SIZE(decide_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("robust");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_robust, 0, ARRAY_SIZE(machines) + 1);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { model_suite, NULL };
