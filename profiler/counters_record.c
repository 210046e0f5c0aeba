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

static int only_keys(struct json_src *c, json_t *o, const char *opath,
		     const char *const *keys)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		int i;
		char path[160];

		for (i = 0; keys[i]; i++)
			if (!strcmp(keys[i], key))
				break;
		if (keys[i])
			continue;
		snprintf(path, sizeof(path), "%s%s%s", opath,
			 *opath ? "." : "", key);
		return json_fail(c, path, "unknown field");
	}
	return 0;
}

/* *out = the number at KEY (>= 0); absent is fine unless REQUIRED. */
static int get_num(struct json_src *c, json_t *o, const char *opath,
		   const char *key, bool required, double *out)
{
	json_t *v = json_object_get(o, key);
	char path[160];

	snprintf(path, sizeof(path), "%s%s%s", opath, *opath ? "." : "",
		 key);
	if (!v) {
		if (required)
			return json_fail(c, opath, "'%s' is missing", key);
		return 0;
	}
	if (!json_is_number(v))
		return json_fail(c, path, "must be a number");
	*out = json_number_value(v);
	if (!isfinite(*out) || *out < 0)
		return json_fail(c, path, "must not be negative, got %g", *out);
	return 0;
}

static int get_string(struct json_src *c, json_t *o, const char *opath,
		      const char *key, bool required, char **out)
{
	json_t *v = json_object_get(o, key);
	char path[160];

	snprintf(path, sizeof(path), "%s%s%s", opath, *opath ? "." : "",
		 key);
	if (!v) {
		if (required)
			return json_fail(c, opath, "'%s' is missing", key);
		return 0;
	}
	if (!json_is_string(v) || !*json_string_value(v))
		return json_fail(c, path, "must be a non-empty string");
	free(*out);
	*out = xstrdup(json_string_value(v));
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
		return json_fail(c, path, "must be an object");
	if (only_keys(c, o, path, keys) < 0 ||
	    get_string(c, o, path, "event", true, &name) < 0 ||
	    get_string(c, o, path, "error", false, &error) < 0 ||
	    get_num(c, o, path, "value", !error, &value) < 0 ||
	    get_num(c, o, path, "enabled", false, &enabled) < 0 ||
	    get_num(c, o, path, "running", false, &running) < 0)
		goto out;
	if (error && json_object_get(o, "value")) {
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
	json_t *ev, *k;
	size_t i;
	int ret = -1;

	if (!json_is_object(root))
		return json_fail(c, "", "the top level must be an object");
	if (get_string(c, root, "", "schema", true, &schema) < 0)
		goto out;
	if (strcmp(schema, COUNTERS_SCHEMA)) {
		json_fail(c, "schema", "is '%s', expected '%s'", schema,
		      COUNTERS_SCHEMA);
		goto out;
	}
	if (only_keys(c, root, "", keys) < 0 ||
	    get_string(c, root, "", "pmu", true, &rd->pmu) < 0 ||
	    get_string(c, root, "", "cpu_model", false, &rd->cpu_model) < 0 ||
	    get_string(c, root, "", "note", false, &rd->note) < 0 ||
	    get_num(c, root, "", "seconds", true, &rd->seconds) < 0 ||
	    get_num(c, root, "", "line_bytes", false, &rd->line_bytes) < 0)
		goto out;
	if (!(rd->seconds > 0)) {
		json_fail(c, "seconds", "must be positive");
		goto out;
	}
	if (!(rd->line_bytes > 0)) {
		json_fail(c, "line_bytes", "must be positive");
		goto out;
	}
	k = json_object_get(root, "kernel");
	if (k && !json_is_boolean(k)) {
		json_fail(c, "kernel", "must be true or false");
		goto out;
	}
	rd->kernel = k && json_is_true(k);
	ev = json_object_get(root, "events");
	if (!ev) {
		json_fail(c, "", "'events' is missing");
		goto out;
	}
	if (!json_is_array(ev)) {
		json_fail(c, "events", "must be an array");
		goto out;
	}
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
