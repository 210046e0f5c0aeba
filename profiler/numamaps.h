/*
 * numamaps.h - where a workload's pages are, from /proc/PID/numa_maps
 * (proc(5)): each mapping's policy and its pages per node, and the
 * memory policy of the model (docs/model.md) that they show.
 *
 * A line of numa_maps:
 *   7f2c3a400000 interleave:0-1 anon=2048 dirty=2048 N0=1024 N1=1024
 *   kernelpagesize_kB=4
 * (one line; several processes' files may follow each other, each
 * after a line "# pid N", as the runner keeps them).
 *
 * Library code: nothing here prints; errors go to struct pandia_error.
 */
#ifndef PANDIA_PROFILER_NUMAMAPS_H
#define PANDIA_PROFILER_NUMAMAPS_H

#include <stdbool.h>

#include "common/error.h"

#define NM_MAX_NODES 64		/* node OS indexes 0..63 */

/* How a mapping's pages were placed, as its policy says. */
enum nm_policy {
	NM_POL_DEFAULT,		/* "default", "local": first touch */
	NM_POL_BIND,		/* "bind:NODES" */
	NM_POL_PREFER,		/* "prefer:N", "prefer (many):NODES" */
	NM_POL_INTERLEAVE,	/* "interleave:NODES", weighted too */
};

struct nm_map {
	unsigned long start;	/* its address */
	enum nm_policy policy;
	bool anon;		/* anonymous pages (anon=): data */
	double bytes;		/* its pages on every node, bytes */
	double on[NM_MAX_NODES];	/* bytes per node OS index */
};

/*
 * Parse TEXT into *maps (new array, caller frees) and *n.  Lines that
 * are not mappings ("# pid N", empty) are skipped; a line whose
 * address or policy cannot be read is an error naming its number.
 * Returns 0 or -1 with err.
 */
int numamaps_parse(const char *text, struct nm_map **maps, int *n,
		   struct pandia_error *err);

/* The model's policies, as the pages show them. */
enum nm_kind {
	NM_LOCAL,		/* each thread's own data on its node:
				   one-node mappings spread over nodes */
	NM_SPREAD,		/* shared data first-touched by the
				   threads: a mapping over the nodes */
	NM_INTERLEAVE,		/* interleave policy */
	NM_NODE,		/* one node holds them */
	NM_KINDS
};

/* "local", "spread", "interleave", "node" */
const char *nm_kind_name(enum nm_kind k);

struct nm_found {
	double bytes;		/* anonymous bytes seen */
	double share[NM_KINDS];	/* of bytes; sum 1 when bytes > 0 */
	int node;		/* NM_NODE: the node's OS index */
	enum nm_kind kind;	/* the largest share */
	bool mixed;		/* no share reaches NM_DOMINANT */
};

/* A share at least this large is the policy; below, mixed. */
#define NM_DOMINANT 0.8
/* A mapping with this share of its pages on one node is on that node. */
#define NM_ONE_NODE 0.9

/*
 * What maps[0..n-1] show for a run whose threads used the nodes with
 * IN_USE[os index] true: each anonymous mapping, weighted by its
 * bytes, is interleaved (its policy says so), on one node (at least
 * NM_ONE_NODE of its pages there, with two or more nodes in use), or
 * spread over the nodes (first touch by threads on several).  One-node
 * mappings on different nodes are each thread's own data: when no
 * node holds NM_DOMINANT of them they count as local, else as that
 * node's.  Returns 0, or -1 with err when no anonymous page was seen.
 */
int numamaps_classify(const struct nm_map *maps, int n, const bool *in_use,
		      struct nm_found *out, struct pandia_error *err);

#endif
