/*
 * model.h - the Pandia performance model (section 5 of the paper).
 *
 * A struct model is a reusable workspace: build a placement into it
 * (canonical or explicit), solve, read the result, build the next.
 * Threads in the same position (same socket state, core state and
 * number of threads on their PU) behave identically, so the model
 * works on classes of threads; an explicit placement keeps a map from
 * each thread to its class.  Every formula is in docs/model.md.
 *
 * Ownership: a struct model owns its arrays and borrows the space
 * (and through it the machine), which must outlive it.  Pointers into
 * a model (classes, resources) are valid until the next build.
 */
#ifndef PANDIA_PREDICTOR_MODEL_H
#define PANDIA_PREDICTOR_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/workload.h"
#include "predictor/space.h"

#define MODEL_DAMP_AFTER 100	/* iterations before damping (5.4) */
#define MODEL_MAX_ITER 1000	/* the loop always ends */
#define MODEL_TOL 1e-6		/* convergence of the carried ratios */
#define MODEL_SLOW_MAX 1e12	/* slowdowns are clamped to this */

/* The workload's numbers as the model uses them. */
struct model_params {
	double t1;		/* seconds */
	double p, o_s, l, b;
	double d[WR_COUNT];	/* demands, ops/s and bytes/s */
	bool os_fraction;	/* o_s per remote fraction of the other
				   threads, not per remote thread */
	bool b_core;		/* b multiplies the core-throughput part
				   of the slowdown, not all of it */
	bool serial_first;	/* the serial work runs on the first
				   thread alone, not spread over all */
};

/*
 * The model's numbers for workload w: unmeasured parameters take
 * their stand-ins (o_s 0, l 0, b 0; a null demand 0).
 */
void model_params_of(const struct pandia_workload *w,
		     struct model_params *prm);

enum res_kind {
	RK_INSTR,		/* a core's instruction throughput */
	RK_PU,			/* a PU's time */
	RK_L1, RK_L2, RK_L3,	/* a core's link to that cache level */
	RK_L2_AGG, RK_L3_AGG,	/* a shared cache's aggregate */
	RK_DRAM_LINK,		/* a core's link to memory */
	RK_NODE,		/* a NUMA node's DRAM */
	RK_IC_LINK,		/* a core's link to other sockets */
	RK_PAIR,		/* the link between two sockets */
	RK_QUOTA,		/* the process's CPU quota (a cgroup's) */
	RK_COUNT
};

/* "instructions", "PU time", "L1 link", ... "interconnect", "cpu quota" */
const char *res_kind_name(int kind);

struct mres {
	int kind;		/* enum res_kind */
	int a, b;		/* where: core, PU, cache, node or the two
				   sockets (m-> indexes); -1 if virtual */
	double cap;		/* capacity as described (1 for a PU) */
	double cap_eff;		/* cap, but at least what one thread
				   alone demands of this kind */
};

struct mclass {
	double n;		/* threads in the class */
	int group;		/* socket group */
	int socket;		/* a socket of the class (m->sockets) */
	int core;		/* a core of the class (m->cores) */
	int pu;			/* a PU of the class (m->pus) */
	int kappa;		/* threads on each of its PUs */
	bool smt;		/* its core runs threads on other PUs */
	double tsock;		/* threads on its socket */
	int inc0, ninc;		/* its resources in the incidence list */
	int sinc0, nsinc;	/* those it shares with other classes */
	double pmax;		/* largest coef of those it loads alone */
	double ps;		/* threads on each of its sockets */
	int pkind;		/* fast form: the kind behind pmax */
	double corun;		/* its PUs' time-sharing with co-runners
				   beside (1: none; 2: one busy process) */
	double cinstr;		/* its core's instruction load per unit
				   of utilisation (b's core part) */
	double slow;		/* its core's kind: peak_rate / the kind's
				   rate (1 on one kind), times clock */
	double clock;		/* its socket's lower clock with the
				   placement's busy cores (turbo; 1:
				   none): machine_clock_slowdown() */
};

struct minc {
	int res;
	double coef;		/* load / cap_eff per unit of utilisation */
};

/* One socket group: MULT identical sockets in the same state. */
struct mgroup {
	int socket;		/* first of them (m->sockets) */
	const int *socks;	/* all of them */
	int mult;
	int n_items;
	const struct sitem *items;
	double tsock;		/* threads on each */
};

struct model;
typedef void (*model_trace_fn)(const struct model *md, int iteration,
			       char step, void *arg);

struct model {
	const struct space *sp;		/* borrowed */
	struct model_params prm;
	model_trace_fn trace;		/* called at steps 'a' to 'e' */
	bool merge;			/* keep only the resources that can
					   be a bottleneck (for ranking) */
	bool accelerate;		/* extrapolate geometric convergence
					   from iteration 3 on (default) */
	bool general;			/* never the group-structured form
					   (tests compare the two) */
	double tol;			/* convergence (MODEL_TOL) */
	double quota;			/* the process's CPU quota, PUs'
					   time per second (0: none): the
					   machine's limits.cpu_quota */
	double quota_u;			/* every thread's f0 added: the
					   PUs' time it asks (step b) */
	int quota_res;			/* its resource, or -1 */
	double solo[RK_COUNT];		/* one thread's most, per kind */
	void *trace_arg;

	/* the problem, from the last build */
	int n_groups, cap_groups;
	struct mgroup *groups;
	struct model_scratch *scratch;
	int n_classes, cap_classes;
	struct mclass *cls;
	int n_res, cap_res;
	struct mres *res;
	int n_inc, cap_inc;
	struct minc *inc;
	double *incpt;			/* per incidence: one thread's */
	struct minc *sinc;		/* incidences on shared resources */
	int n_sinc, cap_sinc;
	int *owner;			/* scratch: per resource */
	int cap_owner;

	/* the group-structured form (ranking, one core group a socket) */
	bool fast;
	struct glink {
		int h;			/* the other group */
		double out, in;		/* a_gh, a_hg */
	} *glinks;
	int *glink0, cap_glinks;	/* per group: its first link */
	double *gU, *gas, *gM, *gfrac, *pa, zbeta;
	double *gsz;			/* MEM_SPREAD: a group's node load
					   per unit of all threads' U */
	int *gkind, *gMk, cap_fg, fast_kind;
	int n_threads;
	int *thread_class;		/* explicit builds: per thread */
	int *thread_pu;			/* explicit builds: its PU */
	int cap_threads;
	struct sitem *xitems;		/* explicit builds: their items */
	int *xsocks;

	/* per class, the state of the iteration (see docs/model.md) */
	double *f0;			/* utilisation at the start */
	double *rawmax;			/* most oversubscribed */
	int *bott;			/* which one (index into res) */
	double *sres;			/* resource slowdown, with burst */
	double *comm;			/* communication penalty */
	double *lb;			/* load-balance penalty */
	double *sfin;			/* overall slowdown */
	double *ratio;			/* sres / sfin, carried */
	double *f;			/* utilisation after the last step */
	double *isres;			/* scratch: 1 / sres */
	double *dprev;			/* last change of ratio */
	double *rprev;			/* last ratio */
	double *gw;			/* per group: scratch */
	double *gmul;			/* per group: 1 / mult */
	double *load;			/* per resource: load / cap_eff in
					   the last iteration (step b on) */
	int cap_load;
	double *bgload;			/* per resource: other workloads'
					   load / cap_eff (model_background) */
	int cap_bgload;
	bool has_bg;			/* bgload set since the build */
	int cap_state, cap_gw;

	/* the result */
	double n;			/* threads */
	double amdahl;			/* Amdahl speedup */
	double serial_slow;		/* the serial work's slowdown with
					   it on the first thread (1 else) */
	double speedup, time;
	int iterations;
	bool converged;
	int slowest;			/* class with the largest sfin */
};

void model_init(struct model *md, const struct space *sp,
		const struct model_params *prm);
void model_release(struct model *md);

/* Build canonical placement st (space_enumerate's vector). */
void model_build_canonical(struct model *md, const uint16_t *st);
/*
 * Build an explicit placement: PUS are m->pus indexes, one per thread.
 * Fills md->thread_class.  Returns 0 or -1 when n < 1.
 */
int model_build_pus(struct model *md, const int *pus, int n);

/* Iterate to the fixed point; fills the result.  Always ends. */
void model_solve(struct model *md);

/* Build and solve. */
double model_time_canonical(struct model *md, const uint16_t *st);
double model_time_pus(struct model *md, const int *pus, int n);

/* ---- co-runs: other workloads beside this one ------------------- */

/* A thread of another workload: where it runs and what it demands. */
struct model_bg_thread {
	int pu;			/* m->pus index */
	double f;		/* its utilisation as its own model loads
				   resources with it (struct model's f0) */
	const double *d;	/* its demands at full speed, WR_COUNT rates */
};

/*
 * After model_build_pus(): the threads BG[0 .. nbg-1] of other
 * workloads run beside this placement until the next build.  Each
 * loads the resources it shares with this workload's threads by its
 * demand times its utilisation: the instruction throughput and the
 * cache and DRAM links of its core, the shared caches over its core,
 * the DRAM of the node its memory is on (the model's memory policy);
 * and a thread on a PU of this workload time-shares it (the PU-time
 * slowdown, pu_time()), or on another PU of its core makes that core
 * shared (burstiness).  Its inter-socket traffic is not counted.
 * Then model_solve() as usual.  docs/model.md, "Co-runs".
 */
void model_background(struct model *md, const struct model_bg_thread *bg,
		      int nbg);

/*
 * A name for resource r for people: "interconnect sockets 0-1",
 * "DRAM node 0", "PU time 4", "instructions core{0,1}".
 */
const char *model_res_name(const struct model *md, int r, char *buf,
			   int size);

/*
 * The placement's bottleneck: the kind of the slowest class's most
 * oversubscribed resource (a RK_ value), or BN_CORE_SHARING when only
 * burstiness slows it, BN_INTER_SOCKET when only communication does,
 * BN_NONE when nothing does, BN_SLOW_KIND when only its core's kind
 * (a slower kind of a hybrid machine) does, BN_CLOCK when only its
 * socket's lower clock with many cores busy (turbo) does.
 */
enum { BN_CORE_SHARING = RK_COUNT, BN_INTER_SOCKET, BN_NONE, BN_SLOW_KIND,
       BN_CLOCK, BN_COUNT };
int model_bottleneck_code(const struct model *md);
/* "DRAM", "interconnect", "core sharing", "inter-socket", "-" */
const char *bottleneck_name(int code);
const char *model_bottleneck(const struct model *md);

#endif
