/*
 * stated.h - the ranges pandia predict states (builtin/predict_rank.c),
 * for a command whose own command line keeps it from including
 * builtin/predict.h: pandia validate compares them with what it
 * measures.
 */
#ifndef PANDIA_BUILTIN_STATED_H
#define PANDIA_BUILTIN_STATED_H

#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/validate.h"

/*
 * Each pinned row of VS with a prediction: the range predict states for
 * it (lo, hi) and the same without t1's part (tie_lo, tie_hi), from the
 * parameters' uncertainties in W, for MODEL with memory MEM; STATE is
 * MODEL's instance (another model than the Pandia model states no
 * range: the rows keep NAN).
 */
void vset_stated_ranges(struct vset *vs, struct pandia_machine *m,
			struct pandia_workload *w,
			const struct model_def *model,
			const struct pandia_mempolicy *mem, void *state);

#endif
