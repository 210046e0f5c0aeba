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

#include "common/machine_internal.h"
#include "common/util.h"

/* A rate or bandwidth: finite, at least 1 per second (not 1e-320). */
static bool figure_ok(double v)
{
	return isfinite(v) && v >= 1;
}

/*
 * The most any figure of a machine may be: 1e15 ops/s for one core, or
 * bytes/s for a link (a petabyte a second), beyond anything built by
 * orders of magnitude.  A description that says more is broken, and
 * would make every prediction of it a number without meaning.
 */
#define FIGURE_MAX 1e15

static int too_large(double v, const char *unit, struct pandia_error *err)
{
	if (!(v > FIGURE_MAX))
		return 0;
	return perr_set(err, "%g %s is more than any machine has (at most "
			"%g)", v, unit, FIGURE_MAX);
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
 * The steps below each check one part.  On a problem they set path
 * (the JSON path of the offending value) and err's text and return
 * -1; they run in the order of machine_check_at(), so that the first
 * problem found is the one reported.
 */
#define BAD(...) do { snprintf(path, plen, __VA_ARGS__); return -1; } while (0)
/* the same where a scratch array is to be freed at out_free: */
#define BAD_OUT(...) \
	do { snprintf(path, plen, __VA_ARGS__); goto out_free; } while (0)

/* Scratch for the cross-checks: per core, with one more for none. */
struct refs {
	int *seen;		/* == stamp: listed in the current object */
	int *mine;		/* its node lists it */
	int *cover;		/* nodes with memory that list it */
	int stamp;
	int any_mem;		/* the first node with memory, or -1 */
};

static int check_socket_ids(const struct pandia_machine *m, char *path,
			    size_t plen, struct pandia_error *err)
{
	int i, j;

	for (i = 0; i < m->n_sockets; i++)
		for (j = 0; j < i; j++)
			if (m->sockets[j].os_index == m->sockets[i].os_index) {
				perr_set(err, "socket %d is listed twice "
					 "(sockets[%d])",
					 m->sockets[i].os_index, j);
				BAD("topology.sockets[%d].os_index", i);
			}
	return 0;
}

/* Each node: its id once, its socket, its cores on that socket. */
static int check_nodes(const struct pandia_machine *m, struct refs *r,
		       char *path, size_t plen, struct pandia_error *err)
{
	int i, j;

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
		if (r->any_mem < 0 && NUMA_HAS_MEMORY(n))
			r->any_mem = i;
		r->stamp++;
		for (j = 0; j < n->n_cores; j++) {
			int c = n->cores[j];

			if (r->seen[c] == r->stamp) {
				perr_set(err, "core %d is listed twice", c);
				BAD("topology.numa_nodes[%d].cores[%d]", i, j);
			}
			r->seen[c] = r->stamp;
			if (n->socket >= 0 && m->cores[c].socket != n->socket) {
				perr_set(err, "NUMA node %d is on socket %d, "
					 "but its core %d is on socket %d",
					 n->os_index, n->socket, c,
					 m->cores[c].socket);
				BAD("topology.numa_nodes[%d].socket", i);
			}
			if (!NUMA_HAS_MEMORY(n))
				continue;
			r->cover[c]++;
			if (m->cores[c].numa == i)
				r->mine[c] = 1;
		}
	}
	return 0;
}

/* Core I's node: one with memory, and one that lists it. */
static int check_core_node(const struct pandia_machine *m,
			   const struct refs *r, int i, char *path,
			   size_t plen, struct pandia_error *err)
{
	const struct pandia_core *c = &m->cores[i];

	if (c->numa >= 0 && !NUMA_HAS_MEMORY(&m->numa[c->numa])) {
		perr_set(err, "core %d's NUMA node %d has no memory",
			 i, m->numa[c->numa].os_index);
		BAD("topology.cores[%d].numa", i);
	}
	if (c->numa < 0 && r->any_mem >= 0) {
		perr_set(err, "core %d has no NUMA node, but node %d "
			 "has memory (a description older than the "
			 "nearest-node rule: make it again)", i,
			 m->numa[r->any_mem].os_index);
		BAD("topology.cores[%d].numa", i);
	}
	if (r->cover[i] && !r->mine[i]) {
		perr_set(err, "core %d names NUMA node %d, which does "
			 "not list it, though %d node%s with memory "
			 "do%s", i, m->numa[c->numa].os_index,
			 r->cover[i], r->cover[i] == 1 ? "" : "s",
			 r->cover[i] == 1 ? "es" : "");
		BAD("topology.cores[%d].numa", i);
	}
	return 0;
}

/* Each core: its node, its kind, the caches it names list it. */
static int check_core_refs(const struct pandia_machine *m,
			   const struct refs *r, char *path, size_t plen,
			   struct pandia_error *err)
{
	int i, j, k;

	for (i = 0; i < m->n_cores; i++) {
		const struct pandia_core *c = &m->cores[i];

		if (check_core_node(m, r, i, path, plen, err) < 0)
			return -1;
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
	return 0;
}

/* Each cache: its cores once, naming it back, on one socket. */
static int check_cache_refs(const struct pandia_machine *m, struct refs *r,
			    char *path, size_t plen, struct pandia_error *err)
{
	int i, j;

	for (i = 0; i < m->n_caches; i++) {
		const struct pandia_cache *ca = &m->caches[i];

		r->stamp++;
		for (j = 0; j < ca->n_cores; j++) {
			const struct pandia_core *c = &m->cores[ca->cores[j]];

			if (r->seen[ca->cores[j]] == r->stamp) {
				perr_set(err, "core %d is listed twice",
					 ca->cores[j]);
				BAD("topology.caches[%d].cores[%d]", i, j);
			}
			r->seen[ca->cores[j]] = r->stamp;
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
	return 0;
}

/* Each kind's rate and efficiency; core.peak_rate the fastest's. */
static int check_kinds(const struct pandia_machine *m, char *path,
		       size_t plen, struct pandia_error *err)
{
	double fastest = 0;
	int i;

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
	return 0;
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
	struct refs r = { NULL, NULL, NULL, 0, -1 };
	int ret = -1;

	r.seen = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	r.mine = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	r.cover = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	if (check_socket_ids(m, path, plen, err) < 0 ||
	    check_nodes(m, &r, path, plen, err) < 0 ||
	    check_core_refs(m, &r, path, plen, err) < 0 ||
	    check_cache_refs(m, &r, path, plen, err) < 0 ||
	    check_kinds(m, path, plen, err) < 0)
		goto out_free;
	ret = 0;
out_free:
	free(r.seen);
	free(r.mine);
	free(r.cover);
	return ret;
}

/* At least one PU, in ascending order; at least a core and a socket. */
static int check_counts(const struct pandia_machine *m, char *path,
			size_t plen, struct pandia_error *err)
{
	int i;

	if (m->n_pus < 1) {
		snprintf(path, plen, "pus");
		return perr_set(err, "the machine has no PU");
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
	return 0;
}

/* Core I's socket, node and caches in range, and at least one PU. */
static int check_core_ranges(const struct pandia_machine *m, int i,
			     char *path, size_t plen,
			     struct pandia_error *err)
{
	const struct pandia_core *c = &m->cores[i];
	int j;

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
				 "not an L%d cache", i, c->cache[j], j + 1);
			BAD("topology.cores[%d].caches.L%d", i, j + 1);
		}
	return 0;
}

/* Each core in range, each PU in exactly one core that records it. */
static int check_cores(const struct pandia_machine *m, char *path,
		       size_t plen, struct pandia_error *err)
{
	int *owner = xmalloc(sizeof(*owner) * (size_t)m->n_pus);
	int i, j, ret = -1;

	for (i = 0; i < m->n_pus; i++)
		owner[i] = -1;
	for (i = 0; i < m->n_cores; i++) {
		const struct pandia_core *c = &m->cores[i];

		if (check_core_ranges(m, i, path, plen, err) < 0)
			goto out_free;
		for (j = 0; j < c->n_pus; j++) {
			int p = c->pus[j];

			if (owner[p] >= 0) {
				perr_set(err, "PU %d is in core %d and core %d",
					 m->pus[p].os_index, owner[p], i);
				BAD_OUT("topology.cores[%d].pus[%d]", i, j);
			}
			owner[p] = i;
			if (m->pus[p].core != i) {
				perr_set(err, "PU %d is not recorded in core "
					 "%d", m->pus[p].os_index, i);
				BAD_OUT("topology.cores[%d].pus[%d]", i, j);
			}
		}
	}
	for (i = 0; i < m->n_pus; i++)
		if (owner[i] < 0) {
			perr_set(err, "PU %d is in no core",
				 m->pus[i].os_index);
			BAD_OUT("pus[%d]", i);
		}
	ret = 0;
out_free:
	free(owner);
	return ret;
}

/* Each core in exactly one socket, the one it names. */
static int check_sockets(const struct pandia_machine *m, char *path,
			 size_t plen, struct pandia_error *err)
{
	int *owner = xmalloc(sizeof(*owner) * (size_t)m->n_cores);
	int i, j, ret = -1;

	for (i = 0; i < m->n_cores; i++)
		owner[i] = -1;
	for (i = 0; i < m->n_sockets; i++)
		for (j = 0; j < m->sockets[i].n_cores; j++) {
			int c = m->sockets[i].cores[j];

			if (c < 0 || c >= m->n_cores) {
				perr_set(err, "core %d does not exist", c);
				BAD_OUT("topology.sockets[%d].cores[%d]", i, j);
			}
			if (owner[c] >= 0) {
				perr_set(err, "core %d is in socket %d and "
					 "socket %d", c, owner[c], i);
				BAD_OUT("topology.sockets[%d].cores[%d]", i, j);
			}
			if (m->cores[c].socket != i) {
				perr_set(err, "core %d says it is in socket %d",
					 c, m->cores[c].socket);
				BAD_OUT("topology.sockets[%d].cores[%d]", i, j);
			}
			owner[c] = i;
		}
	for (i = 0; i < m->n_cores; i++)
		if (owner[i] < 0) {
			perr_set(err, "core %d is in no socket", i);
			BAD_OUT("topology.cores[%d]", i);
		}
	ret = 0;
out_free:
	free(owner);
	return ret;
}

/* The cores nodes and caches list exist; cache levels are 1 to 3. */
static int check_lists(const struct pandia_machine *m, char *path,
		       size_t plen, struct pandia_error *err)
{
	int i, j;

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
	return 0;
}

/* Each cache shared by some core; caches and cores name each other. */
static int check_cache_sharing(const struct pandia_machine *m, char *path,
			       size_t plen, struct pandia_error *err)
{
	int i, j;

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
	return 0;
}

/* core.busy_curve: ascending cores inside a socket, rates in range. */
static int check_busy(const struct pandia_machine *m, char *path,
		      size_t plen, struct pandia_error *err)
{
	int i, most = 0;

	for (i = 0; i < m->n_sockets; i++)
		if (m->sockets[i].n_cores > most)
			most = m->sockets[i].n_cores;
	if (m->n_busy && !(m->all_busy_rate > 0)) {
		perr_set(err, "needs core.all_busy_rate");
		BAD("core.busy_curve");
	}
	for (i = 0; i < m->n_busy; i++) {
		const struct pandia_busy *b = &m->busy[i];

		if (b->cores < 2 || b->cores >= most ||
		    (i && b->cores <= m->busy[i - 1].cores)) {
			perr_set(err, "cores must ascend from 2 to below the "
				 "%d of a socket, got %d", most, b->cores);
			BAD("core.busy_curve[%d].cores", i);
		}
		if (!figure_ok(b->rate) || b->rate > m->peak_rate) {
			perr_set(err, "must be positive and at most "
				 "core.peak_rate (%g), got %g", m->peak_rate,
				 b->rate);
			BAD("core.busy_curve[%d].rate", i);
		}
		if (measure_bad(&b->m, "ops/s", err))
			BAD("core.busy_curve[%d].measure", i);
	}
	return 0;
}

/* core: the rates, or an unknown rate of 0, and how they were got. */
static int check_core_rates(const struct pandia_machine *m, char *path,
			    size_t plen, struct pandia_error *err)
{
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
	if (too_large(m->peak_rate, "ops/s", err))
		BAD("core.peak_rate");
	if (m->smt_applicable && too_large(m->smt_rate, "ops/s", err))
		BAD("core.smt_aggregate_rate");
	if (m->smt_applicable && !figure_ok(m->smt_rate)) {
		perr_set(err, "must be positive (at least 1 op/s), got %g",
			 m->smt_rate);
		BAD("core.smt_aggregate_rate");
	}
	if (m->all_busy_rate != 0 && (!figure_ok(m->all_busy_rate) ||
				      m->peak_reason ||
				      m->all_busy_rate > m->peak_rate)) {
		perr_set(err, "must be positive and at most core.peak_rate "
			 "(%g), got %g", m->peak_rate, m->all_busy_rate);
		BAD("core.all_busy_rate");
	}
	if (m->all_busy_rate != 0 &&
	    measure_bad(&m->all_busy, "ops/s", err))
		BAD("core.all_busy_measure");
	if (check_busy(m, path, plen, err) < 0)
		return -1;
	if (!m->peak_reason && measure_bad(&m->peak, "ops/s", err))
		BAD("core.measure");
	if (m->smt_applicable && measure_bad(&m->smt, "ops/s", err))
		BAD("core.smt_measure");
	return 0;
}

/* links: each present level's bandwidths and how they were got. */
static int check_links(const struct pandia_machine *m, char *path,
		       size_t plen, struct pandia_error *err)
{
	int i, j;

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
		if (too_large(l->per_core_bw, "bytes/s", err))
			BAD("links[%d].per_core_bw", j);
		if (too_large(l->aggregate_bw, "bytes/s", err))
			BAD("links[%d].aggregate_bw", j);
		/* all cores together take at least what one does (half of
		   it: two measurements' noise on a busy host) */
		if (l->aggregate_bw < 0.5 * l->per_core_bw) {
			perr_set(err, "%g bytes/s for every core together is "
				 "less than half of one core's %g: the two "
				 "contradict each other", l->aggregate_bw,
				 l->per_core_bw);
			BAD("links[%d].aggregate_bw", j);
		}
		if (measure_bad(&l->per_core, "bytes/s", err))
			BAD("links[%d].per_core_measure", j);
		if (measure_bad(&l->aggregate, "bytes/s", err))
			BAD("links[%d].aggregate_measure", j);
		j++;
	}
	return 0;
}

/* interconnect: pairs of two sockets, each once, with a bandwidth. */
static int check_xlinks(const struct pandia_machine *m, char *path,
			size_t plen, struct pandia_error *err)
{
	int i, j;

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
	return 0;
}
#undef BAD
#undef BAD_OUT

/*
 * The checks shared by machine_check() and loading: the indexes in
 * range first, then what refers to what, then the figures.
 */
int machine_check_at(const struct pandia_machine *m, char *path, size_t plen,
		     struct pandia_error *err)
{
	if (check_counts(m, path, plen, err) < 0 ||
	    check_cores(m, path, plen, err) < 0 ||
	    check_sockets(m, path, plen, err) < 0 ||
	    check_lists(m, path, plen, err) < 0 ||
	    check_refs(m, path, plen, err) < 0 ||
	    check_cache_sharing(m, path, plen, err) < 0 ||
	    check_core_rates(m, path, plen, err) < 0 ||
	    check_links(m, path, plen, err) < 0 ||
	    check_xlinks(m, path, plen, err) < 0)
		return -1;
	return 0;
}

int machine_check(const struct pandia_machine *m, struct pandia_error *err)
{
	char path[128] = "";
	struct pandia_error e;

	if (machine_check_at(m, path, sizeof(path), &e) == 0)
		return 0;
	return perr_set(err, "%s: %s", path, e.text);
}
