/*
 * check_enumerate.c - canonical placements against brute force.
 *
 * On small machines, symmetric and not (an offline PU, uneven sockets,
 * an asymmetric interconnect, a memory policy that singles out one
 * socket), every placement with at most K threads per PU is generated,
 * reduced under every symmetry of the machine, and the orbits counted
 * per thread count; the enumerator must produce exactly one placement
 * per orbit.  The large machines' counts are checked against the
 * closed form, and every enumerated placement must survive the round
 * trip to PUs and back.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "predictor/space.h"
#include "tests/lib/testkit.h"

#define MAXP 10			/* PUs of a brute-forced machine */

/*
 * A machine from "2,2|2,1": sockets separated by '|', the PU count of
 * each core separated by ','.  One NUMA node per socket, no caches,
 * DRAM and an interconnect; SLOW, when >= 0, makes the link between
 * sockets 0 and SLOW slower than the others.
 */
static struct pandia_machine *mk_machine(const char *desc, int slow)
{
	struct pandia_machine *m = machine_new();
	int s = 0, c = 0, p = 0, i, j;
	const char *q;

	m->n_sockets = 1;
	for (q = desc; *q; q++)
		m->n_sockets += *q == '|';
	m->sockets = xcalloc((size_t)m->n_sockets, sizeof(*m->sockets));
	m->numa = xcalloc((size_t)m->n_sockets, sizeof(*m->numa));
	m->n_numa = m->n_sockets;
	m->cores = xcalloc(32, sizeof(*m->cores));
	m->pus = xcalloc(64, sizeof(*m->pus));
	for (q = desc; *q; ) {
		int n = (int)strtol(q, (char **)&q, 10);
		struct pandia_core *co = &m->cores[c];

		co->socket = s;
		co->numa = s;
		co->cache[0] = co->cache[1] = co->cache[2] = -1;
		co->n_pus = n;
		co->pus = xcalloc((size_t)n, sizeof(int));
		for (i = 0; i < n; i++) {
			m->pus[p].os_index = p;
			m->pus[p].core = c;
			co->pus[i] = p++;
		}
		c++;
		if (*q == '|')
			s++;
		if (*q)
			q++;
	}
	m->n_cores = c;
	m->n_pus = p;
	for (s = 0; s < m->n_sockets; s++) {
		struct pandia_socket *so = &m->sockets[s];

		so->os_index = s;
		so->cores = xcalloc((size_t)c, sizeof(int));
		m->numa[s].os_index = s;
		m->numa[s].socket = s;
		m->numa[s].memory = 1 << 30;
		m->numa[s].cores = xcalloc((size_t)c, sizeof(int));
		for (j = 0; j < c; j++)
			if (m->cores[j].socket == s) {
				so->cores[so->n_cores++] = j;
				m->numa[s].cores[m->numa[s].n_cores++] = j;
			}
	}
	m->peak_rate = 1e10;
	m->links[LVL_DRAM].present = true;
	m->links[LVL_DRAM].per_core_bw = 1e10;
	m->links[LVL_DRAM].aggregate_bw = 4e10;
	m->links[LVL_INTERCONNECT].present = true;
	m->links[LVL_INTERCONNECT].per_core_bw = 1e10;
	m->links[LVL_INTERCONNECT].aggregate_bw = 2e10;
	if (slow >= 0) {
		m->n_xlinks = 1;
		m->xlinks = xcalloc(1, sizeof(*m->xlinks));
		m->xlinks[0].from = 0;
		m->xlinks[0].to = slow;
		m->xlinks[0].bw = 1e10;
	}
	return m;
}

/* ---- brute force ------------------------------------------------ */

struct brute {
	const struct pandia_machine *m;
	int fixed;		/* socket that must map to itself, or -1 */
	double *bw;		/* socket pair bandwidths */
	int n_maps;
	int (*maps)[MAXP];	/* every symmetry, as a PU permutation */
};

static void add_map(struct brute *B, const int *map)
{
	B->maps = xrealloc(B->maps, sizeof(*B->maps) *
			   (size_t)(B->n_maps + 1));
	memcpy(B->maps[B->n_maps++], map, sizeof(int) * MAXP);
}

/* PUs of the cores of socket s, core by core (cores in list order). */
static void cores_perm(struct brute *B, const int *sigma, int s,
		       int *map, int ci, bool *used);

static void pus_perm(struct brute *B, const int *sigma, int s, int *map,
		     int ci, bool *used, int core_from, int core_to, int k,
		     bool *pused)
{
	const struct pandia_machine *m = B->m;
	const struct pandia_core *a = &m->cores[core_from];
	const struct pandia_core *b = &m->cores[core_to];
	int j;

	if (k == a->n_pus) {
		cores_perm(B, sigma, s, map, ci + 1, used);
		return;
	}
	for (j = 0; j < b->n_pus; j++) {
		if (pused[j])
			continue;
		pused[j] = true;
		map[a->pus[k]] = b->pus[j];
		pus_perm(B, sigma, s, map, ci, used, core_from, core_to, k + 1,
			 pused);
		pused[j] = false;
	}
}

static void cores_perm(struct brute *B, const int *sigma, int s,
		       int *map, int ci, bool *used)
{
	const struct pandia_machine *m = B->m;
	const struct pandia_socket *from = &m->sockets[s];
	const struct pandia_socket *to;
	int j;

	if (ci == from->n_cores) {
		bool next_used[32] = { false };

		if (s + 1 == m->n_sockets) {
			add_map(B, map);
			return;
		}
		cores_perm(B, sigma, s + 1, map, 0, next_used);
		return;
	}
	to = &m->sockets[sigma[s]];
	for (j = 0; j < to->n_cores; j++) {
		int a = from->cores[ci], b = to->cores[j];
		bool pused[8] = { false };

		if (used[j] || m->cores[a].n_pus != m->cores[b].n_pus)
			continue;
		used[j] = true;
		pus_perm(B, sigma, s, map, ci, used, a, b, 0, pused);
		used[j] = false;
	}
}

static void sockets_perm(struct brute *B, int *sigma, int k, bool *used)
{
	const struct pandia_machine *m = B->m;
	int j, a, b;

	if (k == m->n_sockets) {
		int map[MAXP];
		bool cused[32] = { false };

		/* the interconnect must look the same */
		for (a = 0; a < m->n_sockets; a++)
			for (b = 0; b < m->n_sockets; b++)
				if (a != b && machine_pair_bw(m, a, b) !=
				    machine_pair_bw(m, sigma[a], sigma[b]))
					return;
		if (B->fixed >= 0 && sigma[B->fixed] != B->fixed)
			return;
		cores_perm(B, sigma, 0, map, 0, cused);
		return;
	}
	for (j = 0; j < m->n_sockets; j++) {
		if (used[j] || m->sockets[j].n_cores != m->sockets[k].n_cores)
			continue;
		used[j] = true;
		sigma[k] = j;
		sockets_perm(B, sigma, k + 1, used);
		used[j] = false;
	}
}

/* Orbits of placements per thread count: counts[t]. */
static void brute_orbits(const struct pandia_machine *m, int k, int fixed,
			 long *counts, int max_t)
{
	struct brute B = { m, fixed, NULL, 0, NULL };
	int sigma[8], P = m->n_pus, v[MAXP], i, g;
	bool used[8] = { false };
	long total = 1, code, n_keys = 0;
	long *keys;

	ck_assert_int_le(P, MAXP);
	sockets_perm(&B, sigma, 0, used);
	ck_assert_int_gt(B.n_maps, 0);
	for (i = 0; i < P; i++)
		total *= k + 1;
	keys = xcalloc((size_t)total, sizeof(long));
	for (code = 1; code < total; code++) {
		long best = -1, c = code;
		int t = 0;

		for (i = 0; i < P; i++) {
			v[i] = (int)(c % (k + 1));
			c /= k + 1;
			t += v[i];
		}
		/* the smallest image of v under the symmetries */
		for (g = 0; g < B.n_maps; g++) {
			int w[MAXP];
			long key = 0;

			for (i = 0; i < P; i++)
				w[B.maps[g][i]] = v[i];
			for (i = P - 1; i >= 0; i--)
				key = key * (k + 1) + w[i];
			if (best < 0 || key < best)
				best = key;
		}
		/* count each orbit once: at its smallest member */
		if (best == code) {
			ck_assert_int_le(t, max_t);
			counts[t]++;
			n_keys++;
		}
	}
	free(keys);
	free(B.maps);
	(void)n_keys;
}

/* ---- the enumerator --------------------------------------------- */

struct tally {
	long *counts;
	long n;
	bool round_trip_ok;
};

static int tally_one(const struct space *sp, const uint16_t *st, void *arg)
{
	struct tally *t = arg;
	int threads, cores, sockets, *pus, n, s;
	uint16_t back[16];

	space_usage(sp, st, &threads, &cores, &sockets);
	t->counts[threads]++;
	t->n++;
	/* to PUs and back to the same canonical form */
	n = space_pus(sp, st, &pus);
	if (n != threads || space_canonical(sp, pus, n, back) < 0)
		t->round_trip_ok = false;
	else
		for (s = 0; s < sp->n_slots; s++)
			if (back[s] != st[s])
				t->round_trip_ok = false;
	free(pus);
	return 0;
}

static const struct small_row {
	int line;
	const char *desc;
	int k;
	int slow;		/* asymmetric link 0-slow, or -1 */
	const char *mem;
	int classes;		/* socket classes expected */
} small_rows[] = {
	{ __LINE__, "2", 1, -1, "local", 1 },
	{ __LINE__, "2,2", 1, -1, "local", 1 },
	{ __LINE__, "2,2|2,2", 1, -1, "local", 1 },
	{ __LINE__, "2,2|2,2", 2, -1, "local", 1 },
	{ __LINE__, "1,1,1|1,1,1", 2, -1, "interleave", 1 },
	{ __LINE__, "1,1|1,1|1,1", 1, -1, "local", 1 },
	{ __LINE__, "1,1|1,1|1,1", 2, -1, "local", 1 },
	{ __LINE__, "2,2|2,1", 1, -1, "local", 2 },	/* offline PU */
	{ __LINE__, "2,2|2,1", 2, -1, "local", 2 },
	{ __LINE__, "2,2|2", 1, -1, "local", 2 },	/* uneven sockets */
	{ __LINE__, "2,1|1,2", 1, -1, "local", 1 },
	{ __LINE__, "1,1|1,1|1,1", 1, 1, "local", 2 },	/* slow link */
	{ __LINE__, "1,1|1,1|1,1", 1, -1, "node:2", 2 },
	{ __LINE__, "2,2|2,2", 1, -1, "node:0", 2 },
	{ __LINE__, "3|3", 2, -1, "local", 1 },
	{ __LINE__, "4,1", 2, -1, "local", 1 },
};

START_TEST(test_brute_force)
{
	const struct small_row *r = &small_rows[_i];
	struct pandia_machine *m = mk_machine(r->desc, r->slow);
	struct pandia_mempolicy mem;
	struct pandia_error err;
	long want[64] = { 0 }, got[64] = { 0 }, total = 0;
	struct tally t = { got, 0, true };
	struct space *sp;
	struct space_count cnt;
	int fixed = -1, i;

	ck_assert_int_eq(mempolicy_parse(r->mem, &mem, &err), 0);
	if (mem.kind == MEM_NODE)
		fixed = mem.node;
	sp = space_new(m, r->k, &mem, &err);
	ck_assert_msg(sp != NULL, "line %d: %s", r->line, err.text);
	ck_assert_msg(sp->n_classes == r->classes, "line %d: %d classes",
		      r->line, sp->n_classes);
	brute_orbits(m, r->k, fixed, want, 63);
	space_enumerate(sp, 0, 0, tally_one, &t);
	for (i = 0; i < 64; i++) {
		ck_assert_msg(got[i] == want[i], "line %d (%s, k %d, %s): "
			      "%ld placements of %d threads, brute force %ld",
			      r->line, r->desc, r->k, r->mem, got[i], i,
			      want[i]);
		total += want[i];
	}
	ck_assert_msg(t.round_trip_ok, "line %d: round trip", r->line);
	cnt = space_count_all(sp);
	ck_assert_msg(!cnt.overflow && (long)cnt.n == total,
		      "line %d: closed form %ld, orbits %ld", r->line,
		      (long)cnt.n, total);
	/* --threads N visits exactly those */
	for (i = 1; i < 64; i++) {
		long only[64] = { 0 };
		struct tally u = { only, 0, true };

		if (!want[i])
			continue;
		space_enumerate(sp, i, 0, tally_one, &u);
		ck_assert_msg(u.n == want[i] && only[i] == want[i],
			      "line %d: --threads %d gives %ld, want %ld",
			      r->line, i, u.n, want[i]);
	}
	space_free(sp);
	machine_free(m);
}
END_TEST

/* ---- large machines: the closed form ---------------------------- */

static const struct big_row {
	int line;
	const char *topology;
	int k;
	const char *count;	/* canonical placements */
	long enumerate;		/* 0: too many to walk here */
} big_rows[] = {
	/* the paper's two-socket, 72-PU machine: per socket (cores with
	   one thread, cores with two): 190 states; 190 * 191 / 2 - 1 */
	{ __LINE__, "pack:2 core:18 pu:2", 1, "18144", 18144 },
	/* the four-socket, 80-PU machine: C(66 + 3, 4) - 1 */
	{ __LINE__, "pack:4 core:10 pu:2", 1, "864500", 0 },
	/* 24 sockets of 8 two-PU cores: C(45 + 23, 24) - 1 */
	{ __LINE__, "tests/data/topologies/24socket-384pu.xml", 1,
	  "1503671219791486199", 0 },
	{ __LINE__, "pack:2 core:4 pu:2", 2, "8000", 8000 },
	{ __LINE__, "pack:1 core:4 pu:1", 1, "4", 4 },
};

static int count_one(const struct space *sp, const uint16_t *st, void *arg)
{
	(*(long *)arg)++;
	return 0;
}

START_TEST(test_big_counts)
{
	const struct big_row *r = &big_rows[_i];
	struct pandia_machine *m = machine_new();
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp;
	char buf[64];
	long n = 0;

	ck_assert_msg(topology_load(m, r->topology, &err) == 0, "%s",
		      err.text);
	m->peak_rate = 1e10;
	sp = space_new(m, r->k, &mem, &err);
	ck_assert_msg(sp != NULL, "line %d: %s", r->line, err.text);
	ck_assert_int_eq(sp->n_classes, 1);
	space_count_format(space_count_all(sp), buf, sizeof(buf));
	ck_assert_msg(!strcmp(buf, r->count), "line %d: %s, want %s",
		      r->line, buf, r->count);
	if (r->enumerate) {
		space_enumerate(sp, 0, 0, count_one, &n);
		ck_assert_msg(n == r->enumerate, "line %d: walked %ld",
			      r->line, n);
	}
	space_free(sp);
	machine_free(m);
}
END_TEST

/*
 * The reduced space of the 24-socket machine: used sockets in at most
 * two layouts.  44 single layouts x 24 socket counts, plus C(44, 2)
 * pairs x 276 ways to give a and b >= 1 sockets with a + b <= 24.
 */
START_TEST(test_reduced_count)
{
	struct pandia_machine *m = machine_new();
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp;
	long n = 0, one = 0;

	ck_assert_int_eq(topology_load(m, "pack:24 core:8 pu:2", &err), 0);
	m->peak_rate = 1e10;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	space_enumerate(sp, 0, 2, count_one, &n);
	ck_assert_int_eq(n, 44L * 24 + 946L * 276);
	space_enumerate(sp, 0, 1, count_one, &one);
	ck_assert_int_eq(one, 44L * 24);
	space_free(sp);
	machine_free(m);
}
END_TEST

/* An offline PU in an hwloc XML topology: fewer symmetries, and the
   enumeration still matches the closed form. */
START_TEST(test_offline_xml)
{
	struct pandia_machine *m = machine_new();
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp;
	struct space_count c;
	long n = 0;

	ck_assert_msg(topology_load(m, "tests/data/topologies/"
				    "4socket-offline.xml", &err) == 0, "%s",
		      err.text);
	m->peak_rate = 1e10;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	ck_assert_int_gt(sp->n_classes, 1);
	c = space_count_all(sp);
	ck_assert(!c.overflow);
	if (c.n < 3000000) {
		space_enumerate(sp, 0, 0, count_one, &n);
		ck_assert_int_eq(n, (long)c.n);
	}
	space_free(sp);
	machine_free(m);
}
END_TEST

/*
 * The counts that decide the reduced space are computed, never walked
 * (issue 19: a 4,096-PU machine spun 160 s counting): by arithmetic
 * per layout limit, by dynamic programming per thread count.  Both
 * equal the walk on machines small enough to walk, symmetric or not.
 */
static const struct count_row {
	int line;
	const char *topology;
	int k;
} count_rows[] = {
	{ __LINE__, "pack:2 core:4 pu:2", 1 },
	{ __LINE__, "pack:2 core:4 pu:2", 2 },
	{ __LINE__, "pack:4 core:3 pu:2", 1 },
	{ __LINE__, "pack:6 core:2 pu:1", 3 },
	{ __LINE__, "tests/data/topologies/4socket-offline.xml", 1 },
	{ __LINE__, "tests/data/topologies/hybrid-3kinds.xml", 2 },
	{ __LINE__, "tests/data/topologies/2socket-node-excluded.xml", 1 },
};

START_TEST(test_counts_computed)
{
	const struct count_row *r = &count_rows[_i];
	struct pandia_machine *m = machine_new();
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp;
	int layouts, t;

	ck_assert_msg(topology_load(m, r->topology, &err) == 0, "%s",
		      err.text);
	m->peak_rate = 1e10;
	sp = space_new(m, r->k, &mem, &err);
	ck_assert_msg(sp != NULL, "line %d: %s", r->line, err.text);
	for (layouts = 0; layouts <= 3; layouts++) {
		struct space_count c = space_count_layouts(sp, layouts);
		long n = 0;

		space_enumerate(sp, 0, layouts, count_one, &n);
		ck_assert_msg(!c.overflow && (long)c.n == n, "line %d, %d "
			      "layouts: counted %ld, walked %ld", r->line,
			      layouts, (long)c.n, n);
		for (t = 1; layouts <= 2 && t <= m->n_pus * r->k; t++) {
			double d = space_count_threads(sp, t, layouts);

			n = 0;
			space_enumerate(sp, t, layouts, count_one, &n);
			ck_assert_msg(d == (double)n, "line %d, %d layouts, "
				      "%d threads: counted %.0f, walked %ld",
				      r->line, layouts, t, d, n);
		}
	}
	space_free(sp);
	machine_free(m);
}
END_TEST

/* A 4,096-PU machine: the counts of every layout limit at once. */
START_TEST(test_counts_4096)
{
	struct pandia_machine *m = machine_new();
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp;
	struct space_count c;
	double d;

	ck_assert_int_eq(topology_load(m, "pack:4 core:512 pu:2", &err), 0);
	m->peak_rate = 1e10;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	/* one layout: 131,841 non-empty states x 4 socket counts */
	c = space_count_layouts(sp, 1);
	ck_assert(!c.overflow && c.n == 131840ULL * 4);
	d = space_count_threads(sp, 1000, 1);
	ck_assert_msg(d > 0 && d < 1e4, "%g", d);
	d = space_count_threads(sp, 1000, 2);
	ck_assert_msg(d > 5e6, "%g", d);
	space_free(sp);
	machine_free(m);
}
END_TEST

static Suite *enumerate_suite(void)
{
	Suite *s = suite_create("enumerate");
	TCase *tc = tcase_create("brute force");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_brute_force, 0, ARRAY_SIZE(small_rows));
	suite_add_tcase(s, tc);
	tc = tcase_create("closed form");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_big_counts, 0, ARRAY_SIZE(big_rows));
	tcase_add_test(tc, test_reduced_count);
	tcase_add_test(tc, test_offline_xml);
	tcase_add_loop_test(tc, test_counts_computed, 0,
			    ARRAY_SIZE(count_rows));
	tcase_add_test(tc, test_counts_4096);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { enumerate_suite, NULL };
