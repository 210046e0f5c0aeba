/*
 * tune_run.c - pandia tune: the candidates measured round robin, one
 * run of each live candidate per round, each run made as validate
 * makes a row's (validate_run_row(): pinned by the runner, measured
 * again once when others disturbed it, a failure named and the others
 * going on), until one leads every other, the budget is spent or a
 * signal stops it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/tune.h"
#include "builtin/validate.h"
#include "common/cpulist.h"
#include "common/util.h"
#include "profiler/run.h"

/* A validation context that runs t's rows one repetition at a time. */
static void as_validation(const struct tctx *t, struct cli *vo,
			  struct vctx *vx)
{
	memset(vo, 0, sizeof(*vo));
	vo->argv = t->o->argv;
	vo->reps = 1;
	vo->warmup = false;	/* round robin: no run is the first */
	vo->timeout = t->o->timeout;
	vo->time_from = t->o->time_from;
	vo->runner = t->o->runner;
	vo->mem = t->o->mem;
	vo->quiet = true;	/* tune says its own progress */
	vo->k = t->o->k;
	vo->model = t->o->model;
	memset(vx, 0, sizeof(*vx));
	vx->o = vo;
	vx->m = t->m;
	vx->w = t->w;
	vx->vs = t->vs;		/* the same rows */
	vx->t0 = t->t0;
	vx->shim = t->o->runner ? NULL : run_find_shim(NULL);
	/* a runner template pins (or simulates) by itself: the pinning
	   library is not expected there */
	vx->warned_shim = t->o->runner != NULL;
}

/* What the next round will cost: each live one's median, or its
   prediction before it ran. */
static double round_cost(const struct tctx *t)
{
	double s = 0;
	int i;

	for (i = 0; i < t->n_cands; i++)
		if (t->st[i].status == TUNE_LIVE)
			s += t->st[i].n ? t->vs.rows[t->cands[i].row].measured :
				t->vs.rows[t->cands[i].row].predicted;
	return s;
}

/* Run candidate i once; returns the signal that stopped it, or 0. */
static int run_one(struct tctx *t, struct vctx *vx, int i, int k, int total)
{
	struct tune_row *c = &t->cands[i];
	struct tune_cand *st = &t->st[i];
	struct vrow *rw = &t->vs.rows[c->row];
	int sig = validate_run_row(vx, c->row, 0, k, total);

	if (sig)
		return sig;
	if (rw->state == VROW_FAILED) {
		st->status = TUNE_FAILED;
		t->failed++;
		return 0;
	}
	/* the row keeps every run of the candidate */
	st->n = rw->reps;
	st->times = rw->times;
	t->spent += rw->times[rw->reps - 1];
	return 0;
}

/* The progress line of a round. */
static void round_progress(const struct tctx *t, int live)
{
	int lead = tune_leader(t->st, t->n_cands), i, dropped = 0;

	for (i = 0; i < t->n_cands; i++)
		dropped += t->st[i].status == TUNE_DROPPED;
	fprintf(stderr, "pandia tune: round %d: ", t->rounds);
	if (lead >= 0) {
		const struct vrow *rw = &t->vs.rows[t->cands[lead].row];

		fprintf(stderr, "leader %s%s (median %.4g s), ",
			rw->pinned ? "" : "unpinned ", rw->cpus,
			rw->measured);
	}
	fprintf(stderr, "%d live, %d dropped%s; %.4g of %.4g s spent\n",
		live, dropped, t->failed ? ", some failed" : "", t->spent,
		t->budget);
}

int tune_measure(struct tctx *t)
{
	struct cli vo;
	struct vctx vx;
	int i, j, live = t->n_cands, k = 0, total;

	as_validation(t, &vo, &vx);
	if (!vx.shim && !t->o->runner) {
		free(vx.shim);
		return error("cannot find libpandia-pin.so next to pandia "
			     "(build it with make, or set PANDIA_PIN_LIB)");
	}
	if (!t->o->quiet)
		progress("tune", "%d candidates, a budget of %.4g s (%g%s), "
			 "confidence %g", t->n_cands, t->budget, t->o->budget,
			 t->o->budget_times ? "x the predicted best" : " s",
			 t->o->confidence);
	while (live > 0) {
		if (t->spent + round_cost(t) > t->budget) {
			t->budget_spent = true;
			break;
		}
		t->rounds++;
		total = live;
		/* each round starts one further on, so that no
		   candidate always runs first */
		for (j = 0; j < t->n_cands; j++) {
			i = (j + t->rounds - 1) % t->n_cands;
			if (t->st[i].status != TUNE_LIVE)
				continue;
			t->interrupted = run_one(t, &vx, i, ++k, total);
			if (t->interrupted)
				break;
		}
		if (t->interrupted)
			break;
		live = tune_drop(t->st, t->n_cands, t->o->confidence,
				 t->rounds);
		if (!t->o->quiet)
			round_progress(t, live);
		if (live <= 1) {
			/* the others dropped, not failed */
			for (i = 0; i < t->n_cands; i++)
				t->decided |= t->st[i].status == TUNE_DROPPED;
			t->decided &= live == 1;
			break;
		}
	}
	if (!t->interrupted)
		t->interrupted = run_caught_signal();
	validate_runs_release(&vx);
	free(vx.shim);
	return 0;
}
