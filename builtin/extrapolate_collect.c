/*
 * extrapolate_collect.c - pandia extrapolate without --runs: the
 * command at 1..m threads, one per core, packed; its time and every
 * stall category of profiler/stalls.h per run, into a
 * pandia-scaling/1 file.  With -r N the counts are run in N rounds,
 * each count once a round, so that a host whose speed moves during the
 * sweep moves every count alike; a count's time and stalls are the
 * medians over its rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/extrapolate.h"
#include "common/cpulist.h"
#include "common/machine.h"
#include "common/util.h"
#include "predictor/defaults.h"
#include "predictor/estima.h"
#include "predictor/scaling.h"
#include "profiler/counters.h"
#include "profiler/run.h"
#include "profiler/stalls.h"

/* one value of one category at one thread count */
struct value {
	const char *name;
	double v;
};

/*
 * What the rounds measured at one thread count beyond its run in the
 * file (whose times are the rounds' so far)
 */
struct count {
	double *stalls;		/* stalls[round * categories + k] */
	struct value *hw;	/* the first round's hardware values */
	int n_hw;
	/* the helpers by role its first run found: later rounds pin by
	   them, without a run made to find them again */
	char *helpers;
	int run;		/* its run in the file; -1: none yet */
};

struct collect {
	const struct cli *o;
	struct pandia_machine *m;
	int *order;		/* OS index of one PU per core, packed */
	int n_cores;
	int *threads;		/* the counts to run */
	int n_threads;
	struct pandia_scaling *s;
	char *shim;
	double hz;		/* the clock; 0: not known */
	const char *hz_source;
	/* hardware */
	bool hw;
	bool hw_kernel;
	const char *pmu;
	const struct stall_hw_event *hw_ev;
	int n_hw;
	char **hw_names;	/* libpfm4 names, n_hw */
	bool *hw_kept;		/* counted at the first count */
	/* software */
	bool sw;
	/* user categories of the run being made: acc[k] */
	struct stall_acc *acc;
	int unit_error;		/* a category in seconds, no clock: k+1 */
	/* what the run at this count gave */
	struct value *vals;
	int n_vals;
	struct count *counts;	/* n_threads */
	int made;		/* runs made, every round */
	double t0;
};

static void on_line(const char *line, int run, void *data)
{
	struct collect *x = data;
	const struct cli *o = x->o;
	double v;
	bool secs;
	int k;

	if (run != 1)		/* one run a call; 0: the warm-up */
		return;
	for (k = 0; k < o->n_users; k++) {
		if (!stall_user_match(&o->users[k], line, &v, &secs))
			continue;
		if (secs) {
			if (!(x->hz > 0)) {
				if (!x->unit_error)
					x->unit_error = k + 1;
				continue;
			}
			v *= x->hz;
		}
		stall_acc_add(&x->acc[k], v);
	}
}

static void add_value(struct collect *x, const char *name, double v)
{
	x->vals[x->n_vals].name = name;
	x->vals[x->n_vals].v = v;
	x->n_vals++;
}

/* the user categories of this count's run in round ROUND (from 0) */
static int user_values(struct collect *x, int n, int round)
{
	const struct cli *o = x->o;
	double v;
	int k;

	if (x->unit_error) {
		const struct stall_user *u = &o->users[x->unit_error - 1];

		error("category '%s': the output gives seconds, and the clock "
		      "frequency is not known to turn them into cycles: give "
		      "--frequency HZ", u->name);
		return -1;
	}
	for (k = 0; k < o->n_users; k++) {
		const struct stall_user *u = &o->users[k];

		if (!stall_acc_value(&x->acc[k], u->reducer, &v)) {
			error("category '%s': no line of the output matched "
			      "'%s' in run %d at %d thread%s (the %s of no "
			      "value is not defined; sum gives 0)", u->name,
			      u->regex, round + 1, n, n == 1 ? "" : "s",
			      stall_reducer_name(u->reducer));
			return -1;
		}
		add_value(x, u->name, v);
	}
	return 0;
}

/* the hardware categories of this count: one more run, counted */
static int hw_values(struct collect *x, const struct run_opts *ro, int n)
{
	struct counters_reading rd;
	struct pandia_error err;
	struct run_opts one = *ro;
	struct run_result r;
	bool first = x->s->n_runs == 0;
	int i, kept = 0, ret = -1;

	one.on_line = NULL;
	one.on_run = NULL;
	counters_reading_init(&rd);
	run_result_init(&r);
	if (!x->o->quiet)
		progress("extrapolate", "%d thread%s: one more run, counted "
			 "by perf", n, n == 1 ? "" : "s");
	if (counters_count((const char *const *)x->hw_names, x->n_hw,
			   x->hw_kernel, &one, x->o->argv, &rd, &r,
			   &err) < 0) {
		if (r.interrupted) {
			error_perr(&err);
			run_reraise(r.interrupted);
		}
		error("%d thread%s, the counted run: %s", n,
		      n == 1 ? "" : "s", err.text);
		goto out;
	}
	for (i = 0; i < x->n_hw; i++) {
		const struct counters_event *e = NULL;
		int j;

		for (j = 0; j < rd.n_events && !e; j++)
			if (!strcmp(rd.events[j].name, x->hw_names[i]))
				e = &rd.events[j];
		if (!e) {
			error("%s: not in perf's reading", x->hw_names[i]);
			goto out;
		}
		if (first) {
			x->hw_kept[i] = e->counted;
			if (!e->counted)
				warning("%s is not counted here (%s): no "
					"category '%s'", x->hw_names[i],
					e->error ? e->error : "?",
					x->hw_ev[i].category);
		}
		if (!x->hw_kept[i])
			continue;
		if (!e->counted) {
			error("%s counted at %d threads but not at %d: %s",
			      x->hw_names[i], x->s->runs[0].threads, n,
			      e->error ? e->error : "?");
			goto out;
		}
		add_value(x, x->hw_ev[i].category, e->value);
		kept++;
	}
	if (first && !kept) {
		warning("no backend stall event counted: no hardware stall "
			"category");
		x->hw = false;
		free(x->s->counters);
		x->s->counters = xstrdup("none");
	}
	ret = 0;
out:
	run_result_release(&r);
	counters_reading_release(&rd);
	return ret;
}

/* the software categories of this count */
static int sw_values(struct collect *x, const struct run_result *r, int n)
{
	double v[STALL_SW_COUNT];
	struct pandia_error err;
	bool first = x->s->n_runs == 0;
	int k;

	if (!first && !x->sw)
		return 0;
	if (stalls_software(r, x->hz, v, &err) < 0) {
		if (first) {
			if (!x->o->quiet)
				progress("extrapolate", "no software stall "
					 "category: %s", err.text);
			return 0;
		}
		error("%d thread%s: software stalls: %s", n,
		      n == 1 ? "" : "s", err.text);
		return -1;
	}
	x->sw = true;
	for (k = 0; k < STALL_SW_COUNT; k++)
		add_value(x, stall_sw_name((enum stall_sw)k), v[k]);
	return 0;
}

/* the median over N rounds of column K of C's stalls (NC wide) */
static double stall_median(const struct count *c, int n, int nc, int k)
{
	double *v = xcalloc((size_t)n, sizeof(double)), m;
	int i;

	for (i = 0; i < n; i++)
		v[i] = c->stalls[i * nc + k];
	m = median_of(v, n);
	free(v);
	return m;
}

/*
 * Record this round's run of count IDX (N threads on CPUS, time T) in
 * x->s: its run there made at the first round (the categories at the
 * first count's), its time and stalls the medians over the rounds.
 */
static void record(struct collect *x, int idx, int n, const int *cpus,
		   double t)
{
	struct count *c = &x->counts[idx];
	struct scaling_run *run;
	struct pandia_error err;
	int i, k, nc, r;

	if (!x->s->n_runs)
		for (i = 0; i < x->n_vals; i++)
			scaling_add_category(x->s, x->vals[i].name, &err);
	if (c->run < 0) {
		run = scaling_add_run(x->s, n, t);
		run->cpus = cpulist_format_compact(cpus, n);
		run->times = xcalloc((size_t)x->o->reps + 1, sizeof(double));
		c->run = x->s->n_runs - 1;
	}
	run = &x->s->runs[c->run];
	nc = x->s->n_categories;
	r = run->n_times;
	c->stalls = xrealloc(c->stalls, sizeof(double) *
			     (size_t)((r + 1) * (nc ? nc : 1)));
	for (k = 0; k < nc; k++)
		c->stalls[r * nc + k] = 0;
	for (i = 0; i < x->n_vals; i++) {
		k = scaling_category(x->s, x->vals[i].name);
		if (k >= 0)
			c->stalls[r * nc + k] = x->vals[i].v;
	}
	run->times[run->n_times++] = t;
	run->time = median_of(run->times, run->n_times);
	for (k = 0; k < nc; k++)
		run->stalls[k] = stall_median(c, run->n_times, nc, k);
}

static int save(struct collect *x)
{
	struct pandia_error err;

	if (!x->o->output)
		return 0;
	if (scaling_save(x->s, x->o->output, &err) < 0)
		return error_perr(&err);
	return 0;
}

/*
 * The values of count IDX's run R (N threads) in round ROUND: the
 * hardware ones counted at the first round and kept for the later
 * ones, the software and user ones of this run.  0 or -1.
 */
static int count_values(struct collect *x, int idx, const struct run_opts *ro,
			const struct run_result *r, int n, int round)
{
	struct count *c = &x->counts[idx];
	int i;

	if (round == 0) {
		if (x->hw && hw_values(x, ro, n) < 0)
			return -1;
		c->n_hw = x->n_vals;
		c->hw = xcalloc((size_t)c->n_hw + 1, sizeof(*c->hw));
		memcpy(c->hw, x->vals, sizeof(*c->hw) * (size_t)c->n_hw);
	} else {
		for (i = 0; i < c->n_hw; i++)
			add_value(x, c->hw[i].name, c->hw[i].v);
	}
	if (sw_values(x, r, n) < 0 || user_values(x, n, round) < 0)
		return -1;
	if (x->s->n_runs && x->n_vals != x->s->n_categories) {
		error("%d thread%s: %d stall categories, %d at the first "
		      "count", n, n == 1 ? "" : "s", x->n_vals,
		      x->s->n_categories);
		return -1;
	}
	return 0;
}

/* The progress line of count IDX's run (N threads), made in ROUND. */
static void say_made(const struct collect *x, int idx, int n, int round,
		     double t)
{
	const struct scaling_run *run = &x->s->runs[x->counts[idx].run];
	double el = now_seconds() - x->t0;
	int total = x->n_threads * x->o->reps;
	char left[64] = "", rt[40];

	if (x->made < total && el > 2)
		snprintf(left, sizeof(left), "; about %.0f s left",
			 el / x->made * (total - x->made));
	round_text(round, x->o->reps, rt, sizeof(rt));
	if (round + 1 < x->o->reps) {
		progress("extrapolate", "%s%d/%d: %d thread%s: %.4g s%s", rt,
			 idx + 1, x->n_threads, n, n == 1 ? "" : "s", t, left);
		return;
	}
	progress("extrapolate", "%s%d/%d: %d thread%s: %.4g s (spread "
		 "%.1f%%)%s", rt, idx + 1, x->n_threads, n, n == 1 ? "" : "s",
		 run->time, 200 * half_range_of(run->times, run->n_times) /
		 run->time, left);
}

/*
 * Count IDX's run in round ROUND (from 0): one run, after a warm-up at
 * the first round.  Returns 0, -1 on failure, or the signal that
 * interrupted the run.
 */
static int run_count(struct collect *x, int idx, int round)
{
	const struct cli *o = x->o;
	int n = x->threads[idx], k, ret = -1;
	const int *cpus = x->order;
	struct pandia_error err;
	struct run_result r;
	struct run_opts ro;
	char *list, rt[40];

	for (k = 0; k < o->n_users; k++)
		stall_acc_reset(&x->acc[k]);
	x->unit_error = 0;
	x->n_vals = 0;
	run_opts_init(&ro);
	ro.cpus = cpus;
	ro.n_cpus = n;
	ro.repetitions = 1;
	ro.warmup = o->warmup && round == 0;
	ro.timeout = o->timeout;
	ro.time_from = o->time_from;
	ro.runner = o->runner;
	ro.mem = o->mem.mode != RUN_MEM_DEFAULT ? &o->mem : NULL;
	ro.pin = RUN_PIN_SHIM;
	ro.helpers = x->counts[idx].helpers;
	ro.shim_path = x->shim;
	ro.machine = x->m;
	ro.on_line = on_line;
	ro.data = x;
	run_result_init(&r);
	list = cpulist_format_compact(cpus, n);
	if (!o->quiet)
		progress("extrapolate", "%s%d/%d: %d thread%s on PU%s %s...",
			 round_text(round, o->reps, rt, sizeof(rt)), idx + 1,
			 x->n_threads, n, n == 1 ? "" : "s",
			 n == 1 ? "" : "s", list);
	if (run_execute(&ro, o->argv, &r, &err) < 0) {
		if (r.interrupted) {
			ret = r.interrupted;
			goto out;
		}
		error("%d thread%s: %s", n, n == 1 ? "" : "s", err.text);
		show_stderr_tail(r.stderr_tail);
		goto out;
	}
	x->made++;
	if (!x->counts[idx].helpers && r.helpers)
		x->counts[idx].helpers = xstrdup(r.helpers);
	if (count_values(x, idx, &ro, &r, n, round) < 0)
		goto out;
	record(x, idx, n, cpus, r.median);
	if (save(x) < 0)
		goto out;
	if (!o->quiet)
		say_made(x, idx, n, round, r.median);
	ret = 0;
out:
	free(list);
	run_result_release(&r);
	return ret;
}

/* one PU per core, in the packed sweep order (SMT siblings skipped) */
static void core_order(struct collect *x)
{
	const struct pandia_machine *m = x->m;
	int *sweep = xcalloc((size_t)m->n_pus + 1, sizeof(int));
	char *used = xcalloc((size_t)m->n_cores + 1, 1);
	int i, core;

	defaults_sweep_order(m, false, sweep);
	x->order = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	for (i = 0; i < m->n_pus; i++) {
		core = m->pus[sweep[i]].core;
		if (used[core])
			continue;
		used[core] = 1;
		x->order[x->n_cores++] = m->pus[sweep[i]].os_index;
	}
	free(used);
	free(sweep);
}

/* the counts from --threads, or 1..cores */
static void thread_counts(struct collect *x)
{
	const struct cli *o = x->o;
	struct pandia_error err;
	int i;

	if (!o->threads_arg) {
		x->n_threads = x->n_cores;
		x->threads = xcalloc((size_t)x->n_cores + 1, sizeof(int));
		for (i = 0; i < x->n_cores; i++)
			x->threads[i] = i + 1;
		return;
	}
	if (cpulist_parse(o->threads_arg, &x->threads, &x->n_threads,
			  &err) < 0)
		usage_error("extrapolate", "--threads takes thread counts "
			    "such as 1-8 or 1,2,4,8, not '%s'",
			    o->threads_arg);
	for (i = 0; i < x->n_threads; i++) {
		if (x->threads[i] < 1 || x->threads[i] > x->n_cores)
			usage_error("extrapolate", "--threads: %d is not "
				    "from 1 to %d (one thread per core of %s)",
				    x->threads[i], x->n_cores,
				    o->machine_path);
		if (i && x->threads[i] <= x->threads[i - 1])
			usage_error("extrapolate", "--threads: the counts "
				    "must increase (%d after %d)",
				    x->threads[i], x->threads[i - 1]);
	}
}

/* perf or not, before anything runs */
static void plan_hardware(struct collect *x)
{
	const struct cli *o = x->o;
	struct pandia_error err;
	char *why = NULL;
	bool generic;
	int i, k;

	if (o->hw == COUNTERS_PROBE)
		return;
	if (o->runner)
		why = xstrdup("the command runs through --runner, where "
			      "perf cannot count it");
	else if (!counters_perf_available(&x->hw_kernel, &why))
		;
	else if (!(x->pmu = counters_host_pmu(&err)))
		why = xstrdup(err.text);
	if (why) {
		counters_drop_probe_advice(why);
		if (o->hw == COUNTERS_PERF)
			die("no hardware stall categories: %s", why);
		if (strncmp(why, "perf counters unavailable", 25) ||
		    said_in_full(SAID_NO_PERF))
			warning("no hardware stall categories: %s; going on "
				"without them (--counters none: not even "
				"tried)", why);
		else
			warning("no hardware stall categories: perf counters "
				"unavailable (-v says why); going on without "
				"them");
		free(why);
		return;
	}
	x->hw = true;
	x->hw_ev = stalls_hw_events(x->pmu, &x->n_hw, &generic);
	x->hw_names = xcalloc((size_t)x->n_hw + 1, sizeof(char *));
	x->hw_kept = xcalloc((size_t)x->n_hw + 1, sizeof(bool));
	for (i = 0; i < x->n_hw; i++) {
		x->hw_names[i] = stalls_hw_event_name(x->pmu, &x->hw_ev[i]);
		for (k = 0; k < o->n_users; k++)
			if (!strcmp(o->users[k].name, x->hw_ev[i].category))
				die("--category %s: the hardware category of "
				    "%s has that name; choose another",
				    o->users[k].name, x->hw_names[i]);
	}
	if (!o->quiet)
		progress("extrapolate", "hardware stall categories: %d %s "
			 "event%s of PMU %s, one more run per count, counted "
			 "by perf", x->n_hw, generic ? "generic" : "backend",
			 x->n_hw == 1 ? "" : "s", x->pmu);
}

static void describe(struct collect *x)
{
	const struct cli *o = x->o;
	struct pandia_scaling *s = x->s;
	char date[32], *note, *t;
	int i, n = 0;

	while (o->argv && o->argv[n])
		n++;
	/* with a runner, its template first, then what {cmd} stands for */
	s->command = xcalloc((size_t)n + 2, sizeof(char *));
	if (o->runner)
		s->command[s->n_command++] = xstrdup(o->runner);
	for (i = 0; i < n; i++)
		s->command[s->n_command++] = xstrdup(o->argv[i]);
	s->machine = xstrdup(o->machine_path);
	s->frequency = x->hz;
	s->counters = xstrdup(x->hw ? "perf" : "none");
	s->stall_unit = xstrdup("cycles");
	iso_date_now(date, sizeof(date));
	s->date = xstrdup(date);
	s->version = xstrdup(PANDIA_VERSION);
	note = xasprintf("time: the median of %d run%s%s%s (%s); stalls: the "
			 "median over the same runs, summed over threads%s; "
			 "frequency from %s", o->reps, o->reps == 1 ? "" : "s",
			 o->reps > 1 ? ", one of each count per round" : "",
			 o->warmup ? " after a warm-up" : "",
			 o->time_from ? "from the output" : "wall clock",
			 x->hw ? ", hardware ones from one more run counted "
			 "by perf" : "",
			 x->hz > 0 ? x->hz_source : "nowhere (not known)");
	if (o->runner) {
		t = xasprintf("%s; run through the template %s", note,
			      o->runner);
		free(note);
		note = t;
	}
	for (i = 0; i < o->n_users; i++) {
		t = xasprintf("%s; %s %s=%s:%s", note, i ? "" : "categories:",
			      o->users[i].name, o->users[i].regex,
			      stall_reducer_name(o->users[i].reducer));
		free(note);
		note = t;
	}
	s->note = note;
}

static void print_runs(const struct collect *x)
{
	const struct pandia_scaling *s = x->s;
	int i, k;

	printf("%7s %12s", "threads", "time (s)");
	for (k = 0; k < s->n_categories; k++)
		printf(" %14s", s->categories[k]);
	printf("  cpus\n");
	for (i = 0; i < s->n_runs; i++) {
		printf("%7d %12.5g", s->runs[i].threads, s->runs[i].time);
		for (k = 0; k < s->n_categories; k++)
			printf(" %14.5g", s->runs[i].stalls[k]);
		printf("  %s\n", s->runs[i].cpus ? s->runs[i].cpus : "-");
	}
	printf("(stalls in cycles, summed over threads)\n");
}

/* --to N|MACHINE with the runs to collect: N at least MOST threads. */
static int check_target(const char *to, int most)
{
	char *what;
	int N;

	if (parse_target(to, &N, &what) < 0)
		return -1;
	free(what);
	if (N < most)
		usage_error("extrapolate", "--to %s is below the %d threads to "
			    "measure", to, most);
	return 0;
}

/*
 * What to measure, before anything runs: the PUs, the thread counts,
 * the clock, perf or not, the pinning library.  0, or -1 after saying
 * why.
 */
static int collect_plan(struct collect *x)
{
	const struct cli *o = x->o;

	if (!o->runner &&
	    check_this_host(x->m, o->machine_path, o->force, "measuring",
			    "(or --runner for a workload that runs on that "
			    "machine)") < 0)
		return -1;
	core_order(x);
	thread_counts(x);
	if (o->to && check_target(o->to, x->threads[x->n_threads - 1]) < 0)
		return -1;
	x->hz = o->frequency;
	x->hz_source = "--frequency";
	if (!(x->hz > 0) && !o->runner)
		x->hz = stalls_host_frequency(&x->hz_source);
	plan_hardware(x);
	if (!o->runner) {
		x->shim = run_find_shim(pandia_exe_dir());
		if (!x->shim) {
			error("cannot find libpandia-pin.so next to pandia "
			      "(build it with make, or set PANDIA_PIN_LIB)");
			return -1;
		}
	}
	return 0;
}

/*
 * Every thread count, in turn.  0, or -1 after saying why; a signal
 * that interrupts a run is raised again once said.
 */
static int collect_runs(struct collect *x)
{
	const struct cli *o = x->o;
	int i, round, sig = 0;
	char made[64] = "";

	if (!o->quiet)
		progress("extrapolate", "%d thread count%s from %d to %d, one "
			 "thread per core of %s, %d run%s each%s%s",
			 x->n_threads, x->n_threads == 1 ? "" : "s",
			 x->threads[0], x->threads[x->n_threads - 1],
			 o->machine_path, o->reps, o->reps == 1 ? "" : "s",
			 o->warmup ? " after a warm-up" : "",
			 o->reps > 1 ? ", one of each per round" : "");
	for (round = 0; round < o->reps && !sig; round++)
		for (i = 0; i < x->n_threads && !sig; i++)
			sig = run_count(x, i, round);
	if (!sig)
		sig = run_caught_signal();
	if (sig > 0) {
		if (o->reps > 1)
			snprintf(made, sizeof(made), " (%d of %d runs made)",
				 x->made, x->n_threads * o->reps);
		error("interrupted by signal %d: %d of %d thread counts "
		      "measured%s%s%s", sig, x->s->n_runs, x->n_threads, made,
		      o->output && x->s->n_runs ? ", kept in " : "",
		      o->output && x->s->n_runs ? o->output : "");
		run_reraise(sig);
	}
	if (sig < 0) {
		if (o->output && x->s->n_runs)
			error("the %d thread count%s measured before are kept "
			      "in %s", x->s->n_runs, x->s->n_runs == 1 ? "" :
			      "s", o->output);
		return -1;
	}
	return 0;
}

/*
 * The runs measured: on stdout without -o or --to, extrapolated with
 * --to, else where they were written.  Returns the exit status.
 */
static int collect_show(struct collect *x)
{
	const struct cli *o = x->o;

	if (!x->s->n_categories)
		warning("no stall category was recorded (no hardware, no "
			"software, no --category): the runs give times only, "
			"and ESTIMA cannot extrapolate them");
	if (!o->output && !o->to) {
		char *text = scaling_to_string(x->s);

		fputs(text, stdout);
		free(text);
		return 0;
	}
	if (o->to) {
		if (!o->output)
			warning("the runs are not kept: -o RUNS.json keeps "
				"them");
		return extrapolate(o, x->s, o->output ? o->output :
				   "the runs measured", NULL);
	}
	print_runs(x);
	printf("%d run%s written to %s\n", x->s->n_runs,
	       x->s->n_runs == 1 ? "" : "s", o->output);
	if (enough_runs(x->s, o->output, o->checkpoints, x->n_cores, false))
		printf("extrapolate them: pandia extrapolate --runs %s --to "
		       "N|MACHINE\n", o->output);
	return 0;
}

static void collect_release(struct collect *x)
{
	int i;

	if (x->hw_names)
		for (i = 0; i < x->n_hw; i++)
			free(x->hw_names[i]);
	free(x->hw_names);
	free(x->hw_kept);
	free(x->acc);
	for (i = 0; x->counts && i < x->n_threads; i++) {
		free(x->counts[i].stalls);
		free(x->counts[i].hw);
		free(x->counts[i].helpers);
	}
	free(x->counts);
	free(x->vals);
	free(x->order);
	free(x->threads);
	free(x->shim);
	scaling_free(x->s);
	machine_free(x->m);
}

/* Collect the runs on machine M (taken over), opened by the caller. */
int cmd_collect(const struct cli *o, struct pandia_machine *m)
{
	struct collect x;
	struct pandia_error err;
	int ret = 1, i;

	memset(&x, 0, sizeof(x));
	x.o = o;
	x.m = m;
	x.t0 = now_seconds();
	if (o->output && output_check(o->output, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	if (collect_plan(&x) < 0)
		goto out;
	x.acc = xcalloc((size_t)o->n_users + 1, sizeof(*x.acc));
	x.counts = xcalloc((size_t)x.n_threads, sizeof(*x.counts));
	for (i = 0; i < x.n_threads; i++)
		x.counts[i].run = -1;
	x.vals = xcalloc((size_t)(x.n_hw + STALL_SW_COUNT + o->n_users + 1),
			 sizeof(*x.vals));
	x.s = scaling_new();
	describe(&x);
	if (collect_runs(&x) < 0)
		goto out;
	ret = collect_show(&x);
out:
	collect_release(&x);
	return ret;
}
