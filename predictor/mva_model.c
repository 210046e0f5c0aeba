/*
 * mva_model.c - Bardhan and Menasce's queueing model (mva.c) behind
 * the interface of predictor/models.h: '--model mva'.
 *
 * Its parameters are models.mva of the workload description, given by
 * hand or fitted from a profile: E(1) from run 1 (one thread alone),
 * the memory share p from the stalled-backend fraction where run 1
 * counted it, else from run 1's slowdown beside DRAM stressors, read
 * through the model itself (a stressor is a job that never leaves the
 * memory queue).  docs/mva.md, "--model mva", says what is measured
 * and what is assumed, and how placements and co-runs map onto jobs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonpos.h"
#include "common/util.h"
#include "predictor/models.h"
#include "predictor/mva.h"

struct mva_state {
	const struct pandia_machine *m;
	struct mva_params prm;
};

/* ---- the runs ----------------------------------------------------- */

/*
 * A run of one thread beside DRAM stressors ("bw:dram@LIST", the
 * profiler's probe-dram run or this model's run2; not a calibration
 * run "...-alone", which runs 'sleep' beside them): the run, and the
 * number of stressors in *s.  NULL when there is none.
 */
static const struct wl_run *dram_run(const struct pandia_workload *w,
				     int *s)
{
	int i, j;

	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];
		size_t len = r->id ? strlen(r->id) : 0;

		if (r->n_cpus != 1 || r->n_stress != 1 || !r->n_times ||
		    (len >= 6 && !strcmp(r->id + len - 6, "-alone")))
			continue;
		for (j = 0; j < r->n_stress; j++) {
			const char *sp = r->stress[j], *at = strchr(sp, '@');
			struct pandia_error e;
			int *pus, n;

			if (strncmp(sp, "bw:dram", 7) || !at)
				continue;
			if (cpulist_parse(at + 1, &pus, &n, &e) < 0)
				continue;
			free(pus);
			*s = n;
			return r;
		}
	}
	return NULL;
}

/* E(1): the Pandia model's t1 when there is one, else run 1's median. */
static double e1_of(const struct pandia_workload *w)
{
	const struct wl_run *r1 = workload_run_named(w, "run1");
	const struct wl_param *t1 = model_param(w, "t1");

	if (t1->known)
		return t1->value;
	return r1 && r1->n_times ? median_of(r1->times, r1->n_times) : NAN;
}

/*
 * The parameters from the runs of w.  The memory share p: the
 * stalled-backend fraction of run 1 when counted, else from the
 * slowdown sigma of the DRAM run with f = 1 + s, the slowdown the model
 * itself gives a memory-only job beside s jobs that never leave the
 * memory queue (mva_mem_share_from_stress(): p = (sigma - 1) / s).
 */
static int from_runs(const struct pandia_workload *w, struct mva_params *out,
		     struct pandia_error *err)
{
	const struct wl_run *r1 = workload_run_named(w, "run1"), *rd;
	double e1 = e1_of(w), stalled = NAN, sigma = NAN, f = NAN;
	double cyc = wl_run_counter(r1, "cycles");
	double st = wl_run_counter(r1, "stalled-cycles-backend");
	struct pandia_error e;
	int s = 0;

	mva_params_init(out);
	if (!(e1 > 0))
		return perr_set(err, "no models.mva and no time of one thread "
				"alone (run 1) to derive it from: add "
				"\"models\": {\"mva\": {\"cpu_demand\": S, "
				"\"mem_demand\": S}} or profile it with "
				"'pandia profile --model mva'");
	if (cyc > 0 && st >= 0)
		stalled = st / cyc;
	rd = dram_run(w, &s);
	if (rd && s > 0) {
		sigma = median_of(rd->times, rd->n_times) / e1;
		f = 1 + s;
	}
	if (isnan(stalled) && isnan(sigma))
		return perr_set(err, "no models.mva, and the profile has "
				"neither a stalled-backend count of run 1 nor "
				"a run of one thread beside DRAM stressors to "
				"tell the memory share from: add \"models\": "
				"{\"mva\": {\"cpu_demand\": S, \"mem_demand\": "
				"S}}, or profile it with 'pandia profile "
				"--model mva' (run 1 beside bw:dram stressors "
				"on the other cores)");
	if (mva_params_from_profile(e1, stalled, sigma, f, 0, out, &e) < 0)
		return perr_set(err, "cannot derive models.mva from the "
				"profile: %s", e.text);
	if (isnan(stalled))
		out->note = xasprintf("fitted from the profile: E(1) = %.6g s "
				      "(run 1); %s, %d DRAM stressor%s, read "
				      "through the model (f = 1 + s: each "
				      "stressor never leaves the memory "
				      "queue); no disk", e1, rd->id, s,
				      s == 1 ? "" : "s");
	else
		out->note = xasprintf("fitted from the profile: E(1) = %.6g s "
				      "(run 1), p its stalled-backend "
				      "fraction; no disk", e1);
	return 0;
}

/* models.mva of w, else the parameters from its runs. */
static int params_of(const struct pandia_workload *w, struct mva_params *out,
		     struct pandia_error *err)
{
	json_t *o = w->models ? json_object_get(w->models, "mva") : NULL;
	struct json_src src = {
		w->source_text ? w->source_text : "{}",
		w->source_name ? w->source_name : "",
		err
	};

	if (o)
		return mva_params_from_json(&src, o, "models.mva", out);
	return from_runs(w, out, err);
}

/* ---- plan and fit ------------------------------------------------- */

/*
 * Run 1 alone on the first PU; then, unless the profile already has a
 * run of one thread beside DRAM stressors (the probe backend's
 * probe-dram), run 2: run 1 beside a bw:dram stressor on the first PU
 * of every other core.
 */
static int mva_plan(const struct model_env *env,
		    const struct pandia_workload *w, struct model_run **runs,
		    struct pandia_error *err)
{
	const struct pandia_machine *m = env->m;
	struct model_run *r;
	int s, c, pu0;

	*runs = NULL;
	if (m->n_pus < 1)
		return perr_set(err, "the machine has no PU");
	pu0 = m->cores[0].n_pus ? m->cores[0].pus[0] : 0;
	if (!workload_run_named(w, "run1")) {
		r = *runs = xcalloc(1, sizeof(**runs));
		r->id = xstrdup("run1");
		r->purpose = xstrdup("E(1): one thread alone");
		r->n = 1;
		r->pus = xmalloc(sizeof(int));
		r->pus[0] = pu0;
		r->size = NAN;
		return 1;
	}
	if (workload_run_named(w, "run2") || dram_run(w, &s) || m->n_cores < 2)
		return 0;
	r = *runs = xcalloc(1, sizeof(**runs));
	r->id = xstrdup("run2");
	r->n = 1;
	r->pus = xmalloc(sizeof(int));
	r->pus[0] = pu0;
	r->corun = xcalloc((size_t)m->n_cores, sizeof(int));
	for (c = 0; c < m->n_cores; c++)
		if (c != m->pus[pu0].core && m->cores[c].n_pus)
			r->corun[r->n_corun++] = m->cores[c].pus[0];
	r->corun_kind = xstrdup("bw:dram");
	r->purpose = xasprintf("memory share: run 1 beside %d DRAM "
			       "stressor%s on the other cores", r->n_corun,
			       r->n_corun == 1 ? "" : "s");
	r->size = NAN;
	return 1;
}

static int mva_fit(const struct model_env *env, struct pandia_workload *w,
		   struct pandia_error *err)
{
	struct mva_params prm;

	if (env->m->n_cores < 2 && !dram_run(w, &(int){ 0 }))
		return perr_set(err, "the MVA model needs a run beside a DRAM "
				"stressor on another core, and the machine "
				"has one core: give models.mva by hand");
	if (from_runs(w, &prm, err) < 0)
		return -1;
	if (!w->models)
		w->models = json_object();
	json_object_set_new(w->models, "mva", mva_params_to_json(&prm));
	mva_params_release(&prm);
	return 0;
}

/* ---- predictions -------------------------------------------------- */

static void *mva_open(const struct pandia_machine *m,
		      const struct pandia_workload *w,
		      const struct pandia_mempolicy *mem,
		      struct pandia_error *err)
{
	struct mva_state *s = xcalloc(1, sizeof(*s));

	s->m = m;
	if (params_of(w, &s->prm, err) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

static double e1_params(const struct mva_params *p)
{
	return p->cpu_demand + mva_mem_total(p) + p->disk_demand;
}

/*
 * Where a job spends most of its turnaround: on (or waiting for) a
 * core, at memory, at the disk.
 */
static const char *busiest(double r_core, double r_mem, double r_disk)
{
	if (r_mem >= r_core && r_mem >= r_disk && r_mem > 0)
		return "memory";
	if (r_disk >= r_core && r_disk > 0)
		return "disk";
	return r_core > 0 ? "cores" : "-";
}

static const char *level_bottleneck(const struct mva_level *l)
{
	double mem = l->r_mem_local + l->r_mem_remote;

	return busiest(l->r_cpu - mem, mem, l->r_disk);
}

/* Distinct PUs among pus[0 .. n-1] (m has n_pus). */
static int distinct_pus(const struct pandia_machine *m, const int *pus,
			int n)
{
	char *seen = xcalloc((size_t)m->n_pus + 1, 1);
	int i, d = 0;

	for (i = 0; i < n; i++)
		if (!seen[pus[i]]++)
			d++;
	free(seen);
	return d;
}

/*
 * A placement of n threads: the n threads are n jobs, each with an
 * n-th of the demands, on as many servers as the placement has PUs
 * (Algorithm 1; the model is homogeneous in the demands, so that is
 * R(n) / n of the whole job's).
 */
static int mva_predict(void *model, const int *pus, int n, double size,
		       struct model_prediction *out, struct pandia_error *err)
{
	struct mva_state *s = model;
	struct mva_level *lv, *l;
	int m;

	if (!isnan(size))
		return perr_set(err, "the queueing model knows no input "
				"sizes (--size goes with the Pandia and "
				"black-box models)");
	if (n < 1)
		return perr_set(err, "a placement needs at least one thread");
	m = distinct_pus(s->m, pus, n);
	lv = mva_single(&s->prm, m, n, MVA_CONTENTION, err);
	if (!lv)
		return -1;
	l = &lv[n - 1];
	out->time = l->r / n;
	out->speedup = e1_params(&s->prm) / out->time;
	out->bottleneck = level_bottleneck(l);
	out->core_time = l->t / n;
	out->warning = NULL;
	free(lv);
	return 0;
}

/*
 * Co-runs.  Unpinned copies: class i is n_i jobs of workload i on the
 * machine's PUs (one workload: Algorithm 1, exact; several: Algorithms
 * 3 and 4).  Placements: class i is workload i's n_i threads, each a
 * job with an n_i-th of its demands; of them N_i^mem hold a PU at a
 * time, each PU's time shared evenly among the threads on it
 * (mva_multi_mem()).
 */
static int mva_corun(const struct model_corun_part *parts, int nw,
		     struct model_prediction *out, struct pandia_error *err)
{
	const struct pandia_machine *m = ((struct mva_state *)
					  parts[0].state)->m;
	struct mva_params *cls;
	struct mva_class_result *res;
	double *n, *n_mem, *on_pu;
	int i, t, pinned = 0, ret = -1;

	for (i = 0; i < nw; i++) {
		if (parts[i].n < 1)
			return perr_set(err, "workload %d: at least one job "
					"or thread", i + 1);
		pinned += parts[i].pus != NULL;
	}
	if (pinned && pinned != nw)
		return perr_set(err, "give every workload a placement, or "
				"none (unpinned copies)");
	if (!pinned && nw == 1) {
		struct mva_state *s = parts[0].state;
		struct mva_level *lv, *l;

		lv = mva_single(&s->prm, m->n_pus, parts[0].n, MVA_CONTENTION,
				err);
		if (!lv)
			return -1;
		l = &lv[parts[0].n - 1];
		out[0].time = l->r;
		out[0].speedup = e1_params(&s->prm) / l->r;
		out[0].bottleneck = level_bottleneck(l);
		out[0].core_time = l->t;
		free(lv);
		return 0;
	}
	cls = xcalloc((size_t)nw, sizeof(*cls));
	res = xcalloc((size_t)nw, sizeof(*res));
	n = xcalloc((size_t)nw, sizeof(*n));
	n_mem = xcalloc((size_t)nw, sizeof(*n_mem));
	on_pu = xcalloc((size_t)m->n_pus + 1, sizeof(*on_pu));
	for (i = 0; i < nw; i++) {
		const struct mva_params *p =
			&((struct mva_state *)parts[i].state)->prm;
		double k = pinned ? parts[i].n : 1;

		cls[i] = *p;	/* the numbers only: no string is kept */
		memset(cls[i].source, 0, sizeof(cls[i].source));
		cls[i].note = NULL;
		cls[i].cpu_demand /= k;
		cls[i].mem_demand /= k;
		cls[i].mem_local_demand /= k;
		cls[i].mem_remote_demand /= k;
		cls[i].disk_demand /= k;
		n[i] = parts[i].n;
		for (t = 0; pinned && t < parts[i].n; t++)
			on_pu[parts[i].pus[t]]++;
	}
	for (i = 0; pinned && i < nw; i++)
		for (t = 0; t < parts[i].n; t++)
			n_mem[i] += 1 / on_pu[parts[i].pus[t]];
	if ((pinned ? mva_multi_mem(cls, n, n_mem, nw, MVA_CONTENTION, NULL,
				    res, NULL, err) :
	     mva_multi(cls, n, nw, m->n_pus, MVA_CONTENTION, NULL, res, NULL,
		       err)) < 0)
		goto out;
	for (i = 0; i < nw; i++) {
		const struct mva_params *p =
			&((struct mva_state *)parts[i].state)->prm;
		double mem = res[i].r_mem_local + res[i].r_mem_remote;

		out[i].time = res[i].r;
		out[i].speedup = e1_params(p) / res[i].r;
		out[i].bottleneck = busiest(res[i].r_cpu - mem, mem,
					    res[i].r_disk);
		out[i].core_time = res[i].t;
	}
	ret = 0;
out:
	free(cls);
	free(res);
	free(n);
	free(n_mem);
	free(on_pu);
	return ret;
}

static void mva_close(void *model)
{
	struct mva_state *s = model;

	if (!s)
		return;
	mva_params_release(&s->prm);
	free(s);
}

const struct model_def model_mva = {
	.name = "mva",
	.summary = "Bardhan and Menasce's queueing model of memory "
		   "contention, by mean value analysis (IEEE TC 2014)",
	.model_section = false,
	.sizes = false,
	.numbered_runs = 2,
	.plan = mva_plan,
	.fit = mva_fit,
	.open = mva_open,
	.predict = mva_predict,
	.close = mva_close,
	.corun = mva_corun,
};
