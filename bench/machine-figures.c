/*
 * machine-figures - the figures of a machine description, one a line,
 * for the benchmark scripts (no JSON tool needed):
 *
 *   NAME VALUE WORKING_SET PUS KERNEL
 *
 * NAME is core.peak_rate, core.smt_rate, LEVEL.per_core,
 * LEVEL.aggregate (LEVEL as in the file: L1, L2, L3, dram,
 * interconnect) or interconnect.A-B; VALUE in bytes/s or ops/s;
 * WORKING_SET in bytes per thread (0 when none); PUS the OS PU list
 * the kernel ran on and KERNEL its name (- when the file has none).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/machine.h"

static void line(const char *name, const char *part, double v,
		 const struct pandia_measure *ms)
{
	printf("%s%s %.6e %.0f %s %s\n", name, part, v, ms->working_set,
	       ms->pus && *ms->pus ? ms->pus : "-",
	       ms->kernel && *ms->kernel ? ms->kernel : "-");
}

int main(int argc, char **argv)
{
	struct pandia_machine *m;
	struct pandia_error err;
	char name[64];
	int i;

	if (argc != 2) {
		fputs("usage: machine-figures FILE.json\n", stderr);
		return 2;
	}
	m = machine_load(argv[1], &err);
	if (!m) {
		perr_print(&err, stderr);
		return 1;
	}
	line("core.peak_rate", "", m->peak_rate, &m->peak);
	if (m->smt_applicable)
		line("core.smt_rate", "", m->smt_rate, &m->smt);
	for (i = 0; i < LVL_COUNT; i++) {
		const struct pandia_link *l = &m->links[i];

		if (!l->present)
			continue;
		line(level_name(i), ".per_core", l->per_core_bw, &l->per_core);
		line(level_name(i), ".aggregate", l->aggregate_bw,
		     &l->aggregate);
	}
	for (i = 0; i < m->n_xlinks; i++) {
		snprintf(name, sizeof(name), "interconnect.%d-%d",
			 m->xlinks[i].from, m->xlinks[i].to);
		line(name, "", m->xlinks[i].bw, &m->xlinks[i].m);
	}
	machine_free(m);
	if (fflush(stdout) || ferror(stdout)) {
		perror("machine-figures: standard output");
		return 1;
	}
	return 0;
}
