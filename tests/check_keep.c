/*
 * check_keep.c - working sets kept from run to run (stress/keep.c):
 * the arenas a plan wants, each thread's slice in them, the memory cap,
 * and two jobs on this host sharing one node's arena, touched once.
 */
#include <check.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "stress/measure_internal.h"
#include "tests/lib/testkit.h"

static size_t pages(size_t ws)
{
	size_t p = (size_t)sysconf(_SC_PAGESIZE);

	return ((ws ? ws : p) + p - 1) / p * p;
}

static int thread_node(const struct job *j, int k)
{
	return j->nodes ? j->nodes[k] : j->node;
}

/* Every memory job kept (or, unless MUST_KEEP, not at all), each slice
 * inside its arena, on its node, apart from its job's other slices; a
 * local arena one thread's alone.  Returns the bytes of all arenas. */
static unsigned long long check_slices(const struct plan *p, bool must_keep)
{
	unsigned long long all = 0;
	int i, k, q, *users = xcalloc(p->n_arenas, sizeof(int));

	for (i = 0; i < p->n_jobs; i++) {
		const struct job *j = &p->jobs[i];

		if (stress_kind_is_core(j->kind)) {
			ck_assert_ptr_null(j->kept);
			continue;
		}
		if (!j->kept && !must_keep)
			continue;
		ck_assert_msg(j->kept != NULL, "%s not kept", j->what);
		for (k = 0; k < j->n; k++) {
			const struct slice *s = &j->kept[k];
			size_t end = s->off + pages(j->ws);

			ck_assert(s->a >= p->arenas &&
				  s->a < p->arenas + p->n_arenas);
			ck_assert_msg(end <= s->a->bytes, "%s thread %d: "
				      "%zu past its arena's %zu", j->what, k,
				      end, s->a->bytes);
			ck_assert_int_eq(s->a->node, thread_node(j, k));
			if (s->a->node < 0)
				users[s->a - p->arenas]++;
			for (q = 0; q < k; q++) {
				const struct slice *o = &j->kept[q];

				ck_assert_msg(o->a != s->a ||
					      o->off + pages(j->ws) <= s->off ||
					      end <= o->off, "%s: threads %d "
					      "and %d overlap", j->what, q, k);
			}
		}
	}
	for (i = 0; i < p->n_arenas; i++) {
		all += p->arenas[i].bytes;
		/* a local arena is one thread's alone */
		if (p->arenas[i].node < 0)
			ck_assert_int_eq(users[i], 1);
	}
	free(users);
	return all;
}

/*
 * Four sockets of four cores, 16 MiB of L3 each: in quick mode every
 * DRAM and inter-socket job puts 64 MiB on one node, so each node's
 * arena is 64 MiB where the jobs' working sets add up to far more.
 */
START_TEST(test_keep_plan)
{
	struct stress_opts o = { .quick = true };
	struct pandia_machine *m = machine_new();
	struct pandia_error err;
	unsigned long long sum = 0;
	struct plan p;
	int i, shared = 0;

	ck_assert_msg(topology_load(m, "tests/data/topologies/"
				    "4socket-smt.xml", &err) == 0, "%s",
		      err.text);
	ck_assert_int_eq(stress_plan_make(&p, m, &o, &err), 0);
	ck_assert_int_gt(p.n_arenas, 0);
	for (i = 0; i < p.n_jobs; i++)
		if (!stress_kind_is_core(p.jobs[i].kind))
			sum += (unsigned long long)pages(p.jobs[i].ws) *
				p.jobs[i].n;
	ck_assert_uint_lt(check_slices(&p, true), sum / 3);
	for (i = 0; i < p.n_arenas; i++) {
		if (p.arenas[i].node < 0)
			continue;
		shared++;
		ck_assert_uint_eq(p.arenas[i].bytes, 64 << 20);
	}
	ck_assert_int_eq(shared, 4);

	/* past the cap with the caches' arenas, within it without: the
	   nodes' alone, the jobs of local working sets allocating each
	   run */
	stress_keep_release(&p);
	stress_plan_keep(&p, 4 * (64 << 20));
	ck_assert_int_eq(p.n_arenas, 4);
	for (i = 0; i < p.n_jobs; i++) {
		const struct job *j = &p.jobs[i];

		if (stress_kind_is_core(j->kind))
			continue;
		ck_assert_msg((j->kept != NULL) == (j->node >= 0 || j->nodes),
			      "%s: kept %d", j->what, j->kept != NULL);
	}
	check_slices(&p, false);

	/* past the cap nothing is kept: each run its own */
	stress_keep_release(&p);
	stress_plan_keep(&p, sum / 8);
	ck_assert_int_eq(p.n_arenas, 0);
	for (i = 0; i < p.n_jobs; i++)
		ck_assert_ptr_null(p.jobs[i].kept);
	stress_plan_release(&p);
	machine_free(m);
}
END_TEST

/* This host's own plan holds together too. */
START_TEST(test_keep_host_plan)
{
	struct stress_opts o = { .quick = true };
	struct pandia_machine *m = machine_new();
	struct pandia_error err;
	struct plan p;

	ck_assert_msg(topology_load(m, NULL, &err) == 0, "%s", err.text);
	ck_assert_int_eq(stress_plan_make(&p, m, &o, &err), 0);
	if (p.n_arenas)
		check_slices(&p, true);
	stress_plan_release(&p);
	machine_free(m);
}
END_TEST

static void add_load_job(struct plan *p, int n, size_t ws, int node)
{
	struct job *j = &p->jobs[p->n_jobs++];
	int k;

	memset(j, 0, sizeof(*j));
	j->kind = STRESS_LOAD;
	j->n = n;
	j->pus = xcalloc(n, sizeof(int));
	for (k = 0; k < n; k++)
		j->pus[k] = k % 2 && sysconf(_SC_NPROCESSORS_ONLN) > 1;
	j->ws = ws;
	j->node = node;
	j->what = xstrdup("load");
}

/* How many of A's chunks were touched. */
static size_t touched(const struct stress_arena *a)
{
	size_t c, n = 0;

	for (c = 0; c < a->n_chunks; c++)
		n += a->touched[c];
	return n;
}

/*
 * One thread's 4 MiB, then two threads' 4 MiB each, on the node of PU
 * 0: one arena of 8 MiB, the first half touched by the first job, the
 * rest by the second, the first half kept for it.
 */
START_TEST(test_keep_runs)
{
	const struct timing t = { 1, 2, 0.01, 0.05, 4 };
	int node = numa_available() >= 0 ? numa_node_of_cpu(0) : 0;
	struct pandia_error err;
	struct reps r;
	struct plan p;
	unsigned char *mem;

	memset(&p, 0, sizeof(p));
	p.jobs = xcalloc(2, sizeof(*p.jobs));
	add_load_job(&p, 1, 4 << 20, node < 0 ? 0 : node);
	add_load_job(&p, 2, 4 << 20, node < 0 ? 0 : node);
	stress_plan_keep(&p, 1ULL << 40);
	ck_assert_int_eq(p.n_arenas, 1);
	ck_assert_uint_eq(p.arenas[0].bytes, 8 << 20);
	ck_assert_uint_eq(p.jobs[1].kept[1].off, 4 << 20);

	stress_reps_init(&r, t.reps);
	ck_assert_msg(stress_run_job(&p.jobs[0], &t, &r, 0, &err) == 0, "%s",
		      err.text);
	ck_assert(r.cpu[0] > 0 && r.cpu[1] > 0);
	mem = p.arenas[0].buf.mem;
	ck_assert_ptr_nonnull(mem);
	ck_assert_uint_eq(touched(&p.arenas[0]), p.arenas[0].n_chunks / 2);
	ck_assert_int_eq(mem[(4 << 20) - 1], 0x5a);
	ck_assert_msg(stress_run_job(&p.jobs[1], &t, &r, 0, &err) == 0, "%s",
		      err.text);
	ck_assert(r.cpu[0] > 0);
	ck_assert_ptr_eq(p.arenas[0].buf.mem, mem);
	ck_assert_uint_eq(touched(&p.arenas[0]), p.arenas[0].n_chunks);
	ck_assert_int_eq(mem[(8 << 20) - 1], 0x5a);
	stress_reps_release(&r);
	stress_plan_release(&p);
}
END_TEST

static Suite *keep_suite(void)
{
	Suite *s = suite_create("keep");
	TCase *tc = tcase_create("keep");

	tcase_add_test(tc, test_keep_plan);
	tcase_add_test(tc, test_keep_host_plan);
	tcase_add_test(tc, test_keep_runs);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { keep_suite, NULL };
