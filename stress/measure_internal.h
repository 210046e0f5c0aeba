/*
 * measure_internal.h - what the pieces of the stress measurement share
 * (private to stress/): the plan of jobs (measure_plan.c), running a
 * job (measure_run.c) and its measure record (measure_record.c).
 */
#ifndef PANDIA_STRESS_MEASURE_INTERNAL_H
#define PANDIA_STRESS_MEASURE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/machine.h"
#include "stress/kernels.h"
#include "stress/measure.h"

/* Repetitions and their length, per mode. */
struct timing {
	int rounds;		/* passes over all the jobs */
	int reps;		/* repetitions per job and round */
	double rep_s;		/* seconds per repetition */
	double warm_s;		/* untimed run before the first one */
	int dram_llc_factor;	/* DRAM working set, in LLC sizes */
};

/* What a job's figure is for. */
enum target {
	T_PEAK,			/* m->peak_rate */
	T_SMT,			/* m->smt_rate */
	T_ALL_BUSY,		/* m->all_busy_rate (per core) */
	T_BUSY,			/* busy[xlink].rate (per core) */
	T_PER_CORE,		/* links[level].per_core_bw */
	T_AGGREGATE,		/* links[level].aggregate_bw */
	T_XLINK,		/* xlinks[xlink] */
	T_KIND,			/* kinds[xlink].rate */
};

struct job {
	enum target target;
	enum pandia_level level;
	int xlink;		/* index into m->xlinks for T_XLINK, of
				   the kind, of the busy point */
	enum stress_kind kind;
	int n;			/* threads */
	int *pus;		/* OS indexes, one per thread */
	size_t ws;		/* bytes per thread; 0 for the CPU kernel */
	int node;		/* NUMA node (OS index) of the buffers;
				   -1: local */
	int *nodes;		/* per thread, overrides node; or NULL */
	char *what;		/* progress text */
	char *note;		/* goes into the measure record */
};

struct plan {
	struct timing t;
	int n_jobs;
	struct job *jobs;
	/* Links without a job of their own, and why. */
	char *absent[LVL_COUNT];
	bool private_level[LVL_COUNT];	/* aggregate = per core */
	int n_xlinks;
	int *xfrom, *xto;
	int n_busy;		/* points of the busy curve */
	int busy_cores[3];
	char *xlink_note;	/* pairs left out, if any */
};

/* Each repetition of a job, summed over its threads. */
struct reps {
	int n;
	double *cpu;		/* sum of work / CPU second */
	double *wall;		/* sum of work / wall second */
	double *share;		/* the least CPU time / wall time of any
				   thread: below 1, others took turns */
};

/* A figure spread more than this is measured again, up to AGAIN times. */
#define MAX_SPREAD 0.10
#define AGAIN 2

/* A share of the wall time below this marks a disturbed repetition. */
#define CLEAN_SHARE	0.9

/* The repetitions and their length for O's mode (quick or full). */
const struct timing *stress_timing(const struct stress_opts *o);

/*
 * The least warm-up of a job of T's mode whose thread already kept its
 * PU busy for BUSY seconds (touching its working set): the warm-up
 * less that time, but never below a quarter of it.
 */
double stress_warm_least(const struct timing *t, double busy);

/*
 * The jobs that measure M under O into *p (released with
 * stress_plan_release(), even on failure).  0 or -1 with err.
 */
int stress_plan_make(struct plan *p, const struct pandia_machine *m,
		     const struct stress_opts *o, struct pandia_error *err);
void stress_plan_release(struct plan *p);

/* N repetitions, zeroed (released with stress_reps_release()). */
void stress_reps_init(struct reps *r, int n);
void stress_reps_release(struct reps *r);

/*
 * Run job J once with timing T: T->reps repetitions go into *out from
 * position OFF on.  0 or -1 with err (see measure_run.c).
 */
int stress_run_job(const struct job *j, const struct timing *t,
		   struct reps *out, int off, struct pandia_error *err);

/*
 * Whether a lower clock with every core busy is seen in figures
 * measured back to back: ALL (per core) below the better of the lone
 * core's LONE_A and LONE_B, measured before and after it, by more than
 * SPREAD (at least 2%).  (measure.c)
 */
bool stress_clock_confirmed(double lone_a, double all, double lone_b,
			    double spread);

/* The measure record of job J from its repetitions (measure_record.c). */
void stress_fill_record(struct pandia_measure *ms, const struct job *j,
			const struct reps *r, bool wall);
/* A copy of a record, with NOTE (may be NULL) put before its note. */
void stress_copy_record(struct pandia_measure *dst,
			const struct pandia_measure *src, const char *note);
/* Put job J's figure and record where its target says in M. */
void stress_store(struct pandia_machine *m, const struct job *j,
		  const struct reps *r, bool wall);

#endif
