/*
 * borrow.c - figures for a topology described alone (see borrow.h).
 */
#include "stress/borrow.h"

#include <stdlib.h>
#include <string.h>

#include "common/topology.h"
#include "common/util.h"

static void copy_measure(struct pandia_measure *to,
			 const struct pandia_measure *from, const char *path)
{
	to->kernel = from->kernel ? xstrdup(from->kernel) : NULL;
	to->working_set = from->working_set;
	to->threads = from->threads;
	to->pus = from->pus ? xstrdup(from->pus) : NULL;
	to->repetitions = from->repetitions;
	to->best = from->best;
	to->median = from->median;
	to->spread = from->spread;
	to->unit = from->unit ? xstrdup(from->unit) : NULL;
	to->note = xasprintf("taken from %s (same CPU model)%s%s", path,
			     from->note ? ": " : "",
			     from->note ? from->note : "");
}

static bool has_cache(const struct pandia_machine *m, int level)
{
	int i;

	for (i = 0; i < m->n_caches; i++)
		if (m->caches[i].level == level)
			return true;
	return false;
}

void borrow_figures(struct pandia_machine *m,
		    const struct pandia_machine *from, const char *from_path)
{
	int i, k, smt = 1;

	for (k = 1; k <= 3; k++)
		if (!has_cache(m, k))
			for (i = 0; i < from->n_caches; i++)
				if (from->caches[i].level == k) {
					topology_add_cache(m, k,
						from->caches[i].size);
					break;
				}
	m->peak_rate = from->peak_rate;
	if (from->peak_reason)
		m->peak_reason = xstrdup(from->peak_reason);
	else
		copy_measure(&m->peak, &from->peak, from_path);
	for (i = 0; i < m->n_cores; i++)
		if (m->cores[i].n_pus > smt)
			smt = m->cores[i].n_pus;
	if (smt > 1 && from->smt_applicable) {
		m->smt_applicable = true;
		m->smt_rate = from->smt_rate;
		copy_measure(&m->smt, &from->smt, from_path);
	} else {
		m->smt_reason = xstrdup(smt == 1 ?
			"not applicable: one PU per core" :
			"unknown: the host it was taken from has no SMT");
	}
	for (k = 0; k < LVL_COUNT; k++) {
		struct pandia_link *l = &m->links[k];
		const struct pandia_link *f = &from->links[k];

		if (k <= LVL_L3 && !has_cache(m, k + 1)) {
			l->reason = xstrdup("no such cache");
			continue;
		}
		if (k == LVL_INTERCONNECT && m->n_sockets < 2) {
			l->reason = xstrdup("not applicable: one socket");
			continue;
		}
		if (!f->present) {
			l->reason = xasprintf("unknown: %s has no %s figure",
					      from_path, level_name(k));
			continue;
		}
		l->present = true;
		l->per_core_bw = f->per_core_bw;
		l->aggregate_bw = f->aggregate_bw;
		copy_measure(&l->per_core, &f->per_core, from_path);
		copy_measure(&l->aggregate, &f->aggregate, from_path);
	}
	if (!m->links[LVL_INTERCONNECT].present)
		return;
	machine_pair_xlinks(m);
	for (i = 0; i < m->n_xlinks; i++)
		copy_measure(&m->xlinks[i].m,
			     &from->links[LVL_INTERCONNECT].aggregate,
			     from_path);
}

void borrow_none(struct pandia_machine *m, const char *why)
{
	int i, k;

	m->peak_rate = 0;
	m->peak_reason = xstrdup(why);
	for (i = 0, k = 1; i < m->n_cores; i++)
		if (m->cores[i].n_pus > k)
			k = m->cores[i].n_pus;
	m->smt_reason = xstrdup(k == 1 ? "not applicable: one PU per core" :
				why);
	for (k = 0; k < LVL_COUNT; k++) {
		m->links[k].present = false;
		m->links[k].reason = xstrdup(k <= LVL_L3 &&
					     !has_cache(m, k + 1) ?
					     "no such cache" : why);
	}
}
