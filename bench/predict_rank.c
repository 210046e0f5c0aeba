/*
 * predict_rank.c - time the ranking of every canonical placement.
 *
 * usage: predict_rank [-j JOBS] [-t THREADS] TOPOLOGY ASSUME WORKLOAD [MAX]
 *
 * TOPOLOGY is an hwloc XML file, a file holding a synthetic string on
 * its first line (machines/NAME.topology) or the string itself.
 * Prints one line: PUs, sockets, canonical placements (the full
 * space), placements ranked (the reduced space when the full one is
 * above MAX), workers, wall time and placements ranked per second.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/model.h"
#include "predictor/rank.h"
#include "predictor/space.h"
#include "stress/assume.h"

/* The topology spec: the first line of a .topology file, else as is. */
static char *topology_spec(const char *arg)
{
	size_t n = strlen(arg);
	struct pandia_error err;
	char *text, *nl;

	if (n < 9 || strcmp(arg + n - 9, ".topology"))
		return xstrdup(arg);
	text = read_file(arg, NULL, &err);
	if (!text)
		return xstrdup(arg);
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	return text;
}

int main(int argc, char **argv)
{
	struct pandia_machine *m = machine_new();
	struct pandia_workload *w = NULL;
	struct rank_opts ro = { 0, RANK_DEFAULT_MAX, 0, NULL, NULL, NAN };
	struct pandia_error err;
	struct model_params prm = { 0 };
	struct ranking r;
	struct space *sp = NULL;
	char cnt[64], *spec = NULL;
	int c, ret = 1;

	models_install();
	while ((c = getopt(argc, argv, "j:t:")) != -1) {
		if ((c != 'j' && c != 't') ||
		    !parse_int(optarg, c == 'j' ? &ro.workers : &ro.threads)) {
			fputs("usage: predict_rank [-j JOBS] [-t THREADS] "
			      "TOPOLOGY ASSUME WORKLOAD [MAX]\n", stderr);
			return 2;
		}
	}
	if (argc - optind < 3) {
		fputs("usage: predict_rank [-j JOBS] [-t THREADS] TOPOLOGY "
		      "ASSUME WORKLOAD [MAX]\n", stderr);
		return 2;
	}
	if (argc - optind > 3)
		ro.max_placements = atol(argv[optind + 3]);
	spec = topology_spec(argv[optind]);
	if (topology_load(m, spec, &err) < 0 ||
	    assume_apply(m, argv[optind + 1], &err) < 0)
		goto fail;
	w = workload_load(argv[optind + 2], &err);
	if (!w)
		goto fail;
	sp = space_new(m, 1, &w->memory, &err);
	if (!sp)
		goto fail;
	model_params_of(w, &prm);
	if (rank_all(sp, &prm, &ro, &r, &err) < 0)
		goto fail;
	printf("%4d PUs %3d sockets  canonical %20s  ranked %8zu%s  "
	       "workers %2d  %8.3f s  %10.0f placements/s  best %.4g s\n",
	       m->n_pus, m->n_sockets,
	       space_count_format(r.full, cnt, sizeof(cnt)), r.n,
	       r.max_layouts ? " (reduced)" : "          ", r.workers,
	       r.seconds, r.n / (r.seconds > 0 ? r.seconds : 1e-9),
	       r.e[rank_best(&r)].time);
	rank_release(&r);
	ret = 0;
	goto out;
fail:
	perr_print(&err, stderr);
out:
	space_free(sp);
	workload_free(w);
	machine_free(m);
	free(spec);
	return ret;
}
