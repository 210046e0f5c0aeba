/*
 * stalls.c - the stall categories of 'pandia extrapolate' (stalls.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/timeparse.h"
#include "common/util.h"
#include "profiler/stalls.h"

/* ---- user categories ---------------------------------------------- */

struct stall_user_regex {
	regex_t re;
	bool group;
};

static const char *const reducer_names[] = { "min", "max", "sum", "avg" };

const char *stall_reducer_name(enum stall_reducer r)
{
	return reducer_names[r];
}

static bool good_name(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '-')
			return false;
	return true;
}

int stall_user_parse(const char *spec, struct stall_user *u,
		     struct pandia_error *err)
{
	const char *eq = strchr(spec, '='), *colon = strrchr(spec, ':');
	size_t i;
	char why[256];
	int rc;

	memset(u, 0, sizeof(*u));
	if (!eq || !colon || colon < eq)
		return perr_set(err, "--category takes NAME=REGEX:REDUCER "
				"(reducer min, max, sum or avg), not '%s'",
				spec);
	if (!good_name(spec, (size_t)(eq - spec)))
		return perr_set(err, "--category '%s': the name '%.*s' must be "
				"letters, digits, '_' or '-'", spec,
				(int)(eq - spec), spec);
	for (i = 0; i < ARRAY_SIZE(reducer_names); i++)
		if (!strcmp(colon + 1, reducer_names[i]))
			break;
	if (i == ARRAY_SIZE(reducer_names))
		return perr_set(err, "--category '%s': the reducer after the "
				"last ':' must be min, max, sum or avg, not "
				"'%s'", spec, colon + 1);
	if (colon == eq + 1)
		return perr_set(err, "--category '%s': the regular expression "
				"is empty", spec);
	u->reducer = (enum stall_reducer)i;
	u->name = xasprintf("%.*s", (int)(eq - spec), spec);
	u->regex = xasprintf("%.*s", (int)(colon - eq - 1), eq + 1);
	u->rx = xcalloc(1, sizeof(*u->rx));
	rc = regcomp(&u->rx->re, u->regex, REG_EXTENDED);
	if (rc) {
		regerror(rc, &u->rx->re, why, sizeof(why));
		free(u->rx);
		u->rx = NULL;
		perr_set(err, "--category '%s': bad regular expression '%s': "
			 "%s", spec, u->regex, why);
		stall_user_release(u);
		return -1;
	}
	u->rx->group = u->rx->re.re_nsub > 0;
	return 0;
}

void stall_user_release(struct stall_user *u)
{
	if (!u)
		return;
	if (u->rx) {
		regfree(&u->rx->re);
		free(u->rx);
	}
	free(u->name);
	free(u->regex);
	memset(u, 0, sizeof(*u));
}

bool stall_user_match(const struct stall_user *u, const char *line,
		      double *value, bool *seconds)
{
	regmatch_t m[2];
	const char *p;

	if (regexec(&u->rx->re, line, 2, m, 0))
		return false;
	if (u->rx->group) {
		if (m[1].rm_so < 0)
			return false;
		return time_value_at(line + m[1].rm_so, value, seconds);
	}
	p = line + m[0].rm_eo;
	while (*p == ' ' || *p == '\t' || *p == ':' || *p == '=')
		p++;
	return time_value_at(p, value, seconds);
}

void stall_acc_reset(struct stall_acc *a)
{
	a->n = 0;
	a->sum = 0;
	a->min = INFINITY;
	a->max = -INFINITY;
}

void stall_acc_add(struct stall_acc *a, double v)
{
	a->n++;
	a->sum += v;
	if (v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
}

bool stall_acc_value(const struct stall_acc *a, enum stall_reducer r,
		     double *v)
{
	if (!a->n && r != STALL_SUM)
		return false;
	switch (r) {
	case STALL_MIN:
		*v = a->min;
		break;
	case STALL_MAX:
		*v = a->max;
		break;
	case STALL_SUM:
		*v = a->sum;
		break;
	case STALL_AVG:
		*v = a->sum / a->n;
		break;
	}
	return true;
}

/* ---- hardware categories ------------------------------------------ */

/*
 * The paper's Table 3 (Intel Ivy Bridge EP, Haswell) and Table 2 (AMD
 * family 10h), backend events only (seed-estima.md).  Broadwell and
 * later lost ILD_STALL:IQ_FULL; Ice Lake and later keep only
 * RESOURCE_STALLS:SB of the list, so they take the generic event.
 */
static const struct stall_hw_event intel_five[] = {
	{ "iq_full", "ILD_STALL:IQ_FULL" },		/* 0487h */
	{ "resource_any", "RESOURCE_STALLS:ANY" },	/* 01A2h */
	{ "rs_full", "RESOURCE_STALLS:RS" },		/* 04A2h */
	{ "sb_full", "RESOURCE_STALLS:SB" },		/* 08A2h */
	{ "rob_full", "RESOURCE_STALLS:ROB" },		/* 10A2h */
};

static const struct stall_hw_event amd_fam10h[] = {
	{ "branch_abort", "DISPATCH_STALL_FOR_BRANCH_ABORT" },	/* 0D2h */
	/* 0D5h */
	{ "rob_full", "DISPATCH_STALL_FOR_REORDER_BUFFER_FULL" },
	/* 0D6h */
	{ "rs_full", "DISPATCH_STALL_FOR_RESERVATION_STATION_FULL" },
	{ "fpu_full", "DISPATCH_STALL_FOR_FPU_FULL" },	/* 0D7h */
	{ "ls_full", "DISPATCH_STALL_FOR_LS_FULL" },	/* 0D8h */
};

static const struct stall_hw_event generic[] = {
	{ "backend", "perf::PERF_COUNT_HW_STALLED_CYCLES_BACKEND" },
};

const struct stall_hw_event *stalls_hw_events(const char *pmu, int *n,
					      bool *is_generic)
{
	static const char *const five[] = {
		"snb", "snb_ep", "ivb", "ivb_ep", "hsw", "hsw_ep",
	};
	static const char *const four[] = {
		"bdw", "bdw_ep", "skl", "skx", "clx",
	};
	size_t i;

	*is_generic = false;
	for (i = 0; pmu && i < ARRAY_SIZE(five); i++)
		if (!strcmp(pmu, five[i])) {
			*n = (int)ARRAY_SIZE(intel_five);
			return intel_five;
		}
	for (i = 0; pmu && i < ARRAY_SIZE(four); i++)
		if (!strcmp(pmu, four[i])) {
			*n = (int)ARRAY_SIZE(intel_five) - 1;
			return intel_five + 1;
		}
	if (pmu && !strncmp(pmu, "amd64_fam10h", 12)) {
		*n = (int)ARRAY_SIZE(amd_fam10h);
		return amd_fam10h;
	}
	*is_generic = true;
	*n = (int)ARRAY_SIZE(generic);
	return generic;
}

char *stalls_hw_event_name(const char *pmu, const struct stall_hw_event *e)
{
	if (strstr(e->event, "::"))
		return xstrdup(e->event);
	return xasprintf("%s::%s", pmu, e->event);
}

/* ---- software categories ------------------------------------------ */

static const char *const sw_names[STALL_SW_COUNT] = {
	"sw_lock", "sw_barrier", "sw_cond", "sw_runqueue", "sw_blocked",
};

const char *stall_sw_name(enum stall_sw k)
{
	return sw_names[k];
}

/*
 * A thread's wait, or 0 where it could not be read (a process whose
 * schedstat was gone before it was read: NAN in the accounting, which
 * would make the whole category NAN).
 */
static double known(double v)
{
	return isfinite(v) ? v : 0;
}

/*
 * The software stalls of one run, from the runner's per-thread
 * accounting (profiler/run.h): each kind of wait summed over the
 * threads, in seconds, then in cycles at HZ.  Lock waits are mutex and
 * semaphore waits; join waits are blocked time like I/O and sleep
 * (docs/extrapolate.md).  CPU time is not a stall.  A run whose
 * threads the pinning library did not see (a static program, a
 * runner template) has no accounting.
 */
int stalls_software(const struct run_result *r, double hz,
		    double out[STALL_SW_COUNT], struct pandia_error *err)
{
	double secs[STALL_SW_COUNT] = { 0 };
	bool accounted = false;
	int i, k;

	if (!r->n_threads)
		return perr_set(err, "no thread of the command was accounted "
				"for (a runner template runs it where pandia "
				"cannot see its threads)");
	accounted = r->threads_created >= 0;
	for (i = 0; i < r->n_threads && accounted; i++) {
		const struct run_thread *t = &r->threads[i];

		secs[STALL_SW_LOCK] += known(t->blocked[RUN_BLOCK_MUTEX]) +
			known(t->blocked[RUN_BLOCK_SEMAPHORE]);
		secs[STALL_SW_BARRIER] += known(t->blocked[RUN_BLOCK_BARRIER]);
		secs[STALL_SW_COND] += known(t->blocked[RUN_BLOCK_CONDITION]);
		secs[STALL_SW_RUNQUEUE] += known(t->runqueue_wait);
		secs[STALL_SW_BLOCKED] += known(t->blocked[RUN_BLOCK_JOIN]) +
			known(t->blocked[RUN_BLOCK_OTHER]);
	}
	if (!accounted)
		return perr_set(err, "the command's threads were not "
				"accounted (it did not load libpandia-pin.so: "
				"a static or setuid program?)");
	if (!(hz > 0))
		return perr_set(err, "the clock frequency is not known: the "
				"waits are in seconds and stalls in cycles "
				"(give --frequency HZ)");
	for (k = 0; k < STALL_SW_COUNT; k++)
		out[k] = secs[k] * hz;
	return 0;
}

/* ---- the clock ---------------------------------------------------- */

static double read_khz(const char *path)
{
	FILE *f = fopen(path, "r");
	double v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%lf", &v) != 1 || !(v > 0))
		v = 0;
	fclose(f);
	return v * 1e3;
}

double stalls_host_frequency(const char **source)
{
	static const char *const files[] = {
		"/sys/devices/system/cpu/cpu0/cpufreq/base_frequency",
		"/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
	};
	char line[256];
	double hz = 0, mhz;
	size_t i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		hz = read_khz(files[i]);
		if (hz > 0) {
			*source = files[i];
			return hz;
		}
	}
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1 && mhz > 0) {
			hz = mhz * 1e6;
			*source = "/proc/cpuinfo (cpu MHz of the first PU)";
			break;
		}
	fclose(f);
	return hz;
}
