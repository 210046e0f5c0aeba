/*
 * measure.c - measure this host's link bandwidths and core rates.
 *
 * Every figure is one "job": a kernel run by one pinned thread per PU
 * of a list, each on its own buffer, for a few timed repetitions that
 * all threads start together (a barrier before each).  A repetition's
 * figure is the sum over threads of work / time, each thread timing
 * itself; the figure kept is the best repetition, and the record keeps
 * the median and the spread too.  See docs/stress.md for the rules.
 *
 * Time.  On a shared host other processes take turns on our PUs.  The
 * measuring threads ask for a high priority (nice -20 where allowed)
 * and time themselves with both clocks.  A thread alone is rated over
 * its CPU time: while it ran it moved its bytes at full speed.  With
 * several threads that would overstate a shared cache or memory (one
 * thread running alone has it to itself), so each thread logs its
 * passes and only those during which every thread kept its PU count
 * (concurrent_rate()); a repetition where that is under 10% of the time
 * is dropped, and when all are, the wall-clock rate, a lower bound, is
 * kept.  The note of each record says which happened.
 *
 * This file runs the plan and fills the machine; the plan is made in
 * measure_plan.c, a job run in measure_run.c and its record made in
 * measure_record.c (measure_internal.h holds what they share).
 */
#include "stress/measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/report.h"
#include "common/util.h"
#include "stress/measure_internal.h"

/* The least relative drop of the all-busy core rate that is a clock. */
#define ALL_BUSY_MIN 0.02

double stress_estimate_seconds(const struct pandia_machine *m,
			       const struct stress_opts *o)
{
	struct plan p;
	double s = 0;
	int i;

	if (stress_plan_make(&p, m, o, NULL) < 0)
		return 0;
	for (i = 0; i < p.n_jobs; i++) {
		/* Page faults and touching, each thread its own working
		   set at once; that time counts towards the warm-up, and
		   a working set kept from run to run (keep.c) is touched
		   in the first round only (at most: a node's arena,
		   once). */
		double touch = stress_touch_seconds(p.jobs[i].ws);
		double run = p.t.reps * p.t.rep_s;
		double again = p.jobs[i].kept ? run + p.t.warm_s :
			touch + run + stress_warm_least(&p.t, touch);

		s += touch + run + stress_warm_least(&p.t, touch) +
			(p.t.rounds - 1) * again;
	}
	stress_plan_release(&p);
	return s;
}

int stress_measure_one(enum stress_kind kind, const int *pus, int n,
		       size_t ws, int node, const struct stress_opts *o,
		       struct pandia_measure *out, struct pandia_error *err)
{
	const struct timing *t = stress_timing(o);
	struct job j;
	struct reps r;
	int k, ret = -1;

	if (n <= 0)
		return perr_set(err, "no PU to measure on");
	memset(&j, 0, sizeof(j));
	j.kind = kind;
	j.n = n;
	j.pus = (int *)pus;
	j.ws = stress_kind_is_core(kind) ? 0 : ws;
	j.node = node;
	stress_reps_init(&r, t->rounds * t->reps);
	for (k = 0; k < t->rounds; k++)
		if (stress_run_job(&j, t, &r, k * t->reps, err) < 0)
			goto out_reps;
	memset(out, 0, sizeof(*out));
	stress_fill_record(out, &j, &r, o && o->wall_clock);
	ret = 0;
out_reps:
	stress_reps_release(&r);
	return ret;
}

static void mark_absent(struct pandia_link *l, const char *why)
{
	l->present = false;
	free(l->reason);
	l->reason = xstrdup(why);
	l->per_core_bw = 0;
	l->aggregate_bw = 0;
	measure_release(&l->per_core);
	measure_release(&l->aggregate);
}

/* The spread of a job's repetitions as stress_fill_record() would give it. */
static double spread_of(const struct job *j, const struct reps *r,
			const struct stress_opts *o)
{
	struct pandia_measure ms;
	double sp;

	memset(&ms, 0, sizeof(ms));
	stress_fill_record(&ms, j, r, o && o->wall_clock);
	sp = ms.spread;
	measure_release(&ms);
	return sp;
}

/* Say in every record of m that came from job j that its spread stayed. */
static void note_spread(struct pandia_machine *m, const struct job *j,
			double sp)
{
	struct pandia_measure *all[2 * LVL_COUNT + 3];
	char *pus = cpulist_format(j->pus, j->n);
	int i, n = 0;

	for (i = 0; i < LVL_COUNT; i++) {
		all[n++] = &m->links[i].per_core;
		all[n++] = &m->links[i].aggregate;
	}
	all[n++] = &m->peak;
	all[n++] = &m->smt;
	all[n++] = &m->all_busy;
	for (i = 0; i < n; i++) {
		struct pandia_measure *ms = all[i];
		char *t;

		if (!ms->pus || strcmp(ms->pus, pus) || !ms->kernel ||
		    strcmp(ms->kernel, stress_kernel_name(j->kind)) ||
		    ms->working_set != (double)j->ws)
			continue;
		t = xasprintf("%s%sspread %.0f%% over %.0f%% after measuring "
			      "again: the host was busy", ms->note ? ms->note :
			      "", ms->note ? "; " : "", 100 * sp,
			      100 * MAX_SPREAD);
		free(ms->note);
		ms->note = t;
	}
	free(pus);
}

/* Clear M's interconnect pairs and SMT figure for the plan's. */
static void reset_machine(struct pandia_machine *m, const struct plan *p)
{
	int i;

	for (i = 0; i < m->n_xlinks; i++)
		measure_release(&m->xlinks[i].m);
	free(m->xlinks);
	m->n_xlinks = p->n_xlinks;
	m->xlinks = xcalloc(p->n_xlinks ? p->n_xlinks : 1,
			    sizeof(*m->xlinks));
	for (i = 0; i < p->n_xlinks; i++) {
		m->xlinks[i].from = p->xfrom[i];
		m->xlinks[i].to = p->xto[i];
	}
	m->smt_applicable = false;
	m->smt_rate = 0;
	measure_release(&m->smt);
	m->all_busy_rate = 0;
	measure_release(&m->all_busy);
	machine_busy_free(m);
	m->n_busy = p->n_busy;
	m->busy = xcalloc((size_t)p->n_busy + 1, sizeof(*m->busy));
	for (i = 0; i < p->n_busy; i++)
		m->busy[i].cores = p->busy_cores[i];
	free(m->smt_reason);
	m->smt_reason = m->cores[0].n_pus > 1 ? NULL :
		xstrdup("not applicable: one PU per core");
}

/* Every round runs every job once, into r[job].  0 or -1 with err. */
static int measure_rounds(const struct plan *p, struct reps *r,
			  const struct stress_opts *o,
			  struct pandia_error *err)
{
	int i, k;

	for (k = 0; k < p->t.rounds; k++) {
		for (i = 0; i < p->n_jobs; i++) {
			const struct job *j = &p->jobs[i];

			if (o && o->progress)
				report_progress("machine", "%s ... %d/%d",
					j->what,
					k * p->n_jobs + i + 1,
					p->t.rounds * p->n_jobs);
			if (stress_run_job(j, &p->t, &r[i], k * p->t.reps,
					   err) < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * A figure whose repetitions spread more than MAX_SPREAD is measured
 * again, alone, up to AGAIN times; the set of repetitions with the
 * least spread is kept, and a spread that stays is said in the
 * figure's note (pandia machine warns).  0 or -1 with err.
 */
static int measure_again(const struct plan *p, struct reps *r,
			 const struct stress_opts *o,
			 struct pandia_error *err)
{
	int i;

	for (i = 0; i < p->n_jobs; i++) {
		const struct job *j = &p->jobs[i];
		int a;

		for (a = 0; a < AGAIN && spread_of(j, &r[i], o) > MAX_SPREAD;
		     a++) {
			struct reps again;

			stress_reps_init(&again, p->t.reps);
			if (o && o->progress)
				report_progress("machine", "%s spread "
					"%.0f%%: measuring it again", j->what,
					100 * spread_of(j, &r[i], o));
			if (stress_run_job(j, &p->t, &again, 0, err) < 0) {
				stress_reps_release(&again);
				return -1;
			}
			if (spread_of(j, &again, o) < spread_of(j, &r[i], o)) {
				stress_reps_release(&r[i]);
				r[i] = again;
			} else {
				stress_reps_release(&again);
			}
		}
	}
	return 0;
}

/*
 * No lower clock with every core busy after all: the busy curve goes,
 * the figure becomes the lone core's, and its note gets WHY (taken).
 */
static void no_lower_clock(struct pandia_machine *m, char *why)
{
	char *t;

	machine_busy_free(m);
	t = xasprintf("%s%s%s", m->all_busy.note ? m->all_busy.note : "",
		      m->all_busy.note ? "; " : "", why);
	free(why);
	free(m->all_busy.note);
	m->all_busy.note = t;
	m->all_busy_rate = m->peak_rate;
}

/*
 * A clock that falls with busy cores is modelled only when the rate
 * with every core busy is below the lone core's by more than the two
 * figures' spread and 2% (stress_clock_confirmed()): noise must not
 * make a turbo up.  Otherwise the figure becomes the lone core's, and
 * its note says what was seen.
 */
static void all_busy_noise(struct pandia_machine *m)
{
	double sp = m->all_busy.spread > m->peak.spread ?
		m->all_busy.spread : m->peak.spread;
	int i;

	if (!(m->all_busy_rate > 0) || !(m->peak_rate > 0))
		return;
	if (stress_clock_confirmed(m->peak_rate, m->all_busy_rate,
				   m->peak_rate, sp)) {
		/* the points between, inside the two ends */
		for (i = 0; i < m->n_busy; i++) {
			struct pandia_busy *b = &m->busy[i];

			if (b->rate > m->peak_rate)
				b->rate = m->peak_rate;
			if (b->rate < m->all_busy_rate)
				b->rate = m->all_busy_rate;
		}
		return;
	}
	no_lower_clock(m, xasprintf("measured %.4g ops/s, %.1f%% of the "
				    "lone core's: within %.0f%%, so no lower "
				    "clock is modelled", m->all_busy_rate,
				    100 * m->all_busy_rate / m->peak_rate,
				    100 * (sp > ALL_BUSY_MIN ? sp :
					   ALL_BUSY_MIN)));
}

bool stress_clock_confirmed(double lone_a, double all, double lone_b,
			    double spread)
{
	double lone = lone_a > lone_b ? lone_a : lone_b;

	if (spread < ALL_BUSY_MIN)
		spread = ALL_BUSY_MIN;
	return all > 0 && lone > 0 && all < lone * (1 - spread);
}

/* The plan's job with TARGET, or NULL. */
static const struct job *job_of(const struct plan *p, enum target target)
{
	int i;

	for (i = 0; i < p->n_jobs; i++)
		if (p->jobs[i].target == target)
			return &p->jobs[i];
	return NULL;
}

/*
 * The lone core (job JP), every core busy (JA) and the lone core again,
 * back to back, each running KIND: the per-core rates into best[3], the
 * largest spread into *sp.  0 or -1 with err.
 */
static int lone_all_lone(const struct plan *p, const struct job *jp,
			 const struct job *ja, enum stress_kind kind,
			 const struct stress_opts *o, double best[3],
			 double *sp, struct pandia_error *err)
{
	const struct job *seq[3] = { jp, ja, jp };
	struct reps r;
	int i;

	*sp = 0;
	for (i = 0; i < 3; i++) {
		struct pandia_measure ms;
		struct job j = *seq[i];

		j.kind = kind;
		stress_reps_init(&r, p->t.reps);
		if (stress_run_job(&j, &p->t, &r, 0, err) < 0) {
			stress_reps_release(&r);
			return -1;
		}
		memset(&ms, 0, sizeof(ms));
		stress_fill_record(&ms, &j, &r, o && o->wall_clock);
		best[i] = ms.best / j.n;
		if (ms.spread > *sp)
			*sp = ms.spread;
		measure_release(&ms);
		stress_reps_release(&r);
	}
	return 0;
}

/*
 * A lower clock kept from the rounds compares figures measured apart
 * (a figure measured again comes from later), and a tenant that slows
 * the host for a few seconds can make one up.  Measure the lone core,
 * every core busy and the lone core again, back to back: the drop is
 * kept only when that shows it too (stress_clock_confirmed(), the
 * three figures' spread at least ALL_BUSY_MIN).  Then the same with
 * one dependent chain (int_chain), whose rate is the clock's: ten
 * chains also slow when another hardware thread takes the core's
 * integer units (a 2-vCPU KVM guest whose host put both vCPUs on one
 * core's two threads at times: ten chains ran 0.50 to 0.92 times as
 * fast with both busy in 45 of 120 one-second samples, one chain never
 * below 0.968), and that is no clock.  0 or -1 with err.
 */
static int confirm_clock(struct pandia_machine *m, const struct plan *p,
			 const struct stress_opts *o,
			 struct pandia_error *err)
{
	const struct job *jp = job_of(p, T_PEAK), *ja = job_of(p, T_ALL_BUSY);
	double best[3], chain[3], sp, csp;

	if (!jp || !ja || !(m->all_busy_rate > 0) ||
	    !(m->all_busy_rate < m->peak_rate))
		return 0;
	if (o && o->progress)
		report_progress("machine", "a lower clock with every core "
				"busy: measuring it again, back to back");
	if (lone_all_lone(p, jp, ja, STRESS_CPU, o, best, &sp, err) < 0)
		return -1;
	if (!stress_clock_confirmed(best[0], best[1], best[2], sp)) {
		no_lower_clock(m, xasprintf("%.1f%% of the lone core's, but "
					    "measured again back to back "
					    "%.1f%% (lone %.4g and %.4g "
					    "ops/s): the host was busy, so "
					    "no lower clock is modelled",
					    100 * m->all_busy_rate /
					    m->peak_rate, 100 * best[1] /
					    (best[0] > best[2] ? best[0] :
					     best[2]), best[0], best[2]));
		return 0;
	}
	if (lone_all_lone(p, jp, ja, STRESS_CPU_CHAIN, o, chain, &csp,
			  err) < 0)
		return -1;
	if (stress_clock_confirmed(chain[0], chain[1], chain[2], csp))
		return 0;
	no_lower_clock(m, xasprintf("%.1f%% of the lone core's, and %.1f%% "
				    "measured again back to back, but one "
				    "dependent chain (int_chain, the "
				    "clock's rate) ran %.1f%% of its lone "
				    "rate with every core busy: the cores' "
				    "integer units were shared (another "
				    "hardware thread, or a hypervisor's "
				    "vCPU), not the clock lowered, so no "
				    "lower clock is modelled",
				    100 * m->all_busy_rate / m->peak_rate,
				    100 * best[1] / (best[0] > best[2] ?
						     best[0] : best[2]),
				    100 * chain[1] / (chain[0] > chain[2] ?
						      chain[0] : chain[2])));
	return 0;
}

/* Every job's figure and record into M; the peak from the kinds. */
static void store_all(struct pandia_machine *m, const struct plan *p,
		      const struct reps *r, const struct stress_opts *o)
{
	int i, k;

	for (i = 0; i < p->n_jobs; i++) {
		double sp = spread_of(&p->jobs[i], &r[i], o);

		stress_store(m, &p->jobs[i], &r[i], o && o->wall_clock);
		if (sp > MAX_SPREAD)
			note_spread(m, &p->jobs[i], sp);
	}
	all_busy_noise(m);
	if (m->n_kinds) {
		/* the fastest kind's is the peak; a kind hwloc ranks lower
		   that measured faster makes the peak its own */
		k = machine_fastest_kind(m);
		m->kinds[k].rate = m->peak_rate;
		stress_copy_record(&m->kinds[k].m, &m->peak, NULL);
		for (i = 0; i < m->n_kinds; i++)
			if (m->kinds[i].rate > m->peak_rate)
				m->peak_rate = m->kinds[i].rate;
	}
}

/*
 * Which links M has and why not, the aggregate of a level private to a
 * core, and the interconnect's aggregate: the slowest pair.
 */
static void finish_links(struct pandia_machine *m, const struct plan *p)
{
	static const char *const priv[] = {
		"private to one core: the aggregate is the per-core figure",
		"private to one core: the aggregate is the per-core figure",
		"private to one core: the aggregate is the per-core figure",
		"one core on this NUMA node: the aggregate is the per-core "
		"figure",
		"",
	};
	struct pandia_link *x = &m->links[LVL_INTERCONNECT];
	int i, lvl;

	for (lvl = 0; lvl < LVL_COUNT; lvl++) {
		struct pandia_link *l = &m->links[lvl];

		if (p->absent[lvl]) {
			mark_absent(l, p->absent[lvl]);
			continue;
		}
		l->present = true;
		free(l->reason);
		l->reason = NULL;
		if (p->private_level[lvl]) {
			l->aggregate_bw = l->per_core_bw;
			stress_copy_record(&l->aggregate, &l->per_core,
					   priv[lvl]);
		}
	}
	if (!x->present)
		return;
	/* The link's aggregate: the slowest pair (all measured alike). */
	for (i = 0; i < m->n_xlinks; i++) {
		if (i == 0 || m->xlinks[i].bw < x->aggregate_bw) {
			x->aggregate_bw = m->xlinks[i].bw;
			stress_copy_record(&x->aggregate, &m->xlinks[i].m,
				p->xlink_note ? p->xlink_note :
				(m->n_xlinks > 1 ?
				 "the slowest pair of sockets" : NULL));
		}
	}
}

int stress_measure(struct pandia_machine *m, const struct stress_opts *o,
		   struct pandia_error *err)
{
	struct plan p;
	struct reps *r = NULL;
	int i, ret = -1;

	if (stress_plan_make(&p, m, o, err) < 0)
		goto out_plan;
	r = xcalloc(p.n_jobs, sizeof(*r));
	for (i = 0; i < p.n_jobs; i++)
		stress_reps_init(&r[i], p.t.rounds * p.t.reps);
	reset_machine(m, &p);
	if (measure_rounds(&p, r, o, err) < 0 ||
	    measure_again(&p, r, o, err) < 0)
		goto out_reps;
	store_all(m, &p, r, o);
	if (confirm_clock(m, &p, o, err) < 0)
		goto out_reps;
	finish_links(m, &p);
	ret = 0;
out_reps:
	for (i = 0; r && i < p.n_jobs; i++)
		stress_reps_release(&r[i]);
	free(r);
out_plan:
	stress_plan_release(&p);
	return ret;
}
