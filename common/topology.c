/*
 * topology.c - the machine's topology from hwloc: this host, an XML
 * file or a synthetic string.
 */
#include "common/topology.h"

#include <errno.h>
#include <hwloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/util.h"

static int cmp_pu(const void *a, const void *b)
{
	const struct pandia_pu *x = a, *y = b;

	return (x->os_index > y->os_index) - (x->os_index < y->os_index);
}

static void push(int **v, int *n, int x)
{
	*v = xrealloc(*v, sizeof(**v) * (size_t)(*n + 1));
	(*v)[(*n)++] = x;
}

/* The PU objects of the topology as sorted pus[] entries. */
static void load_pus(struct pandia_machine *m, hwloc_topology_t topo)
{
	int i, n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);

	m->pus = xcalloc((size_t)n, sizeof(*m->pus));
	for (i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU,
						       (unsigned)i);

		m->pus[m->n_pus].os_index = (int)pu->os_index;
		m->pus[m->n_pus].core = -1;
		m->n_pus++;
	}
	qsort(m->pus, (size_t)m->n_pus, sizeof(*m->pus), cmp_pu);
}

/* Append a warning line to m->notes. */
static void note(struct pandia_machine *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct pandia_machine *m, const char *fmt, ...)
{
	char *line, *all;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (!line)
		return;
	all = xasprintf("%s%s\n", m->notes ? m->notes : "", line);
	free(line);
	free(m->notes);
	m->notes = all;
}

/*
 * The socket index for obj (a core or a PU), adding sockets as
 * packages are met; pkgs maps package logical indexes to sockets.
 */
static int socket_of(struct pandia_machine *m, hwloc_topology_t topo,
		     hwloc_obj_t obj, int *pkgs, int *nopkg)
{
	hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo,
						HWLOC_OBJ_PACKAGE, obj);
	int *slot = pkg ? &pkgs[pkg->logical_index] : nopkg, i;

	if (*slot >= 0)
		return *slot;
	i = m->n_sockets;
	m->sockets = xrealloc(m->sockets,
			      sizeof(*m->sockets) * (size_t)(i + 1));
	memset(&m->sockets[i], 0, sizeof(m->sockets[i]));
	m->sockets[i].os_index = pkg && pkg->os_index != HWLOC_UNKNOWN_INDEX ?
		(int)pkg->os_index : i;
	m->n_sockets++;
	*slot = i;
	return i;
}

/*
 * Cores: hwloc Core objects, or each PU where the topology has no core
 * level.  A core keeps the PUs hwloc left in it (allowed, online).
 * Linear in the PUs: each PU finds its core among its ancestors (a
 * search of every PU per core was quadratic: 74 s on 32,768 PUs).
 */
static void load_cores(struct pandia_machine *m, hwloc_topology_t topo,
		       hwloc_obj_t **core_objs)
{
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;
	int n, i, p, nopkg = -1, *count, *index, *pkgs, npkg;

	n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	if (n <= 0) {
		type = HWLOC_OBJ_PU;
		n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	}
	npkg = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	pkgs = xmalloc(sizeof(int) * (size_t)(npkg > 0 ? npkg : 1));
	for (i = 0; i < npkg; i++)
		pkgs[i] = -1;
	count = xcalloc((size_t)n + 1, sizeof(int));
	index = xcalloc((size_t)n + 1, sizeof(int));
	*core_objs = xcalloc((size_t)n + 1, sizeof(**core_objs));
	m->cores = xcalloc((size_t)n + 1, sizeof(*m->cores));
	/* the core of each PU, by the core's logical index */
	for (i = 0; i < hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU); i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU,
						       (unsigned)i);
		hwloc_obj_t co = type == HWLOC_OBJ_PU ? pu :
			hwloc_get_ancestor_obj_by_type(topo, type, pu);

		p = machine_pu_index(m, (int)pu->os_index);
		if (p < 0 || m->pus[p].core >= 0 || !co ||
		    co->logical_index >= (unsigned)n)
			continue;
		m->pus[p].core = (int)co->logical_index;
		count[co->logical_index]++;
	}
	for (i = 0; i < n; i++) {
		hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type,
							(unsigned)i);
		struct pandia_core *c = &m->cores[m->n_cores];

		index[i] = -1;
		if (!count[i])
			continue;
		c->cache[0] = c->cache[1] = c->cache[2] = -1;
		c->numa = -1;
		c->pus = xcalloc((size_t)count[i], sizeof(int));
		c->socket = socket_of(m, topo, obj, pkgs, &nopkg);
		(*core_objs)[m->n_cores] = obj;
		index[i] = m->n_cores++;
	}
	/* pus[] is sorted by OS index, so each core's list is too */
	for (p = 0; p < m->n_pus; p++) {
		struct pandia_core *c;

		if (m->pus[p].core < 0)
			continue;
		m->pus[p].core = index[m->pus[p].core];
		c = &m->cores[m->pus[p].core];
		c->pus[c->n_pus++] = p;
	}
	for (i = 0; i < m->n_sockets; i++)
		m->sockets[i].cores = xcalloc((size_t)m->n_cores + 1,
					      sizeof(int));
	for (i = 0; i < m->n_cores; i++) {
		struct pandia_socket *so = &m->sockets[m->cores[i].socket];

		so->cores[so->n_cores++] = i;
	}
	free(pkgs);
	free(count);
	free(index);
}

/* How far apart two objects are in the tree: the depth below their
   deepest common ancestor (smaller is nearer). */
static int tree_distance(hwloc_topology_t topo, hwloc_obj_t a, hwloc_obj_t b)
{
	hwloc_obj_t c;
	int d = 0;

	/* a memory object has no depth of its own: from its parent */
	while (b && b->depth < 0 && b->parent)
		b = b->parent;
	c = hwloc_get_common_ancestor_obj(topo, a, b);

	for (; a && a != c; a = a->parent)
		d++;
	for (; b && b != c; b = b->parent)
		d++;
	return d;
}

/*
 * NUMA nodes as they are: a node's cores are those its cpuset covers;
 * its socket is theirs when they share one (whatever object hwloc hangs
 * it under: a package, a group or die inside it, the machine on one
 * socket), else -1 (a node over several sockets, or a node with no core
 * outside every package).  A core's node is the nearest node with
 * memory that covers it; a core that none covers (its own node excluded
 * by the cpuset) takes the nearest node with memory elsewhere, as the
 * kernel's fallback does, and its memory is remote.
 */
static void load_numa(struct pandia_machine *m, hwloc_topology_t topo,
		      hwloc_obj_t *core_objs)
{
	int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE), i, j;
	int *best_weight, *where, known = 0, unknown = 0;
	hwloc_obj_t *node_objs;

	m->numa = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*m->numa));
	node_objs = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*node_objs));
	best_weight = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	where = xcalloc((size_t)m->n_sockets + 1, sizeof(int));
	for (i = 0; i < n; i++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(topo,
					HWLOC_OBJ_NUMANODE, (unsigned)i);

		if (node->attr && node->attr->numanode.local_memory > 0)
			known++;
		else
			unknown++;
	}
	/* no size anywhere: sizes unknown; else a node without one is
	   memoryless (as Linux reports one) */
	if (n > 0 && !known)
		note(m, "hwloc gives no memory size for %s%.0d NUMA "
		     "node%s: described with memory_bytes null (size "
		     "unknown), each node still holding its cores' memory",
		     n == 1 ? "the" : "any of the ", n == 1 ? 0 : n,
		     n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(topo,
					HWLOC_OBJ_NUMANODE, (unsigned)i);
		struct pandia_numa *nd = &m->numa[m->n_numa];
		int w, s = -2;

		nd->os_index = (int)node->os_index;
		nd->memory = node->attr ? node->attr->numanode.local_memory : 0;
		nd->memory_unknown = !known;
		if (known && !nd->memory)
			note(m, "NUMA node %d has no memory size in the "
			     "topology: described as memoryless (0 bytes)",
			     nd->os_index);
		nd->cores = xcalloc((size_t)m->n_cores + 1, sizeof(int));
		w = node->cpuset ? hwloc_bitmap_weight(node->cpuset) : 0;
		for (j = 0; node->cpuset && j < m->n_cores; j++) {
			if (!hwloc_bitmap_isincluded(core_objs[j]->cpuset,
						     node->cpuset))
				continue;
			nd->cores[nd->n_cores++] = j;
			s = s == -2 || s == m->cores[j].socket ?
				m->cores[j].socket : -1;
			/* the most local node with memory is the core's */
			if (NUMA_HAS_MEMORY(nd) && (m->cores[j].numa < 0 ||
					       w < best_weight[j])) {
				m->cores[j].numa = m->n_numa;
				best_weight[j] = w;
			}
		}
		if (s == -2) {
			/* no core: the package it hangs under, if any */
			hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo,
						HWLOC_OBJ_PACKAGE, node);

			s = m->n_sockets == 1 ? 0 : -1;
			for (j = 0; pkg && j < m->n_cores; j++)
				if (hwloc_get_ancestor_obj_by_type(topo,
					HWLOC_OBJ_PACKAGE, core_objs[j]) == pkg)
					s = m->cores[j].socket;
		}
		nd->socket = s;
		node_objs[m->n_numa] = node;
		m->n_numa++;
	}
	if (!m->n_numa) {
		/* no NUMA object at all: one node with every core */
		m->numa[0].socket = m->n_sockets == 1 ? 0 : -1;
		m->numa[0].memory_unknown = true;
		m->numa[0].cores = xcalloc((size_t)m->n_cores + 1,
					   sizeof(int));
		for (j = 0; j < m->n_cores; j++) {
			m->numa[0].cores[m->numa[0].n_cores++] = j;
			m->cores[j].numa = 0;
		}
		m->n_numa = 1;
	}
	/* cores that no node with memory covers: the nearest one */
	for (j = 0; j < m->n_cores; j++) {
		int best = -1, bd = 0;

		if (m->cores[j].numa >= 0 || !node_objs[0])
			continue;
		for (i = 0; i < m->n_numa; i++) {
			int d;

			if (!NUMA_HAS_MEMORY(&m->numa[i]))
				continue;
			d = tree_distance(topo, core_objs[j], node_objs[i]);
			if (best < 0 || d < bd) {
				best = i;
				bd = d;
			}
		}
		m->cores[j].numa = best;
		if (best >= 0 && !where[m->cores[j].socket]++)
			note(m, "socket %d has cores with no NUMA node of "
			     "their own (excluded by the cpuset?): their "
			     "memory is on node %d, across the interconnect",
			     m->sockets[m->cores[j].socket].os_index,
			     m->numa[best].os_index);
	}
	free(node_objs);
	free(best_weight);
	free(where);
}

/*
 * Data and unified caches that hold at least one core, in the order
 * (level, hwloc logical index); each core finds its caches among its
 * ancestors, in time linear in the cores.
 */
static void load_caches(struct pandia_machine *m, hwloc_topology_t topo,
			hwloc_obj_t *core_objs)
{
	static const hwloc_obj_type_t types[3] = {
		HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE
	};
	int k, i, j, total = 0, nk[3], *idx[3];

	for (k = 0; k < 3; k++) {
		nk[k] = hwloc_get_nbobjs_by_type(topo, types[k]);
		if (nk[k] < 0)
			nk[k] = 0;
		idx[k] = xcalloc((size_t)nk[k] + 1, sizeof(int));
	}
	/* which caches hold a core (1), and each core's (by logical) */
	for (j = 0; j < m->n_cores; j++) {
		hwloc_obj_t o;

		for (o = core_objs[j]; o; o = o->parent)
			for (k = 0; k < 3; k++)
				if (o->type == types[k] && o->attr &&
				    o->attr->cache.type !=
				    HWLOC_OBJ_CACHE_INSTRUCTION &&
				    o->attr->cache.size > 0) {
					idx[k][o->logical_index] = 1;
					m->cores[j].cache[k] =
						(int)o->logical_index;
				}
	}
	for (k = 0; k < 3; k++)
		for (i = 0; i < nk[k]; i++)
			total += idx[k][i];
	m->caches = xcalloc((size_t)total + 1, sizeof(*m->caches));
	for (k = 0; k < 3; k++)
		for (i = 0; i < nk[k]; i++) {
			hwloc_obj_t c;
			struct pandia_cache *ca;

			if (!idx[k][i]) {
				idx[k][i] = -1;
				continue;
			}
			c = hwloc_get_obj_by_type(topo, types[k], (unsigned)i);
			ca = &m->caches[m->n_caches];
			ca->level = k + 1;
			ca->size = c->attr->cache.size;
			idx[k][i] = m->n_caches++;
		}
	for (j = 0; j < m->n_cores; j++)
		for (k = 0; k < 3; k++) {
			struct pandia_cache *ca;
			int *c = &m->cores[j].cache[k];

			if (*c < 0)
				continue;
			*c = idx[k][*c];
			ca = &m->caches[*c];
			ca->cores = xrealloc(ca->cores, sizeof(int) *
					     (size_t)(ca->n_cores + 1));
			ca->cores[ca->n_cores++] = j;
		}
	for (k = 0; k < 3; k++)
		free(idx[k]);
}

/*
 * Core J's PUs in SET: all (1), none (0), or some (-1: the core mixes
 * kinds).
 */
static int core_in_kind(const struct pandia_machine *m, int j,
			hwloc_const_bitmap_t set)
{
	int q, in = 0;

	for (q = 0; q < m->cores[j].n_pus; q++)
		in += hwloc_bitmap_isset(set, (unsigned)m->pus[
						 m->cores[j].pus[q]].os_index);
	return in == m->cores[j].n_pus ? 1 : in ? -1 : 0;
}

/*
 * Hybrid machines: hwloc's CPU kinds (lower efficiency first), those
 * that hold a core kept; every core gets the kind of its PUs.  One
 * kind (or none reported) leaves n_kinds 0; so do kinds that leave a
 * core out or split one, said in a note (described as one kind).
 */
static void load_kinds(struct pandia_machine *m, hwloc_topology_t topo)
{
	int nr = hwloc_cpukinds_get_nr(topo, 0), i, j, *map, mixed = -1;
	hwloc_bitmap_t set;

	if (nr < 2)
		return;
	set = hwloc_bitmap_alloc();
	map = xcalloc((size_t)nr, sizeof(int));
	m->kinds = xcalloc((size_t)nr, sizeof(*m->kinds));
	for (j = 0; j < m->n_cores; j++)
		m->cores[j].kind = -1;
	for (i = 0; i < nr; i++) {
		struct pandia_kind *k = &m->kinds[m->n_kinds];
		struct hwloc_info_s *infos = NULL;
		unsigned ninfos = 0, q;
		int eff = -1, used = 0;

		map[i] = -1;
		if (hwloc_cpukinds_get_info(topo, (unsigned)i, set, &eff,
					    &ninfos, &infos, 0) < 0)
			continue;
		for (j = 0; j < m->n_cores && mixed < 0; j++) {
			int in = core_in_kind(m, j, set);

			if (in < 0)
				mixed = j;
			else if (in && m->cores[j].kind < 0) {
				m->cores[j].kind = m->n_kinds;
				used++;
			}
		}
		if (!used)
			continue;
		memset(k, 0, sizeof(*k));
		k->efficiency = eff;
		for (q = 0; q < ninfos; q++) {
			if (!strcmp(infos[q].name, "FrequencyMaxMHz"))
				k->freq_max = atof(infos[q].value);
			else if (!strcmp(infos[q].name, "FrequencyBaseMHz"))
				k->freq_base = atof(infos[q].value);
		}
		map[i] = m->n_kinds++;
	}
	for (j = 0; j < m->n_cores; j++)
		if (m->cores[j].kind < 0)
			break;
	if (mixed >= 0) {
		int os[2] = { m->pus[m->cores[mixed].pus[0]].os_index,
			      m->pus[m->cores[mixed].pus[1]].os_index };

		note(m, "hwloc's CPU kinds split core %d (PUs %d and %d "
		     "and maybe more) between kinds: described as one kind",
		     mixed, os[0], os[1]);
	} else if (j < m->n_cores)
		note(m, "hwloc's CPU kinds leave core %d (PU %d) out: "
		     "described as one kind", j,
		     m->pus[m->cores[j].pus[0]].os_index);
	if (mixed >= 0 || j < m->n_cores || m->n_kinds < 2) {
		for (j = 0; j < m->n_cores; j++)
			m->cores[j].kind = 0;
		free(m->kinds);
		m->kinds = NULL;
		m->n_kinds = 0;
	}
	free(map);
	hwloc_bitmap_free(set);
}

void topology_add_cache(struct pandia_machine *m, int level,
			unsigned long long size)
{
	int i, j;

	for (i = 0; i < m->n_caches; i++)
		if (m->caches[i].level == level)
			return;
	if (level == 3) {
		for (i = 0; i < m->n_sockets; i++) {
			struct pandia_cache *ca;

			m->caches = xrealloc(m->caches, sizeof(*m->caches) *
					     (size_t)(m->n_caches + 1));
			ca = &m->caches[m->n_caches];
			memset(ca, 0, sizeof(*ca));
			ca->level = 3;
			ca->size = size;
			for (j = 0; j < m->sockets[i].n_cores; j++) {
				int c = m->sockets[i].cores[j];

				push(&ca->cores, &ca->n_cores, c);
				m->cores[c].cache[2] = m->n_caches;
			}
			m->n_caches++;
		}
		return;
	}
	m->caches = xrealloc(m->caches, sizeof(*m->caches) *
			     (size_t)(m->n_caches + m->n_cores));
	for (i = 0; i < m->n_cores; i++) {
		struct pandia_cache *ca;

		ca = &m->caches[m->n_caches];
		memset(ca, 0, sizeof(*ca));
		ca->level = level;
		ca->size = size;
		push(&ca->cores, &ca->n_cores, i);
		m->cores[i].cache[level - 1] = m->n_caches;
		m->n_caches++;
	}
}

static void host_identity(struct pandia_machine *m, hwloc_topology_t topo)
{
	char host[256] = "";
	struct utsname u;
	hwloc_obj_t pkg;
	const char *model = NULL;

	if (gethostname(host, sizeof(host) - 1) == 0)
		m->host = xstrdup(host);
	if (uname(&u) == 0)
		m->kernel = xasprintf("%s %s", u.sysname, u.release);
	pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
	if (pkg)
		model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
	if (!model)
		model = hwloc_obj_get_info_by_name(
			hwloc_get_root_obj(topo), "CPUModel");
	m->cpu_model = squeeze_blanks(xstrdup(model ? model : "unknown"));
}

/* Restrict this host's topology to the CPUs this process may run on. */
static int restrict_to_binding(hwloc_topology_t topo,
			       struct pandia_error *err)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int ret = 0;

	if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 &&
	    !hwloc_bitmap_iszero(set) &&
	    !hwloc_bitmap_isincluded(hwloc_topology_get_topology_cpuset(topo),
				     set)) {
		if (hwloc_topology_restrict(topo, set,
				HWLOC_RESTRICT_FLAG_REMOVE_CPULESS) < 0)
			ret = perr_errno(err, "cannot restrict the topology "
					 "to this process's CPUs");
	}
	hwloc_bitmap_free(set);
	return ret;
}

int topology_load(struct pandia_machine *m, const char *spec,
		  struct pandia_error *err)
{
	hwloc_topology_t topo;
	hwloc_obj_t *core_objs = NULL;
	struct stat st;
	int ret = -1;

	if (hwloc_topology_init(&topo) < 0)
		return perr_errno(err, "cannot initialise hwloc");
	if (spec && stat(spec, &st) == 0) {
		if (hwloc_topology_set_xml(topo, spec) < 0) {
			perr_errno(err, "cannot read hwloc XML '%s'", spec);
			goto out_destroy;
		}
		m->topology_source = xstrdup(spec);
	} else if (spec) {
		if (strstr(spec, ".xml") || strchr(spec, '/')) {
			errno = ENOENT;
			perr_errno(err, "cannot open '%s'", spec);
			goto out_destroy;
		}
		if (hwloc_topology_set_synthetic(topo, spec) < 0) {
			perr_set(err, "'%s' is neither a file nor a valid hwloc "
				 "synthetic topology (such as 'pack:2 core:18 "
				 "pu:2')", spec);
			goto out_destroy;
		}
		m->topology_source = xasprintf("synthetic: %s", spec);
	} else {
		m->topology_source = xstrdup("this host");
	}
	if (hwloc_topology_load(topo) < 0) {
		perr_errno(err, "hwloc cannot load the topology%s%s",
			   spec ? " of " : "", spec ? spec : "");
		goto out_destroy;
	}
	if (!spec) {
		if (restrict_to_binding(topo, err) < 0)
			goto out_destroy;
		host_identity(m, topo);
	} else {
		/* an XML file may say its CPU model; a synthetic string
		   cannot */
		hwloc_obj_t pkg = hwloc_get_obj_by_type(topo,
						HWLOC_OBJ_PACKAGE, 0);
		const char *model = pkg ? hwloc_obj_get_info_by_name(pkg,
						"CPUModel") : NULL;

		if (model)
			m->cpu_model = squeeze_blanks(xstrdup(model));
	}
	load_pus(m, topo);
	if (!m->n_pus) {
		perr_set(err, "the topology has no usable PU");
		goto out_destroy;
	}
	load_cores(m, topo, &core_objs);
	load_numa(m, topo, core_objs);
	load_caches(m, topo, core_objs);
	load_kinds(m, topo);
	ret = 0;
out_destroy:
	free(core_objs);
	hwloc_topology_destroy(topo);
	return ret;
}
