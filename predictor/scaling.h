/*
 * scaling.h - the runs ESTIMA extrapolates from (pandia-scaling/1).
 *
 * One run per thread count: its time and the count of every stall
 * category.  Written by 'pandia extrapolate' when it collects, or by
 * hand and by scripts for data measured elsewhere; the file format is
 * described in docs/extrapolate.md.
 *
 * Ownership: a struct pandia_scaling owns every array and string it
 * points to; scaling_free() releases them all.  Strings may be NULL
 * where the comment says "or NULL".
 *
 * Library code: nothing here prints or exits.
 */
#ifndef PANDIA_PREDICTOR_SCALING_H
#define PANDIA_PREDICTOR_SCALING_H

#include "common/error.h"

#define PANDIA_SCALING_SCHEMA "pandia-scaling/1"

struct scaling_run {
	int threads;		/* >= 1; strictly increasing over runs */
	double time;		/* seconds, > 0: the median of times when
				   the file gives only times */
	int n_times;
	double *times;		/* every repetition (seconds), or NULL */
	char *cpus;		/* the placement as a PU list, or NULL */
	double *stalls;		/* one per category, in the order of
				   pandia_scaling.categories; >= 0 */
};

struct pandia_scaling {
	int n_command;
	char **command;		/* argv as run; may be empty */
	char *machine;		/* host or machine file measured on, or NULL */
	double frequency;	/* Hz of the machine measured on; 0 unknown */
	char *counters;		/* backend of the hardware stalls ("perf",
				   "none"), or NULL */
	char *stall_unit;	/* unit of every stall count ("cycles"),
				   or NULL: cycles */
	char *date;		/* or NULL */
	char *version;		/* the pandia that wrote it, or NULL */
	char *note;		/* or NULL */

	int n_categories;
	char **categories;	/* names, unique, in file order */
	int n_runs;
	struct scaling_run *runs;
};

/* A new, empty set of runs.  Caller frees with scaling_free(). */
struct pandia_scaling *scaling_new(void);
/* Release s and everything it owns.  NULL is a no-op. */
void scaling_free(struct pandia_scaling *s);

/*
 * Add a category called NAME (copied); every run already there gets
 * the count 0 for it.  Returns its index, or -1 with err when the
 * name is empty or already there.
 */
int scaling_add_category(struct pandia_scaling *s, const char *name,
			 struct pandia_error *err);
/* Index of the category NAME, or -1. */
int scaling_category(const struct pandia_scaling *s, const char *name);

/*
 * Append a run with THREADS and TIME, every stall 0, no repetitions.
 * Returns it, borrowed until the next scaling_add_run() or
 * scaling_free().
 */
struct scaling_run *scaling_add_run(struct pandia_scaling *s, int threads,
				    double time);

/*
 * Check the values: threads >= 1 and strictly increasing, times finite
 * and > 0, stalls finite and >= 0, frequency finite and >= 0, category
 * names unique and not empty.  Returns 0 or -1 with err
 * "runs[3].time: what is wrong".
 */
int scaling_check(const struct pandia_scaling *s, struct pandia_error *err);

/*
 * Load and check a file.  On failure returns NULL and err names the
 * file, the line and column of the offending value, the field and
 * what is wrong with it.  New object, caller frees.
 */
struct pandia_scaling *scaling_load(const char *path,
				    struct pandia_error *err);
/* The same from TEXT in memory; SOURCE names it in errors. */
struct pandia_scaling *scaling_parse(const char *text, const char *source,
				     struct pandia_error *err);

/* The JSON text (new string, caller frees; ends in a newline). */
char *scaling_to_string(const struct pandia_scaling *s);
/* Check, then write atomically (temporary file, then rename). */
int scaling_save(const struct pandia_scaling *s, const char *path,
		 struct pandia_error *err);

#endif
