/*
 * blackbox.h - the black-box model: run time against input size
 * (Sykora and Scholz, "extended Amdahl model"; docs/blackbox.md).
 *
 * A data-parallel operation with input size x run on p cores takes
 *
 *	T_p(x) = T_seq(x) (alpha / p + 1 - alpha)
 *
 * where T_seq is a polynomial of a degree k the user knows, fitted by
 * least squares to the one-thread (p = 1) observations, and alpha is
 * the mean of alpha_i = p / (p - 1) (1 - t_i / T_seq(x_i)) over the
 * observations at the highest (p, x) key, compared p first.
 *
 * The state is constant in size: the fit keeps the running power sums
 * of the one-thread sizes and the time moments, never the points.  A
 * struct blackbox owns no memory; copy it with '='.  Nothing here
 * prints or exits: errors go into a caller's struct pandia_error,
 * warnings come back as BB_* flag bits with blackbox_flag_text().
 */
#ifndef PANDIA_PREDICTOR_BLACKBOX_H
#define PANDIA_PREDICTOR_BLACKBOX_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/jsonpos.h"
#include "common/machine.h"

/* The largest degree k; the monomial normal equations above it are too
 * badly conditioned to be worth solving in double sums. */
#define BB_MAX_DEGREE 6

/*
 * A fit is refused when the 1-norm condition number of the normal
 * equations (after scaling x by a power of two and the matrix to a
 * unit diagonal) exceeds this: the sums hold about 16 digits, so the
 * coefficients would keep fewer than about 6.
 */
#define BB_COND_LIMIT 1e10

enum bb_fit_status {
	BB_FIT_NONE,		/* fewer than k + 1 distinct one-thread sizes */
	BB_FIT_OK,
	BB_FIT_SINGULAR,	/* a zero or non-finite pivot */
	BB_FIT_ILL,		/* condition number above BB_COND_LIMIT */
};

struct blackbox {
	int degree;		/* k, 0 .. BB_MAX_DEGREE */

	/*
	 * T_seq's running sums over the one-thread observations, with
	 * the size scaled by 2^scale_exp, the smallest power of two
	 * not below any |x| seen (so that rescaling is exact):
	 *   pow_sum[j] = sum (x / 2^scale_exp)^j,       j = 0 .. 2k
	 *   moment[j]  = sum (x / 2^scale_exp)^j t,     j = 0 .. k
	 * pow_sum[0] is the number of one-thread observations.
	 */
	int scale_exp;
	double pow_sum[2 * BB_MAX_DEGREE + 1];
	double moment[BB_MAX_DEGREE + 1];
	/* the first k + 1 distinct one-thread sizes, to count them */
	int n_sizes;
	double sizes[BB_MAX_DEGREE + 1];
	/* the one-thread sizes measured: min > max when none */
	double size_min, size_max;

	/* T_seq(x) = sum coef[j] x^j, seconds, valid when BB_FIT_OK */
	enum bb_fit_status fit;
	double coef[BB_MAX_DEGREE + 1];
	double cond;		/* of the last fit tried; 0 when none */

	/*
	 * alpha: the running mean of alpha_i over the observations at
	 * the key (alpha_p, alpha_x), the highest seen, p first.
	 */
	bool has_alpha;
	double alpha;
	int alpha_p;
	double alpha_x;
	long alpha_count;
};

/* One observation: size x, p threads (one per core), time t seconds. */
struct bb_obs {
	double x;
	int p;
	double t;
};

/*
 * What an update did and what a prediction warns about: bits of the
 * flags that blackbox_update() and blackbox_predict() return.
 */
enum bb_flag {
	/* update */
	BB_ADDED_TSEQ = 1 << 0,		/* p = 1: added to T_seq's sums */
	BB_REFITTED = 1 << 1,		/* ... and T_seq was fitted again */
	BB_FIT_FAILED = 1 << 2,		/* ... but the fit is singular or
					 * ill-conditioned: no T_seq now */
	BB_ALPHA_RESET = 1 << 3,	/* a higher key: alpha = alpha_i */
	BB_ALPHA_FOLDED = 1 << 4,	/* the same key: into the mean */
	BB_ALPHA_LOWER = 1 << 5,	/* a lower key: ignored for alpha */
	BB_ALPHA_NO_FIT = 1 << 6,	/* no T_seq yet: ignored for alpha */
	BB_ALPHA_BAD_TSEQ = 1 << 7,	/* T_seq(x) <= 0: ignored */
	/* prediction */
	BB_WARN_NEGATIVE = 1 << 8,	/* predicted time <= 0 */
	BB_WARN_OUTSIDE = 1 << 9,	/* x outside the one-thread sizes */
	BB_WARN_ALPHA_RANGE = 1 << 10,	/* alpha outside [0, 1] */
};

/* A static text for one flag bit ("" for an unknown one). */
const char *blackbox_flag_text(unsigned flag);

/*
 * The model's formulas, for one point: the predicted time
 * tseq (alpha / p + 1 - alpha), and alpha_i = p / (p - 1) (1 - t /
 * tseq), which is NAN when p < 2 or tseq is not positive.
 */
double blackbox_formula(double tseq, double alpha, int p);
double blackbox_alpha_i(double tseq, int p, double t);

/* An empty model of DEGREE k.  Returns 0, or -1 for a bad degree. */
int blackbox_init(struct blackbox *bb, int degree, struct pandia_error *err);

/*
 * Add one observation, in constant time and space.  p = 1 goes into
 * T_seq's sums (fitted again once k + 1 distinct sizes are in); p > 1
 * gives alpha_i from the T_seq of this moment and goes through the key
 * rule: a higher (p, x) key resets the mean to alpha_i, the same key
 * folds it in, a lower one is ignored.  *flags (may be NULL) gets the
 * BB_* bits saying what happened.  Returns 0, or -1 with *bb unchanged
 * when x or t is not finite, t <= 0 or p < 1.  A fit that fails is not
 * an error here (the observation is kept): BB_FIT_FAILED is set, and
 * blackbox_predict() says why.
 */
int blackbox_update(struct blackbox *bb, double x, int p, double t,
		    unsigned *flags, struct pandia_error *err);

/*
 * The batch (static) fit of N observations into a new model of
 * DEGREE: T_seq from every p = 1 observation, then alpha by the key
 * rule from every p > 1 observation with that final T_seq.  Returns 0,
 * or -1 with err saying which observation is bad, how many more
 * distinct one-thread sizes are needed, or that the fit is singular
 * or ill-conditioned; *bb then holds the sums but no T_seq.
 */
int blackbox_fit(struct blackbox *bb, int degree, const struct bb_obs *obs,
		 size_t n, struct pandia_error *err);

/*
 * The alternatives the paper rejects, for comparison: the mean of
 * alpha_i over every p > 1 observation of OBS under bb's T_seq, each
 * alpha_i clamped to [0, 1] first if CLAMP.  Returns 0 with *alpha
 * set, or -1 when there is no T_seq or no usable observation.
 */
int blackbox_alpha_mean(const struct blackbox *bb, const struct bb_obs *obs,
			size_t n, bool clamp, double *alpha,
			struct pandia_error *err);

/* How many more distinct one-thread sizes T_seq needs: 0 .. k + 1. */
int blackbox_sizes_needed(const struct blackbox *bb);

/* T_seq(x) in seconds, NAN without a fit. */
double blackbox_tseq(const struct blackbox *bb, double x);

/*
 * Predict the time *t of size X on P threads.  *warn (may be NULL)
 * gets BB_WARN_* bits: a time that is not positive, a size outside the
 * one-thread sizes measured, an alpha outside [0, 1]; the time is
 * returned all the same.  Returns -1 with err saying why when there is
 * no T_seq (sizes needed, singular, ill-conditioned) or, for P > 1, no
 * alpha yet, or X is not finite or P < 1.
 */
int blackbox_predict(const struct blackbox *bb, double x, int p, double *t,
		     unsigned *warn, struct pandia_error *err);

/*
 * Whether AFTER, the model BEFORE updated with observations at size X,
 * can still describe a workload: alpha in [0, 1] and T_seq positive at
 * X and at both ends of the one-thread sizes, where BEFORE was so (a
 * model that was already out of range is not judged again).  Returns
 * 0, or -1 with err saying what went wrong and, when X is outside
 * BEFORE's one-thread sizes, that T_seq was extrapolated there.
 */
int blackbox_plausible(const struct blackbox *before,
		       const struct blackbox *after, double x,
		       struct pandia_error *err);

/*
 * The state as stored under models.blackbox (docs/blackbox.md):
 * returns a new reference.  Numbers of the running state that must
 * come back bit for bit are strings of 17 significant digits, because
 * the description writer keeps 10 (common/jsonout.h).
 */
json_t *blackbox_to_json(const struct blackbox *bb);

/*
 * Read the object OBJ (borrowed), found at PATH ("models.blackbox")
 * in SRC's text, into *bb.  Every field is checked; an error names the
 * field's path, line and column in src->err and returns -1.  The
 * coefficients must agree with the fit of the sums when the sums
 * determine one.
 */
int blackbox_from_json(struct blackbox *bb, json_t *obj,
		       const struct json_src *src, const char *path);

/* ---- in a workload description (predictor/blackbox_model.c) -------- */

struct pandia_workload;

/*
 * The model stored in w->models.blackbox into *bb.  Returns 0, or -1
 * with err: none stored ("profile with --model blackbox"), or what is
 * wrong with it at its file, line and column.
 */
int blackbox_of_workload(struct blackbox *bb,
			 const struct pandia_workload *w,
			 struct pandia_error *err);

/* Store *bb as w->models.blackbox, replacing what was there. */
void blackbox_store(struct pandia_workload *w, const struct blackbox *bb);

/*
 * The first warning among the BB_WARN_* bits of WARN as a static
 * text (the negative time first), or NULL when none.
 */
const char *blackbox_warning(unsigned warn);

/*
 * The cores a placement of N threads on PUS (m->pus indexes) uses:
 * the model's p (one thread per core; threads sharing a core count
 * once).
 */
int blackbox_cores(const struct pandia_machine *m, const int *pus, int n);

#endif
