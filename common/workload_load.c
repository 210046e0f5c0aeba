/*
 * workload_load.c - reading pandia-workload/1.
 *
 * Loading reports the file, the line and column of the bad value, the
 * field and what is wrong with it; unknown fields are refused so that
 * a typing mistake in a hand-written file is not silently ignored.
 */
#include "common/workload.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonpos.h"
#include "common/util.h"
#include "common/workload_internal.h"


/* A PU list given as a string ("0,1,4" or "0-7"). */
static int get_cpus(struct json_src *c, json_t *obj, const char *opath,
		    const char *key, bool required, int **out, int *n)
{
	json_t *v = json_get(c, obj, opath, key, JSON_STRING, required);
	struct pandia_error e;
	char path[192];

	*out = NULL;
	*n = 0;
	if (!v)
		return json_failed(c) ? -1 : 0;
	json_path_join(path, sizeof(path), opath, key);
	if (cpulist_parse(json_string_value(v), out, n, &e) < 0)
		return json_fail(c, path, "%s", e.text);
	return 0;
}

static int load_run(struct json_src *c, json_t *o, const char *opath,
		    struct wl_run *r)
{
	static const char *const keys[] = {
		"id", "purpose", "cpus", "stress", "times", "size",
		"counters", NULL
	};
	json_t *a, *v;
	const char *key;
	char path[192];

	if (json_only_keys(c, o, opath, keys) < 0)
		return -1;
	if (json_get_string(c, o, opath, "id", &r->id, true) < 0 ||
	    json_get_str(c, o, opath, "purpose", &r->purpose) < 0 ||
	    get_cpus(c, o, opath, "cpus", true, &r->cpus, &r->n_cpus) < 0 ||
	    json_get_strings(c, o, opath, "stress", &r->stress, &r->n_stress,
			     false) < 0 ||
	    json_get_nums(c, o, opath, "times", &r->times, &r->n_times,
			  true) < 0)
		return -1;
	v = json_get(c, o, opath, "size", JSON_REAL, false);
	if (json_failed(c))
		return -1;
	if (v) {
		r->has_size = true;
		r->size = json_number_value(v);
	}
	a = json_get(c, o, opath, "counters", JSON_OBJECT, false);
	if (!a)
		return json_failed(c) ? -1 : 0;
	r->counter_names = xcalloc(json_object_size(a), sizeof(char *));
	r->counter_values = xcalloc(json_object_size(a), sizeof(double));
	json_object_foreach(a, key, v) {
		if (!json_is_number(v)) {
			snprintf(path, sizeof(path), "%s.counters.%s", opath,
				 key);
			return json_fail(c, path, "must be a number, not %s",
				    json_type_name(v));
		}
		r->counter_names[r->n_counters] = xstrdup(key);
		r->counter_values[r->n_counters++] = json_number_value(v);
	}
	return 0;
}

/*
 * A parameter: V is its value (number or null), SIBS the object that
 * holds NAME_source, NAME_uncertainty and NAME_status (for demands,
 * objects by resource: pass the resource as RES).
 */
static int load_param(struct json_src *c, json_t *model, const char *name,
		      const char *res, json_t *v, struct wl_param *prm)
{
	static const char *const suffix[] = {
		"_source", "_uncertainty", "_status"
	};
	char path[192], key[64];
	const char *opath, *leaf;
	json_t *obj, *s;
	int i;

	if (res)
		snprintf(path, sizeof(path), "model.%s.%s", name, res);
	else
		snprintf(path, sizeof(path), "model.%s", name);
	if (!v)
		return json_fail(c, "model", "missing field '%s'", name);
	if (json_is_number(v)) {
		prm->known = true;
		prm->value = json_number_value(v);
	} else if (!json_is_null(v)) {
		return json_fail(c, path, "must be a number or null, not %s",
			    json_type_name(v));
	}
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s%s", name, suffix[i]);
		/* NAME_x, or for a demand NAME_x.RES */
		obj = model;
		opath = "model";
		leaf = key;
		s = json_object_get(model, key);
		if (s && res) {
			snprintf(path, sizeof(path), "model.%s", key);
			if (!json_is_object(s))
				return json_fail(c, path, "must be an object "
						 "by resource, not %s",
						 json_type_name(s));
			obj = s;
			opath = path;
			leaf = res;
		}
		s = json_get(c, obj, opath, leaf, i == 1 ? JSON_REAL :
			     JSON_STRING, false);
		if (json_failed(c))
			return -1;
		if (!s)
			continue;
		if (i == 1)
			prm->uncertainty = json_number_value(s);
		else if (i == 0)
			prm->source = xstrdup(json_string_value(s));
		else
			prm->status = xstrdup(json_string_value(s));
	}
	return 0;
}

/* Every key in demands_source/_uncertainty/_status names a demand. */
static int check_demand_keys(struct json_src *c, json_t *model)
{
	static const char *const objs[] = {
		"demands_source", "demands_uncertainty", "demands_status"
	};
	json_t *d = json_object_get(model, "demands"), *o, *v;
	const char *key;
	char path[192];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		o = json_object_get(model, objs[i]);
		if (!o || !json_is_object(o))
			continue;
		json_object_foreach(o, key, v) {
			if (json_object_get(d, key))
				continue;
			snprintf(path, sizeof(path), "model.%s.%s", objs[i],
				 key);
			return json_fail(c, path, "'%s' is not in model.demands",
				    key);
		}
	}
	return 0;
}

static int load_model(struct json_src *c, struct pandia_workload *w, json_t *m)
{
	static const char *const keys[] = {
		"t1", "t1_source", "t1_uncertainty", "t1_status",
		"p", "p_source", "p_uncertainty", "p_status",
		"o_s", "o_s_source", "o_s_uncertainty", "o_s_status",
		"l", "l_source", "l_uncertainty", "l_status",
		"b", "b_source", "b_uncertainty", "b_status",
		"demands", "demands_source", "demands_uncertainty",
		"demands_status", "o_s_form", "b_form", NULL
	};
	const char *key;
	json_t *d, *v;
	char path[192], *form = NULL;
	size_t k;

	if (json_only_keys(c, m, "model", keys) < 0 ||
	    json_get_str(c, m, "model", "o_s_form", &form) < 0)
		return -1;
	if (form) {
		w->has_o_s_form = true;
		if (!strcmp(form, "per_remote_fraction"))
			w->o_s_form = OS_PER_FRACTION;
		else if (strcmp(form, "per_remote_thread"))
			w->has_o_s_form = false;
		free(form);
		form = NULL;
		if (!w->has_o_s_form)
			return json_fail(c, "model.o_s_form", "unknown form "
					 "(per_remote_thread or "
					 "per_remote_fraction)");
	}
	if (json_get_str(c, m, "model", "b_form", &form) < 0)
		return -1;
	if (form) {
		w->has_b_form = true;
		if (!strcmp(form, "core"))
			w->b_form = B_CORE;
		else if (strcmp(form, "whole"))
			w->has_b_form = false;
		free(form);
		if (!w->has_b_form)
			return json_fail(c, "model.b_form", "unknown form "
					 "(whole or core)");
	}
	for (k = 0; k < WL_N_PARAMS; k++)
		if (load_param(c, m, wl_params[k].name, NULL,
			       json_object_get(m, wl_params[k].name),
			       wl_param_of(w, &wl_params[k])) < 0)
			return -1;
	d = json_get(c, m, "model", "demands", JSON_OBJECT, true);
	if (!d)
		return -1;
	json_object_foreach(d, key, v) {
		int r = wl_resource_from_name(key);

		if (r < 0) {
			snprintf(path, sizeof(path), "model.demands.%s", key);
			return json_fail(c, path, "unknown resource '%s' (known: "
				    "instructions, L1, L2, L3, dram, "
				    "interconnect)", key);
		}
		w->listed[r] = true;
		if (load_param(c, m, "demands", key, v, &w->demand[r]) < 0)
			return -1;
	}
	return check_demand_keys(c, m);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int load_machine_id(struct json_src *c, struct pandia_workload *w,
			   json_t *o)
{
	static const char *const keys[] = {
		"host", "cpu_model", "pus", "file", NULL
	};
	int i, j;

	if (json_only_keys(c, o, "machine", keys) < 0 ||
	    json_get_str(c, o, "machine", "host", &w->host) < 0 ||
	    json_get_str(c, o, "machine", "cpu_model", &w->cpu_model) < 0 ||
	    get_cpus(c, o, "machine", "pus", false, &w->pus, &w->n_pus) < 0 ||
	    json_get_str(c, o, "machine", "file", &w->machine_file) < 0)
		return -1;
	/* a set: sorted, each once (none: w->pus is NULL, nothing to sort) */
	if (w->n_pus > 1)
		qsort(w->pus, (size_t)w->n_pus, sizeof(int), cmp_int);
	for (i = 1, j = 1; i < w->n_pus; i++) {
		if (w->pus[i] == w->pus[j - 1])
			return json_fail(c, "machine.pus", "PU %d is listed twice",
				    w->pus[i]);
		w->pus[j++] = w->pus[i];
	}
	return 0;
}

static int load_root(struct json_src *c, struct pandia_workload *w,
		     json_t *root)
{
	static const char *const keys[] = {
		"schema", "command", "machine", "counters", "memory",
		"memory_found", "date", "pandia_version", "note", "unreliable",
		"size", "runs", "model", "models",
		NULL
	};
	static const char *const ckeys[] = { "backend", "note", NULL };
	struct pandia_error e;
	char path[64], *schema = NULL, *mem = NULL;
	json_t *o, *v;
	size_t i;

	if (!json_is_object(root))
		return json_fail(c, "", "the description must be a JSON object");
	if (!json_get(c, root, "", "schema", JSON_STRING, true))
		return -1;
	schema = (char *)json_string_value(json_object_get(root, "schema"));
	if (strcmp(schema, PANDIA_WORKLOAD_SCHEMA))
		return json_fail(c, "schema", "unknown schema version '%s' (this "
			    "pandia reads \"%s\")", schema,
			    PANDIA_WORKLOAD_SCHEMA);
	if (json_only_keys(c, root, "", keys) < 0 ||
	    json_get_strings(c, root, "", "command", &w->command,
			     &w->n_command, false) < 0)
		return -1;
	o = json_get(c, root, "", "machine", JSON_OBJECT, false);
	if (o && load_machine_id(c, w, o) < 0)
		return -1;
	o = json_get(c, root, "", "counters", JSON_OBJECT, false);
	if (o && (json_only_keys(c, o, "counters", ckeys) < 0 ||
		  json_get_str(c, o, "counters", "backend", &w->counters) < 0 ||
		  json_get_str(c, o, "counters", "note", &w->counters_note) < 0))
		return -1;
	if (json_failed(c) || json_get_str(c, root, "", "memory", &mem) < 0)
		return -1;
	if (mem) {
		w->has_memory = true;
		if (mempolicy_parse(mem, &w->memory, &e) < 0) {
			free(mem);
			return json_fail(c, "memory", "%s", e.text);
		}
		free(mem);
	}
	o = json_get(c, root, "", "memory_found", JSON_OBJECT, false);
	if (json_failed(c))
		return -1;
	if (o)
		w->memory_found = json_incref(o);
	if (json_get_str(c, root, "", "date", &w->date) < 0 ||
	    json_get_str(c, root, "", "pandia_version", &w->version) < 0 ||
	    json_get_str(c, root, "", "note", &w->note) < 0 ||
	    json_get_str(c, root, "", "unreliable", &w->unreliable) < 0)
		return -1;
	v = json_get(c, root, "", "size", JSON_REAL, false);
	if (json_failed(c))
		return -1;
	if (v) {
		w->has_size = true;
		w->size = json_number_value(v);
	}
	o = json_get(c, root, "", "runs", JSON_ARRAY, false);
	if (json_failed(c))
		return -1;
	if (o) {
		w->runs = xcalloc(json_array_size(o), sizeof(*w->runs));
		json_array_foreach(o, i, v) {
			snprintf(path, sizeof(path), "runs[%zu]", i);
			if (!json_is_object(v))
				return json_fail(c, path, "must be an object, not "
					    "%s", json_type_name(v));
			w->n_runs++;
			if (load_run(c, v, path, &w->runs[i]) < 0)
				return -1;
		}
	}
	/* the other models' parameters: each model reads its own */
	o = json_get(c, root, "", "models", JSON_OBJECT, false);
	if (json_failed(c))
		return -1;
	if (o) {
		const char *name;

		json_object_foreach(o, name, v) {
			snprintf(path, sizeof(path), "models.%s", name);
			if (!json_is_object(v))
				return json_fail(c, path, "must be an object, "
						 "not %s", json_type_name(v));
		}
		w->models = json_incref(o);
	}
	/* the Pandia model's: required unless another model's are there */
	o = json_get(c, root, "", "model", JSON_OBJECT, !w->models);
	if (json_failed(c))
		return -1;
	return o ? load_model(c, w, o) : 0;
}

struct pandia_workload *workload_parse(const char *text, const char *source,
				       struct pandia_error *err)
{
	struct pandia_error local;
	struct json_src c = { text, source, err ? err : &local };
	struct pandia_workload *w;
	json_t *root;
	char path[128];

	perr_clear(c.err);
	root = json_src_parse(&c);
	if (!root)
		return NULL;
	w = workload_new();
	w->source_text = xstrdup(text);
	w->source_name = xstrdup(source ? source : "");
	if (load_root(&c, w, root) < 0)
		goto fail;
	if (workload_check_at(w, path, sizeof(path), c.err) < 0) {
		json_fail_at_path(&c, path);
		goto fail;
	}
	json_decref(root);
	return w;
fail:
	json_decref(root);
	workload_free(w);
	return NULL;
}

struct pandia_workload *workload_load(const char *path,
				      struct pandia_error *err)
{
	struct pandia_workload *w;
	char *text = read_file(path, NULL, err);

	if (!text)
		return NULL;
	w = workload_parse(text, path, err);
	free(text);
	return w;
}
