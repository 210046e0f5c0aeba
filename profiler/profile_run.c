/*
 * profile_run.c - one run of the profile and its repetitions: a run
 * made from the model's placement (the command's PUs, a co-runner or
 * probes, loops on idle cores), each call of it through the runner,
 * what a call is kept for (its time, probe rates, threads, pages)
 * or why it is made again (disturbed by other processes), and the
 * profile's one warm-up.
 */
#include "profiler/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"
#include "profiler/profile_internal.h"

/*
 * A repetition during which other processes (or the hypervisor) took
 * more than this share of the time of the PUs it used is disturbed:
 * it is made again, up to as many times as there are repetitions.
 */
#define DISTURBED 0.1

/* Room for the runs first made, grown as needed (the seven runs of the
   Pandia model and eight more). */
#define FIRST_RUNS 15

void prof_run_release(struct prun *R)
{
	int i;

	free(R->id);
	free(R->purpose);
	free(R->cpus);
	for (i = 0; i < R->n_stress; i++) {
		free(R->spec[i]);
		run_stressor_release(&R->stress[i]);
	}
	free(R->times);
	free(R->rates);
	free(R->alone);
	free(R->after);
	free(R->numa_maps);
	free(R->helpers);
	free(R->est.status);
}

/* Whether another call of R fits in the profile's budget. */
bool prof_budget_left(const struct prof *P, const struct prun *R)
{
	double call = R->calls ? R->wall / R->calls :
		R->expect > 0 ? R->expect : P->res->t1;

	if (!(P->budget > 0))
		return true;
	if (!isfinite(call))
		call = 0;
	return now_seconds() - P->start + call <= P->budget - P->reserve;
}

bool prof_second_waits(const struct prof *P, const struct prun *R)
{
	return !P->o->fixed_reps && (R->run >= 4 || R->optional);
}

char *prof_os_list(const struct pandia_machine *m, const int *pus, int n)
{
	int *v = xmalloc(sizeof(int) * (size_t)(n ? n : 1)), i;
	char *s;

	for (i = 0; i < n; i++)
		v[i] = m->pus[pus[i]].os_index;
	s = cpulist_format(v, n);
	free(v);
	return s;
}

/* Add stressor TEXT ("cpu@1,2") to R.  0 or -1 with err. */
static int add_stress(struct prof *P, struct prun *R, char *text)
{
	struct pandia_error e;

	if (run_stressor_parse(text, &R->stress[R->n_stress], &e) < 0) {
		perr_set(P->err, "internal error: stressor '%s': %s", text,
			 e.text);
		free(text);
		return -1;
	}
	R->spec[R->n_stress++] = text;
	return 0;
}

/*
 * A new run called ID ("runN" ids are the model's numbered runs): PUS
 * (m->pus indexes) for the command, CORUN PUs for the co-runner or
 * probe of KIND ("cpu", "bw:dram"), and with --busy-idle a core-local
 * loop on the first PU of every core left idle.
 */
struct prun *prof_new_run(struct prof *P, const char *id,
				 const int *pus, int n, const int *corun,
				 int n_corun, const char *kind, char *purpose)
{
	const struct pandia_machine *m = P->m;
	struct prun *R;
	bool *busy = xcalloc((size_t)m->n_cores + 1, sizeof(bool));
	int *idle = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	int i, n_idle = 0;

	if (P->n_runs == P->cap) {
		P->cap = P->cap ? 2 * P->cap : FIRST_RUNS;
		P->runs = xrealloc(P->runs, sizeof(*P->runs) *
				   (size_t)P->cap);
	}
	R = &P->runs[P->n_runs++];
	memset(R, 0, sizeof(*R));
	R->size = P->o->size;	/* a model's run may ask for its own */
	R->id = xstrdup(id);
	R->run = strncmp(id, "run", 3) ? 0 : atoi(id + 3);
	R->level = -1;
	R->threads_created = -1;
	R->n_cpus = n;
	R->cpus = xmalloc(sizeof(int) * (size_t)n);
	for (i = 0; i < n; i++) {
		R->cpus[i] = m->pus[pus[i]].os_index;
		busy[m->pus[pus[i]].core] = true;
	}
	for (i = 0; i < n_corun; i++)
		busy[m->pus[corun[i]].core] = true;
	if (n_corun > 0) {
		char *l = prof_os_list(m, corun, n_corun);

		add_stress(P, R, xasprintf("%s@%s", kind, l));
		free(l);
	}
	if (P->o->busy_idle) {
		for (i = 0; i < m->n_cores; i++)
			if (!busy[i] && m->cores[i].n_pus > 0)
				idle[n_idle++] = m->cores[i].pus[0];
		if (n_idle) {
			char *l = prof_os_list(m, idle, n_idle), *np;

			add_stress(P, R, xasprintf("cpu@%s", l));
			np = xasprintf("%s; core-local loops on the idle "
				       "cores' PUs %s", purpose, l);
			free(purpose);
			purpose = np;
			free(l);
		}
	}
	R->purpose = purpose;
	/* CPU use means something only for the command alone, here */
	R->count_cpu = !P->o->runner && R->n_stress == 0;
	free(busy);
	free(idle);
	return R;
}

static const char *run_label(const struct prof *P, const struct prun *R,
			     char *buf, size_t size)
{
	if (R->warmup_only)
		snprintf(buf, size, "the warm-up, at the placement of %s "
			 "(%s)", R->id, R->purpose);
	else if (R->run && R->run <= P->numbered)
		snprintf(buf, size, "run %d of %d (%s)", R->run, P->numbered,
			 R->purpose);
	else if (R->run && P->numbered)
		snprintf(buf, size, "run %d (%s)", R->run, R->purpose);
	else if (R->probe)
		snprintf(buf, size, "probe run '%s' (%s)", R->id, R->purpose);
	else
		snprintf(buf, size, "run '%s' (%s)", R->id, R->purpose);
	return buf;
}

/* The OS PUs R keeps busy: the command's and the stressors'.  *n
   gets their count; a new array. */
static int *busy_pus(const struct prun *R, int *n)
{
	int *v = xcalloc((size_t)R->n_cpus + 1 + 2 * 4096, sizeof(int));
	int i, j;

	*n = 0;
	for (i = 0; i < R->n_cpus; i++)
		v[(*n)++] = R->cpus[i];
	for (i = 0; i < R->n_stress; i++)
		for (j = 0; j < R->stress[i].n_pus && *n < R->n_cpus + 8192;
		     j++)
			v[(*n)++] = R->stress[i].pus[j];
	return v;
}

/* One thread on each listed PU and nothing beside: run-queue wait is
   then disturbance, not the placement's own time sharing. */
bool prof_runs_alone(const struct prun *R)
{
	int i, j;

	if (R->n_stress)
		return false;
	for (i = 0; i < R->n_cpus; i++)
		for (j = 0; j < i; j++)
			if (R->cpus[i] == R->cpus[j])
				return false;
	return true;
}

/*
 * The runner's message without its own count of runs ("run 1 of 1: ",
 * "the warm-up run: "): each call makes one, the caller says which.
 */
static const char *runner_text(const char *text)
{
	static const char *const prefix[] = {
		"run 1 of 1", "the warm-up run"
	};
	size_t k, n;

	for (k = 0; k < ARRAY_SIZE(prefix); k++) {
		n = strlen(prefix[k]);
		if (!strncmp(text, prefix[k], n)) {
			text += n;
			while (*text == ':' || *text == ' ')
				text++;
			break;
		}
	}
	return text;
}

/*
 * The roles found by another run of the command with as many threads
 * as R (R's twin: run 1 for a probe beside it), or NULL.
 */
static const char *helpers_of_twin(const struct prof *P,
				   const struct prun *R)
{
	int i;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *T = &P->runs[i];

		if (T != R && T->helpers &&
		    T->n_cpus == R->n_cpus)
			return T->helpers;
	}
	return NULL;
}

/* The runner's options for one call of R. */
static void call_opts(const struct prof *P, const struct prun *R,
		      struct run_opts *ro)
{
	const struct profile_opts *o = P->o;

	run_opts_init(ro);
	ro->cpus = R->cpus;
	ro->n_cpus = R->n_cpus;
	ro->stress = R->stress;
	ro->n_stress = R->n_stress;
	ro->repetitions = R->warmup_only ? 0 : 1;
	/* one warm-up for the whole profile: later runs are warm */
	ro->warmup = R->warmup_only || (o->warmup && !P->warmed);
	/* the probes' rate alone, just before the command beside them
	   and just after it */
	ro->stress_alone = R->probe && !o->runner ? P->alone_secs : 0;
	ro->timeout = o->timeout;
	ro->time_from = o->time_from;
	ro->runner = o->runner;
	ro->machine = P->m;
	ro->shim_path = o->shim_path;
	ro->size = R->size;
	/* the helpers the warm-up or run 2 found (below), else the
	   run's own, else those of a run with as many threads: no run
	   made only to find them again */
	ro->helpers = P->helpers ? P->helpers : R->helpers ? R->helpers :
		      helpers_of_twin(P, R);
	ro->mem = o->mem;
	/* where the pages are: run 3, over two sockets, and the check
	   runs (one uneven over the sockets tells spread from even
	   pages: profile_pages.c); a template's program writes
	   {numa_maps}, here with two nodes or more */
	ro->numa_maps = (R->run == 3 || R->optional) && !o->has_memory &&
		(o->runner || P->m->n_numa > 1);
}

/*
 * After a call made without a runner template (RR NULL when it
 * failed): R's CPU use, and its worst disturbance; *dd gets this
 * call's.
 */
static void call_account(struct prun *R, struct probe_disturb *pd,
			 const int *busy, int n_busy,
			 const struct run_result *rr,
			 struct probe_disturbance *dd)
{
	double cpu = 0, w = 0;
	int i;

	probe_disturb_end(pd, busy, n_busy, rr, prof_runs_alone(R), dd);
	cpu = pd->cpu_seconds;
	w = pd->wall_seconds;
	if (R->count_cpu) {
		R->cpu += cpu;
		R->cpu_wall += w;
		R->cpu_method = pd->cpu.method;
		/* what the times cover of that wall time (all of it but
		   the start and the end, without --time-from) */
		for (i = 0; rr && i < rr->n_times; i++)
			R->cpu_timed += rr->times[i];
		if (rr && isfinite(rr->warmup_time))
			R->cpu_timed += rr->warmup_time;
	}
	if (dd->share > R->worst.share)
		R->worst = *dd;
}

/* A failed call of R: err says which and how, res keeps its stderr. */
static void call_failed(struct prof *P, const struct prun *R,
			const struct run_result *rr,
			const struct pandia_error *e)
{
	const struct profile_opts *o = P->o;
	char label[600], rep[64];

	run_label(P, R, label, sizeof(label));
	if (R->warmup_only)
		rep[0] = 0;
	else if (rr->failed_run == 0)
		snprintf(rep, sizeof(rep), ", warm-up");
	else
		snprintf(rep, sizeof(rep), ", repetition %d of %d",
			 R->n_times + 1, o->repetitions);
	P->res->interrupted = rr->interrupted;
	if (rr->stderr_tail)
		P->res->failed_stderr = xstrdup(rr->stderr_tail);
	if (rr->interrupted)
		perr_set(P->err, "%s", e->text);
	else if (rr->failed_run < 0 || rr->exit_status < 0) {
		if (rr->timed_out)
			perr_set(P->err, "%s%s: the command timed "
				 "out after %g s", label, rep,
				 o->timeout);
		else if (rr->term_signal)
			perr_set(P->err, "%s%s: the command was "
				 "killed by signal %d (%s)", label,
				 rep, rr->term_signal,
				 strsignal(rr->term_signal));
		else
			perr_set(P->err, "%s%s: %s", label, rep,
				 runner_text(e->text));
	} else if (rr->exit_status > 0) {
		perr_set(P->err, "%s%s: the command exited with "
			 "status %d", label, rep, rr->exit_status);
	} else {
		perr_set(P->err, "%s%s: %s", label, rep,
			 runner_text(e->text));
	}
}

/*
 * Whether a measured repetition of R that others disturbed (DD) is to
 * be made again, later, instead of kept; one kept is counted so.
 */
static bool redo_disturbed(const struct prof *P, struct prun *R,
			   const struct probe_disturbance *dd)
{
	if (!(dd->share > DISTURBED))
		return false;
	if (R->redone < P->o->repetitions && prof_budget_left(P, R)) {
		/* others took its PUs: make it again, later */
		R->redone++;
		R->again = true;
		return true;
	}
	R->disturbed++;
	if (dd->share > R->foreign)
		R->foreign = dd->share;
	return false;
}

/* Keep RR's time (and a probe run's probe rates) as R's next one. */
static void keep_time(struct prun *R, const struct run_result *rr)
{
	int i;

	R->times = xrealloc(R->times, sizeof(double) *
			    (size_t)(R->n_times + 1));
	R->times[R->n_times] = rr->times[0];
	if (R->probe) {
		double sum = 0, alone = 0, after = 0;

		for (i = 0; i < rr->n_stress; i++)
			if (!strcmp(rr->stress[i].spec, R->spec[0])) {
				sum += rr->stress[i].rates[0];
				alone += rr->stress[i].alone[0];
				after += rr->stress[i].after[0];
			}
		R->rates = xrealloc(R->rates, sizeof(double) *
				    (size_t)(R->n_times + 1));
		R->rates[R->n_times] = sum;
		R->alone = xrealloc(R->alone, sizeof(double) *
				    (size_t)(R->n_times + 1));
		R->alone[R->n_times] = alone;
		R->after = xrealloc(R->after, sizeof(double) *
				    (size_t)(R->n_times + 1));
		R->after[R->n_times] = after;
	}
	R->n_times++;
}

/*
 * Keep the accounting of RR's call in R: where its pages were (taken
 * from rr), its threads and processes, helpers and busiest threads.
 */
static void keep_accounting(struct prun *R, struct run_result *rr)
{
	int i;

	if (rr->numa_maps) {
		free(R->numa_maps);
		R->numa_maps = rr->numa_maps;
		rr->numa_maps = NULL;
	}
	R->threads_created = rr->threads_created;
	R->processes = rr->processes;
	R->unpinned = rr->unpinned;
	R->unpinned_narrow = rr->unpinned_narrow;
	memcpy(R->unpinned_name, rr->unpinned_name, sizeof(R->unpinned_name));
	if (!R->helpers)	/* none found (no library): none given */
		R->helpers = xstrdup(rr->helpers ? rr->helpers : "");
	R->threads = rr->n_threads;
	R->most_workers = rr->most_workers;
	R->busiest[0] = R->busiest[1] = 0;
	for (i = 0; i < rr->n_threads; i++) {
		double v = rr->threads[i].cpu_time;

		if (!(v > R->busiest[1]))
			continue;
		R->busiest[1] = v > R->busiest[0] ? R->busiest[0] : v;
		if (v > R->busiest[0])
			R->busiest[0] = v;
	}
}

/* Make one measured repetition of R (after its warm-up, the first time). */
int prof_call_run(struct prof *P, struct prun *R)
{
	const struct profile_opts *o = P->o;
	struct run_opts ro;
	struct run_result rr;
	struct pandia_error e;
	struct probe_disturb pd;
	struct probe_disturbance dd = { 0, 0, 0, 0 };
	double t0;
	int ret = -1, rc, *busy = NULL, n_busy = 0;

	prof_progress(P, R, R->warmup_only ? 0 : R->n_times + 1);
	R->again = false;
	call_opts(P, R, &ro);
	run_result_init(&rr);
	if (!o->runner) {
		busy = busy_pus(R, &n_busy);
		probe_disturb_begin(&pd);
	}
	t0 = now_seconds();
	rc = run_execute(&ro, o->argv, &rr, &e);
	R->wall += now_seconds() - t0;
	R->calls++;
	if (!o->runner)
		call_account(R, &pd, busy, n_busy, rc < 0 ? NULL : &rr, &dd);
	if (rc < 0) {
		call_failed(P, R, &rr, &e);
		goto out;
	}
	R->warmed = true;
	if (ro.warmup)
		P->warmed = true;
	/*
	 * The roles (workers, helpers) found by the first run with one
	 * thread on each of several PUs (run 2) serve every later run:
	 * one discovery run, not one per placement.  Run 1's, on one PU,
	 * would tell apart only what time-shares it.
	 */
	if (!P->helpers && rr.helpers && prof_runs_alone(R) && R->n_cpus > 1) {
		P->helpers = xstrdup(rr.helpers);
		P->helpers_n = R->n_cpus;
	}
	if (!R->warmup_only && !redo_disturbed(P, R, &dd)) {
		keep_time(R, &rr);
		keep_accounting(R, &rr);
	}
	ret = 0;
out:
	free(busy);
	run_result_release(&rr);
	return ret;
}

/*
 * A probe run's repetitions, one after the other: one (the probes'
 * rates beside run 1 are averaged over the whole run), made again
 * while disturbed, as every run is.  profile_demands.c repeats those
 * whose estimate amplifies noise.
 */
int prof_make_run(struct prof *P, struct prun *R)
{
	int calls = 0;

	while (R->n_times < 1 && calls++ <= P->o->repetitions)
		if (prof_call_run(P, R) < 0)
			return -1;
	if (R->n_times < 1)
		return perr_set(P->err, "%s: every repetition was disturbed",
				R->id);
	return 0;
}

/*
 * The profile's one warm-up where the model places it (the Pandia
 * model: run 2's placement), before any run: not timed, and its roles
 * serve the later runs with as many threads.  0 (also when the model
 * names no place: the first run's first call is the warm-up) or -1.
 */
int prof_warm_up(struct prof *P, const struct model_def *model,
			const struct model_env *env)
{
	struct model_run *mr;
	struct prun W;
	int rc;

	if (!P->o->warmup || !model->warmup)
		return 0;
	mr = xcalloc(1, sizeof(*mr));
	rc = model->warmup(env, mr, P->err);
	if (rc <= 0) {
		model_runs_free(mr, 1);
		return rc;
	}
	prof_new_run(P, mr->id, mr->pus, mr->n, NULL, 0, "cpu",
		     xstrdup(mr->purpose));
	model_runs_free(mr, 1);
	W = P->runs[--P->n_runs];	/* not one of the profile's runs */
	W.warmup_only = true;
	rc = prof_call_run(P, &W);
	P->warm_helpers = P->helpers != NULL;
	prof_run_release(&W);
	return rc;
}
