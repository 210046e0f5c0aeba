/*
 * workload_check.c - the checks of a workload description: ranges,
 * nulls explained, unique run ids, sources that name runs.  Loading
 * runs them too (workload_check_at()), so that a file is refused with
 * the line and column of the bad value.
 */
#include "common/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"
#include "common/workload_internal.h"

bool workload_has_model(const struct pandia_workload *w)
{
	const struct workload_model_ops *ops = workload_model_ops();

	if (!w->models)
		return true;
	return ops ? ops->present(w) : w->model_section != NULL;
}

static int cmp_pu(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static const struct pandia_workload *cmp_w;

static int cmp_run_id(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(cmp_w->runs[x].id, cmp_w->runs[y].id);

	return c ? c : (x > y) - (x < y);
}

/*
 * The first run (in the file's order) whose id an earlier run has, or
 * -1: sorted, not pairwise, so that a description of 600,000 runs
 * loads in seconds.  Runs without an id are left to the caller.
 */
static int first_duplicate_id(const struct pandia_workload *w)
{
	int *v = xcalloc((size_t)w->n_runs + 1, sizeof(int));
	int i, n = 0, first = -1;

	for (i = 0; i < w->n_runs; i++)
		if (w->runs[i].id)
			v[n++] = i;
	cmp_w = w;
	qsort(v, (size_t)n, sizeof(int), cmp_run_id);
	for (i = 1; i < n; i++)
		if (!strcmp(w->runs[v[i - 1]].id, w->runs[v[i]].id) &&
		    (first < 0 || v[i] < first))
			first = v[i];
	free(v);
	return first;
}

/* Whether a PU of R is not among W's machine.pus (a sorted set; none
   given: no test), the first such into *pu. */
static bool outside_pus(const struct pandia_workload *w,
			const struct wl_run *r, int *pu)
{
	int i;

	for (i = 0; w->n_pus > 0 && i < r->n_cpus; i++)
		if (!bsearch(&r->cpus[i], w->pus, (size_t)w->n_pus,
			     sizeof(int), cmp_pu)) {
			*pu = r->cpus[i];
			return true;
		}
	return false;
}

int workload_check_at(const struct pandia_workload *w, char *path, size_t plen,
		      struct pandia_error *err)
{
	const struct workload_model_ops *ops = workload_model_ops();
	int i, j, dup = first_duplicate_id(w);

	/* the model section first: its errors come before the runs' */
	if (ops && ops->check(w, path, plen, err) < 0)
		return -1;
	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];

		if (!r->id || !*r->id) {
			snprintf(path, plen, "runs[%d]", i);
			return perr_set(err, "a run needs an 'id'");
		}
		if (i == dup) {
			snprintf(path, plen, "runs[%d].id", i);
			return perr_set(err, "run id '%s' is used twice",
					r->id);
		}
		if (r->n_cpus < 1) {
			snprintf(path, plen, "runs[%d].cpus", i);
			return perr_set(err, "empty PU list");
		}
		if (r->n_times < 1) {
			snprintf(path, plen, "runs[%d].times", i);
			return perr_set(err, "a run needs at least one time");
		}
		if (r->has_size && !(isfinite(r->size) && r->size >= 0)) {
			snprintf(path, plen, "runs[%d].size", i);
			return perr_set(err, "must be a finite number, 0 or "
					"more, got %g", r->size);
		}
		if (outside_pus(w, r, &j)) {
			char *l = cpulist_format(w->pus, w->n_pus);

			snprintf(path, plen, "runs[%d].cpus", i);
			perr_set(err, "PU %d is not one of the machine's "
				 "(machine.pus: %s)", j, l);
			free(l);
			return -1;
		}
		for (j = 0; j < r->n_times; j++)
			if (!(r->times[j] > 0) || !isfinite(r->times[j])) {
				snprintf(path, plen, "runs[%d].times[%d]", i,
					 j);
				return perr_set(err, "a time must be positive, "
						"got %g", r->times[j]);
			}
	}
	if (w->has_size && !(isfinite(w->size) && w->size >= 0)) {
		snprintf(path, plen, "size");
		return perr_set(err, "must be a finite number, 0 or more, got "
				"%g", w->size);
	}
	if (w->n_command && (!w->command[0] || !*w->command[0])) {
		snprintf(path, plen, "command[0]");
		return perr_set(err, "the program to run is an empty word");
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
