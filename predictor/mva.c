/*
 * mva.c - Bardhan and Menasce's two-layer queueing model of memory
 * contention, by mean value analysis (docs/mva.md).
 *
 * The lower layer is a closed network of the jobs that hold a core:
 * Core-I (a delay centre: instructions without memory stalls), memory
 * (one queue, or local and remote queues) and the disk (a queue).  The
 * upper layer puts the jobs that wait for a core in front of it.
 */
#include "predictor/mva.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonpos.h"
#include "common/util.h"

static const char *const field_names[MVA_NFIELDS] = {
	"cpu_demand", "mem_demand", "mem_local_demand", "mem_remote_demand",
	"disk_demand"
};

const char *mva_field_name(enum mva_field f)
{
	return f >= 0 && f < MVA_NFIELDS ? field_names[f] : "?";
}

/* ---- parameters --------------------------------------------------- */

void mva_params_init(struct mva_params *p)
{
	memset(p, 0, sizeof(*p));
}

void mva_params_release(struct mva_params *p)
{
	int f;

	for (f = 0; f < MVA_NFIELDS; f++)
		free(p->source[f]);
	free(p->note);
	mva_params_init(p);
}

void mva_params_set_source(struct mva_params *p, enum mva_field f,
			   const char *s)
{
	free(p->source[f]);
	p->source[f] = s ? xstrdup(s) : NULL;
}

static double field_value(const struct mva_params *p, enum mva_field f)
{
	switch (f) {
	case MVA_CPU: return p->cpu_demand;
	case MVA_MEM: return p->mem_demand;
	case MVA_MEM_LOCAL: return p->mem_local_demand;
	case MVA_MEM_REMOTE: return p->mem_remote_demand;
	default: return p->disk_demand;
	}
}

static double *field_ptr(struct mva_params *p, enum mva_field f)
{
	switch (f) {
	case MVA_CPU: return &p->cpu_demand;
	case MVA_MEM: return &p->mem_demand;
	case MVA_MEM_LOCAL: return &p->mem_local_demand;
	case MVA_MEM_REMOTE: return &p->mem_remote_demand;
	default: return &p->disk_demand;
	}
}

/* Whether field f is one that p uses (the memory form decides). */
static bool field_used(const struct mva_params *p, enum mva_field f)
{
	if (f == MVA_MEM)
		return !p->numa;
	if (f == MVA_MEM_LOCAL || f == MVA_MEM_REMOTE)
		return p->numa;
	return true;
}

/*
 * The checks, with messages about the field *bad without its name
 * (the JSON reader puts the path in front); MVA_NFIELDS: the whole.
 */
/* The largest service demand a description may give, seconds. */
#define MVA_DEMAND_MAX 1e9

static int check_bare(const struct mva_params *p, enum mva_field *bad,
		      struct pandia_error *err)
{
	double sum = 0;
	int f;

	for (f = 0; f < MVA_NFIELDS; f++) {
		double v = field_value(p, f);

		if (!field_used(p, f))
			continue;
		*bad = f;
		if (!isfinite(v))
			return perr_set(err, "must be a finite number of "
					"seconds, got %g", v);
		if (v < 0)
			return perr_set(err, "must not be negative, got %g",
					v);
		/* no run was measured for that long: a typing error, and
		   beyond it the queues' sums overflow */
		if (v > MVA_DEMAND_MAX)
			return perr_set(err, "%g s is more than %g s (about 30 "
					"years): not a measured demand", v,
					MVA_DEMAND_MAX);
		sum += v;
	}
	*bad = MVA_NFIELDS;
	if (!(sum > 0))
		return perr_set(err, "every demand is zero: a job that "
				"takes no time has no queueing model");
	return 0;
}

int mva_params_check(const struct mva_params *p, enum mva_field *bad,
		     struct pandia_error *err)
{
	enum mva_field f;
	char msg[sizeof(err->text)];

	if (check_bare(p, &f, err) == 0)
		return 0;
	if (bad)
		*bad = f;
	if (err && f < MVA_NFIELDS) {
		memcpy(msg, err->text, sizeof(msg));
		perr_set(err, "%s: %s", field_names[f], msg);
	}
	return -1;
}

double mva_mem_total(const struct mva_params *p)
{
	return p->numa ? p->mem_local_demand + p->mem_remote_demand :
		p->mem_demand;
}

/* The memory demands as the two queues use them. */
static void mem_queues(const struct mva_params *p, double *local,
		       double *remote)
{
	*local = p->numa ? p->mem_local_demand : p->mem_demand;
	*remote = p->numa ? p->mem_remote_demand : 0;
}

/* ---- parameters from measurements --------------------------------- */

int mva_disk_demand(double x_d, double s_d, double x0, double *d_d,
		    struct pandia_error *err)
{
	if (!isfinite(x_d) || !isfinite(s_d) || !isfinite(x0) || x_d < 0 ||
	    s_d < 0)
		return perr_set(err, "the disk's throughput and service time "
				"must be finite and not negative, got %g IO/s "
				"and %g s/IO", x_d, s_d);
	if (!(x0 > 0))
		return perr_set(err, "the job throughput X0(1) must be "
				"positive, got %g jobs/s", x0);
	*d_d = x_d * s_d / x0;
	return 0;
}

int mva_params_derive(double e1, double d_d, double p,
		      struct mva_params *out, struct pandia_error *err)
{
	double t1;

	if (!isfinite(e1) || !(e1 > 0))
		return perr_set(err, "the time of one job alone E(1) must be "
				"positive, got %g s", e1);
	if (!isfinite(d_d) || d_d < 0 || d_d >= e1)
		return perr_set(err, "the disk demand must be at least 0 and "
				"below E(1) = %g s, got %g s", e1, d_d);
	if (!isfinite(p) || p < 0 || p > 1)
		return perr_set(err, "the memory share of time must be "
				"between 0 and 1, got %g", p);
	t1 = e1 - d_d;				/* Eq. (2) */
	out->numa = false;
	out->mem_demand = t1 * p;		/* Eq. (3) */
	out->cpu_demand = t1 * (1 - p);		/* Eq. (4) */
	out->mem_local_demand = 0;
	out->mem_remote_demand = 0;
	out->disk_demand = d_d;
	return 0;
}

int mva_params_split_numa(struct mva_params *p, double k_n, double k_t,
			  struct pandia_error *err)
{
	double ratio, mem;

	if (!isfinite(k_n) || !isfinite(k_t) || !(k_n > 0) || !(k_t > 0))
		return perr_set(err, "K_N and K_T must be positive, got %g "
				"and %g", k_n, k_t);
	ratio = k_n / k_t;	/* D_Mem-Local / D_Mem-Remote */
	mem = mva_mem_total(p);
	p->mem_local_demand = mem * ratio / (1 + ratio);
	p->mem_remote_demand = mem / (1 + ratio);
	p->mem_demand = 0;
	p->numa = true;
	return 0;
}

int mva_mem_share_from_stress(double slowdown, double mem_slowdown,
			      double *p, bool *clamped,
			      struct pandia_error *err)
{
	double share;

	if (!isfinite(slowdown) || !(slowdown > 0))
		return perr_set(err, "the slowdown beside the stressor must be "
				"positive, got %g", slowdown);
	if (!isfinite(mem_slowdown) || !(mem_slowdown > 1))
		return perr_set(err, "the stressor does not slow memory "
				"accesses (their slowdown is %g, not above "
				"1): the memory share cannot be told",
				mem_slowdown);
	share = (slowdown - 1) / (mem_slowdown - 1);
	if (clamped)
		*clamped = share < 0 || share > 1;
	*p = share < 0 ? 0 : share > 1 ? 1 : share;
	return 0;
}

int mva_params_from_profile(double t1, double stalled, double slowdown,
			    double mem_slowdown, double d_d,
			    struct mva_params *out, struct pandia_error *err)
{
	char *why, *s;
	bool clamped = false;
	double p;

	if (!isnan(stalled)) {
		p = stalled;
		why = xasprintf("p = %.4g, the stalled-backend fraction of "
				"run 1's cycles", p);
	} else if (!isnan(slowdown) && !isnan(mem_slowdown)) {
		if (mva_mem_share_from_stress(slowdown, mem_slowdown, &p,
					      &clamped, err) < 0)
			return -1;
		why = xasprintf("p = %.4g%s, from run 1's slowdown %.4g beside "
				"a DRAM stressor (memory accesses alone slow "
				"%.4g)", p, clamped ? " (clamped)" : "",
				slowdown, mem_slowdown);
	} else {
		return perr_set(err, "no memory share: neither the counters' "
				"stalled-backend fraction nor a run beside a "
				"DRAM stressor");
	}
	if (mva_params_derive(t1, d_d, p, out, err) < 0) {
		free(why);
		return -1;
	}
	s = xasprintf("(t1 - disk_demand) x (1 - p), %s", why);
	mva_params_set_source(out, MVA_CPU, s);
	free(s);
	s = xasprintf("(t1 - disk_demand) x p, %s", why);
	mva_params_set_source(out, MVA_MEM, s);
	free(s);
	free(why);
	return 0;
}

/* ---- the single-class model --------------------------------------- */

static void fill_level(struct mva_level *lv, double r, double x, double t,
		       double r_cpu, double rl, double rr, double rd,
		       double q_cpu, double ql, double qr, double qd)
{
	lv->r = r;
	lv->x = x;
	lv->t = t;
	lv->r_cpu = r_cpu;
	lv->r_mem_local = rl;
	lv->r_mem_remote = rr;
	lv->r_disk = rd;
	lv->q_cpu = q_cpu;
	lv->q_mem_local = ql;
	lv->q_mem_remote = qr;
	lv->q_disk = qd;
}

struct mva_level *mva_single(const struct mva_params *p, int m, int n,
			     enum mva_mode mode, struct pandia_error *err)
{
	double dc, dl, dr, dd, nd = 0, nl = 0, nr = 0;
	double rd = 0, rl = 0, rr = 0, t = 0, x;
	struct mva_level *lv;
	int k, j;

	if (mva_params_check(p, NULL, err) < 0)
		return NULL;
	if (m < 1) {
		perr_set(err, "the number of cores must be positive, got %d",
			 m);
		return NULL;
	}
	if (n < 1) {
		perr_set(err, "the number of jobs must be positive, got %d",
			 n);
		return NULL;
	}
	dc = p->cpu_demand;
	mem_queues(p, &dl, &dr);
	dd = p->disk_demand;
	if (mode == MVA_BASELINE) {
		/* contention for cores only: memory is core time */
		dc += dl + dr;
		dl = dr = 0;
	}
	lv = xcalloc((size_t)n, sizeof(*lv));

	/* Lower layer, k = 1 .. min(n, m): exact MVA (lines 1 to 12). */
	for (k = 1; k <= n && k <= m; k++) {
		rd = dd * (1 + nd);
		rl = dl * (1 + nl);
		rr = dr * (1 + nr);
		t = dc + rl + rr;
		x = k / (t + rd);
		nd = x * rd;
		nl = x * rl;
		nr = x * rr;
		fill_level(&lv[k - 1], t + rd, x, t, t, rl, rr, rd, x * t,
			   nl, nr, nd);
	}

	/*
	 * Upper layer, j = m+1 .. n (lines 15 to 27): the disk's queue
	 * grows with j (Bard-Schweitzer), the cores are all busy.
	 */
	for (j = m + 1; j <= n; j++) {
		double n_cpu, r_cpu;

		rd = dd * (1 + nd);
		nd = (double)j / (j - 1) * nd;
		if (dd > 0)
			x = nd / rd;
		else
			x = m / t;	/* Eq. (6), t = T(m) */
		n_cpu = j - nd;
		r_cpu = n_cpu / x;
		fill_level(&lv[j - 1], r_cpu + rd, x, t, r_cpu, rl, rr, rd,
			   n_cpu, nl, nr, nd);
	}
	return lv;
}

/* ---- general closed networks -------------------------------------- */

static int check_network(const struct mva_network *net,
			 struct pandia_error *err)
{
	int r, i;

	if (net->nstation < 1 || net->nclass < 1)
		return perr_set(err, "a network needs a station and a class, "
				"got %d and %d", net->nstation, net->nclass);
	for (r = 0; r < net->nclass; r++) {
		double nr = net->population[r];

		if (!isfinite(nr) || nr < 0)
			return perr_set(err, "class %d: the population must "
					"not be negative, got %g", r + 1, nr);
		for (i = 0; i < net->nstation; i++) {
			double d = net->demand[r * net->nstation + i];

			if (!isfinite(d) || d < 0)
				return perr_set(err, "class %d, station %d: "
						"the demand must not be "
						"negative, got %g", r + 1,
						i + 1, d);
		}
	}
	return 0;
}

int mva_exact(const struct mva_network *net, double *resid, double *queue,
	      double *x, struct pandia_error *err)
{
	int K = net->nstation, i, k, n;
	double sum;

	if (check_network(net, err) < 0)
		return -1;
	if (net->nclass != 1)
		return perr_set(err, "exact MVA is for one class here, got %d",
				net->nclass);
	n = (int)lround(net->population[0]);
	if (fabs(net->population[0] - n) > 1e-9)
		return perr_set(err, "exact MVA needs a whole population, got "
				"%g", net->population[0]);
	for (i = 0; i < K; i++) {
		queue[i] = 0;
		resid[i] = net->demand[i];
	}
	*x = 0;
	for (k = 1; k <= n; k++) {
		sum = 0;
		for (i = 0; i < K; i++) {
			resid[i] = net->demand[i];
			if (net->kind[i] == MVA_QUEUE)
				resid[i] *= 1 + queue[i];
			sum += resid[i];
		}
		if (!(sum > 0))
			return perr_set(err, "every demand is zero");
		*x = k / sum;
		for (i = 0; i < K; i++)
			queue[i] = *x * resid[i];
	}
	return 0;
}

int mva_schweitzer(const struct mva_network *net,
		   const struct mva_options *opt, double *resid,
		   double *queue, double *x, int *iterations,
		   struct pandia_error *err)
{
	int K = net->nstation, C = net->nclass, it, r, s, i;
	double tol = opt ? opt->tolerance : MVA_TOLERANCE;
	int max_it = opt ? opt->max_iterations : MVA_MAX_ITER;
	double *nq = NULL;
	int ret = -1;

	if (iterations)
		*iterations = 0;
	if (check_network(net, err) < 0)
		return -1;
	if (!(tol > 0) || max_it < 1)
		return perr_set(err, "the tolerance and the iteration limit "
				"must be positive, got %g and %d", tol,
				max_it);
	nq = xcalloc((size_t)(C * K), sizeof(*nq));
	for (r = 0; r < C; r++)
		for (i = 0; i < K; i++)
			queue[r * K + i] = net->population[r] / K;

	for (it = 1; it <= max_it; it++) {
		bool done = true;

		for (r = 0; r < C; r++) {
			double nr = net->population[r], f = 0, sum = 0;

			/* a job does not queue behind itself */
			if (nr > 0)
				f = (nr - 1) / nr;
			if (f < 0)
				f = 0;
			for (i = 0; i < K; i++) {
				double seen = 0;

				if (net->kind[i] == MVA_QUEUE)
					for (s = 0; s < C; s++)
						seen += queue[s * K + i] *
							(s == r ? f : 1);
				resid[r * K + i] = net->demand[r * K + i] *
					(1 + seen);
				sum += resid[r * K + i];
			}
			if (nr > 0 && !(sum > 0)) {
				perr_set(err, "class %d has jobs but no demand",
					 r + 1);
				goto out;
			}
			x[r] = nr > 0 ? nr / sum : 0;
			for (i = 0; i < K; i++)
				nq[r * K + i] = x[r] * resid[r * K + i];
		}
		for (r = 0; r < C * K; r++) {
			if (!isfinite(nq[r])) {
				perr_set(err, "the approximate MVA diverged "
					 "at iteration %d", it);
				goto out;
			}
			if (fabs(nq[r] - queue[r]) > tol * nq[r])
				done = false;
			queue[r] = nq[r];
		}
		if (done)
			break;
	}
	if (iterations)
		*iterations = it > max_it ? max_it : it;
	if (it > max_it) {
		perr_set(err, "the approximate MVA did not converge in %d "
			 "iterations (tolerance %g)", max_it, tol);
		goto out;
	}
	ret = 0;
out:
	free(nq);
	return ret;
}

void mva_apportion(const double *n, int nclass, int m, double *n_mem)
{
	double sum = 0, on;
	int r;

	for (r = 0; r < nclass; r++)
		sum += n[r];
	on = sum < m ? sum : m;
	for (r = 0; r < nclass; r++)
		n_mem[r] = sum > 0 ? n[r] / sum * on : 0;
}

/* ---- the multi-class model ---------------------------------------- */

/* Stations of the memory-contention network (Algorithm 3). */
enum { ST_CORE, ST_LOCAL, ST_REMOTE, ST_DISK, NST };

/* Stations of the application network: cores after Seidmann, disk. */
enum { AP_CORE_Q, AP_CORE_D, AP_DISK, NAP };

/*
 * Solve the application network {cores, disk} with population n:
 * with more jobs than cores the m cores are Seidmann's queue of
 * demand D/m and delay of demand D(m-1)/m; otherwise a delay of
 * demand D (every job has a core).  core[r] is D for class r.
 */
static int solve_app(const struct mva_params *cls, const double *n,
		     int nclass, double m, const double *core,
		     const struct mva_options *opt, double *resid,
		     double *queue, double *x, int *iters,
		     struct pandia_error *err)
{
	static const enum mva_station_kind kind[NAP] = {
		MVA_QUEUE, MVA_DELAY, MVA_QUEUE
	};
	double *dem = xcalloc((size_t)(nclass * NAP), sizeof(*dem));
	double sum = 0;
	struct mva_network net = { NAP, nclass, kind, dem, n };
	int r, ret, it = 0;

	for (r = 0; r < nclass; r++)
		sum += n[r];
	for (r = 0; r < nclass; r++) {
		if (sum > m * (1 + 1e-12)) {
			dem[r * NAP + AP_CORE_Q] = core[r] / m;
			dem[r * NAP + AP_CORE_D] = core[r] * (m - 1) / m;
		} else {
			dem[r * NAP + AP_CORE_D] = core[r];
		}
		dem[r * NAP + AP_DISK] = cls[r].disk_demand;
	}
	ret = mva_schweitzer(&net, opt, resid, queue, x, &it, err);
	*iters += it;
	free(dem);
	return ret;
}

static int check_multi(const struct mva_params *cls, const double *n,
		       const double *n_mem, int nclass,
		       struct pandia_error *err)
{
	char msg[sizeof(err->text)];
	int r;

	if (nclass < 1)
		return perr_set(err, "no class of job to model");
	for (r = 0; r < nclass; r++) {
		if (!isfinite(n[r]) || !(n[r] > 0))
			return perr_set(err, "class %d: the number of jobs "
					"must be positive, got %g", r + 1,
					n[r]);
		if (n_mem && (!isfinite(n_mem[r]) || !(n_mem[r] > 0) ||
			      n_mem[r] > n[r] * (1 + 1e-12)))
			return perr_set(err, "class %d: the jobs on cores must "
					"be above 0 and at most its %g jobs, "
					"got %g", r + 1, n[r], n_mem[r]);
		if (mva_params_check(&cls[r], NULL, err) < 0) {
			if (err) {
				memcpy(msg, err->text, sizeof(msg));
				perr_set(err, "class %d: %s", r + 1, msg);
			}
			return -1;
		}
	}
	return 0;
}

int mva_multi(const struct mva_params *cls, const double *n, int nclass,
	      int m, enum mva_mode mode, const struct mva_options *opt,
	      struct mva_class_result *out, int *iterations,
	      struct pandia_error *err)
{
	double *n_mem;
	int ret;

	if (iterations)
		*iterations = 0;
	if (nclass >= 1 && m < 1)
		return perr_set(err, "the number of cores must be positive, "
				"got %d", m);
	if (check_multi(cls, n, NULL, nclass, err) < 0)
		return -1;
	n_mem = xcalloc((size_t)nclass, sizeof(*n_mem));
	mva_apportion(n, nclass, m, n_mem);
	ret = mva_multi_mem(cls, n, n_mem, nclass, mode, opt, out, iterations,
			    err);
	free(n_mem);
	return ret;
}

/* The arrays one multi-class solve works in, NST per class at most. */
struct multi_work {
	double *core;		/* per class: its demand of the cores */
	double *x;		/* per class: throughput */
	double *dem;		/* per class and station: demand */
	double *resid;		/* per class and station: residence */
	double *queue;		/* per class and station: queue length */
};

static void multi_work_init(struct multi_work *w, int nclass)
{
	w->core = xcalloc((size_t)nclass, sizeof(*w->core));
	w->x = xcalloc((size_t)nclass, sizeof(*w->x));
	w->dem = xcalloc((size_t)(nclass * NST), sizeof(*w->dem));
	w->resid = xcalloc((size_t)(nclass * NST), sizeof(*w->resid));
	w->queue = xcalloc((size_t)(nclass * NST), sizeof(*w->queue));
}

static void multi_work_release(struct multi_work *w)
{
	free(w->core);
	free(w->x);
	free(w->dem);
	free(w->resid);
	free(w->queue);
}

/*
 * The cores (Seidmann's m-server of demand w->core[r] on ON of them)
 * and the disk, as solve_app() solves them: each class's throughput,
 * residence and disk queue into OUT.  Returns 0 or -1 with err.
 */
static int solve_cores_disk(const struct mva_params *cls, const double *n,
			    int nclass, double on,
			    const struct mva_options *opt,
			    struct multi_work *w,
			    struct mva_class_result *out, int *it,
			    struct pandia_error *err)
{
	int r;

	if (solve_app(cls, n, nclass, on, w->core, opt, w->resid, w->queue,
		      w->x, it, err) < 0)
		return -1;
	for (r = 0; r < nclass; r++) {
		double *re = &w->resid[r * NAP];

		out[r].x = w->x[r];
		out[r].r_cpu = re[AP_CORE_Q] + re[AP_CORE_D];
		out[r].r_disk = re[AP_DISK];
		out[r].r = out[r].r_cpu + out[r].r_disk;
		out[r].q_disk = w->queue[r * NAP + AP_DISK];
	}
	return 0;
}

/*
 * Algorithm 3: the memory-contention network, population N^mem.  Each
 * class's time on the cores and memory into OUT and w->core.  Returns
 * 0 or -1 with err.
 */
static int solve_memory(const struct mva_params *cls, const double *n_mem,
			int nclass, const struct mva_options *opt,
			struct multi_work *w, struct mva_class_result *out,
			int *it, struct pandia_error *err)
{
	static const enum mva_station_kind kind[NST] = {
		MVA_DELAY, MVA_QUEUE, MVA_QUEUE, MVA_QUEUE
	};
	struct mva_network net = { NST, nclass, kind, w->dem, n_mem };
	int r, it1 = 0, ret;

	for (r = 0; r < nclass; r++) {
		double *d = &w->dem[r * NST];

		d[ST_CORE] = cls[r].cpu_demand;
		mem_queues(&cls[r], &d[ST_LOCAL], &d[ST_REMOTE]);
		d[ST_DISK] = cls[r].disk_demand;
	}
	ret = mva_schweitzer(&net, opt, w->resid, w->queue, w->x, &it1, err);
	*it += it1;
	if (ret < 0)
		return -1;
	for (r = 0; r < nclass; r++) {
		double *re = &w->resid[r * NST], *q = &w->queue[r * NST];

		out[r].t = re[ST_CORE] + re[ST_LOCAL] + re[ST_REMOTE];
		out[r].r_mem_local = re[ST_LOCAL];
		out[r].r_mem_remote = re[ST_REMOTE];
		out[r].q_mem_local = q[ST_LOCAL];
		out[r].q_mem_remote = q[ST_REMOTE];
		w->core[r] = out[r].t;
	}
	return 0;
}

int mva_multi_mem(const struct mva_params *cls, const double *n,
		  const double *n_mem, int nclass, enum mva_mode mode,
		  const struct mva_options *opt, struct mva_class_result *out,
		  int *iterations, struct pandia_error *err)
{
	struct multi_work w;
	double jobs = 0;	/* sum N: every job */
	double on = 0;		/* sum N^mem: the jobs on cores */
	bool any_disk = false;
	int r, it = 0, ret = -1;

	if (iterations)
		*iterations = 0;
	if (check_multi(cls, n, n_mem, nclass, err) < 0)
		return -1;
	multi_work_init(&w, nclass);
	for (r = 0; r < nclass; r++) {
		jobs += n[r];
		on += n_mem[r];
		if (cls[r].disk_demand > 0)
			any_disk = true;
		memset(&out[r], 0, sizeof(out[r]));
		out[r].n = n[r];
		out[r].n_mem = n_mem[r];
	}

	if (mode == MVA_BASELINE) {
		/* contention for cores (and disk) only: memory is core time */
		for (r = 0; r < nclass; r++) {
			w.core[r] = cls[r].cpu_demand + mva_mem_total(&cls[r]);
			out[r].t = w.core[r];
		}
		if (solve_cores_disk(cls, n, nclass, on, opt, &w, out, &it,
				     err) < 0)
			goto out;
		ret = 0;
		goto out;
	}

	if (solve_memory(cls, n_mem, nclass, opt, &w, out, &it, err) < 0)
		goto out;
	if (!any_disk) {
		/*
		 * Algorithm 4: Little's law per class at the cores, with
		 * N_r^mem of class r on them (the paper prints N_r m / sum
		 * N, which is N_r^mem only when sum N >= m).
		 */
		for (r = 0; r < nclass; r++) {
			out[r].x = n_mem[r] / out[r].t;
			out[r].r_cpu = n[r] / out[r].x;
			out[r].r = out[r].r_cpu;
		}
	} else if (jobs <= on * (1 + 1e-12)) {
		/* every job on a core: the network above is the system */
		for (r = 0; r < nclass; r++) {
			out[r].r_cpu = out[r].t;
			out[r].r_disk = w.resid[r * NST + ST_DISK];
			out[r].q_disk = w.queue[r * NST + ST_DISK];
			out[r].r = out[r].t + out[r].r_disk;
			out[r].x = n[r] / out[r].r;
		}
	} else {
		/* the digest's choice: cores as Seidmann's m-server of
		   demand T_r, and the disk */
		if (solve_cores_disk(cls, n, nclass, on, opt, &w, out, &it,
				     err) < 0)
			goto out;
	}
	ret = 0;
out:
	if (iterations)
		*iterations = it;
	multi_work_release(&w);
	return ret;
}

/* ---- models.mva as JSON ------------------------------------------- */


/*
 * The demands, their FIELD_source strings and the note, in OUT; HAVE[f]
 * says which demands were given.  cpu_demand must be.
 */
static int read_fields(const struct json_src *src, json_t *obj,
		       const char *path, struct mva_params *out, bool *have)
{
	char source_keys[MVA_NFIELDS][32];
	const char *keys[2 * MVA_NFIELDS + 2];
	char *s;
	json_t *v;
	int f;

	for (f = 0; f < MVA_NFIELDS; f++) {
		snprintf(source_keys[f], sizeof(source_keys[f]), "%s_source",
			 field_names[f]);
		keys[f] = field_names[f];
		keys[MVA_NFIELDS + f] = source_keys[f];
	}
	keys[2 * MVA_NFIELDS] = "note";
	keys[2 * MVA_NFIELDS + 1] = NULL;
	if (json_only_keys(src, obj, path, keys) < 0)
		return -1;
	for (f = 0; f < MVA_NFIELDS; f++) {
		v = json_get(src, obj, path, field_names[f], JSON_REAL,
			     f == MVA_CPU);
		if (json_failed(src))
			return -1;
		if (v) {
			*field_ptr(out, f) = json_number_value(v);
			have[f] = true;
		}
		if (json_get_str(src, obj, path, source_keys[f], &s) < 0)
			return -1;
		if (s)
			mva_params_set_source(out, f, s);
		free(s);
	}
	return json_get_str(src, obj, path, "note", &out->note);
}

/* The memory form: mem_demand, or mem_local_demand + mem_remote_demand. */
static int read_form(const struct json_src *src, const char *path,
		     struct mva_params *out, const bool *have)
{
	char sub[256];
	int f;

	if (have[MVA_MEM] && (have[MVA_MEM_LOCAL] || have[MVA_MEM_REMOTE])) {
		f = have[MVA_MEM_LOCAL] ? MVA_MEM_LOCAL : MVA_MEM_REMOTE;
		snprintf(sub, sizeof(sub), "%s.%s", path, field_names[f]);
		return json_fail(src, sub, "give mem_demand (one memory "
				 "queue) or mem_local_demand and "
				 "mem_remote_demand (NUMA), not both");
	}
	if (have[MVA_MEM_LOCAL] != have[MVA_MEM_REMOTE])
		return json_fail(src, path, "missing field '%s' (NUMA memory "
				 "needs mem_local_demand and "
				 "mem_remote_demand)",
				 have[MVA_MEM_LOCAL] ? "mem_remote_demand" :
				 "mem_local_demand");
	if (!have[MVA_MEM] && !have[MVA_MEM_LOCAL])
		return json_fail(src, path, "missing field 'mem_demand' (or "
				 "mem_local_demand and mem_remote_demand)");
	out->numa = have[MVA_MEM_LOCAL];
	for (f = 0; f < MVA_NFIELDS; f++) {
		if (!out->source[f] || have[f])
			continue;
		snprintf(sub, sizeof(sub), "%s.%s_source", path,
			 field_names[f]);
		return json_fail(src, sub, "'%s' is not given", field_names[f]);
	}
	return 0;
}

/* The object at PATH is not there: "PARENT: missing field 'KEY'". */
static void missing(const struct json_src *src, const char *path)
{
	const char *dot = strrchr(path, '.');
	char parent[256];

	if (!dot) {
		json_fail(src, "", "missing field '%s'", path);
		return;
	}
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - path), path);
	json_fail(src, parent, "missing field '%s'", dot + 1);
}

int mva_params_from_json(const struct json_src *src, json_t *obj,
			 const char *path, struct mva_params *out)
{
	bool have[MVA_NFIELDS] = { false };
	enum mva_field bad;
	struct pandia_error e;
	char sub[256];

	mva_params_init(out);
	perr_clear(src->err);
	if (!obj) {
		missing(src, path);
		goto fail;
	}
	if (!json_is_object(obj)) {
		json_fail(src, path, "must be an object, not %s",
			  json_type_name(obj));
		goto fail;
	}
	if (read_fields(src, obj, path, out, have) < 0 ||
	    read_form(src, path, out, have) < 0)
		goto fail;
	if (check_bare(out, &bad, &e) < 0) {
		if (bad < MVA_NFIELDS)
			snprintf(sub, sizeof(sub), "%s.%s", path,
				 field_names[bad]);
		else
			snprintf(sub, sizeof(sub), "%s", path);
		json_fail(src, sub, "%s", e.text);
		goto fail;
	}
	return 0;
fail:
	mva_params_release(out);
	return -1;
}

json_t *mva_params_to_json(const struct mva_params *p)
{
	json_t *o = json_object();
	char key[64];
	int f;

	for (f = 0; f < MVA_NFIELDS; f++)
		if (field_used(p, f))
			json_object_set_new(o, field_names[f],
					    json_real(field_value(p, f)));
	for (f = 0; f < MVA_NFIELDS; f++) {
		if (!field_used(p, f) || !p->source[f])
			continue;
		snprintf(key, sizeof(key), "%s_source", field_names[f]);
		json_object_set_new(o, key, json_string(p->source[f]));
	}
	if (p->note)
		json_object_set_new(o, "note", json_string(p->note));
	return o;
}
