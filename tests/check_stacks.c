/*
 * check_stacks.c - speedup stacks, measured and predicted
 * (shared/seeds/002_*.txt, digest seed-speedup-stacks.md;
 * docs/stacks.md).
 *
 *   - measured: the digest's faithfulness tests on accounting
 *     recorded from a simulated 16-thread run (below): embarrassingly
 *     parallel (base within 3% of N), skewed work with a blocking
 *     barrier (barrier waits + imbalance = (N-1)/2), the same without
 *     a barrier (imbalance (N-1)/2), redundant work (the estimate's
 *     error k/(1+k)), and serial parts, locks, time sharing, counted
 *     stalls; every stack adds up to N;
 *   - bad accounting refused with a message;
 *   - predicted: hand-computed stacks on small machines (compute-bound
 *     on SMT cores, DRAM-bound, the paper's worked example), and the
 *     sum invariant on random placements and parameters;
 *   - the JSON and the gnuplot script.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/pandia/model.h"
#include "predictor/space.h"
#include "predictor/stacks.h"
#include "stress/assume.h"
#include "tests/lib/testkit.h"

#define ASSUME "tests/data/assume-full.json"
#define FIG3_TOPOLOGY "Package:2 [NUMANode(memory=1073741824)] Core:2 PU:2"
#define FIG3_ASSUME "machines/paper-figure3.assume.json"
#define PAPER_WORKLOAD "tests/data/paper-section4-workload.json"

/* ---- a simulated run, recorded as the runner would -------------- */

#define MAXT 40

/*
 * N workers.  The main thread runs PRE seconds alone, then creates
 * the workers LAG apart (when MAIN_WORKER, it is worker 0 itself),
 * joins them and runs POST seconds alone.  Per phase worker i needs
 * W (x (i+1) when SKEW) seconds of a single thread's time; it spends
 * (1 + OVH) times that on a CPU, SHARE times longer on the clock (the
 * rest waiting in the run queue: threads time-sharing CPUs), and LOCK
 * seconds blocked on a mutex.  With BARRIER every phase but the last
 * ends in a blocking barrier; without, a worker runs its phases back
 * to back.  The records carry a jitter of up to 60 us on each CPU
 * time (different clocks), and the main thread as a helper blocks in
 * join.
 */
struct sim {
	int n;
	bool main_worker, barrier, skew;
	int phases;
	double w, pre, post, lag, ovh, share, lock;
};

struct recorded {
	struct stack_thread thr[MAXT + 1];
	int n_thr;
	double t1, tn;
};

static void simulate(const struct sim *s, struct recorded *r)
{
	double start[MAXT], clock[MAXT], u[MAXT], stop = 0, J = 0;
	int i, k, h = s->main_worker ? 0 : 1;

	memset(r, 0, sizeof(*r));
	r->n_thr = s->n + h;
	r->t1 = s->pre + s->post;
	for (i = 0; i < s->n; i++) {
		u[i] = s->w * (s->skew ? i + 1 : 1);
		r->t1 += s->phases * u[i];
		start[i] = s->main_worker && i == 0 ? 0 : s->pre + i * s->lag;
		/* worker 0 as the main thread starts its share after PRE */
		clock[i] = s->main_worker && i == 0 ? s->pre : start[i];
	}
	for (k = 0; k < s->phases; k++) {
		double release = 0;

		for (i = 0; i < s->n; i++) {
			struct stack_thread *t = &r->thr[h + i];
			double cpu = u[i] * (1 + s->ovh);

			t->cpu_time += cpu;
			t->runqueue_wait += cpu * (s->share - 1);
			t->blocked[SB_MUTEX] += s->lock;
			clock[i] += cpu * s->share + s->lock;
			if (clock[i] > release)
				release = clock[i];
		}
		if (!s->barrier || k == s->phases - 1)
			continue;
		for (i = 0; i < s->n; i++) {
			r->thr[h + i].blocked[SB_BARRIER] += release - clock[i];
			clock[i] = release;
		}
	}
	for (i = 0; i < s->n; i++)
		if (clock[i] > J)
			J = clock[i];
	r->tn = J + s->post;
	for (i = 0; i < s->n; i++) {
		struct stack_thread *t = &r->thr[h + i];

		t->worker = true;
		t->start = start[i];
		t->end = clock[i];
		/* a clock of another grain */
		t->cpu_time += 1e-5 * ((i * 7919) % 13 - 6);
		if (t->cpu_time < 0)
			t->cpu_time = 0;
	}
	/* the main thread: PRE, creating, joining, POST */
	stop = s->main_worker ? clock[0] : s->pre;
	r->thr[0].start = 0;
	r->thr[0].end = r->tn;
	r->thr[0].cpu_time += s->pre + s->post;
	r->thr[0].blocked[SB_JOIN] += J - stop;
}

static const struct {
	int line;
	struct sim sim;
	/* expected, units of speedup (NAN: not checked), and tolerance */
	double base, serial, lock, sync, imbalance, time_sharing, rest;
	double error;		/* (S^ - S) / N */
	double tol;
} measured_rows[] = {
	/*
	 * Embarrassingly parallel: 16 x 1 s, 2 ms serial before and
	 * 1 ms after, 50 us between creations, 0.2% overhead.  tn =
	 * 0.002 + 15 x 50e-6 + 1.002 + 0.001 = 1.00575, t1 = 16.003:
	 * S = 15.91, within 3% of 16; every loss below 0.1.
	 */
	{ __LINE__, { 16, false, false, false, 1, 1.0, 0.002, 0.001,
		      50e-6, 0.002, 1, 0 },
	  15.91, 0.05, 0, 0, 0.05, 0, 0.03, 0.002, 0.1 },
	/* The same with the main thread as worker 0. */
	{ __LINE__, { 16, true, false, false, 1, 1.0, 0.002, 0.001,
		      50e-6, 0.002, 1, 0 },
	  15.91, 0.05, 0, 0, 0.05, 0, 0.03, 0.002, 0.1 },
	/*
	 * Skewed work, blocking barrier: worker i does (i+1) w per
	 * phase, 20 phases.  Each phase takes 16 w; worker i waits
	 * (15 - i) w, 120 w in all: barrier waits + imbalance =
	 * 120 / 16 = (N-1)/2 = 7.5 (the last phase's wait is
	 * imbalance: 7.5 / 20 = 0.375); S = 136 / 16 = (N+1)/2.
	 */
	{ __LINE__, { 16, false, true, true, 20, 0.01, 0, 0, 0, 0, 1, 0 },
	  8.5, 0, 0, 7.5, 0.375, 0, 0, 0, 0.1 },
	{ __LINE__, { 16, true, true, true, 20, 0.01, 0, 0, 0, 0, 1, 0 },
	  8.5, 0, 0, 7.5, 0.375, 0, 0, 0, 0.1 },
	/* Without a barrier (join only): imbalance (N-1)/2. */
	{ __LINE__, { 16, false, false, true, 20, 0.01, 0, 0, 0, 0, 1, 0 },
	  8.5, 0, 0, 7.5, 7.5, 0, 0, 0, 0.1 },
	{ __LINE__, { 16, true, false, true, 20, 0.01, 0, 0, 0, 0, 1, 0 },
	  8.5, 0, 0, 7.5, 7.5, 0, 0, 0, 0.1 },
	/*
	 * A serial part: 1 s alone, then 16 x 1 s.  t1 = 17, tn = 2:
	 * S = 8.5 and serial (N-1) x 1 / 2 = 7.5, the main thread a
	 * worker or not.
	 */
	{ __LINE__, { 16, true, false, false, 1, 1.0, 1.0, 0, 0, 0, 1, 0 },
	  8.5, 7.5, 0, 0, 0, 0, 0, 0, 0.01 },
	{ __LINE__, { 16, false, false, false, 1, 1.0, 1.0, 0, 0, 0, 1, 0 },
	  8.5, 7.5, 0, 0, 0, 0, 0, 0, 0.01 },
	/*
	 * Redundant work (the digest): k = 0.25 more CPU per thread.
	 * S = N / (1 + k) = 12.8, the rest N k / (1 + k) = 3.2, and
	 * the paper's estimate is off by k / (1 + k) = 0.2 of N.
	 */
	{ __LINE__, { 16, false, false, false, 1, 1.0, 0, 0, 0, 0.25, 1, 0 },
	  12.8, 0, 0, 0, 0, 0, 3.2, 0.2, 0.01 },
	/*
	 * Two threads per CPU: 1 s of work takes 2 s on the clock, half
	 * in the run queue: S = 8, time sharing 16 x 1 / 2 = 8.
	 */
	{ __LINE__, { 16, false, false, false, 1, 1.0, 0, 0, 0, 0, 2, 0 },
	  8, 0, 0, 0, 0, 8, 0, 0, 0.01 },
	/*
	 * Locks: 1 s of work and 0.5 s on a mutex per thread: tn = 1.5,
	 * S = 16 / 1.5 = 10.667, lock waits 16 x 0.5 / 1.5 = 5.333.
	 */
	{ __LINE__, { 16, true, false, false, 1, 1.0, 0, 0, 0, 0, 1, 0.5 },
	  10.667, 0, 5.333, 0, 0, 0, 0, 0, 0.01 },
	/*
	 * Four threads, skewed, barrier: S = 10 / 4 = 2.5, barrier +
	 * imbalance (4-1)/2 = 1.5.
	 */
	{ __LINE__, { 4, false, true, true, 50, 0.01, 0, 0, 0, 0, 1, 0 },
	  2.5, 0, 0, 1.5, 0.03, 0, 0, 0, 0.01 },
	/* One thread: S = 1, nothing lost. */
	{ __LINE__, { 1, true, false, false, 1, 1.0, 0.1, 0.1, 0, 0, 1, 0 },
	  1, 0, 0, 0, 0, 0, 0, 0, 1e-3 },
};

static void near(double got, double want, double tol, const char *what,
		 int line)
{
	if (isnan(want))
		return;
	ck_assert_msg(fabs(got - want) <= tol, "line %d: %s = %.6g, want "
		      "%.6g +- %g", line, what, got, want, tol);
}

START_TEST(test_measured)
{
	const struct sim *s = &measured_rows[_i].sim;
	int line = measured_rows[_i].line, i;
	double tol = measured_rows[_i].tol, N = s->n;
	struct pandia_error err;
	struct recorded r;
	struct stack_run run;
	struct stack *st;

	simulate(s, &r);
	run = (struct stack_run){ r.t1, r.tn, s->n, r.thr, r.n_thr,
				  NULL, 0, "0-15" };
	st = stack_measured(&run, &err);
	ck_assert_msg(st != NULL, "line %d: %s", line, err.text);
	ck_assert_int_eq(st->threads, s->n);
	ck_assert_int_eq(st->kind, STACK_MEASURED);
	ck_assert(!st->split);
	/* the sum invariant: N (exactly, by construction; within 3%) */
	ck_assert_msg(fabs(stack_total(st) - N) < 1e-9 * N, "line %d: total "
		      "%.12g", line, stack_total(st));
	ck_assert_msg(fabs(st->speedup - r.t1 / r.tn) < 1e-12, "line %d",
		      line);
	near(stack_value(st, "base"), measured_rows[_i].base, tol, "base",
	     line);
	near(stack_value(st, "serial"), measured_rows[_i].serial, tol,
	     "serial", line);
	near(stack_value(st, "lock"), measured_rows[_i].lock, tol, "lock",
	     line);
	near(stack_value(st, "barrier") + stack_value(st, "imbalance"),
	     measured_rows[_i].sync, tol, "barrier + imbalance", line);
	near(stack_value(st, "imbalance"), measured_rows[_i].imbalance, tol,
	     "imbalance", line);
	near(stack_value(st, "time_sharing"), measured_rows[_i].time_sharing,
	     tol, "time sharing", line);
	near(stack_value(st, "contention"), measured_rows[_i].rest, tol,
	     "contention", line);
	near((st->estimate - st->speedup) / N, measured_rows[_i].error,
	     tol / N, "estimate error", line);
	/* the embarrassingly parallel rows: base within 3% of N */
	if (measured_rows[_i].base > 0.97 * N)
		ck_assert_msg(st->speedup >= 0.97 * N, "line %d: base %.4g",
			      line, st->speedup);
	for (i = 0; i < st->n_comps; i++)
		ck_assert_msg(st->comps[i].value > -0.01, "line %d: %s = %g",
			      line, st->comps[i].key, st->comps[i].value);
	near(stack_value(st, "other"), 0, 0.01, "other", line);
	stack_free(st);
}
END_TEST

/*
 * Counted stalls split the rest: the redundant-work run (rest 3.2)
 * with 2 s of memory stalls (0.5 s in the single-thread run) over
 * tn = 1.25 s: memory 1.5 / 1.25 = 1.2, the overhead 3.2 - 1.2 = 2.
 */
/*
 * One thread, timed 7% faster than t1 and on a CPU all the time: the
 * contention part comes out at (0.935 - 1) / 0.935 = -0.070.  No part
 * is below zero and the stack is 1 high: the -0.070 is noise, set to 0
 * and taken off the base (the measured speedup stays 1.07).
 */
START_TEST(test_measured_noise)
{
	struct stack_thread th = { 0, 0.935, 0.935, 0, { 0 }, true };
	struct stack_run run = { 1.0, 0.935, 1, &th, 1, NULL, 0, "0" };
	struct pandia_error err;
	struct stack *st;
	json_t *j;
	char *text;
	int i;

	st = stack_measured(&run, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	for (i = 0; i < st->n_comps; i++)
		ck_assert_msg(st->comps[i].value >= 0, "%s is %g",
			      st->comps[i].key, st->comps[i].value);
	ck_assert(fabs(stack_total(st) - 1) < 1e-12);
	ck_assert(fabs(st->speedup - 1 / 0.935) < 1e-12);
	ck_assert(fabs(stack_value(st, "base") - 1) < 1e-12);
	ck_assert(fabs(st->noise - (1 - 0.935) / 0.935) < 1e-12);
	ck_assert_str_eq(st->noise_parts, "contention -0.070");
	text = stack_text(st, 0);
	ck_assert_msg(strstr(text, "noise          below zero: contention "
			     "-0.070; set to 0, and 0.070 taken off the "
			     "base"), "%s", text);
	free(text);
	j = stack_to_json(st);
	ck_assert(fabs(json_real_value(json_object_get(j, "noise")) -
		       st->noise) < 1e-12);
	json_decref(j);
	stack_free(st);
}
END_TEST

START_TEST(test_measured_split)
{
	struct sim s = { 16, false, false, false, 1, 1.0, 0, 0, 0, 0.25, 1,
			 0 };
	struct stack_stall stall[] = {
		{ "memory_stalls", "memory stalls", 2.0, 0.5 },
	};
	struct pandia_error err;
	struct recorded r;
	struct stack_run run;
	struct stack *st;
	json_t *j;

	simulate(&s, &r);
	run = (struct stack_run){ r.t1, r.tn, 16, r.thr, r.n_thr, stall, 1,
				  NULL };
	st = stack_measured(&run, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	ck_assert(st->split);
	ck_assert_ptr_null(stack_comp(st, "contention"));
	ck_assert_double_eq_tol(stack_value(st, "memory_stalls"), 1.2, 1e-9);
	ck_assert_double_eq_tol(stack_value(st, "overhead"), 2.0, 0.01);
	ck_assert_double_eq_tol(stack_total(st), 16, 1e-9);
	ck_assert_double_eq_tol((st->estimate - st->speedup) / 16,
				2.0 / 16, 0.001);
	j = stack_to_json(st);
	ck_assert_str_eq(json_string_value(json_object_get(j, "remainder")),
			 "split by counted stalls");
	ck_assert_str_eq(json_string_value(json_object_get(j, "cpus_text")),
			 "");
	ck_assert_int_eq(json_array_size(json_object_get(j, "cpus")), 0);
	json_decref(j);
	stack_free(st);
}
END_TEST

/*
 * Records that do not fit their threads' lives: CPU time and waits
 * beyond the life give way (overcount), time in a life that no kind
 * holds goes to "other" (unaccounted); the stack still adds up to N.
 * A life of length 0 fills no slot.
 */
START_TEST(test_measured_misfit)
{
	struct stack_thread t[4];
	struct stack_run run = { 3.0, 1.0, 4, t, 4, NULL, 0, "0-3" };
	struct pandia_error err;
	struct stack *st;
	int i;

	memset(t, 0, sizeof(t));
	for (i = 0; i < 4; i++) {
		t[i].worker = true;
		t[i].end = 1.0;
		t[i].cpu_time = 0.7;
	}
	t[1].blocked[SB_MUTEX] = 0.5;	/* 0.2 s too much */
	t[2].cpu_time = 1.1;		/* 0.1 s too much */
	t[3].blocked[SB_OTHER] = 0.1;	/* 0.2 s nobody holds */
	st = stack_measured(&run, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	ck_assert_double_eq_tol(stack_total(st), 4, 1e-12);
	ck_assert_double_eq_tol(st->overcount, 0.3, 1e-12);
	/* 0.3 of thread 0, 0.2 of thread 3 */
	ck_assert_double_eq_tol(st->unaccounted, 0.5, 1e-12);
	ck_assert_double_eq_tol(stack_value(st, "lock"), 0.3, 1e-12);
	/* 0.3 + 0.1 + 0.2 */
	ck_assert_double_eq_tol(stack_value(st, "other"), 0.6, 1e-12);
	/* CPU 0.7 + 0.7 + 1.0 + 0.7 = 3.1 against t1 = 3 */
	ck_assert_double_eq_tol(stack_value(st, "contention"), 0.1, 1e-12);
	stack_free(st);

	/* a main thread seen for no time at all: the other worker alone
	   is imbalance (the main thread is not alive), not serial */
	memset(t, 0, sizeof(t));
	t[0].worker = t[1].worker = true;
	t[1].end = 1;
	t[1].cpu_time = 1;
	run = (struct stack_run){ 1, 1, 2, t, 2, NULL, 0, NULL };
	st = stack_measured(&run, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	ck_assert_double_eq_tol(stack_value(st, "imbalance"), 1, 1e-12);
	ck_assert_double_eq_tol(stack_value(st, "serial"), 0, 1e-12);
	ck_assert_double_eq_tol(stack_total(st), 2, 1e-12);
	stack_free(st);
}
END_TEST

static const struct {
	int line;
	double t1, tn;
	int threads;
	int bad;		/* what to spoil */
	const char *msg;
} refuse_rows[] = {
	{ __LINE__, 0, 1, 2, 0, "single-thread time" },
	{ __LINE__, 1, -1, 2, 0, "run time" },
	{ __LINE__, 1, 1, 0, 0, "below 1" },
	{ __LINE__, 1, 1, 2, 1, "no worker" },
	{ __LINE__, 1, 1, 2, 2, "not a number" },
	{ __LINE__, 1, 1, 2, 3, "before it starts" },
	{ __LINE__, 1, 1, 2, 4, "negative" },
	/* 4 workers alive for the whole run, N = 2 */
	{ __LINE__, 1, 1, 2, 5, "more than 2 worker threads" },
};

START_TEST(test_measured_refused)
{
	struct stack_thread t[4];
	struct stack_run run = { refuse_rows[_i].t1, refuse_rows[_i].tn,
				 refuse_rows[_i].threads, t, 2, NULL, 0,
				 NULL };
	struct pandia_error err;
	int i;

	memset(t, 0, sizeof(t));
	for (i = 0; i < 4; i++) {
		t[i].worker = true;
		t[i].end = 1;
		t[i].cpu_time = 0.5;
	}
	switch (refuse_rows[_i].bad) {
	case 1:
		t[0].worker = t[1].worker = false;
		break;
	case 2:
		t[1].cpu_time = NAN;
		break;
	case 3:
		t[1].start = 0.5;
		t[1].end = 0.4;
		break;
	case 4:
		t[0].blocked[SB_JOIN] = -1;
		break;
	case 5:
		run.n_thr = 4;
		break;
	}
	ck_assert_ptr_null(stack_measured(&run, &err));
	ck_assert_msg(strstr(err.text, refuse_rows[_i].msg) != NULL,
		      "line %d: %s", refuse_rows[_i].line, err.text);
}
END_TEST

/* ---- predicted ---------------------------------------------------- */

#define SMT4 "Package:1 [NUMANode(memory=1073741824)] " \
	"L3Cache:1(size=8388608) Core:4 PU:2"
#define CORE8 "Package:1 [NUMANode(memory=1073741824)] " \
	"L3Cache:1(size=8388608) Core:8 PU:1"
#define TWO2 "Package:2 [NUMANode(memory=1073741824)] " \
	"L3Cache:1(size=8388608) Core:2 PU:1"

#define NCOMP 12

static const struct {
	int line;
	const char *topo;
	int n;
	int pus[8];		/* OS indexes */
	struct model_params prm;
	/* base, serial, then NAN (not checked) or the value */
	struct {
		const char *key;
		double v;
	} want[NCOMP];
} predicted_rows[] = {
	/*
	 * Compute-bound, p = 1, one thread per core: nothing to contend
	 * for, speedup 4, every loss 0.
	 */
	{ __LINE__, SMT4, 4, { 0, 2, 4, 6 },
	  { 10, 1, 0, 0, 0, { 1e10, 0, 0, 0, 1e8, 0 }, false, false, false },
	  { { "base", 4 }, { "serial", 0 }, { "instructions", 0 },
	    { "burstiness", 0 }, { "dram", 0 } } },
	/*
	 * The same on both PUs of every core: a core runs 1.3e10 ops/s
	 * with two threads, each asks 1e10: load 2 / 1.3 = 1.538,
	 * speedup 8 / 1.538 = 5.2; the core throughput loses 2.8.
	 */
	{ __LINE__, SMT4, 8, { 0, 1, 2, 3, 4, 5, 6, 7 },
	  { 10, 1, 0, 0, 0, { 1e10, 0, 0, 0, 1e8, 0 }, false, false, false },
	  { { "base", 5.2 }, { "serial", 0 }, { "instructions", 2.8 },
	    { "burstiness", 0 }, { "dram", 0 }, { "imbalance", 0 } } },
	/*
	 * Compute-bound, p = 0.95: Amdahl A(4) = 1 / (0.05 + 0.95 / 4)
	 * = 3.478261, serial 4 - A = 0.521739, nothing else.
	 */
	{ __LINE__, SMT4, 4, { 0, 2, 4, 6 },
	  { 10, 0.95, 0, 0, 0.5, { 1e10, 0, 0, 0, 1e8, 0 }, false, false, false },
	  { { "base", 3.478261 }, { "serial", 0.521739 },
	    { "instructions", 0 }, { "burstiness", 0 } } },
	/*
	 * With SMT and burstiness b = 0.5 at p = 0.95: A(8) = 5.925926,
	 * f0 = A / 8 = 0.740741; core load 2 x 0.740741 / 1.3 =
	 * 1.139601; sres = 1.139601 x (1 + 0.5 x 0.740741) =
	 * 1.561676; speedup A / 1.561676 = 3.794595.  The loss A -
	 * speedup = 2.131331 is split 0.139601 : 0.422075 (m - 1 :
	 * m b f0): instructions 0.529730, burstiness 1.601602.
	 */
	{ __LINE__, SMT4, 8, { 0, 1, 2, 3, 4, 5, 6, 7 },
	  { 10, 0.95, 0, 0, 0.5, { 1e10, 0, 0, 0, 1e8, 0 }, false, false, false },
	  { { "base", 3.794595 }, { "serial", 2.074074 },
	    { "instructions", 0.529730 }, { "burstiness", 1.601602 } } },
	/*
	 * DRAM-bound, p = 1: 8 threads ask 1e10 B/s each of a node that
	 * gives 4e10: load 2, speedup 4, DRAM loses 4.
	 */
	{ __LINE__, CORE8, 8, { 0, 1, 2, 3, 4, 5, 6, 7 },
	  { 10, 1, 0, 0, 0, { 1e9, 0, 0, 0, 1e10, 0 }, false, false, false },
	  { { "base", 4 }, { "serial", 0 }, { "dram", 4 },
	    { "instructions", 0 }, { "l3", 0 } } },
	/*
	 * DRAM-bound, p = 0.9, 4 threads: A = 1 / (0.1 + 0.9 / 4) =
	 * 3.076923, f0 = 0.769231, load 4 x 1e10 x 0.769231 / 4e10 =
	 * 0.769: no contention.  8 threads: A = 4.705882, f0 =
	 * 0.588235, load 1.176471: speedup A / 1.176471 = 4.0, DRAM
	 * 0.705882, serial 3.294118.
	 */
	{ __LINE__, CORE8, 4, { 0, 1, 2, 3 },
	  { 10, 0.9, 0, 0, 0, { 1e9, 0, 0, 0, 1e10, 0 }, false, false, false },
	  { { "base", 3.076923 }, { "serial", 0.923077 }, { "dram", 0 } } },
	{ __LINE__, CORE8, 8, { 0, 1, 2, 3, 4, 5, 6, 7 },
	  { 10, 0.9, 0, 0, 0, { 1e9, 0, 0, 0, 1e10, 0 }, false, false, false },
	  { { "base", 4.0 }, { "serial", 3.294118 }, { "dram", 0.705882 } } },
	/*
	 * Two sockets, three threads (two on socket 0), p = 1, o_s =
	 * 0.1, l = 0: lock-step penalties o_s x the remote threads x
	 * the utilisation r: 0.1 r on socket 0, 0.2 r on socket 1;
	 * load balance pads all to sfin = 1 + 0.2 r, and r = 1 / sfin
	 * carries (5.4): 0.2 r^2 + r - 1 = 0, r = 0.854102, sfin =
	 * 1.170820, speedup 3 / sfin = 2.562306.  Each thread loses
	 * 1 - 1 / sfin = 0.145898: the two on socket 0 half to
	 * communication, half to imbalance, the third all to
	 * communication: 0.291796 and 0.145898.
	 */
	{ __LINE__, TWO2, 3, { 0, 1, 2 },
	  { 10, 1, 0.1, 0, 0, { 1e9, 0, 0, 0, 0, 0 }, false, false, false },
	  { { "base", 2.562306 }, { "serial", 0 },
	    { "communication", 0.291796 }, { "imbalance", 0.145898 },
	    { "interconnect", 0 } } },
};

static struct stack *predict(const char *topo, const char *assume,
			     const struct pandia_mempolicy *mem,
			     const struct model_params *prm, const int *os,
			     int n, struct model *md, struct space **sp,
			     struct pandia_machine **m)
{
	struct pandia_error err;
	struct stack *st;
	int pus[64], i;

	*m = tk_machine(topo, assume);
	*sp = space_new(*m, 4, mem, &err);
	ck_assert_msg(*sp != NULL, "%s", err.text);
	for (i = 0; i < n; i++)
		pus[i] = machine_pu_index(*m, os[i]);
	model_init(md, *sp, prm);
	model_time_pus(md, pus, n);
	st = stack_predicted(md, NULL, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	return st;
}

START_TEST(test_predicted)
{
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	int line = predicted_rows[_i].line, n = predicted_rows[_i].n, k;
	struct pandia_machine *m;
	struct space *sp;
	struct model md;
	struct stack *st;

	st = predict(predicted_rows[_i].topo, ASSUME, &mem,
		     &predicted_rows[_i].prm, predicted_rows[_i].pus, n, &md,
		     &sp, &m);
	ck_assert_int_eq(st->kind, STACK_PREDICTED);
	ck_assert_int_eq(st->threads, n);
	ck_assert_msg(fabs(stack_total(st) - n) < 1e-9, "line %d: total "
		      "%.12g", line, stack_total(st));
	ck_assert_msg(fabs(st->speedup - md.speedup) < 1e-12, "line %d",
		      line);
	ck_assert_msg(fabs(stack_value(st, "serial") - (n - md.amdahl)) <
		      1e-12, "line %d", line);
	for (k = 0; k < NCOMP && predicted_rows[_i].want[k].key; k++) {
		const char *key = predicted_rows[_i].want[k].key;

		ck_assert_msg(stack_comp(st, key) != NULL, "line %d: no %s",
			      line, key);
		near(stack_value(st, key), predicted_rows[_i].want[k].v, 1e-5,
		     key, line);
	}
	for (k = 0; k < st->n_comps; k++)
		ck_assert_msg(st->comps[k].value >= -1e-12, "line %d: %s = %g",
			      line, st->comps[k].key, st->comps[k].value);
	stack_free(st);
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/*
 * The paper's worked example (Pandia, section 4; docs/model.md),
 * placement 0,1,4: U and V share core 0 (burstiness), W is alone on
 * socket 1 with the interleaved memory's traffic crossing the link
 * (interconnect), o_s = 0.1 (communication), l = 0.5 (imbalance).
 * A(3) at p = 0.9 is 2.5: serial 0.5.
 */
START_TEST(test_predicted_paper)
{
	struct pandia_machine *m = tk_machine(FIG3_TOPOLOGY, FIG3_ASSUME);
	struct pandia_workload *w;
	struct pandia_error err;
	struct model_params prm = { 0 };
	struct space *sp;
	struct model md;
	struct stack *st;
	int pus[3];
	json_t *j;

	w = workload_load(PAPER_WORKLOAD, &err);
	ck_assert_msg(w != NULL, "%s", err.text);
	sp = space_new(m, 1, &w->memory, &err);
	ck_assert_ptr_nonnull(sp);
	model_params_of(w, &prm);
	model_init(&md, sp, &prm);
	pus[0] = machine_pu_index(m, 0);
	pus[1] = machine_pu_index(m, 1);
	pus[2] = machine_pu_index(m, 4);
	model_time_pus(&md, pus, 3);
	st = stack_predicted(&md, NULL, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	ck_assert_str_eq(st->cpus, "0,1,4");
	ck_assert_double_eq_tol(stack_total(st), 3, 1e-9);
	ck_assert_double_eq_tol(stack_value(st, "serial"), 0.5, 1e-12);
	ck_assert_double_eq_tol(stack_value(st, "base"), md.speedup, 1e-12);
	ck_assert(stack_value(st, "interconnect") > 0.1);
	ck_assert(stack_value(st, "burstiness") > 0.1);
	ck_assert(stack_value(st, "communication") > 0.01);
	ck_assert(stack_value(st, "imbalance") > 0.01);
	ck_assert(stack_value(st, "dram") == 0);

	j = stack_to_json(st);
	ck_assert_str_eq(json_string_value(json_object_get(j, "kind")),
			 "predicted");
	ck_assert_str_eq(json_string_value(json_object_get(j, "cpus_text")),
			 "0,1,4");
	ck_assert_int_eq(json_integer_value(json_array_get(
		json_object_get(j, "cpus"), 2)), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "threads")),
			 3);
	ck_assert_double_eq_tol(json_real_value(json_object_get(j,
				"speedup")), md.speedup, 1e-12);
	ck_assert_int_eq(json_object_size(json_object_get(j, "components")),
			 st->n_comps);
	ck_assert_ptr_null(json_object_get(j, "remainder"));
	json_decref(j);

	stack_free(st);
	model_release(&md);
	space_free(sp);
	workload_free(w);
	machine_free(m);
}
END_TEST

static double urand(unsigned *seed)
{
	return (double)rand_r(seed) / RAND_MAX;
}

static const char *const machines[] = {
	"Package:2 [NUMANode(memory=1073741824)] L3Cache:1(size=8388608) "
	"L2Cache:2(size=262144) L1dCache:1(size=32768) Core:1 PU:2",
	"Package:3 [NUMANode(memory=1073741824)] L3Cache:1(size=8388608) "
	"Core:2 PU:2",
	SMT4,
};

/*
 * The sum invariant, predicted: random parameters, placements (up to
 * 3 threads a PU) and memory policies; every stack adds up to N, no
 * component is negative, the base is the model's speedup.
 */
START_TEST(test_predicted_sum)
{
	static const char *const policies[] = { "local", "interleave" };
	struct pandia_machine *m = tk_machine(machines[_i], ASSUME);
	unsigned seed = 77 + (unsigned)_i;
	int trial;

	for (trial = 0; trial < 200; trial++) {
		struct pandia_mempolicy mem;
		struct pandia_error err;
		struct model_params prm = { 0 };
		struct space *sp;
		struct stack *st;
		struct model md;
		int pus[64], cnt[64] = { 0 }, n, i, r;

		memset(&prm, 0, sizeof(prm));
		prm.t1 = 1;
		prm.p = urand(&seed);
		prm.o_s = 0.05 * urand(&seed);
		prm.l = urand(&seed);
		prm.b = urand(&seed);
		for (r = 0; r < WR_COUNT; r++)
			prm.d[r] = urand(&seed) < 0.3 ? 0 : urand(&seed) *
				(r == WR_INSTRUCTIONS ? 1.5e10 :
				 r == WR_DRAM ? 3e10 : r == WR_INTERCONNECT ?
				 5e9 : 1e11);
		mempolicy_parse(policies[trial % 2], &mem, &err);
		n = 1 + rand_r(&seed) % (3 * m->n_pus);
		for (i = 0; i < n;) {
			int p = rand_r(&seed) % m->n_pus;

			if (cnt[p] < 3) {
				cnt[p]++;
				pus[i++] = p;
			}
		}
		sp = space_new(m, 3, &mem, &err);
		ck_assert_msg(sp != NULL, "%s", err.text);
		model_init(&md, sp, &prm);
		model_time_pus(&md, pus, n);
		st = stack_predicted(&md, "x", &err);
		ck_assert_msg(st != NULL, "%s", err.text);
		ck_assert_str_eq(st->cpus, "x");
		ck_assert_msg(fabs(stack_total(st) - n) < 1e-9 * n,
			      "machine %d trial %d: %d threads, total %.12g",
			      _i, trial, n, stack_total(st));
		ck_assert(fabs(st->speedup - md.speedup) < 1e-12);
		for (i = 0; i < st->n_comps; i++)
			ck_assert_msg(st->comps[i].value >= -1e-12,
				      "machine %d trial %d: %s = %g", _i,
				      trial, st->comps[i].key,
				      st->comps[i].value);
		stack_free(st);
		model_release(&md);
		space_free(sp);
	}
	machine_free(m);
}
END_TEST

/*
 * Refused: a model with nothing built; a model solved in the ranking's
 * form (merge) where a class other than the slowest is slowed by a
 * resource: 3 DRAM-bound threads, two on core 0 (its DRAM link
 * loaded 2), one on core 1 (the node loaded 1.5).  Built again
 * without merge, it is accepted.
 */
START_TEST(test_predicted_refused)
{
	struct pandia_machine *m = tk_machine(SMT4, ASSUME);
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct model_params prm = { 1, 1, 0, 0, 0,
				    { 1e9, 0, 0, 0, 2e10, 0 }, false, false, false };
	struct pandia_error err;
	struct space *sp = space_new(m, 1, &mem, &err);
	int pus[3];
	struct stack *st;
	struct model md;

	ck_assert_ptr_nonnull(sp);
	model_init(&md, sp, &prm);
	ck_assert_ptr_null(stack_predicted(&md, NULL, &err));
	ck_assert_ptr_nonnull(strstr(err.text, "no solved placement"));

	pus[0] = machine_pu_index(m, 0);
	pus[1] = machine_pu_index(m, 1);
	pus[2] = machine_pu_index(m, 2);
	md.merge = true;
	model_time_pus(&md, pus, 3);
	ck_assert_int_eq(md.n_classes, 2);
	ck_assert_ptr_null(stack_predicted(&md, NULL, &err));
	ck_assert_ptr_nonnull(strstr(err.text, "without merge"));
	md.merge = false;
	model_time_pus(&md, pus, 3);
	st = stack_predicted(&md, NULL, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	ck_assert_double_eq_tol(stack_total(st), 3, 1e-9);
	/* core 0's DRAM link (2 x 2e10 of 2e10) and the node (1.5) */
	ck_assert(stack_value(st, "dram") > 0.5);
	ck_assert_double_eq_tol(stack_value(st, "dram") +
				stack_value(st, "imbalance"), 3 - st->speedup,
				1e-9);
	stack_free(st);
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/* ---- files -------------------------------------------------------- */

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

START_TEST(test_json_measured)
{
	struct sim s = { 16, false, true, true, 20, 0.01, 0, 0, 0, 0, 1, 0 };
	struct pandia_error err;
	struct recorded r;
	struct stack_run run;
	struct stack *st;
	json_t *j, *c;
	const char *key;
	json_t *v;
	double sum = 0;

	simulate(&s, &r);
	run = (struct stack_run){ r.t1, r.tn, 16, r.thr, r.n_thr, NULL, 0,
				  "0-15" };
	st = stack_measured(&run, &err);
	ck_assert_msg(st != NULL, "%s", err.text);
	j = stack_to_json(st);
	ck_assert_str_eq(json_string_value(json_object_get(j, "kind")),
			 "measured");
	ck_assert_str_eq(json_string_value(json_object_get(j, "cpus_text")),
			 "0-15");
	ck_assert_int_eq(json_array_size(json_object_get(j, "cpus")), 16);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "threads")),
			 16);
	ck_assert_str_eq(json_string_value(json_object_get(j, "remainder")),
			 "not split");
	ck_assert_ptr_nonnull(json_object_get(j, "estimate_error"));
	c = json_object_get(j, "components");
	ck_assert_int_eq(json_object_size(c), 8);
	json_object_foreach(c, key, v)
		sum += json_real_value(v);
	ck_assert_double_eq_tol(sum, 16, 1e-9);
	ck_assert_double_eq_tol(json_real_value(json_object_get(c, "base")),
				8.5, 0.01);
	json_decref(j);
	stack_free(st);
}
END_TEST

START_TEST(test_gnuplot)
{
	struct stack_thread t[2];
	struct stack_run run = { 1.5, 1.0, 2, t, 2, NULL, 0, "0,1" };
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct model_params prm = { 10, 1, 0, 0, 0,
				    { 1e9, 0, 0, 0, 1e10, 0 }, false, false, false };
	int os[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const struct stack *ms[3], *ps[3];
	struct pandia_machine *m;
	struct pandia_error err;
	struct space *sp;
	struct model md;
	char *gp;

	memset(t, 0, sizeof(t));
	t[0].worker = t[1].worker = true;
	t[0].end = t[1].end = 1;
	t[0].cpu_time = 1;
	t[1].cpu_time = 0.5;
	t[1].blocked[SB_BARRIER] = 0.5;
	ms[0] = stack_measured(&run, &err);
	ck_assert_ptr_nonnull(ms[0]);
	ms[1] = NULL;
	ms[2] = NULL;
	ps[0] = NULL;
	ps[1] = predict(CORE8, ASSUME, &mem, &prm, os, 8, &md, &sp, &m);
	ps[2] = NULL;

	gp = stacks_gnuplot_script(ms, ps, 3, "out/st\"acks.png",
				   "stacks of \"x\"");
	ck_assert_ptr_nonnull(gp);
	ck_assert_ptr_nonnull(strstr(gp, "set output \"out/st\\\"acks.png\""));
	ck_assert_ptr_nonnull(strstr(gp, "set title \"stacks of \\\"x\\\"\""));
	ck_assert_ptr_nonnull(strstr(gp, "rowstacked"));
	ck_assert_ptr_nonnull(strstr(gp, "\n\"2 m\" "));
	ck_assert_ptr_nonnull(strstr(gp, "\n\"8 p\" "));
	/* the columns with a value somewhere: base, barrier (measured),
	   contention (0.5 s of CPU beyond t1: 0.5 / 1 = 0... none),
	   dram (predicted) */
	ck_assert_ptr_nonnull(strstr(gp, "\"barrier and condition waits\""));
	ck_assert_ptr_nonnull(strstr(gp, "\"DRAM bandwidth\""));
	ck_assert_ptr_null(strstr(gp, "\"lock waits\""));
	ck_assert_int_eq(count(gp, "$data using"), 3);
	ck_assert_int_eq(count(gp, ":xtic(1)"), 1);
	/* one gap row between the two thread counts */
	ck_assert_int_eq(count(gp, "\n\"\" ?"), 1);
	free(gp);
	/* two placements of 2 threads: the bars are named by PUs */
	ms[2] = ms[0];
	gp = stacks_gnuplot_script(ms, ps, 3, "x.png", "by PUs");
	ck_assert_ptr_nonnull(strstr(gp, "\n\"0,1 m\" "));
	ck_assert_ptr_nonnull(strstr(gp, "\n\"0,1,2,3,4,5,6,7 p\" "));
	free(gp);
	ms[2] = NULL;
	ck_assert_ptr_null(stacks_gnuplot_script(ms + 1, ps + 2, 1, "x.png",
						 "none"));
	ck_assert_ptr_null(stacks_gnuplot_script(NULL, NULL, 0, "x.png",
						 "none"));

	stack_free((struct stack *)ms[0]);
	stack_free((struct stack *)ps[1]);
	stack_free(NULL);
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

/* The table and text for people, and the sum predicate. */
START_TEST(test_text)
{
	struct stack_thread t[2];
	struct stack_run run = { 1.5, 1.0, 2, t, 2, NULL, 0, "0,1" };
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct model_params prm = { 10, 1, 0, 0, 0,
				    { 1e9, 0, 0, 0, 1e10, 0 }, false, false, false };
	int os[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const struct stack *v[3];
	struct stack *ms, *ps;
	struct pandia_machine *m;
	struct pandia_error err;
	struct space *sp;
	struct model md;
	char *tab, *txt, *line;
	double sum;

	memset(t, 0, sizeof(t));
	t[0].worker = t[1].worker = true;
	t[0].end = t[1].end = 1;
	t[0].cpu_time = 1;
	t[1].cpu_time = 0.5;
	t[1].blocked[SB_BARRIER] = 0.5;
	ms = stack_measured(&run, &err);
	ck_assert_ptr_nonnull(ms);
	ps = predict(CORE8, ASSUME, &mem, &prm, os, 8, &md, &sp, &m);
	v[0] = ms;
	v[1] = NULL;
	v[2] = ps;
	tab = stacks_table(v, 3);
	/* the header: the columns in stack order, the measured ones
	   first, the zero ones left out, the sum last */
	ck_assert_msg(!strncmp(tab, "cpus               N kind        base "
			       "barrier   dram    sum\n", 57), "%s", tab);
	line = strstr(tab, "\n0,1 ");
	ck_assert_msg(line && !strncmp(line, "\n0,1                2 measured "
				       "  1.500   0.500      -  2.000\n", 58),
		      "%s", tab);
	ck_assert_ptr_nonnull(strstr(tab, "\n0,1,2,3,4,5,6,7    8 predicted  "
				     "4.000       -  4.000  8.000\n"));
	ck_assert_ptr_nonnull(strstr(tab, "\n  dram           DRAM "
				     "bandwidth\n"));
	/* both kinds: the legend says what the model cannot tell apart */
	ck_assert_ptr_nonnull(strstr(tab, "the model cannot tell serial "
				     "execution from waits at a barrier"));
	free(tab);
	tab = stacks_table(v, 1);
	ck_assert_ptr_null(strstr(tab, "the model cannot tell"));
	free(tab);
	tab = stacks_table(v + 1, 1);
	ck_assert_str_eq(tab, "");
	free(tab);

	txt = stack_text(ps, 2);
	ck_assert_ptr_nonnull(strstr(txt, "  base           predicted speedup"
				     "                      4.000   50.0%\n"));
	ck_assert_ptr_nonnull(strstr(txt, "  sum            (N)"));
	free(txt);

	ck_assert(stack_sums(ms, 0.03, &sum));
	ck_assert_double_eq_tol(sum, 2, 1e-9);
	ms->comps[0].value += 0.07;	/* 3.5% of N = 2 */
	ck_assert(!stack_sums(ms, 0.03, &sum));
	ck_assert_double_eq_tol(sum, 2.07, 1e-9);
	ck_assert(stack_sums(ms, 0.04, NULL));
	ms->comps[0].value = NAN;
	ck_assert(!stack_sums(ms, 0.03, NULL));

	stack_free(ms);
	stack_free(ps);
	model_release(&md);
	space_free(sp);
	machine_free(m);
}
END_TEST

static Suite *stacks_suite(void)
{
	Suite *s = suite_create("stacks");
	TCase *tc = tcase_create("stacks");

	tcase_add_loop_test(tc, test_measured, 0, ARRAY_SIZE(measured_rows));
	tcase_add_test(tc, test_measured_noise);
	tcase_add_test(tc, test_measured_split);
	tcase_add_test(tc, test_measured_misfit);
	tcase_add_loop_test(tc, test_measured_refused, 0,
			    ARRAY_SIZE(refuse_rows));
	tcase_add_loop_test(tc, test_predicted, 0,
			    ARRAY_SIZE(predicted_rows));
	tcase_add_test(tc, test_predicted_paper);
	tcase_add_loop_test(tc, test_predicted_sum, 0, ARRAY_SIZE(machines));
	tcase_add_test(tc, test_predicted_refused);
	tcase_add_test(tc, test_json_measured);
	tcase_add_test(tc, test_gnuplot);
	tcase_add_test(tc, test_text);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { stacks_suite, NULL };
