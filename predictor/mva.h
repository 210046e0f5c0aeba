/*
 * mva.h - the queueing model of memory contention of Bardhan and
 * Menasce (IEEE TC 2014; shared/seeds/001, digest seed-mva.md), solved
 * by mean value analysis.
 *
 * Jobs are single-threaded and unpinned: n copies of one job (the
 * single-class model, the paper's Algorithm 1), or several kinds of
 * job at once (the multi-class model, Algorithms 3 and 4).  A job is
 * described by its service demands in seconds, measured alone: the
 * time on a core without memory stalls, the time at memory (one queue,
 * or a local and a remote queue on NUMA machines) and the time at the
 * disk.  Every formula is in docs/mva.md.
 *
 * Ownership: no function keeps a pointer to its arguments.  Arrays
 * returned are new (the caller frees them with free()); arrays passed
 * in for results are the caller's and are filled.  struct mva_params
 * owns its strings (mva_params_release() frees them).  Errors go to a
 * caller-owned struct pandia_error (NULL allowed); nothing here prints
 * or exits.
 */
#ifndef PANDIA_PREDICTOR_MVA_H
#define PANDIA_PREDICTOR_MVA_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/error.h"
#include "common/jsonpos.h"

#define MVA_TOLERANCE 1e-8	/* Schweitzer-Bard: relative change */
#define MVA_MAX_ITER 10000	/* Schweitzer-Bard: the loop always ends */

/* The demands of struct mva_params, also the JSON fields' order. */
enum mva_field {
	MVA_CPU,		/* cpu_demand: D_Core-I */
	MVA_MEM,		/* mem_demand: D_Mem, one memory queue */
	MVA_MEM_LOCAL,		/* mem_local_demand: D_Mem-Local */
	MVA_MEM_REMOTE,		/* mem_remote_demand: D_Mem-Remote */
	MVA_DISK,		/* disk_demand: D_d */
	MVA_NFIELDS
};

/* "cpu_demand", "mem_demand", ... */
const char *mva_field_name(enum mva_field f);

/*
 * One job's parameters, seconds of one job running alone.  With numa
 * false memory is one queue of demand mem_demand (the local and remote
 * demands are unused); with numa true it is two queues, local and
 * remote (mem_demand is unused).  source[f] says how demand f was
 * obtained (NULL: not said); note is free text.  Both are owned.
 */
struct mva_params {
	double cpu_demand;		/* D_Core-I: on a core, no stall */
	bool numa;
	double mem_demand;		/* D_Mem */
	double mem_local_demand;	/* D_Mem-Local */
	double mem_remote_demand;	/* D_Mem-Remote */
	double disk_demand;		/* D_d */
	char *source[MVA_NFIELDS];
	char *note;
};

/* All demands 0, one memory queue, no strings. */
void mva_params_init(struct mva_params *p);
/* Free the strings; p is left as after mva_params_init(). */
void mva_params_release(struct mva_params *p);
/* Replace source[f] with a copy of s (NULL clears it). */
void mva_params_set_source(struct mva_params *p, enum mva_field f,
			   const char *s);

/*
 * Check p: every demand used finite and >= 0, and not all zero.
 * Returns 0, or -1 with err filled and *bad set to the field at fault
 * (bad may be NULL).
 */
int mva_params_check(const struct mva_params *p, enum mva_field *bad,
		     struct pandia_error *err);

/* D_Mem-Local + D_Mem-Remote, or D_Mem. */
double mva_mem_total(const struct mva_params *p);

/* ---- parameters from measurements (paper section 3.1) ------------- */

/*
 * Eq. (1): D_d = X_d * S_d / X0(1), from the disk's throughput x_d
 * (IO/s), its service time s_d (s/IO) and the jobs completed per
 * second x0 at concurrency 1.  Returns 0, or -1 on a negative or
 * non-finite argument or x0 <= 0.
 */
int mva_disk_demand(double x_d, double s_d, double x0, double *d_d,
		    struct pandia_error *err);

/*
 * Eqs. (2) to (4): T(1) = E(1) - D_d, D_Mem = T(1) * p,
 * D_Core-I = T(1) * (1 - p), with e1 the time of one job alone
 * (pandia's t1), d_d the disk demand and p the share of T(1) spent at
 * memory (the stalled-backend fraction, or mva_mem_share_from_stress()).
 * Fills the demands of *out (one memory queue, numa false) and leaves
 * its strings alone.  Returns 0, or -1 when e1 <= 0, d_d < 0,
 * d_d >= e1 or p is outside [0, 1].
 */
int mva_params_derive(double e1, double d_d, double p,
		      struct mva_params *out, struct pandia_error *err);

/*
 * The NUMA split (section 3.2): D_Mem-Local / D_Mem-Remote = K_N / K_T
 * with K_N = N_L / N_R (local over remote accesses) and K_T = T_R / T_L
 * (remote over local latency), the two adding up to p->mem_demand.
 * Sets numa.  Returns 0, or -1 when k_n or k_t is not positive.
 */
int mva_params_split_numa(struct mva_params *p, double k_n, double k_t,
			  struct pandia_error *err);

/*
 * The memory share p without counters (our addition, docs/mva.md):
 * slowdown = t(beside a DRAM stressor) / t(alone) of the job, and
 * mem_slowdown the slowdown that the same stressors inflict on a job
 * that does nothing but access memory (> 1).  Assuming the stressors
 * stretch only the memory part, and that by mem_slowdown:
 * p = (slowdown - 1) / (mem_slowdown - 1), clamped to [0, 1].
 * Returns 0, or -1 when an argument is not finite, slowdown <= 0 or
 * mem_slowdown <= 1 (the stressor does not slow memory: nothing can
 * be learnt).  *clamped (may be NULL) says whether p was clamped.
 */
int mva_mem_share_from_stress(double slowdown, double mem_slowdown,
			      double *p, bool *clamped,
			      struct pandia_error *err);

/*
 * The parameters from what a pandia profile measured: t1 the time of
 * one job alone (E(1), s); stalled the stalled-backend fraction of its
 * cycles, or NAN without counters; otherwise slowdown and mem_slowdown
 * as for mva_mem_share_from_stress() (NAN when not measured); d_d the
 * disk demand (0 for a job that does no I/O).  Counters win when both
 * are there.  Fills the demands of *out (one memory queue) and its
 * source strings, which say which way was taken and with what numbers.
 * Returns 0, or -1 when neither way is open or a number is out of range.
 */
int mva_params_from_profile(double t1, double stalled, double slowdown,
			    double mem_slowdown, double d_d,
			    struct mva_params *out, struct pandia_error *err);

/* ---- the single-class model (Algorithm 1) ------------------------- */

enum mva_mode {
	MVA_CONTENTION,		/* the paper's model */
	MVA_BASELINE,		/* no memory contention (section 5 of the
				   digest): memory folded into Core-I */
};

/*
 * The state at concurrency j (j jobs in the system).  For j <= m the
 * memory-contention model at population j; for j > m that model stays
 * at population m (t, r_mem_*, q_mem_* are those of m) and the cores
 * are queued for: r_cpu includes the wait for a core.
 */
struct mva_level {
	double r;		/* R_0(j): a job's turnaround, s */
	double x;		/* X_0(j): jobs completed per second */
	double t;		/* T(min(j, m)): on a core, memory included */
	double r_cpu;		/* R'_CPU(j): at the cores (t if j <= m) */
	double r_mem_local;	/* R'_Mem (or R'_Mem-Local) */
	double r_mem_remote;	/* R'_Mem-Remote; 0 without NUMA */
	double r_disk;		/* R'_d(j) */
	double q_cpu;		/* jobs at the cores, waiting included */
	double q_mem_local;	/* jobs at memory (local) */
	double q_mem_remote;	/* jobs at remote memory */
	double q_disk;		/* jobs at the disk */
};

/*
 * Solve Algorithm 1 for n jobs on m cores.  Returns a new array of n
 * levels, [j - 1] for concurrency j (the caller frees it), or NULL with
 * err filled when p fails mva_params_check(), m < 1 or n < 1.
 */
struct mva_level *mva_single(const struct mva_params *p, int m, int n,
			     enum mva_mode mode, struct pandia_error *err);

/* ---- the multi-class model (Algorithms 3 and 4) ------------------- */

/* Schweitzer-Bard's stopping rule; NULL means the defaults above. */
struct mva_options {
	double tolerance;	/* max relative change of a queue length */
	int max_iterations;
};

/* One class's result (times in s, throughputs in jobs/s). */
struct mva_class_result {
	double n;		/* N_r: jobs of the class */
	double n_mem;		/* N_r^mem: of them on cores (Alg. 3) */
	double t;		/* T_r: on a core, memory included */
	double x;		/* X_0,r */
	double r;		/* R_r: a job's turnaround */
	double r_cpu;		/* R'_CPU,r: at the cores, wait included */
	double r_mem_local;	/* residence at memory (local) */
	double r_mem_remote;	/* at remote memory */
	double r_disk;		/* at the disk (application layer) */
	double q_mem_local;	/* class r at memory (local), of N^mem */
	double q_mem_remote;
	double q_disk;		/* class-r jobs at the disk */
};

/*
 * Solve the multi-class model: nclass kinds of job, cls[r] the
 * parameters and n[r] > 0 the number of jobs of kind r, on m cores.
 * A class with one memory queue uses it as its local one.  Fills
 * out[0 .. nclass-1]; *iterations (may be NULL) gets the Schweitzer-
 * Bard iterations of every network solved, added up.  Returns 0, or -1
 * with err filled on bad input or when the iteration does not
 * converge (out is then undefined).
 */
int mva_multi(const struct mva_params *cls, const double *n, int nclass,
	      int m, enum mva_mode mode, const struct mva_options *opt,
	      struct mva_class_result *out, int *iterations,
	      struct pandia_error *err);

/*
 * The same with the jobs on cores given rather than apportioned:
 * n_mem[r] (0 < n_mem[r] <= n[r]) of class r's jobs hold a core at a
 * time, e.g. for jobs pinned to PUs, each PU's time shared among the
 * jobs on it (docs/mva.md, "Placements and co-runs").  The cores in
 * use are sum(n_mem): with sum(n) above it, jobs wait for a core.
 * mva_multi() is this with mva_apportion()'s n_mem.
 */
int mva_multi_mem(const struct mva_params *cls, const double *n,
		  const double *n_mem, int nclass, enum mva_mode mode,
		  const struct mva_options *opt, struct mva_class_result *out,
		  int *iterations, struct pandia_error *err);

/* ---- general closed networks (the solvers underneath) ------------- */

enum mva_station_kind { MVA_QUEUE, MVA_DELAY };

/*
 * A closed network: nstation stations, nclass classes, demand[r *
 * nstation + i] the demand of class r at station i (s) and
 * population[r] its jobs.  Borrowed by the solvers.
 */
struct mva_network {
	int nstation, nclass;
	const enum mva_station_kind *kind;
	const double *demand;
	const double *population;
};

/*
 * Exact MVA (Reiser-Lavenberg) of a one-class network with an integer
 * population.  resid[i] and queue[i] (nstation each) get each
 * station's residence time and queue length, *x the throughput.
 * Returns 0 or -1 with err filled.
 */
int mva_exact(const struct mva_network *net, double *resid, double *queue,
	      double *x, struct pandia_error *err);

/*
 * Schweitzer-Bard approximate MVA; populations may be fractional, and
 * a class of population 0 gets throughput 0 (its residence times are
 * what one job of it would see).  resid and queue have nclass *
 * nstation entries, x nclass.  Returns 0, or -1 with err filled on bad
 * input or no convergence within opt->max_iterations.
 */
int mva_schweitzer(const struct mva_network *net,
		   const struct mva_options *opt, double *resid,
		   double *queue, double *x, int *iterations,
		   struct pandia_error *err);

/*
 * N_r^mem = N_r / sum(N) * min(sum(N), m) (Algorithm 3, line 5), into
 * n_mem[0 .. nclass-1].
 */
void mva_apportion(const double *n, int nclass, int m, double *n_mem);

/* ---- models.mva in a workload description ------------------------- */

/*
 * Read the object OBJ, found at PATH ("models.mva") in src->text, into
 * *out (which this initialises; on failure it is released again).
 * Fields: cpu_demand (required), mem_demand or both mem_local_demand
 * and mem_remote_demand, disk_demand (default 0), seconds; FIELD_source
 * strings and note.  Errors are "PATH.FIELD: what" at the field's line
 * and column in src->err.  Returns 0 or -1.
 */
int mva_params_from_json(const struct json_src *src, json_t *obj,
			 const char *path, struct mva_params *out);

/* The object for models.mva (a new reference). */
json_t *mva_params_to_json(const struct mva_params *p);

#endif
