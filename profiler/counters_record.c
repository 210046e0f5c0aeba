/*
 * counters_record.c - recordings of a reading (schema
 * "pandia-counters/1", docs/counters.md): read from and written to
 * JSON, so that counts recorded on one machine can be replayed through
 * the arithmetic on another without a PMU.
 */
#include "profiler/counters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/util.h"
#include "profiler/counters_internal.h"

#define COUNTERS_SCHEMA		"pandia-counters/1"

/*
 * *out = the count at KEY (>= 0); left alone when KEY is absent or
 * null, unless REQUIRED.  0, or -1.
 */
static int get_count(struct json_src *c, json_t *o, const char *opath,
		     const char *key, bool required, double *out)
{
	json_t *v = json_get(c, o, opath, key, JSON_REAL, required);
	char path[160];

	if (!v)
		return json_failed(c) ? -1 : 0;
	*out = json_number_value(v);
	if (!isfinite(*out) || *out < 0) {
		json_path_join(path, sizeof(path), opath, key);
		return json_fail(c, path, "must not be negative, got %g", *out);
	}
	return 0;
}

/* A string at KEY that is not empty, in *out (NULL when left out). */
static int get_name(struct json_src *c, json_t *o, const char *opath,
		    const char *key, bool required, char **out)
{
	char path[160];

	if (json_get_string(c, o, opath, key, out, required) < 0)
		return -1;
	if (*out && !**out) {
		json_path_join(path, sizeof(path), opath, key);
		return json_fail(c, path, "must not be empty");
	}
	return 0;
}

static int load_event(struct json_src *c, json_t *o, const char *path,
		      struct counters_reading *rd)
{
	static const char *const keys[] = {
		"event", "value", "enabled", "running", "error", NULL
	};
	char *name = NULL, *error = NULL;
	double value = 0, enabled = 0, running = 0;
	int ret = -1;

	if (!json_is_object(o))
		return json_fail(c, path, "must be an object, not %s",
				 json_type_name(o));
	if (json_only_keys(c, o, path, keys) < 0 ||
	    get_name(c, o, path, "event", true, &name) < 0 ||
	    get_name(c, o, path, "error", false, &error) < 0 ||
	    get_count(c, o, path, "value", !error, &value) < 0 ||
	    get_count(c, o, path, "enabled", false, &enabled) < 0 ||
	    get_count(c, o, path, "running", false, &running) < 0)
		goto out;
	if (error && json_get(c, o, path, "value", JSON_REAL, false)) {
		json_fail(c, path, "has both 'value' and 'error'");
		goto out;
	}
	if (running > enabled) {
		json_fail(c, path, "'running' (%g) exceeds 'enabled' (%g)",
		      running, enabled);
		goto out;
	}
	if (counters_find_event(rd, name)) {
		json_fail(c, path, "event '%s' is listed twice", name);
		goto out;
	}
	counters_reading_add(rd, name, !error, value, enabled, running,
			     error);
	ret = 0;
out:
	free(name);
	free(error);
	return ret;
}

static int load_root(struct json_src *c, json_t *root,
		     struct counters_reading *rd)
{
	static const char *const keys[] = {
		"schema", "pmu", "cpu_model", "note", "seconds",
		"line_bytes", "kernel", "events", NULL
	};
	char *schema = NULL;
	json_t *ev;
	size_t i;
	int ret = -1;

	if (!json_is_object(root))
		return json_fail(c, "", "the top level must be an object");
	if (get_name(c, root, "", "schema", true, &schema) < 0)
		goto out;
	if (strcmp(schema, COUNTERS_SCHEMA)) {
		json_fail(c, "schema", "is '%s', expected '%s'", schema,
		      COUNTERS_SCHEMA);
		goto out;
	}
	if (json_only_keys(c, root, "", keys) < 0 ||
	    get_name(c, root, "", "pmu", true, &rd->pmu) < 0 ||
	    get_name(c, root, "", "cpu_model", false, &rd->cpu_model) < 0 ||
	    get_name(c, root, "", "note", false, &rd->note) < 0 ||
	    get_count(c, root, "", "seconds", true, &rd->seconds) < 0 ||
	    get_count(c, root, "", "line_bytes", false, &rd->line_bytes) < 0)
		goto out;
	if (!(rd->seconds > 0)) {
		json_fail(c, "seconds", "must be positive");
		goto out;
	}
	if (!(rd->line_bytes > 0)) {
		json_fail(c, "line_bytes", "must be positive");
		goto out;
	}
	if (json_get_bool(c, root, "", "kernel", &rd->kernel, false) < 0)
		goto out;
	ev = json_get(c, root, "", "events", JSON_ARRAY, true);
	if (!ev)
		goto out;
	for (i = 0; i < json_array_size(ev); i++) {
		char path[32];

		snprintf(path, sizeof(path), "events[%zu]", i);
		if (load_event(c, json_array_get(ev, i), path, rd) < 0)
			goto out;
	}
	ret = 0;
out:
	free(schema);
	return ret;
}

int counters_reading_parse(const char *text, const char *source,
			   struct counters_reading *rd,
			   struct pandia_error *err)
{
	struct pandia_error local;
	struct json_src c = { text, source, err ? err : &local };
	json_t *root;
	int ret;

	perr_clear(c.err);
	counters_reading_release(rd);
	root = json_src_parse(&c);
	if (!root)
		return -1;
	ret = load_root(&c, root, rd);
	json_decref(root);
	if (ret < 0)
		counters_reading_release(rd);
	return ret;
}

int counters_reading_load(const char *path, struct counters_reading *rd,
			  struct pandia_error *err)
{
	char *text = read_file(path, NULL, err);
	int ret;

	if (!text)
		return -1;
	ret = counters_reading_parse(text, path, rd, err);
	free(text);
	return ret;
}

char *counters_reading_to_string(const struct counters_reading *rd)
{
	json_t *root = json_object(), *ev = json_array();
	char *text;
	int i;

	json_object_set_new(root, "schema", json_string(COUNTERS_SCHEMA));
	json_object_set_new(root, "pmu", json_string(rd->pmu ? rd->pmu :
						     "perf"));
	if (rd->cpu_model)
		json_object_set_new(root, "cpu_model",
				    json_string(rd->cpu_model));
	if (rd->note)
		json_object_set_new(root, "note", json_string(rd->note));
	json_object_set_new(root, "seconds", json_real(rd->seconds));
	json_object_set_new(root, "line_bytes", json_real(rd->line_bytes));
	json_object_set_new(root, "kernel", json_boolean(rd->kernel));
	for (i = 0; i < rd->n_events; i++) {
		const struct counters_event *e = &rd->events[i];
		json_t *o = json_object();

		json_object_set_new(o, "event", json_string(e->name));
		if (e->counted) {
			json_object_set_new(o, "value", json_real(e->value));
			if (e->enabled > 0) {
				json_object_set_new(o, "enabled",
						    json_real(e->enabled));
				json_object_set_new(o, "running",
						    json_real(e->running));
			}
		} else {
			json_object_set_new(o, "error",
					    json_string(e->error ? e->error :
							"not counted"));
		}
		json_array_append_new(ev, o);
	}
	json_object_set_new(root, "events", ev);
	text = json_to_text(root);
	json_decref(root);
	return text;
}

int counters_reading_save(const struct counters_reading *rd,
			  const char *path, struct pandia_error *err)
{
	char *text = counters_reading_to_string(rd);
	int ret = write_file_atomic(path, text, strlen(text), err);

	free(text);
	return ret;
}
