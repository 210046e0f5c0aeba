/*
 * borrow.h - the figures of a machine described from its topology
 * alone ('pandia machine --topology SPEC' without --assume).
 */
#ifndef PANDIA_STRESS_BORROW_H
#define PANDIA_STRESS_BORROW_H

#include "common/machine.h"

/*
 * Take m's core rates, link bandwidths and missing cache sizes from
 * FROM, a measured description of a host with the same CPU model
 * (FROM_PATH names it in every figure's note).  Aggregates are FROM's
 * as measured on its own cores.  m's topology must be loaded.
 */
void borrow_figures(struct pandia_machine *m,
		    const struct pandia_machine *from, const char *from_path);

/*
 * Leave every figure of m unknown, WHY saying so: the core rate is 0
 * with m->peak_reason set, every link absent with reason WHY.
 */
void borrow_none(struct pandia_machine *m, const char *why);

#endif
