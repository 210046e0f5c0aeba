/*
 * validate.h - what the files of pandia validate share
 * (builtin/validate*.c only): the command line, the context of one
 * validation, running its rows and writing what they gave.
 */
#ifndef PANDIA_BUILTIN_VALIDATE_H
#define PANDIA_BUILTIN_VALIDATE_H

#include <stdbool.h>

#include "builtin/validate_corun.h"
#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/rank.h"
#include "predictor/space.h"
#include "predictor/validate.h"
#include "profiler/run.h"

struct cli {
	const char *machine_path, *workload_path, *dir, *time_from;
	const char *runner;		/* --runner, or NULL */
	bool has_memory;		/* --memory */
	struct pandia_mempolicy memory;
	struct run_mempolicy mem;	/* --membind ... for the runs */
	const char *placements;
	struct vsel sel;
	int k, reps, threads;
	bool warmup, sweep, force, quiet, dry_run;
	bool recorded;		/* --recorded: run the command W records */
	double timeout;
	char **argv;		/* the command, NULL-terminated */
	const char *workload2;	/* a co-run's second workload, or NULL */
	const char *divisions[CORUN_MAX_DIVISIONS];
	int n_divisions;
	bool model_given;
	const struct model_def *model;
	bool own_argv;		/* argv was made from the workload */
};

struct vctx {
	struct cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct space *sp;
	struct ranking r;
	bool have_ranking;
	struct vset vs;
	struct vinfo info;
	char date[32];
	double t0;
	char *shim;
	bool warned_shim, warned_threads, warned_misplaced, warned_unpinned;
	/*
	 * helpers[i]: the helpers by role row i's first run found; its
	 * later runs pin by them, without a run made to find them again
	 * (n_helpers rows so far; validate_run_row() keeps them)
	 */
	char **helpers;
	int n_helpers;
};

/* ---- the runs (validate_run.c) ---------------------------------- */

/*
 * One run of row i in round ROUND (from 0), the k-th of total in it,
 * after a warm-up when it is the row's first and -r asks for one; its
 * time added to the row's.  Returns 0 (measured, or failed and
 * recorded), or the signal that interrupted it.
 */
int validate_run_row(struct vctx *x, int i, int round, int k, int total);
/* What validate_run_row() kept of the rows' roles, released. */
void validate_runs_release(struct vctx *x);
/*
 * Every row of x measured: one run of each per round, -r rounds, in
 * validate's order (the pick, the defaults, then the rest spread over
 * the figure's order), the files saved after a run at most once a
 * second (the caller saves them at the end).  Returns 0, the signal
 * that stopped it, or -1 after saying why the files could not be
 * saved.
 */
int validate_measure(struct vctx *x);

/* ---- what they gave (validate_output.c) ------------------------- */

/* Write validate.json and validate.csv as they stand now: 0 or -1. */
int validate_save_files(struct vctx *x, const struct vsummary *s);
/* The same, summarised anew. */
int validate_save_now(struct vctx *x);
/* validate.gp, and validate.png by gnuplot when there is one. */
void validate_draw(struct vctx *x, const struct vsummary *s);
void validate_print_report(const struct vctx *x, const struct vsummary *s);

#endif
