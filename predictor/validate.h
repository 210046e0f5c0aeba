/*
 * validate.h - measured against predicted: the placements 'pandia
 * validate' runs and the accuracy metrics of section 6 of the Pandia
 * paper (shared/seeds/004_*.txt; formulas in docs/validation.md).
 *
 * The pieces, each usable on its own:
 *   - which canonical placements to run (--placements all, sample:N,
 *     top:K) from a ranking;
 *   - (the placements users get without pandia are in defaults.h);
 *   - the metrics on arrays of predicted and measured times;
 *   - a set of rows, one per distinct placement run (struct vset), its
 *     summary, and its files: validate.json, validate.csv and the
 *     gnuplot script that draws validate.png.
 *
 * Library code: nothing here prints, runs a command or exits.
 */
#ifndef PANDIA_PREDICTOR_VALIDATE_H
#define PANDIA_PREDICTOR_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"
#include "predictor/defaults.h"
#include "predictor/models.h"
#include "predictor/rank.h"
#include "predictor/space.h"

/* ---- which placements -------------------------------------------- */

enum vsel_mode {
	VSEL_ALL,		/* every ranked canonical placement */
	VSEL_SAMPLE,		/* N spread over thread counts and shapes */
	VSEL_TOP,		/* the K best predicted */
};

struct vsel {
	enum vsel_mode mode;
	long n;			/* N or K; 0 for all */
};

/*
 * Parse "all", "sample:N" or "top:K" (N, K >= 1).  Returns 0, or -1
 * with err saying what is accepted.
 */
int vsel_parse(const char *text, struct vsel *sel, struct pandia_error *err);

/*
 * The entries of ranking r that sel chooses, as indexes into r->e in
 * a new array *idx (caller frees); returns how many.  The predicted
 * best is always among them.  sample:N takes the best, then shares the
 * other N - 1 out over the thread counts in turn (when they are fewer
 * than the thread counts, over counts evenly spaced from the smallest
 * to the largest), and within a thread count takes entries evenly
 * spaced in predicted order (its best, its worst, then between), so
 * that the counts and both ends of each are covered.  Deterministic:
 * no random numbers.
 */
size_t vsel_choose(const struct ranking *r, const struct vsel *sel,
		   size_t **idx);

/* ---- metrics ----------------------------------------------------- */

/* |predicted - measured| / measured: the paper's error, a fraction. */
double validate_error(double predicted, double measured);

/* measured / best - 1: how much slower than the best measured. */
double validate_gap(double measured, double best);

/*
 * The ranks of v[0..n) (1 = smallest), ties sharing the mean of the
 * ranks they span, into rank[0..n).
 */
void validate_ranks(const double *v, int n, double *rank);

/*
 * Spearman's rank correlation of x and y: the Pearson correlation of
 * their ranks (ties averaged).  NAN when n < 2 or either is constant.
 */
double validate_spearman(const double *x, const double *y, int n);

struct validate_metrics {
	int n;			/* placements compared */
	double median_error;	/* median of validate_error() */
	double mean_error;	/* mean of the same */
	double max_error;
	/*
	 * The paper's offset: the mean difference between the measured
	 * and the predicted curves, mean(m_i - p_i), here as a fraction
	 * of the best measured time (the units of the plot), added to
	 * every prediction before the error is taken again.
	 */
	double offset;
	double offset_error;	/* median of |p_i + d - m_i| / m_i */
	double offset_error_mean;
	double best_gap;	/* m[pick] / m[best] - 1 */
	double spearman;	/* NAN when not defined */
	int best;		/* index of the best measured */
	int pick;		/* index of the predicted best */
};

/*
 * The metrics of n placements with predicted times PRED and measured
 * times MEAS (seconds, > 0).  PICK is the index of pandia's pick (the
 * predicted best); -1: the smallest PRED, the first of equals.
 * Returns 0, or -1 with err when n < 1 or a time is not positive.
 */
int validate_metrics(const double *pred, const double *meas, int n,
		     int pick, struct validate_metrics *mt,
		     struct pandia_error *err);

/* ---- the rows of a validation -------------------------------------- */

#define VROLE_SELECTED	0x01u	/* chosen by --placements */
#define VROLE_PICK	0x02u	/* pandia's pick, the predicted best */
#define VROLE_DEFAULT	0x04u	/* what users get without pandia */
#define VROLE_PACKED	0x08u	/* sweep, packed */
#define VROLE_SPREAD	0x10u	/* sweep, spread */

enum vrow_state { VROW_PENDING, VROW_OK, VROW_FAILED };

/* One distinct placement, run once whatever roles it has. */
struct vrow {
	int n;			/* threads */
	int *pus;		/* m->pus indexes in thread order (owned) */
	char *cpus;		/* cpulist_format_compact() (owned) */
	bool pinned;		/* false: unpinned, the OS places them */
	uint16_t *st;		/* canonical form, or NULL (owned) */
	unsigned roles;		/* VROLE_ */
	char *names;		/* the defaults it is, "a; b", or NULL */
	int cores, sockets;
	int per_pu;		/* most threads on one PU */
	double predicted;	/* seconds */
	/* the range the model states for it (predict's), and the same
	   without t1's part, which moves every placement alike; NAN: none
	   stated */
	double lo, hi, tie_lo, tie_hi;
	const char *bottleneck;	/* static string */
	int x;			/* position in the figure order, from 1 */

	enum vrow_state state;
	double measured;	/* median, seconds */
	double min, max;
	int reps;
	double *times;		/* its measured runs in the order made
				   (reps of them, owned) */
	double seconds;		/* its measured runs added up */
	double disturbed;	/* share of its PUs' time others took, or
				   its threads waited for a CPU (the
				   most of its runs, each the least of
				   the attempts made); 0: none */
	char *error;		/* why it failed (owned) */
};

/* A default: its name and the row that holds its placement. */
struct vdefault {
	char *name;		/* owned */
	int row;
};

struct vset {
	const struct space *sp;	/* borrowed, and through it the machine */
	int n_rows;
	struct vrow *rows;
	int n_defaults;
	struct vdefault *defaults;
	int pick;		/* row of the predicted best, or -1 */
	int cap_rows;		/* rows allocated */
	/* the rows of a canonical form, hashed by it: open addressing,
	   row + 1 (0: empty), cap_index a power of two or 0 */
	int *index;
	size_t cap_index;
};

void vset_init(struct vset *vs, const struct space *sp);
void vset_release(struct vset *vs);

/*
 * The row of placement PUS (m->pus indexes, N threads), pinned or not,
 * added when no row holds the same placement up to the machine's
 * symmetry (pinned rows), or when there is no unpinned row of N
 * threads (unpinned); ROLES are added to the row either way.  Returns
 * the row's index.
 */
int vset_add(struct vset *vs, const int *pus, int n, bool pinned,
	     unsigned roles);

/*
 * Whether row RW has a stated range (lo, hi finite), and, when it was
 * measured, its measured time within it (*in).
 */
bool vrow_range(const struct vrow *rw, bool *in);

/* vset_add() with VROLE_DEFAULT, and NAME recorded.  Returns the row. */
int vset_add_default(struct vset *vs, const char *name, const int *pus,
		     int n, bool pinned);

/*
 * Predict every row with MODEL, an instance of DEF opened on the set's
 * machine, and number the rows in the figure's order: by threads, then
 * by threads per core (fewest first), then by sockets, then by the
 * threads of each core in machine order (most first); unpinned rows
 * last.  Returns 0, or -1 with err when a prediction failed.
 */
int vset_predict(struct vset *vs, const struct model_def *def, void *model,
		 struct pandia_error *err);

/* The indexes of the rows in figure order into order[0..n_rows). */
void vset_figure_order(const struct vset *vs, int *order);

/* What a validation found so far. */
struct vheur {
	const char *name;	/* borrowed from the set */
	int row;
	double gap;		/* measured / best measured - 1; NAN */
	double pick_vs;		/* pick measured / its measured - 1; NAN */
	bool pick_worse;	/* the pick is slower beyond the noise */
};

struct vsummary {
	int rows, measured, failed, pending;
	bool have_metrics;
	struct validate_metrics mt;	/* indexes are rows */
	int n_heur;
	struct vheur *heur;		/* owned */
	double noise;		/* the tolerance behind pick_worse */
	/* the sweep (section 6.3) */
	bool sweep;
	int sweep_rows, sweep_measured;
	double sweep_seconds;	/* its measured runs added up */
	double sweep_pass;	/* one run of each: medians added up */
	int sweep_best;		/* row, or -1 */
	bool sweep_found;	/* its best is the best measured */
	double sweep_gap;	/* its best / best measured - 1 */
	double profile_seconds;	/* the workload's recorded runs, added */
	double profile_pass;	/* their medians added up; 0: none */
	/*
	 * The best of everything measured, the unpinned rows (the OS
	 * scheduler) included, which mt.best (the paper's metric) leaves
	 * out since they have no prediction: its row, or -1; the pick's
	 * gap to it (NAN when the pick was not measured); and whether it
	 * is a row that does not pin and is faster than the pick beyond
	 * the noise of the two.
	 */
	int best_all;
	double best_gap_all;
	bool unpinned_beats_pick;
	/*
	 * The host's speed in each round (validate runs every placement
	 * once a round): over the rows measured in every round, at least
	 * two (round_rows), the median of each round's run over its
	 * row's median.
	 * n_rounds is 0 when fewer than two rows or rounds; round_move is
	 * the largest level over the smallest, minus one.
	 */
	int n_rounds, round_rows;
	double *round_level;	/* n_rounds of them (owned) */
	double round_move;
	/*
	 * The noise of mt.best_gap: the larger relative spread of the
	 * pick's and the best's runs, at least 1% (NAN when there is no
	 * gap).  A gap below it is not one the runs can tell from noise.
	 */
	double best_gap_noise;
	/*
	 * The stated ranges against what was measured: of the measured
	 * pinned rows with a range, how many (range_rows), and how many
	 * of them fell inside it (range_in); and whether the best
	 * measured pinned row's range, without t1's part, overlaps the
	 * pick's, so that pandia said the two might tie (false when
	 * either has no range).
	 */
	int range_rows, range_in;
	bool best_tied;
	/*
	 * How wide those ranges were: the median over the same rows of
	 * the half width over the predicted time (NAN when none): a
	 * share inside says little without it.
	 */
	double range_width;
	/*
	 * The host's move since the profile: the pinned one-thread row
	 * measured outside its range (move_row, or -1: none, or inside
	 * it), its measured over predicted time (move, NAN: none), and
	 * of the other pinned rows with a range, how many (move_rows)
	 * fall inside it with their times divided by move (move_in);
	 * whether that is more than without the move (move_explains:
	 * the host moved; false: the others did not move with it).
	 */
	int move_row;
	double move;
	int move_rows, move_in;
	bool move_explains;
};

/*
 * Summarise vs: the metrics over every measured pinned row, the best
 * of every measured row (unpinned ones too), each default's gap, the
 * sweep.  RUNS are the workload's recorded
 * runs (N_RUNS may be 0), for the sweep's comparison with the
 * profiling runs among them (those of pandia tune, purpose "tune...",
 * are left out).
 * Release with vsummary_release().
 */
void vset_summarise(const struct vset *vs, const struct wl_run *runs,
		    int n_runs, struct vsummary *s);
void vsummary_release(struct vsummary *s);

/* What the files say about how the validation was made. */
struct vinfo {
	const char *machine_file, *workload_file;
	const char *host;
	char *const *argv;	/* the command measured, NULL-terminated */
	const char *placements;	/* "all", "sample:20" */
	int oversubscribe;
	int repetitions;
	bool warmup;
	const char *time_from;	/* or NULL: wall time */
	const char *date;	/* ISO 8601 */
	double load_start[3];	/* /proc/loadavg when it began */
	double load_now[3];	/* ... when the file was written */
	bool complete;		/* every row ran (or failed) */
	int interrupted;	/* signal that stopped it, or 0 */
	double elapsed;		/* seconds since it began */
	long space_size;	/* canonical placements; -1: huge */
	bool reduced;		/* the ranking was of the reduced space */
};

/*
 * validate.json (schema "pandia-validate/1"): metrics (median_error,
 * mean_error, max_error, offset, offset_error, offset_error_mean,
 * best_gap, spearman, placements, failed; range_rows, range_coverage
 * and best_tied where ranges were stated; host_move {cpus, ratio,
 * range_rows, range_coverage, explains} where the one-thread row missed
 * its range), best, pick, heuristics
 * [{name, cpus, threads, pinned, predicted, measured, gap, pick_vs}],
 * sweep, and every row.  New reference.
 */
json_t *vset_to_json(const struct vset *vs, const struct vsummary *s,
		     const struct vinfo *info);

/*
 * validate.csv: a header line, then one line per row in figure order:
 * x,threads,cores,sockets,per_pu,cpus,pinned,roles,defaults,
 * predicted_s,measured_s,min_s,max_s,reps,error,offset_error,norm_measured,
 * norm_predicted,status,message.  Empty fields where a value is not
 * known.  New string.
 */
char *vset_to_csv(const struct vset *vs, const struct vsummary *s);

/*
 * A gnuplot script that draws the figure into PNG (a path written
 * into the script) from data held in the script itself: measured and
 * predicted time of the pinned rows in figure order, normalised to the
 * best measured, with the first default (the whole machine unpinned,
 * when it is) as a line.  TITLE goes on
 * top.  New string; NULL when nothing was measured.
 */
char *vset_gnuplot_script(const struct vset *vs, const struct vsummary *s,
			  const char *png, const char *title);

#endif
