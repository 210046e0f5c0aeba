/*
 * predict.h - what the files of pandia predict share (builtin/predict*.c,
 * and pandia tune's, which borrows the ranges and the pin lines): the
 * command line, the context of one prediction, a placement's summary
 * and the lines that pin it.
 */
#ifndef PANDIA_BUILTIN_PREDICT_H
#define PANDIA_BUILTIN_PREDICT_H

#include <stdbool.h>

#include <jansson.h>

#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/model.h"
#include "predictor/space.h"

#define MAX_CORUN 8
#define RANKS_ANY (-1)

struct cli {
	const char *machine_path, *workload_path, *placement;
	const char *workload_paths[MAX_CORUN], *placements[MAX_CORUN];
	int n_workloads, n_placements, n_copies;
	int copies[MAX_CORUN];
	bool sum;			/* --objective sum */
	bool trace, json, force, within_given, explain, quiet;
	int threads, top, k, jobs;
	int ranks;		/* --ranks: 0 none, RANKS_ANY every count
				   that divides the PUs */
	double within;
	long max_placements;
	bool has_memory;
	struct pandia_mempolicy memory;
	const struct model_def *model;
	double size;		/* --size; NAN: as profiled */
	double cpu_quota;	/* --cpu-quota; 0: the machine's */
	unsigned lines;		/* --lines: PIN_* bits; 0: the default */
};

struct ctx {
	struct cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct model_params prm;
	struct pandia_mempolicy mem;
	void *state;		/* the model's, when not the Pandia model */
};

/* ---- small helpers (predict.c) ---------------------------------- */

/*
 * A context for another command that borrows predict's ranges and pin
 * lines (pandia tune), which then needs no model header of its own: O
 * empty but for MODEL and no --size, the Pandia model's parameters of
 * W in x->prm, the memory policy MEM; STATE another model's instance
 * (its ranges are then points), or NULL.
 */
void ctx_borrow(struct ctx *x, struct cli *o, struct pandia_machine *m,
		struct pandia_workload *w, const struct model_def *model,
		const struct pandia_mempolicy *mem, void *state);

/* OS indexes of m->pus indexes: a new array. */
int *os_of(const struct pandia_machine *m, const int *pus, int n);
const char *plural(int n);
/* How many different values sorted V holds. */
int distinct(const int *v, int n);
/*
 * The workload's command with {threads}, {cpus} and, when SIZE is a
 * number, {size} filled in.  New string.
 */
char *command_line(const struct pandia_workload *w, int threads,
		   const char *cpus, double size);

/* ---- one placement (predict.c) ---------------------------------- */

struct placement_info {
	int n;			/* threads */
	int *pus;		/* m->pus indexes */
	int *os;		/* OS indexes */
	char *list;		/* cpulist_format_compact() */
	int cores, sockets;
	double time, speedup;
	const char *bottleneck;
};

void info_release(struct placement_info *pi);
/*
 * Predict PUS (taken over) with md, or with the model chosen when it
 * is not the Pandia model; fills pi.
 */
void predict_pus(const struct ctx *x, struct model *md, int *pus, int n,
		 struct placement_info *pi);
json_t *info_json(const struct placement_info *pi);
/* The input size asked for, or null. */
json_t *size_json(const struct ctx *x);
void print_header(const struct ctx *x);
/* TEXT as m->pus indexes into *pus (new), or -1 after saying why. */
int parse_placement_text(const struct ctx *x, const char *text, int **pus,
			 int *n);

/* ---- ambiguities (predict_ambig.c) ------------------------------ */

#define AMBIG_MAX 4

/* The unresolved ambiguities of the description, as models. */
struct ambig {
	int n;
	struct model md[AMBIG_MAX];
	const char *between[AMBIG_MAX];	/* borrowed from x->w */
};

/* From x->w's model.ambiguities on SP (none for another model). */
void ambig_init(struct ambig *a, const struct ctx *x,
		const struct space *sp);
void ambig_release(struct ambig *a);
/*
 * The largest relative difference between time T of placement PUS and
 * what a competing explanation predicts (*alt, *which: its name, or
 * NULL when none).
 */
double ambig_of(struct ambig *a, const int *pus, int n, double t,
		double *alt, const char **which);
/* Whether a difference DIFF makes the placement depend on it. */
bool ambig_depends(double diff);

/* ---- the uncertainty of a prediction (predict_rank.c) ----------- */

/*
 * A placement's time range from the parameters' uncertainties (their
 * "+-" in the workload description): p, o_s, l and b, and the L3, DRAM
 * and interconnect demands that are values (not bounds), each moved by
 * its uncertainty down and up alone, the placement predicted again, the
 * changes each way added in quadrature, and t1's relative uncertainty
 * (which moves every time alike) added the same way.  docs/model.md,
 * "The uncertainty of a prediction".  Off (every range a point) for
 * another model than the Pandia model (x->state set).
 */
#define URANGE_N 14

struct urange {
	bool on;		/* some parameter states an uncertainty */
	bool have[URANGE_N];
	/* p-, p+, o_s-, o_s+, l-, l+, b-, b+, then L3, DRAM and the
	   interconnect's demand, - and + */
	struct model md[URANGE_N];
	double t1_rel;
};

void urange_init(struct urange *u, const struct ctx *x,
		 const struct space *sp);
void urange_release(struct urange *u);
/*
 * The range [*lo, *hi] of placement PUS (m->pus indexes) of time T;
 * with T1 false, without t1's part, which moves every placement alike
 * and so never changes their order (ties are decided without it).
 */
void urange_of(struct urange *u, const int *pus, int n, double t, bool t1,
	       double *lo, double *hi);

/* ---- pin lines (predict_pins.c) --------------------------------- */

/* The pin lines predict can print (--lines), in the order printed. */
enum pin_line {
	PIN_TASKSET, PIN_NUMACTL, PIN_OMP, PIN_GOMP, PIN_KMP, PIN_HWLOC,
	PIN_LIKWID, PIN_SRUN, PIN_OMPI, PIN_MAPBY, PIN_MPICH, PIN_SYSTEMD,
	PIN_DOCKER, PIN_RUN, PIN_LINES
};
#define PIN_DEFAULT (1u << PIN_TASKSET | 1u << PIN_NUMACTL | \
		     1u << PIN_OMP | 1u << PIN_RUN)

/* The name --lines takes for line L ("taskset"). */
const char *pin_line_name(enum pin_line l);
/* --lines LIST|all into *BITS.  0, or -1 (TEXT names no line). */
int pin_lines_parse(const char *text, unsigned *bits);

struct pins {
	char *line[PIN_LINES];	/* NULL: not made, or cannot be */
	char *loses;		/* what the lines that take a set cannot
				   say; NULL when nothing */
	const char *omp_why;	/* why there are no OpenMP lines */
	const char *mapby_why;	/* why there is no --map-by line */
	char *rankfile;		/* the Open MPI line's rankfile */
	unsigned shown;		/* PIN_* bits to print and write */
};

void pins_make(const struct ctx *x, const struct placement_info *pi,
	       struct pins *p);
struct job_rank;
/*
 * The launchers' lines (srun, Open MPI, MPICH) that run the workload as
 * RANKS ranks, rank i on the OS PUs of R[i], each rank's command at
 * R[0].n threads; --lines chooses among them, all four by default.
 */
void pins_make_job(const struct ctx *x, int ranks, const struct job_rank *r,
		   struct pins *p);
void pins_release(struct pins *p);
json_t *pins_json(const struct pins *p);
void pins_print(const struct pins *p);

/* ---- the runs pandia tune measured (predict_tuned.c) ------------ */

/*
 * Each pinned run of purpose "tune" in x->w: its median, its
 * prediction (MD, or the model chosen) and how far that missed, as
 * lines after the ranking (none when there is no such run) or as a
 * JSON array (new reference; empty when none).
 */
void tuned_print(const struct ctx *x, struct model *md);
json_t *tuned_json(const struct ctx *x, struct model *md);

/* ---- co-runs and jobs (predict_corun.c) ------------------------ */

/*
 * The model's instance of W (PATH, for messages) on x->m under x->mem
 * (close it with the model's close), or NULL after saying why.
 */
void *corun_state(const struct ctx *x, const char *path,
		  const struct pandia_workload *w);

/* ---- the predictions: each returns the exit status -------------- */

int do_placement(struct ctx *x);	/* predict_placement.c */
int do_rank(struct ctx *x);		/* predict_rank.c */
int do_corun(struct ctx *x);		/* predict_corun.c */
int do_ranks(struct ctx *x);		/* predict_ranks.c */

#endif
