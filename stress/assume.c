/*
 * assume.c - read pandia-assume/1 and apply it to a topology.
 */
#include "stress/assume.h"

#include <jansson.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonpos.h"
#include "common/topology.h"
#include "common/util.h"

#define ASSUME_SCHEMA "pandia-assume/1"


/* A positive number at obj.key; 0 if left out. */
static int positive(struct json_src *c, json_t *obj, const char *opath,
		    const char *key, double *out, bool required)
{
	json_t *v = json_get(c, obj, opath, key, JSON_REAL, required);
	char path[128];

	*out = 0;
	if (!v)
		return json_failed(c) ? -1 : 0;
	*out = json_number_value(v);
	json_path_join(path, sizeof(path), opath, key);
	if (!(*out >= 1) || !isfinite(*out))
		return json_fail(c, path, "must be positive (at least 1), got "
				 "%g", *out);
	/* as the machine description's check (common/machine_check.c) */
	if (*out > 1e15)
		return json_fail(c, path, "%g is more than any machine has (at "
				 "most 1e+15)", *out);
	return 0;
}

static void assumed(struct pandia_measure *ms, const char *unit,
		    const char *note, const char *source, const char *file)
{
	ms->kernel = xstrdup("assumed");
	ms->unit = xstrdup(unit);
	ms->note = xasprintf("from %s%s%s", file, note || source ? ": " : "",
			     note ? note : source ? source : "");
}

/*
 * Hybrid machines: each kind's rate from core.kinds[i].peak_rate (in
 * hwloc's order, lower efficiency first), else core.peak_rate for the
 * fastest kind and that rate scaled by frequency (FrequencyMaxMHz,
 * else FrequencyBaseMHz) for the others.
 */
static int apply_kinds(struct json_src *c, struct pandia_machine *m,
		       json_t *core, const char *note, const char *source)
{
	json_t *a = json_get(c, core, "core", "kinds", JSON_ARRAY, false), *o;
	char path[128];
	int i, fast;

	if (json_failed(c))
		return -1;
	if (!m->n_kinds) {
		if (a)
			return json_fail(c, "core.kinds", "the topology has "
					 "one kind of core");
		return 0;
	}
	if (a && json_array_size(a) != (size_t)m->n_kinds)
		return json_fail(c, "core.kinds", "must have %d entries, one "
				 "per kind of core in hwloc's order (lower "
				 "efficiency first; null: scaled by "
				 "frequency)", m->n_kinds);
	fast = machine_fastest_kind(m);
	for (i = 0; i < m->n_kinds; i++) {
		struct pandia_kind *k = &m->kinds[i];
		const struct pandia_kind *f = &m->kinds[fast];
		char *why = NULL;

		o = a ? json_array_get(a, (size_t)i) : NULL;
		snprintf(path, sizeof(path), "core.kinds[%d]", i);
		if (o && !json_is_null(o)) {
			if (!json_is_object(o))
				return json_fail(c, path, "must be an object "
						 "or null");
			if (positive(c, o, path, "peak_rate", &k->rate,
				     true) < 0)
				return -1;
			if (k->rate > m->peak_rate) {
				snprintf(path, sizeof(path),
					 "core.kinds[%d].peak_rate", i);
				return json_fail(c, path, "%g is above "
						 "core.peak_rate (%g), the "
						 "fastest kind's", k->rate,
						 m->peak_rate);
			}
		} else if (i == fast) {
			k->rate = m->peak_rate;
		} else if (k->freq_max > 0 && f->freq_max > 0) {
			k->rate = m->peak_rate * k->freq_max / f->freq_max;
			why = xasprintf("core.peak_rate x FrequencyMaxMHz %g / "
					"%g", k->freq_max, f->freq_max);
		} else if (k->freq_base > 0 && f->freq_base > 0) {
			k->rate = m->peak_rate * k->freq_base / f->freq_base;
			why = xasprintf("core.peak_rate x FrequencyBaseMHz "
					"%g / %g", k->freq_base, f->freq_base);
		} else {
			return json_fail(c, "core", "the topology has %d "
					 "kinds of core and no frequency for "
					 "kind %d: give "
					 "core.kinds[%d].peak_rate",
					 m->n_kinds, i, i);
		}
		assumed(&k->m, "ops/s", why ? why : note, source, c->source);
		k->m.threads = 1;
		free(why);
	}
	return 0;
}

/* schema, the keys, source (into *source), cpu_model and host. */
static int apply_identity(struct json_src *c, struct pandia_machine *m,
			  json_t *root, const char **source)
{
	static const char *const known[] = {
		"schema", "cpu_model", "host", "source", "core", "links",
		"cache_sizes", NULL
	};
	json_t *v;

	if (!json_is_object(root))
		return json_fail(c, "", "must be a JSON object");
	v = json_object_get(root, "schema");
	if (!json_is_string(v) || strcmp(json_string_value(v), ASSUME_SCHEMA))
		return json_fail(c, v ? "schema" : "", "schema must be \"%s\"",
				 ASSUME_SCHEMA);
	if (json_only_keys(c, root, "", known) < 0)
		return -1;
	v = json_get(c, root, "", "source", JSON_STRING, false);
	if (json_failed(c))
		return -1;
	*source = v ? json_string_value(v) : NULL;
	v = json_get(c, root, "", "cpu_model", JSON_STRING, false);
	if (json_failed(c))
		return -1;
	free(m->cpu_model);
	m->cpu_model = xstrdup(v ? json_string_value(v) : "unknown");
	v = json_get(c, root, "", "host", JSON_STRING, false);
	if (json_failed(c))
		return -1;
	if (!m->host) {
		/* the file's name without .assume.json or .json */
		char *copy = xstrdup(c->source), *base = basename(copy), *dot;

		dot = strstr(base, ".assume.json");
		if (!dot)
			dot = strstr(base, ".json");
		if (dot)
			*dot = '\0';
		m->host = xstrdup(v ? json_string_value(v) : base);
		free(copy);
	}
	return 0;
}

/* cache_sizes: a cache the topology lacks, by level. */
static int apply_cache_sizes(struct json_src *c, struct pandia_machine *m,
			     json_t *root)
{
	json_t *sizes, *v;
	const char *key;
	char path[128];

	sizes = json_get(c, root, "", "cache_sizes", JSON_OBJECT, false);
	if (json_failed(c))
		return -1;
	json_object_foreach(sizes, key, v) {
		double size;
		int k = level_from_name(key);

		snprintf(path, sizeof(path), "cache_sizes.%s", key);
		if (k < LVL_L1 || k > LVL_L3)
			return json_fail(c, path, "unknown cache level "
					 "(expected L1, L2 or L3)");
		if (positive(c, sizes, "cache_sizes", key, &size, true) < 0)
			return -1;
		topology_add_cache(m, k + 1, (unsigned long long)size);
	}
	return 0;
}

/* core: the rate of a thread alone, each kind's, with SMT. */
static int apply_core(struct json_src *c, struct pandia_machine *m,
		      json_t *root, const char *source)
{
	json_t *core, *v;
	int i, smt;

	core = json_get(c, root, "", "core", JSON_OBJECT, true);
	if (!core)
		return -1;
	v = json_object_get(core, "note");
	if (positive(c, core, "core", "peak_rate", &m->peak_rate, true) < 0)
		return -1;
	assumed(&m->peak, "ops/s", json_string_value(v), source, c->source);
	m->peak.threads = 1;
	if (apply_kinds(c, m, core, json_string_value(v), source) < 0)
		return -1;
	if (positive(c, core, "core", "all_busy_rate", &m->all_busy_rate,
		     false) < 0)
		return -1;
	if (m->all_busy_rate > 0) {
		assumed(&m->all_busy, "ops/s", json_string_value(v), source,
			c->source);
		m->all_busy.threads = m->sockets[0].n_cores;
	}
	if (positive(c, core, "core", "smt_aggregate_rate", &m->smt_rate,
		     false) < 0)
		return -1;
	for (i = 0, smt = 1; i < m->n_cores; i++)
		if (m->cores[i].n_pus > smt)
			smt = m->cores[i].n_pus;
	if (smt > 1 && m->smt_rate > 0) {
		m->smt_applicable = true;
		assumed(&m->smt, "ops/s", json_string_value(v), source,
			c->source);
		m->smt.threads = smt;
	} else {
		m->smt_applicable = false;
		m->smt_rate = 0;
		m->smt_reason = xstrdup(smt == 1 ?
			"not applicable: one PU per core" :
			"not given in the --assume file");
	}
	return 0;
}

/*
 * links.LEVEL, L (NULL when not given), for level K: present with its
 * bandwidths, or absent with the reason.  *note gets its note.
 */
static int apply_link(struct json_src *c, struct pandia_machine *m,
		      json_t *l, int k, const char *source,
		      const char **note)
{
	struct pandia_link *lk = &m->links[k];
	bool cache_ok = true;
	char path[128];
	json_t *v;
	int i;

	snprintf(path, sizeof(path), "links.%s", level_name(k));
	if (k <= LVL_L3) {
		cache_ok = false;
		for (i = 0; i < m->n_caches; i++)
			cache_ok |= m->caches[i].level == k + 1;
	}
	if (!l) {
		lk->present = false;
		lk->reason = xstrdup(!cache_ok ? "no such cache" :
			k == LVL_INTERCONNECT && m->n_sockets < 2 ?
			"not applicable: one socket" :
			"not given in the --assume file");
		return 0;
	}
	if (!cache_ok)
		return json_fail(c, path, "the topology has no %s cache; "
				 "give its size in cache_sizes.%s",
				 level_name(k), level_name(k));
	if (k == LVL_INTERCONNECT && m->n_sockets < 2) {
		lk->present = false;
		lk->reason = xstrdup("not applicable: one socket");
		return 0;
	}
	if (positive(c, l, path, "per_core_bw", &lk->per_core_bw,
		     true) < 0 ||
	    positive(c, l, path, "aggregate_bw", &lk->aggregate_bw,
		     true) < 0)
		return -1;
	if (lk->aggregate_bw < 0.5 * lk->per_core_bw) {
		char ap[160];

		json_path_join(ap, sizeof(ap), path, "aggregate_bw");
		return json_fail(c, ap, "%g bytes/s for every core together "
				 "is less than half of one core's %g: the two "
				 "contradict each other", lk->aggregate_bw,
				 lk->per_core_bw);
	}
	v = json_get(c, l, path, "note", JSON_STRING, false);
	if (json_failed(c))
		return -1;
	*note = json_string_value(v);
	lk->present = true;
	assumed(&lk->per_core, "bytes/s", *note, source, c->source);
	lk->per_core.threads = 1;
	assumed(&lk->aggregate, "bytes/s", *note, source, c->source);
	return 0;
}

/* links: each level given, by name; *xnote the interconnect's note. */
static int apply_links(struct json_src *c, struct pandia_machine *m,
		       json_t *root, const char *source, const char **xnote)
{
	json_t *links, *l;
	const char *key;
	char path[128];
	int k;

	links = json_get(c, root, "", "links", JSON_OBJECT, true);
	if (!links)
		return -1;
	json_object_foreach(links, key, l) {
		snprintf(path, sizeof(path), "links.%s", key);
		if (level_from_name(key) < 0)
			return json_fail(c, path, "unknown level (expected "
					 "L1, L2, L3, dram or interconnect)");
		if (!json_is_object(l))
			return json_fail(c, path, "must be an object");
	}
	for (k = 0; k < LVL_COUNT; k++) {
		const char *note = NULL;

		if (apply_link(c, m, json_object_get(links, level_name(k)), k,
			       source, &note) < 0)
			return -1;
		if (k == LVL_INTERCONNECT)
			*xnote = note;
	}
	return 0;
}

/* One link per pair of sockets, each the interconnect's aggregate. */
static void apply_xlinks(struct pandia_machine *m, const char *xnote,
			 const char *source, const char *file)
{
	int i;

	if (!m->links[LVL_INTERCONNECT].present)
		return;
	machine_pair_xlinks(m);
	for (i = 0; i < m->n_xlinks; i++)
		assumed(&m->xlinks[i].m, "bytes/s", xnote, source, file);
}

static int apply(struct json_src *c, struct pandia_machine *m, json_t *root)
{
	const char *source = NULL, *xnote = NULL;

	if (apply_identity(c, m, root, &source) < 0 ||
	    apply_cache_sizes(c, m, root) < 0 ||
	    apply_core(c, m, root, source) < 0 ||
	    apply_links(c, m, root, source, &xnote) < 0)
		return -1;
	apply_xlinks(m, xnote, source, c->source);
	return 0;
}

int assume_apply(struct pandia_machine *m, const char *path,
		 struct pandia_error *err)
{
	struct pandia_error local;
	struct json_src c = { NULL, path, err ? err : &local };
	json_t *root;
	char *text;
	int ret;

	text = read_file(path, NULL, c.err);
	if (!text)
		return -1;
	c.text = text;
	/* clean, so that json_failed() tells what the getters found */
	perr_clear(c.err);
	root = json_src_parse(&c);
	if (!root) {
		free(text);
		return -1;
	}
	ret = apply(&c, m, root);
	if (ret == 0) {
		free(m->assumptions);
		m->assumptions = xstrdup(path);
	}
	json_decref(root);
	free(text);
	return ret;
}
