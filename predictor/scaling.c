/*
 * scaling.c - the runs file of ESTIMA (pandia-scaling/1): in memory,
 * checked, loaded with the line and column of every error, saved
 * atomically.  The format is in docs/extrapolate.md.
 */
#include "predictor/scaling.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/util.h"

/* the shortest time a run can take, in seconds: not 1e-320 */
#define MIN_TIME 1e-9

struct pandia_scaling *scaling_new(void)
{
	return xcalloc(1, sizeof(struct pandia_scaling));
}

void scaling_free(struct pandia_scaling *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n_command; i++)
		free(s->command[i]);
	free(s->command);
	free(s->machine);
	free(s->counters);
	free(s->stall_unit);
	free(s->date);
	free(s->version);
	free(s->note);
	for (i = 0; i < s->n_categories; i++)
		free(s->categories[i]);
	free(s->categories);
	for (i = 0; i < s->n_runs; i++) {
		free(s->runs[i].times);
		free(s->runs[i].cpus);
		free(s->runs[i].stalls);
	}
	free(s->runs);
	free(s);
}

int scaling_category(const struct pandia_scaling *s, const char *name)
{
	int i;

	for (i = 0; i < s->n_categories; i++)
		if (!strcmp(s->categories[i], name))
			return i;
	return -1;
}

/* A name that a path "runs[2].stalls.NAME" can point at. */
static const char *bad_name(const char *name)
{
	if (!*name)
		return "is empty";
	if (strpbrk(name, ".[]"))
		return "has '.', '[' or ']'";
	return NULL;
}

int scaling_add_category(struct pandia_scaling *s, const char *name,
			 struct pandia_error *err)
{
	const char *why = bad_name(name);
	int i;

	if (why)
		return perr_set(err, "category name '%s' %s", name, why);
	if (scaling_category(s, name) >= 0)
		return perr_set(err, "category '%s' is there already", name);
	s->categories = xrealloc(s->categories, sizeof(char *) *
				 (size_t)(s->n_categories + 1));
	s->categories[s->n_categories] = xstrdup(name);
	for (i = 0; i < s->n_runs; i++) {
		s->runs[i].stalls = xrealloc(s->runs[i].stalls,
					     sizeof(double) *
					     (size_t)(s->n_categories + 1));
		s->runs[i].stalls[s->n_categories] = 0;
	}
	return s->n_categories++;
}

struct scaling_run *scaling_add_run(struct pandia_scaling *s, int threads,
				    double time)
{
	struct scaling_run *r;

	s->runs = xrealloc(s->runs, sizeof(*s->runs) * (size_t)(s->n_runs + 1));
	r = &s->runs[s->n_runs++];
	memset(r, 0, sizeof(*r));
	r->threads = threads;
	r->time = time;
	r->stalls = xcalloc((size_t)(s->n_categories ? s->n_categories : 1),
			    sizeof(double));
	return r;
}

/*
 * The check, with the path of the bad value in PATH (so that the
 * loader can point at its line and column) and the message in err.
 */
static int check(const struct pandia_scaling *s, char *path, size_t plen,
		 struct pandia_error *err)
{
	const char *why;
	int i, j, k;

	if (!(s->frequency >= 0) || !isfinite(s->frequency) ||
	    (s->frequency > 0 && s->frequency < 1)) {
		snprintf(path, plen, "frequency");
		return perr_set(err, "must be a finite number of Hz, 0 or "
				"more, not %g", s->frequency);
	}
	for (k = 0; k < s->n_categories; k++) {
		if ((why = bad_name(s->categories[k]))) {
			snprintf(path, plen, "runs[0].stalls");
			return perr_set(err, "category name '%s' %s",
					s->categories[k], why);
		}
		for (j = 0; j < k; j++)
			if (!strcmp(s->categories[j], s->categories[k])) {
				snprintf(path, plen, "runs[0].stalls");
				return perr_set(err, "category '%s' is listed "
						"twice", s->categories[k]);
			}
	}
	for (i = 0; i < s->n_runs; i++) {
		const struct scaling_run *r = &s->runs[i];

		if (r->threads < 1) {
			snprintf(path, plen, "runs[%d].threads", i);
			return perr_set(err, "must be at least 1, not %d",
					r->threads);
		}
		if (i > 0 && r->threads <= s->runs[i - 1].threads) {
			snprintf(path, plen, "runs[%d].threads", i);
			return perr_set(err, "must be more than the %d of "
					"runs[%d] (threads increase from run "
					"to run), not %d",
					s->runs[i - 1].threads, i - 1,
					r->threads);
		}
		if (!(r->time >= MIN_TIME) || !isfinite(r->time)) {
			snprintf(path, plen, "runs[%d].time", i);
			return perr_set(err, "must be a finite number of "
					"seconds, at least 1e-09, not %g",
					r->time);
		}
		if (r->cpus) {
			int *pus = NULL, n = 0;

			if (cpulist_parse(r->cpus, &pus, &n, NULL) == 0 &&
			    n != r->threads) {
				free(pus);
				snprintf(path, plen, "runs[%d].cpus", i);
				return perr_set(err, "names %d PUs for %d "
						"threads (one per thread)", n,
						r->threads);
			}
			free(pus);
		}
		for (j = 0; j < r->n_times; j++)
			if (!(r->times[j] >= MIN_TIME) ||
			    !isfinite(r->times[j])) {
				snprintf(path, plen, "runs[%d].times[%d]", i,
					 j);
				return perr_set(err, "must be a finite number "
						"of seconds, at least 1e-09, "
						"not %g", r->times[j]);
			}
		for (k = 0; k < s->n_categories; k++)
			if (!(r->stalls[k] >= 0) || !isfinite(r->stalls[k]) ||
			    (r->stalls[k] != 0 && !isnormal(r->stalls[k]))) {
				snprintf(path, plen, "runs[%d].stalls.%s", i,
					 s->categories[k]);
				return perr_set(err, "must be a finite count, "
						"0 or more, not %g",
						r->stalls[k]);
			}
	}
	return 0;
}

int scaling_check(const struct pandia_scaling *s, struct pandia_error *err)
{
	char path[160] = "";
	struct pandia_error e;

	if (check(s, path, sizeof(path), &e) == 0)
		return 0;
	return perr_set(err, "%s: %s", path, e.text);
}

/* ---- writing ------------------------------------------------------ */

static void set_str(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

static json_t *to_json(const struct pandia_scaling *s)
{
	json_t *root = json_object(), *a, *o, *st;
	int i, j;

	json_object_set_new(root, "schema",
			    json_string(PANDIA_SCALING_SCHEMA));
	if (s->n_command) {
		a = json_array();
		for (i = 0; i < s->n_command; i++)
			json_array_append_new(a, json_string(s->command[i]));
		json_object_set_new(root, "command", a);
	}
	set_str(root, "machine", s->machine);
	if (s->frequency > 0)
		json_object_set_new(root, "frequency",
				    json_real(s->frequency));
	set_str(root, "counters", s->counters);
	set_str(root, "stall_unit", s->stall_unit);
	set_str(root, "date", s->date);
	set_str(root, "pandia_version", s->version);
	set_str(root, "note", s->note);
	a = json_array();
	for (i = 0; i < s->n_runs; i++) {
		const struct scaling_run *r = &s->runs[i];

		o = json_object();
		json_object_set_new(o, "threads", json_integer(r->threads));
		set_str(o, "cpus", r->cpus);
		json_object_set_new(o, "time", json_real(r->time));
		if (r->n_times) {
			json_t *t = json_array();

			for (j = 0; j < r->n_times; j++)
				json_array_append_new(t,
						      json_real(r->times[j]));
			json_object_set_new(o, "times", t);
		}
		st = json_object();
		for (j = 0; j < s->n_categories; j++)
			json_object_set_new(st, s->categories[j],
					    json_real(r->stalls[j]));
		json_object_set_new(o, "stalls", st);
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "runs", a);
	return root;
}

char *scaling_to_string(const struct pandia_scaling *s)
{
	json_t *root = to_json(s);
	char *text = json_to_text(root);

	json_decref(root);
	return text;
}

int scaling_save(const struct pandia_scaling *s, const char *path,
		 struct pandia_error *err)
{
	char *text;
	int ret;

	if (scaling_check(s, err) < 0)
		return -1;
	text = scaling_to_string(s);
	ret = write_file_atomic(path, text, strlen(text), err);
	free(text);
	return ret;
}

/* ---- loading ------------------------------------------------------ */

/* Run 0's stalls name the categories, in file order. */
static int load_categories(struct json_src *c, struct pandia_scaling *s,
			   json_t *stalls)
{
	struct pandia_error e;
	const char *key;
	char path[192];
	json_t *v;

	json_object_foreach(stalls, key, v) {
		if (scaling_add_category(s, key, &e) < 0) {
			snprintf(path, sizeof(path), "runs[0].stalls");
			return json_fail(c, path, "%s", e.text);
		}
	}
	return 0;
}

static int load_stalls(struct json_src *c, struct pandia_scaling *s,
		       json_t *stalls, const char *opath,
		       struct scaling_run *r)
{
	const char *key;
	char path[192];
	json_t *v;
	int k;

	json_object_foreach(stalls, key, v) {
		if (scaling_category(s, key) >= 0)
			continue;
		snprintf(path, sizeof(path), "%s.stalls.%s", opath, key);
		return json_fail(c, path, "category '%s' is not in runs[0]: "
				 "every run counts the same categories", key);
	}
	snprintf(path, sizeof(path), "%s.stalls", opath);
	for (k = 0; k < s->n_categories; k++) {
		v = json_get(c, stalls, path, s->categories[k], JSON_REAL,
			     true);
		if (!v)
			return -1;
		r->stalls[k] = json_number_value(v);
	}
	return 0;
}

static int load_run(struct json_src *c, struct pandia_scaling *s,
		    json_t *o, int idx)
{
	static const char *const keys[] = {
		"threads", "cpus", "time", "times", "stalls", NULL
	};
	struct pandia_error e;
	struct scaling_run *r;
	char opath[32], path[192];
	json_t *t, *ts, *st;
	int *pus, npus, threads;

	snprintf(opath, sizeof(opath), "runs[%d]", idx);
	if (!json_is_object(o))
		return json_fail(c, opath, "must be an object, not %s",
				 json_type_name(o));
	if (json_only_keys(c, o, opath, keys) < 0)
		return -1;
	if (json_get_int(c, o, opath, "threads", 1, 1 << 20, &threads,
			 true) < 0)
		return -1;
	t = json_get(c, o, opath, "time", JSON_REAL, false);
	if (json_failed(c))
		return -1;
	ts = json_get(c, o, opath, "times", JSON_ARRAY, false);
	if (json_failed(c))
		return -1;
	if (!t && (!ts || !json_array_size(ts)))
		return json_fail(c, opath, "missing field 'time' (or a "
				 "non-empty 'times')");
	st = json_get(c, o, opath, "stalls", JSON_OBJECT, true);
	if (!st)
		return -1;
	if (idx == 0 && load_categories(c, s, st) < 0)
		return -1;
	r = scaling_add_run(s, threads,
			    t ? json_number_value(t) : 0);
	if (json_get_str(c, o, opath, "cpus", &r->cpus) < 0)
		return -1;
	if (r->cpus) {
		if (cpulist_parse(r->cpus, &pus, &npus, &e) < 0) {
			json_path_join(path, sizeof(path), opath, "cpus");
			return json_fail(c, path, "%s", e.text);
		}
		free(pus);
	}
	if (json_get_nums(c, o, opath, "times", &r->times, &r->n_times,
			  false) < 0)
		return -1;
	if (!t)
		r->time = median_of(r->times, r->n_times);
	return load_stalls(c, s, st, opath, r);
}

static int load_root(struct json_src *c, struct pandia_scaling *s,
		     json_t *root)
{
	static const char *const keys[] = {
		"schema", "command", "machine", "frequency", "counters",
		"stall_unit", "date", "pandia_version", "note", "runs", NULL
	};
	const char *schema;
	json_t *v, *a;
	size_t i;

	if (!json_is_object(root))
		return json_fail(c, "", "the runs file must be a JSON object");
	v = json_get(c, root, "", "schema", JSON_STRING, true);
	if (!v)
		return -1;
	schema = json_string_value(v);
	if (strcmp(schema, PANDIA_SCALING_SCHEMA))
		return json_fail(c, "schema", "unknown schema version '%s' "
				 "(this pandia reads \"%s\")", schema,
				 PANDIA_SCALING_SCHEMA);
	if (json_only_keys(c, root, "", keys) < 0 ||
	    json_get_strings(c, root, "", "command", &s->command,
			     &s->n_command, false) < 0 ||
	    json_get_str(c, root, "", "machine", &s->machine) < 0 ||
	    json_get_str(c, root, "", "counters", &s->counters) < 0 ||
	    json_get_str(c, root, "", "stall_unit", &s->stall_unit) < 0 ||
	    json_get_str(c, root, "", "date", &s->date) < 0 ||
	    json_get_str(c, root, "", "pandia_version", &s->version) < 0 ||
	    json_get_str(c, root, "", "note", &s->note) < 0)
		return -1;
	v = json_get(c, root, "", "frequency", JSON_REAL, false);
	if (json_failed(c))
		return -1;
	if (v)
		s->frequency = json_number_value(v);
	a = json_get(c, root, "", "runs", JSON_ARRAY, true);
	if (!a)
		return -1;
	json_array_foreach(a, i, v)
		if (load_run(c, s, v, (int)i) < 0)
			return -1;
	return 0;
}

struct pandia_scaling *scaling_parse(const char *text, const char *source,
				     struct pandia_error *err)
{
	struct pandia_error local;
	struct json_src c = { text, source, err ? err : &local };
	struct pandia_scaling *s;
	char path[160];
	json_t *root;

	perr_clear(c.err);
	root = json_src_parse(&c);
	if (!root)
		return NULL;
	s = scaling_new();
	if (load_root(&c, s, root) < 0)
		goto fail;
	if (check(s, path, sizeof(path), c.err) < 0) {
		json_fail_at_path(&c, path);
		goto fail;
	}
	json_decref(root);
	return s;
fail:
	json_decref(root);
	scaling_free(s);
	return NULL;
}

struct pandia_scaling *scaling_load(const char *path,
				    struct pandia_error *err)
{
	struct pandia_scaling *s;
	char *text = read_file(path, NULL, err);

	if (!text)
		return NULL;
	s = scaling_parse(text, path, err);
	free(text);
	return s;
}
