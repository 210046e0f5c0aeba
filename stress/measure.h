/*
 * measure.h - measure this host's figures for the machine description.
 */
#ifndef PANDIA_STRESS_MEASURE_H
#define PANDIA_STRESS_MEASURE_H

#include <stdbool.h>

#include "common/error.h"
#include "common/machine.h"
#include "stress/kernels.h"

struct stress_opts {
	bool quick;		/* at most 30 s on a 2-core host */
	bool progress;		/* progress lines on stderr */
	bool wall_clock;	/* rates over wall time instead of the
				   threads' CPU time (to compare with
				   tools that use the wall clock) */
};

/* Rough duration of stress_measure() in seconds, to announce it. */
double stress_estimate_seconds(const struct pandia_machine *m,
			       const struct stress_opts *o);

/*
 * Measure core rates and every link of m, whose topology must already
 * be this host's (topology_load(m, NULL, ...)).  Fills m->peak_rate,
 * m->peak, m->smt_*, m->links[] and m->xlinks with every figure's
 * measure record.  Returns 0 or -1 with err.
 */
int stress_measure(struct pandia_machine *m, const struct stress_opts *o,
		   struct pandia_error *err);

/*
 * Measure one figure the way stress_measure() does: KIND run by one
 * thread pinned to each of the N OS PU indexes in PUS (a PU may
 * repeat), each on its own WS-byte buffer on NUMA node NODE (-1:
 * local; WS unused for STRESS_CPU), with the repetitions of o->quick
 * or the full mode.  Fills *out (owned by the caller, release with
 * measure_release()); its note is NULL unless other processes
 * disturbed the run.  Used by the benchmarks and tests.  Returns 0 or
 * -1 with err.
 */
int stress_measure_one(enum stress_kind kind, const int *pus, int n,
		       size_t ws, int node, const struct stress_opts *o,
		       struct pandia_measure *out, struct pandia_error *err);

#endif
