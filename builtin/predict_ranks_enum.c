/*
 * predict_ranks_enum.c - the divisions of a machine into ranks of
 * threads, one per class under the machine's symmetry (identical
 * sockets, identical cores of a socket's core group, the PUs of a
 * core) and the ranks' renumbering.
 *
 * Orderly generation: the strings of labels (docs/model.md, "Hybrid
 * jobs") are made position by position, ranks numbered by first
 * appearance; a string is given only when no symmetry makes it
 * smaller, which a branch-and-bound search over the symmetries
 * decides.  Two cheap necessary conditions cut the generation early:
 * swapping two neighbouring PUs of a core, cores of a group or
 * sockets of a class must not give a smaller string.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/predict_ranks_enum.h"
#include "common/util.h"

#define DV_INF 0xffff		/* above every label */
#define DV_CLOSED 0xfffe	/* a key: some rank wholly in one core */
#define DV_IDLE 0xfffe		/* where an idle PU sorts */

/*
 * Where label L sorts: an idle PU after every rank, so that the
 * smallest string of a class puts its ranks on the first PUs.
 */
static unsigned ord(uint16_t l)
{
	return l ? l : DV_IDLE;
}

enum { DV_EQUAL, DV_SMALLER, DV_BUDGET, DV_STOP, DV_LARGER };

struct divisions {
	const struct space *sp;
	int n;			/* PUs */
	int *tr;		/* position -> m->pus index */
	int *pos;		/* m->pus index -> position */
	int *core_pos;		/* m->cores index -> its first position */
	/* per position: slot, group in its socket, core in its group,
	   PU in its core */
	int *p_slot, *p_group, *p_core, *p_pu;
	int *slot_pos;		/* per slot: its first position */
	int *slot_len;		/* per slot: its PUs */
	/* the swap checks that end at each position: [chk0[p],
	   chk0[p + 1]) of chk_a0/chk_a1 */
	int *chk0, *chk_a0, *chk_a1;
	int n_chk;
	int maxkey;		/* key entries a core choice may need */

	/* the search */
	int r, t;
	const uint16_t *in;	/* the division searched over */
	uint16_t *best;		/* the bound (the smallest seen) */
	bool test;		/* stop at the first smaller string */
	uint16_t *map;		/* rank -> new label, 0: not yet */
	int next;
	int *osock;		/* per slot: the socket chosen */
	int *ocore;		/* per position: the core chosen */
	bool *sock_used, *core_used, *pu_used;
	uint16_t *sig;		/* per slot position: its socket's
				   contents, sorted */
	uint16_t *keys;		/* per position: candidates' keys */
	long steps, budget;

	/* the generation */
	uint16_t *s;
	int *cnt;		/* per rank: PUs so far; [0] idle */
	int *pmax;		/* per position: largest label so far */
	uint16_t *lmap;
	long given, cap;
	divisions_fn fn;
	void *arg;
	int fn_ret;
};

static void add_check(struct divisions *dv, int *cap, int a0, int a1,
		      int end)
{
	if (dv->n_chk == *cap) {
		*cap = 2 * *cap + 16;
		dv->chk_a0 = xrealloc(dv->chk_a0, sizeof(int) * (size_t)*cap);
		dv->chk_a1 = xrealloc(dv->chk_a1, sizeof(int) * (size_t)*cap);
		dv->chk0 = xrealloc(dv->chk0, sizeof(int) * (size_t)*cap);
	}
	/* chk0 holds each check's end until sorted below */
	dv->chk_a0[dv->n_chk] = a0;
	dv->chk_a1[dv->n_chk] = a1;
	dv->chk0[dv->n_chk++] = end;
}

/* The checks by the position they end at: chk0 becomes offsets. */
static void sort_checks(struct divisions *dv)
{
	int *a0 = xcalloc((size_t)dv->n_chk + 1, sizeof(int));
	int *a1 = xcalloc((size_t)dv->n_chk + 1, sizeof(int));
	int *off = xcalloc((size_t)dv->n + 2, sizeof(int));
	int i, p, k = 0;

	for (p = 0; p < dv->n; p++) {
		off[p] = k;
		for (i = 0; i < dv->n_chk; i++)
			if (dv->chk0[i] == p) {
				a0[k] = dv->chk_a0[i];
				a1[k++] = dv->chk_a1[i];
			}
	}
	off[dv->n] = k;
	free(dv->chk_a0);
	free(dv->chk_a1);
	free(dv->chk0);
	dv->chk_a0 = a0;
	dv->chk_a1 = a1;
	dv->chk0 = off;
}

/* The PUs of socket S from position *p on, with its checks. */
static void walk_socket(struct divisions *dv, int sl, int s, int *p,
			int *cap)
{
	const struct space *sp = dv->sp;
	const struct pandia_machine *m = sp->m;
	int j, k, q;

	for (j = 0; j < sp->sock_ngroups[s]; j++) {
		const struct core_group *g = &sp->groups[sp->sock_group0[s] +
							 j];

		if (g->n_cores * g->n_pus > dv->maxkey)
			dv->maxkey = g->n_cores * g->n_pus;
		for (k = 0; k < g->n_cores; k++) {
			const struct pandia_core *co = &m->cores[g->cores[k]];

			dv->core_pos[g->cores[k]] = *p;
			if (k)
				add_check(dv, cap, *p - co->n_pus, *p,
					  *p + co->n_pus - 1);
			for (q = 0; q < co->n_pus; q++) {
				if (q)
					add_check(dv, cap, *p - 1, *p, *p);
				dv->tr[*p] = co->pus[q];
				dv->pos[co->pus[q]] = *p;
				dv->p_slot[*p] = sl;
				dv->p_group[*p] = j;
				dv->p_core[*p] = k;
				dv->p_pu[*p] = q;
				(*p)++;
			}
		}
	}
}

struct divisions *divisions_new(const struct space *sp)
{
	const struct pandia_machine *m = sp->m;
	struct divisions *dv = xcalloc(1, sizeof(*dv));
	int n = m->n_pus, c, i, p = 0, cap = 0;

	dv->sp = sp;
	dv->n = n;
	dv->tr = xcalloc((size_t)n, sizeof(int));
	dv->pos = xcalloc((size_t)n, sizeof(int));
	dv->core_pos = xcalloc((size_t)m->n_cores, sizeof(int));
	dv->p_slot = xcalloc((size_t)n, sizeof(int));
	dv->p_group = xcalloc((size_t)n, sizeof(int));
	dv->p_core = xcalloc((size_t)n, sizeof(int));
	dv->p_pu = xcalloc((size_t)n, sizeof(int));
	dv->slot_pos = xcalloc((size_t)sp->n_slots, sizeof(int));
	dv->slot_len = xcalloc((size_t)sp->n_slots, sizeof(int));
	for (c = 0; c < sp->n_classes; c++) {
		const struct sclass *cl = &sp->classes[c];

		for (i = 0; i < cl->n_sockets; i++) {
			int sl = cl->slot0 + i;

			dv->slot_pos[sl] = p;
			walk_socket(dv, sl, cl->sockets[i], &p, &cap);
			dv->slot_len[sl] = p - dv->slot_pos[sl];
			if (i)
				add_check(dv, &cap, dv->slot_pos[sl - 1],
					  dv->slot_pos[sl], p - 1);
		}
	}
	sort_checks(dv);
	dv->best = xcalloc((size_t)n + 1, sizeof(uint16_t));
	dv->s = xcalloc((size_t)n + 1, sizeof(uint16_t));
	dv->sig = xcalloc((size_t)n + 1, sizeof(uint16_t));
	dv->keys = xcalloc((size_t)n * (size_t)(dv->maxkey + 1),
			   sizeof(uint16_t));
	dv->osock = xcalloc((size_t)sp->n_slots, sizeof(int));
	dv->ocore = xcalloc((size_t)n, sizeof(int));
	dv->sock_used = xcalloc((size_t)m->n_sockets, sizeof(bool));
	dv->core_used = xcalloc((size_t)m->n_cores, sizeof(bool));
	dv->pu_used = xcalloc((size_t)n, sizeof(bool));
	dv->map = xcalloc((size_t)n + 1, sizeof(uint16_t));
	dv->lmap = xcalloc((size_t)n + 1, sizeof(uint16_t));
	dv->cnt = xcalloc((size_t)n + 1, sizeof(int));
	dv->pmax = xcalloc((size_t)n + 1, sizeof(int));
	return dv;
}

void divisions_free(struct divisions *dv)
{
	if (!dv)
		return;
	free(dv->tr);
	free(dv->pos);
	free(dv->core_pos);
	free(dv->p_slot);
	free(dv->p_group);
	free(dv->p_core);
	free(dv->p_pu);
	free(dv->slot_pos);
	free(dv->slot_len);
	free(dv->chk0);
	free(dv->chk_a0);
	free(dv->chk_a1);
	free(dv->best);
	free(dv->s);
	free(dv->sig);
	free(dv->keys);
	free(dv->osock);
	free(dv->ocore);
	free(dv->sock_used);
	free(dv->core_used);
	free(dv->pu_used);
	free(dv->map);
	free(dv->lmap);
	free(dv->cnt);
	free(dv->pmax);
	free(dv);
}

int divisions_len(const struct divisions *dv)
{
	return dv->n;
}

int divisions_pu(const struct divisions *dv, int i)
{
	return dv->tr[i];
}

/* ---- the search over the symmetries ------------------------------- */

static int u16_cmp(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

/* How many PUs of core C hold rank L in the division searched. */
static int core_count(const struct divisions *dv, int c, uint16_t l)
{
	const struct pandia_core *co = &dv->sp->m->cores[c];
	int q, k = 0;

	for (q = 0; q < co->n_pus; q++)
		k += dv->in[dv->core_pos[c] + q] == l;
	return k;
}

/*
 * The key of a PU of core C: two PUs (or cores) of equal keys lead to
 * the same strings.  A rank not met yet that lies wholly in the core
 * is any such rank: swapping the two and renumbering fixes the rest.
 */
static uint16_t pu_key(const struct divisions *dv, int c, int pos)
{
	uint16_t l = dv->in[pos];

	if (l && !dv->map[l] && core_count(dv, c, l) == dv->t)
		return DV_CLOSED;
	return l;
}

/* Whether KEY[0..len) is among the TRIED keys before it. */
static bool key_seen(const uint16_t *tried, int n_tried, const uint16_t *key,
		     int len)
{
	int i, q;

	for (i = 0; i < n_tried; i++) {
		for (q = 0; q < len && tried[i * len + q] == key[q]; q++)
			;
		if (q == len)
			return true;
	}
	return false;
}

/* KEY[0..len) sorted (a core's few PUs). */
static void key_sort(uint16_t *key, int len)
{
	int i, k;

	for (i = 1; i < len; i++) {
		uint16_t v = key[i];

		for (k = i; k > 0 && key[k - 1] > v; k--)
			key[k] = key[k - 1];
		key[k] = v;
	}
}

static int search(struct divisions *dv, int p);

/* Position p: the next PU of the core chosen. */
static int search_pu(struct divisions *dv, int p)
{
	int c = dv->ocore[p - dv->p_pu[p]];
	const struct pandia_core *co = &dv->sp->m->cores[c];
	uint16_t tried[SPACE_MAX_SMT];
	int q, n_tried = 0, r;

	for (q = 0; q < co->n_pus; q++) {
		int at = dv->core_pos[c] + q;
		uint16_t l = dv->in[at], key, v;
		bool fresh;

		if (dv->pu_used[at])
			continue;
		key = pu_key(dv, c, at);
		if (key_seen(tried, n_tried, &key, 1))
			continue;
		tried[n_tried++] = key;
		fresh = l && !dv->map[l];
		v = !l ? 0 : fresh ? (uint16_t)dv->next : dv->map[l];
		if (ord(v) > ord(dv->best[p]))
			continue;
		if (ord(v) < ord(dv->best[p])) {
			if (dv->test)
				return DV_SMALLER;
			dv->best[p] = v;
			for (r = p + 1; r < dv->n; r++)
				dv->best[r] = DV_INF;
		}
		dv->pu_used[at] = true;
		if (fresh)
			dv->map[l] = (uint16_t)dv->next++;
		r = search(dv, p + 1);
		if (fresh) {
			dv->map[l] = 0;
			dv->next--;
		}
		dv->pu_used[at] = false;
		if (r != DV_EQUAL)
			return r;
	}
	return DV_EQUAL;
}

/*
 * The smallest part of a string core C can give next, where idle
 * sorts last, into OUT (its PUs): the ranks met in order, then those
 * not met, the most PUs first, then the idle PUs.
 */
static void core_block(const struct divisions *dv, int c, uint16_t *out)
{
	const struct pandia_core *co = &dv->sp->m->cores[c];
	uint16_t met[SPACE_MAX_SMT], lab[SPACE_MAX_SMT];
	int cnt[SPACE_MAX_SMT], n_met = 0, n_new = 0, idle = 0, q, i, k = 0;

	for (q = 0; q < co->n_pus; q++) {
		uint16_t l = dv->in[dv->core_pos[c] + q];

		if (!l) {
			idle++;
		} else if (dv->map[l]) {
			met[n_met++] = dv->map[l];
		} else {
			for (i = 0; i < n_new && lab[i] != l; i++)
				;
			if (i == n_new) {
				lab[n_new] = l;
				cnt[n_new++] = 0;
			}
			cnt[i]++;
		}
	}
	key_sort(met, n_met);
	for (i = 0; i < n_met; i++)
		out[k++] = met[i];
	/* the counts descending (a few) */
	for (i = 1; i < n_new; i++)
		for (q = i; q > 0 && cnt[q - 1] < cnt[q]; q--) {
			int t = cnt[q];

			cnt[q] = cnt[q - 1];
			cnt[q - 1] = t;
		}
	for (i = 0; i < n_new; i++)
		for (q = 0; q < cnt[i]; q++)
			out[k++] = (uint16_t)(dv->next + i);
	while (idle--)
		out[k++] = DV_IDLE;
}

/* Blocks A and B of LEN labels (as core_block() gives them). */
static int block_order(const uint16_t *a, const uint16_t *b, int len)
{
	int i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/*
 * The smallest block the cores left in group G can give at p into
 * MIN; DV_SMALLER when it beats the bound in a test, DV_LARGER when no
 * core can reach the bound, else DV_EQUAL.
 */
static int core_min(const struct divisions *dv, const struct core_group *g,
		    int p, uint16_t *min)
{
	uint16_t b[SPACE_MAX_SMT], bound[SPACE_MAX_SMT];
	int k, q, len = g->n_pus, have = 0, o;

	for (k = 0; k < g->n_cores; k++) {
		if (dv->core_used[g->cores[k]])
			continue;
		core_block(dv, g->cores[k], b);
		if (!have++ || block_order(b, min, len) < 0)
			memcpy(min, b, sizeof(b[0]) * (size_t)len);
	}
	for (q = 0; q < len; q++)
		bound[q] = (uint16_t)ord(dv->best[p + q]);
	o = block_order(min, bound, len);
	if (o > 0)
		return DV_LARGER;
	return o < 0 && dv->test ? DV_SMALLER : DV_EQUAL;
}

/*
 * Position p: the next core of the group, among those left: only
 * those that give the smallest block, as the string's next part is
 * that block whichever core gives it.
 */
static int search_core(struct divisions *dv, int p)
{
	const struct space *sp = dv->sp;
	int s = dv->osock[dv->p_slot[p]];
	const struct core_group *g = &sp->groups[sp->sock_group0[s] +
						 dv->p_group[p]];
	uint16_t *tried = dv->keys + (size_t)p * (size_t)(dv->maxkey + 1);
	uint16_t min[SPACE_MAX_SMT], b[SPACE_MAX_SMT];
	int k, q, n_tried = 0, r, len = g->n_pus;

	r = core_min(dv, g, p, min);
	if (r != DV_EQUAL)
		return r == DV_LARGER ? DV_EQUAL : r;
	for (k = 0; k < g->n_cores; k++) {
		int c = g->cores[k];
		uint16_t *key = tried + n_tried * len;

		if (dv->core_used[c])
			continue;
		core_block(dv, c, b);
		if (block_order(b, min, len))
			continue;
		for (q = 0; q < len; q++)
			key[q] = pu_key(dv, c, dv->core_pos[c] + q);
		key_sort(key, len);
		if (key_seen(tried, n_tried, key, len))
			continue;
		n_tried++;
		dv->core_used[c] = true;
		dv->ocore[p] = c;
		r = search_pu(dv, p);
		dv->core_used[c] = false;
		if (r != DV_EQUAL)
			return r;
	}
	return DV_EQUAL;
}

/* Position p: the next socket of the class, among those left. */
static int search_socket(struct divisions *dv, int p)
{
	const struct space *sp = dv->sp;
	int sl = dv->p_slot[p];
	const struct sclass *cl = &sp->classes[sp->slot_class[sl]];
	int i, k, r, tried[64], n_tried = 0;

	for (i = 0; i < cl->n_sockets; i++) {
		int s = cl->sockets[i], len = dv->slot_len[cl->slot0 + i];
		const uint16_t *sig = dv->sig + dv->slot_pos[cl->slot0 + i];
		bool seen = false;

		if (dv->sock_used[s])
			continue;
		/* a socket of the same contents as one tried: the same */
		for (k = 0; k < n_tried && !seen; k++)
			seen = !memcmp(dv->sig + dv->slot_pos[tried[k]], sig,
				       sizeof(uint16_t) * (size_t)len);
		if (seen)
			continue;
		if (n_tried < 64)
			tried[n_tried++] = cl->slot0 + i;
		dv->sock_used[s] = true;
		dv->osock[sl] = s;
		r = search_core(dv, p);
		dv->sock_used[s] = false;
		if (r != DV_EQUAL)
			return r;
	}
	return DV_EQUAL;
}

static int search(struct divisions *dv, int p)
{
	if (dv->budget && ++dv->steps > dv->budget)
		return DV_BUDGET;
	if (p == dv->n)
		return DV_EQUAL;
	if (!dv->p_pu[p] && !dv->p_core[p] && !dv->p_group[p])
		return search_socket(dv, p);
	if (!dv->p_pu[p])
		return search_core(dv, p);
	return search_pu(dv, p);
}

/* Blocks of *(int *)ARG labels, by their labels. */
static int block_cmp(const void *a, const void *b, void *arg)
{
	const uint16_t *x = a, *y = b;
	int len = *(const int *)arg, i;

	for (i = 0; i < len; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/*
 * Each slot's socket's contents in a form equal for sockets equal up
 * to their cores' order: each core's labels sorted, the cores of a
 * group sorted.
 */
static void socket_sigs(struct divisions *dv)
{
	const struct space *sp = dv->sp;
	int p = 0;

	memcpy(dv->sig, dv->in, sizeof(uint16_t) * (size_t)dv->n);
	while (p < dv->n) {
		int sl = dv->p_slot[p];
		const struct sclass *cl = &sp->classes[sp->slot_class[sl]];
		int s = cl->sockets[sl - cl->slot0], k, len;
		const struct core_group *g =
			&sp->groups[sp->sock_group0[s] + dv->p_group[p]];

		len = g->n_pus;
		for (k = 0; k < g->n_cores; k++)
			qsort(dv->sig + p + k * len, (size_t)len,
			      sizeof(uint16_t), u16_cmp);
		qsort_r(dv->sig + p, (size_t)g->n_cores,
			sizeof(uint16_t) * (size_t)len, block_cmp, &len);
		p += g->n_cores * len;
	}
}

/*
 * Search the symmetries for division IN (a string of R ranks of T):
 * with TEST, whether one makes it smaller (DV_SMALLER); else the
 * smallest string into dv->best.  DV_BUDGET when the steps ran out.
 */
static int search_all(struct divisions *dv, const uint16_t *in, bool test)
{
	int i;

	dv->in = in;
	dv->test = test;
	dv->next = 1;
	memcpy(dv->best, in, sizeof(uint16_t) * (size_t)dv->n);
	memset(dv->map, 0, sizeof(uint16_t) * (size_t)(dv->n + 1));
	for (i = 0; i < dv->n; i++)
		dv->pu_used[i] = false;
	socket_sigs(dv);
	return search(dv, 0);
}

/* ---- the generation ---------------------------------------------- */

/*
 * Whether the string so far survives swapping the neighbours
 * [a0, a1) and [a1, p] (two PUs of a core, cores of a group, sockets
 * of a class): the swapped string, renumbered, must not be smaller.
 */
static bool swap_ok(struct divisions *dv, int a0, int a1, int p)
{
	const uint16_t *s = dv->s;
	int m0 = a0 ? dv->pmax[a0 - 1] : 0, next = m0 + 1, i, ret = 1;
	int len = p + 1 - a0;

	for (i = 0; i < len; i++) {
		int at = i < p + 1 - a1 ? a1 + i : a0 + i - (p + 1 - a1);
		uint16_t l = s[at], v;

		if (l > m0 && !dv->lmap[l])
			dv->lmap[l] = (uint16_t)next++;
		v = l > m0 ? dv->lmap[l] : l;
		if (v != s[a0 + i]) {
			ret = ord(v) > ord(s[a0 + i]);
			break;
		}
	}
	for (i = a0; i <= p; i++)
		dv->lmap[s[i]] = 0;
	return ret;
}

static int generate(struct divisions *dv, int p);

/* Label L at position p, then the rest.  DV_* or FN's non-zero. */
static int generate_with(struct divisions *dv, int p, int l)
{
	int k, r = DV_EQUAL;

	dv->s[p] = (uint16_t)l;
	dv->cnt[l]++;
	dv->pmax[p] = p && dv->pmax[p - 1] > l ? dv->pmax[p - 1] : l;
	for (k = dv->chk0[p]; k < dv->chk0[p + 1]; k++)
		if (!swap_ok(dv, dv->chk_a0[k], dv->chk_a1[k], p))
			goto out;
	r = generate(dv, p + 1);
out:
	dv->cnt[l]--;
	return r;
}

static int generate(struct divisions *dv, int p)
{
	int l, top, r;

	if (dv->budget && ++dv->steps > dv->budget)
		return DV_BUDGET;
	if (p == dv->n) {
		r = search_all(dv, dv->s, true);
		if (r == DV_SMALLER)
			return DV_EQUAL;
		if (r == DV_BUDGET)
			return r;
		if (dv->cap && dv->given >= dv->cap)
			return DV_BUDGET;
		dv->given++;
		dv->fn_ret = dv->fn(dv->s, dv->arg);
		return dv->fn_ret ? DV_STOP : DV_EQUAL;
	}
	top = p ? dv->pmax[p - 1] : 0;
	/* the ranks met, a new one, then idle: in the strings' order */
	for (l = 1; l <= top + 2; l++) {
		int lab = l == top + 2 ? 0 : l;

		if (lab > dv->r || (lab ? dv->cnt[lab] == dv->t :
				    dv->cnt[0] == dv->n - dv->r * dv->t))
			continue;
		r = generate_with(dv, p, lab);
		if (r != DV_EQUAL)
			return r;
	}
	return DV_EQUAL;
}

int divisions_enumerate(struct divisions *dv, int r, int t, long cap,
			long budget, divisions_fn fn, void *arg,
			bool *complete)
{
	int ret;

	*complete = false;
	if (r < 1 || t < 1 || r * t > dv->n)
		return 0;
	dv->r = r;
	dv->t = t;
	dv->cap = cap;
	dv->budget = budget;
	dv->steps = 0;
	dv->given = 0;
	dv->fn = fn;
	dv->arg = arg;
	memset(dv->cnt, 0, sizeof(int) * (size_t)(dv->n + 1));
	ret = generate(dv, 0);
	if (ret == DV_EQUAL)
		*complete = true;
	return ret == DV_STOP ? dv->fn_ret : 0;
}

long divisions_steps(const struct divisions *dv)
{
	return dv->steps;
}

int divisions_canonical(struct divisions *dv, int r, int t, const int *pus,
			long budget, uint16_t *out)
{
	uint16_t *in = xcalloc((size_t)dv->n + 1, sizeof(uint16_t));
	uint16_t *ren = xcalloc((size_t)r + 1, sizeof(uint16_t));
	int i, next = 1, ret;

	for (i = 0; i < r * t; i++)
		in[dv->pos[pus[i]]] = (uint16_t)(i / t + 1);
	/* ranks numbered by first appearance */
	for (i = 0; i < dv->n; i++) {
		if (in[i] && !ren[in[i]])
			ren[in[i]] = (uint16_t)next++;
		in[i] = in[i] ? ren[in[i]] : 0;
	}
	dv->r = r;
	dv->t = t;
	dv->budget = budget;
	dv->steps = 0;
	ret = search_all(dv, in, false) == DV_BUDGET ? -1 : 0;
	memcpy(out, dv->best, sizeof(uint16_t) * (size_t)dv->n);
	free(in);
	free(ren);
	return ret;
}

double divisions_lower_bound(const struct divisions *dv, int r, int t)
{
	const struct space *sp = dv->sp;
	int n = dv->n, c, j;
	double occ;
	/* log of the labelled divisions, ranks told apart */
	double lg = lgamma(n + 1.0) - r * lgamma(t + 1.0) -
		lgamma(n - r * t + 1.0) - lgamma(r + 1.0);

	for (c = 0; c < sp->n_classes; c++) {
		const struct sclass *cl = &sp->classes[c];
		int s = cl->sockets[0];

		lg -= lgamma(cl->n_sockets + 1.0);
		for (j = 0; j < sp->sock_ngroups[s]; j++) {
			const struct core_group *g =
				&sp->groups[sp->sock_group0[s] + j];

			lg -= cl->n_sockets * (lgamma(g->n_cores + 1.0) +
					       g->n_cores *
					       lgamma(g->n_pus + 1.0));
		}
	}
	lg = lg > 690 ? 1e300 : lg < 0 ? 1 : ceil(exp(lg) - 1e-6);
	/* a division's idle PUs are a placement of R x T threads, and
	   divisions of unlike placements are unlike */
	occ = space_count_threads(sp, r * t, 0);
	return occ > lg ? occ : lg;
}
