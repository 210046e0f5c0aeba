/*
 * profile_progress.c - the progress of a profile for the caller's
 * callback: which run, which repetition, the time spent and the time
 * left, estimated from the calls made so far.
 */
#include "profiler/profile.h"

#include <string.h>

#include "common/util.h"
#include "profiler/profile_internal.h"

static double est_call(const struct prof *P, const struct prun *R)
{
	double e;

	if (R->calls)
		return R->wall / R->calls;
	if (!P->n_runs || !P->runs[0].calls)
		return -1;
	e = P->runs[0].wall / P->runs[0].calls;
	/* a probes' co-run: the probes alone first, and after */
	return R->probe && !P->o->runner ? e + 2 * P->alone_secs : e;
}

void prof_progress(struct prof *P, struct prun *R, int index, int rep)
{
	struct profile_progress pp;
	double left = 0;
	int i, n;

	if (!P->o->progress)
		return;
	memset(&pp, 0, sizeof(pp));
	pp.id = R->id;
	pp.what = R->purpose;
	pp.run = R->run;
	pp.probe = R->probe;
	pp.index = index;
	pp.total = P->total;
	pp.numbered = P->numbered;
	pp.rep = rep;
	pp.again = R->again;
	pp.reps = P->o->repetitions;
	pp.elapsed = now_seconds() - P->start;
	/* every call planned and not made, at the time such a call took
	   so far: a probe run gets one, the others their least number
	   (more only where their spread and the budget call for them) */
	for (i = 0; i < P->n_runs && left >= 0; i++) {
		double e = est_call(P, &P->runs[i]);

		n = (P->runs[i].probe ? 1 : P->min_reps) - P->runs[i].n_times;
		if (n > 0)
			left = e < 0 ? -1 : left + n * e;
	}
	if (left >= 0 && P->total > P->n_runs) {
		double e = est_call(P, &P->runs[0]);

		left = e < 0 ? -1 :
			left + (P->total - P->n_runs) * P->min_reps * e;
	}
	pp.left = left;
	P->o->progress(&pp, P->o->progress_arg);
}
