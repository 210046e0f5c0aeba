/*
 * validate.c - placements to validate, the accuracy metrics, and the
 * files of 'pandia validate' (see validate.h, docs/validation.md).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/strbuf.h"
#include "common/util.h"
#include "predictor/validate.h"

/* ---- which placements -------------------------------------------- */

int vsel_parse(const char *text, struct vsel *sel, struct pandia_error *err)
{
	const char *arg = NULL;
	int n;

	if (!strcmp(text, "all")) {
		sel->mode = VSEL_ALL;
		sel->n = 0;
		return 0;
	}
	if (!strncmp(text, "sample:", 7)) {
		sel->mode = VSEL_SAMPLE;
		arg = text + 7;
	} else if (!strncmp(text, "top:", 4)) {
		sel->mode = VSEL_TOP;
		arg = text + 4;
	} else {
		return perr_set(err, "--placements takes all, sample:N or "
				"top:K, not '%s'", text);
	}
	if (!parse_int(arg, &n) || n < 1)
		return perr_set(err, "--placements %.*s takes a number >= 1, "
				"not '%s'", (int)(arg - text - 1), text, arg);
	sel->n = n;
	return 0;
}

size_t vsel_choose(const struct ranking *r, const struct vsel *sel,
		   size_t **idx)
{
	size_t *all = xcalloc(r->n + 1, sizeof(*all));
	size_t *out = NULL, n_all, n = 0, i, j;
	int *gstart = NULL, *gsize = NULL, *quota = NULL, *gof = NULL;
	size_t *byg = NULL;
	int n_groups = 0, g, bestg = -1, maxt = 0;
	long left;

	n_all = rank_top(r, 0, all);
	if (sel->mode == VSEL_ALL || (long)n_all <= sel->n) {
		*idx = all;
		return n_all;
	}
	if (sel->mode == VSEL_TOP) {
		*idx = all;
		return (size_t)sel->n;
	}

	/* sample: the entries grouped by thread count, rank order kept */
	for (i = 0; i < n_all; i++)
		if (r->e[all[i]].threads > maxt)
			maxt = r->e[all[i]].threads;
	gof = xcalloc((size_t)maxt + 1, sizeof(int));
	for (i = 0; i < n_all; i++)
		gof[r->e[all[i]].threads]++;
	gstart = xcalloc((size_t)maxt + 2, sizeof(int));
	gsize = xcalloc((size_t)maxt + 2, sizeof(int));
	quota = xcalloc((size_t)maxt + 2, sizeof(int));
	for (g = 0; g <= maxt; g++) {
		if (!gof[g])
			continue;
		gstart[n_groups] = n_groups ? gstart[n_groups - 1] +
			gsize[n_groups - 1] : 0;
		gsize[n_groups] = gof[g];
		gof[g] = n_groups++;	/* now: the group of thread count g */
	}
	byg = xcalloc(n_all + 1, sizeof(*byg));
	{
		int *fill = xcalloc((size_t)n_groups, sizeof(int));

		for (i = 0; i < n_all; i++) {
			g = gof[r->e[all[i]].threads];
			byg[gstart[g] + fill[g]++] = all[i];
		}
		free(fill);
	}
	/* the best first: it is the first of its group */
	bestg = gof[r->e[all[0]].threads];
	quota[bestg] = 1;
	left = sel->n - 1;
	/*
	 * Fewer places than thread counts: thread counts evenly spaced
	 * from the smallest to the largest, not the smallest ones.
	 */
	if (left > 0 && left < n_groups) {
		long q;

		for (q = 0; q < left; q++) {
			int d, c = left == 1 ? n_groups - 1 : (int)floor(
				(double)q * (n_groups - 1) / (left - 1) + 0.5);

			/* that count full: the nearest one that is not */
			for (d = 0; d < n_groups; d++) {
				if (c + d < n_groups &&
				    quota[c + d] < gsize[c + d]) {
					quota[c + d]++;
					break;
				}
				if (c - d >= 0 && quota[c - d] < gsize[c - d]) {
					quota[c - d]++;
					break;
				}
			}
		}
		left = 0;
	}
	while (left > 0) {
		bool any = false;

		for (g = 0; g < n_groups && left > 0; g++) {
			if (quota[g] >= gsize[g])
				continue;
			quota[g]++;
			left--;
			any = true;
		}
		if (!any)
			break;
	}
	out = xcalloc((size_t)sel->n + 1, sizeof(*out));
	out[n++] = all[0];
	for (g = 0; g < n_groups; g++) {
		int q = quota[g], s = gsize[g];

		for (j = 0; j < (size_t)q; j++) {
			size_t pos = q == 1 ? 0 : (size_t)floor(
				(double)j * (s - 1) / (q - 1) + 0.5);
			size_t e = byg[gstart[g] + pos];

			if (e != all[0])
				out[n++] = e;
		}
	}
	free(all);
	free(byg);
	free(gof);
	free(gstart);
	free(gsize);
	free(quota);
	*idx = out;
	return n;
}

/* ---- metrics ----------------------------------------------------- */

double validate_error(double predicted, double measured)
{
	return fabs(predicted - measured) / measured;
}

double validate_gap(double measured, double best)
{
	return measured / best - 1;
}

struct ranked {
	double v;
	int i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v < y->v)
		return -1;
	if (x->v > y->v)
		return 1;
	return x->i - y->i;
}

void validate_ranks(const double *v, int n, double *rank)
{
	struct ranked *t = xcalloc((size_t)n + 1, sizeof(*t));
	int i, j, k;

	for (i = 0; i < n; i++) {
		t[i].v = v[i];
		t[i].i = i;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_ranked);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && t[j].v == t[i].v; j++)
			;
		/* positions i..j-1 are ranks i+1..j: their mean */
		for (k = i; k < j; k++)
			rank[t[k].i] = (i + 1 + j) / 2.0;
	}
	free(t);
}

double validate_spearman(const double *x, const double *y, int n)
{
	double *rx, *ry, mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0, rho;
	int i;

	if (n < 2)
		return NAN;
	rx = xcalloc((size_t)n, sizeof(double));
	ry = xcalloc((size_t)n, sizeof(double));
	validate_ranks(x, n, rx);
	validate_ranks(y, n, ry);
	for (i = 0; i < n; i++) {
		mx += rx[i];
		my += ry[i];
	}
	mx /= n;
	my /= n;
	for (i = 0; i < n; i++) {
		sxy += (rx[i] - mx) * (ry[i] - my);
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
	}
	rho = sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
	free(rx);
	free(ry);
	return rho;
}

int validate_metrics(const double *pred, const double *meas, int n,
		     int pick, struct validate_metrics *mt,
		     struct pandia_error *err)
{
	double *e, *oe, d = 0, se = 0, soe = 0;
	int i;

	memset(mt, 0, sizeof(*mt));
	mt->spearman = NAN;
	mt->best = mt->pick = -1;
	if (n < 1)
		return perr_set(err, "no placement was measured");
	for (i = 0; i < n; i++)
		if (!(pred[i] > 0) || !(meas[i] > 0) || !isfinite(pred[i]) ||
		    !isfinite(meas[i]))
			return perr_set(err, "placement %d: times must be "
					"positive (predicted %g, measured %g)",
					i, pred[i], meas[i]);
	if (pick < 0 || pick >= n) {
		pick = 0;
		for (i = 1; i < n; i++)
			if (pred[i] < pred[pick])
				pick = i;
	}
	mt->n = n;
	mt->pick = pick;
	mt->best = 0;
	for (i = 1; i < n; i++)
		if (meas[i] < meas[mt->best])
			mt->best = i;
	e = xcalloc((size_t)n, sizeof(double));
	oe = xcalloc((size_t)n, sizeof(double));
	for (i = 0; i < n; i++)
		d += meas[i] - pred[i];
	d /= n;
	for (i = 0; i < n; i++) {
		e[i] = validate_error(pred[i], meas[i]);
		oe[i] = validate_error(pred[i] + d, meas[i]);
		se += e[i];
		soe += oe[i];
		if (e[i] > mt->max_error)
			mt->max_error = e[i];
	}
	mt->median_error = median_of(e, n);
	mt->mean_error = se / n;
	mt->offset = d / meas[mt->best];
	mt->offset_error = median_of(oe, n);
	mt->offset_error_mean = soe / n;
	mt->best_gap = validate_gap(meas[pick], meas[mt->best]);
	mt->spearman = validate_spearman(pred, meas, n);
	free(e);
	free(oe);
	return 0;
}

/* ---- the rows ---------------------------------------------------- */

void vset_init(struct vset *vs, const struct space *sp)
{
	memset(vs, 0, sizeof(*vs));
	vs->sp = sp;
	vs->pick = -1;
}

void vset_release(struct vset *vs)
{
	int i;

	if (!vs)
		return;
	for (i = 0; i < vs->n_rows; i++) {
		free(vs->rows[i].pus);
		free(vs->rows[i].cpus);
		free(vs->rows[i].st);
		free(vs->rows[i].names);
		free(vs->rows[i].error);
	}
	free(vs->rows);
	for (i = 0; i < vs->n_defaults; i++)
		free(vs->defaults[i].name);
	free(vs->defaults);
	vset_init(vs, vs->sp);
}

/* How many threads each PU runs (m->n_pus entries, new array). */
static int *pu_counts(const struct pandia_machine *m, const int *pus, int n)
{
	int *cnt = xcalloc((size_t)m->n_pus + 1, sizeof(int)), i;

	for (i = 0; i < n; i++)
		cnt[pus[i]]++;
	return cnt;
}

static bool same_counts(const struct pandia_machine *m, const int *a,
			int na, const int *b, int nb)
{
	int *ca, *cb;
	bool same;

	if (na != nb)
		return false;
	ca = pu_counts(m, a, na);
	cb = pu_counts(m, b, nb);
	same = !memcmp(ca, cb, sizeof(int) * (size_t)m->n_pus);
	free(ca);
	free(cb);
	return same;
}

static void row_shape(const struct pandia_machine *m, struct vrow *rw)
{
	int *cnt = pu_counts(m, rw->pus, rw->n);
	char *cu = xcalloc((size_t)m->n_cores + 1, 1);
	char *su = xcalloc((size_t)m->n_sockets + 1, 1);
	int i;

	rw->cores = rw->sockets = rw->per_pu = 0;
	for (i = 0; i < rw->n; i++) {
		int c = m->pus[rw->pus[i]].core;

		if (!cu[c]++)
			rw->cores++;
		if (!su[m->cores[c].socket]++)
			rw->sockets++;
	}
	for (i = 0; i < m->n_pus; i++)
		if (cnt[i] > rw->per_pu)
			rw->per_pu = cnt[i];
	free(cnt);
	free(cu);
	free(su);
}

int vset_add(struct vset *vs, const int *pus, int n, bool pinned,
	     unsigned roles)
{
	const struct pandia_machine *m = vs->sp->m;
	uint16_t *st = NULL;
	struct vrow *rw;
	int *os, i;

	if (pinned) {
		st = xcalloc((size_t)vs->sp->n_slots + 1, sizeof(*st));
		if (space_canonical(vs->sp, pus, n, st) < 0) {
			free(st);
			st = NULL;
		}
	}
	for (i = 0; i < vs->n_rows; i++) {
		rw = &vs->rows[i];
		if (rw->pinned != pinned || rw->n != n)
			continue;
		if (!pinned || (st && rw->st && !memcmp(st, rw->st,
			sizeof(*st) * (size_t)vs->sp->n_slots)) ||
		    (!st && !rw->st && same_counts(m, pus, n, rw->pus,
						   rw->n))) {
			rw->roles |= roles;
			free(st);
			return i;
		}
	}
	vs->rows = xrealloc(vs->rows, sizeof(*vs->rows) *
			    (size_t)(vs->n_rows + 1));
	rw = &vs->rows[vs->n_rows];
	memset(rw, 0, sizeof(*rw));
	rw->n = n;
	rw->pus = xcalloc((size_t)n + 1, sizeof(int));
	memcpy(rw->pus, pus, sizeof(int) * (size_t)n);
	os = xcalloc((size_t)n + 1, sizeof(int));
	for (i = 0; i < n; i++)
		os[i] = m->pus[pus[i]].os_index;
	rw->cpus = cpulist_format_compact(os, n);
	free(os);
	rw->pinned = pinned;
	rw->st = st;
	rw->roles = roles;
	rw->predicted = NAN;
	rw->measured = rw->min = rw->max = NAN;
	rw->bottleneck = "-";
	row_shape(m, rw);
	return vs->n_rows++;
}

int vset_add_default(struct vset *vs, const char *name, const int *pus,
		     int n, bool pinned)
{
	int row = vset_add(vs, pus, n, pinned, VROLE_DEFAULT);
	struct vrow *rw = &vs->rows[row];
	char *names;

	names = rw->names ? xasprintf("%s; %s", rw->names, name) :
		xstrdup(name);
	free(rw->names);
	rw->names = names;
	vs->defaults = xrealloc(vs->defaults, sizeof(*vs->defaults) *
				(size_t)(vs->n_defaults + 1));
	vs->defaults[vs->n_defaults].name = xstrdup(name);
	vs->defaults[vs->n_defaults].row = row;
	vs->n_defaults++;
	return row;
}

struct order_ctx {
	const struct vset *vs;
	int **core_cnt;		/* per row: threads per core */
};

static int cmp_figure(const void *a, const void *b, void *arg)
{
	const struct order_ctx *oc = arg;
	const struct vrow *x = &oc->vs->rows[*(const int *)a];
	const struct vrow *y = &oc->vs->rows[*(const int *)b];
	int c, nc = oc->vs->sp->m->n_cores;

	if (x->pinned != y->pinned)
		return x->pinned ? -1 : 1;
	if (x->n != y->n)
		return x->n - y->n;
	if (x->cores != y->cores)	/* fewer threads per core first */
		return y->cores - x->cores;
	if (x->sockets != y->sockets)
		return x->sockets - y->sockets;
	for (c = 0; c < nc; c++) {
		int u = oc->core_cnt[*(const int *)a][c];
		int v = oc->core_cnt[*(const int *)b][c];

		if (u != v)
			return v - u;
	}
	return *(const int *)a - *(const int *)b;
}

void vset_figure_order(const struct vset *vs, int *order)
{
	const struct pandia_machine *m = vs->sp->m;
	struct order_ctx oc = { vs, NULL };
	int i, t;

	oc.core_cnt = xcalloc((size_t)vs->n_rows + 1, sizeof(int *));
	for (i = 0; i < vs->n_rows; i++) {
		oc.core_cnt[i] = xcalloc((size_t)m->n_cores + 1, sizeof(int));
		for (t = 0; t < vs->rows[i].n; t++)
			oc.core_cnt[i][m->pus[vs->rows[i].pus[t]].core]++;
		order[i] = i;
	}
	qsort_r(order, (size_t)vs->n_rows, sizeof(int), cmp_figure, &oc);
	for (i = 0; i < vs->n_rows; i++)
		free(oc.core_cnt[i]);
	free(oc.core_cnt);
}

int vset_predict(struct vset *vs, const struct model_def *def, void *model,
		 struct pandia_error *err)
{
	int *order = xcalloc((size_t)vs->n_rows + 1, sizeof(int)), i;

	for (i = 0; i < vs->n_rows; i++) {
		struct vrow *rw = &vs->rows[i];
		struct model_prediction pr = { NAN, NAN, NULL, NULL, NAN };

		if (def->predict(model, rw->pus, rw->n, NAN, &pr, err) < 0) {
			free(order);
			return -1;
		}
		rw->predicted = pr.time;
		rw->bottleneck = pr.bottleneck ? pr.bottleneck : "-";
	}
	vset_figure_order(vs, order);
	for (i = 0; i < vs->n_rows; i++)
		vs->rows[order[i]].x = i + 1;
	free(order);
	return 0;
}

/* ---- the summary ------------------------------------------------- */

void vset_summarise(const struct vset *vs, const struct wl_run *runs,
		    int n_runs, struct vsummary *s)
{
	double *pred = xcalloc((size_t)vs->n_rows + 1, sizeof(double));
	double *meas = xcalloc((size_t)vs->n_rows + 1, sizeof(double));
	int *rowof = xcalloc((size_t)vs->n_rows + 1, sizeof(int));
	int n = 0, i, pick = -1, best;
	struct pandia_error err;

	memset(s, 0, sizeof(*s));
	s->mt.spearman = NAN;
	s->mt.best = s->mt.pick = s->sweep_best = -1;
	s->rows = vs->n_rows;
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[i];

		s->measured += rw->state == VROW_OK;
		s->failed += rw->state == VROW_FAILED;
		s->pending += rw->state == VROW_PENDING;
		if (rw->state != VROW_OK || !rw->pinned ||
		    !(rw->predicted > 0))
			continue;
		if (i == vs->pick)
			pick = n;
		pred[n] = rw->predicted;
		meas[n] = rw->measured;
		rowof[n++] = i;
	}
	if (n && validate_metrics(pred, meas, n, pick, &s->mt, &err) == 0) {
		s->have_metrics = true;
		/* indexes into the rows, not into the compared ones */
		s->mt.best = rowof[s->mt.best];
		s->mt.pick = rowof[s->mt.pick];
		if (pick < 0)	/* the pick was not measured: no gap */
			s->mt.best_gap = NAN;
	}
	best = s->have_metrics ? s->mt.best : -1;

	/*
	 * The noise: a default beats the pick only by more than the
	 * larger relative spread of the two rows' repetitions, and by
	 * at least 1%.
	 */
	s->noise = 0.01;
	s->heur = xcalloc((size_t)vs->n_defaults + 1, sizeof(*s->heur));
	s->n_heur = vs->n_defaults;
	for (i = 0; i < vs->n_defaults; i++) {
		struct vheur *h = &s->heur[i];
		const struct vrow *rw = &vs->rows[vs->defaults[i].row];
		const struct vrow *pk = vs->pick >= 0 ?
			&vs->rows[vs->pick] : NULL;

		h->name = vs->defaults[i].name;
		h->row = vs->defaults[i].row;
		h->gap = h->pick_vs = NAN;
		if (rw->state != VROW_OK)
			continue;
		if (best >= 0)
			h->gap = validate_gap(rw->measured,
					      vs->rows[best].measured);
		if (pk && pk->state == VROW_OK) {
			double tol = 0.01, sp;

			h->pick_vs = validate_gap(pk->measured, rw->measured);
			sp = (rw->max - rw->min) / rw->measured;
			if (sp > tol)
				tol = sp;
			sp = (pk->max - pk->min) / pk->measured;
			if (sp > tol)
				tol = sp;
			h->pick_worse = h->pick_vs > tol;
		}
	}

	/* the sweep of section 6.3 */
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[i];

		if (!(rw->roles & (VROLE_PACKED | VROLE_SPREAD)))
			continue;
		s->sweep = true;
		s->sweep_rows++;
		if (rw->state != VROW_OK)
			continue;
		s->sweep_measured++;
		s->sweep_seconds += rw->seconds;
		s->sweep_pass += rw->measured;
		if (s->sweep_best < 0 ||
		    rw->measured < vs->rows[s->sweep_best].measured)
			s->sweep_best = i;
	}
	s->sweep_gap = NAN;
	if (s->sweep_best >= 0 && best >= 0) {
		s->sweep_found = s->sweep_best == best;
		s->sweep_gap = validate_gap(vs->rows[s->sweep_best].measured,
					    vs->rows[best].measured);
	}
	for (i = 0; i < n_runs; i++) {
		int j;

		for (j = 0; j < runs[i].n_times; j++)
			s->profile_seconds += runs[i].times[j];
		if (runs[i].n_times)
			s->profile_pass += median_of(runs[i].times,
						     runs[i].n_times);
	}
	free(pred);
	free(meas);
	free(rowof);
}

void vsummary_release(struct vsummary *s)
{
	if (!s)
		return;
	free(s->heur);
	s->heur = NULL;
	s->n_heur = 0;
}

/* ---- the files --------------------------------------------------- */

/* A real, or null when not a number. */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *state_name(enum vrow_state st)
{
	return st == VROW_OK ? "ok" : st == VROW_FAILED ? "failed" :
		"not run";
}

/* "selected,pick,default,packed,spread" for the roles it has. */
static char *roles_text(unsigned roles)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ VROLE_SELECTED, "selected" }, { VROLE_PICK, "pick" },
		{ VROLE_DEFAULT, "default" }, { VROLE_PACKED, "packed" },
		{ VROLE_SPREAD, "spread" },
	};
	char buf[128] = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (roles & names[i].bit) {
			if (*buf)
				strcat(buf, " ");
			strcat(buf, names[i].name);
		}
	return xstrdup(buf);
}

static json_t *row_json(const struct vset *vs, int i,
			const struct vsummary *s)
{
	const struct vrow *rw = &vs->rows[i];
	json_t *o = json_object();
	char *roles = roles_text(rw->roles);
	double best = s->have_metrics ? vs->rows[s->mt.best].measured : NAN;

	json_object_set_new(o, "x", json_integer(rw->x));
	json_set_cpus_text(o, rw->cpus);
	json_object_set_new(o, "threads", json_integer(rw->n));
	json_object_set_new(o, "cores", json_integer(rw->cores));
	json_object_set_new(o, "sockets", json_integer(rw->sockets));
	json_object_set_new(o, "per_pu", json_integer(rw->per_pu));
	json_object_set_new(o, "pinned", json_boolean(rw->pinned));
	json_object_set_new(o, "roles", json_string(roles));
	if (rw->names)
		json_object_set_new(o, "defaults", json_string(rw->names));
	json_object_set_new(o, "predicted", jnum(rw->predicted));
	json_object_set_new(o, "bottleneck", json_string(rw->bottleneck));
	json_object_set_new(o, "status", json_string(state_name(rw->state)));
	if (rw->state == VROW_OK) {
		json_object_set_new(o, "measured", jnum(rw->measured));
		json_object_set_new(o, "min", jnum(rw->min));
		json_object_set_new(o, "max", jnum(rw->max));
		json_object_set_new(o, "repetitions", json_integer(rw->reps));
		json_object_set_new(o, "disturbed", json_real(rw->disturbed));
		json_object_set_new(o, "error", jnum(validate_error(
			rw->predicted, rw->measured)));
		json_object_set_new(o, "normalised", jnum(rw->measured /
							  best));
	}
	if (rw->error)
		json_object_set_new(o, "message", json_string(rw->error));
	free(roles);
	return o;
}

json_t *vset_to_json(const struct vset *vs, const struct vsummary *s,
		     const struct vinfo *info)
{
	json_t *root = json_object(), *o, *a;
	int *order = xcalloc((size_t)vs->n_rows + 1, sizeof(int)), i;
	const struct validate_metrics *mt = &s->mt;

	json_object_set_new(root, "schema", json_string("pandia-validate/1"));
	json_object_set_new(root, "machine", json_string(info->machine_file));
	json_object_set_new(root, "workload",
			    json_string(info->workload_file));
	if (info->host)
		json_object_set_new(root, "host", json_string(info->host));
	a = json_array();
	for (i = 0; info->argv && info->argv[i]; i++)
		json_array_append_new(a, json_string(info->argv[i]));
	json_object_set_new(root, "command", a);
	json_object_set_new(root, "placements",
			    json_string(info->placements));
	json_object_set_new(root, "oversubscribe",
			    json_integer(info->oversubscribe));
	json_object_set_new(root, "canonical_placements",
			    info->space_size >= 0 ?
			    json_integer(info->space_size) : json_null());
	json_object_set_new(root, "reduced", json_boolean(info->reduced));
	json_object_set_new(root, "repetitions",
			    json_integer(info->repetitions));
	json_object_set_new(root, "warmup", json_boolean(info->warmup));
	json_object_set_new(root, "time_from", info->time_from ?
			    json_string(info->time_from) :
			    json_string("wall"));
	if (info->date)
		json_object_set_new(root, "date", json_string(info->date));
	a = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(a, json_real(info->load_start[i]));
	json_object_set_new(root, "loadavg_start", a);
	a = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(a, json_real(info->load_now[i]));
	json_object_set_new(root, "loadavg_end", a);
	json_object_set_new(root, "complete", json_boolean(info->complete));
	if (info->interrupted)
		json_object_set_new(root, "interrupted",
				    json_integer(info->interrupted));
	json_object_set_new(root, "seconds", json_real(info->elapsed));

	o = json_object();
	json_object_set_new(o, "placements", json_integer(mt->n));
	json_object_set_new(o, "failed", json_integer(s->failed));
	json_object_set_new(o, "not_run", json_integer(s->pending));
	if (s->have_metrics) {
		json_object_set_new(o, "median_error",
				    jnum(mt->median_error));
		json_object_set_new(o, "mean_error", jnum(mt->mean_error));
		json_object_set_new(o, "max_error", jnum(mt->max_error));
		json_object_set_new(o, "offset", jnum(mt->offset));
		json_object_set_new(o, "offset_error",
				    jnum(mt->offset_error));
		json_object_set_new(o, "offset_error_mean",
				    jnum(mt->offset_error_mean));
		json_object_set_new(o, "best_gap", jnum(mt->best_gap));
		json_object_set_new(o, "spearman", jnum(mt->spearman));
	}
	json_object_set_new(root, "metrics", o);
	if (s->have_metrics) {
		const struct vrow *b = &vs->rows[mt->best];

		o = json_object();
		json_set_cpus_text(o, b->cpus);
		json_object_set_new(o, "threads", json_integer(b->n));
		json_object_set_new(o, "measured", jnum(b->measured));
		json_object_set_new(o, "predicted", jnum(b->predicted));
		json_object_set_new(root, "best", o);
	}
	if (vs->pick >= 0) {
		const struct vrow *p = &vs->rows[vs->pick];

		o = json_object();
		json_set_cpus_text(o, p->cpus);
		json_object_set_new(o, "threads", json_integer(p->n));
		json_object_set_new(o, "predicted", jnum(p->predicted));
		json_object_set_new(o, "measured", p->state == VROW_OK ?
				    jnum(p->measured) : json_null());
		json_object_set_new(root, "pick", o);
	}
	a = json_array();
	for (i = 0; i < s->n_heur; i++) {
		const struct vheur *h = &s->heur[i];
		const struct vrow *rw = &vs->rows[h->row];

		o = json_object();
		json_object_set_new(o, "name", json_string(h->name));
		json_set_cpus_text(o, rw->cpus);
		json_object_set_new(o, "threads", json_integer(rw->n));
		json_object_set_new(o, "pinned", json_boolean(rw->pinned));
		json_object_set_new(o, "predicted", jnum(rw->predicted));
		json_object_set_new(o, "measured", rw->state == VROW_OK ?
				    jnum(rw->measured) : json_null());
		json_object_set_new(o, "gap", jnum(h->gap));
		json_object_set_new(o, "pick_vs", jnum(h->pick_vs));
		json_object_set_new(o, "pick_worse",
				    json_boolean(h->pick_worse));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "heuristics", a);
	if (s->sweep) {
		o = json_object();
		json_object_set_new(o, "placements",
				    json_integer(s->sweep_rows));
		json_object_set_new(o, "measured",
				    json_integer(s->sweep_measured));
		json_object_set_new(o, "seconds", json_real(s->sweep_seconds));
		json_object_set_new(o, "pass_seconds",
				    json_real(s->sweep_pass));
		json_object_set_new(o, "profile_seconds",
				    s->profile_pass > 0 ?
				    json_real(s->profile_seconds) :
				    json_null());
		json_object_set_new(o, "profile_pass_seconds",
				    s->profile_pass > 0 ?
				    json_real(s->profile_pass) : json_null());
		json_object_set_new(o, "pass_ratio", s->profile_pass > 0 ?
				    jnum(s->sweep_pass / s->profile_pass) :
				    json_null());
		json_object_set_new(o, "best", s->sweep_best >= 0 ?
				    json_string(vs->rows[s->sweep_best].cpus) :
				    json_null());
		json_object_set_new(o, "found_best",
				    json_boolean(s->sweep_found));
		json_object_set_new(o, "gap", jnum(s->sweep_gap));
		json_object_set_new(root, "sweep", o);
	}
	a = json_array();
	vset_figure_order(vs, order);
	for (i = 0; i < vs->n_rows; i++)
		json_array_append_new(a, row_json(vs, order[i], s));
	json_object_set_new(root, "rows", a);
	free(order);
	return root;
}

/* A number for the CSV: empty when not known. */
static void sb_num(struct strbuf *b, double v, bool comma)
{
	if (isfinite(v))
		strbuf_printf(b, "%.6g", v);
	if (comma)
		strbuf_printf(b, ",");
}

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void sb_field(struct strbuf *b, const char *s, bool comma)
{
	const char *p;

	if (!s[strcspn(s, ",\"\n\r")]) {
		strbuf_printf(b, "%s", s);
	} else {
		strbuf_printf(b, "\"");
		for (p = s; *p; p++) {
			if (*p == '"')
				strbuf_printf(b, "\"\"");
			else if (*p == '\n' || *p == '\r')
				strbuf_printf(b, " ");
			else
				strbuf_printf(b, "%c", *p);
		}
		strbuf_printf(b, "\"");
	}
	if (comma)
		strbuf_printf(b, ",");
}

char *vset_to_csv(const struct vset *vs, const struct vsummary *s)
{
	struct strbuf b = { NULL, 0, 0 };
	int *order = xcalloc((size_t)vs->n_rows + 1, sizeof(int)), i;
	double best = s->have_metrics ? vs->rows[s->mt.best].measured : NAN;
	double d = s->have_metrics ? s->mt.offset * best : NAN;

	strbuf_printf(&b, "x,threads,cores,sockets,per_pu,cpus,pinned,roles,"
		  "defaults,predicted_s,measured_s,min_s,max_s,reps,error,"
		  "offset_error,norm_measured,norm_predicted,status,"
		  "message\n");
	vset_figure_order(vs, order);
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[order[i]];
		char *roles = roles_text(rw->roles);
		bool ok = rw->state == VROW_OK;

		strbuf_printf(&b, "%d,%d,%d,%d,%d,", rw->x, rw->n, rw->cores,
			  rw->sockets, rw->per_pu);
		sb_field(&b, rw->cpus, true);
		strbuf_printf(&b, "%s,", rw->pinned ? "yes" : "no");
		sb_field(&b, roles, true);
		sb_field(&b, rw->names ? rw->names : "", true);
		sb_num(&b, rw->predicted, true);
		sb_num(&b, ok ? rw->measured : NAN, true);
		sb_num(&b, ok ? rw->min : NAN, true);
		sb_num(&b, ok ? rw->max : NAN, true);
		if (ok)
			strbuf_printf(&b, "%d", rw->reps);
		strbuf_printf(&b, ",");
		sb_num(&b, ok ? validate_error(rw->predicted, rw->measured) :
		       NAN, true);
		sb_num(&b, ok && rw->pinned ?
		       validate_error(rw->predicted + d, rw->measured) : NAN,
		       true);
		sb_num(&b, ok ? rw->measured / best : NAN, true);
		sb_num(&b, rw->predicted / best, true);
		strbuf_printf(&b, "%s,", state_name(rw->state));
		sb_field(&b, rw->error ? rw->error : "", false);
		strbuf_printf(&b, "\n");
		free(roles);
	}
	free(order);
	return b.s;
}

/* S with the characters gnuplot's double quotes need escaped. */
static char *gp_quote(const char *s)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_gnuplot_string(&b, s);
	return b.s;
}

char *vset_gnuplot_script(const struct vset *vs, const struct vsummary *s,
			  const char *png, const char *title)
{
	struct strbuf b = { NULL, 0, 0 };
	int *order, i, last_t = -1, n = 0, n_unpinned = 0;
	double best, unpinned = NAN;
	char *qt, *qp;

	if (!s->have_metrics)
		return NULL;
	best = vs->rows[s->mt.best].measured;
	order = xcalloc((size_t)vs->n_rows + 1, sizeof(int));
	vset_figure_order(vs, order);
	qt = gp_quote(title);
	qp = gp_quote(png);
	strbuf_printf(&b, "# pandia validate: measured and predicted time of "
		  "each placement,\n# normalised to the best measured "
		  "(the Pandia paper's Figure 1).\n"
		  "# Draw it again: gnuplot validate.gp\n");
	strbuf_printf(&b, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		  "  set terminal pngcairo size 1000,560 font \",10\"\n"
		  "} else {\n  set terminal png size 1000,560\n}\n");
	strbuf_printf(&b, "set output %s\nset title %s noenhanced\n", qp, qt);
	strbuf_printf(&b, "set xlabel \"placement (by threads, then threads per "
		  "core); ticks: thread count\"\n"
		  "set ylabel \"time / best measured time\"\n"
		  "set key below horizontal\nset grid ytics\n"
		  "set yrange [0:*]\nset offsets 0.5, 0.5, 0, 0\n");
	/* one tick per thread count, at its first placement */
	strbuf_printf(&b, "set xtics (");
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[order[i]];

		if (!rw->pinned || rw->state != VROW_OK ||
		    !(rw->predicted > 0))
			continue;
		n++;
		if (rw->n != last_t) {
			strbuf_printf(&b, "%s\"%d\" %d", last_t < 0 ? "" : ", ",
				  rw->n, n);
			last_t = rw->n;
		}
	}
	strbuf_printf(&b, ")\n");
	strbuf_printf(&b, "$data << EOD\n# x measured predicted threads cpus\n");
	n = 0;
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[order[i]];

		if (rw->state != VROW_OK)
			continue;
		if (!rw->pinned) {
			/* the whole machine unpinned: the first default */
			if (vs->n_defaults && order[i] ==
			    vs->defaults[0].row) {
				unpinned = rw->measured / best;
				n_unpinned = rw->n;
			}
			continue;
		}
		if (!(rw->predicted > 0))
			continue;
		strbuf_printf(&b, "%d %.6g %.6g %d %s\n", ++n, rw->measured / best,
			  rw->predicted / best, rw->n, rw->cpus);
	}
	strbuf_printf(&b, "EOD\n");
	strbuf_printf(&b, "plot $data using 1:2 with linespoints pt 7 ps 0.8 "
		  "lw 1.5 lc rgb \"#1f4e9c\" title \"measured\", \\\n"
		  "     $data using 1:3 with linespoints pt 6 ps 0.8 lw 1.5 "
		  "dt 2 lc rgb \"#d9480f\" title \"predicted\"");
	if (isfinite(unpinned))
		strbuf_printf(&b, ", \\\n     %.6g with lines lw 1 dt 3 lc rgb "
			  "\"#555555\" title \"%d threads unpinned, the OS "
			  "scheduler (measured)\"", unpinned, n_unpinned);
	strbuf_printf(&b, "\n");
	free(qt);
	free(qp);
	free(order);
	return b.s;
}
