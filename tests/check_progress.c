/*
 * check_progress.c - the time a profile says is left
 * (profiler/profile_progress.c): the calls every run is sure to get,
 * and of those the budget may allow (the second repetition of runs 4
 * on), only what the budget leaves room for; a probe run's first touch
 * of its buffers.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "common/machine.h"
#include "common/util.h"
#include "profiler/profile.h"
#include "profiler/profile_internal.h"
#include "profiler/run.h"
#include "stress/kernels.h"
#include "tests/lib/testkit.h"

static double said;

static void record(const struct profile_progress *pp, void *arg)
{
	(void)arg;
	said = pp->left;
}

/*
 * Run 1 made twice (1 s a call), run 2 and run 4 not yet, RUNS planned
 * in all, BUDGET seconds of which 2 are spent, RESERVE of it held back
 * for the drift run: what progress says is left.
 */
static double left_with(double budget, int runs, bool fixed, double reserve)
{
	struct profile_opts o;
	struct prun r[3];
	struct prof P;

	memset(&o, 0, sizeof(o));
	o.repetitions = 3;
	o.fixed_reps = fixed;
	o.progress = record;
	memset(r, 0, sizeof(r));
	r[0].run = 1;
	r[0].n_times = 2;
	r[0].calls = 2;
	r[0].wall = 2;
	r[1].run = 2;
	r[2].run = 4;
	memset(&P, 0, sizeof(P));
	P.o = &o;
	P.runs = r;
	P.n_runs = 3;
	P.total = runs;
	P.min_reps = fixed ? 3 : 2;
	P.budget = budget;
	P.reserve = reserve;
	P.start = now_seconds() - 2;
	said = NAN;
	prof_progress(&P, &r[1], 1);
	return said;
}

/* What left_with() should say, and why. */
static const struct {
	const char *what;
	double budget;
	int runs;
	bool fixed;
	double want, reserve;
} left_rows[] = {
	/* room in the budget: run 2 twice, run 4 once and once more */
	{ "room", 12, 3, false, 4, 0 },
	/* no budget: the same */
	{ "no budget", 0, 3, false, 4, 0 },
	/* 5 s, 2 spent, 3 sure: run 4's second is not made */
	{ "budget spent", 5, 3, false, 3, 0 },
	/* 5.5 s: half of it */
	{ "half a call", 5.5, 3, false, 3.5, 0 },
	/* a run not yet planned: one call sure, one if the budget allows */
	{ "unplanned", 12, 4, false, 6, 0 },
	{ "unplanned, spent", 5, 4, false, 4, 0 },
	/* -r fixed: every run its three (run 1 one more), whatever the
	   budget */
	{ "fixed", 5, 3, true, 7, 0 },
	{ "fixed, unplanned", 5, 4, true, 10, 0 },
	/* 1 s held back for the drift run (run 1 again, last): counted
	   where the budget keeps room for it after what it allows */
	{ "drift", 12, 3, false, 5, 1 },
	{ "drift, spent", 5, 3, false, 3, 1 },
	{ "drift, half a call", 6.5, 3, false, 4.5, 1 },
	{ "drift, just room", 8, 3, false, 5, 1 },
};

START_TEST(test_left)
{
	double v = left_with(left_rows[_i].budget, left_rows[_i].runs,
			     left_rows[_i].fixed, left_rows[_i].reserve);

	ck_assert_msg(fabs(v - left_rows[_i].want) < 0.01, "%s: %g",
		      left_rows[_i].what, v);
}
END_TEST

/*
 * A probe run not yet made: run 1's call (1 s), the probes alone
 * before and after (0.4 s each) and the first touch of each probe's
 * buffer: 4 x the 32 MiB LLC for DRAM; 4 x a hypervisor's 508 MiB L3
 * a vCPU, or 4 x its 127 MiB array where the machine read that at
 * DRAM's rate (READ); none for a CPU probe.
 */
static const struct {
	const char *topology, *probe;
	bool read;
	unsigned long long bytes;
} probe_rows[] = {
	{ "Package:1 L3Cache:1(size=33554432) Core:2 PU:1", "bw:dram@1",
	  false, 128ULL << 20 },
	{ "Package:1 L3Cache:2(size=532676608) Core:1 PU:1", "bw:dram@1",
	  false, 4ULL * 532676608 },
	{ "Package:1 L3Cache:2(size=532676608) Core:1 PU:1", "bw:dram@1",
	  true, 4ULL * 133169152 },
	{ "Package:1 L3Cache:1(size=33554432) Core:2 PU:1", "cpu@1", false,
	  0 },
};

START_TEST(test_left_probe)
{
	struct pandia_machine *m = tk_machine(probe_rows[_i].topology, NULL);
	struct profile_opts o;
	struct pandia_error err;
	struct prun r[2];
	struct prof P;
	double want;

	if (probe_rows[_i].read)
		tk_pvm_figures(m);
	memset(&o, 0, sizeof(o));
	o.repetitions = 3;
	o.progress = record;
	memset(r, 0, sizeof(r));
	r[0].run = 1;
	r[0].n_times = r[0].calls = 2;
	r[0].wall = 2;
	r[1].probe = true;
	ck_assert_int_eq(run_stressor_parse(probe_rows[_i].probe,
					    &r[1].stress[0], &err), 0);
	r[1].n_stress = 1;
	memset(&P, 0, sizeof(P));
	P.o = &o;
	P.m = m;
	P.runs = r;
	P.n_runs = P.total = 2;
	P.min_reps = 2;
	P.alone_secs = 0.4;
	P.start = now_seconds() - 2;
	said = NAN;
	prof_progress(&P, &r[1], 1);
	want = 1.8 + stress_touch_seconds(probe_rows[_i].bytes);
	ck_assert_msg(fabs(said - want) < 0.01, "%s %s%s: %g s left, not %g",
		      probe_rows[_i].topology, probe_rows[_i].probe,
		      probe_rows[_i].read ? " (L3 read at DRAM's rate)" : "",
		      said, want);
	run_stressor_release(&r[1].stress[0]);
	machine_free(m);
}
END_TEST

static Suite *progress_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("progress");

	tcase_add_loop_test(tc, test_left, 0, (int)ARRAY_SIZE(left_rows));
	tcase_add_loop_test(tc, test_left_probe, 0,
			    (int)ARRAY_SIZE(probe_rows));
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { progress_suite, NULL };
