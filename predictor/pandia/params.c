/*
 * params.c - the "model" section of a workload description, the
 * Pandia model's parameters: reading it with the line and column of
 * a bad value, its checks (ranges, nulls explained, sources that name
 * runs) and writing it in a fixed order.  common/ keeps the section
 * and calls these through struct workload_model_ops.
 */
#include "predictor/pandia/params.h"

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/util.h"
#include "predictor/models.h"

/* The parameters by name, in file order. */
struct param_desc {
	const char *name;
	size_t off;		/* of its struct wl_param */
	double lo, hi;		/* allowed range (hi: INFINITY) */
	bool nullable;
};

#define N_PARAMS 5
static const struct param_desc params[N_PARAMS] = {
	{ "t1", offsetof(struct pandia_params, t1), 0, INFINITY, false },
	{ "p", offsetof(struct pandia_params, p), 0, 1, false },
	{ "o_s", offsetof(struct pandia_params, o_s), 0, INFINITY, true },
	{ "l", offsetof(struct pandia_params, l), 0, 1, true },
	{ "b", offsetof(struct pandia_params, b), 0, INFINITY, true },
};

/* PP's parameter D describes (borrowed from pp). */
static struct wl_param *param_of(const struct pandia_params *pp,
				 const struct param_desc *d)
{
	return (struct wl_param *)((char *)pp + d->off);
}

/* The forms' names, in their enums' order. */
static const char *const os_forms[2] = {
	"per_remote_thread", "per_remote_fraction"
};
static const char *const b_forms[2] = { "whole", "core" };
static const char *const serial_forms[2] = { "spread", "first" };

const char *os_form_name(enum os_form f)
{
	return os_forms[f == OS_PER_FRACTION];
}

const char *b_form_name(enum b_form f)
{
	return b_forms[f == B_CORE];
}

const char *serial_form_name(enum serial_form f)
{
	return serial_forms[f == SERIAL_FIRST];
}

/*
 * model.KEY, a form of two NAMES: *FORM its index
 * and *HAS true when present, both 0 when absent; -1 and the error
 * (file, line and the names allowed) for any other string.
 */
static int get_form(const struct json_src *c, json_t *m, const char *key,
		    const char *const names[2], int *form, bool *has)
{
	char *s = NULL, path[64];
	int i;

	*form = 0;
	*has = false;
	if (json_get_str(c, m, "model", key, &s) < 0)
		return -1;
	if (!s)
		return 0;
	for (i = 0; i < 2 && !*has; i++)
		if (!strcmp(s, names[i])) {
			*form = i;
			*has = true;
		}
	free(s);
	if (*has)
		return 0;
	snprintf(path, sizeof(path), "model.%s", key);
	return json_fail(c, path, "unknown form (%s or %s)", names[0],
			 names[1]);
}

struct pandia_params *pandia_params(const struct pandia_workload *w)
{
	return w->model_params;
}

/* ---- the parameters for the rest of the tree (predictor/models.h) - */

struct wl_param *model_param(const struct pandia_workload *w,
			     const char *name)
{
	size_t k;

	for (k = 0; k < N_PARAMS; k++)
		if (!strcmp(params[k].name, name))
			return param_of(pandia_params(w), &params[k]);
	return NULL;
}

struct wl_param *model_demand(const struct pandia_workload *w,
			      enum wl_resource r)
{
	return &pandia_params(w)->demand[r];
}

bool model_demand_listed(const struct pandia_workload *w,
			 enum wl_resource r)
{
	return pandia_params(w)->listed[r];
}

void model_demand_list(struct pandia_workload *w, enum wl_resource r,
		       bool listed)
{
	pandia_params(w)->listed[r] = listed;
}

double *model_demand_amplification(const struct pandia_workload *w,
				   enum wl_resource r)
{
	return &pandia_params(w)->demand_amp[r];
}

const char *model_o_s_form(const struct pandia_workload *w)
{
	const struct pandia_params *pp = pandia_params(w);

	return pp->has_o_s_form ? os_form_name(pp->o_s_form) : NULL;
}

const char *model_serial_form(const struct pandia_workload *w)
{
	const struct pandia_params *pp = pandia_params(w);

	return pp->has_serial_form ? serial_form_name(pp->serial_form) :
		NULL;
}

json_t *model_ambiguities(const struct pandia_workload *w)
{
	const struct pandia_params *pp = pandia_params(w);

	return pp->ambiguities && json_array_size(pp->ambiguities) ?
		pp->ambiguities : NULL;
}

/* ---- making and releasing them ------------------------------------ */

/*
 * Release what PP's parameters own and make them all unknown, with no
 * uncertainty stated (a zeroed parameter is made so too).
 */
static void params_reset(struct pandia_params *pp)
{
	size_t k;
	int i;

	for (k = 0; k < N_PARAMS; k++)
		wl_param_release(param_of(pp, &params[k]));
	for (i = 0; i < WR_COUNT; i++) {
		wl_param_release(&pp->demand[i]);
		pp->demand_amp[i] = NAN;
	}
	json_decref(pp->ambiguities);
	pp->ambiguities = NULL;
	json_decref(pp->refit);
	pp->refit = NULL;
	pp->have_spread = false;
}

static void *params_new(void)
{
	struct pandia_params *pp = xcalloc(1, sizeof(*pp));

	params_reset(pp);
	return pp;
}

static void params_free(void *data)
{
	params_reset(data);
	free(data);
}

/* ---- reading ------------------------------------------------------ */

/*
 * A parameter: V is its value (number or null), SIBS the object that
 * holds NAME_source, NAME_uncertainty and NAME_status (for demands,
 * objects by resource: pass the resource as RES).
 */
static int load_param(const struct json_src *c, json_t *model,
		      const char *name, const char *res, json_t *v,
		      struct wl_param *prm)
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

/*
 * Every key in demands_source/_uncertainty/_status/_amplification
 * names a demand.
 */
static int check_demand_keys(const struct json_src *c, json_t *model)
{
	static const char *const objs[] = {
		"demands_source", "demands_uncertainty", "demands_status",
		"demands_amplification"
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

/* model.demands_amplification: {RES: a number, at least 1}. */
static int load_amplification(const struct json_src *c, json_t *model,
			      struct pandia_params *pp)
{
	json_t *a, *v;
	const char *key;
	char path[192];

	a = json_get(c, model, "model", "demands_amplification",
		     JSON_OBJECT, false);
	if (json_failed(c))
		return -1;
	if (!a)
		return 0;
	json_object_foreach(a, key, v) {
		int r = wl_resource_from_name(key);

		snprintf(path, sizeof(path), "model.demands_amplification.%s",
			 key);
		if (!json_is_number(v) || !(json_number_value(v) >= 1))
			return json_fail(c, path, "must be a number of at "
					 "least 1 (a factor)");
		pp->demand_amp[r] = json_number_value(v);
	}
	return 0;
}

static int load_model(const struct json_src *c, json_t *m,
		      struct pandia_workload *w)
{
	static const char *const keys[] = {
		"t1", "t1_source", "t1_uncertainty", "t1_status",
		"p", "p_source", "p_uncertainty", "p_status",
		"o_s", "o_s_source", "o_s_uncertainty", "o_s_status",
		"l", "l_source", "l_uncertainty", "l_status",
		"b", "b_source", "b_uncertainty", "b_status",
		"demands", "demands_source", "demands_uncertainty",
		"demands_status", "demands_amplification", "o_s_form",
		"b_form", "serial_form", "ambiguities", "refit", NULL
	};
	struct pandia_params *pp = pandia_params(w);
	const char *key;
	json_t *d, *v;
	char path[192];
	bool has;
	int form;
	size_t k;

	if (json_only_keys(c, m, "model", keys) < 0 ||
	    get_form(c, m, "o_s_form", os_forms, &form, &has) < 0)
		return -1;
	pp->o_s_form = (enum os_form)form;
	pp->has_o_s_form = has;
	if (get_form(c, m, "b_form", b_forms, &form, &has) < 0)
		return -1;
	pp->b_form = (enum b_form)form;
	pp->has_b_form = has;
	if (get_form(c, m, "serial_form", serial_forms, &form, &has) < 0)
		return -1;
	pp->serial_form = (enum serial_form)form;
	pp->has_serial_form = has;
	d = json_object_get(m, "ambiguities");
	if (d && !json_is_array(d))
		return json_fail(c, "model.ambiguities", "not an array");
	pp->ambiguities = json_incref(d);
	d = json_object_get(m, "refit");
	if (d && !json_is_object(d))
		return json_fail(c, "model.refit", "not an object");
	pp->refit = json_incref(d);
	for (k = 0; k < N_PARAMS; k++)
		if (load_param(c, m, params[k].name, NULL,
			       json_object_get(m, params[k].name),
			       param_of(pp, &params[k])) < 0)
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
		pp->listed[r] = true;
		if (load_param(c, m, "demands", key, v, &pp->demand[r]) < 0)
			return -1;
	}
	if (check_demand_keys(c, m) < 0)
		return -1;
	return load_amplification(c, m, pp);
}

/* ---- checking ----------------------------------------------------- */

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
	/* a fraction's bounds with the rounding of text (1.0000001) */
	double tol = lo == 0 && hi == 1 ? 1e-6 : 0;

	if (!prm->known) {
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		if (!nullable)
			return perr_set(err, "must be a number, not null");
		if (!prm->status || !*prm->status)
			return perr_set(err, "null (not measured) needs "
					"model.%s_status%s%s saying why", name,
					sep, r);
	} else if (!isfinite(prm->value) || prm->value < lo - tol ||
		   prm->value > hi + tol) {
		snprintf(path, plen, "model.%s%s%s", name, sep, r);
		if (lo == 0 && hi == 1)
			return perr_set(err, "must be between 0 and 1, got "
					"%.10g", prm->value);
		if (prm->value > hi)
			return perr_set(err, "%g is more than any machine "
					"has (at most %g)", prm->value, hi);
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

static bool params_present(const struct pandia_workload *w)
{
	const struct pandia_params *pp = pandia_params(w);
	size_t k;
	int i;

	for (k = 0; k < N_PARAMS; k++)
		if (param_of(pp, &params[k])->known ||
		    param_of(pp, &params[k])->status)
			return true;
	for (i = 0; i < WR_COUNT; i++)
		if (pp->listed[i])
			return true;
	return false;
}

/* The most a demand may be: 1e15 ops/s or bytes/s (a petabyte a
   second), beyond any machine by orders of magnitude. */
#define DEMAND_MAX 1e15

static int params_check(const struct pandia_workload *w, char *path,
			size_t plen, struct pandia_error *err)
{
	const struct pandia_params *pp = pandia_params(w);
	bool model = workload_has_model(w);
	size_t k;
	int i;

	for (k = 0; k < N_PARAMS && model; k++) {
		const struct param_desc *d = &params[k];

		if (check_param(w, param_of(pp, d), d->name, NULL, d->lo,
				d->hi, d->nullable, path, plen, err) < 0)
			return -1;
	}
	for (i = 0; i < WR_COUNT; i++) {
		if (!pp->listed[i])
			continue;
		if (check_param(w, &pp->demand[i], "demands",
				wl_resource_name(i), 0, DEMAND_MAX, true,
				path, plen, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- writing ------------------------------------------------------ */

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
	json_set_str(model, key, prm->source);
	if (!isnan(prm->uncertainty)) {
		snprintf(key, sizeof(key), "%s_uncertainty", name);
		json_object_set_new(model, key, json_real(prm->uncertainty));
	}
	snprintf(key, sizeof(key), "%s_status", name);
	json_set_str(model, key, prm->status);
}

static json_t *demands_to_json(const struct pandia_params *pp, json_t *model)
{
	json_t *d = json_object(), *src = json_object(), *unc = json_object();
	json_t *st = json_object(), *amp = json_object();
	int i;

	for (i = 0; i < WR_COUNT; i++) {
		const struct wl_param *prm = &pp->demand[i];

		if (!pp->listed[i])
			continue;
		json_object_set_new(d, wl_resource_name(i), value_json(prm));
		json_set_str(src, wl_resource_name(i), prm->source);
		if (!isnan(prm->uncertainty))
			json_object_set_new(unc, wl_resource_name(i),
					    json_real(prm->uncertainty));
		json_set_str(st, wl_resource_name(i), prm->status);
		if (isfinite(pp->demand_amp[i]))
			json_object_set_new(amp, wl_resource_name(i),
					    json_real(pp->demand_amp[i]));
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
	if (json_object_size(amp))
		json_object_set_new(model, "demands_amplification", amp);
	else
		json_decref(amp);
	return model;
}

static json_t *params_to_json(const struct pandia_workload *w)
{
	const struct pandia_params *pp = pandia_params(w);
	json_t *o = json_object();
	size_t k;

	for (k = 0; k < N_PARAMS; k++)
		param_to_json(o, params[k].name, param_of(pp, &params[k]));
	if (pp->has_o_s_form)
		json_object_set_new(o, "o_s_form", json_string(
			os_form_name(pp->o_s_form)));
	if (pp->has_b_form)
		json_object_set_new(o, "b_form", json_string(
			b_form_name(pp->b_form)));
	if (pp->has_serial_form)
		json_object_set_new(o, "serial_form", json_string(
			serial_form_name(pp->serial_form)));
	if (pp->ambiguities && json_array_size(pp->ambiguities))
		json_object_set(o, "ambiguities", pp->ambiguities);
	if (pp->refit)
		json_object_set(o, "refit", pp->refit);
	return demands_to_json(pp, o);
}

static const struct workload_model_ops ops = {
	.load = load_model,
	.params_new = params_new,
	.params_free = params_free,
	.check = params_check,
	.present = params_present,
	.to_json = params_to_json,
};

void pandia_params_install(void)
{
	workload_set_model_ops(&ops);
}
