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

#include <jansson.h>

#include "builtin.h"
#include "builtin/explain.h"
#include "builtin/parse-options.h"
#include "common/cpuexpr.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/defaults.h"
#include "predictor/pandia/model.h"
#include "predictor/stacks.h"
#include "profiler/stalls.h"
#include "profiler/run.h"

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
"are replaced.  Without CMD, the command WORKLOAD records, with\n"
"--recorded only: a description is data, and its command is shown\n"
"first.\n"
"\n"
"options:\n"
"  -m, --machine FILE|NAME machine description, a file or a name\n"
"                          (default: this host's)\n"
"  -w, --workload FILE     workload description with the Pandia model\n"
"      --recorded          without -- CMD: run the command WORKLOAD records\n"
"                          (shown first); without it, only shown\n"
"  -p, --placements LIST   placements separated by ';', each a CPU list\n"
"                          or expression as 'pandia run --cpus' takes it\n"
"                          (\"0;0,1;0,0,1,1\", \"S0:0-3\"), or sweep: 1 to n\n"
"                          threads packed (the default); may be repeated\n"
"  -r, --repetitions N     runs of each placement (default 1), in rounds\n"
"                          of one run each in turn; the stack is the run\n"
"                          of the median time\n"
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
"  -v, --verbose           notes said once on this host (why perf cannot\n"
"                          count here, demands known as bounds) in full\n"
"                          again\n"
"\n"
"exit status: 0 success, 1 a placement failed (the others are still\n"
"shown and written) or another failure, 2 usage.\n"
"See pandia-explain(1) and docs/stacks.md.\n";

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
	OPT_FLAG(0, "recorded", O, recorded),
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
	OPT_SHARED(opt_verbose),
	OPT_END(),
};
#undef O

/* The shared options C into *O. */
static void take_common(struct cli *o, const struct opt_common *c)
{
	o->machine_path = c->machine;
	o->reps = c->reps;
	o->warmup = c->warmup;
	o->hw = c->counters;
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

/* ---- the command -------------------------------------------------- */

static int explain(struct xctx *x)
{
	json_t *root;
	char *text;
	int sig = 0, ret = 1;

	if (plan_places(x) < 0 || explain_predict(x) < 0)
		return 1;
	plan_t1(x);
	if (x->o->dir && explain_check_dir(x->o->dir) < 0)
		return 1;
	x->shim = run_find_shim(NULL);
	if (!x->shim) {
		error("cannot find libpandia-pin.so next to pandia (build it "
		      "with make, or set PANDIA_PIN_LIB): no per-thread "
		      "accounting without it");
		return 1;
	}
	explain_plan_hardware(x);
	if (!x->o->quiet)
		progress("explain", "%d placement%s, %d run%s each%s; t1 from "
			 "%s", x->n_pl, x->n_pl == 1 ? "" : "s", x->o->reps,
			 x->o->reps == 1 ? "" : "s", x->o->warmup ?
			 " after a warm-up" : "", x->t1_text);
	sig = explain_measure(x);
	if (!sig)
		sig = run_caught_signal();
	if (sig) {
		error("interrupted by signal %d", sig);
		run_reraise(sig);
	}
	if (explain_build_measured(x) < 0)
		x->failed++;
	explain_check_sums(x);

	root = explain_to_json(x);
	text = json_to_text(root);
	json_decref(root);
	if (x->o->json)
		fputs(text, stdout);
	else
		explain_print_text(x);
	if (x->o->dir && explain_save_files(x, text) < 0)
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
		o.argv = recorded_command("explain", x.w, o.workload_path,
					  o.recorded, false, false);
		o.own_argv = true;
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
