/*
 * cmd_machine.c - pandia machine: measure this host once, or describe
 * a machine you do not have from its topology and assumed figures.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cmd.h"
#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "stress/assume.h"
#include "stress/measure.h"

const char usage_machine[] =
"usage: pandia machine [-o FILE] [--quick] [-q]\n"
"   or: pandia machine --topology FILE.xml|'SYNTHETIC' --assume PARAMS.json\n"
"                      [-o FILE]\n"
"   or: pandia machine --show FILE\n"
"\n"
"Measure this host with stress microbenchmarks and write its machine\n"
"description (pandia-machine/1): topology from hwloc, restricted to the\n"
"CPUs this process may use; per-core and aggregate bandwidth of L1, L2,\n"
"L3 and DRAM; inter-socket bandwidth; the core's operation rate alone\n"
"and with SMT.  Every figure records how it was measured.\n"
"\n"
"options:\n"
"  -o, --output FILE     where to write (default machines/HOST.json when\n"
"                        measuring, standard output with --topology);\n"
"                        '-' is standard output\n"
"      --quick           shorter measurements (at most 30 s on 2 cores)\n"
"  -q, --quiet           no progress on standard error\n"
"      --topology SPEC   describe another machine without measuring: an\n"
"                        hwloc XML file or a synthetic string such as\n"
"                        'pack:2 core:18 pu:2'\n"
"      --assume FILE     bandwidths and rates for --topology\n"
"                        (pandia-assume/1, see docs/machine-format.md)\n"
"      --show FILE       print the summary of a description\n"
"  -h, --help            this text\n"
"\n"
"The description is written to a temporary file and renamed, so a\n"
"failed run never leaves a half-written one.  See pandia-machine(1).\n";

static char *iso_date(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
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

static int show(const char *path)
{
	struct pandia_error err;
	struct pandia_machine *m = machine_load(path, &err);

	if (!m) {
		perr_print(&err, stderr);
		return 1;
	}
	machine_print_summary(m, stdout);
	machine_free(m);
	return 0;
}

int cmd_machine(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "topology", required_argument, NULL, 'T' },
		{ "assume", required_argument, NULL, 'A' },
		{ "show", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	struct stress_opts so = { .quick = false, .progress = true };
	const char *out = NULL, *topo = NULL, *assume = NULL, *shown = NULL;
	struct pandia_machine *m = NULL;
	struct pandia_error err;
	char *def_out = NULL;
	int c, ret = 1;

	while ((c = getopt_long(argc, argv, "+o:q", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'Q': so.quick = true; break;
		case 'q': so.progress = false; break;
		case 'T': topo = optarg; break;
		case 'A': assume = optarg; break;
		case 'S': shown = optarg; break;
		default:
			usage_error("machine", "unknown option");
		}
	}
	if (optind < argc)
		usage_error("machine", "unexpected argument '%s'",
			    argv[optind]);
	if (shown) {
		if (topo || assume || out || so.quick)
			usage_error("machine", "--show takes no other option");
		return show(shown);
	}
	if (topo && !assume)
		usage_error("machine", "--topology needs --assume PARAMS.json "
			    "(the bandwidths and rates of that machine)");
	if (assume && so.quick)
		usage_error("machine", "--quick measures; --assume does not");

	m = machine_new();
	if (topology_load(m, topo, &err) < 0)
		goto out_err;
	m->version = xstrdup(PANDIA_VERSION);
	m->date = iso_date();
	if (assume) {
		m->origin = xstrdup("topology");
		if (assume_apply(m, assume, &err) < 0)
			goto out_err;
		if (!out)
			out = "-";
	} else {
		m->origin = xstrdup("measured");
		if (!out) {
			mkdir("machines", 0777);
			def_out = xasprintf("machines/%s.json",
					    m->host ? m->host : "host");
			out = def_out;
		}
		if (so.progress)
			fprintf(stderr, "pandia machine: measuring %s (%d PUs) "
				"in %s mode, about %.0f s\n", m->host,
				m->n_pus, so.quick ? "quick" : "full",
				stress_estimate_seconds(m, &so));
		if (stress_measure(m, &so, &err) < 0)
			goto out_err;
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
