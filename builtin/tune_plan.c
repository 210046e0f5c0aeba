/*
 * tune_plan.c - pandia tune: the candidates.  Every placement is
 * ranked as predict ranks them; the predicted best, every PU unpinned,
 * the best of the thread counts next to the best's, the placements
 * whose range overlaps the best's (predict's ties) and the other
 * defaults users get without pandia are candidates, in that order of
 * priority, as many as three runs of each fit into the budget
 * (docs/tune.md, "How it chooses").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/predict.h"
#include "builtin/tune.h"
#include "common/util.h"
#include "predictor/defaults.h"

/* Ties measured at most: the rest of a flat optimum adds nothing. */
#define TUNE_MAX_TIES 4

/* A placement proposed, with why, before the budget decides. */
struct proposal {
	int row;
	const char *why;
};

struct plan {
	struct proposal *p;
	int n, cap;
};

static void propose(struct tctx *t, struct plan *pl, const int *pus, int n,
		    bool pinned, const char *why, const char *def_name)
{
	int row = def_name ? vset_add_default(&t->vs, def_name, pus, n,
					      pinned) :
		vset_add(&t->vs, pus, n, pinned, VROLE_SELECTED);

	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? 2 * pl->cap : 16;
		pl->p = xrealloc(pl->p, sizeof(*pl->p) * (size_t)pl->cap);
	}
	pl->p[pl->n].row = row;
	pl->p[pl->n++].why = why;
}

/* Ranking entry i proposed. */
static void propose_entry(struct tctx *t, struct plan *pl, size_t i,
			  const char *why)
{
	int *pus, n = space_pus(t->sp, rank_state(&t->r, i), &pus);

	propose(t, pl, pus, n, true, why, NULL);
	free(pus);
}

/*
 * The placements whose range overlaps the best's, as predict marks
 * them (without t1's part, which moves all alike), best first.
 */
static void propose_ties(struct tctx *t, struct plan *pl, struct ctx *cx,
			 size_t bi)
{
	struct urange ur;
	size_t ntop = t->r.n < 512 ? t->r.n : 512, i, *idx;
	int *pus, n, ties = 0;
	double blo, bhi, lo, hi;

	urange_init(&ur, cx, t->sp);
	n = space_pus(t->sp, rank_state(&t->r, bi), &pus);
	urange_of(&ur, pus, n, t->r.e[bi].time, false, &blo, &bhi);
	free(pus);
	idx = xcalloc(ntop + 1, sizeof(*idx));
	ntop = rank_top(&t->r, ntop, idx);
	for (i = 0; i < ntop && ties < TUNE_MAX_TIES; i++) {
		const struct rank_entry *e = &t->r.e[idx[i]];

		if (idx[i] == bi)
			continue;
		n = space_pus(t->sp, rank_state(&t->r, idx[i]), &pus);
		urange_of(&ur, pus, n, e->time, false, &lo, &hi);
		/* equal times are equal, not uncertain (as predict
		   says): measuring them would spend the budget on
		   placements the model cannot tell apart */
		if (lo <= bhi && e->tq != t->r.e[bi].tq) {
			propose(t, pl, pus, n, true, "range overlaps the "
				"best's", NULL);
			ties++;
		}
		free(pus);
	}
	free(idx);
	urange_release(&ur);
}

/* The best entry of the thread counts just below and above N's. */
static void propose_neighbours(struct tctx *t, struct plan *pl, int n)
{
	size_t below = (size_t)-1, above = (size_t)-1, i;

	for (i = 0; i < t->r.n; i++) {
		const struct rank_entry *e = &t->r.e[i], *b;

		if (e->threads < n) {
			b = below == (size_t)-1 ? NULL : &t->r.e[below];
			if (!b || e->threads > b->threads ||
			    (e->threads == b->threads && e->time < b->time))
				below = i;
		} else if (e->threads > n) {
			b = above == (size_t)-1 ? NULL : &t->r.e[above];
			if (!b || e->threads < b->threads ||
			    (e->threads == b->threads && e->time < b->time))
				above = i;
		}
	}
	if (below != (size_t)-1)
		propose_entry(t, pl, below, "best of the next thread count "
			      "down");
	if (above != (size_t)-1)
		propose_entry(t, pl, above, "best of the next thread count "
			      "up");
}

/* The defaults: every PU unpinned, close and spread at N and at all. */
static void propose_defaults(struct tctx *t, struct plan *pl, int n,
			     bool unpinned)
{
	int P = t->m->n_pus, *pus = xcalloc((size_t)P + 1, sizeof(int));
	enum default_kind k;
	char name[96];
	int pass;

	if (unpinned) {
		defaults_placement(t->m, DEF_UNPINNED, P, pus);
		propose(t, pl, pus, P, false, "default", defaults_name(
				DEF_UNPINNED, P, P, name, sizeof(name)));
		free(pus);
		return;
	}
	for (pass = 0; pass < (n != P ? 2 : 1); pass++) {
		int nt = pass ? P : n;

		for (k = DEF_CLOSE; k < DEF_COUNT; k++) {
			defaults_placement(t->m, k, nt, pus);
			propose(t, pl, pus, nt, true, "default",
				defaults_name(k, nt, P, name, sizeof(name)));
		}
	}
	free(pus);
}

/* Candidate c's why gets WHY (or the default's name). */
static void add_why(struct tune_row *c, const struct vrow *rw,
		    const char *why)
{
	const char *text = strcmp(why, "default") || !rw->names ? why :
		rw->names;

	if (c->why && strstr(c->why, text))
		return;
	c->why = join_status(c->why, text);
}

/* The proposals the budget allows, three runs each, as candidates. */
static int choose(struct tctx *t, const struct plan *pl)
{
	double cost = 0;
	int i, j;

	t->cands = xcalloc((size_t)pl->n + 1, sizeof(*t->cands));
	for (i = 0; i < pl->n; i++) {
		const struct vrow *rw = &t->vs.rows[pl->p[i].row];

		for (j = 0; j < t->n_cands; j++)
			if (t->cands[j].row == pl->p[i].row)
				break;
		if (j == t->n_cands) {
			if (cost + TUNE_MIN_RUNS * rw->predicted > t->budget)
				continue;
			cost += TUNE_MIN_RUNS * rw->predicted;
			t->cands[t->n_cands++].row = pl->p[i].row;
		}
		add_why(&t->cands[j], rw, pl->p[i].why);
	}
	if (t->n_cands >= 2)
		return 0;
	return error("a budget of %.4g s measures %s: two candidates "
		     "three times each need about %.4g s (--budget)",
		     t->budget, t->n_cands ? "one candidate only" :
		     "no candidate", TUNE_MIN_RUNS * (t->best_predicted +
						     t->vs.rows[pl->p[1].row].
						     predicted));
}

/* Each candidate's predicted range, with t1's part, as predict's. */
static void ranges(struct tctx *t, struct ctx *cx)
{
	struct urange ur;
	int i;

	urange_init(&ur, cx, t->sp);
	t->st = xcalloc((size_t)t->n_cands + 1, sizeof(*t->st));
	for (i = 0; i < t->n_cands; i++) {
		struct tune_row *c = &t->cands[i];
		const struct vrow *rw = &t->vs.rows[c->row];

		urange_of(&ur, rw->pus, rw->n, rw->predicted, true, &c->lo,
			  &c->hi);
		t->st[i].unpinned = !rw->pinned;
	}
	urange_release(&ur);
}

/* The candidates, proposed in order of priority. */
static void propose_all(struct tctx *t, struct plan *pl, struct ctx *cx)
{
	size_t bi = rank_best(&t->r);
	int n = t->r.e[bi].threads;

	propose_entry(t, pl, bi, "predicted best");
	t->vs.pick = pl->p[0].row;
	propose_defaults(t, pl, n, true);
	propose_neighbours(t, pl, n);
	propose_ties(t, pl, cx, bi);
	propose_defaults(t, pl, n, false);
	t->best_predicted = t->r.e[bi].time;
}

int tune_plan(struct tctx *t)
{
	struct pandia_error err;
	struct cli pc;
	struct ctx cx;
	struct plan pl = { NULL, 0, 0 };
	void *state;
	int ret = -1;

	t->mem = t->o->has_memory ? t->o->memory : t->w->has_memory ?
		t->w->memory : (struct pandia_mempolicy){ MEM_LOCAL, -1 };
	ctx_borrow(&cx, &pc, t->m, t->w, t->o->model, &t->mem, NULL);
	t->sp = space_new(t->m, t->o->k, &t->mem, &err);
	if (!t->sp)
		return error_perr(&err);
	state = t->o->model->open(t->m, t->w, &t->mem, &err);
	if (!state)
		return error_perr(&err);
	{
		struct rank_opts ro = { 0, RANK_DEFAULT_MAX, 0, t->o->model,
					state, NAN };

		if (rank_all(t->sp, &cx.prm, &ro, &t->r, &err) < 0) {
			error_perr(&err);
			goto out;
		}
	}
	t->have_ranking = true;
	/* the Pandia model's ranges come from its parameters; another
	   model states none */
	cx.state = t->o->model->model_section ? NULL : state;
	vset_init(&t->vs, t->sp);
	propose_all(t, &pl, &cx);
	if (vset_predict(&t->vs, t->o->model, state, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	t->budget = t->o->budget_times ? t->o->budget * t->best_predicted :
		t->o->budget;
	if (choose(t, &pl) < 0)
		goto out;
	ranges(t, &cx);
	ret = 0;
out:
	free(pl.p);
	t->o->model->close(state);
	return ret;
}

void tune_release(struct tctx *t)
{
	int i;

	for (i = 0; i < t->n_cands; i++) {
		free(t->cands[i].why);
	}
	free(t->cands);
	free(t->st);
	vset_release(&t->vs);
	if (t->have_ranking)
		rank_release(&t->r);
	space_free(t->sp);
}
