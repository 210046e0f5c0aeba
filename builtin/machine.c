/*
 * cmd_machine.c - pandia machine: measure this host once, or describe
 * a machine you do not have from its topology and assumed figures.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "common/cgroup.h"
#include "common/cpulist.h"
#include "common/machdir.h"
#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "stress/assume.h"
#include "stress/borrow.h"
#include "stress/measure.h"

const char usage_machine[] =
"usage: pandia machine [-o FILE] [--quick] [-q]\n"
"   or: pandia machine --topology FILE.xml|'SYNTHETIC' [--assume PARAMS.json]\n"
"                      [-o FILE]\n"
"   or: pandia machine --show FILE|NAME\n"
"   or: pandia machine --limits [--json]\n"
"\n"
"Measure this host with stress microbenchmarks and write its machine\n"
"description (pandia-machine/1): topology from hwloc, restricted to the\n"
"CPUs this process may use; per-core and aggregate bandwidth of L1, L2,\n"
"L3 and DRAM; inter-socket bandwidth; the core's operation rate alone\n"
"and with SMT.  Every figure records how it was measured.\n"
"\n"
"options:\n"
"  -o, --output FILE     where to write (default when measuring:\n"
"                        HOST.json in $XDG_DATA_HOME/pandia/machines,\n"
"                        else ~/.local/share/pandia/machines, where the\n"
"                        other commands find it without -m; standard\n"
"                        output with --topology); '-' is standard output\n"
"      --quick           shorter measurements (at most 30 s on 2 cores)\n"
"  -q, --quiet           no progress on standard error\n"
"      --topology SPEC   describe another machine without measuring: an\n"
"                        hwloc XML file or a synthetic string such as\n"
"                        'pack:2 core:18 pu:2'\n"
"      --assume FILE     bandwidths and rates for --topology\n"
"                        (pandia-assume/1, see docs/machine-format.md);\n"
"                        without it they are taken from this host's\n"
"                        description when the CPU model is the same,\n"
"                        else left unknown (and said so)\n"
"      --show FILE|NAME  print the summary of a description\n"
"      --limits          print the PUs this process may use and the CPU\n"
"                        quota of its cgroups (v1 and v2), measuring\n"
"                        nothing\n"
"      --json            with --limits: the \"limits\" object a\n"
"                        description records, as JSON\n"
"  -h, --help            this text\n"
"\n"
"A measured description records those limits (\"limits\"); a CPU quota\n"
"below one PU is refused.\n"
"\n"
"The description is written to a temporary file and renamed, so a\n"
"failed run never leaves a half-written one.  See pandia-machine(1).\n";

/* What the topology needed said: one warning per line. */
static void print_notes(const char *notes)
{
	while (notes && *notes) {
		const char *nl = strchr(notes, '\n');
		int len = nl ? (int)(nl - notes) : (int)strlen(notes);

		warning("%.*s", len, notes);
		notes += len + (nl != NULL);
	}
}

static int write_out(const struct pandia_machine *m, const char *out,
		     struct pandia_error *err)
{
	char *s;

	if (strcmp(out, "-"))
		return machine_save(m, out, err);
	if (machine_check(m, err) < 0)
		return -1;
	s = machine_to_string(m);
	fputs(s, stdout);
	free(s);
	return 0;
}

/* A figure whose repetitions still spread over 10%: say which. */
static void warn_spread(const struct pandia_machine *m)
{
	int lvl, k;

	for (lvl = 0; lvl < LVL_COUNT; lvl++)
		for (k = 0; k < 2; k++) {
			const struct pandia_measure *ms = k ?
				&m->links[lvl].aggregate :
				&m->links[lvl].per_core;

			if (m->links[lvl].present && ms->repetitions > 1 &&
			    ms->spread > 0.10)
				warning("%s %s: its repetitions spread %.0f%% "
					"even when measured again (the host is "
					"busy): the figure kept is the best, "
					"%.3g %s; measure again when it is quiet",
					level_name(lvl), k ? "aggregate" :
					"per core", 100 * ms->spread, ms->best,
					ms->unit ? ms->unit : "");
		}
	if (m->peak.repetitions > 1 && m->peak.spread > 0.10)
		warning("core rate: its repetitions spread %.0f%% even when "
			"measured again (the host is busy)",
			100 * m->peak.spread);
}

static int show(const char *arg)
{
	char *path = NULL;
	struct pandia_machine *m = open_machine("machine", arg, true, &path);

	free(path);
	if (!m)
		return 1;
	machine_print_summary(m, stdout);
	machine_free(m);
	return 0;
}

/* --limits: what this process may use, as a description records it */
static int show_limits(bool json)
{
	struct pandia_limits l = { 0 };
	struct pandia_error err;
	int *pus = NULL, n = 0;

	if (cgroup_limits(&l, &err) < 0) {
		perr_print(&err, stderr);
		return 1;
	}
	if (cpulist_parse(l.allowed, &pus, &n, &err) < 0)
		n = 0;
	free(pus);
	if (json) {
		char *s = machine_limits_to_string(&l);

		fputs(s, stdout);
		free(s);
		goto out;
	}
	printf("allowed PUs: %s (%d, the cgroup cpuset and the affinity)\n",
	       l.allowed, n);
	if (l.cpu_quota > 0)
		printf("CPU quota: %g PUs' time per second (%s)\n",
		       l.cpu_quota, l.source);
	else
		printf("CPU quota: none\n");
out:
	free(l.allowed);
	free(l.source);
	return 0;
}

/*
 * Measuring this host: record the limits it is measured under.  A
 * quota below one PU is refused (one thread alone would be throttled,
 * so no figure would be the machine's); a quota below the allowed PUs
 * holds the aggregates down, which is said.
 */
static int record_limits(struct pandia_machine *m, struct pandia_error *err)
{
	struct pandia_limits *l = &m->limits;

	if (cgroup_limits(l, err) < 0)
		return -1;
	if (l->cpu_quota > 0 && l->cpu_quota < 1)
		return perr_set(err, "this process's cgroup has a CPU quota of "
				"%g PUs' time per second (%s): below one PU, "
				"no figure measured would be the machine's; "
				"measure outside the cgroup, or raise its "
				"quota", l->cpu_quota, l->source);
	if (l->cpu_quota > 0 && l->cpu_quota < m->n_pus)
		warning("a CPU quota of %g PUs' time per second (%s) holds "
			"the measuring of %d PUs at once down: the aggregates "
			"recorded are the container's, not the machine's",
			l->cpu_quota, l->source, m->n_pus);
	return 0;
}

/*
 * --topology without --assume: the figures of this host's description
 * when its CPU model is the topology's, else none.
 */
static void figures_from_host(struct pandia_machine *m, const char *topo)
{
	struct pandia_machine *h = machine_new(), *from = NULL;
	struct pandia_error err;
	char *path = NULL, *why = NULL;

	perr_clear(&err);
	if (topology_load(h, NULL, &err) == 0)
		from = machdir_this_host(h, NULL, &path, &err);
	if (from && m->cpu_model && from->cpu_model &&
	    !strcmp(m->cpu_model, from->cpu_model)) {
		borrow_figures(m, from, path);
		progress("machine", "figures taken from %s (the same CPU "
			 "model, '%s'); aggregates as measured on its %d "
			 "cores", path, from->cpu_model, from->n_cores);
		goto out;
	}
	if (!m->cpu_model)
		why = xasprintf("unknown: '%s' names no CPU model", topo);
	else if (!from)
		why = xasprintf("unknown: no description of this host to "
				"take them from%s%s", err.text[0] ? " (" : "",
				err.text[0] ? err.text : "");
	else
		why = xasprintf("unknown: this host's CPU ('%s') is not "
				"'%s'", from->cpu_model ? from->cpu_model :
				"unknown", m->cpu_model);
	if (err.text[0] && from == NULL && !strstr(why, err.text))
		warning("%s", err.text);
	borrow_none(m, why);
	warning("the core rate and every bandwidth are %s: give them with "
		"--assume PARAMS.json (see docs/machine-format.md)", why);
out:
	free(why);
	free(path);
	machine_free(from);
	machine_free(h);
}

/* HOST.json in the user's machine directory, made if need be. */
static char *default_output(const char *host, struct pandia_error *err)
{
	char *dir = machdir_user(), *out;

	if (!dir) {
		/* no HOME: where it always went */
		mkdir("machines", 0777);
		return xasprintf("machines/%s.json", host);
	}
	if (make_dirs(dir, err) < 0) {
		free(dir);
		return NULL;
	}
	out = xasprintf("%s/%s.json", dir, host);
	free(dir);
	return out;
}

/* What the command line asks of 'pandia machine', besides -o and -q. */
struct machine_args {
	bool quick;
	const char *topo, *assume, *shown;
	bool limits;
};

#define A struct machine_args
static const struct option machine_options[] = {
	OPT_FLAG(0, "quick", A, quick),
	OPT_STRING(0, "topology", A, topo),
	OPT_STRING(0, "assume", A, assume),
	OPT_STRING(0, "show", A, shown),
	OPT_FLAG(0, "limits", A, limits),
	OPT_SHARED(opt_output),
	OPT_SHARED(opt_quiet),
	OPT_SHARED(opt_json),
	OPT_END(),
};
#undef A

int cmd_machine(int argc, char **argv)
{
	struct stress_opts so = { .quick = false, .progress = true };
	const char *out, *topo, *assume, *shown;
	struct pandia_machine *m = NULL;
	struct machine_args a = { 0 };
	struct pandia_error err;
	struct opt_common c;
	char *def_out = NULL;
	int ret = 1, first;

	opt_common_init(&c, 1);
	first = parse_options("machine", argc, argv, machine_options, &a, &c);
	out = c.output;
	so.progress = !c.quiet;
	so.quick = a.quick;
	topo = a.topo;
	assume = a.assume;
	shown = a.shown;
	if (first < argc)
		usage_error("machine", "unexpected argument '%s'",
			    argv[first]);
	if (shown) {
		if (topo || assume || out || so.quick)
			usage_error("machine", "--show takes no other option");
		return show(shown);
	}
	if (a.limits) {
		if (topo || assume || out || so.quick)
			usage_error("machine", "--limits takes no other option");
		return show_limits(c.json);
	}
	if (c.json)
		usage_error("machine", "--json goes with --limits");
	if (assume && so.quick)
		usage_error("machine", "--quick measures; --assume does not");

	if (out && strcmp(out, "-") && output_check(out, &err) < 0) {
		perr_print(&err, stderr);
		return 1;
	}
	m = machine_new();
	if (topology_load(m, topo, &err) < 0)
		goto out_err;
	print_notes(m->notes);
	m->version = xstrdup(PANDIA_VERSION);
	m->date = xmalloc(32);
	iso_date_now(m->date, 32);
	if (assume) {
		m->origin = xstrdup("topology");
		if (assume_apply(m, assume, &err) < 0)
			goto out_err;
		if (!out)
			out = "-";
	} else if (topo) {
		m->origin = xstrdup("topology");
		if (!m->host && access(topo, R_OK) == 0) {
			/* the XML file's name, as --assume takes its own */
			char *dot;

			m->host = xstrdup(strrchr(topo, '/') ?
					  strrchr(topo, '/') + 1 : topo);
			dot = strrchr(m->host, '.');
			if (dot && dot != m->host)
				*dot = '\0';
		}
		figures_from_host(m, topo);
		if (!out)
			out = "-";
	} else {
		m->origin = xstrdup("measured");
		if (!out) {
			def_out = default_output(m->host ? m->host : "host",
						 &err);
			if (!def_out)
				goto out_err;
			out = def_out;
		}
		/* before the measuring, not after it */
		if (output_check(out, &err) < 0 || record_limits(m, &err) < 0)
			goto out_err;
		if (so.progress)
			fprintf(stderr, "pandia machine: measuring %s (%d PUs) "
				"in %s mode, about %.0f s (more where a figure "
				"spreads and is measured again)\n", m->host,
				m->n_pus, so.quick ? "quick" : "full",
				stress_estimate_seconds(m, &so));
		if (stress_measure(m, &so, &err) < 0)
			goto out_err;
		warn_spread(m);
	}
	if (write_out(m, out, &err) < 0)
		goto out_err;
	if (strcmp(out, "-")) {
		machine_print_summary(m, stdout);
		if (so.progress)
			fprintf(stderr, "pandia machine: wrote %s\n", out);
	}
	ret = 0;
	goto out;
out_err:
	perr_print(&err, stderr);
out:
	free(def_out);
	machine_free(m);
	return ret;
}
