/*
 * probe.h - the "probe" counter backend: workload demands without a
 * PMU (docs/profiling.md, "Without hardware counters").
 *
 *   - CPU use: the CPU time of the command and every thread and
 *     process it starts, from the software event task-clock counted
 *     with perf_event_open (inherited by children), or, where even
 *     that is refused, getrusage(RUSAGE_CHILDREN);
 *   - bandwidth demand at a shared level (a shared cache, DRAM): the
 *     workload runs alone on one core while calibrated bandwidth
 *     probes run on the other cores that share the level; the rate the
 *     probes lose and the time the workload loses give the demand, or,
 *     when the probes cannot saturate the level, an upper bound.
 *
 * Everything here is library code: it fills structs and returns
 * strings, it never prints.
 */
#ifndef PANDIA_PROFILER_PROBE_H
#define PANDIA_PROFILER_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/machine.h"

/* ---- CPU use ----------------------------------------------------- */

/*
 * CPU time used by the children this process starts between
 * probe_cpu_begin() and probe_cpu_end() (this thread's own time
 * excluded).  Children must be reaped before probe_cpu_end() to be
 * counted.
 */
struct probe_cpu {
	int fd;			/* task-clock event, or -1 */
	double self0;		/* this thread's CPU time at begin */
	double child0;		/* RUSAGE_CHILDREN at begin */
	double wall0;
	const char *method;	/* "task-clock" or "rusage" (static) */
};

/* Start counting.  Never fails: falls back to getrusage(). */
void probe_cpu_begin(struct probe_cpu *pc);
/*
 * Stop counting: *cpu gets the children's CPU seconds, *wall the
 * seconds since probe_cpu_begin().  Releases the event.
 */
void probe_cpu_end(struct probe_cpu *pc, double *cpu, double *wall);

/*
 * CPU time every PU has spent busy since boot (user, nice, system,
 * irq, softirq and steal from /proc/stat), in seconds: busy[os_index]
 * for OS indexes below MAX (others untouched).  Returns the number of
 * PUs read, or -1 when /proc/stat cannot be read.
 */
int probe_stat_busy(double *busy, int max);
/* The same with the steal time (steal[os_index]) too; steal may be NULL. */
int probe_stat_read(double *busy, double *steal, int max);

/* ---- disturbance: what others took from one repetition ------------- */

/*
 * How much one repetition was disturbed, each as a share (0 to 1):
 *   foreign   of the time of the PUs it kept busy (the command's and
 *             its stressors'), what other processes and the hypervisor
 *             took while the PUs were full (/proc/stat busy time less
 *             the command's and stressors' CPU time);
 *   steal     of the same, what the hypervisor alone took (/proc/stat
 *             steal: a VM's other tenants);
 *   runqueue  of the worker threads' lives, the time they waited for a
 *             CPU although each had a PU of its own (from the
 *             per-thread accounting; 0 when threads share a PU or a
 *             stressor runs beside them by design, or none was
 *             accounted).
 * share is the largest of the three, what decides "disturbed".
 */
struct probe_disturbance {
	double foreign, steal, runqueue;
	double share;
};

#define PROBE_STAT_PUS 4096	/* OS indexes below this are watched */

struct run_result;

struct probe_disturb {
	double *busy0, *steal0;	/* /proc/stat at begin, per PU */
	bool ok;		/* /proc/stat could be read */
	struct probe_cpu cpu;	/* the children's CPU time */
	double cpu_seconds;	/* after end: what they used */
	double wall_seconds;	/* after end: the time between */
};

/* Start watching (before run_execute()). */
void probe_disturb_begin(struct probe_disturb *d);
/*
 * Stop watching (after run_execute() with one repetition, PUS the OS
 * PUs the command and its stressors were given: N of them, repeats
 * allowed) and fill *out.  The CPU time of everything pandia started
 * in between (the command, its stressors) is its own.  R, when not
 * NULL, gives the threads' accounting, and ALONE says each listed PU
 * had one thread and no stressor.  Releases what begin took.  Returns
 * out->share.
 */
double probe_disturb_end(struct probe_disturb *d, const int *pus, int n,
			 const struct run_result *r, bool alone,
			 struct probe_disturbance *out);

/*
 * "others took 23% of its PUs' time (steal 20%), a worker thread waited
 * 5% of its time for a CPU" into buf (returned).
 */
const char *probe_disturbance_text(const struct probe_disturbance *dd,
				   char *buf, size_t size);

/* ---- bandwidth demand from co-run probes -------------------------- */

/* What was measured for one shared level. */
struct probe_input {
	int level;		/* enum pandia_level */
	int n_probes;		/* probe threads, one per other core */
	double per_core_bw;	/* one core's link (the description) */
	double aggregate_bw;	/* what the level sustains in all */
	double alone;		/* probes' total rate alone, bytes/s */
	double corun;		/* their total rate beside the workload */
	double corun_noise;	/* of corun, relative */
	/*
	 * the workload's time beside the probes over run 1's: with
	 * threads > 1, its threads' (bytes are the same, so the demand
	 * of one thread is the probes' loss times this ratio)
	 */
	double slowdown;
	/*
	 * the inputs' noise, relative, as far as their medians move
	 * nine times in ten (0: none seen; the profiler's pooled moves,
	 * docs/profiling.md "The estimate and its noise amplification")
	 */
	double alone_noise;	/* of alone */
	double slowdown_noise;	/* of slowdown (its times') */
	double capacity_noise;	/* of aggregate_bw; 0: PROBE_C_NOISE */
	bool alone_described;	/* alone is the description's figure,
				   not measured */
	int threads;		/* the workload's threads (0 or 1: run 1's) */
	/*
	 * half the relative difference of the probes' rate alone before
	 * and after the command (root mean square over repetitions): how
	 * far the host moved under the run; 0: not measured
	 */
	double alone_drift;
};

/* The demand of one thread of the workload at that level. */
struct probe_estimate {
	bool known;		/* false: nothing can be said */
	bool bound;		/* value is an upper bound */
	double value;		/* bytes/s */
	double uncertainty;	/* absolute; NAN: not stated */
	/*
	 * The noise amplification: the largest |d ln value / d ln x| over
	 * the inputs x the value was computed from (a 1% error in the
	 * worst of them is amplification % in the value); NAN: none (a bound).
	 */
	double amplification;
	char *status;		/* how it was obtained (new string) */
};

/* The probes count as slowed when they lose more than this fraction. */
#define PROBE_SLOWED 0.03
/*
 * The relative uncertainty of a described capacity that records no
 * spread: a description measured on another day (one host's DRAM
 * aggregate read 80 and 45 GB/s two minutes apart; 3% is the least).
 */
#define PROBE_C_NOISE 0.03
/* Above this amplification an estimate is poorly conditioned. */
#define PROBE_AMP_HIGH 3.0
/*
 * The probes' loss is resolved when it exceeds this many times the
 * drift of their rate alone (probe_input.alone_drift): half the
 * difference of before and after, twice, is the whole of it.
 */
#define PROBE_DRIFT_SIGMAS 2.0

/*
 * The amplification of d = (X - Pc) x sigma, X a capacity or the
 * probes' rate alone, Pc < X their rate beside the workload: the
 * factors |d ln d / d ln x| are X / (X - Pc), Pc / (X - Pc) and 1, the
 * largest X / (X - Pc).  INFINITY when X <= Pc.
 */
double probe_amplification(double X, double Pc);
/*
 * The relative uncertainty of that d from its inputs' relative noise:
 * the root sum of squares of each factor times its input's noise.
 */
double probe_rel_uncertainty(double X, double Pc, double noise_x,
			     double noise_pc, double noise_sigma);

/*
 * The demand at in->level from what the probes measured.  When the
 * probes alone nearly saturate the level (alone >= PROBE_SATURATE x
 * aggregate_bw) and either they or the workload lost more than
 * PROBE_SLOWED beside the other, the level was saturated and what the
 * workload took while beside them, scaled back to its rate alone, is
 * an estimate:
 *     d = (alone - corun) x slowdown        (the probes' loss)
 * (with threads > 1, slowdown is the threads' time over run 1's, and
 * only the probes' loss shows the level saturated)
 * when alone was measured (the description's capacity, and its error,
 * do not enter), else
 *     d = (aggregate_bw - corun) x slowdown (what the probes left);
 * out->amplification says how much each amplifies its inputs' noise,
 * and out->uncertainty is that noise amplified.  Otherwise
 * (aggregate_bw - corun) x slowdown, with aggregate_bw - corun at
 * least PROBE_SLOWED x alone (the resolution of the probes), is an
 * upper bound, and so is per_core_bw; the value is the smaller one.
 * A loss no larger than PROBE_DRIFT_SIGMAS x alone_drift x alone is
 * one too: (its loss + that) x slowdown.
 * Fills *out (release out->status with free()).
 */
void probe_estimate_demand(const struct probe_input *in,
			   struct probe_estimate *out);

/*
 * The probe PUs for a shared level seen from the core of PU index PU
 * (m->pus): the first PU of every other core that shares LEVEL with it
 * (the same cache instance for L2/L3, the same NUMA node for DRAM).
 * *out gets a new array of m->pus indexes.  Returns their number (0
 * when the level is private or absent), and sets *why to a static
 * reason when 0.
 */
int probe_pus(const struct pandia_machine *m, int pu, int level, int **out,
	      const char **why);

#endif
