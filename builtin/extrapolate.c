/*
 * cmd_extrapolate.c - pandia extrapolate: scaling past the cores
 * measured (ESTIMA; docs/extrapolate.md).
 *
 * Two halves: collecting the runs (extrapolate_collect.c), and, here,
 * extrapolating recorded runs with predictor/estima.h (a table or JSON,
 * and a figure drawn by gnuplot).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/extrapolate.h"
#include "builtin/parse-options.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/strbuf.h"
#include "common/util.h"
#include "predictor/estima.h"
#include "predictor/scaling.h"
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
"  -r, --repetitions N     measured runs per count, one of each count\n"
"                          per round (default 3; the median time and\n"
"                          stalls are kept)\n"
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
"  -v, --verbose           notes said once on this host (why perf cannot\n"
"                          count here, demands known as bounds) in full\n"
"                          again\n"
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
	OPT_SHARED(opt_verbose),
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
	o->hw = c->counters;
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
int parse_target(const char *to, int *n, char **what)
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
	strbuf_gnuplot_png(f, 1000, 900, 10);
	strbuf_printf(f, "set output \"extrapolate.png\"\n"
		      "set datafile missing \"?\"\n");
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

/* DIR/extrapolate.json, .gp and .png (a warning when not drawn) */
static int write_dir(const char *dir, const struct pandia_scaling *s,
		     const struct estima_result *r, json_t *root,
		     const char *source)
{
	struct pandia_error err;
	char *text, *title, *script;
	const char *prog;
	int ret;

	if (make_dir(dir, &err) < 0)
		return error_perr(&err);
	text = json_to_text(root);
	if (write_file_in(dir, "extrapolate.json", text, &err) < 0) {
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
	ret = draw_figure(dir, "extrapolate", script);
	free(script);
	return ret;
}

/*
 * Whether there are runs enough for ESTIMA; when not, say how many
 * more are needed: an error (FATAL), else a note on stdout.  CORES: of
 * the machine the runs were collected on, 0 when not known; when the
 * runs needed do not fit on it, the note says so instead of naming
 * thread counts that --threads would refuse.
 */
bool enough_runs(const struct pandia_scaling *s, const char *source,
		 int checkpoints, int cores, bool fatal)
{
	int need = estima_runs_needed(checkpoints), last;
	char *msg, *how;

	if (s->n_runs >= need)
		return true;
	last = s->n_runs ? s->runs[s->n_runs - 1].threads : 0;
	if (cores > 0 && last + need - s->n_runs > cores)
		how = xasprintf("a machine of %d cores has room for %d "
				"counts: collect the runs on one of %d cores "
				"or more, or through a --runner template that "
				"simulates one (-m its description)", cores,
				cores, need);
	else
		how = xasprintf("collect at more counts (e.g. --threads "
				"1-%d, on a machine of %d cores or more)",
				last + need - s->n_runs,
				last + need - s->n_runs);
	msg = xasprintf("%s: %d run%s: too few to extrapolate from; ESTIMA "
			"needs %d with %d checkpoint%s (3 to fit, then the "
			"checkpoints): %d more; %s", source,
			s->n_runs, s->n_runs == 1 ? "" : "s", need,
			checkpoints, checkpoints == 1 ? "" : "s",
			need - s->n_runs, how);
	if (fatal)
		error("%s", msg);
	else
		printf("%s\n", msg);
	free(how);
	free(msg);
	return false;
}

int extrapolate(const struct cli *o, const struct pandia_scaling *s,
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
	if (!enough_runs(s, source, o->checkpoints, 0, true))
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
	if (o->json)
		json_print(root);
	else
		print_report(s, r, source, target);
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
