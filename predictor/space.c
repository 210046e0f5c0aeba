/*
 * space.c - core groups, socket classes and their states: building the
 * space of a machine (counting it: space_count.c; walking it and going
 * to and from PUs: space_walk.c).
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

	sp->pair_bw = xcalloc((size_t)(ns * ns), sizeof(double));
	for (i = 0; i < ns; i++)
		for (j = 0; j < ns; j++)
			sp->pair_bw[i * ns + j] = i == j ? 0 :
				machine_pair_bw(m, i, j);
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
