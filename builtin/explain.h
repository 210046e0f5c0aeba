/*
 * explain.h - what the files of pandia explain share (builtin/explain*.c
 * only): the command line, the placements and the context of one
 * explanation.
 */
#ifndef PANDIA_BUILTIN_EXPLAIN_H
#define PANDIA_BUILTIN_EXPLAIN_H

#include <stdbool.h>

#include <jansson.h>

#include "common/machine.h"
#include "common/workload.h"
#include "predictor/pandia/model.h"
#include "predictor/stacks.h"
#include "profiler/counters.h"
#include "profiler/run.h"
#include "profiler/stalls.h"

/*
 * For the tests, on any host: "CATEGORY=EVENT,..." counted as the stall
 * events instead of the PMU's (software events count without a PMU:
 * "busy=perf::PERF_COUNT_SW_TASK_CLOCK"), perf's availability not
 * checked.  The numbers mean nothing; the way they take does.
 */
#define EXPLAIN_EVENTS_ENV "PANDIA_EXPLAIN_TEST_EVENTS"

/* The components of a stack must add up to N within this share. */
#define SUM_TOLERANCE 0.03

enum t1_source { T1_AUTO, T1_RUN, T1_WORKLOAD, T1_GIVEN };
struct cli {
	const char *machine_path, *workload_path, *dir;
	char **specs;		/* -p arguments, as given */
	int n_specs;
	int reps;
	bool warmup, force, quiet, json;
	bool recorded;		/* --recorded: run the command W records */
	double timeout;
	const char *time_from;	/* --time-from, or NULL */
	const char *runner;	/* --runner, or NULL */
	struct run_mempolicy mem;	/* --membind ... for the runs */
	enum t1_source t1_source;
	double t1;		/* --t1 SECONDS */
	enum counters_mode hw;	/* --counters (probe: none counted) */
	char **argv;		/* the command, NULL-terminated */
	bool own_argv;		/* argv was made from the workload */
};

/* One placement: what was predicted and what one run measured. */
struct place {
	char *cpus;		/* cpulist_format_compact() */
	int *os;		/* OS indexes, one per thread */
	int *pus;		/* m->pus indexes */
	int n;
	struct stack *pred, *meas;
	double pred_time;	/* s, the model's */
	bool ran;		/* measured */
	char *error;		/* why it failed, or NULL */
	double tn;		/* the kept run's wall time */
	double *times;		/* every run's, reps of them */
	int n_times;
	struct stack_thread *thr;	/* the kept run's accounting */
	int n_thr;
	double *stall;		/* per hardware event: seconds, NAN when
				   not counted */
};

struct xctx {
	struct cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct model_params prm;
	struct pandia_mempolicy mem;
	struct place *pl;
	int n_pl;
	char *shim;
	/* the single-thread time */
	double t1;
	int t1_place;		/* the placement it came from, or -1 */
	const char *t1_text;
	/* hardware counters */
	bool hw;
	bool hw_kernel;
	const char *pmu;
	const struct stall_hw_event *hw_ev;
	int n_hw;
	char **hw_names;
	bool *hw_kept;
	double hz;
	char *hw_note;		/* why the rest is not split, or NULL */
	struct stall_hw_event *test_ev;	/* EXPLAIN_EVENTS_ENV's (owned) */
	char *test_spec;	/* its text, cut into test_ev (owned) */
	bool warned_threads, warned_misplaced;
	int failed;
};

/* ---- hardware counters and running (explain_run.c) -------------- */

/* Perf or not, and which stall events, before anything runs. */
void explain_plan_hardware(struct xctx *x);
/*
 * The runs of every placement, in rounds: one run of each placement in
 * turn, -r rounds, so that a host that drifts moves them alike.
 * Returns 0 (a failure is kept in its placement, which runs no more),
 * or the signal that interrupted a run.
 */
int explain_measure(struct xctx *x);

/* ---- the stacks and output (explain_stacks.c) -------------------- */

/* The predicted stack of every placement (before anything runs). */
int explain_predict(struct xctx *x);
/* The measured stack of every placement run; -1 when one failed. */
int explain_build_measured(struct xctx *x);
/* Warn of the stacks whose components do not add up to N. */
void explain_check_sums(const struct xctx *x);
json_t *explain_to_json(const struct xctx *x);
void explain_print_text(const struct xctx *x);
/* DIR/stacks.json (JSON), stacks.gp and stacks.png: 0 or -1. */
int explain_save_files(const struct xctx *x, const char *json);
/* Whether -o DIR can be written, before anything runs: 0 or -1. */
int explain_check_dir(const char *dir);

#endif
