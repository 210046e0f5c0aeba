/*
 * fit_tune.h - the Pandia model refitted with the placements pandia
 * tune measured (docs/tune.md, "What it leaves behind").
 *
 * Library code: nothing here prints, runs a command or exits.
 */
#ifndef PANDIA_PREDICTOR_PANDIA_FIT_TUNE_H
#define PANDIA_PREDICTOR_PANDIA_FIT_TUNE_H

#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"

/*
 * Refit w's Pandia parameters on machine m with its pinned runs of
 * purpose MODEL_TUNE_PURPOSE (model_def's refit), from the profile's
 * own parameters (model.refit.profiled when w was refitted before,
 * else w's), and record the refit in model.refit.  Deterministic from w alone: the profile's
 * runs, its check runs and the tune runs, joint-fitted as the profile
 * fits (predictor/pandia/fit_joint.h) with t1 and the demands as they
 * are.  *say gets one line for people (new string): what moved, or
 * why nothing could be refitted (then w keeps the profile's values,
 * its ranges widened by how far they missed the tune runs).  Returns
 * 1 when refitted, else 0.
 */
int pandia_refit_tuned(const struct pandia_machine *m,
		       struct pandia_workload *w, char **say);

#endif
