/*
 * stacks.h - speedup stacks: where the speedup of a run goes, as one
 * stacked bar of height N (the thread count) per run, the achieved
 * speedup at the bottom and above it the speedup lost to each cause
 * (the speedup-stack paper, shared/seeds/002_*.txt; digest
 * seed-speedup-stacks.md).  Every formula is in docs/stacks.md.
 *
 * Two kinds of stack:
 *   - measured, from the per-thread accounting of one run (start,
 *     end, CPU time, run-queue wait, time blocked by kind) and the
 *     single-thread time t1; optionally the rest is split by counted
 *     stall events;
 *   - predicted, from a solved Pandia model (predictor/pandia/,
 *     which computes it): the model's own terms (Amdahl, each resource
 *     kind, burstiness, communication, load balance) decomposed so
 *     that they add up to N exactly.
 * And their files: the JSON of a stack and a gnuplot script that
 * draws measured and predicted stacks side by side.
 *
 * Library code: nothing here prints, runs a command or exits.
 * Every value of a component is in units of speedup.
 */
#ifndef PANDIA_PREDICTOR_STACKS_H
#define PANDIA_PREDICTOR_STACKS_H

#include <stdbool.h>

#include <jansson.h>

#include "common/error.h"

struct model;		/* a solved Pandia model (predictor/pandia/) */

/* ---- the input of a measured stack ------------------------------- */

/* Why a thread was blocked, as the runner tells them apart. */
enum stack_block {
	SB_MUTEX,
	SB_CONDITION,
	SB_BARRIER,
	SB_JOIN,
	SB_SEMAPHORE,
	SB_OTHER,
	SB_COUNT
};

/*
 * One thread of the run, as the runner accounts it (times in seconds;
 * start and end from the command's start).  The array of them is in
 * creation order: the first is the process's main thread.
 */
struct stack_thread {
	double start, end;
	double cpu_time;		/* on a CPU */
	double runqueue_wait;		/* runnable, waiting for a CPU */
	double blocked[SB_COUNT];	/* off the CPU, by kind */
	bool worker;			/* does the work (else a helper) */
};

/*
 * Stall time counted by hardware counters, to split the rest of a
 * measured stack (what CPU time the threads spent beyond what one
 * thread needed).  The caller turns counts into seconds (stall cycles
 * over the clock rate), summed over the worker threads.
 */
struct stack_stall {
	const char *key;	/* the component's name: "memory_stalls" */
	const char *label;	/* for people: "memory stalls" */
	double seconds;		/* in this run */
	double single;		/* in the single-thread run (0: unknown) */
};

struct stack_run {
	double t1;		/* single-thread time, s */
	double tn;		/* this run's wall time, s */
	int threads;		/* N, the worker threads */
	const struct stack_thread *thr;	/* every thread, creation order */
	int n_thr;
	const struct stack_stall *stalls;	/* NULL: no counters */
	int n_stalls;
	const char *cpus;	/* the placement, for the JSON (or NULL) */
};

/* ---- a stack ------------------------------------------------------ */

enum stack_kind { STACK_MEASURED, STACK_PREDICTED };

struct stack_comp {
	char *key;		/* JSON name: "base", "serial", "dram" */
	char *label;		/* for people: "serial execution" */
	double value;		/* units of speedup */
};

struct stack {
	enum stack_kind kind;
	char *cpus;		/* the placement, "" when not known */
	int threads;		/* N: the height of the stack */
	double speedup;		/* the base: achieved or predicted */
	int n_comps;
	struct stack_comp *comps;	/* the base first, bottom to top */

	/* measured stacks only */
	bool split;		/* the rest split by counted stalls */
	double estimate;	/* the paper's S^: N minus every measured
				   loss but the rest (eq. 4) */
	double unaccounted;	/* s of the threads' lives that no kind
				   accounts for (in "other") */
	double overcount;	/* s accounted beyond the threads' lives
				   (the waits were scaled down) */
	double excess;		/* s x threads with more than N workers
				   alive (taken from the imbalance) */
	double noise;		/* units of speedup: parts measured below
				   zero, set to 0 and taken off the base */
	char noise_parts[160];	/* which: "contention -0.070" */
};

/*
 * The measured stack of RUN (formulas in docs/stacks.md).  RUN's
 * arrays are borrowed for the call only.  Returns a new stack (free
 * with stack_free()) or NULL with err filled: t1 or tn not positive,
 * N below 1, no worker thread, a time negative or not finite, or
 * more than N workers alive for more than 3% of the stack's area.
 */
struct stack *stack_measured(const struct stack_run *run,
			     struct pandia_error *err);

/*
 * The predicted stack of the placement solved in MD (model_solve()
 * done; md is only read).  Every class's bottleneck must be known:
 * a model solved with md->merge (the ranking's form) knows only the
 * slowest class's, and is refused when another class is slowed by a
 * resource.
 * CPUS names the placement for the JSON; NULL takes it from an
 * explicit build (OS PU indexes) or leaves it "".  Returns a new
 * stack or NULL with err filled.
 */
struct stack *stack_predicted(const struct model *md, const char *cpus,
			      struct pandia_error *err);

/*
 * For a model building its predicted stack: a new stack of KIND with
 * room for MAX_COMPS components, CPUS (NULL: "") and THREADS; then each
 * component KEY (LABEL for people, NULL: KEY) with VALUE, in units of
 * speedup, appended in order.
 */
struct stack *stack_new(enum stack_kind kind, const char *cpus,
			int threads, int max_comps);
void stack_add_comp(struct stack *st, const char *key, const char *label,
		    double value);

/* Free ST and everything it owns.  NULL is a no-op. */
void stack_free(struct stack *st);

/* The component named KEY, or NULL.  Borrowed until stack_free(). */
const struct stack_comp *stack_comp(const struct stack *st,
				    const char *key);
/* Its value, or 0 when ST has no such component. */
double stack_value(const struct stack *st, const char *key);

/* The height: the sum of every component (N when all is accounted). */
double stack_total(const struct stack *st);

/*
 * {"kind", "cpus" (OS PU numbers) and "cpus_text" (json_set_cpus()),
 * "threads", "speedup", "components": {key: value}},
 * components in stack order; a measured stack adds "remainder" ("not
 * split" or "split by counted stalls"), "estimate" and
 * "estimate_error" ((S^ - S) / N, eq. 6).  New reference.
 */
json_t *stack_to_json(const struct stack *st);

/*
 * A gnuplot script that draws stacks.png (PNG, a path written into
 * the script) from data held in the script itself: for each i in
 * 0..n-1 the stacks MEASURED[i] and PREDICTED[i] side by side as
 * stacked bars (either may be NULL, or the array NULL), a gap between
 * pairs, one colour per component key in every bar, each bar named
 * by its thread count, or by its PUs when two pairs have the same
 * count ("2 m", "0,0 p").  TITLE goes on top.  New string; NULL
 * when there is no stack at all.
 */
char *stacks_gnuplot_script(const struct stack *const *measured,
			    const struct stack *const *predicted, int n,
			    const char *png, const char *title);

/*
 * The stacks ST[0..n-1] as a table for people: one row per stack
 * (cpus, N, kind), one column per component key met in any of them
 * (the base first, the keys that are zero in every stack left out; a
 * key a stack does not have is "-"), and the row's sum last; then a
 * legend, one key and its label a line.  A NULL entry is skipped.
 * New string ("" when there is no stack).
 */
char *stacks_table(const struct stack *const *st, int n);

/*
 * One stack for people: a line per component (key, label, value, and
 * its share of N), the sum last.  INDENT spaces before each line.
 * New string.
 */
char *stack_text(const struct stack *st, int indent);

/*
 * Whether ST's components add up to its N within TOL (a fraction of N:
 * the issue asks 0.03); *sum gets the sum.  A predicate: false when
 * they do not.
 */
bool stack_sums(const struct stack *st, double tol, double *sum);

#endif
