/*
 * tune_output.c - pandia tune: what it found, as text or JSON (each
 * candidate's prediction and measurement, the verdict, the pin lines
 * of the measured best as predict prints them), and the runs kept in
 * the workload description.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/predict.h"
#include "builtin/tune.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/util.h"

static const struct vrow *row_of(const struct tctx *t, int i)
{
	return &t->vs.rows[t->cands[i].row];
}

void tune_row_stats(const struct tctx *t, int i, double *median,
		    double *spread)
{
	const struct vrow *rw = row_of(t, i);
	int n = t->st[i].n;

	*median = n ? rw->measured : NAN;
	*spread = n > 1 ? (rw->max - rw->min) / rw->measured : NAN;
}

/* "0-3", or "unpinned, 8 threads".  Written into buf. */
static const char *cand_name(const struct tctx *t, int i, char *buf,
			     size_t size)
{
	const struct vrow *rw = row_of(t, i);

	if (rw->pinned)
		snprintf(buf, size, "%s", rw->cpus);
	else
		snprintf(buf, size, "unpinned (%d threads, the OS scheduler)",
			 rw->n);
	return buf;
}

static const char *status_name(const struct tctx *t, int i)
{
	const struct tune_cand *c = &t->st[i];

	switch (c->status) {
	case TUNE_FAILED:
		return "failed";
	case TUNE_DROPPED:
		return "dropped";
	case TUNE_SKIPPED:
		return "skipped";
	default:
		break;
	}
	if (!c->n)
		return "not run";
	return i == tune_leader(t->st, t->n_cands) ? "leader" : "tied";
}

static const char *stop_reason(const struct tctx *t)
{
	if (t->interrupted)
		return "interrupted";
	if (t->decided)
		return "decided";
	if (t->budget_spent)
		return "budget";
	return "no other candidate left";
}

/* The verdict as a sentence (new string). */
static char *verdict_text(const struct tctx *t)
{
	const struct tune_verdict *v = &t->v;
	double d = 100 * (v->cmp.ratio - 1);
	double h = 100 * (v->cmp.hi - v->cmp.lo) / 2;
	char a[96], b[96];

	if (fabs(d) < 0.05)	/* never "-0.0%" */
		d = 0;

	if (v->best >= 0)
		cand_name(t, v->best, a, sizeof(a));
	if (v->other >= 0)
		cand_name(t, v->other, b, sizeof(b));
	switch (v->kind) {
	case TUNE_V_HELPS:
		return xasprintf("%s is %.1f%% +- %.1f%% faster than %s", a,
				 d, h, b);
	case TUNE_V_NO_HELP:
		return xasprintf("pinning does not help this program here: "
				 "the OS scheduler is within %.1f%%%s (the "
				 "best pinned, %s, measured %.1f%% +- %.1f%% "
				 "faster)", 100 * v->within, v->decided ? "" :
				 ", not decided before the budget ran out",
				 a, d, h);
	case TUNE_V_UNPINNED_BEST:
		return xasprintf("pinning does not help this program here: "
				 "the OS scheduler is %.1f%% +- %.1f%% faster "
				 "than the best pinned placement, %s", d, h,
				 b);
	case TUNE_V_NO_DEFAULT:
		return xasprintf("%s is %.1f%% +- %.1f%% faster than the "
				 "next, %s%s (no unpinned run to compare "
				 "with)", a, d, h, b, v->decided ? "" :
				 ", not beyond doubt");
	default:
		return xstrdup("too few runs to compare (two of each are "
			       "needed)");
	}
}

static const char *verdict_kind(enum tune_verdict_kind k)
{
	static const char *const names[] = {
		"none", "helps", "does_not_help", "unpinned_best",
		"no_default"
	};

	return names[k];
}

/* A predict context for the pin lines of the measured best. */
static void pin_lines(const struct tctx *t, int i, struct pins *p)
{
	const struct vrow *rw = row_of(t, i);
	struct placement_info pi;
	struct cli pc;
	struct ctx cx;

	ctx_borrow(&cx, &pc, t->m, t->w, t->o->model, &t->mem, NULL);
	memset(&pi, 0, sizeof(pi));
	pi.n = rw->n;
	pi.os = os_of(t->m, rw->pus, rw->n);
	pi.list = cpulist_format_compact(pi.os, pi.n);
	pins_make(&cx, &pi, p);
	info_release(&pi);
}

static void tune_header(const struct tctx *t)
{
	printf("tune      %s on %s (model %s, confidence %g)\n",
	       t->o->workload_path ? t->o->workload_path :
	       "a --quick profile", t->o->machine_path, t->o->model->name,
	       t->o->confidence);
	printf("budget    %.4g s (", t->budget);
	if (t->o->budget_times)
		printf("%gx the predicted best, %.4g s", t->o->budget,
		       t->best_predicted);
	else
		printf("given");
	printf("); %.4g s spent in %d round%s\n", t->spent, t->rounds,
	       t->rounds == 1 ? "" : "s");
	if (t->interrupted)
		printf("stopped   interrupted by signal %d\n",
		       t->interrupted);
	else if (t->decided)
		printf("stopped   one candidate leads every other with "
		       "confidence %g\n", t->o->confidence);
	else if (t->budget_spent)
		printf("stopped   the budget was spent\n");
	else
		printf("stopped   no other candidate left to compare\n");
}

static void print_row(const struct tctx *t, int i)
{
	const struct vrow *rw = row_of(t, i);
	const struct tune_row *c = &t->cands[i];
	double med, spread;
	char range[48] = "-", ms[24] = "-", sp[16] = "-", st[24];

	tune_row_stats(t, i, &med, &spread);
	if (c->hi > c->lo)
		snprintf(range, sizeof(range), "%#.4g-%#.4g", c->lo, c->hi);
	if (!isnan(med))
		snprintf(ms, sizeof(ms), "%#.4g", med);
	if (!isnan(spread))
		snprintf(sp, sizeof(sp), "%.1f%%", 100 * spread);
	snprintf(st, sizeof(st), "%s", status_name(t, i));
	if (t->st[i].status == TUNE_DROPPED)
		snprintf(st, sizeof(st), "dropped (%d)",
			 t->st[i].dropped_round);
	printf("%7d  %-16s %13.4g  %-17s %10s  %6s  %4d  %-12s %s\n", rw->n,
	       rw->pinned ? rw->cpus : "unpinned", rw->predicted, range, ms,
	       sp, t->st[i].n, st, c->why);
}

void tune_print(const struct tctx *t)
{
	char *vt = verdict_text(t);
	int lead = tune_leader(t->st, t->n_cands), i;

	tune_header(t);
	printf("\n%7s  %-16s %13s  %-17s %10s  %6s  %4s  %-12s %s\n",
	       "threads", "cpus", "predicted (s)", "range (s)", "median (s)",
	       "spread", "runs", "status", "why");
	for (i = 0; i < t->n_cands; i++)
		print_row(t, i);
	printf("\nverdict   %s\n", vt);
	free(vt);
	if (lead < 0)
		return;
	if (!row_of(t, lead)->pinned) {
		printf("\nthe measured best is the OS scheduler's: run the "
		       "command unpinned, with %d thread%s\n",
		       row_of(t, lead)->n, row_of(t, lead)->n == 1 ? "" : "s");
	} else {
		struct pins p;

		printf("\nto run the measured best, %d thread%s on %s:\n",
		       row_of(t, lead)->n, row_of(t, lead)->n == 1 ? "" : "s",
		       row_of(t, lead)->cpus);
		pin_lines(t, lead, &p);
		pins_print(&p);
		pins_release(&p);
	}
}

static json_t *cand_json(const struct tctx *t, int i)
{
	const struct vrow *rw = row_of(t, i);
	const struct tune_row *c = &t->cands[i];
	json_t *o = json_object(), *a = json_array();
	double med, spread;
	int j;

	tune_row_stats(t, i, &med, &spread);
	json_object_set_new(o, "cpus", json_string(rw->cpus));
	json_object_set_new(o, "threads", json_integer(rw->n));
	json_object_set_new(o, "pinned", json_boolean(rw->pinned));
	json_object_set_new(o, "why", json_string(c->why));
	json_object_set_new(o, "predicted", json_real(rw->predicted));
	json_object_set_new(o, "predicted_low", json_real(c->lo));
	json_object_set_new(o, "predicted_high", json_real(c->hi));
	json_object_set_new(o, "median", isnan(med) ? json_null() :
			    json_real(med));
	json_object_set_new(o, "spread", isnan(spread) ? json_null() :
			    json_real(spread));
	json_object_set_new(o, "runs", json_integer(t->st[i].n));
	for (j = 0; j < t->st[i].n; j++)
		json_array_append_new(a, json_real(rw->times[j]));
	json_object_set_new(o, "times", a);
	json_object_set_new(o, "status", json_string(status_name(t, i)));
	json_object_set_new(o, "dropped_round",
			    json_integer(t->st[i].dropped_round));
	json_object_set_new(o, "error", rw->error ? json_string(rw->error) :
			    json_null());
	return o;
}

static json_t *verdict_json(const struct tctx *t)
{
	const struct tune_verdict *v = &t->v;
	json_t *o = json_object();
	char *vt = verdict_text(t);
	bool cmp = v->kind != TUNE_V_NONE;

	json_object_set_new(o, "kind", json_string(verdict_kind(v->kind)));
	json_object_set_new(o, "text", json_string(vt));
	json_object_set_new(o, "best", json_integer(v->best));
	json_object_set_new(o, "other", json_integer(v->other));
	json_object_set_new(o, "faster", cmp && !isnan(v->cmp.ratio) ?
			    json_real(v->cmp.ratio - 1) : json_null());
	json_object_set_new(o, "faster_low", cmp && v->cmp.valid ?
			    json_real(v->cmp.lo - 1) : json_null());
	json_object_set_new(o, "faster_high", cmp && v->cmp.valid ?
			    json_real(v->cmp.hi - 1) : json_null());
	json_object_set_new(o, "within", isnan(v->within) ? json_null() :
			    json_real(v->within));
	json_object_set_new(o, "threshold", json_real(v->threshold));
	json_object_set_new(o, "decided", json_boolean(v->decided));
	free(vt);
	return o;
}

void tune_print_json(const struct tctx *t)
{
	json_t *root = json_object(), *a = json_array();
	int lead = tune_leader(t->st, t->n_cands), i;

	json_object_set_new(root, "schema", json_string("pandia-tune/1"));
	json_object_set_new(root, "machine", json_string(t->o->machine_path));
	json_object_set_new(root, "workload", t->o->workload_path ?
			    json_string(t->o->workload_path) : json_null());
	json_object_set_new(root, "model", json_string(t->o->model->name));
	json_object_set_new(root, "confidence",
			    json_real(t->o->confidence));
	json_object_set_new(root, "budget_seconds", json_real(t->budget));
	json_object_set_new(root, "spent_seconds", json_real(t->spent));
	json_object_set_new(root, "rounds", json_integer(t->rounds));
	json_object_set_new(root, "stopped", json_string(stop_reason(t)));
	json_object_set_new(root, "interrupted",
			    json_integer(t->interrupted));
	for (i = 0; i < t->n_cands; i++)
		json_array_append_new(a, cand_json(t, i));
	json_object_set_new(root, "candidates", a);
	json_object_set_new(root, "leader", json_integer(lead));
	json_object_set_new(root, "verdict", verdict_json(t));
	if (lead >= 0 && row_of(t, lead)->pinned) {
		struct pins p;

		pin_lines(t, lead, &p);
		json_object_set_new(root, "pin", pins_json(&p));
		pins_release(&p);
	} else {
		json_object_set_new(root, "pin", json_null());
	}
	json_print(root);
	json_decref(root);
}

/* The next free number N of a run "tune-N" in w. */
static int next_tune_id(const struct pandia_workload *w)
{
	int i, k, most = 0;

	for (i = 0; i < w->n_runs; i++)
		if (sscanf(w->runs[i].id, "tune-%d", &k) == 1 && k > most)
			most = k;
	return most + 1;
}

/*
 * The model refitted with every run of tune's in the description, or
 * why not, in one line (docs/tune.md, "What it leaves behind").
 */
static void refit(struct tctx *t)
{
	char *say = NULL;

	if (!t->o->model->refit)
		say = xasprintf("not refitted: the %s model has no parameters "
				"the tune runs can move; predict lists how far "
				"it missed them", t->o->model->name);
	else
		t->o->model->refit(t->m, t->w, &say);
	if (!t->o->quiet && say)
		progress("tune", "%s", say);
	free(say);
}

int tune_save(struct tctx *t, const char *path)
{
	struct pandia_error err;
	struct pandia_workload *w = t->w;
	int id = next_tune_id(w), i, added = 0;

	w->runs = xrealloc(w->runs, sizeof(*w->runs) *
			   (size_t)(w->n_runs + t->n_cands + 1));
	for (i = 0; i < t->n_cands; i++) {
		const struct vrow *rw = row_of(t, i);
		struct wl_run *r;

		if (!t->st[i].n)
			continue;
		r = &w->runs[w->n_runs++];
		memset(r, 0, sizeof(*r));
		r->id = xasprintf("tune-%d", id++);
		r->purpose = xstrdup(rw->pinned ? MODEL_TUNE_PURPOSE :
				     MODEL_TUNE_UNPINNED " (the OS scheduler)");
		r->n_cpus = rw->n;
		r->cpus = os_of(t->m, rw->pus, rw->n);
		r->n_times = t->st[i].n;
		r->times = xcalloc((size_t)r->n_times, sizeof(double));
		memcpy(r->times, rw->times,
		       sizeof(double) * (size_t)r->n_times);
		added++;
	}
	refit(t);
	if (workload_save(w, path, &err) < 0)
		return error_perr(&err);
	if (!t->o->quiet)
		progress("tune", "%d run%s of its own added to the "
			 "description, written to %s", added,
			 added == 1 ? "" : "s", path);
	return 0;
}
