/*
 * mechsim.c - a mechanistic simulator of a parallel workload on a
 * machine we do not have, for testing pandia's whole pipeline (profile
 * through the runner template, then validate) against something that
 * is not pandia's model (issue 15, docs/accuracy.md "Simulation").
 * It shares no formula with predictor/pandia/model.c: no utilisation
 * feedback, no "most oversubscribed resource", no o_s, l or b.
 * Instead:
 *
 *   - fluid sharing: every thread and co-runner is a flow with an
 *     execution speed x (1: as fast as alone); the speeds are the
 *     max-min fair allocation (progressive filling) under the
 *     capacities of every resource;
 *   - resources: each PU's time (sum of x at most 1), each core's
 *     instruction throughput (the machine's peak_rate with one PU busy,
 *     up to smt_aggregate_rate with all), each core's links to L1, L2,
 *     L3, DRAM and the other sockets (per-thread caps: per_core_bw),
 *     each L3 (per socket), each NUMA node's DRAM, each socket pair's
 *     link (both directions share it, as the description gives them
 *     added), and one lock;
 *   - a thread's work rate is r = x / (1 + lat x): it stalls LAT
 *     seconds per unit of work for remote communication (comm_lat per
 *     remote partner, or times the remote fraction of its partners)
 *     and for remote DRAM (numa_lat times its remote share); it uses
 *     the bandwidths at rate r, the PU and core at speed x;
 *   - a thread whose core runs another flow on another PU, or whose PU
 *     runs another, goes at most 1 / (1 + burst) (collisions in the
 *     pipeline: "burstiness");
 *   - pages placed by policy: first_touch (each thread touched its
 *     share: a node holds the pages in proportion to the run's threads
 *     on it, and every thread reads all of them), local (each thread's
 *     own pages on its node), interleave (evenly over the nodes), node:N;
 *   - the lock: lock_hold seconds per unit of work, lock_xfer more
 *     (relative) when it comes from another socket, taken as the
 *     chance that two random holders are on different sockets;
 *   - the work: a serial part (thread 0 alone, the others wait), then
 *     the parallel part, static (an equal share per thread: a thread
 *     that finishes waits, and the others speed up), dynamic (a pool)
 *     or a mix, simulated event by event.
 *
 * It answers the profiler as the runner template expects: co-run
 * stressors on --stress-cpus of the kinds --stress-kind (cpu: a
 * busy loop, a flow at full speed on its PU; bw:LEVEL: a flow that
 * wants the level's per-core bandwidth on its core and shared
 * structure), "pandia-stress: I RATE" for each bandwidth stressor
 * (bytes/s, averaged over the run) and "pandia-stress-alone: I RATE"
 * (its bandwidth with the workload not running), and "time: SECONDS".
 * With --numa-maps FILE it writes where its pages are, as
 * /proc/PID/numa_maps shows them.
 *
 * The workload is a file of "key value" lines ('#' comments):
 *   work 10           seconds one thread alone takes (t1)
 *   serial 0.01       serial fraction (1 - p)
 *   instructions 3e9  ops/s, l1 l2 l3 dram bytes/s, alone
 *   comm 1e9          bytes/s exchanged with the other threads
 *   comm_per total    total: comm spread over the partners (a fixed
 *                     share); pair: comm with each partner
 *   comm_lat 0.001    stall per unit of work per remote partner
 *                     (pair) or with all partners remote (total)
 *   numa_lat 0.05     stall per unit of work with all DRAM remote
 *   burst 0.3         slowdown of sharing a core, at most
 *   dynamic 0.5       share of the parallel work in a pool
 *   memory first_touch | local | interleave | node:N
 *   lock_hold 0.001   lock_xfer 1    data_mib 1024
 *
 *   mechsim -m MACHINE -w WORKLOAD --cpus LIST [--stress-cpus LIST]
 *           [--stress-kind KINDS] [--numa-maps FILE] [--noise SIGMA]
 *           [--seed N] [--state FILE]
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine.h"
#include "common/util.h"
#include "tests/lib/rng.h"
#include "tests/lib/sim.h"

static const char usage[] =
"usage: mechsim -m MACHINE -w WORKLOAD --cpus LIST\n"
"               [--stress-cpus LIST|none] [--stress-kind KINDS|none]\n"
"               [--numa-maps FILE] [--noise SIGMA] [--seed N]\n"
"               [--state FILE]\n"
"Simulate WORKLOAD's threads on MACHINE at the placement LIST with the\n"
"co-run stressors given; print 'pandia-stress: I RATE' per bandwidth\n"
"stressor and 'time: SECONDS'.\n";

/* ---- the workload ------------------------------------------------ */

enum memkind { M_FIRST_TOUCH, M_LOCAL, M_INTERLEAVE, M_NODE };

struct wl {
	double work, serial, demand[LVL_COUNT], instr;
	double comm, comm_lat, numa_lat, burst, dynamic;
	double lock_hold, lock_xfer, data_mib;
	bool comm_pair;
	enum memkind mem;
	int mem_node;		/* OS index */
};

static void wl_load(const char *path, struct wl *w)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int no = 0;

	if (!f)
		tk_die("cannot open '%s'", path);
	memset(w, 0, sizeof(*w));
	w->work = 10;
	w->data_mib = 1024;
	while (fgets(line, sizeof(line), f)) {
		char key[64], val[128];
		double v;

		no++;
		line[strcspn(line, "#\n")] = 0;
		if (sscanf(line, "%63s %127s", key, val) != 2)
			continue;
		v = atof(val);
		if (!strcmp(key, "work"))
			w->work = v;
		else if (!strcmp(key, "serial"))
			w->serial = v;
		else if (!strcmp(key, "instructions"))
			w->instr = v;
		else if (!strcmp(key, "l1"))
			w->demand[LVL_L1] = v;
		else if (!strcmp(key, "l2"))
			w->demand[LVL_L2] = v;
		else if (!strcmp(key, "l3"))
			w->demand[LVL_L3] = v;
		else if (!strcmp(key, "dram"))
			w->demand[LVL_DRAM] = v;
		else if (!strcmp(key, "comm"))
			w->comm = v;
		else if (!strcmp(key, "comm_per"))
			w->comm_pair = !strcmp(val, "pair");
		else if (!strcmp(key, "comm_lat"))
			w->comm_lat = v;
		else if (!strcmp(key, "numa_lat"))
			w->numa_lat = v;
		else if (!strcmp(key, "burst"))
			w->burst = v;
		else if (!strcmp(key, "dynamic"))
			w->dynamic = v;
		else if (!strcmp(key, "lock_hold"))
			w->lock_hold = v;
		else if (!strcmp(key, "lock_xfer"))
			w->lock_xfer = v;
		else if (!strcmp(key, "data_mib"))
			w->data_mib = v;
		else if (!strcmp(key, "memory")) {
			if (!strcmp(val, "first_touch"))
				w->mem = M_FIRST_TOUCH;
			else if (!strcmp(val, "local"))
				w->mem = M_LOCAL;
			else if (!strcmp(val, "interleave"))
				w->mem = M_INTERLEAVE;
			else if (!strncmp(val, "node:", 5)) {
				w->mem = M_NODE;
				w->mem_node = atoi(val + 5);
			} else {
				tk_die("%s:%d: unknown memory '%s'", path,
				       no, val);
			}
		} else {
			tk_die("%s:%d: unknown key '%s'", path, no, key);
		}
	}
	fclose(f);
}

/* ---- flows and resources ----------------------------------------- */

struct dem {
	int res;
	double coef;		/* per unit of r (or of x when on_x) */
	bool on_x;
};

struct flow {
	int pu, core, socket, node;	/* m-> indexes; node -1: none */
	int stress;		/* -1: a workload thread; else its index */
	int level;		/* stressor: -1 cpu, else the level */
	double xmax, lat, x;
	bool active, frozen;
	int d0, nd;		/* its demands */
};

struct sim {
	const struct pandia_machine *m;
	const struct wl *w;
	int n;			/* workload threads: flows 0..n-1 */
	int nf;
	struct flow *f;
	int nres;
	double *cap, *use;
	int nd, capd;
	struct dem *d;
	/* resource index bases */
	int r_pu, r_core, r_link[LVL_COUNT], r_l3, r_node, r_pair, r_lock;
	double *share;		/* n x n_numa: DRAM share per node */
	double *tsock;		/* threads per socket */
};

static int node_socket(const struct pandia_machine *m, int k)
{
	return m->numa[k].socket;
}

static double pair_bw(const struct pandia_machine *m, int a, int b)
{
	int i;

	for (i = 0; i < m->n_xlinks; i++)
		if ((m->xlinks[i].from == a && m->xlinks[i].to == b) ||
		    (m->xlinks[i].from == b && m->xlinks[i].to == a))
			return m->xlinks[i].bw;
	return m->links[LVL_INTERCONNECT].present ?
		m->links[LVL_INTERCONNECT].aggregate_bw : 0;
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
			double bw = pair_bw(m, i, j);

			s->cap[pair_res(s, i, j)] = bw > 0 ? bw : INFINITY;
		}
	s->cap[s->r_lock] = 1;
}

/*
 * The demands of every active flow, for the current active set (the
 * core's throughput and the burst depend on who else runs).
 */
static void build(struct sim *s)
{
	const struct pandia_machine *m = s->m;
	const struct wl *w = s->w;
	int i, j, k, lvl;
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
		double remote = 0, rcomm = 0;

		f->d0 = s->nd;
		f->nd = 0;
		if (!f->active)
			continue;
		neighbours(s, i, &on_pu, &on_core);
		f->xmax = 1;
		f->lat = 0;
		dem(s, f, s->r_pu + f->pu, 1, true);
		if (f->stress >= 0) {
			if (f->level < 0) {
				dem(s, f, s->r_core + f->core, m->peak_rate,
				    true);
				continue;
			}
			/* a bandwidth probe: its level's core link and
			   shared structure, at the level's per-core rate */
			lvl = f->level;
			dem(s, f, s->r_link[lvl] + f->core,
			    m->links[lvl].per_core_bw, false);
			if (lvl == LVL_L3)
				dem(s, f, s->r_l3 + f->socket,
				    m->links[lvl].per_core_bw, false);
			if (lvl == LVL_DRAM && f->node >= 0)
				dem(s, f, s->r_node + f->node,
				    m->links[lvl].per_core_bw, false);
			continue;
		}
		/* a workload thread */
		if (on_pu || on_core)
			f->xmax = 1 / (1 + w->burst);
		dem(s, f, s->r_core + f->core, w->instr, true);
		for (lvl = 0; lvl <= LVL_L3; lvl++)
			if (m->links[lvl].present)
				dem(s, f, s->r_link[lvl] + f->core,
				    w->demand[lvl], false);
		if (m->links[LVL_L3].present)
			dem(s, f, s->r_l3 + f->socket, w->demand[LVL_L3],
			    false);
		if (m->links[LVL_DRAM].present && w->demand[LVL_DRAM] > 0) {
			dem(s, f, s->r_link[LVL_DRAM] + f->core,
			    w->demand[LVL_DRAM], false);
			for (k = 0; k < m->n_numa; k++) {
				double sh = s->share[i * m->n_numa + k];
				int ks = node_socket(m, k);

				if (!(sh > 0))
					continue;
				dem(s, f, s->r_node + k,
				    w->demand[LVL_DRAM] * sh, false);
				if (ks >= 0 && ks != f->socket) {
					remote += sh;
					/* the data come from ks */
					dem(s, f, pair_res(s, ks, f->socket),
					    w->demand[LVL_DRAM] * sh, false);
				}
			}
		}
		/* communication with the other threads */
		if (s->n > 1 && (w->comm > 0 || w->comm_lat > 0)) {
			double per = w->comm_pair ? w->comm : w->comm / (n - 1);

			for (j = 0; j < s->n; j++) {
				if (j == i || s->f[j].socket == f->socket)
					continue;
				rcomm++;
				/* exchanged: half each way, on the one
				   resource of the pair */
				dem(s, f, pair_res(s, f->socket,
						   s->f[j].socket),
				    per / 2, false);
				dem(s, f, pair_res(s, s->f[j].socket,
						   f->socket),
				    per / 2, false);
			}
			if (m->links[LVL_INTERCONNECT].present)
				dem(s, f, s->r_link[LVL_INTERCONNECT] + f->core,
				    per * rcomm + w->demand[LVL_DRAM] * remote,
				    false);
			f->lat += w->comm_lat * (w->comm_pair ? rcomm :
						 rcomm / (n - 1));
		} else if (m->links[LVL_INTERCONNECT].present) {
			dem(s, f, s->r_link[LVL_INTERCONNECT] + f->core,
			    w->demand[LVL_DRAM] * remote, false);
		}
		f->lat += w->numa_lat * remote;
		if (w->lock_hold > 0)
			dem(s, f, s->r_lock, w->lock_hold *
			    (1 + w->lock_xfer * prem), false);
	}
}

static double rate_of(const struct flow *f, double x)
{
	return x / (1 + f->lat * x);
}

/* Resource use at speeds x (unfrozen flows at t * xmax). */
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
		x = f->frozen ? f->x : t * f->xmax;
		r = rate_of(f, x);
		for (k = f->d0; k < f->d0 + f->nd; k++)
			s->use[s->d[k].res] += s->d[k].coef *
				(s->d[k].on_x ? x : r);
	}
	for (i = 0; i < s->nres; i++)
		if (s->use[i] > s->cap[i] * (1 + 1e-12))
			return false;
	return true;
}

/* Max-min fair speeds of the active flows (progressive filling). */
static void solve(struct sim *s)
{
	double lo = 0;
	int i, k, it, left;

	build(s);
	for (i = 0; i < s->nf; i++) {
		s->f[i].frozen = !s->f[i].active;
		s->f[i].x = 0;
	}
	for (;;) {
		double hi = 1;

		left = 0;
		for (i = 0; i < s->nf; i++)
			left += !s->f[i].frozen;
		if (!left)
			break;
		if (feasible(s, 1)) {
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
				f->x = lo * f->xmax;
				f->frozen = true;
				left++;
			}
		}
		if (!left)
			for (i = 0; i < s->nf; i++)
				if (!s->f[i].frozen) {
					s->f[i].x = lo * s->f[i].xmax;
					s->f[i].frozen = true;
				}
	}
}

/* ---- pages ------------------------------------------------------- */

static void place_pages(struct sim *s)
{
	const struct pandia_machine *m = s->m;
	const struct wl *w = s->w;
	int N = m->n_numa, i, k, nmem = 0;
	double *tn = xcalloc((size_t)N + 1, sizeof(double));

	for (k = 0; k < N; k++)
		nmem += m->numa[k].memory > 0;
	if (!nmem)
		nmem = N;	/* no node says: all take pages */
	for (i = 0; i < s->n; i++)
		if (s->f[i].node >= 0)
			tn[s->f[i].node]++;
	for (i = 0; i < s->n; i++) {
		double *sh = &s->share[i * N];

		for (k = 0; k < N; k++) {
			switch (w->mem) {
			case M_FIRST_TOUCH:
				sh[k] = tn[k] / s->n;
				break;
			case M_LOCAL:
				sh[k] = k == s->f[i].node;
				break;
			case M_INTERLEAVE:
				sh[k] = m->numa[k].memory > 0 || nmem == N ?
					1.0 / nmem : 0;
				break;
			case M_NODE:
				sh[k] = m->numa[k].os_index == w->mem_node;
				break;
			}
		}
	}
	free(tn);
}

/* The pages as /proc/PID/numa_maps shows them. */
static void write_numa_maps(const struct sim *s, const char *path)
{
	const struct pandia_machine *m = s->m;
	const struct wl *w = s->w;
	double pages = w->data_mib * 256;
	FILE *f = fopen(path, "w");
	int N = m->n_numa, i, k;

	if (!f)
		tk_die("cannot write '%s'", path);
	fprintf(f, "55d0c0a00000 default heap anon=33 dirty=33 N0=33 "
		"kernelpagesize_kB=4\n");
	fprintf(f, "7f10c0000000 default file=/usr/lib/libc.so.6 "
		"mapped=240 mapmax=18 N0=240 kernelpagesize_kB=4\n");
	switch (w->mem) {
	case M_LOCAL:
		for (i = 0; i < s->n; i++)
			fprintf(f, "7f%02x00000000 default anon=%.0f "
				"dirty=%.0f N%d=%.0f kernelpagesize_kB=4\n",
				0x20 + i % 0xd0, pages / s->n, pages / s->n,
				m->numa[s->f[i].node >= 0 ? s->f[i].node : 0]
				.os_index, pages / s->n);
		break;
	case M_INTERLEAVE:
		fprintf(f, "7f2000000000 interleave:0-%d anon=%.0f dirty=%.0f",
			N - 1, pages, pages);
		for (k = 0; k < N; k++)
			fprintf(f, " N%d=%.0f", m->numa[k].os_index, pages / N);
		fprintf(f, " kernelpagesize_kB=4\n");
		break;
	case M_NODE:
		fprintf(f, "7f2000000000 bind:%d anon=%.0f dirty=%.0f N%d=%.0f "
			"kernelpagesize_kB=4\n", w->mem_node, pages, pages,
			w->mem_node, pages);
		break;
	default:
		fprintf(f, "7f2000000000 default anon=%.0f dirty=%.0f", pages,
			pages);
		for (k = 0; k < N; k++)
			if (s->share[k] > 0)
				fprintf(f, " N%d=%.0f", m->numa[k].os_index,
					pages * s->share[k]);
		fprintf(f, " kernelpagesize_kB=4\n");
		break;
	}
	if (fclose(f) != 0)
		tk_die("cannot write '%s'", path);
}

/* ---- the run ----------------------------------------------------- */

/*
 * The time of the run, and each stressor's bandwidth averaged over it
 * (into RATE): the serial part on thread 0 alone, then the parallel
 * part event by event.
 */
static double run(struct sim *s, double *rate)
{
	const struct wl *w = s->w;
	int n = s->n, i, j, ns = s->nf - n;
	double T = 0, *left = xcalloc((size_t)n, sizeof(double));
	double pool, par = (1 - w->serial) * w->work;
	double *bw = xcalloc((size_t)ns + 1, sizeof(double));

	/* the serial part: thread 0, the others wait */
	for (i = 0; i < s->nf; i++)
		s->f[i].active = i == 0 || i >= n;
	if (w->serial > 0) {
		double r;

		solve(s);
		r = rate_of(&s->f[0], s->f[0].x);
		T = w->serial * w->work / r;
		for (j = 0; j < ns; j++)
			bw[j] += T * s->f[n + j].x * (s->f[n + j].level < 0 ?
				0 : s->m->links[s->f[n + j].level].per_core_bw);
	}
	/* the parallel part */
	for (i = 0; i < n; i++)
		left[i] = (1 - w->dynamic) * par / n;
	pool = w->dynamic * par;
	for (;;) {
		double dt = INFINITY, prate = 0;
		int busy = 0;

		for (i = 0; i < n; i++) {
			s->f[i].active = left[i] > 1e-12 || pool > 1e-12;
			busy += s->f[i].active;
		}
		if (!busy)
			break;
		solve(s);
		for (i = 0; i < n; i++) {
			double r = rate_of(&s->f[i], s->f[i].x);

			if (!s->f[i].active)
				continue;
			if (left[i] > 1e-12) {
				if (left[i] / r < dt)
					dt = left[i] / r;
			} else {
				prate += r;
			}
		}
		if (prate > 0 && pool / prate < dt)
			dt = pool / prate;
		if (!isfinite(dt))
			tk_die("no thread makes progress");
		for (i = 0; i < n; i++) {
			double r = rate_of(&s->f[i], s->f[i].x);

			if (!s->f[i].active)
				continue;
			if (left[i] > 1e-12)
				left[i] -= r * dt;
			if (left[i] < 1e-9 * par)
				left[i] = 0;
		}
		pool -= prate * dt;
		if (pool < 1e-9 * par)
			pool = 0;
		for (j = 0; j < ns; j++)
			bw[j] += dt * s->f[n + j].x * (s->f[n + j].level < 0 ?
				0 : s->m->links[s->f[n + j].level].per_core_bw);
		T += dt;
	}
	for (j = 0; j < ns; j++)
		rate[j] = T > 0 ? bw[j] / T : 0;
	free(left);
	free(bw);
	return T;
}

/*
 * Each stressor's bandwidth with the workload not running (into
 * ALONE), as a runner reports it on a line 'pandia-stress-alone'.
 */
static void alone_rates(struct sim *s, double *alone)
{
	int i, n = s->n;

	for (i = 0; i < s->nf; i++)
		s->f[i].active = i >= n;
	solve(s);
	for (i = n; i < s->nf; i++)
		alone[i - n] = s->f[i].level < 0 ? 0 : s->f[i].x *
			s->m->links[s->f[i].level].per_core_bw;
}

/* ---- noise and arguments ----------------------------------------- */

/* The level of stressor kind K ("cpu": -1). */
static int level_of(const char *k)
{
	char name[16];
	int lvl;

	if (!strcmp(k, "cpu"))
		return -1;
	if (strncmp(k, "bw:", 3))
		tk_die("unknown stressor kind '%s'", k);
	snprintf(name, sizeof(name), "%s", k + 3);
	name[strcspn(name, ":")] = 0;
	lvl = level_from_name(name);
	if (lvl < 0 || lvl >= LVL_INTERCONNECT)
		tk_die("unknown stressor kind '%s'", k);
	return lvl;
}

/*
 * The resources of S's machine, numbered: its PUs, cores, each level's
 * links per core, L3s, nodes, socket pairs and the lock; their
 * capacities and uses, zero.
 */
static void number_resources(struct sim *s)
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "workload", required_argument, NULL, 'w' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "stress-cpus", required_argument, NULL, 's' },
		{ "stress-kind", required_argument, NULL, 'k' },
		{ "numa-maps", required_argument, NULL, 'M' },
		{ "noise", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "state", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mfile = NULL, *wfile = NULL, *cpus = NULL, *maps = NULL;
	const char *scpus = NULL, *skind = NULL, *state = NULL;
	double noise = 0, time, *rate, *alone;
	unsigned long long seed = 1;
	struct pandia_error err;
	struct pandia_machine *m;
	struct wl w;
	struct sim s;
	int *pus, n, *spus, ns, i, c, nk = 0;
	char *kinds[256], *copy, *tok, *sv;
	const char *why;

	while ((c = getopt_long(argc, argv, "m:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': mfile = optarg; break;
		case 'w': wfile = optarg; break;
		case 'c': cpus = optarg; break;
		case 's': scpus = optarg; break;
		case 'k': skind = optarg; break;
		case 'M': maps = optarg; break;
		case 'n': noise = atof(optarg); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 't': state = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!mfile || !wfile || !cpus) {
		fputs(usage, stderr);
		return 2;
	}
	m = machine_load(mfile, &err);
	if (!m)
		tk_die("%s", err.text);
	wl_load(wfile, &w);
	pus = tk_pus_of(m, cpus, &n);
	if (n < 1)
		tk_die("--cpus is empty");
	spus = tk_pus_of(m, scpus, &ns);
	copy = xstrdup(skind && strcmp(skind, "none") ? skind : "cpu");
	for (tok = strtok_r(copy, ",", &sv); tok && nk < 256;
	     tok = strtok_r(NULL, ",", &sv))
		kinds[nk++] = tok;

	memset(&s, 0, sizeof(s));
	s.m = m;
	s.w = &w;
	s.n = n;
	s.nf = n + ns;
	s.f = xcalloc((size_t)s.nf, sizeof(*s.f));
	s.tsock = xcalloc((size_t)m->n_sockets, sizeof(double));
	for (i = 0; i < s.nf; i++) {
		struct flow *f = &s.f[i];

		f->pu = i < n ? pus[i] : spus[i - n];
		f->core = m->pus[f->pu].core;
		f->socket = m->cores[f->core].socket;
		f->node = m->cores[f->core].numa;
		f->stress = i < n ? -1 : i - n;
		f->level = -1;
		if (i >= n) {
			const char *k = nk == ns ? kinds[i - n] :
				kinds[0];

			if (nk != ns && nk != 1 && strcmp(kinds[0],
							  kinds[nk - 1]))
				tk_die("cannot tell which of %d kinds runs "
				       "on which of %d PUs", nk, ns);
			f->level = level_of(k);
		} else {
			s.tsock[f->socket]++;
		}
	}
	number_resources(&s);
	s.share = xcalloc((size_t)(n * (m->n_numa + 1)), sizeof(double));
	place_pages(&s);
	if (maps && *maps && strcmp(maps, "{numa_maps}"))
		write_numa_maps(&s, maps);

	rate = xcalloc((size_t)ns + 1, sizeof(double));
	alone = xcalloc((size_t)ns + 1, sizeof(double));
	if (ns)
		alone_rates(&s, alone);
	time = run(&s, rate);
	if (tk_noisy_time(&time, noise, seed, state, &why) < 0)
		tk_die("cannot %s '%s'", why, state);
	for (i = 0; i < ns; i++)
		if (s.f[n + i].level >= 0)
			printf("pandia-stress: %d %.6e\n"
			       "pandia-stress-alone: %d %.6e\n", i, rate[i],
			       i, alone[i]);
	printf("time: %.9f\n", time);

	free(rate);
	free(alone);
	free(s.share);
	free(s.cap);
	free(s.use);
	free(s.d);
	free(s.f);
	free(s.tsock);
	free(copy);
	free(pus);
	free(spus);
	machine_free(m);
	return fflush(stdout) == 0 ? 0 : 1;
}
