/*
 * predict_tuned.c - pandia predict: the placements 'pandia tune'
 * measured (the description's runs of purpose "tune"), each with its
 * prediction and how far that missed the measured median.  The model
 * refitted with the pinned ones by pandia tune (predictor/pandia/
 * fit_tune.c); this says how far the model, and the profile's own
 * parameters before the refit, missed each (docs/tune.md, "What it
 * leaves behind").
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

	if (!r->purpose || strcmp(r->purpose, MODEL_TUNE_PURPOSE) ||
	    r->n_cpus < 1 || r->n_times < 1)
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

/*
 * The refit's record (model.refit as the description was read; the
 * Pandia model's, docs/workload-format.md), or NULL.
 */
static json_t *refit_of(const struct ctx *x)
{
	json_t *rf = x->state || !x->w->model_section ? NULL :
		json_object_get(x->w->model_section, "refit");

	return json_is_object(rf) ? rf : NULL;
}

/* The refit's record of run ID (model.refit.runs[]), or NULL. */
static json_t *refit_run(const struct ctx *x, const char *id)
{
	json_t *rf = refit_of(x);
	json_t *a = rf ? json_object_get(rf, "runs") : NULL, *o;
	size_t i;

	json_array_foreach(a, i, o)
		if (json_is_string(json_object_get(o, "run")) &&
		    !strcmp(json_string_value(json_object_get(o, "run")), id))
			return o;
	return NULL;
}

/* What the profile's own parameters predicted for run ID; NAN: none. */
static double profiled_of(const struct ctx *x, const char *id)
{
	json_t *v = json_object_get(refit_run(x, id), "profiled");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The header's note: whether the model was refitted with these runs. */
static void refit_note(const struct ctx *x)
{
	json_t *rf = refit_of(x);
	json_t *why = rf ? json_object_get(rf, "why_not") : NULL;

	if (rf && json_is_true(json_object_get(rf, "refitted")))
		printf("  the model was refitted with the pinned ones "
		       "(model.refit; \"profiled\": as the profile's own "
		       "parameters predicted it)\n");
	else if (json_is_string(why))
		printf("  the model was not refitted: %s\n",
		       json_string_value(why));
	else
		printf("  the model was not refitted with these runs\n");
}

void tuned_print(const struct ctx *x, struct model *md)
{
	const struct pandia_workload *w = x->w;
	int i, shown = 0, *pus;

	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];
		struct placement_info pi;
		double med, miss, prof;

		if (!tuned_pus(x, r, &pus))
			continue;
		if (!shown++) {
			printf("\nmeasured by pandia tune\n");
			refit_note(x);
			printf("  %-8s %7s  %-18s %12s %13s  %-9s  %s\n", "run",
			       "threads", "cpus", "median (s)",
			       "predicted (s)", "missed by",
			       "profiled: missed by");
		}
		miss = tuned_miss(x, md, r, pus, &pi, &med);
		prof = profiled_of(x, r->id);
		printf("  %-8s %7d  %-18s %12.4g %13.4g  %+8.1f%%", r->id,
		       pi.n, pi.list, med, pi.time, 100 * miss);
		if (isfinite(prof))
			printf("  %.4g s, %+.1f%%", prof,
			       100 * (prof - med) / med);
		printf("\n");
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
		double med, miss, prof;
		json_t *o;

		if (!tuned_pus(x, r, &pus))
			continue;
		miss = tuned_miss(x, md, r, pus, &pi, &med);
		prof = profiled_of(x, r->id);
		o = json_object();
		json_object_set_new(o, "run", json_string(r->id));
		json_set_cpus(o, pi.os, pi.n);
		json_object_set_new(o, "threads", json_integer(pi.n));
		json_object_set_new(o, "measured", json_real(med));
		json_object_set_new(o, "predicted", json_real(pi.time));
		json_object_set_new(o, "miss", json_real(miss));
		json_object_set_new(o, "profiled", isfinite(prof) ?
				    json_real(prof) : json_null());
		json_object_set_new(o, "profiled_miss", isfinite(prof) ?
				    json_real((prof - med) / med) :
				    json_null());
		json_array_append_new(a, o);
		info_release(&pi);
	}
	return a;
}
