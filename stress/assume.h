/*
 * assume.h - figures for a machine that is described, not measured.
 *
 * 'pandia machine --topology SPEC --assume PARAMS.json' combines an
 * hwloc topology with this small file (pandia-assume/1, described in
 * docs/machine-format.md).
 */
#ifndef PANDIA_STRESS_ASSUME_H
#define PANDIA_STRESS_ASSUME_H

#include "common/error.h"
#include "common/machine.h"

/*
 * Read PATH and fill m's identity (cpu_model, host), core rates, links
 * and inter-socket links; m's topology must be loaded already.  Cache
 * sizes given in the file are added where the topology has no such
 * cache.  Returns 0 or -1 with err naming file, line and column.
 */
int assume_apply(struct pandia_machine *m, const char *path,
		 struct pandia_error *err);

#endif
