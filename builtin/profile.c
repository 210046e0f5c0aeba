/*
 * cmd_profile.c - pandia profile: the six profiling runs of the Pandia
 * paper (section 4) and the workload description they give.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/blackbox.h"
#include "profiler/probe.h"
#include "profiler/profile.h"
#include "profiler/run.h"

const char usage_profile[] =
"usage: pandia profile [-m MACHINE] [options] -- CMD [ARG...]\n"
"\n"
"Profile CMD in the six pinned runs of the Pandia paper (section 4) and\n"
"write its workload description (pandia-workload/1) for 'pandia\n"
"predict': t1 and the demands from one thread, p from one thread per\n"
"core on one socket, o_s from the same threads over two sockets, l from\n"
"CPU-bound co-runners beside every thread and then one, b from the\n"
"threads packed two to a core.  {threads} and {cpus} in the arguments\n"
"are replaced, OMP_NUM_THREADS and PANDIA_THREADS are set, and every\n"
"thread is pinned.  Progress and warnings go to stderr.\n"
"\n"
"options:\n"
"  -m, --machine FILE|NAME the machine description (pandia machine): a\n"
"                          file or a name looked up where pandia machine\n"
"                          writes; default: this host's, when there is\n"
"                          one\n"
"  -o, --output FILE       write the description to FILE (atomically)\n"
"                          and a summary to stdout; default: the\n"
"                          description on stdout\n"
"      --into FILE         add the runs and parameters of a model other\n"
"                          than pandia to the description FILE (under\n"
"                          FILE.lock, atomically): what it holds stays\n"
"      --counters BACKEND  auto (perf when it can count here, else\n"
"                          probe; the default), perf, or probe (no PMU:\n"
"                          task-clock and co-run bandwidth probes)\n"
"  -r, --repetitions N     N measured repetitions of every run (the\n"
"                          median is kept); default: two, and a third\n"
"                          only where they spread over 5% and the\n"
"                          budget lasts\n"
"      --budget X          the profile's wall time, in units of t1, within\n"
"                          which repetitions are added and disturbed ones\n"
"                          made again (default 12; --quick 6; 0: no limit)\n"
"      --quick             one repetition of every run and the DRAM probe\n"
"                          only, and no runs for l and b where they change\n"
"                          no placement of one thread per PU (one socket\n"
"                          without SMT: runs 4 to 6; without SMT: run 6);\n"
"                          about 3 to 6 times t1 (predict -k 2 then warns)\n"
"      --no-check          no check runs after the fit, and no run 1 again\n"
"                          at the end for the host's drift (by default the\n"
"                          predicted best placement with the most threads\n"
"                          and, where two explanations of the runs\n"
"                          differ, the placement they differ on most are\n"
"                          made, within the budget, and compared with\n"
"                          what was predicted)\n"
"      --keep-unreliable   write a description whose p, l or t1 is too\n"
"                          uncertain to rank with (by default the profile\n"
"                          fails, says why and writes nothing), marked\n"
"                          \"unreliable\"; predict warns on it\n"
"      --no-warmup         no unmeasured run first\n"
"      --time-from REGEX   time from the command's output (the number\n"
"                          after the last line matching REGEX, or its\n"
"                          first group) instead of its wall time\n"
"      --timeout SEC       a run that takes longer is an error\n"
"      --runner TEMPLATE   run TEMPLATE with /bin/sh instead of CMD:\n"
"                          {cpus} {threads} {stress_cpus} {stress_kind}\n"
"                          {cmd} {numa_maps} replaced; for a workload run\n"
"                          elsewhere (the host is then not checked)\n"
"      --memory POLICY     record the memory policy local, interleave,\n"
"                          spread, even or node:N instead of the one\n"
"                          the pages of run 3 and the check runs show\n"
"                          (they are read on hosts with two\n"
"                          NUMA nodes or more, or from {numa_maps})\n"
RUN_MEM_USAGE
"      --busy-idle         keep otherwise idle cores busy with a\n"
"                          core-local loop (steadies turbo frequencies)\n"
"      --nice N            run the command and its co-runners at\n"
"                          niceness N (-20: ahead of other work; needs\n"
"                          CAP_SYS_NICE to go below the current one)\n"
"      --solve MODE        fit (default: each parameter such that the\n"
"                          partial model reproduces its run) or paper\n"
"                          (the closed forms of sections 4.2 to 4.5)\n"
"      --serial WHERE      where the command's serial work runs: auto\n"
"                          (the default: run 8, a co-runner beside the\n"
"                          first thread, tells), spread over its threads\n"
"                          (the paper's) or first, on its first thread\n"
"                          alone while the others wait (a fork-join\n"
"                          program's main thread); model.serial_form\n"
"      --force             profile even if MACHINE describes another host\n"
"      --model NAME        the model whose runs to make and whose\n"
"                          parameters to fit (default pandia)\n"
"      --size X            the input size of the command: {size} in its\n"
"                          arguments or TEMPLATE is replaced by X, and X\n"
"                          is recorded (the Pandia model's runs)\n"
"      --sizes LIST        with --model blackbox: the input sizes to\n"
"                          measure, comma-separated numbers\n"
"      --threads LIST      with --model blackbox: the thread counts, one\n"
"                          per core, a socket filled first; must hold 1\n"
"                          (default 1, 2, 4, ... and every core)\n"
"      --degree K          with --model blackbox: the degree of T_seq's\n"
"                          polynomial in the size (default 1)\n"
"  -q, --quiet             no progress lines\n"
"  -v, --verbose           notes said once on this host (why perf cannot\n"
"                          count here, demands known as bounds) in full\n"
"                          again\n"
"\n"
"exit status: 0 success, 1 failure (nothing written), 2 usage.\n"
"See pandia-profile(1) and docs/profiling.md.\n";

/* Whether argv lists A and B are the same. */
static bool same_command(char **a, int na, char **b, int nb)
{
	int i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

/*
 * --into: add NEW's runs (taken over; those of FILE with the same ids
 * are replaced) and NEW's models.* to the description FILE, read and
 * written under FILE.lock.  0, or -1 after saying why (FILE as it
 * was).
 */
static int add_into(const char *file, struct pandia_workload *nw)
{
	struct pandia_workload *w = NULL;
	struct pandia_error err;
	const char *name;
	json_t *v, *models;
	int fd, i, j, k, ret = -1;

	fd = lock_path(file, &err);
	if (fd < 0) {
		perr_print(&err, stderr);
		return -1;
	}
	w = workload_load(file, &err);
	if (!w) {
		perr_print(&err, stderr);
		goto out;
	}
	if (!same_command(w->command, w->n_command, nw->command,
			  nw->n_command))
		warning("the command profiled is not the one '%s' "
			"describes: adding its model all the same", file);
	/* FILE's runs with the ids of the new ones go */
	for (i = k = 0; i < w->n_runs; i++) {
		for (j = 0; j < nw->n_runs; j++)
			if (!strcmp(w->runs[i].id, nw->runs[j].id))
				break;
		if (j < nw->n_runs)
			wl_run_release(&w->runs[i]);
		else
			w->runs[k++] = w->runs[i];
	}
	w->runs = xrealloc(w->runs, sizeof(*w->runs) *
			   (size_t)(k + nw->n_runs + 1));
	memcpy(w->runs + k, nw->runs, sizeof(*w->runs) *
	       (size_t)nw->n_runs);
	w->n_runs = k + nw->n_runs;
	free(nw->runs);
	nw->runs = NULL;
	nw->n_runs = 0;
	models = w->models ? json_deep_copy(w->models) : json_object();
	json_object_foreach(nw->models, name, v)
		json_object_set(models, name, v);
	json_decref(w->models);
	w->models = models;
	if (workload_save(w, file, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	ret = 0;
out:
	workload_free(w);
	close(fd);
	return ret;
}

/*
 * LIST of comma-separated numbers (integers >= 1 when INTS) into a new
 * array *out; returns how many, or exits with a usage error naming
 * OPT and the bad item.
 */
static int parse_list(const char *opt, const char *list, bool ints,
		      double **out)
{
	char *copy = xstrdup(list), *item, *save = NULL;
	int n = 0, k;
	double v;

	*out = xcalloc(strlen(list) / 2 + 2, sizeof(double));
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (ints ? !parse_int(item, &k) || k < 1 :
		    !parse_double(item, &v) || !isfinite(v))
			usage_error("profile", "%s takes %s, and '%s' is not "
				    "one", opt, ints ? "thread counts >= 1" :
				    "input sizes (numbers)", item);
		(*out)[n++] = ints ? k : v;
	}
	free(copy);
	if (!n)
		usage_error("profile", "%s takes a comma-separated list, not "
			    "'%s'", opt, list);
	return n;
}

/* The default thread counts: 1, 2, 4, ... and every core. */
static int default_threads(const struct pandia_machine *m, int **out)
{
	int n = 0, p;

	*out = xcalloc(34, sizeof(int));
	for (p = 1; p < m->n_cores && n < 32; p *= 2)
		(*out)[n++] = p;
	(*out)[n++] = m->n_cores;
	return n;
}

/*
 * What --model blackbox cannot do, said before anything runs: fewer
 * distinct sizes than the degree needs, no one-thread runs.
 */
static void check_blackbox_args(const struct profile_opts *o,
				const double *threads)
{
	int degree = o->degree >= 0 ? o->degree : 1, have = 0, i, j;
	bool one = !o->n_threads;

	for (i = 0; i < o->n_sizes; i++) {
		for (j = 0; j < i && o->sizes[j] != o->sizes[i]; j++)
			;
		have += j == i;
	}
	if (have < degree + 1)
		usage_error("profile", "degree %d needs %d distinct sizes; "
			    "--sizes gives %d: %d more needed", degree,
			    degree + 1, have, degree + 1 - have);
	for (i = 0; i < o->n_threads; i++)
		one |= threads[i] == 1;
	if (!one)
		usage_error("profile", "T_seq is fitted from the one-thread "
			    "runs: --threads must include 1");
}

/* Whether {size} appears in the command or the runner template. */
static bool wants_size(char *const *argv, const char *runner)
{
	if (runner && strstr(runner, "{size}"))
		return true;
	for (; argv && *argv; argv++)
		if (strstr(*argv, "{size}"))
			return true;
	return false;
}

/* What the progress lines need: the backend, said once, first. */
struct shown {
	const struct profile_result *res;
	bool backend;
};

/* NOTE, which backend and why: why perf cannot, in full once a host */
static void say_note(const char *note)
{
	if (strncmp(note, SAID_NO_PERF, strlen(SAID_NO_PERF)) ||
	    said_in_full(SAID_NO_PERF))
		fprintf(stderr, "pandia: %s\n", note);
	else
		fprintf(stderr, "pandia: perf counters unavailable: "
			"using the probe backend (-v says why)\n");
}

static void show_backend(struct shown *sh)
{
	if (sh->backend || !sh->res->backend_note)
		return;
	say_note(sh->res->backend_note);
	sh->backend = true;
}

static void show_progress(const struct profile_progress *pp, void *arg)
{
	char left[48] = "", rep[96];

	/* the backend is known before the first probe run: say it then,
	   not after fifty progress lines */
	show_backend(arg);

	if (pp->left >= 0)
		snprintf(left, sizeof(left), ", about %.0f s left",
			 ceil(pp->left));
	snprintf(rep, sizeof(rep), "repetition %d of %d%s", pp->rep, pp->reps,
		 pp->again ? " again (the last try was disturbed)" : "");
	if (pp->rep == 0)
		fprintf(stderr, "pandia profile: the warm-up, at the "
			"placement of %s (%s): not timed\n", pp->id, pp->what);
	else if (pp->run && pp->run <= pp->numbered)
		fprintf(stderr, "pandia profile: run %d of %d, %s (%s)%s\n",
			pp->run, pp->numbered, rep, pp->what, left);
	else if (pp->run && pp->numbered)
		fprintf(stderr, "pandia profile: run %d, %s (%s)%s\n",
			pp->run, rep, pp->what, left);
	else if (pp->probe)
		fprintf(stderr, "pandia profile: probe run %s, %s (%s)%s\n",
			pp->id, rep, pp->what, left);
	else	/* named, not numbered: check1, drift */
		fprintf(stderr, "pandia profile: run %s, %s (%s)%s\n",
			pp->id, rep, pp->what, left);
}

/*
 * A parameter's line: its value, range and sources, with AMP (NAN:
 * none) the noise amplification of a counter-free estimate.
 */
static void print_param_amp(FILE *out, const char *name,
			    const struct wl_param *p, const char *unit,
			    double amp)
{
	fprintf(out, "  %-17s", name);
	if (p->known) {
		fprintf(out, "%.4g%s", p->value, unit);
		if (p->uncertainty >= 0)
			fprintf(out, " +- %.2g", p->uncertainty);
		if (p->source)
			fprintf(out, "   (%s)", p->source);
		if (isfinite(amp))
			fprintf(out, "   noise amplification %.3g%s", amp,
				amp > PROBE_AMP_HIGH ? " (poorly conditioned)" :
				"");
	} else {
		fputs(p->status ? p->status : "not measured", out);
	}
	fputc('\n', out);
	if (p->known && p->status)
		fprintf(out, "  %17s%s\n", "", p->status);
}

static void print_param(FILE *out, const char *name,
			const struct wl_param *p, const char *unit)
{
	print_param_amp(out, name, p, unit, NAN);
}

/* The black-box model's parameters, as fitted. */
static void summary_blackbox(FILE *out, const struct pandia_workload *w)
{
	struct pandia_error err;
	struct blackbox bb;
	int j;

	if (blackbox_of_workload(&bb, w, &err) < 0) {
		fprintf(out, "  %s\n", err.text);
		return;
	}
	fprintf(out, "  %-17s%d\n", "degree", bb.degree);
	fprintf(out, "  %-17s", "T_seq(x)");
	if (bb.fit == BB_FIT_OK)
		for (j = 0; j <= bb.degree; j++)
			fprintf(out, "%s%.6g x^%d", j ? " + " : "",
				bb.coef[j], j);
	else
		fputs("not known", out);
	fputc('\n', out);
	fprintf(out, "  %-17s", "alpha");
	if (bb.has_alpha)
		fprintf(out, "%.6g   (%ld run%s at %d threads, size %g)\n",
			bb.alpha, bb.alpha_count, bb.alpha_count == 1 ? "" :
			"s", bb.alpha_p, bb.alpha_x);
	else
		fputs("not known\n", out);
}

/* The check runs, predicted against measured, and the ambiguities. */
static void summary_checks(FILE *out, const struct pandia_workload *w)
{
	json_t *amb = model_ambiguities(w), *o;
	size_t k;
	int i;

	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];
		double pred = wl_run_counter(r, "model_predicted");
		double range = wl_run_counter(r, "model_range");
		double miss = wl_run_counter(r, "model_miss");
		double refit = wl_run_counter(r, "model_refitted");
		bool out_of = fabs(log1p(miss)) > log1p(range);
		const char *say = "";

		if (strncmp(r->id, "check", 5) || isnan(pred))
			continue;
		if (refit == 1)
			say = out_of ? ": outside, fitted again with the "
				"check runs" : ": fitted again with the check "
				"runs";
		else if (refit == 0 && out_of)
			say = ": outside, the fit kept (the model misses it)";
		else if (out_of)
			say = ": outside (its miss is in every range)";
		fprintf(out, "  %-17smeasured %.4g s, predicted %.4g s "
			"(%+.1f%%, range +-%.1f%%)%s\n", r->id,
			median_of(r->times, r->n_times), pred, 100 * miss,
			100 * range, say);
		fprintf(out, "  %17s%s\n", "", r->purpose ? r->purpose : "");
	}
	for (i = 0; i < w->n_runs; i++)
		if (!strcmp(w->runs[i].id, "drift") &&
		    !isnan(wl_run_counter(&w->runs[i], "drift")))
			fprintf(out, "  %-17srun 1 again at the end: %.1f%% from "
				"run 1, in every range (the host's drift "
				"between runs)\n", "drift",
				100 * wl_run_counter(&w->runs[i], "drift"));
	json_array_foreach(amb, k, o) {
		json_t *note = json_object_get(o, "note");
		json_t *chk = json_object_get(o, "checked");

		fprintf(out, "  %-17s%s\n", "ambiguity",
			json_is_string(note) ? json_string_value(note) : "?");
		if (json_is_string(chk))
			fprintf(out, "  %17s%s\n", "", json_string_value(chk));
	}
}

static void summary(FILE *out, const struct pandia_workload *w,
		    const char *file, const struct model_def *model)
{
	int r;

	if (model && model->sizes) {
		fprintf(out, "workload description: %s (model %s)\n",
			file, model->name);
		summary_blackbox(out, w);
		return;
	}
	if (w->counters)
		fprintf(out, "workload description: %s (counters: %s)\n",
			file, w->counters);
	else
		fprintf(out, "workload description: %s (model %s)\n", file,
			model ? model->name : "pandia");
	if (w->models) {
		const char *name, *key;
		json_t *o, *v;

		/* the other models' parameters: their numbers as written */
		json_object_foreach(w->models, name, o) {
			fprintf(out, "  models.%s:", name);
			json_object_foreach(o, key, v)
				if (json_is_number(v))
					fprintf(out, " %s %.4g", key,
						json_number_value(v));
			fputc('\n', out);
		}
		if (!model_param(w, "t1")->known &&
		    !model_param(w, "p")->known)
			return;
	}
	print_param(out, "t1", model_param(w, "t1"), " s");
	print_param(out, "p", model_param(w, "p"), "");
	print_param(out, "o_s", model_param(w, "o_s"), "");
	print_param(out, "l", model_param(w, "l"), "");
	print_param(out, "b", model_param(w, "b"), "");
	if (model_o_s_form(w))
		fprintf(out, "  %-17s%s (run 7)\n", "o_s form",
			model_o_s_form(w));
	if (model_serial_form(w)) {
		const char *src = model_param(w, "l")->source;

		fprintf(out, "  %-17s%s (%s)\n", "serial work",
			!strcmp(model_serial_form(w), "first") ?
			"on the first thread alone" : "spread over the threads",
			src && strstr(src, "run8") ? "run 8" : "--serial");
	}
	if (w->has_memory) {
		char buf[32];
		json_t *pol = w->memory_found ?
			json_object_get(w->memory_found, "policy") : NULL;

		fprintf(out, "  %-17s%s", "memory",
			mempolicy_format(&w->memory, buf, sizeof(buf)));
		if (json_is_string(pol))
			fprintf(out, "   (the pages of run 3: %s)",
				json_string_value(pol));
		fputc('\n', out);
	}
	for (r = 0; r < WR_COUNT; r++) {
		char name[32];

		if (!model_demand_listed(w, r))
			continue;
		snprintf(name, sizeof(name), "d[%s]", wl_resource_name(r));
		print_param_amp(out, name, model_demand(w, r),
				r == WR_INSTRUCTIONS ? " ops/s" : " bytes/s",
				*model_demand_amplification(w, r));
	}
	summary_checks(out, w);
}

/* What the command line asks of 'pandia profile', besides the shared
   options. */
struct profile_args {
	struct profile_opts o;
	const char *into;
	bool budget_given;
	double *sizes, *tl;	/* --sizes, --threads */
};

static void solve_cb(const char *cmd, const struct option *opt,
		     void *field, const char *arg)
{
	enum fit_mode *solve = field;

	(void)opt;
	if (!strcmp(arg, "fit"))
		*solve = FIT_MODEL;
	else if (!strcmp(arg, "paper"))
		*solve = FIT_PAPER;
	else
		usage_error(cmd, "--solve takes fit or paper, not '%s'", arg);
}

static void serial_cb(const char *cmd, const struct option *opt,
		      void *field, const char *arg)
{
	enum serial_choice *serial = field;

	(void)opt;
	if (!strcmp(arg, "auto"))
		*serial = SERIAL_BY_RUN;
	else if (!strcmp(arg, "first"))
		*serial = SERIAL_GIVEN_FIRST;
	else if (!strcmp(arg, "spread"))
		*serial = SERIAL_GIVEN_SPREAD;
	else
		usage_error(cmd, "--serial takes auto, spread or first, not "
			    "'%s'", arg);
}

static void nice_cb(const char *cmd, const struct option *opt, void *field,
		    const char *arg)
{
	struct profile_opts *o = OPT_CONTAINER(field, struct profile_opts,
					       nice);

	(void)opt;
	if (!parse_int(arg, &o->nice) || o->nice < -20 || o->nice > 19)
		usage_error(cmd, "--nice takes a niceness from -20 to 19, not "
			    "'%s'", arg);
	o->set_nice = true;
}

static void sizes_cb(const char *cmd, const struct option *opt,
		     void *field, const char *arg)
{
	struct profile_args *a = OPT_CONTAINER(field, struct profile_args,
					       sizes);

	(void)cmd;
	(void)opt;
	free(a->sizes);
	a->o.n_sizes = parse_list("--sizes", arg, false, &a->sizes);
	a->o.sizes = a->sizes;
}

static void threads_cb(const char *cmd, const struct option *opt,
		       void *field, const char *arg)
{
	struct profile_args *a = OPT_CONTAINER(field, struct profile_args,
					       tl);

	(void)cmd;
	(void)opt;
	free(a->tl);
	a->o.n_threads = parse_list("--threads", arg, true, &a->tl);
}

static void budget_cb(const char *cmd, const struct option *opt,
		      void *field, const char *arg)
{
	struct profile_args *a = OPT_CONTAINER(field, struct profile_args,
					       o.budget);

	(void)opt;
	if (!parse_double(arg, &a->o.budget) || !(a->o.budget >= 0) ||
	    !isfinite(a->o.budget))
		usage_error(cmd, "--budget takes a number >= 0 (units of t1), "
			    "not '%s'", arg);
	a->budget_given = true;
}

static void degree_cb(const char *cmd, const struct option *opt,
		      void *field, const char *arg)
{
	int *degree = field;

	(void)opt;
	if (!parse_int(arg, degree) || *degree < 0 || *degree > BB_MAX_DEGREE)
		usage_error(cmd, "--degree takes a degree from 0 to %d, not "
			    "'%s'", BB_MAX_DEGREE, arg);
}

#define A struct profile_args
static const struct option profile_options[] = {
	OPT_STRING(0, "into", A, into),
	OPT_CALLBACK(0, "budget", A, o.budget, budget_cb),
	OPT_FLAG(0, "quick", A, o.quick),
	OPT_FLAG(0, "no-check", A, o.no_check),
	OPT_FLAG(0, "keep-unreliable", A, o.keep_unreliable),
	OPT_FLAG(0, "busy-idle", A, o.busy_idle),
	OPT_CALLBACK(0, "nice", A, o.nice, nice_cb),
	OPT_CALLBACK(0, "solve", A, o.solve, solve_cb),
	OPT_CALLBACK(0, "serial", A, o.serial, serial_cb),
	OPT_CALLBACK(0, "sizes", A, sizes, sizes_cb),
	OPT_CALLBACK(0, "threads", A, tl, threads_cb),
	OPT_CALLBACK(0, "degree", A, o.degree, degree_cb),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_output),
	OPT_SHARED(opt_counters),
	OPT_SHARED(opt_reps),
	OPT_SHARED(opt_timing),
	OPT_SHARED(opt_runner),
	OPT_SHARED(opt_mempolicy),
	OPT_SHARED(opt_memory),
	OPT_SHARED(opt_force),
	OPT_SHARED(opt_model),
	OPT_SHARED(opt_size),
	OPT_SHARED(opt_quiet),
	OPT_SHARED(opt_verbose),
	OPT_END(),
};
#undef A

/* What the options ask of --model blackbox, or that it is not asked for. */
static void check_model_args(const struct profile_args *a)
{
	const struct profile_opts *o = &a->o;

	if (o->model && o->model->sizes) {
		if (!o->n_sizes)
			usage_error("profile", "--model %s needs --sizes "
				    "LIST, the input sizes to measure",
				    o->model->name);
		if (!isnan(o->size))
			usage_error("profile", "--model %s measures "
				    "--sizes LIST, not one --size",
				    o->model->name);
		check_blackbox_args(o, a->tl);
	} else if (o->n_sizes || o->n_threads || o->degree >= 0) {
		usage_error("profile", "--sizes, --threads and --degree are "
			    "for --model blackbox");
	}
	if (o->serial != SERIAL_BY_RUN && o->model &&
	    !o->model->model_section)
		usage_error("profile", "--serial is the Pandia model's; "
			    "--model %s has no serial work to place",
			    o->model->name);
	if (o->serial == SERIAL_GIVEN_FIRST && o->solve == FIT_PAPER)
		usage_error("profile", "--serial first needs the fit: the "
			    "paper's closed forms (--solve paper) spread the "
			    "serial work");
}

/*
 * The options into *A and *C, checked; returns the index of the
 * command's first word.
 */
static int parse_args(int argc, char **argv, struct profile_args *a,
		      struct opt_common *c)
{
	struct profile_opts *o = &a->o;
	int first;

	memset(a, 0, sizeof(*a));
	profile_opts_init(o);
	opt_common_init(c, o->repetitions);
	first = parse_options("profile", argc, argv, profile_options, a, c);
	o->counters = c->counters;
	o->repetitions = c->reps;
	o->fixed_reps = c->reps_given;
	o->warmup = c->warmup;
	o->time_from = c->time_from;
	o->timeout = c->timeout;
	o->runner = c->runner;
	o->has_memory = c->has_memory;
	o->memory = c->memory;
	o->mem = c->mem.mode != RUN_MEM_DEFAULT ? &c->mem : NULL;
	o->model = c->model_given ? c->model : NULL;
	o->size = c->size;
	if (o->quick && !a->budget_given)
		o->budget = 6;
	if (first >= argc && !o->runner)
		usage_error("profile", "no command given: pandia profile "
			    "[-m MACHINE] -- CMD [ARG...]");
	if (a->into && c->output)
		usage_error("profile", "-o and --into do not go together");
	if (a->into && (!o->model || o->model->model_section))
		usage_error("profile", "--into adds another model than pandia "
			    "(its parameters live under models.NAME); write "
			    "the Pandia model's description with -o");
	check_model_args(a);
	/* --size alone may only be recorded: the command may know it */
	if (wants_size(argv + first, o->runner) && isnan(o->size) &&
	    !o->n_sizes)
		usage_error("profile", "{size} in the command needs --size X "
			    "(or --model blackbox --sizes LIST)");
	if (o->n_sizes && !wants_size(argv + first, o->runner))
		usage_error("profile", "--sizes go nowhere: put {size} in the "
			    "command's arguments or the runner template");
	return first;
}

/* The machine's blackbox thread counts: --threads, or the default. */
static int *blackbox_threads(struct profile_args *a,
			     const struct pandia_machine *m)
{
	int *threads, i;

	if (!a->o.n_threads) {
		a->o.n_threads = default_threads(m, &threads);
		return threads;
	}
	threads = xcalloc((size_t)a->o.n_threads, sizeof(int));
	for (i = 0; i < a->o.n_threads; i++)
		threads[i] = (int)a->tl[i];
	return threads;
}

/*
 * --busy-idle runs every profiling run at the clock of all cores busy,
 * which a modelled turbo reads as a lone core's: say by how much.
 */
static void warn_busy_idle(const struct pandia_machine *m)
{
	double q = machine_clock_slowdown(m, 0, m->n_cores);

	if (q > 1)
		warning("--busy-idle runs every profiling run at the clock of "
			"all cores busy, which the model's turbo "
			"(core.all_busy_rate) reads as a lone core's: "
			"placements with few busy cores will be predicted "
			"up to %.0f%% too slow (docs/model.md, \"Turbo\")",
			100 * (q - 1));
}

/* Say before the first run, not after fifty lines, that perf cannot. */
static void say_backend(const struct profile_opts *o, struct shown *sh)
{
	bool kernel;
	char *why = NULL;

	if (o->counters != COUNTERS_AUTO || o->runner)
		return;
	if (!counters_perf_available(&kernel, &why)) {
		char *note = xasprintf("%s (--counters auto: using the probe "
				       "backend)", why);

		say_note(note);
		free(note);
		sh->backend = true;
	}
	free(why);
}

/* Past the budget by more than this share: said why. */
#define BUDGET_SLACK 0.05

/*
 * What the profile cost, in seconds and in units of t1, and, past the
 * BUDGET (units of t1; 0: no limit), why: the budget stops only the runs
 * a profile may leave out.
 */
static void say_cost(const struct profile_result *res, double budget)
{
	double x = res->seconds / res->t1;

	fprintf(stderr, "pandia profile: profiled in %.1f s, %.1f times t1 "
		"(t1 = %.4g s)", res->seconds, x, res->t1);
	if (budget > 0 && x > budget * (1 + BUDGET_SLACK))
		fprintf(stderr, ": past the budget of %g x t1, which stops "
			"only the runs a profile may leave out: those it "
			"always makes took that long here", budget);
	fputc('\n', stderr);
}

/* The description where -o or --into says, or on stdout; 0 or -1. */
static int write_result(const struct profile_args *a, const char *output,
			const struct profile_result *res)
{
	struct pandia_error err;
	char *text;

	if (a->into) {
		if (add_into(a->into, res->w) < 0)
			return -1;
		summary(stdout, res->w, a->into, a->o.model);
	} else if (output) {
		if (workload_save(res->w, output, &err) < 0)
			return error_perr(&err);
		summary(stdout, res->w, output, a->o.model);
	} else {
		text = workload_to_string(res->w);
		fputs(text, stdout);
		free(text);
	}
	if (a->o.model && a->o.model->sizes)
		fprintf(stderr, "pandia profile: profiled in %.1f s\n",
			res->seconds);
	else
		say_cost(res, a->o.budget);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("pandia: cannot write the output");
		return -1;
	}
	return 0;
}

int cmd_profile(int argc, char **argv)
{
	struct pandia_machine *m = NULL;
	struct profile_result res;
	struct shown sh = { &res, false };
	struct profile_args a;
	struct opt_common c;
	struct pandia_error err;
	char *machine_path = NULL, *shim = NULL;
	int *threads = NULL;
	int ret = 1, i, first, sig;

	profile_result_init(&res);
	first = parse_args(argc, argv, &a, &c);
	/* the output is checked before the runs, not after them */
	if (c.output && output_check(c.output, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	m = open_machine("profile", c.machine, true, &machine_path);
	if (!m)
		goto out;
	if (!a.o.runner &&
	    check_this_host(m, machine_path, c.force, "profiling",
			    "(or --runner for a workload that runs on "
			    "that machine)") < 0)
		goto out;
	if (a.o.model && a.o.model->sizes)
		a.o.threads = threads = blackbox_threads(&a, m);
	a.o.m = m;
	a.o.machine_file = machine_path;
	a.o.argv = argv + first;
	if (!c.quiet) {
		a.o.progress = show_progress;
		a.o.progress_arg = &sh;
	}
	if (!a.o.runner)
		a.o.shim_path = shim = run_find_shim(pandia_exe_dir());
	say_backend(&a.o, &sh);
	if (a.o.busy_idle)
		warn_busy_idle(m);
	if (profile_workload(&a.o, &res, &err) < 0) {
		perr_print(&err, stderr);
		if (res.failed_stderr)
			error("the command's stderr ended "
				"with:\n%s", res.failed_stderr);
		if (res.interrupted)
			run_reraise(res.interrupted);
		goto out;
	}
	sig = run_caught_signal();
	if (sig) {
		error("interrupted by signal %d: nothing written", sig);
		run_reraise(sig);
	}
	show_backend(&sh);
	for (i = 0; i < res.n_warnings; i++)
		warning("%s", res.warnings[i]);
	if (write_result(&a, c.output, &res) < 0)
		goto out;
	ret = 0;
out:
	free(shim);
	free(a.sizes);
	free(a.tl);
	free(threads);
	free(machine_path);
	profile_result_release(&res);
	machine_free(m);
	return ret;
}
