/*
 * space.h - the placement space of a machine, up to its symmetry.
 *
 * Two placements that differ only by swapping identical cores within a
 * socket, identical sockets, or PUs within a core are the same
 * canonical placement (docs/model.md, "Canonical placements"):
 *
 *   - a core state is how many threads each PU of one core runs,
 *     sorted (the PUs of a core are interchangeable): (1,0), (1,1),
 *     and with --oversubscribe 2 also (2,0), (2,1), (2,2);
 *   - a core group is a set of interchangeable cores of one socket
 *     (same PU count, NUMA node and shared caches); a group state
 *     says how many of its cores are in each core state;
 *   - a socket state is the state of each of its core groups;
 *   - a socket class is a set of interchangeable sockets (same shape,
 *     a symmetric interconnect, same role for the memory policy); a
 *     canonical placement gives a multiset of socket states per class.
 *
 * A machine that is not symmetric (offline PUs, uneven sockets, an
 * asymmetric interconnect, shared L2 clusters) gets more groups and
 * classes, down to one core per group and one socket per class.
 *
 * A canonical placement is stored as a vector of state indexes, one
 * per socket "slot": slots of a class are consecutive and hold
 * non-increasing state indexes (state 0 is the empty socket).
 *
 * Ownership: a struct space owns everything it points to and borrows
 * the machine, which must outlive it.
 */
#ifndef PANDIA_PREDICTOR_SPACE_H
#define PANDIA_PREDICTOR_SPACE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"

#define SPACE_MAX_SMT 8		/* PUs per core we can describe */
#define SPACE_MAX_K 15		/* threads per PU (--oversubscribe) */

struct core_state {
	unsigned char n_pus;
	unsigned char pus_used;	/* PUs with at least one thread */
	unsigned short threads;
	unsigned char cnt[SPACE_MAX_SMT];	/* per PU, descending */
};

struct core_group {
	int socket;		/* index into m->sockets */
	int n_cores;
	int *cores;		/* m->cores indexes, ascending */
	int n_pus;		/* PUs of each of its cores */
	int numa;		/* m->numa index, or -1 */
	int kind;		/* m->kinds index (0: one kind) */
	int shared[3];		/* L1..L3: cache index when shared by
				   several cores, else -1 */
};

/*
 * Some cores of one core group, all in the same core state.  In
 * canonical socket states core is -1: the items of a group take its
 * cores in order.  Explicit placements name the core, and pupos maps
 * the sorted positions of cs.cnt to the core's PUs.
 */
struct sitem {
	unsigned short gpos;	/* group position within the socket */
	unsigned short ncores;
	int core;		/* m->cores index, or -1 */
	struct core_state cs;
	unsigned char pupos[SPACE_MAX_SMT];
};

struct sstate {
	int threads, cores;
	int n_items;
	int item0;		/* first item in the class's items[] */
};

struct sclass {
	int n_sockets;
	int *sockets;		/* m->sockets indexes, in slot order */
	int slot0;		/* its first slot */
	int n_states;
	struct sstate *states;	/* [0] is the empty socket */
	int n_items;
	struct sitem *items;
};

struct space {
	const struct pandia_machine *m;	/* borrowed */
	int k;			/* threads per PU at most */
	struct pandia_mempolicy mem;
	int mem_node;		/* m->numa index for MEM_NODE, else -1 */

	int n_groups;
	struct core_group *groups;
	int *sock_group0;	/* per socket: its first group */
	int *sock_ngroups;	/* per socket: its number of groups */

	int n_classes;
	struct sclass *classes;
	int n_slots;		/* == m->n_sockets */
	int *slot_class;	/* per slot */

	double *pair_bw;	/* n_sockets^2, bytes/s; 0: no link */
	bool *memnode;		/* per NUMA node: takes interleaving */
	int n_memnodes;
	int *sock_memnodes;	/* per socket: memory nodes on it */
	bool *offnode;		/* per NUMA node: memory on no socket that
				   no core has as its own (a memory-only
				   node): reached over the interconnect */
	int *remote_users;	/* per NUMA node: cores of other sockets
				   that have it as their own */
	bool local_nosocket;	/* some core's own node is on no socket
				   (one node for several sockets), or it
				   has none */
	bool remote_local;	/* some core's own node is on another
				   socket (its node excluded by the cpuset):
				   its local pages cross the interconnect */

	char *symmetry_note;	/* why symmetry was reduced, or NULL */
};

/*
 * The space of machine m with at most K threads per PU and memory
 * policy MEM.  Returns NULL with err when the machine cannot be
 * described (no PUs, more than SPACE_MAX_SMT PUs per core, a NUMA
 * node that does not exist, too many socket states).  New object.
 */
struct space *space_new(const struct pandia_machine *m, int k,
			const struct pandia_mempolicy *mem,
			struct pandia_error *err);
void space_free(struct space *sp);

/*
 * Whether every thread of every placement of sp is in the same
 * position: at most one thread per PU, one socket, and one core group
 * of one-PU cores (the same caches, NUMA node and kind of core).  The
 * threads of a placement then never differ in speed, so a parameter
 * that acts only between unequal threads (the Pandia model's l)
 * changes no placement's time.
 */
bool space_threads_alike(const struct space *sp);

/* The number of canonical placements (at least one thread). */
struct space_count {
	unsigned __int128 n;
	bool overflow;		/* n is a lower bound */
};
struct space_count space_count_all(const struct space *sp);
/*
 * The placements space_enumerate(sp, 0, LAYOUTS, ...) visits, by
 * arithmetic (no enumeration): per class, sum over d <= LAYOUTS of
 * C(states - 1, d) x C(sockets, d).  LAYOUTS 0: space_count_all().
 */
struct space_count space_count_layouts(const struct space *sp, int layouts);
/*
 * The same for the placements of exactly THREADS threads (> 0), as a
 * double (exact below 2^53; saturates at 1e300), by dynamic
 * programming over thread counts.  -1 when LAYOUTS is 0 and that count
 * would take long (more than about a second), or LAYOUTS is above 2
 * (not supported): take it as too many.
 */
double space_count_threads(const struct space *sp, int threads, int layouts);
/* Format a count in decimal ("1503671219791486199"). */
const char *space_count_format(struct space_count c, char *buf, int size);

/*
 * Call FN for every canonical placement with THREADS threads (0: any
 * number), in a fixed order.  With MAX_LAYOUTS > 0 only placements in
 * which the used sockets of each class take at most MAX_LAYOUTS
 * distinct socket states (the reduced space for machines whose full
 * space is too large to rank).  FN returns 0 to go on, or non-zero to
 * stop, which is then returned.  st is valid during the call only.
 */
typedef int (*space_visit_fn)(const struct space *sp, const uint16_t *st,
			      void *arg);
int space_enumerate(const struct space *sp, int threads, int max_layouts,
		    space_visit_fn fn, void *arg);

/* Threads, cores and sockets used by placement st. */
void space_usage(const struct space *sp, const uint16_t *st, int *threads,
		 int *cores, int *sockets);

/*
 * The PUs of placement st, one per thread, as m->pus indexes (not OS
 * indexes), ascending (so by OS index).  *pus is a new array;
 * returns the thread count.
 */
int space_pus(const struct space *sp, const uint16_t *st, int **pus);

/*
 * The canonical form of an explicit placement (m->pus indexes), when
 * it fits the space (no PU above k threads); returns 0, or -1 when a
 * socket's state is not in the space.  st has n_slots entries.
 */
int space_canonical(const struct space *sp, const int *pus, int n,
		    uint16_t *st);

/* The core state of per-PU counts CNT[0..n_pus) (sorted copy). */
void core_state_of(struct core_state *cs, const int *cnt, int n_pus,
		   unsigned char *pupos);

#endif
