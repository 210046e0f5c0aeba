/*
 * model_solve.c - the iteration of sections 5.1 to 5.5 on a built
 * model, and the bottleneck it finds.
 */
#include "predictor/pandia/model.h"

#include <math.h>
#include <stdlib.h>

#include "predictor/pandia/model_internal.h"

/* Step (b) in the group-structured form: U, Z, links, group maxima. */
static void fast_loads(struct model *md)
{
	int G = md->n_groups, C = md->n_classes, g, c, i;
	const struct mclass *restrict cls = md->cls;
	const double *restrict f0 = md->f0;
	double *restrict U = md->gU, Z = 0, S = 0;
	bool spread = md->sp->mem.kind == MEM_SPREAD;

	for (g = 0; g < G; g++)
		U[g] = 0;
	for (c = 0; c < C; c++)
		U[cls[c].group] += cls[c].ps * f0[c];
	if (md->zbeta > 0 || spread) {
		for (g = 0; g < G; g++)
			S += md->groups[g].mult * U[g];
		Z = S * md->zbeta;
	}
	for (g = 0; g < G; g++) {
		double M = md->gas[g] * U[g];
		int k = md->gkind[g];

		if (spread && md->gsz[g] * S > M) {
			M = md->gsz[g] * S;
			k = RK_NODE;
		}

		if (md->zbeta > 0 && Z > M) {
			M = Z;
			k = RK_NODE;
		}
		/* the links of g: U_g a_gh + U_h a_hg */
		for (i = md->glink0[g]; i < md->glink0[g + 1]; i++) {
			const struct glink *x = &md->glinks[i];
			double l = U[g] * x->out + U[x->h] * x->in;

			if (l > M) {
				M = l;
				k = RK_PAIR;
			}
		}
		md->gM[g] = M;
		md->gMk[g] = k;
	}
}

/* The slowest class's bottleneck kind in the group-structured form. */
static void fast_bottleneck(struct model *md)
{
	int c = md->slowest, i;
	const struct mclass *cl = &md->cls[c];
	double own = cl->pmax * md->f0[c], pu = pu_time(md, cl, md->f0[c]);
	double q = quota_time(md, md->f0[c]);
	int kind = cl->pkind;

	for (i = 0; i < md->n_classes; i++)
		md->bott[i] = -1;
	if (pu > 1 && pu > own) {
		own = pu;
		kind = RK_PU;
	}
	if (q > 1 && q > own) {
		own = q;
		kind = RK_QUOTA;
	}
	md->fast_kind = own >= md->gM[cl->group] ? kind : md->gMk[cl->group];
}

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

			if (md->res[r].kind == RK_QUOTA)
				md->load[r] = fmax(md->load[r],
						   quota_time(md, md->f0[c]));
			else
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
		for (i = cl->inc0; i < cl->inc0 + cl->ninc; i++) {
			int r = md->inc[i].res;
			double l = md->res[r].kind == RK_QUOTA ?
				quota_time(md, md->f0[c]) : md->load[r];

			if (l > mx) {
				mx = l;
				md->bott[c] = r;
			}
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
			pu_time(md, cl, md->f0[c]) :
			md->res[r].kind == RK_QUOTA ?
			quota_time(md, md->f0[c]) : md->owner[r] == c ?
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
 * What one solve holds beside the model's per-class state: the
 * paper's constants for this placement and the acceleration's memory.
 */
struct solve_run {
	double n;		/* threads */
	double amdahl;		/* Amdahl's speedup at n threads (5.5) */
	double finit;		/* f_initial = amdahl / n (5.4); 1 with
				   the serial work on the first thread */
	double os;		/* o_s per remote thread */
	bool trace;		/* md->trace is set */
	bool do_comm;		/* threads are on several sockets */
	bool accelerate;	/* Anderson steps still trusted */
	bool jumped;		/* the last step was accelerated */
	double prev_delta;	/* the last iteration's largest change */
};

/* The residuals of one iteration, for convergence and Anderson(1). */
struct solve_resid {
	double delta;		/* largest |change of ratio| */
	double num, den;	/* the secant's numerator, denominator */
};

/* Room for the loads, f_initial from Amdahl's law, ratios at 1. */
static void solve_start(struct model *md, struct solve_run *run)
{
	const struct model_params *prm = &md->prm;
	double parallel = prm->p;	/* p, the parallel fraction */
	int c, g;

	/* o_s per remote fraction: per remote thread over n - 1 others */
	run->os = prm->os_fraction && md->n > 1 ?
		prm->o_s / (md->n - 1) : prm->o_s;
	run->n = md->n;
	run->trace = md->trace != NULL;
	run->do_comm = false;
	run->jumped = false;
	run->prev_delta = INFINITY;
	if (md->n_res > md->cap_load) {
		md->cap_load = 2 * md->n_res + 16;
		free(md->load);
		md->load = xcalloc((size_t)md->cap_load, sizeof(double));
	}
	run->amdahl = 1 / ((1 - parallel) + parallel / run->n);
	/* the serial work on the first thread alone: the utilisations
	   are those of the parallel part, where every thread works */
	run->finit = prm->serial_first ? 1 : run->amdahl / run->n;
	md->amdahl = run->amdahl;
	md->converged = false;
	/* communication only when threads are on several sockets */
	for (c = 0; c < md->n_classes; c++) {
		md->ratio[c] = 1;
		md->dprev[c] = 0;
		md->rprev[c] = 1;
		if (run->os > 0 && md->cls[c].tsock < run->n)
			run->do_comm = true;
	}
	for (g = 0; g < md->n_groups; g++)
		md->gmul[g] = 1.0 / md->groups[g].mult;
	run->accelerate = md->accelerate;
}

/* (a) utilisations: Amdahl at the start (5.1), carried from the last
   iteration after it (5.4) */
static void step_utilisation(struct model *md, const struct solve_run *run,
			     int it)
{
	int c;

	for (c = 0; c < md->n_classes; c++)
		md->f0[c] = run->finit * md->ratio[c];
	if (run->trace) {
		for (c = 0; c < md->n_classes; c++) {
			md->sres[c] = md->sfin[c] = 1;
			md->comm[c] = md->lb[c] = 0;
		}
		trace_step(md, it, 'a');
	}
}

/* (b) naive demands: rates scaled by utilisation (5.1) */
static void step_demands(struct model *md, const struct solve_run *run,
			 int it)
{
	const struct mclass *restrict cls = md->cls;
	double *restrict load = md->load;
	int c, i;

	/* the PUs' time every thread asks of the quota */
	if (md->quota > 0) {
		md->quota_u = 0;
		for (c = 0; c < md->n_classes; c++)
			md->quota_u += cls[c].n * md->f0[c];
	}
	if (md->fast) {
		fast_loads(md);
		return;
	}
	for (i = 0; i < md->n_res; i++)
		load[i] = md->has_bg ? md->bgload[i] : 0;
	for (c = 0; c < md->n_classes; c++) {
		const struct minc *x = &md->sinc[cls[c].sinc0];

		for (i = 0; i < cls[c].nsinc; i++)
			load[x[i].res] += x[i].coef * md->f0[c];
	}
	if (run->trace) {
		full_loads(md);
		md->trace(md, it, 'b', md->trace_arg);
	}
}

/*
 * Class c's slowdown from resources (5.1): its most oversubscribed
 * resource (into rawmax), plus burstiness where threads share a core,
 * times its core kind's slowness, at most MODEL_SLOW_MAX.
 */
static double resource_slowdown(struct model *md, int c)
{
	const struct mclass *cl = &md->cls[c];
	double f0 = md->f0[c], burst = md->prm.b;	/* b */
	double mx = cl->pmax * f0, sc;
	double pu = pu_time(md, cl, f0), q = quota_time(md, f0);
	int i;

	mx = pu > mx ? pu : mx;
	mx = q > mx ? q : mx;

	if (md->fast) {
		double g = md->gM[cl->group];

		mx = g > mx ? g : mx;
	} else {
		const struct minc *x = &md->sinc[cl->sinc0];

		for (i = 0; i < cl->nsinc; i++) {
			double l = md->load[x[i].res];

			mx = l > mx ? l : mx;
		}
	}
	md->rawmax[c] = mx;
	sc = mx > 1 ? mx : 1;
	/* 5.1: "whenever threads share a core", be it on
	 * other PUs of it (SMT) or time-sharing its PU */
	if ((cl->smt || cl->kappa > 1) && md->prm.b_core) {
		/* b on the core's throughput only: the
		   part of the slowdown the core sets */
		double core = cl->cinstr * f0;

		core = pu > core ? pu : core;
		core = core > 1 ? core : 1;
		core += core * burst * f0;
		sc = core > sc ? core : sc;
	} else if (cl->smt || cl->kappa > 1) {
		sc += sc * burst * f0;
	}
	/* a core of a slower kind (1 on one kind) */
	sc *= cl->slow;
	if (sc > MODEL_SLOW_MAX)
		sc = MODEL_SLOW_MAX;
	return sc;
}

/*
 * (c) the most oversubscribed resource, plus burstiness where threads
 * share a core (5.1).  Returns W, the sum of every thread's 1 / sres;
 * md->gw sums it per socket group.
 */
static double step_resources(struct model *md, const struct solve_run *run,
			     int it)
{
	double work = 0;	/* W */
	int c, g;

	for (g = 0; g < md->n_groups; g++)
		md->gw[g] = 0;
	for (c = 0; c < md->n_classes; c++) {
		const struct mclass *cl = &md->cls[c];
		double sc = resource_slowdown(md, c);

		md->sres[c] = sc;
		md->isres[c] = 1 / sc;
		work += cl->n * md->isres[c];
		md->gw[cl->group] += cl->n * md->isres[c];
		md->comm[c] = 0;
	}
	if (run->trace) {
		find_bottlenecks(md);
		trace_step(md, it, 'c');
	}
	return work;
}

/*
 * (d) inter-socket communication (5.2): the work weights
 * w_j = (1/s_j) / W; gw sums them per socket group.  Returns the
 * largest slowdown so far, at least 1.
 */
static double step_communication(struct model *md,
				 const struct solve_run *run, int it,
				 double work)
{
	double indep_share = md->prm.l;		/* l */
	double smax = 1;
	int c;

	if (run->do_comm) {
		double iw = 1 / work;

		for (c = 0; c < md->n_classes; c++) {
			const struct mclass *cl = &md->cls[c];
			double lock = run->os * (run->n - cl->tsock);
			double ind = run->n * run->os *
				(1 - md->gw[cl->group] * iw *
				 md->gmul[cl->group]);

			if (ind < 0)
				ind = 0;
			md->comm[c] = (indep_share * ind +
				       (1 - indep_share) * lock) * md->f0[c] *
				md->isres[c];
		}
	}
	for (c = 0; c < md->n_classes; c++) {
		double sc = md->sres[c] + md->comm[c];

		if (sc > MODEL_SLOW_MAX) {
			sc = MODEL_SLOW_MAX;
			md->comm[c] = sc - md->sres[c];
		}
		smax = sc > smax ? sc : smax;
	}
	if (run->trace)
		trace_step(md, it, 'd');
	return smax;
}

/*
 * (e) load balance towards the slowest thread (5.3), and what carries
 * into the next iteration (5.4): the change g the iteration asks for,
 * left in md->isres, and the residuals in *RES.
 */
static void step_balance(struct model *md, const struct solve_run *run,
			 int it, double smax, struct solve_resid *res)
{
	double indep_share = md->prm.l;		/* l */
	int c;

	res->delta = res->num = res->den = 0;
	for (c = 0; c < md->n_classes; c++) {
		double sc = md->sres[c] + md->comm[c], g;
		double dprev = md->dprev[c];

		md->lb[c] = (1 - indep_share) * (smax - sc);
		md->sfin[c] = sc + md->lb[c];
		g = md->sres[c] / md->sfin[c] - md->ratio[c];
		if (fabs(g) > res->delta)
			res->delta = fabs(g);
		/* Anderson(1): secant on the residuals */
		res->num += (g - dprev) * g;
		res->den += (g - dprev) * (g - dprev);
		md->isres[c] = g;
	}
	if (run->trace)
		trace_step(md, it, 'e');
}

/*
 * The carry (5.4): the next iteration starts from f0 = finit x ratio.
 * From iteration 3 on, step with Anderson acceleration (depth 1):
 * r' = r + g - gamma (dr + dg), the secant through the last two
 * residuals.  It finds the fixed point of the plain iteration
 * (r' = r + g) in fewer steps; iterations 1 and 2 (Figures 7 and 9)
 * are plain.  After MODEL_DAMP_AFTER iterations the step is damped.
 */
static void carry(struct model *md, struct solve_run *run, int it,
		  const struct solve_resid *res)
{
	double gamma;
	bool jump;
	int c;

	/*
	 * Safeguard: an accelerated step that made the residual
	 * grow is not trusted; the plain iteration goes on alone.
	 */
	if (run->jumped && res->delta > run->prev_delta)
		run->accelerate = false;
	run->prev_delta = res->delta;
	gamma = res->den > 0 ? res->num / res->den : 0;
	jump = run->accelerate && it >= 3 && it <= MODEL_DAMP_AFTER &&
		res->den > 0 && isfinite(gamma);
	run->jumped = jump;
	for (c = 0; c < md->n_classes; c++) {
		double g = md->isres[c], r = md->ratio[c] + g;

		if (jump) {
			r -= gamma * (md->ratio[c] - md->rprev[c] + g -
				      md->dprev[c]);
			r = r > 1 ? 1 : r < 1e-12 ? 1e-12 : r;
		}
		if (it > MODEL_DAMP_AFTER) {
			double damp = it <= 2 * MODEL_DAMP_AFTER ?
				0.5 : 0.5 * MODEL_DAMP_AFTER /
				(it - MODEL_DAMP_AFTER);

			r = md->ratio[c] + damp * (r - md->ratio[c]);
		}
		md->rprev[c] = md->ratio[c];
		md->dprev[c] = g;
		md->ratio[c] = r;
	}
}

/*
 * The serial work's slowdown on the first thread alone: the others
 * wait, so only a co-runner beside it slows it (as it slows the
 * thread in the parallel part); 1 without.
 */
static double serial_slowdown(const struct model *md)
{
	int c0 = md->n_threads > 0 && !md->fast ? md->thread_class[0] : -1;

	return c0 >= 0 && c0 < md->n_classes && md->cls[c0].corun > 1 ?
		md->sres[c0] : 1;
}

/*
 * The speedup: Amdahl x mean(1 / s_i) (5.5), and the bottleneck.  With
 * the serial work on the first thread alone (a departure, docs/model.md
 * "Where the serial work runs"): 1 / ((1 - p) s_0 + p / sum(1 / s_i)),
 * the parallel part's threads sharing p as their speeds allow.
 */
static void solve_result(struct model *md, const struct solve_run *run)
{
	double sum = 0, worst = 0;
	int c;

	md->slowest = 0;
	for (c = 0; c < md->n_classes; c++) {
		sum += md->cls[c].n / md->sfin[c];
		md->f[c] = md->f0[c] / md->sfin[c];
		if (md->sfin[c] > worst) {
			worst = md->sfin[c];
			md->slowest = c;
		}
	}
	md->serial_slow = md->prm.serial_first ? serial_slowdown(md) : 1;
	if (md->prm.serial_first)
		md->speedup = 1 / ((1 - md->prm.p) * md->serial_slow +
				   md->prm.p / sum);
	else
		md->speedup = run->amdahl * sum / run->n;
	md->time = md->prm.t1 / md->speedup;
	if (!isfinite(md->time))
		md->time = 1e300;
	if (md->fast) {
		fast_bottleneck(md);
	} else if (md->merge && !run->trace) {
		slowest_bottleneck(md);
	} else {
		full_loads(md);
		find_bottlenecks(md);
	}
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
	struct solve_run run;
	struct solve_resid res;
	int it;

	solve_start(md, &run);
	for (it = 1; it <= MODEL_MAX_ITER; it++) {
		double work, smax;

		step_utilisation(md, &run, it);
		step_demands(md, &run, it);
		work = step_resources(md, &run, it);
		smax = step_communication(md, &run, it, work);
		step_balance(md, &run, it, smax, &res);
		carry(md, &run, it, &res);
		if (res.delta <= md->tol) {
			md->converged = true;
			break;
		}
	}
	md->iterations = it > MODEL_MAX_ITER ? MODEL_MAX_ITER : it;
	solve_result(md, &run);
}
