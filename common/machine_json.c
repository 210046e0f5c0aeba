/*
 * machine_json.c - writing a machine description as pandia-machine/1.
 *
 * The JSON keeps the order written here, and numbers are printed with
 * a fixed precision (common/jsonout.c), so save, load and save again
 * gives identical bytes.
 */
#include "common/machine.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/util.h"

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static json_t *measure_to_json(const struct pandia_measure *ms)
{
	json_t *o = json_object();

	json_object_set_new(o, "kernel", jstr(ms->kernel));
	json_object_set_new(o, "working_set_bytes",
			    json_real(ms->working_set));
	json_object_set_new(o, "threads", json_integer(ms->threads));
	json_object_set_new(o, "pus", jstr(ms->pus));
	json_object_set_new(o, "repetitions", json_integer(ms->repetitions));
	json_object_set_new(o, "best", json_real(ms->best));
	json_object_set_new(o, "median", json_real(ms->median));
	json_object_set_new(o, "spread", json_real(ms->spread));
	json_object_set_new(o, "unit", jstr(ms->unit));
	json_object_set_new(o, "note", jstr(ms->note));
	return o;
}

static json_t *topology_to_json(const struct pandia_machine *m)
{
	json_t *t = json_object(), *a, *o, *c;
	int i, j, k;

	a = json_array();
	for (i = 0; i < m->n_sockets; i++) {
		o = json_object();
		json_object_set_new(o, "os_index",
				    json_integer(m->sockets[i].os_index));
		json_object_set_new(o, "cores", int_array(m->sockets[i].cores,
							  m->sockets[i].n_cores));
		json_array_append_new(a, o);
	}
	json_object_set_new(t, "sockets", a);

	a = json_array();
	for (i = 0; i < m->n_numa; i++) {
		const struct pandia_numa *n = &m->numa[i];

		o = json_object();
		json_object_set_new(o, "os_index", json_integer(n->os_index));
		json_object_set_new(o, "socket", json_integer(n->socket));
		json_object_set_new(o, "memory_bytes", n->memory_unknown ?
				    json_null() :
				    json_integer((json_int_t)n->memory));
		json_object_set_new(o, "cores", int_array(n->cores,
							  n->n_cores));
		json_array_append_new(a, o);
	}
	json_object_set_new(t, "numa_nodes", a);

	a = json_array();
	for (i = 0; i < m->n_cores; i++) {
		const struct pandia_core *co = &m->cores[i];
		json_t *pus = json_array();

		o = json_object();
		json_object_set_new(o, "socket", json_integer(co->socket));
		json_object_set_new(o, "numa", json_integer(co->numa));
		if (m->n_kinds)
			json_object_set_new(o, "kind", json_integer(co->kind));
		for (j = 0; j < co->n_pus; j++)
			json_array_append_new(pus, json_integer(
				m->pus[co->pus[j]].os_index));
		json_object_set_new(o, "pus", pus);
		c = json_object();
		for (k = 0; k < 3; k++)
			if (co->cache[k] >= 0)
				json_object_set_new(c, level_name(k),
						    json_integer(co->cache[k]));
		json_object_set_new(o, "caches", c);
		json_array_append_new(a, o);
	}
	json_object_set_new(t, "cores", a);

	a = json_array();
	for (i = 0; i < m->n_caches; i++) {
		const struct pandia_cache *ca = &m->caches[i];

		o = json_object();
		json_object_set_new(o, "level",
				    json_string(level_name(ca->level - 1)));
		json_object_set_new(o, "size_bytes",
				    json_integer((json_int_t)ca->size));
		json_object_set_new(o, "cores", int_array(ca->cores,
							  ca->n_cores));
		json_array_append_new(a, o);
	}
	json_object_set_new(t, "caches", a);
	return t;
}

static const char *shared_by(int level)
{
	switch (level) {
	case LVL_L3:
		return "cache instance";
	case LVL_DRAM:
		return "NUMA node";
	case LVL_INTERCONNECT:
		return "socket pair";
	default:
		return "core";
	}
}

/* "limits": where the machine was measured, what the process had */
static json_t *limits_to_json(const struct pandia_limits *l)
{
	json_t *o = json_object();

	json_object_set_new(o, "allowed", jstr(l->allowed));
	json_object_set_new(o, "cpu_quota", l->cpu_quota > 0 ?
			    json_real(l->cpu_quota) : json_null());
	json_object_set_new(o, "source", jstr(l->source));
	return o;
}

/* core.busy_curve */
static json_t *busy_to_json(const struct pandia_machine *m)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < m->n_busy; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "cores", json_integer(m->busy[i].cores));
		json_object_set_new(o, "rate", json_real(m->busy[i].rate));
		json_object_set_new(o, "measure",
				    measure_to_json(&m->busy[i].m));
		json_array_append_new(a, o);
	}
	return a;
}

/* core: the rates and how they were got, the kinds of core. */
static json_t *core_to_json(const struct pandia_machine *m)
{
	json_t *o = json_object(), *a;
	int i;

	json_object_set_new(o, "peak_rate", m->peak_reason ? json_null() :
			    json_real(m->peak_rate));
	json_object_set_new(o, "unit", json_string("ops/s"));
	if (m->peak_reason)
		json_object_set_new(o, "peak_note", jstr(m->peak_reason));
	else
		json_object_set_new(o, "measure", measure_to_json(&m->peak));
	if (m->all_busy_rate > 0) {
		json_object_set_new(o, "all_busy_rate",
				    json_real(m->all_busy_rate));
		json_object_set_new(o, "all_busy_measure",
				    measure_to_json(&m->all_busy));
	}
	if (m->n_busy)
		json_object_set_new(o, "busy_curve", busy_to_json(m));
	if (m->smt_applicable) {
		json_object_set_new(o, "smt_aggregate_rate",
				    json_real(m->smt_rate));
		json_object_set_new(o, "smt_measure",
				    measure_to_json(&m->smt));
	} else {
		json_object_set_new(o, "smt_aggregate_rate", json_null());
		json_object_set_new(o, "smt_note", jstr(m->smt_reason));
	}
	if (m->n_kinds) {
		a = json_array();
		for (i = 0; i < m->n_kinds; i++) {
			const struct pandia_kind *k = &m->kinds[i];
			json_t *ko = json_object();

			json_object_set_new(ko, "efficiency",
					    json_integer(k->efficiency));
			json_object_set_new(ko, "frequency_max_mhz",
					    k->freq_max > 0 ?
					    json_real(k->freq_max) :
					    json_null());
			json_object_set_new(ko, "frequency_base_mhz",
					    k->freq_base > 0 ?
					    json_real(k->freq_base) :
					    json_null());
			json_object_set_new(ko, "rate", json_real(k->rate));
			json_object_set_new(ko, "unit", json_string("ops/s"));
			json_object_set_new(ko, "measure",
					    measure_to_json(&k->m));
			json_array_append_new(a, ko);
		}
		json_object_set_new(o, "kinds", a);
	}
	return o;
}

static json_t *machine_to_json(const struct pandia_machine *m)
{
	json_t *root = json_object(), *o, *a;
	int i;

	json_object_set_new(root, "schema", json_string(PANDIA_MACHINE_SCHEMA));

	o = json_object();
	json_object_set_new(o, "host", jstr(m->host));
	json_object_set_new(o, "cpu_model", jstr(m->cpu_model));
	json_object_set_new(o, "kernel", jstr(m->kernel));
	json_object_set_new(o, "date", jstr(m->date));
	json_object_set_new(o, "pandia_version", jstr(m->version));
	json_object_set_new(o, "origin", jstr(m->origin));
	json_object_set_new(o, "topology_source", jstr(m->topology_source));
	json_object_set_new(o, "assumptions", jstr(m->assumptions));
	json_object_set_new(root, "identity", o);
	if (m->limits.present)
		json_object_set_new(root, "limits", limits_to_json(&m->limits));

	a = json_array();
	for (i = 0; i < m->n_pus; i++)
		json_array_append_new(a, json_integer(m->pus[i].os_index));
	json_object_set_new(root, "pus", a);
	json_object_set_new(root, "topology", topology_to_json(m));

	json_object_set_new(root, "core", core_to_json(m));

	a = json_array();
	for (i = 0; i < LVL_COUNT; i++) {
		const struct pandia_link *l = &m->links[i];

		if (!l->present)
			continue;
		o = json_object();
		json_object_set_new(o, "level", json_string(level_name(i)));
		json_object_set_new(o, "per_core_bw", json_real(l->per_core_bw));
		json_object_set_new(o, "aggregate_bw",
				    json_real(l->aggregate_bw));
		json_object_set_new(o, "unit", json_string("bytes/s"));
		json_object_set_new(o, "aggregate_per",
				    json_string(shared_by(i)));
		json_object_set_new(o, "per_core_measure",
				    measure_to_json(&l->per_core));
		json_object_set_new(o, "aggregate_measure",
				    measure_to_json(&l->aggregate));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "links", a);

	a = json_array();
	for (i = 0; i < LVL_COUNT; i++) {
		const struct pandia_link *l = &m->links[i];

		if (l->present)
			continue;
		o = json_object();
		json_object_set_new(o, "level", json_string(level_name(i)));
		json_object_set_new(o, "reason", jstr(l->reason));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "absent_links", a);

	a = json_array();
	for (i = 0; i < m->n_xlinks; i++) {
		const struct pandia_xlink *x = &m->xlinks[i];
		int pair[2] = { x->from, x->to };

		o = json_object();
		json_object_set_new(o, "sockets", int_array(pair, 2));
		json_object_set_new(o, "bw", json_real(x->bw));
		json_object_set_new(o, "unit", json_string("bytes/s"));
		json_object_set_new(o, "measure", measure_to_json(&x->m));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "interconnect", a);
	return root;
}

char *machine_to_string(const struct pandia_machine *m)
{
	json_t *root = machine_to_json(m);
	char *out = json_to_text(root);

	json_decref(root);
	return out;
}

char *machine_limits_to_string(const struct pandia_limits *l)
{
	json_t *o = limits_to_json(l);
	char *out = json_to_text(o);

	json_decref(o);
	return out;
}

int machine_save(const struct pandia_machine *m, const char *path,
		 struct pandia_error *err)
{
	char *s;
	int ret;

	if (machine_check(m, err) < 0)
		return -1;
	s = machine_to_string(m);
	ret = write_file_atomic(path, s, strlen(s), err);
	free(s);
	return ret;
}
