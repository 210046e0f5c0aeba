/*
 * validate_corun.h - pandia validate with two workloads: run them
 * together at divisions of the machine and compare each one's measured
 * time with every model's co-run prediction (docs/validation.md,
 * "Co-runs").
 */
#ifndef PANDIA_PROFILER_VALIDATE_CORUN_H
#define PANDIA_PROFILER_VALIDATE_CORUN_H

#include <stdbool.h>

#include "common/workload.h"
#include "predictor/models.h"
#include "profiler/run.h"

#define CORUN_MAX_DIVISIONS 64

/* What the command line asked for; every pointer borrowed. */
struct corun_cli {
	const char *machine_path;
	const char *workload_path[2];
	char **argv[2];		/* NULL-terminated; NULL: the workload's
				   own command */
	const char *divisions[CORUN_MAX_DIVISIONS];	/* "A_LIST/B_LIST" */
	int n_divisions;	/* 0: the default divisions */
	const struct model_def *model;	/* NULL: every model that predicts
					   co-runs and has parameters */
	const char *dir;	/* -o DIR, or NULL */
	const char *time_from;
	double timeout;
	int reps;
	bool warmup, force, quiet, dry_run;
	bool recorded;		/* --recorded: run the commands W records */
	bool has_memory;	/* --memory: the models' policy */
	struct pandia_mempolicy memory;
	const struct run_mempolicy *mem;	/* --membind ...; NULL */
};

/*
 * Run it.  Returns the exit status: 0, 1 when a run failed (the others
 * are still made and reported) or on another failure.
 */
int validate_corun(const struct corun_cli *o);

#endif
