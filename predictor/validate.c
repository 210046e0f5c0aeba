/*
 * validate.c - placements to validate, the accuracy metrics and the
 * summary of 'pandia validate' (its files: validate_files.c).
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
		free(vs->rows[i].times);
	}
	free(vs->rows);
	for (i = 0; i < vs->n_defaults; i++)
		free(vs->defaults[i].name);
	free(vs->defaults);
	free(vs->index);
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

/* The hash of canonical form ST of N threads (FNV-1a). */
static size_t st_hash(const struct vset *vs, const uint16_t *st, int n)
{
	uint64_t h = 14695981039346656037ull ^ (uint64_t)n;
	int i;

	for (i = 0; i < vs->sp->n_slots; i++) {
		h ^= st[i];
		h *= 1099511628211ull;
	}
	return (size_t)(h ^ (h >> 29));
}

/*
 * The slot of vs->index that holds the row of canonical form ST of N
 * threads, or the empty slot where it goes.  The index makes a set of
 * every placement of a large machine (validate -p all: 864,500 on a
 * four-socket one) linear rather than quadratic to build.
 */
static size_t index_slot(const struct vset *vs, const uint16_t *st, int n)
{
	size_t mask = vs->cap_index - 1, i = st_hash(vs, st, n) & mask;
	const struct vrow *rw;

	for (;; i = (i + 1) & mask) {
		if (!vs->index[i])
			return i;
		rw = &vs->rows[vs->index[i] - 1];
		if (rw->n == n && !memcmp(rw->st, st, sizeof(*st) *
					  (size_t)vs->sp->n_slots))
			return i;
	}
}

/* Room for one more row, and for its entry in the index. */
static void vset_grow(struct vset *vs)
{
	size_t i, cap;
	int *old;

	if (vs->n_rows == vs->cap_rows) {
		vs->cap_rows = vs->cap_rows ? 2 * vs->cap_rows : 16;
		vs->rows = xrealloc(vs->rows, sizeof(*vs->rows) *
				    (size_t)vs->cap_rows);
	}
	if (2 * ((size_t)vs->n_rows + 1) <= vs->cap_index)
		return;
	old = vs->index;
	cap = vs->cap_index;
	vs->cap_index = cap ? 2 * cap : 64;
	vs->index = xcalloc(vs->cap_index, sizeof(*vs->index));
	for (i = 0; i < cap; i++)
		if (old[i]) {
			const struct vrow *rw = &vs->rows[old[i] - 1];

			vs->index[index_slot(vs, rw->st, rw->n)] = old[i];
		}
	free(old);
}

int vset_add(struct vset *vs, const int *pus, int n, bool pinned,
	     unsigned roles)
{
	const struct pandia_machine *m = vs->sp->m;
	uint16_t *st = NULL;
	struct vrow *rw;
	size_t slot = 0;
	int *os, i;

	if (pinned) {
		st = xcalloc((size_t)vs->sp->n_slots + 1, sizeof(*st));
		if (space_canonical(vs->sp, pus, n, st) < 0) {
			free(st);
			st = NULL;
		}
	}
	vset_grow(vs);
	if (st) {
		slot = index_slot(vs, st, n);
		i = vs->index[slot] - 1;
		if (i >= 0) {
			vs->rows[i].roles |= roles;
			free(st);
			return i;
		}
	}
	for (i = 0; !st && i < vs->n_rows; i++) {
		rw = &vs->rows[i];
		if (rw->pinned != pinned || rw->n != n || rw->st)
			continue;
		if (!pinned || same_counts(m, pus, n, rw->pus, rw->n)) {
			rw->roles |= roles;
			return i;
		}
	}
	if (st)
		vs->index[slot] = vs->n_rows + 1;
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
	rw->predicted = rw->lo = rw->hi = rw->tie_lo = rw->tie_hi = NAN;
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

	rw->names = join_status(rw->names, name);
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

/* The noise between two rows: their larger spread, at least 1%. */
static double rows_noise(const struct vrow *a, const struct vrow *b)
{
	double tol = 0.01, sp;

	sp = (a->max - a->min) / a->measured;
	if (sp > tol)
		tol = sp;
	sp = (b->max - b->min) / b->measured;
	if (sp > tol)
		tol = sp;
	return tol;
}

/*
 * s->best_all and its gap: the best of everything measured, pinned or
 * not, against pandia's pick.
 */
static void best_of_all(const struct vset *vs, struct vsummary *s)
{
	const struct vrow *pk, *b;
	int i;

	s->best_all = -1;
	s->best_gap_all = NAN;
	s->unpinned_beats_pick = false;
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[i];

		if (rw->state == VROW_OK && rw->measured > 0 &&
		    (s->best_all < 0 ||
		     rw->measured < vs->rows[s->best_all].measured))
			s->best_all = i;
	}
	if (s->best_all < 0 || vs->pick < 0 ||
	    vs->rows[vs->pick].state != VROW_OK)
		return;
	pk = &vs->rows[vs->pick];
	b = &vs->rows[s->best_all];
	s->best_gap_all = validate_gap(pk->measured, b->measured);
	s->unpinned_beats_pick = !b->pinned &&
		s->best_gap_all > rows_noise(pk, b);
}

bool vrow_range(const struct vrow *rw, bool *in)
{
	*in = rw->state == VROW_OK && rw->lo <= rw->measured &&
		rw->measured <= rw->hi;
	return isfinite(rw->lo) && isfinite(rw->hi);
}

/*
 * Whether row RW counts among the stated ranges against the measured
 * times (a pinned row measured, with a range), and whether *IN it:
 * the one set that s->range_* and s->move_* both count.
 */
static bool range_counted(const struct vrow *rw, bool *in)
{
	return rw->state == VROW_OK && rw->pinned && vrow_range(rw, in);
}

/* The stated ranges against the measured times, and their width
   (s->range_*). */
static void ranges_covered(const struct vset *vs, struct vsummary *s)
{
	const struct vrow *pk, *b;
	double *w = xcalloc(vs->n_rows + 1, sizeof(*w));
	bool in;
	int i;

	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[i];

		if (!range_counted(rw, &in))
			continue;
		w[s->range_rows++] = rw->predicted > 0 ?
			(rw->hi - rw->lo) / (2 * rw->predicted) : NAN;
		s->range_in += in;
	}
	s->range_width = median_known(w, s->range_rows);
	free(w);
	if (!s->have_metrics || vs->pick < 0)
		return;
	pk = &vs->rows[vs->pick];
	b = &vs->rows[s->mt.best];
	s->best_tied = b == pk ||
		rank_equal_times(b->predicted, pk->predicted) ||
		(isfinite(pk->tie_hi) && isfinite(b->tie_lo) &&
		 b->tie_lo <= pk->tie_hi);
}

/*
 * The host's speed in each round (s->round_*): the rows measured in
 * every round are those with the most runs, a run's round its place
 * in the row's times.
 */
static void round_levels(const struct vset *vs, struct vsummary *s)
{
	int rounds = 0, n = 0, i, r, *in;
	double *ratio, lo, hi;

	for (i = 0; i < vs->n_rows; i++)
		if (vs->rows[i].state == VROW_OK &&
		    vs->rows[i].reps > rounds)
			rounds = vs->rows[i].reps;
	if (rounds < 2)
		return;
	in = xcalloc((size_t)vs->n_rows + 1, sizeof(int));
	for (i = 0; i < vs->n_rows; i++)
		if (vs->rows[i].state == VROW_OK &&
		    vs->rows[i].reps == rounds && vs->rows[i].times &&
		    vs->rows[i].measured > 0)
			in[n++] = i;
	if (n < 2) {
		free(in);
		return;
	}
	ratio = xcalloc((size_t)n, sizeof(double));
	s->round_level = xcalloc((size_t)rounds, sizeof(double));
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < n; i++)
			ratio[i] = vs->rows[in[i]].times[r] /
				vs->rows[in[i]].measured;
		s->round_level[r] = median_of(ratio, n);
	}
	free(ratio);
	free(in);
	s->n_rounds = rounds;
	s->round_rows = n;
	lo = hi = s->round_level[0];
	for (r = 1; r < rounds; r++) {
		lo = fmin(lo, s->round_level[r]);
		hi = fmax(hi, s->round_level[r]);
	}
	s->round_move = hi / lo - 1;
}

/*
 * Whether the host moved since the profile: the first pinned one-thread
 * row with a range (t1's placement, the profile's run 1) measured
 * outside it.  Then the move is its measured over predicted time, and
 * the other pinned rows with a range are counted again with their
 * times divided by it (s->move_*): whether the model's shape held while
 * the host's speed for the program did not.  The move explains the
 * misses when more of the others fall inside that way than without it.
 */
static void host_moved(const struct vset *vs, struct vsummary *s)
{
	const struct vrow *one = NULL;
	bool in;
	int i;

	s->move_row = -1;
	s->move = NAN;
	for (i = 0; i < vs->n_rows && !one; i++) {
		const struct vrow *rw = &vs->rows[i];

		if (rw->n != 1 || !(rw->predicted > 0) ||
		    !(rw->measured > 0) || !range_counted(rw, &in))
			continue;
		if (in)
			return;
		one = rw;
		s->move_row = i;
	}
	if (!one)
		return;
	s->move = one->measured / one->predicted;
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[i];
		double t;

		if (i == s->move_row || !range_counted(rw, &in))
			continue;
		t = rw->measured / s->move;
		s->move_rows++;
		s->move_in += rw->lo <= t && t <= rw->hi;
	}
	/* the one row is outside: range_in counts only the others */
	s->move_explains = s->move_in > s->range_in;
}

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
	s->best_gap_noise = NAN;
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
		else
			s->best_gap_noise = rows_noise(
				&vs->rows[s->mt.pick], &vs->rows[s->mt.best]);
	}
	best = s->have_metrics ? s->mt.best : -1;
	best_of_all(vs, s);
	ranges_covered(vs, s);
	host_moved(vs, s);
	round_levels(vs, s);

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
			h->pick_vs = validate_gap(pk->measured, rw->measured);
			h->pick_worse = h->pick_vs > rows_noise(rw, pk);
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

		/* placements pandia tune measured are not the profile's */
		if (runs[i].purpose && !strncmp(runs[i].purpose, "tune", 4))
			continue;
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
	free(s->round_level);
	s->round_level = NULL;
	s->n_rounds = 0;
}
