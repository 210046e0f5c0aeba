/*
 * check_validate.c - the metrics and placements of 'pandia validate'
 * (section 6 of the Pandia paper; docs/validation.md).
 *
 *   - every metric on small data computed by hand (the computation is
 *     written beside each row);
 *   - ranks and Spearman's correlation with ties;
 *   - --placements parsing, and what all, top:K and sample:N choose;
 *   - libgomp's place list and OMP_PROC_BIND close/spread, and the
 *     sweep's packed and spread orders, on machines that number SMT
 *     siblings next to each other and last;
 *   - rows: one per placement up to symmetry, the summary (each
 *     default's gap, the pick against it, the sweep), the CSV.
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
#include "predictor/rank.h"
#include "predictor/space.h"
#include "predictor/validate.h"
#include "stress/assume.h"
#include "tests/lib/testkit.h"

#define ASSUME "tests/data/assume-full.json"
#define EPS 1e-6

/* ---- the metrics, by hand ----------------------------------------- */

#define MAXN 6

static const struct {
	int line;
	int n;
	double pred[MAXN], meas[MAXN];
	int pick;		/* as passed: -1 the smallest prediction */
	double median, mean, max;
	double offset, offset_median, offset_mean;
	double best_gap, spearman;	/* NAN: not defined */
	int best, pick_out;
} metric_rows[] = {
	/*
	 * errors |p-m|/m: 0/1 = 0, 0.5/2.5 = 0.2, 0.4/4.4 = 0.0909091;
	 * median 0.0909091, mean 0.2909091/3 = 0.0969697, max 0.2.
	 * d = mean(m-p) = (0 + 0.5 + 0.4)/3 = 0.3; best measured 1, so
	 * offset 0.3.  |p+d-m|/m: 0.3/1 = 0.3, 0.2/2.5 = 0.08,
	 * 0.1/4.4 = 0.0227273; median 0.08, mean 0.4027273/3 =
	 * 0.1342424.  Pick = 0 (p = 1) = best: gap 0.  Both orders the
	 * same: rho 1.
	 */
	{ __LINE__, 3, { 1, 2, 4 }, { 1, 2.5, 4.4 }, -1,
	  0.0909091, 0.0969697, 0.2, 0.3, 0.08, 0.1342424, 0, 1, 0, 0 },
	/*
	 * errors: 1/1 = 1, 0.1/1.1 = 0.0909091, 1.5/1.5 = 1; median 1,
	 * mean 2.0909091/3 = 0.6969697, max 1.  d = (-1 + 0.1 - 1.5)/3
	 * = -0.8, best measured 1: offset -0.8.  |p+d-m|/m: |2-0.8-1|/1
	 * = 0.2, |1-0.8-1.1|/1.1 = 0.8181818, |3-0.8-1.5|/1.5 =
	 * 0.4666667; median 0.4666667, mean 1.4848485/3 = 0.4949495.
	 * Pick = 1 (p = 1) measured 1.1, best 0 measured 1: gap 0.1.
	 * Ranks p (2,1,3), m (1,2,3): deviations (0,-1,1), (-1,0,1):
	 * rho = 1 / sqrt(2 * 2) = 0.5.
	 */
	{ __LINE__, 3, { 2, 1, 3 }, { 1, 1.1, 1.5 }, -1,
	  1, 0.6969697, 1, -0.8, 0.4666667, 0.4949495, 0.1, 0.5, 0, 1 },
	/*
	 * Ties.  errors: 1/2 = 0.5, 0, 1/3 = 0.3333333, 0; sorted
	 * 0, 0, 0.3333, 0.5: median 0.1666667, mean 0.8333333/4 =
	 * 0.2083333, max 0.5.  d = (1 + 0 + 1 + 0)/4 = 0.5, best
	 * measured 1 (index 1): offset 0.5.  |p+d-m|/m: 0.5/2 = 0.25,
	 * 0.5/1 = 0.5, 0.5/3 = 0.1666667, 0.5/3 = 0.1666667; median
	 * (0.1666667 + 0.25)/2 = 0.2083333, mean 1.0833333/4 =
	 * 0.2708333.  Pick: p = 1 twice, the first (index 0, measured
	 * 2): gap 2/1 - 1 = 1.  Ranks p (1.5,1.5,3,4), m (2,1,3.5,3.5),
	 * mean 2.5: deviations (-1,-1,.5,1.5), (-.5,-1.5,1,1): sxy = 4,
	 * sxx = syy = 4.5: rho 0.8888889.
	 */
	{ __LINE__, 4, { 1, 1, 2, 3 }, { 2, 1, 3, 3 }, -1,
	  0.1666667, 0.2083333, 0.5, 0.5, 0.2083333, 0.2708333, 1,
	  0.8888889, 1, 0 },
	/* The same data with the pick given: index 1 (measured 1) is
	   the best: gap 0; nothing else changes. */
	{ __LINE__, 4, { 1, 1, 2, 3 }, { 2, 1, 3, 3 }, 1,
	  0.1666667, 0.2083333, 0.5, 0.5, 0.2083333, 0.2708333, 0,
	  0.8888889, 1, 1 },
	/*
	 * One placement: error 1/1 = 1; d = 1 - 2 = -1, offset -1/1,
	 * and then no error at all; gap 0; rho undefined.
	 */
	{ __LINE__, 1, { 2 }, { 1 }, -1, 1, 1, 1, -1, 0, 0, 0, NAN, 0, 0 },
	/*
	 * Reversed order: errors 2/3, 0, 2/1: median 0.6666667, mean
	 * 2.6666667/3 = 0.8888889, max 2.  d = (2 + 0 - 2)/3 = 0: the
	 * offset errors are the errors.  Pick 0 (p 1, m 3), best 2
	 * (m 1): gap 2.  rho -1.
	 */
	{ __LINE__, 3, { 1, 2, 3 }, { 3, 2, 1 }, -1,
	  0.6666667, 0.8888889, 2, 0, 0.6666667, 0.8888889, 2, -1, 2, 0 },
	/* Predictions all equal: no order to correlate (rho NAN);
	   errors 0 and 0.5 (1 vs 2): median 0.25; d = 0.5, best 1:
	   offset 0.5; |1.5-1|/1 = 0.5, |1.5-2|/2 = 0.25: median
	   0.375. */
	{ __LINE__, 2, { 1, 1 }, { 1, 2 }, -1,
	  0.25, 0.25, 0.5, 0.5, 0.375, 0.375, 0, NAN, 0, 0 },
};

static void close_to(double got, double want, const char *what, int line)
{
	if (isnan(want)) {
		ck_assert_msg(isnan(got), "line %d: %s = %g, want undefined",
			      line, what, got);
		return;
	}
	ck_assert_msg(fabs(got - want) < EPS, "line %d: %s = %.9g, want "
		      "%.9g", line, what, got, want);
}

START_TEST(test_metrics)
{
	struct validate_metrics mt;
	struct pandia_error err;
	int line = metric_rows[_i].line;

	ck_assert_msg(validate_metrics(metric_rows[_i].pred,
				       metric_rows[_i].meas, metric_rows[_i].n,
				       metric_rows[_i].pick, &mt, &err) == 0,
		      "line %d: %s", line, err.text);
	ck_assert_int_eq(mt.n, metric_rows[_i].n);
	close_to(mt.median_error, metric_rows[_i].median, "median error",
		 line);
	close_to(mt.mean_error, metric_rows[_i].mean, "mean error", line);
	close_to(mt.max_error, metric_rows[_i].max, "max error", line);
	close_to(mt.offset, metric_rows[_i].offset, "offset", line);
	close_to(mt.offset_error, metric_rows[_i].offset_median,
		 "offset error", line);
	close_to(mt.offset_error_mean, metric_rows[_i].offset_mean,
		 "mean offset error", line);
	close_to(mt.best_gap, metric_rows[_i].best_gap, "best gap", line);
	close_to(mt.spearman, metric_rows[_i].spearman, "spearman", line);
	ck_assert_msg(mt.best == metric_rows[_i].best, "line %d: best %d",
		      line, mt.best);
	ck_assert_msg(mt.pick == metric_rows[_i].pick_out, "line %d: pick "
		      "%d", line, mt.pick);
}
END_TEST

START_TEST(test_metrics_refused)
{
	struct validate_metrics mt;
	struct pandia_error err;
	double p[] = { 1, 2 }, bad[] = { 1, 0 }, nan2[] = { 1, NAN };

	ck_assert_int_eq(validate_metrics(p, p, 0, -1, &mt, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "no placement"));
	ck_assert_int_eq(validate_metrics(p, bad, 2, -1, &mt, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.text, "positive"));
	ck_assert_int_eq(validate_metrics(bad, p, 2, -1, &mt, &err), -1);
	ck_assert_int_eq(validate_metrics(p, nan2, 2, -1, &mt, &err), -1);
	/* the two one-number metrics */
	ck_assert_double_eq_tol(validate_error(1.1, 1.0), 0.1, EPS);
	ck_assert_double_eq_tol(validate_error(0.9, 1.0), 0.1, EPS);
	ck_assert_double_eq_tol(validate_gap(1.25, 1.0), 0.25, EPS);
}
END_TEST

static const struct {
	int line;
	int n;
	double v[MAXN];
	double rank[MAXN];
} rank_rows[] = {
	{ __LINE__, 3, { 30, 10, 20 }, { 3, 1, 2 } },
	/* 5 and 5 share ranks 1 and 2: 1.5 each */
	{ __LINE__, 3, { 5, 7, 5 }, { 1.5, 3, 1.5 } },
	/* three equal share ranks 2, 3, 4: 3 */
	{ __LINE__, 5, { 0, 2, 2, 2, 9 }, { 1, 3, 3, 3, 5 } },
	{ __LINE__, 1, { 4 }, { 1 } },
	{ __LINE__, 4, { 1, 1, 1, 1 }, { 2.5, 2.5, 2.5, 2.5 } },
};

START_TEST(test_ranks)
{
	double r[MAXN];
	int i;

	validate_ranks(rank_rows[_i].v, rank_rows[_i].n, r);
	for (i = 0; i < rank_rows[_i].n; i++)
		ck_assert_msg(fabs(r[i] - rank_rows[_i].rank[i]) < EPS,
			      "line %d: rank[%d] = %g", rank_rows[_i].line, i,
			      r[i]);
}
END_TEST

START_TEST(test_spearman)
{
	/*
	 * Five points, one swap: ranks x (1..5), y (1,2,4,3,5).
	 * rho = 1 - 6 sum d^2 / (n (n^2 - 1)) = 1 - 6*2/120 = 0.9
	 * (no ties, so the short formula holds).
	 */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 10, 20, 40, 30, 50 };

	ck_assert_double_eq_tol(validate_spearman(x, y, 5), 0.9, EPS);
	/* rank-based: any increasing map of y changes nothing */
	y[4] = 5000;
	ck_assert_double_eq_tol(validate_spearman(x, y, 5), 0.9, EPS);
	ck_assert(isnan(validate_spearman(x, y, 1)));
}
END_TEST

/* ---- --placements ------------------------------------------------- */

static const struct {
	int line;
	const char *text;
	int ok;
	enum vsel_mode mode;
	long n;
	const char *msg;
} sel_rows[] = {
	{ __LINE__, "all", 1, VSEL_ALL, 0, NULL },
	{ __LINE__, "sample:20", 1, VSEL_SAMPLE, 20, NULL },
	{ __LINE__, "top:1", 1, VSEL_TOP, 1, NULL },
	{ __LINE__, "top:0", 0, 0, 0, "top takes a number >= 1" },
	{ __LINE__, "sample:", 0, 0, 0, "sample takes a number" },
	{ __LINE__, "sample:x", 0, 0, 0, "not 'x'" },
	{ __LINE__, "some", 0, 0, 0, "all, sample:N or top:K" },
	{ __LINE__, "ALL", 0, 0, 0, "not 'ALL'" },
};

START_TEST(test_vsel_parse)
{
	struct pandia_error err;
	struct vsel sel;
	int ret = vsel_parse(sel_rows[_i].text, &sel, &err);

	if (!sel_rows[_i].ok) {
		ck_assert_msg(ret == -1, "line %d accepted",
			      sel_rows[_i].line);
		ck_assert_msg(strstr(err.text, sel_rows[_i].msg),
			      "line %d: %s", sel_rows[_i].line, err.text);
		return;
	}
	ck_assert_msg(ret == 0, "line %d: %s", sel_rows[_i].line, err.text);
	ck_assert_int_eq(sel.mode, sel_rows[_i].mode);
	ck_assert_int_eq(sel.n, sel_rows[_i].n);
}
END_TEST

/* A ranking of a 2-socket, 4-core-each, SMT-2 machine, k = 1. */
struct ranked_space {
	struct pandia_machine *m;
	struct space *sp;
	struct ranking r;
	struct model_params prm;
};

static void ranked_space_make(struct ranked_space *rs)
{
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct rank_opts ro = { 0, RANK_DEFAULT_MAX, 1, NULL, NULL, NAN };
	struct pandia_error err;

	rs->m = tk_machine("Package:2 [NUMANode(memory=1073741824)] "
			   "L3Cache:1(size=8388608) Core:4 PU:2", ASSUME);
	memset(&rs->prm, 0, sizeof(rs->prm));
	rs->prm.t1 = 10;
	rs->prm.p = 0.95;
	rs->prm.o_s = 0.02;
	rs->prm.l = 0.5;
	rs->prm.b = 0.1;
	rs->prm.d[WR_INSTRUCTIONS] = 5e9;
	rs->prm.d[WR_DRAM] = 6e9;
	rs->sp = space_new(rs->m, 1, &mem, &err);
	ck_assert_msg(rs->sp, "%s", err.text);
	ck_assert_msg(rank_all(rs->sp, &rs->prm, &ro, &rs->r, &err) == 0,
		      "%s", err.text);
}

static void ranked_space_free(struct ranked_space *rs)
{
	rank_release(&rs->r);
	space_free(rs->sp);
	machine_free(rs->m);
}

START_TEST(test_vsel_choose)
{
	struct ranked_space rs;
	struct vsel sel;
	size_t *idx, n, i, j, best, *top;
	bool *counts;
	int t, maxt = 0;

	ranked_space_make(&rs);
	best = rank_best(&rs.r);
	top = xcalloc(rs.r.n, sizeof(*top));
	rank_top(&rs.r, 0, top);

	sel.mode = VSEL_ALL;
	sel.n = 0;
	n = vsel_choose(&rs.r, &sel, &idx);
	ck_assert_uint_eq(n, rs.r.n);
	free(idx);

	sel.mode = VSEL_TOP;
	sel.n = 5;
	n = vsel_choose(&rs.r, &sel, &idx);
	ck_assert_uint_eq(n, 5);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(idx[i], top[i]);
	free(idx);

	/* sample: N distinct, the best first, every thread count */
	for (i = 0; i < rs.r.n; i++)
		if (rs.r.e[i].threads > maxt)
			maxt = rs.r.e[i].threads;
	sel.mode = VSEL_SAMPLE;
	sel.n = 2 * maxt;
	ck_assert_uint_lt((size_t)sel.n, rs.r.n);
	n = vsel_choose(&rs.r, &sel, &idx);
	ck_assert_uint_eq(n, (size_t)sel.n);
	ck_assert_uint_eq(idx[0], best);
	counts = xcalloc((size_t)maxt + 1, sizeof(bool));
	for (i = 0; i < n; i++) {
		counts[rs.r.e[idx[i]].threads] = true;
		for (j = 0; j < i; j++)
			ck_assert_uint_ne(idx[i], idx[j]);
	}
	for (t = 1; t <= maxt; t++)
		ck_assert_msg(counts[t], "sample:%ld has no placement of %d "
			      "threads", sel.n, t);
	free(counts);
	free(idx);

	/* fewer than the thread counts: the smallest and the largest
	   count are among them, not only the smallest counts */
	sel.n = 3;
	n = vsel_choose(&rs.r, &sel, &idx);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(idx[0], best);
	{
		bool one = false, most = false;

		for (i = 0; i < n; i++) {
			one |= rs.r.e[idx[i]].threads == 1;
			most |= rs.r.e[idx[i]].threads == maxt;
		}
		ck_assert(one && most);
	}
	free(idx);

	/* sample larger than the space: all of it */
	sel.n = (long)rs.r.n + 10;
	n = vsel_choose(&rs.r, &sel, &idx);
	ck_assert_uint_eq(n, rs.r.n);
	free(idx);
	free(top);
	ranked_space_free(&rs);
}
END_TEST

/* ---- OMP_PROC_BIND and the sweep ------------------------------------ */

static const struct {
	int line;
	int p, n;
	int spread;
	int want[8];
} bind_rows[] = {
	{ __LINE__, 4, 4, 0, { 0, 1, 2, 3 } },
	{ __LINE__, 4, 4, 1, { 0, 1, 2, 3 } },
	{ __LINE__, 4, 2, 0, { 0, 1 } },
	/* spread: 2 subpartitions of 2 places, first place of each */
	{ __LINE__, 4, 2, 1, { 0, 2 } },
	/* 5 places, 3 threads: subpartitions of 2, 2, 1 */
	{ __LINE__, 5, 3, 1, { 0, 2, 4 } },
	{ __LINE__, 5, 3, 0, { 0, 1, 2 } },
	{ __LINE__, 8, 3, 1, { 0, 3, 6 } },
	/* beyond P: s = n / P each, the last n % P one by one again */
	{ __LINE__, 2, 3, 0, { 0, 1, 0 } },
	{ __LINE__, 2, 5, 0, { 0, 0, 1, 1, 0 } },
	{ __LINE__, 2, 5, 1, { 0, 0, 1, 1, 0 } },
	{ __LINE__, 4, 6, 0, { 0, 1, 2, 3, 0, 1 } },
	{ __LINE__, 2, 4, 1, { 0, 0, 1, 1 } },
	{ __LINE__, 1, 3, 0, { 0, 0, 0 } },
};

START_TEST(test_omp_bind)
{
	int places[8] = { 10, 11, 12, 13, 14, 15, 16, 17 }, out[8], i;

	defaults_omp_bind(places, bind_rows[_i].p, bind_rows[_i].n,
			  bind_rows[_i].spread, out);
	for (i = 0; i < bind_rows[_i].n; i++)
		ck_assert_msg(out[i] == 10 + bind_rows[_i].want[i],
			      "line %d: thread %d on place %d, want %d",
			      bind_rows[_i].line, i, out[i] - 10,
			      bind_rows[_i].want[i]);
}
END_TEST

static const struct {
	int line;
	const char *topo;
	int n;
	int places[8];		/* OS indexes */
	int packed[8];
	int spread[8];
} order_rows[] = {
	/* siblings numbered next to each other: core c = {2c, 2c+1} */
	{ __LINE__, "Package:2 Core:2 PU:2", 8,
	  { 0, 1, 2, 3, 4, 5, 6, 7 },
	  { 0, 1, 2, 3, 4, 5, 6, 7 },
	  { 0, 4, 2, 6, 1, 5, 3, 7 } },
	/*
	 * siblings last, as Intel machines number them: socket s, core
	 * c, PU j is 4j + 2s + c.  libgomp walks the CPUs in order and
	 * takes each one's siblings along: {0},{4},{1},{5}...
	 */
	{ __LINE__, "Package:2 Core:2 PU:2(indexes=0,4,1,5,2,6,3,7)", 8,
	  { 0, 4, 1, 5, 2, 6, 3, 7 },
	  { 0, 4, 1, 5, 2, 6, 3, 7 },
	  { 0, 2, 1, 3, 4, 6, 5, 7 } },
	{ __LINE__, "Package:1 Core:2 PU:1", 2, { 0, 1 }, { 0, 1 },
	  { 0, 1 } },
	{ __LINE__, "Package:2 Core:1 PU:1", 2, { 0, 1 }, { 0, 1 },
	  { 0, 1 } },
	/* three cores, one socket: spread is one per core first */
	{ __LINE__, "Package:1 Core:3 PU:2", 6, { 0, 1, 2, 3, 4, 5 },
	  { 0, 1, 2, 3, 4, 5 }, { 0, 2, 4, 1, 3, 5 } },
};

START_TEST(test_orders)
{
	struct pandia_machine *m = tk_machine(order_rows[_i].topo, ASSUME);
	int v[8], i, n;

	ck_assert_int_eq(m->n_pus, order_rows[_i].n);
	n = defaults_omp_places(m, v);
	ck_assert_int_eq(n, m->n_pus);
	for (i = 0; i < n; i++)
		ck_assert_msg(m->pus[v[i]].os_index ==
			      order_rows[_i].places[i], "line %d: place %d "
			      "is PU %d", order_rows[_i].line, i,
			      m->pus[v[i]].os_index);
	defaults_sweep_order(m, false, v);
	for (i = 0; i < n; i++)
		ck_assert_msg(m->pus[v[i]].os_index ==
			      order_rows[_i].packed[i], "line %d: packed %d "
			      "is PU %d", order_rows[_i].line, i,
			      m->pus[v[i]].os_index);
	defaults_sweep_order(m, true, v);
	for (i = 0; i < n; i++)
		ck_assert_msg(m->pus[v[i]].os_index ==
			      order_rows[_i].spread[i], "line %d: spread %d "
			      "is PU %d", order_rows[_i].line, i,
			      m->pus[v[i]].os_index);
	machine_free(m);
}
END_TEST

/* ---- rows and the summary ---------------------------------------- */

/* m->pus index of OS PU os */
static int pu(const struct pandia_machine *m, int os)
{
	int i = machine_pu_index(m, os);

	ck_assert_int_ge(i, 0);
	return i;
}

START_TEST(test_vset_rows)
{
	struct ranked_space rs;
	struct vset vs;
	int a[4], r0, r1, r2, r3, r4;

	ranked_space_make(&rs);
	vset_init(&vs, rs.sp);
	/* PUs are 2c, 2c+1 for core c; cores 0-3 socket 0, 4-7 socket 1 */
	a[0] = pu(rs.m, 0);
	r0 = vset_add(&vs, a, 1, true, VROLE_SELECTED);
	a[0] = pu(rs.m, 2);	/* another core: the same placement */
	r1 = vset_add(&vs, a, 1, true, VROLE_PACKED);
	a[0] = pu(rs.m, 9);	/* another socket: the same again */
	ck_assert_int_eq(vset_add(&vs, a, 1, true, 0), r0);
	ck_assert_int_eq(r1, r0);
	ck_assert_uint_eq(vs.rows[r0].roles, VROLE_SELECTED | VROLE_PACKED);
	a[0] = pu(rs.m, 0);
	a[1] = pu(rs.m, 1);	/* SMT siblings */
	r2 = vset_add(&vs, a, 2, true, 0);
	a[1] = pu(rs.m, 2);	/* two cores */
	r3 = vset_add(&vs, a, 2, true, 0);
	ck_assert_int_ne(r2, r0);
	ck_assert_int_ne(r3, r2);
	ck_assert_int_eq(vs.rows[r2].cores, 1);
	ck_assert_int_eq(vs.rows[r3].cores, 2);
	ck_assert_str_eq(vs.rows[r3].cpus, "0,2");
	/* unpinned is a row of its own, one per thread count */
	r4 = vset_add_default(&vs, "unpinned", a, 2, false);
	ck_assert_int_ne(r4, r3);
	ck_assert_int_eq(vset_add_default(&vs, "again", a, 2, false), r4);
	ck_assert_str_eq(vs.rows[r4].names, "unpinned; again");
	ck_assert_int_eq(vs.n_defaults, 2);
	/* beyond k = 1 per PU: not canonical, still one row */
	a[1] = pu(rs.m, 0);
	r1 = vset_add(&vs, a, 2, true, 0);
	ck_assert_ptr_null(vs.rows[r1].st);
	ck_assert_int_eq(vs.rows[r1].per_pu, 2);
	ck_assert_int_eq(vset_add(&vs, a, 2, true, 0), r1);
	ck_assert_int_eq(vs.n_rows, 5);
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

/*
 * Every placement of the space, added twice (the second time with the
 * sockets swapped): one row each, found again past the index's growth.
 */
START_TEST(test_vset_every)
{
	struct ranked_space rs;
	struct vset vs;
	size_t i;
	int *pus, n, j, row, half;

	ranked_space_make(&rs);
	ck_assert_uint_gt(rs.r.n, 64);
	half = rs.m->n_pus / 2;
	vset_init(&vs, rs.sp);
	for (i = 0; i < rs.r.n; i++) {
		n = space_pus(rs.sp, rank_state(&rs.r, i), &pus);
		ck_assert_int_eq(vset_add(&vs, pus, n, true, 0), (int)i);
		free(pus);
	}
	for (i = 0; i < rs.r.n; i++) {
		n = space_pus(rs.sp, rank_state(&rs.r, i), &pus);
		for (j = 0; j < n; j++)
			pus[j] = (pus[j] + half) % rs.m->n_pus;
		row = vset_add(&vs, pus, n, true, VROLE_SELECTED);
		ck_assert_int_eq(row, (int)i);
		ck_assert_uint_eq(vs.rows[row].roles, VROLE_SELECTED);
		free(pus);
	}
	ck_assert_int_eq(vs.n_rows, (int)rs.r.n);
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

static void set_measured(struct vrow *rw, double pred, double meas)
{
	rw->predicted = pred;
	rw->state = VROW_OK;
	rw->measured = rw->min = rw->max = meas;
	rw->reps = 1;
	rw->seconds = meas;
}

START_TEST(test_summary)
{
	struct ranked_space rs;
	struct vsummary s;
	struct vset vs;
	struct wl_run runs[3];
	double t1[] = { 1, 2, 3 }, t2[] = { 4 }, t3[] = { 100 };
	int a[2], ra, rb, rc, rd, re;
	char *csv;
	json_t *j;
	struct vinfo info;

	ranked_space_make(&rs);
	vset_init(&vs, rs.sp);
	a[0] = pu(rs.m, 0);
	a[1] = pu(rs.m, 1);
	ra = vset_add(&vs, a, 2, true, VROLE_SELECTED | VROLE_PICK);
	vs.pick = ra;
	a[1] = pu(rs.m, 2);
	rb = vset_add_default(&vs, "close", a, 2, true);
	vs.rows[rb].roles |= VROLE_PACKED;
	rc = vset_add_default(&vs, "unpinned", a, 2, false);
	a[1] = pu(rs.m, 8);
	rd = vset_add(&vs, a, 2, true, VROLE_SPREAD);
	re = vset_add(&vs, a, 1, true, VROLE_SELECTED);
	/*
	 * pick a: predicted 1, measured 1.2; b (close): predicted 2,
	 * measured 1.0, the best; c unpinned 1.5; d fails; e not run.
	 * Compared: a and b.  errors 0.2/1.2 = 0.1666667 and 1/1 = 1.
	 * best gap 1.2/1 - 1 = 0.2.  close: gap 0, pick vs it 0.2,
	 * beyond 1% noise: the pick is worse.  unpinned: gap 0.5, pick
	 * vs it 1.2/1.5 - 1 = -0.2.  The sweep: b (packed) and d
	 * (spread, failed): found the best, gap 0.
	 */
	set_measured(&vs.rows[ra], 1, 1.2);
	set_measured(&vs.rows[rb], 2, 1.0);
	set_measured(&vs.rows[rc], 1.5, 1.5);
	vs.rows[rd].state = VROW_FAILED;
	vs.rows[rd].error = xstrdup("exit status 3, \"quoted\"");
	vs.rows[rd].predicted = 3;
	vs.rows[re].predicted = 4;
	memset(runs, 0, sizeof(runs));
	runs[0].times = t1;
	runs[0].n_times = 3;
	runs[1].times = t2;
	runs[1].n_times = 1;
	/* a run pandia tune recorded is no profiling run */
	runs[2].purpose = (char *)"tune";
	runs[2].times = t3;
	runs[2].n_times = 1;
	vset_summarise(&vs, runs, 3, &s);
	ck_assert_int_eq(s.rows, 5);
	ck_assert_int_eq(s.measured, 3);
	ck_assert_int_eq(s.failed, 1);
	ck_assert_int_eq(s.pending, 1);
	ck_assert(s.have_metrics);
	ck_assert_int_eq(s.mt.n, 2);
	ck_assert_int_eq(s.mt.best, rb);
	ck_assert_int_eq(s.mt.pick, ra);
	ck_assert_double_eq_tol(s.mt.best_gap, 0.2, EPS);
	/* one run each: the gap's noise is the 1% floor */
	ck_assert_double_eq_tol(s.best_gap_noise, 0.01, EPS);
	/* the best of all is b too: pinned, so pinning won */
	ck_assert_int_eq(s.best_all, rb);
	ck_assert_double_eq_tol(s.best_gap_all, 0.2, EPS);
	ck_assert(!s.unpinned_beats_pick);
	ck_assert_double_eq_tol(s.mt.median_error, (1 / 6.0 + 1) / 2, EPS);
	ck_assert_int_eq(s.n_heur, 2);
	ck_assert_str_eq(s.heur[0].name, "close");
	ck_assert_double_eq_tol(s.heur[0].gap, 0, EPS);
	ck_assert_double_eq_tol(s.heur[0].pick_vs, 0.2, EPS);
	ck_assert(s.heur[0].pick_worse);
	ck_assert_double_eq_tol(s.heur[1].gap, 0.5, EPS);
	ck_assert_double_eq_tol(s.heur[1].pick_vs, -0.2, EPS);
	ck_assert(!s.heur[1].pick_worse);
	ck_assert(s.sweep);
	ck_assert_int_eq(s.sweep_rows, 2);
	ck_assert_int_eq(s.sweep_measured, 1);
	ck_assert(s.sweep_found);
	ck_assert_double_eq_tol(s.sweep_gap, 0, EPS);
	/* profiling: medians 2 and 4, all runs 1+2+3+4 */
	ck_assert_double_eq_tol(s.profile_pass, 6, EPS);
	ck_assert_double_eq_tol(s.profile_seconds, 10, EPS);

	/* the files carry every row, the failure quoted */
	csv = vset_to_csv(&vs, &s);
	ck_assert_ptr_nonnull(strstr(csv, "x,threads,cores,sockets,per_pu,"
				     "cpus,pinned,roles,defaults,"));
	ck_assert_ptr_nonnull(strstr(csv, "\"exit status 3, \"\"quoted\"\""
				     "\"\n"));
	ck_assert_ptr_nonnull(strstr(csv, ",not run,"));
	{
		int lines = 0;
		const char *p;

		for (p = csv; *p; p++)
			lines += *p == '\n';
		ck_assert_int_eq(lines, 1 + 5);
	}
	free(csv);
	memset(&info, 0, sizeof(info));
	info.machine_file = "m.json";
	info.workload_file = "w.json";
	info.placements = "all";
	j = vset_to_json(&vs, &s, &info);
	ck_assert_double_eq_tol(json_real_value(json_object_get(
		json_object_get(j, "metrics"), "best_gap")), 0.2, EPS);
	ck_assert_ptr_nonnull(json_object_get(json_object_get(j, "metrics"),
					      "offset_error"));
	ck_assert_ptr_nonnull(json_object_get(json_object_get(j, "metrics"),
					      "spearman"));
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(
		json_object_get(j, "heuristics"), 1), "name")), "unpinned");
	ck_assert_double_eq_tol(json_real_value(json_object_get(
		json_array_get(json_object_get(j, "heuristics"), 1), "gap")),
		0.5, EPS);
	ck_assert_int_eq(json_array_size(json_object_get(j, "rows")), 5);
	json_decref(j);
	{
		char *gp = vset_gnuplot_script(&vs, &s, "v.png", "t \"q\"");

		ck_assert_ptr_nonnull(gp);
		ck_assert_ptr_nonnull(strstr(gp, "set output \"v.png\""));
		ck_assert_ptr_nonnull(strstr(gp, "\"t \\\"q\\\"\""));
		free(gp);
	}
	vsummary_release(&s);
	/*
	 * b's runs spread from 0.8 to 1.3 s: the gap of 0.2 is within
	 * their noise, 0.5 (the larger of a's 0 and b's 0.5)
	 */
	vs.rows[rb].min = 0.8;
	vs.rows[rb].max = 1.3;
	vset_summarise(&vs, runs, 3, &s);
	ck_assert_double_eq_tol(s.mt.best_gap, 0.2, EPS);
	ck_assert_double_eq_tol(s.best_gap_noise, 0.5, EPS);
	j = vset_to_json(&vs, &s, &info);
	ck_assert_double_eq_tol(json_real_value(json_object_get(
		json_object_get(j, "metrics"), "best_gap_noise")), 0.5, EPS);
	json_decref(j);
	vsummary_release(&s);
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

/*
 * The OS scheduler faster than every pinned placement: the paper's
 * best gap (pinned rows only) says 0, the best of everything measured
 * says how far the pick is, and that an unpinned run beat it; within
 * the noise it does not.
 */
START_TEST(test_summary_unpinned_best)
{
	struct ranked_space rs;
	struct vsummary s;
	struct vset vs;
	int a[2], ra, ru;
	json_t *j, *b;
	struct vinfo info;

	ranked_space_make(&rs);
	vset_init(&vs, rs.sp);
	a[0] = pu(rs.m, 0);
	a[1] = pu(rs.m, 2);
	ra = vset_add(&vs, a, 2, true, VROLE_SELECTED | VROLE_PICK);
	vs.pick = ra;
	ru = vset_add_default(&vs, "all PUs, unpinned", a, 2, false);
	set_measured(&vs.rows[ra], 1, 1.10);
	set_measured(&vs.rows[ru], 1, 1.00);
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert(s.have_metrics);
	ck_assert_int_eq(s.mt.best, ra);
	ck_assert_double_eq_tol(s.mt.best_gap, 0, EPS);
	ck_assert_int_eq(s.best_all, ru);
	ck_assert_double_eq_tol(s.best_gap_all, 0.1, EPS);
	ck_assert(s.unpinned_beats_pick);
	memset(&info, 0, sizeof(info));
	j = vset_to_json(&vs, &s, &info);
	b = json_object_get(j, "best_of_all");
	ck_assert_ptr_nonnull(b);
	ck_assert(json_is_false(json_object_get(b, "pinned")));
	ck_assert(json_is_true(json_object_get(b, "beats_pick")));
	ck_assert_double_eq_tol(json_real_value(json_object_get(b,
		"gap_of_pick")), 0.1, EPS);
	json_decref(j);
	vsummary_release(&s);

	/* within the noise of the two rows' repetitions: no winner */
	vs.rows[ra].min = 1.0;
	vs.rows[ra].max = 1.25;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.best_all, ru);
	ck_assert(!s.unpinned_beats_pick);
	vsummary_release(&s);
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

/*
 * Three pinned rows with ranges: the pick (2 threads, 0.9 to 1.1 s), a
 * one-thread row (1.8 to 2.2 s) and another 2-thread row (0.95 to 1.2
 * s), into R.  Their times are the test's to set.
 */
static void ranged_rows(struct ranked_space *rs, struct vset *vs, int *r)
{
	int a[2];

	ranked_space_make(rs);
	vset_init(vs, rs->sp);
	a[0] = pu(rs->m, 0);
	a[1] = pu(rs->m, 2);
	r[0] = vset_add(vs, a, 2, true, VROLE_SELECTED | VROLE_PICK);
	vs->pick = r[0];
	r[1] = vset_add(vs, a, 1, true, VROLE_SELECTED);
	a[1] = pu(rs->m, 1);
	r[2] = vset_add(vs, a, 2, true, VROLE_SELECTED);
	vs->rows[r[0]].lo = 0.9, vs->rows[r[0]].hi = 1.1;
	vs->rows[r[1]].lo = 1.8, vs->rows[r[1]].hi = 2.2;
	vs->rows[r[2]].lo = 0.95, vs->rows[r[2]].hi = 1.2;
}

/*
 * The stated ranges against what was measured: two of three pinned
 * rows inside theirs; the best measured, not the pick, counts as tied
 * with it only when its range without t1's part reaches the pick's.
 */
START_TEST(test_summary_ranges)
{
	struct ranked_space rs;
	struct vsummary s;
	struct vset vs;
	int row[3], r1, r2, r3;
	struct vinfo info;
	json_t *j, *mt;

	ranged_rows(&rs, &vs, row);
	r1 = row[0], r2 = row[1], r3 = row[2];
	set_measured(&vs.rows[r1], 1.0, 1.05);	/* inside */
	set_measured(&vs.rows[r2], 2.0, 2.50);	/* outside */
	set_measured(&vs.rows[r3], 1.1, 1.00);	/* inside, the best */
	vs.rows[r1].tie_lo = 0.95, vs.rows[r1].tie_hi = 1.05;
	vs.rows[r3].tie_lo = 1.06, vs.rows[r3].tie_hi = 1.15;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.mt.best, r3);
	ck_assert_int_eq(s.range_rows, 3);
	ck_assert_int_eq(s.range_in, 2);
	ck_assert(!s.best_tied);
	memset(&info, 0, sizeof(info));
	j = vset_to_json(&vs, &s, &info);
	mt = json_object_get(j, "metrics");
	ck_assert_double_eq_tol(json_real_value(json_object_get(mt,
		"range_coverage")), 2.0 / 3, EPS);
	ck_assert(json_is_false(json_object_get(mt, "best_tied")));
	{
		json_t *rows = json_object_get(j, "rows"), *r;
		size_t k;
		int out = 0;

		json_array_foreach(rows, k, r)
			out += json_is_false(json_object_get(r, "in_range"));
		ck_assert_int_eq(out, 1);
	}
	json_decref(j);
	vsummary_release(&s);
	/* its range reaches the pick's: said to tie */
	vs.rows[r3].tie_lo = 1.04;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert(s.best_tied);
	vsummary_release(&s);
	/* ranges of no width (a saturated level's plateau): times the
	   model cannot tell apart (3e-7) tie; 1e-4 apart they do not */
	vs.rows[r3].predicted = 1.0000003;
	vs.rows[r1].tie_lo = vs.rows[r1].tie_hi = 1.0;
	vs.rows[r3].tie_lo = vs.rows[r3].tie_hi = 1.0000003;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert(s.best_tied);
	vsummary_release(&s);
	vs.rows[r3].predicted = vs.rows[r3].tie_lo = 1.0001;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert(!s.best_tied);
	vsummary_release(&s);
	/* no ranges stated: nothing counted, nothing in the file */
	vs.rows[r1].lo = vs.rows[r2].lo = vs.rows[r3].lo = NAN;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.range_rows, 0);
	j = vset_to_json(&vs, &s, &info);
	ck_assert_ptr_null(json_object_get(json_object_get(j, "metrics"),
					   "range_coverage"));
	json_decref(j);
	vsummary_release(&s);
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

/* Row rw measured with the runs t[0..n-1], one a round. */
static void set_runs(struct vrow *rw, const double *t, int n)
{
	int j;

	rw->state = VROW_OK;
	rw->reps = n;
	rw->times = xcalloc((size_t)n, sizeof(double));
	memcpy(rw->times, t, sizeof(double) * (size_t)n);
	rw->measured = median_of(rw->times, n);
	rw->min = rw->max = t[0];
	for (j = 1; j < n; j++) {
		rw->min = fmin(rw->min, t[j]);
		rw->max = fmax(rw->max, t[j]);
	}
}

/*
 * The host's speed in each round: two rows run in each of three
 * rounds at 1.0, 0.9 and 1.1 of their medians; a third, run in two
 * rounds only, is left out.  One run each: no rounds to compare.
 */
START_TEST(test_summary_rounds)
{
	const double a[3] = { 1.0, 0.9, 1.1 }, b[3] = { 2.0, 1.8, 2.2 };
	const double c[2] = { 1.0, 2.0 };
	struct ranked_space rs;
	struct vsummary s;
	struct vset vs;
	struct vinfo info;
	int row[3];
	json_t *j, *r;

	ranged_rows(&rs, &vs, row);
	set_runs(&vs.rows[row[0]], a, 3);
	set_runs(&vs.rows[row[1]], b, 3);
	set_runs(&vs.rows[row[2]], c, 2);
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.n_rounds, 3);
	ck_assert_int_eq(s.round_rows, 2);
	ck_assert_double_eq_tol(s.round_level[0], 1.0, EPS);
	ck_assert_double_eq_tol(s.round_level[1], 0.9, EPS);
	ck_assert_double_eq_tol(s.round_level[2], 1.1, EPS);
	ck_assert_double_eq_tol(s.round_move, 1.1 / 0.9 - 1, EPS);
	memset(&info, 0, sizeof(info));
	j = vset_to_json(&vs, &s, &info);
	r = json_object_get(json_object_get(j, "metrics"), "rounds");
	ck_assert_int_eq(json_array_size(json_object_get(r, "levels")), 3);
	ck_assert_double_eq_tol(json_real_value(json_object_get(r, "move")),
				1.1 / 0.9 - 1, EPS);
	json_decref(j);
	vsummary_release(&s);
	vs.rows[row[0]].reps = vs.rows[row[1]].reps = 1;
	vs.rows[row[2]].reps = 1;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.n_rounds, 0);
	ck_assert_ptr_null(s.round_level);
	vsummary_release(&s);
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

/*
 * The host moved since the profile: the one-thread row measured 1.25
 * times its prediction, outside its range.  The other rows are counted
 * again with their times divided by 1.25: where more fall inside, the
 * move explains the misses; where no more do, it does not.  Inside its
 * range, nothing is said.
 */
START_TEST(test_summary_host_move)
{
	struct ranked_space rs;
	struct vsummary s;
	struct vset vs;
	int row[3], r1, r2, r3;
	struct vinfo info;
	json_t *j, *mv;

	ranged_rows(&rs, &vs, row);
	r1 = row[0], r2 = row[1], r3 = row[2];
	set_measured(&vs.rows[r1], 1.0, 1.25);	/* 1.0 moved: in */
	set_measured(&vs.rows[r2], 2.0, 2.50);	/* the move: 1.25 */
	set_measured(&vs.rows[r3], 1.1, 1.35);	/* 1.08 moved: in */
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.range_in, 0);
	ck_assert_int_eq(s.move_row, r2);
	ck_assert_double_eq_tol(s.move, 1.25, EPS);
	ck_assert_int_eq(s.move_rows, 2);
	ck_assert_int_eq(s.move_in, 2);
	ck_assert(s.move_explains);
	memset(&info, 0, sizeof(info));
	j = vset_to_json(&vs, &s, &info);
	mv = json_object_get(json_object_get(j, "metrics"), "host_move");
	ck_assert_ptr_nonnull(mv);
	ck_assert_double_eq_tol(json_real_value(json_object_get(mv,
		"ratio")), 1.25, EPS);
	ck_assert_double_eq_tol(json_real_value(json_object_get(mv,
		"range_coverage")), 1.0, EPS);
	ck_assert(json_is_true(json_object_get(mv, "explains")));
	ck_assert_str_eq(json_string_value(json_object_get(mv,
		"cpus_text")), vs.rows[r2].cpus);
	json_decref(j);
	vsummary_release(&s);
	/* the first row 1.05, inside without the move (0.84 with it): the
	   move brings no more inside, so it explains nothing */
	vs.rows[r1].measured = vs.rows[r1].min = vs.rows[r1].max = 1.05;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.range_in, 1);
	ck_assert_int_eq(s.move_in, 1);
	ck_assert(!s.move_explains);
	vsummary_release(&s);
	/* inside its range: no move, nothing in the file */
	vs.rows[r2].measured = vs.rows[r2].min = vs.rows[r2].max = 2.1;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.move_row, -1);
	ck_assert(isnan(s.move));
	ck_assert_int_eq(s.move_rows, 0);
	j = vset_to_json(&vs, &s, &info);
	ck_assert_ptr_null(json_object_get(json_object_get(j, "metrics"),
					   "host_move"));
	json_decref(j);
	vsummary_release(&s);
	/* no range stated for it: nothing said either */
	vs.rows[r2].measured = vs.rows[r2].min = vs.rows[r2].max = 2.5;
	vs.rows[r2].lo = NAN;
	vset_summarise(&vs, NULL, 0, &s);
	ck_assert_int_eq(s.move_row, -1);
	vsummary_release(&s);
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

START_TEST(test_figure_order)
{
	struct ranked_space rs;
	struct pandia_error err;
	struct vset vs;
	void *st;
	int a[3], order[8], i;

	ranked_space_make(&rs);
	vset_init(&vs, rs.sp);
	/* added out of order: 3 threads, 2 on one core, 1, 2 on two
	   cores, unpinned 2, 2 on one core */
	a[0] = pu(rs.m, 0);
	a[1] = pu(rs.m, 1);
	a[2] = pu(rs.m, 2);
	vset_add(&vs, a, 3, true, 0);		/* row 0 */
	vset_add(&vs, a, 1, true, 0);		/* row 1 */
	a[1] = pu(rs.m, 2);
	vset_add(&vs, a, 2, true, 0);		/* row 2: two cores */
	vset_add(&vs, a, 2, false, 0);		/* row 3: unpinned */
	a[1] = pu(rs.m, 1);
	vset_add(&vs, a, 2, true, 0);		/* row 4: one core */
	st = model_pandia_open_params(rs.m, &rs.prm, NULL, &err);
	ck_assert_ptr_nonnull(st);
	ck_assert_int_eq(vset_predict(&vs, &model_pandia, st, &err), 0);
	model_pandia.close(st);
	vset_figure_order(&vs, order);
	/* 1 thread; 2 on two cores; 2 on one core; 3; unpinned last */
	ck_assert_int_eq(order[0], 1);
	ck_assert_int_eq(order[1], 2);
	ck_assert_int_eq(order[2], 4);
	ck_assert_int_eq(order[3], 0);
	ck_assert_int_eq(order[4], 3);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(vs.rows[order[i]].x, i + 1);
		ck_assert(vs.rows[order[i]].predicted > 0);
	}
	vset_release(&vs);
	ranked_space_free(&rs);
}
END_TEST

static Suite *validate_suite(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("validate");

	tcase_add_loop_test(tc, test_metrics, 0, ARRAY_SIZE(metric_rows));
	tcase_add_test(tc, test_metrics_refused);
	tcase_add_loop_test(tc, test_ranks, 0, ARRAY_SIZE(rank_rows));
	tcase_add_test(tc, test_spearman);
	tcase_add_loop_test(tc, test_vsel_parse, 0, ARRAY_SIZE(sel_rows));
	tcase_add_test(tc, test_vsel_choose);
	tcase_add_loop_test(tc, test_omp_bind, 0, ARRAY_SIZE(bind_rows));
	tcase_add_loop_test(tc, test_orders, 0, ARRAY_SIZE(order_rows));
	tcase_add_test(tc, test_vset_rows);
	tcase_add_test(tc, test_vset_every);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_summary_unpinned_best);
	tcase_add_test(tc, test_summary_ranges);
	tcase_add_test(tc, test_summary_host_move);
	tcase_add_test(tc, test_summary_rounds);
	tcase_add_test(tc, test_figure_order);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { validate_suite, NULL };
