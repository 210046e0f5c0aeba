/*
 * check_divisions.c - the divisions of a machine into ranks of threads
 * up to symmetry (builtin/predict_ranks_enum.c) against brute force.
 *
 * On small symmetric machines every division of R ranks of T threads
 * is generated, the ranks as a set of PU sets; every symmetry of the
 * machine (sockets, a socket's cores, a core's PUs, all permuted) is
 * applied, and the smallest image names the class.  The enumeration
 * must give exactly one division per class, and the canonical form of
 * every division must be its class's.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/predict_ranks_enum.h"
#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "predictor/space.h"
#include "tests/lib/testkit.h"

#define MAXP 10			/* PUs of a brute-forced machine */

struct brute {
	const struct pandia_machine *m;
	int n_g;
	int (*g)[MAXP];		/* the symmetries: PU -> PU */
	int r, t;
	int lab[MAXP], cnt[MAXP + 1];
	unsigned (*keys)[MAXP];	/* the classes found, each its ranks'
				   PU masks, sorted */
	int n_keys, cap_keys;
};

/* All permutations of 0..k-1 (k <= 4) into out; how many. */
static int perms(int k, int (*out)[4])
{
	int n = 0, p[4], i, j;

	for (i = 0; i < k; i++)
		p[i] = i;
	for (;;) {
		memcpy(out[n++], p, sizeof(p));
		for (i = k - 2; i >= 0 && p[i] > p[i + 1]; i--)
			;
		if (i < 0)
			return n;
		for (j = k - 1; p[j] < p[i]; j--)
			;
		int x = p[i];

		p[i] = p[j];
		p[j] = x;
		for (j = k - 1, i++; i < j; i++, j--) {
			x = p[i];
			p[i] = p[j];
			p[j] = x;
		}
	}
}

/*
 * Every symmetry of a machine of identical sockets of identical cores:
 * a permutation of the sockets, of each socket's cores, of each core's
 * PUs, as a mixed-radix number.
 */
static void symmetries(struct brute *b)
{
	const struct pandia_machine *m = b->m;
	int ns = m->n_sockets, nc = m->sockets[0].n_cores;
	int np = m->cores[m->sockets[0].cores[0]].n_pus;
	int ps[24][4], pc[24][4], pp[24][4];
	int n_s = perms(ns, ps), n_c = perms(nc, pc), n_p = perms(np, pp);
	long total = n_s, idx;
	int i;

	for (i = 0; i < ns; i++)
		total *= n_c;
	for (i = 0; i < ns * nc; i++)
		total *= n_p;
	b->g = xcalloc((size_t)total, sizeof(*b->g));
	for (idx = 0; idx < total; idx++) {
		long x = idx;
		int s, c, q, so = (int)(x % n_s);

		x /= n_s;
		for (s = 0; s < ns; s++) {
			int co = (int)(x % n_c);
			const struct pandia_socket *from = &m->sockets[s];
			const struct pandia_socket *to =
				&m->sockets[ps[so][s]];

			x /= n_c;
			for (c = 0; c < nc; c++) {
				int po = (int)(x % n_p);
				const struct pandia_core *cf =
					&m->cores[from->cores[c]];
				const struct pandia_core *ct =
					&m->cores[to->cores[pc[co][c]]];

				x /= n_p;
				for (q = 0; q < np; q++)
					b->g[idx][cf->pus[q]] =
						ct->pus[pp[po][q]];
			}
		}
	}
	b->n_g = (int)total;
}

static int uint_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* The class of labelling LAB: its smallest image, ranks sorted. */
static void class_key(const struct brute *b, const int *lab, unsigned *key)
{
	unsigned k[MAXP];
	int i, p;

	for (i = 0; i < b->n_g; i++) {
		memset(k, 0, sizeof(k));
		for (p = 0; p < b->m->n_pus; p++)
			if (lab[p])
				k[lab[p] - 1] |= 1u << b->g[i][p];
		qsort(k, (size_t)b->r, sizeof(unsigned), uint_cmp);
		if (!i || memcmp(k, key, sizeof(unsigned) * (size_t)b->r) < 0)
			memcpy(key, k, sizeof(unsigned) * (size_t)b->r);
	}
}

static int key_find(const struct brute *b, const unsigned *key)
{
	int i;

	for (i = 0; i < b->n_keys; i++)
		if (!memcmp(b->keys[i], key, sizeof(unsigned) * (size_t)b->r))
			return i;
	return -1;
}

/* Every labelling from PU p on, ranks by first appearance. */
static void brute_walk(struct brute *b, int p, int top)
{
	int l, P = b->m->n_pus;

	if (p == P) {
		unsigned key[MAXP] = { 0 };

		class_key(b, b->lab, key);
		if (key_find(b, key) >= 0)
			return;
		if (b->n_keys == b->cap_keys) {
			b->cap_keys = 2 * b->cap_keys + 64;
			b->keys = xrealloc(b->keys, sizeof(*b->keys) *
					   (size_t)b->cap_keys);
		}
		memcpy(b->keys[b->n_keys++], key, sizeof(key));
		return;
	}
	for (l = 0; l <= top + 1 && l <= b->r; l++) {
		if (l ? b->cnt[l] == b->t : b->cnt[0] == P - b->r * b->t)
			continue;
		b->lab[p] = l;
		b->cnt[l]++;
		brute_walk(b, p + 1, l > top ? l : top);
		b->cnt[l]--;
	}
}

struct seen {
	const struct brute *b;
	const struct divisions *dv;
	int *hit;		/* per class: how often given */
	int given;
	uint16_t (*strs)[MAXP];
};

/* One enumerated division: its class, by brute force. */
static int one(const uint16_t *s, void *arg)
{
	struct seen *e = arg;
	int lab[MAXP] = { 0 }, i, k;
	unsigned key[MAXP] = { 0 };

	for (i = 0; i < divisions_len(e->dv); i++)
		lab[divisions_pu(e->dv, i)] = s[i];
	class_key(e->b, lab, key);
	k = key_find(e->b, key);
	ck_assert_msg(k >= 0, "a division of no class");
	e->hit[k]++;
	memcpy(e->strs[e->given++], s, sizeof(uint16_t) *
	       (size_t)divisions_len(e->dv));
	return 0;
}

static const char *const machines[] = {
	"pack:2 core:2 pu:2", "pack:1 core:3 pu:2", "pack:3 core:2 pu:1",
	"pack:1 core:4 pu:2",
};

/* The canonical form of class K's first division is an enumerated one. */
static void check_canonical(struct divisions *dv, const struct brute *b,
			    const struct seen *e, int k)
{
	int pus[MAXP], n = 0, r, p, i;
	uint16_t out[MAXP];

	for (r = 0; r < b->r; r++)
		for (p = 0; p < b->m->n_pus; p++)
			if (b->keys[k][r] & (1u << p))
				pus[n++] = p;
	ck_assert_int_eq(divisions_canonical(dv, b->r, b->t, pus, 0, out), 0);
	for (i = 0; i < e->given; i++)
		if (!memcmp(e->strs[i], out,
			    sizeof(uint16_t) * (size_t)b->m->n_pus))
			return;
	ck_abort_msg("class %d: its canonical form was not enumerated", k);
}

START_TEST(test_brute_force)
{
	struct pandia_machine *m = machine_new();
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct divisions *dv;
	struct space *sp;
	struct brute b;
	int r, t, k, P;

	ck_assert_msg(topology_load(m, machines[_i], &err) == 0, "%s",
		      err.text);
	m->peak_rate = 1e10;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	dv = divisions_new(sp);
	memset(&b, 0, sizeof(b));
	b.m = m;
	symmetries(&b);
	P = m->n_pus;
	for (r = 1; r <= P; r++)
		for (t = 1; r * t <= P; t++) {
			struct seen e = { &b, dv, NULL, 0, NULL };
			bool complete;

			b.r = r;
			b.t = t;
			b.n_keys = 0;
			memset(b.cnt, 0, sizeof(b.cnt));
			brute_walk(&b, 0, 0);
			e.hit = xcalloc((size_t)b.n_keys, sizeof(int));
			e.strs = xcalloc((size_t)b.n_keys + 1,
					 sizeof(*e.strs));
			ck_assert_int_eq(divisions_enumerate(dv, r, t, b.n_keys
					 + 1, 0, one, &e, &complete), 0);
			ck_assert(complete);
			for (k = 0; k < b.n_keys; k++)
				ck_assert_msg(e.hit[k] == 1, "%s, %d ranks of "
					      "%d: class %d given %d times "
					      "(%d classes)", machines[_i], r,
					      t, k, e.hit[k], b.n_keys);
			ck_assert_int_eq(e.given, b.n_keys);
			ck_assert(divisions_lower_bound(dv, r, t) <= b.n_keys);
			for (k = 0; k < b.n_keys; k++)
				check_canonical(dv, &b, &e, k);
			free(e.hit);
			free(e.strs);
		}
	free(b.keys);
	free(b.g);
	divisions_free(dv);
	space_free(sp);
	machine_free(m);
}
END_TEST

static int count(const uint16_t *s, void *arg)
{
	(*(long *)arg)++;
	return 0;
}

/*
 * A large machine: the cap stops the enumeration, which says it is not
 * complete, and the lower bound is above what was given.
 */
START_TEST(test_cap)
{
	struct pandia_machine *m = machine_new();
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct divisions *dv;
	struct space *sp;
	bool complete;
	long n = 0;

	ck_assert_int_eq(topology_load(m, "pack:2 core:18 pu:2", &err), 0);
	m->peak_rate = 1e10;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	dv = divisions_new(sp);
	ck_assert_int_eq(divisions_enumerate(dv, 4, 9, 100, 0, count, &n,
					     &complete), 0);
	ck_assert_int_eq(n, 100);
	ck_assert(!complete);
	ck_assert(divisions_lower_bound(dv, 4, 9) > 100);
	/* one rank: the canonical placements of T threads */
	n = 0;
	ck_assert_int_eq(divisions_enumerate(dv, 1, 2, 0, 0, count, &n,
					     &complete), 0);
	ck_assert(complete);
	ck_assert_int_eq(n, 3);	/* one core, two cores, two sockets */
	divisions_free(dv);
	space_free(sp);
	machine_free(m);
}
END_TEST

static Suite *divisions_suite(void)
{
	Suite *s = suite_create("divisions");
	TCase *tc = tcase_create("brute force");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_brute_force, 0, ARRAY_SIZE(machines));
	tcase_add_test(tc, test_cap);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { divisions_suite, NULL };
