/*
 * tune.c - pandia tune: the few placements the model says are worth
 * measuring, measured round robin until one is the fastest beyond
 * doubt or the budget is spent, and whether pinning helps at all
 * (docs/tune.md).  This file: the command line, the description (a
 * --quick profile first without -w) and the order of the steps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "builtin/tune.h"
#include "common/shellword.h"
#include "common/util.h"
#include "profiler/profile.h"

const char usage_tune[] =
"usage: pandia tune [-m MACHINE] [-w WORKLOAD] [options] [-- CMD [ARG...]]\n"
"\n"
"Measure the few placements the model says are worth measuring and\n"
"report the measured best: the predicted best, every placement whose\n"
"predicted range overlaps the best's, the best of the thread counts\n"
"next to it, and what users get without pandia (every PU unpinned,\n"
"OMP_PROC_BIND=close and spread), as many as the budget allows.  They\n"
"run round robin, one run each per round; a candidate slower than the\n"
"leader beyond doubt (Welch's t on log times) is dropped, and tuning\n"
"stops when one leads every other with the confidence asked or the\n"
"budget is spent.  The verdict says how much faster the best is than\n"
"the OS scheduler, or that pinning does not help.  {threads} and\n"
"{cpus} in the arguments are replaced.  Without CMD, the command\n"
"WORKLOAD was profiled with.\n"
"\n"
"options:\n"
"  -m, --machine FILE|NAME machine description (default: this host's,\n"
"                          looked up where pandia machine writes)\n"
"  -w, --workload FILE     workload description (pandia-workload/1);\n"
"                          without it, a --quick profile of CMD first\n"
"  -k, --oversubscribe K   placements with up to K threads per PU\n"
"                          (default 1)\n"
"      --budget X|Nx       the measured runs' time at most: X seconds,\n"
"                          or N times the predicted best's time\n"
"                          (default 20x)\n"
"      --confidence P      how sure the leader must be to stop early,\n"
"                          and the intervals' level (default 0.95)\n"
"  -o, --output FILE       write the description with the runs measured\n"
"                          added (runs tune-1, tune-2 ...) and the model\n"
"                          refitted with them\n"
"      --json              the result as JSON (pandia-tune/1)\n"
"      --time-from REGEX   time from the command's output (the number\n"
"                          after the last line matching REGEX, or its\n"
"                          first group) instead of its wall time\n"
"      --timeout SEC       a run that takes longer fails\n"
"      --runner TEMPLATE   run TEMPLATE with /bin/sh instead of CMD, its\n"
"                          {cpus} {threads} {cmd} replaced (a workload\n"
"                          run elsewhere or simulated: MACHINE need not\n"
"                          be this host)\n"
"      --memory POLICY     predict with the memory local, interleave,\n"
"                          spread, even or node:N (default: the\n"
"                          workload's)\n"
RUN_MEM_USAGE
"      --model NAME        the model that chooses the candidates\n"
"                          (default pandia)\n"
"      --force             tune a workload profiled elsewhere, or on a\n"
"                          machine description not of this host\n"
"  -q, --quiet             no progress lines\n"
"\n"
"exit status: 0 success, 1 a candidate failed (the others are still\n"
"measured and reported) or another failure, 2 usage.\n"
"See pandia-tune(1) and docs/tune.md.\n";

/* "20x" (a multiple of the predicted best) or "30" seconds, > 0. */
static void budget_cb(const char *cmd, const struct option *opt,
		      void *field, const char *arg)
{
	struct tune_cli *o = OPT_CONTAINER(field, struct tune_cli, budget);
	size_t len = strlen(arg);
	char *num = xstrdup(arg);
	bool ok;

	(void)opt;
	o->budget_times = len > 1 && (arg[len - 1] == 'x' ||
				      arg[len - 1] == 'X');
	if (o->budget_times)
		num[len - 1] = '\0';
	ok = parse_double(num, &o->budget) && isfinite(o->budget) &&
		o->budget > 0;
	free(num);
	if (!ok)
		usage_error(cmd, "--budget takes seconds > 0 or a multiple of "
			    "the predicted best's time (20x), not '%s'", arg);
}

static void confidence_cb(const char *cmd, const struct option *opt,
			  void *field, const char *arg)
{
	double *c = field;

	(void)opt;
	if (!parse_double(arg, c) || !(*c >= 0.5 && *c <= 0.9999))
		usage_error(cmd, "--confidence takes a probability from 0.5 to "
			    "0.9999, not '%s'", arg);
}

#define O struct tune_cli
static const struct option tune_options[] = {
	OPT_STRING('w', "workload", O, workload_path),
	OPT_CALLBACK(0, "budget", O, budget, budget_cb),
	OPT_CALLBACK(0, "confidence", O, confidence, confidence_cb),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_oversubscribe),
	OPT_SHARED(opt_output),
	OPT_SHARED(opt_json),
	OPT_SHARED(opt_timing),
	OPT_SHARED(opt_runner),
	OPT_SHARED(opt_mempolicy),
	OPT_SHARED(opt_memory),
	OPT_SHARED(opt_model),
	OPT_SHARED(opt_force),
	OPT_SHARED(opt_quiet),
	OPT_END(),
};
#undef O

static void parse_args(int argc, char **argv, struct tune_cli *o)
{
	struct opt_common c;
	int first;

	memset(o, 0, sizeof(*o));
	o->budget = 20;
	o->budget_times = true;
	o->confidence = 0.95;
	opt_common_init(&c, 1);
	first = parse_options("tune", argc, argv, tune_options, o, &c);
	o->machine_path = c.machine;
	o->k = c.k;
	o->output = c.output;
	o->json = c.json;
	o->time_from = c.time_from;
	o->timeout = c.timeout;
	o->runner = c.runner;
	o->has_memory = c.has_memory;
	o->memory = c.memory;
	o->mem = c.mem;
	o->model = c.model;
	o->model_given = c.model_given;
	o->force = c.force;
	o->quiet = c.quiet;
	if (first < argc)
		o->argv = argv + first;
	if (!o->workload_path && !o->argv && !o->runner)
		usage_error("tune", "no command given: pandia tune [-m "
			    "MACHINE] [-w WORKLOAD] -- CMD [ARG...]");
	if (o->model->sizes)
		usage_error("tune", "--model %s predicts time against input "
			    "size, not placements", o->model->name);
}

/* Without -w: a --quick profile of the command, as 'pandia profile'. */
static struct pandia_workload *quick_profile(struct tctx *t)
{
	struct tune_cli *o = t->o;
	struct profile_opts po;
	struct profile_result res;
	struct pandia_error err;
	struct pandia_workload *w = NULL;
	char *shim = NULL;
	int i;

	profile_opts_init(&po);
	po.m = t->m;
	po.machine_file = o->machine_path;
	po.argv = o->argv;
	po.quick = true;
	po.budget = 6;		/* profile's --quick default */
	/* the profile only picks the candidates, which tune measures: a
	   parameter too uncertain to rank with is said, not refused */
	po.keep_unreliable = true;
	po.runner = o->runner;
	po.time_from = o->time_from;
	po.timeout = o->timeout;
	po.mem = o->mem.mode != RUN_MEM_DEFAULT ? &o->mem : NULL;
	po.has_memory = o->has_memory;
	po.memory = o->memory;
	po.model = o->model_given ? o->model : NULL;
	if (!o->runner)
		po.shim_path = shim = run_find_shim(pandia_exe_dir());
	if (!o->quiet)
		progress("tune", "no workload description (-w): profiling "
			 "the command first, as pandia profile --quick does");
	profile_result_init(&res);
	if (profile_workload(&po, &res, &err) < 0) {
		perr_print(&err, stderr);
		if (res.failed_stderr)
			error("the command's stderr ended with:\n%s",
			      res.failed_stderr);
		if (res.interrupted)
			run_reraise(res.interrupted);
		goto out;
	}
	for (i = 0; i < res.n_warnings; i++)
		warning("%s", res.warnings[i]);
	if (!o->quiet)
		progress("tune", "profiled in %.1f s", res.seconds);
	w = res.w;
	res.w = NULL;
out:
	free(shim);
	profile_result_release(&res);
	return w;
}

/* The command: given, or the one the description was profiled with. */
static int take_command(struct tune_cli *o, const struct pandia_workload *w)
{
	char *cmd;
	int i;

	if (o->argv)
		return 0;
	if (!w->n_command) {
		if (o->runner) {	/* the template is the command */
			o->argv = xcalloc(1, sizeof(char *));
			o->own_argv = true;
			return 0;
		}
		usage_error("tune", "no command given, and '%s' records none: "
			    "pandia tune ... -- CMD [ARG...]",
			    o->workload_path);
	}
	o->argv = xcalloc((size_t)w->n_command + 1, sizeof(char *));
	for (i = 0; i < w->n_command; i++)
		o->argv[i] = w->command[i];
	o->own_argv = true;
	cmd = shell_join(o->argv);
	if (!o->quiet)
		progress("tune", "running the command that '%s' was profiled "
			 "with: %s", o->workload_path, cmd);
	free(cmd);
	return 0;
}

/* The description: -w's, checked against the machine, or a profile. */
static int open_workload(struct tctx *t)
{
	struct tune_cli *o = t->o;
	struct pandia_error err;
	char *why = NULL;

	if (!o->runner &&
	    check_this_host(t->m, o->machine_path, o->force, "tuning",
			    "(or --runner for a workload that runs on "
			    "another machine or in a simulator)") < 0)
		return -1;
	if (!o->workload_path) {
		t->w = quick_profile(t);
		return t->w ? 0 : -1;
	}
	t->w = workload_load(o->workload_path, &err);
	if (!t->w)
		return error_perr(&err);
	if (!workload_machine_matches(t->w, t->m, &why)) {
		if (!o->force) {
			error("workload '%s' was profiled on another machine "
			      "than '%s': %s\npandia: profile it on this "
			      "machine, or use --force to tune anyway",
			      o->workload_path, o->machine_path, why);
			free(why);
			return -1;
		}
		warning("workload '%s' was profiled on another machine (%s); "
			"tuning anyway", o->workload_path, why);
		free(why);
	}
	return take_command(o, t->w);
}

/* What tuning gave: said, written, and the exit status. */
static int finish(struct tctx *t)
{
	int ret = 0;

	tune_verdict(t->st, t->n_cands, t->o->confidence, &t->v);
	if (t->interrupted)
		error("interrupted by signal %d in round %d: what was "
		      "measured follows", t->interrupted, t->rounds);
	if (t->o->json)
		tune_print_json(t);
	else
		tune_print(t);
	if (fflush(stdout) != 0)
		ret = 1;
	if (t->o->output && tune_save(t, t->o->output) < 0)
		ret = 1;
	else if (!t->o->output && !t->o->quiet)
		progress("tune", "the runs are not kept: -o FILE writes the "
			 "description with them");
	if (t->interrupted)
		run_reraise(t->interrupted);
	if (t->failed) {
		error("%d of %d candidates failed (see above)", t->failed,
		      t->n_cands);
		ret = 1;
	}
	return ret;
}

int cmd_tune(int argc, char **argv)
{
	struct pandia_error err;
	struct tune_cli o;
	struct tctx t;
	char *mpath = NULL;
	int ret = 1;

	parse_args(argc, argv, &o);
	memset(&t, 0, sizeof(t));
	t.o = &o;
	t.t0 = now_seconds();
	if (o.output && output_check(o.output, &err) < 0) {
		perr_print(&err, stderr);
		return 1;
	}
	t.m = open_machine(o.quiet ? NULL : "tune", o.machine_path, true,
			   &mpath);
	if (!t.m)
		return 1;
	o.machine_path = mpath;
	if (open_workload(&t) < 0)
		goto out;
	if (o.model->unmeasured)
		o.model->unmeasured(t.w, t.m, o.k, warning_text, NULL);
	if (tune_plan(&t) < 0 || tune_measure(&t) < 0)
		goto out;
	ret = finish(&t);
out:
	tune_release(&t);
	if (o.own_argv)
		free(o.argv);
	workload_free(t.w);
	machine_free(t.m);
	free(mpath);
	return ret;
}
