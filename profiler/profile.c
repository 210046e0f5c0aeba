/*
 * profile.c - profiling a command: the plan the model makes, stage by
 * stage, its runs' other repetitions interleaved, and the description
 * written from them (profiler/profile.h, docs/profiling.md).  The
 * parameters are solved by the model's own fit (predictor/models.h).
 * One run and its repetitions are in profile_run.c, the
 * progress lines in profile_progress.c, the demands beside run 1 in
 * profile_demands.c, the description's parts in profile_describe.c
 * and the checks of what it rests on in profile_checks.c.
 */
#include "profiler/profile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "common/util.h"
#include "profiler/profile_internal.h"

/*
 * The probes run alone this long before the command in their co-run
 * (their rate alone, to calibrate; at most t1).
 */
#define PROBE_ALONE_MIN 0.2
#define PROBE_ALONE_MAX 0.4
/*
 * A run gets MIN_REPS repetitions (1 with --quick), and more, up to -r,
 * only while the spread of its repetitions is above SPREAD_MORE and the
 * budget lasts.
 */
#define MIN_REPS 2
#define SPREAD_MORE 0.05

/* ---- profiling a command ------------------------------------------ */

void profile_opts_init(struct profile_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->repetitions = 3;
	o->warmup = true;
	o->counters = COUNTERS_AUTO;
	o->solve = FIT_MODEL;
	o->size = NAN;
	o->degree = -1;
	o->budget = 12;
}

void profile_result_init(struct profile_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t1 = NAN;
}

void profile_result_release(struct profile_result *r)
{
	int i;

	if (!r)
		return;
	workload_free(r->w);
	for (i = 0; i < r->n_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r->backend_note);
	free(r->failed_stderr);
	profile_result_init(r);
}

void prof_warn(struct profile_result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	r->warnings = xrealloc(r->warnings, sizeof(char *) *
			       (size_t)(r->n_warnings + 1));
	r->warnings[r->n_warnings++] = s;
}

/* The model's warnings become the profile's. */
static void model_warn(void *arg, const char *msg)
{
	prof_warn(arg, "%s", msg);
}

/* The run called ID among those made, or NULL. */
static struct prun *run_named(struct prof *P, const char *id)
{
	int i;

	for (i = 0; i < P->n_runs; i++)
		if (!strcmp(P->runs[i].id, id))
			return &P->runs[i];
	return NULL;
}

/* What profiling needs before anything runs.  0, or -1 with err. */
static int check_request(const struct profile_opts *o,
			 struct pandia_error *err)
{
	const struct pandia_machine *m = o->m;

	if (o->repetitions < 1)
		return perr_set(err, "the number of repetitions must be at "
				"least 1");
	if ((!o->argv || !o->argv[0]) && !o->runner)
		return perr_set(err, "no command given");
	if (m->n_sockets < 1 || m->sockets[0].n_cores < 2)
		return perr_set(err, "profiling needs two cores on one "
				"socket; socket 0 of this machine has %d",
				m->n_sockets < 1 ? 0 : m->sockets[0].n_cores);
	return 0;
}

/*
 * This thread's niceness to o->nice, inherited by all it starts.
 * Returns whether it was changed (*old then holds the one to restore).
 */
static bool set_niceness(const struct profile_opts *o,
			 struct profile_result *res, int *old)
{
	if (!o->set_nice)
		return false;
	errno = 0;
	*old = getpriority(PRIO_PROCESS, 0);
	if (setpriority(PRIO_PROCESS, 0, o->nice) < 0) {
		prof_warn(res, "cannot run at niceness %d (%s): profiling "
			  "at %d", o->nice, strerror(errno), *old);
		return false;
	}
	return true;
}

/* Whether the demands will come from perf (for the number of runs). */
static bool perf_expected(const struct profile_opts *o)
{
	bool perf = false, kernel = false;
	char *why = NULL;

	if (o->counters == COUNTERS_PERF)
		perf = true;
	else if (o->counters == COUNTERS_AUTO && !o->runner)
		perf = counters_perf_available(&kernel, &why);
	free(why);
	return perf;
}

/* How many runs the first stage's N (MR) make the profile, for the
   progress lines. */
static void plan_total(struct prof *P, const struct model_def *model,
		       const struct model_env *env,
		       const struct model_run *mr, int n, bool perf)
{
	if (P->total)
		return;
	if (model->runs_total) {
		int pu0 = n ? mr[0].pus[0] : 0;

		P->total = model->runs_total(env);
		if (model->demands && !perf)
			P->total += prof_count_probe_runs(P, pu0);
	} else {
		P->total = n;
	}
}

/* The N runs the model planned (MR), added to P's. */
static void add_planned(struct prof *P, const struct model_run *mr, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct prun *R = prof_new_run(P, mr[i].id, mr[i].pus,
					      mr[i].n, mr[i].corun,
					      mr[i].n_corun,
					      mr[i].corun_kind ?
					      mr[i].corun_kind : "cpu",
					      xstrdup(mr[i].purpose));

		if (!isnan(mr[i].size))
			R->size = mr[i].size;
		R->optional = mr[i].optional;
		R->expect = mr[i].expect;
	}
}

/* The warm-up's roles: for the run they were found for (among the
   last N added). */
static void place_warm_helpers(struct prof *P, int n)
{
	int i;

	for (i = P->n_runs - n; P->warm_helpers && i < P->n_runs; i++) {
		if (!prof_runs_alone(&P->runs[i]) || P->runs[i].n_cpus < 2)
			continue;
		if (P->runs[i].n_cpus != P->helpers_n) {
			free(P->helpers);
			P->helpers = NULL;
		}
		P->warm_helpers = false;
	}
}

/*
 * After the first stage: t1 and the budget from run 1 (P->runs[R1]),
 * and the model's demands, measured beside it.  0 or -1 with err.
 */
static int after_first_stage(struct prof *P, const struct model_def *model,
			     int r1, struct pandia_workload *w,
			     struct wl_run *ev1)
{
	const struct prun *R1 = &P->runs[r1];
	struct profile_result *res = P->res;

	res->t1 = median_known(R1->times, R1->n_times);
	if (P->o->budget > 0)
		P->budget = P->o->budget * res->t1;
	/* one call of run 1 kept for the drift run, which the model's
	   check stage makes last (docs/profiling.md, "Uncertainty") */
	if (P->budget > 0 && model->check_runs && !P->o->no_check &&
	    R1->calls > 0)
		P->reserve = R1->wall / R1->calls;
	if (!model->demands)
		return 0;
	/* the demands, beside the first run */
	/* the probes' rate alone needs no longer */
	P->alone_secs = res->t1 > PROBE_ALONE_MAX ?
		PROBE_ALONE_MAX : res->t1 > PROBE_ALONE_MIN ?
		res->t1 : PROBE_ALONE_MIN;
	return prof_demands(P, machine_pu_index(P->m, R1->cpus[0]), w, ev1);
}

/*
 * The model's runs, stage by stage: one repetition of each as it
 * comes (the next stage may depend on it), the demands measured
 * beside the first run (one thread alone).  *first gets the index of
 * the model's first run (-1: none).  0 or -1 with err.
 */
static int run_stages(struct prof *P, const struct model_def *model,
		      const struct model_env *env, struct pandia_workload *w,
		      struct wl_run *ev1, bool perf, int *first)
{
	int stage, i;

	*first = -1;
	for (stage = 0;; stage++) {
		struct model_run *mr = NULL;
		int n;

		prof_sync_runs(P, w);
		n = model->plan(env, w, &mr, P->err);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		if (*first < 0)
			*first = P->n_runs;
		plan_total(P, model, env, mr, n, perf);
		add_planned(P, mr, n);
		model_runs_free(mr, n);
		place_warm_helpers(P, n);
		if (stage > 0)
			P->total = P->n_runs;
		for (i = P->n_runs - n; i < P->n_runs; i++)
			if (prof_call_run(P, &P->runs[i]) < 0)
				return -1;
		if (stage == 0 &&
		    after_first_stage(P, model, *first, w, ev1) < 0)
			return -1;
	}
	return 0;
}

/*
 * The other repetitions of the model's runs (from FIRST on), round by
 * round: a repetition of every run that needs one, so the runs'
 * repetitions interleave (ABAB...) and a slow drift of the machine, or
 * a burst of other activity, hits them all alike.  A run needs
 * MIN_REPS; then one more, up to -r, while its repetitions spread more
 * than SPREAD_MORE and the budget lasts.  0 or -1 with err.
 */
static int repeat_rounds(struct prof *P, int first)
{
	const struct profile_opts *o = P->o;
	int x, rep;

	do {
		rep = 0;
		for (x = first; x >= 0 && x < P->n_runs; x++) {
			struct prun *R = &P->runs[x];
			double sp;

			if (R->probe ||
			    R->n_times >= o->repetitions)
				continue;
			sp = R->n_times > 1 ? 2 * half_range_of(R->times,
				R->n_times) / median_known(R->times,
				R->n_times) : 0;
			/* runs 4 on (l, b and the forms) get their second
			   repetition only while the budget lasts */
			if (prof_second_waits(P, R) && R->n_times >= 1 &&
			    R->n_times < P->min_reps &&
			    !prof_budget_left(P, R))
				continue;
			if (R->n_times >= P->min_reps &&
			    (!(sp > SPREAD_MORE) || !prof_budget_left(P, R)))
				continue;
			rep++;
			if (prof_call_run(P, R) < 0)
				return -1;
		}
	} while (rep);
	return 0;
}

/*
 * The model's check runs (model_def's check_runs), after every run's
 * repetitions: planned from the fit so far, each made only while the
 * budget lasts (the rest dropped, and said), then repeated as the
 * optional runs are.  0 or -1 with err.
 */
static int check_stage(struct prof *P, const struct model_def *model,
		       struct model_env *env, struct pandia_workload *w)
{
	struct model_run *mr = NULL;
	int n, i, first = P->n_runs, nw = P->res->n_warnings, ret = -1;

	if (!model->check_runs || env->no_check)
		return 0;
	prof_sync_runs(P, w);
	/* where the pages are, for the fit (set again, and said, later) */
	prof_set_memory(P, w);
	while (P->res->n_warnings > nw)
		free(P->res->warnings[--P->res->n_warnings]);
	env->checking = true;
	n = model->plan(env, w, &mr, P->err);
	env->checking = false;
	if (n <= 0)
		return n;
	P->total = P->n_runs + n;
	for (i = 0; i < n; i++) {
		double call = mr[i].expect > 0 ? mr[i].expect : P->res->t1;

		/* the reserve is the quiet run's (the drift's), made last */
		if (mr[i].quiet)
			P->reserve = 0;
		if (P->budget > 0 && now_seconds() - P->start + call >
		    P->budget - P->reserve) {
			if (!mr[i].quiet)
				prof_warn(P->res, "%s dropped: the budget of "
					  "%g x t1 is spent (%s)", mr[i].id,
					  P->o->budget, mr[i].purpose);
			P->total--;
			continue;
		}
		add_planned(P, &mr[i], 1);
		if (prof_call_run(P, &P->runs[P->n_runs - 1]) < 0)
			goto out;
	}
	ret = repeat_rounds(P, first);
out:
	model_runs_free(mr, n);
	return ret;
}

/* w->note: how the profile was made. */
static void write_note(const struct prof *P, const struct model_def *model,
		       const struct model_env *env, struct pandia_workload *w)
{
	const struct profile_opts *o = P->o;
	const struct profile_result *res = P->res;

	w->note = xasprintf(
		"profiled in %.1f s (%.1f x t1): %d runs of %d to %d "
		"repetitions (median kept)%s, the repetitions of the model's "
		"runs interleaved; parameters of the %s model %s%s%s",
		res->seconds, res->seconds / res->t1, P->n_runs,
		P->min_reps, o->repetitions,
		o->warmup ? " after one warm-up run" : "",
		model->name,
		model->fit_note ? model->fit_note(env) : "by its fit",
		o->runner ? "; runner template: " : "",
		o->runner ? o->runner : "");
}

/*
 * The description from the runs made: every run as evidence (run 1,
 * P->runs[R1], with the counters' evidence EV1), the memory, then the
 * model's fit, the checks of what it rests on and the note.  0 or -1
 * with err.
 */
static int describe(struct prof *P, const struct model_def *model,
		    const struct model_env *env, int r1,
		    struct pandia_workload *w, const struct wl_run *ev1)
{
	const struct profile_opts *o = P->o;
	struct profile_result *res = P->res;
	struct pandia_error *err = P->err;
	struct prun *R1 = r1 >= 0 ? &P->runs[r1] : NULL, *R2;
	int i;

	res->t1 = R1 ? median_known(R1->times, R1->n_times) : NAN;
	prof_sync_runs(P, w);
	prof_set_memory(P, w);
	prof_scale_probed_dram(P, w);
	for (i = 0; R1 && i < ev1->n_counters; i++)
		wl_run_add_counter(&w->runs[r1], ev1->counter_names[i],
			    ev1->counter_values[i]);
	if (model->fit(env, w, err) < 0)
		return -1;
	R2 = run_named(P, "run2");
	/* a run 2 of more threads than run 1 (the MVA model's run 2 is
	   run 1 beside stressors: a single-threaded command is right) */
	if (R1 && R2 && R2->n_cpus > R1->n_cpus)
		prof_check_threads(P, R1, R2);
	prof_check_spread(P);
	res->seconds = now_seconds() - P->start;
	if (prof_unreliable(P, model, env, w, err) < 0) {
		if (!o->keep_unreliable)
			return -1;
		/* --keep-unreliable: written, marked, and said */
		w->unreliable = xstrdup(err->text);
		prof_warn(res, "%s", err->text);
		perr_clear(err);
	}
	write_note(P, model, env, w);
	if (workload_check(w, err) < 0) {
		struct pandia_error e = *err;

		return perr_set(err, "internal error: the description is "
				"not valid: %s", e.text);
	}
	return 0;
}

int profile_workload(const struct profile_opts *o, struct profile_result *res,
		     struct pandia_error *err)
{
	const struct pandia_machine *m = o->m;
	const struct model_def *model = o->model ? o->model : model_default();
	struct model_env env = {
		.m = m, .paper = o->solve == FIT_PAPER, .warn = model_warn,
		.warn_arg = res, .sizes = o->sizes, .n_sizes = o->n_sizes,
		.threads = o->threads, .n_threads = o->n_threads,
		.degree = o->degree, .quick = o->quick,
		.no_check = o->no_check, .serial = o->serial,
	};
	struct prof P;
	struct pandia_workload *w = NULL;
	struct wl_run ev1;
	int first = -1, i, ret = -1;
	bool perf, niced = false;
	int old_nice = 0;

	memset(&P, 0, sizeof(P));
	memset(&ev1, 0, sizeof(ev1));
	P.o = o;
	P.res = res;
	P.err = err;
	P.m = m;
	P.start = now_seconds();
	P.numbered = model->numbered_runs;
	P.min_reps = o->fixed_reps ? o->repetitions : o->quick ? 1 : MIN_REPS;
	if (P.min_reps > o->repetitions)
		P.min_reps = o->repetitions;
	perr_clear(err);
	if (check_request(o, err) < 0)
		goto out;
	w = workload_new();
	prof_identity(&P, w);
	if (!isnan(o->size)) {
		w->has_size = true;
		w->size = o->size;
	}
	niced = set_niceness(o, res, &old_nice);
	perf = perf_expected(o);

	/*
	 * The model's runs, stage by stage, then the other repetitions of
	 * every run interleaved, so that a burst of other activity does
	 * not fall on one run.
	 */
	if (prof_warm_up(&P, model, &env) < 0 ||
	    run_stages(&P, model, &env, w, &ev1, perf, &first) < 0 ||
	    repeat_rounds(&P, first) < 0 ||
	    check_stage(&P, model, &env, w) < 0)
		goto out;
	if (describe(&P, model, &env, first, w, &ev1) < 0)
		goto out;
	res->w = w;
	w = NULL;
	ret = 0;
out:
	workload_free(w);
	for (i = 0; i < ev1.n_counters; i++)
		free(ev1.counter_names[i]);
	free(ev1.counter_names);
	free(ev1.counter_values);
	for (i = 0; i < P.n_runs; i++)
		prof_run_release(&P.runs[i]);
	free(P.runs);
	free(P.helpers);
	if (niced)
		setpriority(PRIO_PROCESS, 0, old_nice);
	return ret;
}
