/*
 * space_walk.c - walking a space's canonical placements, and going
 * between a canonical placement and the PUs it runs on.
 */
#include "predictor/space.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

struct walk {
	const struct space *sp;
	int target, max_layouts;
	space_visit_fn fn;
	void *arg;
	uint16_t *st;
	int *max_after;		/* per slot: most threads from it on */
};

static int walk(struct walk *w, int slot, int threads, int distinct)
{
	const struct space *sp = w->sp;
	const struct sclass *cl;
	int i, hi, c, ret;

	if (slot == sp->n_slots) {
		if (!threads || (w->target && threads != w->target))
			return 0;
		return w->fn(sp, w->st, w->arg);
	}
	c = sp->slot_class[slot];
	cl = &sp->classes[c];
	if (slot == cl->slot0) {
		hi = cl->n_states - 1;
		distinct = 0;
	} else {
		hi = w->st[slot - 1];
	}
	if (w->target && cl->states[hi].threads > w->target - threads) {
		/* states are sorted by threads: start at the last one
		   that fits, found by bisection (stepping down past those
		   that do not fit was quadratic in the states) */
		int lo = 0, top = hi, left = w->target - threads;

		while (lo < top) {
			int mid = lo + (top - lo + 1) / 2;

			if (cl->states[mid].threads <= left)
				lo = mid;
			else
				top = mid - 1;
		}
		if (slot != cl->slot0 && w->max_layouts &&
		    distinct >= w->max_layouts)
			lo = 0;	/* the one before does not fit */
		hi = lo;
	}
	for (i = hi; i >= 0; i--) {
		int t = threads + cl->states[i].threads, d = distinct;

		/* as many layouts as allowed: the one before, or empty
		   (skipping the states between one by one was quadratic
		   in the states) */
		if (w->max_layouts && slot != cl->slot0 &&
		    distinct >= w->max_layouts && i != w->st[slot - 1] &&
		    i > 0) {
			i = 1;
			continue;
		}

		if (w->target) {
			if (t > w->target)
				continue;
			/* states below i hold fewer threads: stop when even
			   the most the remaining slots hold is too few */
			if (t + (slot + 1 < sp->n_slots ?
				 w->max_after[slot + 1] : 0) < w->target)
				break;
		}
		if (i && (slot == cl->slot0 || i != w->st[slot - 1]))
			d++;
		if (w->max_layouts && d > w->max_layouts)
			continue;
		w->st[slot] = (uint16_t)i;
		ret = walk(w, slot + 1, t, d);
		if (ret)
			return ret;
	}
	return 0;
}

int space_enumerate(const struct space *sp, int threads, int max_layouts,
		    space_visit_fn fn, void *arg)
{
	struct walk w = { sp, threads, max_layouts, fn, arg, NULL, NULL };
	int s, ret;

	w.st = xcalloc((size_t)sp->n_slots, sizeof(uint16_t));
	w.max_after = xcalloc((size_t)sp->n_slots + 1, sizeof(int));
	for (s = sp->n_slots - 1; s >= 0; s--) {
		const struct sclass *cl = &sp->classes[sp->slot_class[s]];

		w.max_after[s] = w.max_after[s + 1] +
			cl->states[cl->n_states - 1].threads;
	}
	ret = walk(&w, 0, 0, 0);
	free(w.st);
	free(w.max_after);
	return ret;
}

void space_usage(const struct space *sp, const uint16_t *st, int *threads,
		 int *cores, int *sockets)
{
	int s, t = 0, c = 0, n = 0;

	for (s = 0; s < sp->n_slots; s++) {
		const struct sstate *ss =
			&sp->classes[sp->slot_class[s]].states[st[s]];

		t += ss->threads;
		c += ss->cores;
		n += ss->threads > 0;
	}
	*threads = t;
	*cores = c;
	*sockets = n;
}

int space_pus(const struct space *sp, const uint16_t *st, int **pus)
{
	const struct pandia_machine *m = sp->m;
	int *cnt = xcalloc((size_t)m->n_pus, sizeof(int));
	int *used = xcalloc((size_t)sp->n_groups + 1, sizeof(int));
	int s, i, j, p, n = 0, *out;

	for (s = 0; s < sp->n_slots; s++) {
		const struct sclass *cl = &sp->classes[sp->slot_class[s]];
		const struct sstate *ss = &cl->states[st[s]];
		int sock = cl->sockets[s - cl->slot0];

		for (i = 0; i < ss->n_items; i++) {
			const struct sitem *it = &cl->items[ss->item0 + i];
			int gi = sp->sock_group0[sock] + it->gpos;
			const struct core_group *g = &sp->groups[gi];

			for (j = 0; j < it->ncores; j++) {
				const struct pandia_core *co =
					&m->cores[g->cores[used[gi]++]];

				for (p = 0; p < co->n_pus; p++) {
					cnt[co->pus[p]] += it->cs.cnt[p];
					n += it->cs.cnt[p];
				}
			}
		}
	}
	/* m->pus is in OS index order */
	out = xcalloc((size_t)n + 1, sizeof(int));
	n = 0;
	for (p = 0; p < m->n_pus; p++)
		for (j = 0; j < cnt[p]; j++)
			out[n++] = p;
	free(cnt);
	free(used);
	*pus = out;
	return n;
}

static int cmp_u16_desc(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x < y) - (x > y);
}

static bool cs_eq(const struct core_state *a, const struct core_state *b)
{
	return a->n_pus == b->n_pus &&
		!memcmp(a->cnt, b->cnt, sizeof(a->cnt));
}

/* The items of socket SOCK under per-PU counts CNT, one per distinct
   (group, core state); returns how many. */
static int socket_items(const struct space *sp, int sock, const int *cnt,
			struct sitem *items)
{
	const struct pandia_machine *m = sp->m;
	int ng = sp->sock_ngroups[sock], n = 0, g, i, k, p;

	for (g = 0; g < ng; g++) {
		const struct core_group *cg = &sp->groups[sp->sock_group0[sock]
							   + g];

		for (i = 0; i < cg->n_cores; i++) {
			const struct pandia_core *co = &m->cores[cg->cores[i]];
			int v[SPACE_MAX_SMT];
			struct core_state cs;

			for (p = 0; p < co->n_pus; p++)
				v[p] = cnt[co->pus[p]];
			core_state_of(&cs, v, co->n_pus, NULL);
			if (!cs.threads)
				continue;
			for (k = 0; k < n; k++)
				if (items[k].gpos == g &&
				    cs_eq(&items[k].cs, &cs))
					break;
			if (k == n) {
				memset(&items[n], 0, sizeof(items[n]));
				items[n].gpos = (unsigned short)g;
				items[n].cs = cs;
				items[n].core = -1;
				n++;
			}
			items[k].ncores++;
		}
	}
	return n;
}

int space_canonical(const struct space *sp, const int *pus, int n,
		    uint16_t *st)
{
	const struct pandia_machine *m = sp->m;
	int *cnt = xcalloc((size_t)m->n_pus, sizeof(int));
	struct sitem *items = xcalloc((size_t)m->n_cores + 1, sizeof(*items));
	int i, c, s, x, k, ret = -1;

	for (i = 0; i < n; i++)
		cnt[pus[i]]++;
	for (c = 0; c < sp->n_classes; c++) {
		const struct sclass *cl = &sp->classes[c];

		for (s = 0; s < cl->n_sockets; s++) {
			int ni = socket_items(sp, cl->sockets[s], cnt, items);
			int found = -1;

			for (x = 0; x < cl->n_states && found < 0; x++) {
				const struct sstate *ss = &cl->states[x];

				if (ss->n_items != ni)
					continue;
				for (k = 0; k < ni; k++) {
					const struct sitem *it =
						&cl->items[ss->item0 + k];

					for (i = 0; i < ni; i++)
						if (items[i].gpos == it->gpos &&
						    cs_eq(&items[i].cs,
							  &it->cs) &&
						    items[i].ncores ==
						    it->ncores)
							break;
					if (i == ni)
						break;
				}
				if (k == ni)
					found = x;
			}
			if (found < 0)
				goto out;
			st[cl->slot0 + s] = (uint16_t)found;
		}
		qsort(st + cl->slot0, (size_t)cl->n_sockets, sizeof(uint16_t),
		      cmp_u16_desc);
	}
	ret = 0;
out:
	free(items);
	free(cnt);
	return ret;
}
