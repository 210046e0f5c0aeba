/*
 * check_quota.c - a CPU quota as a resource of the Pandia model
 * (docs/model.md, "A CPU quota"): n threads share Q PUs' time, which
 * for equal threads is Amdahl's law at Q threads; it binds only above
 * Q threads and below the PUs' own time sharing; it names itself as
 * the bottleneck; ranking puts the fewest threads that reach it first;
 * no quota changes nothing.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "common/machine.h"
#include "predictor/pandia/model.h"
#include "predictor/models.h"
#include "predictor/rank.h"
#include "predictor/space.h"
#include "tests/lib/testkit.h"

#define EIGHT "Package:1 [NUMANode(memory=1073741824)] Core:8 PU:1"
#define ASSUME "tests/data/assume-full.json"

/* 5 Gops/s of a 10 Gops/s core: compute alone */
static const struct model_params compute = {
	.t1 = 10, .p = 1, .l = 1, .d = { [WR_INSTRUCTIONS] = 5e9 },
};

static double amdahl(double p, double n)
{
	return 1 / ((1 - p) + p / n);
}

/* threads 0 .. n-1 on PUs 0 .. n-1 */
static double on_first(struct model *md, int n)
{
	int pus[8], i;

	for (i = 0; i < n; i++)
		pus[i] = i;
	return model_time_pus(md, pus, n);
}

/* Quotas of 1, 1.5, 2 and 5 PUs on 8 PUs, p from 0.5 to 1, one to
   eight threads: Amdahl at min(n, Q) threads, in the general form */
START_TEST(test_amdahl_at_quota)
{
	static const double quotas[] = { 1, 1.5, 2, 5 };
	struct pandia_machine *m = tk_machine(EIGHT, ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp;
	struct model md;
	double q = quotas[_i % 4], p = 0.5 + 0.5 * (_i / 4) / 3.0;
	int n;

	m->limits.cpu_quota = q;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	model_init(&md, sp, &compute);
	md.prm.p = p;
	for (n = 1; n <= 8; n++) {
		double want = amdahl(p, n < q ? n : q);

		on_first(&md, n);
		ck_assert_msg(fabs(md.speedup / want - 1) < 1e-9,
			      "Q %g, p %g, %d threads: speedup %.12g, not "
			      "%.12g", q, p, n, md.speedup, want);
		if (n > q)
			ck_assert_str_eq(model_bottleneck(&md), "cpu quota");
		else
			ck_assert_int_ne(model_bottleneck_code(&md), RK_QUOTA);
	}
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/* threads that time-share PUs already: the tighter of the two binds */
START_TEST(test_with_time_sharing)
{
	struct pandia_machine *m = tk_machine(EIGHT, ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp;
	struct model md;
	int four_on_two[] = { 0, 0, 1, 1 }, eight_on_four[] = {
		0, 0, 1, 1, 2, 2, 3, 3 };

	m->limits.cpu_quota = 3;
	sp = space_new(m, 2, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	model_init(&md, sp, &compute);
	md.prm.p = 0.9;
	/* 2 PUs below a quota of 3: the PUs' time */
	model_time_pus(&md, four_on_two, 4);
	ck_assert(fabs(md.speedup / amdahl(0.9, 2) - 1) < 1e-9);
	ck_assert_str_eq(model_bottleneck(&md), "PU time");
	/* 4 PUs above it: the quota */
	model_time_pus(&md, eight_on_four, 8);
	ck_assert(fabs(md.speedup / amdahl(0.9, 3) - 1) < 1e-9);
	ck_assert_str_eq(model_bottleneck(&md), "cpu quota");
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/*
 * Ranking (the group-structured form) agrees with the general form,
 * puts 2 threads first under a quota of 2 on 8 PUs with 8 threads'
 * bottleneck the quota, and without a quota puts 8 threads first.
 */
START_TEST(test_rank)
{
	struct pandia_machine *m = tk_machine(EIGHT, ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct rank_opts ro = { .max_placements = RANK_DEFAULT_MAX,
				.workers = 1, .size = NAN };
	struct model_params prm = compute;
	struct pandia_error err;
	struct ranking r;
	struct space *sp;
	size_t i, best;

	prm.p = 0.99;
	m->limits.cpu_quota = 2;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_ptr_nonnull(sp);
	ck_assert_msg(rank_all(sp, &prm, &ro, &r, &err) == 0, "%s", err.text);
	ck_assert_int_eq(r.n, 8);
	best = rank_best(&r);
	ck_assert_int_eq(r.e[best].threads, 2);
	for (i = 0; i < r.n; i++) {
		double want = amdahl(0.99, r.e[i].threads < 2 ?
				     r.e[i].threads : 2);

		ck_assert_msg(fabs(r.e[i].speedup / want - 1) < 1e-6,
			      "%d threads: %g, not %g", r.e[i].threads,
			      r.e[i].speedup, want);
		if (r.e[i].threads > 2)
			ck_assert_str_eq(bottleneck_name(r.e[i].bott),
					 "cpu quota");
	}
	rank_release(&r);
	space_free(sp);
	/* no quota: all eight */
	m->limits.cpu_quota = 0;
	sp = space_new(m, 1, &mem, &err);
	ck_assert_msg(rank_all(sp, &prm, &ro, &r, &err) == 0, "%s", err.text);
	ck_assert_int_eq(r.e[rank_best(&r)].threads, 8);
	rank_release(&r);
	space_free(sp);
	machine_free(m);
}
END_TEST

static Suite *quota_suite(void)
{
	Suite *s = suite_create("quota");
	TCase *tc = tcase_create("quota");

	tcase_add_loop_test(tc, test_amdahl_at_quota, 0, 16);
	tcase_add_test(tc, test_with_time_sharing);
	tcase_add_test(tc, test_rank);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { quota_suite, NULL };
