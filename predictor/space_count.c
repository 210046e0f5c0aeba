/*
 * space_count.c - how many canonical placements a space holds: all of
 * them, those with at most so many layouts, and those that run so many
 * threads (a convolution over the socket classes).
 */
#include "predictor/space.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

bool space_threads_alike(const struct space *sp)
{
	return sp->k == 1 && sp->n_slots == 1 && sp->n_groups == 1 &&
		sp->groups[0].n_pus == 1;
}

struct space_count space_count_all(const struct space *sp)
{
	struct space_count c = { 1, false };
	const unsigned __int128 max = ~(unsigned __int128)0;
	int i, j;

	for (i = 0; i < sp->n_classes; i++) {
		const struct sclass *cl = &sp->classes[i];
		unsigned __int128 b = 1;
		int n = cl->n_states + cl->n_sockets - 1;

		/* multisets of n_sockets states: C(n, n_sockets), built
		   as a product of exact partial binomials */
		for (j = 1; j <= cl->n_sockets; j++) {
			unsigned __int128 f = (unsigned __int128)(n -
				cl->n_sockets + j);

			if (b > max / f) {
				c.overflow = true;
				b = max / f;
			}
			b = b * f / (unsigned)j;
		}
		if (b && c.n > max / b) {
			c.overflow = true;
			c.n = max;
		} else {
			c.n *= b;
		}
	}
	if (!c.overflow)
		c.n -= 1;	/* the empty placement */
	return c;
}

/* a * b, saturating; *over set when it saturates */
static unsigned __int128 mul_sat(unsigned __int128 a, unsigned __int128 b,
				 bool *over)
{
	const unsigned __int128 max = ~(unsigned __int128)0;

	if (a && b > max / a) {
		*over = true;
		return max;
	}
	return a * b;
}

/* C(n, k), saturating */
static unsigned __int128 binom_sat(long long n, int k, bool *over)
{
	unsigned __int128 b = 1;
	int i;

	if (k < 0 || n < k)
		return 0;
	if (k > n - k)
		k = (int)(n - k);
	for (i = 1; i <= k; i++) {
		b = mul_sat(b, (unsigned __int128)(n - k + i), over);
		if (*over)
			return b;
		b /= (unsigned)i;
	}
	return b;
}

struct space_count space_count_layouts(const struct space *sp, int layouts)
{
	struct space_count c = { 1, false };
	int i, d;

	if (layouts <= 0)
		return space_count_all(sp);
	for (i = 0; i < sp->n_classes; i++) {
		const struct sclass *cl = &sp->classes[i];
		unsigned __int128 sum = 0, t;
		int top = layouts < cl->n_sockets ? layouts : cl->n_sockets;

		/*
		 * d distinct non-empty states among the class's S sockets:
		 * which d of the N - 1, and how many sockets take each
		 * (at least one) with the rest empty: C(S, d) ways (the
		 * compositions of S - e into d parts, summed over e).
		 */
		for (d = 0; d <= top; d++) {
			t = mul_sat(binom_sat(cl->n_states - 1, d, &c.overflow),
				    binom_sat(cl->n_sockets, d, &c.overflow),
				    &c.overflow);
			sum = sum + t < sum ? (c.overflow = true,
					       ~(unsigned __int128)0) : sum + t;
		}
		c.n = mul_sat(c.n, sum, &c.overflow);
	}
	if (!c.overflow)
		c.n -= 1;	/* the empty placement */
	return c;
}

#define COUNT_SAT 1e300

static double add_sat(double a, double b)
{
	return a + b > COUNT_SAT ? COUNT_SAT : a + b;
}

/* C(n, k) as a double (saturating) */
static double binom_d(double n, int k)
{
	double r = 1;
	int i;

	if (k < 0 || n < k)
		return 0;
	for (i = 1; i <= k && r < COUNT_SAT; i++)
		r = r * (n - k + i) / i;
	return r < COUNT_SAT ? r : COUNT_SAT;
}

/*
 * One class's placements by thread count (q[0..T], T = TARGET):
 * multisets of its S sockets' states with at most LAYOUTS distinct
 * non-empty ones (0: any), h[t] the non-empty states with t threads.
 * Returns -1 when the full count would take too long, or for a limit
 * of 3 layouts or more below S (which the ranking never asks for).
 */
static int class_poly(const struct sclass *cl, int T, int layouts, double *q)
{
	int S = cl->n_sockets, tmax = cl->states[cl->n_states - 1].threads;
	int t, u, a, b, s, x, j, ret = 0;
	double *h = xcalloc((size_t)tmax + 1, sizeof(double));

	for (x = 1; x < cl->n_states; x++)
		h[cl->states[x].threads]++;
	for (x = 0; x <= T; x++)
		q[x] = 0;
	q[0] = 1;
	if (layouts >= S)
		layouts = 0;	/* no limit on this class */
	if (layouts > 2) {
		ret = -1;	/* not needed by the ranking */
		goto out;
	}
	if (layouts == 1) {
		for (t = 1; t <= tmax && t <= T; t++)
			for (a = 1; a <= S && a * t <= T; a++)
				q[a * t] = add_sat(q[a * t], h[t]);
	} else if (layouts == 2) {
		for (t = 1; t <= tmax && t <= T; t++)
			for (a = 1; a <= S && a * t <= T; a++)
				q[a * t] = add_sat(q[a * t], h[t]);
		/* two distinct states, a and b sockets (ordered: they
		   differ) */
		for (t = 1; t <= tmax && t <= T; t++)
			for (u = t; u <= tmax && t + u <= T; u++) {
				double pairs = u == t ? binom_d(h[t], 2) :
					h[t] * h[u];

				if (!(pairs > 0))
					continue;
				for (a = 1; a < S; a++)
					for (b = 1; a + b <= S &&
					     a * t + b * u <= T; b++)
						q[a * t + b * u] = add_sat(
							q[a * t + b * u],
							pairs);
			}
	} else {
		/* any states: g[s][tau], s non-empty sockets so far */
		double work = 0, *g = NULL;

		for (t = 1; t <= tmax && t <= T; t++)
			work += (double)S * (T + 1) *
				(S < T / t + 1 ? S : T / t + 1);
		if (work > 3e8) {
			ret = -1;
			goto out;
		}
		g = xcalloc((size_t)(S + 1) * (size_t)(T + 1), sizeof(double));
		g[0] = 1;
		for (t = 1; t <= tmax && t <= T; t++) {
			if (!(h[t] > 0))
				continue;
			/* add j of this bucket's h[t] states (any repeats):
			   C(h + j - 1, j) ways; s falls so each g is used
			   before it changes */
			for (s = S - 1; s >= 0; s--)
				for (x = T; x >= 0; x--) {
					double v = g[s * (T + 1) + x];

					if (!(v > 0))
						continue;
					for (j = 1; s + j <= S &&
					     x + j * t <= T; j++) {
						size_t o = (size_t)(s + j) *
							(size_t)(T + 1) +
							(size_t)(x + j * t);

						g[o] = add_sat(g[o], v *
							binom_d(h[t] + j - 1,
								j));
					}
				}
		}
		for (x = 0; x <= T; x++) {
			q[x] = 0;
			for (s = 0; s <= S; s++)
				q[x] = add_sat(q[x], g[s * (T + 1) + x]);
		}
		free(g);
	}
out:
	free(h);
	return ret;
}

double space_count_threads(const struct space *sp, int threads, int layouts)
{
	int T = threads, i, x, y;
	double *acc = xcalloc((size_t)T + 1, sizeof(double));
	double *q = xcalloc((size_t)T + 1, sizeof(double));
	double *nx = xcalloc((size_t)T + 1, sizeof(double));
	double n = 0;

	acc[0] = 1;
	for (i = 0; i < sp->n_classes; i++) {
		if (class_poly(&sp->classes[i], T, layouts, q) < 0) {
			n = -1;
			goto out;
		}
		for (x = 0; x <= T; x++)
			nx[x] = 0;
		for (x = 0; x <= T; x++) {
			if (!(acc[x] > 0))
				continue;
			for (y = 0; x + y <= T; y++)
				if (q[y] > 0)
					nx[x + y] = add_sat(nx[x + y],
							    acc[x] * q[y]);
		}
		memcpy(acc, nx, sizeof(double) * (size_t)(T + 1));
	}
	n = acc[T];
out:
	free(acc);
	free(q);
	free(nx);
	return n;
}

const char *space_count_format(struct space_count c, char *buf, int size)
{
	char tmp[64];
	int n = 0, i;
	unsigned __int128 v = c.n;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v && n < 60);
	for (i = 0; i < n && i < size - 2; i++)
		buf[i] = tmp[n - 1 - i];
	if (c.overflow && i < size - 2)
		buf[i++] = '+';
	buf[i] = '\0';
	return buf;
}
