/*
 * stacks.c - the Pandia model's predicted speedup stack: the terms of
 * a solved placement (Amdahl, each resource kind, burstiness,
 * communication, load balance) decomposed so that they add up to N
 * exactly (stack_predicted(), predictor/stacks.h; formulas in
 * docs/stacks.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "predictor/pandia/model.h"
#include "predictor/stacks.h"

enum pcomp {
	PC_BASE, PC_SERIAL, PC_INSTR, PC_PU, PC_L1, PC_L2, PC_L3, PC_DRAM,
	PC_IC, PC_BURST, PC_COMM, PC_LB, PC_COUNT
};

static const struct {
	const char *key, *label;
} pcomp_names[PC_COUNT] = {
	[PC_BASE] = { "base", "predicted speedup" },
	[PC_SERIAL] = { "serial", "serial execution" },
	[PC_INSTR] = { "instructions", "core throughput" },
	[PC_PU] = { "time_sharing", "time sharing" },
	[PC_L1] = { "l1", "L1 bandwidth" },
	[PC_L2] = { "l2", "L2 bandwidth" },
	[PC_L3] = { "l3", "L3 bandwidth" },
	[PC_DRAM] = { "dram", "DRAM bandwidth" },
	[PC_IC] = { "interconnect", "interconnect bandwidth" },
	[PC_BURST] = { "burstiness", "burstiness (core sharing)" },
	[PC_COMM] = { "communication", "inter-socket communication" },
	[PC_LB] = { "imbalance", "load imbalance" },
};

/* The component a resource kind's slowdown goes to: a cache level's
   link and aggregate together, DRAM's link and nodes, ... */
static int pcomp_of_kind(int kind)
{
	switch (kind) {
	case RK_INSTR:
		return PC_INSTR;
	case RK_PU:
	case RK_QUOTA:	/* the quota's time is shared as a PU's is */
		return PC_PU;
	case RK_L1:
		return PC_L1;
	case RK_L2:
	case RK_L2_AGG:
		return PC_L2;
	case RK_L3:
	case RK_L3_AGG:
		return PC_L3;
	case RK_DRAM_LINK:
	case RK_NODE:
		return PC_DRAM;
	default:
		return PC_IC;
	}
}

/* "0,0,2": the OS indexes of an explicit build's threads' PUs. */
static char *cpus_of(const struct model *md)
{
	const struct pandia_machine *m = md->sp->m;
	size_t cap = 16 * (size_t)md->n_threads + 1, len = 0;
	char *s = xmalloc(cap);
	int i;

	s[0] = '\0';
	for (i = 0; i < md->n_threads; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s%d",
					i ? "," : "",
					m->pus[md->thread_pu[i]].os_index);
	return s;
}

/*
 * With the serial work on the first thread (model_solve.c's
 * solve_result()), speedup S = 1 / ((1 - p) s0 + p / W), W = sum_c
 * n_c / sfin_c, so A - S = S A ((1 - p)(s0 - 1) + p / (W n) sum_c n_c
 * (1 - 1/sfin_c)): each class's loss scaled by S A p / (W n), and the
 * serial work's own slowdown (a co-runner beside the first thread)
 * EXTRA on its class.  Spread (the paper): A / n and none.
 */
static void loss_scale(const struct model *md, double *scale, double *extra)
{
	double A = md->amdahl, n = md->n, S = md->speedup, p = md->prm.p;
	double W = 0;
	int c;

	*scale = A / n;
	*extra = 0;
	if (!md->prm.serial_first)
		return;
	for (c = 0; c < md->n_classes; c++)
		W += md->cls[c].n / md->sfin[c];
	if (!(W > 0))
		return;
	*scale = S * A * p / (W * n);
	*extra = S * A * (1 - p) * (md->serial_slow - 1);
}

struct stack *stack_predicted(const struct model *md, const char *cpus,
			      struct pandia_error *err)
{
	double v[PC_COUNT] = { 0 }, A = md->amdahl, n = md->n;
	double scale, extra;
	struct stack *st;
	char *own = NULL;
	int c, k;

	if (md->n_classes < 1 || !(n >= 1) || !(A > 0) ||
	    !(md->speedup > 0)) {
		perr_set(err, "the model holds no solved placement");
		return NULL;
	}
	/*
	 * speedup = A/n sum_c n_c / sfin_c, so n - speedup = (n - A) +
	 * sum_c (A/n) n_c (1 - 1/sfin_c): each class's loss is split in
	 * proportion to the extra slowdown each term adds to sfin - 1.
	 */
	loss_scale(md, &scale, &extra);
	for (c = 0; c < md->n_classes; c++) {
		double sfin = md->sfin[c], sres = md->sres[c];
		double mx = md->rawmax[c] > 1 ? md->rawmax[c] : 1;
		double x[PC_COUNT] = { 0 }, tot = 0, loss;
		/* a slower kind of core multiplies the resource slowdown:
		   that factor is the core's instruction rate */
		double base = sres / (md->cls[c].slow > 0 ?
				      md->cls[c].slow : 1);
		int kind = -1;

		if (mx > base)
			mx = base;	/* clamped at MODEL_SLOW_MAX */
		if (mx > 1) {
			if (md->bott[c] >= 0 && md->bott[c] < md->n_res)
				kind = md->res[md->bott[c]].kind;
			else if (md->fast && c == md->slowest &&
				 md->fast_kind >= 0 && md->fast_kind < RK_COUNT)
				kind = md->fast_kind;
			if (kind < 0) {
				perr_set(err, "the model was solved in its "
					 "ranking form: a class's bottleneck "
					 "is not known (solve it without "
					 "merge)");
				return NULL;
			}
			x[pcomp_of_kind(kind)] = mx - 1;
		}
		x[PC_BURST] = base - mx > 0 ? base - mx : 0;
		x[PC_INSTR] += sres - base > 0 ? sres - base : 0;
		x[PC_COMM] = md->comm[c] > 0 ? md->comm[c] : 0;
		x[PC_LB] = md->lb[c] > 0 ? md->lb[c] : 0;
		for (k = 0; k < PC_COUNT; k++)
			tot += x[k];
		loss = scale * md->cls[c].n * (1 - 1 / sfin);
		if (md->n_threads > 0 && c == md->thread_class[0])
			loss += extra;
		if (!(tot > 0) || !(loss > 0))
			continue;
		for (k = 0; k < PC_COUNT; k++)
			v[k] += loss * x[k] / tot;
	}
	v[PC_BASE] = md->speedup;
	v[PC_SERIAL] = n - A;
	if (!cpus && md->n_threads > 0 && md->thread_pu)
		cpus = own = cpus_of(md);
	st = stack_new(STACK_PREDICTED, cpus, (int)lround(n), PC_COUNT);
	st->speedup = md->speedup;
	st->estimate = md->speedup;
	for (k = 0; k < PC_COUNT; k++)
		stack_add_comp(st, pcomp_names[k].key, pcomp_names[k].label,
			       v[k]);
	free(own);
	return st;
}
