/*
 * profile_demands.c - the demands, measured beside run 1: perf's
 * counted run (profiler/counters.h), or the probe backend's co-runs
 * of run 1 with bandwidth probes at each level (profiler/probe.h),
 * the wide DRAM co-run of most of the node's cores where run 1's
 * estimate is poor, and the DRAM demand the probes saw scaled to
 * where the pages are.
 */
#include "profiler/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/probe.h"
#include "predictor/tune.h"
#include "profiler/profile_internal.h"

static void demand_unknown(struct pandia_workload *w, int r, char *status)
{
	wl_param_release(model_demand(w, r));
	model_demand_list(w, r, true);
	model_demand(w, r)->status = status;
	*model_demand_amplification(w, r) = NAN;
}

/*
 * The share of the profile's budget the probe runs' extra repetitions
 * may reach (counted from the profile's start).
 */
#define PROBE_BUDGET_SHARE 0.5

/*
 * The noise pooled over the profile's repetitions so far (as
 * predictor/pandia/ranges.c pools the runs'): *RSS and *RDOF of the
 * probes' rates, beside the command and alone, every probe run's; *TSS
 * and *TDOF of every timed run's times.  A rate is bytes over a time:
 * without repetitions of its own it is taken as noisy as the times.
 */
static void probe_noise_pool(const struct prof *P, double *rss, int *rdof,
			     double *tss, int *tdof)
{
	int i;

	*rss = *tss = 0;
	*rdof = *tdof = 0;
	for (i = 0; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];

		if (R->warmup_only)
			continue;
		tune_pool_log(R->times, R->n_times, tss, tdof);
		if (!R->probe)
			continue;
		if (R->rates)
			tune_pool_log(R->rates, R->n_times, rss, rdof);
		if (R->alone)
			tune_pool_log(R->alone, R->n_times, rss, rdof);
		if (R->after)
			tune_pool_log(R->after, R->n_times, rss, rdof);
	}
	if (*rdof == 0) {
		*rss = *tss;
		*rdof = *tdof;
	}
}

/*
 * The probes' rate alone before and after the command of each of CO's
 * repetitions: IN's alone their mean, alone_drift the root mean square
 * of half their relative difference (the host moving under the run),
 * in alone_noise too.  Left alone when no rate after is known (a
 * runner template).
 */
static void alone_drift(const struct prun *co, struct probe_input *in)
{
	double ss = 0, *mean, b, a;
	int i, n = 0;

	if (!co->after || co->n_times < 1)
		return;
	mean = xcalloc((size_t)co->n_times, sizeof(double));
	for (i = 0; i < co->n_times; i++) {
		b = co->alone[i];
		a = co->after[i];
		if (!(b > 0) || !(a > 0) || !isfinite(a + b))
			continue;
		mean[n++] = 0.5 * (a + b);
		ss += pow((a - b) / (a + b), 2);
	}
	if (n) {
		in->alone = median_known(mean, n);
		in->alone_drift = sqrt(ss / n);
		in->alone_noise = hypot(in->alone_noise, in->alone_drift);
	}
	free(mean);
}

/* The probe runs of level LVL for run 1's PU: created, not yet made. */
static int plan_probe(struct prof *P, int pu0, int lvl,
		      struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	const char *why, *ln = level_name(lvl);
	char id[64], kind[32], alone[96] = "", *l;
	struct prun *R;
	int *pus, n;

	n = probe_pus(m, pu0, lvl, &pus, &why);
	if (!n) {
		demand_unknown(w, WR_L1 + lvl, xasprintf("not measured: %s",
							 why));
		return 0;
	}
	l = prof_os_list(m, pus, n);
	snprintf(kind, sizeof(kind), "bw:%s", ln);
	snprintf(id, sizeof(id), "probe-%s", ln);
	if (!P->o->runner)
		snprintf(alone, sizeof(alone), ", their rate alone measured "
			 "for %.2g s before it and after it", P->alone_secs);
	R = prof_new_run(P, id, &pu0, 1, pus, n, kind,
			 xasprintf("%s demand: run 1 beside %s probe%s on "
				   "PU%s %s%s", ln, ln, n == 1 ? "" : "s",
				   n == 1 ? "" : "s", l, alone));
	R->probe = true;
	R->level = lvl;
	free(l);
	free(pus);
	return n;
}

/* Number of probe levels run 1's PU allows (for the progress total). */
int prof_count_probe_runs(const struct prof *P, int pu0)
{
	int lvl, n = 0, *pus;
	const char *why;

	for (lvl = P->o->quick ? LVL_DRAM : LVL_L1; lvl <= LVL_DRAM; lvl++)
		if (probe_pus(P->m, pu0, lvl, &pus, &why) > 0) {
			n++;
			free(pus);
		}
	return n;
}

/*
 * The estimate of probe run CO into co->est: run 1 (or, for the wide
 * run, its threads) beside the probes.
 */
static void probe_demand(struct prof *P, struct prun *co)
{
	const struct pandia_machine *m = P->m;
	const struct pandia_link *lk = &m->links[co->level];
	struct probe_input in = { 0 };
	int n = co->stress[0].n_pus, rdof, tdof;
	double rss, tss;

	free(co->est.status);
	memset(&co->est, 0, sizeof(co->est));
	co->est.uncertainty = co->est.amplification = NAN;
	in.level = co->level;
	in.n_probes = n;
	in.threads = co->n_cpus;
	in.per_core_bw = lk->per_core_bw;
	in.aggregate_bw = lk->aggregate_bw;
	in.capacity_noise = machine_link_spread(lk);	/* 0: PROBE_C_NOISE */
	probe_noise_pool(P, &rss, &rdof, &tss, &tdof);
	/* both rates are medians of the run's repetitions: one move */
	in.corun_noise = tune_range_move(rss, rdof, co->n_times);
	in.alone = median_known(co->alone, co->n_times);
	in.alone_noise = in.corun_noise;
	alone_drift(co, &in);
	if (!isfinite(in.alone)) {
		/*
		 * a runner template that does not say their rate alone
		 * (no 'pandia-stress-alone' line): the description's
		 */
		in.alone_described = true;
		in.alone = n * lk->per_core_bw;
		if (in.alone > lk->aggregate_bw)
			in.alone = lk->aggregate_bw;
	}
	in.corun = median_known(co->rates, co->n_times);
	in.slowdown = median_known(co->times, co->n_times) / P->res->t1;
	in.slowdown_noise = hypot(tune_range_move(tss, tdof, co->n_times),
				  tune_range_move(tss, tdof,
						  P->runs[0].n_times));
	if (!isfinite(in.corun)) {
		co->est.status = xstrdup(
			"not measured: the runner template reported no "
			"probe rate (a line 'pandia-stress: I RATE')");
		return;
	}
	probe_estimate_demand(&in, &co->est);
}

/* Whether probe estimate A is better than B: an estimate amplifying
   less, else an estimate, else a lower bound, else known. */
static bool est_better(const struct probe_estimate *a,
		       const struct probe_estimate *b)
{
	if (a->known != b->known)
		return a->known;
	if (a->bound != b->bound)
		return !a->bound;
	if (a->bound)
		return a->value < b->value;
	return a->amplification < b->amplification;
}

/* "an upper bound of 1.2 GB/s" or "0.9 GB/s +- 0.2 (amplification
   5.1)" or "nothing" for E, into buf (returned). */
static const char *est_text(const struct probe_estimate *e, char *buf,
			    size_t size)
{
	if (!e->known)
		snprintf(buf, size, "nothing");
	else if (e->bound)
		snprintf(buf, size, "an upper bound of %.3g GB/s",
			 e->value / 1e9);
	else if (isfinite(e->uncertainty))
		snprintf(buf, size, "%.3g GB/s +- %.2g (amplification %.3g)",
			 e->value / 1e9, e->uncertainty / 1e9,
			 e->amplification);
	else
		snprintf(buf, size, "%.3g GB/s (amplification %.3g)",
			 e->value / 1e9, e->amplification);
	return buf;
}

/*
 * Level LVL's demand in W from its probe runs (FIRST..): the best
 * estimate (est_better), the others' in its status as cross-checks.
 */
static void probe_choose(struct prof *P, int first, int lvl,
			 struct pandia_workload *w)
{
	struct wl_param *d = model_demand(w, WR_L1 + lvl);
	struct prun *best = NULL;
	char *st, buf[96];
	int i;

	for (i = first; i < P->n_runs; i++) {
		struct prun *R = &P->runs[i];

		if (!R->probe || R->level != lvl || !R->est.status)
			continue;
		R->chosen = false;
		if (!best || est_better(&R->est, &best->est))
			best = R;
	}
	if (!best)
		return;
	best->chosen = true;
	st = xstrdup(best->est.status);
	for (i = first; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];
		char *t;

		if (!R->probe || R->level != lvl || R == best ||
		    !R->est.status)
			continue;
		t = xasprintf("%s; cross-check: %s (%d thread%s) gave %s",
			      st, R->id, R->n_cpus, R->n_cpus == 1 ? "" : "s",
			      est_text(&R->est, buf, sizeof(buf)));
		free(st);
		st = t;
	}
	wl_param_release(d);
	model_demand_list(w, WR_L1 + lvl, true);
	d->known = best->est.known;
	d->value = best->est.value;
	d->uncertainty = best->est.uncertainty;
	d->source = best->est.known ? xasprintf("run1,%s", best->id) : NULL;
	d->status = st;
	*model_demand_amplification(w, WR_L1 + lvl) =
		best->est.amplification;
}

/* Every probed level's demand in W from its probe runs (FIRST..). */
static void probe_choose_all(struct prof *P, int first,
			     struct pandia_workload *w)
{
	int lvl;

	for (lvl = LVL_L1; lvl <= LVL_DRAM; lvl++)
		probe_choose(P, first, lvl, w);
}

/* The amplification of probe run R's estimate when it is its level's;
   0 for a bound, none, or another run's. */
static double probe_amp(const struct prun *R)
{
	const struct probe_estimate *e = &R->est;

	return R->chosen && e->known && !e->bound &&
		e->amplification > 0 ? e->amplification : 0;
}

/*
 * Whether another call of probe run R fits in PROBE_BUDGET_SHARE of
 * the profile's budget: the model's runs, made later, keep the rest.
 */
static bool probe_budget_left(const struct prof *P, const struct prun *R)
{
	double call = R->calls ? R->wall / R->calls : P->res->t1;

	if (!(P->budget > 0))
		return true;
	if (!isfinite(call))
		call = 0;
	return now_seconds() - P->start + call <=
		PROBE_BUDGET_SHARE * P->budget;
}

/*
 * The probes of the wide run: enough for WIDE_PROBES times the level's
 * aggregate at one core's rate each, so that they still saturate it.
 */
#define WIDE_PROBES 1.5

/*
 * The wide run of the DRAM level, when run 1's estimate there
 * amplifies noise more than PROBE_AMP_HIGH or is a bound: the
 * workload on run 1's core and as many other cores of its node as
 * leave WIDE_PROBES' probes the rest.  Its threads take k times what
 * run 1 took, so the probes' loss is k times larger against the same
 * noise: the amplification falls about k-fold.  Created, not made;
 * 0 when not planned.
 */
static int plan_wide(struct prof *P, int pu0, int first)
{
	const struct pandia_machine *m = P->m;
	const struct pandia_link *lk = &m->links[LVL_DRAM];
	const struct prun *R1 = NULL;
	const char *why;
	char *lw, *lp;
	struct prun *R;
	int i, n, k, np, *pus, *wl;

	for (i = first; i < P->n_runs; i++)
		if (P->runs[i].probe && P->runs[i].level == LVL_DRAM)
			R1 = &P->runs[i];
	if (!R1 || !R1->est.known ||
	    !(R1->est.bound || R1->est.amplification > PROBE_AMP_HIGH) ||
	    !(lk->per_core_bw > 0) || !probe_budget_left(P, R1))
		return 0;
	n = probe_pus(m, pu0, LVL_DRAM, &pus, &why);
	np = (int)ceil(WIDE_PROBES * lk->aggregate_bw / lk->per_core_bw);
	if (np < 1)
		np = 1;
	k = 1 + n - np;
	if (k < 2) {
		free(pus);
		return 0;
	}
	wl = xcalloc((size_t)k, sizeof(int));
	wl[0] = pu0;
	for (i = 1; i < k; i++)
		wl[i] = pus[i - 1];
	lw = prof_os_list(m, wl, k);
	lp = prof_os_list(m, pus + k - 1, np);
	R = prof_new_run(P, "probe-dram-wide", wl, k, pus + k - 1, np,
			 "bw:dram", xasprintf(
				 "DRAM demand, better conditioned: %d threads "
				 "on PUs %s beside %d DRAM probes on PUs %s",
				 k, lw, np, lp));
	R->probe = true;
	R->level = LVL_DRAM;
	P->total++;
	free(lw);
	free(lp);
	free(wl);
	free(pus);
	return 1;
}

/*
 * More repetitions of the probe runs FIRST.. whose estimates are their
 * level's and amplify their inputs' noise more than PROBE_AMP_HIGH:
 * the one whose amplification over the square root of its repetitions
 * is largest next (the noise of a median shrinks so), up to -r each,
 * while PROBE_BUDGET_SHARE of the budget lasts.  Their spreads then
 * say how noisy the inputs were.  0 or -1 with err.
 */
static int probe_repeat(struct prof *P, int first,
			struct pandia_workload *w)
{
	for (;;) {
		double worst = 0;
		int i, best = -1;

		for (i = first; i < P->n_runs; i++) {
			struct prun *R = &P->runs[i];
			double a = probe_amp(R);

			if (!(a > PROBE_AMP_HIGH) ||
			    R->n_times >= P->o->repetitions ||
			    R->calls >= 2 * P->o->repetitions ||
			    !probe_budget_left(P, R))
				continue;
			a /= sqrt(R->n_times);
			if (a > worst) {
				worst = a;
				best = i;
			}
		}
		if (best < 0)
			return 0;
		if (prof_call_run(P, &P->runs[best]) < 0)
			return -1;
		/* the pooled noise moved: every estimate again */
		for (i = first; i < P->n_runs; i++)
			if (P->runs[i].probe)
				probe_demand(P, &P->runs[i]);
		probe_choose_all(P, first, w);
	}
}

/*
 * The warning of every estimate that amplifies noise too much, unless
 * no placement on this machine could depend on it: threads at the top
 * of its range on every PU that reaches the level would not fill it
 * (its status then says so, after the fit).
 */
static void probe_warn(struct prof *P, int first)
{
	int i;

	for (i = first; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];
		double a = probe_amp(R), u = R->est.uncertainty;

		if (a > PROBE_AMP_HIGH &&
		    machine_level_fills(P->m, R->level, R->est.value +
					(isfinite(u) && u > 0 ? u : 0)))
			prof_warn(P->res, "the %s demand is an estimate that "
				  "amplifies its inputs' noise %.3gx (a 1%% "
				  "error in them is %.3g%% in it; %d "
				  "repetition(s) of %s): its range says so, "
				  "the workload's own runs check it after "
				  "the fit, and hardware counters "
				  "(--counters perf) would measure it",
				  level_name(R->level), a,
				  a, R->n_times, R->id);
	}
}

/* Run 1's runner options, for the counted run of the perf backend. */
static void run1_opts(const struct prof *P, const struct prun *R1,
		      struct run_opts *ro)
{
	run_opts_init(ro);
	ro->cpus = R1->cpus;
	ro->n_cpus = R1->n_cpus;
	ro->stress = R1->stress;
	ro->n_stress = R1->n_stress;
	ro->repetitions = 1;
	ro->warmup = false;
	ro->timeout = P->o->timeout;
	ro->time_from = P->o->time_from;
	ro->runner = P->o->runner;
	ro->machine = P->m;
	ro->shim_path = P->o->shim_path;
	ro->size = R1->size;
	ro->mem = P->o->mem;
}

/* The backend: perf's counted run, or the probe runs. */
int prof_demands(struct prof *P, int pu0, struct pandia_workload *w,
			struct wl_run *ev1)
{
	const struct profile_opts *o = P->o;
	struct counters_result cr;
	struct run_opts ro;
	int rc, ret = -1, first, i, lvl;

	counters_result_init(&cr);
	/* counted demands have no amplification; probed ones set theirs */
	for (i = 0; i < WR_COUNT; i++)
		*model_demand_amplification(w, i) = NAN;
	run1_opts(P, &P->runs[0], &ro);
	rc = counters_demands(o->counters, P->m, &ro, o->argv, "run1", &cr,
			      P->err);
	if (rc == COUNTERS_MEASURED) {
		counters_result_apply(&cr, w, ev1);
		ret = 0;
		goto out;
	}
	if (rc != COUNTERS_UNAVAILABLE) {
		struct pandia_error e = *P->err;

		P->res->interrupted = cr.run.interrupted;
		if (cr.run.stderr_tail)
			P->res->failed_stderr = xstrdup(cr.run.stderr_tail);
		if (cr.run.failed_run >= 0 && !cr.run.interrupted)
			perr_set(P->err, "run 1, counted with perf: %s",
				 e.text);
		goto out;
	}
	free(w->counters);
	w->counters = xstrdup("probe");
	free(w->counters_note);
	if (o->counters == COUNTERS_PROBE) {
		w->counters_note = xstrdup("probe, as asked (--counters "
					   "probe): CPU use from task-clock, "
					   "demands at shared levels from "
					   "co-run bandwidth probes");
	} else {
		w->counters_note = xasprintf("auto: %s; used the probe "
					     "backend instead", cr.why);
		P->res->backend_note = xasprintf("%s (--counters auto: "
						 "using the probe backend)",
						 cr.why);
	}

	first = P->n_runs;
	/* --quick: the DRAM demand only, the one that decides most */
	for (lvl = P->o->quick ? LVL_DRAM : LVL_L1; lvl <= LVL_DRAM; lvl++)
		plan_probe(P, pu0, lvl, w);
	for (i = first; i < P->n_runs; i++)
		if (prof_make_run(P, &P->runs[i]) < 0)
			goto out;
	for (i = first; i < P->n_runs; i++)
		probe_demand(P, &P->runs[i]);
	if (plan_wide(P, pu0, first)) {
		i = P->n_runs - 1;
		if (prof_make_run(P, &P->runs[i]) < 0)
			goto out;
		probe_demand(P, &P->runs[i]);
	}
	probe_choose_all(P, first, w);
	if (probe_repeat(P, first, w) < 0)
		goto out;
	probe_warn(P, first);
	if (P->runs[0].count_cpu && P->runs[0].cpu_wall > 0)
		demand_unknown(w, WR_INSTRUCTIONS, xasprintf(
			"not measured: instructions need hardware counters "
			"(probe backend); run 1 kept %.2f PUs busy (%s)",
			P->runs[0].cpu / P->runs[0].cpu_wall,
			P->runs[0].cpu_method));
	else
		demand_unknown(w, WR_INSTRUCTIONS, xstrdup(
			"not measured: instructions need hardware counters "
			"(probe backend)"));
	ret = 0;
out:
	if (ret == 0 && !model_demand_listed(w, WR_INTERCONNECT))
		demand_unknown(w, WR_INTERCONNECT, xstrdup(
			P->m->n_sockets < 2 ?
			"not measured: this machine has one socket" :
			"not measured: inter-socket traffic is not counted"));
	counters_result_release(&cr);
	return ret;
}

/*
 * The DRAM probes of socket S load its nodes only: under a policy that
 * puts part of run 1's pages elsewhere they see that part of its
 * demand, so the estimate is divided by it (interleave: the socket's
 * share of the nodes with memory).  The perf backend counts all of it.
 */
void prof_scale_probed_dram(struct prof *P, struct pandia_workload *w)
{
	struct wl_param *d = model_demand(w, WR_DRAM);
	const struct pandia_machine *m = P->m;
	const struct prun *R1 = NULL;
	int i, s, on = 0, all = 0;
	double share = 1;
	char *st;

	if (!model_demand_listed(w, WR_DRAM) || !d->known || !d->source ||
	    !strstr(d->source, "probe-dram"))
		return;
	for (i = 0; i < P->n_runs; i++)
		if (P->runs[i].run == 1)
			R1 = &P->runs[i];
	i = R1 ? machine_pu_index(m, R1->cpus[0]) : -1;
	if (i < 0)
		return;
	s = m->cores[m->pus[i].core].socket;
	for (i = 0; i < m->n_numa; i++) {
		bool mem = m->numa[i].memory > 0;

		all += mem;
		on += mem && m->numa[i].socket == s;
	}
	if (w->memory.kind == MEM_INTERLEAVE && all > 0 && on > 0)
		share = (double)on / all;
	else if (w->memory.kind == MEM_NODE)
		for (i = 0; i < m->n_numa; i++)
			if (m->numa[i].os_index == w->memory.node &&
			    m->numa[i].socket != s)
				share = 0;
	if (share == 1)
		return;
	if (!(share > 0)) {
		prof_warn(P->res, "the DRAM probes ran on socket %d, but the "
			  "pages are on node %d: the DRAM demand they gave is "
			  "not the workload's", m->sockets[s].os_index,
			  w->memory.node);
		return;
	}
	d->value /= share;
	if (isfinite(d->uncertainty))
		d->uncertainty /= share;
	st = xasprintf("%s%s(the probes of socket %d saw %.0f%% of it: "
		       "memory %s)", d->status ? d->status : "",
		       d->status ? "; " : "", m->sockets[s].os_index,
		       100 * share, w->memory.kind == MEM_INTERLEAVE ?
		       "interleaved" : "on one node");
	free(d->status);
	d->status = st;
}
