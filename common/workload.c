/*
 * workload.c - pandia-workload/1: the workload description as JSON.
 *
 * Keys are written in a fixed order and numbers with a fixed precision
 * (common/jsonout.c), so load and save of a saved file gives the same
 * bytes.  Loading reports the file, the line and column of the bad
 * value, the field and what is wrong with it; unknown fields are
 * refused so that a typing mistake in a hand-written file is not
 * silently ignored.
 */
#include "common/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/util.h"

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
	if (s && !strncmp(s, "node:", 5) && parse_int(s + 5, &node) &&
	    node >= 0) {
		mp->kind = MEM_NODE;
		mp->node = node;
		return 0;
	}
	return perr_set(err, "unknown memory policy '%s' (local, interleave, "
			"spread or node:N)", s ? s : "");
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
	default:
		snprintf(buf, size, "node:%d", mp->node);
		break;
	}
	return buf;
}

const char *os_form_name(enum os_form f)
{
	return f == OS_PER_FRACTION ? "per_remote_fraction" :
		"per_remote_thread";
}

const char *b_form_name(enum b_form f)
{
	return f == B_CORE ? "core" : "whole";
}

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
	int i;

	param_init(&w->t1);
	param_init(&w->p);
	param_init(&w->o_s);
	param_init(&w->l);
	param_init(&w->b);
	for (i = 0; i < WR_COUNT; i++)
		param_init(&w->demand[i]);
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
	wl_param_release(&w->t1);
	wl_param_release(&w->p);
	wl_param_release(&w->o_s);
	wl_param_release(&w->l);
	wl_param_release(&w->b);
	for (i = 0; i < WR_COUNT; i++)
		wl_param_release(&w->demand[i]);
	json_decref(w->models);
	json_decref(w->memory_found);
	free(w->source_text);
	free(w->source_name);
	free(w);
}

/* ---- checking --------------------------------------------------- */

/* The model parameters by name, in file order. */
struct param_desc {
	const char *name;
	size_t off;
	double lo, hi;		/* allowed range (hi: INFINITY) */
	bool nullable;
};

static const struct param_desc params[] = {
	{ "t1", offsetof(struct pandia_workload, t1), 0, INFINITY, false },
	{ "p", offsetof(struct pandia_workload, p), 0, 1, false },
	{ "o_s", offsetof(struct pandia_workload, o_s), 0, INFINITY, true },
	{ "l", offsetof(struct pandia_workload, l), 0, 1, true },
	{ "b", offsetof(struct pandia_workload, b), 0, INFINITY, true },
};

static struct wl_param *param_of(const struct pandia_workload *w,
				 const struct param_desc *d)
{
	return (struct wl_param *)((char *)w + d->off);
}

/* Whether each id of ID ("run2", or "run1,run2,run4") names a run. */
static bool has_run(const struct pandia_workload *w, const char *id)
{
	const char *p = id;
	int i;

	for (;;) {
		size_t len = strcspn(p, ",");

		for (i = 0; i < w->n_runs; i++)
			if (strlen(w->runs[i].id) == len &&
			    !strncmp(w->runs[i].id, p, len))
				break;
		if (i == w->n_runs)
			return false;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

/*
 * One parameter's checks.  NAME is the JSON key ("t1"), KEY the key of
 * its siblings ("t1" or "demands" with RES naming the resource).
 */
static int check_param(const struct pandia_workload *w,
		       const struct wl_param *prm, const char *name,
		       const char *res, double lo, double hi, bool nullable,
		       char *path, size_t plen, struct pandia_error *err)
{
	const char *sep = res ? "." : "";
	const char *r = res ? res : "";

	if (!prm->known) {
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		if (!nullable)
			return perr_set(err, "must be a number, not null");
		if (!prm->status || !*prm->status)
			return perr_set(err, "null (not measured) needs "
					"model.%s_status%s%s saying why", name,
					sep, r);
	} else if (!isfinite(prm->value) || prm->value < lo ||
		   prm->value > hi) {
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		if (lo == 0 && hi == 1)
			return perr_set(err, "must be between 0 and 1, got %g",
					prm->value);
		if (lo == 0 && !strcmp(name, "t1"))
			return perr_set(err, "must be positive, got %g",
					prm->value);
		return perr_set(err, "must not be negative, got %g",
				prm->value);
	}
	if (!strcmp(name, "t1") && prm->known && !(prm->value >= 1e-9)) {
		snprintf(path, plen, "model.t1");
		return perr_set(err, "must be a time of at least 1e-09 s (a "
				"nanosecond), got %g", prm->value);
	}
	if (prm->known && prm->value != 0 && !isnormal(prm->value)) {
		/* 1e-320: no measurement gives a denormal number */
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		return perr_set(err, "%g is too small to be a measurement (a "
				"denormal number): 0 or a normal number",
				prm->value);
	}
	if (!isnan(prm->uncertainty) && (!isfinite(prm->uncertainty) ||
					 prm->uncertainty < 0)) {
		snprintf(path, plen, "model.%s_uncertainty%s%s", name, sep, r);
		return perr_set(err, "must not be negative, got %g",
				prm->uncertainty);
	}
	if (prm->source && w->n_runs > 0 && !has_run(w, prm->source)) {
		snprintf(path, plen, "model.%s_source%s%s", name, sep, r);
		return perr_set(err, "'%s' names no run in 'runs'",
				prm->source);
	}
	return 0;
}

bool workload_has_model(const struct pandia_workload *w)
{
	size_t k;
	int i;

	if (!w->models)
		return true;
	for (k = 0; k < ARRAY_SIZE(params); k++)
		if (param_of(w, &params[k])->known ||
		    param_of(w, &params[k])->status)
			return true;
	for (i = 0; i < WR_COUNT; i++)
		if (w->listed[i])
			return true;
	return false;
}

static int check(const struct pandia_workload *w, char *path, size_t plen,
		 struct pandia_error *err)
{
	bool model = workload_has_model(w);
	size_t k;
	int i, j;

	for (k = 0; k < ARRAY_SIZE(params) && model; k++) {
		const struct param_desc *d = &params[k];

		if (check_param(w, param_of(w, d), d->name, NULL, d->lo,
				d->hi, d->nullable, path, plen, err) < 0)
			return -1;
	}
	for (i = 0; i < WR_COUNT; i++) {
		if (!w->listed[i])
			continue;
		if (check_param(w, &w->demand[i], "demands", res_names[i], 0,
				INFINITY, true, path, plen, err) < 0)
			return -1;
	}
	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];

		if (!r->id || !*r->id) {
			snprintf(path, plen, "runs[%d]", i);
			return perr_set(err, "a run needs an 'id'");
		}
		for (j = 0; j < i; j++)
			if (!strcmp(w->runs[j].id, r->id)) {
				snprintf(path, plen, "runs[%d].id", i);
				return perr_set(err, "run id '%s' is used "
						"twice", r->id);
			}
		if (r->n_cpus < 1) {
			snprintf(path, plen, "runs[%d].cpus", i);
			return perr_set(err, "empty PU list");
		}
		if (r->n_times < 1) {
			snprintf(path, plen, "runs[%d].times", i);
			return perr_set(err, "a run needs at least one time");
		}
		if (r->has_size && !isfinite(r->size)) {
			snprintf(path, plen, "runs[%d].size", i);
			return perr_set(err, "must be a finite number");
		}
		for (j = 0; j < r->n_times; j++)
			if (!(r->times[j] > 0) || !isfinite(r->times[j])) {
				snprintf(path, plen, "runs[%d].times[%d]", i,
					 j);
				return perr_set(err, "a time must be positive, "
						"got %g", r->times[j]);
			}
	}
	if (w->has_size && !isfinite(w->size)) {
		snprintf(path, plen, "size");
		return perr_set(err, "must be a finite number");
	}
	for (i = 1; i < w->n_pus; i++)
		if (w->pus[i] <= w->pus[i - 1]) {
			snprintf(path, plen, "machine.pus");
			return perr_set(err, "PU %d is listed twice",
					w->pus[i]);
		}
	return 0;
}

int workload_check(const struct pandia_workload *w,
		   struct pandia_error *err)
{
	char path[128] = "";
	struct pandia_error e;

	if (check(w, path, sizeof(path), &e) == 0)
		return 0;
	return perr_set(err, "%s: %s", path, e.text);
}

/* ---- writing ---------------------------------------------------- */

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
		json_object_set_new(d, res_names[i], value_json(prm));
		set_str(src, res_names[i], prm->source);
		if (!isnan(prm->uncertainty))
			json_object_set_new(unc, res_names[i],
					    json_real(prm->uncertainty));
		set_str(st, res_names[i], prm->status);
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
		for (k = 0; k < ARRAY_SIZE(params); k++)
			param_to_json(o, params[k].name,
				      param_of(w, &params[k]));
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

/* ---- loading ---------------------------------------------------- */



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

static int load_strings(struct json_src *c, json_t *obj, const char *opath,
			const char *key, char ***out, int *n)
{
	json_t *a = json_get(c, obj, opath, key, JSON_ARRAY, false), *v;
	char path[192];
	size_t i;

	*out = NULL;
	*n = 0;
	if (!a)
		return json_failed(c) ? -1 : 0;
	*out = xcalloc(json_array_size(a), sizeof(char *));
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			snprintf(path, sizeof(path), "%s%s%s[%zu]", opath,
				 *opath ? "." : "", key, i);
			return json_fail(c, path, "must be a string, not %s",
				    json_type_name(v));
		}
		(*out)[(*n)++] = xstrdup(json_string_value(v));
	}
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
	size_t i;

	if (json_only_keys(c, o, opath, keys) < 0)
		return -1;
	if (!json_get(c, o, opath, "id", JSON_STRING, true))
		return -1;
	r->id = xstrdup(json_string_value(json_object_get(o, "id")));
	if (json_get_str(c, o, opath, "purpose", &r->purpose) < 0 ||
	    get_cpus(c, o, opath, "cpus", true, &r->cpus, &r->n_cpus) < 0 ||
	    load_strings(c, o, opath, "stress", &r->stress, &r->n_stress) < 0)
		return -1;
	a = json_get(c, o, opath, "times", JSON_ARRAY, true);
	if (!a)
		return -1;
	r->times = xcalloc(json_array_size(a), sizeof(double));
	json_array_foreach(a, i, v) {
		if (!json_is_number(v)) {
			snprintf(path, sizeof(path), "%s.times[%zu]", opath, i);
			return json_fail(c, path, "must be a number, not %s",
				    json_type_name(v));
		}
		r->times[r->n_times++] = json_number_value(v);
	}
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
	json_t *s;
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
		s = json_object_get(model, key);
		if (s && res) {
			snprintf(path, sizeof(path), "model.%s", key);
			if (!json_is_object(s))
				return json_fail(c, path, "must be an object by "
					    "resource, not %s", json_type_name(s));
			s = json_object_get(s, res);
			snprintf(path, sizeof(path), "model.%s.%s", key, res);
		} else {
			snprintf(path, sizeof(path), "model.%s", key);
		}
		if (!s || json_is_null(s))
			continue;
		if (i == 1) {
			if (!json_is_number(s))
				return json_fail(c, path, "must be a number, not %s",
					    json_type_name(s));
			prm->uncertainty = json_number_value(s);
		} else if (!json_is_string(s)) {
			return json_fail(c, path, "must be a string, not %s",
				    json_type_name(s));
		} else if (i == 0) {
			prm->source = xstrdup(json_string_value(s));
		} else {
			prm->status = xstrdup(json_string_value(s));
		}
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
	for (k = 0; k < ARRAY_SIZE(params); k++)
		if (load_param(c, m, params[k].name, NULL,
			       json_object_get(m, params[k].name),
			       param_of(w, &params[k])) < 0)
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

static int load_root(struct json_src *c, struct pandia_workload *w, json_t *root)
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
	    load_strings(c, root, "", "command", &w->command,
			 &w->n_command) < 0)
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
	if (check(w, path, sizeof(path), c.err) < 0) {
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
