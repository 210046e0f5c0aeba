/*
 * blackbox_model.c - the black-box model (blackbox.c) behind the
 * interface of predictor/models.h: every (size, threads) pair as a run,
 * the batch fit of their times into models.blackbox, and T_p(x) for a
 * placement of p cores (docs/blackbox.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "common/workload.h"
#include "predictor/blackbox.h"
#include "predictor/defaults.h"
#include "predictor/models.h"

#define BB_NAME "blackbox"
/* the ids of its runs: "bb1", "bb2", ... */
#define BB_RUN_PREFIX "bb"
/* the degree when none is given */
#define BB_DEFAULT_DEGREE 1

int blackbox_of_workload(struct blackbox *bb,
			 const struct pandia_workload *w,
			 struct pandia_error *err)
{
	struct json_src src = {
		w->source_text ? w->source_text : "{}",
		w->source_name ? w->source_name : "", err
	};
	json_t *o = w->models ? json_object_get(w->models, BB_NAME) : NULL;

	if (!o)
		return perr_set(err, "the workload description has no "
				"black-box model (models.blackbox): profile "
				"it with --model blackbox --sizes LIST");
	return blackbox_from_json(bb, o, &src, "models." BB_NAME);
}

void blackbox_store(struct pandia_workload *w, const struct blackbox *bb)
{
	json_t *models;

	/* a copy: the description's object may be shared with a reader */
	models = w->models ? json_deep_copy(w->models) : json_object();
	json_object_set_new(models, BB_NAME, blackbox_to_json(bb));
	json_decref(w->models);
	w->models = models;
}

const char *blackbox_warning(unsigned warn)
{
	static const unsigned order[] = {
		BB_WARN_NEGATIVE, BB_WARN_OUTSIDE, BB_WARN_ALPHA_RANGE
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (warn & order[i])
			return blackbox_flag_text(order[i]);
	return NULL;
}

int blackbox_cores(const struct pandia_machine *m, const int *pus, int n)
{
	char *used = xcalloc((size_t)m->n_cores + 1, 1);
	int i, p = 0;

	for (i = 0; i < n; i++)
		if (pus[i] >= 0 && pus[i] < m->n_pus &&
		    !used[m->pus[pus[i]].core]++)
			p++;
	free(used);
	return p;
}

/* Whether R is one of this model's runs. */
static bool is_bb_run(const struct wl_run *r)
{
	return r->has_size && !r->n_stress &&
		!strncmp(r->id, BB_RUN_PREFIX, strlen(BB_RUN_PREFIX));
}

/* Whether w already holds the runs of this model. */
static bool has_runs(const struct pandia_workload *w)
{
	int i;

	for (i = 0; i < w->n_runs; i++)
		if (is_bb_run(&w->runs[i]))
			return true;
	return false;
}

/* How many distinct values V[0..n) holds. */
static int distinct_sizes(const double *v, int n)
{
	int i, j, d = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && v[j] != v[i]; j++)
			;
		d += j == i;
	}
	return d;
}

/*
 * One thread per core, filling a socket first: the packed sweep with
 * every PU after the first of its core left out.  *order gets a new
 * array of m->n_cores entries (m->pus indexes); returns how many.
 */
static int core_order(const struct pandia_machine *m, int **order)
{
	int *all = xcalloc((size_t)m->n_pus + 1, sizeof(int));
	char *used = xcalloc((size_t)m->n_cores + 1, 1);
	int i, n = 0;

	*order = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	defaults_sweep_order(m, false, all);
	for (i = 0; i < m->n_pus; i++)
		if (!used[m->pus[all[i]].core]++)
			(*order)[n++] = all[i];
	free(all);
	free(used);
	return n;
}

/*
 * Every (size, threads) pair of --sizes and --threads in one stage,
 * size by size, the thread counts in the order given.
 */
static int bb_plan(const struct model_env *env,
		   const struct pandia_workload *w, struct model_run **runs,
		   struct pandia_error *err)
{
	int degree = env->degree >= 0 ? env->degree : BB_DEFAULT_DEGREE;
	int *order = NULL, n_order, i, j, k, n = 0, have;
	bool one = false;

	*runs = NULL;
	if (has_runs(w))
		return 0;
	if (!env->n_sizes)
		return perr_set(err, "the black-box model needs input sizes "
				"(--sizes LIST)");
	if (degree > BB_MAX_DEGREE)
		return perr_set(err, "the degree must be from 0 to %d, not %d",
				BB_MAX_DEGREE, degree);
	have = distinct_sizes(env->sizes, env->n_sizes);
	if (have < degree + 1)
		return perr_set(err, "degree %d needs %d distinct sizes; "
				"--sizes gives %d: %d more needed", degree,
				degree + 1, have, degree + 1 - have);
	n_order = core_order(env->m, &order);
	for (k = 0; k < env->n_threads; k++) {
		if (env->threads[k] < 1 || env->threads[k] > n_order) {
			free(order);
			return perr_set(err, "%d threads: the machine has %d "
					"cores (one thread per core)",
					env->threads[k], n_order);
		}
		one |= env->threads[k] == 1;
	}
	if (!one) {
		free(order);
		return perr_set(err, "T_seq is fitted from the one-thread "
				"runs: --threads must include 1");
	}
	*runs = xcalloc((size_t)(env->n_sizes * env->n_threads) + 1,
			sizeof(**runs));
	for (i = 0; i < env->n_sizes; i++)
		for (k = 0; k < env->n_threads; k++) {
			struct model_run *r = &(*runs)[n++];
			int p = env->threads[k];

			r->id = xasprintf("%s%d", BB_RUN_PREFIX, n);
			r->purpose = xasprintf("size %.10g on %d thread%s, "
					       "one per core, a socket "
					       "filled first", env->sizes[i],
					       p, p == 1 ? "" : "s");
			r->n = p;
			r->pus = xmalloc(sizeof(int) * (size_t)p);
			for (j = 0; j < p; j++)
				r->pus[j] = order[j];
			r->size = env->sizes[i];
		}
	free(order);
	return n;
}

static void warn(const struct model_env *env, const char *msg)
{
	if (env->warn)
		env->warn(env->warn_arg, msg);
}

/*
 * The batch fit of every repetition of every run of this model (x the
 * run's size, p its cores, t the time).  A fit that the sums cannot give
 * (singular, ill-conditioned) is stored without T_seq and said as a
 * warning: the runs are worth keeping.
 */
static int bb_fit(const struct model_env *env, struct pandia_workload *w,
		  struct pandia_error *err)
{
	struct blackbox bb, old;
	struct pandia_error e;
	struct bb_obs *obs;
	size_t n = 0, cap = 0;
	int degree = env->degree, i, j, ret = -1;

	memset(&bb, 0, sizeof(bb));

	if (degree < 0)
		degree = w->models && json_object_get(w->models, BB_NAME) &&
			blackbox_of_workload(&old, w, &e) == 0 ?
			old.degree : BB_DEFAULT_DEGREE;
	for (i = 0; i < w->n_runs; i++)
		if (is_bb_run(&w->runs[i]))
			cap += (size_t)w->runs[i].n_times;
	obs = xcalloc(cap + 1, sizeof(*obs));
	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];
		int *pus = xcalloc((size_t)r->n_cpus + 1, sizeof(int));
		int p;

		if (!is_bb_run(r)) {
			free(pus);
			continue;
		}
		for (j = 0; j < r->n_cpus; j++)
			pus[j] = machine_pu_index(env->m, r->cpus[j]);
		p = blackbox_cores(env->m, pus, r->n_cpus);
		free(pus);
		for (j = 0; j < r->n_times; j++) {
			obs[n].x = r->size;
			obs[n].p = p;
			obs[n++].t = r->times[j];
		}
	}
	if (!n) {
		perr_set(err, "the black-box model needs runs at input sizes "
			 "(--sizes)");
		goto out;
	}
	if (blackbox_fit(&bb, degree, obs, n, err) < 0) {
		if (bb.fit != BB_FIT_SINGULAR && bb.fit != BB_FIT_ILL)
			goto out;
		warn(env, err->text);
	} else if (!bb.has_alpha) {
		warn(env, "alpha is not known: no run had more than one "
		     "thread (--threads)");
	}
	blackbox_store(w, &bb);
	ret = 0;
out:
	free(obs);
	return ret;
}

struct bb_state {
	const struct pandia_machine *m;
	struct blackbox bb;
};

static void *bb_open(const struct pandia_machine *m,
		     const struct pandia_workload *w,
		     const struct pandia_mempolicy *mem,
		     struct pandia_error *err)
{
	struct bb_state *s = xcalloc(1, sizeof(*s));

	s->m = m;
	if (blackbox_of_workload(&s->bb, w, err) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

static int bb_predict(void *model, const int *pus, int n, double size,
		      struct model_prediction *out, struct pandia_error *err)
{
	struct bb_state *s = model;
	unsigned warn = 0;
	double t;
	int p = blackbox_cores(s->m, pus, n);

	if (isnan(size))
		return perr_set(err, "the black-box model predicts for an "
				"input size: give one (--size X)");
	if (blackbox_predict(&s->bb, size, p, &t, &warn, err) < 0)
		return -1;
	if (!isfinite(t))
		return perr_set(err, "the black-box model's time at size %g "
				"on %d cores is not finite (alpha %g): the "
				"description's alpha is beyond any a fit gives",
				size, p, s->bb.alpha);
	/* a time the polynomial gives below zero is no prediction */
	if (!(t > 0)) {
		char seen[96] = "no one-thread size recorded";

		if (s->bb.size_min <= s->bb.size_max)
			snprintf(seen, sizeof(seen), "fitted on the one-thread "
				 "sizes %g to %g", s->bb.size_min,
				 s->bb.size_max);
		return perr_set(err, "the black-box model gives one thread "
				"%.3g s at size %g: its polynomial (%s) is not "
				"positive there; predict nearer the sizes "
				"measured, or measure this one (pandia run "
				"--record)", blackbox_tseq(&s->bb, size), size,
				seen);
	}
	out->time = t;
	out->speedup = blackbox_tseq(&s->bb, size) / t;
	out->bottleneck = NULL;
	out->warning = blackbox_warning(warn);
	return 0;
}

static void bb_close(void *model)
{
	free(model);
}

const struct model_def model_blackbox = {
	.name = BB_NAME,
	.summary = "run time against input size: T_seq a polynomial, one "
		   "parallel fraction (Sykora and Scholz)",
	.demands = false,
	.model_section = false,
	.sizes = true,
	.plan = bb_plan,
	.fit = bb_fit,
	.open = bb_open,
	.predict = bb_predict,
	.close = bb_close,
};
