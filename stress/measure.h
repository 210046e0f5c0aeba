/*
 * measure.h - measure this host's figures for the machine description.
 */
#ifndef PANDIA_STRESS_MEASURE_H
#define PANDIA_STRESS_MEASURE_H

#include <stdbool.h>

#include "common/error.h"
#include "common/machine.h"

struct stress_opts {
	bool quick;		/* at most 30 s on a 2-core host */
	bool progress;		/* progress lines on stderr */
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

#endif
