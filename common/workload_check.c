/*
 * workload_check.c - the checks of a workload description: ranges,
 * nulls explained, unique run ids, sources that name runs.  Loading
 * runs them too (workload_check_at()), so that a file is refused with
 * the line and column of the bad value.
 */
#include "common/workload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "common/workload_internal.h"

/* Whether each id of ID ("run2", or "run1,run2,run4") names a run. */
static bool has_run(const struct pandia_workload *w, const char *id)
{
	const char *p = id;
	int i;

	for (;;) {
		size_t len = strcspn(p, ",");

		for (i = 0; i < w->n_runs; i++)
			if (strlen(w->runs[i].id) == len &&
			    !strncmp(w->runs[i].id, p, len))
				break;
		if (i == w->n_runs)
			return false;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

/*
 * One parameter's checks.  NAME is the JSON key ("t1"), KEY the key of
 * its siblings ("t1" or "demands" with RES naming the resource).
 */
static int check_param(const struct pandia_workload *w,
		       const struct wl_param *prm, const char *name,
		       const char *res, double lo, double hi, bool nullable,
		       char *path, size_t plen, struct pandia_error *err)
{
	const char *sep = res ? "." : "";
	const char *r = res ? res : "";

	if (!prm->known) {
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		if (!nullable)
			return perr_set(err, "must be a number, not null");
		if (!prm->status || !*prm->status)
			return perr_set(err, "null (not measured) needs "
					"model.%s_status%s%s saying why", name,
					sep, r);
	} else if (!isfinite(prm->value) || prm->value < lo ||
		   prm->value > hi) {
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		if (lo == 0 && hi == 1)
			return perr_set(err, "must be between 0 and 1, got %g",
					prm->value);
		if (lo == 0 && !strcmp(name, "t1"))
			return perr_set(err, "must be positive, got %g",
					prm->value);
		return perr_set(err, "must not be negative, got %g",
				prm->value);
	}
	if (!strcmp(name, "t1") && prm->known && !(prm->value >= 1e-9)) {
		snprintf(path, plen, "model.t1");
		return perr_set(err, "must be a time of at least 1e-09 s (a "
				"nanosecond), got %g", prm->value);
	}
	if (prm->known && prm->value != 0 && !isnormal(prm->value)) {
		/* 1e-320: no measurement gives a denormal number */
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		return perr_set(err, "%g is too small to be a measurement (a "
				"denormal number): 0 or a normal number",
				prm->value);
	}
	if (!isnan(prm->uncertainty) && (!isfinite(prm->uncertainty) ||
					 prm->uncertainty < 0)) {
		snprintf(path, plen, "model.%s_uncertainty%s%s", name, sep, r);
		return perr_set(err, "must not be negative, got %g",
				prm->uncertainty);
	}
	if (prm->source && w->n_runs > 0 && !has_run(w, prm->source)) {
		snprintf(path, plen, "model.%s_source%s%s", name, sep, r);
		return perr_set(err, "'%s' names no run in 'runs'",
				prm->source);
	}
	return 0;
}

bool workload_has_model(const struct pandia_workload *w)
{
	size_t k;
	int i;

	if (!w->models)
		return true;
	for (k = 0; k < WL_N_PARAMS; k++)
		if (wl_param_of(w, &wl_params[k])->known ||
		    wl_param_of(w, &wl_params[k])->status)
			return true;
	for (i = 0; i < WR_COUNT; i++)
		if (w->listed[i])
			return true;
	return false;
}

int workload_check_at(const struct pandia_workload *w, char *path, size_t plen,
		      struct pandia_error *err)
{
	bool model = workload_has_model(w);
	size_t k;
	int i, j;

	for (k = 0; k < WL_N_PARAMS && model; k++) {
		const struct wl_param_desc *d = &wl_params[k];

		if (check_param(w, wl_param_of(w, d), d->name, NULL, d->lo,
				d->hi, d->nullable, path, plen, err) < 0)
			return -1;
	}
	for (i = 0; i < WR_COUNT; i++) {
		if (!w->listed[i])
			continue;
		if (check_param(w, &w->demand[i], "demands",
				wl_resource_name(i), 0, INFINITY, true, path,
				plen, err) < 0)
			return -1;
	}
	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];

		if (!r->id || !*r->id) {
			snprintf(path, plen, "runs[%d]", i);
			return perr_set(err, "a run needs an 'id'");
		}
		for (j = 0; j < i; j++)
			if (!strcmp(w->runs[j].id, r->id)) {
				snprintf(path, plen, "runs[%d].id", i);
				return perr_set(err, "run id '%s' is used "
						"twice", r->id);
			}
		if (r->n_cpus < 1) {
			snprintf(path, plen, "runs[%d].cpus", i);
			return perr_set(err, "empty PU list");
		}
		if (r->n_times < 1) {
			snprintf(path, plen, "runs[%d].times", i);
			return perr_set(err, "a run needs at least one time");
		}
		if (r->has_size && !isfinite(r->size)) {
			snprintf(path, plen, "runs[%d].size", i);
			return perr_set(err, "must be a finite number");
		}
		for (j = 0; j < r->n_times; j++)
			if (!(r->times[j] > 0) || !isfinite(r->times[j])) {
				snprintf(path, plen, "runs[%d].times[%d]", i,
					 j);
				return perr_set(err, "a time must be positive, "
						"got %g", r->times[j]);
			}
	}
	if (w->has_size && !isfinite(w->size)) {
		snprintf(path, plen, "size");
		return perr_set(err, "must be a finite number");
	}
	for (i = 1; i < w->n_pus; i++)
		if (w->pus[i] <= w->pus[i - 1]) {
			snprintf(path, plen, "machine.pus");
			return perr_set(err, "PU %d is listed twice",
					w->pus[i]);
		}
	return 0;
}

int workload_check(const struct pandia_workload *w,
		   struct pandia_error *err)
{
	char path[128] = "";
	struct pandia_error e;

	if (workload_check_at(w, path, sizeof(path), &e) == 0)
		return 0;
	return perr_set(err, "%s: %s", path, e.text);
}
