/*
 * params.h - the Pandia model's parameters in a workload description:
 * the "model" section of pandia-workload/1, read with the line and
 * column of a bad value, checked, and written back in a fixed order.
 *
 * common/ keeps the section without reading it (workload.h,
 * struct workload_model_ops); this file is its reader, installed by
 * pandia_params_install() (through models_install(), predictor/
 * models.h) before a description is loaded or saved.
 */
#ifndef PANDIA_PREDICTOR_PANDIA_PARAMS_H
#define PANDIA_PREDICTOR_PANDIA_PARAMS_H

#include "common/workload.h"

/* Make this file the reader and writer of every "model" section. */
void pandia_params_install(void);

#endif
