/*
 * profile_progress.c - the progress of a profile for the caller's
 * callback: which run, which repetition, the time spent and the time
 * left, estimated from the calls made so far.
 */
#include "profiler/profile.h"

#include <math.h>
#include <string.h>

#include "common/util.h"
#include "profiler/profile_internal.h"
#include "profiler/run.h"
#include "stress/kernels.h"

/*
 * The seconds a call of R takes: its own calls' mean, else run 1's; a
 * probes' co-run adds the probes alone before and after, and the
 * first touch of their buffers (in parallel, one per PU: 508 MiB each
 * for DRAM on a 2-vCPU PVM guest).
 */
static double est_call(const struct prof *P, const struct prun *R)
{
	double e;

	if (R->calls)
		return R->wall / R->calls;
	if (!P->n_runs || !P->runs[0].calls)
		return -1;
	e = P->runs[0].wall / P->runs[0].calls;
	if (!R->probe || P->o->runner)
		return e;
	return e + 2 * P->alone_secs +
	       stress_touch_seconds(run_stressor_working_set(P->m,
							     &R->stress[0]));
}

/*
 * The calls of the least number a run is sure to get: one where its
 * second repetition WAITS on the budget, else all of them.
 */
static int sure_of(const struct prof *P, bool waits)
{
	return waits && P->min_reps > 1 ? 1 : P->min_reps;
}

/*
 * The calls run R is sure to get: a probe run one; a check run none
 * (each made only while the budget lasts); the others sure_of().
 */
static int sure_calls(const struct prof *P, const struct prun *R)
{
	if (R->probe)
		return 1;
	if (R->optional)
		return 0;
	return sure_of(P, prof_second_waits(P, R));
}

/*
 * The seconds left: every call a run is sure to get and has not had,
 * at the time such a call took so far, and of the calls the budget may
 * allow (the second repetition of runs 4 on, the check runs), what the
 * budget leaves room for; then the drift run (run 1 again, the reserve
 * held back for it) where the budget still has room for it.  Runs not
 * yet planned count as runs 4 on (-r fixed: sure of all their calls),
 * at run 1's time.  -1: not known yet.
 */
static double time_left(const struct prof *P)
{
	double sure = 0, maybe = 0, e, room;
	int i, n, s;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *Ri = &P->runs[i];

		e = est_call(P, Ri);
		s = sure_calls(P, Ri);
		n = s - Ri->n_times;
		if (n > 0 && e < 0)
			return -1;
		if (n > 0)
			sure += n * e;
		n = (Ri->probe ? 1 : P->min_reps) -
			(Ri->n_times > s ? Ri->n_times : s);
		if (n > 0 && e >= 0)
			maybe += n * e;
	}
	if (P->total > P->n_runs) {
		e = est_call(P, &P->runs[0]);
		if (e < 0)
			return -1;
		s = sure_of(P, !P->o->fixed_reps);
		sure += (P->total - P->n_runs) * s * e;
		maybe += (P->total - P->n_runs) * (P->min_reps - s) * e;
	}
	if (P->budget > 0) {
		room = P->budget - P->reserve - (now_seconds() - P->start) -
			sure;
		maybe = fmin(maybe, fmax(room, 0));
		/* the drift run, held back until the check stage: made if
		   the budget still has its call then, which the calls it
		   allows before (at most room) leave it */
		if (P->reserve > 0 && room >= 0)
			maybe += P->reserve;
	}
	return sure + maybe;
}

void prof_progress(struct prof *P, struct prun *R, int rep)
{
	struct profile_progress pp;

	if (!P->o->progress)
		return;
	memset(&pp, 0, sizeof(pp));
	pp.id = R->id;
	pp.what = R->purpose;
	pp.run = R->run;
	pp.probe = R->probe;
	pp.numbered = P->numbered;
	pp.rep = rep;
	pp.again = R->again;
	pp.reps = P->o->repetitions;
	pp.elapsed = now_seconds() - P->start;
	pp.left = time_left(P);
	P->o->progress(&pp, P->o->progress_arg);
}
