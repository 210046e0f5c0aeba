/*
 * cmd_cpus.c - pandia cpus: the OS PU list a CPU expression means.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "common/cpuexpr.h"
#include "common/cpulist.h"
#include "common/machine.h"
#include "common/topology.h"

const char usage_cpus[] =
"usage: pandia cpus [-m MACHINE] [--set] EXPR...\n"
"\n"
"Print the OS PU numbers (what taskset -c and numactl --physcpubind\n"
"take) that each CPU expression means, one line each, in thread order.\n"
"Every --cpus, --placement and --stress LIST of pandia takes the same\n"
"expressions:\n"
"\n"
"  0,2-5,2          OS PU numbers and ranges, in order; a PU may repeat\n"
"  0x3              a hex mask: bit i is OS PU i (ascending)\n"
"  S0:0-3           likwid-pin domains: N (the node), S# (socket), M#\n"
"  N:0-7  M0:  C0:  (NUMA node), C# (last-level cache), D# (die: a\n"
"                   socket here); the list counts the domain's PUs with\n"
"                   physical cores first; empty: the whole domain\n"
"  E:S0:4:1:2       likwid-pin expression E:DOMAIN:COUNT[:CHUNK:STRIDE]:\n"
"                   COUNT PUs of the domain (a core's PUs adjacent),\n"
"                   CHUNK at a time, chunks STRIDE apart\n"
"  S:scatter        every PU, dealt round robin over the sockets (M:,\n"
"                   C:, N: for the other domains), physical cores first\n"
"  core:0-3         hwloc locations TYPE:INDEXES[.TYPE:INDEXES]: TYPE\n"
"  socket:1.pu:0    pu, core, socket (package), numa (node), l1, l2, l3\n"
"                   or machine; INDEXES logical (hwloc's order): 0, 0-3,\n"
"                   0,2 or all; an inner level counts within the outer\n"
"  A@B              the PUs of A, then those of B (any of the above)\n"
"\n"
"Logical numbers are only ever input: pandia prints OS numbers.\n"
"\n"
"options:\n"
"  -m, --machine FILE|NAME  the machine (default: this host's topology)\n"
"      --set                each PU once, ascending, as taskset takes it\n"
"  -h, --help               this text\n"
"\n"
"exit status: 0 success, 1 a bad expression, 2 usage.  See\n"
"pandia-cpus(1).\n";

struct cpus_args {
	bool set;		/* --set: each PU once, ascending */
};

static const struct option cpus_options[] = {
	OPT_FLAG(0, "set", struct cpus_args, set),
	OPT_SHARED(opt_machine),
	OPT_END(),
};

int cmd_cpus(int argc, char **argv)
{
	struct pandia_machine *m = NULL;
	struct pandia_error err;
	struct opt_common c;
	const char *marg;
	char *path = NULL;
	struct cpus_args a = { false };
	int i, ret = 1, first;

	opt_common_init(&c, 1);
	first = parse_options("cpus", argc, argv, cpus_options, &a, &c);
	marg = c.machine;
	if (first >= argc)
		usage_error("cpus", "no expression given");
	if (marg) {
		m = open_machine("cpus", marg, true, &path);
		if (!m)
			return 1;
	} else {
		m = machine_new();
		if (topology_load(m, NULL, &err) < 0) {
			error_perr(&err);
			goto out;
		}
	}
	for (i = first; i < argc; i++) {
		int *os, n;
		char *s;

		if (cpuexpr_parse(m, argv[i], &os, &n, &err) < 0) {
			error_perr(&err);
			goto out;
		}
		s = a.set ? cpuset_format(os, n) : cpulist_format(os, n);
		puts(s);
		free(s);
		free(os);
	}
	ret = 0;
out:
	free(path);
	machine_free(m);
	return ret;
}
