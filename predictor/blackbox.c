/*
 * blackbox.c - the black-box model of run time against input size
 * (Sykora and Scholz; docs/blackbox.md has every formula).
 *
 * Numerics: the normal equations of a monomial fit are badly
 * conditioned (sum x^6 is about 1e20 at x = 2500), so the sums hold
 * x / 2^e with 2^e not below any size seen: a power of two, so that a
 * larger size rescales the sums exactly.  The system is scaled to a
 * unit diagonal and solved by Gauss-Jordan elimination with partial
 * pivoting in long double; the inverse it gives prices the condition
 * number, and a fit above BB_COND_LIMIT is refused rather than
 * returned with digits that mean nothing.
 */
#include "predictor/blackbox.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define M_MAX (BB_MAX_DEGREE + 1)

const char *blackbox_flag_text(unsigned flag)
{
	switch (flag) {
	case BB_ADDED_TSEQ:
		return "one thread: added to the sums of T_seq";
	case BB_REFITTED:
		return "T_seq fitted again";
	case BB_FIT_FAILED:
		return "the fit of T_seq failed: no T_seq until more sizes "
			"make it well-conditioned";
	case BB_ALPHA_RESET:
		return "more threads than alpha's runs, or as many at a "
			"larger size: alpha starts again from this run";
	case BB_ALPHA_FOLDED:
		return "as many threads and the same size as alpha's "
			"runs: folded into alpha";
	case BB_ALPHA_LOWER:
		return "fewer threads than alpha's runs, or as many at a "
			"smaller size: alpha unchanged (it comes from the "
			"most threads, then the largest size)";
	case BB_ALPHA_NO_FIT:
		return "no T_seq yet: ignored for alpha";
	case BB_ALPHA_BAD_TSEQ:
		return "T_seq is not positive at this size: ignored for alpha";
	case BB_WARN_NEGATIVE:
		return "the predicted time is not positive: the polynomial is "
			"used outside the sizes measured";
	case BB_WARN_OUTSIDE:
		return "the size is outside the one-thread sizes measured: "
			"the polynomial is extrapolated";
	case BB_WARN_ALPHA_RANGE:
		return "alpha is outside [0, 1]: the model cannot describe "
			"this workload's scaling, and the ranking of thread "
			"counts is not to be trusted";
	default:
		return "";
	}
}

double blackbox_formula(double tseq, double alpha, int p)
{
	return tseq * (alpha / p + 1 - alpha);
}

double blackbox_alpha_i(double tseq, int p, double t)
{
	if (p < 2 || !(tseq > 0))
		return NAN;
	return (double)p / (p - 1) * (1 - t / tseq);
}

int blackbox_init(struct blackbox *bb, int degree, struct pandia_error *err)
{
	if (degree < 0 || degree > BB_MAX_DEGREE)
		return perr_set(err, "the degree of T_seq must be from 0 "
				"to %d, not %d", BB_MAX_DEGREE, degree);
	memset(bb, 0, sizeof(*bb));
	bb->degree = degree;
	bb->size_min = INFINITY;
	bb->size_max = -INFINITY;
	bb->fit = BB_FIT_NONE;
	return 0;
}

int blackbox_sizes_needed(const struct blackbox *bb)
{
	return bb->degree + 1 - bb->n_sizes;
}

double blackbox_tseq(const struct blackbox *bb, double x)
{
	long double y = 0;
	int j;

	if (bb->fit != BB_FIT_OK)
		return NAN;
	for (j = bb->degree; j >= 0; j--)
		y = y * x + bb->coef[j];
	return (double)y;
}

/* ---- T_seq: sums and the least-squares solve -------------------- */

/*
 * Solve the normal equations held in bb's sums.  Sets *cond to the
 * condition number found (0 when the elimination stopped first) and,
 * for BB_FIT_OK, coef[0..k].
 */
static enum bb_fit_status solve(const struct blackbox *bb, double *coef,
				double *cond)
{
	long double a[M_MAX][2 * M_MAX + 1], d[M_MAX], f, s, anorm = 0,
		inorm = 0;
	int m = bb->degree + 1, w = 2 * m + 1, r, c, i, piv;

	*cond = 0;
	for (r = 0; r < m; r++) {
		if (!(bb->pow_sum[2 * r] > 0) || !isfinite(bb->pow_sum[2 * r]))
			return BB_FIT_SINGULAR;
		d[r] = 1 / sqrtl(bb->pow_sum[2 * r]);
	}
	/* [D H D | I | D b]: H[r][c] = S_(r+c), b[r] = M_r */
	for (r = 0; r < m; r++) {
		for (c = 0; c < m; c++) {
			a[r][c] = bb->pow_sum[r + c] * d[r] * d[c];
			a[r][m + c] = r == c;
		}
		a[r][2 * m] = bb->moment[r] * d[r];
	}
	for (c = 0; c < m; c++) {
		for (s = 0, r = 0; r < m; r++)
			s += fabsl(a[r][c]);
		if (s > anorm)
			anorm = s;
	}
	for (c = 0; c < m; c++) {
		for (piv = c, r = c + 1; r < m; r++)
			if (fabsl(a[r][c]) > fabsl(a[piv][c]))
				piv = r;
		if (!(fabsl(a[piv][c]) > 0) || !isfinite(a[piv][c]))
			return BB_FIT_SINGULAR;
		if (piv != c)
			for (i = 0; i < w; i++) {
				f = a[c][i];
				a[c][i] = a[piv][i];
				a[piv][i] = f;
			}
		for (f = a[c][c], i = 0; i < w; i++)
			a[c][i] /= f;
		for (r = 0; r < m; r++) {
			if (r == c || a[r][c] == 0)
				continue;
			for (f = a[r][c], i = 0; i < w; i++)
				a[r][i] -= f * a[c][i];
		}
	}
	for (c = 0; c < m; c++) {
		for (s = 0, r = 0; r < m; r++)
			s += fabsl(a[r][m + c]);
		if (s > inorm)
			inorm = s;
	}
	*cond = (double)(anorm * inorm);
	if (!(*cond <= BB_COND_LIMIT))
		return BB_FIT_ILL;
	for (r = 0; r < m; r++) {
		/* back to x, then from x / 2^e to x: exact */
		coef[r] = (double)ldexpl(a[r][2 * m] * d[r],
					 -r * bb->scale_exp);
		if (!isfinite(coef[r]))
			return BB_FIT_SINGULAR;
	}
	return BB_FIT_OK;
}

/* Fit T_seq from the sums; the status says how it went. */
static enum bb_fit_status refit(struct blackbox *bb)
{
	double coef[M_MAX];

	bb->fit = solve(bb, coef, &bb->cond);
	memset(bb->coef, 0, sizeof(bb->coef));
	if (bb->fit == BB_FIT_OK)
		memcpy(bb->coef, coef, sizeof(coef[0]) * (bb->degree + 1));
	return bb->fit;
}

/* Why there is no T_seq: fill err, return -1. */
static int no_tseq(const struct blackbox *bb, struct pandia_error *err)
{
	int k = bb->degree, need = blackbox_sizes_needed(bb);

	switch (bb->fit) {
	case BB_FIT_SINGULAR:
		return perr_set(err, "the fit of T_seq is singular: the "
				"one-thread sizes do not determine a "
				"polynomial of degree %d", k);
	case BB_FIT_ILL:
		return perr_set(err, "the fit of T_seq is ill-conditioned "
				"(condition number %.3g, the limit is %.0e): "
				"measure one-thread sizes further apart, or "
				"lower the degree from %d", bb->cond,
				BB_COND_LIMIT, k);
	default:
		return perr_set(err, "T_seq needs %d more distinct size%s at "
				"one thread (degree %d needs %d, %d seen)",
				need, need == 1 ? "" : "s", k, k + 1,
				bb->n_sizes);
	}
}

/* Add (x, t) at one thread to the sums. */
static void add_tseq(struct blackbox *bb, double x, double t)
{
	double xs, pw;
	int k = bb->degree, e, j;

	frexp(x, &e);
	if (x != 0 && e > bb->scale_exp) {
		int shift = e - bb->scale_exp;

		for (j = 1; j <= 2 * k; j++)
			bb->pow_sum[j] = ldexp(bb->pow_sum[j], -j * shift);
		for (j = 1; j <= k; j++)
			bb->moment[j] = ldexp(bb->moment[j], -j * shift);
		bb->scale_exp = e;
	}
	xs = ldexp(x, -bb->scale_exp);
	for (pw = 1, j = 0; j <= 2 * k; j++) {
		bb->pow_sum[j] += pw;
		if (j <= k)
			bb->moment[j] += pw * t;
		pw *= xs;
	}
	if (x < bb->size_min)
		bb->size_min = x;
	if (x > bb->size_max)
		bb->size_max = x;
	if (bb->n_sizes <= k) {
		for (j = 0; j < bb->n_sizes; j++)
			if (bb->sizes[j] == x)
				return;
		bb->sizes[bb->n_sizes++] = x;
	}
}

/* ---- alpha -------------------------------------------------------- */

/* (p, x) against the key: p first, then x. */
static int key_cmp(int p, double x, int kp, double kx)
{
	if (p != kp)
		return p > kp ? 1 : -1;
	return (x > kx) - (x < kx);
}

static unsigned add_alpha(struct blackbox *bb, double x, int p, double t)
{
	double ai;
	int cmp;

	if (bb->fit != BB_FIT_OK)
		return BB_ALPHA_NO_FIT;
	ai = blackbox_alpha_i(blackbox_tseq(bb, x), p, t);
	if (!isfinite(ai))
		return BB_ALPHA_BAD_TSEQ;
	cmp = bb->has_alpha ? key_cmp(p, x, bb->alpha_p, bb->alpha_x) : 1;
	if (cmp < 0)
		return BB_ALPHA_LOWER;
	if (cmp > 0) {
		bb->has_alpha = true;
		bb->alpha = ai;
		bb->alpha_p = p;
		bb->alpha_x = x;
		bb->alpha_count = 1;
		return BB_ALPHA_RESET;
	}
	bb->alpha_count++;
	bb->alpha += (ai - bb->alpha) / bb->alpha_count;
	return BB_ALPHA_FOLDED;
}

/* ---- updates and fits ------------------------------------------- */

static int check_obs(double x, int p, double t, struct pandia_error *err)
{
	if (!isfinite(x))
		return perr_set(err, "the size must be a finite number, not "
				"%g", x);
	if (p < 1)
		return perr_set(err, "the thread count must be at least 1, "
				"not %d", p);
	if (!isfinite(t) || !(t > 0))
		return perr_set(err, "the time must be a finite number of "
				"seconds above 0, not %g", t);
	return 0;
}

int blackbox_update(struct blackbox *bb, double x, int p, double t,
		    unsigned *flags, struct pandia_error *err)
{
	unsigned fl = 0;

	if (flags)
		*flags = 0;
	if (check_obs(x, p, t, err) < 0)
		return -1;
	if (p == 1) {
		add_tseq(bb, x, t);
		fl |= BB_ADDED_TSEQ;
		if (bb->n_sizes == bb->degree + 1) {
			fl |= BB_REFITTED;
			if (refit(bb) != BB_FIT_OK)
				fl |= BB_FIT_FAILED;
		}
	} else {
		fl |= add_alpha(bb, x, p, t);
	}
	if (flags)
		*flags = fl;
	return 0;
}

int blackbox_fit(struct blackbox *bb, int degree, const struct bb_obs *obs,
		 size_t n, struct pandia_error *err)
{
	struct pandia_error e;
	size_t i;

	if (blackbox_init(bb, degree, err) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (check_obs(obs[i].x, obs[i].p, obs[i].t, &e) < 0)
			return perr_set(err, "observation %zu: %s", i + 1,
					e.text);
	for (i = 0; i < n; i++)
		if (obs[i].p == 1)
			add_tseq(bb, obs[i].x, obs[i].t);
	if (bb->n_sizes < degree + 1 || refit(bb) != BB_FIT_OK)
		return no_tseq(bb, err);
	for (i = 0; i < n; i++)
		if (obs[i].p > 1)
			add_alpha(bb, obs[i].x, obs[i].p, obs[i].t);
	return 0;
}

int blackbox_alpha_mean(const struct blackbox *bb, const struct bb_obs *obs,
			size_t n, bool clamp, double *alpha,
			struct pandia_error *err)
{
	double sum = 0, ai;
	size_t i, used = 0;

	if (bb->fit != BB_FIT_OK)
		return no_tseq(bb, err);
	for (i = 0; i < n; i++) {
		if (obs[i].p < 2)
			continue;
		ai = blackbox_alpha_i(blackbox_tseq(bb, obs[i].x), obs[i].p,
				      obs[i].t);
		if (!isfinite(ai))
			continue;
		if (clamp)
			ai = ai < 0 ? 0 : ai > 1 ? 1 : ai;
		sum += ai;
		used++;
	}
	if (!used)
		return perr_set(err, "no observation with more than one "
				"thread where T_seq is positive");
	*alpha = sum / used;
	return 0;
}

int blackbox_predict(const struct blackbox *bb, double x, int p, double *t,
		     unsigned *warn, struct pandia_error *err)
{
	unsigned w = 0;
	double alpha = 0;

	if (warn)
		*warn = 0;
	if (!isfinite(x))
		return perr_set(err, "the size must be a finite number, not "
				"%g", x);
	if (p < 1)
		return perr_set(err, "the thread count must be at least 1, "
				"not %d", p);
	if (bb->fit != BB_FIT_OK)
		return no_tseq(bb, err);
	if (p > 1) {
		if (!bb->has_alpha)
			return perr_set(err, "alpha is not known yet: no "
					"observation with more than one "
					"thread since T_seq was fitted");
		alpha = bb->alpha;
		if (alpha < 0 || alpha > 1)
			w |= BB_WARN_ALPHA_RANGE;
	}
	*t = blackbox_formula(blackbox_tseq(bb, x), alpha, p);
	if (!(*t > 0))
		w |= BB_WARN_NEGATIVE;
	if (!(x >= bb->size_min && x <= bb->size_max))
		w |= BB_WARN_OUTSIDE;
	if (warn)
		*warn = w;
	return 0;
}

/* ---- plausibility ---------------------------------------------- */

static bool alpha_ok(const struct blackbox *bb)
{
	return !bb->has_alpha || (bb->alpha >= 0 && bb->alpha <= 1);
}

/* T_seq positive at X and at the ends of the one-thread sizes */
static bool tseq_ok(const struct blackbox *bb, double x)
{
	if (bb->fit != BB_FIT_OK)
		return true;
	return blackbox_tseq(bb, x) > 0 &&
	       blackbox_tseq(bb, bb->size_min) > 0 &&
	       blackbox_tseq(bb, bb->size_max) > 0;
}

int blackbox_plausible(const struct blackbox *before,
		       const struct blackbox *after, double x,
		       struct pandia_error *err)
{
	char where[200] = "";

	if (before->fit == BB_FIT_OK &&
	    !(x >= before->size_min && x <= before->size_max))
		snprintf(where, sizeof(where), "; T_seq(%g) = %.4g s is "
			 "extrapolated from the one-thread sizes %g to %g: "
			 "record one-thread runs at size %g first", x,
			 blackbox_tseq(before, x), before->size_min,
			 before->size_max, x);
	if (alpha_ok(before) && !alpha_ok(after))
		return perr_set(err, "alpha would become %.4g, outside "
				"[0, 1]: more threads slower than one, or "
				"faster than p times one, which the model "
				"cannot describe%s", after->alpha, where);
	if (tseq_ok(before, x) && !tseq_ok(after, x))
		return perr_set(err, "T_seq would not be positive at size %g "
				"or at an end of the one-thread sizes (%g to "
				"%g)%s", x, after->size_min, after->size_max,
				where);
	return 0;
}

/* ---- JSON --------------------------------------------------------- */

/* A number that must come back bit for bit: 17 digits, as a string. */
static json_t *exact(double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	return json_string(buf);
}

static json_t *exact_array(const double *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, exact(v[i]));
	return a;
}

json_t *blackbox_to_json(const struct blackbox *bb)
{
	json_t *o = json_object(), *sums = json_object(), *a, *key;
	int k = bb->degree, j;

	json_object_set_new(o, "degree", json_integer(k));
	if (bb->fit == BB_FIT_OK) {
		a = json_array();
		for (j = 0; j <= k; j++)
			json_array_append_new(a, json_real(bb->coef[j]));
		json_object_set_new(o, "coefficients", a);
	} else {
		json_object_set_new(o, "coefficients", json_null());
	}
	if (bb->has_alpha) {
		json_object_set_new(o, "alpha", json_real(bb->alpha));
		key = json_object();
		json_object_set_new(key, "threads", json_integer(bb->alpha_p));
		json_object_set_new(key, "size", exact(bb->alpha_x));
		json_object_set_new(key, "count",
				    json_integer(bb->alpha_count));
		json_object_set_new(o, "alpha_key", key);
	} else {
		json_object_set_new(o, "alpha", json_null());
		json_object_set_new(o, "alpha_key", json_null());
	}
	json_object_set_new(sums, "scale_exp", json_integer(bb->scale_exp));
	json_object_set_new(sums, "size_powers",
			    exact_array(bb->pow_sum, 2 * k + 1));
	json_object_set_new(sums, "time_moments",
			    exact_array(bb->moment, k + 1));
	json_object_set_new(sums, "sizes_seen",
			    exact_array(bb->sizes, bb->n_sizes));
	if (bb->pow_sum[0] > 0) {
		a = json_array();
		json_array_append_new(a, exact(bb->size_min));
		json_array_append_new(a, exact(bb->size_max));
		json_object_set_new(sums, "size_range", a);
	} else {
		json_object_set_new(sums, "size_range", json_null());
	}
	json_object_set_new(o, "sums", sums);
	return o;
}

/* A finite number at PATH, written as a number or a string of one. */
static int read_exact(const struct json_src *src, json_t *v,
		      const char *path, double *out)
{
	if (json_is_number(v)) {
		*out = json_number_value(v);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;

		/* not parse_double(): a sum may underflow to subnormal */
		*out = strtod(s, &end);
		if (!*s || *end)
			return json_fail(src, path, "'%s' is not a number", s);
	} else {
		return json_fail(src, path, "must be a number or a string "
				 "holding one, not %s", json_type_name(v));
	}
	if (!isfinite(*out))
		return json_fail(src, path, "must be finite");
	return 0;
}

/* An array at PATH of N (or, with AT_MOST, up to N) exact numbers. */
static int read_array(const struct json_src *src, json_t *a,
		      const char *path, int n, bool at_most, double *out,
		      int *got)
{
	char p[256];
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return json_fail(src, path, "must be an array, not %s",
				 json_type_name(a));
	if (at_most ? (int)json_array_size(a) > n :
	    (int)json_array_size(a) != n)
		return json_fail(src, path, "must hold %s%d value%s, not %zu",
				 at_most ? "at most " : "", n,
				 n == 1 ? "" : "s", json_array_size(a));
	json_array_foreach(a, i, v) {
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		if (read_exact(src, v, p, &out[i]) < 0)
			return -1;
	}
	if (got)
		*got = (int)json_array_size(a);
	return 0;
}

static int load_sums(struct blackbox *bb, json_t *o, const struct json_src *src,
		     const char *path)
{
	static const char *const keys[] = {
		"scale_exp", "size_powers", "time_moments", "sizes_seen",
		"size_range", NULL
	};
	double scale, range[2];
	char p[256];
	json_t *v;
	long e;
	int k = bb->degree, i, j;

	if (!json_is_object(o))
		return json_fail(src, path, "must be an object, not %s",
				 json_type_name(o));
	if (json_only_keys(src, o, path, keys) < 0)
		return -1;
	if (json_get_long(src, o, path, "scale_exp", 0, 1000, &e, true) < 0)
		return -1;
	bb->scale_exp = (int)e;
	scale = ldexp(1, bb->scale_exp);
	snprintf(p, sizeof(p), "%s.size_powers", path);
	if (!(v = json_get_value(src, o, path, "size_powers", true)) ||
	    read_array(src, v, p, 2 * k + 1, false, bb->pow_sum, NULL) < 0)
		return -1;
	if (bb->pow_sum[0] < 0 || bb->pow_sum[0] != floor(bb->pow_sum[0]))
		return json_fail(src, p, "the first, the number of one-thread "
				 "observations, must be a whole number, not "
				 "%g", bb->pow_sum[0]);
	for (j = 2; j <= 2 * k; j += 2)
		if (bb->pow_sum[j] < 0) {
			snprintf(p, sizeof(p), "%s.size_powers[%d]", path, j);
			return json_fail(src, p, "an even power sum must not "
					 "be negative");
		}
	snprintf(p, sizeof(p), "%s.time_moments", path);
	if (!(v = json_get_value(src, o, path, "time_moments", true)) ||
	    read_array(src, v, p, k + 1, false, bb->moment, NULL) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s.sizes_seen", path);
	if (!(v = json_get_value(src, o, path, "sizes_seen", true)) ||
	    read_array(src, v, p, k + 1, true, bb->sizes, &bb->n_sizes) < 0)
		return -1;
	if (bb->n_sizes > bb->pow_sum[0] ||
	    (bb->n_sizes == 0) != (bb->pow_sum[0] == 0))
		return json_fail(src, p, "%d size%s, but %g one-thread "
				 "observation%s", bb->n_sizes,
				 bb->n_sizes == 1 ? "" : "s", bb->pow_sum[0],
				 bb->pow_sum[0] == 1 ? "" : "s");
	for (i = 0; i < bb->n_sizes; i++) {
		snprintf(p, sizeof(p), "%s.sizes_seen[%d]", path, i);
		if (fabs(bb->sizes[i]) > scale)
			return json_fail(src, p, "%g is beyond 2^scale_exp",
					 bb->sizes[i]);
		for (j = 0; j < i; j++)
			if (bb->sizes[j] == bb->sizes[i])
				return json_fail(src, p, "%g is listed twice",
						 bb->sizes[i]);
	}
	snprintf(p, sizeof(p), "%s.size_range", path);
	if (!(v = json_get_value(src, o, path, "size_range", true)))
		return -1;
	if (json_is_null(v)) {
		if (bb->pow_sum[0] > 0)
			return json_fail(src, p, "must be given when there "
					 "are one-thread observations");
		return 0;
	}
	if (bb->pow_sum[0] == 0)
		return json_fail(src, p, "must be null when there is no "
				 "one-thread observation");
	if (read_array(src, v, p, 2, false, range, NULL) < 0)
		return -1;
	if (range[0] > range[1] || fabs(range[0]) > scale ||
	    fabs(range[1]) > scale)
		return json_fail(src, p, "must be [min, max] within "
				 "2^scale_exp");
	for (i = 0; i < bb->n_sizes; i++)
		if (bb->sizes[i] < range[0] || bb->sizes[i] > range[1])
			return json_fail(src, p, "does not hold size %g of "
					 "sizes_seen", bb->sizes[i]);
	bb->size_min = range[0];
	bb->size_max = range[1];
	return 0;
}

static int load_alpha(struct blackbox *bb, json_t *o,
		      const struct json_src *src, const char *path)
{
	static const char *const keys[] = { "threads", "size", "count", NULL };
	json_t *va, *vk, *v;
	char p[256];
	long n;

	snprintf(p, sizeof(p), "%s.alpha", path);
	if (!(va = json_get_value(src, o, path, "alpha", true)) ||
	    !(vk = json_get_value(src, o, path, "alpha_key", true)))
		return -1;
	if (json_is_null(va) != json_is_null(vk))
		return json_fail(src, json_is_null(va) ? p : path, "alpha and "
				 "alpha_key must both be null or both given");
	if (json_is_null(va))
		return 0;
	if (!json_is_number(va) || !isfinite(json_number_value(va)))
		return json_fail(src, p, "must be a finite number or null, "
				 "not %s", json_type_name(va));
	bb->has_alpha = true;
	bb->alpha = json_number_value(va);
	/*
	 * Each alpha_i = (1 - t / T_seq) / (1 - 1 / p) of a positive time
	 * t on p >= 2 cores is below 2; below -1e6 it says a run took over
	 * 500,000 times as long as one thread: magnitudes no machine has.
	 */
	if (bb->alpha >= 2 || bb->alpha < -1e6)
		return json_fail(src, p, "%g is beyond what any measured "
				 "times give (below 2, and not a run "
				 "500,000 times slower than one thread)",
				 bb->alpha);
	snprintf(p, sizeof(p), "%s.alpha_key", path);
	if (!json_is_object(vk))
		return json_fail(src, p, "must be an object or null, not %s",
				 json_type_name(vk));
	if (json_only_keys(src, vk, p, keys) < 0 ||
	    json_get_long(src, vk, p, "threads", 2, 1L << 30, &n, true) < 0 ||
	    !(v = json_get_value(src, vk, p, "size", true)))
		return -1;
	bb->alpha_p = (int)n;
	snprintf(p, sizeof(p), "%s.alpha_key.size", path);
	if (read_exact(src, v, p, &bb->alpha_x) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s.alpha_key", path);
	return json_get_long(src, vk, p, "count", 1, 1L << 62,
			     &bb->alpha_count, true);
}

/*
 * The first coefficient of GIVEN that disagrees with bb's fit of the
 * sums, or -1: compared in x / 2^e, relative to the largest term.
 */
static int coef_mismatch(const struct blackbox *bb, const double *given)
{
	double big = 0, d;
	int j;

	for (j = 0; j <= bb->degree; j++) {
		d = fabs(ldexp(bb->coef[j], j * bb->scale_exp));
		if (d > big)
			big = d;
	}
	for (j = 0; j <= bb->degree; j++) {
		d = fabs(ldexp(given[j] - bb->coef[j], j * bb->scale_exp));
		if (!(d <= 1e-6 * big))
			return j;
	}
	return -1;
}

int blackbox_from_json(struct blackbox *bb, json_t *obj,
		       const struct json_src *src, const char *path)
{
	static const char *const keys[] = {
		"degree", "coefficients", "alpha", "alpha_key", "sums", NULL
	};
	struct pandia_error e;
	double given[M_MAX];
	char p[256];
	json_t *v, *vc;
	long k;
	int j;

	perr_clear(src->err);
	if (!json_is_object(obj))
		return json_fail(src, path, "must be an object, not %s",
				 json_type_name(obj));
	if (json_only_keys(src, obj, path, keys) < 0)
		return -1;
	if (json_get_long(src, obj, path, "degree", 0, BB_MAX_DEGREE, &k,
			  true) < 0)
		return -1;
	blackbox_init(bb, (int)k, &e);
	snprintf(p, sizeof(p), "%s.sums", path);
	if (!(v = json_get_value(src, obj, path, "sums", true)) ||
	    load_sums(bb, v, src, p) < 0 || load_alpha(bb, obj, src, path) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s.coefficients", path);
	if (!(vc = json_get_value(src, obj, path, "coefficients", true)))
		return -1;
	if (!json_is_null(vc)) {
		for (j = 0; j < (int)json_array_size(vc); j++)
			if (!json_is_number(json_array_get(vc, j))) {
				snprintf(p, sizeof(p), "%s.coefficients[%d]",
					 path, j);
				return json_fail(src, p, "must be a number, "
						 "not %s", json_type_name(
						 json_array_get(vc, j)));
			}
		if (read_array(src, vc, p, (int)k + 1, false, given,
			       NULL) < 0)
			return -1;
	}
	if (bb->n_sizes == k + 1) {
		/* the sums decide: what was written must be their fit */
		if (refit(bb) != BB_FIT_OK) {
			if (json_is_null(vc))
				return 0;
			no_tseq(bb, &e);
			return json_fail(src, p, "given, but the sums give no "
					 "fit: %s", e.text);
		}
		if (json_is_null(vc))
			return 0;
		j = coef_mismatch(bb, given);
		if (j >= 0) {
			snprintf(p, sizeof(p), "%s.coefficients[%d]", path, j);
			return json_fail(src, p, "%g does not match the fit of "
					 "the sums (%g): edit neither by hand, "
					 "or drop the sums", given[j],
					 bb->coef[j]);
		}
		return 0;
	}
	/* too few sizes in the sums: coefficients given by hand stand */
	if (!json_is_null(vc)) {
		memcpy(bb->coef, given, sizeof(given[0]) * (k + 1));
		bb->fit = BB_FIT_OK;
	}
	return 0;
}
