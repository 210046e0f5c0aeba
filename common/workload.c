/*
 * workload.c - the workload description in memory: resource and
 * memory-policy names, the reader of the "model" section, making and
 * freeing one, and whether it was profiled on a given machine.
 * Checking it is in workload_check.c, writing it as JSON in
 * workload_json.c, reading it in workload_load.c.
 */
#include "common/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "common/workload_internal.h"

static const char *const res_names[WR_COUNT] = {
	"instructions", "L1", "L2", "L3", "dram", "interconnect"
};

const char *wl_resource_name(enum wl_resource r)
{
	return (unsigned)r < WR_COUNT ? res_names[r] : "?";
}

int wl_resource_from_name(const char *name)
{
	int i;

	for (i = 0; i < WR_COUNT; i++)
		if (name && !strcmp(name, res_names[i]))
			return i;
	return -1;
}

int mempolicy_parse(const char *s, struct pandia_mempolicy *mp,
		    struct pandia_error *err)
{
	int node;

	if (s && !strcmp(s, "local")) {
		mp->kind = MEM_LOCAL;
		mp->node = -1;
		return 0;
	}
	if (s && !strcmp(s, "interleave")) {
		mp->kind = MEM_INTERLEAVE;
		mp->node = -1;
		return 0;
	}
	if (s && !strcmp(s, "spread")) {
		mp->kind = MEM_SPREAD;
		mp->node = -1;
		return 0;
	}
	if (s && !strcmp(s, "even")) {
		mp->kind = MEM_EVEN;
		mp->node = -1;
		return 0;
	}
	if (s && !strncmp(s, "node:", 5) && parse_int(s + 5, &node) &&
	    node >= 0) {
		mp->kind = MEM_NODE;
		mp->node = node;
		return 0;
	}
	return perr_set(err, "unknown memory policy '%s' (local, interleave, "
			"spread, even or node:N)", s ? s : "");
}

const char *mempolicy_format(const struct pandia_mempolicy *mp, char *buf,
			     unsigned size)
{
	switch (mp->kind) {
	case MEM_LOCAL:
		snprintf(buf, size, "local");
		break;
	case MEM_INTERLEAVE:
		snprintf(buf, size, "interleave");
		break;
	case MEM_SPREAD:
		snprintf(buf, size, "spread");
		break;
	case MEM_EVEN:
		snprintf(buf, size, "even");
		break;
	default:
		snprintf(buf, size, "node:%d", mp->node);
		break;
	}
	return buf;
}

static const struct workload_model_ops *model_ops;

/* ---- objects ---------------------------------------------------- */

static void param_init(struct wl_param *prm)
{
	memset(prm, 0, sizeof(*prm));
	prm->uncertainty = NAN;
}

void wl_param_release(struct wl_param *prm)
{
	free(prm->source);
	free(prm->status);
	param_init(prm);
}

void wl_param_set(struct wl_param *prm, double value, double uncertainty,
		  const char *source)
{
	wl_param_release(prm);
	prm->known = true;
	prm->value = value;
	prm->uncertainty = uncertainty;
	prm->source = source ? xstrdup(source) : NULL;
}

double wl_value(const struct wl_param *prm, double dflt)
{
	return prm->known ? prm->value : dflt;
}

bool wl_param_is_bound(const struct wl_param *prm)
{
	return prm->known && prm->status &&
		!strncmp(prm->status, "upper bound", 11);
}

struct pandia_workload *workload_new(void)
{
	struct pandia_workload *w = xcalloc(1, sizeof(*w));

	if (model_ops)
		w->model_params = model_ops->params_new();
	w->memory.kind = MEM_LOCAL;
	w->memory.node = -1;
	return w;
}

void wl_run_add_counter(struct wl_run *wr, const char *name, double v)
{
	if (!isfinite(v))
		return;
	wr->counter_names = xrealloc(wr->counter_names, sizeof(char *) *
				     (size_t)(wr->n_counters + 1));
	wr->counter_values = xrealloc(wr->counter_values, sizeof(double) *
				      (size_t)(wr->n_counters + 1));
	wr->counter_names[wr->n_counters] = xstrdup(name);
	wr->counter_values[wr->n_counters++] = v;
}

double wl_run_counter(const struct wl_run *r, const char *name)
{
	int i;

	for (i = 0; r && i < r->n_counters; i++)
		if (!strcmp(r->counter_names[i], name))
			return r->counter_values[i];
	return NAN;
}

void wl_run_release(struct wl_run *r)
{
	int i;

	free(r->id);
	free(r->purpose);
	free(r->cpus);
	for (i = 0; i < r->n_stress; i++)
		free(r->stress[i]);
	free(r->stress);
	free(r->times);
	for (i = 0; i < r->n_counters; i++)
		free(r->counter_names[i]);
	free(r->counter_names);
	free(r->counter_values);
}

void workload_free(struct pandia_workload *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->n_command; i++)
		free(w->command[i]);
	free(w->command);
	free(w->host);
	free(w->cpu_model);
	free(w->pus);
	free(w->machine_file);
	free(w->counters);
	free(w->counters_note);
	free(w->date);
	free(w->version);
	free(w->note);
	free(w->unreliable);
	for (i = 0; i < w->n_runs; i++)
		wl_run_release(&w->runs[i]);
	free(w->runs);
	if (w->model_params && model_ops)
		model_ops->params_free(w->model_params);
	json_decref(w->model_section);
	json_decref(w->models);
	json_decref(w->memory_found);
	free(w->source_text);
	free(w->source_name);
	free(w);
}

/* ---- the reader of the "model" section ---------------------------- */

void workload_set_model_ops(const struct workload_model_ops *ops)
{
	model_ops = ops;
}

const struct workload_model_ops *workload_model_ops(void)
{
	return model_ops;
}

bool workload_machine_matches(const struct pandia_workload *w,
			      const struct pandia_machine *m, char **why)
{
	struct pandia_machine *id;
	bool same;
	int i;

	*why = NULL;
	if (!w->host && !w->cpu_model && !w->n_pus)
		return true;
	/* the identity as a machine, so that machine.c decides */
	id = machine_new();
	id->host = w->host ? xstrdup(w->host) : NULL;
	id->cpu_model = w->cpu_model ? xstrdup(w->cpu_model) : NULL;
	id->n_pus = w->n_pus;
	id->pus = xcalloc((size_t)(w->n_pus ? w->n_pus : 1),
			  sizeof(*id->pus));
	for (i = 0; i < w->n_pus; i++)
		id->pus[i].os_index = w->pus[i];
	if (!w->n_pus) {
		/* PUs not recorded: compare host and CPU only */
		id->n_pus = m->n_pus;
		free(id->pus);
		id->pus = xcalloc((size_t)m->n_pus, sizeof(*id->pus));
		memcpy(id->pus, m->pus, sizeof(*id->pus) * (size_t)m->n_pus);
	}
	same = machine_same_host(id, m, why);
	machine_free(id);
	return same;
}

const struct wl_run *workload_run_named(const struct pandia_workload *w,
					const char *id)
{
	int i;

	for (i = 0; i < w->n_runs; i++)
		if (w->runs[i].id && !strcmp(w->runs[i].id, id))
			return &w->runs[i];
	return NULL;
}
