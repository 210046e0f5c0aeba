/*
 * pandia_internal.h - the hooks of the Pandia model's row (pandia.c, the
 * model_def of predictor/models.h) that live in other files of the
 * model, private to predictor/pandia/.
 */
#ifndef PANDIA_PREDICTOR_PANDIA_INTERNAL_H
#define PANDIA_PREDICTOR_PANDIA_INTERNAL_H

#include "predictor/pandia/model.h"

struct ranking;

/* rank_fast (rank_fast.c): the ranking predicted in parallel. */
void pandia_rank_fast(struct ranking *r, const struct model_params *prm,
		      int workers);

#endif
