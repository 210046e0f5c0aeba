/*
 * machine.h - the machine description (pandia-machine/1) in memory.
 *
 * Indexes: pus[], cores[], sockets[], numa[] and caches[] refer to one
 * another by position in these arrays (dense, 0-based).  Only a PU's
 * os_index is ever shown to users; it is the number taskset takes.
 *
 * Ownership: a struct pandia_machine owns every array and string it
 * points to; machine_free() releases them all.
 */
#ifndef PANDIA_MACHINE_H
#define PANDIA_MACHINE_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"

#define PANDIA_MACHINE_SCHEMA "pandia-machine/1"

enum pandia_level {
	LVL_L1,
	LVL_L2,
	LVL_L3,
	LVL_DRAM,
	LVL_INTERCONNECT,
	LVL_COUNT
};

/* "L1", "L2", "L3", "dram", "interconnect" */
const char *level_name(enum pandia_level level);
/* The level for NAME, or -1. */
int level_from_name(const char *name);

/* How one figure was obtained.  Strings are owned (may be NULL). */
struct pandia_measure {
	char *kernel;		/* "load", "load_store", "int_chains",
				   "assumed", ... */
	double working_set;	/* bytes per thread; 0 when none */
	int threads;		/* threads that ran the kernel */
	char *pus;		/* OS PU list they ran on; NULL if none */
	int repetitions;	/* 0 when not measured */
	double best;		/* best repetition (the figure kept) */
	double median;		/* median repetition */
	double spread;		/* (max - min) / median; 0 if one rep */
	char *unit;		/* "bytes/s" or "ops/s" */
	char *note;		/* source of an assumed figure, caveats */
};

struct pandia_pu {
	int os_index;		/* what taskset and numactl take */
	int core;		/* index into cores[] */
};

struct pandia_core {
	int socket;		/* index into sockets[] */
	int numa;		/* index into numa[]: the node its local
				   allocations go to: the nearest node with
				   memory that covers it, else the nearest
				   one elsewhere (its own excluded by the
				   cpuset); -1 if the machine has none */
	int kind;		/* index into kinds[] (0 when n_kinds is
				   0: one kind) */
	int cache[3];		/* index into caches[] for L1, L2, L3;
				   -1 when the level does not exist */
	int n_pus;
	int *pus;		/* indexes into pus[], ascending */
};

struct pandia_socket {
	int os_index;		/* hwloc package OS index (or position) */
	int n_cores;
	int *cores;		/* indexes into cores[] */
};

/* A point of the core rate's curve between one busy core and all. */
struct pandia_busy {
	int cores;		/* busy cores of the socket */
	double rate;		/* ops/s of each of them */
	struct pandia_measure m;
};

struct pandia_numa {
	int os_index;		/* the node number numactl takes */
	int socket;		/* index into sockets[]; -1 if none */
	unsigned long long memory;	/* bytes; 0 = memoryless node */
	bool memory_unknown;	/* hwloc gave no size: memory 0, but the
				   node holds its cores' memory */
	int n_cores;
	int *cores;		/* cores whose cpuset it covers */
};

/* memory > 0, or a size hwloc did not give: the node holds pages. */
#define NUMA_HAS_MEMORY(n) ((n)->memory > 0 || (n)->memory_unknown)

/*
 * A kind of core on a hybrid machine (hwloc cpukinds), in hwloc's
 * order: lower efficiency (less performance) first.
 */
struct pandia_kind {
	int efficiency;		/* hwloc's rank; -1 when unknown */
	double freq_max;	/* FrequencyMaxMHz; 0 when not given */
	double freq_base;	/* FrequencyBaseMHz; 0 when not given */
	double rate;		/* ops/s of one thread alone on a core of
				   this kind */
	struct pandia_measure m;
};

struct pandia_cache {
	int level;		/* 1, 2 or 3 */
	unsigned long long size;	/* bytes */
	int n_cores;
	int *cores;		/* cores that share this cache instance */
};

/*
 * One level of the memory hierarchy.  per_core_bw: what one core gets
 * alone; aggregate_bw: what the shared structure sustains in total
 * (one L3 instance, one NUMA node's DRAM, one inter-socket link).
 * For a private level aggregate_bw is per_core_bw.
 */
struct pandia_link {
	bool present;		/* false: no such level, or not applicable */
	char *reason;		/* why not present (owned) */
	double per_core_bw;	/* bytes/s */
	double aggregate_bw;	/* bytes/s */
	struct pandia_measure per_core;
	struct pandia_measure aggregate;
};

/*
 * The share of a level the profile's bandwidth probes can take: they
 * "nearly saturate" it when their rate alone reaches this fraction of
 * aggregate_bw (profiler/probe.c; predictor/pandia/ranges.c).
 */
#define PROBE_SATURATE 0.9

/* The link between two sockets, both directions. */
struct pandia_xlink {
	int from, to;		/* indexes into sockets[] */
	double bw;		/* bytes/s */
	struct pandia_measure m;
};

/*
 * The limits of the container or allocation the machine was measured
 * in (the optional "limits" object; docs/machine-format.md): the PUs
 * the process was allowed and the CPU quota its cgroups set.
 */
struct pandia_limits {
	bool present;		/* false: not recorded (older files,
				   described machines) */
	char *allowed;		/* PU list, e.g. "0-1" (owned) */
	double cpu_quota;	/* PUs' time per second; 0: none */
	char *source;		/* where the quota was read (owned), or
				   NULL */
};

struct pandia_machine {
	/* identity (owned strings; NULL when unknown) */
	char *host;
	char *cpu_model;
	char *kernel;
	char *date;		/* ISO 8601, UTC */
	char *version;		/* pandia version that wrote it */
	char *origin;		/* "measured" or "topology" */
	char *topology_source;	/* "this host", a file name, or the
				   synthetic string */
	char *assumptions;	/* the --assume file, when not measured */
	struct pandia_limits limits;

	int n_pus;
	struct pandia_pu *pus;	/* ascending os_index */
	int n_cores;
	struct pandia_core *cores;
	int n_sockets;
	struct pandia_socket *sockets;
	int n_numa;
	struct pandia_numa *numa;
	int n_caches;
	struct pandia_cache *caches;

	/* core: operations/s of one thread alone on a core; 0 when
	   unknown (a topology described without figures), peak_reason
	   then says why (owned; NULL when known) */
	double peak_rate;
	char *peak_reason;
	struct pandia_measure peak;
	/* aggregate of all PUs of one core together; only with SMT */
	bool smt_applicable;
	double smt_rate;
	struct pandia_measure smt;
	char *smt_reason;	/* why not applicable */
	/* the rate of each core while every core of its socket runs
	   (turbo: lower than peak_rate when a lone core clocks higher);
	   0: not measured, no clock change modelled */
	double all_busy_rate;
	struct pandia_measure all_busy;
	/* measured points between one and all busy cores, ascending in
	   cores (only with all_busy_rate); none: linear in between */
	int n_busy;
	struct pandia_busy *busy;

	/* hybrid machines: the kinds of core; 0 (no array) means one
	   kind, of rate peak_rate.  peak_rate is the fastest kind's. */
	int n_kinds;
	struct pandia_kind *kinds;

	struct pandia_link links[LVL_COUNT];
	int n_xlinks;
	struct pandia_xlink *xlinks;	/* one per pair of sockets */

	/* what loading the topology found worth a warning (lines ending
	   in a newline; owned, NULL when none; never written) */
	char *notes;
};

/* A new, empty machine (all counts 0, all cache indexes -1). */
struct pandia_machine *machine_new(void);
/* Release m and everything it owns.  NULL is a no-op. */
void machine_free(struct pandia_machine *m);
void measure_release(struct pandia_measure *ms);

/*
 * Load and validate a description.  On failure returns NULL and err
 * names the file, the line and column of the offending value and what
 * is wrong with it.
 */
struct pandia_machine *machine_load(const char *path,
				    struct pandia_error *err);
/* The same from text in memory; SOURCE names it in errors. */
struct pandia_machine *machine_parse(const char *text, const char *source,
				     struct pandia_error *err);

/* The JSON text (new string, ends in a newline). */
char *machine_to_string(const struct pandia_machine *m);
/* The "limits" object's JSON text alone (new string, newline). */
char *machine_limits_to_string(const struct pandia_limits *l);
/* Write atomically (temporary file, then rename). 0 or -1. */
int machine_save(const struct pandia_machine *m, const char *path,
		 struct pandia_error *err);

/*
 * Check the topology's consistency (each PU once, each core in one
 * socket, every reference in range and agreeing with the other side:
 * a node's socket with its cores', caches with cores, core kinds;
 * positive bandwidths and rates where present).
 * Returns 0 or -1 with err describing the first problem.
 */
int machine_check(const struct pandia_machine *m, struct pandia_error *err);

/*
 * One xlink per pair of sockets, each the interconnect's aggregate
 * bandwidth, into m->xlinks (allocated here; none before): what a
 * description without measured socket pairs assumes.  The caller says
 * where each one's figure came from (xlinks[i].m).
 */
void machine_pair_xlinks(struct pandia_machine *m);

/* Index in pus[] of the PU with OS index os, or -1. */
int machine_pu_index(const struct pandia_machine *m, int os);

/*
 * The most PUs whose threads can load one instance of level LVL: those
 * under one L3 cache (all, where the description has none), for DRAM
 * every PU of the machine (all pages may sit on one node), for a
 * private level the PUs of one core; 0 for the interconnect.
 */
int machine_level_pus(const struct pandia_machine *m, int lvl);

/*
 * Whether threads demanding D (bytes/s) each can push one instance of
 * level LVL past what it sustains: machine_level_pus() of them at D
 * exceed its aggregate, or the PUs of one core at D its per-core link
 * (D taken no higher than that link).  True where that cannot be told (the interconnect, a level without a
 * figure): only then can the demand decide a placement's time in the
 * model.
 */
bool machine_level_fills(const struct pandia_machine *m, int lvl, double d);

/*
 * How much slower a thread alone runs on core C than on the fastest
 * kind: peak_rate / the rate of its kind (1 on one kind).
 */
double machine_core_slowdown(const struct pandia_machine *m, int c);

/*
 * The relative spread of link LK's aggregate capacity as its
 * measurement recorded (spread over median, from two repetitions or
 * more); 0 when it recorded none.
 */
double machine_link_spread(const struct pandia_link *lk);

/*
 * The bandwidth (bytes/s) of the link between sockets A and B: their
 * pair's figure (xlinks), else the interconnect's aggregate; 0 when
 * the machine has no interconnect.
 */
double machine_pair_bw(const struct pandia_machine *m, int a, int b);

/*
 * How much slower a thread runs on socket S while BUSY of its cores run
 * threads than with its core busy alone: peak_rate over the core rate
 * at BUSY cores, linear between the points measured (one busy core at
 * peak_rate, core.busy_curve, every core at core.all_busy_rate;
 * docs/model.md, "Turbo").  1 without all_busy_rate.
 */
double machine_clock_slowdown(const struct pandia_machine *m, int s,
			      int busy);
/* Release m's busy_curve (none after). */
void machine_busy_free(struct pandia_machine *m);

/*
 * The kind core.peak_rate is for, by hwloc's description: the highest
 * efficiency, else (efficiencies unknown) the highest frequency.  0 on
 * one kind.
 */
int machine_fastest_kind(const struct pandia_machine *m);

/* PUs per core if every core has the same count, else 0. */
int machine_smt(const struct pandia_machine *m);

/*
 * Whether two descriptions are of the same machine (host, CPU model,
 * PUs).  When not, *why gets a new string naming what differs.
 */
bool machine_same_host(const struct pandia_machine *a,
		       const struct pandia_machine *b, char **why);

/*
 * More bytes a core than any processor's cache has (the largest in
 * 2026 have 4 to 12 MiB a core): a cache level hwloc describes larger
 * is a hypervisor's view, a socket's whole cache shown to a few vCPUs
 * (a PVM guest's 508 MiB L3 for each vCPU; an Intel guest's 480 MiB L3
 * for two).  One core may reach all of it (Intel's mesh) or a part,
 * which on the PVM guest moved from under 64 MiB to over 254 MiB from
 * minute to minute (docs/stress.md, "A cache no processor has").
 */
#define MACHINE_CACHE_MADE_PER_CORE	(64ULL << 20)
/* A cache level's per-core figure at most this much above DRAM's was
   read from DRAM. */
#define MACHINE_AT_DRAM			1.05

/*
 * The most bytes a core has of one instance of LEVEL's cache (LVL_L1
 * to LVL_L3; 0 if none), and whether that is more than any processor
 * has (MACHINE_CACHE_MADE_PER_CORE).
 */
unsigned long long machine_cache_per_core(const struct pandia_machine *m,
					  enum pandia_level level);
bool machine_cache_virtual(const struct pandia_machine *m,
			   enum pandia_level level);
/*
 * For such a level whose per-core figure m measured at DRAM's rate (at
 * most MACHINE_AT_DRAM times DRAM's per-core figure; a shared level's
 * aggregate likewise): the bytes of the array it read, more than one
 * core reaches of the level.  0 where the level is a size some
 * processor has, or the figures do not show it (assumed, missing, or
 * above DRAM's).
 */
unsigned long long machine_cache_missed(const struct pandia_machine *m,
					enum pandia_level level);

/* A short human summary: topology, then one line per figure. */
void machine_print_summary(const struct pandia_machine *m, FILE *out);

#endif
