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
	json_path_join(path, sizeof(path), opath, key);
	/* a PU list that is null contradicts itself: absent says "not
	   known", null would say "no PUs" */
	if (!v && !json_failed(c) && json_is_null(json_object_get(obj, key)))
		return json_fail(c, path, "must be a CPU list such as "
				 "\"0-3\", not null (leave it out when the "
				 "PUs are not known)");
	if (!v)
		return json_failed(c) ? -1 : 0;
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
	squeeze_blanks(w->cpu_model);
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
	if (!o)
		return 0;
	w->model_section = json_incref(o);
	/* its reader, when the program installed one, reads it now */
	return workload_model_ops() ? workload_model_ops()->load(c, o, w) : 0;
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
