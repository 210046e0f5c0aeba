/*
 * estima.c - ESTIMA: the kernels, their least-squares fits, the choice
 * of fits and the translation of stalls into time (estima.h;
 * docs/extrapolate.md gives every formula).
 */
#include "predictor/estima.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* A target beyond this is a typo, not a machine. */
#define ESTIMA_MAX_TARGET 65536

/*
 * |R_kk| below this times |R_00| (columns at unit norm) means the
 * points do not determine the parameters.  Exact dependence leaves
 * rounding (1e-15 or so); with 1% noise on the digest's synthetic
 * data no fit comes near it.
 */
#define RANK_TOL 1e-10

/* A fitted value below -NEG_SLACK * (largest datum) is negative. */
#define NEG_SLACK 1e-9

static const struct {
	const char *name;
	int n_params;		/* values in estima_fit.p */
	int free_params;
	int num_deg, den_deg;	/* rationals; den_deg 0: none */
} kernels[EK_COUNT] = {
	[EK_RAT22] = { "Rat22", 5, 5, 2, 2 },
	[EK_RAT23] = { "Rat23", 6, 6, 2, 3 },
	[EK_RAT33] = { "Rat33", 7, 7, 3, 3 },
	[EK_CUBICLN] = { "CubicLn", 4, 4, 0, 0 },
	[EK_EXPRAT] = { "ExpRat", 4, 3, 0, 0 },
	[EK_POLY25] = { "Poly25", 4, 4, 0, 0 },
};

const char *estima_kernel_name(enum estima_kernel k)
{
	return (unsigned)k < EK_COUNT ? kernels[k].name : "?";
}

int estima_kernel_from_name(const char *name)
{
	int k;

	for (k = 0; k < EK_COUNT; k++)
		if (!strcmp(name, kernels[k].name))
			return k;
	return -1;
}

int estima_kernel_free_params(enum estima_kernel k)
{
	return kernels[k].free_params;
}

int estima_kernel_n_params(enum estima_kernel k)
{
	return kernels[k].n_params;
}

static bool is_rational(enum estima_kernel k)
{
	return kernels[k].den_deg > 0;
}

/* ---- the solver ------------------------------------------------- */

/*
 * Least squares: the x (COLS values) that minimises |A x - b|, A of
 * ROWS x COLS (ROWS >= COLS) stored by column, a[j * rows + i].  A and
 * b are overwritten.  Each column is first scaled to unit norm (the
 * powers of n span many orders of magnitude), then Householder QR with
 * column pivoting (the column of largest remaining norm first), then
 * back substitution.  Returns 0, or -1 when A is rank deficient.
 */
static int lsq_solve(double *a, double *b, int rows, int cols, double *x)
{
	double colscale[ESTIMA_MAX_PARAMS], z[ESTIMA_MAX_PARAMS];
	int perm[ESTIMA_MAX_PARAMS];
	double *v = xmalloc(sizeof(double) * (size_t)rows);
	double r00 = 0;
	int i, j, k, ret = -1;

	for (j = 0; j < cols; j++) {
		double s = 0;

		for (i = 0; i < rows; i++)
			s += a[j * rows + i] * a[j * rows + i];
		s = sqrt(s);
		if (!(s > 0) || !isfinite(s))
			goto out;
		for (i = 0; i < rows; i++)
			a[j * rows + i] /= s;
		colscale[j] = s;
		perm[j] = j;
	}
	for (k = 0; k < cols; k++) {
		double best = -1, alpha = 0, vv = 0;
		int p = k;

		for (j = k; j < cols; j++) {
			double s = 0;

			for (i = k; i < rows; i++)
				s += a[j * rows + i] * a[j * rows + i];
			if (s > best) {
				best = s;
				p = j;
			}
		}
		if (p != k) {
			int t = perm[k];

			for (i = 0; i < rows; i++) {
				double u = a[k * rows + i];

				a[k * rows + i] = a[p * rows + i];
				a[p * rows + i] = u;
			}
			perm[k] = perm[p];
			perm[p] = t;
		}
		alpha = sqrt(best);
		if (a[k * rows + k] > 0)
			alpha = -alpha;
		if (k == 0)
			r00 = fabs(alpha);
		if (!(fabs(alpha) > RANK_TOL * r00))
			goto out;
		for (i = k; i < rows; i++)
			v[i] = a[k * rows + i];
		v[k] -= alpha;
		for (i = k; i < rows; i++)
			vv += v[i] * v[i];
		for (j = k + 1; j <= cols; j++) {
			/* column j, or b when j == cols */
			double *c = j < cols ? &a[j * rows] : b;
			double t = 0;

			for (i = k; i < rows; i++)
				t += v[i] * c[i];
			t = 2 * t / vv;
			for (i = k; i < rows; i++)
				c[i] -= t * v[i];
		}
		a[k * rows + k] = alpha;
	}
	for (k = cols - 1; k >= 0; k--) {
		double s = b[k];

		for (j = k + 1; j < cols; j++)
			s -= a[j * rows + k] * z[j];
		z[k] = s / a[k * rows + k];
	}
	for (k = 0; k < cols; k++)
		x[perm[k]] = z[k] / colscale[perm[k]];
	ret = 0;
	for (k = 0; k < cols; k++)
		if (!isfinite(x[k]))
			ret = -1;
out:
	free(v);
	return ret;
}

/* ---- the kernels -------------------------------------------------- */

static double poly(const double *c, int deg, double n)
{
	double s = 0;
	int i;

	for (i = deg; i >= 0; i--)
		s = s * n + c[i];
	return s;
}

/* 1 + b1 n + ... + bq n^q, with b = {b1, ..., bq}. */
static double den(const double *b, int q, double n)
{
	double s = 0;
	int i;

	for (i = q - 1; i >= 0; i--)
		s = s * n + b[i];
	return 1 + s * n;
}

double estima_eval(const struct estima_fit *fit, double n)
{
	const double *p = fit->p;
	double l;

	switch (fit->kernel) {
	case EK_RAT22:
	case EK_RAT23:
	case EK_RAT33: {
		int pd = kernels[fit->kernel].num_deg;

		return poly(p, pd, n) /
			den(p + pd + 1, kernels[fit->kernel].den_deg, n);
	}
	case EK_CUBICLN:
		l = log(n);
		return p[0] + l * (p[1] + l * (p[2] + l * p[3]));
	case EK_EXPRAT:
		return exp((p[0] + p[1] * n) / (p[2] + p[3] * n));
	case EK_POLY25:
		return p[0] + n * (p[1] + n * (p[2] + sqrt(n) * p[3]));
	default:
		return NAN;
	}
}

int estima_fit_kernel(enum estima_kernel k, const double *x,
		      const double *y, int n, struct estima_fit *fit,
		      struct pandia_error *err)
{
	int cols = kernels[k].free_params, i, j, ret = -1;
	double sol[ESTIMA_MAX_PARAMS], ys = 0, *a, *b;

	memset(fit, 0, sizeof(*fit));
	fit->kernel = k;
	fit->points = n;
	fit->rmse = NAN;
	fit->corr = NAN;
	if (n < cols)
		return perr_set(err, "%s needs %d points, %d given",
				kernels[k].name, cols, n);
	/* fit y / ys, so that the system is near unit scale */
	for (i = 0; i < n; i++) {
		if (!isfinite(y[i]) || !(x[i] > 0))
			return perr_set(err, "point %d is not finite, or its "
					"n is not positive", i + 1);
		if (fabs(y[i]) > ys)
			ys = fabs(y[i]);
	}
	if (k == EK_EXPRAT)
		for (i = 0; i < n; i++)
			if (!(y[i] > 0))
				return perr_set(err, "ExpRat needs positive "
						"values, point %d is %g",
						i + 1, y[i]);
	if (ys == 0)
		ys = 1;
	a = xmalloc(sizeof(double) * (size_t)(n * cols));
	b = xmalloc(sizeof(double) * (size_t)n);
	for (i = 0; i < n; i++) {
		double t = x[i], v = y[i] / ys, l;

		switch (k) {
		case EK_RAT22:
		case EK_RAT23:
		case EK_RAT33: {
			/* y (1 + b1 n + ...) = a0 + a1 n + ...: linear in
			   a and b once y b_j n^j moves to the right */
			int pd = kernels[k].num_deg;
			double pw = 1;

			for (j = 0; j <= pd; j++, pw *= t)
				a[j * n + i] = pw;
			pw = t;
			for (j = pd + 1; j < cols; j++, pw *= t)
				a[j * n + i] = -v * pw;
			b[i] = v;
			break;
		}
		case EK_CUBICLN:
			l = log(t);
			a[0 * n + i] = 1;
			a[1 * n + i] = l;
			a[2 * n + i] = l * l;
			a[3 * n + i] = l * l * l;
			b[i] = v;
			break;
		case EK_EXPRAT:
			/* ln y (1 + d n) = a + b n, with c = 1 */
			l = log(v);
			a[0 * n + i] = 1;
			a[1 * n + i] = t;
			a[2 * n + i] = -t * l;
			b[i] = l;
			break;
		case EK_POLY25:
			a[0 * n + i] = 1;
			a[1 * n + i] = t;
			a[2 * n + i] = t * t;
			a[3 * n + i] = t * t * sqrt(t);
			b[i] = v;
			break;
		default:
			break;
		}
	}
	if (lsq_solve(a, b, n, cols, sol) < 0) {
		perr_set(err, "%s: the %d points do not determine its "
			 "parameters", kernels[k].name, n);
		goto out;
	}
	switch (k) {
	case EK_RAT22:
	case EK_RAT23:
	case EK_RAT33:
		for (j = 0; j < cols; j++)
			fit->p[j] = j <= kernels[k].num_deg ? sol[j] * ys :
				sol[j];
		break;
	case EK_EXPRAT:
		/* ln(y / ys) (1 + d n) = a' + b' n gives a = a' + ln ys,
		   b = b' + d ln ys */
		fit->p[0] = sol[0] + log(ys);
		fit->p[1] = sol[1] + sol[2] * log(ys);
		fit->p[2] = 1;
		fit->p[3] = sol[2];
		break;
	default:
		for (j = 0; j < cols; j++)
			fit->p[j] = sol[j] * ys;
		break;
	}
	ret = 0;
out:
	free(a);
	free(b);
	return ret;
}

/*
 * Whether 1 + b1 t + ... + bq t^q (q <= 3) is zero somewhere in the
 * real interval [lo, hi]: it is when its least and greatest values
 * there differ in sign, and those lie at the ends or where its
 * derivative b1 + 2 b2 t + 3 b3 t^2 is zero.
 */
static bool den_zero_in(const double *b, int q, double lo, double hi)
{
	double t[4], qa, qb, qc, mn, mx, d;
	int nt = 0, i;

	t[nt++] = lo;
	t[nt++] = hi;
	qa = q >= 3 ? 3 * b[2] : 0;
	qb = q >= 2 ? 2 * b[1] : 0;
	qc = b[0];
	if (qa == 0) {
		if (qb != 0)
			t[nt++] = -qc / qb;
	} else {
		d = qb * qb - 4 * qa * qc;
		if (d >= 0) {
			double s = -0.5 * (qb + copysign(sqrt(d), qb));

			t[nt++] = s / qa;
			if (s != 0)
				t[nt++] = qc / s;
		}
	}
	mn = INFINITY;
	mx = -INFINITY;
	for (i = 0; i < nt; i++) {
		if (!(t[i] >= lo && t[i] <= hi))
			continue;
		d = den(b, q, t[i]);
		if (!isfinite(d))
			return true;
		if (d < mn)
			mn = d;
		if (d > mx)
			mx = d;
	}
	return mn <= 0 && mx >= 0;
}

bool estima_fit_realistic(const struct estima_fit *fit, int N, double scale,
			  char *why, size_t size)
{
	enum estima_kernel k = fit->kernel;
	char local[8];
	int i;

	if (!why) {
		why = local;
		size = sizeof(local);
	}
	for (i = 0; i < kernels[k].n_params; i++)
		if (!isfinite(fit->p[i])) {
			snprintf(why, size, "a parameter is not finite");
			return false;
		}
	if (is_rational(k)) {
		int pd = kernels[k].num_deg;

		if (den_zero_in(fit->p + pd + 1, kernels[k].den_deg, 1, N)) {
			snprintf(why, size, "a pole in [1, %d]", N);
			return false;
		}
	} else if (k == EK_EXPRAT) {
		/* c + d n, c = 1: linear, zero inside iff the ends differ */
		double d1 = fit->p[2] + fit->p[3];
		double dn = fit->p[2] + fit->p[3] * N;

		if (d1 * dn <= 0) {
			snprintf(why, size, "a pole in [1, %d]", N);
			return false;
		}
	}
	for (i = 1; i <= N; i++) {
		double v = estima_eval(fit, i);

		if (!isfinite(v)) {
			snprintf(why, size, "not finite at n = %d", i);
			return false;
		}
		if (v < -NEG_SLACK * scale) {
			snprintf(why, size, "negative at n = %d (%g)", i, v);
			return false;
		}
	}
	return true;
}

void estima_fit_format(const struct estima_fit *fit, char *buf, size_t size)
{
	static const char *const names[EK_COUNT][ESTIMA_MAX_PARAMS] = {
		[EK_RAT22] = { "a0", "a1", "a2", "b1", "b2" },
		[EK_RAT23] = { "a0", "a1", "a2", "b1", "b2", "b3" },
		[EK_RAT33] = { "a0", "a1", "a2", "a3", "b1", "b2", "b3" },
		[EK_CUBICLN] = { "a", "b", "c", "d" },
		[EK_EXPRAT] = { "a", "b", "c", "d" },
		[EK_POLY25] = { "a", "b", "c", "d" },
	};
	size_t len;
	int i;

	snprintf(buf, size, "%s(", kernels[fit->kernel].name);
	for (i = 0; i < kernels[fit->kernel].n_params; i++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%s=%.6g", i ? ", " : "",
			 names[fit->kernel][i], fit->p[i]);
	}
	len = strlen(buf);
	snprintf(buf + len, size - len, ") on %d runs", fit->points);
}

/* ---- choosing fits ------------------------------------------------ */

void estima_options_init(struct estima_options *opt)
{
	opt->target = 0;
	opt->checkpoints = 2;
	opt->freq_ratio = 1;
}

int estima_runs_needed(int checkpoints)
{
	return checkpoints + 3;
}

struct pick {
	bool found;
	struct estima_fit best;
	int tried, unfitted, rejected;
};

static double max_abs(const double *y, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		if (fabs(y[i]) > s)
			s = fabs(y[i]);
	return s;
}

/*
 * Step B of the digest: the last C of the M points are checkpoints;
 * every kernel is fitted to the first i points, i = 3..M - C, where it
 * has no more free parameters than i; unrealistic fits on [1, N] are
 * dropped; the least RMSE at the checkpoints wins (the first in the
 * order i, then kernel, on a tie).
 */
static void pick_by_checkpoints(const double *x, const double *y, int m,
				int c, int N, struct pick *pk)
{
	double scale = max_abs(y, m);
	struct estima_fit f;
	int i, k, j;

	memset(pk, 0, sizeof(*pk));
	for (i = 3; i <= m - c; i++) {
		for (k = 0; k < EK_COUNT; k++) {
			double se = 0;

			if (kernels[k].free_params > i)
				continue;
			pk->tried++;
			if (estima_fit_kernel(k, x, y, i, &f, NULL) < 0) {
				pk->unfitted++;
				continue;
			}
			if (!estima_fit_realistic(&f, N, scale, NULL, 0)) {
				pk->rejected++;
				continue;
			}
			for (j = m - c; j < m; j++) {
				double e = estima_eval(&f, x[j]) - y[j];

				se += e * e;
			}
			f.rmse = sqrt(se / c);
			if (!isfinite(f.rmse)) {
				pk->rejected++;
				continue;
			}
			if (!pk->found || f.rmse < pk->best.rmse) {
				pk->best = f;
				pk->found = true;
			}
		}
	}
}

/* Pearson's correlation of a and b (n values); NAN when undefined. */
static double pearson(const double *a, const double *b, int n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
	int i;

	for (i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= n;
	mb /= n;
	for (i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	if (!(saa > 0) || !(sbb > 0))
		return NAN;
	return sab / sqrt(saa * sbb);
}

/*
 * Step C: F = T / S at the M runs (x, f) fitted with every kernel on
 * every prefix of i = 3..M runs (as the categories are, but with no
 * checkpoints: nothing is chosen by its error); among the realistic
 * fits, the one whose times F(n) S(n) correlate best with S(n),
 * n = 1..N, wins; on equal correlation (to 1e-12), the one closer to
 * the measured F (RMSE over all M runs), then the first in the order
 * i, then kernel.  Fills *out and returns 0, or -1 when no kernel fits.
 */
struct factor_pick {
	const double *x, *f;	/* the runs and their F */
	int m;
	const double *spc;	/* S(n), n = 1..N */
	int N;
	double scale;		/* largest |F| */
	double *t;		/* scratch: N values */
	bool found;
	double best;		/* its correlation, -2 when undefined */
	struct estima_fit fit;
};

/* Keep FIT in fp when realistic and better than the one kept. */
static void consider_factor(struct factor_pick *fp, struct estima_fit *fit)
{
	double se = 0, corr;
	int n, j;

	if (!estima_fit_realistic(fit, fp->N, fp->scale, NULL, 0))
		return;
	for (n = 1; n <= fp->N; n++)
		fp->t[n - 1] = estima_eval(fit, n) * fp->spc[n - 1];
	fit->corr = pearson(fp->t, fp->spc, fp->N);
	for (j = 0; j < fp->m; j++) {
		double e = estima_eval(fit, fp->x[j]) - fp->f[j];

		se += e * e;
	}
	fit->rmse = sqrt(se / fp->m);
	/* an undefined correlation ranks below any other */
	corr = isnan(fit->corr) ? -2 : fit->corr;
	if (!fp->found || corr > fp->best + 1e-12 ||
	    (corr >= fp->best - 1e-12 && fit->rmse < fp->fit.rmse)) {
		fp->fit = *fit;
		fp->best = corr;
		fp->found = true;
	}
}

static int pick_factor(const double *x, const double *f, int m,
		       const double *spc, int N, struct estima_fit *out)
{
	struct factor_pick fp = {
		.x = x, .f = f, .m = m, .spc = spc, .N = N,
		.scale = max_abs(f, m),
		.t = xmalloc(sizeof(double) * (size_t)N),
	};
	struct estima_fit fit;
	int i, k;

	for (i = 3; i <= m; i++) {
		for (k = 0; k < EK_COUNT; k++) {
			if (kernels[k].free_params > i ||
			    estima_fit_kernel(k, x, f, i, &fit, NULL) < 0)
				continue;
			consider_factor(&fp, &fit);
		}
	}
	free(fp.t);
	if (!fp.found)
		return -1;
	*out = fp.fit;
	return 0;
}

/* ---- the whole algorithm ------------------------------------------ */

static int check_options(const struct pandia_scaling *s,
			 const struct estima_options *opt,
			 struct pandia_error *err)
{
	int need, last;

	if (!opt)
		return perr_set(err, "no options given");
	if (opt->checkpoints < 1)
		return perr_set(err, "checkpoints must be at least 1, not %d",
				opt->checkpoints);
	if (!(opt->freq_ratio > 0) || !isfinite(opt->freq_ratio))
		return perr_set(err, "the frequency ratio must be a finite "
				"number above 0, not %g", opt->freq_ratio);
	if (scaling_check(s, err) < 0)
		return -1;
	if (s->n_categories == 0)
		return perr_set(err, "the runs have no stall category: "
				"ESTIMA extrapolates stalls");
	need = estima_runs_needed(opt->checkpoints);
	if (s->n_runs < need)
		return perr_set(err, "too few runs to extrapolate from: %d "
				"given, %d needed with %d checkpoint%s (3 to "
				"fit, then the checkpoints): %d more",
				s->n_runs, need, opt->checkpoints,
				opt->checkpoints == 1 ? "" : "s",
				need - s->n_runs);
	last = s->runs[s->n_runs - 1].threads;
	if (opt->target < last || opt->target > ESTIMA_MAX_TARGET)
		return perr_set(err, "the target must be from %d (the most "
				"threads measured) to %d, not %d", last,
				ESTIMA_MAX_TARGET, opt->target);
	return 0;
}

static double *fit_values(const struct estima_fit *fit, int N)
{
	double *v = xmalloc(sizeof(double) * (size_t)N);
	int n;

	for (n = 1; n <= N; n++)
		v[n - 1] = estima_eval(fit, n);
	return v;
}

static int argmin(const double *v, int N)
{
	int n, best = 1;

	for (n = 2; n <= N; n++)
		if (v[n - 1] < v[best - 1])
			best = n;
	return best;
}

struct estima_result *estima_run(const struct pandia_scaling *s,
				 const struct estima_options *opt,
				 struct pandia_error *err)
{
	struct estima_result *r = NULL;
	double *x = NULL, *y = NULL;
	struct pick pk;
	int m, c, N, i, k, n;

	if (check_options(s, opt, err) < 0)
		return NULL;
	m = s->n_runs;
	c = opt->checkpoints;
	N = opt->target;
	r = xcalloc(1, sizeof(*r));
	r->target = N;
	r->checkpoints = c;
	r->freq_ratio = opt->freq_ratio;
	r->n_runs = m;
	r->run_threads = xmalloc(sizeof(int) * (size_t)m);
	r->run_time = xmalloc(sizeof(double) * (size_t)m);
	x = xmalloc(sizeof(double) * (size_t)m);
	y = xmalloc(sizeof(double) * (size_t)m);
	for (i = 0; i < m; i++) {
		r->run_threads[i] = s->runs[i].threads;
		r->run_time[i] = s->runs[i].time * opt->freq_ratio;
		x[i] = s->runs[i].threads;
	}

	/* B: every category alone */
	r->categories = xcalloc((size_t)s->n_categories,
				sizeof(*r->categories));
	r->stalls_per_core = xcalloc((size_t)N, sizeof(double));
	for (k = 0; k < s->n_categories; k++) {
		struct estima_category *cat = &r->categories[k];

		r->n_categories++;
		cat->name = xstrdup(s->categories[k]);
		for (i = 0; i < m; i++)
			y[i] = s->runs[i].stalls[k];
		pick_by_checkpoints(x, y, m, c, N, &pk);
		cat->tried = pk.tried;
		cat->unfitted = pk.unfitted;
		cat->rejected = pk.rejected;
		if (!pk.found) {
			perr_set(err, "stall category '%s': no kernel fits it "
				 "realistically on [1, %d] (%d fits tried: %d "
				 "not determined, %d unrealistic)", cat->name,
				 N, pk.tried, pk.unfitted, pk.rejected);
			goto fail;
		}
		cat->fit = pk.best;
		cat->values = fit_values(&cat->fit, N);
		for (n = 1; n <= N; n++)
			r->stalls_per_core[n - 1] += cat->values[n - 1];
	}
	/* C: stalls per core, extrapolated and measured */
	for (n = 1; n <= N; n++)
		r->stalls_per_core[n - 1] /= n;
	r->measured_factor = xmalloc(sizeof(double) * (size_t)m);
	for (i = 0; i < m; i++) {
		double sum = 0;

		for (k = 0; k < s->n_categories; k++)
			sum += s->runs[i].stalls[k];
		if (!(sum > 0)) {
			perr_set(err, "runs[%d]: the stalls at %d threads sum "
				 "to 0: no factor turns them into time", i,
				 s->runs[i].threads);
			goto fail;
		}
		r->measured_factor[i] = r->run_time[i] / (sum / x[i]);
	}
	if (pick_factor(x, r->measured_factor, m, r->stalls_per_core, N,
			&r->factor) < 0) {
		perr_set(err, "no kernel fits the factor from stalls per core "
			 "to time realistically on [1, %d]", N);
		goto fail;
	}
	r->factor_values = fit_values(&r->factor, N);
	r->time = xmalloc(sizeof(double) * (size_t)N);
	r->speedup = xmalloc(sizeof(double) * (size_t)N);
	for (n = 1; n <= N; n++)
		r->time[n - 1] = r->factor_values[n - 1] *
			r->stalls_per_core[n - 1];
	r->t1 = r->time[0];
	if (s->runs[0].threads == 1)
		r->t1 = r->run_time[0];
	for (n = 1; n <= N; n++)
		r->speedup[n - 1] = r->t1 / r->time[n - 1];
	r->limit = argmin(r->time, N);

	/* the baseline: time itself, chosen as the stalls are */
	pick_by_checkpoints(x, r->run_time, m, c, N, &pk);
	if (pk.found) {
		r->baseline.ok = true;
		r->baseline.fit = pk.best;
		r->baseline.time = fit_values(&pk.best, N);
		r->baseline.limit = argmin(r->baseline.time, N);
	} else {
		snprintf(r->baseline.why, sizeof(r->baseline.why),
			 "no kernel fits the time realistically on [1, %d] "
			 "(%d fits tried: %d not determined, %d "
			 "unrealistic)", N, pk.tried, pk.unfitted,
			 pk.rejected);
	}
	free(x);
	free(y);
	return r;
fail:
	free(x);
	free(y);
	estima_result_free(r);
	return NULL;
}

void estima_result_free(struct estima_result *r)
{
	int k;

	if (!r)
		return;
	for (k = 0; k < r->n_categories; k++) {
		free(r->categories[k].name);
		free(r->categories[k].values);
	}
	free(r->categories);
	free(r->stalls_per_core);
	free(r->measured_factor);
	free(r->factor_values);
	free(r->time);
	free(r->speedup);
	free(r->run_threads);
	free(r->run_time);
	free(r->baseline.time);
	free(r);
}

/* ---- JSON --------------------------------------------------------- */

static json_t *reals(const double *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

static json_t *fit_json(const struct estima_fit *fit)
{
	json_t *o = json_object();

	json_object_set_new(o, "kernel",
			    json_string(kernels[fit->kernel].name));
	json_object_set_new(o, "points", json_integer(fit->points));
	json_object_set_new(o, "params",
			    reals(fit->p, kernels[fit->kernel].n_params));
	if (!isnan(fit->rmse))
		json_object_set_new(o, "rmse", json_real(fit->rmse));
	if (!isnan(fit->corr))
		json_object_set_new(o, "corr", json_real(fit->corr));
	return o;
}

json_t *estima_result_to_json(const struct estima_result *r)
{
	json_t *root = json_object(), *a, *o;
	int n, i, k;

	json_object_set_new(root, "target", json_integer(r->target));
	json_object_set_new(root, "checkpoints",
			    json_integer(r->checkpoints));
	json_object_set_new(root, "freq_ratio", json_real(r->freq_ratio));
	json_object_set_new(root, "limit", json_integer(r->limit));
	json_object_set_new(root, "t1", json_real(r->t1));
	a = json_array();
	for (n = 1, i = 0; n <= r->target; n++) {
		o = json_object();
		json_object_set_new(o, "threads", json_integer(n));
		json_object_set_new(o, "time", json_real(r->time[n - 1]));
		json_object_set_new(o, "speedup",
				    json_real(r->speedup[n - 1]));
		json_object_set_new(o, "stalls_per_core",
				    json_real(r->stalls_per_core[n - 1]));
		json_object_set_new(o, "factor",
				    json_real(r->factor_values[n - 1]));
		while (i < r->n_runs && r->run_threads[i] < n)
			i++;
		if (i < r->n_runs && r->run_threads[i] == n)
			json_object_set_new(o, "measured",
					    json_real(r->run_time[i]));
		if (r->baseline.ok)
			json_object_set_new(o, "baseline",
				json_real(r->baseline.time[n - 1]));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "predictions", a);
	o = json_object();
	for (k = 0; k < r->n_categories; k++) {
		const struct estima_category *cat = &r->categories[k];
		json_t *co = fit_json(&cat->fit);

		json_object_set_new(co, "tried", json_integer(cat->tried));
		json_object_set_new(co, "unfitted",
				    json_integer(cat->unfitted));
		json_object_set_new(co, "rejected",
				    json_integer(cat->rejected));
		json_object_set_new(co, "values", reals(cat->values,
							r->target));
		json_object_set_new(o, cat->name, co);
	}
	json_object_set_new(root, "categories", o);
	o = fit_json(&r->factor);
	json_object_set_new(o, "measured", reals(r->measured_factor,
						 r->n_runs));
	json_object_set_new(root, "factor", o);
	if (r->baseline.ok) {
		o = fit_json(&r->baseline.fit);
		json_object_set_new(o, "limit",
				    json_integer(r->baseline.limit));
	} else {
		o = json_object();
		json_object_set_new(o, "error", json_string(r->baseline.why));
	}
	json_object_set_new(root, "baseline", o);
	return root;
}
