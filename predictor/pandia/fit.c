/*
 * fit.c - section 4 of the Pandia paper: the six profiling runs'
 * placements and the parameters they give, solved by running the
 * model of section 5 (model.h) backwards (predictor/pandia/fit.h,
 * docs/profiling.md).
 */
#include "predictor/pandia/fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine.h"
#include "common/util.h"
#include "predictor/pandia/params.h"

/* A co-runner that slows the workload by less than this tells no l. */
#define MIN_CORUN_SLOWDOWN 0.02
/* Bisection steps: the range shrinks by 2^-BISECT_STEPS. */
#define BISECT_STEPS 48

/* ---- the placements ---------------------------------------------- */

static void plan_set(struct fit_plan *pl, int x, const int *pus, int n)
{
	pl->made[x] = true;
	pl->n_pus[x] = n;
	pl->pus[x] = xmalloc(sizeof(int) * (size_t)n);
	memcpy(pl->pus[x], pus, sizeof(int) * (size_t)n);
}

/*
 * The largest load on any resource of placement PUS with every thread
 * fully busy (p = 1, no other parameter): above 1, something is
 * oversubscribed.  *what gets the resource's name.
 */
static double max_load(const struct space *sp, const struct model_params *b,
		       const int *pus, int n, char *what, int size)
{
	struct model_params prm = *b;
	struct model md;
	double mx = 0;
	int c;

	prm.p = 1;
	prm.o_s = prm.l = prm.b = 0;
	model_init(&md, sp, &prm);
	model_build_pus(&md, pus, n);
	model_solve(&md);
	*what = 0;
	for (c = 0; c < md.n_classes; c++)
		if (md.rawmax[c] > mx) {
			mx = md.rawmax[c];
			if (md.bott[c] >= 0)
				model_res_name(&md, md.bott[c], what, size);
		}
	model_release(&md);
	return mx;
}

int fit_plan_make(struct fit_plan *pl, const struct pandia_machine *m,
		      const struct model_params *base,
		      struct pandia_error *err)
{
	return fit_plan_make_at(pl, m, base, 0, err);
}

/* The first PU of each of the first N cores of socket 0, into V. */
static void first_pus(const struct pandia_machine *m, int *v, int n)
{
	const struct pandia_socket *s0 = &m->sockets[0];
	int i;

	for (i = 0; i < n; i++)
		v[i] = m->cores[s0->cores[i]].pus[0];
}

/*
 * Run 2: the largest even count that oversubscribes nothing (or the
 * count the runs were made with, N_RUNS >= 2), one thread a core on
 * socket 0; pl->n_note says why it is fewer than the socket allows.
 * V is scratch of 2 cores + 2.
 */
static void plan_run2(struct fit_plan *pl, const struct model_params *base,
		      int n_runs, int *v)
{
	const struct pandia_machine *m = pl->m;
	int nc = m->sockets[0].n_cores, n;
	char what[128] = "", first_what[128] = "";
	double load = 0, first_load = 0;

	for (n = nc & ~1; n >= 2; n -= 2) {
		first_pus(m, v, n);
		load = max_load(pl->sp, base, v, n, what, sizeof(what));
		if (n == (nc & ~1)) {
			first_load = load;
			memcpy(first_what, what, sizeof(what));
		}
		if (n_runs >= 2 ? n == n_runs : load <= 1 + 1e-9)
			break;
	}
	if (n < 2) {
		n = 2;
		first_pus(m, v, n);
		pl->n_note = xasprintf("2 threads, though 2 already "
				       "oversubscribe the %s (load %.3g): "
				       "the run is not free of contention, "
				       "and the parameters fitted from it "
				       "include that contention", what, load);
	} else if (n < (nc & ~1)) {
		pl->n_note = xasprintf("%d threads, since %d would "
				       "oversubscribe the %s (load %.3g)", n,
				       nc & ~1, first_what, first_load);
	}
	pl->n = n;
	plan_set(pl, PR2, v, n);
}

/* H threads a socket on the first cores of sockets 0 and 1, into V. */
static void split_pus(const struct pandia_machine *m, int *v, int h)
{
	const struct pandia_socket *s0 = &m->sockets[0];
	const struct pandia_socket *s1 = &m->sockets[1];
	int i;

	for (i = 0; i < h; i++) {
		v[i] = m->cores[s0->cores[i]].pus[0];
		v[h + i] = m->cores[s1->cores[i]].pus[0];
	}
}

/* Runs 3 and 7: run 2's count over two sockets, then a second split
   at another thread count. */
static void plan_cross_socket(struct fit_plan *pl, int *v)
{
	const struct pandia_machine *m = pl->m;
	int n = pl->n, nc = m->sockets[0].n_cores;

	if (m->n_sockets < 2) {
		pl->why_not[PR3] = xstrdup("this machine has one socket");
	} else {
		int h = n / 2;

		if (m->sockets[1].n_cores < h)
			h = m->sockets[1].n_cores;
		split_pus(m, v, h);
		if (h < 1)
			pl->why_not[PR3] = xstrdup("socket 1 has no core");
		else
			plan_set(pl, PR3, v, 2 * h);
	}

	if (pl->made[PR3]) {
		int h = n > 2 ? 1 : 2;

		if (m->sockets[1].n_cores < h || nc < h) {
			pl->why_not[PR7] = xasprintf("socket 1 has fewer than "
						     "%d cores", h);
		} else {
			split_pus(m, v, h);
			plan_set(pl, PR7, v, 2 * h);
		}
	} else {
		pl->why_not[PR7] = xstrdup(pl->why_not[PR3]);
	}
}

/* Runs 4, 5 and 8: run 2 with co-runners beside all its threads (4),
   its last one (5) or its first (8), on the other PU of the core or
   the same PU. */
static void plan_coruns(struct fit_plan *pl)
{
	static const int runs[] = { PR4, PR5, PR8 };
	const struct pandia_machine *m = pl->m;
	int n = pl->n, i, k;

	for (k = 0; k < 3; k++) {
		int x = runs[k], from = x == PR5 ? n - 1 : 0;
		int to = x == PR8 ? 1 : n;

		plan_set(pl, x, pl->pus[PR2], n);
		pl->beside[x] = xcalloc((size_t)n, sizeof(bool));
		pl->corun[x] = xcalloc((size_t)n, sizeof(int));
		for (i = from; i < to; i++) {
			const struct pandia_core *co =
				&m->cores[m->pus[pl->pus[x][i]].core];

			pl->beside[x][i] = true;
			pl->corun[x][pl->n_corun[x]++] =
				pl->smt ? co->pus[1] : co->pus[0];
		}
	}
}

/* Run 6: run 2's count packed two to a core (no SMT: two to a PU). */
static void plan_packed(struct fit_plan *pl, int *v)
{
	const struct pandia_machine *m = pl->m;
	const struct pandia_socket *s0 = &m->sockets[0];
	int i;

	for (i = 0; i < pl->n / 2; i++) {
		const struct pandia_core *co = &m->cores[s0->cores[i]];

		v[2 * i] = co->pus[0];
		v[2 * i + 1] = pl->smt ? co->pus[1] : co->pus[0];
	}
	plan_set(pl, PR6, v, pl->n);
}

int fit_plan_make_at(struct fit_plan *pl, const struct pandia_machine *m,
		     const struct model_params *base, int n_runs,
		     struct pandia_error *err)
{
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	const struct pandia_socket *s0;
	int *v = NULL, i, nc, ret = -1;

	memset(pl, 0, sizeof(*pl));
	pl->m = m;
	if (m->n_sockets < 1 || m->sockets[0].n_cores < 2) {
		perr_set(err, "profiling needs two cores on one socket; "
			 "socket 0 of this machine has %d",
			 m->n_sockets < 1 ? 0 : m->sockets[0].n_cores);
		goto out;
	}
	pl->sp = space_new(m, 2, &mem, err);
	if (!pl->sp)
		goto out;
	s0 = &m->sockets[0];
	nc = s0->n_cores;
	pl->smt = true;
	for (i = 0; i < nc; i++)
		if (m->cores[s0->cores[i]].n_pus < 2)
			pl->smt = false;
	v = xcalloc((size_t)(2 * nc + 2), sizeof(int));

	/* run 1: one thread on the first core */
	v[0] = m->cores[s0->cores[0]].pus[0];
	plan_set(pl, PR1, v, 1);
	plan_run2(pl, base, n_runs, v);
	plan_cross_socket(pl, v);
	plan_coruns(pl);
	plan_packed(pl, v);
	ret = 0;
out:
	free(v);
	if (ret < 0)
		fit_plan_release(pl);
	return ret;
}

/*
 * Whether l (b) changes the time of any placement of at most K
 * threads per PU on m: l acts only between threads that run at
 * different speeds, b only between threads sharing a core.  A machine
 * the space cannot describe gets true (nothing left out).
 */
static void decides(const struct pandia_machine *m, int k, bool *l, bool *b)
{
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct pandia_error err;
	struct space *sp = space_new(m, k, &mem, &err);
	int g;

	*l = *b = true;
	if (!sp)
		return;
	*l = !space_threads_alike(sp);
	*b = k > 1;
	for (g = 0; g < sp->n_groups; g++)
		if (sp->groups[g].n_pus > 1)
			*b = true;
	space_free(sp);
}

bool fit_l_decides(const struct pandia_machine *m, int k)
{
	bool l, b;

	decides(m, k, &l, &b);
	return l;
}

bool fit_b_decides(const struct pandia_machine *m, int k)
{
	bool l, b;

	decides(m, k, &l, &b);
	return b;
}

/* Why a parameter was not measured: its status less "not measured: ". */
static const char *why_not_measured(const struct wl_param *q)
{
	const char *s = q->status ? q->status : "no reason given";

	return !strncmp(s, "not measured: ", 14) ? s + 14 : s;
}

void fit_unmeasured(const struct pandia_workload *w,
		    const struct pandia_machine *m, int k,
		    void (*say)(void *arg, const char *text), void *arg)
{
	const struct pandia_params *pp = pandia_params(w);
	bool l, b;
	char *t;

	decides(m, k, &l, &b);
	if (!pp->o_s.known && m->n_sockets > 1) {
		t = xasprintf("o_s was not measured (%s; on the machine "
			      "profiled): predicting without inter-socket "
			      "overhead", why_not_measured(&pp->o_s));
		say(arg, t);
		free(t);
	}
	if (!pp->l.known && l) {
		t = xasprintf("l was not measured (%s; on the machine "
			      "profiled): predicting with l = 0 (lock-step)",
			      why_not_measured(&pp->l));
		say(arg, t);
		free(t);
	}
	if (!pp->b.known && b) {
		t = xasprintf("b was not measured (%s; on the machine "
			      "profiled): predicting without burstiness",
			      why_not_measured(&pp->b));
		say(arg, t);
		free(t);
	}
}

static void leave_out(struct fit_plan *pl, int x, const char *why)
{
	if (!pl->made[x])
		return;
	pl->made[x] = false;
	free(pl->why_not[x]);
	pl->why_not[x] = xstrdup(why);
}

int fit_quick_left_out(const struct pandia_machine *m)
{
	bool l, b;

	decides(m, 1, &l, &b);
	return (l ? 0 : 3) + (b ? 0 : 1);
}

int fit_plan_quick(struct fit_plan *pl)
{
	bool l, b;
	int n = 0;

	decides(pl->m, 1, &l, &b);
	if (!l) {
		const char *why = "--quick left out runs 4, 5 and 8: l "
			"changes no placement with one thread per PU on this "
			"machine (one socket, one kind of core, no SMT: the "
			"threads are alike); profile without --quick for "
			"placements that time-share a PU (-k 2)";

		n += pl->made[PR4] + pl->made[PR5] + pl->made[PR8];
		leave_out(pl, PR4, why);
		leave_out(pl, PR5, why);
		leave_out(pl, PR8, why);
	}
	if (!b) {
		n += pl->made[PR6];
		leave_out(pl, PR6, "--quick left out run 6: b changes no "
			  "placement with one thread per PU on this machine "
			  "(no SMT: no two threads share a core); profile "
			  "without --quick for placements that time-share a "
			  "PU (-k 2)");
	}
	return n;
}

int fit_plan_set_memory(struct fit_plan *pl,
			const struct pandia_mempolicy *mem,
			struct pandia_error *err)
{
	struct space *sp = space_new(pl->m, 2, mem, err);

	if (!sp)
		return -1;
	space_free(pl->sp);
	pl->sp = sp;
	return 0;
}

void fit_plan_release(struct fit_plan *pl)
{
	int x;

	if (!pl)
		return;
	space_free(pl->sp);
	free(pl->n_note);
	for (x = 0; x < FIT_RUNS; x++) {
		free(pl->why_not[x]);
		free(pl->pus[x]);
		free(pl->beside[x]);
		free(pl->corun[x]);
	}
	memset(pl, 0, sizeof(*pl));
}

const char *fit_run_id(int x)
{
	static const char *const ids[FIT_RUNS] = {
		"run1", "run2", "run3", "run4", "run5", "run6", "run7", "run8"
	};

	return x >= 0 && x < FIT_RUNS ? ids[x] : "";
}

/* ---- the partial model ------------------------------------------- */

double fit_model_time(const struct fit_plan *pl,
			  const struct model_params *prm, int x, double corun,
			  double *f0, double *f)
{
	struct model md;
	double t;

	model_init(&md, pl->sp, prm);
	if (model_build_pus(&md, pl->pus[x], pl->n_pus[x]) < 0) {
		model_release(&md);
		return NAN;
	}
	if (corun > 1 && pl->beside[x])
		model_corun(&md, pl->beside[x], corun);
	model_solve(&md);
	t = md.time;
	if (f0)
		*f0 = model_mean_f0(&md);
	if (f)
		*f = model_mean_f(&md);
	model_release(&md);
	return t;
}

/* Whether the model applies b to any thread of run x. */
static bool run_shares_core(const struct fit_plan *pl,
			    const struct model_params *prm, int x)
{
	struct model md;
	bool shared;

	model_init(&md, pl->sp, prm);
	model_build_pus(&md, pl->pus[x], pl->n_pus[x]);
	shared = model_shares_core(&md);
	model_release(&md);
	return shared;
}

/* One unknown of the partial model, and the run that measures it. */
enum unknown { U_P, U_OS, U_CORUN, U_L, U_B };

struct unknown_fit {
	const struct fit_plan *pl;
	struct model_params prm;
	int x;			/* the run */
	enum unknown what;
	double corun;		/* for runs 4 and 5 */
};

static double unknown_time(const struct unknown_fit *ft, double v)
{
	struct model_params prm = ft->prm;
	double corun = ft->corun;

	switch (ft->what) {
	case U_P:
		prm.p = v;
		break;
	case U_OS:
		prm.o_s = v;
		break;
	case U_CORUN:
		corun = v;
		break;
	case U_L:
		prm.l = v;
		break;
	case U_B:
		prm.b = v;
		break;
	}
	return fit_model_time(ft->pl, &prm, ft->x, corun, NULL, NULL);
}

/*
 * The value in [lo, hi] for which the partial model predicts TARGET
 * seconds for the run.  The model's time is monotonic in the unknown,
 * increasing when INC; when GROW, hi doubles (up to HMAX) until the
 * target is inside.  *clamped: -1 when the answer is lo because no value
 * in the range reaches down to the target (for INC; up to it for !INC),
 * +1 when it is hi because none reaches that far the other way, else 0.
 * *at_bound (when not NULL): for a clamped answer, the model's time of
 * the run at the bound returned; else 0.
 */
static double unknown_solve(const struct unknown_fit *ft, double lo, double hi,
			double hmax, bool inc, double target, int *clamped,
			double *at_bound)
{
	double sgn = inc ? 1 : -1, flo, fhi;
	int i;

	*clamped = 0;
	if (at_bound)
		*at_bound = 0;
	flo = sgn * unknown_time(ft, lo);
	fhi = sgn * unknown_time(ft, hi);
	target *= sgn;
	if (!(target > flo)) {
		*clamped = -1;
		if (at_bound)
			*at_bound = sgn * flo;
		return lo;
	}
	while (fhi < target && hi < hmax) {
		lo = hi;
		hi *= 2;
		fhi = sgn * unknown_time(ft, hi);
	}
	if (fhi < target) {
		*clamped = 1;
		if (at_bound)
			*at_bound = sgn * fhi;
		return hi;
	}
	for (i = 0; i < BISECT_STEPS; i++) {
		double mid = (lo + hi) / 2;

		if (sgn * unknown_time(ft, mid) < target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

void fit_solution_release(struct fit_solution *s)
{
	if (!s)
		return;
	free(s->p_status);
	free(s->o_s_status);
	free(s->l_status);
	free(s->b_status);
	free(s->form_status);
	free(s->serial_status);
	memset(s, 0, sizeof(*s));
}

/* k, u and f of run x under the partial model prm (corun for 4, 5) */
static double step_of(struct fit_solution *s,
		      const struct fit_plan *pl,
		      const struct model_params *prm, const double *t, int x,
		      double corun, double *f0)
{
	struct fit_step *st = &s->step[x];
	double tm = fit_model_time(pl, prm, x, corun, f0, &st->f);

	st->r = t[x] / t[PR1];
	st->k = tm / t[PR1];
	st->u = st->r / st->k;
	return tm;
}

/* Run 2 beats the clock by more than this: twice a run's least noise. */
#define CLOCK_MARGIN 0.02

/*
 * Where run 2 was faster than the model allows with p = 1: whether the
 * description's lower clock with run 2's cores busy is more than run 2
 * allows by itself (R2 = t2 / t1 of N threads on N cores); fills
 * s->clock_run2 and s->clock_allowed and returns the text to add to
 * p's status ("" when not so; a new string).
 */
static char *clock_contradicted(const struct fit_plan *pl, double r2,
				double n, struct fit_solution *s)
{
	const struct pandia_machine *m = pl->m;
	int x0 = pl->n_pus[PR2] > 0 ? pl->pus[PR2][0] : -1;
	double q, most = n * r2;

	if (x0 < 0)
		return xstrdup("");
	q = machine_clock_slowdown(m, m->cores[m->pus[x0].core].socket,
				   pl->n_pus[PR2]);
	if (!(q > 1) || !(q > most * (1 + CLOCK_MARGIN)))
		return xstrdup("");
	s->clock_run2 = q;
	s->clock_allowed = most > 1 ? most : 1;
	return xasprintf("; the description's clock with %d cores busy "
			 "(core.all_busy_rate, %.1f%% of a lone core's) "
			 "alone makes it at most %.3g times: the machine "
			 "may have been measured while the host was busy "
			 "('pandia machine' measures it again)",
			 pl->n_pus[PR2], 100 / q, n / q);
}

/* Step 2 (section 4.2): p from run 2. */
static void solve_p(const struct fit_plan *pl, struct model_params *prm,
		    const double *t, enum fit_mode mode,
		    struct fit_solution *s)
{
	struct unknown_fit ft = { pl, *prm, PR2, U_P, 1 };
	struct fit_step *st = &s->step[PR2];
	double n = pl->n_pus[PR2], tm, u2;
	int cl;

	/* k2: the contention the model sees with every thread busy */
	ft.prm.p = 1;
	tm = fit_model_time(pl, &ft.prm, PR2, 1, NULL, &st->f);
	st->r = t[PR2] / t[PR1];
	st->k = tm / (t[PR1] / n);
	st->u = u2 = st->r / st->k;
	s->paper_p = (1 - u2) / (1 - 1 / n);
	if (mode == FIT_PAPER) {
		s->p = clamp01(s->paper_p);
		cl = s->paper_p < 0 ? -1 : s->paper_p > 1 ? 1 : 0;
		/* u2 = 1 at p = 0 */
		s->bound_time[0] = cl < 0 ? t[PR2] / u2 : 0;
	} else {
		s->p = unknown_solve(&ft, 0, 1, 1, false, t[PR2], &cl,
				     &s->bound_time[0]);
	}
	if (cl > 0) {
		char *clk = clock_contradicted(pl, st->r, n, s);

		/* past p = 1: the clock's, which t1's range takes
		   (ranges.c) */
		s->bound_time[0] = 0;
		s->p_status = xasprintf("run 2 (%g threads) was %.3g times "
					"faster than run 1 (r2 = %.4g), more "
					"than the model allows even with p = 1 "
					"(%.3g times, with the contention it "
					"sees): p = 1%s", n, 1 / st->r, st->r,
					n / st->k, clk);
		free(clk);
	} else if (cl < 0)
		s->p_status = xasprintf("run 2 (%g threads) was no faster "
					"than the model allows for p = 0 (r2 "
					"= %.4g): p = 0", n, st->r);
	prm->p = s->p;
}

/*
 * o_s's form (docs/model.md, "Inter-socket communication"): o_s fitted
 * to run 3 per remote thread (the paper) and per remote fraction
 * reproduce run 3 alike; run 7, at another thread count, tells them
 * apart.  The form whose prediction of run 7 is nearer (in ratio)
 * stays, with its o_s.  Without run 7, or when o_s is 0, the paper's.
 */
static void solve_os_form(const struct fit_plan *pl, struct model_params *prm,
			  const double *t, struct fit_solution *s)
{
	struct unknown_fit ft = { pl, *prm, PR3, U_OS, 1 };
	struct model_params q = *prm;
	double e_thread, e_frac;
	int cl;

	s->o_s_thread = s->o_s;
	s->o_s_fraction = s->t7_thread = s->t7_fraction = NAN;
	if (!pl->made[PR7] || !(t[PR7] > 0)) {
		s->form_status = xasprintf("not tested: %s",
					   pl->made[PR7] ? "run 7 has no time" :
					   pl->why_not[PR7]);
		return;
	}
	if (!(s->o_s > 0)) {
		s->form_status = xstrdup("not tested: o_s is 0");
		return;
	}
	ft.prm.os_fraction = true;
	s->o_s_fraction = unknown_solve(&ft, 0, 1, 1e6, true, t[PR3], &cl,
					 NULL);
	q.os_fraction = false;
	q.o_s = s->o_s_thread;
	s->t7_thread = fit_model_time(pl, &q, PR7, 1, NULL, NULL);
	q.os_fraction = true;
	q.o_s = s->o_s_fraction;
	s->t7_fraction = fit_model_time(pl, &q, PR7, 1, NULL, NULL);
	e_thread = fabs(log(s->t7_thread / t[PR7]));
	e_frac = fabs(log(s->t7_fraction / t[PR7]));
	s->have_os_form = true;
	if (e_frac < e_thread) {
		s->os_fraction = true;
		s->o_s = s->o_s_fraction;
		prm->o_s = s->o_s;
		prm->os_fraction = true;
	}
}

/* Step 3 (section 4.3): o_s from run 3. */
static void solve_os(const struct fit_plan *pl, struct model_params *prm,
		     const double *t, enum fit_mode mode,
		     struct fit_solution *s)
{
	struct unknown_fit ft = { pl, *prm, PR3, U_OS, 1 };
	struct fit_step *st = &s->step[PR3];
	double half = pl->n_pus[PR3] / 2.0;
	int cl;

	if (!pl->made[PR3]) {
		s->o_s_status = xasprintf("not measured: %s (run 3 needs "
					  "two)", pl->why_not[PR3]);
		prm->o_s = 0;
		return;
	}
	ft.prm.o_s = 0;
	step_of(s, pl, &ft.prm, t, PR3, 1, NULL);
	s->paper_o_s = (st->u - 1) * st->f / half;
	if (mode == FIT_PAPER) {
		s->o_s = s->paper_o_s > 0 ? s->paper_o_s : 0;
		cl = s->paper_o_s < 0 ? -1 : 0;
		/* u3 = 1 at o_s = 0 */
		s->bound_time[1] = cl < 0 ? t[PR3] / st->u : 0;
	} else {
		s->o_s = unknown_solve(&ft, 0, 1, 1e3, true, t[PR3], &cl,
				       &s->bound_time[1]);
	}
	if (cl < 0)
		s->o_s_status = xasprintf("run 3 was no slower than the model "
					  "without o_s predicts (u3 = %.4g): "
					  "o_s = 0", st->u);
	s->have_o_s = true;
	prm->o_s = s->o_s;
	if (mode == FIT_MODEL)
		solve_os_form(pl, prm, t, s);
}

/* Step 4 (section 4.4): l from runs 2, 4 and 5. */
static void solve_l(const struct fit_plan *pl, struct model_params *prm,
		    const double *t, enum fit_mode mode,
		    struct fit_solution *s)
{
	struct unknown_fit ft = { pl, *prm, PR4, U_CORUN, 1 };
	double n = pl->n, p = prm->p, u2, sl, s5, slock, sbal;
	int cl;

	if (!pl->made[PR4] || !pl->made[PR5]) {
		s->l_status = xasprintf("not measured: %s",
					pl->why_not[pl->made[PR4] ? PR5 : PR4]);
		prm->l = 0;
		return;
	}
	u2 = t[PR2] / fit_model_time(pl, prm, PR2, 1, NULL, NULL);
	step_of(s, pl, prm, t, PR4, 1, NULL);
	step_of(s, pl, prm, t, PR5, 1, NULL);
	sl = s->step[PR4].u / u2;
	s5 = s->step[PR5].u / u2;
	/* the closed form: interpolate between the two extremes */
	slock = (1 - p) + p * sl;
	sbal = (1 - p) + n * p / ((n - 1) + 1 / sl);
	if (slock - sbal > 1e-12)
		s->paper_l = (slock - s5) / (slock - sbal);
	if (sl - 1 < MIN_CORUN_SLOWDOWN) {
		s->l_status = xasprintf("not measured: the co-runners of run "
					"4 slowed the workload by only %.1f%% "
					"(t4/t2 = %.4g), too little to tell "
					"how it balances load", 100 * (sl - 1),
					sl);
		prm->l = 0;
		return;
	}
	if (mode == FIT_PAPER) {
		s->l = clamp01(s->paper_l);
		cl = s->paper_l < 0 ? -1 : s->paper_l > 1 ? 1 : 0;
		/* u5 / u2 = s_lock at l = 0, s_bal at l = 1 */
		s->bound_time[2] = cl ? t[PR5] * (cl < 0 ? slock : sbal) /
			s5 : 0;
	} else {
		/* the co-runner's share of the PU, as the model sees it */
		s->corun = unknown_solve(&ft, 1, 2, 1e6, true, t[PR4], &cl,
					  NULL);
		ft.x = PR5;
		ft.what = U_L;
		ft.corun = s->corun;
		s->l = unknown_solve(&ft, 0, 1, 1, false, t[PR5], &cl,
				     &s->bound_time[2]);
	}
	if (cl < 0)
		s->l_status = xasprintf("run 5 was slower than lock-step "
					"predicts (t5/t2 = %.4g, t4/t2 = "
					"%.4g): l = 0", s5, sl);
	else if (cl > 0)
		s->l_status = xasprintf("run 5 was faster than dynamic "
					"balancing predicts (t5/t2 = %.4g, "
					"t4/t2 = %.4g): l = 1", s5, sl);
	s->have_l = true;
	prm->l = s->l;
}

/* Step 5 (section 4.5): b from runs 2 and 6. */
static void solve_b(const struct fit_plan *pl, struct model_params *prm,
		    const double *t, enum fit_mode mode,
		    struct fit_solution *s)
{
	struct unknown_fit ft = { pl, *prm, PR6, U_B, 1 };
	double u2, f6 = NAN;
	bool shared;
	int cl = 0;

	if (!pl->made[PR6]) {
		s->b_status = xasprintf("not measured: %s", pl->why_not[PR6]);
		prm->b = 0;
		return;
	}
	ft.prm.b = 0;
	u2 = t[PR2] / fit_model_time(pl, &ft.prm, PR2, 1, NULL, NULL);
	step_of(s, pl, &ft.prm, t, PR6, 1, &f6);
	s->paper_b = (s->step[PR6].u / u2 - 1) / f6;
	shared = run_shares_core(pl, &ft.prm, PR6);
	if (mode == FIT_PAPER || !shared) {
		s->b = s->paper_b > 0 ? s->paper_b : 0;
		cl = s->paper_b < 0 ? -1 : 0;
		/* u6 = u2 at b = 0 */
		s->bound_time[3] = cl < 0 ? t[PR6] * u2 / s->step[PR6].u : 0;
	} else {
		s->b = unknown_solve(&ft, 0, 1, 1e3, true, t[PR6], &cl,
				     &s->bound_time[3]);
	}
	if (!pl->smt)
		s->b_status = xasprintf(
			"measured instead with two threads time-sharing each "
			"PU (no SMT on this machine): the slowdown of sharing "
			"a PU beyond what the PU-time resource accounts for%s",
			cl < 0 ? "; run 6 was no slower than predicted "
			"without it: b = 0" : "");
	else if (cl < 0)
		s->b_status = xasprintf("run 6 was no slower than the model "
					"without b predicts (u6 = %.4g): b = 0",
					s->step[PR6].u);
	s->have_b = true;
	prm->b = s->b;
}

void fit_solve_as(const struct fit_plan *pl,
		  const struct model_params *base, const double *t,
		  enum fit_mode mode, struct fit_solution *s)
{
	struct model_params prm = *base;

	memset(s, 0, sizeof(*s));
	s->paper_p = s->paper_o_s = s->paper_l = s->paper_b = NAN;
	s->corun = NAN;
	s->o_s_thread = s->o_s_fraction = s->t7_thread = s->t7_fraction = NAN;
	s->t8_spread = s->t8_first = NAN;
	prm.t1 = t[PR1];
	prm.p = 1;
	prm.o_s = prm.l = prm.b = 0;
	prm.os_fraction = false;
	/* b on the core's part of the slowdown (docs/model.md), except
	   for the paper's closed forms */
	prm.b_core = s->b_core = mode == FIT_MODEL;
	/* the closed forms are the paper's: the serial work spread */
	if (mode == FIT_PAPER)
		prm.serial_first = false;
	s->serial_first = prm.serial_first;
	s->step[PR1].r = s->step[PR1].k = s->step[PR1].u = 1;
	s->step[PR1].f = 1;
	solve_p(pl, &prm, t, mode, s);
	solve_os(pl, &prm, t, mode, s);
	solve_l(pl, &prm, t, mode, s);
	solve_b(pl, &prm, t, mode, s);
}

void fit_params_of(const struct fit_solution *s,
		   const struct model_params *base, double t1,
		   struct model_params *q)
{
	*q = *base;
	q->t1 = t1;
	q->p = s->p;
	q->o_s = s->have_o_s ? s->o_s : 0;
	q->l = s->have_l ? s->l : 0;
	q->b = s->have_b ? s->b : 0;
	q->os_fraction = s->os_fraction;
	q->b_core = s->b_core;
	q->serial_first = s->serial_first;
}
