/*
 * counters.c - the perf counter backend and the choice between perf and
 * probe.  See counters.h; the events and formulas are in
 * docs/counters.md.
 *
 * Only the perfmon headers are included for perf_event_attr: they carry
 * their own copy of the kernel's perf_event.h, which clashes with
 * <linux/perf_event.h>.
 */
#include "profiler/counters.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <perfmon/pfmlib_perf_event.h>

#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/util.h"

#define COUNTERS_SCHEMA		"pandia-counters/1"
#define DEFAULT_LINE_BYTES	64
#define MAX_PARTS		3	/* events summed for one role */
#define MAX_PMUS		8	/* PMU names sharing one table */
#define PARANOID_UNKNOWN	(-100)
#define CAP_SYS_ADMIN_BIT	21
#define CAP_PERFMON_BIT		38
#define PROBE_ADVICE		"use --counters probe, which needs no PMU"

/* ---- --counters --------------------------------------------------- */

static const char *const mode_names[] = {
	[COUNTERS_AUTO] = "auto",
	[COUNTERS_PERF] = "perf",
	[COUNTERS_PROBE] = "probe",
};

int counters_mode_parse(const char *s, enum counters_mode *mode,
			struct pandia_error *err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (s && !strcmp(s, mode_names[i])) {
			*mode = (enum counters_mode)i;
			return 0;
		}
	}
	return perr_set(err, "unknown counter backend '%s' (expected auto, "
			"perf or probe)", s ? s : "");
}

const char *counters_mode_name(enum counters_mode mode)
{
	if ((unsigned)mode >= ARRAY_SIZE(mode_names))
		return "?";
	return mode_names[mode];
}

/* ---- the events --------------------------------------------------- */

static const char *const role_names[CR_COUNT] = {
	[CR_INSTRUCTIONS] = "instructions",
	[CR_CYCLES] = "cycles",
	[CR_TASK_CLOCK] = "task_clock",
	[CR_L1_ACCESSES] = "l1d_accesses",
	[CR_L1_REFILLS] = "l1d_refills",
	[CR_L2_MISSES] = "l2_misses",
	[CR_LLC_MISSES] = "llc_misses",
};

const char *counters_role_name(enum counters_role role)
{
	if ((unsigned)role >= CR_COUNT)
		return "?";
	return role_names[role];
}

/* One way to count a role: events summed, and what it leaves out. */
struct alt {
	const char *parts[MAX_PARTS];	/* without the PMU prefix */
	const char *caveat;		/* or NULL */
};

/* The PMU-specific choices for a family of libpfm4 PMU models. */
struct family {
	const char *pmus[MAX_PMUS];	/* libpfm4 names */
	struct alt role[CR_COUNT];	/* parts[0] NULL: none */
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
static const struct alt generic[CR_COUNT] = {
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
static int alternatives(const char *pmu, enum counters_role role,
			const struct alt *alt[2], const char *prefix[2])
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

static char *qualified(const char *prefix, const char *part)
{
	return xasprintf("%s::%s", prefix, part);
}

/* ---- readings ----------------------------------------------------- */

void counters_reading_init(struct counters_reading *rd)
{
	memset(rd, 0, sizeof(*rd));
	rd->line_bytes = DEFAULT_LINE_BYTES;
}

void counters_reading_release(struct counters_reading *rd)
{
	int i;

	if (!rd)
		return;
	for (i = 0; i < rd->n_events; i++) {
		free(rd->events[i].name);
		free(rd->events[i].error);
	}
	free(rd->events);
	free(rd->pmu);
	free(rd->cpu_model);
	free(rd->note);
	counters_reading_init(rd);
}

void counters_reading_add(struct counters_reading *rd, const char *name,
			  bool counted, double value, double enabled,
			  double running, const char *error)
{
	struct counters_event *e;

	rd->events = xrealloc(rd->events, (size_t)(rd->n_events + 1) *
			      sizeof(*rd->events));
	e = &rd->events[rd->n_events++];
	e->name = xstrdup(name);
	e->counted = counted;
	e->value = counted ? value : 0;
	e->enabled = enabled;
	e->running = running;
	e->error = error ? xstrdup(error) : NULL;
}

static const struct counters_event *find_event(
	const struct counters_reading *rd, const char *name)
{
	int i;

	for (i = 0; i < rd->n_events; i++)
		if (!strcmp(rd->events[i].name, name))
			return &rd->events[i];
	return NULL;
}

/*
 * One alternative against the reading: 1 all counted (*sum, *frac the
 * smallest running/enabled fraction), 0 some event not in the reading
 * (*absent, a new string, names the first), -1 some event failed
 * (*failed is the first).
 */
static int alt_value(const struct counters_reading *rd, const struct alt *a,
		     const char *prefix, double *sum, double *frac,
		     char **names, const struct counters_event **failed,
		     char **absent)
{
	int i, ret = 1;

	*sum = 0;
	*frac = 1;
	if (names)
		*names = NULL;
	for (i = 0; i < MAX_PARTS && a->parts[i]; i++) {
		char *q = qualified(prefix, a->parts[i]);
		const struct counters_event *e = find_event(rd, q);

		if (!e) {
			if (ret == 1) {
				ret = 0;
				*absent = xstrdup(q);
			}
		} else if (!e->counted) {
			if (ret >= 0)
				*failed = e;
			ret = -1;
			free(*absent);
			*absent = NULL;
		} else {
			*sum += e->value;
			if (e->enabled > 0 && e->running < e->enabled &&
			    e->running / e->enabled < *frac)
				*frac = e->running / e->enabled;
		}
		if (names && ret == 1) {
			char *n = *names ? xasprintf("%s + %s", *names, q) :
				  xstrdup(q);

			free(*names);
			*names = n;
		}
		free(q);
	}
	if (ret != 1 && names) {
		free(*names);
		*names = NULL;
	}
	return ret;
}

/*
 * counters_role_value() plus the smallest fraction of the time its
 * events were on a counter.
 */
static bool role_value(const struct counters_reading *rd,
		       enum counters_role role, double *value, double *frac,
		       const char **caveat, char **events, char **why)
{
	const struct counters_event *failed = NULL;
	const struct alt *alt[2];
	const char *prefix[2];
	char *absent = NULL;
	int n, i;

	if (why)
		*why = NULL;
	if (caveat)
		*caveat = NULL;
	if (events)
		*events = NULL;
	n = alternatives(rd->pmu, role, alt, prefix);
	for (i = 0; i < n; i++) {
		const struct counters_event *f = NULL;
		char *a = NULL;
		int r = alt_value(rd, alt[i], prefix[i], value, frac, events,
				  &f, &a);

		if (r == 1) {
			if (caveat)
				*caveat = alt[i]->caveat;
			free(absent);
			return true;
		}
		if (r < 0 && !failed)
			failed = f;
		if (r == 0 && !absent) {
			absent = a;
			a = NULL;
		}
		free(a);
	}
	if (why) {
		if (failed)
			*why = xasprintf("%s unavailable: %s", failed->name,
					 failed->error ? failed->error :
					 "not counted");
		else if (absent)
			*why = xasprintf("%s was not counted", absent);
		else
			*why = xasprintf("no event for %s is known on PMU %s",
					 role_names[role],
					 rd->pmu ? rd->pmu : "(none)");
	}
	free(absent);
	return false;
}

bool counters_role_value(const struct counters_reading *rd,
			 enum counters_role role, double *value,
			 const char **caveat, char **events, char **why)
{
	double v, frac;
	bool ok;

	if ((unsigned)role >= CR_COUNT) {
		if (why)
			*why = xstrdup("no such counter role");
		return false;
	}
	ok = role_value(rd, role, &v, &frac, caveat, events, why);
	if (ok)
		*value = v;
	return ok;
}

/* ---- the arithmetic ----------------------------------------------- */

static const struct {
	enum wl_resource res;
	enum counters_role role;
	int level;		/* enum pandia_level, -1: not a level */
} demand_map[] = {
	{ WR_INSTRUCTIONS, CR_INSTRUCTIONS, -1 },
	{ WR_L1, CR_L1_ACCESSES, LVL_L1 },
	{ WR_L2, CR_L1_REFILLS, LVL_L2 },
	{ WR_L3, CR_L2_MISSES, LVL_L3 },
	{ WR_DRAM, CR_LLC_MISSES, LVL_DRAM },
};

/* "a; b" from a (owned, may be NULL) and b (borrowed). */
static char *join(char *a, const char *b)
{
	char *s;

	if (!a)
		return xstrdup(b);
	s = xasprintf("%s; %s", a, b);
	free(a);
	return s;
}

int counters_compute(const struct counters_reading *rd,
		     const struct pandia_machine *m, const char *source,
		     bool listed[WR_COUNT], struct wl_param demand[WR_COUNT],
		     struct pandia_error *err)
{
	size_t i;

	if (!(rd->seconds > 0) || !isfinite(rd->seconds))
		return perr_set(err, "counter reading covers %g seconds; "
				"it must be positive", rd->seconds);
	if (!(rd->line_bytes > 0) || !isfinite(rd->line_bytes))
		return perr_set(err, "cache line size %g bytes; it must be "
				"positive", rd->line_bytes);
	for (i = 0; i < ARRAY_SIZE(demand_map); i++) {
		enum wl_resource r = demand_map[i].res;
		int lvl = demand_map[i].level;
		struct wl_param *prm = &demand[r];
		const char *caveat;
		double count, frac, bytes;
		char *why = NULL, *status = NULL;

		wl_param_release(prm);
		listed[r] = true;
		if (m && lvl >= 0 && !m->links[lvl].present) {
			prm->status = xasprintf("not measured: the machine "
						"has no %s link%s%s",
						level_name(lvl),
						m->links[lvl].reason ? ": " :
						"",
						m->links[lvl].reason ?
						m->links[lvl].reason : "");
			continue;
		}
		if (!role_value(rd, demand_map[i].role, &count, &frac,
				&caveat, NULL, &why)) {
			prm->status = xasprintf("not measured: %s", why);
			free(why);
			continue;
		}
		if (r == WR_INSTRUCTIONS)
			bytes = 1;
		else if (r == WR_L1)
			bytes = COUNTERS_L1_ACCESS_BYTES;
		else
			bytes = rd->line_bytes;
		wl_param_set(prm, count * bytes / rd->seconds, NAN, source);
		if (r == WR_L1) {
			char *s = xasprintf("estimate at %d bytes per access, "
					    "the access width is not "
					    "counted%s%s",
					    COUNTERS_L1_ACCESS_BYTES,
					    caveat ? ": " : "",
					    caveat ? caveat : "");

			status = join(status, s);
			free(s);
		} else if (caveat) {
			status = join(status, caveat);
		}
		if (frac < 1) {
			char *s = xasprintf("scaled: counted %.0f%% of the "
					    "time (PMU multiplexed)",
					    100 * frac);

			status = join(status, s);
			free(s);
		}
		prm->status = status;
	}
	return 0;
}

/* ---- recordings (JSON) --------------------------------------------- */


static int only_keys(struct json_src *c, json_t *o, const char *opath,
		     const char *const *keys)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		int i;
		char path[160];

		for (i = 0; keys[i]; i++)
			if (!strcmp(keys[i], key))
				break;
		if (keys[i])
			continue;
		snprintf(path, sizeof(path), "%s%s%s", opath,
			 *opath ? "." : "", key);
		return json_fail(c, path, "unknown field");
	}
	return 0;
}

/* *out = the number at KEY (>= 0); absent is fine unless REQUIRED. */
static int get_num(struct json_src *c, json_t *o, const char *opath,
		   const char *key, bool required, double *out)
{
	json_t *v = json_object_get(o, key);
	char path[160];

	snprintf(path, sizeof(path), "%s%s%s", opath, *opath ? "." : "",
		 key);
	if (!v) {
		if (required)
			return json_fail(c, opath, "'%s' is missing", key);
		return 0;
	}
	if (!json_is_number(v))
		return json_fail(c, path, "must be a number");
	*out = json_number_value(v);
	if (!isfinite(*out) || *out < 0)
		return json_fail(c, path, "must not be negative, got %g", *out);
	return 0;
}

static int get_string(struct json_src *c, json_t *o, const char *opath,
		      const char *key, bool required, char **out)
{
	json_t *v = json_object_get(o, key);
	char path[160];

	snprintf(path, sizeof(path), "%s%s%s", opath, *opath ? "." : "",
		 key);
	if (!v) {
		if (required)
			return json_fail(c, opath, "'%s' is missing", key);
		return 0;
	}
	if (!json_is_string(v) || !*json_string_value(v))
		return json_fail(c, path, "must be a non-empty string");
	free(*out);
	*out = xstrdup(json_string_value(v));
	return 0;
}

static int load_event(struct json_src *c, json_t *o, const char *path,
		      struct counters_reading *rd)
{
	static const char *const keys[] = {
		"event", "value", "enabled", "running", "error", NULL
	};
	char *name = NULL, *error = NULL;
	double value = 0, enabled = 0, running = 0;
	int ret = -1;

	if (!json_is_object(o))
		return json_fail(c, path, "must be an object");
	if (only_keys(c, o, path, keys) < 0 ||
	    get_string(c, o, path, "event", true, &name) < 0 ||
	    get_string(c, o, path, "error", false, &error) < 0 ||
	    get_num(c, o, path, "value", !error, &value) < 0 ||
	    get_num(c, o, path, "enabled", false, &enabled) < 0 ||
	    get_num(c, o, path, "running", false, &running) < 0)
		goto out;
	if (error && json_object_get(o, "value")) {
		json_fail(c, path, "has both 'value' and 'error'");
		goto out;
	}
	if (running > enabled) {
		json_fail(c, path, "'running' (%g) exceeds 'enabled' (%g)",
		      running, enabled);
		goto out;
	}
	if (find_event(rd, name)) {
		json_fail(c, path, "event '%s' is listed twice", name);
		goto out;
	}
	counters_reading_add(rd, name, !error, value, enabled, running,
			     error);
	ret = 0;
out:
	free(name);
	free(error);
	return ret;
}

static int load_root(struct json_src *c, json_t *root,
		     struct counters_reading *rd)
{
	static const char *const keys[] = {
		"schema", "pmu", "cpu_model", "note", "seconds",
		"line_bytes", "kernel", "events", NULL
	};
	char *schema = NULL;
	json_t *ev, *k;
	size_t i;
	int ret = -1;

	if (!json_is_object(root))
		return json_fail(c, "", "the top level must be an object");
	if (get_string(c, root, "", "schema", true, &schema) < 0)
		goto out;
	if (strcmp(schema, COUNTERS_SCHEMA)) {
		json_fail(c, "schema", "is '%s', expected '%s'", schema,
		      COUNTERS_SCHEMA);
		goto out;
	}
	if (only_keys(c, root, "", keys) < 0 ||
	    get_string(c, root, "", "pmu", true, &rd->pmu) < 0 ||
	    get_string(c, root, "", "cpu_model", false, &rd->cpu_model) < 0 ||
	    get_string(c, root, "", "note", false, &rd->note) < 0 ||
	    get_num(c, root, "", "seconds", true, &rd->seconds) < 0 ||
	    get_num(c, root, "", "line_bytes", false, &rd->line_bytes) < 0)
		goto out;
	if (!(rd->seconds > 0)) {
		json_fail(c, "seconds", "must be positive");
		goto out;
	}
	if (!(rd->line_bytes > 0)) {
		json_fail(c, "line_bytes", "must be positive");
		goto out;
	}
	k = json_object_get(root, "kernel");
	if (k && !json_is_boolean(k)) {
		json_fail(c, "kernel", "must be true or false");
		goto out;
	}
	rd->kernel = k && json_is_true(k);
	ev = json_object_get(root, "events");
	if (!ev) {
		json_fail(c, "", "'events' is missing");
		goto out;
	}
	if (!json_is_array(ev)) {
		json_fail(c, "events", "must be an array");
		goto out;
	}
	for (i = 0; i < json_array_size(ev); i++) {
		char path[32];

		snprintf(path, sizeof(path), "events[%zu]", i);
		if (load_event(c, json_array_get(ev, i), path, rd) < 0)
			goto out;
	}
	ret = 0;
out:
	free(schema);
	return ret;
}

int counters_reading_parse(const char *text, const char *source,
			   struct counters_reading *rd,
			   struct pandia_error *err)
{
	struct pandia_error local;
	struct json_src c = { text, source, err ? err : &local };
	json_t *root;
	int ret;

	perr_clear(c.err);
	counters_reading_release(rd);
	root = json_src_parse(&c);
	if (!root)
		return -1;
	ret = load_root(&c, root, rd);
	json_decref(root);
	if (ret < 0)
		counters_reading_release(rd);
	return ret;
}

int counters_reading_load(const char *path, struct counters_reading *rd,
			  struct pandia_error *err)
{
	char *text = read_file(path, NULL, err);
	int ret;

	if (!text)
		return -1;
	ret = counters_reading_parse(text, path, rd, err);
	free(text);
	return ret;
}

char *counters_reading_to_string(const struct counters_reading *rd)
{
	json_t *root = json_object(), *ev = json_array();
	char *text;
	int i;

	json_object_set_new(root, "schema", json_string(COUNTERS_SCHEMA));
	json_object_set_new(root, "pmu", json_string(rd->pmu ? rd->pmu :
						     "perf"));
	if (rd->cpu_model)
		json_object_set_new(root, "cpu_model",
				    json_string(rd->cpu_model));
	if (rd->note)
		json_object_set_new(root, "note", json_string(rd->note));
	json_object_set_new(root, "seconds", json_real(rd->seconds));
	json_object_set_new(root, "line_bytes", json_real(rd->line_bytes));
	json_object_set_new(root, "kernel", json_boolean(rd->kernel));
	for (i = 0; i < rd->n_events; i++) {
		const struct counters_event *e = &rd->events[i];
		json_t *o = json_object();

		json_object_set_new(o, "event", json_string(e->name));
		if (e->counted) {
			json_object_set_new(o, "value", json_real(e->value));
			if (e->enabled > 0) {
				json_object_set_new(o, "enabled",
						    json_real(e->enabled));
				json_object_set_new(o, "running",
						    json_real(e->running));
			}
		} else {
			json_object_set_new(o, "error",
					    json_string(e->error ? e->error :
							"not counted"));
		}
		json_array_append_new(ev, o);
	}
	json_object_set_new(root, "events", ev);
	text = json_to_text(root);
	json_decref(root);
	return text;
}

int counters_reading_save(const struct counters_reading *rd,
			  const char *path, struct pandia_error *err)
{
	char *text = counters_reading_to_string(rd);
	int ret = write_file_atomic(path, text, strlen(text), err);

	free(text);
	return ret;
}

/* ---- can perf count here? ------------------------------------------ */

static int try_open(unsigned type, unsigned long long config,
		    bool exclude_kernel)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = exclude_kernel;
	attr.exclude_hv = 1;
	fd = (int)perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno ? errno : EINVAL;
	close(fd);
	return 0;
}

/* The number (in BASE) after "KEY:" in /proc/self/status, or false. */
static bool status_field(const char *text, const char *key, int base,
			 unsigned long long *out)
{
	size_t len = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == ':') {
			char *end;

			errno = 0;
			*out = strtoull(p + len + 1, &end, base);
			return !errno && end != p + len + 1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/* Whether the kernel lists a core PMU (cpu, cpu_core, armv8_...). */
static bool sysfs_cpu_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, "cpu") ||
		    !strncmp(de->d_name, "cpu_", 4) ||
		    !strncmp(de->d_name, "armv", 4)) {
			found = true;
			break;
		}
	}
	closedir(d);
	return found;
}

void counters_host_probe(struct counters_host *h)
{
	unsigned long long v;
	char *text;
	int p;

	memset(h, 0, sizeof(*h));
	h->paranoid = PARANOID_UNKNOWN;
	h->seccomp = -1;
	text = read_file("/proc/sys/kernel/perf_event_paranoid", NULL, NULL);
	if (text) {
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = '\0';
		if (parse_int(text, &p))
			h->paranoid = p;
		free(text);
	}
	text = read_file("/proc/self/status", NULL, NULL);
	if (text) {
		if (status_field(text, "CapEff", 16, &v)) {
			h->cap_sys_admin = v >> CAP_SYS_ADMIN_BIT & 1;
			h->cap_perfmon = v >> CAP_PERFMON_BIT & 1;
		}
		if (status_field(text, "Seccomp", 10, &v))
			h->seccomp = (int)v;
		free(text);
	}
	h->cpu_pmu = sysfs_cpu_pmu();
	h->sw_errno = try_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
			       true);
	h->hw_errno = try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
			       true);
	h->hw_kernel_errno = h->hw_errno ? h->hw_errno :
		try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false);
}

static bool refused(int e)
{
	return e == EACCES || e == EPERM;
}

static bool no_such_event(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == EINVAL;
}

bool counters_host_usable(const struct counters_host *h, bool *kernel,
			  char **why)
{
	bool caps = h->cap_perfmon || h->cap_sys_admin;
	int e = h->sw_errno ? h->sw_errno : h->hw_errno;
	char paranoid[32];

	*why = NULL;
	*kernel = false;
	if (!h->sw_errno && !h->hw_errno) {
		*kernel = !h->hw_kernel_errno;
		return true;
	}
	if (h->paranoid == PARANOID_UNKNOWN)
		snprintf(paranoid, sizeof(paranoid), "unreadable");
	else
		snprintf(paranoid, sizeof(paranoid), "%d", h->paranoid);

	/*
	 * The kernel refuses with EACCES (perf_event_paranoid, security
	 * modules); container runtimes' seccomp profiles with EPERM or
	 * ENOSYS.
	 */
	if (h->seccomp == 2 && (e == ENOSYS || e == EPERM ||
				(e == EACCES && (caps || h->paranoid <= 2)))) {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "refused (%s): a seccomp filter blocks it "
				 "(Seccomp: 2 in /proc/self/status), as "
				 "container runtimes do by default; allow "
				 "perf_event_open in the container's seccomp "
				 "profile or grant it CAP_PERFMON, or "
				 PROBE_ADVICE, strerror(e));
	} else if (e == ENOSYS) {
		*why = xasprintf("perf counters unavailable: this kernel has "
				 "no perf events (perf_event_open: %s); "
				 PROBE_ADVICE, strerror(e));
	} else if (refused(e) && !caps && h->paranoid >= 2) {
		/*
		 * pandia counts its own children, user mode at least:
		 * that needs perf_event_paranoid 2 or lower; 1 or lower
		 * also counts kernel mode (page faults, system calls).
		 */
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "refused (%s): /proc/sys/kernel/"
				 "perf_event_paranoid is %s and pandia has "
				 "neither CAP_PERFMON nor CAP_SYS_ADMIN; set "
				 "/proc/sys/kernel/perf_event_paranoid to 1 "
				 "or lower (sysctl kernel.perf_event_paranoid"
				 "=1), or grant CAP_PERFMON (setcap "
				 "cap_perfmon+ep on the pandia binary), or "
				 PROBE_ADVICE, strerror(e), paranoid);
	} else if (refused(e)) {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "refused (%s) although perf_event_paranoid "
				 "is %s%s: a security module (SELinux, "
				 "AppArmor) or the container runtime forbids "
				 "it; allow perf_event_open for pandia, or "
				 PROBE_ADVICE, strerror(e), paranoid,
				 caps ? " and pandia has CAP_PERFMON or "
				 "CAP_SYS_ADMIN" : "");
	} else if (h->sw_errno) {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "fails even for a software event (%s); "
				 PROBE_ADVICE, strerror(e));
	} else if (no_such_event(e) && !h->cpu_pmu) {
		*why = xasprintf("perf counters unavailable: hardware events "
				 "not supported (perf_event_open: %s): no PMU "
				 "is exposed to this machine, as in most VMs "
				 "and containers (no cpu PMU in "
				 "/sys/bus/event_source/devices); enable a "
				 "virtual PMU for the VM (QEMU/KVM: -cpu "
				 "host,pmu=on) or " PROBE_ADVICE,
				 strerror(e));
	} else if (no_such_event(e)) {
		*why = xasprintf("perf counters unavailable: hardware events "
				 "not supported (perf_event_open: %s): the "
				 "kernel lists a cpu PMU but it does not count "
				 "instructions, as with some virtual PMUs; "
				 PROBE_ADVICE, strerror(e));
	} else {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "failed for the instructions event (%s); "
				 PROBE_ADVICE, strerror(e));
	}
	return false;
}

void counters_drop_probe_advice(char *why)
{
	char *p = strstr(why, "use --counters probe");
	size_t n;

	if (!p)
		return;
	*p = '\0';
	/* "..., or " and "...; " go too: the sentence ends before them */
	for (n = strlen(why); n > 0 && strchr(" ,;", why[n - 1]); n--)
		why[n - 1] = '\0';
	if (n > 3 && !strcmp(why + n - 3, " or"))
		why[n -= 3] = '\0';
	for (; n > 0 && strchr(" ,;", why[n - 1]); n--)
		why[n - 1] = '\0';
	why[strcspn(why, "\n")] = '\0';
}

bool counters_perf_available(bool *kernel, char **why)
{
	struct counters_host h;

	counters_host_probe(&h);
	return counters_host_usable(&h, kernel, why);
}

/* ---- libpfm4 ------------------------------------------------------- */

/* Start libpfm4 (once; later calls return the first result). */
static int pfm_start(struct pandia_error *err)
{
	int ret = pfm_initialize();

	if (ret != PFM_SUCCESS)
		return perr_set(err, "cannot start libpfm4: %s",
				pfm_strerror(ret));
	return 0;
}

const char *counters_host_pmu(struct pandia_error *err)
{
	const char *dfl = NULL;
	pfm_pmu_t p;

	if (pfm_start(err) < 0)
		return NULL;
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS ||
		    !info.is_present || info.type != PFM_PMU_TYPE_CORE)
			continue;
		/* the architected PMU (ix86arch) only if nothing better */
		if (info.is_dfl) {
			if (!dfl)
				dfl = info.name;
			continue;
		}
		return info.name;
	}
	return dfl ? dfl : "perf";
}

/* Whether libpfm4 knows PMU NAME; *present: it is this host's. */
static bool pmu_known(const char *name, bool *present)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS ||
		    strcmp(info.name, name))
			continue;
		*present = info.is_present;
		return true;
	}
	return false;
}

/*
 * Encode one event for perf_event_open (user mode, and kernel mode
 * when KERNEL).  Returns 0, or a libpfm4 error code (pfm_strerror()).
 * *fstr (if fstr is not NULL) gets libpfm4's string, to free().
 */
static int encode_one(const char *name, bool kernel,
		      struct perf_event_attr *attr, char **fstr)
{
	pfm_perf_encode_arg_t arg;
	int ret;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	arg.fstr = fstr;
	if (fstr)
		*fstr = NULL;
	ret = pfm_get_os_event_encoding(name, kernel ? PFM_PLM0 | PFM_PLM3 :
					PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	attr->size = sizeof(*attr);
	return ret;
}

int counters_encode(const char *pmu, bool kernel,
		    struct counters_encoding **enc, int *n,
		    struct pandia_error *err)
{
	struct counters_encoding *v = NULL;
	const char *inactive = getenv("LIBPFM_ENCODE_INACTIVE");
	bool present = false;
	int count = 0, r;

	*enc = NULL;
	*n = 0;
	if (pfm_start(err) < 0)
		return -1;
	if (!pmu && !(pmu = counters_host_pmu(err)))
		return -1;
	if (!pmu_known(pmu, &present))
		return perr_set(err, "libpfm4 knows no PMU '%s'", pmu);
	if (!present && !(inactive && *inactive == '1'))
		return perr_set(err, "PMU '%s' is not this host's: set "
				"LIBPFM_ENCODE_INACTIVE=1 to encode for it",
				pmu);
	for (r = 0; r < CR_COUNT; r++) {
		const struct alt *alt[2];
		const char *prefix[2];
		int na = alternatives(pmu, r, alt, prefix), a, i;

		for (a = 0; a < na; a++) {
			for (i = 0; i < MAX_PARTS && alt[a]->parts[i]; i++) {
				struct counters_encoding *e;
				struct perf_event_attr attr;
				int ret;

				v = xrealloc(v, (size_t)(count + 1) *
					     sizeof(*v));
				e = &v[count++];
				memset(e, 0, sizeof(*e));
				e->role = r;
				e->event = qualified(prefix[a],
						     alt[a]->parts[i]);
				ret = encode_one(e->event, kernel, &attr,
						 &e->fstr);
				if (ret != PFM_SUCCESS) {
					e->error = xstrdup(pfm_strerror(ret));
					continue;
				}
				e->type = attr.type;
				e->config = attr.config;
				e->config1 = attr.config1;
				e->exclude_kernel = attr.exclude_kernel;
			}
		}
	}
	*enc = v;
	*n = count;
	return 0;
}

void counters_encodings_free(struct counters_encoding *enc, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(enc[i].event);
		free(enc[i].fstr);
		free(enc[i].error);
	}
	free(enc);
}

/* ---- counting a run ------------------------------------------------ */

struct live {
	char *name;
	int fd;			/* -1: not open */
	char *error;		/* why it could not be opened */
	bool used;		/* part of a role's chosen alternative */
};

struct session {
	const char *pmu;
	bool kernel;
	int n;
	struct live *ev;
};

/* Index of event NAME in s, opening it first if new. */
static int session_event(struct session *s, const char *name)
{
	struct perf_event_attr attr;
	struct live *e;
	int i, ret;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return i;
	s->ev = xrealloc(s->ev, (size_t)(s->n + 1) * sizeof(*s->ev));
	e = &s->ev[s->n];
	e->name = xstrdup(name);
	e->fd = -1;
	e->error = NULL;
	e->used = false;
	ret = encode_one(name, s->kernel, &attr, NULL);
	if (ret != PFM_SUCCESS) {
		e->error = xasprintf("libpfm4 cannot encode it: %s",
				     pfm_strerror(ret));
		return s->n++;
	}
	attr.disabled = 1;
	attr.inherit = 1;
	attr.enable_on_exec = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->fd = (int)perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (e->fd < 0) {
		int saved = errno;

		e->fd = -1;
		e->error = xasprintf("the kernel refuses it (%s)",
				     strerror(saved));
	}
	return s->n++;
}

/*
 * Open, for every role, the first alternative whose events all open;
 * close what no chosen alternative uses.
 */
static void session_open(struct session *s)
{
	int r, i;

	for (r = 0; r < CR_COUNT; r++) {
		const struct alt *alt[2];
		const char *prefix[2];
		int na = alternatives(s->pmu, r, alt, prefix), a;

		for (a = 0; a < na; a++) {
			int idx[MAX_PARTS], np = 0;
			bool ok = true;

			for (i = 0; i < MAX_PARTS && alt[a]->parts[i]; i++) {
				char *q = qualified(prefix[a],
						    alt[a]->parts[i]);

				idx[np] = session_event(s, q);
				if (s->ev[idx[np]].fd < 0)
					ok = false;
				np++;
				free(q);
			}
			if (!ok)
				continue;
			for (i = 0; i < np; i++)
				s->ev[idx[i]].used = true;
			break;
		}
	}
	for (i = 0; i < s->n; i++) {
		if (s->ev[i].fd >= 0 && !s->ev[i].used) {
			close(s->ev[i].fd);
			s->ev[i].fd = -1;
		}
	}
}

static void session_close(struct session *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->ev[i].fd >= 0)
			close(s->ev[i].fd);
		free(s->ev[i].name);
		free(s->ev[i].error);
	}
	free(s->ev);
	s->ev = NULL;
	s->n = 0;
}

/*
 * Read every event into rd: opened ones with their scaled counts (or
 * why they have none), failed ones with their error; events opened but
 * not used are left out.
 */
static void session_read(struct session *s, struct counters_reading *rd)
{
	int i;

	for (i = 0; i < s->n; i++) {
		struct live *e = &s->ev[i];
		uint64_t v[3];
		ssize_t got;

		if (e->fd < 0) {
			if (e->error)
				counters_reading_add(rd, e->name, false, 0, 0,
						     0, e->error);
			continue;
		}
		got = read(e->fd, v, sizeof(v));
		if (got != (ssize_t)sizeof(v)) {
			char *why = xasprintf("cannot read it (%s)",
					      got < 0 ? strerror(errno) :
					      "short read");

			counters_reading_add(rd, e->name, false, 0, 0, 0, why);
			free(why);
		} else if (v[1] == 0) {
			counters_reading_add(rd, e->name, false, 0, 0, 0,
					     "never enabled: the command did "
					     "not start counting");
		} else if (v[2] == 0) {
			counters_reading_add(rd, e->name, false, 0,
					     (double)v[1], 0,
					     "never on a counter: more events "
					     "than the PMU has counters");
		} else {
			counters_reading_add(rd, e->name, true,
					     (double)v[0] * ((double)v[1] /
							     (double)v[2]),
					     (double)v[1], (double)v[2],
					     NULL);
		}
	}
}

static double line_size(void)
{
	long l = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	return l > 0 ? (double)l : DEFAULT_LINE_BYTES;
}

void counters_result_init(struct counters_result *res)
{
	int r;

	memset(res, 0, sizeof(*res));
	res->cpu_use = NAN;
	for (r = 0; r < WR_COUNT; r++)
		wl_param_release(&res->demand[r]);	/* unknown */
	counters_reading_init(&res->reading);
	run_result_init(&res->run);
}

static void free_evidence(int n, char **names, double *values)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(values);
}

void counters_result_release(struct counters_result *res)
{
	int r;

	if (!res)
		return;
	free(res->why);
	free(res->note);
	for (r = 0; r < WR_COUNT; r++)
		wl_param_release(&res->demand[r]);
	free_evidence(res->n_counters, res->counter_names,
		      res->counter_values);
	counters_reading_release(&res->reading);
	run_result_release(&res->run);
	counters_result_init(res);
}

/* The evidence: every counted event and the seconds they cover. */
static void fill_evidence(struct counters_result *res)
{
	const struct counters_reading *rd = &res->reading;
	int i, n = 0;

	res->counter_names = xcalloc((size_t)rd->n_events + 1,
				     sizeof(char *));
	res->counter_values = xcalloc((size_t)rd->n_events + 1,
				      sizeof(double));
	for (i = 0; i < rd->n_events; i++) {
		if (!rd->events[i].counted)
			continue;
		res->counter_names[n] = xstrdup(rd->events[i].name);
		res->counter_values[n++] = rd->events[i].value;
	}
	res->counter_names[n] = xstrdup("wall_seconds");
	res->counter_values[n++] = rd->seconds;
	res->n_counters = n;
}

/* res->note: how it was measured and what it could not count. */
static void fill_note(struct counters_result *res, const char *source)
{
	const struct counters_reading *rd = &res->reading;
	char *note, *missing = NULL;
	size_t i;

	note = xasprintf("perf (libpfm4, PMU %s): one more run at %s's "
			 "placement, counted from exec with every thread and "
			 "process it created, rates over its %.3g s; %s",
			 rd->pmu, source ? source : "the run",
			 rd->seconds, rd->kernel ? "user and kernel mode" :
			 "user mode only (kernel mode needs "
			 "perf_event_paranoid 1 or lower, or CAP_PERFMON)");
	for (i = 0; i < ARRAY_SIZE(demand_map); i++) {
		enum wl_resource r = demand_map[i].res;

		if (res->demand[r].known)
			continue;
		missing = missing ? join(missing, wl_resource_name(r)) :
			  xstrdup(wl_resource_name(r));
	}
	if (missing) {
		char *n = xasprintf("%s; not measured: %s", note, missing);

		free(note);
		note = n;
	}
	free(missing);
	res->note = note;
}

/*
 * One run of ARGV as o says (one repetition, no warm-up) with s's
 * events counting, read into rd (reset first; its pmu is s->pmu).
 */
static int session_run(struct session *s, const struct run_opts *o,
		       char *const *argv, struct counters_reading *rd,
		       struct run_result *r, struct pandia_error *err)
{
	struct run_opts once = *o;
	double t0, wall;

	once.repetitions = 1;
	once.warmup = false;
	t0 = now_seconds();
	if (run_execute(&once, argv, r, err) < 0)
		return -1;
	wall = now_seconds() - t0;

	counters_reading_release(rd);
	rd->pmu = xstrdup(s->pmu);
	rd->kernel = s->kernel;
	rd->line_bytes = line_size();
	/*
	 * The counts cover the whole process: divide by its wall time.
	 * With --time-from the run's time is the program's own figure
	 * for a part of it, so take the time around the run instead.
	 */
	rd->seconds = o->time_from || !(r->median > 0) ? wall : r->median;
	session_read(s, rd);
	return 0;
}

int counters_count(const char *const *events, int n_events, bool kernel,
		   const struct run_opts *o, char *const *argv,
		   struct counters_reading *rd, struct run_result *r,
		   struct pandia_error *err)
{
	struct session s = { 0 };
	int i, ret = -1;

	perr_clear(err);
	if (pfm_start(err) < 0)
		return -1;
	s.pmu = "perf";
	s.kernel = kernel;
	for (i = 0; i < n_events; i++) {
		int k = session_event(&s, events[i]);	/* may move s.ev */

		s.ev[k].used = true;
	}
	if (session_run(&s, o, argv, rd, r, err) < 0)
		goto out;
	ret = 0;
out:
	session_close(&s);
	return ret;
}

int counters_result_fill(struct counters_result *res,
			 const struct pandia_machine *m, const char *source,
			 struct pandia_error *err)
{
	double task;

	if (counters_compute(&res->reading, m, source, res->listed,
			     res->demand, err) < 0)
		return -1;
	res->seconds = res->reading.seconds;
	res->cpu_use = NAN;
	if (counters_role_value(&res->reading, CR_TASK_CLOCK, &task, NULL,
				NULL, NULL))
		res->cpu_use = task / 1e9 / res->reading.seconds;
	free_evidence(res->n_counters, res->counter_names,
		      res->counter_values);
	fill_evidence(res);
	free(res->note);
	fill_note(res, source);
	res->backend = "perf";
	return 0;
}

int counters_demands(enum counters_mode mode, const struct pandia_machine *m,
		     const struct run_opts *o, char *const *argv,
		     const char *source, struct counters_result *res,
		     struct pandia_error *err)
{
	struct session s = { 0 };
	bool kernel = false;
	int ret = -1;

	perr_clear(err);
	if (mode == COUNTERS_PROBE) {
		res->why = xstrdup("--counters probe was asked for");
		return COUNTERS_UNAVAILABLE;
	}
	if (o->runner) {
		res->why = xstrdup("perf counters unavailable: a command run "
				   "through --runner may run on another "
				   "machine, where counters opened here cannot "
				   "see it; use --counters probe");
	} else if (!counters_perf_available(&kernel, &res->why)) {
		/* res->why is set */
	} else if (!(s.pmu = counters_host_pmu(err))) {
		res->why = xasprintf("perf counters unavailable: %s",
				     err ? err->text : "libpfm4 failed");
	}
	if (res->why) {
		if (mode == COUNTERS_AUTO) {
			perr_clear(err);
			return COUNTERS_UNAVAILABLE;
		}
		return perr_set(err, "%s", res->why);
	}

	s.kernel = kernel;
	session_open(&s);
	if (session_run(&s, o, argv, &res->reading, &res->run, err) < 0)
		goto out;
	if (m && m->cpu_model)
		res->reading.cpu_model = xstrdup(m->cpu_model);
	if (counters_result_fill(res, m, source, err) < 0)
		goto out;
	ret = COUNTERS_MEASURED;
out:
	session_close(&s);
	return ret;
}

void counters_result_apply(struct counters_result *res,
			   struct pandia_workload *w, struct wl_run *run)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(demand_map); i++) {
		enum wl_resource r = demand_map[i].res;

		wl_param_release(&w->demand[r]);
		w->demand[r] = res->demand[r];
		w->listed[r] = res->listed[r];
		memset(&res->demand[r], 0, sizeof(res->demand[r]));
		wl_param_release(&res->demand[r]);	/* unknown */
		res->listed[r] = false;
	}
	free(w->counters);
	w->counters = xstrdup("perf");
	free(w->counters_note);
	w->counters_note = res->note;
	res->note = NULL;
	if (run) {
		free_evidence(run->n_counters, run->counter_names,
			      run->counter_values);
		run->n_counters = res->n_counters;
		run->counter_names = res->counter_names;
		run->counter_values = res->counter_values;
	} else {
		free_evidence(res->n_counters, res->counter_names,
			      res->counter_values);
	}
	res->n_counters = 0;
	res->counter_names = NULL;
	res->counter_values = NULL;
}
