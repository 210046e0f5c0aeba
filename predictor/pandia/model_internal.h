/*
 * model_internal.h - what the pieces of the Pandia model share, private to
 * predictor/pandia/model*.c.
 *
 * model.c holds the workspace and turns a placement into socket
 * groups; model_share.c says how the memory policy spreads a thread's
 * traffic and what one thread alone demands; model_build.c builds the
 * general form (classes, resources, incidences), model_fast.c the
 * group-structured form of ranking; model_solve.c iterates section 5;
 * model_corun.c adds other workloads beside; model_name.c names
 * resources and bottlenecks for people.
 */
#ifndef PANDIA_PREDICTOR_MODEL_INTERNAL_H
#define PANDIA_PREDICTOR_MODEL_INTERNAL_H

#include <stdbool.h>

#include "common/util.h"
#include "predictor/pandia/model.h"

/* Scratch for building, kept in the model between builds. */
struct model_scratch {
	double *memfrac;	/* per group: share of DRAM traffic that
				   goes to the nodes of one of its sockets */
	double *remote;		/* per group: share leaving a socket */
	int *pair;		/* groups^2: link resource, or -1 */
	int *node;		/* (groups + 1) * n_numa + groups: node
				   resources, then virtual ones */
	int *offs;		/* per group position: cores consumed */
	int *cres;		/* shared caches seen: count, (key, res)... */
	int node0, node1;	/* interleave, node:N: the node resources */
	int *snode;		/* spread: per group, its node resource */
	int cap_g, cap_pair, cap_node, cap_offs, cap_cres;
};

/* Make PTR hold at least NEED, CAP its room. */
#define GROW(ptr, cap, need) do {					\
	if ((need) > (cap)) {						\
		(cap) = 2 * (need) + 16;				\
		(ptr) = xrealloc((ptr), sizeof(*(ptr)) * (size_t)(cap)); \
	}								\
} while (0)

/* ---- model.c ---------------------------------------------------- */

/* Make room for the per-class state of n classes and g groups. */
void model_state_room(struct model *md, int n, int g);
/* The threads on each socket of each group (tsock), and md->n. */
void model_count_threads(struct model *md);

/* ---- model_share.c: the memory policy and one thread alone ------ */

/* A core's instruction rate with PUS_USED of its N_PUS PUs busy. */
static inline double model_core_rate(const struct pandia_machine *m,
				     int pus_used, int n_pus)
{
	if (pus_used <= 1 || !m->smt_applicable || n_pus < 2)
		return m->peak_rate;
	/* between one thread alone and all PUs busy, linearly */
	return m->peak_rate + (m->smt_rate - m->peak_rate) *
		(pus_used - 1) / (n_pus - 1);
}
/* Socket s's share of every thread's DRAM traffic under the policy. */
double model_mem_share(const struct space *sp, int s);
/* The share that goes to nodes on no socket (memory-only if OFF). */
double model_nosocket_share(const struct space *sp, bool off);
/* model_nosocket_share(sp, false) */
double model_global_share(const struct space *sp);
/* The socket that holds core group CG's local pages, if another. */
int model_away_socket(const struct space *sp, const struct core_group *cg,
		      int s);
/* The share of a thread's DRAM traffic that leaves socket s. */
double model_remote_share(const struct space *sp, int s);
/* MEM_SPREAD: group GI's shares; false for the other policies. */
bool model_spread_share(const struct model *md, int gi, double *share,
			double *remote);
/* The node that takes socket S's pages under MEM_SPREAD. */
int model_spread_node(const struct space *sp, int s);
/* Fill md->solo: what one thread alone demands of each kind. */
void model_compute_solo(struct model *md);
/*
 * Demand over effective capacity (never below the solo demand).
 * Inline: the ranking's fast path calls it for every class of every
 * placement, from several files.
 */
static inline double model_alpha(const struct model *md, int kind,
				 double pt, double cap)
{
	double s = md->solo[kind];

	return pt > 0 ? pt / (cap > s ? cap : s) : 0;
}

/* ---- model_build.c: the general form ---------------------------- */

/* Classes, resources and incidences of md->groups. */
void model_build_general(struct model *md);
/* Fold the resources one class loads alone into its pmax. */
void model_partition(struct model *md);

/* ---- model_fast.c: the group-structured form -------------------- */

/* Whether the group-structured form applies. */
bool model_fast_ok(const struct model *md);
void model_build_fast(struct model *md);

/* ---- model_solve.c ---------------------------------------------- */


/*
 * The share of a thread's time that others time-sharing its PU (or
 * the quota) run beside it: p with the serial work spread over every
 * thread (while one does it the others wait); 1 with it on the first
 * thread alone, where f0 is the utilisation in the parallel part
 * (docs/model.md, "Where the serial work runs").
 */
static inline double parallel_wait(const struct model *md)
{
	return md->prm.serial_first ? 1 : md->prm.p;
}

/*
 * The slowdown of a class's threads from the time of their PU: kappa
 * threads time-share it, and the others run only while in parallel
 * work, so a thread waits p x (kappa - 1) x f0 per unit of its own
 * time (for n threads on n / kappa PUs this gives exactly Amdahl's
 * law at n / kappa threads); a co-runner beside takes corun - 1 more.
 * A PU that one thread has alone is loaded by its utilisation.
 */
static inline double pu_time(const struct model *md, const struct mclass *cl,
			     double f0)
{
	if (cl->kappa <= 1 && !(cl->corun > 1))
		return f0;
	return 1 + parallel_wait(md) * (cl->kappa - 1) * f0 + (cl->corun - 1);
}

/*
 * The slowdown of a thread of utilisation F0 from the process's CPU
 * quota Q: while it is in parallel work, the n threads share Q PUs'
 * time, as n threads time-share n / kappa PUs in pu_time() with
 * kappa = n / Q, so a thread waits p x (U / Q - f0) per unit of its
 * own time, U being every thread's f0 added (for n equal threads this
 * is Amdahl's law at Q threads).  With no more threads than Q the
 * quota is a load, U / Q, never above 1.  0 without a quota.
 * docs/model.md, "A CPU quota".
 */
static inline double quota_time(const struct model *md, double f0)
{
	if (!(md->quota > 0))
		return 0;
	if (md->n <= md->quota)
		return md->quota_u / md->quota;
	return 1 + parallel_wait(md) * (md->quota_u / md->quota - f0);
}

#endif
