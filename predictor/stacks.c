/*
 * stacks.c - speedup stacks: built, measured from per-thread
 * accounting, and their files (formulas in docs/stacks.md).  The Pandia
 * model's predicted stack is in predictor/pandia/stacks.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/strbuf.h"
#include "common/util.h"
#include "predictor/stacks.h"

/* More workers alive than N for more than this share of N x tn is an
   error: the stack could not add up to N. */
#define STACK_EXCESS_MAX 0.03

/* ---- building a stack --------------------------------------------- */

struct stack *stack_new(enum stack_kind kind, const char *cpus,
			int threads, int max_comps)
{
	struct stack *st = xcalloc(1, sizeof(*st));

	st->kind = kind;
	st->cpus = xstrdup(cpus ? cpus : "");
	st->threads = threads;
	st->comps = xcalloc((size_t)max_comps, sizeof(*st->comps));
	return st;
}

void stack_add_comp(struct stack *st, const char *key, const char *label,
		    double value)
{
	struct stack_comp *c = &st->comps[st->n_comps++];

	c->key = xstrdup(key);
	c->label = xstrdup(label ? label : key);
	c->value = value;
}

void stack_free(struct stack *st)
{
	int i;

	if (!st)
		return;
	for (i = 0; i < st->n_comps; i++) {
		free(st->comps[i].key);
		free(st->comps[i].label);
	}
	free(st->comps);
	free(st->cpus);
	free(st);
}

const struct stack_comp *stack_comp(const struct stack *st, const char *key)
{
	int i;

	for (i = 0; i < st->n_comps; i++)
		if (!strcmp(st->comps[i].key, key))
			return &st->comps[i];
	return NULL;
}

double stack_value(const struct stack *st, const char *key)
{
	const struct stack_comp *c = stack_comp(st, key);

	return c ? c->value : 0;
}

double stack_total(const struct stack *st)
{
	double sum = 0;
	int i;

	for (i = 0; i < st->n_comps; i++)
		sum += st->comps[i].value;
	return sum;
}

/* ---- measured ----------------------------------------------------- */

struct event {
	double t;
	int delta;		/* +1 a worker starts, -1 it ends */
	bool root;		/* the main thread, when it is a worker */
};

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	/* ends before starts at the same instant */
	return x->delta - y->delta;
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static bool finite_nonneg(double v)
{
	return isfinite(v) && v >= 0;
}

static int check_run(const struct stack_run *run, int *workers,
		     struct pandia_error *err)
{
	int i, k;

	if (!(isfinite(run->t1) && run->t1 > 0))
		return perr_set(err, "single-thread time %g s is not "
				"positive", run->t1);
	if (!(isfinite(run->tn) && run->tn > 0))
		return perr_set(err, "run time %g s is not positive", run->tn);
	if (run->threads < 1)
		return perr_set(err, "thread count %d is below 1",
				run->threads);
	*workers = 0;
	for (i = 0; i < run->n_thr; i++) {
		const struct stack_thread *t = &run->thr[i];
		bool ok = isfinite(t->start) && isfinite(t->end) &&
			finite_nonneg(t->cpu_time) &&
			finite_nonneg(t->runqueue_wait);

		for (k = 0; k < SB_COUNT; k++)
			ok = ok && finite_nonneg(t->blocked[k]);
		if (!ok)
			return perr_set(err, "thread %d: a time is negative "
					"or not a number", i);
		if (t->end < t->start)
			return perr_set(err, "thread %d ends (%g s) before it "
					"starts (%g s)", i, t->end, t->start);
		*workers += t->worker;
	}
	if (!*workers)
		return perr_set(err, "the accounting has no worker thread");
	for (i = 0; run->stalls && i < run->n_stalls; i++) {
		const struct stack_stall *x = &run->stalls[i];

		if (!x->key || !finite_nonneg(x->seconds) ||
		    !finite_nonneg(x->single))
			return perr_set(err, "stall count %d: no name, or a "
					"time negative or not a number", i);
	}
	return 0;
}

/*
 * The slots nobody fills: sweep the workers' lives over [0, tn] with
 * a(t) workers alive.  Where none is (a = 0), one thread is taken to
 * run (the process before and after its workers) and the N - 1 other
 * slots are serial; where only the main thread is (it is a worker),
 * the N - 1 others are serial; elsewhere the N - a empty slots are
 * imbalance (threads not started yet, or done).  Seconds x slots.
 */
static void sweep(const struct stack_run *run, int workers, double *serial,
		  double *outside, double *idle, double *excess)
{
	struct event *ev = xcalloc(2 * (size_t)workers, sizeof(*ev));
	double tn = run->tn, N = run->threads, t = 0;
	int i, n = 0, a = 0, root = 0;

	for (i = 0; i < run->n_thr; i++) {
		const struct stack_thread *th = &run->thr[i];
		double s = clamp(th->start, 0, tn), e = clamp(th->end, s, tn);

		if (!th->worker || !(e > s))
			continue;	/* a life of length 0 fills nothing */
		ev[n++] = (struct event){ s, +1, i == 0 };
		ev[n++] = (struct event){ e, -1, i == 0 };
	}
	qsort(ev, (size_t)n, sizeof(*ev), cmp_event);
	*serial = *outside = *idle = *excess = 0;
	for (i = 0; i <= n; i++) {
		double next = i < n ? ev[i].t : tn, dt = next - t;

		if (dt > 0) {
			if (a == 0) {
				*outside += dt;
				*serial += (N - 1) * dt;
			} else if (a == 1 && root) {
				*serial += (N - 1) * dt;
			} else if (a <= N) {
				*idle += (N - a) * dt;
			} else {
				*excess += (a - N) * dt;
			}
			t = next;
		}
		if (i < n) {
			a += ev[i].delta;
			if (ev[i].root)
				root = ev[i].delta > 0;
		}
	}
	free(ev);
}

/*
 * No part of a stack is below zero, and a stack is N high: a part
 * measured below zero (a run timed faster than the single thread's
 * work allows, its CPU time under t1: run-to-run noise) is set to 0,
 * and what it was is kept as the stack's noise and taken off the base,
 * the one part whose excess the noise made (docs/stacks.md).
 */
/* what a part below zero can come from, as the text says it */
#define NOISE_WHY "the threads needed less CPU time than t1 (noise " \
	"between these runs and t1's, or data shared in a cache)"

/* What the text says of ST's noise, after a prefix (ST->noise > 0). */
static void noise_say(struct strbuf *b, const struct stack *st)
{
	strbuf_printf(b, "below zero: %s; set to 0, and %.3f taken off the "
		      "base: %s\n", st->noise_parts, st->noise, NOISE_WHY);
}

static void noise_out(struct stack *st)
{
	size_t len = 0;
	int i;

	st->noise = 0;
	st->noise_parts[0] = '\0';
	for (i = 1; i < st->n_comps; i++) {
		struct stack_comp *c = &st->comps[i];

		if (!(c->value < 0))
			continue;
		st->noise -= c->value;
		if (len < sizeof(st->noise_parts))
			len += (size_t)snprintf(st->noise_parts + len,
						sizeof(st->noise_parts) - len,
						"%s%s %.3f", len ? ", " : "",
						c->key, c->value);
		c->value = 0;
	}
	if (st->noise > 0 && st->n_comps > 0) {
		st->comps[0].value -= st->noise;
		if (st->comps[0].value < 0)
			st->comps[0].value = 0;
	}
}

struct stack *stack_measured(const struct stack_run *run,
			     struct pandia_error *err)
{
	double tn = run->tn, N = run->threads;
	double serial, outside, idle, excess;
	double cpu = 0, lock = 0, barrier = 0, join = 0, rq = 0, other = 0;
	double unacc = 0, over = 0, rest, stalls = 0;
	struct stack *st;
	int workers = 0, i, k;

	if (check_run(run, &workers, err) < 0)
		return NULL;
	sweep(run, workers, &serial, &outside, &idle, &excess);
	if (excess > STACK_EXCESS_MAX * N * tn) {
		perr_set(err, "more than %d worker threads alive at once "
			 "(%.3g s x threads beyond them)", run->threads,
			 excess);
		return NULL;
	}

	/* each worker's life: CPU, run-queue wait, blocked, the rest */
	for (i = 0; i < run->n_thr; i++) {
		const struct stack_thread *th = &run->thr[i];
		double s = clamp(th->start, 0, tn), e = clamp(th->end, s, tn);
		double life = e - s, c = th->cpu_time, w, scale = 1, r;
		const double *b = th->blocked;

		if (!th->worker)
			continue;
		if (c > life) {
			over += c - life;
			c = life;
		}
		w = th->runqueue_wait;
		for (k = 0; k < SB_COUNT; k++)
			w += b[k];
		if (c + w > life) {
			/* clocks of different grain: the waits give way */
			over += c + w - life;
			scale = w > 0 ? (life - c) / w : 0;
		}
		r = life - c - w * scale;
		r = r > 0 ? r : 0;
		cpu += c;
		lock += scale * (b[SB_MUTEX] + b[SB_SEMAPHORE]);
		barrier += scale * (b[SB_BARRIER] + b[SB_CONDITION]);
		join += scale * b[SB_JOIN];
		rq += scale * th->runqueue_wait;
		other += scale * b[SB_OTHER] + r;
		unacc += r;
	}

	st = stack_new(STACK_MEASURED, run->cpus, run->threads,
		       9 + run->n_stalls);
	st->speedup = run->t1 / tn;
	st->unaccounted = unacc;
	st->overcount = over;
	st->excess = excess;
	/* the rest: CPU time (and the process outside its workers)
	   beyond what the single thread needed */
	rest = (cpu + outside - run->t1) / tn;
	stack_add_comp(st, "base", "achieved speedup", st->speedup);
	stack_add_comp(st, "serial", "serial execution", serial / tn);
	stack_add_comp(st, "lock", "lock waits", lock / tn);
	stack_add_comp(st, "barrier", "barrier and condition waits",
		       barrier / tn);
	stack_add_comp(st, "imbalance", "load imbalance",
		       (idle + join - excess) / tn);
	stack_add_comp(st, "time_sharing", "time sharing", rq / tn);
	stack_add_comp(st, "other", "other blocked", other / tn);
	if (run->stalls && run->n_stalls > 0) {
		for (i = 0; i < run->n_stalls; i++) {
			const struct stack_stall *x = &run->stalls[i];
			double v = (x->seconds - x->single) / tn;

			stack_add_comp(st, x->key, x->label, v);
			stalls += v;
		}
		st->split = true;
		stack_add_comp(st, "overhead", "parallel overhead and the rest",
			 rest - stalls);
		st->estimate = st->speedup + rest - stalls;
	} else {
		stack_add_comp(st, "contention", "contention and parallel "
			 "overhead (not split)", rest);
		st->estimate = st->speedup + rest;
	}
	noise_out(st);
	return st;
}

/* ---- files -------------------------------------------------------- */

json_t *stack_to_json(const struct stack *st)
{
	json_t *root = json_object(), *comps = json_object();
	int i;

	json_object_set_new(root, "kind", json_string(
		st->kind == STACK_MEASURED ? "measured" : "predicted"));
	json_set_cpus_text(root, st->cpus);
	json_object_set_new(root, "threads", json_integer(st->threads));
	json_object_set_new(root, "speedup", json_real(st->speedup));
	for (i = 0; i < st->n_comps; i++)
		json_object_set_new(comps, st->comps[i].key,
				    json_real(st->comps[i].value));
	json_object_set_new(root, "components", comps);
	if (st->kind == STACK_MEASURED) {
		json_object_set_new(root, "remainder", json_string(
			st->split ? "split by counted stalls" : "not split"));
		json_object_set_new(root, "estimate", json_real(st->estimate));
		json_object_set_new(root, "estimate_error", json_real(
			(st->estimate - st->speedup) / st->threads));
		json_object_set_new(root, "noise", json_real(st->noise));
		json_object_set_new(root, "noise_parts", st->noise > 0 ?
				    json_string(st->noise_parts) :
				    json_null());
	}
	return root;
}

/* One colour per component, the same in every bar; the base dark as
   in the paper's figures. */
static const struct {
	const char *key, *rgb;
} colours[] = {
	{ "base", "#222222" },
	{ "serial", "#9e9e9e" },
	{ "lock", "#d62728" },
	{ "barrier", "#ff9896" },
	{ "imbalance", "#1f77b4" },
	{ "time_sharing", "#9467bd" },
	{ "other", "#c7c7c7" },
	{ "contention", "#ff7f0e" },
	{ "overhead", "#ff7f0e" },
	{ "instructions", "#8c564b" },
	{ "l1", "#c5b0d5" },
	{ "l2", "#98df8a" },
	{ "l3", "#2ca02c" },
	{ "dram", "#bcbd22" },
	{ "interconnect", "#17becf" },
	{ "burstiness", "#e377c2" },
	{ "communication", "#aec7e8" },
};

/* For keys not above (counted stalls). */
static const char *const spare_rgb[] = {
	"#ffbb78", "#dbdb8d", "#9edae5", "#f7b6d2", "#7f7f7f",
};

static const char *colour_of(const char *key, int *spare)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(colours); i++)
		if (!strcmp(colours[i].key, key))
			return colours[i].rgb;
	return spare_rgb[(*spare)++ % (int)ARRAY_SIZE(spare_rgb)];
}

/* The columns: every key with a value somewhere, in the order met. */
struct column {
	const char *key, *label;
};

static void add_columns(struct column *col, int *n, const struct stack *st)
{
	int i, j;

	if (!st)
		return;
	for (i = 0; i < st->n_comps; i++) {
		const struct stack_comp *c = &st->comps[i];

		for (j = 0; j < *n; j++)
			if (!strcmp(col[j].key, c->key))
				break;
		if (j < *n)
			continue;
		if (fabs(c->value) < 1e-9 && strcmp(c->key, "base"))
			continue;
		col[*n].key = c->key;
		/* the same key has the same label in both kinds, but
		   the base: achieved or predicted */
		col[*n].label = strcmp(c->key, "base") ? c->label :
			"speedup (achieved or predicted)";
		(*n)++;
	}
}

static void bar_row(struct strbuf *b, const struct stack *st, const char *tag,
		    const struct column *col, int n_col, bool by_cpus)
{
	int j;

	if (by_cpus)
		strbuf_printf(b, "\"%s %s\"", st->cpus, tag);
	else
		strbuf_printf(b, "\"%d %s\"", st->threads, tag);
	for (j = 0; j < n_col; j++) {
		const struct stack_comp *c = stack_comp(st, col[j].key);

		strbuf_printf(b, " %.6g", c ? c->value : 0.0);
	}
	strbuf_printf(b, "\n");
}

/* The thread count of pair i, 0 when it has no stack. */
static int pair_threads(const struct stack *const *measured,
			const struct stack *const *predicted, int i)
{
	const struct stack *m = measured ? measured[i] : NULL;
	const struct stack *p = predicted ? predicted[i] : NULL;

	return m ? m->threads : p ? p->threads : 0;
}

char *stacks_gnuplot_script(const struct stack *const *measured,
			    const struct stack *const *predicted, int n,
			    const char *png, const char *title)
{
	struct strbuf b = { NULL, 0, 0 };
	struct column *col;
	int i, j, n_col = 0, cap = 0, bars = 0, spare = 0;
	bool by_cpus = false;
	double top = 1;

	for (i = 0; i < n; i++) {
		const struct stack *m = measured ? measured[i] : NULL;
		const struct stack *p = predicted ? predicted[i] : NULL;

		cap += (m ? m->n_comps : 0) + (p ? p->n_comps : 0);
		bars += (m != NULL) + (p != NULL);
		if (m && m->threads > top)
			top = m->threads;
		if (p && p->threads > top)
			top = p->threads;
	}
	if (!bars)
		return NULL;
	/* two placements of one thread count: the bars are named by
	   their PUs, not their thread count */
	for (i = 0; i < n && !by_cpus; i++)
		for (j = 0; j < i && !by_cpus; j++)
			by_cpus = pair_threads(measured, predicted, i) ==
				  pair_threads(measured, predicted, j) &&
				  pair_threads(measured, predicted, i) > 0;
	col = xcalloc((size_t)cap + 1, sizeof(*col));
	for (i = 0; i < n; i++) {
		add_columns(col, &n_col, measured ? measured[i] : NULL);
		add_columns(col, &n_col, predicted ? predicted[i] : NULL);
	}

	strbuf_printf(&b, "# pandia: speedup stacks, measured (m) and predicted "
		  "(p) side by side;\n# each bar is N high (N the thread "
		  "count), the achieved or predicted\n# speedup at the "
		  "bottom, above it the speedup lost to each cause\n"
		  "# (docs/stacks.md).  Draw it again: gnuplot "
		  "stacks.gp\n");
	strbuf_gnuplot_png(&b, 700 + 40 * bars, 600, 10);
	strbuf_printf(&b, "set output ");
	strbuf_gnuplot_string(&b, png);
	strbuf_printf(&b, "\nset title ");
	strbuf_gnuplot_string(&b, title);
	strbuf_printf(&b, " noenhanced\n"
		  "set xlabel \"threads: measured (m) and predicted (p)\"\n"
		  "set ylabel \"speedup (each bar is N high)\"\n"
		  "set style data histograms\n"
		  "set style histogram rowstacked\n"
		  "set style fill solid 0.9 border rgb \"#333333\"\n"
		  "set boxwidth 0.8 relative\n"
		  "set key outside right top vertical noenhanced reverse "
		  "invert Left\n"
		  "set grid ytics\nset yrange [*:%g]\n"
		  "set datafile missing \"?\"\n", top * 1.05);
	strbuf_printf(&b, "$data << EOD\n# bar");
	for (j = 0; j < n_col; j++)
		strbuf_printf(&b, " %s", col[j].key);
	strbuf_printf(&b, "\n");
	for (i = 0; i < n; i++) {
		const struct stack *m = measured ? measured[i] : NULL;
		const struct stack *p = predicted ? predicted[i] : NULL;

		if (!m && !p)
			continue;
		if (i > 0) {
			/* a gap between thread counts */
			strbuf_printf(&b, "\"\"");
			for (j = 0; j < n_col; j++)
				strbuf_printf(&b, " ?");
			strbuf_printf(&b, "\n");
		}
		if (m)
			bar_row(&b, m, "m", col, n_col, by_cpus);
		if (p)
			bar_row(&b, p, "p", col, n_col, by_cpus);
	}
	strbuf_printf(&b, "EOD\nplot ");
	for (j = 0; j < n_col; j++) {
		strbuf_printf(&b, "%s$data using %d%s title ", j ? ", \\\n     " :
			  "", j + 2, j ? "" : ":xtic(1)");
		strbuf_gnuplot_string(&b, col[j].label);
		strbuf_printf(&b, " lc rgb \"%s\"", colour_of(col[j].key, &spare));
	}
	strbuf_printf(&b, "\n");
	free(col);
	return b.s;
}

/* ---- text ----------------------------------------------------------- */

bool stack_sums(const struct stack *st, double tol, double *sum)
{
	double s = stack_total(st);

	if (sum)
		*sum = s;
	return isfinite(s) && fabs(s - st->threads) <= tol * st->threads;
}

static const char *kind_name(const struct stack *st)
{
	return st->kind == STACK_MEASURED ? "measured" : "predicted";
}

/*
 * The columns in stack order: a key comes after every key that is
 * below it in some stack (the first stack's order first), not where it
 * was first met with a value.
 */
static void sort_columns(struct column *col, int n_col,
			 const struct stack *const *st, int n)
{
	struct column *out = xcalloc((size_t)n_col + 1, sizeof(*out));
	char *taken = xcalloc((size_t)n_col + 1, 1);
	int i, j, k, m = 0;

	for (i = 0; i < n; i++) {
		if (!st[i])
			continue;
		for (k = 0; k < st[i]->n_comps; k++)
			for (j = 0; j < n_col; j++)
				if (!taken[j] &&
				    !strcmp(col[j].key, st[i]->comps[k].key)) {
					out[m++] = col[j];
					taken[j] = 1;
				}
	}
	memcpy(col, out, (size_t)m * sizeof(*col));
	free(out);
	free(taken);
}

/* whether ST[0..N-1] holds stacks of both kinds */
static bool both_kinds(const struct stack *const *st, int n)
{
	bool m = false, p = false;
	int i;

	for (i = 0; i < n; i++)
		if (st[i]) {
			m |= st[i]->kind == STACK_MEASURED;
			p |= st[i]->kind == STACK_PREDICTED;
		}
	return m && p;
}

char *stacks_table(const struct stack *const *st, int n)
{
	struct strbuf b = STRBUF_INIT;
	struct column *col;
	int i, j, n_col = 0, cap = 0, wcpus = 4;

	for (i = 0; i < n; i++) {
		if (!st[i])
			continue;
		cap += st[i]->n_comps;
		if ((int)strlen(st[i]->cpus) > wcpus)
			wcpus = (int)strlen(st[i]->cpus);
	}
	if (!cap)
		return xstrdup("");
	col = xcalloc((size_t)cap, sizeof(*col));
	for (i = 0; i < n; i++)
		add_columns(col, &n_col, st[i]);
	sort_columns(col, n_col, st, n);

	strbuf_printf(&b, "%-*s %4s %-9s", wcpus, "cpus", "N", "kind");
	for (j = 0; j < n_col; j++)
		strbuf_printf(&b, " %6s", col[j].key);
	strbuf_printf(&b, " %6s\n", "sum");
	for (i = 0; i < n; i++) {
		if (!st[i])
			continue;
		strbuf_printf(&b, "%-*s %4d %-9s", wcpus, st[i]->cpus,
			      st[i]->threads, kind_name(st[i]));
		for (j = 0; j < n_col; j++) {
			const struct stack_comp *c = stack_comp(st[i],
								col[j].key);
			int w = (int)strlen(col[j].key);

			w = w > 6 ? w : 6;
			if (c)
				strbuf_printf(&b, " %*.3f", w, c->value);
			else
				strbuf_printf(&b, " %*s", w, "-");
		}
		strbuf_printf(&b, " %6.3f\n", stack_total(st[i]));
	}
	for (i = 0; i < n; i++)
		if (st[i] && st[i]->noise > 0) {
			strbuf_printf(&b, "noise at %s, ", st[i]->cpus);
			noise_say(&b, st[i]);
		}
	strbuf_printf(&b, "\ncomponents, in units of speedup (a row adds up "
		      "to N; \"-\": not of that kind):\n");
	for (j = 0; j < n_col; j++)
		strbuf_printf(&b, "  %-14s %s\n", col[j].key,
			      strcmp(col[j].key, "base") ? col[j].label :
			      "achieved speedup (measured), predicted "
			      "speedup (predicted)");
	if (both_kinds(st, n))
		strbuf_printf(&b, "the model cannot tell serial execution "
			      "from waits at a barrier, a condition or a "
			      "lock: compare the predicted serial with the "
			      "measured serial + barrier + lock, and the "
			      "predicted resources with the measured "
			      "contention (docs/stacks.md, \"Measured beside "
			      "predicted\")\n");
	free(col);
	return b.s;
}

char *stack_text(const struct stack *st, int indent)
{
	struct strbuf b = STRBUF_INIT;
	int i;

	for (i = 0; i < st->n_comps; i++) {
		const struct stack_comp *c = &st->comps[i];

		strbuf_printf(&b, "%*s%-14s %-36s %7.3f %6.1f%%\n", indent, "",
			      c->key, c->label, c->value,
			      100 * c->value / st->threads);
	}
	strbuf_printf(&b, "%*s%-14s %-36s %7.3f %6.1f%%\n", indent, "", "sum",
		      "(N)", stack_total(st),
		      100 * stack_total(st) / st->threads);
	if (st->noise > 0) {
		strbuf_printf(&b, "%*s%-14s ", indent, "", "noise");
		noise_say(&b, st);
	}
	return b.s;
}
