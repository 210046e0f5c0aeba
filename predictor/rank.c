/*
 * rank.c - every canonical placement predicted, in parallel, and ranked.
 */
#include "predictor/rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* ---- enumeration into the arena --------------------------------- */

struct collect {
	struct ranking *r;
	size_t cap;
};

static int collect_one(const struct space *sp, const uint16_t *st,
		       void *arg)
{
	struct collect *c = arg;
	struct ranking *r = c->r;
	size_t ns = (size_t)sp->n_slots;

	if (r->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		r->e = xrealloc(r->e, sizeof(*r->e) * c->cap);
		r->arena = xrealloc(r->arena, sizeof(*r->arena) * ns * c->cap);
	}
	memset(&r->e[r->n], 0, sizeof(r->e[r->n]));
	r->e[r->n].st = r->n * ns;
	memcpy(r->arena + r->n * ns, st, sizeof(*st) * ns);
	r->n++;
	return 0;
}

/* Whether the space with LAYOUTS (0: all) holds more than MAX placements
   of THREADS threads (0: any). */
static bool too_many(const struct space *sp, int threads, int layouts,
		     long max)
{
	struct space_count c = space_count_layouts(sp, layouts);
	double n;

	if (!c.overflow && c.n <= (unsigned __int128)max)
		return false;
	if (!threads)
		return true;
	n = space_count_threads(sp, threads, layouts);
	return n < 0 || n > (double)max;
}

/* Every entry predicted by another model, one after the other. */
static int predict_model(struct ranking *r, const struct rank_opts *o,
			 struct pandia_error *err)
{
	size_t i;

	r->workers = 1;
	for (i = 0; i < r->n; i++) {
		struct rank_entry *e = &r->e[i];
		struct model_prediction pr = { NAN, NAN, NULL, NULL, NAN };
		int *pus, n, t, c, s, rc;

		n = space_pus(r->sp, r->arena + e->st, &pus);
		rc = o->model->predict(o->state, pus, n, o->size, &pr, err);
		free(pus);
		if (rc < 0)
			return -1;
		if (!r->warning)
			r->warning = pr.warning;
		space_usage(r->sp, r->arena + e->st, &t, &c, &s);
		e->time = pr.time > 0 && isfinite(pr.time) ? pr.time : 1e300;
		e->tq = llround(log(e->time) * 1e6);
		e->speedup = pr.speedup;
		e->threads = (uint16_t)t;
		e->cores = (uint16_t)c;
		e->sockets = (uint16_t)s;
		e->bott = RANK_BN_NONE;
	}
	return 0;
}

/* ---- the ranking ------------------------------------------------ */

int rank_all(const struct space *sp, const struct model_params *prm,
	     const struct rank_opts *o, struct ranking *r,
	     struct pandia_error *err)
{
	const struct model_def *def;
	struct collect c;
	long max = o->max_placements > 0 ? o->max_placements :
		RANK_DEFAULT_MAX;
	double t0 = now_seconds();
	unsigned __int128 total;

	memset(r, 0, sizeof(*r));
	r->sp = sp;
	r->full = space_count_all(sp);
	total = r->full.n;
	/* the full space, or the reduced one when that is too large:
	   counted, never enumerated: by arithmetic (any thread count,
	   so never fewer than with --threads), then for --threads by
	   dynamic programming over thread counts */
	if (r->full.overflow || total > (unsigned __int128)max) {
		if (too_many(sp, o->threads, 0, max)) {
			r->max_layouts = 2;
			if (too_many(sp, o->threads, 2, max))
				r->max_layouts = 1;
			if (r->max_layouts == 1 &&
			    too_many(sp, o->threads, 1, max)) {
				char buf[64];

				space_count_format(space_count_layouts(sp, 1),
						   buf, sizeof(buf));
				return perr_set(err, "too many placements to "
						"rank: %s even with the "
						"sockets of each kind in one "
						"layout, more than "
						"--max-placements %ld; try "
						"--threads N, a lower "
						"--oversubscribe or a larger "
						"--max-placements", buf, max);
			}
		}
	}
	memset(&c, 0, sizeof(c));
	c.r = r;
	space_enumerate(sp, o->threads, r->max_layouts, collect_one, &c);
	if (!r->n)
		return perr_set(err, "no placement has %d threads (the "
				"machine takes 1 to %d)", o->threads,
				sp->m->n_pus * sp->k);
	def = o->model ? o->model : model_default();
	if (def->rank_fast) {
		def->rank_fast(r, prm, o->workers);
	} else if (predict_model(r, o, err) < 0) {
		return -1;
	}
	r->seconds = now_seconds() - t0;
	return 0;
}

void rank_release(struct ranking *r)
{
	free(r->e);
	free(r->arena);
	memset(r, 0, sizeof(*r));
}

const uint16_t *rank_state(const struct ranking *r, size_t i)
{
	return r->arena + r->e[i].st;
}

int rank_cmp(const struct ranking *r, size_t a, size_t b)
{
	const struct rank_entry *x = &r->e[a], *y = &r->e[b];

	/* times equal to the model's precision: the cheaper first */
	if (x->tq != y->tq)
		return x->tq < y->tq ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads < y->threads ? -1 : 1;
	if (x->cores != y->cores)
		return x->cores < y->cores ? -1 : 1;
	if (x->sockets != y->sockets)
		return x->sockets < y->sockets ? -1 : 1;
	return (a > b) - (a < b);
}

size_t rank_best(const struct ranking *r)
{
	size_t i, best = 0;

	for (i = 1; i < r->n; i++)
		if (rank_cmp(r, i, best) < 0)
			best = i;
	return best;
}

static int cmp_idx(const void *a, const void *b, void *r)
{
	return rank_cmp(r, *(const size_t *)a, *(const size_t *)b);
}

/* Sift down in a max-heap of indexes (worst on top). */
static void sift(const struct ranking *r, size_t *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < n && rank_cmp(r, h[l], h[m]) > 0)
			m = l;
		if (l + 1 < n && rank_cmp(r, h[l + 1], h[m]) > 0)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

size_t rank_top(const struct ranking *r, size_t n, size_t *idx)
{
	size_t i, k;

	if (!n || n > r->n)
		n = r->n;
	/* keep the n best in a max-heap, then sort them */
	for (k = 0; k < n; k++)
		idx[k] = k;
	for (i = n / 2; i-- > 0; )
		sift(r, idx, n, i);
	for (i = n; i < r->n; i++)
		if (rank_cmp(r, i, idx[0]) < 0) {
			idx[0] = i;
			sift(r, idx, n, 0);
		}
	qsort_r(idx, n, sizeof(*idx), cmp_idx, (void *)r);
	return n;
}

size_t rank_within(const struct ranking *r, double pct)
{
	size_t best = rank_best(r), pick = best, i;
	double limit = r->e[best].time * (1 + pct / 100);

	for (i = 0; i < r->n; i++) {
		const struct rank_entry *e = &r->e[i], *p = &r->e[pick];

		if (e->time > limit)
			continue;
		if (e->cores < p->cores ||
		    (e->cores == p->cores && rank_cmp(r, i, pick) < 0))
			pick = i;
	}
	return pick;
}

/* Ten times MODEL_TOL, in log(time). */
#define RANK_EQUAL_LOG 1e-5

bool rank_equal_times(double a, double b)
{
	return a > 0 && b > 0 && fabs(log(a / b)) <= RANK_EQUAL_LOG;
}
