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

/*
 * Memory kept from run to run (keep.c): one arena per NUMA node that
 * jobs bind their working sets to, shared by those jobs (each thread
 * its slice), and one per thread of a job whose working sets are local
 * to whoever touches them first.  Mapped at the first run that needs
 * it; each chunk touched once, by the first thread whose slice has it.
 */
struct stress_arena {
	struct stress_buf buf;	/* mapped, or buf.mem NULL */
	size_t bytes;
	int node;		/* OS index; -1: local to its one thread */
	unsigned char *touched;	/* per KEEP_CHUNK: 1 once claimed */
	size_t n_chunks;
};

/* A thread's working set in an arena. */
struct slice {
	struct stress_arena *a;
	size_t off;
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
	struct slice *kept;	/* per thread, its working set kept from
				   run to run; or NULL: each run its own */
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
	int n_arenas;
	struct stress_arena *arenas;	/* what the jobs' kept is in */
};

/*
 * Keep the working sets of P's jobs from run to run, in arenas
 * (struct stress_arena), where all of them fit within CAP bytes; else
 * those bound to NUMA nodes where they fit; else every run allocates
 * its own (no job gets kept).  keep.c
 */
void stress_plan_keep(struct plan *p, unsigned long long cap);
void stress_keep_release(struct plan *p);

/* Map the arenas of J's kept working sets not yet mapped (the calling
 * thread; touching is left to each slice's thread).  0 or -1 with
 * err. */
int stress_keep_map(const struct job *j, struct pandia_error *err);

/* Thread K of J: touch the chunks of its slice no one touched yet and
 * describe the slice in *out (not to be released). */
void stress_keep_buf(const struct job *j, int k, struct stress_buf *out);

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
