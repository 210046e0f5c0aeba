/*
 * tune.h - the statistics of 'pandia tune': which of a few candidate
 * placements, measured round robin, is the fastest beyond doubt, and
 * whether pinning helps at all (docs/tune.md, "The statistics"); and
 * the noise pooled over repetitions that every stated 90% range
 * takes (docs/profiling.md, "Uncertainty").
 *
 * Every comparison is Welch's t on the logarithms of the times: a
 * ratio of geometric means, its interval, and a one-sided test that
 * one candidate is slower than another.  Nothing here runs anything:
 * the command feeds the times in after every round.
 *
 * Library code: nothing here prints, runs a command or exits.
 */
#ifndef PANDIA_PREDICTOR_TUNE_H
#define PANDIA_PREDICTOR_TUNE_H

#include <stdbool.h>

/* Runs a candidate needs before it is compared at all. */
#define TUNE_MIN_RUNS 3
/* The smallest difference called a difference: 0.5%. */
#define TUNE_MIN_DIFF 0.005

/* Student's t distribution: P(T <= t) with DF degrees of freedom. */
double tune_t_cdf(double t, double df);
/* Its quantile: the t with tune_t_cdf(t, df) = P (0 < P < 1). */
double tune_t_quantile(double p, double df);

/* The mean and sample variance of log(v[0..n)) (NAN: n < 1, n < 2). */
void tune_log_moments(const double *v, int n, double *mean, double *var);

/*
 * The least relative noise a stated 90% range assumes: profiles made
 * minutes apart never agreed better than this, whatever their
 * repetitions said (docs/profiling.md, "Uncertainty").
 */
#define TUNE_SIGMA_FLOOR 0.005

/*
 * Pooling: the squared deviations of log(v[0..n)) about their mean
 * added to *SS, n - 1 to *DOF; nothing for n < 2 or a value not above
 * 0.
 */
void tune_pool_log(const double *v, int n, double *ss, int *dof);

/* The relative noise pooled in SS over DOF, at least TUNE_SIGMA_FLOOR. */
double tune_pooled_sigma(double ss, int dof);

/*
 * How far the median of N repetitions moves against another
 * profile's, nine times in ten, relative: t(0.95, DOF) x sigma x
 * sqrt(2 / N), sigma = sqrt(SS / DOF) and at least TUNE_SIGMA_FLOOR;
 * 0 when DOF or N is below 1.
 */
double tune_range_move(double ss, int dof, int n);

/* a against b: the ratio of their geometric means, and its interval. */
struct tune_cmp {
	int na, nb;
	double ratio;		/* gm(a) / gm(b) */
	double lo, hi;		/* its two-sided interval at the
				   confidence asked */
	double p_slower;	/* one-sided p of "a is not slower than
				   b": small when a is slower */
	double p_slower_min;	/* the same of "a is not slower than b
				   by more than TUNE_MIN_DIFF" */
	double noise;		/* the larger of the two standard
				   deviations of the log times (about
				   their relative spread) */
	bool valid;		/* both have two runs or more */
};

/*
 * Compare times A[0..NA) with B[0..NB) (seconds, > 0) at CONFIDENCE
 * (0 < c < 1).  With fewer than two runs on a side, c->valid is false
 * and only ratio is set (NAN when a side has none).
 */
void tune_compare(const double *a, int na, const double *b, int nb,
		  double confidence, struct tune_cmp *c);

enum tune_status {
	TUNE_LIVE,		/* still measured */
	TUNE_DROPPED,		/* slower than the leader beyond doubt */
	TUNE_FAILED,		/* its command failed */
	TUNE_SKIPPED,		/* not measured: the budget */
};

/* One candidate as the statistics see it. */
struct tune_cand {
	enum tune_status status;
	bool unpinned;		/* the OS scheduler's */
	int n;			/* runs measured */
	double *times;		/* borrowed, n of them */
	int dropped_round;	/* the round that dropped it, or 0 */
};

/*
 * The leader: the measured candidate of smallest geometric mean that
 * is neither failed nor skipped (dropped ones count: a candidate is
 * dropped only behind a faster one).  -1 when none was measured.
 */
int tune_leader(const struct tune_cand *c, int n);

/*
 * After round ROUND: drop every live candidate that is slower than
 * the leader beyond doubt, by more than TUNE_MIN_DIFF: p_slower_min
 * of tune_compare() below (1 - CONFIDENCE) / (N_COMPARED - 1)
 * (Bonferroni over the candidates compared; N_COMPARED the candidates
 * measured at all), both with TUNE_MIN_RUNS runs or more.  Candidates
 * within TUNE_MIN_DIFF of each other are never dropped: they tie.  Returns how many candidates are still
 * live: one means the leader leads every other with the confidence.
 */
int tune_drop(struct tune_cand *c, int n, double confidence, int round);

/* What the measurements say about pinning. */
enum tune_verdict_kind {
	TUNE_V_NONE,		/* nothing to compare */
	TUNE_V_HELPS,		/* a pinned placement beats unpinned */
	TUNE_V_NO_HELP,		/* unpinned is within the noise */
	TUNE_V_UNPINNED_BEST,	/* unpinned beats every pinned one */
	TUNE_V_NO_DEFAULT,	/* no unpinned run: best against next */
};

struct tune_verdict {
	enum tune_verdict_kind kind;
	int best;		/* the measured best (a candidate) */
	int other;		/* what it is compared with, or -1 */
	struct tune_cmp cmp;	/* other against best: ratio - 1 is how
				   much faster best is */
	double within;		/* NO_HELP: unpinned is within this
				   fraction of the best pinned (at least
				   the threshold) */
	double threshold;	/* max(TUNE_MIN_DIFF, the noise) */
	bool decided;		/* the interval lies beyond the
				   threshold on one side, or inside it */
};

/*
 * The verdict: the best pinned candidate against the unpinned one
 * (when there is one with two runs or more), or the leader against
 * the next.  Pinning helps when the unpinned one is slower by more
 * than max(TUNE_MIN_DIFF, the noise) over the whole interval (its near
 * end beyond that); otherwise it does not, the unpinned one within
 * that or the interval's far end.
 */
void tune_verdict(const struct tune_cand *c, int n, double confidence,
		  struct tune_verdict *v);

#endif
