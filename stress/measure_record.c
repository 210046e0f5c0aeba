/*
 * measure_record.c - a job's measure record: which repetitions count,
 * the best, median and spread, the note on other processes, and where
 * the figure goes in the machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"
#include "stress/measure_internal.h"

/*
 * The measure record of job J from its repetitions.  Which rate counts:
 *  - WALL (asked for): the wall-clock rates of every repetition;
 *  - one thread: the CPU-time rates of every repetition (exact even
 *    when other processes took turns on the PU);
 *  - several threads: the rates over the time they all ran together,
 *    of the repetitions in which that was at least MIN_TOGETHER of the
 *    time; when there is none, the wall-clock rates, a lower bound
 *    (the bytes really moved in the time), said so in the note.
 */
#define MIN_TOGETHER	0.1

void stress_fill_record(struct pandia_measure *ms, const struct job *j,
			const struct reps *r, bool wall)
{
	double *rates = xcalloc(r->n, sizeof(double));
	double lo, hi, med, low_share = 1;
	int i, n = 0, clean = 0, usable = 0;
	char *note = NULL;

	for (i = 0; i < r->n; i++) {
		if (r->share[i] < low_share)
			low_share = r->share[i];
		if (r->share[i] >= CLEAN_SHARE)
			clean++;
		if (r->share[i] >= MIN_TOGETHER)
			usable++;
	}
	for (i = 0; i < r->n; i++) {
		if (wall)
			rates[n++] = r->wall[i];
		else if (j->n == 1)
			rates[n++] = r->cpu[i];
		else if (!usable)
			rates[n++] = r->wall[i];
		else if (r->share[i] >= MIN_TOGETHER)
			rates[n++] = r->cpu[i];
	}
	if (clean == r->n)
		;
	else if (wall)
		note = xasprintf("other processes took turns on the PUs "
				 "(ours %.0f%% of the time at worst)",
				 100 * low_share);
	else if (j->n == 1)
		note = xasprintf("other processes took turns on the PU (ours "
				 "%.0f%% of the time at worst): rates over "
				 "the thread's CPU time", 100 * low_share);
	else if (usable == r->n)
		note = xasprintf("other processes took turns on the PUs: "
				 "rates over the time all threads ran "
				 "together (%.0f%% of it at worst)",
				 100 * low_share);
	else if (usable)
		note = xasprintf("other processes took turns on the PUs: "
				 "rates over the time all threads ran "
				 "together; %d of %d repetitions dropped "
				 "(together less than %.0f%% of the time)",
				 r->n - usable, r->n, 100 * MIN_TOGETHER);
	else
		note = xasprintf("the threads hardly ever ran together (other "
				 "processes took turns on the PUs): the "
				 "figure is a lower bound over the wall time");

	lo = hi = rates[0];
	for (i = 1; i < n; i++) {
		if (rates[i] < lo)
			lo = rates[i];
		if (rates[i] > hi)
			hi = rates[i];
	}
	med = median_of(rates, n);
	measure_release(ms);
	ms->kernel = xstrdup(stress_kernel_name(j->kind));
	ms->working_set = (double)j->ws;
	ms->threads = j->n;
	ms->pus = cpulist_format(j->pus, j->n);
	ms->repetitions = n;
	ms->best = hi;
	ms->median = med;
	ms->spread = med > 0 ? (hi - lo) / med : 0;
	ms->unit = xstrdup(stress_kind_is_core(j->kind) ? "ops/s" :
			   "bytes/s");
	ms->note = join_status(j->note ? xstrdup(j->note) : NULL, note);
	free(note);
	free(rates);
}

/* A copy of a record, with NOTE (may be NULL) put before its note. */
void stress_copy_record(struct pandia_measure *dst,
			const struct pandia_measure *src, const char *note)
{
	measure_release(dst);
	*dst = *src;
	dst->kernel = src->kernel ? xstrdup(src->kernel) : NULL;
	dst->pus = src->pus ? xstrdup(src->pus) : NULL;
	dst->unit = src->unit ? xstrdup(src->unit) : NULL;
	dst->note = join_status(note ? xstrdup(note) : NULL, src->note);
}

void stress_store(struct pandia_machine *m, const struct job *j,
		  const struct reps *r, bool wall)
{
	struct pandia_link *l;
	struct pandia_measure ms;

	memset(&ms, 0, sizeof(ms));
	stress_fill_record(&ms, j, r, wall);
	if (j->target == T_ALL_BUSY || j->target == T_BUSY) {
		/* per core: the sum over the busy cores' threads */
		ms.best /= j->n;
		ms.median /= j->n;
	}
	switch (j->target) {
	case T_PEAK:
		m->peak_rate = ms.best;
		measure_release(&m->peak);
		m->peak = ms;
		return;
	case T_SMT:
		m->smt_applicable = true;
		m->smt_rate = ms.best;
		free(m->smt_reason);
		m->smt_reason = NULL;
		measure_release(&m->smt);
		m->smt = ms;
		return;
	case T_ALL_BUSY:
		m->all_busy_rate = ms.best;
		measure_release(&m->all_busy);
		m->all_busy = ms;
		return;
	case T_BUSY:
		m->busy[j->xlink].rate = ms.best;
		measure_release(&m->busy[j->xlink].m);
		m->busy[j->xlink].m = ms;
		return;
	case T_PER_CORE:
		l = &m->links[j->level];
		l->per_core_bw = ms.best;
		measure_release(&l->per_core);
		l->per_core = ms;
		return;
	case T_AGGREGATE:
		l = &m->links[j->level];
		l->aggregate_bw = ms.best;
		measure_release(&l->aggregate);
		l->aggregate = ms;
		return;
	case T_XLINK:
		m->xlinks[j->xlink].bw = ms.best;
		measure_release(&m->xlinks[j->xlink].m);
		m->xlinks[j->xlink].m = ms;
		return;
	case T_KIND:
		m->kinds[j->xlink].rate = ms.best;
		measure_release(&m->kinds[j->xlink].m);
		m->kinds[j->xlink].m = ms;
		return;
	}
	measure_release(&ms);
}
