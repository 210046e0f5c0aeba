/*
 * rank.h - predict every canonical placement and rank them.
 *
 * The placements are enumerated first (their state vectors kept in one
 * arena), then predicted in parallel, one model per worker thread;
 * each prediction depends on its placement only, so the result does
 * not depend on the number of workers.
 *
 * When the full canonical space holds more than max_placements
 * placements, the reduced space is ranked instead: placements whose
 * used sockets of each socket class take at most two distinct socket
 * states (then one); docs/model.md explains why that keeps the
 * placements worth running.  The count of the full space is still
 * reported.
 *
 * Ownership: a struct ranking owns its arrays; rank_release() frees
 * them.  It borrows the space.
 */
#ifndef PANDIA_PREDICTOR_RANK_H
#define PANDIA_PREDICTOR_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "predictor/models.h"
#include "predictor/space.h"

#define RANK_DEFAULT_MAX 5000000L
/* bott of a placement that a model without bottlenecks predicted: the
   Pandia model's BN_NONE (checked where that is defined) */
#define RANK_BN_NONE 14

struct rank_entry {
	double time;		/* seconds */
	long long tq;		/* log(time) in millionths: equal to the
				   model's precision compares equal */
	double speedup;
	size_t st;		/* offset of its state vector in arena */
	uint16_t threads, cores;
	uint16_t sockets;
	uint8_t bott;		/* the Pandia model's
				   model_bottleneck_code(), or RANK_BN_NONE */
	uint8_t iterations_capped;	/* did not converge */
};

struct ranking {
	const struct space *sp;	/* borrowed */
	size_t n;
	struct rank_entry *e;
	uint16_t *arena;
	struct space_count full;	/* canonical placements in all */
	int max_layouts;	/* 0: the full space was ranked */
	int workers;
	double seconds;		/* wall time to enumerate and predict */
	const char *warning;	/* the first prediction's warning (static),
				   or NULL */
};

struct rank_opts {
	int threads;		/* only placements with this many; 0 all */
	long max_placements;	/* full space above this: reduced */
	int workers;		/* 0: one per online CPU (at most 16) */
	/*
	 * The model (NULL: the default, the Pandia model's).  One with
	 * a rank_fast ranks from the parameters PRM; any other predicts
	 * each placement by model->predict(state, ...), one after the
	 * other.
	 */
	const struct model_def *model;
	void *state;
	double size;		/* input size for model->predict; NAN: as
				   profiled */
};

/*
 * Predict every canonical placement of sp with the model parameters
 * PRM.  Returns 0, or -1 with err when there is none (--threads
 * beyond the machine) or even the reduced space is too large.
 */
int rank_all(const struct space *sp, const struct model_params *prm,
	     const struct rank_opts *o, struct ranking *r,
	     struct pandia_error *err);
void rank_release(struct ranking *r);

/* The state vector of entry i. */
const uint16_t *rank_state(const struct ranking *r, size_t i);

/*
 * Order: time (to a relative millionth, the model's precision), then
 * fewer threads, cores, sockets.  <0, 0, >0.
 */
int rank_cmp(const struct ranking *r, size_t a, size_t b);

/* Index of the best entry (r->n > 0). */
size_t rank_best(const struct ranking *r);

/*
 * The indexes of the N best entries, best first, into idx (at least
 * N long; N 0 means all).  Returns how many.
 */
size_t rank_top(const struct ranking *r, size_t n, size_t *idx);

/*
 * The entry with the fewest cores among those within PCT percent of
 * the best time (ties: the faster, then fewer threads).
 */
size_t rank_within(const struct ranking *r, double pct);

/*
 * Whether two predicted times are equal to the model: within ten times
 * its convergence tolerance (predictor/pandia/model.h's MODEL_TOL) of
 * each other, as the placements of a saturated level's plateau are.
 */
bool rank_equal_times(double a, double b);

#endif
