/*
 * measure_plan.c - which jobs measure a machine: the core rates, each
 * cache level, DRAM and the interconnect, with their threads, PUs,
 * working sets and NUMA nodes, and the repetitions per mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "stress/measure_internal.h"

/*
 * The warm-up matters more than it seems: on this KVM guest a core that
 * was idle runs the kernels at half speed for the first 0.3 to 0.4 s
 * (the host's frequency governor catching up), so every job first keeps
 * its cores busy for longer than that.  Many short repetitions, best
 * kept, then ride out the other processes' bursts; and since the other
 * tenants of the physical machine can halve a core's speed for a second
 * or more (invisible from inside), each figure's repetitions are spread
 * over the whole run: every round measures every figure once.
 */
static const struct timing timing_full = { 3, 5, 0.2, 1.0, 100 };
static const struct timing timing_quick = { 3, 4, 0.05, 0.45, 4 };

const struct timing *stress_timing(const struct stress_opts *o)
{
	return o && o->quick ? &timing_quick : &timing_full;
}

double stress_warm_least(const struct timing *t, double busy)
{
	return t->warm_s - busy > t->warm_s / 4 ? t->warm_s - busy :
		t->warm_s / 4;
}

/* ---- planning ------------------------------------------------------- */

static int first_pu(const struct pandia_machine *m, int core)
{
	return m->pus[m->cores[core].pus[0]].os_index;
}

static struct job *add_job(struct plan *p, enum target target,
			   enum pandia_level level, enum stress_kind kind)
{
	struct job *j;

	p->jobs = xrealloc(p->jobs, (p->n_jobs + 1) * sizeof(*p->jobs));
	j = &p->jobs[p->n_jobs++];
	memset(j, 0, sizeof(*j));
	j->target = target;
	j->level = level;
	j->kind = kind;
	j->node = -1;
	return j;
}

/* One thread on the first PU of each of N cores. */
static void set_cores(struct job *j, const struct pandia_machine *m,
		      const int *cores, int n)
{
	int i;

	j->n = n;
	j->pus = xcalloc(n, sizeof(int));
	for (i = 0; i < n; i++)
		j->pus[i] = first_pu(m, cores[i]);
}

static const char *size_text(size_t bytes, char *buf, size_t len)
{
	if (bytes >= (1UL << 30) && bytes % (1UL << 20) == 0)
		snprintf(buf, len, "%.1f GiB", (double)bytes / (1UL << 30));
	else if (bytes >= (1UL << 20))
		snprintf(buf, len, "%.1f MiB", (double)bytes / (1UL << 20));
	else
		snprintf(buf, len, "%zu KiB", bytes >> 10);
	return buf;
}

static char *job_what(const char *name, const char *which, int n,
		      size_t ws)
{
	char sz[32];

	if (!ws)
		return xasprintf("%s %s (%d thread%s)", name, which, n,
				 n == 1 ? "" : "s");
	return xasprintf("%s %s (%d thread%s, %s each)", name, which, n,
			 n == 1 ? "" : "s", size_text(ws, sz, sizeof(sz)));
}

/* Bytes of memory we allow the DRAM measurements to take in all. */
static unsigned long long memory_cap(const struct pandia_machine *m,
				     int numa)
{
	unsigned long long avail = 0, node = 0;
	char line[256];
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemAvailable: %llu kB", &avail) == 1)
				break;
		fclose(f);
		avail *= 1024;
	}
	if (numa >= 0 && numa < m->n_numa)
		node = m->numa[numa].memory;
	if (!avail || (node && node < avail))
		avail = node;
	if (!avail)
		avail = 1ULL << 30;
	return avail / 2;
}

/*
 * The DRAM working set per thread for N threads: the paper's 100 x LLC
 * in all (4 x with --quick: docs/stress.md), capped at half the
 * memory available;
 * *note says which rule applied.
 */
static size_t dram_ws(const struct pandia_machine *m, const struct plan *p,
		      int numa, int n, char **note)
{
	unsigned long long llc = stress_llc_size(m), want, cap;
	size_t ws;

	want = (unsigned long long)stress_working_set(m, LVL_DRAM, n) * n;
	if (p->t.dram_llc_factor != 100)
		want = want / 100 * p->t.dram_llc_factor;
	cap = memory_cap(m, numa);
	if (want > cap) {
		ws = (size_t)(cap / n) & ~4095UL;
		*note = xasprintf("working set capped at %llu MiB in all "
				  "(half the available memory); the rule "
				  "asks for %llu MiB (%d x the %llu KiB "
				  "LLC)", (unsigned long long)ws * n >> 20,
				  want >> 20, p->t.dram_llc_factor,
				  llc >> 10);
	} else {
		ws = (size_t)(want / n) & ~4095UL;
		*note = xasprintf("working set %d x the %llu KiB LLC in all%s",
				  p->t.dram_llc_factor, llc >> 10,
				  p->t.dram_llc_factor == 100 ?
				  " (the paper's rule)" :
				  " (--quick; the paper's rule is 100 x)");
	}
	return ws;
}

/* The NUMA node (index) measured for DRAM: core 0's, else the first
 * one with both memory and cores. */
static int dram_node(const struct pandia_machine *m)
{
	int c = m->n_cores ? m->cores[0].numa : -1;
	int i;

	if (c >= 0 && c < m->n_numa && m->numa[c].memory &&
	    m->numa[c].n_cores)
		return c;
	for (i = 0; i < m->n_numa; i++)
		if (m->numa[i].memory && m->numa[i].n_cores)
			return i;
	return -1;
}

/* The first NUMA node with memory that belongs to socket s, or -1. */
static int socket_node(const struct pandia_machine *m, int s)
{
	int i;

	for (i = 0; i < m->n_numa; i++)
		if (m->numa[i].socket == s && m->numa[i].memory)
			return i;
	return -1;
}

static void plan_caches(struct plan *p, const struct pandia_machine *m)
{
	static const char *const names[] = { "L1", "L2", "L3" };
	int lvl, ci, core0 = 0;
	size_t ws;

	for (lvl = LVL_L1; lvl <= LVL_L3; lvl++) {
		const struct pandia_cache *c;
		struct job *j;

		ci = m->cores[core0].cache[lvl];
		if (ci < 0 || ci >= m->n_caches ||
		    !m->caches[ci].size) {
			p->absent[lvl] = xasprintf("no %s cache reported by "
						   "hwloc", names[lvl]);
			continue;
		}
		c = &m->caches[ci];
		ws = stress_working_set(m, lvl, 1);
		j = add_job(p, T_PER_CORE, lvl, STRESS_LOAD);
		set_cores(j, m, &core0, 1);
		j->ws = ws;
		j->what = job_what(names[lvl], "per core", 1, ws);
		j->note = xasprintf("one thread alone on a core reads its own "
				    "%zu-byte array (%s the %llu KiB %s, "
				    "or between it and the level below)%s",
				    ws, lvl == LVL_L3 ? "a quarter of" :
				    "half", c->size >> 10, names[lvl],
				    machine_cache_virtual(m, lvl) ?
				    "; hwloc describes more of it a core "
				    "than any processor has (a hypervisor's "
				    "view of a socket's cache): one core may "
				    "reach less than this array, and read "
				    "it at DRAM's rate" : "");
		if (c->n_cores <= 1) {
			p->private_level[lvl] = true;
			continue;
		}
		ws = stress_working_set(m, lvl, c->n_cores);
		j = add_job(p, T_AGGREGATE, lvl, STRESS_LOAD);
		set_cores(j, m, c->cores, c->n_cores);
		j->ws = ws;
		j->what = job_what(names[lvl], "aggregate", c->n_cores, ws);
		j->note = xasprintf("one thread on each of the %d cores "
				    "sharing this %s instance, each reading "
				    "its own array", c->n_cores, names[lvl]);
	}
}

static void plan_dram(struct plan *p, const struct pandia_machine *m)
{
	int ni = dram_node(m), core0;
	const struct pandia_numa *nd;
	char *rule;
	struct job *j;
	size_t ws;

	if (ni < 0) {
		p->absent[LVL_DRAM] = xstrdup("no NUMA node with both memory "
					      "and cores");
		return;
	}
	nd = &m->numa[ni];
	core0 = nd->cores[0];
	ws = dram_ws(m, p, ni, 1, &rule);
	j = add_job(p, T_PER_CORE, LVL_DRAM, STRESS_LOAD);
	set_cores(j, m, &core0, 1);
	j->ws = ws;
	j->node = nd->os_index;
	j->what = job_what("DRAM", "per core", 1, ws);
	j->note = xasprintf("one thread alone reads memory of its own NUMA "
			    "node %d; %s", nd->os_index, rule);
	free(rule);
	if (nd->n_cores <= 1) {
		p->private_level[LVL_DRAM] = true;
		return;
	}
	ws = dram_ws(m, p, ni, nd->n_cores, &rule);
	j = add_job(p, T_AGGREGATE, LVL_DRAM, STRESS_LOAD);
	set_cores(j, m, nd->cores, nd->n_cores);
	j->ws = ws;
	j->node = nd->os_index;
	j->what = job_what("DRAM", "aggregate", nd->n_cores, ws);
	j->note = xasprintf("one thread on each of the %d cores local to "
			    "NUMA node %d, each reading its own array on "
			    "that node; %s", nd->n_cores, nd->os_index, rule);
	free(rule);
}

static void plan_interconnect(struct plan *p, const struct pandia_machine *m)
{
	int a, b, na, nb, ca, cb, k, core0, *cores;
	char *rule, *skipped = NULL, *tmp;
	struct job *j;
	size_t ws;

	if (m->n_sockets < 2) {
		p->absent[LVL_INTERCONNECT] = xstrdup("not applicable: one socket");
		return;
	}
	for (a = 0; a < m->n_sockets; a++) {
		for (b = a + 1; b < m->n_sockets; b++) {
			/* a pair without a node or without cores is skipped */
			na = socket_node(m, a);
			nb = socket_node(m, b);
			if (na < 0 || nb < 0 || !m->sockets[a].n_cores ||
			    !m->sockets[b].n_cores) {
				tmp = xasprintf("%s%s%d-%d", skipped ?
						skipped : "", skipped ?
						"," : "", a, b);
				free(skipped);
				skipped = tmp;
				continue;
			}
			p->xfrom = xrealloc(p->xfrom,
					    (p->n_xlinks + 1) * sizeof(int));
			p->xto = xrealloc(p->xto,
					  (p->n_xlinks + 1) * sizeof(int));
			p->xfrom[p->n_xlinks] = a;
			p->xto[p->n_xlinks] = b;
			/*
			 * Both directions at once, as the model counts a
			 * pair: every core of socket a reads node b and
			 * every core of socket b reads node a.
			 */
			ca = m->sockets[a].n_cores;
			cb = m->sockets[b].n_cores;
			cores = xcalloc(ca + cb, sizeof(int));
			memcpy(cores, m->sockets[a].cores, ca * sizeof(int));
			memcpy(cores + ca, m->sockets[b].cores,
			       cb * sizeof(int));
			ws = dram_ws(m, p, nb, ca > cb ? ca : cb, &rule);
			j = add_job(p, T_XLINK, LVL_INTERCONNECT, STRESS_LOAD);
			j->xlink = p->n_xlinks++;
			set_cores(j, m, cores, ca + cb);
			free(cores);
			j->nodes = xcalloc(ca + cb, sizeof(int));
			for (k = 0; k < ca + cb; k++)
				j->nodes[k] = m->numa[k < ca ? nb : na]
					.os_index;
			j->ws = ws;
			j->node = m->numa[nb].os_index;
			tmp = xasprintf("sockets %d<->%d", a, b);
			j->what = job_what("inter-socket", tmp, ca + cb, ws);
			free(tmp);
			j->note = xasprintf("one thread on each core of "
					    "socket %d reads memory of NUMA "
					    "node %d and one on each core of "
					    "socket %d reads node %d, at "
					    "once: the figure is both "
					    "directions of the link added; "
					    "%s", a, m->numa[nb].os_index, b,
					    m->numa[na].os_index, rule);
			free(rule);
		}
	}
	if (skipped) {
		p->xlink_note = xasprintf("socket pairs %s not measured: the "
					  "second socket has no memory or "
					  "the first no cores", skipped);
		free(skipped);
	}
	if (!p->n_xlinks) {
		p->absent[LVL_INTERCONNECT] = xstrdup("no socket with memory "
						      "to read remotely");
		return;
	}
	/* One thread alone on socket xfrom[0] reading socket xto[0]. */
	nb = socket_node(m, p->xto[0]);
	core0 = m->sockets[p->xfrom[0]].cores[0];
	ws = dram_ws(m, p, nb, 1, &rule);
	j = add_job(p, T_PER_CORE, LVL_INTERCONNECT, STRESS_LOAD);
	set_cores(j, m, &core0, 1);
	j->ws = ws;
	j->node = m->numa[nb].os_index;
	j->what = job_what("inter-socket", "per core", 1, ws);
	j->note = xasprintf("one thread alone on socket %d reads memory of "
			    "NUMA node %d (socket %d); %s", p->xfrom[0],
			    m->numa[nb].os_index, p->xto[0], rule);
	free(rule);
}

/* The first core of kind K (core 0 on one kind). */
static int kind_core(const struct pandia_machine *m, int k)
{
	int i;

	for (i = 0; m->n_kinds && i < m->n_cores; i++)
		if (m->cores[i].kind == k)
			return i;
	return 0;
}

/*
 * The core rate with every core of core I's socket busy: a lone core
 * clocks higher on many processors (turbo), so a thread runs slower
 * when the others run too (docs/stress.md).  Not on a socket of one
 * core, nor on kinds of core (their rates differ anyway).
 */
static void plan_all_busy(struct plan *p, const struct pandia_machine *m,
			  int i)
{
	const struct pandia_socket *s = &m->sockets[m->cores[i].socket];
	struct job *j;
	int n = s->n_cores, q, k;

	if (n < 2 || m->n_kinds)
		return;
	j = add_job(p, T_ALL_BUSY, LVL_COUNT, STRESS_CPU);
	set_cores(j, m, s->cores, n);
	j->what = job_what("core rate", "all busy", n, 0);
	j->note = xasprintf("as core.peak_rate, one thread on each of the "
			    "%d cores of a socket at once; the figure is "
			    "their sum over %d", n, n);
	/* the curve between: a quarter, half and three quarters busy */
	for (q = 1; q <= 3; q++) {
		k = (n * q + 2) / 4;
		if (k < 2 || k >= n || (p->n_busy &&
		    k <= p->busy_cores[p->n_busy - 1]))
			continue;
		j = add_job(p, T_BUSY, LVL_COUNT, STRESS_CPU);
		j->xlink = p->n_busy;
		p->busy_cores[p->n_busy++] = k;
		set_cores(j, m, s->cores, k);
		j->what = job_what("core rate", "busy", k, 0);
		j->note = xasprintf("as core.all_busy_rate, on %d of the "
				    "socket's %d cores", k, n);
	}
}

static void plan_cores(struct plan *p, const struct pandia_machine *m)
{
	int fast = machine_fastest_kind(m), k, i = kind_core(m, fast);
	const struct pandia_core *c = &m->cores[i];
	struct job *j;

	/* hybrid: the peak on the fastest kind, then one per kind */
	for (k = 0; k < m->n_kinds; k++) {
		int ck = kind_core(m, k);

		if (k == fast)
			continue;
		j = add_job(p, T_KIND, LVL_COUNT, STRESS_CPU);
		j->xlink = k;
		set_cores(j, m, &ck, 1);
		j->what = job_what("core rate", "other kind", 1, 0);
		j->note = xasprintf("as core.peak_rate, on a core of kind %d "
				    "(hwloc efficiency %d)", k,
				    m->kinds[k].efficiency);
	}
	j = add_job(p, T_PEAK, LVL_COUNT, STRESS_CPU);
	set_cores(j, m, &i, 1);
	j->what = job_what("core rate", "alone", 1, 0);
	j->note = xstrdup("independent integer add chains in registers, "
			  "unrolled; operations = instructions retired by "
			  "the loop (adds, decrement and branch)");
	plan_all_busy(p, m, i);
	if (c->n_pus <= 1)
		return;
	j = add_job(p, T_SMT, LVL_COUNT, STRESS_CPU);
	j->n = c->n_pus;
	j->pus = xcalloc(c->n_pus, sizeof(int));
	for (i = 0; i < c->n_pus; i++)
		j->pus[i] = m->pus[c->pus[i]].os_index;
	j->what = job_what("core rate", "SMT", c->n_pus, 0);
	j->note = xasprintf("one thread on each of the %d PUs of one core; "
			    "the figure is their sum", c->n_pus);
}

void stress_plan_release(struct plan *p)
{
	int i;

	stress_keep_release(p);
	for (i = 0; i < p->n_jobs; i++) {
		free(p->jobs[i].pus);
		free(p->jobs[i].nodes);
		free(p->jobs[i].what);
		free(p->jobs[i].note);
	}
	free(p->jobs);
	for (i = 0; i < LVL_COUNT; i++)
		free(p->absent[i]);
	free(p->xfrom);
	free(p->xto);
	free(p->xlink_note);
	memset(p, 0, sizeof(*p));
}

int stress_plan_make(struct plan *p, const struct pandia_machine *m,
		     const struct stress_opts *o, struct pandia_error *err)
{
	memset(p, 0, sizeof(*p));
	p->t = *stress_timing(o);
	if (m->n_cores <= 0 || m->n_pus <= 0)
		return perr_set(err, "the machine has no cores to measure");
	if (m->cores[0].n_pus <= 0)
		return perr_set(err, "core 0 has no PU to run on");
	plan_cores(p, m);
	plan_caches(p, m);
	plan_dram(p, m);
	plan_interconnect(p, m);
	stress_plan_keep(p, memory_cap(m, -1));
	return 0;
}
