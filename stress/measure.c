/*
 * measure.c - measure this host's link bandwidths and core rates.
 *
 * Every figure is one "job": a kernel run by one pinned thread per PU
 * of a list, each on its own buffer, for a few timed repetitions that
 * all threads start together (a barrier before each).  A repetition's
 * figure is the sum over threads of work / time, each thread timing
 * itself; the figure kept is the best repetition, and the record keeps
 * the median and the spread too.  See docs/stress.md for the rules.
 *
 * Time.  On a shared host other processes take turns on our PUs.  The
 * measuring threads ask for a high priority (nice -20 where allowed)
 * and time themselves with both clocks.  A thread alone is rated over
 * its CPU time: while it ran it moved its bytes at full speed.  With
 * several threads that would overstate a shared cache or memory (one
 * thread running alone has it to itself), so each thread logs its
 * passes and only those during which every thread kept its PU count
 * (concurrent_rate()); a repetition where that is under 10% of the time
 * is dropped, and when all are, the wall-clock rate, a lower bound, is
 * kept.  The note of each record says which happened.
 */
#include "stress/measure.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/cpulist.h"
#include "common/report.h"
#include "common/util.h"
#include "stress/kernels.h"

/* Repetitions and their length, per mode. */
struct timing {
	int rounds;		/* passes over all the jobs */
	int reps;		/* repetitions per job and round */
	double rep_s;		/* seconds per repetition */
	double warm_s;		/* untimed run before the first one */
	int dram_llc_factor;	/* DRAM working set, in LLC sizes */
};

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
static const struct timing timing_quick = { 3, 4, 0.05, 0.45, 16 };

/* What a job's figure is for. */
enum target {
	T_PEAK,			/* m->peak_rate */
	T_SMT,			/* m->smt_rate */
	T_PER_CORE,		/* links[level].per_core_bw */
	T_AGGREGATE,		/* links[level].aggregate_bw */
	T_XLINK,		/* xlinks[xlink] */
	T_KIND,			/* kinds[xlink].rate */
};

struct job {
	enum target target;
	enum pandia_level level;
	int xlink;		/* index into m->xlinks for T_XLINK */
	enum stress_kind kind;
	int n;			/* threads */
	int *pus;		/* OS indexes, one per thread */
	size_t ws;		/* bytes per thread; 0 for the CPU kernel */
	int node;		/* NUMA node (OS index) of the buffers;
				   -1: local */
	int *nodes;		/* per thread, overrides node; or NULL */
	char *what;		/* progress text */
	char *note;		/* goes into the measure record */
};

struct plan {
	struct timing t;
	int n_jobs;
	struct job *jobs;
	/* Links without a job of their own, and why. */
	char *absent[LVL_COUNT];
	bool private_level[LVL_COUNT];	/* aggregate = per core */
	int n_xlinks;
	int *xfrom, *xto;
	char *xlink_note;	/* pairs left out, if any */
};

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
 * in all (16 x with --quick), capped at half the memory available;
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
				    "%zu-byte array (half the %llu KiB %s, "
				    "or between it and the level below)",
				    ws, c->size >> 10, names[lvl]);
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
			nb = socket_node(m, b);
			if (nb < 0 || !m->sockets[a].n_cores) {
				tmp = xasprintf("%s%s%d-%d", skipped ?
						skipped : "", skipped ?
						"," : "", a, b);
				free(skipped);
				skipped = tmp;
				continue;
			}
			na = socket_node(m, a);
			if (na < 0 || !m->sockets[b].n_cores) {
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

static void plan_release(struct plan *p)
{
	int i;

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

static int plan_make(struct plan *p, const struct pandia_machine *m,
		     const struct stress_opts *o, struct pandia_error *err)
{
	memset(p, 0, sizeof(*p));
	p->t = o && o->quick ? timing_quick : timing_full;
	if (m->n_cores <= 0 || m->n_pus <= 0)
		return perr_set(err, "the machine has no cores to measure");
	if (m->cores[0].n_pus <= 0)
		return perr_set(err, "core 0 has no PU to run on");
	plan_cores(p, m);
	plan_caches(p, m);
	plan_dram(p, m);
	plan_interconnect(p, m);
	return 0;
}

/* ---- running a job -------------------------------------------------- */

/* Each repetition of a job, summed over its threads. */
struct reps {
	int n;
	double *cpu;		/* sum of work / CPU second */
	double *wall;		/* sum of work / wall second */
	double *share;		/* the least CPU time / wall time of any
				   thread: below 1, others took turns */
};

/* A figure spread more than this is measured again, up to AGAIN times. */
#define MAX_SPREAD 0.10
#define AGAIN 2

/* A share of the wall time below this marks a disturbed repetition. */
#define CLEAN_SHARE	0.9
/* Seconds per step of the warm-up. */
#define WARM_SLICE	0.05
/* Nice value asked for by the measuring threads (if allowed). */
#define MEASURE_NICE	(-20)

struct run {
	const struct job *job;
	const struct timing *t;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;			/* 0 wait, 1 go, -1 abort */
	int failed;		/* under lock */
	struct pandia_error err;	/* the first failure */
	pthread_barrier_t bar;
};

/* One pass of a thread of a multi-thread job. */
struct pass_rec {
	double t0, t1;		/* monotonic clock */
	double work;
	bool clean;		/* on its PU the whole pass */
};

struct pass_log {
	int n, cap;
	struct pass_rec *p;
};

struct worker {
	struct run *run;
	int idx;
	double *cpu, *wall, *share;	/* per repetition */
	struct pass_log *log;	/* per repetition, with several threads */
};

static void reps_init(struct reps *r, int n)
{
	r->n = n;
	r->cpu = xcalloc(n, sizeof(double));
	r->wall = xcalloc(n, sizeof(double));
	r->share = xcalloc(n, sizeof(double));
}

static void reps_release(struct reps *r)
{
	free(r->cpu);
	free(r->wall);
	free(r->share);
	memset(r, 0, sizeof(*r));
}

static double thread_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_fail(struct run *r, const struct pandia_error *err)
{
	pthread_mutex_lock(&r->lock);
	if (!r->failed++)
		r->err = *err;
	pthread_mutex_unlock(&r->lock);
}

/* Pin the calling thread to PU and raise its priority if allowed. */
static int worker_place(int pu, struct pandia_error *err)
{
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(pu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc) {
		errno = rc;
		return perr_errno(err, "cannot pin a thread to PU %d", pu);
	}
	/*
	 * Other processes on our PUs steal time from the repetitions; a
	 * high priority (nice, not real time: the machine stays usable)
	 * helps against those of our own session.  Refused without
	 * CAP_SYS_NICE, which is fine; with autogroup scheduling other
	 * sessions get their fair share whatever we ask.
	 */
	setpriority(PRIO_PROCESS, (id_t)gettid(), MEASURE_NICE);
	return 0;
}

/*
 * Run the kernel untimed for at least WARM seconds and until its rate
 * (over CPU time) stops rising, at most 2 x WARM: an idle core can take
 * a good part of a second to reach full speed on a virtual machine.
 */
static void warm_up(enum stress_kind kind, struct stress_buf *b,
		    double warm)
{
	double start = now_seconds(), best = 0, rate, cpu, el, work, t;
	bool rising;

	do {
		cpu = thread_cpu_seconds();
		work = stress_run_for(kind, b, WARM_SLICE, &el);
		cpu = thread_cpu_seconds() - cpu;
		rate = work / (cpu > 0 && cpu <= el ? cpu : el);
		rising = rate > 1.02 * best;
		if (rate > best)
			best = rate;
		t = now_seconds() - start;
	} while (t < warm || (rising && t < 2 * warm));
}

/*
 * One timed repetition of a multi-thread job: like stress_run_for(),
 * but every pass is logged with its times and whether the thread kept
 * its PU throughout (CPU time at least CLEAN_SHARE of the pass).
 */
static double run_logged(enum stress_kind kind, struct stress_buf *b,
			 double seconds, struct pass_log *log, double *el)
{
	double work = 0, start, t0, t1, c0, c1, w;
	size_t off = 0;

	start = now_seconds();
	do {
		c0 = thread_cpu_seconds();
		t0 = now_seconds();
		w = stress_pass(kind, b, &off);
		t1 = now_seconds();
		c1 = thread_cpu_seconds();
		if (log->n == log->cap) {
			log->cap = log->cap ? 2 * log->cap : 1024;
			log->p = xrealloc(log->p, log->cap * sizeof(*log->p));
		}
		log->p[log->n].t0 = t0;
		log->p[log->n].t1 = t1;
		log->p[log->n].work = w;
		log->p[log->n].clean = c1 - c0 >= CLEAN_SHARE * (t1 - t0);
		log->n++;
		work += w;
	} while (t1 - start < seconds);
	*el = t1 - start;
	return work;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	const struct job *j = r->job;
	struct stress_buf buf = { NULL, 0, -1 };
	struct pandia_error err;
	double work, el, cpu;
	int go, failed, i;

	pthread_mutex_lock(&r->lock);
	while (!r->go)
		pthread_cond_wait(&r->cond, &r->lock);
	go = r->go;
	pthread_mutex_unlock(&r->lock);
	if (go < 0)
		return NULL;

	if (worker_place(j->pus[w->idx], &err) < 0)
		run_fail(r, &err);
	else if (j->kind != STRESS_CPU &&
		 stress_buf_alloc(&buf, j->ws, j->nodes ? j->nodes[w->idx] :
				  j->node, &err) < 0)
		run_fail(r, &err);

	pthread_barrier_wait(&r->bar);
	pthread_mutex_lock(&r->lock);
	failed = r->failed;
	pthread_mutex_unlock(&r->lock);
	if (failed)
		goto out_release;

	warm_up(j->kind, &buf, r->t->warm_s);
	for (i = 0; i < r->t->reps; i++) {
		pthread_barrier_wait(&r->bar);
		cpu = thread_cpu_seconds();
		if (w->log)
			work = run_logged(j->kind, &buf, r->t->rep_s,
					  &w->log[i], &el);
		else
			work = stress_run_for(j->kind, &buf, r->t->rep_s,
					      &el);
		cpu = thread_cpu_seconds() - cpu;
		/* Clocks of different resolution: never more than wall. */
		if (cpu <= 0 || cpu > el)
			cpu = el;
		w->cpu[i] = work / cpu;
		w->wall[i] = work / el;
		w->share[i] = cpu / el;
	}
out_release:
	stress_buf_release(&buf);
	return NULL;
}

/*
 * Whether [t0, t1] lies within the time thread LOG ran undisturbed:
 * inside a run of its clean passes, separated by no more than GAP_S
 * (the bookkeeping between two passes).
 */
#define GAP_S	20e-6

static bool covered(const struct pass_log *log, double t0, double t1)
{
	int lo = 0, hi = log->n - 1, mid, k;

	/* The last pass starting at or before t0. */
	if (!log->n || log->p[0].t0 > t0)
		return false;
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (log->p[mid].t0 <= t0)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (k = lo; k < log->n; k++) {
		if (!log->p[k].clean)
			return false;
		if (log->p[k].t1 >= t1)
			return true;
		if (k + 1 < log->n && log->p[k + 1].t0 - log->p[k].t1 > GAP_S)
			return false;
	}
	return false;
}

/*
 * The aggregate rate of repetition REP over the time all N threads ran
 * together: each thread's clean passes that lie within every other
 * thread's undisturbed time, work over time, summed over threads.
 * *share gets the smallest fraction of a thread's passes' time that
 * counted.
 */
static double concurrent_rate(const struct worker *w, int n, int rep,
			      double *share)
{
	double rate = 0, work, time, all;
	int i, k, q;
	bool ok;

	*share = 1;
	for (i = 0; i < n; i++) {
		const struct pass_log *log = &w[i].log[rep];

		work = time = all = 0;
		for (q = 0; q < log->n; q++) {
			const struct pass_rec *p = &log->p[q];

			all += p->t1 - p->t0;
			ok = p->clean;
			for (k = 0; ok && k < n; k++)
				if (k != i)
					ok = covered(&w[k].log[rep], p->t0,
						     p->t1);
			if (!ok)
				continue;
			work += p->work;
			time += p->t1 - p->t0;
		}
		if (all <= 0 || time <= 0) {
			*share = 0;
			return 0;
		}
		if (time / all < *share)
			*share = time / all;
		rate += work / time;
	}
	return rate;
}

/*
 * Run job J once with timing T: T->reps repetitions go into *out from
 * position OFF on.  For several threads, out->cpu is the rate over
 * the time they all ran together and out->share the fraction of the
 * time that was.  0 or -1 with err.
 */
static int run_job(const struct job *j, const struct timing *t,
		   struct reps *out, int off, struct pandia_error *err)
{
	struct run r;
	struct worker *w;
	pthread_t *tid;
	int i, k, made = 0, rc, ret = -1;
	double share;

	memset(&r, 0, sizeof(r));
	r.job = j;
	r.t = t;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	pthread_barrier_init(&r.bar, NULL, j->n);
	w = xcalloc(j->n, sizeof(*w));
	tid = xcalloc(j->n, sizeof(*tid));

	for (i = 0; i < j->n; i++) {
		w[i].run = &r;
		w[i].idx = i;
		w[i].cpu = xcalloc(t->reps, sizeof(double));
		w[i].wall = xcalloc(t->reps, sizeof(double));
		w[i].share = xcalloc(t->reps, sizeof(double));
		if (j->n > 1)
			w[i].log = xcalloc(t->reps, sizeof(*w[i].log));
	}
	for (i = 0; i < j->n; i++) {
		rc = pthread_create(&tid[i], NULL, worker_main, &w[i]);
		if (rc) {
			errno = rc;
			perr_errno(err, "cannot start a measuring thread");
			break;
		}
		made++;
	}
	/* Start them only when all exist: the barriers count on it. */
	pthread_mutex_lock(&r.lock);
	r.go = made == j->n ? 1 : -1;
	pthread_cond_broadcast(&r.cond);
	pthread_mutex_unlock(&r.lock);
	for (i = 0; i < made; i++)
		pthread_join(tid[i], NULL);
	if (made < j->n)
		goto out_free;
	if (r.failed) {
		*err = r.err;
		goto out_free;
	}
	for (k = 0; k < t->reps; k++) {
		out->cpu[off + k] = out->wall[off + k] = 0;
		out->share[off + k] = 1;
		for (i = 0; i < j->n; i++) {
			out->cpu[off + k] += w[i].cpu[k];
			out->wall[off + k] += w[i].wall[k];
			if (w[i].share[k] < out->share[off + k])
				out->share[off + k] = w[i].share[k];
		}
		if (j->n > 1) {
			out->cpu[off + k] = concurrent_rate(w, j->n, k,
							    &share);
			out->share[off + k] = share;
		}
	}
	ret = 0;
out_free:
	for (i = 0; i < j->n; i++) {
		free(w[i].cpu);
		free(w[i].wall);
		free(w[i].share);
		for (k = 0; w[i].log && k < t->reps; k++)
			free(w[i].log[k].p);
		free(w[i].log);
	}
	free(w);
	free(tid);
	pthread_barrier_destroy(&r.bar);
	pthread_cond_destroy(&r.cond);
	pthread_mutex_destroy(&r.lock);
	return ret;
}

static char *join_note(const char *a, char *b)
{
	char *s;

	if (!a)
		return b;
	s = xasprintf("%s; %s", a, b);
	free(b);
	return s;
}

/*
 * The measure record of job J from its repetitions.  Which rate counts:
 *  - WALL (asked for): the wall-clock rates of every repetition;
 *  - one thread: the CPU-time rates of every repetition (exact even
 *    when other processes took turns on the PU);
 *  - several threads: the rates over the time they all ran together,
 *    of the repetitions in which that was at least MIN_TOGETHER of the
 *    time; when there is none, the wall-clock rates, a lower bound
 *    (the bytes really moved in the time), said so in the note.
 */
#define MIN_TOGETHER	0.1

static void fill_record(struct pandia_measure *ms, const struct job *j,
			const struct reps *r, bool wall)
{
	double *rates = xcalloc(r->n, sizeof(double));
	double lo, hi, med, low_share = 1;
	int i, n = 0, clean = 0, usable = 0;
	char *note = NULL;

	for (i = 0; i < r->n; i++) {
		if (r->share[i] < low_share)
			low_share = r->share[i];
		if (r->share[i] >= CLEAN_SHARE)
			clean++;
		if (r->share[i] >= MIN_TOGETHER)
			usable++;
	}
	for (i = 0; i < r->n; i++) {
		if (wall)
			rates[n++] = r->wall[i];
		else if (j->n == 1)
			rates[n++] = r->cpu[i];
		else if (!usable)
			rates[n++] = r->wall[i];
		else if (r->share[i] >= MIN_TOGETHER)
			rates[n++] = r->cpu[i];
	}
	if (clean == r->n)
		;
	else if (wall)
		note = xasprintf("other processes took turns on the PUs "
				 "(ours %.0f%% of the time at worst)",
				 100 * low_share);
	else if (j->n == 1)
		note = xasprintf("other processes took turns on the PU (ours "
				 "%.0f%% of the time at worst): rates over "
				 "the thread's CPU time", 100 * low_share);
	else if (usable == r->n)
		note = xasprintf("other processes took turns on the PUs: "
				 "rates over the time all threads ran "
				 "together (%.0f%% of it at worst)",
				 100 * low_share);
	else if (usable)
		note = xasprintf("other processes took turns on the PUs: "
				 "rates over the time all threads ran "
				 "together; %d of %d repetitions dropped "
				 "(together less than %.0f%% of the time)",
				 r->n - usable, r->n, 100 * MIN_TOGETHER);
	else
		note = xasprintf("the threads hardly ever ran together (other "
				 "processes took turns on the PUs): the "
				 "figure is a lower bound over the wall time");

	lo = hi = rates[0];
	for (i = 1; i < n; i++) {
		if (rates[i] < lo)
			lo = rates[i];
		if (rates[i] > hi)
			hi = rates[i];
	}
	med = median_of(rates, n);
	measure_release(ms);
	ms->kernel = xstrdup(stress_kernel_name(j->kind));
	ms->working_set = (double)j->ws;
	ms->threads = j->n;
	ms->pus = cpulist_format(j->pus, j->n);
	ms->repetitions = n;
	ms->best = hi;
	ms->median = med;
	ms->spread = med > 0 ? (hi - lo) / med : 0;
	ms->unit = xstrdup(j->kind == STRESS_CPU ? "ops/s" : "bytes/s");
	if (note)
		ms->note = join_note(j->note, note);
	else
		ms->note = j->note ? xstrdup(j->note) : NULL;
	free(rates);
}

/* A copy of a record, with NOTE (may be NULL) put before its note. */
static void copy_record(struct pandia_measure *dst,
			const struct pandia_measure *src, const char *note)
{
	measure_release(dst);
	*dst = *src;
	dst->kernel = src->kernel ? xstrdup(src->kernel) : NULL;
	dst->pus = src->pus ? xstrdup(src->pus) : NULL;
	dst->unit = src->unit ? xstrdup(src->unit) : NULL;
	if (note && src->note)
		dst->note = xasprintf("%s; %s", note, src->note);
	else if (note)
		dst->note = xstrdup(note);
	else
		dst->note = src->note ? xstrdup(src->note) : NULL;
}

static void store(struct pandia_machine *m, const struct job *j,
		  const struct reps *r, bool wall)
{
	struct pandia_link *l;
	struct pandia_measure ms;

	memset(&ms, 0, sizeof(ms));
	fill_record(&ms, j, r, wall);
	switch (j->target) {
	case T_PEAK:
		m->peak_rate = ms.best;
		measure_release(&m->peak);
		m->peak = ms;
		return;
	case T_SMT:
		m->smt_applicable = true;
		m->smt_rate = ms.best;
		free(m->smt_reason);
		m->smt_reason = NULL;
		measure_release(&m->smt);
		m->smt = ms;
		return;
	case T_PER_CORE:
		l = &m->links[j->level];
		l->per_core_bw = ms.best;
		measure_release(&l->per_core);
		l->per_core = ms;
		return;
	case T_AGGREGATE:
		l = &m->links[j->level];
		l->aggregate_bw = ms.best;
		measure_release(&l->aggregate);
		l->aggregate = ms;
		return;
	case T_XLINK:
		m->xlinks[j->xlink].bw = ms.best;
		measure_release(&m->xlinks[j->xlink].m);
		m->xlinks[j->xlink].m = ms;
		return;
	case T_KIND:
		m->kinds[j->xlink].rate = ms.best;
		measure_release(&m->kinds[j->xlink].m);
		m->kinds[j->xlink].m = ms;
		return;
	}
	measure_release(&ms);
}

/* ---- public --------------------------------------------------------- */

double stress_estimate_seconds(const struct pandia_machine *m,
			       const struct stress_opts *o)
{
	struct plan p;
	double s = 0;
	int i;

	if (plan_make(&p, m, o, NULL) < 0)
		return 0;
	for (i = 0; i < p.n_jobs; i++) {
		s += p.t.warm_s + p.t.reps * p.t.rep_s;
		/* Page faults and touching: about 0.6 GB/s here. */
		s += (double)p.jobs[i].ws * p.jobs[i].n / 0.6e9;
	}
	s *= p.t.rounds;
	plan_release(&p);
	return s;
}

int stress_measure_one(enum stress_kind kind, const int *pus, int n,
		       size_t ws, int node, const struct stress_opts *o,
		       struct pandia_measure *out, struct pandia_error *err)
{
	const struct timing *t = o && o->quick ? &timing_quick : &timing_full;
	struct job j;
	struct reps r;
	int k, ret = -1;

	if (n <= 0)
		return perr_set(err, "no PU to measure on");
	memset(&j, 0, sizeof(j));
	j.kind = kind;
	j.n = n;
	j.pus = (int *)pus;
	j.ws = kind == STRESS_CPU ? 0 : ws;
	j.node = node;
	reps_init(&r, t->rounds * t->reps);
	for (k = 0; k < t->rounds; k++)
		if (run_job(&j, t, &r, k * t->reps, err) < 0)
			goto out_reps;
	memset(out, 0, sizeof(*out));
	fill_record(out, &j, &r, o && o->wall_clock);
	ret = 0;
out_reps:
	reps_release(&r);
	return ret;
}

static void mark_absent(struct pandia_link *l, const char *why)
{
	l->present = false;
	free(l->reason);
	l->reason = xstrdup(why);
	l->per_core_bw = 0;
	l->aggregate_bw = 0;
	measure_release(&l->per_core);
	measure_release(&l->aggregate);
}

/* The spread of a job's repetitions as fill_record() would give it. */
static double spread_of(const struct job *j, const struct reps *r,
			const struct stress_opts *o)
{
	struct pandia_measure ms;
	double sp;

	memset(&ms, 0, sizeof(ms));
	fill_record(&ms, j, r, o && o->wall_clock);
	sp = ms.spread;
	measure_release(&ms);
	return sp;
}

/* Say in every record of m that came from job j that its spread stayed. */
static void note_spread(struct pandia_machine *m, const struct job *j,
			double sp)
{
	struct pandia_measure *all[2 * LVL_COUNT + 2];
	char *pus = cpulist_format(j->pus, j->n);
	int i, n = 0;

	for (i = 0; i < LVL_COUNT; i++) {
		all[n++] = &m->links[i].per_core;
		all[n++] = &m->links[i].aggregate;
	}
	all[n++] = &m->peak;
	all[n++] = &m->smt;
	for (i = 0; i < n; i++) {
		struct pandia_measure *ms = all[i];
		char *t;

		if (!ms->pus || strcmp(ms->pus, pus) || !ms->kernel ||
		    strcmp(ms->kernel, stress_kernel_name(j->kind)) ||
		    ms->working_set != (double)j->ws)
			continue;
		t = xasprintf("%s%sspread %.0f%% over %.0f%% after measuring "
			      "again: the host was busy", ms->note ? ms->note :
			      "", ms->note ? "; " : "", 100 * sp,
			      100 * MAX_SPREAD);
		free(ms->note);
		ms->note = t;
	}
	free(pus);
}

int stress_measure(struct pandia_machine *m, const struct stress_opts *o,
		   struct pandia_error *err)
{
	static const char *const priv[] = {
		"private to one core: the aggregate is the per-core figure",
		"private to one core: the aggregate is the per-core figure",
		"private to one core: the aggregate is the per-core figure",
		"one core on this NUMA node: the aggregate is the per-core "
		"figure",
		"",
	};
	struct plan p;
	struct reps *r = NULL;
	int i, k, lvl, ret = -1;

	if (plan_make(&p, m, o, err) < 0)
		goto out_plan;
	r = xcalloc(p.n_jobs, sizeof(*r));
	for (i = 0; i < p.n_jobs; i++)
		reps_init(&r[i], p.t.rounds * p.t.reps);

	for (i = 0; i < m->n_xlinks; i++)
		measure_release(&m->xlinks[i].m);
	free(m->xlinks);
	m->n_xlinks = p.n_xlinks;
	m->xlinks = xcalloc(p.n_xlinks ? p.n_xlinks : 1, sizeof(*m->xlinks));
	for (i = 0; i < p.n_xlinks; i++) {
		m->xlinks[i].from = p.xfrom[i];
		m->xlinks[i].to = p.xto[i];
	}
	m->smt_applicable = false;
	m->smt_rate = 0;
	measure_release(&m->smt);
	free(m->smt_reason);
	m->smt_reason = m->cores[0].n_pus > 1 ? NULL :
		xstrdup("not applicable: one PU per core");

	for (k = 0; k < p.t.rounds; k++) {
		for (i = 0; i < p.n_jobs; i++) {
			const struct job *j = &p.jobs[i];

			if (o && o->progress)
				report_progress("machine", "%s ... %d/%d",
					j->what,
					k * p.n_jobs + i + 1,
					p.t.rounds * p.n_jobs);
			if (run_job(j, &p.t, &r[i], k * p.t.reps, err) < 0)
				goto out_reps;
		}
	}
	/*
	 * A figure whose repetitions spread more than MAX_SPREAD is
	 * measured again, alone, up to AGAIN times; the set of
	 * repetitions with the least spread is kept, and a spread that
	 * stays is said in the figure's note (pandia machine warns).
	 */
	for (i = 0; i < p.n_jobs; i++) {
		const struct job *j = &p.jobs[i];
		int a;

		for (a = 0; a < AGAIN && spread_of(j, &r[i], o) > MAX_SPREAD;
		     a++) {
			struct reps again;

			reps_init(&again, p.t.reps);
			if (o && o->progress)
				report_progress("machine", "%s spread "
					"%.0f%%: measuring it again", j->what,
					100 * spread_of(j, &r[i], o));
			if (run_job(j, &p.t, &again, 0, err) < 0) {
				reps_release(&again);
				goto out_reps;
			}
			if (spread_of(j, &again, o) < spread_of(j, &r[i], o)) {
				reps_release(&r[i]);
				r[i] = again;
			} else {
				reps_release(&again);
			}
		}
	}
	for (i = 0; i < p.n_jobs; i++) {
		double sp = spread_of(&p.jobs[i], &r[i], o);

		store(m, &p.jobs[i], &r[i], o && o->wall_clock);
		if (sp > MAX_SPREAD)
			note_spread(m, &p.jobs[i], sp);
	}
	if (m->n_kinds) {
		/* the fastest kind's is the peak; a kind hwloc ranks lower
		   that measured faster makes the peak its own */
		k = machine_fastest_kind(m);
		m->kinds[k].rate = m->peak_rate;
		copy_record(&m->kinds[k].m, &m->peak, NULL);
		for (i = 0; i < m->n_kinds; i++)
			if (m->kinds[i].rate > m->peak_rate)
				m->peak_rate = m->kinds[i].rate;
	}

	for (lvl = 0; lvl < LVL_COUNT; lvl++) {
		struct pandia_link *l = &m->links[lvl];

		if (p.absent[lvl]) {
			mark_absent(l, p.absent[lvl]);
			continue;
		}
		l->present = true;
		free(l->reason);
		l->reason = NULL;
		if (p.private_level[lvl]) {
			l->aggregate_bw = l->per_core_bw;
			copy_record(&l->aggregate, &l->per_core, priv[lvl]);
		}
	}
	if (!m->links[LVL_INTERCONNECT].present)
		goto out_done;
	/* The link's aggregate: the slowest pair (all measured alike). */
	for (i = 0; i < m->n_xlinks; i++) {
		struct pandia_link *l = &m->links[LVL_INTERCONNECT];

		if (i == 0 || m->xlinks[i].bw < l->aggregate_bw) {
			l->aggregate_bw = m->xlinks[i].bw;
			copy_record(&l->aggregate, &m->xlinks[i].m,
				    p.xlink_note ? p.xlink_note :
				    (m->n_xlinks > 1 ?
				     "the slowest pair of sockets" : NULL));
		}
	}
out_done:
	ret = 0;
out_reps:
	for (i = 0; r && i < p.n_jobs; i++)
		reps_release(&r[i]);
	free(r);
out_plan:
	plan_release(&p);
	return ret;
}
