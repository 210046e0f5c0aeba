/*
 * tune.c - the statistics of 'pandia tune': Welch's t on log times,
 * which candidates to drop after a round, and the verdict on pinning
 * (docs/tune.md, "The statistics"); the pooled noise and the 90% move
 * of the stated ranges (docs/profiling.md, "Uncertainty").
 */
#include <math.h>
#include <stddef.h>

#include "predictor/tune.h"

/*
 * The continued fraction of the regularized incomplete beta function
 * (modified Lentz), as in Numerical Recipes' betacf: converges fast
 * for x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double beta_reg(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double tune_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * beta_reg(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double tune_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* bisection: the CDF is monotone, 100 halvings reach 1e-24 */
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (tune_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void tune_log_moments(const double *v, int n, double *mean, double *var)
{
	double s = 0, ss = 0;
	int i;

	for (i = 0; i < n; i++)
		s += log(v[i]);
	*mean = n ? s / n : NAN;
	for (i = 0; i < n; i++)
		ss += (log(v[i]) - *mean) * (log(v[i]) - *mean);
	*var = n > 1 ? ss / (n - 1) : NAN;
}

void tune_pool_log(const double *v, int n, double *ss, int *dof)
{
	double mean, var;
	int i;

	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return;
	tune_log_moments(v, n, &mean, &var);
	*ss += var * (n - 1);
	*dof += n - 1;
}

double tune_pooled_sigma(double ss, int dof)
{
	double sigma = dof > 0 ? sqrt(ss / dof) : 0;

	return sigma >= TUNE_SIGMA_FLOOR ? sigma : TUNE_SIGMA_FLOOR;
}

double tune_range_move(double ss, int dof, int n)
{
	if (dof < 1 || n < 1)
		return 0;
	return tune_t_quantile(0.95, dof) * tune_pooled_sigma(ss, dof) *
		sqrt(2.0 / n);
}

void tune_compare(const double *a, int na, const double *b, int nb,
		  double confidence, struct tune_cmp *c)
{
	double ma, va, mb, vb, se2, se, df, d, q;

	tune_log_moments(a, na, &ma, &va);
	tune_log_moments(b, nb, &mb, &vb);
	c->na = na;
	c->nb = nb;
	c->ratio = na && nb ? exp(ma - mb) : NAN;
	c->lo = c->hi = c->ratio;
	c->p_slower = c->p_slower_min = 1;
	c->noise = na > 1 && nb > 1 ? sqrt(fmax(va, vb)) : NAN;
	c->valid = na > 1 && nb > 1;
	if (!c->valid)
		return;
	d = ma - mb;
	se2 = va / na + vb / nb;
	se = sqrt(se2);
	if (!(se > 0)) {	/* identical repetitions: no doubt at all */
		c->p_slower = d > 0 ? 0 : 1;
		c->p_slower_min = d > log1p(TUNE_MIN_DIFF) ? 0 : 1;
		return;
	}
	/* Welch-Satterthwaite */
	df = se2 * se2 / ((va / na) * (va / na) / (na - 1) +
			  (vb / nb) * (vb / nb) / (nb - 1));
	c->p_slower = 1 - tune_t_cdf(d / se, df);
	c->p_slower_min = 1 - tune_t_cdf((d - log1p(TUNE_MIN_DIFF)) / se, df);
	q = tune_t_quantile(1 - (1 - confidence) / 2, df);
	c->lo = exp(d - q * se);
	c->hi = exp(d + q * se);
}

/* The geometric mean of candidate c's times. */
static double gmean(const struct tune_cand *c)
{
	double m, v;

	tune_log_moments(c->times, c->n, &m, &v);
	return exp(m);
}

/* The candidate of smallest geometric mean among those WANTED. */
static int smallest(const struct tune_cand *c, int n, bool live_only,
		    int pinned_only, int skip)
{
	double best = INFINITY;
	int i, k = -1;

	for (i = 0; i < n; i++) {
		double g;

		if (i == skip || c[i].n < 1 || c[i].status == TUNE_FAILED ||
		    c[i].status == TUNE_SKIPPED ||
		    (live_only && c[i].status != TUNE_LIVE) ||
		    (pinned_only && c[i].unpinned))
			continue;
		g = gmean(&c[i]);
		if (g < best) {
			best = g;
			k = i;
		}
	}
	return k;
}

int tune_leader(const struct tune_cand *c, int n)
{
	return smallest(c, n, false, false, -1);
}

int tune_drop(struct tune_cand *c, int n, double confidence, int round)
{
	int lead = smallest(c, n, true, false, -1), compared = 0, live = 0;
	double alpha;
	int i;

	for (i = 0; i < n; i++)
		if (c[i].n >= 1 && (c[i].status == TUNE_LIVE ||
				    c[i].status == TUNE_DROPPED))
			compared++;
	alpha = (1 - confidence) / (compared > 1 ? compared - 1 : 1);
	for (i = 0; i < n; i++) {
		struct tune_cmp cmp;

		if (c[i].status != TUNE_LIVE)
			continue;
		if (lead >= 0 && i != lead && c[i].n >= TUNE_MIN_RUNS &&
		    c[lead].n >= TUNE_MIN_RUNS) {
			tune_compare(c[i].times, c[i].n, c[lead].times,
				     c[lead].n, confidence, &cmp);
			if (cmp.valid && cmp.p_slower_min < alpha) {
				c[i].status = TUNE_DROPPED;
				c[i].dropped_round = round;
				continue;
			}
		}
		live++;
	}
	return live;
}

/* The threshold of a comparison: max(TUNE_MIN_DIFF, its noise). */
static double threshold(const struct tune_cmp *c)
{
	return isnan(c->noise) || c->noise < TUNE_MIN_DIFF ? TUNE_MIN_DIFF :
		c->noise;
}

/* The pinned best against the unpinned candidate U. */
static void against_unpinned(const struct tune_cand *c, int u, int pin,
			     double confidence, struct tune_verdict *v)
{
	struct tune_cmp cmp;

	tune_compare(c[u].times, c[u].n, c[pin].times, c[pin].n, confidence,
		     &cmp);
	v->threshold = threshold(&cmp);
	/* beyond the threshold over the whole interval: a difference the
	   size of the noise, or one the interval cannot tell from it, is
	   no reason to pin */
	if (cmp.valid && cmp.lo - 1 > v->threshold) {
		v->kind = TUNE_V_HELPS;
		v->best = pin;
		v->other = u;
		v->cmp = cmp;
		v->decided = true;
		return;
	}
	if (cmp.valid && 1 - cmp.hi > v->threshold) {
		v->kind = TUNE_V_UNPINNED_BEST;
		v->best = u;
		v->other = pin;
		tune_compare(c[pin].times, c[pin].n, c[u].times, c[u].n,
			     confidence, &v->cmp);
		v->decided = true;
		return;
	}
	v->kind = TUNE_V_NO_HELP;
	v->best = pin;
	v->other = u;
	v->cmp = cmp;
	v->within = cmp.valid && cmp.hi - 1 > v->threshold ? cmp.hi - 1 :
		v->threshold;
	v->decided = cmp.valid && cmp.hi - 1 <= v->threshold &&
		1 - cmp.lo <= v->threshold;
}

void tune_verdict(const struct tune_cand *c, int n, double confidence,
		  struct tune_verdict *v)
{
	int u = -1, pin, i;

	v->kind = TUNE_V_NONE;
	v->best = tune_leader(c, n);
	v->other = -1;
	v->within = NAN;
	v->threshold = TUNE_MIN_DIFF;
	v->decided = false;
	tune_compare(NULL, 0, NULL, 0, confidence, &v->cmp);
	for (i = 0; i < n; i++)
		if (c[i].unpinned && c[i].n >= 2 &&
		    c[i].status != TUNE_FAILED)
			u = i;
	pin = smallest(c, n, false, true, -1);
	if (u >= 0 && pin >= 0 && c[pin].n >= 2) {
		against_unpinned(c, u, pin, confidence, v);
		return;
	}
	if (v->best < 0)
		return;
	i = smallest(c, n, false, false, v->best);
	if (i < 0 || c[i].n < 2 || c[v->best].n < 2)
		return;
	v->kind = TUNE_V_NO_DEFAULT;
	v->other = i;
	tune_compare(c[i].times, c[i].n, c[v->best].times, c[v->best].n,
		     confidence, &v->cmp);
	v->threshold = threshold(&v->cmp);
	v->decided = v->cmp.valid && v->cmp.lo - 1 > v->threshold;
}
