/*
 * cmd_run.c - pandia run: run a command at a placement, timed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "builtin/run.h"
#include "common/cpuexpr.h"
#include "common/cpulist.h"
#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/blackbox.h"
#include "profiler/run.h"

const char usage_run[] =
"usage: pandia run --cpus LIST [options] -- CMD [ARG...]\n"
"\n"
"Run CMD with its worker threads pinned to LIST (one PU per thread, in\n"
"thread-creation order; a PU may repeat), repeat it, print its median\n"
"time and where every thread's time went.  {threads} and {cpus} in the\n"
"arguments are replaced; OMP_NUM_THREADS, PANDIA_THREADS, OMP_PLACES\n"
"and OMP_PROC_BIND are set.  The command's output is hidden unless\n"
"--show-output; results go to stdout, progress to stderr.\n"
"\n"
"options:\n"
"  -c, --cpus LIST         the placement, e.g. 1,0,1, 0-3, 0x3, S0:0-3\n"
"                          or core:0-3 (see pandia help cpus)\n"
"  -s, --stress KIND@LIST  co-run a stressor on each PU of LIST while the\n"
"                          command runs: cpu (integer loop), bw:LEVEL\n"
"                          (reads at L1, L2, L3 or dram; bw:LEVEL:rw for\n"
"                          read-modify-write); repeatable\n"
"      --stress-alone SEC  let the stressors run SEC seconds alone before\n"
"                          the command in every run and again after it,\n"
"                          and report their rates then beside their\n"
"                          rate with it\n"
"  -r, --repetitions N     measured runs (default 3)\n"
"      --no-warmup         no unmeasured run first\n"
"      --time-from REGEX   time from the output: the number after the\n"
"                          last line matching REGEX (or its first group),\n"
"                          in seconds unless followed by ms, us or ns\n"
"      --timeout SEC       kill a run that takes longer (an error)\n"
"      --pin MODE          workers: the PUs to the threads that work, in\n"
"                          creation order, helpers on the set (default;\n"
"                          the first run tells them apart); threads:\n"
"                          to every thread in creation order; set: the\n"
"                          whole command on the set of listed PUs; none\n"
"      --skip LIST         creation indexes (main thread 0) to leave on\n"
"                          the set instead of finding the helpers, as\n"
"                          likwid-pin -s: --skip 1,2\n"
"      --runner TEMPLATE   run TEMPLATE with /bin/sh instead, its\n"
"                          {cpus} {threads} {stress_cpus} {stress_kind}\n"
"                          {cmd} replaced; nothing is pinned here\n"
RUN_MEM_USAGE
"  -m, --machine FILE|NAME machine description sizing bw stressors\n"
"                          (default: this host's caches)\n"
"      --size X            the input size: {size} in the arguments or\n"
"                          TEMPLATE is replaced by X\n"
"      --record FILE       with --size: predict the run with the black-box\n"
"                          model of workload description FILE first,\n"
"                          then add the run's times to it (FILE is\n"
"                          rewritten atomically, under FILE.lock) and\n"
"                          print the prediction's error\n"
"      --map               where the threads ran (the last run): the\n"
"                          topology with the threads that ran most on\n"
"                          each PU, each thread's PUs, its share of its\n"
"                          time there and its migrations (sampled every\n"
"                          20 ms or more); in --json, its \"map\" object\n"
"  -o, --output DIR        with --map: write DIR/map.json, map.gp and\n"
"                          map.png (drawn by gnuplot)\n"
"      --show-output       copy the command's output to stderr\n"
"      --json              the result as JSON on stdout\n"
"  -q, --quiet             no progress lines\n"
"\n"
"exit status: 0 success, 1 the command failed or timed out, 2 usage.\n"
"See pandia-run(1).\n";

struct cli {
	bool json, quiet;
	int reps;
};

/* --record: the prediction made before the run, the update after. */
struct record {
	const char *path;
	double size;
	int p;			/* the model's threads: cores used */
	double predicted;	/* NAN: none */
	char why[512];		/* why there is none */
	unsigned warn;		/* BB_WARN_* of the prediction */
	unsigned flags;		/* BB_* of the updates, or-ed */
	int added;
	double tseq;		/* T_seq(size) after the update; NAN */
	double alpha;		/* after the update; NAN: none */
	char refused[700];	/* why the update was not saved, or "" */
};

/* The cores of OS PUs CPUS on machine M; without M, the distinct PUs. */
static int cores_of(const struct pandia_machine *m, const int *cpus, int n)
{
	int *pus = xcalloc((size_t)n + 1, sizeof(int)), i, j, p = 0;

	for (i = 0; i < n; i++) {
		if (m) {
			pus[i] = machine_pu_index(m, cpus[i]);
			continue;
		}
		for (j = 0; j < i && cpus[j] != cpus[i]; j++)
			;
		p += j == i;
	}
	if (m)
		p = blackbox_cores(m, pus, n);
	free(pus);
	return p;
}

/*
 * Predict first: the model as FILE holds it now.  A model that cannot
 * predict yet (too few sizes, no alpha) is no error: the run still
 * teaches it.  -1 only when FILE cannot be read or holds no model.
 */
static int record_predict(struct record *rec)
{
	struct pandia_workload *w;
	struct pandia_error err;
	struct blackbox bb;
	int ret = -1;

	w = workload_load(rec->path, &err);
	if (!w || blackbox_of_workload(&bb, w, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	rec->predicted = NAN;
	if (blackbox_predict(&bb, rec->size, rec->p, &rec->predicted,
			     &rec->warn, &err) < 0) {
		rec->predicted = NAN;
		snprintf(rec->why, sizeof(rec->why), "%s", err.text);
	}
	ret = 0;
out:
	workload_free(w);
	return ret;
}

/*
 * Then add every time to the model, under an exclusive lock on
 * FILE.lock held from reading FILE to renaming the new one over it:
 * two runs recording at once each add to what the other wrote.  (The
 * lock is on a file of its own because the rename replaces FILE's
 * inode, and a lock on the old one would not stop the next reader.)
 */
static int record_update(struct record *rec, const struct run_result *r)
{
	struct pandia_workload *w = NULL;
	struct pandia_error err;
	struct blackbox bb, before;
	int fd, i, ret = -1;
	unsigned fl;

	fd = lock_path(rec->path, &err);
	if (fd < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	w = workload_load(rec->path, &err);
	if (!w || blackbox_of_workload(&bb, w, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	before = bb;
	for (i = 0; i < r->n_times; i++) {
		if (blackbox_update(&bb, rec->size, rec->p, r->times[i], &fl,
				    &err) < 0) {
			error("run %d of %d not recorded: %s", i + 1,
			      r->n_times, err.text);
			goto out;
		}
		rec->flags |= fl;
		rec->added++;
	}
	rec->tseq = blackbox_tseq(&bb, rec->size);
	rec->alpha = bb.has_alpha ? bb.alpha : NAN;
	if (blackbox_plausible(&before, &bb, rec->size, &err) < 0) {
		/* a model wrecked by one odd run is worse than none */
		snprintf(rec->refused, sizeof(rec->refused), "%s", err.text);
		rec->added = 0;
		ret = 0;
		goto out;
	}
	blackbox_store(w, &bb);
	if (workload_save(w, rec->path, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	ret = 0;
out:
	workload_free(w);
	if (fd >= 0)
		close(fd);	/* and the lock with it */
	return ret;
}

static double record_error(const struct record *rec,
			   const struct run_result *r)
{
	return (rec->predicted - r->median) / r->median;
}

static void record_print(const struct record *rec,
			 const struct run_result *r)
{
	unsigned bit;

	if (rec->refused[0])
		printf("recorded:  nothing: the update was refused (below)\n");
	else
		printf("recorded:  %d time%s at size %.15g on %d core%s into "
		       "%s\n", rec->added, rec->added == 1 ? "" : "s",
		       rec->size, rec->p, rec->p == 1 ? "" : "s", rec->path);
	if (isnan(rec->predicted))
		printf("predicted: none (%s)\n", rec->why);
	else
		printf("predicted: %.4g s before the run, error %+.1f%% of "
		       "the median\n", rec->predicted,
		       100 * record_error(rec, r));
	for (bit = BB_ADDED_TSEQ; bit <= BB_ALPHA_BAD_TSEQ; bit <<= 1)
		if (rec->flags & bit)
			printf("model:     %s\n", blackbox_flag_text(bit));
	printf("model:     %s T_seq(%.15g) ", rec->refused[0] ?
	       "would have made" : "now", rec->size);
	if (isnan(rec->tseq))
		fputs("not known", stdout);
	else
		printf("%.4g s", rec->tseq);
	if (isnan(rec->alpha))
		fputs(", alpha not known\n", stdout);
	else
		printf(", alpha %.4g\n", rec->alpha);
}

static json_t *record_json(const struct record *rec,
			   const struct run_result *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "workload", json_string(rec->path));
	json_object_set_new(o, "size", json_real(rec->size));
	json_object_set_new(o, "cores", json_integer(rec->p));
	json_object_set_new(o, "added", json_integer(rec->added));
	json_object_set_new(o, "refused", rec->refused[0] ?
			    json_string(rec->refused) : json_null());
	if (isnan(rec->predicted)) {
		json_object_set_new(o, "predicted", json_null());
		json_object_set_new(o, "error", json_null());
		json_object_set_new(o, "why", json_string(rec->why));
	} else {
		json_object_set_new(o, "predicted",
				    json_real(rec->predicted));
		json_object_set_new(o, "error",
				    json_real(record_error(rec, r)));
	}
	json_object_set_new(o, "tseq", isnan(rec->tseq) ? json_null() :
			    json_real(rec->tseq));
	json_object_set_new(o, "alpha", isnan(rec->alpha) ? json_null() :
			    json_real(rec->alpha));
	return o;
}

static void on_run(const struct run_result *r, int run, double secs,
		   void *data)
{
	const struct cli *cli = data;

	if (cli->quiet)
		return;
	/* progress, not an error: "pandia run: run 1 of 3: ..." */
	if (run == 0)
		progress("run", "warm-up run: %.4g s", secs);
	else
		progress("run", "run %d of %d: %.4g s", run, cli->reps, secs);
}

/* "12.3 GB/s", "4.56 Gops/s" */
static void print_rate(FILE *out, double v, const char *unit)
{
	bool bytes = !strcmp(unit, "bytes/s");

	if (isnan(v))
		fputs("unknown", out);
	else
		fprintf(out, "%.3g %s", v / 1e9, bytes ? "GB/s" : "Gops/s");
}

/* seconds as "0.123", or "-" */
static const char *secs(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.3f", v);
	return buf;
}

#define TEXT_MAX_THREADS 64	/* rows of the text table; --json has all */

static void print_threads(const struct run_opts *o,
			  const struct run_result *r)
{
	static const char *const head[RUN_BLOCK_KINDS] = {
		"mutex", "cond", "barrier", "join", "sem", "other",
	};
	char b[RUN_BLOCK_KINDS + 4][32];
	int i, k;

	if (r->threads_created >= 0)
		printf("threads:   %d in %d process%s (%d created): %d "
		       "worker%s, %d helper%s\n", r->n_threads,
		       r->processes, r->processes == 1 ? "" : "es",
		       r->threads_created, r->workers,
		       r->workers == 1 ? "" : "s", r->n_threads - r->workers,
		       r->n_threads - r->workers == 1 ? "" : "s");
	else
		printf("threads:   %d seen\n", r->n_threads);
	printf("seconds:   from the command's start; on a CPU, waiting for "
	       "one, blocked by kind\n");
	printf("  %-5s %-7s %-7s %-4s %7s %7s %7s %7s", "index", "pid", "tid",
	       "cpu", "start", "end", "cpu", "runq");
	for (k = 0; k < RUN_BLOCK_KINDS; k++)
		printf(" %7s", head[k]);
	printf("  %-6s %s\n", "role", "allowed");
	for (i = 0; i < r->n_threads && i < TEXT_MAX_THREADS; i++) {
		const struct run_thread *t = &r->threads[i];
		char idx[16], pu[16];

		snprintf(idx, sizeof(idx), "%d", t->index);
		snprintf(pu, sizeof(pu), "%d", t->cpu);
		printf("  %-5s %-7d %-7d %-4s %7s %7s %7s %7s",
		       t->index < 0 ? "-" : idx, t->pid, t->tid,
		       t->cpu >= 0 ? pu : o->pin == RUN_PIN_NONE ? "-" : "set",
		       secs(b[0], sizeof(b[0]), t->start),
		       secs(b[1], sizeof(b[1]), t->end),
		       secs(b[2], sizeof(b[2]), t->cpu_time),
		       secs(b[3], sizeof(b[3]), t->runqueue_wait));
		for (k = 0; k < RUN_BLOCK_KINDS; k++)
			printf(" %7s", secs(b[4 + k], sizeof(b[4 + k]),
					    t->blocked[k]));
		printf("  %-6s %s%s\n", t->worker ? "worker" : "helper",
		       t->allowed ? t->allowed : "?",
		       t->overridden ? " (set by the program)" : "");
	}
	if (r->n_threads > TEXT_MAX_THREADS)
		printf("  ... and %d more (--json lists every thread)\n",
		       r->n_threads - TEXT_MAX_THREADS);
}

static void print_text(const struct run_opts *o, const struct run_result *r)
{
	char *cpus = cpulist_format(o->cpus, o->n_cpus);
	int i;

	printf("command:   %s\n", r->command);
	printf("cpus:      %s (%d thread%s, pin %s)\n", cpus, o->n_cpus,
	       o->n_cpus == 1 ? "" : "s",
	       o->runner ? "runner" : run_pin_name(o->pin));
	if (o->mem && o->mem->mode != RUN_MEM_DEFAULT) {
		char pol[96];

		printf("memory:    %s\n", run_mempolicy_text(o->mem, pol,
							 sizeof(pol)));
	}
	printf("runs:      %d%s\n", r->n_times,
	       isnan(r->warmup_time) ? "" : " after 1 warm-up");
	printf("time:      median %.4g s, min %.4g s, max %.4g s, "
	       "cv %.1f%%\n", r->median, r->min, r->max, 100 * r->cv);
	for (i = 0; i < r->n_stress; i++) {
		const struct run_stress_result *s = &r->stress[i];

		printf("stressor:  %s on PU %d: ", s->kind, s->pu);
		print_rate(stdout, s->median, s->unit);
		if (o->stress_alone > 0) {
			printf("; alone before the command ");
			print_rate(stdout, s->alone_median, s->unit);
			if (isfinite(s->after_median)) {
				printf(", after it ");
				print_rate(stdout, s->after_median, s->unit);
			}
		}
		putchar('\n');
	}
	if (!o->runner && r->n_threads)
		print_threads(o, r);
	free(cpus);
}

static void warnings(const struct run_opts *o, const struct run_result *r)
{
	bool pinning = !o->runner && (o->pin == RUN_PIN_WORKERS ||
				      o->pin == RUN_PIN_THREADS);

	if (r->n_times > 1 && r->spread > 0.05)
		warning("the times spread %.1f%% "
			"(min %.4g s, max %.4g s); the machine may be busy, "
			"or the program's time varies: use more "
			"repetitions", 100 * r->spread, r->min, r->max);
	if (pinning && r->static_exe)
		warning("'%s' is statically linked: "
			"LD_PRELOAD cannot act, so its threads could not be "
			"pinned one by one nor their waits accounted; they "
			"ran on the set of listed PUs (as --pin set)",
			r->command);
	else if (pinning && r->threads_created < 0)
		warning("the command did not load "
			"libpandia-pin.so (a setuid binary, or one that "
			"clears LD_PRELOAD?): its threads were only kept on "
			"the set of listed PUs");
	if (pinning && r->unpinned) {
		char *u = run_unpinned_text(r->unpinned, r->unpinned_name);

		warning("%s could not be pinned one by one; found in /proc, "
			"%s", u, r->unpinned_narrow ? "some were allowed on "
			"fewer PUs than the listed ones (see the thread "
			"table): the program that started them pinned them "
			"there" : "they ran on the set of listed PUs");
		free(u);
	}
	if (pinning && r->overridden)
		warning("the program set the "
			"affinity of %d thread%s itself, overriding pandia's "
			"pin (see the thread table): %s", r->overridden,
			r->overridden == 1 ? "" : "s",
			"pin it with --pin set or --pin none and its own "
			"options ({cpus})");
	if (!o->runner && o->pin != RUN_PIN_NONE && r->misplaced)
		warning("%d thread%s not "
			"allowed on the PU planned for %s (see the thread "
			"table)", r->misplaced,
			r->misplaced == 1 ? " was" : "s were",
			r->misplaced == 1 ? "it" : "them");
	/* one PU listed (0 or 0,0): every thread is there, whatever the
	   list's length; going round it again is no news */
	if (pinning && r->wrapped && !run_one_pu(o->cpus, o->n_cpus))
		warning("more threads to pin than "
			"the %d listed PUs: %d went to the list again from "
			"its start (wrap-around)%s", o->n_cpus, r->wrapped,
			o->pin == RUN_PIN_WORKERS ? "; the command may not "
			"honour {threads}" : "");
	if (pinning && r->role_changes)
		warning("%d thread%s did not have "
			"the role (worker or helper) that the first run "
			"found for %s: the program's threads vary from run "
			"to run; --skip or --pin threads fixes the pins",
			r->role_changes, r->role_changes == 1 ? "" : "s",
			r->role_changes == 1 ? "it" : "them");
	if (pinning && o->pin == RUN_PIN_WORKERS && r->threads_created >= 0 &&
	    r->most_workers > 0 && r->most_workers < o->n_cpus)
		warning("at most %d worker thread%s "
			"at once for %d listed PUs: the command ignores "
			"{threads} and OMP_NUM_THREADS, or had too little "
			"work to keep more busy (a program that cuts its "
			"input into jobs, given a small input)",
			r->most_workers, r->most_workers == 1 ? "" : "s",
			o->n_cpus);
	if (r->leftovers)
		warning("the command left %d "
			"process%s running; pandia killed %s",
			r->leftovers, r->leftovers == 1 ? "" : "es",
			r->leftovers == 1 ? "it" : "them");
}

static void print_failure(const struct run_result *r,
			  const struct pandia_error *err)
{
	perr_print(err, stderr);
	if (!r->interrupted)
		show_stderr_tail(r->stderr_tail);
}

/*
 * A CPU expression over machine M, or this host's topology without
 * one.  Prints why and returns -1 when it is wrong.
 */
static int cpus_list(const struct pandia_machine *m, const char *expr,
		     int **cpus, int *n)
{
	struct pandia_machine *h = NULL;
	struct pandia_error err;
	int ret = -1;

	if (!m) {
		h = machine_new();
		if (topology_load(h, NULL, &err) < 0)
			goto out;
	}
	ret = cpuexpr_parse(m ? m : h, expr, cpus, n, &err);
out:
	if (ret < 0)
		error_perr(&err);
	machine_free(h);
	return ret;
}

/* What the command line asks of 'pandia run', besides the shared options. */
struct run_args {
	struct run_opts o;
	struct record rec;
	const char *cpus_arg;
	struct run_stressor *stress;
	int n_stress;
	int *skip, n_skip;
	bool show_output;
	bool map;		/* --map */
	const char *map_dir;	/* -o DIR: the map's files */
};

static void stress_cb(const char *cmd, const struct option *opt,
		      void *field, const char *arg)
{
	struct run_args *a = OPT_CONTAINER(field, struct run_args, stress);
	struct pandia_error err;

	(void)opt;
	a->stress = xrealloc(a->stress, sizeof(*a->stress) *
			     (size_t)(a->n_stress + 1));
	if (run_stressor_parse(arg, &a->stress[a->n_stress], &err) < 0)
		usage_error(cmd, "%s", err.text);
	a->n_stress++;
}

static void stress_alone_cb(const char *cmd, const struct option *opt,
			    void *field, const char *arg)
{
	double *t = field;

	(void)opt;
	if (!parse_double(arg, t) || !(*t > 0) || *t > 60)
		usage_error(cmd, "--stress-alone takes seconds, above 0 and at "
			    "most 60, not '%s'", arg);
}

static void pin_cb(const char *cmd, const struct option *opt, void *field,
		   const char *arg)
{
	enum run_pin *pin = field;

	(void)opt;
	if (!strcmp(arg, "workers"))
		*pin = RUN_PIN_WORKERS;
	else if (!strcmp(arg, "threads") || !strcmp(arg, "shim"))
		*pin = RUN_PIN_THREADS;
	else if (!strcmp(arg, "set"))
		*pin = RUN_PIN_SET;
	else if (!strcmp(arg, "none"))
		*pin = RUN_PIN_NONE;
	else
		usage_error(cmd, "--pin takes workers, threads, set or none, "
			    "not '%s'", arg);
}

static void skip_cb(const char *cmd, const struct option *opt, void *field,
		    const char *arg)
{
	struct run_args *a = OPT_CONTAINER(field, struct run_args, skip);
	struct pandia_error err;

	(void)opt;
	free(a->skip);
	a->skip = NULL;
	if (cpulist_parse(arg, &a->skip, &a->n_skip, &err) < 0)
		usage_error(cmd, "--skip takes creation indexes, as 1,2 or "
			    "1-3: %s", err.text);
}

#define A struct run_args
static const struct option run_options[] = {
	OPT_STRING('c', "cpus", A, cpus_arg),
	OPT_CALLBACK('s', "stress", A, stress, stress_cb),
	OPT_CALLBACK(0, "stress-alone", A, o.stress_alone, stress_alone_cb),
	OPT_CALLBACK(0, "pin", A, o.pin, pin_cb),
	OPT_CALLBACK(0, "skip", A, skip, skip_cb),
	OPT_SHARED(opt_size),
	OPT_STRING(0, "record", A, rec.path),
	OPT_FLAG(0, "show-output", A, show_output),
	OPT_FLAG(0, "map", A, map),
	OPT_SHARED(opt_output),
	OPT_SHARED(opt_reps),
	OPT_SHARED(opt_timing),
	OPT_SHARED(opt_runner),
	OPT_SHARED(opt_memory),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_json),
	OPT_SHARED(opt_quiet),
	OPT_END(),
};
#undef A

/*
 * The options into *A and *C, checked as far as they can be without
 * the machine; returns the index of the command's first word.
 */
static int parse_args(int argc, char **argv, struct run_args *a,
		      struct opt_common *c)
{
	struct pandia_error err;
	int first;

	memset(a, 0, sizeof(*a));
	run_opts_init(&a->o);
	a->rec = (struct record){ .size = NAN, .tseq = NAN, .alpha = NAN };
	a->n_skip = -1;
	opt_common_init(c, 3);
	first = parse_options("run", argc, argv, run_options, a, c);
	if (!a->cpus_arg)
		usage_error("run", "--cpus LIST is required");
	if (!cpuexpr_needs_machine(a->cpus_arg) &&
	    cpuexpr_parse(NULL, a->cpus_arg, (int **)&a->o.cpus,
			  &a->o.n_cpus, &err) < 0)
		usage_error("run", "%s", err.text);
	if (first >= argc && !c->runner)
		usage_error("run", "no command given: pandia run --cpus %s "
			    "-- CMD [ARG...]", a->cpus_arg);
	a->rec.size = c->size;
	a->map_dir = c->output;
	if (a->map_dir && !a->map)
		usage_error("run", "-o DIR writes the map's files: it needs "
			    "--map");
	if (a->map && c->runner)
		usage_error("run", "--map needs the command run here, not "
			    "through --runner: its threads are sampled in "
			    "/proc");
	if (a->rec.path && isnan(a->rec.size))
		usage_error("run", "--record needs the run's input size "
			    "(--size X)");
	return first;
}

/* The shared options and the machine into a->o. */
static void set_opts(struct run_args *a, const struct opt_common *c,
		     const struct pandia_machine *m, struct cli *cli)
{
	struct run_opts *o = &a->o;

	o->warmup = c->warmup;
	o->time_from = c->time_from;
	o->timeout = c->timeout;
	o->runner = c->runner;
	o->mem = c->mem.mode != RUN_MEM_DEFAULT ? &c->mem : NULL;
	if (a->show_output)
		o->output_fd = 2;
	o->skip = a->skip;
	o->n_skip = a->n_skip;
	o->stress = a->stress;
	o->n_stress = a->n_stress;
	o->repetitions = c->reps;
	o->machine = m;
	o->size = c->size;
	o->map = a->map;
	cli->json = c->json;
	cli->quiet = c->quiet;
	cli->reps = c->reps;
	o->on_run = on_run;
	o->data = cli;
}

/*
 * --map: the map as text after the rest (the topology of -m, else this
 * host's), and its files with -o DIR.  -1 when they cannot be written.
 */
static int report_map(const struct run_args *a, const struct cli *cli,
		      const struct run_result *r,
		      const struct pandia_machine *m)
{
	struct pandia_machine *h = NULL;
	struct pandia_error err;
	char *cpus, *title;
	int ret = 0;

	if (!r->map)
		return 0;
	if (!m) {
		h = machine_new();
		if (topology_load(h, NULL, &err) < 0) {
			warning("the map without the topology: %s", err.text);
			machine_free(h);
			h = NULL;
		}
		m = h;
	}
	if (!cli->json)
		run_map_print(r->map, m);
	if (a->map_dir) {
		cpus = cpulist_format(a->o.cpus, a->o.n_cpus);
		title = xasprintf("%s, --cpus %s: where the threads ran",
				  r->command, cpus);
		ret = run_map_save(r->map, m, a->map_dir, title);
		free(title);
		free(cpus);
	}
	machine_free(h);
	return ret;
}

/* The result, on stdout as text or JSON, and the warnings after it. */
static void report(const struct run_args *a, const struct cli *cli,
		   const struct run_result *r)
{
	const struct record *rec = &a->rec;

	if (cli->json) {
		json_t *j = run_result_to_json(&a->o, r);

		if (!isnan(rec->size))
			json_object_set_new(j, "size", json_real(rec->size));
		if (rec->path)
			json_object_set_new(j, "record", record_json(rec, r));
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
		putchar('\n');
		json_decref(j);
	} else {
		print_text(&a->o, r);
		if (rec->path)
			record_print(rec, r);
	}
	warnings(&a->o, r);
	if (rec->path && blackbox_warning(rec->warn))
		warning("the prediction: %s", blackbox_warning(rec->warn));
}

int cmd_run(int argc, char **argv)
{
	struct pandia_machine *machine = NULL;
	struct pandia_error err;
	struct opt_common c;
	struct run_args a;
	struct run_result r;
	struct cli cli;
	char *shim = NULL, *machine_path = NULL;
	int *cpus = NULL, n_cpus = 0, ret = 1, i, first;

	run_result_init(&r);
	first = parse_args(argc, argv, &a, &c);
	cpus = (int *)a.o.cpus;
	n_cpus = a.o.n_cpus;
	if (c.machine) {
		machine = open_machine("run", c.machine, true, &machine_path);
		if (!machine)
			goto out;
	}
	if (!cpus && cpus_list(machine, a.cpus_arg, &cpus, &n_cpus) < 0)
		usage_error("run", "--cpus: see 'pandia cpus --help'");
	if (a.n_skip >= 0 && (a.o.pin == RUN_PIN_SET ||
			      a.o.pin == RUN_PIN_NONE || c.runner))
		usage_error("run", "--skip needs --pin workers or threads");
	a.o.cpus = cpus;
	a.o.n_cpus = n_cpus;
	set_opts(&a, &c, machine, &cli);
	if (a.map_dir && run_map_check_dir(a.map_dir) < 0)
		goto out;
	warn_cpu_quota(n_cpus, "the placement's");
	if (a.rec.path) {
		a.rec.p = cores_of(machine, cpus, n_cpus);
		if (record_predict(&a.rec) < 0)
			goto out;
	}
	/* next to this binary (build dir), or where it is installed */
	if (!a.o.runner && (a.o.pin == RUN_PIN_WORKERS ||
			    a.o.pin == RUN_PIN_THREADS))
		a.o.shim_path = shim = run_find_shim(pandia_exe_dir());

	if (run_execute(&a.o, argv + first, &r, &err) < 0) {
		if (r.interrupted) {
			perr_print(&err, stderr);
			run_reraise(r.interrupted);
		}
		print_failure(&r, &err);
		goto out;
	}
	if (a.rec.path && record_update(&a.rec, &r) < 0)
		goto out;
	report(&a, &cli, &r);
	ret = report_map(&a, &cli, &r, machine) < 0;
	if (a.rec.refused[0]) {
		error("not recorded into %s (the file is unchanged): %s",
		      a.rec.path, a.rec.refused);
		ret = 1;
	}
out:
	run_result_release(&r);
	for (i = 0; i < a.n_stress; i++)
		run_stressor_release(&a.stress[i]);
	free(a.stress);
	free(a.skip);
	free(cpus);
	free(shim);
	free(machine_path);
	machine_free(machine);
	return ret;
}
