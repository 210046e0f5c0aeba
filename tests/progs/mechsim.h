/*
 * mechsim.h - what the parts of the mechanistic simulator share
 * (tests/progs/mechsim.c has its rules): the workload, the variants of
 * its mechanisms, the flows and resources of one simulated run.
 */
#ifndef PANDIA_TESTS_MECHSIM_H
#define PANDIA_TESTS_MECHSIM_H

#include <stdbool.h>

#include "common/machine.h"

/* ---- the workload ------------------------------------------------ */

enum memkind { M_FIRST_TOUCH, M_LOCAL, M_INTERLEAVE, M_NODE };

struct wl {
	double work, serial, demand[LVL_COUNT], instr;
	double comm, comm_lat, numa_lat, burst, dynamic;
	double lock_hold, lock_xfer, data_mib;
	bool comm_pair;
	enum memkind mem;
	int mem_node;		/* OS index */
};

/* ---- the variants (--variant; all zero: the default) -------------- */

enum bw_arb { BW_FAIR, BW_EQUAL, BW_HEAVY };
enum comm_form { C_WORKLOAD, C_PAIR, C_FRACTION, C_SATURATING };
enum page_form { P_THREADS, P_EVEN };
enum smt_form { SMT_ALL, SMT_CORE };
enum wait_form { W_BLOCK, W_SPIN };

struct variant {
	enum bw_arb bw;
	enum comm_form comm;
	enum page_form pages;
	enum smt_form smt;
	double turbo;		/* one busy core's rate over all busy, - 1 */
	double turbo_exp;	/* the curve's shape: 1 linear */
	enum wait_form waits;	/* a waiting thread's core idle or busy */
	double drift;		/* amplitude of the slow drift */
	double drift_runs;	/* its period, in runs */
	double probe_noise;	/* on the stressors' reported rates */
	double host_noise;	/* the host's rate, each window its own */
	bool host_after;	/* report the rate alone after the command */
};

/* ---- flows and resources ----------------------------------------- */

struct dem {
	int res;
	double coef;		/* per unit of r (or of x when on_x) */
	bool on_x;
};

struct flow {
	int pu, core, socket, node;	/* m-> indexes; node -1: none */
	int stress;		/* -1: a workload thread; else its index */
	int level;		/* stressor: -1 cpu, else the level */
	double xmax, lat, x;
	double weight;		/* its priority in the filling (1: none) */
	bool active, frozen;
	int d0, nd;		/* its demands */
};

struct sim {
	const struct pandia_machine *m;
	const struct wl *w;
	const struct variant *v;
	int n;			/* workload threads: flows 0..n-1 */
	int nf;
	struct flow *f;
	int nres;
	double *cap, *use;
	int nd, capd;
	struct dem *d;
	/* resource index bases */
	int r_pu, r_core, r_link[LVL_COUNT], r_l3, r_node, r_pair, r_lock;
	double *share;		/* n x n_numa: DRAM share per node */
	double *tsock;		/* threads per socket */
};

/* mechsim_flow.c: number S's resources (capacities and uses zero) */
void ms_number_resources(struct sim *s);
/* the speeds x of the active flows */
void ms_solve(struct sim *s);
/* the work rate of flow F at speed X */
double ms_rate_of(const struct flow *f, double x);

/* mechsim_run.c: the DRAM share of every thread on every node */
void ms_place_pages(struct sim *s);
/* the pages as /proc/PID/numa_maps shows them, into PATH */
void ms_write_numa_maps(const struct sim *s, const char *path);
/* the run's time, each stressor's bandwidth averaged over it in RATE */
double ms_run(struct sim *s, double *rate);

#endif
