/*
 * cmd_run.c - pandia run: run a command at a placement, timed.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "common/cmd.h"
#include "common/cpulist.h"
#include "common/util.h"
#include "profiler/run.h"

const char usage_run[] =
"usage: pandia run --cpus LIST [options] -- CMD [ARG...]\n"
"\n"
"Run CMD with its threads pinned to LIST (one PU per thread, in\n"
"thread-creation order, main thread first; a PU may repeat), repeat it\n"
"and print its median time.  {threads} and {cpus} in the arguments are\n"
"replaced; OMP_NUM_THREADS, PANDIA_THREADS, OMP_PLACES and\n"
"OMP_PROC_BIND are set.  The command's output is hidden unless\n"
"--show-output; results go to stdout, progress to stderr.\n"
"\n"
"options:\n"
"  -c, --cpus LIST         the placement, e.g. 1,0,1 or 0-3\n"
"  -s, --stress KIND@LIST  co-run a stressor on each PU of LIST while the\n"
"                          command runs: cpu (integer loop), bw:LEVEL\n"
"                          (reads at L1, L2, L3 or dram; bw:LEVEL:rw for\n"
"                          read-modify-write); repeatable\n"
"  -r, --repetitions N     measured runs (default 3)\n"
"      --no-warmup         no unmeasured run first\n"
"      --time-from REGEX   time from the output: the number after the\n"
"                          last line matching REGEX (or its first group),\n"
"                          in seconds unless followed by ms, us or ns\n"
"      --timeout SEC       kill a run that takes longer (an error)\n"
"      --pin MODE          shim: each thread to its PU (default); set:\n"
"                          whole process on the set of listed PUs; none\n"
"      --runner TEMPLATE   run TEMPLATE with /bin/sh instead, its\n"
"                          {cpus} {threads} {stress_cpus} {stress_kind}\n"
"                          {cmd} replaced; nothing is pinned here\n"
"  -m, --machine FILE      machine description sizing bw stressors\n"
"                          (default: this host's caches)\n"
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

static void on_run(const struct run_result *r, int run, double secs,
		   void *data)
{
	const struct cli *cli = data;

	if (cli->quiet)
		return;
	if (run == 0)
		fprintf(stderr, "pandia: warm-up run: %.4g s\n", secs);
	else
		fprintf(stderr, "pandia: run %d of %d: %.4g s\n", run,
			cli->reps, secs);
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

static void print_text(const struct run_opts *o, const struct run_result *r)
{
	char *cpus = cpulist_format(o->cpus, o->n_cpus);
	int i;

	printf("command:   %s\n", r->command);
	printf("cpus:      %s (%d thread%s)\n", cpus, o->n_cpus,
	       o->n_cpus == 1 ? "" : "s");
	printf("runs:      %d%s\n", r->n_times,
	       isnan(r->warmup_time) ? "" : " after 1 warm-up");
	printf("time:      median %.4g s, min %.4g s, max %.4g s, "
	       "cv %.1f%%\n", r->median, r->min, r->max, 100 * r->cv);
	for (i = 0; i < r->n_stress; i++) {
		const struct run_stress_result *s = &r->stress[i];

		printf("stressor:  %s on PU %d: ", s->kind, s->pu);
		print_rate(stdout, s->median, s->unit);
		putchar('\n');
	}
	if (!o->runner && r->n_threads) {
		if (r->threads_created >= 0)
			printf("threads:   %d created by the program, in %d "
			       "process%s\n", r->threads_created,
			       r->processes, r->processes == 1 ? "" : "es");
		else
			printf("threads:   %d seen\n", r->n_threads);
		printf("  %-8s %-8s %-6s %-8s %s\n", "pid", "tid", "index",
		       "planned", "allowed");
		for (i = 0; i < r->n_threads; i++) {
			const struct run_thread *t = &r->threads[i];
			char idx[16], pl[16];

			snprintf(idx, sizeof(idx), "%d", t->index);
			snprintf(pl, sizeof(pl), "%d", t->planned);
			printf("  %-8d %-8d %-6s %-8s %s\n", t->pid, t->tid,
			       t->index < 0 ? "-" : idx,
			       t->planned < 0 ? (o->pin == RUN_PIN_NONE ?
						 "-" : "set") : pl,
			       t->allowed ? t->allowed : "?");
		}
	}
	free(cpus);
}

static void warnings(const struct run_opts *o, const struct run_result *r)
{
	int beyond = 0, i;

	if (r->n_times > 1 && r->spread > 0.05)
		fprintf(stderr, "pandia: warning: the times spread %.1f%% "
			"(min %.4g s, max %.4g s); the machine may be busy, "
			"or the program's time varies: use more "
			"repetitions\n", 100 * r->spread, r->min, r->max);
	if (!o->runner && o->pin == RUN_PIN_SHIM && r->threads_created < 0)
		fprintf(stderr, "pandia: warning: the command did not load "
			"libpandia-pin.so (a static or setuid binary?): its "
			"threads were only kept on the set of listed PUs\n");
	if (!o->runner && o->pin != RUN_PIN_NONE && r->misplaced)
		fprintf(stderr, "pandia: warning: %d thread%s not "
			"allowed on the PU planned for %s (see the thread "
			"table): the program may set its own affinity\n",
			r->misplaced, r->misplaced == 1 ? " was" : "s were",
			r->misplaced == 1 ? "it" : "them");
	for (i = 0; i < r->n_threads; i++)
		beyond += r->threads[i].index >= o->n_cpus;
	if (beyond)
		fprintf(stderr, "pandia: warning: %d thread%s beyond the %d "
			"listed PUs, allowed on all of them\n", beyond,
			beyond == 1 ? "" : "s", o->n_cpus);
	if (r->leftovers)
		fprintf(stderr, "pandia: warning: the command left %d "
			"process%s running; pandia killed %s\n",
			r->leftovers, r->leftovers == 1 ? "" : "es",
			r->leftovers == 1 ? "it" : "them");
}

static void print_failure(const struct run_result *r,
			  const struct pandia_error *err)
{
	const char *p, *nl;

	perr_print(err, stderr);
	if (!r->stderr_tail || r->interrupted)
		return;
	fputs("pandia: the end of its standard error:\n", stderr);
	for (p = r->stderr_tail; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(stderr, "  | %s\n", p);
			break;
		}
		fprintf(stderr, "  | %.*s\n", (int)(nl - p), p);
	}
}

enum {
	OPT_NO_WARMUP = 256, OPT_TIME_FROM, OPT_TIMEOUT, OPT_JSON,
	OPT_PIN, OPT_RUNNER, OPT_SHOW_OUTPUT,
};

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "stress", required_argument, NULL, 's' },
		{ "repetitions", required_argument, NULL, 'r' },
		{ "no-warmup", no_argument, NULL, OPT_NO_WARMUP },
		{ "time-from", required_argument, NULL, OPT_TIME_FROM },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "runner", required_argument, NULL, OPT_RUNNER },
		{ "machine", required_argument, NULL, 'm' },
		{ "show-output", no_argument, NULL, OPT_SHOW_OUTPUT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct pandia_machine *machine = NULL;
	struct run_stressor *stress = NULL;
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	struct cli cli = { .reps = 3 };
	const char *cpus_arg = NULL, *machine_arg = NULL;
	char *shim = NULL;
	int *cpus = NULL, n_cpus = 0, n_stress = 0, ret = 1, c, i;

	run_opts_init(&o);
	run_result_init(&r);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:s:r:m:q", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			cpus_arg = optarg;
			break;
		case 's':
			stress = xrealloc(stress, sizeof(*stress) *
					  (size_t)(n_stress + 1));
			if (run_stressor_parse(optarg, &stress[n_stress],
					       &err) < 0)
				usage_error("run", "%s", err.text);
			n_stress++;
			break;
		case 'r':
			if (!parse_int(optarg, &cli.reps) || cli.reps < 1)
				usage_error("run", "-r takes a number of "
					    "repetitions >= 1, not '%s'",
					    optarg);
			break;
		case OPT_NO_WARMUP:
			o.warmup = false;
			break;
		case OPT_TIME_FROM:
			o.time_from = optarg;
			break;
		case OPT_TIMEOUT:
			if (!parse_double(optarg, &o.timeout) ||
			    !(o.timeout > 0))
				usage_error("run", "--timeout takes seconds "
					    "> 0, not '%s'", optarg);
			break;
		case OPT_PIN:
			if (!strcmp(optarg, "shim"))
				o.pin = RUN_PIN_SHIM;
			else if (!strcmp(optarg, "set"))
				o.pin = RUN_PIN_SET;
			else if (!strcmp(optarg, "none"))
				o.pin = RUN_PIN_NONE;
			else
				usage_error("run", "--pin takes shim, set or "
					    "none, not '%s'", optarg);
			break;
		case OPT_RUNNER:
			o.runner = optarg;
			break;
		case 'm':
			machine_arg = optarg;
			break;
		case OPT_SHOW_OUTPUT:
			o.output_fd = 2;
			break;
		case OPT_JSON:
			cli.json = true;
			break;
		case 'q':
			cli.quiet = true;
			break;
		default:
			if (optopt && optopt < 256)
				usage_error("run", "unknown or incomplete "
					    "option '-%c'", optopt);
			usage_error("run", "unknown or incomplete option "
				    "'%s'", argv[optind - 1]);
		}
	}
	if (!cpus_arg)
		usage_error("run", "--cpus LIST is required");
	if (cpulist_parse(cpus_arg, &cpus, &n_cpus, &err) < 0)
		usage_error("run", "%s", err.text);
	if (optind >= argc && !o.runner)
		usage_error("run", "no command given: pandia run --cpus %s "
			    "-- CMD [ARG...]", cpus_arg);
	if (o.time_from) {
		struct run_regex *rx = run_regex_new(o.time_from, &err);

		if (!rx)
			usage_error("run", "%s", err.text);
		run_regex_free(rx);
	}
	if (machine_arg) {
		machine = machine_load(machine_arg, &err);
		if (!machine) {
			perr_print(&err, stderr);
			goto out;
		}
	}
	o.cpus = cpus;
	o.n_cpus = n_cpus;
	o.stress = stress;
	o.n_stress = n_stress;
	o.repetitions = cli.reps;
	o.machine = machine;
	o.on_run = on_run;
	o.data = &cli;
	/* next to this binary (build dir), or where it is installed */
	if (!o.runner && o.pin == RUN_PIN_SHIM)
		o.shim_path = shim = run_find_shim(pandia_exe_dir());

	if (run_execute(&o, argv + optind, &r, &err) < 0) {
		if (r.interrupted) {
			perr_print(&err, stderr);
			run_reraise(r.interrupted);
		}
		print_failure(&r, &err);
		goto out;
	}
	if (cli.json) {
		json_t *j = run_result_to_json(&o, &r);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
		putchar('\n');
		json_decref(j);
	} else {
		print_text(&o, &r);
	}
	warnings(&o, &r);
	ret = 0;
out:
	run_result_release(&r);
	for (i = 0; i < n_stress; i++)
		run_stressor_release(&stress[i]);
	free(stress);
	free(cpus);
	free(shim);
	machine_free(machine);
	return ret;
}
