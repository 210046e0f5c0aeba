/*
 * fit_joint.c - the joint fit of the Pandia model over every run made,
 * and the competing explanations it tests (predictor/pandia/
 * fit_joint.h, docs/profiling.md "The joint fit" and "Ambiguity").
 */
#include "predictor/pandia/fit_joint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* The unknowns: the model's parameters, then three demands. */
enum jp { JP_P, JP_OS, JP_CORUN, JP_L, JP_B, JP_DRAM, JP_IC, JP_L3, JP_N };

/* The runs a fit sees at most: the plan's and the extra ones. */
#define JP_RUNS (FIT_RUNS + FIT_MAX_EXTRA)

/* Levenberg-Marquardt: iterations, and the damping's limits. */
#define LM_ITER 40
#define LM_LAMBDA_MAX 1e10
/* Sampled placements for the ambiguities, and at most for the best. */
#define AMB_SAMPLE 400
#define BEST_SAMPLE 20000
/* An explanation within the runs' noise: every run within 2 sigma, or
   the sum of squares at most 4 (2 sigma on one degree) above. */
#define AMB_WORST 2.0
#define AMB_COST 4.0

struct jprob {
	const struct fit_data *d;
	struct model_params prm;	/* the fixed part */
	double dram_ref, ic_ref, l3_ref;	/* demand = theta * ref */
	bool fit[JP_N];
	double lo[JP_N], hi[JP_N], scale[JP_N];
	int nr;
	int run[JP_RUNS];		/* plan run, or -1 - extra */
	double sig[JP_RUNS];
};

static void to_params(const struct jprob *jp, const double *th,
		      struct model_params *prm, double *corun)
{
	*prm = jp->prm;
	prm->p = th[JP_P];
	prm->o_s = th[JP_OS];
	prm->l = th[JP_L];
	prm->b = th[JP_B];
	if (jp->fit[JP_DRAM])
		prm->d[WR_DRAM] = th[JP_DRAM] * jp->dram_ref;
	if (jp->fit[JP_IC])
		prm->d[WR_INTERCONNECT] = th[JP_IC] * jp->ic_ref;
	if (jp->fit[JP_L3])
		prm->d[WR_L3] = th[JP_L3] * jp->l3_ref;
	*corun = th[JP_CORUN];
}

double fit_time_pus(const struct space *sp, const struct model_params *prm,
		    const int *pus, int n)
{
	struct model md;
	double t;

	model_init(&md, sp, prm);
	t = model_time_pus(&md, pus, n) < 0 ? NAN : md.time;
	model_release(&md);
	return t;
}

/* log(model / measured) of run X (plan run, or -1 - extra). */
static double residual(const struct fit_data *d,
		       const struct model_params *prm, double corun, int x)
{
	double tm, t;

	if (x >= 0) {
		t = d->t[x];
		tm = fit_model_time(d->pl, prm, x,
				    fit_corun_run(x) ? corun : 1,
				    NULL, NULL);
	} else {
		const struct fit_extra *e = &d->ex[-1 - x];

		t = e->t;
		tm = fit_time_pus(d->pl->sp, prm, e->pus, e->n);
	}
	return t > 0 && tm > 0 ? log(tm / t) : NAN;
}

double fit_residual(const struct fit_data *d, const struct fit_result *r,
		    int x)
{
	return residual(d, &r->prm, isnan(r->corun) ? 1 : r->corun, x);
}

/* |V| / sigma of a run of time T and half range DELTA; 0 for no V. */
static double scaled(double v, double t, double delta)
{
	double sig = t > 0 && delta > 0 ? delta / t : 0;

	sig = sig > FIT_SIGMA_FLOOR ? sig : FIT_SIGMA_FLOOR;
	return isfinite(v) ? fabs(v) / sig : 0;
}

double fit_score(const struct fit_data *d, const struct fit_result *r,
		 double *worst)
{
	double cost = 0, v;
	int x;

	*worst = 0;
	for (x = PR2; x < FIT_RUNS + d->n_ex; x++) {
		int id = x < FIT_RUNS ? x : -1 - (x - FIT_RUNS);

		if (x < FIT_RUNS) {
			if (!d->pl->made[x] || !(d->t[x] > 0) ||
			    (fit_corun_run(x) && isnan(r->corun)))
				continue;
			v = scaled(fit_residual(d, r, id), d->t[x],
				   d->delta[x]);
		} else {
			const struct fit_extra *e = &d->ex[x - FIT_RUNS];

			v = scaled(fit_residual(d, r, id), e->t, e->delta);
		}
		cost += v * v;
		if (v > *worst)
			*worst = v;
	}
	return cost;
}

double fit_extra_worst(const struct fit_data *d, const struct fit_result *r)
{
	double worst = 0, v;
	int i;

	for (i = 0; i < d->n_ex; i++) {
		v = scaled(fit_residual(d, r, -1 - i), d->ex[i].t,
			   d->ex[i].delta);
		if (v > worst)
			worst = v;
	}
	return worst;
}

double fit_misfit(const struct fit_data *d, const struct fit_result *r)
{
	double sum = 0, noise = 0, v, t, delta;
	int x, n = 0;

	for (x = PR2; x < FIT_RUNS + d->n_ex; x++) {
		if (x < FIT_RUNS && (!d->pl->made[x] || !(d->t[x] > 0) ||
				     (fit_corun_run(x) && isnan(r->corun))))
			continue;
		v = fit_residual(d, r, x < FIT_RUNS ? x : -1 - (x - FIT_RUNS));
		if (!isfinite(v))
			continue;
		t = x < FIT_RUNS ? d->t[x] : d->ex[x - FIT_RUNS].t;
		delta = x < FIT_RUNS ? d->delta[x] : d->ex[x - FIT_RUNS].delta;
		sum += v * v;
		if (t > 0 && delta > 0)
			noise += (delta / t) * (delta / t);
		n++;
	}
	if (!(n > r->n_free))
		return 0;
	v = sum / (n - r->n_free) - noise / n;
	return v > 0 ? sqrt(v) : 0;
}

/* The weighted residuals R of TH; the sum of their squares. */
static double cost_of(const struct jprob *jp, const double *th, double *r)
{
	struct model_params prm;
	double corun, c = 0;
	int i;

	to_params(jp, th, &prm, &corun);
	for (i = 0; i < jp->nr; i++) {
		double v = residual(jp->d, &prm, corun, jp->run[i]);

		r[i] = isfinite(v) ? v / jp->sig[i] : 1e3;
		c += r[i] * r[i];
	}
	return c;
}

static void add_run(struct jprob *jp, int x, double t, double delta)
{
	double s = t > 0 && delta > 0 ? delta / t : 0;

	if (!(t > 0) || jp->nr >= JP_RUNS)
		return;
	jp->run[jp->nr] = x;
	jp->sig[jp->nr++] = s > FIT_SIGMA_FLOOR ? s : FIT_SIGMA_FLOOR;
}

/* The demands' unknowns for the demands D (bytes/s a thread). */
static void demands_theta(const struct jprob *jp, const double *d,
			  double *th)
{
	th[JP_DRAM] = jp->dram_ref > 0 ? d[WR_DRAM] / jp->dram_ref : 0;
	th[JP_IC] = jp->ic_ref > 0 ? d[WR_INTERCONNECT] / jp->ic_ref : 0;
	th[JP_L3] = jp->l3_ref > 0 ? d[WR_L3] / jp->l3_ref : 0;
}

/*
 * The runs and the unknowns of the main fit from SEQ: p always, o_s
 * where run 3 measured it, the co-runner factor and l where runs 4
 * and 5 did, b where run 6 did.  TH gets the starting point.
 */
static void jprob_init(struct jprob *jp, const struct fit_data *d,
		       const struct fit_solution *seq, double *th)
{
	const struct fit_plan *pl = d->pl;
	const struct pandia_machine *m = pl->m;
	int x, i;

	memset(jp, 0, sizeof(*jp));
	jp->d = d;
	jp->prm = *d->base;
	jp->prm.t1 = d->t[PR1];
	jp->prm.b_core = seq->b_core;
	jp->prm.os_fraction = seq->os_fraction;
	jp->prm.serial_first = seq->serial_first;
	for (x = PR2; x < FIT_RUNS; x++) {
		if (!pl->made[x] || (fit_corun_run(x) && !seq->have_l))
			continue;
		add_run(jp, x, d->t[x], d->delta[x]);
	}
	for (i = 0; i < d->n_ex; i++)
		add_run(jp, -1 - i, d->ex[i].t, d->ex[i].delta);
	jp->dram_ref = d->base->d[WR_DRAM] > 0 ? d->base->d[WR_DRAM] :
		m->links[LVL_DRAM].present ?
		m->links[LVL_DRAM].per_core_bw / 10 : 0;
	jp->ic_ref = m->links[LVL_INTERCONNECT].present ?
		m->links[LVL_INTERCONNECT].per_core_bw : 0;
	jp->l3_ref = d->base->d[WR_L3] > 0 ? d->base->d[WR_L3] : 0;
	th[JP_P] = seq->p;
	th[JP_OS] = seq->have_o_s ? seq->o_s : 0;
	th[JP_CORUN] = seq->have_l && seq->corun >= 1 ? seq->corun : 1;
	th[JP_L] = seq->have_l ? seq->l : 0;
	th[JP_B] = seq->have_b ? seq->b : 0;
	demands_theta(jp, d->base->d, th);
	jp->fit[JP_P] = true;
	jp->fit[JP_OS] = seq->have_o_s;
	jp->fit[JP_CORUN] = jp->fit[JP_L] = seq->have_l;
	jp->fit[JP_B] = seq->have_b;
	for (i = 0; i < JP_N; i++) {
		jp->lo[i] = 0;
		jp->hi[i] = 1;
		jp->scale[i] = 1;
	}
	jp->hi[JP_OS] = 1e3;
	jp->scale[JP_OS] = 0.01;
	jp->lo[JP_CORUN] = 1;
	jp->hi[JP_CORUN] = 1e6;
	jp->hi[JP_B] = 1e3;
	jp->scale[JP_B] = 0.1;
	jp->hi[JP_DRAM] = jp->hi[JP_IC] = 100;
	jp->hi[JP_L3] = 1;
	jp->scale[JP_IC] = 0.1;
}

/* Solve the N x N system A x = b in place (Gaussian elimination with
   partial pivoting); false when singular. */
static bool solve_lin(double a[JP_N][JP_N], double *b, int n)
{
	int i, j, k;

	for (k = 0; k < n; k++) {
		double tb;
		int piv = k;

		for (i = k + 1; i < n; i++)
			if (fabs(a[i][k]) > fabs(a[piv][k]))
				piv = i;
		if (!(fabs(a[piv][k]) > 1e-300))
			return false;
		for (j = 0; j < n; j++) {
			double tmp = a[k][j];

			a[k][j] = a[piv][j];
			a[piv][j] = tmp;
		}
		tb = b[k];
		b[k] = b[piv];
		b[piv] = tb;
		for (i = k + 1; i < n; i++) {
			double f = a[i][k] / a[k][k];

			for (j = k; j < n; j++)
				a[i][j] -= f * a[k][j];
			b[i] -= f * b[k];
		}
	}
	for (k = n - 1; k >= 0; k--) {
		for (j = k + 1; j < n; j++)
			b[k] -= a[k][j] * b[j];
		b[k] /= a[k][k];
	}
	return true;
}

/* The Jacobian of the weighted residuals R at TH (cost C) into J. */
static void jacobian(const struct jprob *jp, const double *th,
		     const double *r, double j[][JP_N])
{
	double t2[JP_N], r2[JP_RUNS];
	int k, i;

	for (k = 0; k < JP_N; k++) {
		double h;

		if (!jp->fit[k])
			continue;
		h = 1e-3 * (fabs(th[k]) > jp->scale[k] ? fabs(th[k]) :
			    jp->scale[k]);
		if (th[k] + h > jp->hi[k])
			h = -h;
		memcpy(t2, th, sizeof(t2));
		t2[k] += h;
		cost_of(jp, t2, r2);
		for (i = 0; i < jp->nr; i++)
			j[i][k] = (r2[i] - r[i]) / h;
	}
}

/*
 * One damped step from TH (cost *c, residuals R): the unknowns at a
 * bound that the gradient pushes out of it stay there.  Returns
 * whether the cost went down (TH, *c and R then updated).
 */
static bool lm_step(const struct jprob *jp, double *th, double *c, double *r,
		    double j[][JP_N], double *lambda)
{
	int idx[JP_N], n = 0, a, b, i;
	double g[JP_N];

	for (a = 0; a < JP_N; a++) {
		if (!jp->fit[a])
			continue;
		g[a] = 0;
		for (i = 0; i < jp->nr; i++)
			g[a] += j[i][a] * r[i];
		if ((th[a] <= jp->lo[a] && g[a] > 0) ||
		    (th[a] >= jp->hi[a] && g[a] < 0))
			continue;
		idx[n++] = a;
	}
	if (!n)
		return false;
	while (*lambda < LM_LAMBDA_MAX) {
		double m[JP_N][JP_N], v[JP_N], t2[JP_N], r2[JP_RUNS], c2;

		for (a = 0; a < n; a++) {
			for (b = 0; b < n; b++) {
				m[a][b] = 0;
				for (i = 0; i < jp->nr; i++)
					m[a][b] += j[i][idx[a]] * j[i][idx[b]];
			}
			m[a][a] += *lambda * (m[a][a] > 1e-12 ? m[a][a] : 1e-12);
			v[a] = -g[idx[a]];
		}
		memcpy(t2, th, sizeof(t2));
		if (solve_lin(m, v, n)) {
			for (a = 0; a < n; a++) {
				int k = idx[a];

				t2[k] += v[a];
				t2[k] = t2[k] < jp->lo[k] ? jp->lo[k] :
					t2[k] > jp->hi[k] ? jp->hi[k] : t2[k];
			}
			c2 = cost_of(jp, t2, r2);
			if (c2 < *c) {
				memcpy(th, t2, sizeof(t2));
				memcpy(r, r2, sizeof(double) * (size_t)jp->nr);
				*c = c2;
				*lambda = *lambda / 3 > 1e-9 ? *lambda / 3 :
					1e-9;
				return true;
			}
		}
		*lambda *= 4;
	}
	return false;
}

/* Levenberg-Marquardt from TH; the cost at the end. */
static double lm(const struct jprob *jp, double *th)
{
	double r[JP_RUNS], j[JP_RUNS][JP_N], lambda = 1e-3, c;
	int it, k;

	for (k = 0; k < JP_N; k++)
		th[k] = th[k] < jp->lo[k] ? jp->lo[k] :
			th[k] > jp->hi[k] ? jp->hi[k] : th[k];
	c = cost_of(jp, th, r);
	for (it = 0; it < LM_ITER && c > 1e-18; it++) {
		double before = c;

		jacobian(jp, th, r, j);
		if (!lm_step(jp, th, &c, r, j, &lambda))
			break;
		if (before - c < 1e-12 * (1 + before))
			break;
	}
	return c;
}

/*
 * The unknowns of JP that set some run at TH (residuals R): those that
 * move a run's time and are not held at a bound the runs push against
 * (b at 0 for a program faster two threads to a PU than the model can
 * make it), which set nothing.
 */
static int free_unknowns(const struct jprob *jp, const double *th,
			 const double *r)
{
	double j[JP_RUNS][JP_N], g;
	int k, i, n = 0;

	jacobian(jp, th, r, j);
	for (k = 0; k < JP_N; k++) {
		bool moves = false;

		if (!jp->fit[k])
			continue;
		g = 0;
		for (i = 0; i < jp->nr; i++) {
			moves |= fabs(j[i][k]) * jp->scale[k] > 1e-6;
			g += j[i][k] * r[i];
		}
		if (!moves || (th[k] <= jp->lo[k] && g > 0) ||
		    (th[k] >= jp->hi[k] && g < 0))
			continue;
		n++;
	}
	return n;
}

static void result_of(const struct jprob *jp, const double *th, double c,
		      struct fit_result *out)
{
	double r[JP_RUNS];
	int i;

	to_params(jp, th, &out->prm, &out->corun);
	if (!jp->fit[JP_CORUN])
		out->corun = NAN;
	out->cost = cost_of(jp, th, r);
	if (c < out->cost)
		out->cost = c;
	out->worst = 0;
	for (i = 0; i < jp->nr; i++)
		if (fabs(r[i]) > out->worst)
			out->worst = fabs(r[i]);
	out->n_res = jp->nr;
	out->n_free = free_unknowns(jp, th, r);
}

void fit_joint(const struct fit_data *d, const struct fit_solution *seq,
	       struct fit_result *out)
{
	struct jprob jp;
	double th[JP_N], best[JP_N], c, cbest;
	bool form = seq->os_fraction;

	jprob_init(&jp, d, seq, th);
	memcpy(best, th, sizeof(th));
	cbest = lm(&jp, best);
	/* the other form of o_s, where run 7 tested the forms */
	if (seq->have_os_form && seq->have_o_s) {
		struct jprob j2 = jp;

		j2.prm.os_fraction = !form;
		th[JP_OS] = form ? seq->o_s_thread : seq->o_s_fraction;
		if (isfinite(th[JP_OS])) {
			c = lm(&j2, th);
			/* the other form only when clearly better */
			if (c < cbest - 1e-9 * (1 + cbest)) {
				jp = j2;
				memcpy(best, th, sizeof(th));
				cbest = c;
			}
		}
	}
	result_of(&jp, best, cbest, out);
}

void fit_joint_se(const struct fit_data *d, const struct fit_solution *seq,
		  const struct fit_result *at, double se[4])
{
	static const int par[4] = { JP_P, JP_OS, JP_L, JP_B };
	double th[JP_N], r[JP_RUNS];
	double j[JP_RUNS][JP_N];
	double a[JP_N][JP_N], m[JP_N][JP_N], v[JP_N];
	int idx[JP_N], n = 0, k, b, c, i;
	struct jprob jp;

	jprob_init(&jp, d, seq, th);
	jp.prm.os_fraction = at->prm.os_fraction;
	th[JP_P] = at->prm.p;
	th[JP_OS] = at->prm.o_s;
	th[JP_L] = at->prm.l;
	th[JP_B] = at->prm.b;
	if (isfinite(at->corun) && at->corun >= 1)
		th[JP_CORUN] = at->corun;
	cost_of(&jp, th, r);
	jacobian(&jp, th, r, j);
	for (k = 0; k < JP_N; k++) {
		bool moves = false;

		for (i = 0; jp.fit[k] && i < jp.nr; i++)
			moves |= fabs(j[i][k]) * jp.scale[k] > 1e-6;
		if (moves)
			idx[n++] = k;
	}
	for (b = 0; b < n; b++)
		for (c = 0; c < n; c++) {
			a[b][c] = 0;
			for (i = 0; i < jp.nr; i++)
				a[b][c] += j[i][idx[b]] * j[i][idx[c]];
		}
	for (k = 0; k < 4; k++) {
		se[k] = -1;
		for (b = 0; b < n && idx[b] != par[k]; b++)
			;
		if (b == n)
			continue;
		memcpy(m, a, sizeof(m));
		memset(v, 0, sizeof(v));
		v[b] = 1;
		if (solve_lin(m, v, n) && v[b] > 0)
			se[k] = sqrt(v[b]);
	}
}

/* ---- competing explanations -------------------------------------- */

const char *fit_amb_name(enum fit_amb_kind k)
{
	return k == AMB_OS_LINK ? "o_s or the link" :
		"b or memory bandwidth";
}

void fit_amb_release(struct fit_amb *a)
{
	if (!a)
		return;
	free(a->pus);
	free(a->text);
	memset(a, 0, sizeof(*a));
}

/* The unknowns of MAIN's fit as a starting point. */
static void theta_of(const struct jprob *jp, const struct fit_result *r,
		     double *th)
{
	th[JP_P] = r->prm.p;
	th[JP_OS] = r->prm.o_s;
	th[JP_CORUN] = isnan(r->corun) ? 1 : r->corun;
	th[JP_L] = r->prm.l;
	th[JP_B] = r->prm.b;
	demands_theta(jp, r->prm.d, th);
}

/*
 * Whether the unknown PIN is needed at TH: set to 0, alone, some run
 * moves beyond its noise.  A parameter the runs do not need has no
 * competing explanation to weigh.
 */
static bool needed(const struct jprob *jp, const double *th, int pin)
{
	double t2[JP_N], r[JP_RUNS];
	int i;

	memcpy(t2, th, sizeof(t2));
	t2[pin] = 0;
	cost_of(jp, t2, r);
	for (i = 0; i < jp->nr; i++)
		if (fabs(r[i]) > AMB_WORST)
			return true;
	return false;
}

/* The problem of MAIN's fit on the runs of D, from MAIN's values. */
static void alt_setup(const struct fit_data *d, const struct fit_result *main,
		      struct fit_solution *seq, struct jprob *jp, double *th0)
{
	memset(seq, 0, sizeof(*seq));
	seq->p = main->prm.p;
	seq->have_o_s = d->pl->made[PR3] && d->t[PR3] > 0;
	seq->have_l = !isnan(main->corun);
	seq->have_b = d->pl->made[PR6] && d->t[PR6] > 0;
	seq->b_core = main->prm.b_core;
	seq->os_fraction = main->prm.os_fraction;
	seq->serial_first = main->prm.serial_first;
	jprob_init(jp, d, seq, th0);
	jp->prm = main->prm;
	theta_of(jp, main, th0);
}

bool fit_demands(const struct fit_data *d, const struct fit_result *main,
		 struct fit_result *out)
{
	static const double scale[] = { 1, 0.7, 0.45, 0.25, 0.12, 1.5 };
	struct fit_solution seq;
	struct jprob jp;
	double th0[JP_N], th[JP_N], best[JP_N], c, cbest = INFINITY;
	int s;

	alt_setup(d, main, &seq, &jp, th0);
	if (!(jp.dram_ref > 0))
		return false;
	jp.fit[JP_DRAM] = true;
	/* an L3 estimate may only fall: the probes' is its upper end */
	jp.fit[JP_L3] = jp.l3_ref > 0;
	for (s = 0; s < (int)(sizeof(scale) / sizeof(scale[0])); s++) {
		memcpy(th, th0, sizeof(th));
		th[JP_DRAM] = th0[JP_DRAM] * scale[s];
		if (jp.fit[JP_L3])
			th[JP_L3] = th0[JP_L3] * (scale[s] < 1 ? scale[s] : 1);
		c = lm(&jp, th);
		if (c < cbest) {
			cbest = c;
			memcpy(best, th, sizeof(best));
		}
	}
	result_of(&jp, best, cbest, out);
	return true;
}

/*
 * The competing explanation K of MAIN fitted into *alt from a few
 * starting points of the freed demand.  Returns false when the runs
 * cannot test it.
 */
static bool fit_alt(const struct fit_data *d, const struct fit_result *main,
		    enum fit_amb_kind k, struct fit_result *alt)
{
	struct fit_solution seq;
	struct jprob jp;
	double th0[JP_N], th[JP_N], best[JP_N], cbest = INFINITY;
	double cs[4], ths[4][JP_N];
	static const double up[] = { 1, 1.5, 2.5, 5 };
	static const double down[] = { 1, 0.6, 0.3, 0.1 };
	bool had;
	int pin, fr, s, pick;

	alt_setup(d, main, &seq, &jp, th0);
	pin = k == AMB_OS_LINK ? JP_OS : JP_B;
	fr = k == AMB_OS_LINK && jp.ic_ref > 0 ? JP_IC : JP_DRAM;
	if ((k == AMB_OS_LINK && !seq.have_o_s) ||
	    (k == AMB_B_MEMORY && !seq.have_b) ||
	    (fr == JP_DRAM && !(jp.dram_ref > 0)))
		return false;
	/* a parameter the runs do not need is as good as none: its
	   competitor is then the other way round (it freed, the demand
	   cut), as when it is 0 */
	had = th0[pin] > 1e-6 && needed(&jp, th0, pin);
	/* in its place, more of the demand; or, freed, less of both */
	jp.fit[fr] = true;
	if (!had)
		jp.fit[JP_DRAM] = jp.dram_ref > 0;
	jp.fit[pin] = !had;
	if (had) {
		th0[pin] = 0;
	} else {
		/* the demand cut, the parameter freed */
		jp.hi[fr] = th0[fr];
		jp.hi[JP_DRAM] = th0[JP_DRAM];
		th0[pin] = k == AMB_OS_LINK ? 0.02 : 0.3;
	}
	for (s = 0; s < 4; s++) {
		memcpy(th, th0, sizeof(th));
		if (had) {
			th[fr] = th0[fr] > 0 ? th0[fr] * up[s] :
				0.25 * up[s];
		} else {
			th[fr] = th0[fr] * down[s];
			th[JP_DRAM] = th0[JP_DRAM] * down[s];
		}
		cs[s] = lm(&jp, th);
		memcpy(ths[s], th, sizeof(th));
		if (cs[s] < cbest)
			cbest = cs[s];
	}
	/*
	 * Of the starts that fit alike: with the parameter pinned, the
	 * least change of the demand (the explanation nearest the fit's);
	 * with it freed, the most of it (the other explanation at its
	 * fullest, not the fit's own found again).
	 */
	for (s = 0, pick = -1; s < 4; s++) {
		if (!(cs[s] <= cbest + 1))
			continue;
		if (pick < 0 ||
		    (had && fabs(ths[s][fr] - th0[fr]) <
		     fabs(ths[pick][fr] - th0[fr])) ||
		    (!had && ths[s][pin] > ths[pick][pin]))
			pick = s;
	}
	memcpy(best, ths[pick], sizeof(best));
	cbest = cs[pick];
	result_of(&jp, best, cbest, alt);
	return true;
}

struct sample {
	const struct space *sp;
	const struct model_params *a, *b;	/* b NULL: the best of a */
	long stride, seen;
	struct fit_amb *amb;
	/* the best of a */
	double best_t;
	int best_n, *best_pus;
	double *times;		/* each sampled one: time, threads */
	int n_times, cap;
};

/* One placement of the sample: both explanations, their difference. */
static int sample_one(const struct space *sp, const uint16_t *st, void *arg)
{
	struct sample *s = arg;
	double ta, tb, dif;
	int *pus = NULL, n;

	if (s->seen++ % s->stride)
		return 0;
	n = space_pus(sp, st, &pus);
	ta = fit_time_pus(s->sp, s->a, pus, n);
	if (!s->b) {
		if (s->n_times == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 256;
			s->times = xrealloc(s->times, sizeof(double) * 2 *
					    (size_t)s->cap);
		}
		s->times[2 * s->n_times] = ta;
		s->times[2 * s->n_times++ + 1] = n;
		free(pus);
		return 0;
	}
	tb = fit_time_pus(s->sp, s->b, pus, n);
	dif = ta > 0 && tb > 0 ? fabs(log(tb / ta)) : 0;
	s->amb->n_sampled++;
	if (dif > FIT_DIFFER)
		s->amb->n_differ++;
	if (dif > s->amb->diff) {
		s->amb->diff = dif;
		free(s->amb->pus);
		s->amb->pus = pus;
		s->amb->n_pus = n;
		pus = NULL;
	}
	free(pus);
	return 0;
}

/* Visit about LIMIT placements of one thread per PU of SP, spread. */
static void sample_space(const struct space *sp, struct sample *s, long limit)
{
	struct space_count c = space_count_layouts(sp, 1);
	double n = c.overflow ? 1e18 : (double)c.n;

	s->sp = sp;
	s->stride = n > limit ? (long)(n / limit) + 1 : 1;
	s->seen = 0;
	space_enumerate(sp, 0, 1, sample_one, s);
}

/* The plan's machine and memory with one thread per PU; NULL: none. */
static struct space *space_k1(const struct fit_plan *pl)
{
	struct pandia_error e;

	return space_new(pl->m, 1, &pl->sp->mem, &e);
}

static void amb_text(struct fit_amb *a, const struct fit_result *main)
{
	const struct model_params *q = &a->alt.prm;
	bool os = a->kind == AMB_OS_LINK;
	double dr = main->prm.d[WR_DRAM] > 0 ?
		q->d[WR_DRAM] / main->prm.d[WR_DRAM] : NAN;

	a->text = xasprintf(
		"%s: %s (o_s %.3g, b %.3g, DRAM demand %.3g GB/s, "
		"interconnect demand %.3g GB/s, %s) reproduces the runs "
		"%s (largest residual %.1f sigma against %.1f); its "
		"predictions differ by up to %.0f%% (%d of %d placements "
		"sampled by more than %.0f%%)", fit_amb_name(a->kind),
		os ? (main->prm.o_s > 1e-6 ? "the link instead of o_s" :
		      "o_s instead of the link") :
		(main->prm.b > 1e-6 ? "memory bandwidth instead of b" :
		 "b instead of memory bandwidth"),
		q->o_s, q->b, q->d[WR_DRAM] / 1e9,
		q->d[WR_INTERCONNECT] / 1e9,
		isnan(dr) ? "no DRAM demand" : dr > 1 ?
		"more DRAM traffic" : "less DRAM traffic",
		a->ambiguous ? "within their noise" : "worse",
		a->alt.worst, main->worst, 100 * (exp(a->diff) - 1),
		a->n_differ, a->n_sampled, 100 * FIT_DIFFER);
}

void fit_ambiguities(const struct fit_data *d, const struct fit_result *main,
		     struct fit_amb *out)
{
	struct space *sp = space_k1(d->pl);
	int k;

	for (k = 0; k < AMB_KINDS; k++) {
		struct fit_amb *a = &out[k];
		struct sample s;

		memset(a, 0, sizeof(*a));
		a->kind = k;
		if (!sp || !fit_alt(d, main, k, &a->alt))
			continue;
		a->tested = true;
		memset(&s, 0, sizeof(s));
		s.a = &main->prm;
		s.b = &a->alt.prm;
		s.amb = a;
		sample_space(sp, &s, AMB_SAMPLE);
		a->ambiguous = (a->alt.worst <= AMB_WORST ||
				a->alt.cost <= main->cost + AMB_COST) &&
			a->diff > FIT_DIFFER;
		amb_text(a, main);
	}
	space_free(sp);
}

/* The placement the sample kept as I: its PUs, by enumerating again. */
struct pick {
	long stride, seen, want;
	int n, *pus;
};

static int pick_one(const struct space *sp, const uint16_t *st, void *arg)
{
	struct pick *p = arg;

	if (p->seen++ % p->stride)
		return 0;
	if (p->want-- > 0)
		return 0;
	p->n = space_pus(sp, st, &p->pus);
	return 1;
}

int fit_best_placement(const struct fit_plan *pl,
		       const struct model_params *prm, int **pus, double *t)
{
	struct space *sp = space_k1(pl);
	struct sample s;
	struct pick pk;
	double best = INFINITY;
	int i, at = -1, most = 0;

	*pus = NULL;
	*t = NAN;
	if (!sp)
		return 0;
	memset(&s, 0, sizeof(s));
	s.a = prm;
	sample_space(sp, &s, BEST_SAMPLE);
	for (i = 0; i < s.n_times; i++)
		if (s.times[2 * i] < best)
			best = s.times[2 * i];
	for (i = 0; i < s.n_times; i++)
		if (s.times[2 * i] <= best * 1.01 &&
		    s.times[2 * i + 1] > most) {
			most = (int)s.times[2 * i + 1];
			at = i;
		}
	memset(&pk, 0, sizeof(pk));
	pk.stride = s.stride;
	pk.want = at;
	if (at >= 0) {
		space_enumerate(sp, 0, 1, pick_one, &pk);
		*t = s.times[2 * at];
	}
	free(s.times);
	space_free(sp);
	*pus = pk.pus;
	return pk.n;
}
