/*
 * machine_load.c - reading pandia-machine/1 into a machine description.
 *
 * Loading reports the file, the line and column of the bad value and
 * what is wrong with it.
 */
#include "common/machine.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonpos.h"
#include "common/machine_internal.h"
#include "common/util.h"

/*
 * An index or a count of the description: -1 (none) to 2^24, 0 when
 * left out.
 */
static int get_int(struct json_src *c, json_t *obj, const char *opath,
		   const char *key, int *out, bool required)
{
	return json_get_int(c, obj, opath, key, -1, 1 << 24, out, required);
}

/* An array of indexes, each from 0 to 2^24. */
static int get_ints(struct json_src *c, json_t *obj, const char *opath,
		    const char *key, int **out, int *n)
{
	return json_get_ints(c, obj, opath, key, 0, 1 << 24, out, n, true);
}

/* A "unit" at obj, when there is one, is exactly UNIT. */
static int unit_is(struct json_src *c, json_t *obj, const char *opath,
		   const char *unit)
{
	json_t *v = json_object_get(obj, "unit");
	char path[160];

	if (!v || (json_is_string(v) && !strcmp(json_string_value(v), unit)))
		return 0;
	json_path_join(path, sizeof(path), opath, "unit");
	if (!json_is_string(v))
		return json_fail(c, path, "must be the string \"%s\", not %s",
				 unit, json_type_name(v));
	return json_fail(c, path, "must be \"%s\", not \"%s\"", unit,
			 json_string_value(v));
}

static int load_measure(struct json_src *c, json_t *obj, const char *opath,
			const char *key, struct pandia_measure *ms)
{
	json_t *o = json_get(c, obj, opath, key, JSON_OBJECT, true);
	char path[192];

	if (!o)
		return -1;
	json_path_join(path, sizeof(path), opath, key);
	if (json_get_string(c, o, path, "kernel", &ms->kernel, false) < 0 ||
	    json_get_num(c, o, path, "working_set_bytes", &ms->working_set,
		    false) < 0 ||
	    get_int(c, o, path, "threads", &ms->threads, false) < 0 ||
	    json_get_string(c, o, path, "pus", &ms->pus, false) < 0 ||
	    get_int(c, o, path, "repetitions", &ms->repetitions, false) < 0 ||
	    json_get_num(c, o, path, "best", &ms->best, false) < 0 ||
	    json_get_num(c, o, path, "median", &ms->median, false) < 0 ||
	    json_get_num(c, o, path, "spread", &ms->spread, false) < 0 ||
	    json_get_string(c, o, path, "unit", &ms->unit, false) < 0 ||
	    json_get_string(c, o, path, "note", &ms->note, false) < 0)
		return -1;
	return 0;
}

/* topology.sockets */
static int load_sockets(struct json_src *c, struct pandia_machine *m,
			json_t *t)
{
	char path[192], ipath[64];
	json_t *a, *o;
	size_t i;

	a = json_get(c, t, "topology", "sockets", JSON_ARRAY, true);
	if (!a)
		return -1;
	m->n_sockets = (int)json_array_size(a);
	m->sockets = xcalloc((size_t)m->n_sockets, sizeof(*m->sockets));
	json_array_foreach(a, i, o) {
		struct pandia_socket *s = &m->sockets[i];

		snprintf(ipath, sizeof(ipath), "topology.sockets[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_int(c, o, ipath, "os_index", &s->os_index, true) < 0 ||
		    get_ints(c, o, ipath, "cores", &s->cores, &s->n_cores) < 0)
			return -1;
		if (s->os_index < 0) {
			snprintf(path, sizeof(path), "%s.os_index", ipath);
			return json_fail(c, path, "must not be negative");
		}
	}
	return 0;
}

/* One of topology.numa_nodes, at IPATH. */
static int load_node(struct json_src *c, struct pandia_machine *m,
		     json_t *o, const char *ipath, struct pandia_numa *n)
{
	char path[192];
	double mem = 0;
	json_t *v;

	if (!json_is_object(o))
		return json_fail(c, ipath, "must be an object");
	if (get_int(c, o, ipath, "os_index", &n->os_index, true) < 0 ||
	    get_int(c, o, ipath, "socket", &n->socket, true) < 0)
		return -1;
	/* null: hwloc gave no size (not the same as 0 bytes) */
	v = json_object_get(o, "memory_bytes");
	n->memory_unknown = v && json_is_null(v);
	if ((!n->memory_unknown &&
	     json_get_num(c, o, ipath, "memory_bytes", &mem, true) < 0) ||
	    get_ints(c, o, ipath, "cores", &n->cores, &n->n_cores) < 0)
		return -1;
	if (n->os_index < 0) {
		snprintf(path, sizeof(path), "%s.os_index", ipath);
		return json_fail(c, path, "must not be negative");
	}
	if (n->memory_unknown)
		mem = 0;
	if (mem < 0) {
		snprintf(path, sizeof(path), "%s.memory_bytes", ipath);
		return json_fail(c, path, "must not be negative");
	}
	if (mem > 0x1p60 || mem != floor(mem)) {
		snprintf(path, sizeof(path), "%s.memory_bytes", ipath);
		return json_fail(c, path, "must be a whole number of "
				 "bytes up to 2^60, not %g", mem);
	}
	n->memory = (unsigned long long)mem;
	if (n->socket < -1 || n->socket >= m->n_sockets) {
		snprintf(path, sizeof(path), "%s.socket", ipath);
		return json_fail(c, path, "socket %d does not exist",
				 n->socket);
	}
	return 0;
}

/* topology.numa_nodes */
static int load_nodes(struct json_src *c, struct pandia_machine *m,
		      json_t *t)
{
	char ipath[64];
	json_t *a, *o;
	size_t i;

	a = json_get(c, t, "topology", "numa_nodes", JSON_ARRAY, true);
	if (!a)
		return -1;
	m->n_numa = (int)json_array_size(a);
	m->numa = xcalloc((size_t)m->n_numa, sizeof(*m->numa));
	json_array_foreach(a, i, o) {
		snprintf(ipath, sizeof(ipath), "topology.numa_nodes[%zu]", i);
		if (load_node(c, m, o, ipath, &m->numa[i]) < 0)
			return -1;
	}
	return 0;
}

/* topology.caches */
static int load_caches(struct json_src *c, struct pandia_machine *m,
		       json_t *t)
{
	char path[192], ipath[64];
	json_t *a, *o;
	size_t i;

	a = json_get(c, t, "topology", "caches", JSON_ARRAY, true);
	if (!a)
		return -1;
	m->n_caches = (int)json_array_size(a);
	m->caches = xcalloc((size_t)m->n_caches, sizeof(*m->caches));
	json_array_foreach(a, i, o) {
		struct pandia_cache *ca = &m->caches[i];
		char *lv = NULL;
		double size;
		int l;

		snprintf(ipath, sizeof(ipath), "topology.caches[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (json_get_string(c, o, ipath, "level", &lv, true) < 0)
			return -1;
		l = level_from_name(lv);
		free(lv);
		if (l < LVL_L1 || l > LVL_L3) {
			snprintf(path, sizeof(path), "%s.level", ipath);
			return json_fail(c, path, "must be \"L1\", \"L2\" or "
				    "\"L3\"");
		}
		ca->level = l + 1;
		if (json_get_num(c, o, ipath, "size_bytes", &size, true) < 0 ||
		    get_ints(c, o, ipath, "cores", &ca->cores,
			     &ca->n_cores) < 0)
			return -1;
		if (!(size >= 1) || size > 0x1p50 || size != floor(size)) {
			/* a whole number of bytes a cache can have */
			snprintf(path, sizeof(path), "%s.size_bytes", ipath);
			return json_fail(c, path, "must be a whole number of "
					 "bytes from 1 to 2^50, not %g", size);
		}
		ca->size = (unsigned long long)size;
	}
	return 0;
}

/* Core I's PUs: in 'pus', in no other core; co->pus become indexes. */
static int load_core_pus(struct json_src *c, struct pandia_machine *m,
			 const char *ipath, int i, struct pandia_core *co)
{
	char path[192];
	int j;

	for (j = 0; j < co->n_pus; j++) {
		int os = co->pus[j], p = machine_pu_index(m, os);

		if (p < 0) {
			snprintf(path, sizeof(path), "%s.pus[%d]", ipath, j);
			return json_fail(c, path, "PU %d is not in 'pus'", os);
		}
		if (m->pus[p].core >= 0) {
			snprintf(path, sizeof(path), "%s.pus[%d]", ipath, j);
			return json_fail(c, path, "PU %d is in core %d "
					 "already", os, m->pus[p].core);
		}
		m->pus[p].core = i;
		co->pus[j] = p;
	}
	return 0;
}

/* A core's "caches": { "L1": cache index, ... }. */
static int load_core_caches(struct json_src *c, struct pandia_machine *m,
			    json_t *o, const char *ipath,
			    struct pandia_core *co)
{
	char path[192], kpath[256];
	const char *key;
	json_t *caches, *v;

	caches = json_get(c, o, ipath, "caches", JSON_OBJECT, true);
	if (!caches)
		return -1;
	json_path_join(path, sizeof(path), ipath, "caches");
	json_object_foreach(caches, key, v) {
		int l = level_from_name(key);

		json_path_join(kpath, sizeof(kpath), path, key);
		if (l < LVL_L1 || l > LVL_L3)
			return json_fail(c, kpath, "unknown cache level "
					 "'%s' (expected L1, L2 or L3)", key);
		if (get_int(c, caches, path, key, &co->cache[l], true) < 0)
			return -1;
		if (co->cache[l] < 0 || co->cache[l] >= m->n_caches)
			return json_fail(c, kpath, "must name a cache (0 to "
					 "%d), not %d; leave the level out "
					 "when the core has none",
					 m->n_caches - 1, co->cache[l]);
	}
	return 0;
}

/* topology.cores (after 'pus' and the caches) */
static int load_cores(struct json_src *c, struct pandia_machine *m,
		      json_t *t)
{
	char ipath[64];
	json_t *a, *o;
	size_t i;

	a = json_get(c, t, "topology", "cores", JSON_ARRAY, true);
	if (!a)
		return -1;
	m->n_cores = (int)json_array_size(a);
	m->cores = xcalloc((size_t)m->n_cores, sizeof(*m->cores));
	json_array_foreach(a, i, o) {
		struct pandia_core *co = &m->cores[i];

		snprintf(ipath, sizeof(ipath), "topology.cores[%zu]", i);
		co->cache[0] = co->cache[1] = co->cache[2] = -1;
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_int(c, o, ipath, "socket", &co->socket, true) < 0 ||
		    get_int(c, o, ipath, "numa", &co->numa, true) < 0 ||
		    get_int(c, o, ipath, "kind", &co->kind, false) < 0 ||
		    get_ints(c, o, ipath, "pus", &co->pus, &co->n_pus) < 0 ||
		    load_core_pus(c, m, ipath, (int)i, co) < 0 ||
		    load_core_caches(c, m, o, ipath, co) < 0)
			return -1;
	}
	return 0;
}

static int load_topology(struct json_src *c, struct pandia_machine *m,
			 json_t *t)
{
	if (load_sockets(c, m, t) < 0 ||
	    load_nodes(c, m, t) < 0 ||
	    load_caches(c, m, t) < 0 ||
	    load_cores(c, m, t) < 0)
		return -1;
	return 0;
}

static int load_links(struct json_src *c, struct pandia_machine *m,
		      json_t *root)
{
	char path[160], ipath[64];
	json_t *a, *o;
	size_t i;

	for (i = 0; i < LVL_COUNT; i++) {
		m->links[i].present = false;
		m->links[i].reason = NULL;
	}
	a = json_get(c, root, "", "links", JSON_ARRAY, true);
	if (!a)
		return -1;
	json_array_foreach(a, i, o) {
		struct pandia_link *l;
		char *lv = NULL;
		int k;

		snprintf(ipath, sizeof(ipath), "links[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (json_get_string(c, o, ipath, "level", &lv, true) < 0)
			return -1;
		k = level_from_name(lv);
		free(lv);
		snprintf(path, sizeof(path), "%s.level", ipath);
		if (k < 0)
			return json_fail(c, path, "unknown level (expected L1, L2, "
				    "L3, dram or interconnect)");
		l = &m->links[k];
		if (l->present)
			return json_fail(c, path, "level %s is listed twice",
				    level_name(k));
		l->present = true;
		if (unit_is(c, o, ipath, "bytes/s") < 0 ||
		    json_get_num(c, o, ipath, "per_core_bw", &l->per_core_bw,
			    true) < 0 ||
		    json_get_num(c, o, ipath, "aggregate_bw", &l->aggregate_bw,
			    true) < 0 ||
		    load_measure(c, o, ipath, "per_core_measure",
				 &l->per_core) < 0 ||
		    load_measure(c, o, ipath, "aggregate_measure",
				 &l->aggregate) < 0)
			return -1;
	}
	a = json_get(c, root, "", "absent_links", JSON_ARRAY, false);
	if (!a && json_failed(c))
		return -1;
	for (i = 0; a && i < json_array_size(a); i++) {
		char *lv = NULL;
		int k;

		o = json_array_get(a, i);
		snprintf(ipath, sizeof(ipath), "absent_links[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (json_get_string(c, o, ipath, "level", &lv, true) < 0)
			return -1;
		k = level_from_name(lv);
		free(lv);
		snprintf(path, sizeof(path), "%s.level", ipath);
		if (k < 0)
			return json_fail(c, path, "unknown level");
		if (m->links[k].present)
			return json_fail(c, path, "level %s is also in 'links'",
				    level_name(k));
		if (m->links[k].reason)
			return json_fail(c, path, "level %s is listed twice",
				    level_name(k));
		if (json_get_string(c, o, ipath, "reason", &m->links[k].reason,
			    false) < 0)
			return -1;
	}

	a = json_get(c, root, "", "interconnect", JSON_ARRAY, true);
	if (!a)
		return -1;
	m->n_xlinks = (int)json_array_size(a);
	m->xlinks = xcalloc((size_t)m->n_xlinks, sizeof(*m->xlinks));
	json_array_foreach(a, i, o) {
		struct pandia_xlink *x = &m->xlinks[i];
		int *pair = NULL, n;

		snprintf(ipath, sizeof(ipath), "interconnect[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_ints(c, o, ipath, "sockets", &pair, &n) < 0) {
			free(pair);
			return -1;
		}
		if (n != 2) {
			free(pair);
			snprintf(path, sizeof(path), "%s.sockets", ipath);
			return json_fail(c, path, "must name two sockets");
		}
		x->from = pair[0];
		x->to = pair[1];
		free(pair);
		if (unit_is(c, o, ipath, "bytes/s") < 0 ||
		    json_get_num(c, o, ipath, "bw", &x->bw, true) < 0 ||
		    load_measure(c, o, ipath, "measure", &x->m) < 0)
			return -1;
	}
	return 0;
}

/* core.busy_curve: the core rate's points between one and all busy. */
static int load_busy(struct json_src *c, struct pandia_machine *m,
		     json_t *core)
{
	char ipath[64];
	json_t *a, *o;
	size_t i;

	a = json_get(c, core, "core", "busy_curve", JSON_ARRAY, false);
	if (!a)
		return json_failed(c) ? -1 : 0;
	m->n_busy = (int)json_array_size(a);
	m->busy = xcalloc((size_t)m->n_busy + 1, sizeof(*m->busy));
	json_array_foreach(a, i, o) {
		struct pandia_busy *b = &m->busy[i];

		snprintf(ipath, sizeof(ipath), "core.busy_curve[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_int(c, o, ipath, "cores", &b->cores, true) < 0 ||
		    json_get_num(c, o, ipath, "rate", &b->rate, true) < 0 ||
		    load_measure(c, o, ipath, "measure", &b->m) < 0)
			return -1;
	}
	return 0;
}

/* core.kinds: absent on machines of one kind. */
static int load_kinds(struct json_src *c, struct pandia_machine *m,
		      json_t *core)
{
	char ipath[64];
	json_t *a, *o;
	size_t i;

	a = json_get(c, core, "core", "kinds", JSON_ARRAY, false);
	if (!a)
		return json_failed(c) ? -1 : 0;
	if (json_array_size(a) < 2)
		return json_fail(c, "core.kinds", "must list two kinds or more (leave "
				 "it out for one kind)");
	m->n_kinds = (int)json_array_size(a);
	m->kinds = xcalloc((size_t)m->n_kinds, sizeof(*m->kinds));
	json_array_foreach(a, i, o) {
		struct pandia_kind *k = &m->kinds[i];

		snprintf(ipath, sizeof(ipath), "core.kinds[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_int(c, o, ipath, "efficiency", &k->efficiency,
			    true) < 0 ||
		    json_get_num(c, o, ipath, "frequency_max_mhz",
				 &k->freq_max, false) < 0 ||
		    json_get_num(c, o, ipath, "frequency_base_mhz",
				 &k->freq_base, false) < 0 ||
		    json_get_num(c, o, ipath, "rate", &k->rate, true) < 0 ||
		    load_measure(c, o, ipath, "measure", &k->m) < 0)
			return -1;
	}
	return 0;
}

/* identity: strings, origin the one required */
static int load_identity(struct json_src *c, struct pandia_machine *m,
			 json_t *o)
{
	static const char *const id = "identity";

	if (json_get_string(c, o, id, "host", &m->host, false) < 0 ||
	    json_get_string(c, o, id, "cpu_model", &m->cpu_model, false) < 0 ||
	    json_get_string(c, o, id, "kernel", &m->kernel, false) < 0 ||
	    json_get_string(c, o, id, "date", &m->date, false) < 0 ||
	    json_get_string(c, o, id, "pandia_version", &m->version,
			    false) < 0 ||
	    json_get_string(c, o, id, "origin", &m->origin, true) < 0 ||
	    json_get_string(c, o, id, "topology_source",
			    &m->topology_source, false) < 0 ||
	    json_get_string(c, o, id, "assumptions", &m->assumptions,
			    false) < 0)
		return -1;
	/* as this host's is read (a description written before was not) */
	squeeze_blanks(m->cpu_model);
	return 0;
}

/*
 * The optional "limits": the PUs allowed and the CPU quota where the
 * machine was measured.  A quota below one PU is refused: one thread
 * alone would not run at the rates the description records.
 */
static int load_limits(struct json_src *c, struct pandia_machine *m,
		       json_t *root)
{
	struct pandia_limits *l = &m->limits;
	struct pandia_error perr;
	json_t *o, *v;
	int *pus = NULL, n;

	o = json_get(c, root, "", "limits", JSON_OBJECT, false);
	if (!o)
		return json_failed(c) ? -1 : 0;
	l->present = true;
	if (json_get_string(c, o, "limits", "allowed", &l->allowed, true) < 0)
		return -1;
	if (cpulist_parse(l->allowed, &pus, &n, &perr) < 0)
		return json_fail(c, "limits.allowed", "%s", perr.text);
	free(pus);
	v = json_object_get(o, "cpu_quota");
	if (v && !json_is_null(v)) {
		if (json_get_num(c, o, "limits", "cpu_quota", &l->cpu_quota,
				 true) < 0)
			return -1;
		if (!(l->cpu_quota >= 1))
			return json_fail(c, "limits.cpu_quota", "a CPU quota "
					 "below one PU (%g) is not a machine "
					 "pandia can describe", l->cpu_quota);
	}
	return json_get_str(c, o, "limits", "source", &l->source);
}

static int load_root(struct json_src *c, struct pandia_machine *m,
		     json_t *root)
{
	char path[160], *schema = NULL;
	json_t *o, *a, *v;
	size_t i;

	if (!json_is_object(root))
		return json_fail(c, "", "the description must be a JSON object");
	if (json_get_string(c, root, "", "schema", &schema, true) < 0)
		return -1;
	if (strcmp(schema, PANDIA_MACHINE_SCHEMA)) {
		json_fail(c, "schema", "unknown schema version '%s' (this pandia "
		     "reads \"%s\")", schema, PANDIA_MACHINE_SCHEMA);
		free(schema);
		return -1;
	}
	free(schema);

	o = json_get(c, root, "", "identity", JSON_OBJECT, true);
	if (!o || load_identity(c, m, o) < 0)
		return -1;
	if (load_limits(c, m, root) < 0)
		return -1;

	a = json_get(c, root, "", "pus", JSON_ARRAY, true);
	if (!a)
		return -1;
	m->n_pus = (int)json_array_size(a);
	m->pus = xcalloc((size_t)m->n_pus, sizeof(*m->pus));
	json_array_foreach(a, i, v) {
		snprintf(path, sizeof(path), "pus[%zu]", i);
		if (!json_is_integer(v))
			return json_fail(c, path, "must be an integer, not %s",
				    json_type_name(v));
		if (json_integer_value(v) < 0 ||
		    json_integer_value(v) > 1 << 20)
			return json_fail(c, path, "%lld is not a PU number",
				    (long long)json_integer_value(v));
		m->pus[i].os_index = (int)json_integer_value(v);
		m->pus[i].core = -1;
		if (i > 0 && m->pus[i].os_index == m->pus[i - 1].os_index)
			return json_fail(c, path, "PU %d is listed twice",
				    m->pus[i].os_index);
		if (i > 0 && m->pus[i].os_index < m->pus[i - 1].os_index)
			return json_fail(c, path, "PUs must be listed in ascending "
				    "order (%d after %d)", m->pus[i].os_index,
				    m->pus[i - 1].os_index);
	}

	o = json_get(c, root, "", "topology", JSON_OBJECT, true);
	if (!o || load_topology(c, m, o) < 0)
		return -1;

	o = json_get(c, root, "", "core", JSON_OBJECT, true);
	if (!o || unit_is(c, o, "core", "ops/s") < 0)
		return -1;
	v = json_object_get(o, "peak_rate");
	if (v && json_is_null(v)) {
		/* unknown: a topology described without figures */
		if (json_get_string(c, o, "core", "peak_note", &m->peak_reason,
			    true) < 0)
			return -1;
	} else if (json_get_num(c, o, "core", "peak_rate", &m->peak_rate,
			   true) < 0 ||
		   load_measure(c, o, "core", "measure", &m->peak) < 0) {
		return -1;
	}
	if (json_get_num(c, o, "core", "smt_aggregate_rate", &m->smt_rate,
		    false) < 0)
		return -1;
	v = json_object_get(o, "smt_aggregate_rate");
	m->smt_applicable = v && !json_is_null(v);
	if (m->smt_applicable) {
		if (load_measure(c, o, "core", "smt_measure", &m->smt) < 0)
			return -1;
	} else if (json_get_string(c, o, "core", "smt_note", &m->smt_reason,
			   false) < 0) {
		return -1;
	}
	if (json_get_num(c, o, "core", "all_busy_rate", &m->all_busy_rate,
		    false) < 0)
		return -1;
	if (m->all_busy_rate != 0 &&
	    load_measure(c, o, "core", "all_busy_measure", &m->all_busy) < 0)
		return -1;
	if (load_busy(c, m, o) < 0 || load_kinds(c, m, o) < 0)
		return -1;
	return load_links(c, m, root);
}

struct pandia_machine *machine_parse(const char *text, const char *source,
				     struct pandia_error *err)
{
	struct pandia_error local;
	struct json_src c = { text, source, err ? err : &local };
	struct pandia_machine *m;
	json_t *root;
	char path[128];

	perr_clear(c.err);
	root = json_src_parse(&c);
	if (!root)
		return NULL;
	m = machine_new();
	if (load_root(&c, m, root) < 0)
		goto fail;
	if (machine_check_at(m, path, sizeof(path), c.err) < 0) {
		json_fail_at_path(&c, path);
		goto fail;
	}
	json_decref(root);
	return m;
fail:
	json_decref(root);
	machine_free(m);
	return NULL;
}

struct pandia_machine *machine_load(const char *path,
				    struct pandia_error *err)
{
	struct pandia_machine *m;
	char *text = read_file(path, NULL, err);

	if (!text)
		return NULL;
	m = machine_parse(text, path, err);
	free(text);
	return m;
}
