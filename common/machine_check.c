/*
 * machine_check.c - the consistency checks of a machine description:
 * every reference in range and agreeing with the other side, figures
 * positive.  Loading runs them too (machine_check_at()), so that a
 * file is refused with the line and column of the bad value.
 */
#include "common/machine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine_priv.h"
#include "common/util.h"


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
 * index is in range when this runs (machine_check_at() tested them).
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
int machine_check_at(const struct pandia_machine *m, char *path, size_t plen,
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

	if (machine_check_at(m, path, sizeof(path), &e) == 0)
		return 0;
	return perr_set(err, "%s: %s", path, e.text);
}
