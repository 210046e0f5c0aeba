/*
 * predict_corun.c - pandia predict with several -w or --copies: the
 * workloads' times together at the placements given, or the ways of
 * dividing the machine's PUs between them ranked by the objective.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/predict.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/util.h"

struct corun_wl {
	const char *path;
	struct pandia_workload *w;
	void *state;
};

struct division {
	int k[MAX_CORUN];		/* PUs of each workload */
	double time[MAX_CORUN];
	double score;			/* the objective */
	double total;			/* the sum of the times */
	int pus;			/* PUs used */
	size_t order;			/* in counting order */
};

static double objective(const struct cli *o,
			const struct model_prediction *pr, int nw)
{
	double v = 0;
	int i;

	for (i = 0; i < nw; i++)
		v = o->sum ? v + pr[i].time : pr[i].time > v ? pr[i].time : v;
	return v;
}

/*
 * The order in which divisions hand out PUs: the first PU of every
 * core (socket by socket), then the second of every core, and so on.
 * A new array of m->pus indexes.
 */
static int *pu_order(const struct pandia_machine *m)
{
	int *ord = xcalloc((size_t)m->n_pus + 1, sizeof(int));
	int k = 0, p, c, maxp = 0;

	for (c = 0; c < m->n_cores; c++)
		if (m->cores[c].n_pus > maxp)
			maxp = m->cores[c].n_pus;
	for (p = 0; p < maxp; p++)
		for (c = 0; c < m->n_cores; c++)
			if (p < m->cores[c].n_pus)
				ord[k++] = m->cores[c].pus[p];
	return ord;
}

/* The next k (each >= 1, sum <= total) in counting order, or false. */
static bool next_division(int *k, int nw, int total)
{
	int i, j, sum;

	for (i = nw - 1; i >= 0; i--) {
		k[i]++;
		for (sum = 0, j = 0; j < nw; j++)
			sum += k[j];
		if (sum <= total)
			return true;
		k[i] = 1;
	}
	return false;
}

static int division_cmp(const void *a, const void *b)
{
	const struct division *x = a, *y = b;

	/* the objective to the models' precision, then fewer PUs, then
	   the other workloads' times */
	if (fabs(x->score - y->score) > 1e-9 * (x->score + y->score))
		return x->score < y->score ? -1 : 1;
	if (x->pus != y->pus)
		return x->pus < y->pus ? -1 : 1;
	if (fabs(x->total - y->total) > 1e-9 * (x->total + y->total))
		return x->total < y->total ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* Parts of division K over the PU order ORD (pointers into ORD). */
static void division_parts(const int *ord, const int *k, int nw,
			   const struct corun_wl *wl,
			   struct model_corun_part *parts)
{
	int i, off = 0;

	for (i = 0; i < nw; i++) {
		parts[i].state = wl[i].state;
		parts[i].pus = ord + off;
		parts[i].n = k[i];
		off += k[i];
	}
}

/*
 * The placement of workload WL's PART into *PI (its OS PUs and their
 * list) and the lines that pin it into *PINS; the caller releases
 * both (info_release(), pins_release()).
 */
static void part_pins(const struct ctx *x, const struct corun_wl *wl,
		      const struct model_corun_part *part,
		      struct placement_info *pi, struct pins *pins)
{
	struct ctx y = *x;

	memset(pi, 0, sizeof(*pi));
	pi->n = part->n;
	pi->os = os_of(x->m, part->pus, part->n);
	pi->list = cpulist_format_compact(pi->os, pi->n);
	y.w = wl->w;
	pins_make(&y, pi, pins);
}

static json_t *corun_wl_json(const struct ctx *x, const struct corun_wl *wl,
			     const struct model_corun_part *part,
			     const struct model_prediction *pr, int copies)
{
	json_t *o = json_object();

	json_object_set_new(o, "workload", json_string(wl->path));
	if (copies) {
		json_object_set_new(o, "copies", json_integer(copies));
	} else {
		struct placement_info pi;
		struct pins pins;

		part_pins(x, wl, part, &pi, &pins);
		json_object_set_new(o, "cpus", json_string(pi.list));
		json_object_set_new(o, "threads", json_integer(part->n));
		json_object_set_new(o, "pin", pins_json(&pins));
		pins_release(&pins);
		info_release(&pi);
	}
	json_object_set_new(o, "time", json_real(pr->time));
	if (isfinite(pr->core_time))
		json_object_set_new(o, "core_time", json_real(pr->core_time));
	json_object_set_new(o, "speedup", json_real(pr->speedup));
	json_object_set_new(o, "bottleneck", json_string(
		pr->bottleneck ? pr->bottleneck : "-"));
	return o;
}

static void corun_wl_print(const struct ctx *x, int i,
			   const struct corun_wl *wl,
			   const struct model_corun_part *part,
			   const struct model_prediction *pr, int copies)
{
	struct placement_info pi;
	struct pins pins;

	if (copies) {
		printf("workload %d  %s: %d cop%s unpinned, %#.5g s each "
		       "(bottleneck %s)\n", i + 1, wl->path, copies,
		       copies == 1 ? "y" : "ies", pr->time,
		       pr->bottleneck ? pr->bottleneck : "-");
		return;
	}
	part_pins(x, wl, part, &pi, &pins);
	printf("workload %d  %s: %d thread%s on %s, %#.5g s (bottleneck "
	       "%s)\n", i + 1, wl->path, pi.n, pi.n == 1 ? "" : "s", pi.list,
	       pr->time, pr->bottleneck ? pr->bottleneck : "-");
	pins_print(&pins);
	pins_release(&pins);
	info_release(&pi);
}

/* Every division of the machine's PUs, ranked; the best into *best. */
static int rank_divisions(const struct ctx *x, struct corun_wl *wl, int nw,
			  const int *ord, struct division **out, size_t *nout,
			  struct pandia_error *err)
{
	const struct model_def *md = x->o->model;
	struct model_corun_part parts[MAX_CORUN];
	struct model_prediction pr[MAX_CORUN];
	struct division *d = NULL;
	size_t n = 0, cap = 0;
	double count = 1;
	int k[MAX_CORUN], i;

	/* compositions with sum <= P: C(P, nw) */
	for (i = 0; i < nw; i++)
		count = count * (x->m->n_pus - i) / (i + 1);
	if (count > (double)x->o->max_placements)
		return perr_set(err, "%.0f divisions of %d PUs between %d "
				"workloads, above --max-placements %ld: give "
				"--placement for each", count, x->m->n_pus,
				nw, x->o->max_placements);
	for (i = 0; i < nw; i++)
		k[i] = 1;
	do {
		division_parts(ord, k, nw, wl, parts);
		if (md->corun(parts, nw, pr, err) < 0) {
			free(d);
			return -1;
		}
		if (n == cap) {
			cap = 2 * cap + 64;
			d = xrealloc(d, cap * sizeof(*d));
		}
		memset(&d[n], 0, sizeof(d[n]));
		for (i = 0; i < nw; i++) {
			d[n].k[i] = k[i];
			d[n].time[i] = pr[i].time;
			d[n].total += pr[i].time;
			d[n].pus += k[i];
		}
		d[n].score = objective(x->o, pr, nw);
		d[n].order = n;
		n++;
	} while (next_division(k, nw, x->m->n_pus));
	/* stable for equal scores: fewer PUs first, in counting order */
	qsort(d, n, sizeof(*d), division_cmp);
	*out = d;
	*nout = n;
	return 0;
}

/* One co-run: its workloads, the division or copies, the times. */
struct corun {
	int nw;
	struct corun_wl wl[MAX_CORUN];
	struct model_corun_part parts[MAX_CORUN];	/* shown */
	struct model_prediction pr[MAX_CORUN];		/* of parts */
	int copies[MAX_CORUN];		/* --copies; 0: pinned */
	int *given[MAX_CORUN];		/* --placement, m->pus indexes */
	int *ord;			/* pu_order(), for divisions */
	struct division *divs;		/* ranked, or NULL */
	size_t ndiv, top;
};

/*
 * The model's instance of W (PATH, for messages) on x->m under x->mem,
 * or NULL after saying why.
 */
void *corun_state(const struct ctx *x, const char *path,
		  const struct pandia_workload *w)
{
	struct pandia_error err;
	void *s = x->o->model->open(x->m, w, &x->mem, &err);

	if (!s) {
		if (err.source[0])
			perr_print(&err, stderr);
		else
			error("workload '%s': %s", path, err.text);
	}
	return s;
}

/*
 * Load each workload, check it was profiled here, and open it with the
 * model; x->w and x->mem become the first's.  0, or -1 after saying
 * why.
 */
static int corun_open(struct ctx *x, struct corun *c)
{
	const struct cli *o = x->o;
	struct corun_wl *wl = c->wl;
	struct pandia_error err;
	char *why = NULL;
	int i, ret = -1;

	for (i = 0; i < c->nw; i++) {
		wl[i].path = o->workload_paths[i];
		wl[i].w = workload_load(wl[i].path, &err);
		if (!wl[i].w) {
			perr_print(&err, stderr);
			goto out;
		}
		if (!workload_machine_matches(wl[i].w, x->m, &why)) {
			if (!o->force) {
				error("workload '%s' was profiled on another "
				      "machine than '%s': %s\npandia: profile "
				      "it on this machine, or use --force to "
				      "predict anyway", wl[i].path,
				      o->machine_path, why);
				goto out;
			}
			warning("workload '%s' was profiled on another "
				"machine (%s); predicting anyway", wl[i].path,
				why);
		}
		free(why);
		why = NULL;
	}
	x->w = wl[0].w;
	x->mem = o->has_memory ? o->memory : x->w->has_memory ?
		x->w->memory : (struct pandia_mempolicy){ MEM_LOCAL, -1 };
	for (i = 0; i < c->nw; i++) {
		wl[i].state = corun_state(x, wl[i].path, wl[i].w);
		if (!wl[i].state)
			goto out;
	}
	ret = 0;
out:
	free(why);
	return ret;
}

/*
 * The parts to predict: the copies, the placements given, or the best
 * of every division ranked.  0, or -1 after saying why.
 */
static int corun_choose(const struct ctx *x, struct corun *c)
{
	const struct cli *o = x->o;
	struct pandia_error err;
	int i, nw = c->nw;

	if (o->n_copies) {
		for (i = 0; i < nw; i++) {
			c->copies[i] = o->copies[o->n_copies == 1 ? 0 : i];
			c->parts[i].state = c->wl[i].state;
			c->parts[i].pus = NULL;
			c->parts[i].n = c->copies[i];
		}
		return 0;
	}
	if (o->n_placements) {
		for (i = 0; i < nw; i++) {
			if (parse_placement_text(x, o->placements[i],
						 &c->given[i],
						 &c->parts[i].n) < 0)
				return -1;
			c->parts[i].state = c->wl[i].state;
			c->parts[i].pus = c->given[i];
		}
		return 0;
	}
	if (nw > x->m->n_pus) {
		error("%d workloads and %d PUs: every workload needs a PU of "
		      "its own in a division (give --placement for each to "
		      "share)", nw, x->m->n_pus);
		return -1;
	}
	c->ord = pu_order(x->m);
	if (rank_divisions(x, c->wl, nw, c->ord, &c->divs, &c->ndiv,
			   &err) < 0) {
		perr_print(&err, stderr);
		return -1;
	}
	division_parts(c->ord, c->divs[0].k, nw, c->wl, c->parts);
	return 0;
}

/* Division j of those ranked as JSON. */
static json_t *division_json(const struct ctx *x, const struct corun *c,
			     size_t j)
{
	struct model_corun_part dp[MAX_CORUN];
	json_t *d = json_object(), *ws = json_array();
	int i;

	division_parts(c->ord, c->divs[j].k, c->nw, c->wl, dp);
	json_object_set_new(d, "rank", json_integer((json_int_t)j + 1));
	json_object_set_new(d, "time", json_real(c->divs[j].score));
	for (i = 0; i < c->nw; i++) {
		json_t *w1 = json_object();
		int *os = os_of(x->m, dp[i].pus, dp[i].n);
		char *l = cpulist_format_compact(os, dp[i].n);

		json_object_set_new(w1, "cpus", json_string(l));
		json_object_set_new(w1, "threads", json_integer(dp[i].n));
		json_object_set_new(w1, "time",
				    json_real(c->divs[j].time[i]));
		json_array_append_new(ws, w1);
		free(l);
		free(os);
	}
	json_object_set_new(d, "workloads", ws);
	return d;
}

/* The co-run as JSON on stdout. */
static void corun_json(const struct ctx *x, const struct corun *c)
{
	const struct cli *o = x->o;
	json_t *root = json_object(), *a = json_array();
	size_t j;
	int i;

	json_object_set_new(root, "schema", json_string("pandia-predict/1"));
	json_object_set_new(root, "model", json_string(o->model->name));
	json_object_set_new(root, "machine", json_string(o->machine_path));
	json_object_set_new(root, "mode", json_string(
		o->n_copies ? "copies" : o->n_placements ?
		"placements" : "divisions"));
	json_object_set_new(root, "objective", json_string(
		o->sum ? "sum" : "max"));
	json_object_set_new(root, "objective_time",
			    json_real(objective(o, c->pr, c->nw)));
	for (i = 0; i < c->nw; i++)
		json_array_append_new(a, corun_wl_json(x, &c->wl[i],
			&c->parts[i], &c->pr[i], c->copies[i]));
	json_object_set_new(root, "workloads", a);
	if (c->divs) {
		json_object_set_new(root, "ranked",
				    json_integer((json_int_t)c->ndiv));
		a = json_array();
		for (j = 0; j < c->top; j++)
			json_array_append_new(a, division_json(x, c, j));
		json_object_set_new(root, "divisions", a);
	}
	json_print(root);
	json_decref(root);
}

/* The table of the divisions ranked. */
static void print_divisions(const struct ctx *x, const struct corun *c)
{
	struct model_corun_part dp[MAX_CORUN];
	size_t j;
	int i;

	printf("divisions %zu ranked by the %s\n\n%4s %10s", c->ndiv,
	       x->o->sum ? "sum of the times" : "time of the slowest",
	       "rank", "time (s)");
	for (i = 0; i < c->nw; i++)
		printf("  %-20s", "workload");
	putchar('\n');
	for (j = 0; j < c->top; j++) {
		division_parts(c->ord, c->divs[j].k, c->nw, c->wl, dp);
		printf("%4zu %#10.4g", j + 1, c->divs[j].score);
		for (i = 0; i < c->nw; i++) {
			int *os = os_of(x->m, dp[i].pus, dp[i].n);
			char *l = cpulist_format_compact(os, dp[i].n);
			char cell[64];

			snprintf(cell, sizeof(cell), "%d: %s (%#.4g s)",
				 i + 1, l, c->divs[j].time[i]);
			printf("  %-20s", cell);
			free(l);
			free(os);
		}
		putchar('\n');
	}
	printf("\nthe best division:\n");
}

/* The co-run as text on stdout. */
static void corun_print(const struct ctx *x, const struct corun *c)
{
	const struct cli *o = x->o;
	int i, nw = c->nw;

	printf("machine   %s: %d socket%s, %d cores, %d PUs\n",
	       x->m->host ? x->m->host : o->machine_path,
	       x->m->n_sockets, x->m->n_sockets == 1 ? "" : "s",
	       x->m->n_cores, x->m->n_pus);
	if (nw == 1 && c->copies[0] > 0)
		printf("model     %s, %d cop%s of one workload\n",
		       o->model->name, c->copies[0],
		       c->copies[0] == 1 ? "y" : "ies");
	else
		printf("model     %s, %d workload%s together\n",
		       o->model->name, nw, nw == 1 ? "" : "s");
	if (c->divs)
		print_divisions(x, c);
	for (i = 0; i < nw; i++)
		corun_wl_print(x, i, &c->wl[i], &c->parts[i], &c->pr[i],
			       c->copies[i]);
}

int do_corun(struct ctx *x)
{
	const struct cli *o = x->o;
	const struct model_def *md = o->model;
	struct pandia_error err;
	struct corun c;
	int i, ret = 1;

	memset(&c, 0, sizeof(c));
	c.nw = o->n_workloads;
	if (!md->corun) {
		error("model '%s' does not predict co-runs or copies",
		      md->name);
		return 1;
	}
	if (corun_open(x, &c) < 0 || corun_choose(x, &c) < 0)
		goto out;
	/* the chosen division (or the given one) again, for its details */
	if (md->corun(c.parts, c.nw, c.pr, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	c.top = o->top > 0 && (size_t)o->top < c.ndiv ? (size_t)o->top :
		c.ndiv;
	if (o->json)
		corun_json(x, &c);
	else
		corun_print(x, &c);
	ret = 0;
out:
	free(c.divs);
	free(c.ord);
	for (i = 0; i < c.nw; i++) {
		free(c.given[i]);
		if (c.wl[i].state)
			md->close(c.wl[i].state);
		workload_free(c.wl[i].w);
	}
	x->w = NULL;
	return ret;
}
