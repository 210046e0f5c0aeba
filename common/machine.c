/*
 * machine.c - pandia-machine/1: the machine description as JSON.
 *
 * The JSON keeps the order written here, and numbers are printed with
 * a fixed precision, so save, load and save again gives identical
 * bytes.  Loading reports the file, the line and column of the bad
 * value and what is wrong with it.
 */
#include "common/machine.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/util.h"

static const char *const level_names[LVL_COUNT] = {
	"L1", "L2", "L3", "dram", "interconnect"
};

const char *level_name(enum pandia_level level)
{
	return (unsigned)level < LVL_COUNT ? level_names[level] : "?";
}

int level_from_name(const char *name)
{
	int i;

	for (i = 0; i < LVL_COUNT; i++)
		if (name && !strcmp(name, level_names[i]))
			return i;
	return -1;
}

struct pandia_machine *machine_new(void)
{
	struct pandia_machine *m = xcalloc(1, sizeof(*m));

	return m;
}

void measure_release(struct pandia_measure *ms)
{
	free(ms->kernel);
	free(ms->pus);
	free(ms->unit);
	free(ms->note);
	memset(ms, 0, sizeof(*ms));
}

void machine_free(struct pandia_machine *m)
{
	int i;

	if (!m)
		return;
	free(m->host);
	free(m->cpu_model);
	free(m->kernel);
	free(m->date);
	free(m->version);
	free(m->origin);
	free(m->topology_source);
	free(m->assumptions);
	free(m->pus);
	for (i = 0; i < m->n_cores; i++)
		free(m->cores[i].pus);
	free(m->cores);
	for (i = 0; i < m->n_sockets; i++)
		free(m->sockets[i].cores);
	free(m->sockets);
	for (i = 0; i < m->n_numa; i++)
		free(m->numa[i].cores);
	free(m->numa);
	for (i = 0; i < m->n_caches; i++)
		free(m->caches[i].cores);
	free(m->caches);
	measure_release(&m->peak);
	free(m->peak_reason);
	measure_release(&m->smt);
	free(m->smt_reason);
	for (i = 0; i < LVL_COUNT; i++) {
		free(m->links[i].reason);
		measure_release(&m->links[i].per_core);
		measure_release(&m->links[i].aggregate);
	}
	for (i = 0; i < m->n_xlinks; i++)
		measure_release(&m->xlinks[i].m);
	free(m->xlinks);
	for (i = 0; i < m->n_kinds; i++)
		measure_release(&m->kinds[i].m);
	free(m->kinds);
	free(m->notes);
	free(m);
}

int machine_pu_index(const struct pandia_machine *m, int os)
{
	int lo = 0, hi = m->n_pus - 1;

	/* pus[] is sorted by os_index */
	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (m->pus[mid].os_index == os)
			return mid;
		if (m->pus[mid].os_index < os)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

double machine_core_slowdown(const struct pandia_machine *m, int c)
{
	double r;

	if (!m->n_kinds || c < 0 || c >= m->n_cores)
		return 1;
	r = m->kinds[m->cores[c].kind].rate;
	return r > 0 && r < m->peak_rate ? m->peak_rate / r : 1;
}

int machine_fastest_kind(const struct pandia_machine *m)
{
	int i, best = 0;

	for (i = 1; i < m->n_kinds; i++) {
		const struct pandia_kind *a = &m->kinds[i];
		const struct pandia_kind *b = &m->kinds[best];
		double fa = a->freq_max > 0 ? a->freq_max : a->freq_base;
		double fb = b->freq_max > 0 ? b->freq_max : b->freq_base;

		if (a->efficiency > b->efficiency ||
		    (a->efficiency == b->efficiency && fa > fb))
			best = i;
	}
	return best;
}

int machine_smt(const struct pandia_machine *m)
{
	int i, n;

	if (!m->n_cores)
		return 0;
	n = m->cores[0].n_pus;
	for (i = 1; i < m->n_cores; i++)
		if (m->cores[i].n_pus != n)
			return 0;
	return n;
}

/* ---- writing ---------------------------------------------------- */

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
				json_object_set_new(c, level_names[k],
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
				    json_string(level_names[ca->level - 1]));
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

	a = json_array();
	for (i = 0; i < m->n_pus; i++)
		json_array_append_new(a, json_integer(m->pus[i].os_index));
	json_object_set_new(root, "pus", a);
	json_object_set_new(root, "topology", topology_to_json(m));

	o = json_object();
	json_object_set_new(o, "peak_rate", m->peak_reason ? json_null() :
			    json_real(m->peak_rate));
	json_object_set_new(o, "unit", json_string("ops/s"));
	if (m->peak_reason)
		json_object_set_new(o, "peak_note", jstr(m->peak_reason));
	else
		json_object_set_new(o, "measure", measure_to_json(&m->peak));
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
	json_object_set_new(root, "core", o);

	a = json_array();
	for (i = 0; i < LVL_COUNT; i++) {
		const struct pandia_link *l = &m->links[i];

		if (!l->present)
			continue;
		o = json_object();
		json_object_set_new(o, "level", json_string(level_names[i]));
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
		json_object_set_new(o, "level", json_string(level_names[i]));
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

/* ---- checking --------------------------------------------------- */

/* A rate or bandwidth: finite, at least 1 per second (not 1e-320). */
static bool figure_ok(double v)
{
	return isfinite(v) && v >= 1;
}

/*
 * Whether how a figure was measured is wrong: its unit not UNIT, a
 * count or a number out of range.  Sets err's text when it is.
 */
static bool measure_bad(const struct pandia_measure *ms, const char *unit,
			struct pandia_error *err)
{
	if (ms->unit && strcmp(ms->unit, unit))
		return perr_set(err, "unit must be \"%s\", not \"%s\"", unit,
				ms->unit), true;
	if (ms->threads < 0 || ms->repetitions < 0)
		return perr_set(err, "threads and repetitions must not be "
				"negative"), true;
	if (!(ms->working_set >= 0) || !isfinite(ms->working_set) ||
	    !(ms->best >= 0) || !isfinite(ms->best) ||
	    !(ms->median >= 0) || !isfinite(ms->median) ||
	    !(ms->spread >= 0) || !isfinite(ms->spread))
		return perr_set(err, "working_set_bytes, best, median and "
				"spread must be finite and not negative"), true;
	return false;
}

/*
 * That the parts of the topology agree with one another: nodes with
 * their cores' sockets, each core's node with the nodes that cover it,
 * caches with the cores that name them, kinds with their rates.  Every
 * index is in range when this runs (check() tested them).
 */
static int check_refs(const struct pandia_machine *m, char *path, size_t plen,
		      struct pandia_error *err)
{
	int *seen = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	int *mine = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	int *cover = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	int i, j, k, stamp = 0, any_mem = -1, ret = -1;
	double fastest = 0;

#define BAD(...) do { snprintf(path, plen, __VA_ARGS__); goto out; } while (0)
	for (i = 0; i < m->n_sockets; i++)
		for (j = 0; j < i; j++)
			if (m->sockets[j].os_index == m->sockets[i].os_index) {
				perr_set(err, "socket %d is listed twice "
					 "(sockets[%d])",
					 m->sockets[i].os_index, j);
				BAD("topology.sockets[%d].os_index", i);
			}
	for (i = 0; i < m->n_numa; i++) {
		const struct pandia_numa *n = &m->numa[i];

		for (j = 0; j < i; j++)
			if (m->numa[j].os_index == n->os_index) {
				perr_set(err, "NUMA node %d is listed twice "
					 "(numa_nodes[%d])", n->os_index, j);
				BAD("topology.numa_nodes[%d].os_index", i);
			}
		if (n->socket < -1 || n->socket >= m->n_sockets) {
			perr_set(err, "socket %d does not exist", n->socket);
			BAD("topology.numa_nodes[%d].socket", i);
		}
		if (any_mem < 0 && NUMA_HAS_MEMORY(n))
			any_mem = i;
		stamp++;
		for (j = 0; j < n->n_cores; j++) {
			int c = n->cores[j];

			if (seen[c] == stamp) {
				perr_set(err, "core %d is listed twice", c);
				BAD("topology.numa_nodes[%d].cores[%d]", i, j);
			}
			seen[c] = stamp;
			if (n->socket >= 0 && m->cores[c].socket != n->socket) {
				perr_set(err, "NUMA node %d is on socket %d, "
					 "but its core %d is on socket %d",
					 n->os_index, n->socket, c,
					 m->cores[c].socket);
				BAD("topology.numa_nodes[%d].socket", i);
			}
			if (!NUMA_HAS_MEMORY(n))
				continue;
			cover[c]++;
			if (m->cores[c].numa == i)
				mine[c] = 1;
		}
	}
	for (i = 0; i < m->n_cores; i++) {
		const struct pandia_core *c = &m->cores[i];

		if (c->numa >= 0 && !NUMA_HAS_MEMORY(&m->numa[c->numa])) {
			perr_set(err, "core %d's NUMA node %d has no memory",
				 i, m->numa[c->numa].os_index);
			BAD("topology.cores[%d].numa", i);
		}
		if (c->numa < 0 && any_mem >= 0) {
			perr_set(err, "core %d has no NUMA node, but node %d "
				 "has memory (a description older than the "
				 "nearest-node rule: make it again)", i,
				 m->numa[any_mem].os_index);
			BAD("topology.cores[%d].numa", i);
		}
		if (cover[i] && !mine[i]) {
			perr_set(err, "core %d names NUMA node %d, which does "
				 "not list it, though %d node%s with memory "
				 "do%s", i, m->numa[c->numa].os_index,
				 cover[i], cover[i] == 1 ? "" : "s",
				 cover[i] == 1 ? "es" : "");
			BAD("topology.cores[%d].numa", i);
		}
		if (m->n_kinds ? c->kind < 0 || c->kind >= m->n_kinds :
		    c->kind != 0) {
			perr_set(err, "kind %d does not exist (core.kinds "
				 "has %d)", c->kind, m->n_kinds);
			BAD("topology.cores[%d].kind", i);
		}
		for (k = 0; k < 3; k++) {
			const struct pandia_cache *ca;

			if (c->cache[k] < 0)
				continue;
			ca = &m->caches[c->cache[k]];
			for (j = 0; j < ca->n_cores && ca->cores[j] != i; j++)
				;
			if (j == ca->n_cores) {
				perr_set(err, "core %d names cache %d as its "
					 "L%d, which does not list it", i,
					 c->cache[k], k + 1);
				BAD("topology.cores[%d].caches.L%d", i, k + 1);
			}
		}
	}
	for (i = 0; i < m->n_caches; i++) {
		const struct pandia_cache *ca = &m->caches[i];

		stamp++;
		for (j = 0; j < ca->n_cores; j++) {
			const struct pandia_core *c = &m->cores[ca->cores[j]];

			if (seen[ca->cores[j]] == stamp) {
				perr_set(err, "core %d is listed twice",
					 ca->cores[j]);
				BAD("topology.caches[%d].cores[%d]", i, j);
			}
			seen[ca->cores[j]] = stamp;
			if (c->cache[ca->level - 1] != i) {
				perr_set(err, "cache %d lists core %d, whose "
					 "L%d is cache %d", i, ca->cores[j],
					 ca->level, c->cache[ca->level - 1]);
				BAD("topology.caches[%d].cores[%d]", i, j);
			}
			if (c->socket != m->cores[ca->cores[0]].socket) {
				perr_set(err, "cache %d is shared by cores of "
					 "sockets %d and %d", i,
					 m->cores[ca->cores[0]].socket,
					 c->socket);
				BAD("topology.caches[%d].cores[%d]", i, j);
			}
		}
	}
	for (i = 0; i < m->n_kinds; i++) {
		const struct pandia_kind *kd = &m->kinds[i];

		if (!(kd->rate > 0) || !isfinite(kd->rate)) {
			perr_set(err, "must be positive, got %g", kd->rate);
			BAD("core.kinds[%d].rate", i);
		}
		if (kd->efficiency < -1) {
			perr_set(err, "must be -1 (unknown) or more, got %d",
				 kd->efficiency);
			BAD("core.kinds[%d].efficiency", i);
		}
		fastest = kd->rate > fastest ? kd->rate : fastest;
	}
	if (m->n_kinds && fabs(m->peak_rate - fastest) > 1e-9 * fastest) {
		perr_set(err, "must be the fastest kind's rate (%g), got %g",
			 fastest, m->peak_rate);
		BAD("core.peak_rate");
	}
#undef BAD
	ret = 0;
out:
	free(seen);
	free(mine);
	free(cover);
	return ret;
}

/*
 * The checks shared by machine_check() and loading.  On a problem sets
 * path (JSON path of the offending value) and err's text.
 */
static int check(const struct pandia_machine *m, char *path, size_t plen,
		 struct pandia_error *err)
{
	int *owner = NULL, i, j, ret = -1;

#define BAD(...) do { snprintf(path, plen, __VA_ARGS__); goto out; } while (0)
	if (m->n_pus < 1) {
		snprintf(path, plen, "pus");
		perr_set(err, "the machine has no PU");
		goto out;
	}
	for (i = 1; i < m->n_pus; i++)
		if (m->pus[i].os_index <= m->pus[i - 1].os_index) {
			perr_set(err, "PU %d is listed twice or out of order",
				 m->pus[i].os_index);
			BAD("pus[%d]", i);
		}
	if (m->n_cores < 1 || m->n_sockets < 1) {
		perr_set(err, "the machine needs at least one core and one "
			 "socket");
		BAD("topology");
	}
	owner = xmalloc(sizeof(*owner) * (size_t)(m->n_pus + m->n_cores));
	for (i = 0; i < m->n_pus; i++)
		owner[i] = -1;
	for (i = 0; i < m->n_cores; i++) {
		const struct pandia_core *c = &m->cores[i];

		if (c->socket < 0 || c->socket >= m->n_sockets) {
			perr_set(err, "socket %d does not exist", c->socket);
			BAD("topology.cores[%d].socket", i);
		}
		if (c->numa < -1 || c->numa >= m->n_numa) {
			perr_set(err, "NUMA node %d does not exist", c->numa);
			BAD("topology.cores[%d].numa", i);
		}
		if (c->n_pus < 1) {
			perr_set(err, "core %d has no PU", i);
			BAD("topology.cores[%d].pus", i);
		}
		for (j = 0; j < 3; j++)
			if (c->cache[j] < -1 || c->cache[j] >= m->n_caches ||
			    (c->cache[j] >= 0 &&
			     m->caches[c->cache[j]].level != j + 1)) {
				perr_set(err, "core %d names cache %d, which is "
					 "not an L%d cache", i, c->cache[j],
					 j + 1);
				BAD("topology.cores[%d].caches.L%d", i, j + 1);
			}
		for (j = 0; j < c->n_pus; j++) {
			int p = c->pus[j];

			if (owner[p] >= 0) {
				perr_set(err, "PU %d is in core %d and core %d",
					 m->pus[p].os_index, owner[p], i);
				BAD("topology.cores[%d].pus[%d]", i, j);
			}
			owner[p] = i;
			if (m->pus[p].core != i) {
				perr_set(err, "PU %d is not recorded in core %d",
					 m->pus[p].os_index, i);
				BAD("topology.cores[%d].pus[%d]", i, j);
			}
		}
	}
	for (i = 0; i < m->n_pus; i++)
		if (owner[i] < 0) {
			perr_set(err, "PU %d is in no core", m->pus[i].os_index);
			BAD("pus[%d]", i);
		}
	for (i = 0; i < m->n_cores; i++)
		owner[i] = -1;
	for (i = 0; i < m->n_sockets; i++)
		for (j = 0; j < m->sockets[i].n_cores; j++) {
			int c = m->sockets[i].cores[j];

			if (c < 0 || c >= m->n_cores) {
				perr_set(err, "core %d does not exist", c);
				BAD("topology.sockets[%d].cores[%d]", i, j);
			}
			if (owner[c] >= 0) {
				perr_set(err, "core %d is in socket %d and "
					 "socket %d", c, owner[c], i);
				BAD("topology.sockets[%d].cores[%d]", i, j);
			}
			if (m->cores[c].socket != i) {
				perr_set(err, "core %d says it is in socket %d",
					 c, m->cores[c].socket);
				BAD("topology.sockets[%d].cores[%d]", i, j);
			}
			owner[c] = i;
		}
	for (i = 0; i < m->n_cores; i++)
		if (owner[i] < 0) {
			perr_set(err, "core %d is in no socket", i);
			BAD("topology.cores[%d]", i);
		}
	for (i = 0; i < m->n_numa; i++)
		for (j = 0; j < m->numa[i].n_cores; j++)
			if (m->numa[i].cores[j] < 0 ||
			    m->numa[i].cores[j] >= m->n_cores) {
				perr_set(err, "core %d does not exist",
					 m->numa[i].cores[j]);
				BAD("topology.numa_nodes[%d].cores[%d]", i, j);
			}
	for (i = 0; i < m->n_caches; i++) {
		if (m->caches[i].level < 1 || m->caches[i].level > 3) {
			perr_set(err, "cache level must be L1, L2 or L3");
			BAD("topology.caches[%d].level", i);
		}
		for (j = 0; j < m->caches[i].n_cores; j++)
			if (m->caches[i].cores[j] < 0 ||
			    m->caches[i].cores[j] >= m->n_cores) {
				perr_set(err, "core %d does not exist",
					 m->caches[i].cores[j]);
				BAD("topology.caches[%d].cores[%d]", i, j);
			}
	}
	if (check_refs(m, path, plen, err) < 0)
		goto out;
	for (i = 0; i < m->n_caches; i++) {
		const struct pandia_cache *ca = &m->caches[i];

		if (ca->n_cores < 1) {
			perr_set(err, "cache %d is shared by no core", i);
			BAD("topology.caches[%d].cores", i);
		}
		for (j = 0; j < ca->n_cores; j++)
			if (m->cores[ca->cores[j]].cache[ca->level - 1] != i) {
				perr_set(err, "core %d is in this L%d cache "
					 "but names cache %d as its L%d",
					 ca->cores[j], ca->level,
					 m->cores[ca->cores[j]].cache[
						ca->level - 1], ca->level);
				BAD("topology.caches[%d].cores[%d]", i, j);
			}
	}
	for (i = 0; i < m->n_cores; i++)
		for (j = 0; j < 3; j++) {
			int c = m->cores[i].cache[j], k;
			bool in = c < 0;

			for (k = 0; c >= 0 && k < m->caches[c].n_cores; k++)
				in |= m->caches[c].cores[k] == i;
			if (!in) {
				perr_set(err, "core %d names cache %d as its "
					 "L%d, which does not list it", i, c,
					 j + 1);
				BAD("topology.cores[%d].caches.L%d", i, j + 1);
			}
		}
	if (!m->peak_reason && !figure_ok(m->peak_rate)) {
		perr_set(err, "must be positive (at least 1 op/s), got %g",
			 m->peak_rate);
		BAD("core.peak_rate");
	}
	if (m->peak_reason && m->peak_rate != 0) {
		perr_set(err, "an unknown rate (peak_note) is 0, got %g",
			 m->peak_rate);
		BAD("core.peak_rate");
	}
	if (m->smt_applicable && !figure_ok(m->smt_rate)) {
		perr_set(err, "must be positive (at least 1 op/s), got %g",
			 m->smt_rate);
		BAD("core.smt_aggregate_rate");
	}
	if (!m->peak_reason && measure_bad(&m->peak, "ops/s", err))
		BAD("core.measure");
	if (m->smt_applicable && measure_bad(&m->smt, "ops/s", err))
		BAD("core.smt_measure");
	for (i = 0, j = 0; i < LVL_COUNT; i++) {
		const struct pandia_link *l = &m->links[i];

		if (!l->present)
			continue;
		if (!figure_ok(l->per_core_bw)) {
			perr_set(err, "must be positive (at least 1 byte/s), "
				 "got %g", l->per_core_bw);
			BAD("links[%d].per_core_bw", j);
		}
		if (!figure_ok(l->aggregate_bw)) {
			perr_set(err, "must be positive (at least 1 byte/s), "
				 "got %g", l->aggregate_bw);
			BAD("links[%d].aggregate_bw", j);
		}
		if (measure_bad(&l->per_core, "bytes/s", err))
			BAD("links[%d].per_core_measure", j);
		if (measure_bad(&l->aggregate, "bytes/s", err))
			BAD("links[%d].aggregate_measure", j);
		j++;
	}
	for (i = 0; i < m->n_xlinks; i++) {
		const struct pandia_xlink *x = &m->xlinks[i];

		if (x->from < 0 || x->from >= m->n_sockets || x->to < 0 ||
		    x->to >= m->n_sockets || x->from == x->to) {
			perr_set(err, "bad socket pair %d-%d", x->from, x->to);
			BAD("interconnect[%d].sockets", i);
		}
		for (j = 0; j < i; j++)
			if ((m->xlinks[j].from == x->from &&
			     m->xlinks[j].to == x->to) ||
			    (m->xlinks[j].from == x->to &&
			     m->xlinks[j].to == x->from)) {
				perr_set(err, "sockets %d-%d are listed twice "
					 "(interconnect[%d])", x->from, x->to,
					 j);
				BAD("interconnect[%d].sockets", i);
			}
		if (!figure_ok(x->bw)) {
			perr_set(err, "must be positive (at least 1 byte/s), "
				 "got %g", x->bw);
			BAD("interconnect[%d].bw", i);
		}
		if (measure_bad(&x->m, "bytes/s", err))
			BAD("interconnect[%d].measure", i);
	}
#undef BAD
	ret = 0;
out:
	free(owner);
	return ret;
}

int machine_check(const struct pandia_machine *m, struct pandia_error *err)
{
	char path[128] = "";
	struct pandia_error e;

	if (check(m, path, sizeof(path), &e) == 0)
		return 0;
	return perr_set(err, "%s: %s", path, e.text);
}

/* ---- loading ---------------------------------------------------- */



/* obj.key as an object/array of the wanted type; path gets the path */
static json_t *get(struct json_src *c, json_t *obj, const char *opath,
		   const char *key, json_type type, char *path, size_t plen,
		   bool required)
{
	json_t *v = json_object_get(obj, key);

	snprintf(path, plen, "%s%s%s", opath, *opath ? "." : "", key);
	if (!v || json_is_null(v)) {
		if (required)
			json_fail(c, opath, "missing field '%s'", key);
		return NULL;
	}
	if (json_typeof(v) != type &&
	    !(type == JSON_REAL && json_is_integer(v))) {
		static const char *const want[] = {
			[JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array",
			[JSON_STRING] = "a string", [JSON_INTEGER] =
			"an integer", [JSON_REAL] = "a number",
		};
		json_fail(c, path, "must be %s, not %s", want[type], json_type_name(v));
		return NULL;
	}
	return v;
}

static int get_num(struct json_src *c, json_t *obj, const char *opath,
		   const char *key, double *out, bool required)
{
	char path[160];
	json_t *v = get(c, obj, opath, key, JSON_REAL, path, sizeof(path),
			required);

	if (!v) {
		*out = 0;
		return c->err->text[0] ? -1 : 0;
	}
	*out = json_number_value(v);
	return 0;
}

static int get_int(struct json_src *c, json_t *obj, const char *opath,
		   const char *key, int *out, bool required)
{
	char path[160];
	json_t *v = get(c, obj, opath, key, JSON_INTEGER, path, sizeof(path),
			required);
	json_int_t x;

	*out = 0;
	if (!v)
		return c->err->text[0] ? -1 : 0;
	x = json_integer_value(v);
	if (x < -1 || x > 1 << 24)
		return json_fail(c, path, "%lld is out of range", (long long)x);
	*out = (int)x;
	return 0;
}

static int get_str(struct json_src *c, json_t *obj, const char *opath,
		   const char *key, char **out, bool required)
{
	char path[160];
	json_t *v = get(c, obj, opath, key, JSON_STRING, path, sizeof(path),
			required);

	*out = v ? xstrdup(json_string_value(v)) : NULL;
	return !v && c->err->text[0] ? -1 : 0;
}

/* An array of integers, each >= 0. */
static int get_ints(struct json_src *c, json_t *obj, const char *opath,
		    const char *key, int **out, int *n)
{
	char path[160], ipath[176];
	json_t *a = get(c, obj, opath, key, JSON_ARRAY, path, sizeof(path),
			true), *v;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!a)
		return -1;
	*out = xcalloc(json_array_size(a), sizeof(int));
	json_array_foreach(a, i, v) {
		snprintf(ipath, sizeof(ipath), "%s[%zu]", path, i);
		if (!json_is_integer(v))
			return json_fail(c, ipath, "must be an integer, not %s",
				    json_type_name(v));
		if (json_integer_value(v) < 0 ||
		    json_integer_value(v) > 1 << 24)
			return json_fail(c, ipath, "%lld is out of range",
				    (long long)json_integer_value(v));
		(*out)[(*n)++] = (int)json_integer_value(v);
	}
	return 0;
}

/* A "unit" at obj, when there is one, is exactly UNIT. */
static int unit_is(struct json_src *c, json_t *obj, const char *opath,
		   const char *unit)
{
	json_t *v = json_object_get(obj, "unit");
	char path[160];

	if (!v || (json_is_string(v) && !strcmp(json_string_value(v), unit)))
		return 0;
	snprintf(path, sizeof(path), "%s%sunit", opath, *opath ? "." : "");
	if (!json_is_string(v))
		return json_fail(c, path, "must be the string \"%s\", not %s",
				 unit, json_type_name(v));
	return json_fail(c, path, "must be \"%s\", not \"%s\"", unit,
			 json_string_value(v));
}

static int load_measure(struct json_src *c, json_t *obj, const char *opath,
			const char *key, struct pandia_measure *ms)
{
	char path[160];
	json_t *o = get(c, obj, opath, key, JSON_OBJECT, path, sizeof(path),
			true);

	if (!o)
		return -1;
	if (get_str(c, o, path, "kernel", &ms->kernel, false) < 0 ||
	    get_num(c, o, path, "working_set_bytes", &ms->working_set,
		    false) < 0 ||
	    get_int(c, o, path, "threads", &ms->threads, false) < 0 ||
	    get_str(c, o, path, "pus", &ms->pus, false) < 0 ||
	    get_int(c, o, path, "repetitions", &ms->repetitions, false) < 0 ||
	    get_num(c, o, path, "best", &ms->best, false) < 0 ||
	    get_num(c, o, path, "median", &ms->median, false) < 0 ||
	    get_num(c, o, path, "spread", &ms->spread, false) < 0 ||
	    get_str(c, o, path, "unit", &ms->unit, false) < 0 ||
	    get_str(c, o, path, "note", &ms->note, false) < 0)
		return -1;
	return 0;
}

static int load_topology(struct json_src *c, struct pandia_machine *m, json_t *t)
{
	char path[160], ipath[64];
	json_t *a, *o, *v;
	size_t i;
	int j;

	a = get(c, t, "topology", "sockets", JSON_ARRAY, path, sizeof(path),
		true);
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

	a = get(c, t, "topology", "numa_nodes", JSON_ARRAY, path,
		sizeof(path), true);
	if (!a)
		return -1;
	m->n_numa = (int)json_array_size(a);
	m->numa = xcalloc((size_t)m->n_numa, sizeof(*m->numa));
	json_array_foreach(a, i, o) {
		struct pandia_numa *n = &m->numa[i];
		double mem = 0;

		snprintf(ipath, sizeof(ipath), "topology.numa_nodes[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_int(c, o, ipath, "os_index", &n->os_index, true) < 0 ||
		    get_int(c, o, ipath, "socket", &n->socket, true) < 0)
			return -1;
		/* null: hwloc gave no size (not the same as 0 bytes) */
		v = json_object_get(o, "memory_bytes");
		n->memory_unknown = v && json_is_null(v);
		if ((!n->memory_unknown &&
		     get_num(c, o, ipath, "memory_bytes", &mem, true) < 0) ||
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
	}

	a = get(c, t, "topology", "caches", JSON_ARRAY, path, sizeof(path),
		true);
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
		if (get_str(c, o, ipath, "level", &lv, true) < 0)
			return -1;
		l = level_from_name(lv);
		free(lv);
		if (l < LVL_L1 || l > LVL_L3) {
			snprintf(path, sizeof(path), "%s.level", ipath);
			return json_fail(c, path, "must be \"L1\", \"L2\" or "
				    "\"L3\"");
		}
		ca->level = l + 1;
		if (get_num(c, o, ipath, "size_bytes", &size, true) < 0 ||
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

	a = get(c, t, "topology", "cores", JSON_ARRAY, path, sizeof(path),
		true);
	if (!a)
		return -1;
	m->n_cores = (int)json_array_size(a);
	m->cores = xcalloc((size_t)m->n_cores, sizeof(*m->cores));
	json_array_foreach(a, i, o) {
		struct pandia_core *co = &m->cores[i];
		int *os = NULL, n;
		json_t *caches;
		const char *key;

		snprintf(ipath, sizeof(ipath), "topology.cores[%zu]", i);
		co->cache[0] = co->cache[1] = co->cache[2] = -1;
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_int(c, o, ipath, "socket", &co->socket, true) < 0 ||
		    get_int(c, o, ipath, "numa", &co->numa, true) < 0 ||
		    get_int(c, o, ipath, "kind", &co->kind, false) < 0 ||
		    get_ints(c, o, ipath, "pus", &os, &n) < 0) {
			free(os);
			return -1;
		}
		co->pus = os;
		co->n_pus = n;
		for (j = 0; j < n; j++) {
			int p = machine_pu_index(m, os[j]);

			if (p < 0) {
				snprintf(path, sizeof(path), "%s.pus[%d]",
					 ipath, j);
				return json_fail(c, path, "PU %d is not in 'pus'",
					    os[j]);
			}
			if (m->pus[p].core >= 0) {
				snprintf(path, sizeof(path), "%s.pus[%d]",
					 ipath, j);
				return json_fail(c, path, "PU %d is in core %d "
					    "already", os[j], m->pus[p].core);
			}
			m->pus[p].core = (int)i;
			co->pus[j] = p;
		}
		caches = get(c, o, ipath, "caches", JSON_OBJECT, path,
			     sizeof(path), true);
		if (!caches)
			return -1;
		json_object_foreach(caches, key, v) {
			int l = level_from_name(key);

			if (l < LVL_L1 || l > LVL_L3) {
				snprintf(ipath, sizeof(ipath), "%s.%s", path,
					 key);
				return json_fail(c, ipath, "unknown cache level "
					    "'%s' (expected L1, L2 or L3)",
					    key);
			}
			if (get_int(c, caches, path, key, &co->cache[l],
				    true) < 0)
				return -1;
			if (co->cache[l] < 0 || co->cache[l] >= m->n_caches) {
				snprintf(ipath, sizeof(ipath), "%s.%s", path,
					 key);
				return json_fail(c, ipath, "must name a cache "
						 "(0 to %d), not %d; leave "
						 "the level out when the core "
						 "has none", m->n_caches - 1,
						 co->cache[l]);
			}
		}
	}
	return 0;
}

static int load_links(struct json_src *c, struct pandia_machine *m, json_t *root)
{
	char path[160], ipath[64];
	json_t *a, *o;
	size_t i;

	for (i = 0; i < LVL_COUNT; i++) {
		m->links[i].present = false;
		m->links[i].reason = NULL;
	}
	a = get(c, root, "", "links", JSON_ARRAY, path, sizeof(path), true);
	if (!a)
		return -1;
	json_array_foreach(a, i, o) {
		struct pandia_link *l;
		char *lv = NULL;
		int k;

		snprintf(ipath, sizeof(ipath), "links[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_str(c, o, ipath, "level", &lv, true) < 0)
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
				    level_names[k]);
		l->present = true;
		if (unit_is(c, o, ipath, "bytes/s") < 0 ||
		    get_num(c, o, ipath, "per_core_bw", &l->per_core_bw,
			    true) < 0 ||
		    get_num(c, o, ipath, "aggregate_bw", &l->aggregate_bw,
			    true) < 0 ||
		    load_measure(c, o, ipath, "per_core_measure",
				 &l->per_core) < 0 ||
		    load_measure(c, o, ipath, "aggregate_measure",
				 &l->aggregate) < 0)
			return -1;
	}
	a = get(c, root, "", "absent_links", JSON_ARRAY, path, sizeof(path),
		false);
	if (!a && c->err->text[0])
		return -1;
	for (i = 0; a && i < json_array_size(a); i++) {
		char *lv = NULL;
		int k;

		o = json_array_get(a, i);
		snprintf(ipath, sizeof(ipath), "absent_links[%zu]", i);
		if (!json_is_object(o))
			return json_fail(c, ipath, "must be an object");
		if (get_str(c, o, ipath, "level", &lv, true) < 0)
			return -1;
		k = level_from_name(lv);
		free(lv);
		snprintf(path, sizeof(path), "%s.level", ipath);
		if (k < 0)
			return json_fail(c, path, "unknown level");
		if (m->links[k].present)
			return json_fail(c, path, "level %s is also in 'links'",
				    level_names[k]);
		if (m->links[k].reason)
			return json_fail(c, path, "level %s is listed twice",
				    level_names[k]);
		if (get_str(c, o, ipath, "reason", &m->links[k].reason,
			    false) < 0)
			return -1;
	}

	a = get(c, root, "", "interconnect", JSON_ARRAY, path, sizeof(path),
		true);
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
		    get_num(c, o, ipath, "bw", &x->bw, true) < 0 ||
		    load_measure(c, o, ipath, "measure", &x->m) < 0)
			return -1;
	}
	return 0;
}

/* core.kinds: absent on machines of one kind. */
static int load_kinds(struct json_src *c, struct pandia_machine *m,
		      json_t *core)
{
	char path[160], ipath[64];
	json_t *a, *o;
	size_t i;

	a = get(c, core, "core", "kinds", JSON_ARRAY, path, sizeof(path),
		false);
	if (!a)
		return c->err->text[0] ? -1 : 0;
	if (json_array_size(a) < 2)
		return json_fail(c, path, "must list two kinds or more (leave "
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
		    get_num(c, o, ipath, "frequency_max_mhz", &k->freq_max,
			    false) < 0 ||
		    get_num(c, o, ipath, "frequency_base_mhz", &k->freq_base,
			    false) < 0 ||
		    get_num(c, o, ipath, "rate", &k->rate, true) < 0 ||
		    load_measure(c, o, ipath, "measure", &k->m) < 0)
			return -1;
	}
	return 0;
}

static int load_root(struct json_src *c, struct pandia_machine *m, json_t *root)
{
	char path[160], *schema = NULL;
	json_t *o, *a, *v;
	size_t i;

	if (!json_is_object(root))
		return json_fail(c, "", "the description must be a JSON object");
	if (get_str(c, root, "", "schema", &schema, true) < 0)
		return -1;
	if (strcmp(schema, PANDIA_MACHINE_SCHEMA)) {
		json_fail(c, "schema", "unknown schema version '%s' (this pandia "
		     "reads \"%s\")", schema, PANDIA_MACHINE_SCHEMA);
		free(schema);
		return -1;
	}
	free(schema);

	o = get(c, root, "", "identity", JSON_OBJECT, path, sizeof(path),
		true);
	if (!o ||
	    get_str(c, o, "identity", "host", &m->host, false) < 0 ||
	    get_str(c, o, "identity", "cpu_model", &m->cpu_model, false) < 0 ||
	    get_str(c, o, "identity", "kernel", &m->kernel, false) < 0 ||
	    get_str(c, o, "identity", "date", &m->date, false) < 0 ||
	    get_str(c, o, "identity", "pandia_version", &m->version,
		    false) < 0 ||
	    get_str(c, o, "identity", "origin", &m->origin, true) < 0 ||
	    get_str(c, o, "identity", "topology_source", &m->topology_source,
		    false) < 0 ||
	    get_str(c, o, "identity", "assumptions", &m->assumptions,
		    false) < 0)
		return -1;

	a = get(c, root, "", "pus", JSON_ARRAY, path, sizeof(path), true);
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

	o = get(c, root, "", "topology", JSON_OBJECT, path, sizeof(path),
		true);
	if (!o || load_topology(c, m, o) < 0)
		return -1;

	o = get(c, root, "", "core", JSON_OBJECT, path, sizeof(path), true);
	if (!o || unit_is(c, o, "core", "ops/s") < 0)
		return -1;
	v = json_object_get(o, "peak_rate");
	if (v && json_is_null(v)) {
		/* unknown: a topology described without figures */
		if (get_str(c, o, "core", "peak_note", &m->peak_reason,
			    true) < 0)
			return -1;
	} else if (get_num(c, o, "core", "peak_rate", &m->peak_rate,
			   true) < 0 ||
		   load_measure(c, o, "core", "measure", &m->peak) < 0) {
		return -1;
	}
	if (get_num(c, o, "core", "smt_aggregate_rate", &m->smt_rate,
		    false) < 0)
		return -1;
	v = json_object_get(o, "smt_aggregate_rate");
	m->smt_applicable = v && !json_is_null(v);
	if (m->smt_applicable) {
		if (load_measure(c, o, "core", "smt_measure", &m->smt) < 0)
			return -1;
	} else if (get_str(c, o, "core", "smt_note", &m->smt_reason,
			   false) < 0) {
		return -1;
	}
	if (load_kinds(c, m, o) < 0)
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
	if (check(m, path, sizeof(path), c.err) < 0) {
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

/* ---- comparing and printing ------------------------------------ */

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

bool machine_same_host(const struct pandia_machine *a,
		       const struct pandia_machine *b, char **why)
{
	int i;

	char s1[SHORT_BUF], s2[SHORT_BUF];

	*why = NULL;
	if (!str_eq(a->host, b->host)) {
		*why = xasprintf("host '%s' is not '%s'",
				 b->host ? shorten(b->host, s1, sizeof(s1)) :
				 "?", a->host ? shorten(a->host, s2,
							sizeof(s2)) : "?");
		return false;
	}
	if (!str_eq(a->cpu_model, b->cpu_model)) {
		*why = xasprintf("CPU '%s' is not '%s'",
				 b->cpu_model ? shorten(b->cpu_model, s1,
							sizeof(s1)) : "?",
				 a->cpu_model ? shorten(a->cpu_model, s2,
							sizeof(s2)) : "?");
		return false;
	}
	if (a->n_pus != b->n_pus) {
		*why = xasprintf("%d PUs is not %d", b->n_pus, a->n_pus);
		return false;
	}
	for (i = 0; i < a->n_pus; i++)
		if (a->pus[i].os_index != b->pus[i].os_index) {
			*why = xasprintf("PU %d is not PU %d",
					 b->pus[i].os_index,
					 a->pus[i].os_index);
			return false;
		}
	return true;
}

static const char *human_bytes(double v, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.*f %s", v < 10 && u ? 1 : 0, v, units[u]);
	return buf;
}

/* 12.34 GB/s, 512.00 kops/s: decimal prefixes for rates */
static const char *human_rate(double v, const char *unit, char *buf,
			      size_t size)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T" };
	int p = 0;

	while (v >= 1000 && p < 4) {
		v /= 1000;
		p++;
	}
	snprintf(buf, size, "%.2f %s%s", v, prefix[p], unit);
	return buf;
}

static void print_link(FILE *out, const char *name,
		       const struct pandia_link *l)
{
	char a[32], b[32];

	if (!l->present) {
		fprintf(out, "  %-13s %s\n", name,
			l->reason ? l->reason : "absent");
		return;
	}
	fprintf(out, "  %-13s per core %12s   aggregate %12s", name,
		human_rate(l->per_core_bw, "B/s", a, sizeof(a)),
		human_rate(l->aggregate_bw, "B/s", b, sizeof(b)));
	if (l->per_core.repetitions > 1)
		fprintf(out, "   (spread %.1f%%)", 100 * l->per_core.spread);
	fputc('\n', out);
}

void machine_print_summary(const struct pandia_machine *m, FILE *out)
{
	char buf[32], *pus, s1[SHORT_BUF], s2[SHORT_BUF];
	int i, k, smt = machine_smt(m), *os;

	os = xmalloc(sizeof(*os) * (size_t)m->n_pus);
	for (i = 0; i < m->n_pus; i++)
		os[i] = m->pus[i].os_index;
	pus = cpuset_format(os, m->n_pus);
	fprintf(out, "machine %s: %s\n", m->host ? shorten(m->host, s1,
							 sizeof(s1)) : "?",
		m->cpu_model ? shorten(m->cpu_model, s2, sizeof(s2)) :
		"unknown CPU");
	fprintf(out, "  %s %s from %s\n",
		m->origin && !strcmp(m->origin, "measured") ?
		"measured" : "described",
		m->date ? m->date : "", m->topology_source ?
		m->topology_source : "?");
	fprintf(out, "  %d socket%s, %d NUMA node%s, %d core%s, %d PU%s "
		"(%s), ", m->n_sockets, m->n_sockets == 1 ? "" : "s",
		m->n_numa, m->n_numa == 1 ? "" : "s", m->n_cores,
		m->n_cores == 1 ? "" : "s", m->n_pus,
		m->n_pus == 1 ? "" : "s", pus);
	if (smt > 1)
		fprintf(out, "%d PUs per core\n", smt);
	else if (smt == 1)
		fprintf(out, "no SMT\n");
	else
		fprintf(out, "uneven PUs per core\n");
	for (k = 1; k <= 3; k++) {
		int count = 0, first = -1;

		for (i = 0; i < m->n_caches; i++)
			if (m->caches[i].level == k) {
				if (first < 0)
					first = i;
				count++;
			}
		if (first >= 0)
			fprintf(out, "  L%d %s x %d, shared by %d core%s\n", k,
				human_bytes((double)m->caches[first].size, buf,
					    sizeof(buf)), count,
				m->caches[first].n_cores,
				m->caches[first].n_cores == 1 ? "" : "s");
	}
	if (m->peak_reason)
		fprintf(out, "  core rate     %s", m->peak_reason);
	else
		fprintf(out, "  core rate     %s alone",
			human_rate(m->peak_rate, "ops/s", buf, sizeof(buf)));
	if (m->smt_applicable)
		fprintf(out, ", %s with SMT\n",
			human_rate(m->smt_rate, "ops/s", buf, sizeof(buf)));
	else
		fprintf(out, "; SMT %s\n", m->smt_reason ?
			m->smt_reason : "not applicable");
	if (m->n_kinds) {
		fprintf(out, "  kinds of core");
		for (i = 0; i < m->n_kinds; i++)
			fprintf(out, "%s%s (efficiency %d)", i ? ", " : " ",
				human_rate(m->kinds[i].rate, "ops/s", buf,
					   sizeof(buf)),
				m->kinds[i].efficiency);
		fputc('\n', out);
	}
	for (i = 0; i < LVL_COUNT; i++)
		print_link(out, level_names[i], &m->links[i]);
	free(pus);
	free(os);
}
