/*
 * cmd_explain.c - pandia explain: where the speedup goes.  Run a
 * command at each placement with the runner's per-thread accounting
 * and show, per placement, the measured speedup stack beside the one
 * the Pandia model predicts (predictor/stacks.h; docs/stacks.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "common/cpuexpr.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/defaults.h"
#include "predictor/pandia/model.h"
#include "predictor/space.h"
#include "predictor/stacks.h"
#include "profiler/counters.h"
#include "profiler/run.h"
#include "profiler/stalls.h"

const char usage_explain[] =
"usage: pandia explain [-m MACHINE] -w WORKLOAD [options] [-- CMD [ARG...]]\n"
"\n"
"Show where the speedup goes: run CMD at each placement, pinned and\n"
"accounted thread by thread by the runner of 'pandia run', and draw\n"
"its measured speedup stack (one bar of height N, the thread count:\n"
"the achieved speedup, then the speedup lost to serial execution,\n"
"lock waits, barrier and condition waits, load imbalance, time\n"
"sharing, other waits, and the rest: contention and parallel\n"
"overhead) beside the stack the Pandia model of WORKLOAD on MACHINE\n"
"predicts (serial part, each resource's slowdown, burstiness,\n"
"communication, load balance).  {threads} and {cpus} in the arguments\n"
"are replaced.  Without CMD, the command WORKLOAD was profiled with.\n"
"\n"
"options:\n"
"  -m, --machine FILE|NAME machine description, a file or a name\n"
"                          (default: this host's)\n"
"  -w, --workload FILE     workload description with the Pandia model\n"
"  -p, --placements LIST   placements separated by ';', each a CPU list\n"
"                          or expression as 'pandia run --cpus' takes it\n"
"                          (\"0;0,1;0,0,1,1\", \"S0:0-3\"), or sweep: 1 to n\n"
"                          threads packed (the default); may be repeated\n"
"  -r, --repetitions N     runs of each placement (default 1); the stack\n"
"                          is the run of the median time\n"
"      --no-warmup         no unmeasured run first\n"
"      --t1 SOURCE         the single-thread time: run (the run of the\n"
"                          first 1-thread placement; the default when\n"
"                          there is one), workload (WORKLOAD's t1; the\n"
"                          default otherwise) or SECONDS\n"
"      --counters MODE     auto (split the rest by the stall events\n"
"                          perf counts, when it can count here; the\n"
"                          default), perf (fail when it cannot) or probe\n"
"                          (not split; 'none' is taken too)\n"
"      --time-from REGEX   time from the command's output (the number\n"
"                          after the last line matching REGEX, or its\n"
"                          first group) instead of its wall time\n"
"      --timeout SEC       a run that takes longer fails\n"
"      --runner TEMPLATE   refused: the stacks need the per-thread\n"
"                          accounting of a command run here\n"
RUN_MEM_USAGE
"      --force             a workload profiled elsewhere, or a machine\n"
"                          description not of this host\n"
"  -o, --output DIR        write DIR/stacks.json, stacks.gp and\n"
"                          stacks.png (drawn by gnuplot)\n"
"      --json              the stacks as JSON on stdout\n"
"  -q, --quiet             no progress lines\n"
"\n"
"exit status: 0 success, 1 a placement failed (the others are still\n"
"shown and written) or another failure, 2 usage.\n"
"See pandia-explain(1) and docs/stacks.md.\n";

/*
 * For the tests, on any host: "CATEGORY=EVENT,..." counted as the stall
 * events instead of the PMU's (software events count without a PMU:
 * "busy=perf::PERF_COUNT_SW_TASK_CLOCK"), perf's availability not
 * checked.  The numbers mean nothing; the way they take does.
 */
#define EXPLAIN_EVENTS_ENV "PANDIA_EXPLAIN_TEST_EVENTS"

/* The components of a stack must add up to N within this share. */
#define SUM_TOLERANCE 0.03

enum t1_source { T1_AUTO, T1_RUN, T1_WORKLOAD, T1_GIVEN };
enum hw_mode { HW_AUTO, HW_PERF, HW_NONE };

struct cli {
	const char *machine_path, *workload_path, *dir;
	char **specs;		/* -p arguments, as given */
	int n_specs;
	int reps;
	bool warmup, force, quiet, json;
	double timeout;
	const char *time_from;	/* --time-from, or NULL */
	const char *runner;	/* --runner, or NULL */
	struct run_mempolicy mem;	/* --membind ... for the runs */
	enum t1_source t1_source;
	double t1;		/* --t1 SECONDS */
	enum hw_mode hw;
	char **argv;		/* the command, NULL-terminated */
	bool own_argv;		/* argv was made from the workload */
};

/* One placement: what was predicted and what one run measured. */
struct place {
	char *cpus;		/* cpulist_format_compact() */
	int *os;		/* OS indexes, one per thread */
	int *pus;		/* m->pus indexes */
	int n;
	struct stack *pred, *meas;
	double pred_time;	/* s, the model's */
	bool ran;		/* measured */
	char *error;		/* why it failed, or NULL */
	double tn;		/* the kept run's wall time */
	double *times;		/* every run's, reps of them */
	int n_times;
	struct stack_thread *thr;	/* the kept run's accounting */
	int n_thr;
	double *stall;		/* per hardware event: seconds, NAN when
				   not counted */
};

struct xctx {
	struct cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct model_params prm;
	struct pandia_mempolicy mem;
	struct place *pl;
	int n_pl;
	char *shim;
	/* the single-thread time */
	double t1;
	int t1_place;		/* the placement it came from, or -1 */
	const char *t1_text;
	/* hardware counters */
	bool hw;
	bool hw_kernel;
	const char *pmu;
	const struct stall_hw_event *hw_ev;
	int n_hw;
	char **hw_names;
	bool *hw_kept;
	double hz;
	char *hw_note;		/* why the rest is not split, or NULL */
	struct stall_hw_event *test_ev;	/* EXPLAIN_EVENTS_ENV's (owned) */
	char *test_spec;	/* its text, cut into test_ev (owned) */
	bool warned_threads, warned_misplaced;
	int failed;
};

static void placements_cb(const char *cmd, const struct option *opt,
			  void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, specs);

	(void)cmd;
	(void)opt;
	o->specs[o->n_specs++] = (char *)arg;	/* argv's own */
}

static void t1_cb(const char *cmd, const struct option *opt, void *field,
		  const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, t1_source);

	(void)opt;
	if (!strcmp(arg, "run"))
		o->t1_source = T1_RUN;
	else if (!strcmp(arg, "workload"))
		o->t1_source = T1_WORKLOAD;
	else if (parse_double(arg, &o->t1) && o->t1 > 0 && isfinite(o->t1))
		o->t1_source = T1_GIVEN;
	else
		usage_error(cmd, "--t1 takes run, workload or seconds > 0, not "
			    "'%s'", arg);
}

#define O struct cli
static const struct option explain_options[] = {
	OPT_STRING('w', "workload", O, workload_path),
	OPT_CALLBACK('p', "placements", O, specs, placements_cb),
	OPT_CALLBACK('p', "placement", O, specs, placements_cb),
	OPT_CALLBACK(0, "t1", O, t1_source, t1_cb),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_reps),
	OPT_SHARED(opt_counters),
	OPT_SHARED(opt_timing),
	OPT_SHARED(opt_runner),
	OPT_SHARED(opt_memory),
	OPT_SHARED(opt_force),
	OPT_SHARED(opt_output),
	OPT_SHARED(opt_json),
	OPT_SHARED(opt_quiet),
	OPT_END(),
};
#undef O

/* The shared options C into *O. */
static void take_common(struct cli *o, const struct opt_common *c)
{
	o->machine_path = c->machine;
	o->reps = c->reps;
	o->warmup = c->warmup;
	o->hw = c->counters == COUNTERS_PERF ? HW_PERF :
		c->counters == COUNTERS_PROBE ? HW_NONE : HW_AUTO;
	o->timeout = c->timeout;
	o->time_from = c->time_from;
	o->runner = c->runner;
	o->mem = c->mem;
	o->force = c->force;
	o->dir = c->output;
	o->json = c->json;
	o->quiet = c->quiet;
}

static void parse_args(int argc, char **argv, struct cli *o)
{
	struct opt_common c;
	int first;

	memset(o, 0, sizeof(*o));
	o->specs = xcalloc((size_t)argc + 1, sizeof(char *));
	opt_common_init(&c, 1);
	c.counters_none = true;
	first = parse_options("explain", argc, argv, explain_options, o, &c);
	take_common(o, &c);
	if (!o->workload_path)
		usage_error("explain", "-w WORKLOAD is required");
	if (first < argc)
		o->argv = argv + first;
	if (o->runner)
		usage_error("explain", "--runner: the stacks need the "
			    "per-thread accounting of a command run here, "
			    "which a template does not give");
}

/* ---- the placements ----------------------------------------------- */

static void place_add(struct xctx *x, const int *os, const int *pus, int n)
{
	struct place *p;

	x->pl = xrealloc(x->pl, (size_t)(x->n_pl + 1) * sizeof(*x->pl));
	p = &x->pl[x->n_pl++];
	memset(p, 0, sizeof(*p));
	p->n = n;
	p->os = xcalloc((size_t)n, sizeof(int));
	p->pus = xcalloc((size_t)n, sizeof(int));
	memcpy(p->os, os, (size_t)n * sizeof(int));
	memcpy(p->pus, pus, (size_t)n * sizeof(int));
	p->cpus = cpulist_format_compact(os, n);
	p->tn = NAN;
	p->pred_time = NAN;
}

static void place_release(struct place *p)
{
	free(p->cpus);
	free(p->os);
	free(p->pus);
	stack_free(p->pred);
	stack_free(p->meas);
	free(p->error);
	free(p->times);
	free(p->thr);
	free(p->stall);
}

/* The sweep: 1 to n threads, packed (defaults_sweep_order()). */
static void add_sweep(struct xctx *x)
{
	const struct pandia_machine *m = x->m;
	int *order = xcalloc((size_t)m->n_pus, sizeof(int));
	int *os = xcalloc((size_t)m->n_pus, sizeof(int)), t;

	defaults_sweep_order(m, false, order);
	for (t = 0; t < m->n_pus; t++)
		os[t] = m->pus[order[t]].os_index;
	for (t = 1; t <= m->n_pus; t++)
		place_add(x, os, order, t);
	free(order);
	free(os);
}

/* One ';'-separated entry: "sweep" or a PU list.  0, or -1 said. */
static int add_entry(struct xctx *x, const char *text)
{
	const struct pandia_machine *m = x->m;
	struct pandia_error err;
	int *os = NULL, *pus = NULL, n, i, ret = -1;

	if (!strcmp(text, "sweep")) {
		add_sweep(x);
		return 0;
	}
	if (cpuexpr_parse(m, text, &os, &n, &err) < 0)
		usage_error("explain", "--placements: '%s': %s", text,
			    err.text);
	pus = xcalloc((size_t)n, sizeof(int));
	for (i = 0; i < n; i++) {
		pus[i] = machine_pu_index(m, os[i]);
		if (pus[i] < 0) {
			int *all = xcalloc((size_t)m->n_pus, sizeof(int)), j;
			char *set;

			for (j = 0; j < m->n_pus; j++)
				all[j] = m->pus[j].os_index;
			set = cpuset_format(all, m->n_pus);
			error("placement '%s': PU %d is not in machine '%s' "
			      "(its PUs are %s)", text, os[i],
			      x->o->machine_path, set);
			free(set);
			free(all);
			goto out;
		}
	}
	place_add(x, os, pus, n);
	ret = 0;
out:
	free(os);
	free(pus);
	return ret;
}

/* Every -p argument split at ';', or the sweep.  0, or -1 said. */
static int plan_places(struct xctx *x)
{
	int i;

	if (!x->o->n_specs)
		add_sweep(x);
	for (i = 0; i < x->o->n_specs; i++) {
		char *copy = xstrdup(x->o->specs[i]), *tok, *save = NULL;
		const char *s = x->o->specs[i];

		/* an empty entry ("0;;1", a trailing ';') is a typo */
		if (!*s || *s == ';' || s[strlen(s) - 1] == ';' ||
		    strstr(s, ";;"))
			usage_error("explain", "--placements: '%s' has an "
				    "empty entry", s);
		for (tok = strtok_r(copy, ";", &save); tok;
		     tok = strtok_r(NULL, ";", &save)) {
			while (*tok == ' ')
				tok++;
			if (add_entry(x, tok) < 0) {
				free(copy);
				return -1;
			}
		}
		free(copy);
	}
	return 0;
}

/* ---- the single-thread time --------------------------------------- */

static void plan_t1(struct xctx *x)
{
	int i, one = -1;

	for (i = 0; i < x->n_pl && one < 0; i++)
		if (x->pl[i].n == 1)
			one = i;
	switch (x->o->t1_source) {
	case T1_GIVEN:
		x->t1 = x->o->t1;
		x->t1_place = -1;
		x->t1_text = "given (--t1)";
		return;
	case T1_RUN:
		if (one < 0)
			usage_error("explain", "--t1 run needs a placement of "
				    "one thread");
		break;
	case T1_WORKLOAD:
		one = -1;
		break;
	case T1_AUTO:
		break;
	}
	x->t1_place = one;
	if (one >= 0) {
		x->t1 = NAN;	/* after the runs */
		x->t1_text = "the 1-thread run";
		return;
	}
	x->t1 = x->prm.t1;
	x->t1_text = "the workload description's t1";
}

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
static void plan_hardware(struct xctx *x)
{
	struct pandia_error err;
	const char *src;
	char *why = NULL;
	bool generic;
	int i;

	if (x->o->hw == HW_NONE) {
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
		if (x->o->hw == HW_PERF)
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

/* The command's stderr tail, indented, for a failed placement. */
static void print_tail(const char *tail)
{
	const char *p, *nl;

	if (!tail || !*tail)
		return;
	for (p = tail; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(stderr, "  | %s\n", p);
			break;
		}
		fprintf(stderr, "  | %.*s\n", (int)(nl - p), p);
	}
}

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

/* Run placement k, -r times.  0, or the signal that interrupted it. */
static int measure(struct xctx *x, int k)
{
	struct place *p = &x->pl[k];
	int reps = x->o->reps, i, keep, sig = 0;
	struct stack_thread **thr = xcalloc((size_t)reps,
					    sizeof(*thr));
	double **stall = xcalloc((size_t)reps, sizeof(*stall));
	int *n_thr = xcalloc((size_t)reps, sizeof(int));
	char *helpers = NULL;

	p->times = xcalloc((size_t)reps, sizeof(double));
	if (!x->o->quiet)
		progress("explain", "%d/%d: %s (%d thread%s)...", k + 1,
			 x->n_pl, p->cpus, p->n, p->n == 1 ? "" : "s");
	for (i = 0; i < reps; i++) {
		struct pandia_error err;
		struct run_result r;

		run_result_init(&r);
		if (run_once(x, p, i, helpers, &r, &stall[i], &err) < 0) {
			if (r.interrupted) {
				sig = r.interrupted;
				run_result_release(&r);
				goto out;
			}
			p->error = xstrdup(err.text);
			error("placement %s (%d thread%s) failed: %s", p->cpus,
			      p->n, p->n == 1 ? "" : "s", err.text);
			print_tail(r.stderr_tail);
			run_result_release(&r);
			goto out;
		}
		if (r.threads_created < 0 || r.n_threads < 1) {
			p->error = xstrdup("no per-thread accounting: the "
					   "command did not load "
					   "libpandia-pin.so (a static or "
					   "setuid binary?)");
			error("placement %s: %s", p->cpus, p->error);
			run_result_release(&r);
			goto out;
		}
		check_run(x, p, &r);
		if (!helpers && r.helpers)
			helpers = xstrdup(r.helpers);
		p->times[p->n_times++] = r.times[r.n_times - 1];
		n_thr[i] = take_accounting(&r, &thr[i]);
		run_result_release(&r);
	}
	keep = median_index(p->times, p->n_times);
	p->tn = p->times[keep];
	p->thr = thr[keep];
	p->n_thr = n_thr[keep];
	p->stall = stall[keep];
	thr[keep] = NULL;
	stall[keep] = NULL;
	p->ran = true;
	if (!x->o->quiet)
		progress("explain", "%d/%d: %s: %.4g s%s", k + 1, x->n_pl,
			 p->cpus, p->tn, reps > 1 ? " (the median run)" : "");
out:
	for (i = 0; i < reps; i++) {
		free(thr[i]);
		free(stall[i]);
	}
	free(thr);
	free(stall);
	free(n_thr);
	free(helpers);
	if (!p->ran)
		x->failed++;
	return sig;
}

/* ---- the stacks --------------------------------------------------- */

/* The predicted stack of every placement (before anything runs). */
static int predict(struct xctx *x)
{
	struct pandia_error err;
	struct space *sp;
	int i, ret = -1;

	sp = space_new(x->m, 1, &x->mem, &err);
	if (!sp)
		return error_perr(&err);
	for (i = 0; i < x->n_pl; i++) {
		struct place *p = &x->pl[i];
		struct model md;

		model_init(&md, sp, &x->prm);
		model_time_pus(&md, p->pus, p->n);
		p->pred_time = md.time;
		p->pred = stack_predicted(&md, p->cpus, &err);
		model_release(&md);
		if (!p->pred) {
			error("placement %s: no predicted stack: %s", p->cpus,
			      err.text);
			goto out;
		}
	}
	ret = 0;
out:
	space_free(sp);
	return ret;
}

/* The events counted in every run: those split the rest. */
static void keep_events(struct xctx *x)
{
	int i, k, kept = 0;

	for (k = 0; k < x->n_hw; k++) {
		x->hw_kept[k] = true;
		for (i = 0; i < x->n_pl; i++)
			if (x->pl[i].ran && (!x->pl[i].stall ||
					     !isfinite(x->pl[i].stall[k])))
				x->hw_kept[k] = false;
		if (!x->hw_kept[k])
			warning("%s was not counted in every run: the rest is "
				"not split by it", x->hw_names[k]);
		kept += x->hw_kept[k];
	}
	if (x->hw && !kept) {
		x->hw = false;
		free(x->hw_note);
		x->hw_note = xstrdup("no stall event was counted");
	}
}

/* The measured stack of every placement that ran.  0, or -1 said. */
static int build_measured(struct xctx *x)
{
	struct stack_stall *st = xcalloc((size_t)x->n_hw + 1, sizeof(*st));
	char **labels = xcalloc((size_t)x->n_hw + 1, sizeof(char *));
	const struct place *one = x->t1_place >= 0 ? &x->pl[x->t1_place] :
		NULL;
	int i, k, n_st = 0, ret = 0;

	if (one) {
		if (!one->ran) {
			error("the 1-thread placement %s failed: no "
			      "single-thread time, no measured stack (--t1 "
			      "workload or --t1 SECONDS gives one)",
			      one->cpus);
			ret = -1;
			goto out;
		}
		x->t1 = one->tn;
	}
	if (!(x->t1 > 0)) {
		error("the single-thread time from %s is %g s: no measured "
		      "stack (--t1 SECONDS gives one)", x->t1_text, x->t1);
		ret = -1;
		goto out;
	}
	keep_events(x);
	for (i = 0; i < x->n_pl; i++) {
		struct place *p = &x->pl[i];
		struct pandia_error err;
		struct stack_run run;

		if (!p->ran)
			continue;
		n_st = 0;
		for (k = 0; x->hw && k < x->n_hw; k++) {
			if (!x->hw_kept[k])
				continue;
			if (!labels[k])
				labels[k] = xasprintf("%s stalls (perf)",
						      x->hw_ev[k].category);
			st[n_st].key = x->hw_ev[k].category;
			st[n_st].label = labels[k];
			st[n_st].seconds = p->stall[k];
			st[n_st].single = one ? one->stall[k] : 0;
			n_st++;
		}
		for (k = 0; k < p->n_thr; k++)
			if (p->thr[k].worker && !isfinite(p->thr[k].cpu_time))
				break;
		if (k < p->n_thr) {
			p->error = xstrdup("no measured stack: a worker "
					   "thread's CPU time is not known "
					   "(the runner did not see it: a run "
					   "too short?)");
			error("placement %s: %s", p->cpus, p->error);
			x->failed++;
			continue;
		}
		memset(&run, 0, sizeof(run));
		run.t1 = x->t1;
		run.tn = p->tn;
		run.threads = p->n;
		run.thr = p->thr;
		run.n_thr = p->n_thr;
		run.stalls = n_st ? st : NULL;
		run.n_stalls = n_st;
		run.cpus = p->cpus;
		p->meas = stack_measured(&run, &err);
		if (!p->meas) {
			p->error = xasprintf("no measured stack: %s",
					     err.text);
			error("placement %s: %s", p->cpus, p->error);
			x->failed++;
		}
	}
out:
	for (k = 0; k < x->n_hw; k++)
		free(labels[k]);
	free(labels);
	free(st);
	return ret;
}

/* Every stack adds up to N within 3%: warn about one that does not. */
static void check_sums(const struct xctx *x)
{
	int i, j;

	for (i = 0; i < x->n_pl; i++)
		for (j = 0; j < 2; j++) {
			const struct stack *s = j ? x->pl[i].pred :
				x->pl[i].meas;
			double sum;

			if (s && !stack_sums(s, SUM_TOLERANCE, &sum))
				warning("the %s stack of %s adds up to %.4g, "
					"not N = %d within %.0f%%",
					j ? "predicted" : "measured",
					x->pl[i].cpus, sum, s->threads,
					100 * SUM_TOLERANCE);
		}
}

/* ---- output ------------------------------------------------------- */

static json_t *stack_json(const struct stack *s, double time)
{
	json_t *j = stack_to_json(s);

	json_object_set_new(j, "sum", json_real(stack_total(s)));
	json_object_set_new(j, "time", isfinite(time) ? json_real(time) :
			    json_null());
	return j;
}

static json_t *to_json(const struct xctx *x)
{
	json_t *root = json_object(), *a = json_array(), *f = json_array();
	json_t *cmd = json_array();
	int i;

	json_object_set_new(root, "schema", json_string("pandia-explain/1"));
	json_object_set_new(root, "machine",
			    json_string(x->o->machine_path));
	json_object_set_new(root, "host", x->m->host ?
			    json_string(x->m->host) : json_null());
	json_object_set_new(root, "workload",
			    json_string(x->o->workload_path));
	for (i = 0; x->o->argv && x->o->argv[i]; i++)
		json_array_append_new(cmd, json_string(x->o->argv[i]));
	json_object_set_new(root, "command", cmd);
	json_object_set_new(root, "t1", x->t1 > 0 ? json_real(x->t1) :
			    json_null());
	json_object_set_new(root, "t1_source", json_string(
		x->t1_place >= 0 ? "run" : x->o->t1_source == T1_GIVEN ?
		"given" : "workload"));
	if (x->t1_place >= 0) {
		json_t *o = json_object();

		json_set_cpus(o, x->pl[x->t1_place].os, x->pl[x->t1_place].n);
		json_object_set_new(root, "t1_from", o);
	} else {
		json_object_set_new(root, "t1_from", json_null());
	}
	json_object_set_new(root, "repetitions", json_integer(x->o->reps));
	json_object_set_new(root, "counters", json_string(x->hw ? "perf" :
							  "none"));
	json_object_set_new(root, "counters_note", x->hw_note ?
			    json_string(x->hw_note) : json_null());
	for (i = 0; i < x->n_pl; i++) {
		const struct place *p = &x->pl[i];

		if (p->meas)
			json_array_append_new(a, stack_json(p->meas, p->tn));
		if (p->pred)
			json_array_append_new(a, stack_json(p->pred,
							    p->pred_time));
		if (p->error) {
			json_t *o = json_object();

			json_set_cpus(o, p->os, p->n);
			json_object_set_new(o, "threads", json_integer(p->n));
			json_object_set_new(o, "error", json_string(p->error));
			json_array_append_new(f, o);
		}
	}
	json_object_set_new(root, "stacks", a);
	json_object_set_new(root, "failed", f);
	return root;
}

static void print_text(const struct xctx *x)
{
	const struct stack **v = xcalloc(2 * (size_t)x->n_pl + 1,
					 sizeof(*v));
	char *t;
	int i, n = 0;

	printf("machine   %s\n", x->m->host ? x->m->host :
	       x->o->machine_path);
	printf("command  ");
	for (i = 0; x->o->argv && x->o->argv[i]; i++)
		printf(" %s", x->o->argv[i]);
	printf("\nt1        %.4g s, from %s", x->t1, x->t1_text);
	if (x->t1_place >= 0)
		printf(" at %s", x->pl[x->t1_place].cpus);
	if (x->hw)
		printf("\ncounters  perf: the rest split by the counted stall "
		       "events\n\n");
	else
		printf("\ncounters  none: the rest (contention and parallel "
		       "overhead) is not split%s%s\n\n", x->hw_note ?
		       ": " : "", x->hw_note ? x->hw_note : "");
	for (i = 0; i < x->n_pl; i++) {
		if (x->pl[i].meas)
			v[n++] = x->pl[i].meas;
		if (x->pl[i].pred)
			v[n++] = x->pl[i].pred;
	}
	t = stacks_table(v, n);
	fputs(t, stdout);
	free(t);
	for (i = 0; i < x->n_pl; i++)
		if (x->pl[i].error)
			printf("%s: FAILED: %s\n", x->pl[i].cpus,
			       x->pl[i].error);
	free(v);
}

static int save_text(const char *dir, const char *name, const char *text,
		     struct pandia_error *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file_atomic(path, text, strlen(text), err);

	free(path);
	return ret;
}

/* DIR/stacks.json, stacks.gp, and stacks.png by gnuplot.  0 or -1. */
static int save_files(const struct xctx *x, const char *json)
{
	const char *dir = x->o->dir;
	const struct stack **ms = xcalloc((size_t)x->n_pl + 1, sizeof(*ms));
	const struct stack **ps = xcalloc((size_t)x->n_pl + 1, sizeof(*ps));
	char *gp_args[] = { "stacks.gp", NULL }, *script, *title;
	struct pandia_error err;
	int i, ret = -1;

	if (save_text(dir, "stacks.json", json, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	for (i = 0; i < x->n_pl; i++) {
		ms[i] = x->pl[i].meas;
		ps[i] = x->pl[i].pred;
	}
	title = xasprintf("%s on %s: speedup stacks, measured (m) and "
			  "predicted (p); t1 %.3g s", x->o->argv &&
			  x->o->argv[0] ? (strrchr(x->o->argv[0], '/') ?
					   strrchr(x->o->argv[0], '/') + 1 :
					   x->o->argv[0]) : "?",
			  x->m->host ? x->m->host : "?", x->t1);
	script = stacks_gnuplot_script(ms, ps, x->n_pl, "stacks.png", title);
	free(title);
	if (!script) {
		warning("no stack: no figure drawn");
		ret = 0;
		goto out;
	}
	if (save_text(dir, "stacks.gp", script, &err) < 0) {
		error_perr(&err);
		free(script);
		goto out;
	}
	free(script);
	if (run_tool("gnuplot", "PANDIA_GNUPLOT", dir, gp_args, &err) < 0) {
		if (errno == ENOENT)
			warning("gnuplot not found: %s/stacks.png not drawn "
				"('gnuplot stacks.gp' in %s draws it; "
				"scripts/install-deps installs gnuplot)", dir,
				dir);
		else
			warning("%s: %s/stacks.png not drawn", err.text, dir);
	}
	ret = 0;
out:
	free(ms);
	free(ps);
	return ret;
}

/* mkdir DIR unless it is a directory already, and its files writable. */
static int check_dir(const char *dir)
{
	static const char *const files[] = {
		"stacks.json", "stacks.gp", "stacks.png",
	};
	struct pandia_error err;
	struct stat st;
	size_t i;

	if (mkdir(dir, 0777) < 0 && !(errno == EEXIST && stat(dir, &st) == 0 &&
				      S_ISDIR(st.st_mode))) {
		perr_errno(&err, "cannot create directory '%s'", dir);
		return error_perr(&err);
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = xasprintf("%s/%s", dir, files[i]);
		int rc = output_check(path, &err);

		free(path);
		if (rc < 0)
			return error_perr(&err);
	}
	return 0;
}

/* ---- the command -------------------------------------------------- */

static int explain(struct xctx *x)
{
	json_t *root;
	char *text;
	int i, sig = 0, ret = 1;

	if (plan_places(x) < 0 || predict(x) < 0)
		return 1;
	plan_t1(x);
	if (x->o->dir && check_dir(x->o->dir) < 0)
		return 1;
	x->shim = run_find_shim(NULL);
	if (!x->shim) {
		error("cannot find libpandia-pin.so next to pandia (build it "
		      "with make, or set PANDIA_PIN_LIB): no per-thread "
		      "accounting without it");
		return 1;
	}
	plan_hardware(x);
	if (!x->o->quiet)
		progress("explain", "%d placement%s, %d run%s each%s; t1 from "
			 "%s", x->n_pl, x->n_pl == 1 ? "" : "s", x->o->reps,
			 x->o->reps == 1 ? "" : "s", x->o->warmup ?
			 " after a warm-up" : "", x->t1_text);
	for (i = 0; i < x->n_pl && !sig; i++)
		sig = measure(x, i);
	if (sig) {
		error("interrupted by signal %d", sig);
		run_reraise(sig);
	}
	if (build_measured(x) < 0)
		x->failed++;
	check_sums(x);

	root = to_json(x);
	text = json_to_text(root);
	json_decref(root);
	if (x->o->json)
		fputs(text, stdout);
	else
		print_text(x);
	if (x->o->dir && save_files(x, text) < 0)
		goto out;
	if (x->failed)
		error("%d of %d placement%s failed (see above)", x->failed,
		      x->n_pl, x->n_pl == 1 ? "" : "s");
	ret = x->failed ? 1 : 0;
out:
	free(text);
	return ret;
}

int cmd_explain(int argc, char **argv)
{
	struct pandia_error err;
	struct cli o;
	struct xctx x;
	char *why = NULL, *mpath = NULL;
	int ret = 1, i;

	parse_args(argc, argv, &o);
	memset(&x, 0, sizeof(x));
	x.o = &o;
	x.t1_place = -1;
	x.m = open_machine(o.quiet ? NULL : "explain", o.machine_path, true,
			   &mpath);
	if (!x.m)
		goto out;
	o.machine_path = mpath;
	x.w = workload_load(o.workload_path, &err);
	if (!x.w) {
		error_perr(&err);
		goto out;
	}
	if (!workload_has_model(x.w)) {
		error("workload '%s' has no Pandia model (\"model\"): profile "
		      "it with pandia profile (the predicted stacks are that "
		      "model's)", o.workload_path);
		goto out;
	}
	if (!o.argv) {
		if (!x.w->n_command)
			usage_error("explain", "no command given, and '%s' "
				    "records none: pandia explain ... -- "
				    "CMD [ARG...]", o.workload_path);
		o.argv = xcalloc((size_t)x.w->n_command + 1, sizeof(char *));
		for (i = 0; i < x.w->n_command; i++)
			o.argv[i] = x.w->command[i];
		o.own_argv = true;
		if (!o.quiet)
			progress("explain", "running the command '%s' was "
				 "profiled with", o.workload_path);
	}
	if (!workload_machine_matches(x.w, x.m, &why)) {
		if (!o.force) {
			error("workload '%s' was profiled on another machine "
			      "than '%s': %s\npandia: profile it on this "
			      "machine, or use --force to explain anyway",
			      o.workload_path, o.machine_path, why);
			goto out;
		}
		warning("workload '%s' was profiled on another machine (%s); "
			"explaining anyway", o.workload_path, why);
	}
	if (check_this_host(x.m, o.machine_path, o.force, "explaining",
			    NULL) < 0)
		goto out;
	model_params_of(x.w, &x.prm);
	x.mem = x.w->has_memory ? x.w->memory :
		(struct pandia_mempolicy){ MEM_LOCAL, -1 };
	ret = explain(&x);
out:
	free(why);
	free(mpath);
	for (i = 0; i < x.n_pl; i++)
		place_release(&x.pl[i]);
	free(x.pl);
	free(x.shim);
	for (i = 0; i < x.n_hw && x.hw_names; i++)
		free(x.hw_names[i]);
	free(x.hw_names);
	free(x.hw_kept);
	free(x.hw_note);
	free(x.test_ev);
	free(x.test_spec);
	if (o.own_argv)
		free(o.argv);
	free(o.specs);
	workload_free(x.w);
	machine_free(x.m);
	return ret;
}
