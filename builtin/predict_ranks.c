/*
 * predict_ranks.c - pandia predict --ranks: a hybrid job (processes of
 * several threads each, MPI ranks of OpenMP threads) as copies of one
 * profiled rank running together, each at its own placement, the job
 * as slow as its slowest rank.  The divisions of the machine into R
 * ranks of T threads, one per class up to symmetry
 * (builtin/predict_ranks_enum.c), the launchers' layouts named among
 * them, ranked by that time (docs/model.md, "Hybrid jobs").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/predict.h"
#include "builtin/predict_job.h"
#include "builtin/predict_ranks_enum.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/util.h"
#include "predictor/space.h"

/*
 * How far the enumeration goes: about DIV_TOTAL divisions and
 * DIV_STEPS steps of search (a few seconds), what is left shared out
 * evenly over the (R, T) still to come, each at least DIV_MIN and
 * DIV_MIN_STEPS while any is left; a layout's canonical form gets
 * CANON_STEPS of them.  Once all is spent, the layouts alone.
 */
#define DIV_TOTAL 4000
#define DIV_MIN 16
#define DIV_STEPS 10000000L
#define DIV_MIN_STEPS 20000L
#define CANON_STEPS 200000L

/* How the ranks go over the sockets. */
enum job_spread {
	JOB_PACK,	/* fill a socket before the next */
	JOB_SPREAD,	/* rank r on socket r mod S */
	JOB_SPLIT,	/* every rank's threads over every socket */
	JOB_SPREADS
};

/* How a rank's threads go over a socket's PUs. */
enum job_order {
	JOB_BY_CORE,	/* the first PU of every core, then the second */
	JOB_BY_PU,	/* every PU of a core before the next core */
	JOB_ORDERS
};

static const char *const spread_name[JOB_SPREADS] = {
	"packed", "spread", "split"
};
static const char *const order_name[JOB_ORDERS] = { "by core", "by PU" };

/* One division of the machine: RANKS ranks of THREADS threads. */
struct job_div {
	int ranks, threads;
	enum job_spread spread;
	enum job_order order;
	bool layout;		/* a launcher's layout (spread, order) */
	int sock_lo, sock_hi;	/* sockets a rank spans, fewest, most */
	int shared;		/* cores whose PUs two ranks share */
	int *pus;		/* ranks x threads m->pus indexes, rank by
				   rank, each rank's ascending, the ranks
				   by their first PU */
	double time;		/* the slowest rank's */
	double *rank_time;
	const char **bottleneck;	/* per rank, static */
	size_t seq;		/* in enumeration order */
};

struct job {
	struct pandia_workload *w;
	void **state;		/* one instance of the model per rank */
	int n_state;
	int **sock_pus;		/* per socket, per order: its PUs */
	int *sock_n;		/* per socket: how many */
	struct job_div *div;
	size_t n_div, cap_div, top;
	int r_lo, r_hi;		/* the rank counts ranked */

	struct space *sp;
	struct divisions *dv;
	uint16_t *lay_key[JOB_SPREADS * JOB_ORDERS];	/* this (R, T)'s
				   layouts' canonical forms, NULL: none */
	int n_lay;
	int *buf;		/* a division's PUs, being made */
	long cap, steps;	/* the last (R, T)'s */
	long div_left, steps_left;
	int pairs_left;
	bool complete;		/* every class was ranked */
	double classes;		/* at least this many classes */
	const struct ctx *x;
	int err;		/* a prediction failed */
	size_t unpredicted;	/* divisions the co-run could not settle */
};

/* The PUs of socket S in order BY (m->pus indexes) into ORD; how many. */
static int socket_order(const struct pandia_machine *m, int s,
			enum job_order by, int *ord)
{
	int c, p, k = 0, maxp = 0;

	for (c = 0; c < m->n_cores; c++)
		if (m->cores[c].socket == s && m->cores[c].n_pus > maxp)
			maxp = m->cores[c].n_pus;
	if (by == JOB_BY_PU) {
		for (c = 0; c < m->n_cores; c++)
			for (p = 0; m->cores[c].socket == s &&
			     p < m->cores[c].n_pus; p++)
				ord[k++] = m->cores[c].pus[p];
		return k;
	}
	for (p = 0; p < maxp; p++)
		for (c = 0; c < m->n_cores; c++)
			if (m->cores[c].socket == s && p < m->cores[c].n_pus)
				ord[k++] = m->cores[c].pus[p];
	return k;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Ranks of *(int *)ARG PUs each, by their PUs. */
static int rank_block_cmp(const void *a, const void *b, void *arg)
{
	const int *x = a, *y = b;
	int t = *(const int *)arg, i;

	for (i = 0; i < t; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/*
 * Layout (SPREAD, BY) of R_N ranks of T_N threads into PUS (R_N x
 * T_N), each rank's PUs taken from the sockets' orders; then each
 * rank's PUs sorted and the ranks by their PUs, so that a division
 * two layouts reach is the same array.
 */
static void layout_make(const struct pandia_machine *m, const struct job *j,
			int r_n, int t_n, enum job_spread spread,
			enum job_order by, int *pus)
{
	int S = m->n_sockets, *used = xcalloc((size_t)S, sizeof(int));
	int r, i, s = 0;

	for (r = 0; r < r_n; r++) {
		if (spread == JOB_SPREAD)
			s = r % S;
		for (i = 0; i < t_n; i++) {
			int tries = 0;

			if (spread == JOB_SPLIT)
				s = i % S;
			/* the next socket with a PU left */
			while (used[s] == j->sock_n[s] && tries++ < S)
				s = (s + 1) % S;
			pus[r * t_n + i] = j->sock_pus[s * JOB_ORDERS + by]
				[used[s]++];
		}
		qsort(pus + r * t_n, (size_t)t_n, sizeof(int), int_cmp);
	}
	qsort_r(pus, (size_t)r_n, (size_t)t_n * sizeof(int), rank_block_cmp,
		&t_n);
	free(used);
}

/* Whether the division PUS of R_N ranks of T_N threads is in j. */
static bool job_seen(const struct job *j, int r_n, int t_n, const int *pus)
{
	size_t d;

	for (d = 0; d < j->n_div; d++)
		if (j->div[d].ranks == r_n && j->div[d].threads == t_n &&
		    !memcmp(j->div[d].pus, pus,
			    sizeof(int) * (size_t)(r_n * t_n)))
			return true;
	return false;
}

/* Each socket's PUs in each order. */
static void job_sockets(const struct pandia_machine *m, struct job *j)
{
	int s, by;

	j->sock_pus = xcalloc((size_t)m->n_sockets * JOB_ORDERS,
			      sizeof(int *));
	j->sock_n = xcalloc((size_t)m->n_sockets, sizeof(int));
	for (s = 0; s < m->n_sockets; s++)
		for (by = 0; by < JOB_ORDERS; by++) {
			int *o = xcalloc((size_t)m->n_pus, sizeof(int));

			j->sock_n[s] = socket_order(m, s, by, o);
			j->sock_pus[s * JOB_ORDERS + by] = o;
		}
}

/* The model's instances for R ranks (one per rank).  0, or -1. */
static int job_states(const struct ctx *x, struct job *j, int r)
{
	if (r <= j->n_state)
		return 0;
	j->state = xrealloc(j->state, sizeof(void *) * (size_t)r);
	while (j->n_state < r) {
		j->state[j->n_state] = corun_state(x, x->o->workload_path,
						   x->w);
		if (!j->state[j->n_state])
			return -1;
		j->n_state++;
	}
	return 0;
}

/*
 * Division d predicted: each rank a part of one co-run.  0, or -1
 * (said, unless QUIET: the caller leaves the division out).
 */
static int job_predict(const struct ctx *x, struct job *j,
		       struct job_div *d, bool quiet)
{
	struct model_corun_part *parts;
	struct model_prediction *pr;
	struct pandia_error err;
	int r, ret = -1;

	if (job_states(x, j, d->ranks) < 0)
		return -1;
	parts = xcalloc((size_t)d->ranks, sizeof(*parts));
	pr = xcalloc((size_t)d->ranks, sizeof(*pr));
	for (r = 0; r < d->ranks; r++) {
		parts[r].state = j->state[r];
		parts[r].pus = d->pus + r * d->threads;
		parts[r].n = d->threads;
	}
	if (x->o->model->corun(parts, d->ranks, pr, &err) < 0) {
		if (!quiet)
			perr_print(&err, stderr);
		goto out;
	}
	d->rank_time = xcalloc((size_t)d->ranks, sizeof(double));
	d->bottleneck = xcalloc((size_t)d->ranks, sizeof(char *));
	d->time = 0;
	for (r = 0; r < d->ranks; r++) {
		d->rank_time[r] = pr[r].time;
		d->bottleneck[r] = pr[r].bottleneck ? pr[r].bottleneck : "-";
		if (pr[r].time > d->time)
			d->time = pr[r].time;
	}
	ret = 0;
out:
	free(parts);
	free(pr);
	return ret;
}

/* The sockets each rank of D spans and the cores ranks share. */
static void div_describe(const struct pandia_machine *m, struct job_div *d)
{
	int *owner = xcalloc((size_t)m->n_cores, sizeof(int));
	bool *shared = xcalloc((size_t)m->n_cores, sizeof(bool));
	bool *on = xcalloc((size_t)m->n_sockets, sizeof(bool));
	int r, i, s;

	d->sock_lo = m->n_sockets;
	d->sock_hi = 0;
	d->shared = 0;
	for (r = 0; r < d->ranks; r++) {
		int n = 0;

		memset(on, 0, sizeof(bool) * (size_t)m->n_sockets);
		for (i = 0; i < d->threads; i++) {
			int c = m->pus[d->pus[r * d->threads + i]].core;

			on[m->cores[c].socket] = true;
			if (owner[c] && owner[c] != r + 1 && !shared[c]) {
				shared[c] = true;
				d->shared++;
			}
			owner[c] = r + 1;
		}
		for (s = 0; s < m->n_sockets; s++)
			n += on[s];
		if (n < d->sock_lo)
			d->sock_lo = n;
		if (n > d->sock_hi)
			d->sock_hi = n;
	}
	free(owner);
	free(shared);
	free(on);
}

/*
 * Division PUS (R_N x T_N, each rank's ascending, the ranks by their
 * PUs) added to j and predicted; a layout when LAYOUT.  0, or -1.
 */
static int div_add(const struct ctx *x, struct job *j, int r_n, int t_n,
		   const int *pus, bool layout, enum job_spread sp,
		   enum job_order by)
{
	struct job_div *d;

	if (j->n_div == j->cap_div) {
		j->cap_div = 2 * j->cap_div + 64;
		j->div = xrealloc(j->div, j->cap_div * sizeof(*j->div));
	}
	d = &j->div[j->n_div];
	memset(d, 0, sizeof(*d));
	d->ranks = r_n;
	d->threads = t_n;
	d->layout = layout;
	d->spread = sp;
	d->order = by;
	d->seq = j->n_div++;
	d->pus = xmalloc(sizeof(int) * (size_t)(r_n * t_n));
	memcpy(d->pus, pus, sizeof(int) * (size_t)(r_n * t_n));
	div_describe(x->m, d);
	if (job_predict(x, j, d, !layout) == 0)
		return 0;
	if (layout)
		return -1;
	/* an enumerated division the model cannot predict: left out */
	free(d->pus);
	j->n_div--;
	j->unpredicted++;
	return 0;
}

/* Whether canonical form S is one of this (R, T)'s layouts'. */
static bool is_layout(const struct job *j, const uint16_t *s)
{
	int n = divisions_len(j->dv), i;

	for (i = 0; i < j->n_lay; i++)
		if (j->lay_key[i] && !memcmp(j->lay_key[i], s,
					     sizeof(uint16_t) * (size_t)n))
			return true;
	return false;
}

/*
 * The canonical form of layout PUS into KEY, while the search has
 * steps left (CANON_STEPS at most), charged to them.  0, or -1.
 */
static int layout_key(struct job *j, int r_n, int t_n, const int *pus,
		      uint16_t *key)
{
	long steps = j->steps_left < CANON_STEPS ? j->steps_left :
		CANON_STEPS;
	int ret;

	if (steps <= 0)
		return -1;
	ret = divisions_canonical(j->dv, r_n, t_n, pus, steps, key);
	j->steps_left -= divisions_steps(j->dv);
	return ret;
}

/* The layouts of R_N ranks of T_N threads, each class once.  0, or -1. */
static int job_layouts(const struct ctx *x, struct job *j, int r_n, int t_n)
{
	int *pus = xcalloc((size_t)(r_n * t_n), sizeof(int));
	int n = divisions_len(j->dv), sp, by, ret = -1;

	for (sp = 0; sp < JOB_SPREADS; sp++)
		for (by = 0; by < JOB_ORDERS; by++) {
			uint16_t *key = xcalloc((size_t)n, sizeof(uint16_t));

			layout_make(x->m, j, r_n, t_n, sp, by, pus);
			if (job_seen(j, r_n, t_n, pus)) {
				free(key);
				continue;
			}
			if (layout_key(j, r_n, t_n, pus, key) < 0) {
				/* not told apart from the enumerated */
				free(key);
				key = NULL;
				j->complete = false;
			} else if (is_layout(j, key)) {
				/* another layout's division, up to
				   symmetry */
				free(key);
				continue;
			}
			j->lay_key[j->n_lay++] = key;
			if (div_add(x, j, r_n, t_n, pus, true, sp, by) < 0)
				goto out;
		}
	ret = 0;
out:
	free(pus);
	return ret;
}

/* One division the enumeration gives, unless a layout's. */
static int div_found(const uint16_t *s, void *arg)
{
	struct job *j = arg;
	const struct ctx *x = j->x;
	int n = divisions_len(j->dv), r_n = 0, t_n, i, r, k = 0;

	if (is_layout(j, s))
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] > r_n)
			r_n = s[i];
	for (i = 0, t_n = 0; i < n; i++)
		t_n += s[i] == 1;
	for (r = 1; r <= r_n; r++) {
		for (i = 0; i < n; i++)
			if (s[i] == r)
				j->buf[k++] = divisions_pu(j->dv, i);
		qsort(j->buf + k - t_n, (size_t)t_n, sizeof(int), int_cmp);
	}
	qsort_r(j->buf, (size_t)r_n, (size_t)t_n * sizeof(int),
		rank_block_cmp, &t_n);
	if (div_add(x, j, r_n, t_n, j->buf, false, 0, 0) < 0) {
		j->err = 1;
		return 1;
	}
	return 0;
}

/*
 * Every division of R_N ranks of T_N threads up to symmetry, the
 * layouts first (ties go to them), as far as the caps allow.  0, or -1.
 */
static int job_divisions(const struct ctx *x, struct job *j, int r_n,
			 int t_n)
{
	size_t before = j->n_div;
	bool complete = false;
	double lb;
	int i, ret = -1;

	j->n_lay = 0;
	if (job_layouts(x, j, r_n, t_n) < 0)
		goto out;
	j->x = x;
	j->cap = j->div_left / j->pairs_left;
	j->cap = j->cap > DIV_MIN ? j->cap : DIV_MIN;
	j->steps = j->steps_left / j->pairs_left;
	j->steps = j->steps > DIV_MIN_STEPS ? j->steps : DIV_MIN_STEPS;
	/* nothing left: the layouts alone */
	if (j->div_left > 0 && j->steps_left > 0) {
		divisions_enumerate(j->dv, r_n, t_n, j->cap, j->steps,
				    div_found, j, &complete);
		j->steps_left -= divisions_steps(j->dv);
	}
	j->pairs_left--;
	j->div_left -= (long)(j->n_div - before);
	if (j->err)
		goto out;
	if (complete) {
		j->classes += (double)(j->n_div - before);
	} else {
		lb = divisions_lower_bound(j->dv, r_n, t_n);
		j->complete = false;
		j->classes += lb > (double)(j->n_div - before) ? lb :
			(double)(j->n_div - before);
		/* past this the bound says nothing more */
		j->classes = j->classes > 1e300 ? 1e300 : j->classes;
	}
	ret = 0;
out:
	for (i = 0; i < j->n_lay; i++)
		free(j->lay_key[i]);
	j->n_lay = 0;
	return ret;
}

static int job_div_cmp(const void *a, const void *b)
{
	const struct job_div *x = a, *y = b;
	int px = x->ranks * x->threads, py = y->ranks * y->threads;

	/* the time to the models' precision (a co-run converges to about
	   1e-6: nearer times are one), then fewer PUs, then fewer ranks,
	   then in the order made (the layouts first) */
	if (fabs(x->time - y->time) > 1e-5 * (x->time + y->time))
		return x->time < y->time ? -1 : 1;
	if (px != py)
		return px < py ? -1 : 1;
	if (x->ranks != y->ranks)
		return x->ranks < y->ranks ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * The rank counts asked for, checked against the machine: --ranks R
 * must divide its PUs (each rank as many PUs), and R ranks of
 * --threads T must fit on them.  0, or -1 after saying why.
 */
static int job_counts(const struct ctx *x, struct job *j)
{
	const struct cli *o = x->o;
	int P = x->m->n_pus, t = o->threads;

	if (o->ranks == RANKS_ANY) {
		j->r_lo = 1;
		j->r_hi = t ? P / t : P;
		if (j->r_hi < 1) {
			error("--threads %d: more threads than the %d PU%s "
			      "of machine '%s'", t, P, plural(P),
			      o->machine_path);
			return -1;
		}
		return 0;
	}
	if (o->ranks > P) {
		error("--ranks %d: more ranks than the %d PU%s of machine "
		      "'%s' (a rank needs a PU of its own)", o->ranks, P,
		      plural(P), o->machine_path);
		return -1;
	}
	if (P % o->ranks) {
		error("--ranks %d does not divide the %d PUs of machine "
		      "'%s': every rank gets as many PUs (try a divisor of "
		      "%d, or --ranks any)", o->ranks, P, o->machine_path, P);
		return -1;
	}
	if (t && o->ranks * t > P) {
		error("--ranks %d of --threads %d: %d threads, more than the "
		      "%d PUs of machine '%s'", o->ranks, t, o->ranks * t, P,
		      o->machine_path);
		return -1;
	}
	j->r_lo = j->r_hi = o->ranks;
	return 0;
}

/* Every division asked for, predicted and ranked.  0, or -1. */
static int job_rank(const struct ctx *x, struct job *j)
{
	struct pandia_error err;
	int P = x->m->n_pus, r, t, pairs = 0;

	job_sockets(x->m, j);
	j->sp = space_new(x->m, 1, &x->mem, &err);
	if (!j->sp) {
		perr_print(&err, stderr);
		return -1;
	}
	j->dv = divisions_new(j->sp);
	j->buf = xcalloc((size_t)P, sizeof(int));
	j->complete = true;
	for (r = j->r_lo; r <= j->r_hi; r++)
		if (!(P % r))
			pairs += x->o->threads ? 1 : P / r;
	j->pairs_left = pairs;
	j->div_left = DIV_TOTAL;
	j->steps_left = DIV_STEPS;
	for (r = j->r_lo; r <= j->r_hi; r++) {
		int t_lo = x->o->threads ? x->o->threads : 1;
		int t_hi = x->o->threads ? x->o->threads : P / r;

		if (P % r)
			continue;
		for (t = t_lo; t <= t_hi; t++)
			if (job_divisions(x, j, r, t) < 0)
				return -1;
	}
	qsort(j->div, j->n_div, sizeof(*j->div), job_div_cmp);
	j->top = x->o->top > 0 && (size_t)x->o->top < j->n_div ?
		(size_t)x->o->top : j->n_div;
	return 0;
}

/* Rank r's PUs of d as an OS set ("0-3").  New string. */
static char *rank_cpus(const struct pandia_machine *m,
		       const struct job_div *d, int r)
{
	int *os = os_of(m, d->pus + r * d->threads, d->threads);
	char *s = cpuset_format(os, d->threads);

	free(os);
	return s;
}

/*
 * The launcher's layout of D ("packed, by core"), or what sets it
 * apart: the sockets a rank spans, the cores two ranks share.
 */
static void div_layout(const struct job_div *d, char *buf, size_t size)
{
	int n;

	if (d->layout) {
		snprintf(buf, size, "%s, %s", spread_name[d->spread],
			 order_name[d->order]);
		return;
	}
	if (d->sock_lo == d->sock_hi)
		n = snprintf(buf, size, "%d socket%s/rank", d->sock_lo,
			     plural(d->sock_lo));
	else
		n = snprintf(buf, size, "%d-%d sockets/rank", d->sock_lo,
			     d->sock_hi);
	if (d->shared && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", %d split", d->shared);
}

/*
 * The ranks of division D as the lines that start a job take them:
 * rank r on the OS PUs os[r], D->threads of them, ascending.  A new
 * array of new arrays (ranks_os_free()).
 */
static int **ranks_os(const struct pandia_machine *m, const struct job_div *d)
{
	int **os = xcalloc((size_t)d->ranks, sizeof(int *)), r;

	for (r = 0; r < d->ranks; r++)
		os[r] = os_of(m, d->pus + r * d->threads, d->threads);
	return os;
}

static void ranks_os_free(int **os, int ranks)
{
	int r;

	for (r = 0; os && r < ranks; r++)
		free(os[r]);
	free(os);
}

/* The launchers' lines of division D, its ranks at the OS PUs OS. */
static void div_pins(const struct ctx *x, const struct job_div *d,
		     int *const *os, struct pins *p)
{
	struct job_rank *r = xcalloc((size_t)d->ranks, sizeof(*r));
	int i;

	for (i = 0; i < d->ranks; i++) {
		r[i].n = d->threads;
		r[i].os = os[i];
	}
	pins_make_job(x, d->ranks, r, p);
	free(r);
}

/* Division J of those ranked as JSON, its ranks' placements in it. */
static json_t *div_json(const struct ctx *x, const struct job *j, size_t k)
{
	const struct job_div *d = &j->div[k];
	json_t *o = json_object(), *a = json_array();
	char lay[64];
	int r;

	div_layout(d, lay, sizeof(lay));
	json_object_set_new(o, "rank", json_integer((json_int_t)k + 1));
	json_object_set_new(o, "ranks", json_integer(d->ranks));
	json_object_set_new(o, "threads", json_integer(d->threads));
	json_object_set_new(o, "layout", json_string(lay));
	json_object_set_new(o, "launcher_layout", json_boolean(d->layout));
	json_object_set_new(o, "sockets_per_rank",
			    json_pack("[ii]", d->sock_lo, d->sock_hi));
	json_object_set_new(o, "shared_cores", json_integer(d->shared));
	json_object_set_new(o, "time", json_real(d->time));
	for (r = 0; r < d->ranks; r++) {
		json_t *p = json_object();
		char *cpus = rank_cpus(x->m, d, r);

		json_object_set_new(p, "rank", json_integer(r));
		json_object_set_new(p, "cpus", json_string(cpus));
		json_object_set_new(p, "time", json_real(d->rank_time[r]));
		json_object_set_new(p, "bottleneck",
				    json_string(d->bottleneck[r]));
		json_array_append_new(a, p);
		free(cpus);
	}
	json_object_set_new(o, "processes", a);
	if (k == 0) {
		int **os = ranks_os(x->m, d);
		struct pins p;

		div_pins(x, d, os, &p);
		if (p.shown)
			json_object_set_new(o, "pin", pins_json(&p));
		pins_release(&p);
		ranks_os_free(os, d->ranks);
	}
	return o;
}

static void job_json(const struct ctx *x, const struct job *j)
{
	json_t *root = json_object(), *a = json_array();
	size_t k;

	json_object_set_new(root, "schema", json_string("pandia-predict/1"));
	json_object_set_new(root, "model", json_string(x->o->model->name));
	json_object_set_new(root, "machine", json_string(x->o->machine_path));
	json_object_set_new(root, "workload",
			    json_string(x->o->workload_path));
	json_object_set_new(root, "mode", json_string("ranks"));
	json_object_set_new(root, "objective", json_string("max"));
	json_object_set_new(root, "ranked",
			    json_integer((json_int_t)j->n_div));
	json_object_set_new(root, "complete", json_boolean(j->complete));
	json_object_set_new(root, "classes_at_least", json_real(j->classes));
	for (k = 0; k < j->top; k++)
		json_array_append_new(a, div_json(x, j, k));
	json_object_set_new(root, "divisions", a);
	json_print(root);
	json_decref(root);
}

/* The ranks' PUs of d in one cell, cut to WIDTH characters. */
static void div_cell(const struct pandia_machine *m, const struct job_div *d,
		     char *cell, size_t width)
{
	size_t len = 0;
	int r;

	cell[0] = '\0';
	for (r = 0; r < d->ranks && len < width; r++) {
		char *c = rank_cpus(m, d, r);

		len += (size_t)snprintf(cell + len, width + 1 - len, "%s%s",
					r ? " | " : "", c);
		free(c);
	}
	if (len >= width)
		memcpy(cell + width - 3, "...", 4);
}

/*
 * The best division D: each rank's OS PUs OS (what a launcher binds
 * it to), its time and bottleneck, one line a rank.
 */
static void best_print(const struct job_div *d, int *const *os)
{
	char lay[64];
	int r;

	div_layout(d, lay, sizeof(lay));
	printf("\nbest      %d rank%s of %d thread%s (%s): %#.4g s\n",
	       d->ranks, plural(d->ranks), d->threads, plural(d->threads),
	       lay, d->time);
	for (r = 0; r < d->ranks; r++) {
		char *c = cpuset_format(os[r], d->threads);

		printf("  rank %-3d cpus %-16s %#10.4g s  bottleneck %s\n",
		       r, c, d->rank_time[r], d->bottleneck[r]);
		free(c);
	}
}

static void job_print(const struct ctx *x, const struct job *j)
{
	char cell[40], lay[64];
	struct pins p;
	int **os;
	size_t k;

	print_header(x);
	printf("job       each rank a copy of the workload at its own "
	       "placement, together;\n          the job as slow as its "
	       "slowest rank\n");
	if (j->r_lo == j->r_hi)
		printf("divisions %zu ranked: %d rank%s", j->n_div, j->r_lo,
		       plural(j->r_lo));
	else
		printf("divisions %zu ranked: every rank count that divides "
		       "the %d PUs", j->n_div, x->m->n_pus);
	if (x->o->threads)
		printf(", %d thread%s each\n\n", x->o->threads,
		       plural(x->o->threads));
	else
		printf(", 1 to PUs/ranks threads each\n\n");
	printf("%4s %5s %7s  %-25s %10s  %s\n", "rank", "ranks", "threads",
	       "layout", "time (s)", "ranks' PUs");
	for (k = 0; k < j->top; k++) {
		const struct job_div *d = &j->div[k];

		div_layout(d, lay, sizeof(lay));
		div_cell(x->m, d, cell, sizeof(cell) - 1);
		printf("%4zu %5d %7d  %-25s %#10.4g  %s\n", k + 1, d->ranks,
		       d->threads, lay, d->time, cell);
	}
	os = ranks_os(x->m, &j->div[0]);
	best_print(&j->div[0], os);
	div_pins(x, &j->div[0], os, &p);
	if (p.shown) {
		printf("\nto run it (each rank bound to its PUs):\n");
		pins_print(&p);
	}
	pins_release(&p);
	ranks_os_free(os, j->div[0].ranks);
}

static void job_release(const struct ctx *x, struct job *j)
{
	size_t k;
	int i;

	for (k = 0; k < j->n_div; k++) {
		free(j->div[k].pus);
		free(j->div[k].rank_time);
		free(j->div[k].bottleneck);
	}
	free(j->div);
	for (i = 0; i < j->n_state; i++)
		x->o->model->close(j->state[i]);
	free(j->state);
	for (i = 0; j->sock_pus && i < x->m->n_sockets * JOB_ORDERS; i++)
		free(j->sock_pus[i]);
	free(j->sock_pus);
	free(j->sock_n);
	free(j->buf);
	divisions_free(j->dv);
	space_free(j->sp);
}

int do_ranks(struct ctx *x)
{
	struct job j;
	int ret = 1;

	memset(&j, 0, sizeof(j));
	if (!x->o->model->corun) {
		error("model '%s' does not predict co-runs, and so no job of "
		      "several ranks", x->o->model->name);
		return 1;
	}
	if (job_counts(x, &j) < 0 || job_rank(x, &j) < 0)
		goto out;
	if (j.unpredicted)
		warning("%zu division%s left out: the model's co-run did not "
			"settle", j.unpredicted, plural((int)j.unpredicted));
	if (!j.complete)
		warning("divisions: first %zu of at least %.*g up to "
			"symmetry, the launchers' layouts among them (the "
			"enumeration stops at %d divisions and about %ld "
			"steps of search)", j.n_div, j.classes < 1e15 ? 15 : 3,
			j.classes, DIV_TOTAL, DIV_STEPS);
	if (x->o->json)
		job_json(x, &j);
	else
		job_print(x, &j);
	ret = 0;
out:
	job_release(x, &j);
	return ret;
}
