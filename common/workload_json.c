/*
 * workload_json.c - writing a workload description as
 * pandia-workload/1.
 *
 * Keys are written in a fixed order and numbers with a fixed precision
 * (common/jsonout.c), so load and save of a saved file gives the same
 * bytes.
 */
#include "common/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/util.h"
#include "common/workload_internal.h"

static void set_str(json_t *o, const char *key, const char *s)
{
	if (s)
		json_object_set_new(o, key, json_string(s));
}

static json_t *value_json(const struct wl_param *prm)
{
	return prm->known ? json_real(prm->value) : json_null();
}

static void param_to_json(json_t *model, const char *name,
			  const struct wl_param *prm)
{
	char key[64];

	json_object_set_new(model, name, value_json(prm));
	snprintf(key, sizeof(key), "%s_source", name);
	set_str(model, key, prm->source);
	if (!isnan(prm->uncertainty)) {
		snprintf(key, sizeof(key), "%s_uncertainty", name);
		json_object_set_new(model, key, json_real(prm->uncertainty));
	}
	snprintf(key, sizeof(key), "%s_status", name);
	set_str(model, key, prm->status);
}

static json_t *demands_to_json(const struct pandia_workload *w, json_t *model)
{
	json_t *d = json_object(), *src = json_object(), *unc = json_object();
	json_t *st = json_object();
	int i;

	for (i = 0; i < WR_COUNT; i++) {
		const struct wl_param *prm = &w->demand[i];

		if (!w->listed[i])
			continue;
		json_object_set_new(d, wl_resource_name(i), value_json(prm));
		set_str(src, wl_resource_name(i), prm->source);
		if (!isnan(prm->uncertainty))
			json_object_set_new(unc, wl_resource_name(i),
					    json_real(prm->uncertainty));
		set_str(st, wl_resource_name(i), prm->status);
	}
	json_object_set_new(model, "demands", d);
	if (json_object_size(src))
		json_object_set_new(model, "demands_source", src);
	else
		json_decref(src);
	if (json_object_size(unc))
		json_object_set_new(model, "demands_uncertainty", unc);
	else
		json_decref(unc);
	if (json_object_size(st))
		json_object_set_new(model, "demands_status", st);
	else
		json_decref(st);
	return model;
}

static json_t *run_to_json(const struct wl_run *r)
{
	json_t *o = json_object(), *a;
	char *s;
	int i;

	set_str(o, "id", r->id);
	set_str(o, "purpose", r->purpose);
	s = cpulist_format(r->cpus, r->n_cpus);
	json_object_set_new(o, "cpus", json_string(s));
	free(s);
	a = json_array();
	for (i = 0; i < r->n_stress; i++)
		json_array_append_new(a, json_string(r->stress[i]));
	json_object_set_new(o, "stress", a);
	a = json_array();
	for (i = 0; i < r->n_times; i++)
		json_array_append_new(a, json_real(r->times[i]));
	json_object_set_new(o, "times", a);
	if (r->has_size)
		json_object_set_new(o, "size", json_real(r->size));
	if (r->n_counters) {
		json_t *c = json_object();

		for (i = 0; i < r->n_counters; i++)
			json_object_set_new(c, r->counter_names[i],
					    json_real(r->counter_values[i]));
		json_object_set_new(o, "counters", c);
	}
	return o;
}

static json_t *workload_to_json(const struct pandia_workload *w)
{
	json_t *root = json_object(), *o, *a;
	char buf[32];
	size_t k;
	int i;

	json_object_set_new(root, "schema",
			    json_string(PANDIA_WORKLOAD_SCHEMA));
	a = json_array();
	for (i = 0; i < w->n_command; i++)
		json_array_append_new(a, json_string(w->command[i]));
	json_object_set_new(root, "command", a);

	if (w->host || w->cpu_model || w->n_pus || w->machine_file) {
		o = json_object();
		set_str(o, "host", w->host);
		set_str(o, "cpu_model", w->cpu_model);
		if (w->n_pus) {
			char *s = cpuset_format(w->pus, w->n_pus);

			json_object_set_new(o, "pus", json_string(s));
			free(s);
		}
		set_str(o, "file", w->machine_file);
		json_object_set_new(root, "machine", o);
	}
	if (w->counters || w->counters_note) {
		o = json_object();
		set_str(o, "backend", w->counters);
		set_str(o, "note", w->counters_note);
		json_object_set_new(root, "counters", o);
	}
	if (w->has_memory)
		json_object_set_new(root, "memory", json_string(
			mempolicy_format(&w->memory, buf, sizeof(buf))));
	if (w->memory_found)
		json_object_set_new(root, "memory_found",
				    json_deep_copy(w->memory_found));
	set_str(root, "date", w->date);
	set_str(root, "pandia_version", w->version);
	set_str(root, "note", w->note);
	set_str(root, "unreliable", w->unreliable);
	if (w->has_size)
		json_object_set_new(root, "size", json_real(w->size));

	a = json_array();
	for (i = 0; i < w->n_runs; i++)
		json_array_append_new(a, run_to_json(&w->runs[i]));
	json_object_set_new(root, "runs", a);

	if (workload_has_model(w)) {
		o = json_object();
		for (k = 0; k < WL_N_PARAMS; k++)
			param_to_json(o, wl_params[k].name,
				      wl_param_of(w, &wl_params[k]));
		if (w->has_o_s_form)
			json_object_set_new(o, "o_s_form", json_string(
				os_form_name(w->o_s_form)));
		if (w->has_b_form)
			json_object_set_new(o, "b_form", json_string(
				b_form_name(w->b_form)));
		json_object_set_new(root, "model", demands_to_json(w, o));
	}
	if (w->models)
		json_object_set_new(root, "models", json_deep_copy(w->models));
	return root;
}

char *workload_to_string(const struct pandia_workload *w)
{
	json_t *root = workload_to_json(w);
	char *out = json_to_text(root);

	json_decref(root);
	return out;
}

int workload_save(const struct pandia_workload *w, const char *path,
		  struct pandia_error *err)
{
	char *s;
	int ret;

	if (workload_check(w, err) < 0)
		return -1;
	s = workload_to_string(w);
	ret = write_file_atomic(path, s, strlen(s), err);
	free(s);
	return ret;
}
