/*
 * explain_run.c - pandia explain: the stall events perf counts, and
 * the runs of each placement with the runner's per-thread accounting.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/explain.h"
#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/stacks.h"
#include "profiler/counters.h"
#include "profiler/run.h"
#include "profiler/stalls.h"

/* ---- hardware counters -------------------------------------------- */

/* EXPLAIN_EVENTS_ENV: 0 when it gave events, -1 when it did not */
static int test_events(struct xctx *x)
{
	const char *src;
	char *tok, *save = NULL, *eq;
	int n = 0;

	x->test_spec = xstrdup(getenv(EXPLAIN_EVENTS_ENV));
	x->test_ev = xcalloc(strlen(x->test_spec) / 2 + 1,
			     sizeof(*x->test_ev));
	for (tok = strtok_r(x->test_spec, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1])
			die("%s: '%s' is not CATEGORY=EVENT",
			    EXPLAIN_EVENTS_ENV, tok);
		*eq = '\0';
		x->test_ev[n].category = tok;
		x->test_ev[n].event = eq + 1;
		n++;
	}
	x->hz = stalls_host_frequency(&src);
	if (!n || !(x->hz > 0))
		return -1;
	x->hw = true;
	x->pmu = "perf";
	x->hw_ev = x->test_ev;
	x->n_hw = n;
	x->hw_names = xcalloc((size_t)n + 1, sizeof(char *));
	x->hw_kept = xcalloc((size_t)n + 1, sizeof(bool));
	for (n = 0; n < x->n_hw; n++)
		x->hw_names[n] = xstrdup(x->hw_ev[n].event);
	warning("%s: counting %s as stall events", EXPLAIN_EVENTS_ENV,
		getenv(EXPLAIN_EVENTS_ENV));
	return 0;
}

/* perf or not, before anything runs */
void explain_plan_hardware(struct xctx *x)
{
	struct pandia_error err;
	const char *src;
	char *why = NULL;
	bool generic;
	int i;

	if (x->o->hw == COUNTERS_PROBE) {
		x->hw_note = xstrdup("--counters none");
		return;
	}
	if (getenv(EXPLAIN_EVENTS_ENV) && test_events(x) == 0)
		return;
	if (!counters_perf_available(&x->hw_kernel, &why))
		;
	else if (!(x->pmu = counters_host_pmu(&err)))
		why = xstrdup(err.text);
	else if (!((x->hz = stalls_host_frequency(&src)) > 0))
		why = xstrdup("the clock frequency of this host is not known "
			      "(to turn stall cycles into seconds)");
	if (why) {
		counters_drop_probe_advice(why);
		if (x->o->hw == COUNTERS_PERF)
			die("no hardware stall counts: %s", why);
		x->hw_note = why;
		return;
	}
	x->hw = true;
	x->hw_ev = stalls_hw_events(x->pmu, &x->n_hw, &generic);
	x->hw_names = xcalloc((size_t)x->n_hw + 1, sizeof(char *));
	x->hw_kept = xcalloc((size_t)x->n_hw + 1, sizeof(bool));
	for (i = 0; i < x->n_hw; i++)
		x->hw_names[i] = stalls_hw_event_name(x->pmu, &x->hw_ev[i]);
	if (!x->o->quiet)
		progress("explain", "the rest split by %d %s stall event%s of "
			 "PMU %s, counted by perf", x->n_hw, generic ?
			 "generic" : "backend", x->n_hw == 1 ? "" : "s",
			 x->pmu);
}

/* ---- running ------------------------------------------------------ */

static double known(double v, double dflt)
{
	return isfinite(v) ? v : dflt;
}

/*
 * The runner's accounting of r as the stack takes it: creation order,
 * the process's main thread first (a helper with no life put first
 * when the runner did not see it, so that no other thread is taken
 * for it).  New array in *out; returns its length.
 */
static int take_accounting(const struct run_result *r,
			   struct stack_thread **out)
{
	static const int kind[RUN_BLOCK_KINDS] = {
		[RUN_BLOCK_MUTEX] = SB_MUTEX,
		[RUN_BLOCK_CONDITION] = SB_CONDITION,
		[RUN_BLOCK_BARRIER] = SB_BARRIER,
		[RUN_BLOCK_JOIN] = SB_JOIN,
		[RUN_BLOCK_SEMAPHORE] = SB_SEMAPHORE,
		[RUN_BLOCK_OTHER] = SB_OTHER,
	};
	int root = r->n_threads < 1 || r->threads[0].index != 0;
	int n = r->n_threads + root, i, k;
	struct stack_thread *v = xcalloc((size_t)n, sizeof(*v));

	for (i = 0; i < r->n_threads; i++) {
		const struct run_thread *t = &r->threads[i];
		struct stack_thread *s = &v[i + root];

		s->start = known(t->start, 0);
		s->end = known(t->end, s->start);
		/* a worker's CPU time not known: refused, said */
		s->cpu_time = t->worker ? t->cpu_time : known(t->cpu_time, 0);
		s->runqueue_wait = known(t->runqueue_wait, 0);
		for (k = 0; k < RUN_BLOCK_KINDS; k++)
			s->blocked[kind[k]] = known(t->blocked[k], 0);
		s->worker = t->worker;
	}
	*out = v;
	return n;
}

/* Warnings about how the command ran, once each. */
static void check_run(struct xctx *x, const struct place *p,
		      const struct run_result *r)
{
	if (r->misplaced && !x->warned_misplaced) {
		warning("at %s, %d thread%s not where planned: the program "
			"may set its own affinity", p->cpus, r->misplaced,
			r->misplaced == 1 ? " was" : "s were");
		x->warned_misplaced = true;
	}
	if (r->workers != p->n && !x->warned_threads) {
		warning("at %s the command ran %d worker thread%s for a "
			"placement of %d: does it take its thread count from "
			"{threads}, OMP_NUM_THREADS or PANDIA_THREADS?",
			p->cpus, r->workers, r->workers == 1 ? "" : "s",
			p->n);
		x->warned_threads = true;
	}
}

/* One run of placement p; the run is in r.  0, or -1 with err. */
static int run_once(struct xctx *x, struct place *p, int rep,
		    const char *helpers, struct run_result *r, double **stall,
		    struct pandia_error *err)
{
	struct run_opts ro;
	char *own = NULL;
	int i, ret;

	run_opts_init(&ro);
	ro.cpus = p->os;
	ro.n_cpus = p->n;
	ro.repetitions = 1;
	ro.warmup = x->o->warmup && rep == 0;
	ro.timeout = x->o->timeout;
	ro.time_from = x->o->time_from;
	ro.runner = x->o->runner;
	ro.mem = x->o->mem.mode != RUN_MEM_DEFAULT ? &x->o->mem : NULL;
	ro.pin = RUN_PIN_WORKERS;
	ro.helpers = helpers;
	ro.shim_path = x->shim;
	ro.machine = x->m;
	*stall = NULL;
	if (!x->hw)
		return run_execute(&ro, x->o->argv, r, err);

	if (!helpers && !run_one_pu(p->os, p->n)) {
		/*
		 * The counters count every run of the command, so the
		 * run that finds the workers is not the counted one: one
		 * plain run first (after the warm-up), not counted (on
		 * one PU no roles are found, none needed).
		 */
		ret = run_execute(&ro, x->o->argv, r, err);
		if (ret < 0 || r->threads_created < 0 || !r->helpers)
			return ret;
		own = xstrdup(r->helpers);
		run_result_release(r);
		ro.helpers = own;
	}
	{
		struct counters_reading rd;

		counters_reading_init(&rd);
		ret = counters_count((const char *const *)x->hw_names, x->n_hw,
				     x->hw_kernel, &ro, x->o->argv, &rd, r,
				     err);
		if (ret == 0) {
			*stall = xcalloc((size_t)x->n_hw, sizeof(double));
			for (i = 0; i < x->n_hw; i++) {
				const struct counters_event *e = NULL;
				int j;

				for (j = 0; j < rd.n_events && !e; j++)
					if (!strcmp(rd.events[j].name,
						    x->hw_names[i]))
						e = &rd.events[j];
				(*stall)[i] = e && e->counted ?
					e->value / x->hz : NAN;
			}
		}
		counters_reading_release(&rd);
	}
	free(own);
	return ret;
}

/* The index of the median of v[0..n-1] (the lower one for even n). */
static int median_index(const double *v, int n)
{
	int i, j, best = 0;

	for (i = 0; i < n; i++) {
		int below = 0, equal_before = 0;

		for (j = 0; j < n; j++) {
			below += v[j] < v[i];
			equal_before += j < i && v[j] == v[i];
		}
		if (below + equal_before == (n - 1) / 2) {
			best = i;
			break;
		}
	}
	return best;
}

/* A placement's runs while they are made: each run's accounting and
   stall seconds, and the helpers its first run found. */
struct runs_of {
	struct stack_thread **thr;
	int *n_thr;
	double **stall;
	char *helpers;
};

/*
 * Run i of placement k (i from 0: its first, after a warm-up): its
 * time in the placement, its accounting and stall seconds in ro.  0,
 * or the signal that interrupted it; a failure is kept in p->error.
 */
static int measure_one(struct xctx *x, int k, int i, struct runs_of *ro)
{
	struct place *p = &x->pl[k];
	struct pandia_error err;
	struct run_result r;
	int sig = 0;

	run_result_init(&r);
	if (run_once(x, p, i, ro->helpers, &r, &ro->stall[i], &err) < 0) {
		if (r.interrupted)
			sig = r.interrupted;
		else {
			p->error = xstrdup(err.text);
			error("placement %s (%d thread%s) failed: %s",
			      p->cpus, p->n, p->n == 1 ? "" : "s", err.text);
			show_stderr_tail(r.stderr_tail);
		}
	} else if (r.threads_created < 0 || r.n_threads < 1) {
		p->error = xstrdup("no per-thread accounting: the command "
				   "did not load libpandia-pin.so (a static "
				   "or setuid binary?)");
		error("placement %s: %s", p->cpus, p->error);
	} else {
		check_run(x, p, &r);
		if (!ro->helpers && r.helpers)
			ro->helpers = xstrdup(r.helpers);
		p->times[p->n_times++] = r.times[r.n_times - 1];
		ro->n_thr[i] = take_accounting(&r, &ro->thr[i]);
	}
	run_result_release(&r);
	return sig;
}

/* Placement k's median run kept from ro, which is let go. */
static void keep_median(struct xctx *x, int k, struct runs_of *ro)
{
	struct place *p = &x->pl[k];
	int i, keep;

	if (!p->error && p->n_times == x->o->reps) {
		keep = median_index(p->times, p->n_times);
		p->tn = p->times[keep];
		p->thr = ro->thr[keep];
		p->n_thr = ro->n_thr[keep];
		p->stall = ro->stall[keep];
		ro->thr[keep] = NULL;
		ro->stall[keep] = NULL;
		p->ran = true;
	}
	for (i = 0; i < x->o->reps; i++) {
		free(ro->thr[i]);
		free(ro->stall[i]);
	}
	free(ro->thr);
	free(ro->stall);
	free(ro->n_thr);
	free(ro->helpers);
	if (!p->ran)
		x->failed++;
}

int explain_measure(struct xctx *x)
{
	int reps = x->o->reps, i, k, sig = 0;
	struct runs_of *ro = xcalloc((size_t)x->n_pl, sizeof(*ro));

	for (k = 0; k < x->n_pl; k++) {
		x->pl[k].times = xcalloc((size_t)reps, sizeof(double));
		ro[k].thr = xcalloc((size_t)reps, sizeof(*ro[k].thr));
		ro[k].stall = xcalloc((size_t)reps, sizeof(*ro[k].stall));
		ro[k].n_thr = xcalloc((size_t)reps, sizeof(int));
	}
	for (i = 0; i < reps && !sig; i++) {
		for (k = 0; k < x->n_pl && !sig; k++) {
			struct place *p = &x->pl[k];
			char round[64] = "";

			if (p->error)
				continue;
			if (reps > 1)
				snprintf(round, sizeof(round), "round %d of "
					 "%d, ", i + 1, reps);
			if (!x->o->quiet)
				progress("explain", "%s%d/%d: %s (%d thread%s)"
					 "...", round, k + 1, x->n_pl, p->cpus,
					 p->n, p->n == 1 ? "" : "s");
			sig = measure_one(x, k, i, &ro[k]);
		}
	}
	for (k = 0; k < x->n_pl; k++) {
		keep_median(x, k, &ro[k]);
		if (!x->o->quiet && !sig && x->pl[k].ran)
			progress("explain", "%d/%d: %s: %.4g s%s", k + 1,
				 x->n_pl, x->pl[k].cpus, x->pl[k].tn,
				 reps > 1 ? " (the median run)" : "");
	}
	free(ro);
	return sig;
}
