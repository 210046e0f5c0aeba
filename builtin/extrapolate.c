/*
 * cmd_extrapolate.c - pandia extrapolate: scaling past the cores
 * measured (ESTIMA; docs/extrapolate.md).
 *
 * Two halves: collecting the runs (the command at 1..m threads, one
 * per core, packed; time and every stall category of profiler/stalls.h
 * per run, into a pandia-scaling/1 file), and extrapolating recorded
 * runs with predictor/estima.h (a table or JSON, and a figure drawn by
 * gnuplot).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/strbuf.h"
#include "common/util.h"
#include "predictor/defaults.h"
#include "predictor/estima.h"
#include "predictor/scaling.h"
#include "profiler/counters.h"
#include "profiler/run.h"
#include "profiler/stalls.h"

const char usage_extrapolate[] =
"usage: pandia extrapolate [-m MACHINE] [options] -- CMD [ARG...]\n"
"   or: pandia extrapolate --runs RUNS.json --to N|MACHINE [options]\n"
"\n"
"Predict how CMD scales past the cores measured, as ESTIMA does: from\n"
"runs at 1..m threads, each category of stalled cycles is extrapolated\n"
"alone and their sum per core turned back into time.\n"
"\n"
"The first form collects the runs: CMD at every thread count up to the\n"
"cores of MACHINE (one thread per core, a socket filled before the\n"
"next), pinned by the runner of 'pandia run' ({threads} and {cpus} in\n"
"the arguments are replaced), recording the time and every stall\n"
"category of each run: backend stall events counted by perf, software\n"
"stalls, and the categories given with --category.  The second form\n"
"extrapolates recorded runs to N threads (or to the cores of MACHINE):\n"
"the time and speedup at every count up to N, the scaling limit, each\n"
"category's fit, and the time extrapolated directly beside it.\n"
"\n"
"collecting:\n"
"  -m, --machine FILE|NAME machine description (this host's, or the\n"
"                          simulated one of a --runner template): a\n"
"                          file or a name; default: this host's\n"
"  -o, --output FILE       write the runs (pandia-scaling/1) to FILE,\n"
"                          after every thread count; default: stdout\n"
"  -t, --threads LIST      the thread counts, e.g. 1-8 or 1,2,4,8\n"
"                          (default 1 to the number of cores)\n"
"  -r, --repetitions N     measured runs per count (default 3; the\n"
"                          median time and stalls are kept)\n"
"      --no-warmup         no unmeasured run first\n"
"      --category NAME=REGEX:REDUCER\n"
"                          a stall category from the output: the number\n"
"                          in the lines matching REGEX (its first group,\n"
"                          or the number after it), reduced over a run by\n"
"                          min, max, sum or avg; cycles, or seconds when\n"
"                          followed by s, ms, us or ns; repeatable\n"
"      --counters MODE     hardware stall categories: auto (perf when it\n"
"                          can count here, the default), perf (or fail),\n"
"                          probe (none counted; 'none' is taken too)\n"
"      --frequency HZ      the clock of the machine measured on, to turn\n"
"                          seconds into cycles (default: this host's)\n"
"      --runner TEMPLATE   run TEMPLATE with /bin/sh instead of CMD, its\n"
"                          {cpus} {threads} {cmd} replaced: a simulator\n"
"      --time-from REGEX   time from the command's output instead of its\n"
"                          wall time\n"
"      --timeout SEC       a run that takes longer fails\n"
RUN_MEM_USAGE
"      --force             measure on a machine description not of this\n"
"                          host\n"
"  -q, --quiet             no progress lines\n"
"\n"
"extrapolating (also after collecting, when --to is given):\n"
"      --runs FILE         the runs to extrapolate (pandia-scaling/1)\n"
"      --to N|MACHINE      predict 1..N threads, or one per core of\n"
"                          MACHINE\n"
"      --checkpoints C     the last C runs judge the fits (default 2)\n"
"      --target-frequency HZ\n"
"                          the target's clock: times are scaled by the\n"
"                          runs' frequency / HZ\n"
"      --json              the result as JSON on stdout\n"
"  -o, --output DIR        with --runs: write DIR/extrapolate.json,\n"
"                          extrapolate.gp and extrapolate.png\n"
"\n"
"exit status: 0 success, 1 a run failed, too few runs or another\n"
"failure, 2 usage.\n"
"See pandia-extrapolate(1) and docs/extrapolate.md.\n";

enum hw_mode { HW_AUTO, HW_PERF, HW_NONE };

struct cli {
	/* collecting */
	const char *machine_path, *output, *threads_arg, *runner;
	const char *time_from;
	int reps;
	bool warmup, force, quiet;
	struct stall_user *users;
	int n_users;
	enum hw_mode hw;
	double frequency;
	double timeout;
	struct run_mempolicy mem;	/* --membind ... for the runs */
	char **argv;		/* the command, NULL-terminated, or NULL */
	/* extrapolating */
	const char *runs_path, *to;
	int checkpoints;
	double target_frequency;
	bool json;
};

static void category_cb(const char *cmd, const struct option *opt,
			void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, users);
	struct pandia_error err;

	(void)opt;
	o->users = xrealloc(o->users, sizeof(*o->users) *
			    (size_t)(o->n_users + 1));
	if (stall_user_parse(arg, &o->users[o->n_users], &err) < 0)
		usage_error(cmd, "%s", err.text);
	o->n_users++;
}

static void frequency_cb(const char *cmd, const struct option *opt,
			 void *field, const char *arg)
{
	double *f = field;

	if (!parse_double(arg, f) || !(*f > 0) || !isfinite(*f))
		usage_error(cmd, "--%s takes a clock in Hz > 0 (2.1e9), not "
			    "'%s'", opt->long_name, arg);
}

#define O struct cli
static const struct option extrapolate_options[] = {
	OPT_STRING('t', "threads", O, threads_arg),
	OPT_CALLBACK(0, "category", O, users, category_cb),
	OPT_CALLBACK(0, "frequency", O, frequency, frequency_cb),
	OPT_STRING(0, "runs", O, runs_path),
	OPT_STRING(0, "to", O, to),
	OPT_CALLBACK_VAL(0, "checkpoints", O, checkpoints, opt_int_min, 1),
	OPT_CALLBACK(0, "target-frequency", O, target_frequency,
		     frequency_cb),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_output),
	OPT_SHARED(opt_reps),
	OPT_SHARED(opt_counters),
	OPT_SHARED(opt_runner),
	OPT_SHARED(opt_timing),
	OPT_SHARED(opt_memory),
	OPT_SHARED(opt_force),
	OPT_SHARED(opt_json),
	OPT_SHARED(opt_quiet),
	OPT_END(),
};
#undef O

/* The shared options C into *O. */
static void take_common(struct cli *o, const struct opt_common *c)
{
	o->machine_path = c->machine;
	o->output = c->output;
	o->reps = c->reps;
	o->warmup = c->warmup;
	o->hw = c->counters == COUNTERS_PERF ? HW_PERF :
		c->counters == COUNTERS_PROBE ? HW_NONE : HW_AUTO;
	o->runner = c->runner;
	o->time_from = c->time_from;
	o->timeout = c->timeout;
	o->mem = c->mem;
	o->force = c->force;
	o->json = c->json;
	o->quiet = c->quiet;
}

/* Each --category once, and none named as a software one. */
static void check_categories(const struct cli *o)
{
	int c, k;

	for (c = 0; c < o->n_users; c++) {
		if (!strncmp(o->users[c].name, "sw_", 3))
			usage_error("extrapolate", "--category %s: names "
				    "starting with sw_ are the software "
				    "categories'", o->users[c].name);
		for (k = 0; k < c; k++)
			if (!strcmp(o->users[k].name, o->users[c].name))
				usage_error("extrapolate", "--category %s is "
					    "given twice", o->users[c].name);
	}
}

static void parse_args(int argc, char **argv, struct cli *o)
{
	struct opt_common c;
	int first;

	memset(o, 0, sizeof(*o));
	o->checkpoints = 2;
	opt_common_init(&c, 3);
	c.counters_none = true;
	first = parse_options("extrapolate", argc, argv, extrapolate_options,
			      o, &c);
	take_common(o, &c);
	if (first < argc)
		o->argv = argv + first;
	check_categories(o);
	if (o->runs_path) {
		if (o->machine_path || o->argv || o->runner)
			usage_error("extrapolate", "--runs extrapolates "
				    "recorded runs: it takes no -m, --runner "
				    "or command");
		if (!o->to)
			usage_error("extrapolate", "--to N|MACHINE is "
				    "required with --runs");
		return;
	}
	if (!o->argv && !o->runner)
		usage_error("extrapolate", "no command given: pandia "
			    "extrapolate %s%s-- CMD [ARG...]",
			    o->machine_path ? "-m " : "",
			    o->machine_path ? o->machine_path : "");
	if (!o->to && (o->json || o->target_frequency > 0))
		usage_error("extrapolate", "--json and --target-frequency "
			    "are about the extrapolation: give --to N|MACHINE "
			    "too, or extrapolate later with --runs");
}

static void cli_release(struct cli *o)
{
	int i;

	for (i = 0; i < o->n_users; i++)
		stall_user_release(&o->users[i]);
	free(o->users);
}

/* ---- small helpers ------------------------------------------------ */

/* ---- the target N ------------------------------------------------- */

/* N from "--to N|MACHINE"; *what gets a description (new string) */
static int parse_target(const char *to, int *n, char **what)
{
	struct pandia_machine *m;
	char *path;

	if (parse_int(to, n)) {
		if (*n < 1)
			usage_error("extrapolate", "--to takes a thread count "
				    ">= 1 or a machine description, not '%s'",
				    to);
		*what = xasprintf("%d threads", *n);
		return 0;
	}
	/* a file or a name, as -m takes it */
	m = open_machine("extrapolate", to, true, &path);
	if (!m)
		return -1;
	*n = m->n_cores;
	*what = xasprintf("%d threads, one per core of %s", *n, to);
	free(path);
	machine_free(m);
	return 0;
}

/* ---- extrapolating ------------------------------------------------- */

static void print_report(const struct pandia_scaling *s,
			 const struct estima_result *r, const char *source,
			 const char *target)
{
	const char *unit = s->stall_unit ? s->stall_unit : "cycles";
	int N = r->target, m = s->runs[s->n_runs - 1].threads, n, i, k;
	char fit[256], at_n[32];
	double total;

	printf("ESTIMA: %d runs of %s (%d to %d threads, %d stall "
	       "categor%s) extrapolated to %s, %d checkpoints", s->n_runs,
	       source, s->runs[0].threads, m, s->n_categories,
	       s->n_categories == 1 ? "y" : "ies", target, r->checkpoints);
	if (r->freq_ratio != 1)
		printf(", times scaled by %.4g (frequency)", r->freq_ratio);
	printf("\n\n%7s %12s %8s %12s %12s %14s\n", "threads", "time (s)",
	       "speedup", "measured (s)", "baseline (s)", "stalls/core");
	for (n = 1, i = 0; n <= N; n++) {
		printf("%7d %12.5g %8.3g", n, r->time[n - 1],
		       r->speedup[n - 1]);
		while (i < r->n_runs && r->run_threads[i] < n)
			i++;
		if (i < r->n_runs && r->run_threads[i] == n)
			printf(" %12.5g", r->run_time[i]);
		else
			printf(" %12s", "-");
		if (r->baseline.ok)
			printf(" %12.5g", r->baseline.time[n - 1]);
		else
			printf(" %12s", "-");
		printf(" %14.4g%s\n", r->stalls_per_core[n - 1],
		       n == r->limit ? "  <- limit" : "");
	}
	printf("\nscaling limit     %d threads: %.5g s, speedup %.3g",
	       r->limit, r->time[r->limit - 1], r->speedup[r->limit - 1]);
	if (r->limit == N)
		printf(" (still scaling at %d)", N);
	printf("\nbaseline          ");
	if (r->baseline.ok) {
		estima_fit_format(&r->baseline.fit, fit, sizeof(fit));
		printf("time extrapolated directly: limit %d%s; %s\n",
		       r->baseline.limit, r->baseline.limit == N ?
		       " (keeps scaling)" : "", fit);
	} else {
		printf("time extrapolated directly: no fit (%s)\n",
		       r->baseline.why);
	}
	estima_fit_format(&r->factor, fit, sizeof(fit));
	printf("factor T/S        %s, correlation %.4f\n", fit,
	       r->factor.corr);

	printf("\ncategories (%s, summed over threads; the share of "
	       "stalls at %d threads)\n", unit, N);
	snprintf(fit, sizeof(fit), "at %d", m);
	snprintf(at_n, sizeof(at_n), "at %d", N);
	printf("  %-16s %-8s %5s %12s %12s %12s %6s\n", "category", "kernel",
	       "runs", "rmse", fit, at_n, "share");
	total = 0;
	for (k = 0; k < r->n_categories; k++)
		total += r->categories[k].values[N - 1];
	for (k = 0; k < r->n_categories; k++) {
		const struct estima_category *c = &r->categories[k];

		printf("  %-16s %-8s %5d %12.4g %12.4g %12.4g %5.1f%%\n",
		       c->name, estima_kernel_name(c->fit.kernel),
		       c->fit.points, c->fit.rmse, c->values[m - 1],
		       c->values[N - 1], total > 0 ? 100 *
		       c->values[N - 1] / total : 0.0);
	}
	printf("  (runs: the prefix fitted; rmse at the %d checkpoints)\n",
	       r->checkpoints);
}

/* DIR/extrapolate.gp: time above, stalls per core by category below */
static char *gnuplot_script(const struct pandia_scaling *s,
			    const struct estima_result *r, const char *title)
{
	const char *unit = s->stall_unit ? s->stall_unit : "cycles";
	int N = r->target, m = s->runs[s->n_runs - 1].threads, n, j, k;
	struct strbuf b = STRBUF_INIT, *f = &b;
	strbuf_printf(f, "# pandia extrapolate: the measured runs, ESTIMA's "
		"prediction and the\n# time extrapolated directly (above); "
		"each stall category per core (below).\n"
		"# Draw it again: gnuplot extrapolate.gp\n");
	strbuf_printf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		"  set terminal pngcairo size 1000,900 font \",10\"\n"
		"} else {\n  set terminal png size 1000,900\n}\n"
		"set output \"extrapolate.png\"\nset datafile missing \"?\"\n");
	strbuf_printf(f, "$pred << EOD\n# threads time baseline");
	for (k = 0; k < r->n_categories; k++)
		strbuf_printf(f, " %s/n", r->categories[k].name);
	strbuf_printf(f, "\n");
	for (n = 1; n <= N; n++) {
		strbuf_printf(f, "%d %.6g", n, r->time[n - 1]);
		if (r->baseline.ok)
			strbuf_printf(f, " %.6g", r->baseline.time[n - 1]);
		else
			strbuf_printf(f, " ?");
		for (k = 0; k < r->n_categories; k++)
			strbuf_printf(f, " %.6g", r->categories[k].values[n - 1] /
				n);
		strbuf_printf(f, "\n");
	}
	strbuf_printf(f, "EOD\n$meas << EOD\n# threads time(measured, "
		"frequency-corrected) stalls/n by category\n");
	for (j = 0; j < s->n_runs; j++) {
		strbuf_printf(f, "%d %.6g", r->run_threads[j], r->run_time[j]);
		for (k = 0; k < s->n_categories; k++)
			strbuf_printf(f, " %.6g", s->runs[j].stalls[k] /
				s->runs[j].threads);
		strbuf_printf(f, "\n");
	}
	strbuf_printf(f, "EOD\n");
	strbuf_printf(f, "set multiplot layout 2,1 title ");
	strbuf_gnuplot_string(f, title);
	strbuf_printf(f, " noenhanced\n");
	strbuf_printf(f, "set grid\nset key top right noenhanced\n"
		"set xrange [0.5:%d.5]\nset yrange [0:*]\n"
		"set arrow 1 from %g, graph 0 to %g, graph 1 nohead dt 3 "
		"lc rgb \"#555555\"\n", N, m + 0.5, m + 0.5);
	strbuf_printf(f, "set xlabel \"threads (one per core; measured up to %d, "
		"extrapolated beyond)\"\n", m);
	strbuf_printf(f, "set ylabel \"time (s)\"\n");
	strbuf_printf(f, "plot $pred using 1:2 with lines lw 2 lc rgb \"#d9480f\" "
		"title \"ESTIMA (limit %d)\", \\\n", r->limit);
	if (r->baseline.ok)
		strbuf_printf(f, "     $pred using 1:3 with lines lw 1.5 dt 2 "
			"lc rgb \"#777777\" title \"time extrapolated "
			"directly (limit %d)\", \\\n", r->baseline.limit);
	strbuf_printf(f, "     $meas using 1:2 with points pt 7 ps 1 "
		"lc rgb \"#1f4e9c\" title \"measured\"\n");
	strbuf_printf(f, "set ylabel \"stalls per core (%s)\"\n", unit);
	strbuf_printf(f, "plot ");
	for (k = 0; k < r->n_categories; k++) {
		strbuf_printf(f, "%s$pred using 1:%d with lines lw 1.5 lc %d "
			"title ", k ? ", \\\n     " : "", 4 + k, k + 1);
		strbuf_gnuplot_string(f, r->categories[k].name);
		strbuf_printf(f, ", \\\n     $meas using 1:%d with points "
			"pt 7 ps 0.8 lc %d notitle", 3 + k, k + 1);
	}
	strbuf_printf(f, "\nunset multiplot\n");
	return b.s;
}

static int save_text(const char *dir, const char *name, const char *text,
		     struct pandia_error *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file_atomic(path, text, strlen(text), err);

	free(path);
	return ret;
}

/* DIR/extrapolate.json, .gp and .png (a warning when not drawn) */
static int write_dir(const char *dir, const struct pandia_scaling *s,
		     const struct estima_result *r, json_t *root,
		     const char *source)
{
	struct pandia_error err;
	char *text, *title, *script;
	char *gp_args[] = { "extrapolate.gp", NULL };
	const char *prog;
	int ret = -1;

	if (make_dir(dir, &err) < 0)
		return error_perr(&err);
	text = json_to_text(root);
	if (save_text(dir, "extrapolate.json", text, &err) < 0) {
		free(text);
		return error_perr(&err);
	}
	free(text);
	prog = s->n_command ? strrchr(s->command[0], '/') : NULL;
	title = xasprintf("%s: ESTIMA from %d runs at %d..%d threads to %d%s%s"
			  "%s", s->n_command ? (prog ? prog + 1 :
			  s->command[0]) : source, s->n_runs,
			  s->runs[0].threads, s->runs[s->n_runs - 1].threads,
			  r->target, s->n_command ? " (" : "",
			  s->n_command ? source : "",
			  s->n_command ? ")" : "");
	script = gnuplot_script(s, r, title);
	free(title);
	if (save_text(dir, "extrapolate.gp", script, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	ret = 0;
	if (run_tool("gnuplot", "PANDIA_GNUPLOT", dir, gp_args, &err) < 0) {
		if (errno == ENOENT)
			warning("gnuplot not found: %s/extrapolate.png not "
				"drawn ('gnuplot extrapolate.gp' in %s draws "
				"it; scripts/install-deps installs gnuplot)",
				dir, dir);
		else
			warning("%s: %s/extrapolate.png not drawn", err.text,
				dir);
	}
out:
	free(script);
	return ret;
}

/*
 * Whether there are runs enough for ESTIMA; when not, say how many
 * more are needed: an error (FATAL), else a note on stdout.
 */
static bool enough_runs(const struct pandia_scaling *s, const char *source,
			int checkpoints, bool fatal)
{
	int need = estima_runs_needed(checkpoints), last;
	char *msg;

	if (s->n_runs >= need)
		return true;
	last = s->n_runs ? s->runs[s->n_runs - 1].threads : 0;
	msg = xasprintf("%s: %d run%s: too few to extrapolate from; ESTIMA "
			"needs %d with %d checkpoint%s (3 to fit, then the "
			"checkpoints): %d more, e.g. --threads 1-%d", source,
			s->n_runs, s->n_runs == 1 ? "" : "s", need,
			checkpoints, checkpoints == 1 ? "" : "s",
			need - s->n_runs, last + need - s->n_runs);
	if (fatal)
		error("%s", msg);
	else
		printf("%s\n", msg);
	free(msg);
	return false;
}

static int extrapolate(const struct cli *o, const struct pandia_scaling *s,
		       const char *source, const char *dir)
{
	struct estima_options opt;
	struct estima_result *r = NULL;
	struct pandia_error err;
	char *target = NULL;
	json_t *root = NULL;
	int ret = 1;

	estima_options_init(&opt);
	if (parse_target(o->to, &opt.target, &target) < 0)
		return 1;
	opt.checkpoints = o->checkpoints;
	if (o->target_frequency > 0) {
		if (!(s->frequency > 0)) {
			error("%s records no frequency: --target-frequency "
			      "needs the clock of the machine measured on "
			      "(the runs file's \"frequency\")", source);
			goto out;
		}
		opt.freq_ratio = s->frequency / o->target_frequency;
	}
	if (!enough_runs(s, source, o->checkpoints, true))
		goto out;
	if (!s->n_categories) {
		error("%s records no stall category: ESTIMA extrapolates "
		      "stalls (collect with --category, or where perf counts "
		      "backend stalls)", source);
		goto out;
	}
	r = estima_run(s, &opt, &err);
	if (!r) {
		error("%s: %s", source, err.text);
		goto out;
	}
	root = estima_result_to_json(r);
	json_object_set_new(root, "runs_file", json_string(source));
	json_object_set_new(root, "stall_unit", json_string(s->stall_unit ?
					s->stall_unit : "cycles"));
	if (dir && write_dir(dir, s, r, root, source) < 0)
		goto out;
	if (o->json) {
		char *text = json_to_text(root);

		fputs(text, stdout);
		free(text);
	} else {
		print_report(s, r, source, target);
	}
	ret = 0;
out:
	json_decref(root);
	estima_result_free(r);
	free(target);
	return ret;
}

static int cmd_runs(const struct cli *o)
{
	struct pandia_scaling *s;
	struct pandia_error err;
	int ret;

	s = scaling_load(o->runs_path, &err);
	if (!s) {
		error_perr(&err);
		return 1;
	}
	ret = extrapolate(o, s, o->runs_path, o->output);
	scaling_free(s);
	return ret;
}

/* ---- collecting ---------------------------------------------------- */

/* one value of one category at one thread count */
struct value {
	const char *name;
	double v;
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
	/* user categories: acc[run * n_users + k], runs 0..reps */
	struct stall_acc *acc;
	int unit_error;		/* a category in seconds, no clock: k+1 */
	int cur_run_base;
	/* what the run at this count gave */
	struct value *vals;
	int n_vals;
	double t0;
};

static void on_line(const char *line, int run, void *data)
{
	struct collect *x = data;
	const struct cli *o = x->o;
	double v;
	bool secs;
	int k;

	if (run < 1 || run > o->reps)
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
		stall_acc_add(&x->acc[run * o->n_users + k], v);
	}
}

static void add_value(struct collect *x, const char *name, double v)
{
	x->vals[x->n_vals].name = name;
	x->vals[x->n_vals].v = v;
	x->n_vals++;
}

/* the user categories of this count, median over the runs */
static int user_values(struct collect *x, int n)
{
	const struct cli *o = x->o;
	double *v = xcalloc((size_t)o->reps + 1, sizeof(double));
	int k, j, ret = -1;

	if (x->unit_error) {
		const struct stall_user *u = &o->users[x->unit_error - 1];

		error("category '%s': the output gives seconds, and the clock "
		      "frequency is not known to turn them into cycles: give "
		      "--frequency HZ", u->name);
		goto out;
	}
	for (k = 0; k < o->n_users; k++) {
		const struct stall_user *u = &o->users[k];

		for (j = 1; j <= o->reps; j++) {
			if (stall_acc_value(&x->acc[j * o->n_users + k],
					    u->reducer, &v[j - 1]))
				continue;
			error("category '%s': no line of the output matched "
			      "'%s' in run %d at %d thread%s (the %s of no "
			      "value is not defined; sum gives 0)", u->name,
			      u->regex, j, n, n == 1 ? "" : "s",
			      stall_reducer_name(u->reducer));
			goto out;
		}
		add_value(x, u->name, median_of(v, o->reps));
	}
	ret = 0;
out:
	free(v);
	return ret;
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

/* record the count's run into x->s (categories made at the first) */
static void record(struct collect *x, int n, const int *cpus,
		   const struct run_result *r)
{
	struct scaling_run *run;
	struct pandia_error err;
	int i, k;

	if (!x->s->n_runs)
		for (i = 0; i < x->n_vals; i++)
			scaling_add_category(x->s, x->vals[i].name, &err);
	run = scaling_add_run(x->s, n, r->median);
	run->cpus = cpulist_format_compact(cpus, n);
	run->n_times = r->n_times;
	run->times = xcalloc((size_t)r->n_times + 1, sizeof(double));
	memcpy(run->times, r->times, sizeof(double) * (size_t)r->n_times);
	for (i = 0; i < x->n_vals; i++) {
		k = scaling_category(x->s, x->vals[i].name);
		if (k >= 0)
			run->stalls[k] = x->vals[i].v;
	}
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
 * One thread count.  Returns 0, -1 on failure, or the signal that
 * interrupted the run.
 */
static int run_count(struct collect *x, int idx)
{
	const struct cli *o = x->o;
	int n = x->threads[idx], k, ret = -1;
	const int *cpus = x->order;
	struct pandia_error err;
	struct run_result r;
	struct run_opts ro;
	char *list;

	for (k = 0; k < (o->reps + 1) * o->n_users; k++)
		stall_acc_reset(&x->acc[k]);
	x->unit_error = 0;
	x->n_vals = 0;
	run_opts_init(&ro);
	ro.cpus = cpus;
	ro.n_cpus = n;
	ro.repetitions = o->reps;
	ro.warmup = o->warmup;
	ro.timeout = o->timeout;
	ro.time_from = o->time_from;
	ro.runner = o->runner;
	ro.mem = o->mem.mode != RUN_MEM_DEFAULT ? &o->mem : NULL;
	ro.pin = RUN_PIN_SHIM;
	ro.shim_path = x->shim;
	ro.machine = x->m;
	ro.on_line = on_line;
	ro.data = x;
	run_result_init(&r);
	list = cpulist_format_compact(cpus, n);
	if (!o->quiet)
		progress("extrapolate", "%d/%d: %d thread%s on PU%s %s...",
			 idx + 1, x->n_threads, n, n == 1 ? "" : "s",
			 n == 1 ? "" : "s", list);
	if (run_execute(&ro, o->argv, &r, &err) < 0) {
		if (r.interrupted) {
			ret = r.interrupted;
			goto out;
		}
		error("%d thread%s: %s", n, n == 1 ? "" : "s", err.text);
		if (r.stderr_tail && *r.stderr_tail)
			fprintf(stderr, "pandia: the end of its standard "
				"error:\n%s\n", r.stderr_tail);
		goto out;
	}
	if (x->hw && hw_values(x, &ro, n) < 0)
		goto out;
	if (sw_values(x, &r, n) < 0 || user_values(x, n) < 0)
		goto out;
	if (x->s->n_runs && x->n_vals != x->s->n_categories) {
		error("%d thread%s: %d stall categories, %d at the first "
		      "count", n, n == 1 ? "" : "s", x->n_vals,
		      x->s->n_categories);
		goto out;
	}
	record(x, n, cpus, &r);
	if (save(x) < 0)
		goto out;
	if (!o->quiet) {
		double el = now_seconds() - x->t0;
		char left[64] = "";

		if (idx + 1 < x->n_threads && el > 2)
			snprintf(left, sizeof(left), "; about %.0f s left",
				 el / (idx + 1) * (x->n_threads - idx - 1));
		progress("extrapolate", "%d/%d: %d thread%s: %.4g s (spread "
			 "%.1f%%)%s", idx + 1, x->n_threads, n,
			 n == 1 ? "" : "s", r.median, 100 * r.spread, left);
	}
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

	if (o->hw == HW_NONE)
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
		if (o->hw == HW_PERF)
			die("no hardware stall categories: %s", why);
		warning("no hardware stall categories: %s; going on "
			"without them (--counters none: not even tried)",
			why);
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
	note = xasprintf("time: the median of %d run%s%s (%s); stalls: the "
			 "median over the same runs, summed over threads%s; "
			 "frequency from %s", o->reps, o->reps == 1 ? "" : "s",
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

/* Collect the runs on machine M (taken over), opened by the caller. */
static int cmd_collect(const struct cli *o, struct pandia_machine *m)
{
	struct collect x;
	struct pandia_error err;
	int i, sig = 0, ret = 1;

	memset(&x, 0, sizeof(x));
	x.o = o;
	x.m = m;
	x.t0 = now_seconds();
	if (o->output && output_check(o->output, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	if (!o->runner &&
	    check_this_host(x.m, o->machine_path, o->force, "measuring",
			    "(or --runner for a workload that runs on that "
			    "machine)") < 0)
		goto out;
	core_order(&x);
	thread_counts(&x);
	if (o->to && check_target(o->to, x.threads[x.n_threads - 1]) < 0)
		goto out;
	x.hz = o->frequency;
	x.hz_source = "--frequency";
	if (!(x.hz > 0) && !o->runner)
		x.hz = stalls_host_frequency(&x.hz_source);
	plan_hardware(&x);
	if (!o->runner) {
		x.shim = run_find_shim(pandia_exe_dir());
		if (!x.shim) {
			error("cannot find libpandia-pin.so next to pandia "
			      "(build it with make, or set PANDIA_PIN_LIB)");
			goto out;
		}
	}
	x.acc = xcalloc((size_t)(o->reps + 1) * (size_t)(o->n_users + 1),
			sizeof(*x.acc));
	x.vals = xcalloc((size_t)(x.n_hw + STALL_SW_COUNT + o->n_users + 1),
			 sizeof(*x.vals));
	x.s = scaling_new();
	describe(&x);
	if (!o->quiet)
		progress("extrapolate", "%d thread count%s from %d to %d, one "
			 "thread per core of %s, %d run%s each%s", x.n_threads,
			 x.n_threads == 1 ? "" : "s", x.threads[0],
			 x.threads[x.n_threads - 1], o->machine_path, o->reps,
			 o->reps == 1 ? "" : "s",
			 o->warmup ? " after a warm-up" : "");
	for (i = 0; i < x.n_threads; i++) {
		sig = run_count(&x, i);
		if (sig)
			break;
	}
	if (sig > 0) {
		error("interrupted by signal %d: %d of %d thread counts "
		      "measured%s%s", sig, x.s->n_runs, x.n_threads,
		      o->output && x.s->n_runs ? ", kept in " : "",
		      o->output && x.s->n_runs ? o->output : "");
		run_reraise(sig);
	}
	if (sig < 0) {
		if (o->output && x.s->n_runs)
			error("the %d thread count%s measured before are kept "
			      "in %s", x.s->n_runs, x.s->n_runs == 1 ? "" :
			      "s", o->output);
		goto out;
	}
	if (!x.s->n_categories)
		warning("no stall category was recorded (no hardware, no "
			"software, no --category): the runs give times only, "
			"and ESTIMA cannot extrapolate them");
	if (!o->output && !o->to) {
		char *text = scaling_to_string(x.s);

		fputs(text, stdout);
		free(text);
		ret = 0;
		goto out;
	}
	if (o->to) {
		if (!o->output)
			warning("the runs are not kept: -o RUNS.json keeps "
				"them");
		ret = extrapolate(o, x.s, o->output ? o->output :
				  "the runs measured", NULL);
		goto out;
	}
	print_runs(&x);
	printf("%d run%s written to %s\n", x.s->n_runs,
	       x.s->n_runs == 1 ? "" : "s", o->output);
	ret = 0;
	if (enough_runs(x.s, o->output, o->checkpoints, false))
		printf("extrapolate them: pandia extrapolate --runs %s --to "
		       "N|MACHINE\n", o->output);
	else if (x.n_cores < estima_runs_needed(o->checkpoints))
		printf("(%s has %d cores: ESTIMA needs runs at %d counts or "
		       "more with %d checkpoints)\n", o->machine_path,
		       x.n_cores, estima_runs_needed(o->checkpoints),
		       o->checkpoints);
out:
	if (x.hw_names)
		for (i = 0; i < x.n_hw; i++)
			free(x.hw_names[i]);
	free(x.hw_names);
	free(x.hw_kept);
	free(x.acc);
	free(x.vals);
	free(x.order);
	free(x.threads);
	free(x.shim);
	scaling_free(x.s);
	machine_free(x.m);
	return ret;
}

int cmd_extrapolate(int argc, char **argv)
{
	struct pandia_machine *m;
	struct cli o;
	char *mpath = NULL;
	int ret = 1;

	parse_args(argc, argv, &o);
	if (o.runs_path) {
		ret = cmd_runs(&o);
		goto out;
	}
	m = open_machine(o.quiet ? NULL : "extrapolate", o.machine_path,
			 true, &mpath);
	if (!m)
		goto out;
	o.machine_path = mpath;
	ret = cmd_collect(&o, m);
out:
	free(mpath);
	cli_release(&o);
	return ret;
}
