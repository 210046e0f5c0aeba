/*
 * counters_events.c - which events count each role: a table per family
 * of libpfm4 PMU models (Intel, AMD), the generic PERF_COUNT_* events
 * as the fallback, and the order they are tried in (docs/counters.md
 * has the table).
 */
#include <string.h>

#include "common/util.h"
#include "profiler/counters_internal.h"

#define MAX_PMUS		8	/* PMU names sharing one table */

/* The PMU-specific choices for a family of libpfm4 PMU models. */
struct family {
	const char *pmus[MAX_PMUS];	/* libpfm4 names */
	struct counters_alt role[CR_COUNT];	/* parts[0] NULL: none */
};

#define CAV_L1_INTEL	"loads and stores retired"
#define CAV_L1_AMD	"loads and stores dispatched, speculative ones too"
#define CAV_L1_GENERIC	"loads only, stores not counted"
#define CAV_DRAM	"reads only, write-backs not counted"
#define CAV_L1MISS_GENERIC \
	"lower bound: demand load misses only, prefetches and stores " \
	"not counted"
#define CAV_LL_GENERIC \
	"lower bound: demand load misses only, prefetches and write-backs " \
	"not counted"

/*
 * instructions, cycles and task-clock are always the generic events:
 * the kernel puts the first two on fixed counters where the PMU has
 * them, leaving the programmable ones to the cache events.
 */
static const struct counters_alt generic[CR_COUNT] = {
	[CR_INSTRUCTIONS] = { { "PERF_COUNT_HW_INSTRUCTIONS" }, NULL },
	[CR_CYCLES] = { { "PERF_COUNT_HW_CPU_CYCLES" }, NULL },
	[CR_TASK_CLOCK] = { { "PERF_COUNT_SW_TASK_CLOCK" }, NULL },
	[CR_L1_ACCESSES] = { { "PERF_COUNT_HW_CACHE_L1D:READ:ACCESS" },
			     CAV_L1_GENERIC },
	[CR_L1_REFILLS] = { { "PERF_COUNT_HW_CACHE_L1D:READ:MISS" },
			    CAV_L1MISS_GENERIC },
	[CR_L2_MISSES] = { { NULL }, NULL },
	[CR_LLC_MISSES] = { { "PERF_COUNT_HW_CACHE_LL:READ:MISS" },
			    CAV_LL_GENERIC },
};

#define ZEN2_FILLS "MABRESP_LCL_L2:LS_MABRESP_LCL_CACHE:LS_MABRESP_LCL_DRAM:" \
	"LS_MABRESP_RMT_CACHE:LS_MABRESP_RMT_DRAM"
#define ZEN2_DRAM "LS_MABRESP_LCL_DRAM:LS_MABRESP_RMT_DRAM"
/* data requests that missed the L2 (the core's, not its prefetcher's) */
#define AMD_L2_DATA_MISS \
	"CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C"
#define ZEN3_DRAM "MEM_IO_LCL:MEM_IO_RMT"
#define ZEN3_FILLS "LCL_L2:INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL:" \
	"EXT_CACHE_RMT:MEM_IO_RMT"
#define ZEN4_FILLS "LCL_L2:LOCAL_CCX:NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:" \
	"FAR_CACHE_NEAR_FAR:DRAM_IO_FAR:ALT_MEM_NEAR_FAR"
#define ZEN4_L2PF "L2_STREAM:L2_NEXT_LINE:L2_UP_DOWN:L2_BURST:L2_STRIDE"

static const struct family families[] = {
	/* Intel Sandy Bridge */
	{ { "snb", "snb_ep" }, {
		[CR_L1_ACCESSES] = { { "MEM_UOPS_RETIRED:ALL_LOADS",
				       "MEM_UOPS_RETIRED:ALL_STORES" },
				     CAV_L1_INTEL },
		[CR_L1_REFILLS] = { { "L1D:REPLACEMENT" }, NULL },
		[CR_L2_MISSES] = { { "L2_LINES_IN:ANY" }, NULL },
		[CR_LLC_MISSES] = { { "LAST_LEVEL_CACHE_MISSES" }, CAV_DRAM },
	} },
	/* Intel Ivy Bridge, Haswell, Broadwell */
	{ { "ivb", "ivb_ep", "hsw", "hsw_ep", "bdw", "bdw_ep" }, {
		[CR_L1_ACCESSES] = { { "MEM_UOPS_RETIRED:ALL_LOADS",
				       "MEM_UOPS_RETIRED:ALL_STORES" },
				     CAV_L1_INTEL },
		[CR_L1_REFILLS] = { { "L1D:REPLACEMENT" }, NULL },
		[CR_L2_MISSES] = { { "L2_LINES_IN:ALL" }, NULL },
		[CR_LLC_MISSES] = { { "LONGEST_LAT_CACHE:MISS" }, CAV_DRAM },
	} },
	/* Intel Skylake to Sapphire Rapids */
	{ { "skl", "skx", "clx", "icl", "icx", "spr" }, {
		[CR_L1_ACCESSES] = { { "MEM_INST_RETIRED:ALL_LOADS",
				       "MEM_INST_RETIRED:ALL_STORES" },
				     CAV_L1_INTEL },
		[CR_L1_REFILLS] = { { "L1D:REPLACEMENT" }, NULL },
		[CR_L2_MISSES] = { { "L2_LINES_IN:ALL" }, NULL },
		[CR_LLC_MISSES] = { { "LONGEST_LAT_CACHE:MISS" }, CAV_DRAM },
	} },
	/*
	 * AMD Zen 1: libpfm4 has no demand-fill event for it, so L1D
	 * refills and DRAM come from the generic events if at all.
	 */
	{ { "amd64_fam17h_zen1" }, {
		[CR_L1_ACCESSES] = { { "LS_DISPATCH:LD_DISPATCH",
				       "LS_DISPATCH:STORE_DISPATCH" },
				     CAV_L1_AMD },
		[CR_L2_MISSES] = { {
			AMD_L2_DATA_MISS,
			"L2_PREFETCH_HIT_L3:ANY",
			"L2_PREFETCH_MISS_L3:ANY" }, NULL },
	} },
	/* AMD Zen 2 */
	{ { "amd64_fam17h_zen2" }, {
		[CR_L1_ACCESSES] = { { "LS_DISPATCH:LD_DISPATCH",
				       "LS_DISPATCH:STORE_DISPATCH" },
				     CAV_L1_AMD },
		[CR_L1_REFILLS] = { {
			"DATA_CACHE_REFILLS_FROM_SYSTEM:" ZEN2_FILLS,
			"HARDWARE_PREFETCH_DATA_CACHE_FILLS:" ZEN2_FILLS },
			NULL },
		[CR_L2_MISSES] = { {
			AMD_L2_DATA_MISS,
			"L2_PREFETCH_HIT_L3:ANY",
			"L2_PREFETCH_MISS_L3:ANY" }, NULL },
		[CR_LLC_MISSES] = { {
			"DATA_CACHE_REFILLS_FROM_SYSTEM:" ZEN2_DRAM,
			"HARDWARE_PREFETCH_DATA_CACHE_FILLS:" ZEN2_DRAM,
			"L2_PREFETCH_MISS_L3:ANY" }, CAV_DRAM },
	} },
	/* AMD Zen 3 */
	{ { "amd64_fam19h_zen3" }, {
		[CR_L1_ACCESSES] = { { "LS_DISPATCH:LD_DISPATCH",
				       "LS_DISPATCH:STORE_DISPATCH" },
				     CAV_L1_AMD },
		[CR_L1_REFILLS] = { {
			"ANY_DATA_CACHE_FILLS_FROM_SYSTEM:" ZEN3_FILLS },
			NULL },
		[CR_L2_MISSES] = { {
			AMD_L2_DATA_MISS,
			"L2_PREFETCH_HIT_L3:L2_HW_PREFETCHER",
			"L2_PREFETCH_MISS_L3:L2_HW_PREFETCHER" }, NULL },
		[CR_LLC_MISSES] = { {
			"ANY_DATA_CACHE_FILLS_FROM_SYSTEM:" ZEN3_DRAM,
			"L2_PREFETCH_MISS_L3:L2_HW_PREFETCHER" }, CAV_DRAM },
	} },
	/* AMD Zen 4 */
	{ { "amd64_fam19h_zen4" }, {
		[CR_L1_ACCESSES] = { { "LS_DISPATCH:LD_DISPATCH",
				       "LS_DISPATCH:STORE_DISPATCH" },
				     CAV_L1_AMD },
		[CR_L1_REFILLS] = { {
			"ANY_DATA_CACHE_FILLS_FROM_SYSTEM:" ZEN4_FILLS },
			NULL },
		[CR_L2_MISSES] = { {
			AMD_L2_DATA_MISS,
			"L2_PREFETCH_HIT_L3:" ZEN4_L2PF,
			"L2_PREFETCH_MISS_L3:" ZEN4_L2PF }, NULL },
		[CR_LLC_MISSES] = { {
			"ANY_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR:"
			"DRAM_IO_FAR",
			"L2_PREFETCH_MISS_L3:" ZEN4_L2PF }, CAV_DRAM },
	} },
};

static const struct family *family_of(const char *pmu)
{
	size_t f;
	int i;

	if (!pmu)
		return NULL;
	for (f = 0; f < ARRAY_SIZE(families); f++)
		for (i = 0; i < MAX_PMUS && families[f].pmus[i]; i++)
			if (!strcmp(families[f].pmus[i], pmu))
				return &families[f];
	return NULL;
}

/*
 * The alternatives for ROLE on PMU, best first: up to two, with their
 * PMU prefixes ("hsw", "perf").  Returns how many.
 */
int counters_alternatives(const char *pmu, enum counters_role role,
			  const struct counters_alt *alt[2],
			  const char *prefix[2])
{
	const struct family *f = family_of(pmu);
	int n = 0;

	if (f && f->role[role].parts[0]) {
		alt[n] = &f->role[role];
		prefix[n++] = pmu;
	}
	if (generic[role].parts[0]) {
		alt[n] = &generic[role];
		prefix[n++] = "perf";
	}
	return n;
}

char *counters_qualified(const char *prefix, const char *part)
{
	return xasprintf("%s::%s", prefix, part);
}
