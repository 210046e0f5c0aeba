/*
 * check_even.c - the memory policy "even": first-touched pages evenly
 * over the nodes of the sockets in use (docs/model.md).
 *
 *   - one thread predicts t1, as under every policy;
 *   - as many threads on each socket: the same time as "spread";
 *   - nine threads on one socket and one on another, DRAM-bound, with a
 *     link too wide to matter: the loaded node holds half the pages,
 *     not nine tenths, so "even" is faster than "spread", and no
 *     faster than both nodes full.
 */
#include <check.h>
#include <math.h>

#include "common/machine.h"
#include "common/workload.h"
#include "predictor/pandia/model.h"
#include "predictor/space.h"
#include "tests/lib/testkit.h"

#define TOPO "Package:2 [NUMANode(memory=1073741824)] Core:10 PU:1"
#define ASSUME "tests/data/assume-full.json"

static double time_of(const struct pandia_machine *m, enum mem_kind kind,
		      const struct model_params *prm, const int *pus, int n)
{
	return tk_model_time(m, kind, prm, pus, n, NULL, 0);
}

/* PUs: the first A cores of socket 0 and B of socket 1. */
static int split(int *pus, int a, int b)
{
	int i, n = 0;

	for (i = 0; i < a; i++)
		pus[n++] = i;
	for (i = 0; i < b; i++)
		pus[n++] = 10 + i;
	return n;
}

START_TEST(test_even)
{
	struct pandia_machine *m = tk_machine(TOPO, ASSUME);
	struct model_params prm = { .t1 = 10, .p = 1 };
	double dram = m->links[LVL_DRAM].aggregate_bw, te, ts;
	int pus[20], n, i;

	/* each thread a fifth of a node: ten on one node saturate it;
	   a link wide enough that only the nodes matter */
	prm.d[WR_DRAM] = dram / 5;
	m->links[LVL_INTERCONNECT].per_core_bw = 1e13;
	m->links[LVL_INTERCONNECT].aggregate_bw = 1e13;
	for (i = 0; i < m->n_xlinks; i++)
		m->xlinks[i].bw = 1e13;
	for (i = 0; i < m->n_pus; i++)
		ck_assert_double_eq_tol(time_of(m, MEM_EVEN, &prm, &i, 1), 10,
					1e-12);
	n = split(pus, 5, 5);
	te = time_of(m, MEM_EVEN, &prm, pus, n);
	ts = time_of(m, MEM_SPREAD, &prm, pus, n);
	ck_assert_msg(fabs(te / ts - 1) < 1e-9, "5+5: even %.15g, spread "
		      "%.15g", te, ts);
	n = split(pus, 9, 1);
	te = time_of(m, MEM_EVEN, &prm, pus, n);
	ts = time_of(m, MEM_SPREAD, &prm, pus, n);
	/* spread: node 0 takes 9/10 of 10 x dram/5 = 1.8 of its capacity;
	   even: half, 1.0: not beyond it */
	ck_assert_msg(te < ts / 1.5, "9+1: even %.15g, spread %.15g", te,
		      ts);
	ck_assert_msg(te >= 1.0 - 1e-9, "9+1: even %.15g, below 10 s / 10",
		      te);
	machine_free(m);
}
END_TEST

START_TEST(test_name)
{
	struct pandia_mempolicy mp;
	struct pandia_error err;
	char buf[32];

	ck_assert_int_eq(mempolicy_parse("even", &mp, &err), 0);
	ck_assert_int_eq(mp.kind, MEM_EVEN);
	ck_assert_str_eq(mempolicy_format(&mp, buf, sizeof(buf)), "even");
	ck_assert(mem_first_touch(MEM_EVEN) && mem_first_touch(MEM_SPREAD));
	ck_assert(!mem_first_touch(MEM_LOCAL));
}
END_TEST

static Suite *even_suite(void)
{
	Suite *s = suite_create("even");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_even);
	tcase_add_test(tc, test_name);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { even_suite, NULL };
