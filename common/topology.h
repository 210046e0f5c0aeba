/*
 * topology.h - the machine's topology from hwloc.
 *
 * Fills the topology part of a struct pandia_machine (pus, cores,
 * sockets, numa, caches and each core's cache indexes) from
 *   - this host, restricted to the CPUs this process may use (the
 *     cgroup cpuset and the affinity mask), SPEC == NULL;
 *   - an hwloc XML file, SPEC naming an existing file;
 *   - an hwloc synthetic string such as "pack:2 core:18 pu:2".
 * Offline and disallowed PUs are left out; memoryless NUMA nodes are
 * kept with memory 0, and when no node has a size all are of unknown
 * size (memory_unknown); a node's socket is its cores' (whatever hwloc
 * hangs it under); a core whose node the cpuset excludes takes the
 * nearest node with memory; hwloc's CPU kinds give each core a kind
 * (rates left 0 for the caller); sockets with fewer cores are
 * described as they are.  Cache levels hwloc does not report get cache
 * index -1 (and sizes from the caller's assumptions, see
 * topology_add_cache()).  What needed a reading is in m->notes, for
 * the command to show as warnings.  Time and memory are linear in the
 * PUs (32,768 PUs in about two seconds).
 */
#ifndef PANDIA_TOPOLOGY_H
#define PANDIA_TOPOLOGY_H

#include "common/error.h"
#include "common/machine.h"

/*
 * Load the topology named by SPEC into m (which must be empty, as from
 * machine_new()).  Sets m->topology_source; for this host also
 * m->host, m->cpu_model and m->kernel.  Returns 0 or -1.
 */
int topology_load(struct pandia_machine *m, const char *spec,
		  struct pandia_error *err);

/*
 * For topologies without cache objects (plain synthetic strings):
 * add one cache of LEVEL (1..3) and SIZE bytes per core (levels 1, 2)
 * or per socket (level 3).  No-op when the level exists already.
 */
void topology_add_cache(struct pandia_machine *m, int level,
			unsigned long long size);

#endif
