/*
 * cmd_profile.c - pandia profile: the six profiling runs of the Pandia
 * paper (section 4) and the workload description they give.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cmd.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "profiler/profile.h"
#include "profiler/run.h"

const char usage_profile[] =
"usage: pandia profile -m MACHINE [options] -- CMD [ARG...]\n"
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
"  -m, --machine FILE      the machine description (pandia machine)\n"
"  -o, --output FILE       write the description to FILE (atomically)\n"
"                          and a summary to stdout; default: the\n"
"                          description on stdout\n"
"      --counters BACKEND  auto (perf when it can count here, else\n"
"                          probe; the default), perf, or probe (no PMU:\n"
"                          task-clock and co-run bandwidth probes)\n"
"  -r, --repetitions N     measured repetitions of every run (default 3;\n"
"                          the median is kept)\n"
"      --no-warmup         no unmeasured run first\n"
"      --time-from REGEX   time from the command's output (the number\n"
"                          after the last line matching REGEX, or its\n"
"                          first group) instead of its wall time\n"
"      --timeout SEC       a run that takes longer is an error\n"
"      --runner TEMPLATE   run TEMPLATE with /bin/sh instead of CMD:\n"
"                          {cpus} {threads} {stress_cpus} {stress_kind}\n"
"                          {cmd} replaced; for a workload run elsewhere\n"
"                          (the host is then not checked)\n"
"      --busy-idle         keep otherwise idle cores busy with a\n"
"                          core-local loop (steadies turbo frequencies)\n"
"      --nice N            run the command and its co-runners at\n"
"                          niceness N (-20: ahead of other work; needs\n"
"                          CAP_SYS_NICE to go below the current one)\n"
"      --solve MODE        fit (default: each parameter such that the\n"
"                          partial model reproduces its run) or paper\n"
"                          (the closed forms of sections 4.2 to 4.5)\n"
"      --force             profile even if MACHINE describes another host\n"
"  -q, --quiet             no progress lines\n"
"\n"
"exit status: 0 success, 1 failure (nothing written), 2 usage.\n"
"See pandia-profile(1) and docs/profiling.md.\n";

enum {
	OPT_COUNTERS = 256,
	OPT_NO_WARMUP,
	OPT_TIME_FROM,
	OPT_TIMEOUT,
	OPT_RUNNER,
	OPT_BUSY_IDLE,
	OPT_SOLVE,
	OPT_FORCE,
	OPT_NICE,
};

static void progress(const struct profile_progress *pp, void *arg)
{
	char left[48] = "";

	if (pp->left >= 0)
		snprintf(left, sizeof(left), ", about %.0f s left",
			 ceil(pp->left));
	if (pp->run)
		fprintf(stderr, "pandia profile: run %d of 6, repetition %d "
			"of %d (%s)%s\n", pp->run, pp->rep, pp->reps, pp->what,
			left);
	else
		fprintf(stderr, "pandia profile: probe run %s, repetition %d "
			"of %d (%s)%s\n", pp->id, pp->rep, pp->reps, pp->what,
			left);
}

static void print_param(FILE *out, const char *name,
			const struct wl_param *p, const char *unit)
{
	fprintf(out, "  %-17s", name);
	if (p->known) {
		fprintf(out, "%.4g%s", p->value, unit);
		if (p->uncertainty >= 0)
			fprintf(out, " +- %.2g", p->uncertainty);
		if (p->source)
			fprintf(out, "   (%s)", p->source);
	} else {
		fputs(p->status ? p->status : "not measured", out);
	}
	fputc('\n', out);
	if (p->known && p->status)
		fprintf(out, "  %17s%s\n", "", p->status);
}

static void summary(FILE *out, const struct pandia_workload *w,
		    const char *file)
{
	int r;

	fprintf(out, "workload description: %s (counters: %s)\n", file,
		w->counters ? w->counters : "?");
	print_param(out, "t1", &w->t1, " s");
	print_param(out, "p", &w->p, "");
	print_param(out, "o_s", &w->o_s, "");
	print_param(out, "l", &w->l, "");
	print_param(out, "b", &w->b, "");
	for (r = 0; r < WR_COUNT; r++) {
		char name[32];

		if (!w->listed[r])
			continue;
		snprintf(name, sizeof(name), "d[%s]", wl_resource_name(r));
		print_param(out, name, &w->demand[r],
			    r == WR_INSTRUCTIONS ? " ops/s" : " bytes/s");
	}
}

int cmd_profile(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "counters", required_argument, NULL, OPT_COUNTERS },
		{ "repetitions", required_argument, NULL, 'r' },
		{ "no-warmup", no_argument, NULL, OPT_NO_WARMUP },
		{ "time-from", required_argument, NULL, OPT_TIME_FROM },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "runner", required_argument, NULL, OPT_RUNNER },
		{ "busy-idle", no_argument, NULL, OPT_BUSY_IDLE },
		{ "solve", required_argument, NULL, OPT_SOLVE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "nice", required_argument, NULL, OPT_NICE },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct pandia_machine *m = NULL;
	struct profile_result res;
	struct profile_opts o;
	struct pandia_error err;
	const char *machine_arg = NULL, *output = NULL;
	bool force = false, quiet = false;
	char *shim = NULL, *text = NULL;
	int ret = 1, c, i;

	profile_opts_init(&o);
	profile_result_init(&res);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:o:r:q", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'm':
			machine_arg = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_COUNTERS:
			if (counters_mode_parse(optarg, &o.counters, &err) < 0)
				usage_error("profile", "%s", err.text);
			break;
		case 'r':
			if (!parse_int(optarg, &o.repetitions) ||
			    o.repetitions < 1)
				usage_error("profile", "-r takes a number of "
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
				usage_error("profile", "--timeout takes "
					    "seconds > 0, not '%s'", optarg);
			break;
		case OPT_RUNNER:
			o.runner = optarg;
			break;
		case OPT_BUSY_IDLE:
			o.busy_idle = true;
			break;
		case OPT_SOLVE:
			if (!strcmp(optarg, "fit"))
				o.solve = PROFILE_SOLVE_FIT;
			else if (!strcmp(optarg, "paper"))
				o.solve = PROFILE_SOLVE_PAPER;
			else
				usage_error("profile", "--solve takes fit or "
					    "paper, not '%s'", optarg);
			break;
		case OPT_FORCE:
			force = true;
			break;
		case OPT_NICE:
			if (!parse_int(optarg, &o.nice) || o.nice < -20 ||
			    o.nice > 19)
				usage_error("profile", "--nice takes a "
					    "niceness from -20 to 19, not '%s'",
					    optarg);
			o.set_nice = true;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			if (optopt && optopt < 256)
				usage_error("profile", "unknown or incomplete "
					    "option '-%c'", optopt);
			usage_error("profile", "unknown or incomplete option "
				    "'%s'", argv[optind - 1]);
		}
	}
	if (!machine_arg)
		usage_error("profile", "-m MACHINE is required (make one with "
			    "'pandia machine -o FILE')");
	if (optind >= argc && !o.runner)
		usage_error("profile", "no command given: pandia profile -m "
			    "%s -- CMD [ARG...]", machine_arg);
	if (o.time_from) {
		struct run_regex *rx = run_regex_new(o.time_from, &err);

		if (!rx)
			usage_error("profile", "%s", err.text);
		run_regex_free(rx);
	}
	m = machine_load(machine_arg, &err);
	if (!m) {
		perr_print(&err, stderr);
		goto out;
	}
	if (!o.runner &&
	    check_this_host(m, machine_arg, force, "profiling",
			    "(or --runner for a workload that runs on "
			    "that machine)") < 0)
		goto out;
	o.m = m;
	o.machine_file = machine_arg;
	o.argv = argv + optind;
	if (!quiet)
		o.progress = progress;
	if (!o.runner)
		o.shim_path = shim = run_find_shim(pandia_exe_dir());

	if (profile_workload(&o, &res, &err) < 0) {
		perr_print(&err, stderr);
		if (res.failed_stderr)
			fprintf(stderr, "pandia: the command's stderr ended "
				"with:\n%s\n", res.failed_stderr);
		if (res.interrupted)
			run_reraise(res.interrupted);
		goto out;
	}
	if (res.backend_note)
		fprintf(stderr, "pandia: %s\n", res.backend_note);
	for (i = 0; i < res.n_warnings; i++)
		fprintf(stderr, "pandia: warning: %s\n", res.warnings[i]);
	if (output) {
		if (workload_save(res.w, output, &err) < 0) {
			perr_print(&err, stderr);
			goto out;
		}
		summary(stdout, res.w, output);
	} else {
		text = workload_to_string(res.w);
		fputs(text, stdout);
	}
	fprintf(stderr, "pandia profile: profiled in %.1f s, %.1f times t1 "
		"(t1 = %.4g s)\n", res.seconds, res.seconds / res.t1, res.t1);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("pandia: cannot write the output");
		goto out;
	}
	ret = 0;
out:
	free(text);
	free(shim);
	profile_result_release(&res);
	machine_free(m);
	return ret;
}
