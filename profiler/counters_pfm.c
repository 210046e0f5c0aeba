/*
 * counters_pfm.c - event encoding through libpfm4: starting it, this
 * host's core PMU, and every event pandia would use encoded for
 * perf_event_open without opening anything (LIBPFM_ENCODE_INACTIVE=1
 * encodes for a PMU this host does not have).
 */
#include "profiler/counters.h"

#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

#include "common/util.h"
#include "profiler/counters_internal.h"

/* Start libpfm4 (once; later calls return the first result). */
int counters_pfm_start(struct pandia_error *err)
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

	if (counters_pfm_start(err) < 0)
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
int counters_encode_one(const char *name, bool kernel,
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
	if (counters_pfm_start(err) < 0)
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
		const struct counters_alt *alt[2];
		const char *prefix[2];
		int na = counters_alternatives(pmu, r, alt, prefix), a, i;

		for (a = 0; a < na; a++) {
			for (i = 0; i < COUNTERS_MAX_PARTS &&
			     alt[a]->parts[i]; i++) {
				struct counters_encoding *e;
				struct perf_event_attr attr;
				int ret;

				v = xrealloc(v, (size_t)(count + 1) *
					     sizeof(*v));
				e = &v[count++];
				memset(e, 0, sizeof(*e));
				e->role = r;
				e->event = counters_qualified(prefix[a],
							      alt[a]->parts[i]);
				ret = counters_encode_one(e->event, kernel,
							  &attr, &e->fstr);
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
