/*
 * machine_internal.h - what the parts of the machine description
 * (machine*.c) share and nothing else uses.
 */
#ifndef PANDIA_MACHINE_INTERNAL_H
#define PANDIA_MACHINE_INTERNAL_H

#include <stddef.h>

#include "common/error.h"
#include "common/machine.h"

/*
 * The checks of machine_check(), shared with loading.  On a problem
 * sets PATH (the JSON path of the offending value, PLEN bytes) and
 * err's text, and returns -1; else 0.
 */
int machine_check_at(const struct pandia_machine *m, char *path,
		     size_t plen, struct pandia_error *err);

#endif
