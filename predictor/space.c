/*
 * space.c - core groups, socket classes and the canonical placements.
 */
#include "predictor/space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* A socket class may have at most this many socket states. */
#define MAX_STATES 2000000

void core_state_of(struct core_state *cs, const int *cnt, int n_pus,
		   unsigned char *pupos)
{
	int i, j, pos[SPACE_MAX_SMT];

	memset(cs, 0, sizeof(*cs));
	cs->n_pus = (unsigned char)n_pus;
	for (i = 0; i < n_pus; i++)
		pos[i] = i;
	/* insertion sort: count descending, position ascending */
	for (i = 1; i < n_pus; i++) {
		int p = pos[i];

		for (j = i; j > 0 && cnt[pos[j - 1]] < cnt[p]; j--)
			pos[j] = pos[j - 1];
		pos[j] = p;
	}
	for (i = 0; i < n_pus; i++) {
		cs->cnt[i] = (unsigned char)cnt[pos[i]];
		cs->threads = (unsigned short)(cs->threads + cnt[pos[i]]);
		if (cnt[pos[i]])
			cs->pus_used++;
		if (pupos)
			pupos[i] = (unsigned char)pos[i];
	}
}

/* ---- core groups ------------------------------------------------ */

struct core_key {
	int n_pus, numa, kind;
	int shared[3];
	bool has[3];
};

static void core_key(const struct pandia_machine *m, int c,
		     struct core_key *k)
{
	const struct pandia_core *co = &m->cores[c];
	int l;

	memset(k, 0, sizeof(*k));
	k->n_pus = co->n_pus;
	k->numa = co->numa;
	k->kind = co->kind;
	for (l = 0; l < 3; l++) {
		k->has[l] = co->cache[l] >= 0;
		k->shared[l] = co->cache[l] >= 0 &&
			m->caches[co->cache[l]].n_cores > 1 ?
			co->cache[l] : -1;
	}
}

static bool key_eq(const struct core_key *a, const struct core_key *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Order of groups within a socket: PUs per core, cores, caches. */
static int group_cmp(const struct pandia_machine *m,
		     const struct core_group *a, const struct core_group *b)
{
	const struct pandia_core *ca = &m->cores[a->cores[0]];
	const struct pandia_core *cb = &m->cores[b->cores[0]];
	int l;

	if (a->n_pus != b->n_pus)
		return a->n_pus - b->n_pus;
	if (a->kind != b->kind)
		return b->kind - a->kind;	/* the faster kind first */
	if (a->n_cores != b->n_cores)
		return a->n_cores - b->n_cores;
	for (l = 0; l < 3; l++) {
		if ((ca->cache[l] >= 0) != (cb->cache[l] >= 0))
			return (ca->cache[l] >= 0) - (cb->cache[l] >= 0);
		if ((a->shared[l] >= 0) != (b->shared[l] >= 0))
			return (a->shared[l] >= 0) - (b->shared[l] >= 0);
	}
	return 0;
}

static void build_groups(struct space *sp)
{
	const struct pandia_machine *m = sp->m;
	struct core_key *keys = xcalloc((size_t)m->n_cores, sizeof(*keys));
	int s, i, j, l;

	sp->groups = xcalloc((size_t)m->n_cores, sizeof(*sp->groups));
	sp->sock_group0 = xcalloc((size_t)m->n_sockets, sizeof(int));
	sp->sock_ngroups = xcalloc((size_t)m->n_sockets, sizeof(int));
	for (s = 0; s < m->n_sockets; s++) {
		const struct pandia_socket *so = &m->sockets[s];
		int first = sp->n_groups;

		sp->sock_group0[s] = first;
		for (i = 0; i < so->n_cores; i++) {
			int c = so->cores[i];
			struct core_group *g = NULL;

			core_key(m, c, &keys[c]);
			for (j = first; j < sp->n_groups; j++) {
				int c0 = sp->groups[j].cores[0];

				if (key_eq(&keys[c0], &keys[c])) {
					g = &sp->groups[j];
					break;
				}
			}
			if (!g) {
				g = &sp->groups[sp->n_groups++];
				g->socket = s;
				g->n_pus = m->cores[c].n_pus;
				g->numa = m->cores[c].numa;
				g->kind = m->cores[c].kind;
				for (l = 0; l < 3; l++)
					g->shared[l] = keys[c].shared[l];
				g->cores = xcalloc((size_t)so->n_cores,
						   sizeof(int));
			}
			g->cores[g->n_cores++] = c;
		}
		sp->sock_ngroups[s] = sp->n_groups - first;
		/* a canonical order, so that sockets of the same shape
		   list their groups alike whatever their core order */
		for (i = first + 1; i < sp->n_groups; i++) {
			struct core_group t = sp->groups[i];
			int k = i;

			for (; k > first && group_cmp(m, &sp->groups[k - 1],
						      &t) > 0; k--)
				sp->groups[k] = sp->groups[k - 1];
			sp->groups[k] = t;
		}
	}
	/* cores in a group ascending (sockets list them in any order) */
	for (j = 0; j < sp->n_groups; j++) {
		struct core_group *g = &sp->groups[j];

		for (i = 1; i < g->n_cores; i++) {
			int v = g->cores[i], k = i;

			for (; k > 0 && g->cores[k - 1] > v; k--)
				g->cores[k] = g->cores[k - 1];
			g->cores[k] = v;
		}
	}
	free(keys);
}

/* ---- socket classes --------------------------------------------- */

/* Index of v in list[0..*n), appending it if new. */
static int rank_of(int *list, int *n, int v)
{
	int i;

	for (i = 0; i < *n; i++)
		if (list[i] == v)
			return i;
	list[(*n)++] = v;
	return *n - 1;
}

/*
 * The shape of socket s as an int vector (new array, *len entries):
 * two sockets with the same vector are interchangeable.
 */
static int *socket_signature(const struct space *sp, int s, int *len)
{
	const struct pandia_machine *m = sp->m;
	int ng = sp->sock_ngroups[s], i, l, n = 0, nn = 0, nc[3] = { 0 };
	int *sig = xcalloc((size_t)(ng * 12 + m->n_numa * 3 + 4), sizeof(int));
	int *nodes = xcalloc((size_t)(m->n_numa + 1), sizeof(int));
	int *inst[3];

	for (l = 0; l < 3; l++)
		inst[l] = xcalloc((size_t)(ng + 1), sizeof(int));
	sig[n++] = ng;
	for (i = 0; i < ng; i++) {
		const struct core_group *g =
			&sp->groups[sp->sock_group0[s] + i];
		const struct pandia_core *c0 = &m->cores[g->cores[0]];

		sig[n++] = g->n_cores;
		sig[n++] = g->n_pus;
		sig[n++] = g->kind;
		/* a node on another socket: which one, not just its rank
		   (sockets that reach different nodes are not alike) */
		if (g->numa >= 0 && m->numa[g->numa].socket >= 0 &&
		    m->numa[g->numa].socket != s)
			sig[n++] = -2 - g->numa;
		else
			sig[n++] = g->numa < 0 ? -1 :
				rank_of(nodes, &nn, g->numa);
		for (l = 0; l < 3; l++) {
			sig[n++] = c0->cache[l] >= 0;
			sig[n++] = g->shared[l] < 0 ? -1 :
				rank_of(inst[l], &nc[l], g->shared[l]);
		}
	}
	/* the nodes on the socket: memory, and the --memory node:N role */
	for (i = 0; i < m->n_numa; i++) {
		if (m->numa[i].socket != s)
			continue;
		sig[n++] = sp->memnode[i];
		sig[n++] = i == sp->mem_node;
		/* a node that cores of other sockets have as their own:
		   this socket is like no other */
		sig[n++] = sp->remote_users[i] ? s : -1;
	}
	for (l = 0; l < 3; l++)
		free(inst[l]);
	free(nodes);
	*len = n;
	return sig;
}

static void build_pairs(struct space *sp, bool *symmetric)
{
	const struct pandia_machine *m = sp->m;
	int ns = m->n_sockets, i, j;
	double dflt = m->links[LVL_INTERCONNECT].present ?
		m->links[LVL_INTERCONNECT].aggregate_bw : 0;

	sp->pair_bw = xcalloc((size_t)(ns * ns), sizeof(double));
	for (i = 0; i < ns; i++)
		for (j = 0; j < ns; j++)
			sp->pair_bw[i * ns + j] = i == j ? 0 : dflt;
	for (i = 0; i < m->n_xlinks; i++) {
		const struct pandia_xlink *x = &m->xlinks[i];

		sp->pair_bw[x->from * ns + x->to] = x->bw;
		sp->pair_bw[x->to * ns + x->from] = x->bw;
	}
	*symmetric = true;
	for (i = 0; i < ns; i++)
		for (j = 0; j < ns; j++)
			if (i != j && sp->pair_bw[i * ns + j] != sp->pair_bw[1])
				*symmetric = false;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Split classes of sockets until any permutation within a class keeps
 * every link's bandwidth: partition refinement by each member's links
 * to every socket outside its class (in socket order) and the sorted
 * list of its links inside.  At the fixed point members agree on every
 * outside link; a class whose inside links still differ ends as one
 * socket per class.
 */
static void refine_by_links(const struct space *sp, int *cls)
{
	int ns = sp->m->n_sockets, a, b, x, changed = 1, next = ns;
	const double *bw = sp->pair_bw;
	double *key = xcalloc((size_t)(ns * ns), sizeof(double));
	double *in = xcalloc((size_t)ns, sizeof(double));

	while (changed) {
		changed = 0;
		for (a = 0; a < ns; a++) {
			double *ka = &key[a * ns];
			int o = 0, n_in = 0;

			for (x = 0; x < ns; x++) {
				if (x == a)
					continue;
				if (cls[x] != cls[a])
					ka[o++] = bw[a * ns + x];
				else
					in[n_in++] = bw[a * ns + x];
			}
			qsort(in, (size_t)n_in, sizeof(double), cmp_dbl);
			for (x = 0; x < n_in; x++)
				ka[o++] = in[x];
			while (o < ns)
				ka[o++] = 0;
		}
		for (a = 0; a < ns; a++)
			for (b = a + 1; b < ns; b++) {
				int c;

				if (cls[a] != cls[b] ||
				    !memcmp(&key[a * ns], &key[b * ns],
					    sizeof(double) * (size_t)ns))
					continue;
				/* b and all of its class like b leave */
				c = next++;
				for (x = b; x < ns; x++)
					if (cls[x] == cls[a] &&
					    !memcmp(&key[x * ns], &key[b * ns],
						    sizeof(double) *
						    (size_t)ns))
						cls[x] = c;
				changed = 1;
			}
	}
	/* a class whose inside links still differ: one socket each */
	for (a = 0; a < ns; a++)
		for (b = 0; b < ns; b++)
			for (x = 0; x < ns; x++)
				if (a != b && a != x && b != x &&
				    cls[a] == cls[b] && cls[b] == cls[x] &&
				    bw[a * ns + b] != bw[a * ns + x])
					cls[a] = next++;
	free(key);
	free(in);
}

/* ---- socket states ---------------------------------------------- */

/* Every core state of a core with N PUs and at most K threads per PU,
   fuller first.  Returns the count; *out is a new array. */
static int core_states(int n, int k, struct core_state **out)
{
	int cnt[SPACE_MAX_SMT], total = 0, cap = 16, i;
	struct core_state *v = xcalloc((size_t)cap, sizeof(*v));

	/* odometer over non-increasing vectors cnt[0] >= cnt[1] >= ... */
	for (i = 0; i < n; i++)
		cnt[i] = 0;
	for (;;) {
		for (i = n - 1; i >= 0; i--) {
			int lim = i ? cnt[i - 1] : k;

			if (cnt[i] < lim) {
				int j;

				cnt[i]++;
				for (j = i + 1; j < n; j++)
					cnt[j] = 0;
				break;
			}
		}
		if (i < 0)
			break;
		if (total == cap) {
			cap *= 2;
			v = xrealloc(v, sizeof(*v) * (size_t)cap);
		}
		core_state_of(&v[total++], cnt, n, NULL);
	}
	/* fuller first: by threads, then PUs used, descending */
	for (i = 1; i < total; i++) {
		struct core_state t = v[i];
		int j = i;

		for (; j > 0 && (v[j - 1].threads < t.threads ||
				 (v[j - 1].threads == t.threads &&
				  v[j - 1].pus_used < t.pus_used)); j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	*out = v;
	return total;
}

static double binom(int n, int k)
{
	double r = 1;
	int i;

	for (i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

struct gen {
	struct sclass *cl;
	int ng;			/* groups per socket */
	const struct core_group *groups;	/* of the first socket */
	struct core_state **cs;	/* per group: its core states */
	int *ncs;
	int *count;		/* per group, per core state: cores */
	int cap_states, cap_items;
	struct sitem *cur;	/* items of the state being built */
	int n_cur;
};

static void emit_state(struct gen *g)
{
	struct sclass *cl = g->cl;
	struct sstate *st;
	int i;

	if (cl->n_states == g->cap_states) {
		g->cap_states = g->cap_states ? 2 * g->cap_states : 64;
		cl->states = xrealloc(cl->states, sizeof(*cl->states) *
				      (size_t)g->cap_states);
	}
	if (cl->n_items + g->n_cur > g->cap_items) {
		g->cap_items = 2 * (cl->n_items + g->n_cur) + 64;
		cl->items = xrealloc(cl->items, sizeof(*cl->items) *
				     (size_t)g->cap_items);
	}
	st = &cl->states[cl->n_states++];
	st->item0 = cl->n_items;
	st->n_items = g->n_cur;
	st->threads = st->cores = 0;
	for (i = 0; i < g->n_cur; i++) {
		cl->items[cl->n_items++] = g->cur[i];
		st->threads += g->cur[i].ncores * g->cur[i].cs.threads;
		st->cores += g->cur[i].ncores;
	}
}

/* Group GI, core state CI of it, LEFT cores of the group not placed. */
static void gen_states(struct gen *g, int gi, int ci, int left)
{
	int n, i;

	if (gi == g->ng) {
		emit_state(g);
		return;
	}
	if (ci == g->ncs[gi]) {
		gen_states(g, gi + 1, 0,
			   gi + 1 < g->ng ? g->groups[gi + 1].n_cores : 0);
		return;
	}
	for (n = 0; n <= left; n++) {
		if (n) {
			struct sitem *it = &g->cur[g->n_cur++];

			memset(it, 0, sizeof(*it));
			it->gpos = (unsigned short)gi;
			it->ncores = (unsigned short)n;
			it->core = -1;
			it->cs = g->cs[gi][ci];
			for (i = 0; i < SPACE_MAX_SMT; i++)
				it->pupos[i] = (unsigned char)i;
		}
		gen_states(g, gi, ci + 1, left - n);
		if (n)
			g->n_cur--;
	}
}

static int cmp_state(const struct sstate *a, const struct sstate *b)
{
	if (a->threads != b->threads)
		return a->threads < b->threads ? -1 : 1;
	if (a->cores != b->cores)
		return a->cores < b->cores ? -1 : 1;
	return 0;
}

/* Sort states by threads, then cores (stable: merge sort by index). */
static void sort_states(struct sclass *cl)
{
	int n = cl->n_states, width, i;
	struct sstate *a = cl->states, *b = xcalloc((size_t)n, sizeof(*b));

	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			int lo = i, mid = i + width < n ? i + width : n;
			int hi = i + 2 * width < n ? i + 2 * width : n;
			int x = lo, y = mid, o = lo;

			while (x < mid && y < hi)
				b[o++] = cmp_state(&a[y], &a[x]) < 0 ?
					a[y++] : a[x++];
			while (x < mid)
				b[o++] = a[x++];
			while (y < hi)
				b[o++] = a[y++];
		}
		memcpy(a, b, sizeof(*a) * (size_t)n);
	}
	free(b);
}

static int build_states(struct space *sp, struct sclass *cl,
			struct pandia_error *err)
{
	int s = cl->sockets[0], ng = sp->sock_ngroups[s], i, ret = -1;
	struct gen g;
	double total = 1;

	memset(&g, 0, sizeof(g));
	g.cl = cl;
	g.ng = ng;
	g.groups = &sp->groups[sp->sock_group0[s]];
	g.cs = xcalloc((size_t)ng + 1, sizeof(*g.cs));
	g.ncs = xcalloc((size_t)ng + 1, sizeof(int));
	for (i = 0; i < ng; i++) {
		if (g.groups[i].n_pus > SPACE_MAX_SMT) {
			perr_set(err, "cores with %d PUs: at most %d are "
				 "supported", g.groups[i].n_pus,
				 SPACE_MAX_SMT);
			goto out;
		}
		g.ncs[i] = core_states(g.groups[i].n_pus, sp->k, &g.cs[i]);
		total *= binom(g.ncs[i] + g.groups[i].n_cores,
			       g.groups[i].n_cores);
	}
	if (total > MAX_STATES) {
		if (sp->k > 1)
			perr_set(err, "too many placements: a socket has %.3g "
				 "states with %d threads per PU, more than %d "
				 "(lower --oversubscribe)", total, sp->k,
				 MAX_STATES);
		else
			perr_set(err, "too many placements: a socket of %d "
				 "cores has %.3g states, more than %d (pandia "
				 "ranks sockets of up to about 2,000 two-PU "
				 "cores)",
				 sp->m->sockets[s].n_cores, total, MAX_STATES);
		goto out;
	}
	g.cur = xcalloc((size_t)ng * 32 + 1, sizeof(*g.cur));
	for (i = 0; i < ng; i++)
		if (g.ncs[i] > 32) {
			free(g.cur);
			g.cur = xcalloc((size_t)ng * (size_t)g.ncs[i] + 1,
					sizeof(*g.cur));
		}
	gen_states(&g, 0, 0, ng ? g.groups[0].n_cores : 0);
	sort_states(cl);
	ret = 0;
out:
	for (i = 0; i < ng; i++)
		free(g.cs[i]);
	free(g.cs);
	free(g.ncs);
	free(g.cur);
	return ret;
}

/* ---- the space -------------------------------------------------- */

static void build_memory(struct space *sp)
{
	const struct pandia_machine *m = sp->m;
	bool any = false;
	int i;

	sp->memnode = xcalloc((size_t)m->n_numa + 1, sizeof(bool));
	sp->sock_memnodes = xcalloc((size_t)m->n_sockets, sizeof(int));
	for (i = 0; i < m->n_numa; i++)
		if (NUMA_HAS_MEMORY(&m->numa[i]))
			any = true;
	/* nodes without memory take no interleaved pages, unless no node
	   reports its memory (descriptions made before sizes could be
	   unknown) */
	for (i = 0; i < m->n_numa; i++) {
		sp->memnode[i] = !any || NUMA_HAS_MEMORY(&m->numa[i]);
		if (!sp->memnode[i])
			continue;
		sp->n_memnodes++;
		if (m->numa[i].socket >= 0)
			sp->sock_memnodes[m->numa[i].socket]++;
	}
	/* who has which node as its own */
	sp->remote_users = xcalloc((size_t)m->n_numa + 1, sizeof(int));
	sp->offnode = xcalloc((size_t)m->n_numa + 1, sizeof(bool));
	for (i = 0; i < m->n_numa; i++)
		sp->offnode[i] = m->numa[i].socket < 0 && sp->memnode[i];
	for (i = 0; i < m->n_cores; i++) {
		int nd = m->cores[i].numa;

		if (nd < 0 || m->numa[nd].socket < 0)
			sp->local_nosocket = true;
		if (nd < 0)
			continue;
		sp->offnode[nd] = false;
		if (m->numa[nd].socket >= 0 &&
		    m->numa[nd].socket != m->cores[i].socket) {
			sp->remote_users[nd]++;
			sp->remote_local = true;
		}
	}
}

struct space *space_new(const struct pandia_machine *m, int k,
			const struct pandia_mempolicy *mem,
			struct pandia_error *err)
{
	struct space *sp = xcalloc(1, sizeof(*sp));
	int **sig, *siglen, *cls, s, t, i;
	bool symmetric;

	sp->m = m;
	sp->k = k;
	sp->mem = *mem;
	sp->mem_node = -1;
	if (m->n_pus < 1 || m->n_sockets < 1) {
		perr_set(err, "the machine has no PU");
		goto fail;
	}
	if (k < 1 || k > SPACE_MAX_K) {
		perr_set(err, "threads per PU must be 1 to %d, not %d",
			 SPACE_MAX_K, k);
		goto fail;
	}
	if (mem->kind == MEM_NODE) {
		for (i = 0; i < m->n_numa; i++)
			if (m->numa[i].os_index == mem->node)
				sp->mem_node = i;
		if (sp->mem_node < 0) {
			perr_set(err, "memory policy node:%d: the machine has "
				 "no NUMA node %d", mem->node, mem->node);
			goto fail;
		}
	}
	build_memory(sp);
	build_groups(sp);
	build_pairs(sp, &symmetric);

	/* socket classes: equal signatures, then as the links allow */
	sig = xcalloc((size_t)m->n_sockets, sizeof(*sig));
	siglen = xcalloc((size_t)m->n_sockets, sizeof(int));
	cls = xcalloc((size_t)m->n_sockets, sizeof(int));
	for (s = 0; s < m->n_sockets; s++)
		sig[s] = socket_signature(sp, s, &siglen[s]);
	for (s = 0; s < m->n_sockets; s++) {
		cls[s] = s;
		for (t = 0; t < s; t++)
			if (siglen[t] == siglen[s] &&
			    !memcmp(sig[t], sig[s],
				    sizeof(int) * (size_t)siglen[s])) {
				cls[s] = cls[t];
				break;
			}
	}
	if (!symmetric)
		refine_by_links(sp, cls);
	sp->classes = xcalloc((size_t)m->n_sockets, sizeof(*sp->classes));
	for (s = 0; s < m->n_sockets; s++) {
		struct sclass *cl;

		/* class ids become dense, in order of first socket */
		for (t = 0; t < s && cls[t] != cls[s]; t++)
			;
		if (t == s) {
			cl = &sp->classes[sp->n_classes++];
			cl->sockets = xcalloc((size_t)m->n_sockets,
					      sizeof(int));
		} else {
			for (i = 0; i < sp->n_classes; i++)
				if (cls[sp->classes[i].sockets[0]] == cls[s])
					break;
			cl = &sp->classes[i];
		}
		cl->sockets[cl->n_sockets++] = s;
	}
	if (!symmetric && m->n_sockets > 1)
		sp->symmetry_note = xasprintf("the interconnect is not "
					      "uniform: %d kinds of socket",
					      sp->n_classes);
	else if (sp->n_classes > 1)
		sp->symmetry_note = xasprintf("sockets differ: %d kinds of "
					      "socket", sp->n_classes);
	for (s = 0; s < m->n_sockets; s++)
		free(sig[s]);
	free(sig);
	free(siglen);
	free(cls);

	sp->n_slots = m->n_sockets;
	sp->slot_class = xcalloc((size_t)sp->n_slots, sizeof(int));
	for (i = 0, s = 0; i < sp->n_classes; i++) {
		struct sclass *cl = &sp->classes[i];

		cl->slot0 = s;
		for (t = 0; t < cl->n_sockets; t++)
			sp->slot_class[s++] = i;
		if (build_states(sp, cl, err) < 0)
			goto fail;
	}
	return sp;
fail:
	space_free(sp);
	return NULL;
}

void space_free(struct space *sp)
{
	int i;

	if (!sp)
		return;
	for (i = 0; i < sp->n_groups; i++)
		free(sp->groups[i].cores);
	free(sp->groups);
	free(sp->sock_group0);
	free(sp->sock_ngroups);
	for (i = 0; i < sp->n_classes; i++) {
		free(sp->classes[i].sockets);
		free(sp->classes[i].states);
		free(sp->classes[i].items);
	}
	free(sp->classes);
	free(sp->slot_class);
	free(sp->pair_bw);
	free(sp->memnode);
	free(sp->sock_memnodes);
	free(sp->remote_users);
	free(sp->offnode);
	free(sp->symmetry_note);
	free(sp);
}

/* ---- counting and enumerating ----------------------------------- */

bool space_threads_alike(const struct space *sp)
{
	return sp->k == 1 && sp->n_slots == 1 && sp->n_groups == 1 &&
		sp->groups[0].n_pus == 1;
}

struct space_count space_count_all(const struct space *sp)
{
	struct space_count c = { 1, false };
	const unsigned __int128 max = ~(unsigned __int128)0;
	int i, j;

	for (i = 0; i < sp->n_classes; i++) {
		const struct sclass *cl = &sp->classes[i];
		unsigned __int128 b = 1;
		int n = cl->n_states + cl->n_sockets - 1;

		/* multisets of n_sockets states: C(n, n_sockets), built
		   as a product of exact partial binomials */
		for (j = 1; j <= cl->n_sockets; j++) {
			unsigned __int128 f = (unsigned __int128)(n -
				cl->n_sockets + j);

			if (b > max / f) {
				c.overflow = true;
				b = max / f;
			}
			b = b * f / (unsigned)j;
		}
		if (b && c.n > max / b) {
			c.overflow = true;
			c.n = max;
		} else {
			c.n *= b;
		}
	}
	if (!c.overflow)
		c.n -= 1;	/* the empty placement */
	return c;
}

/* a * b, saturating; *over set when it saturates */
static unsigned __int128 mul_sat(unsigned __int128 a, unsigned __int128 b,
				 bool *over)
{
	const unsigned __int128 max = ~(unsigned __int128)0;

	if (a && b > max / a) {
		*over = true;
		return max;
	}
	return a * b;
}

/* C(n, k), saturating */
static unsigned __int128 binom_sat(long long n, int k, bool *over)
{
	unsigned __int128 b = 1;
	int i;

	if (k < 0 || n < k)
		return 0;
	if (k > n - k)
		k = (int)(n - k);
	for (i = 1; i <= k; i++) {
		b = mul_sat(b, (unsigned __int128)(n - k + i), over);
		if (*over)
			return b;
		b /= (unsigned)i;
	}
	return b;
}

struct space_count space_count_layouts(const struct space *sp, int layouts)
{
	struct space_count c = { 1, false };
	int i, d;

	if (layouts <= 0)
		return space_count_all(sp);
	for (i = 0; i < sp->n_classes; i++) {
		const struct sclass *cl = &sp->classes[i];
		unsigned __int128 sum = 0, t;
		int top = layouts < cl->n_sockets ? layouts : cl->n_sockets;

		/*
		 * d distinct non-empty states among the class's S sockets:
		 * which d of the N - 1, and how many sockets take each
		 * (at least one) with the rest empty: C(S, d) ways (the
		 * compositions of S - e into d parts, summed over e).
		 */
		for (d = 0; d <= top; d++) {
			t = mul_sat(binom_sat(cl->n_states - 1, d, &c.overflow),
				    binom_sat(cl->n_sockets, d, &c.overflow),
				    &c.overflow);
			sum = sum + t < sum ? (c.overflow = true,
					       ~(unsigned __int128)0) : sum + t;
		}
		c.n = mul_sat(c.n, sum, &c.overflow);
	}
	if (!c.overflow)
		c.n -= 1;	/* the empty placement */
	return c;
}

#define COUNT_SAT 1e300

static double add_sat(double a, double b)
{
	return a + b > COUNT_SAT ? COUNT_SAT : a + b;
}

/* C(n, k) as a double (saturating) */
static double binom_d(double n, int k)
{
	double r = 1;
	int i;

	if (k < 0 || n < k)
		return 0;
	for (i = 1; i <= k && r < COUNT_SAT; i++)
		r = r * (n - k + i) / i;
	return r < COUNT_SAT ? r : COUNT_SAT;
}

/*
 * One class's placements by thread count (q[0..T], T = TARGET):
 * multisets of its S sockets' states with at most LAYOUTS distinct
 * non-empty ones (0: any), h[t] the non-empty states with t threads.
 * Returns -1 when the full count would take too long, or for a limit
 * of 3 layouts or more below S (which the ranking never asks for).
 */
static int class_poly(const struct sclass *cl, int T, int layouts, double *q)
{
	int S = cl->n_sockets, tmax = cl->states[cl->n_states - 1].threads;
	int t, u, a, b, s, x, j, ret = 0;
	double *h = xcalloc((size_t)tmax + 1, sizeof(double));

	for (x = 1; x < cl->n_states; x++)
		h[cl->states[x].threads]++;
	for (x = 0; x <= T; x++)
		q[x] = 0;
	q[0] = 1;
	if (layouts >= S)
		layouts = 0;	/* no limit on this class */
	if (layouts > 2) {
		ret = -1;	/* not needed by the ranking */
		goto out;
	}
	if (layouts == 1) {
		for (t = 1; t <= tmax && t <= T; t++)
			for (a = 1; a <= S && a * t <= T; a++)
				q[a * t] = add_sat(q[a * t], h[t]);
	} else if (layouts == 2) {
		for (t = 1; t <= tmax && t <= T; t++)
			for (a = 1; a <= S && a * t <= T; a++)
				q[a * t] = add_sat(q[a * t], h[t]);
		/* two distinct states, a and b sockets (ordered: they
		   differ) */
		for (t = 1; t <= tmax && t <= T; t++)
			for (u = t; u <= tmax && t + u <= T; u++) {
				double pairs = u == t ? binom_d(h[t], 2) :
					h[t] * h[u];

				if (!(pairs > 0))
					continue;
				for (a = 1; a < S; a++)
					for (b = 1; a + b <= S &&
					     a * t + b * u <= T; b++)
						q[a * t + b * u] = add_sat(
							q[a * t + b * u],
							pairs);
			}
	} else {
		/* any states: g[s][tau], s non-empty sockets so far */
		double work = 0, *g = NULL;

		for (t = 1; t <= tmax && t <= T; t++)
			work += (double)S * (T + 1) *
				(S < T / t + 1 ? S : T / t + 1);
		if (work > 3e8) {
			ret = -1;
			goto out;
		}
		g = xcalloc((size_t)(S + 1) * (size_t)(T + 1), sizeof(double));
		g[0] = 1;
		for (t = 1; t <= tmax && t <= T; t++) {
			if (!(h[t] > 0))
				continue;
			/* add j of this bucket's h[t] states (any repeats):
			   C(h + j - 1, j) ways; s falls so each g is used
			   before it changes */
			for (s = S - 1; s >= 0; s--)
				for (x = T; x >= 0; x--) {
					double v = g[s * (T + 1) + x];

					if (!(v > 0))
						continue;
					for (j = 1; s + j <= S &&
					     x + j * t <= T; j++) {
						size_t o = (size_t)(s + j) *
							(size_t)(T + 1) +
							(size_t)(x + j * t);

						g[o] = add_sat(g[o], v *
							binom_d(h[t] + j - 1,
								j));
					}
				}
		}
		for (x = 0; x <= T; x++) {
			q[x] = 0;
			for (s = 0; s <= S; s++)
				q[x] = add_sat(q[x], g[s * (T + 1) + x]);
		}
		free(g);
	}
out:
	free(h);
	return ret;
}

double space_count_threads(const struct space *sp, int threads, int layouts)
{
	int T = threads, i, x, y;
	double *acc = xcalloc((size_t)T + 1, sizeof(double));
	double *q = xcalloc((size_t)T + 1, sizeof(double));
	double *nx = xcalloc((size_t)T + 1, sizeof(double));
	double n = 0;

	acc[0] = 1;
	for (i = 0; i < sp->n_classes; i++) {
		if (class_poly(&sp->classes[i], T, layouts, q) < 0) {
			n = -1;
			goto out;
		}
		for (x = 0; x <= T; x++)
			nx[x] = 0;
		for (x = 0; x <= T; x++) {
			if (!(acc[x] > 0))
				continue;
			for (y = 0; x + y <= T; y++)
				if (q[y] > 0)
					nx[x + y] = add_sat(nx[x + y],
							    acc[x] * q[y]);
		}
		memcpy(acc, nx, sizeof(double) * (size_t)(T + 1));
	}
	n = acc[T];
out:
	free(acc);
	free(q);
	free(nx);
	return n;
}

const char *space_count_format(struct space_count c, char *buf, int size)
{
	char tmp[64];
	int n = 0, i;
	unsigned __int128 v = c.n;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v && n < 60);
	for (i = 0; i < n && i < size - 2; i++)
		buf[i] = tmp[n - 1 - i];
	if (c.overflow && i < size - 2)
		buf[i++] = '+';
	buf[i] = '\0';
	return buf;
}

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
