/*
 * predict_ranks_enum.h - the divisions of a machine into R ranks of T
 * threads (one thread a PU), one per class under the machine's
 * symmetry and any renumbering of the ranks (docs/model.md, "Hybrid
 * jobs").
 *
 * A division is written as a string over the machine's PUs in the
 * space's order (socket classes, their sockets in slot order, each
 * socket's core groups, a group's cores, a core's PUs): 0 for an idle
 * PU, r for rank r, the ranks numbered by first appearance.  A class's
 * representative is its smallest string, an idle PU sorting after
 * every rank (the representative's ranks take the first PUs).
 *
 * Ownership: a struct divisions owns its arrays and borrows the space,
 * which must outlive it.
 */
#ifndef PANDIA_PREDICT_RANKS_ENUM_H
#define PANDIA_PREDICT_RANKS_ENUM_H

#include <stdbool.h>
#include <stdint.h>

#include "predictor/space.h"

struct divisions;

struct divisions *divisions_new(const struct space *sp);
void divisions_free(struct divisions *dv);

/* The PU count (string length) and the PU (m->pus index) at string
   position i. */
int divisions_len(const struct divisions *dv);
int divisions_pu(const struct divisions *dv, int i);

/*
 * Call FN with each class's smallest string of R ranks of T threads
 * (R x T <= PUs), in increasing order, until FN returns non-zero
 * (returned), CAP strings were given (0: no cap), or about BUDGET
 * steps of search were spent (0: no limit).  *complete says whether
 * every class was given.  Returns 0, or FN's non-zero.
 */
typedef int (*divisions_fn)(const uint16_t *s, void *arg);
int divisions_enumerate(struct divisions *dv, int r, int t, long cap,
			long budget, divisions_fn fn, void *arg,
			bool *complete);

/* The steps of search the last call spent. */
long divisions_steps(const struct divisions *dv);

/*
 * The smallest string of the class of division PUS (R x T m->pus
 * indexes, rank by rank) into OUT (divisions_len() entries).  0, or -1
 * when BUDGET steps (0: no limit) were not enough.
 */
int divisions_canonical(struct divisions *dv, int r, int t, const int *pus,
			long budget, uint16_t *out);

/*
 * A lower bound of the class count of R ranks of T threads: the
 * labelled divisions over the order of the group that acts on them
 * (the machine's symmetries times the ranks' renumberings), or the
 * canonical placements of R x T threads, whichever is larger.
 */
double divisions_lower_bound(const struct divisions *dv, int r, int t);

#endif
