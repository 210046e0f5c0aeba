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

/* The Pandia model's parameters by name, in file order. */
struct wl_param_desc {
	const char *name;
	size_t off;		/* of its struct wl_param in the workload */
	double lo, hi;		/* allowed range (hi: INFINITY) */
	bool nullable;
};

#define WL_N_PARAMS 5
extern const struct wl_param_desc wl_params[WL_N_PARAMS];

/* W's parameter D describes (borrowed from w). */
struct wl_param *wl_param_of(const struct pandia_workload *w,
			     const struct wl_param_desc *d);

/*
 * The checks of workload_check(), shared with loading.  On a problem
 * sets PATH (the JSON path of the offending value, PLEN bytes) and
 * err's text, and returns -1; else 0.
 */
int workload_check_at(const struct pandia_workload *w, char *path,
		      size_t plen, struct pandia_error *err);

#endif
