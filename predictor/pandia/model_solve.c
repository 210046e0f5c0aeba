/*
 * model_solve.c - the iteration of sections 5.1 to 5.5 on a built
 * model, and the bottleneck it finds.
 */
#include "predictor/pandia/model.h"

#include <math.h>
#include <stdlib.h>

#include "predictor/pandia/model_int.h"

/* Every resource's load at the current f0 (the solver skips those that
   one class loads alone). */
static void full_loads(struct model *md)
{
	int c, i;

	for (i = 0; i < md->n_res; i++)
		md->load[i] = md->has_bg ? md->bgload[i] : 0;
	for (c = 0; c < md->n_classes; c++) {
		const struct mclass *cl = &md->cls[c];

		for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++) {
			int r = md->inc[i].res;

			md->load[r] += md->res[r].kind == RK_PU ?
				pu_time(md, cl, md->f0[c]) :
				md->inc[i].coef * md->f0[c];
		}
	}
}

/* Each class's most oversubscribed resource in the current loads. */
static void find_bottlenecks(struct model *md)
{
	int c, i;

	for (c = 0; c < md->n_classes; c++) {
		const struct mclass *cl = &md->cls[c];
		double mx = 0;

		md->bott[c] = -1;
		for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++)
			if (md->load[md->inc[i].res] > mx) {
				mx = md->load[md->inc[i].res];
				md->bott[c] = md->inc[i].res;
			}
	}
}

/*
 * For ranking: the bottleneck of the slowest class only, from the
 * shared loads of the last iteration and its own resources' coef * f0
 * (the other classes' bott stay -1).
 */
static void slowest_bottleneck(struct model *md)
{
	int c = md->slowest, i;
	const struct mclass *cl = &md->cls[c];
	double mx = 0;

	for (i = 0; i < md->n_classes; i++)
		md->bott[i] = -1;
	for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++) {
		int r = md->inc[i].res;
		double l = md->res[r].kind == RK_PU ?
			pu_time(md, cl, md->f0[c]) : md->owner[r] == c ?
			md->inc[i].coef * md->f0[c] : md->load[r];

		if (l > mx) {
			mx = l;
			md->bott[c] = r;
		}
	}
}

/* The utilisations after a step, for the trace: f0 / slowdown so far. */
static void trace_step(struct model *md, int it, char step)
{
	int c;

	for (c = 0; c < md->n_classes; c++) {
		double s = md->sres[c];

		if (step >= 'd')
			s += md->comm[c];
		if (step >= 'e')
			s += md->lb[c];
		md->f[c] = md->f0[c] / s;
	}
	md->trace(md, it, step, md->trace_arg);
}

/*
 * Sections 5.1 to 5.5.  Per iteration and class c, with f0 the
 * utilisation at the start of the iteration:
 *   sres = max(1, max load/capacity on its path), + sres*b*f0 if its
 *          core runs threads on other PUs;
 *   comm = (l * indep + (1 - l) * lockstep) * f0 / sres;
 *   lb   = (1 - l) * (max(sres + comm) - (sres + comm));
 *   sfin = sres + comm + lb;
 * and the next iteration starts from f0 = finit * sres / sfin.
 */
void model_solve(struct model *md)
{
	bool accelerate, jumped = false;
	double prev_delta = INFINITY;
	const struct model_params *p = &md->prm;
	const struct mclass *restrict cls = md->cls;
	double *restrict f0 = md->f0, *restrict sres = md->sres;
	double *restrict comm = md->comm, *restrict lb = md->lb;
	double *restrict sfin = md->sfin, *restrict ratio = md->ratio;
	double *restrict dprev = md->dprev, *restrict isres = md->isres;
	double *restrict gw = md->gw, *restrict rawmax = md->rawmax;
	int C = md->n_classes, G = md->n_groups, it, c, i;
	double n = md->n, pp = p->p, A, finit, *load;
	bool tr = md->trace != NULL, do_comm = false;
	const double ll = p->l, bb = p->b;
	/* o_s per remote fraction: per remote thread over n - 1 others */
	const double os = p->os_fraction && md->n > 1 ?
		p->o_s / (md->n - 1) : p->o_s;

	if (md->n_res > md->cap_load) {
		md->cap_load = 2 * md->n_res + 16;
		free(md->load);
		md->load = xcalloc((size_t)md->cap_load, sizeof(double));
	}
	load = md->load;
	A = 1 / ((1 - pp) + pp / n);
	finit = A / n;
	md->amdahl = A;
	md->converged = false;
	/* communication only when threads are on several sockets */
	for (c = 0; c < C; c++) {
		ratio[c] = 1;
		dprev[c] = 0;
		md->rprev[c] = 1;
		if (os > 0 && cls[c].tsock < n)
			do_comm = true;
	}
	for (i = 0; i < G; i++)
		md->gmul[i] = 1.0 / md->groups[i].mult;
	accelerate = md->accelerate;
	for (it = 1; it <= MODEL_MAX_ITER; it++) {
		double smax = 1, delta = 0, W = 0, num = 0, den = 0, q;
		bool jump;

		/* (a) utilisations: Amdahl at the start (5.1), carried from
		   the last iteration after it (5.4) */
		for (c = 0; c < C; c++)
			f0[c] = finit * ratio[c];
		if (tr) {
			for (c = 0; c < C; c++) {
				sres[c] = sfin[c] = 1;
				comm[c] = lb[c] = 0;
			}
			trace_step(md, it, 'a');
		}

		/* (b) naive demands: rates scaled by utilisation (5.1) */
		if (md->fast) {
			model_fast_loads(md);
		} else {
			for (i = 0; i < md->n_res; i++)
				load[i] = md->has_bg ? md->bgload[i] : 0;
			for (c = 0; c < C; c++) {
				const struct minc *x = &md->sinc[cls[c].sinc0];

				for (i = 0; i < cls[c].nsinc; i++)
					load[x[i].res] += x[i].coef * f0[c];
			}
			if (tr) {
				full_loads(md);
				md->trace(md, it, 'b', md->trace_arg);
			}
		}

		/* (c) the most oversubscribed resource, plus burstiness
		   where threads share a core (5.1) */
		for (i = 0; i < G; i++)
			gw[i] = 0;
		for (c = 0; c < C; c++) {
			const struct mclass *cl = &cls[c];
			double mx = cl->pmax * f0[c], sc;
			double pu = pu_time(md, cl, f0[c]);

			mx = pu > mx ? pu : mx;

			if (md->fast) {
				double g = md->gM[cl->group];

				mx = g > mx ? g : mx;
			} else {
				const struct minc *x = &md->sinc[cl->sinc0];

				for (i = 0; i < cl->nsinc; i++) {
					double l = load[x[i].res];

					mx = l > mx ? l : mx;
				}
			}
			rawmax[c] = mx;
			sc = mx > 1 ? mx : 1;
			/* 5.1: "whenever threads share a core", be it on
			 * other PUs of it (SMT) or time-sharing its PU */
			if ((cl->smt || cl->kappa > 1) && p->b_core) {
				/* b on the core's throughput only: the
				   part of the slowdown the core sets */
				double core = cl->cinstr * f0[c];

				core = pu > core ? pu : core;
				core = core > 1 ? core : 1;
				core += core * bb * f0[c];
				sc = core > sc ? core : sc;
			} else if (cl->smt || cl->kappa > 1) {
				sc += sc * bb * f0[c];
			}
			/* a core of a slower kind (1 on one kind) */
			sc *= cl->slow;
			if (sc > MODEL_SLOW_MAX)
				sc = MODEL_SLOW_MAX;
			sres[c] = sc;
			isres[c] = 1 / sc;
			W += cl->n * isres[c];
			gw[cl->group] += cl->n * isres[c];
			comm[c] = 0;
		}
		if (tr) {
			find_bottlenecks(md);
			trace_step(md, it, 'c');
		}

		/* (d) inter-socket communication (5.2): the work weights
		   w_j = (1/s_j) / W; gw sums them per socket group */
		if (do_comm) {
			double iw = 1 / W;

			for (c = 0; c < C; c++) {
				const struct mclass *cl = &cls[c];
				double lock = os * (n - cl->tsock);
				double ind = n * os * (1 - gw[cl->group] * iw *
						       md->gmul[cl->group]);

				if (ind < 0)
					ind = 0;
				comm[c] = (ll * ind + (1 - ll) * lock) * f0[c] *
					isres[c];
			}
		}
		for (c = 0; c < C; c++) {
			double sc = sres[c] + comm[c];

			if (sc > MODEL_SLOW_MAX) {
				sc = MODEL_SLOW_MAX;
				comm[c] = sc - sres[c];
			}
			smax = sc > smax ? sc : smax;
		}
		if (tr)
			trace_step(md, it, 'd');

		/* (e) load balance towards the slowest thread (5.3), and
		   what carries into the next iteration (5.4): g = the
		   change the iteration asks for */
		for (c = 0; c < C; c++) {
			double sc = sres[c] + comm[c], g;

			lb[c] = (1 - ll) * (smax - sc);
			sfin[c] = sc + lb[c];
			g = sres[c] / sfin[c] - ratio[c];
			if (fabs(g) > delta)
				delta = fabs(g);
			/* Anderson(1): secant on the residuals */
			num += (g - dprev[c]) * g;
			den += (g - dprev[c]) * (g - dprev[c]);
			isres[c] = g;
		}
		if (tr)
			trace_step(md, it, 'e');

		/*
		 * The carry (5.4): the next iteration starts from
		 * f0 = finit x ratio.  From iteration 3 on, step with
		 * Anderson acceleration (depth 1):
		 * r' = r + g - gamma (dr + dg), the secant
		 * through the last two residuals.  It finds the fixed
		 * point of the plain iteration (r' = r + g) in fewer
		 * steps; iterations 1 and 2 (Figures 7 and 9) are plain.
		 */
		/*
		 * Safeguard: an accelerated step that made the residual
		 * grow is not trusted; the plain iteration goes on alone.
		 */
		if (jumped && delta > prev_delta)
			accelerate = false;
		prev_delta = delta;
		q = den > 0 ? num / den : 0;
		jump = accelerate && it >= 3 && it <= MODEL_DAMP_AFTER &&
			den > 0 && isfinite(q);
		jumped = jump;
		for (c = 0; c < C; c++) {
			double g = isres[c], r = ratio[c] + g;

			if (jump) {
				r -= q * (ratio[c] - md->rprev[c] + g -
					  dprev[c]);
				r = r > 1 ? 1 : r < 1e-12 ? 1e-12 : r;
			}
			if (it > MODEL_DAMP_AFTER) {
				double alpha = it <= 2 * MODEL_DAMP_AFTER ?
					0.5 : 0.5 * MODEL_DAMP_AFTER /
					(it - MODEL_DAMP_AFTER);

				r = ratio[c] + alpha * (r - ratio[c]);
			}
			md->rprev[c] = ratio[c];
			dprev[c] = g;
			ratio[c] = r;
		}
		if (delta <= md->tol) {
			md->converged = true;
			break;
		}
	}
	md->iterations = it > MODEL_MAX_ITER ? MODEL_MAX_ITER : it;

	/* the speedup: Amdahl x mean(1 / s_i) (5.5) */
	{
		double sum = 0, worst = 0;

		md->slowest = 0;
		for (c = 0; c < C; c++) {
			sum += cls[c].n / sfin[c];
			md->f[c] = f0[c] / sfin[c];
			if (sfin[c] > worst) {
				worst = sfin[c];
				md->slowest = c;
			}
		}
		md->speedup = A * sum / n;
		md->time = p->t1 / md->speedup;
		if (!isfinite(md->time))
			md->time = 1e300;
		if (md->fast) {
			model_fast_bottleneck(md);
		} else if (md->merge && !tr) {
			slowest_bottleneck(md);
		} else {
			full_loads(md);
			find_bottlenecks(md);
		}
	}
}
