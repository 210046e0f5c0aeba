/*
 * validate_run.c - pandia validate: one run of one row (a placement),
 * measured again once when others disturbed it, and the order the rows
 * run in.  validate runs every row once per round, -r rounds, so that
 * a host whose speed moves moves every placement alike; tune runs its
 * candidates round robin the same way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/validate.h"
#include "common/util.h"
#include "predictor/validate.h"
#include "profiler/probe.h"
#include "profiler/run.h"

/* The last non-empty line of TAIL (new string), or NULL. */
static char *last_line(const char *tail)
{
	const char *end, *start;

	if (!tail)
		return NULL;
	end = tail + strlen(tail);
	while (end > tail && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	if (end == tail)
		return NULL;
	for (start = end; start > tail && start[-1] != '\n'; start--)
		;
	return xasprintf("%.*s", (int)(end - start), start);
}

/* Whether the N PUs of OS are all different. */
static bool distinct_pus(const int *os, int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (os[i] == os[j])
				return false;
	return true;
}

/* The options of one run of row rw on the PUs os, after a warm-up or
   not. */
static void row_opts(const struct vctx *x, const struct vrow *rw,
		     const int *os, bool warmup, struct run_opts *ro)
{
	run_opts_init(ro);
	ro->cpus = os;
	ro->n_cpus = rw->n;
	ro->repetitions = 1;
	ro->warmup = warmup;
	ro->timeout = x->o->timeout;
	ro->time_from = x->o->time_from;
	ro->pin = rw->pinned ? RUN_PIN_SHIM : RUN_PIN_NONE;
	ro->shim_path = x->shim;
	ro->machine = x->m;
	ro->runner = x->o->runner;
	ro->mem = &x->o->mem;
}

/*
 * One run of row rw into *r.  As the profile does: a run others
 * disturbed (they took more than 10% of its PUs' time, or its threads
 * each on a PU of its own waited that long for a CPU) is made again
 * once, and the less disturbed one is kept, its disturbance in
 * *disturbed.  Through a runner template (a simulation, srun, a remote
 * host) this host's load says nothing of the run's: one run, counted
 * undisturbed, as the profile counts it.  Returns whether the run kept
 * failed.
 */
static bool row_measure(const struct vctx *x, const struct vrow *rw,
			const int *os, const struct run_opts *ro,
			struct run_result *r, double *disturbed,
			struct pandia_error *err, const char *where)
{
	struct run_opts ro2 = *ro;
	bool failed = false;
	char dtext[160], *found = NULL;
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		struct probe_disturb pd;
		struct probe_disturbance dd = { 0 };
		struct run_result again;
		int rc;

		run_result_init(&again);
		if (!ro->runner)
			probe_disturb_begin(&pd);
		rc = run_execute(&ro2, x->o->argv, &again, err);
		/* the roles the first attempt found serve the second,
		   and its warm-up warmed the command for it */
		if (rc == 0 && !ro2.helpers && again.helpers)
			ro2.helpers = found = xstrdup(again.helpers);
		ro2.warmup = false;
		if (!ro->runner)
			probe_disturb_end(&pd, os, rw->n,
					  rc < 0 ? NULL : &again,
					  rw->pinned && distinct_pus(os, rw->n),
					  &dd);
		if (rc < 0 || attempt == 0 || dd.share < *disturbed) {
			run_result_release(r);
			*r = again;
			*disturbed = dd.share;
			failed = rc < 0;
		} else {
			run_result_release(&again);
		}
		if (failed || *disturbed <= 0.1 || attempt == 1)
			break;
		if (!x->o->quiet)
			progress("validate", "%s: disturbed (%s): measuring "
				 "it again", where, probe_disturbance_text(
					 &dd, dtext, sizeof(dtext)));
	}
	free(found);
	return failed;
}

/* Row rw failed: why, kept in the row and said. */
static void row_failed(struct vrow *rw, const struct run_result *r,
		       const struct pandia_error *err)
{
	char *tl = last_line(r->stderr_tail);

	rw->state = VROW_FAILED;
	rw->error = tl ? xasprintf("%s: %s", err->text, tl) :
		xstrdup(err->text);
	free(tl);
	error("placement %s%s (%d threads) failed: %s", rw->pinned ? "" :
	      "unpinned, ", rw->cpus, rw->n, err->text);
	show_stderr_tail(r->stderr_tail);
	error("going on with the other "
		"placements");
}

/*
 * One run of row rw measured, disturbed that much: its time added to
 * the row's, the row's median, least and most anew, and a warning,
 * once per validation, of a run whose threads were not pinned as
 * planned.
 */
static void row_record(struct vctx *x, struct vrow *rw,
		       const struct run_result *r, double disturbed)
{
	double t = r->times[r->n_times - 1];
	int j;

	rw->state = VROW_OK;
	rw->times = xrealloc(rw->times, sizeof(double) *
			     (size_t)(rw->reps + 1));
	rw->times[rw->reps++] = t;
	rw->measured = median_of(rw->times, rw->reps);
	rw->min = rw->max = t;
	for (j = 0; j < rw->reps; j++) {
		rw->min = fmin(rw->min, rw->times[j]);
		rw->max = fmax(rw->max, rw->times[j]);
	}
	rw->seconds += t;
	rw->disturbed = fmax(rw->disturbed, disturbed);
	if (rw->pinned && r->threads_created < 0 && !x->warned_shim) {
		warning("the command did not load "
			"libpandia-pin.so (a static or setuid binary?): its "
			"threads were not pinned one by one");
		x->warned_shim = true;
	}
	if (rw->pinned && r->unpinned && !x->warned_unpinned) {
		char *u = run_unpinned_text(r->unpinned, r->unpinned_name);

		warning("at %s, %s ran %s, not one by one", rw->cpus, u,
			r->unpinned_narrow ? "where the program that started "
			"them was pinned" : "on the placement's PUs as a set");
		free(u);
		x->warned_unpinned = true;
	}
	if (rw->pinned && r->misplaced && !x->warned_misplaced) {
		warning("at %s, %d thread%s not "
			"where planned: the program may set its own "
			"affinity", rw->cpus, r->misplaced,
			r->misplaced == 1 ? " was" : "s were");
		x->warned_misplaced = true;
	}
	if (rw->pinned && r->threads_created >= 0 && r->n_threads < rw->n &&
	    !x->warned_threads) {
		warning("at %s the command ran %d "
			"thread%s for a placement of %d: does it take its "
			"thread count from {threads}, OMP_NUM_THREADS or "
			"PANDIA_THREADS?", rw->cpus, r->n_threads,
			r->n_threads == 1 ? "" : "s", rw->n);
		x->warned_threads = true;
	}
}

/*
 * What the progress lines of a run of row rw name it by (new string):
 * "round 2 of 3, 4/6: unpinned, 0,1", the round where validate runs
 * more than one, "unpinned, " where the OS places the threads.
 */
static char *run_where(const struct vctx *x, const struct vrow *rw,
		       int round, int k, int total)
{
	char rt[40];

	return xasprintf("%s%d/%d: %s%s", round_text(round, x->o->reps, rt,
			 sizeof(rt)), k, total, rw->pinned ? "" : "unpinned, ",
			 rw->cpus);
}

/*
 * The progress line of a run of row rw, the k-th of total in its
 * round: the run's time, and in the last round the row's median and
 * spread against the prediction.
 */
static void row_progress(const struct vctx *x, const struct vrow *rw,
			 const char *where, int round, int k, int total)
{
	double el = now_seconds() - x->t0;
	int done = round * total + k, all = x->o->reps * total;
	char disturbed[48] = "";

	if (rw->disturbed > 0.1)
		snprintf(disturbed, sizeof(disturbed), ", disturbed %.0f%%",
			 100 * rw->disturbed);
	if (round + 1 < x->o->reps)
		fprintf(stderr, "pandia validate: %s: %.4g s", where,
			rw->times[rw->reps - 1]);
	else
		fprintf(stderr, "pandia validate: %s: measured %.4g s "
			"(spread %.1f%%%s), predicted %.4g s, error %+.1f%%",
			where, rw->measured,
			100 * (rw->max - rw->min) / rw->measured, disturbed,
			rw->predicted, 100 * (rw->predicted - rw->measured) /
			rw->measured);
	if (done < all)
		fprintf(stderr, "; about %.0f s left", el / done *
			(all - done));
	fputc('\n', stderr);
}

int validate_run_row(struct vctx *x, int i, int round, int k, int total)
{
	struct vrow *rw = &x->vs.rows[i];
	struct pandia_error err;
	struct run_result r;
	struct run_opts ro;
	int *os = xcalloc((size_t)rw->n + 1, sizeof(int)), t, sig = 0;
	double disturbed = 0;
	char *where = run_where(x, rw, round, k, total);

	for (t = 0; t < rw->n; t++)
		os[t] = x->m->pus[rw->pus[t]].os_index;
	row_opts(x, rw, os, x->o->warmup && rw->reps == 0, &ro);
	if (i >= x->n_helpers) {
		x->helpers = xrealloc(x->helpers, sizeof(char *) *
				      (size_t)(i + 1));
		for (t = x->n_helpers; t <= i; t++)
			x->helpers[t] = NULL;
		x->n_helpers = i + 1;
	}
	if (rw->pinned)
		ro.helpers = x->helpers[i];
	run_result_init(&r);
	if (!x->o->quiet)
		fprintf(stderr, "pandia validate: %s (%d thread%s, predicted "
			"%.4g s)...\n", where, rw->n, rw->n == 1 ? "" : "s",
			rw->predicted);
	if (row_measure(x, rw, os, &ro, &r, &disturbed, &err, where)) {
		if (r.interrupted)
			sig = r.interrupted;
		else
			row_failed(rw, &r, &err);
		goto out;
	}
	row_record(x, rw, &r, disturbed);
	if (rw->pinned && !x->helpers[i] && r.helpers)
		x->helpers[i] = xstrdup(r.helpers);
	if (!x->o->quiet)
		row_progress(x, rw, where, round, k, total);
out:
	run_result_release(&r);
	free(where);
	free(os);
	return sig;
}

void validate_runs_release(struct vctx *x)
{
	int i;

	for (i = 0; i < x->n_helpers; i++)
		free(x->helpers[i]);
	free(x->helpers);
	x->helpers = NULL;
	x->n_helpers = 0;
}

/*
 * The order to run the rows in: the pick, the defaults, then the rest
 * spread over the figure's order (a stride near the golden ratio), so
 * that an interrupted validation has a bit of every thread count and
 * a drift of the machine's load does not follow the thread count.
 */
static int *run_order(const struct vset *vs)
{
	int n = vs->n_rows, *fig = xcalloc((size_t)n + 1, sizeof(int));
	int *out = xcalloc((size_t)n + 1, sizeof(int));
	char *taken = xcalloc((size_t)n + 1, 1);
	int k = 0, i, step, a, b;

	vset_figure_order(vs, fig);
	if (vs->pick >= 0) {
		out[k++] = vs->pick;
		taken[vs->pick] = 1;
	}
	for (i = 0; i < vs->n_defaults; i++)
		if (!taken[vs->defaults[i].row]) {
			out[k++] = vs->defaults[i].row;
			taken[vs->defaults[i].row] = 1;
		}
	step = (int)(0.618 * n) | 1;
	/* make the step coprime with n */
	for (;; step++) {
		for (a = n, b = step; b; ) {
			int t = a % b;

			a = b;
			b = t;
		}
		if (a == 1 || n <= 1)
			break;
	}
	for (i = 0; i < n; i++) {
		int r = fig[(int)(((long)i * step) % n)];

		if (!taken[r]) {
			out[k++] = r;
			taken[r] = 1;
		}
	}
	free(fig);
	free(taken);
	return out;
}

/*
 * The files are rewritten after a run at most this often (seconds):
 * through a runner that simulates, runs take milliseconds, and writing
 * a validation of 300 placements after each of its 900 runs took 16 s
 * of its 28.  The caller writes them once more at the end.
 */
#define SAVE_EVERY 1.0

int validate_measure(struct vctx *x)
{
	int *order = run_order(&x->vs), n = x->vs.n_rows, round, i, sig = 0;
	double saved = now_seconds();

	for (round = 0; round < x->o->reps && !sig; round++)
		for (i = 0; i < n && !sig; i++) {
			if (x->vs.rows[order[i]].state == VROW_FAILED)
				continue;
			sig = validate_run_row(x, order[i], round, i + 1, n);
			if (sig || now_seconds() - saved < SAVE_EVERY)
				continue;
			if (validate_save_now(x) < 0) {
				free(order);
				return -1;
			}
			saved = now_seconds();
		}
	free(order);
	return sig ? sig : run_caught_signal();
}
