/*
 * kernels.h - the stress kernels: bandwidth at one level of the memory
 * hierarchy, and integer operation rate of a core.  Used by
 * 'pandia machine' to measure the host, and by the runner's co-run
 * stressors (cpu@LIST, bw:LEVEL@LIST) and the profiler's probes.
 */
#ifndef PANDIA_STRESS_KERNELS_H
#define PANDIA_STRESS_KERNELS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/machine.h"

enum stress_kind {
	STRESS_CPU,		/* integer chains on registers / L1 */
	STRESS_LOAD,		/* linear reads */
	STRESS_LOAD_STORE,	/* linear read-modify-write */
	STRESS_CPU_CHAIN,	/* one dependent integer chain: the clock */
};

/* Whether KIND runs in registers (an operation rate, no buffer). */
static inline int stress_kind_is_core(enum stress_kind kind)
{
	return kind == STRESS_CPU || kind == STRESS_CPU_CHAIN;
}

struct stress_buf {
	void *mem;
	size_t bytes;
	int numa_node;		/* -1: local to the first toucher */
};

/*
 * Allocate and touch BYTES (rounded to a page) on NUMA node NODE
 * (-1: local).  Returns 0 or -1 with err.
 */
int stress_buf_alloc(struct stress_buf *b, size_t bytes, int node,
		     struct pandia_error *err);
/* The bytes a buffer of BYTES takes: rounded up to a page, at least
 * one. */
size_t stress_buf_size(size_t bytes);
/* The same without touching: the pages come at their first touch. */
int stress_buf_map(struct stress_buf *b, size_t bytes, int node,
		   struct pandia_error *err);
/* Touch BYTES from MEM (page-aligned) with a non-zero pattern (zero
 * pages could be shared). */
void stress_buf_touch(void *mem, size_t bytes);
void stress_buf_release(struct stress_buf *b);
/*
 * Roughly the seconds one thread takes to allocate and first touch
 * BYTES, for the estimates announced before a measurement or a
 * profile: page faults at 0.7 GB/s (a KVM guest; 0.25 to 0.5 on a
 * PVM guest, where the estimates come out short).
 */
double stress_touch_seconds(size_t bytes);

/*
 * Run KIND on the calling thread until *stop is non-zero (checked
 * between passes, so a pass should be short); returns the work done:
 * bytes moved for LOAD/LOAD_STORE, integer operations for CPU and
 * CPU_CHAIN.  b is unused for those.
 */
double stress_run_until(enum stress_kind kind, struct stress_buf *b,
			volatile sig_atomic_t *stop);

/*
 * One pass of KIND: about 4 MiB of traffic (a buffer smaller than that
 * is swept whole several times, a larger one in 4 MiB segments from
 * *off on, *off then advancing and wrapping, so that consecutive passes
 * make one linear stream), or 2^14 iterations of the core-rate loop.
 * Start with *off = 0.  Returns the work done.
 */
double stress_pass(enum stress_kind kind, struct stress_buf *b, size_t *off);

/*
 * Run KIND on the calling thread for at least SECONDS, in whole passes
 * (a pass is about 4 MiB of traffic or 40 us of the core-rate loop);
 * *elapsed (may be NULL) gets the time it really took.  Returns the
 * work done, counted as stress_run_until() does.
 */
double stress_run_for(enum stress_kind kind, struct stress_buf *b,
		      double seconds, double *elapsed);

/*
 * The name of the kernel that KIND runs on this CPU, as recorded in a
 * measure record: "int_chains", "load_avx2", "load_sse2", "load_c",
 * "load_store_avx2", ...  Static string.
 */
const char *stress_kernel_name(enum stress_kind kind);

/* Size in bytes of the last-level cache of the first core; 0 if none. */
unsigned long long stress_llc_size(const struct pandia_machine *m);

/*
 * The bytes a sweep must pass to miss the caches one core reaches: the
 * last-level cache's size (8 MiB when there is none), or, where m's
 * figures read an array of that level at DRAM's rate and hwloc
 * describes more of it a core than any processor has
 * (machine_cache_missed()), that array's: the core reaches less.
 */
unsigned long long stress_llc_reach(const struct pandia_machine *m);

/*
 * The per-thread working-set size that sits in LEVEL on machine m
 * (for DRAM: far beyond the last-level cache).  0 if the level is
 * absent.
 */
size_t stress_working_set(const struct pandia_machine *m,
			  enum pandia_level level, int threads_sharing);

#endif
