/*
 * workload_internal.h - what the parts of the workload description
 * (workload*.c) share and nothing else uses.
 */
#ifndef PANDIA_WORKLOAD_INTERNAL_H
#define PANDIA_WORKLOAD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/workload.h"

/*
 * The checks of workload_check(), shared with loading.  On a problem
 * sets PATH (the JSON path of the offending value, PLEN bytes) and
 * err's text, and returns -1; else 0.
 */
int workload_check_at(const struct pandia_workload *w, char *path,
		      size_t plen, struct pandia_error *err);

#endif
