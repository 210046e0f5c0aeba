/*
 * fit_cputime.c - run 2's CPU time against the contention the model
 * sees in it (docs/profiling.md, "p against run 2's CPU time").
 *
 * Run 2's time alone cannot tell a serial part from contention: both
 * make n threads slower than t1 / n.  The fit takes the contention the
 * model sees with every thread of run 2 busy (k2: the machine
 * description's clock with n cores busy, and the demands), and p is
 * what is left.  A description measured while the host was busy can
 * carry a lower clock with every core busy that the workload's runs
 * never see (a 2-vCPU guest confirmed one in 4 of 12 descriptions),
 * and p then takes the clock's share with a range that ignores it.
 *
 * The CPU time tells them apart where waiting threads sleep.  With
 * run 2 taking B = t2 / t1 and its threads busy U2 PUs on average while
 * timed (U1 in run 1; busy_timed()), the CPU time of run 2 is A = B U2 /
 * U1 times run 1's, and
 *
 *	B = 1 - p + p k / n,	A = 1 - p + p k
 *
 * (the serial part on one core, the parallel part on n, each slowed k
 * times).  Contention stalls on the CPU: it shows in A as p (k - 1).
 * Threads that spin while they wait only add to A, so a model whose
 * contention A does not show is contradicted: less than half of it
 * there, by more than CPU_GAP_MIN.  p's stated range then reaches the
 * p the CPU time gives,
 *
 *	p_cpu = 1 - A + (A - B) / (1 - 1/n) = 1 - B (n - U2/U1) / (n - 1),
 *
 * with the runs' noise in it beyond, and t1's range (every predicted
 * time's) takes the contention not seen.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "predictor/pandia/pandia_internal.h"

/* The least gap worth a word: 39 quiet profiles of one workload on a
   2-vCPU guest put A at 0.96 to 1.05, but for disturbed runs, which
   only raise it (docs/profiling.md). */
#define CPU_GAP_MIN 0.05
/* Run 1's thread busy less than this: it waits, the CPU says little. */
#define CPU_RUN1_BUSY 0.8

/*
 * The PUs R kept busy while timed: cpus_busy is over the whole wall
 * time of its calls, which a --time-from region leaves part of (the
 * command's setup and end, and its start and exit without it).  With
 * W that wall time (cpu_seconds / cpus_busy) and T its times summed
 * (cpu_timed_seconds), the rest, W - T, taken as one PU busy (setup
 * is most often one thread's): 1 + (U - 1) W / T.  Without T (a
 * description from before it was recorded), cpus_busy itself.
 */
static double busy_timed(const struct wl_run *r)
{
	double u = wl_run_counter(r, "cpus_busy");
	double cpu = wl_run_counter(r, "cpu_seconds");
	double t = wl_run_counter(r, "cpu_timed_seconds");
	double w = u > 0 ? cpu / u : NAN;

	if (!(t > 0) || !(w > t))
		return u;
	u = 1 + (u - 1) * w / t;
	return u > 0 ? u : 0;
}

/* The clock's slowdown with run 2's cores busy (1: none described). */
static double run2_clock(const struct pandia_machine *m,
			 const struct fit_plan *pl)
{
	int x0 = pl->n_pus[PR2] > 0 ? pl->pus[PR2][0] : -1;

	return x0 < 0 ? 1 : machine_clock_slowdown(m,
			m->cores[m->pus[x0].core].socket, pl->n_pus[PR2]);
}

/* What makes the model's K2 with the clock's Q in it (a new string). */
static char *k2_parts(int n, double q, double k2)
{
	if (q > 1 + 1e-9)
		return xasprintf("the description's clock with %d cores busy, "
				 "core.all_busy_rate at %.1f%% of a lone "
				 "core's%s", n, 100 / q,
				 k2 > q * (1 + 1e-6) ? " and the demands" : "");
	return xstrdup("the demands it takes for run 2");
}

void pandia_cpu_check(const struct model_env *env,
		      const struct pandia_workload *w,
		      const struct pandia_runs *r, struct fit_solution *s,
		      double *p_range)
{
	const struct fit_plan *pl = &r->pl;
	double u1 = busy_timed(r->xr[PR1]);
	double u2 = busy_timed(r->xr[PR2]);
	double t1 = r->t[PR1], n = pl->n_pus[PR2];
	double a, b, k2, gain, pc, q, noise;
	struct model_params prm;
	char *what, *st;

	s->cpu_gap = 0;
	if (!(u1 >= CPU_RUN1_BUSY) || !(u2 > 0) || !(n >= 2) || !(t1 > 0) ||
	    !(r->t[PR2] > 0) || !(s->p > 0))
		return;
	pandia_base_params(env->m, w, t1, &prm);
	prm.p = 1;
	k2 = fit_model_time(pl, &prm, PR2, 1, NULL, NULL) / (t1 / n);
	gain = s->p * (k2 - 1);
	b = r->t[PR2] / t1;
	a = b * u2 / u1;
	if (!(gain > CPU_GAP_MIN) || !(a < 1 + gain / 2) ||
	    !(1 + gain - a > CPU_GAP_MIN))
		return;
	pc = 1 - b * (n - u2 / u1) / (n - 1);
	pc = pc < 0 ? 0 : pc > 1 ? 1 : pc;
	s->p_cpu = pc;
	s->cpu_gap = (1 + gain) / (a > 1 ? a : 1) - 1;
	/* down to p_cpu less the runs' noise in it, which moves with
	   run 2's time as Amdahl's p does (p's own range is 0 where
	   the clock pinned it at 1) */
	noise = n / (n - 1) * b * hypot(r->range[PR1] / t1,
					r->range[PR2] / r->t[PR2]);
	if (fabs(s->p - pc) + noise > *p_range)
		*p_range = fabs(s->p - pc) + noise;
	q = run2_clock(env->m, pl);
	what = k2_parts((int)n, q, k2);
	st = xasprintf("%s%srun 2's CPU time (%.2f PUs busy, run 1 %.2f: "
		       "%.3f times run 1's) shows little of the %.0f%% more "
		       "that the model's contention in run 2 gives it (%s; "
		       "k2 = %.3g): by the CPU time p would be %.3g, and p's "
		       "range takes it", s->p_status ? s->p_status : "",
		       s->p_status ? "; " : "", u2, u1, a, 100 * gain, what,
		       k2, pc);
	free(s->p_status);
	s->p_status = st;
	pandia_warn(env, "run 2's CPU time (%.3f times run 1's) shows little "
		    "of the %.0f%% more that the model's contention in run 2 "
		    "gives it (%s): p = %.3g from the times, %.3g from the "
		    "CPU time; every predicted time's range takes the %.0f%% "
		    "not seen%s", a, 100 * gain, what, s->p, pc,
		    100 * s->cpu_gap, q > 1 + 1e-9 ?
		    "; the machine may have been measured while the host was "
		    "busy ('pandia machine' measures it again)" : "");
	free(what);
}
