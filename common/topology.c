/*
 * topology.c - the machine's topology from hwloc: this host, an XML
 * file or a synthetic string.
 */
#include "common/topology.h"

#include <errno.h>
#include <hwloc.h>
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

/* The socket index for obj, adding sockets as packages are met. */
static int socket_of(struct pandia_machine *m, hwloc_topology_t topo,
		     hwloc_obj_t obj, hwloc_obj_t *pkgs)
{
	hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo,
						HWLOC_OBJ_PACKAGE, obj);
	int i;

	for (i = 0; i < m->n_sockets; i++)
		if (pkgs[i] == pkg)
			return i;
	m->sockets = xrealloc(m->sockets,
			      sizeof(*m->sockets) * (size_t)(i + 1));
	memset(&m->sockets[i], 0, sizeof(m->sockets[i]));
	m->sockets[i].os_index = pkg && pkg->os_index != HWLOC_UNKNOWN_INDEX ?
		(int)pkg->os_index : i;
	pkgs[i] = pkg;
	m->n_sockets++;
	return i;
}

/*
 * Cores: hwloc Core objects, or each PU where the topology has no core
 * level.  A core keeps the PUs hwloc left in it (allowed, online).
 */
static void load_cores(struct pandia_machine *m, hwloc_topology_t topo,
		       hwloc_obj_t **core_objs)
{
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;
	int n, i, j;
	hwloc_obj_t *pkgs;

	n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	if (n <= 0) {
		type = HWLOC_OBJ_PU;
		n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	}
	pkgs = xcalloc((size_t)n + 1, sizeof(*pkgs));
	*core_objs = xcalloc((size_t)n, sizeof(**core_objs));
	m->cores = xcalloc((size_t)n, sizeof(*m->cores));
	for (i = 0; i < n; i++) {
		hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type,
							(unsigned)i);
		struct pandia_core *c = &m->cores[m->n_cores];
		hwloc_obj_t pu = NULL;

		if (!obj->cpuset || hwloc_bitmap_iszero(obj->cpuset))
			continue;
		c->cache[0] = c->cache[1] = c->cache[2] = -1;
		c->numa = -1;
		while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topo,
				obj->cpuset, HWLOC_OBJ_PU, pu))) {
			int p = machine_pu_index(m, (int)pu->os_index);

			if (p < 0 || m->pus[p].core >= 0)
				continue;
			m->pus[p].core = m->n_cores;
			push(&c->pus, &c->n_pus, p);
		}
		if (!c->n_pus)
			continue;
		/* pus[] sorted by OS index: keep each core's list so too */
		for (j = 1; j < c->n_pus; j++) {
			int k = j, t = c->pus[j];

			while (k > 0 && c->pus[k - 1] > t) {
				c->pus[k] = c->pus[k - 1];
				k--;
			}
			c->pus[k] = t;
		}
		c->socket = socket_of(m, topo, obj, pkgs);
		push(&m->sockets[c->socket].cores,
		     &m->sockets[c->socket].n_cores, m->n_cores);
		(*core_objs)[m->n_cores] = obj;
		m->n_cores++;
	}
	free(pkgs);
}

static void load_numa(struct pandia_machine *m, hwloc_topology_t topo,
		      hwloc_obj_t *core_objs)
{
	int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE), i, j;
	int *best_weight;

	m->numa = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*m->numa));
	best_weight = xcalloc((size_t)m->n_cores, sizeof(int));
	for (i = 0; i < n; i++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(topo,
					HWLOC_OBJ_NUMANODE, (unsigned)i);
		struct pandia_numa *nd = &m->numa[m->n_numa];
		hwloc_obj_t pkg;

		nd->os_index = (int)node->os_index;
		nd->memory = node->attr ? node->attr->numanode.local_memory : 0;
		nd->socket = -1;
		pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE,
						     node);
		for (j = 0; j < m->n_cores; j++) {
			hwloc_obj_t core = core_objs[j];
			int w;

			if (!node->cpuset ||
			    !hwloc_bitmap_isincluded(core->cpuset,
						     node->cpuset))
				continue;
			push(&nd->cores, &nd->n_cores, j);
			if (pkg)
				nd->socket = m->cores[j].socket;
			/* the most local node with memory is the core's */
			w = hwloc_bitmap_weight(node->cpuset);
			if (nd->memory > 0 && (m->cores[j].numa < 0 ||
					       w < best_weight[j])) {
				m->cores[j].numa = m->n_numa;
				best_weight[j] = w;
			}
		}
		m->n_numa++;
	}
	if (!m->n_numa) {
		/* no NUMA object at all: one node with every core */
		m->numa[0].socket = m->n_sockets == 1 ? 0 : -1;
		for (j = 0; j < m->n_cores; j++) {
			push(&m->numa[0].cores, &m->numa[0].n_cores, j);
			m->cores[j].numa = 0;
		}
		m->n_numa = 1;
	}
	free(best_weight);
}

static void load_caches(struct pandia_machine *m, hwloc_topology_t topo,
			hwloc_obj_t *core_objs)
{
	static const hwloc_obj_type_t types[3] = {
		HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE
	};
	int k, i, j;

	for (k = 0; k < 3; k++) {
		int n = hwloc_get_nbobjs_by_type(topo, types[k]);

		for (i = 0; i < n; i++) {
			hwloc_obj_t c = hwloc_get_obj_by_type(topo, types[k],
							      (unsigned)i);
			struct pandia_cache *ca;

			if (c->attr && c->attr->cache.type ==
			    HWLOC_OBJ_CACHE_INSTRUCTION)
				continue;
			m->caches = xrealloc(m->caches, sizeof(*m->caches) *
					     (size_t)(m->n_caches + 1));
			ca = &m->caches[m->n_caches];
			memset(ca, 0, sizeof(*ca));
			ca->level = k + 1;
			ca->size = c->attr ? c->attr->cache.size : 0;
			for (j = 0; j < m->n_cores; j++) {
				if (!hwloc_bitmap_intersects(c->cpuset,
						core_objs[j]->cpuset))
					continue;
				push(&ca->cores, &ca->n_cores, j);
				m->cores[j].cache[k] = m->n_caches;
			}
			if (!ca->n_cores || !ca->size) {
				/* a cache of disallowed cores only, or one
				 * of unknown size: leave it out */
				for (j = 0; j < ca->n_cores; j++)
					m->cores[ca->cores[j]].cache[k] = -1;
				free(ca->cores);
				continue;
			}
			m->n_caches++;
		}
	}
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
	for (i = 0; i < m->n_cores; i++) {
		struct pandia_cache *ca;

		m->caches = xrealloc(m->caches, sizeof(*m->caches) *
				     (size_t)(m->n_caches + 1));
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
	m->cpu_model = xstrdup(model ? model : "unknown");
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
	}
	load_pus(m, topo);
	if (!m->n_pus) {
		perr_set(err, "the topology has no usable PU");
		goto out_destroy;
	}
	load_cores(m, topo, &core_objs);
	load_numa(m, topo, core_objs);
	load_caches(m, topo, core_objs);
	ret = 0;
out_destroy:
	free(core_objs);
	hwloc_topology_destroy(topo);
	return ret;
}
