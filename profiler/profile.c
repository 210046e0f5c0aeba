/*
 * profile.c - profiling a command: the six pinned runs of the Pandia
 * paper's section 4, the demands from counters or probes, and the
 * workload description they give (profiler/profile.h,
 * docs/profiling.md).  The parameters are solved by the model's own
 * fit (predictor/pandia/fit.h).
 */
#include "profiler/profile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <errno.h>

#include "common/cpulist.h"
#include "common/util.h"
#include "predictor/pandia/fit.h"
#include "profiler/numamaps.h"
#include "profiler/probe.h"
#include "profiler/run.h"

#ifndef PANDIA_VERSION
#define PANDIA_VERSION "unknown"
#endif

/*
 * The probes run alone this long before the command in their co-run
 * (their rate alone, to calibrate; at most t1).
 */
#define PROBE_ALONE_MIN 0.2
#define PROBE_ALONE_MAX 0.4
/*
 * A repetition during which other processes (or the hypervisor) took
 * more than this share of the time of the PUs it used is disturbed:
 * it is made again, up to as many times as there are repetitions.
 */
#define DISTURBED 0.1
/*
 * A run gets MIN_REPS repetitions (1 with --quick), and more, up to -r,
 * only while the spread of its repetitions is above SPREAD_MORE and the
 * budget lasts.
 */
#define MIN_REPS 2
#define SPREAD_MORE 0.05
/* The uncertainty beyond which a parameter is refused (docs/profiling.md). */
#define MAX_UNC_P 0.1
#define MAX_UNC_L 0.3
#define MAX_UNC_T1 0.1		/* relative */

/* ---- profiling a command ------------------------------------------ */

void profile_opts_init(struct profile_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->repetitions = 3;
	o->warmup = true;
	o->counters = COUNTERS_AUTO;
	o->solve = FIT_MODEL;
	o->size = NAN;
	o->degree = -1;
	o->budget = 12;
}

void profile_result_init(struct profile_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t1 = NAN;
}

void profile_result_release(struct profile_result *r)
{
	int i;

	if (!r)
		return;
	workload_free(r->w);
	for (i = 0; i < r->n_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r->backend_note);
	free(r->failed_stderr);
	profile_result_init(r);
}

static void __attribute__((format(printf, 2, 3)))
warn(struct profile_result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	r->warnings = xrealloc(r->warnings, sizeof(char *) *
			       (size_t)(r->n_warnings + 1));
	r->warnings[r->n_warnings++] = s;
}

/* One run as it is made: placement, stressors, what it measured. */
struct prun {
	char *id;
	char *purpose;
	int run;		/* 1..6; 0: a probe run */
	int level;		/* probe runs: enum pandia_level */
	int n_cpus;
	int *cpus;		/* OS indexes */
	double size;		/* {size}; NAN: none */
	int n_stress;
	char *spec[2];		/* [0] co-runner or probe, [1] loops */
	struct run_stressor stress[2];
	bool probe;		/* spec[0] is a bandwidth probe */
	bool count_cpu;		/* measure the command's CPU use */
	bool warmup_only;	/* the profile's warm-up: not timed */
	int n_times;
	double *times;
	double *rates;		/* probe runs: probes' total, per rep */
	double *alone;		/* and alone before the command */
	int calls;
	double wall;		/* seconds spent in its calls */
	double cpu, cpu_wall;	/* CPU use over its calls */
	const char *cpu_method;
	int threads_created;	/* shim's count in the last call; -1 */
	int processes;
	/* the accounting of the last call (profiler/run.h) */
	char *helpers;		/* found by the first call, given to the
				   others: no run made only to find them */
	int threads;		/* threads seen */
	int most_workers;	/* worker threads alive at once */
	double busiest[2];	/* CPU time of the two busiest threads */
	bool warmed;
	int redone;		/* disturbed repetitions made again */
	int disturbed;		/* disturbed repetitions kept */
	double foreign;		/* most others took of a kept one */
	char *numa_maps;	/* where its pages were (run 3), or NULL */
	struct probe_disturbance worst;	/* of any repetition, kept or not */
};

struct prof {
	const struct profile_opts *o;
	struct profile_result *res;
	struct pandia_error *err;
	const struct pandia_machine *m;
	double start;
	int n_runs, cap;
	struct prun *runs;	/* grown by new_run(): index, never keep
				   a pointer across it */
	int total;		/* runs to make in all, for progress */
	double alone_secs;	/* probes alone before their co-run */
	bool warmed;		/* the profile's one warm-up was made */
	char *helpers;		/* helper threads the first run found */
	int helpers_n;		/* in a run of that many threads */
	bool warm_helpers;	/* found by the warm-up: not yet checked
				   against the run that needs them */
	double budget;		/* seconds of wall time; 0: none */
	int min_reps;
};

static void prun_release(struct prun *R)
{
	int i;

	free(R->id);
	free(R->purpose);
	free(R->cpus);
	for (i = 0; i < R->n_stress; i++) {
		free(R->spec[i]);
		run_stressor_release(&R->stress[i]);
	}
	free(R->times);
	free(R->rates);
	free(R->alone);
	free(R->numa_maps);
	free(R->helpers);
}

/* Whether another call of R fits in the profile's budget. */
static bool budget_left(const struct prof *P, const struct prun *R)
{
	double call = R->calls ? R->wall / R->calls : P->res->t1;

	if (!(P->budget > 0))
		return true;
	if (!isfinite(call))
		call = 0;
	return now_seconds() - P->start + call <= P->budget;
}

static char *os_list(const struct pandia_machine *m, const int *pus, int n)
{
	int *v = xmalloc(sizeof(int) * (size_t)(n ? n : 1)), i;
	char *s;

	for (i = 0; i < n; i++)
		v[i] = m->pus[pus[i]].os_index;
	s = cpulist_format(v, n);
	free(v);
	return s;
}

/* Add stressor TEXT ("cpu@1,2") to R.  0 or -1 with err. */
static int add_stress(struct prof *P, struct prun *R, char *text)
{
	struct pandia_error e;

	if (run_stressor_parse(text, &R->stress[R->n_stress], &e) < 0) {
		perr_set(P->err, "internal error: stressor '%s': %s", text,
			 e.text);
		free(text);
		return -1;
	}
	R->spec[R->n_stress++] = text;
	return 0;
}

/*
 * A new run called ID ("runN" ids are the model's numbered runs): PUS
 * (m->pus indexes) for the command, CORUN PUs for the co-runner or
 * probe of KIND ("cpu", "bw:dram"), and with --busy-idle a core-local
 * loop on the first PU of every core left idle.
 */
static struct prun *new_run(struct prof *P, const char *id,
			    const int *pus, int n, const int *corun,
			    int n_corun, const char *kind, char *purpose)
{
	const struct pandia_machine *m = P->m;
	struct prun *R;
	bool *busy = xcalloc((size_t)m->n_cores + 1, sizeof(bool));
	int *idle = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	int i, n_idle = 0;

	if (P->n_runs == P->cap) {
		P->cap = P->cap ? 2 * P->cap : FIT_RUNS + 8;
		P->runs = xrealloc(P->runs, sizeof(*P->runs) *
				   (size_t)P->cap);
	}
	R = &P->runs[P->n_runs++];
	memset(R, 0, sizeof(*R));
	R->size = P->o->size;	/* a model's run may ask for its own */
	R->id = xstrdup(id);
	R->run = strncmp(id, "run", 3) ? 0 : atoi(id + 3);
	R->level = -1;
	R->threads_created = -1;
	R->n_cpus = n;
	R->cpus = xmalloc(sizeof(int) * (size_t)n);
	for (i = 0; i < n; i++) {
		R->cpus[i] = m->pus[pus[i]].os_index;
		busy[m->pus[pus[i]].core] = true;
	}
	for (i = 0; i < n_corun; i++)
		busy[m->pus[corun[i]].core] = true;
	if (n_corun > 0) {
		char *l = os_list(m, corun, n_corun);

		add_stress(P, R, xasprintf("%s@%s", kind, l));
		free(l);
	}
	if (P->o->busy_idle) {
		for (i = 0; i < m->n_cores; i++)
			if (!busy[i] && m->cores[i].n_pus > 0)
				idle[n_idle++] = m->cores[i].pus[0];
		if (n_idle) {
			char *l = os_list(m, idle, n_idle), *np;

			add_stress(P, R, xasprintf("cpu@%s", l));
			np = xasprintf("%s; core-local loops on the idle "
				       "cores' PUs %s", purpose, l);
			free(purpose);
			purpose = np;
			free(l);
		}
	}
	R->purpose = purpose;
	/* CPU use means something only for the command alone, here */
	R->count_cpu = !P->o->runner && R->n_stress == 0;
	free(busy);
	free(idle);
	return R;
}

static const char *run_label(const struct prun *R, char *buf, size_t size)
{
	if (R->warmup_only)
		snprintf(buf, size, "the warm-up, at the placement of %s "
			 "(%s)", R->id, R->purpose);
	else if (R->run)
		snprintf(buf, size, "run %d of 6 (%s)", R->run, R->purpose);
	else if (R->probe)
		snprintf(buf, size, "probe run '%s' (%s)", R->id, R->purpose);
	else
		snprintf(buf, size, "run '%s' (%s)", R->id, R->purpose);
	return buf;
}

static double est_call(const struct prof *P, const struct prun *R)
{
	double e;

	if (R->calls)
		return R->wall / R->calls;
	if (!P->n_runs || !P->runs[0].calls)
		return -1;
	e = P->runs[0].wall / P->runs[0].calls;
	/* a probes' co-run: the probes alone first */
	return R->probe && !P->o->runner ? e + P->alone_secs : e;
}

static void progress(struct prof *P, struct prun *R, int index, int rep)
{
	struct profile_progress pp;
	double left = 0;
	int i, n;

	if (!P->o->progress)
		return;
	memset(&pp, 0, sizeof(pp));
	pp.id = R->id;
	pp.what = R->purpose;
	pp.run = R->run;
	pp.probe = R->probe;
	pp.index = index;
	pp.total = P->total;
	pp.rep = rep;
	pp.reps = P->o->repetitions;
	pp.elapsed = now_seconds() - P->start;
	/* every call planned and not made, at the time such a call took
	   so far: a probe run gets one, the others their least number
	   (more only where their spread and the budget call for them) */
	for (i = 0; i < P->n_runs && left >= 0; i++) {
		double e = est_call(P, &P->runs[i]);

		n = (P->runs[i].probe ? 1 : P->min_reps) - P->runs[i].n_times;
		if (n > 0)
			left = e < 0 ? -1 : left + n * e;
	}
	if (left >= 0 && P->total > P->n_runs) {
		double e = est_call(P, &P->runs[0]);

		left = e < 0 ? -1 :
			left + (P->total - P->n_runs) * P->min_reps * e;
	}
	pp.left = left;
	P->o->progress(&pp, P->o->progress_arg);
}

/* The OS PUs R keeps busy: the command's and the stressors'.  *n
   gets their count; a new array. */
static int *busy_pus(const struct prun *R, int *n)
{
	int *v = xcalloc((size_t)R->n_cpus + 1 + 2 * 4096, sizeof(int));
	int i, j;

	*n = 0;
	for (i = 0; i < R->n_cpus; i++)
		v[(*n)++] = R->cpus[i];
	for (i = 0; i < R->n_stress; i++)
		for (j = 0; j < R->stress[i].n_pus && *n < R->n_cpus + 8192;
		     j++)
			v[(*n)++] = R->stress[i].pus[j];
	return v;
}

/* One thread on each listed PU and nothing beside: run-queue wait is
   then disturbance, not the placement's own time sharing. */
static bool runs_alone(const struct prun *R)
{
	int i, j;

	if (R->n_stress)
		return false;
	for (i = 0; i < R->n_cpus; i++)
		for (j = 0; j < i; j++)
			if (R->cpus[i] == R->cpus[j])
				return false;
	return true;
}

/*
 * The runner's message without its own count of runs ("run 1 of 1: ",
 * "the warm-up run: "): each call makes one, the caller says which.
 */
static const char *runner_text(const char *text)
{
	static const char *const prefix[] = {
		"run 1 of 1", "the warm-up run"
	};
	size_t k, n;

	for (k = 0; k < ARRAY_SIZE(prefix); k++) {
		n = strlen(prefix[k]);
		if (!strncmp(text, prefix[k], n)) {
			text += n;
			while (*text == ':' || *text == ' ')
				text++;
			break;
		}
	}
	return text;
}

/*
 * The roles found by another run of the command with as many threads
 * as R (R's twin: run 1 for a probe beside it), or NULL.
 */
static const char *helpers_of_twin(const struct prof *P,
				   const struct prun *R)
{
	int i;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *T = &P->runs[i];

		if (T != R && T->helpers &&
		    T->n_cpus == R->n_cpus)
			return T->helpers;
	}
	return NULL;
}

/* Make one measured repetition of R (after its warm-up, the first time). */
static int call_run(struct prof *P, struct prun *R, int index)
{
	const struct profile_opts *o = P->o;
	struct run_opts ro;
	struct run_result rr;
	struct pandia_error e;
	struct probe_disturb pd;
	struct probe_disturbance dd = { 0, 0, 0, 0 };
	char label[600], rep[64];
	double t0;
	int ret = -1, rc, i, *busy = NULL, n_busy = 0;

	progress(P, R, index, R->warmup_only ? 0 : R->n_times + 1);
	run_opts_init(&ro);
	ro.cpus = R->cpus;
	ro.n_cpus = R->n_cpus;
	ro.stress = R->stress;
	ro.n_stress = R->n_stress;
	ro.repetitions = R->warmup_only ? 0 : 1;
	/* one warm-up for the whole profile: later runs are warm */
	ro.warmup = R->warmup_only || (o->warmup && !P->warmed);
	/* the probes' rate alone, just before the command beside them */
	ro.stress_alone = R->probe && !o->runner ? P->alone_secs : 0;
	ro.timeout = o->timeout;
	ro.time_from = o->time_from;
	ro.runner = o->runner;
	ro.machine = P->m;
	ro.shim_path = o->shim_path;
	ro.size = R->size;
	/* the helpers the warm-up or run 2 found (below), else the
	   run's own, else those of a run with as many threads: no run
	   made only to find them again */
	ro.helpers = P->helpers ? P->helpers : R->helpers ? R->helpers :
		     helpers_of_twin(P, R);
	ro.mem = o->mem;
	/* where the pages are: run 3, over two sockets (a template's
	   program writes {numa_maps}; here, with two nodes or more) */
	ro.numa_maps = R->run == 3 && !o->has_memory &&
		(o->runner || P->m->n_numa > 1);
	run_result_init(&rr);
	if (!o->runner) {
		busy = busy_pus(R, &n_busy);
		probe_disturb_begin(&pd);
	}
	t0 = now_seconds();
	rc = run_execute(&ro, o->argv, &rr, &e);
	R->wall += now_seconds() - t0;
	R->calls++;
	if (!o->runner) {
		double cpu = 0, w = 0;

		probe_disturb_end(&pd, busy, n_busy, rc < 0 ? NULL : &rr,
				  runs_alone(R), &dd);
		cpu = pd.cpu_seconds;
		w = pd.wall_seconds;
		if (R->count_cpu) {
			R->cpu += cpu;
			R->cpu_wall += w;
			R->cpu_method = pd.cpu.method;
		}
		if (dd.share > R->worst.share)
			R->worst = dd;
	}
	if (rc < 0) {
		run_label(R, label, sizeof(label));
		if (R->warmup_only)
			rep[0] = 0;
		else if (rr.failed_run == 0)
			snprintf(rep, sizeof(rep), ", warm-up");
		else
			snprintf(rep, sizeof(rep), ", repetition %d of %d",
				 R->n_times + 1, o->repetitions);
		P->res->interrupted = rr.interrupted;
		if (rr.stderr_tail)
			P->res->failed_stderr = xstrdup(rr.stderr_tail);
		if (rr.interrupted)
			perr_set(P->err, "%s", e.text);
		else if (rr.failed_run < 0 || rr.exit_status < 0) {
			if (rr.timed_out)
				perr_set(P->err, "%s%s: the command timed "
					 "out after %g s", label, rep,
					 o->timeout);
			else if (rr.term_signal)
				perr_set(P->err, "%s%s: the command was "
					 "killed by signal %d (%s)", label,
					 rep, rr.term_signal,
					 strsignal(rr.term_signal));
			else
				perr_set(P->err, "%s%s: %s", label, rep,
					 runner_text(e.text));
		} else if (rr.exit_status > 0) {
			perr_set(P->err, "%s%s: the command exited with "
				 "status %d", label, rep, rr.exit_status);
		} else {
			perr_set(P->err, "%s%s: %s", label, rep,
				 runner_text(e.text));
		}
		goto out;
	}
	R->warmed = true;
	if (ro.warmup)
		P->warmed = true;
	/*
	 * The roles (workers, helpers) found by the first run with one
	 * thread on each of several PUs (run 2) serve every later run:
	 * one discovery run, not one per placement.  Run 1's, on one PU,
	 * would tell apart only what time-shares it.
	 */
	if (!P->helpers && rr.helpers && runs_alone(R) && R->n_cpus > 1) {
		P->helpers = xstrdup(rr.helpers);
		P->helpers_n = R->n_cpus;
	}
	if (R->warmup_only) {
		ret = 0;
		goto out;
	}
	if (dd.share > DISTURBED) {
		if (R->redone < o->repetitions && budget_left(P, R)) {
			/* others took its PUs: make it again, later */
			R->redone++;
			ret = 0;
			goto out;
		}
		R->disturbed++;
		if (dd.share > R->foreign)
			R->foreign = dd.share;
	}
	R->times = xrealloc(R->times, sizeof(double) *
			    (size_t)(R->n_times + 1));
	R->times[R->n_times] = rr.times[0];
	if (R->probe) {
		double sum = 0, alone = 0;

		for (i = 0; i < rr.n_stress; i++)
			if (!strcmp(rr.stress[i].spec, R->spec[0])) {
				sum += rr.stress[i].rates[0];
				alone += rr.stress[i].alone[0];
			}
		R->rates = xrealloc(R->rates, sizeof(double) *
				    (size_t)(R->n_times + 1));
		R->rates[R->n_times] = sum;
		R->alone = xrealloc(R->alone, sizeof(double) *
				    (size_t)(R->n_times + 1));
		R->alone[R->n_times] = alone;
	}
	R->n_times++;
	if (rr.numa_maps) {
		free(R->numa_maps);
		R->numa_maps = rr.numa_maps;
		rr.numa_maps = NULL;
	}
	R->threads_created = rr.threads_created;
	R->processes = rr.processes;
	if (!R->helpers)	/* none found (no library): none given */
		R->helpers = xstrdup(rr.helpers ? rr.helpers : "");
	R->threads = rr.n_threads;
	R->most_workers = rr.most_workers;
	R->busiest[0] = R->busiest[1] = 0;
	for (i = 0; i < rr.n_threads; i++) {
		double v = rr.threads[i].cpu_time;

		if (!(v > R->busiest[1]))
			continue;
		R->busiest[1] = v > R->busiest[0] ? R->busiest[0] : v;
		if (v > R->busiest[0])
			R->busiest[0] = v;
	}
	ret = 0;
out:
	free(busy);
	run_result_release(&rr);
	return ret;
}

/*
 * A probe run's repetitions, one after the other: one (the probes'
 * rates beside run 1 are averaged over the whole run), made again
 * while disturbed, as every run is.
 */
static int make_run(struct prof *P, struct prun *R, int index)
{
	int calls = 0;

	while (R->n_times < 1 && calls++ <= P->o->repetitions)
		if (call_run(P, R, index) < 0)
			return -1;
	if (R->n_times < 1)
		return perr_set(P->err, "%s: every repetition was disturbed",
				R->id);
	return 0;
}

static double med(const double *v, int n)
{
	return n ? median_of(v, n) : NAN;
}

static double half_range(const double *v, int n)
{
	double lo = INFINITY, hi = -INFINITY;
	int i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	return (hi - lo) / 2;
}

/* ---- demands ------------------------------------------------------ */

static void demand_unknown(struct pandia_workload *w, int r, char *status)
{
	wl_param_release(&w->demand[r]);
	w->listed[r] = true;
	w->demand[r].status = status;
}

/* The probe runs of level LVL for run 1's PU: created, not yet made. */
static int plan_probe(struct prof *P, int pu0, int lvl,
		      struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	const char *why, *ln = level_name(lvl);
	char id[64], kind[32], alone[96] = "", *l;
	struct prun *R;
	int *pus, n;

	n = probe_pus(m, pu0, lvl, &pus, &why);
	if (!n) {
		demand_unknown(w, WR_L1 + lvl, xasprintf("not measured: %s",
							 why));
		return 0;
	}
	l = os_list(m, pus, n);
	snprintf(kind, sizeof(kind), "bw:%s", ln);
	snprintf(id, sizeof(id), "probe-%s", ln);
	if (!P->o->runner)
		snprintf(alone, sizeof(alone), ", their rate alone measured "
			 "for %.2g s before it", P->alone_secs);
	R = new_run(P, id, &pu0, 1, pus, n, kind,
		    xasprintf("%s demand: run 1 beside %s probes on PUs %s%s",
			      ln, ln, l, alone));
	R->probe = true;
	R->level = lvl;
	free(l);
	free(pus);
	return n;
}

/* Number of probe levels run 1's PU allows (for the progress total). */
static int count_probe_runs(const struct prof *P, int pu0)
{
	int lvl, n = 0, *pus;
	const char *why;

	for (lvl = P->o->quick ? LVL_DRAM : LVL_L1; lvl <= LVL_DRAM; lvl++)
		if (probe_pus(P->m, pu0, lvl, &pus, &why) > 0) {
			n++;
			free(pus);
		}
	return n;
}

/* The demand at a probed level from its co-run. */
static void probe_demand(struct prof *P, struct prun *co,
			 struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	const struct pandia_link *lk = &m->links[co->level];
	struct probe_input in = { 0 };
	struct probe_estimate est;
	struct wl_param *d = &w->demand[WR_L1 + co->level];
	int n = co->stress[0].n_pus;

	in.level = co->level;
	in.n_probes = n;
	in.per_core_bw = lk->per_core_bw;
	in.aggregate_bw = lk->aggregate_bw;
	if (!P->o->runner) {
		in.alone = med(co->alone, co->n_times);
	} else {
		/* a runner template: the description's figures */
		in.alone = n * lk->per_core_bw;
		if (in.alone > lk->aggregate_bw)
			in.alone = lk->aggregate_bw;
	}
	in.corun = med(co->rates, co->n_times);
	in.corun_spread = half_range(co->rates, co->n_times);
	in.slowdown = med(co->times, co->n_times) / P->res->t1;
	if (!isfinite(in.corun)) {
		demand_unknown(w, WR_L1 + co->level, xasprintf(
			"not measured: the runner template reported no "
			"probe rate (a line 'pandia-stress: I RATE')"));
		return;
	}
	probe_estimate_demand(&in, &est);
	wl_param_release(d);
	w->listed[WR_L1 + co->level] = true;
	d->known = est.known;
	d->value = est.value;
	d->uncertainty = est.uncertainty;
	d->source = est.known ? xasprintf("run1,%s", co->id) : NULL;
	d->status = est.status;
}

/* ---- the description ---------------------------------------------- */

/* R as evidence in the description. */
static void record_run(const struct prun *R, struct wl_run *wr)
{
	int i;

	wr->id = xstrdup(R->id);
	wr->purpose = xstrdup(R->purpose);
	wr->n_cpus = R->n_cpus;
	wr->cpus = xmalloc(sizeof(int) * (size_t)R->n_cpus);
	memcpy(wr->cpus, R->cpus, sizeof(int) * (size_t)R->n_cpus);
	wr->n_stress = R->n_stress;
	wr->stress = xcalloc((size_t)R->n_stress + 1, sizeof(char *));
	for (i = 0; i < R->n_stress; i++)
		wr->stress[i] = xstrdup(R->spec[i]);
	wr->n_times = R->n_times;
	wr->times = xcalloc((size_t)R->n_times + 1, sizeof(double));
	if (R->n_times)
		memcpy(wr->times, R->times, sizeof(double) *
		       (size_t)R->n_times);
	wr->has_size = !isnan(R->size);
	wr->size = wr->has_size ? R->size : 0;
	if (R->count_cpu && R->cpu_wall > 0) {
		wl_run_add_counter(wr, "cpu_seconds", R->cpu);
		wl_run_add_counter(wr, "cpus_busy", R->cpu / R->cpu_wall);
	}
	if (R->probe)
		wl_run_add_counter(wr, "probe_bytes_per_s",
			    med(R->rates, R->n_times));
	if (R->probe && isfinite(med(R->alone, R->n_times)))
		wl_run_add_counter(wr, "probe_alone_bytes_per_s",
			    med(R->alone, R->n_times));
	if (R->threads_created >= 0 && R->threads > 0) {
		/* the model's threads are the workers */
		wl_run_add_counter(wr, "threads_seen", R->threads);
		wl_run_add_counter(wr, "workers_at_once", R->most_workers);
	}
	if (R->redone)
		wl_run_add_counter(wr, "disturbed_repeated", R->redone);
	if (R->disturbed)
		wl_run_add_counter(wr, "disturbed_kept", R->disturbed);
}

static void identity(struct prof *P, struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	char *const *a;
	int i;

	for (a = P->o->argv; a && *a; a++)
		w->n_command++;
	w->command = xcalloc((size_t)w->n_command + 1, sizeof(char *));
	for (i = 0; i < w->n_command; i++)
		w->command[i] = xstrdup(P->o->argv[i]);
	w->host = m->host ? xstrdup(m->host) : NULL;
	w->cpu_model = m->cpu_model ? xstrdup(m->cpu_model) : NULL;
	w->n_pus = m->n_pus;
	w->pus = xmalloc(sizeof(int) * (size_t)(m->n_pus ? m->n_pus : 1));
	for (i = 0; i < m->n_pus; i++)
		w->pus[i] = m->pus[i].os_index;
	w->machine_file = P->o->machine_file ?
		xstrdup(P->o->machine_file) : NULL;
	w->has_memory = true;
	w->memory.kind = MEM_LOCAL;
	w->memory.node = -1;
	{
		char d[32];

		iso_date_now(d, sizeof(d));
		w->date = xstrdup(d);
	}
	w->version = xstrdup(PANDIA_VERSION);
}

/* Run 1's runner options, for the counted run of the perf backend. */
static void run1_opts(const struct prof *P, const struct prun *R1,
		      struct run_opts *ro)
{
	run_opts_init(ro);
	ro->cpus = R1->cpus;
	ro->n_cpus = R1->n_cpus;
	ro->stress = R1->stress;
	ro->n_stress = R1->n_stress;
	ro->repetitions = 1;
	ro->warmup = false;
	ro->timeout = P->o->timeout;
	ro->time_from = P->o->time_from;
	ro->runner = P->o->runner;
	ro->machine = P->m;
	ro->shim_path = P->o->shim_path;
	ro->size = R1->size;
	ro->mem = P->o->mem;
}

/* The backend: perf's counted run, or the probe runs. */
static int demands(struct prof *P, int pu0, struct pandia_workload *w,
		   struct wl_run *ev1)
{
	const struct profile_opts *o = P->o;
	struct counters_result cr;
	struct run_opts ro;
	int rc, ret = -1, first, i, lvl;

	counters_result_init(&cr);
	run1_opts(P, &P->runs[0], &ro);
	rc = counters_demands(o->counters, P->m, &ro, o->argv, "run1", &cr,
			      P->err);
	if (rc == COUNTERS_MEASURED) {
		counters_result_apply(&cr, w, ev1);
		ret = 0;
		goto out;
	}
	if (rc != COUNTERS_UNAVAILABLE) {
		struct pandia_error e = *P->err;

		P->res->interrupted = cr.run.interrupted;
		if (cr.run.stderr_tail)
			P->res->failed_stderr = xstrdup(cr.run.stderr_tail);
		if (cr.run.failed_run >= 0 && !cr.run.interrupted)
			perr_set(P->err, "run 1 of 6, counted with perf: %s",
				 e.text);
		goto out;
	}
	free(w->counters);
	w->counters = xstrdup("probe");
	free(w->counters_note);
	if (o->counters == COUNTERS_PROBE) {
		w->counters_note = xstrdup("probe, as asked (--counters "
					   "probe): CPU use from task-clock, "
					   "demands at shared levels from "
					   "co-run bandwidth probes");
	} else {
		w->counters_note = xasprintf("auto: %s; used the probe "
					     "backend instead", cr.why);
		P->res->backend_note = xasprintf("%s (--counters auto: "
						 "using the probe backend)",
						 cr.why);
	}

	first = P->n_runs;
	/* --quick: the DRAM demand only, the one that decides most */
	for (lvl = P->o->quick ? LVL_DRAM : LVL_L1; lvl <= LVL_DRAM; lvl++)
		plan_probe(P, pu0, lvl, w);
	for (i = first; i < P->n_runs; i++)
		if (make_run(P, &P->runs[i], i + 1) < 0)
			goto out;
	for (i = first; i < P->n_runs; i++)
		probe_demand(P, &P->runs[i], w);
	if (P->runs[0].count_cpu && P->runs[0].cpu_wall > 0)
		demand_unknown(w, WR_INSTRUCTIONS, xasprintf(
			"not measured: instructions need hardware counters "
			"(probe backend); run 1 kept %.2f PUs busy (%s)",
			P->runs[0].cpu / P->runs[0].cpu_wall,
			P->runs[0].cpu_method));
	else
		demand_unknown(w, WR_INSTRUCTIONS, xstrdup(
			"not measured: instructions need hardware counters "
			"(probe backend)"));
	ret = 0;
out:
	if (ret == 0 && !w->listed[WR_INTERCONNECT])
		demand_unknown(w, WR_INTERCONNECT, xstrdup(
			P->m->n_sockets < 2 ?
			"not measured: this machine has one socket" :
			"not measured: inter-socket traffic is not counted"));
	counters_result_release(&cr);
	return ret;
}

static void check_threads(struct prof *P, const struct prun *R1,
			  const struct prun *R2)
{
	double r2 = med(R2->times, R2->n_times) / med(R1->times, R1->n_times);

	if (R2->threads_created == 0 && R2->processes <= 1)
		warn(P->res, "run 2 asked the command for %d threads but it "
		     "created none: put {threads} in its arguments or make "
		     "it honour OMP_NUM_THREADS (pandia sets both, and "
		     "PANDIA_THREADS)", R2->n_cpus);
	else if (R2->threads_created == 0 && R2->count_cpu &&
		 R2->cpu_wall > 0 && R2->cpu < 1.15 * R2->cpu_wall &&
		 r2 > 0.9)
		/* processes alive at once, but run one after the other */
		warn(P->res, "run 2 asked the command for %d threads; it "
		     "created none, and its %d processes kept %.2f PUs "
		     "busy and took %.0f%% of the time of run 1: the "
		     "command may ignore the thread count; put {threads} "
		     "in its arguments or make it honour OMP_NUM_THREADS",
		     R2->n_cpus, R2->processes, R2->cpu / R2->cpu_wall,
		     100 * r2);
	else if (R2->threads_created >= 0 &&
		 (R2->most_workers <= 1 || !(R2->busiest[0] >= RUN_BUSY_SHARE *
					     med(R2->times, R2->n_times))))
		/* the accounting saw it: one busy thread at a time, or none */
		warn(P->res, "run 2 asked the command for %d threads; of the "
		     "%d it ran, %s was busy (%.3g s of CPU; the next "
		     "busiest %.3g s) and it took %.0f%% of the time of "
		     "run 1: the command may ignore the thread count; put "
		     "{threads} in its arguments or make it honour "
		     "OMP_NUM_THREADS", R2->n_cpus, R2->threads,
		     R2->most_workers <= 1 ? "one at a time" : "none",
		     R2->busiest[0], R2->busiest[1], 100 * r2);
	else if (R2->threads_created < 0 && r2 > 0.9)
		warn(P->res, "run 2 (%d threads) took %.0f%% of the time of "
		     "run 1 (one thread): the command may ignore the thread "
		     "count; put {threads} in its arguments or make it "
		     "honour OMP_NUM_THREADS", R2->n_cpus, 100 * r2);
}

static void check_spread(struct prof *P)
{
	int i;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];
		double mdn = med(R->times, R->n_times);
		double sp = 2 * half_range(R->times, R->n_times) / mdn;

		if (R->disturbed)
			warn(P->res, "%s: %d of its %d repetitions ran while "
			     "other processes took up to %.0f%% of its PUs' "
			     "time (%d made again already): its time may be "
			     "theirs as much as the command's; profile on a "
			     "quieter machine", R->id, R->disturbed,
			     R->n_times, 100 * R->foreign, R->redone);
		else if (sp > 0.2)
			warn(P->res, "%s: its repetitions spread %.0f%% of "
			     "their median: the machine may be busy; more "
			     "repetitions (-r) help", R->id, 100 * sp);
	}
}

/* The run of P with the largest spread among those named in SOURCE. */
static const struct prun *worst_run(struct prof *P, const char *source)
{
	const struct prun *worst = NULL;
	double wsp = -1;
	int i;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];
		double sp;

		if (!source || !strstr(source, R->id) || R->n_times < 1)
			continue;
		sp = R->n_times > 1 ? 2 * half_range(R->times, R->n_times) /
			med(R->times, R->n_times) : 0;
		sp += R->worst.share;
		if (sp > wsp) {
			wsp = sp;
			worst = R;
		}
	}
	return worst;
}

/*
 * Refuse rather than guess: a parameter whose uncertainty is too large
 * to rank placements with (p by more than MAX_UNC_P, l by more than
 * MAX_UNC_L, t1 by more than MAX_UNC_T1 of itself) fails the profile,
 * naming the run behind it, how disturbed it was and what to do.
 * Returns 0, or -1 with err.
 */
static int unreliable(struct prof *P, const struct pandia_workload *w,
		      struct pandia_error *err)
{
	const struct {
		const char *name;
		const struct wl_param *prm;
		double max;
		bool relative;
	} checks[] = {
		{ "t1", &w->t1, MAX_UNC_T1, true },
		{ "p", &w->p, MAX_UNC_P, false },
		{ "l", &w->l, MAX_UNC_L, false },
	};
	const struct prun *R;
	char times[256], dist[192];
	/* l where it changes no placement of one thread per PU: kept,
	   said, and left to predict -k 2's ranges */
	const char *kept = "kept, since l changes no placement with one "
		"thread per PU on this machine: predict -k 2 shows it in the "
		"ranges of the placements that time-share a PU (for a firmer "
		"l, profile at a quieter time or with more repetitions)";
	bool l_ranked = fit_l_decides(P->m, 1);
	size_t k;
	int i, len;

	for (k = 0; k < ARRAY_SIZE(checks); k++) {
		const struct wl_param *q = checks[k].prm;
		double u = q->uncertainty;
		bool ranked = q != &w->l || l_ranked;

		if (!q->known)
			continue;
		/* a repetition kept although disturbed: its time is
		   the others' as much as the command's */
		for (i = 0; i < P->n_runs; i++) {
			R = &P->runs[i];
			if (!R->disturbed || !q->source ||
			    !strstr(q->source, R->id))
				continue;
			probe_disturbance_text(&R->worst, dist, sizeof(dist));
			if (!ranked) {
				warn(P->res, "%s = %.3g: %d of the %d "
				     "repetitions of %s ran disturbed (%s): %s",
				     checks[k].name, q->value, R->disturbed,
				     R->n_times, R->id, dist, kept);
				u = NAN;	/* said once */
				break;
			}
			return perr_set(err, "%s = %.3g is not reliable: %d of "
					"the %d repetitions of %s (%s) ran "
					"disturbed (%s) and the budget of %g x "
					"t1 left none to make again; profile "
					"again at a quieter time, with a larger "
					"--budget, at a higher priority (--nice "
					"-5), or with the other tenants kept off "
					"the PUs it uses (taskset); "
					"--keep-unreliable writes it anyway, "
					"marked", checks[k].name, q->value,
					R->disturbed, R->n_times, R->id,
					R->purpose, dist, P->o->budget);
		}
		if (!isfinite(u))
			continue;
		if (checks[k].relative)
			u /= q->value;
		if (!(u > checks[k].max))
			continue;
		if (!ranked) {
			warn(P->res, "%s = %.3g +- %.2g is uncertain (more than "
			     "%g): %s", checks[k].name, q->value, u,
			     checks[k].max, kept);
			continue;
		}
		R = worst_run(P, q->source);
		times[0] = '\0';
		for (i = 0, len = 0; R && i < R->n_times && len < 200; i++)
			len += snprintf(times + len, sizeof(times) -
					(size_t)len, "%s%.3g", i ? ", " : "",
					R->times[i]);
		probe_disturbance_text(R ? &R->worst : &(struct
				       probe_disturbance){ 0, 0, 0, 0 },
				       dist, sizeof(dist));
		return perr_set(err, "%s = %.3g +- %.2g is too uncertain to "
				"rank placements with (more than %g%s): %s "
				"(%s) took %s s%s%s; profile again at a quieter "
				"time, with more repetitions (-r %d), at a "
				"higher priority (--nice -5), or with the "
				"other tenants kept off the PUs it uses "
				"(taskset); --keep-unreliable writes it "
				"anyway, marked", checks[k].name, q->value,
				q->uncertainty, checks[k].max,
				checks[k].relative ? " of itself" : "",
				R ? R->id : "a run", R ? R->purpose : "?",
				times, R && R->worst.share > 0.01 ?
				"; at worst " : "", R && R->worst.share >
				0.01 ? dist : "", P->o->repetitions + 2);
	}
	return 0;
}

/* What the model is told: record every run made so far in w->runs. */
static void sync_runs(struct prof *P, struct pandia_workload *w)
{
	int i;

	for (i = 0; i < w->n_runs; i++)
		wl_run_release(&w->runs[i]);
	free(w->runs);
	w->runs = xcalloc((size_t)P->n_runs + 1, sizeof(struct wl_run));
	w->n_runs = P->n_runs;
	for (i = 0; i < P->n_runs; i++)
		record_run(&P->runs[i], &w->runs[i]);
}

/* The model's warnings become the profile's. */
static void model_warn(void *arg, const char *msg)
{
	warn(arg, "%s", msg);
}

/* The model's policy for the runs' own policy (--membind ...). */
static bool policy_of_run(const struct run_mempolicy *mp,
			  struct pandia_mempolicy *out)
{
	int k, n = 0, node = -1;

	if (!mp || mp->mode == RUN_MEM_DEFAULT)
		return false;
	for (k = 0; k < RUN_MEM_WORDS * 64; k++)
		if (mp->mask[k / 64] & (1UL << (k % 64))) {
			n++;
			node = node < 0 ? k : node;
		}
	out->node = -1;
	if (mp->mode == RUN_MEM_LOCAL) {
		out->kind = MEM_LOCAL;
	} else if (mp->mode == RUN_MEM_INTERLEAVE && n > 1) {
		out->kind = MEM_INTERLEAVE;
	} else if (n == 1) {
		out->kind = MEM_NODE;
		out->node = node;
	} else {
		return false;
	}
	return true;
}

/*
 * The DRAM probes of socket S load its nodes only: under a policy that
 * puts part of run 1's pages elsewhere they see that part of its
 * demand, so the estimate is divided by it (interleave: the socket's
 * share of the nodes with memory).  The perf backend counts all of it.
 */
static void scale_probed_dram(struct prof *P, struct pandia_workload *w)
{
	struct wl_param *d = &w->demand[WR_DRAM];
	const struct pandia_machine *m = P->m;
	const struct prun *R1 = NULL;
	int i, s, on = 0, all = 0;
	double share = 1;
	char *st;

	if (!w->listed[WR_DRAM] || !d->known || !d->source ||
	    !strstr(d->source, "probe-dram"))
		return;
	for (i = 0; i < P->n_runs; i++)
		if (P->runs[i].run == 1)
			R1 = &P->runs[i];
	i = R1 ? machine_pu_index(m, R1->cpus[0]) : -1;
	if (i < 0)
		return;
	s = m->cores[m->pus[i].core].socket;
	for (i = 0; i < m->n_numa; i++) {
		bool mem = m->numa[i].memory > 0;

		all += mem;
		on += mem && m->numa[i].socket == s;
	}
	if (w->memory.kind == MEM_INTERLEAVE && all > 0 && on > 0)
		share = (double)on / all;
	else if (w->memory.kind == MEM_NODE)
		for (i = 0; i < m->n_numa; i++)
			if (m->numa[i].os_index == w->memory.node &&
			    m->numa[i].socket != s)
				share = 0;
	if (share == 1)
		return;
	if (!(share > 0)) {
		warn(P->res, "the DRAM probes ran on socket %d, but the "
		     "pages are on node %d: the DRAM demand they gave is "
		     "not the workload's", m->sockets[s].os_index,
		     w->memory.node);
		return;
	}
	d->value /= share;
	if (isfinite(d->uncertainty))
		d->uncertainty /= share;
	st = xasprintf("%s%s(the probes of socket %d saw %.0f%% of it: "
		       "memory %s)", d->status ? d->status : "",
		       d->status ? "; " : "", m->sockets[s].os_index,
		       100 * share, w->memory.kind == MEM_INTERLEAVE ?
		       "interleaved" : "on one node");
	free(d->status);
	d->status = st;
}

/*
 * The memory policy of the description: --memory, else what the pages
 * of run 3 showed (its last repetition's last reading), else the
 * runs' own policy, else local; memory_found keeps the evidence.
 */
static void set_memory(struct prof *P, struct pandia_workload *w)
{
	const struct prun *R = NULL;
	struct pandia_error e;
	struct nm_found nf;
	struct nm_map *maps = NULL;
	bool in_use[NM_MAX_NODES] = { false };
	const struct pandia_machine *m = P->m;
	json_t *o, *sh;
	int i, j, n = 0;

	w->has_memory = true;
	if (P->o->has_memory) {
		w->memory = P->o->memory;
		return;
	}
	for (i = 0; i < P->n_runs; i++)
		if (P->runs[i].run == 3)
			R = &P->runs[i];
	if (!R || !R->numa_maps) {
		if (!policy_of_run(P->o->mem, &w->memory))
			w->memory = (struct pandia_mempolicy){ MEM_LOCAL, -1 };
		return;
	}
	/* the nodes of the sockets run 3 used */
	for (i = 0; i < R->n_cpus; i++) {
		int pu = machine_pu_index(m, R->cpus[i]), s;

		if (pu < 0)
			continue;
		s = m->cores[m->pus[pu].core].socket;
		for (j = 0; j < m->n_numa; j++)
			if (m->numa[j].socket == s &&
			    m->numa[j].os_index >= 0 &&
			    m->numa[j].os_index < NM_MAX_NODES)
				in_use[m->numa[j].os_index] = true;
	}
	if (numamaps_parse(R->numa_maps, &maps, &n, &e) < 0 ||
	    numamaps_classify(maps, n, in_use, &nf, &e) < 0) {
		warn(P->res, "run 3: where the pages are is not known (%s): "
		     "the memory is taken as local", e.text);
		w->memory = (struct pandia_mempolicy){ MEM_LOCAL, -1 };
		free(maps);
		return;
	}
	free(maps);
	w->memory.node = -1;
	switch (nf.kind) {
	case NM_SPREAD:
		w->memory.kind = MEM_SPREAD;
		break;
	case NM_INTERLEAVE:
		w->memory.kind = MEM_INTERLEAVE;
		break;
	case NM_NODE:
		w->memory.kind = MEM_NODE;
		w->memory.node = nf.node;
		break;
	default:
		w->memory.kind = MEM_LOCAL;
		break;
	}
	o = json_object();
	sh = json_object();
	json_object_set_new(o, "run", json_string(R->id));
	json_object_set_new(o, "bytes", json_real(nf.bytes));
	json_object_set_new(o, "policy", json_string(nf.mixed ? "mixed" :
						     nm_kind_name(nf.kind)));
	for (i = 0; i < NM_KINDS; i++) {
		char name[32];

		if (!(nf.share[i] > 0))
			continue;
		if (i == NM_NODE)
			snprintf(name, sizeof(name), "node:%d", nf.node);
		else
			snprintf(name, sizeof(name), "%s", nm_kind_name(i));
		json_object_set_new(sh, name, json_real(nf.share[i]));
	}
	json_object_set_new(o, "shares", sh);
	json_object_set_new(o, "how", json_string(
		"anonymous pages of /proc/PID/numa_maps (or the runner "
		"template's {numa_maps}) during run 3, bytes per mapping: "
		"interleave policy, on one node, or spread over the nodes "
		"(first touch); one-node mappings on several nodes count "
		"as local"));
	json_decref(w->memory_found);
	w->memory_found = o;
	if (nf.mixed)
		warn(P->res, "run 3: the pages are mixed (the largest share, "
		     "%s, %.0f%%): the model uses it (memory_found has the "
		     "shares)", nm_kind_name(nf.kind),
		     100 * nf.share[nf.kind]);
}

/*
 * The profile's one warm-up where the model places it (the Pandia
 * model: run 2's placement), before any run: not timed, and its roles
 * serve the later runs with as many threads.  0 (also when the model
 * names no place: the first run's first call is the warm-up) or -1.
 */
static int warm_up(struct prof *P, const struct model_def *model,
		   const struct model_env *env)
{
	struct model_run *mr;
	struct prun W;
	int rc;

	if (!P->o->warmup || !model->warmup)
		return 0;
	mr = xcalloc(1, sizeof(*mr));
	rc = model->warmup(env, mr, P->err);
	if (rc <= 0) {
		model_runs_free(mr, 1);
		return rc;
	}
	new_run(P, mr->id, mr->pus, mr->n, NULL, 0, "cpu",
		xstrdup(mr->purpose));
	model_runs_free(mr, 1);
	W = P->runs[--P->n_runs];	/* not one of the profile's runs */
	W.warmup_only = true;
	rc = call_run(P, &W, 0);
	P->warm_helpers = P->helpers != NULL;
	prun_release(&W);
	return rc;
}

/* The run called ID among those made, or NULL. */
static struct prun *run_named(struct prof *P, const char *id)
{
	int i;

	for (i = 0; i < P->n_runs; i++)
		if (!strcmp(P->runs[i].id, id))
			return &P->runs[i];
	return NULL;
}

int profile_workload(const struct profile_opts *o, struct profile_result *res,
		     struct pandia_error *err)
{
	const struct pandia_machine *m = o->m;
	const struct model_def *model = o->model ? o->model : model_default();
	struct model_env env = {
		.m = m, .paper = o->solve == FIT_PAPER, .warn = model_warn,
		.warn_arg = res, .sizes = o->sizes, .n_sizes = o->n_sizes,
		.threads = o->threads, .n_threads = o->n_threads,
		.degree = o->degree, .quick = o->quick,
	};
	struct prof P;
	struct pandia_workload *w = NULL;
	struct wl_run ev1;
	struct prun *R1 = NULL, *R2;
	int r1 = -1;
	int first_model = -1, n_model = 0, x, i, rep, ret = -1, stage;
	bool perf = false, kernel = false, niced = false;
	int old_nice = 0;
	char *why = NULL;

	memset(&P, 0, sizeof(P));
	memset(&ev1, 0, sizeof(ev1));
	P.o = o;
	P.res = res;
	P.err = err;
	P.m = m;
	P.start = now_seconds();
	P.min_reps = o->fixed_reps ? o->repetitions : o->quick ? 1 : MIN_REPS;
	if (P.min_reps > o->repetitions)
		P.min_reps = o->repetitions;
	perr_clear(err);
	if (o->repetitions < 1) {
		perr_set(err, "the number of repetitions must be at least 1");
		goto out;
	}
	if ((!o->argv || !o->argv[0]) && !o->runner) {
		perr_set(err, "no command given");
		goto out;
	}
	if (m->n_sockets < 1 || m->sockets[0].n_cores < 2) {
		perr_set(err, "profiling needs two cores on one socket; "
			 "socket 0 of this machine has %d",
			 m->n_sockets < 1 ? 0 : m->sockets[0].n_cores);
		goto out;
	}
	w = workload_new();
	identity(&P, w);
	if (!isnan(o->size)) {
		w->has_size = true;
		w->size = o->size;
	}
	if (o->set_nice) {
		/* this thread's niceness, inherited by all it starts */
		errno = 0;
		old_nice = getpriority(PRIO_PROCESS, 0);
		if (setpriority(PRIO_PROCESS, 0, o->nice) < 0)
			warn(res, "cannot run at niceness %d (%s): profiling "
			     "at %d", o->nice, strerror(errno), old_nice);
		else
			niced = true;
	}

	/* how many runs, for the progress lines */
	if (o->counters == COUNTERS_PERF)
		perf = true;
	else if (o->counters == COUNTERS_AUTO && !o->runner)
		perf = counters_perf_available(&kernel, &why);
	free(why);

	/*
	 * The model's runs, stage by stage: one repetition of each as it
	 * comes (the next stage may depend on it), the demands measured
	 * beside the first run (one thread alone), then the other
	 * repetitions of every run interleaved, so that a burst of other
	 * activity does not fall on one run.
	 */
	if (warm_up(&P, model, &env) < 0)
		goto out;
	for (stage = 0;; stage++) {
		struct model_run *mr = NULL;
		int n;

		sync_runs(&P, w);
		n = model->plan(&env, w, &mr, err);
		if (n < 0)
			goto out;
		if (n == 0)
			break;
		if (first_model < 0)
			first_model = P.n_runs;
		if (!P.total && model->demands) {
			int pu0 = n ? mr[0].pus[0] : 0;

			/* runs 1, 2, 4, 5, 6 (3 and 7 on two sockets),
			   less those --quick leaves out */
			P.total = 1 + (m->n_sockets < 2 ? 4 : 6) -
				(o->quick ? fit_quick_left_out(m) : 0) +
				(perf ? 0 : count_probe_runs(&P, pu0));
		} else if (!P.total) {
			P.total = n;
		}
		for (i = 0; i < n; i++) {
			struct prun *R = new_run(&P, mr[i].id, mr[i].pus,
						 mr[i].n, mr[i].corun,
						 mr[i].n_corun,
						 mr[i].corun_kind ?
						 mr[i].corun_kind : "cpu",
						 xstrdup(mr[i].purpose));

			if (!isnan(mr[i].size))
				R->size = mr[i].size;
		}
		model_runs_free(mr, n);
		n_model = P.n_runs - first_model;
		/* the warm-up's roles: for the run they were found for */
		for (i = P.n_runs - n; P.warm_helpers && i < P.n_runs; i++) {
			if (!runs_alone(&P.runs[i]) || P.runs[i].n_cpus < 2)
				continue;
			if (P.runs[i].n_cpus != P.helpers_n) {
				free(P.helpers);
				P.helpers = NULL;
			}
			P.warm_helpers = false;
		}
		if (stage > 0)
			P.total = P.n_runs;
		for (i = P.n_runs - n; i < P.n_runs; i++)
			if (call_run(&P, &P.runs[i], i + 1) < 0)
				goto out;
		if (stage == 0) {
			r1 = first_model;
			R1 = &P.runs[r1];
			res->t1 = med(R1->times, R1->n_times);
			if (o->budget > 0)
				P.budget = o->budget * res->t1;
		}
		if (stage == 0 && model->demands) {
			/* the demands, beside the first run */
			/* the probes' rate alone needs no longer */
			P.alone_secs = res->t1 > PROBE_ALONE_MAX ?
				PROBE_ALONE_MAX : res->t1 > PROBE_ALONE_MIN ?
				res->t1 : PROBE_ALONE_MIN;
			if (demands(&P, machine_pu_index(m, R1->cpus[0]), w,
				    &ev1) < 0)
				goto out;
		}
	}
	do {
		/*
		 * One round: a repetition of every run that needs one,
		 * so the runs' repetitions interleave (ABAB...) and a
		 * slow drift of the machine hits them all alike.  A run
		 * needs MIN_REPS; then one more, up to -r, while its
		 * repetitions spread more than SPREAD_MORE and the
		 * budget lasts.
		 */
		rep = 0;
		for (x = first_model; x >= 0 && x < P.n_runs; x++) {
			struct prun *R = &P.runs[x];
			double sp;

			if (R->probe ||
			    R->n_times >= o->repetitions)
				continue;
			sp = R->n_times > 1 ? 2 * half_range(R->times,
				R->n_times) / med(R->times, R->n_times) : 0;
			/* runs 4 to 7 (l, b and the forms) get their second
			   repetition only while the budget lasts */
			if (!o->fixed_reps && R->run >= 4 && R->n_times >= 1 &&
			    R->n_times < P.min_reps && !budget_left(&P, R))
				continue;
			if (R->n_times >= P.min_reps &&
			    (!(sp > SPREAD_MORE) || !budget_left(&P, R)))
				continue;
			rep++;
			if (call_run(&P, R, x + 1) < 0)
				goto out;
		}
	} while (rep);
	(void)n_model;
	R1 = r1 >= 0 ? &P.runs[r1] : NULL;
	res->t1 = R1 ? med(R1->times, R1->n_times) : NAN;

	/* the description: every run as evidence, then the model's fit */
	sync_runs(&P, w);
	set_memory(&P, w);
	scale_probed_dram(&P, w);
	for (i = 0; R1 && i < ev1.n_counters; i++)
		wl_run_add_counter(&w->runs[r1], ev1.counter_names[i],
			    ev1.counter_values[i]);
	if (model->fit(&env, w, err) < 0)
		goto out;
	R2 = run_named(&P, "run2");
	if (R1 && R2)
		check_threads(&P, R1, R2);
	check_spread(&P);
	res->seconds = now_seconds() - P.start;
	if (model == &model_pandia && unreliable(&P, w, err) < 0) {
		if (!o->keep_unreliable)
			goto out;
		/* --keep-unreliable: written, marked, and said */
		w->unreliable = xstrdup(err->text);
		warn(res, "%s", err->text);
		perr_clear(err);
	}
	w->note = xasprintf(
		"profiled in %.1f s (%.1f x t1): %d runs of %d to %d "
		"repetitions (median kept)%s, the repetitions of the model's "
		"runs interleaved; parameters of the %s model %s%s%s",
		res->seconds, res->seconds / res->t1, P.n_runs,
		P.min_reps, o->repetitions,
		o->warmup ? " after one warm-up run" : "",
		model->name, model != &model_pandia ? "by its fit" :
		o->solve == FIT_MODEL ?
		"fitted so that the partial model reproduces each run" :
		"by the closed forms of sections 4.2-4.5",
		o->runner ? "; runner template: " : "",
		o->runner ? o->runner : "");
	if (workload_check(w, err) < 0) {
		struct pandia_error e = *err;

		perr_set(err, "internal error: the description is not valid: "
			 "%s", e.text);
		goto out;
	}
	res->w = w;
	w = NULL;
	ret = 0;
out:
	workload_free(w);
	for (i = 0; i < ev1.n_counters; i++)
		free(ev1.counter_names[i]);
	free(ev1.counter_names);
	free(ev1.counter_values);
	for (i = 0; i < P.n_runs; i++)
		prun_release(&P.runs[i]);
	free(P.runs);
	free(P.helpers);
	if (niced)
		setpriority(PRIO_PROCESS, 0, old_nice);
	return ret;
}
