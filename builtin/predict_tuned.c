/*
 * predict_tuned.c - pandia predict: the placements 'pandia tune'
 * measured (the description's runs of purpose "tune"), each with its
 * prediction and how far that missed the measured median.  The model
 * is not refitted with them: this says where it was wrong, and by how
 * much (docs/tune.md, "What it leaves behind").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/predict.h"
#include "common/jsonout.h"
#include "common/util.h"

/*
 * A pinned run of tune's on this machine: its placement as m->pus
 * indexes (new array) into *pus, or false.  Unpinned runs are left
 * out: the model predicts no floating thread.
 */
static bool tuned_pus(const struct ctx *x, const struct wl_run *r, int **pus)
{
	int i;

	if (!r->purpose || strcmp(r->purpose, "tune") || r->n_cpus < 1 ||
	    r->n_times < 1)
		return false;
	*pus = xcalloc((size_t)r->n_cpus + 1, sizeof(int));
	for (i = 0; i < r->n_cpus; i++) {
		(*pus)[i] = machine_pu_index(x->m, r->cpus[i]);
		if ((*pus)[i] < 0) {
			free(*pus);
			return false;
		}
	}
	return true;
}

/* Run r's median, its prediction (pi, filled) and the miss. */
static double tuned_miss(const struct ctx *x, struct model *md,
			 const struct wl_run *r, int *pus,
			 struct placement_info *pi, double *median)
{
	predict_pus(x, md, pus, r->n_cpus, pi);
	*median = median_of(r->times, r->n_times);
	return (pi->time - *median) / *median;
}

void tuned_print(const struct ctx *x, struct model *md)
{
	const struct pandia_workload *w = x->w;
	int i, shown = 0, *pus;

	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];
		struct placement_info pi;
		double med, miss;

		if (!tuned_pus(x, r, &pus))
			continue;
		if (!shown++)
			printf("\nmeasured by pandia tune (the model is not "
			       "refitted with these runs yet)\n"
			       "  %-8s %7s  %-18s %12s %13s  %s\n", "run",
			       "threads", "cpus", "median (s)",
			       "predicted (s)", "missed by");
		miss = tuned_miss(x, md, r, pus, &pi, &med);
		printf("  %-8s %7d  %-18s %12.4g %13.4g  %+.1f%%\n", r->id,
		       pi.n, pi.list, med, pi.time, 100 * miss);
		info_release(&pi);
	}
}

json_t *tuned_json(const struct ctx *x, struct model *md)
{
	const struct pandia_workload *w = x->w;
	json_t *a = json_array();
	int i, *pus;

	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];
		struct placement_info pi;
		double med, miss;
		json_t *o;

		if (!tuned_pus(x, r, &pus))
			continue;
		miss = tuned_miss(x, md, r, pus, &pi, &med);
		o = json_object();
		json_object_set_new(o, "run", json_string(r->id));
		json_set_cpus(o, pi.os, pi.n);
		json_object_set_new(o, "threads", json_integer(pi.n));
		json_object_set_new(o, "measured", json_real(med));
		json_object_set_new(o, "predicted", json_real(pi.time));
		json_object_set_new(o, "miss", json_real(miss));
		json_array_append_new(a, o);
		info_release(&pi);
	}
	return a;
}
