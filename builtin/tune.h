/*
 * tune.h - what the files of pandia tune share (builtin/tune*.c only):
 * the command line, the candidates and their measurements.
 *
 * The files split by what they borrow: tune_plan.c chooses the
 * candidates with predict's ranges (builtin/predict.h), tune_run.c
 * measures them one row at a time as validate does
 * (builtin/validate.h), tune_output.c reports with predict's pin
 * lines.  Those two headers cannot meet in one file (each has its
 * struct cli), so this one includes neither.
 */
#ifndef PANDIA_BUILTIN_TUNE_H
#define PANDIA_BUILTIN_TUNE_H

#include <stdbool.h>

#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/rank.h"
#include "predictor/space.h"
#include "predictor/tune.h"
#include "predictor/validate.h"
#include "profiler/run.h"

struct tune_cli {
	const char *machine_path, *workload_path, *output;
	const char *time_from, *runner;
	bool json, quiet, force, has_memory;
	struct pandia_mempolicy memory;
	struct run_mempolicy mem;	/* --membind ... for the runs */
	const struct model_def *model;
	bool model_given;
	int k;
	double timeout;
	double budget;		/* seconds, or a multiple of the predicted
				   best's time (budget_times) */
	bool budget_times;
	double confidence;
	char **argv;		/* the command, NULL-terminated */
	bool own_argv;		/* argv was allocated here */
};

/* A candidate: a row of the set, why it is there, what it measured. */
struct tune_row {
	int row;		/* in vs */
	char *why;		/* "predicted best; tie" (owned) */
	double lo, hi;		/* the predicted range, seconds */
};

struct tctx {
	struct tune_cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct pandia_mempolicy mem;	/* predicted with: --memory, or
					   the workload's */
	struct space *sp;
	struct ranking r;
	bool have_ranking;
	struct vset vs;		/* every placement considered */
	int n_cands;
	struct tune_row *cands;	/* the ones measured, in order */
	struct tune_cand *st;	/* the statistics' view of each */
	double best_predicted;	/* the predicted best's time */
	double budget;		/* seconds */
	double spent;		/* the measured runs' times added up */
	int rounds;
	bool decided;		/* one leads every other */
	bool budget_spent;
	int interrupted;	/* the signal that stopped it, or 0 */
	int failed;		/* candidates whose command failed */
	struct tune_verdict v;
	double t0;
};

/* ---- the candidates (tune_plan.c) ------------------------------- */

/*
 * Rank every placement, choose the candidates and what of them the
 * budget allows, predict them.  Returns 0, or -1 after saying why.
 */
int tune_plan(struct tctx *t);
void tune_release(struct tctx *t);

/* ---- measuring (tune_run.c) ------------------------------------- */

/*
 * Measure the candidates round robin until one leads every other, the
 * budget is spent, or a signal (t->interrupted).  Returns 0, or -1
 * when nothing could be run at all.
 */
int tune_measure(struct tctx *t);

/* ---- what it found (tune_output.c) ------------------------------ */

/* The median and spread ((max - min) / median) of candidate i. */
void tune_row_stats(const struct tctx *t, int i, double *median,
		    double *spread);
void tune_print(const struct tctx *t);
void tune_print_json(const struct tctx *t);
/*
 * The measured runs into t->w as runs "tune-N" of their own, and the
 * description written to PATH atomically.  Returns 0 or -1 after
 * saying why.
 */
int tune_save(struct tctx *t, const char *path);

#endif
