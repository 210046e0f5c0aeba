/*
 * counters.c - the counter backend's data and arithmetic: --counters
 * auto|perf|probe, the roles counted, a reading and the value of each
 * role in it, the demands computed from it (section 4.1 of the Pandia
 * paper) and the result the profiler applies.  See counters.h; the
 * events and formulas are in docs/counters.md.  Where the counts come
 * from: counters_events.c (which events), counters_pfm.c (encoding
 * them), counters_perf.c (counting a run), counters_host.c (whether
 * perf can count here), counters_record.c (recordings).
 */
#include "profiler/counters.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "predictor/models.h"
#include "profiler/counters_internal.h"

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

/* ---- the roles ---------------------------------------------------- */

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

/* ---- readings ----------------------------------------------------- */

void counters_reading_init(struct counters_reading *rd)
{
	memset(rd, 0, sizeof(*rd));
	rd->line_bytes = COUNTERS_DEFAULT_LINE_BYTES;
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

const struct counters_event *counters_find_event(
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
static int alt_value(const struct counters_reading *rd,
		     const struct counters_alt *a, const char *prefix,
		     double *sum, double *frac, char **names,
		     const struct counters_event **failed, char **absent)
{
	int i, ret = 1;

	*sum = 0;
	*frac = 1;
	if (names)
		*names = NULL;
	for (i = 0; i < COUNTERS_MAX_PARTS && a->parts[i]; i++) {
		char *q = counters_qualified(prefix, a->parts[i]);
		const struct counters_event *e = counters_find_event(rd, q);

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
	const struct counters_alt *alt[2];
	const char *prefix[2];
	char *absent = NULL;
	int n, i;

	if (why)
		*why = NULL;
	if (caveat)
		*caveat = NULL;
	if (events)
		*events = NULL;
	n = counters_alternatives(rd->pmu, role, alt, prefix);
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

			status = join_status(status, s);
			free(s);
		} else if (caveat) {
			status = join_status(status, caveat);
		}
		if (frac < 1) {
			char *s = xasprintf("scaled: counted %.0f%% of the "
					    "time (PMU multiplexed)",
					    100 * frac);

			status = join_status(status, s);
			free(s);
		}
		prm->status = status;
	}
	return 0;
}

/* ---- the result --------------------------------------------------- */

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
		missing = join_status(missing, wl_resource_name(r));
	}
	if (missing) {
		char *n = xasprintf("%s; not measured: %s", note, missing);

		free(note);
		note = n;
	}
	free(missing);
	res->note = note;
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

void counters_result_apply(struct counters_result *res,
			   struct pandia_workload *w, struct wl_run *run)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(demand_map); i++) {
		enum wl_resource r = demand_map[i].res;

		wl_param_release(model_demand(w, r));
		*model_demand(w, r) = res->demand[r];
		model_demand_list(w, r, res->listed[r]);
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
