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

static json_t *run_to_json(const struct wl_run *r)
{
	json_t *o = json_object(), *a;
	char *s;
	int i;

	json_set_str(o, "id", r->id);
	json_set_str(o, "purpose", r->purpose);
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
	int i;

	json_object_set_new(root, "schema",
			    json_string(PANDIA_WORKLOAD_SCHEMA));
	a = json_array();
	for (i = 0; i < w->n_command; i++)
		json_array_append_new(a, json_string(w->command[i]));
	json_object_set_new(root, "command", a);

	if (w->host || w->cpu_model || w->n_pus || w->machine_file) {
		o = json_object();
		json_set_str(o, "host", w->host);
		json_set_str(o, "cpu_model", w->cpu_model);
		if (w->n_pus) {
			char *s = cpuset_format(w->pus, w->n_pus);

			json_object_set_new(o, "pus", json_string(s));
			free(s);
		}
		json_set_str(o, "file", w->machine_file);
		json_object_set_new(root, "machine", o);
	}
	if (w->counters || w->counters_note) {
		o = json_object();
		json_set_str(o, "backend", w->counters);
		json_set_str(o, "note", w->counters_note);
		json_object_set_new(root, "counters", o);
	}
	if (w->has_memory)
		json_object_set_new(root, "memory", json_string(
			mempolicy_format(&w->memory, buf, sizeof(buf))));
	if (w->memory_found)
		json_object_set_new(root, "memory_found",
				    json_deep_copy(w->memory_found));
	json_set_str(root, "date", w->date);
	json_set_str(root, "pandia_version", w->version);
	json_set_str(root, "note", w->note);
	json_set_str(root, "unreliable", w->unreliable);
	if (w->has_size)
		json_object_set_new(root, "size", json_real(w->size));

	a = json_array();
	for (i = 0; i < w->n_runs; i++)
		json_array_append_new(a, run_to_json(&w->runs[i]));
	json_object_set_new(root, "runs", a);

	if (workload_has_model(w)) {
		if (workload_model_ops())
			o = workload_model_ops()->to_json(w);
		else
			o = json_deep_copy(w->model_section);
		if (o)
			json_object_set_new(root, "model", o);
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
