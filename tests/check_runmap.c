/*
 * check_runmap.c - where a run's threads ran (profiler/run/map.c,
 * 'pandia run --map'): samples of PU and CPU time in, each thread's
 * PUs, top share and migrations out, without running anything.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/run.h"
#include "tests/lib/testkit.h"

#define MAX_SAMPLES 8

/* one thread's samples (tid 100, pid 100) and what the map makes of them */
static const struct {
	int line;
	struct { int pu; double cpu; long mig; } s[MAX_SAMPLES];
	int n;
	int top_pu;
	double top_share;
	int n_pus;
	long migrations;
	bool kernel;
} rows[] = {
	/* pinned: all its time on one PU, the kernel's count */
	{ __LINE__, { { 3, 0.01, 1 }, { 3, 0.03, 1 }, { 3, 0.05, 1 } }, 3,
	  3, 1.0, 1, 1, true },
	/* the first sample's time (since the thread started) counts */
	{ __LINE__, { { 2, 0.40, 0 }, { 5, 0.50, 1 } }, 2,
	  2, 0.8, 2, 1, true },
	/* moved once: 0.2 s on PU 0, 0.3 s on PU 1; no kernel count,
	   so the one change seen */
	{ __LINE__, { { 0, 0.1, -1 }, { 0, 0.2, -1 }, { 1, 0.3, -1 },
		      { 1, 0.5, -1 } }, 4, 1, 0.6, 2, 1, false },
	/* back and forth: three changes seen, the kernel counted more
	   (moves between two samples are not seen) */
	{ __LINE__, { { 0, 0.1, 0 }, { 1, 0.2, 3 }, { 0, 0.35, 5 },
		      { 1, 0.4, 9 } }, 4, 0, 0.625, 2, 9, true },
	/* one sample without the kernel's count: the changes seen, for
	   the kernel's count would be of part of its life */
	{ __LINE__, { { 0, 0.1, 0 }, { 1, 0.2, -1 }, { 0, 0.4, 4 } }, 3,
	  0, 0.75, 2, 2, false },
	/* no CPU time at all: its PUs share alike */
	{ __LINE__, { { 1, 0, 0 }, { 1, 0, 0 } }, 2, 1, 1.0, 1, 0, true },
	/* the tid used again by a new thread: its CPU time starts over */
	{ __LINE__, { { 0, 0.5, 0 }, { 1, 0.1, 0 }, { 1, 0.3, 0 } }, 3,
	  0, 0.625, 2, 0, true },
	/* a sample with no PU or no time is left out */
	{ __LINE__, { { -1, 0.2, 0 }, { 4, NAN, 0 }, { 4, 0.2, 0 } }, 3,
	  4, 1.0, 1, 0, true },
};

START_TEST(test_rows)
{
	struct run_map *m = run_map_new(RUN_MAP_PERIOD);
	const struct run_map_thread *t;
	int i;

	for (i = 0; i < rows[_i].n; i++) {
		struct run_map_sample s = {
			.pid = 100, .tid = 100, .pu = rows[_i].s[i].pu,
			.cpu = rows[_i].s[i].cpu,
			.migrations = rows[_i].s[i].mig,
		};

		run_map_add(m, &s);
	}
	run_map_finish(m);
	ck_assert_msg(m->n_threads == 1, "line %d: %d threads",
		      rows[_i].line, m->n_threads);
	t = &m->threads[0];
	ck_assert_msg(t->n_pus == rows[_i].n_pus, "line %d: %d PUs",
		      rows[_i].line, t->n_pus);
	ck_assert_msg(t->pus[0].pu == rows[_i].top_pu, "line %d: top PU %d",
		      rows[_i].line, t->pus[0].pu);
	ck_assert_msg(fabs(t->pus[0].share - rows[_i].top_share) < 1e-9,
		      "line %d: share %g", rows[_i].line, t->pus[0].share);
	ck_assert_msg(t->migrations == rows[_i].migrations,
		      "line %d: %ld migrations", rows[_i].line,
		      t->migrations);
	ck_assert_msg(t->kernel == rows[_i].kernel, "line %d: source %s",
		      rows[_i].line, t->kernel ? "kernel" : "samples");
	ck_assert_str_eq(run_map_source(m), t->kernel ? "kernel" :
			 "samples");
	run_map_free(m);
}
END_TEST

static void add(struct run_map *m, int tid, int pu, double cpu, long mig)
{
	struct run_map_sample s = {
		.pid = 7, .tid = tid, .pu = pu, .cpu = cpu, .migrations = mig,
	};

	run_map_add(m, &s);
}

/* three threads, two PUs: the per-PU view, the order, the JSON */
START_TEST(test_pus_and_order)
{
	struct run_map *m = run_map_new(0.04);
	double *secs;
	int *pus, *idx, n, i;
	json_t *j, *th;

	add(m, 30, 1, 0.1, 0);		/* index 2: all on PU 1 */
	add(m, 10, 0, 0.2, 0);		/* index 0: 0.2 s on 0, 0.6 on 1 */
	add(m, 10, 1, 0.8, 1);
	add(m, 20, 0, 0.3, -1);		/* index unknown: 0.3 s on 0 */
	for (i = 0; i < m->n_threads; i++)
		m->threads[i].index = m->threads[i].tid == 30 ? 2 :
				      m->threads[i].tid == 10 ? 0 : -1;
	run_map_finish(m);
	/* creation order, the unknown index last */
	ck_assert_int_eq(m->threads[0].tid, 10);
	ck_assert_int_eq(m->threads[1].tid, 30);
	ck_assert_int_eq(m->threads[2].tid, 20);
	ck_assert_str_eq(run_map_source(m), "mixed");
	ck_assert_int_eq(m->threads[0].pus[0].pu, 1);
	ck_assert(fabs(m->threads[0].pus[0].share - 0.75) < 1e-9);

	n = run_map_pus(m, &pus);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(pus[0], 0);
	ck_assert_int_eq(pus[1], 1);
	free(pus);

	/* PU 0: tid 20 (0.3 s) before tid 10 (0.2 s) */
	n = run_map_on_pu(m, 0, &idx, &secs);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(m->threads[idx[0]].tid, 20);
	ck_assert_int_eq(m->threads[idx[1]].tid, 10);
	ck_assert(fabs(secs[0] - 0.3) < 1e-9 && fabs(secs[1] - 0.2) < 1e-9);
	free(idx);
	free(secs);
	n = run_map_on_pu(m, 5, &idx, NULL);
	ck_assert_int_eq(n, 0);
	free(idx);

	j = run_map_to_json(m);
	ck_assert(fabs(json_real_value(json_object_get(j, "period")) - 0.04)
		  < 1e-12);
	ck_assert_str_eq(json_string_value(json_object_get(j,
			 "migrations_source")), "mixed");
	th = json_array_get(json_object_get(j, "threads"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(th, "tid")), 10);
	ck_assert_str_eq(json_string_value(json_object_get(th, "role")),
			 "helper");
	ck_assert_int_eq(json_integer_value(json_object_get(th,
			 "migrations")), 1);
	ck_assert_int_eq(json_array_size(json_object_get(th, "pus")), 2);
	th = json_array_get(json_object_get(j, "threads"), 2);
	ck_assert(json_is_null(json_object_get(th, "index")));
	ck_assert_str_eq(json_string_value(json_object_get(th,
			 "migrations_source")), "samples");
	ck_assert_int_eq(json_array_size(json_object_get(j, "pus")), 2);
	ck_assert_int_eq(json_array_size(json_object_get(json_array_get(
			 json_object_get(j, "pus"), 1), "threads")), 2);
	json_decref(j);
	run_map_free(m);
	run_map_free(NULL);
}
END_TEST

static Suite *runmap_suite(void)
{
	Suite *s = suite_create("runmap");
	TCase *tc = tcase_create("runmap");

	tcase_add_loop_test(tc, test_rows, 0, (int)ARRAY_SIZE(rows));
	tcase_add_test(tc, test_pus_and_order);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { runmap_suite, NULL };
