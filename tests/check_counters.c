/*
 * check_counters.c - the perf counter backend without a PMU: the
 * arithmetic replayed from recorded counts (tests/data/counters/), the
 * libpfm4 encoding of every event for Intel and AMD PMU models, the
 * messages when perf cannot count, and the choice of probe under auto.
 *
 * LIBPFM_ENCODE_INACTIVE=1 is set before libpfm4 starts so that events
 * of PMUs this host does not have can be encoded.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/pandia/params.h"
#include "profiler/counters.h"
#include "profiler/run.h"
#include "tests/lib/testkit.h"

#define DATA "tests/data/counters/"

/* ---- --counters ---------------------------------------------------- */

static const struct {
	int line;
	const char *in;
	int mode;		/* -1: refused */
} mode_rows[] = {
	{ __LINE__, "auto", COUNTERS_AUTO },
	{ __LINE__, "perf", COUNTERS_PERF },
	{ __LINE__, "probe", COUNTERS_PROBE },
	{ __LINE__, "Perf", -1 },
	{ __LINE__, "", -1 },
	{ __LINE__, "pmu", -1 },
};

START_TEST(test_mode)
{
	enum counters_mode m = COUNTERS_PROBE;
	struct pandia_error err;
	int r = counters_mode_parse(mode_rows[_i].in, &m, &err);

	if (mode_rows[_i].mode < 0) {
		ck_assert_msg(r == -1, "line %d accepted", mode_rows[_i].line);
		ck_assert_msg(strstr(err.text, "unknown counter backend") &&
			      strstr(err.text, "auto, perf or probe"),
			      "line %d: %s", mode_rows[_i].line, err.text);
		return;
	}
	ck_assert_msg(r == 0, "line %d: %s", mode_rows[_i].line, err.text);
	ck_assert_int_eq(m, mode_rows[_i].mode);
	ck_assert_str_eq(counters_mode_name(m), mode_rows[_i].in);
}
END_TEST

/* ---- the arithmetic, replayed -------------------------------------- */

/*
 * Expected demands of the recordings, worked by hand from the counts
 * in the files: rate = count x bytes / seconds, with bytes 1 for
 * instructions, 8 per L1D access (COUNTERS_L1_ACCESS_BYTES) and 64 per
 * line.  value < 0: not measured, status must hold STATUS.
 */
static const struct {
	int line;
	const char *file;
	enum wl_resource res;
	double value;
	const char *status;	/* part of the status, or NULL: none */
} replay_rows[] = {
	/* Haswell STREAM: 580391227 / 0.78 s */
	{ __LINE__, "hsw-stream", WR_INSTRUCTIONS, 744091316.7, NULL },
	/* (172530117 + 96481403) x 8 / 0.78 */
	{ __LINE__, "hsw-stream", WR_L1, 2759092513.0,
	  "estimate at 8 bytes per access" },
	{ __LINE__, "hsw-stream", WR_L1, 2759092513.0,
	  "counted 80% of the time (PMU multiplexed)" },
	/* L1D:REPLACEMENT 135650377 x 64 / 0.78 */
	{ __LINE__, "hsw-stream", WR_L2, 11130287340.0, "scaled" },
	/* L2_LINES_IN:ALL 135118604 x 64 / 0.78 */
	{ __LINE__, "hsw-stream", WR_L3, 11086654690.0, "scaled" },
	/* LONGEST_LAT_CACHE:MISS 134402911 x 64 / 0.78 */
	{ __LINE__, "hsw-stream", WR_DRAM, 11027931160.0,
	  "write-backs not counted" },
	/* Haswell compute-bound, nothing multiplexed */
	{ __LINE__, "hsw-compute", WR_INSTRUCTIONS, 11310505000.0, NULL },
	{ __LINE__, "hsw-compute", WR_L1, 119575213.9,
	  "loads and stores retired" },
	{ __LINE__, "hsw-compute", WR_L2, 30331717.41, NULL },
	{ __LINE__, "hsw-compute", WR_L3, 6401862.687, NULL },
	{ __LINE__, "hsw-compute", WR_DRAM, 1883860.697, "reads only" },
	/* Zen 3: sums of several events, one shared by L3 and DRAM */
	{ __LINE__, "zen3-stream", WR_INSTRUCTIONS, 935193732.3,
	  "counted 67% of the time" },
	{ __LINE__, "zen3-stream", WR_L1, 3480812039.0,
	  "speculative ones too" },
	{ __LINE__, "zen3-stream", WR_L2, 13833483660.0, "scaled" },
	/* (12104556 + 2301775 + 120388104) x 64 / 0.62 */
	{ __LINE__, "zen3-stream", WR_L3, 13914264260.0, "scaled" },
	/* (11592330 + 120388104) x 64 / 0.62 */
	{ __LINE__, "zen3-stream", WR_DRAM, 13623786740.0, "reads only" },
	/* generic events only, two refused */
	{ __LINE__, "generic-partial", WR_INSTRUCTIONS, 3e9, NULL },
	{ __LINE__, "generic-partial", WR_L1, -1,
	  "not measured: perf::PERF_COUNT_HW_CACHE_L1D:READ:ACCESS "
	  "unavailable: the kernel refuses it (No such file or directory)" },
	{ __LINE__, "generic-partial", WR_L2, 8e8,
	  "lower bound: demand load misses only" },
	{ __LINE__, "generic-partial", WR_L3, -1,
	  "not measured: no event for l2_misses is known on PMU perf" },
	{ __LINE__, "generic-partial", WR_DRAM, -1,
	  "PERF_COUNT_HW_CACHE_LL:READ:MISS unavailable: the kernel refuses "
	  "it (Operation not supported)" },
};

static void load(const char *name, struct counters_reading *rd)
{
	struct pandia_error err;
	char *path = xasprintf(DATA "%s.json", name);

	counters_reading_init(rd);
	ck_assert_msg(counters_reading_load(path, rd, &err) == 0, "%s: %s",
		      path, err.text);
	free(path);
}

START_TEST(test_replay)
{
	struct wl_param demand[WR_COUNT];
	bool listed[WR_COUNT] = { false };
	struct counters_reading rd;
	struct pandia_error err;
	const struct wl_param *p;
	int line = replay_rows[_i].line, r;

	memset(demand, 0, sizeof(demand));
	load(replay_rows[_i].file, &rd);
	ck_assert_msg(counters_compute(&rd, NULL, "run1", listed, demand,
				       &err) == 0, "line %d: %s", line,
		      err.text);
	p = &demand[replay_rows[_i].res];
	ck_assert_msg(listed[replay_rows[_i].res], "line %d: not listed",
		      line);
	ck_assert_msg(!listed[WR_INTERCONNECT], "interconnect listed");
	if (replay_rows[_i].value < 0) {
		ck_assert_msg(!p->known, "line %d: known as %g", line,
			      p->value);
	} else {
		ck_assert_msg(p->known, "line %d: not known: %s", line,
			      p->status);
		ck_assert_msg(fabs(p->value / replay_rows[_i].value - 1) <
			      1e-9, "line %d: %.10g, expected %.10g", line,
			      p->value, replay_rows[_i].value);
		ck_assert_str_eq(p->source, "run1");
	}
	if (replay_rows[_i].status)
		ck_assert_msg(p->status && strstr(p->status,
						  replay_rows[_i].status),
			      "line %d: status '%s'", line,
			      p->status ? p->status : "(none)");
	else
		ck_assert_msg(!p->status, "line %d: status '%s'", line,
			      p->status);
	for (r = 0; r < WR_COUNT; r++)
		wl_param_release(&demand[r]);
	counters_reading_release(&rd);
}
END_TEST

/* CPU use and the other roles read from a recording */
START_TEST(test_roles)
{
	struct counters_reading rd;
	const char *caveat;
	char *events, *why;
	double v;

	load("hsw-stream", &rd);
	ck_assert(counters_role_value(&rd, CR_TASK_CLOCK, &v, NULL, NULL,
				      NULL));
	ck_assert(fabs(v / 1e9 / rd.seconds - 0.995005) < 1e-6);
	ck_assert(counters_role_value(&rd, CR_L1_ACCESSES, &v, &caveat,
				      &events, &why));
	ck_assert(fabs(v - (172530117.0 + 96481403.0)) < 0.5);
	ck_assert_str_eq(events, "hsw::MEM_UOPS_RETIRED:ALL_LOADS + "
			 "hsw::MEM_UOPS_RETIRED:ALL_STORES");
	ck_assert_ptr_null(why);
	free(events);
	counters_reading_release(&rd);

	load("generic-partial", &rd);
	ck_assert(!counters_role_value(&rd, CR_LLC_MISSES, &v, NULL, &events,
				       &why));
	ck_assert_ptr_null(events);
	ck_assert(strstr(why, "PERF_COUNT_HW_CACHE_LL:READ:MISS"));
	free(why);
	counters_reading_release(&rd);
}
END_TEST

/*
 * A PMU-specific event that failed falls back to the generic one, with
 * the generic one's caveat; one part of a sum missing loses the sum.
 */
static const char fallback_text[] =
	"{\"schema\": \"pandia-counters/1\", \"pmu\": \"hsw\",\n"
	" \"seconds\": 2, \"events\": [\n"
	"  {\"event\": \"perf::PERF_COUNT_HW_INSTRUCTIONS\", \"value\": 100},\n"
	"  {\"event\": \"hsw::L1D:REPLACEMENT\", \"error\": \"refused\"},\n"
	"  {\"event\": \"perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS\",\n"
	"   \"value\": 1000},\n"
	"  {\"event\": \"hsw::MEM_UOPS_RETIRED:ALL_LOADS\", \"value\": 7},\n"
	"  {\"event\": \"hsw::MEM_UOPS_RETIRED:ALL_STORES\",\n"
	"   \"error\": \"the kernel refuses it (Invalid argument)\"}\n"
	" ]}\n";

START_TEST(test_fallback)
{
	struct wl_param demand[WR_COUNT];
	bool listed[WR_COUNT] = { false };
	struct counters_reading rd;
	struct pandia_error err;
	int r;

	memset(demand, 0, sizeof(demand));
	counters_reading_init(&rd);
	ck_assert_msg(counters_reading_parse(fallback_text, "fallback", &rd,
					     &err) == 0, "%s", err.text);
	ck_assert_int_eq(counters_compute(&rd, NULL, NULL, listed, demand,
					  &err), 0);
	ck_assert(demand[WR_INSTRUCTIONS].known);
	ck_assert(demand[WR_INSTRUCTIONS].value == 50);
	ck_assert_ptr_null(demand[WR_INSTRUCTIONS].source);
	ck_assert(demand[WR_L2].known);
	ck_assert(demand[WR_L2].value == 1000 * 64 / 2);
	ck_assert(strstr(demand[WR_L2].status, "lower bound"));
	/* the generic L1D access event was not in the reading */
	ck_assert(!demand[WR_L1].known);
	ck_assert_msg(strstr(demand[WR_L1].status,
			     "hsw::MEM_UOPS_RETIRED:ALL_STORES unavailable: "
			     "the kernel refuses it (Invalid argument)"),
		      "%s", demand[WR_L1].status);
	ck_assert(!demand[WR_L3].known);
	ck_assert_msg(strstr(demand[WR_L3].status,
			     "hsw::L2_LINES_IN:ALL was not counted"), "%s",
		      demand[WR_L3].status);

	/* half a sum: the missing half is named */
	counters_reading_release(&rd);
	rd.pmu = xstrdup("hsw");
	rd.seconds = 1;
	counters_reading_add(&rd, "hsw::MEM_UOPS_RETIRED:ALL_LOADS", true, 5,
			     0, 0, NULL);
	ck_assert_int_eq(counters_compute(&rd, NULL, NULL, listed, demand,
					  &err), 0);
	ck_assert(!demand[WR_L1].known);
	ck_assert_msg(!strcmp(demand[WR_L1].status, "not measured: "
			      "hsw::MEM_UOPS_RETIRED:ALL_STORES was not "
			      "counted"), "%s", demand[WR_L1].status);
	for (r = 0; r < WR_COUNT; r++)
		wl_param_release(&demand[r]);
	counters_reading_release(&rd);
}
END_TEST

/* a level the machine does not have is not measured, and says so */
START_TEST(test_machine_levels)
{
	struct pandia_machine *m = machine_new();
	struct wl_param demand[WR_COUNT];
	bool listed[WR_COUNT] = { false };
	struct counters_reading rd;
	struct pandia_error err;
	int l, r;

	for (l = 0; l < LVL_COUNT; l++)
		m->links[l].present = l != LVL_L3 && l != LVL_INTERCONNECT;
	m->links[LVL_L3].reason = xstrdup("no L3 cache");
	memset(demand, 0, sizeof(demand));
	load("hsw-compute", &rd);
	ck_assert_int_eq(counters_compute(&rd, m, "run1", listed, demand,
					  &err), 0);
	ck_assert(listed[WR_L3]);
	ck_assert(!demand[WR_L3].known);
	ck_assert_msg(strstr(demand[WR_L3].status, "has no L3 link: no L3 "
			     "cache"), "%s", demand[WR_L3].status);
	ck_assert(demand[WR_DRAM].known);
	rd.seconds = 0;
	ck_assert_int_eq(counters_compute(&rd, m, "run1", listed, demand,
					  &err), -1);
	ck_assert(strstr(err.text, "must be positive"));
	for (r = 0; r < WR_COUNT; r++)
		wl_param_release(&demand[r]);
	counters_reading_release(&rd);
	machine_free(m);
}
END_TEST

/* a recording written and read back is the same */
START_TEST(test_round_trip)
{
	struct counters_reading a, b;
	struct pandia_error err;
	char *t1, *t2;
	int i;

	load("zen3-stream", &a);
	t1 = counters_reading_to_string(&a);
	counters_reading_init(&b);
	ck_assert_msg(counters_reading_parse(t1, "t1", &b, &err) == 0, "%s",
		      err.text);
	ck_assert_int_eq(a.n_events, b.n_events);
	for (i = 0; i < a.n_events; i++) {
		ck_assert_str_eq(a.events[i].name, b.events[i].name);
		ck_assert(a.events[i].value == b.events[i].value);
		ck_assert(a.events[i].running == b.events[i].running);
	}
	ck_assert_str_eq(b.pmu, "amd64_fam19h_zen3");
	t2 = counters_reading_to_string(&b);
	ck_assert_str_eq(t1, t2);
	free(t1);
	free(t2);
	counters_reading_release(&a);
	counters_reading_release(&b);
}
END_TEST

#define HEAD "{\"schema\": \"pandia-counters/1\", \"pmu\": \"hsw\", "
static const struct {
	int line;
	const char *text;
	const char *msg;
} bad_rows[] = {
	{ __LINE__, "{", "not valid JSON" },
	{ __LINE__, "[]", "the top level must be an object" },
	{ __LINE__, "{\"schema\": \"pandia-counters/2\"}",
	  "schema: is 'pandia-counters/2', expected 'pandia-counters/1'" },
	{ __LINE__, HEAD "\"events\": []}", "missing field 'seconds'" },
	{ __LINE__, HEAD "\"seconds\": 0, \"events\": []}",
	  "seconds: must be positive" },
	{ __LINE__, HEAD "\"seconds\": 1}", "missing field 'events'" },
	{ __LINE__, HEAD "\"seconds\": 1, \"events\": {}}",
	  "events: must be an array, not an object" },
	{ __LINE__, HEAD "\"seconds\": 1, \"secs\": 1, \"events\": []}",
	  "secs: unknown field 'secs'" },
	{ __LINE__, HEAD "\"seconds\": 1, \"events\": [{\"value\": 1}]}",
	  "events[0]: missing field 'event'" },
	{ __LINE__, HEAD "\"seconds\": 1, \"events\": [{\"event\": \"a\"}]}",
	  "events[0]: missing field 'value'" },
	{ __LINE__, HEAD "\"seconds\": 1, \"events\": [{\"event\": \"a\", "
	  "\"value\": -1}]}", "events[0].value: must not be negative" },
	{ __LINE__, HEAD "\"seconds\": 1, \"events\": [{\"event\": \"a\", "
	  "\"value\": 1, \"error\": \"x\"}]}",
	  "has both 'value' and 'error'" },
	{ __LINE__, HEAD "\"seconds\": 1, \"events\": [{\"event\": \"a\", "
	  "\"value\": 1, \"enabled\": 1, \"running\": 2}]}",
	  "'running' (2) exceeds 'enabled' (1)" },
	{ __LINE__, HEAD "\"seconds\": 1, \"events\": [{\"event\": \"a\", "
	  "\"value\": 1}, {\"event\": \"a\", \"value\": 2}]}",
	  "events[1]: event 'a' is listed twice" },
	{ __LINE__, HEAD "\"seconds\": 1, \"kernel\": 1, \"events\": []}",
	  "kernel: must be true or false, not an integer" },
};

START_TEST(test_bad_recording)
{
	struct counters_reading rd;
	struct pandia_error err;

	counters_reading_init(&rd);
	ck_assert_msg(counters_reading_parse(bad_rows[_i].text, "bad.json",
					     &rd, &err) == -1,
		      "line %d accepted", bad_rows[_i].line);
	ck_assert_msg(strstr(err.text, bad_rows[_i].msg), "line %d: %s",
		      bad_rows[_i].line, err.text);
	ck_assert_str_eq(err.source, "bad.json");
	ck_assert_msg(err.line > 0, "line %d: no line number",
		      bad_rows[_i].line);
	ck_assert_int_eq(rd.n_events, 0);
	counters_reading_release(&rd);
}
END_TEST

/* ---- when perf cannot count ---------------------------------------- */

#define PARANOID_ADVICE "set /proc/sys/kernel/perf_event_paranoid to 1 " \
	"or lower"
static const struct {
	int line;
	struct counters_host h;
	bool usable, kernel;
	const char *msg[4];	/* parts of the message */
} host_rows[] = {
	/* everything allowed */
	{ __LINE__, { 0, 0, 0, -1, false, false, 0, true }, true, true,
	  { NULL } },
	/* paranoid 2: user mode only */
	{ __LINE__, { 0, 0, EACCES, 2, false, false, 0, true }, true, false,
	  { NULL } },
	/* this host: a KVM guest without a virtual PMU */
	{ __LINE__, { 0, ENOENT, ENOENT, 2, true, true, 0, false }, false,
	  false, { "hardware events not supported",
		   "no PMU is exposed to this machine",
		   "use --counters probe, which needs no PMU" } },
	{ __LINE__, { 0, EOPNOTSUPP, EOPNOTSUPP, 1, false, false, 0, false },
	  false, false, { "hardware events not supported",
			  "Operation not supported", "--counters probe" } },
	/* a PMU the kernel lists that will not count instructions */
	{ __LINE__, { 0, ENOENT, ENOENT, 1, false, false, 0, true }, false,
	  false, { "kernel lists a cpu PMU", "--counters probe" } },
	/* Debian's default paranoid 3, no capabilities */
	{ __LINE__, { EACCES, EACCES, EACCES, 3, false, false, 0, true },
	  false, false, { "perf_event_paranoid is 3",
			  "neither CAP_PERFMON nor CAP_SYS_ADMIN",
			  PARANOID_ADVICE, "or grant CAP_PERFMON" } },
	{ __LINE__, { 0, EACCES, EACCES, 4, false, false, 0, true },
	  false, false, { "perf_event_paranoid is 4", "grant CAP_PERFMON",
			  "--counters probe" } },
	/* a container's seccomp profile */
	{ __LINE__, { EPERM, EPERM, EPERM, 2, false, false, 2, true },
	  false, false, { "a seccomp filter blocks it",
			  "Operation not permitted", "--counters probe" } },
	{ __LINE__, { EPERM, EPERM, EPERM, 3, false, false, 2, true },
	  false, false, { "a seccomp filter blocks it", "--counters probe" } },
	{ __LINE__, { ENOSYS, ENOSYS, ENOSYS, 2, true, true, 2, true },
	  false, false, { "seccomp", "--counters probe" } },
	/* refused although allowed: a security module */
	{ __LINE__, { EACCES, EACCES, EACCES, 1, true, false, 0, true },
	  false, false, { "security module", "CAP_PERFMON",
			  "--counters probe" } },
	/* no perf events in the kernel */
	{ __LINE__, { ENOSYS, ENOSYS, ENOSYS, -100, false, false, 0, false },
	  false, false, { "this kernel has no perf events",
			  "--counters probe" } },
	{ __LINE__, { 0, EBUSY, EBUSY, 1, false, false, 0, true }, false,
	  false, { "failed for the instructions event",
		   "Device or resource busy", "--counters probe" } },
};

START_TEST(test_host)
{
	bool kernel = !host_rows[_i].kernel;
	char *why = (char *)"unset";
	int line = host_rows[_i].line, k;
	bool usable = counters_host_usable(&host_rows[_i].h, &kernel, &why);

	ck_assert_msg(usable == host_rows[_i].usable, "line %d: %s", line,
		      why ? why : "usable");
	ck_assert_msg(kernel == host_rows[_i].kernel, "line %d: kernel",
		      line);
	if (usable) {
		ck_assert_ptr_null(why);
		return;
	}
	ck_assert_msg(!strncmp(why, "perf counters unavailable: ", 27),
		      "line %d: %s", line, why);
	ck_assert_msg(strstr(why, "use --counters probe, which needs no PMU"),
		      "line %d: no probe advice: %s", line, why);
	ck_assert_msg(strlen(why) < sizeof(((struct pandia_error *)0)->text),
		      "line %d: too long for an error (%zu)", line,
		      strlen(why));
	for (k = 0; k < 4 && host_rows[_i].msg[k]; k++)
		ck_assert_msg(strstr(why, host_rows[_i].msg[k]),
			      "line %d: no '%s' in: %s", line,
			      host_rows[_i].msg[k], why);
	free(why);
}
END_TEST

static const int cpu0[] = { 0 };

/*
 * On this host: when perf is unavailable, --counters perf fails with
 * the reason and the probe alternative, auto chooses probe without
 * running anything.  On a host with a PMU, auto counts a small
 * command.
 */
START_TEST(test_this_host)
{
	struct counters_result res;
	struct pandia_error err;
	struct run_opts o;
	bool kernel;
	char *why = NULL;
	char **argv = tk_argv("sh", "-c", "i=0; while [ $i -lt 20000 ]; "
			      "do i=$((i+1)); done");

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	counters_result_init(&res);
	if (counters_perf_available(&kernel, &why)) {
		fprintf(stderr, "check_counters: this host has a PMU: "
			"counting a run\n");
		ck_assert_msg(counters_demands(COUNTERS_AUTO, NULL, &o, argv,
					       "run1", &res, &err) ==
			      COUNTERS_MEASURED, "%s", err.text);
		ck_assert_str_eq(res.backend, "perf");
		ck_assert(res.listed[WR_INSTRUCTIONS]);
		ck_assert_msg(res.demand[WR_INSTRUCTIONS].known &&
			      res.demand[WR_INSTRUCTIONS].value > 1e6, "%s",
			      res.demand[WR_INSTRUCTIONS].status);
		ck_assert(res.n_counters >= 2);
		ck_assert(res.note && strstr(res.note, "perf"));
		counters_result_release(&res);
		return;
	}
	fprintf(stderr, "check_counters: no perf here: %s\n", why);
	ck_assert_msg(strstr(why, "--counters probe"), "%s", why);

	/* --counters perf: an error, with the same reason */
	ck_assert_int_eq(counters_demands(COUNTERS_PERF, NULL, &o, argv,
					  "run1", &res, &err), -1);
	ck_assert_str_eq(err.text, why);
	ck_assert_int_eq(res.run.n_times, 0);
	counters_result_release(&res);

	/* --counters auto: probe, nothing run */
	ck_assert_int_eq(counters_demands(COUNTERS_AUTO, NULL, &o, argv,
					  "run1", &res, &err),
			 COUNTERS_UNAVAILABLE);
	ck_assert_str_eq(res.why, why);
	ck_assert_ptr_null(res.backend);
	ck_assert_int_eq(res.run.n_times, 0);
	ck_assert_int_eq(res.n_counters, 0);
	ck_assert(!res.listed[WR_INSTRUCTIONS]);
	ck_assert_str_eq(err.text, "");
	counters_result_release(&res);
	free(why);
}
END_TEST

/* --counters probe, and a runner template, never use perf */
START_TEST(test_no_perf_cases)
{
	struct counters_result res;
	struct pandia_error err;
	struct run_opts o;
	char **argv = tk_argv("true", NULL, NULL);

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	counters_result_init(&res);
	ck_assert_int_eq(counters_demands(COUNTERS_PROBE, NULL, &o, argv,
					  "run1", &res, &err),
			 COUNTERS_UNAVAILABLE);
	ck_assert(strstr(res.why, "--counters probe"));
	counters_result_release(&res);

	o.runner = "ssh elsewhere {cmd}";
	ck_assert_int_eq(counters_demands(COUNTERS_AUTO, NULL, &o, argv,
					  "run1", &res, &err),
			 COUNTERS_UNAVAILABLE);
	ck_assert(strstr(res.why, "--runner"));
	ck_assert(strstr(res.why, "--counters probe"));
	counters_result_release(&res);
	ck_assert_int_eq(counters_demands(COUNTERS_PERF, NULL, &o, argv,
					  "run1", &res, &err), -1);
	ck_assert(strstr(err.text, "--runner"));
	counters_result_release(&res);
}
END_TEST

/* ---- the counting mechanism, with software events ----------------- */

static const char *const sw_events[] = {
	"perf::PERF_COUNT_SW_TASK_CLOCK",
	"perf::PERF_COUNT_HW_INSTRUCTIONS",
	"perf::NO_SUCH_EVENT",
};

static double children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static const struct counters_event *event(const struct counters_reading *rd,
					  const char *name)
{
	int i;

	for (i = 0; i < rd->n_events; i++)
		if (!strcmp(rd->events[i].name, name))
			return &rd->events[i];
	ck_abort_msg("%s not in the reading", name);
	return NULL;
}

/*
 * The events follow the command into every process it starts: the
 * task-clock of two busy shells in parallel is the CPU time the
 * children used (getrusage), whatever CPUs they got.
 */
START_TEST(test_count_inherit)
{
	const struct counters_event *e;
	struct counters_reading rd;
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	double before, used;
	char **argv = tk_argv("sh", "-c", "l() { i=0; "
			      "while [ $i -lt 150000 ]; "
			      "do i=$((i+1)); done; }; l & l; wait");

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	o.repetitions = 5;	/* overridden: one counted run */
	counters_reading_init(&rd);
	run_result_init(&r);
	before = children_cpu();
	ck_assert_msg(counters_count(sw_events, (int)ARRAY_SIZE(sw_events),
				     false, &o, argv, &rd, &r, &err) == 0,
		      "%s", err.text);
	used = children_cpu() - before;
	ck_assert_int_eq(r.n_times, 1);
	ck_assert(isnan(r.warmup_time));
	ck_assert(rd.seconds > 0);
	e = event(&rd, "perf::PERF_COUNT_SW_TASK_CLOCK");
	ck_assert_msg(e->counted, "%s", e->error);
	ck_assert(e->enabled > 0 && e->running > 0);
	fprintf(stderr, "check_counters: task-clock %.3f s, children's CPU "
		"time %.3f s, wall %.3f s\n", e->value / 1e9, used,
		rd.seconds);
	ck_assert_msg(fabs(e->value / 1e9 - used) < 0.2 * used + 0.02,
		      "task-clock %.3f s, children used %.3f s",
		      e->value / 1e9, used);
	e = event(&rd, "perf::NO_SUCH_EVENT");
	ck_assert(!e->counted);
	ck_assert_msg(strstr(e->error, "libpfm4 cannot encode it"), "%s",
		      e->error);
	e = event(&rd, "perf::PERF_COUNT_HW_INSTRUCTIONS");
	if (!e->counted)
		ck_assert_msg(strstr(e->error, "the kernel refuses it"), "%s",
			      e->error);
	counters_reading_release(&rd);
	run_result_release(&r);
}
END_TEST

/*
 * Nothing but the command is counted: not pandia (which polls /proc
 * meanwhile) and not a co-run stressor, forked without exec, that
 * burns a CPU for the whole run.
 */
START_TEST(test_count_only_command)
{
	const struct counters_event *e;
	struct counters_reading rd;
	struct run_stressor st;
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	char **argv = tk_argv("sleep", "0.5", NULL);
	double before;

	ck_assert_msg(run_stressor_parse("cpu@0", &st, &err) == 0, "%s",
		      err.text);
	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	o.stress = &st;
	o.n_stress = 1;
	counters_reading_init(&rd);
	run_result_init(&r);
	before = children_cpu();
	ck_assert_msg(counters_count(sw_events, 1, false, &o, argv, &rd, &r,
				     &err) == 0, "%s", err.text);
	/* the stressor did work meanwhile */
	ck_assert_int_eq(r.n_stress, 1);
	ck_assert_msg(r.stress[0].median > 0, "stressor rate %g",
		      r.stress[0].median);
	fprintf(stderr, "check_counters: stressor used %.3f s of CPU\n",
		children_cpu() - before);
	e = event(&rd, "perf::PERF_COUNT_SW_TASK_CLOCK");
	ck_assert_msg(e->counted, "%s", e->error);
	ck_assert_msg(rd.seconds >= 0.45, "%.3f s", rd.seconds);
	ck_assert_msg(e->value / 1e9 < 0.05, "task-clock %.3f s over "
		      "%.3f s: more than sleep", e->value / 1e9, rd.seconds);
	counters_reading_release(&rd);
	run_result_release(&r);
	run_stressor_release(&st);
}
END_TEST

/* ---- moving a result into a workload ------------------------------- */

START_TEST(test_apply)
{
	struct pandia_workload *w = workload_new(), *w2;
	struct pandia_params *pp = pandia_params(w);
	char *text;
	struct counters_result res;
	struct pandia_error err;
	struct wl_run run;
	int i;

	memset(&run, 0, sizeof(run));
	run.n_counters = 1;
	run.counter_names = xcalloc(1, sizeof(char *));
	run.counter_names[0] = xstrdup("old");
	run.counter_values = xcalloc(1, sizeof(double));
	counters_result_init(&res);
	load("hsw-stream", &res.reading);
	ck_assert_int_eq(counters_result_fill(&res, NULL, "run1", &err), 0);
	ck_assert_str_eq(res.backend, "perf");
	ck_assert(res.seconds == 0.78);
	ck_assert(fabs(res.cpu_use - 0.995005) < 1e-6);
	ck_assert_msg(strstr(res.note, "perf (libpfm4, PMU hsw): one more run "
			     "at run1's placement") &&
		      strstr(res.note, "user mode only"), "%s", res.note);
	ck_assert_msg(!strstr(res.note, "not measured"), "%s", res.note);
	/* every event of the recording, and the seconds they cover */
	ck_assert_int_eq(res.n_counters, 9);
	ck_assert_str_eq(res.counter_names[5], "hsw::L1D:REPLACEMENT");
	ck_assert(res.counter_values[5] == 135650377);
	ck_assert_str_eq(res.counter_names[8], "wall_seconds");
	ck_assert(res.counter_values[8] == 0.78);
	counters_result_apply(&res, w, &run);
	ck_assert_str_eq(w->counters, "perf");
	ck_assert(strstr(w->counters_note, "perf (libpfm4, PMU hsw)"));
	for (i = WR_INSTRUCTIONS; i <= WR_DRAM; i++) {
		ck_assert(pp->listed[i]);
		ck_assert(pp->demand[i].known);
		ck_assert(!res.demand[i].known);
		ck_assert_ptr_null(res.demand[i].status);
	}
	ck_assert(!pp->listed[WR_INTERCONNECT]);
	/* the workload file holds them, caveats included */
	wl_param_set(&pp->t1, 0.78, NAN, NULL);
	wl_param_set(&pp->p, 1, NAN, NULL);
	wl_param_set(&pp->o_s, 0, NAN, NULL);
	wl_param_set(&pp->l, 0, NAN, NULL);
	wl_param_set(&pp->b, 0, NAN, NULL);
	text = workload_to_string(w);
	w2 = workload_parse(text, "applied", &err);
	ck_assert_msg(w2 != NULL, "%s\n%s", err.text, text);
	ck_assert(fabs(pandia_params(w2)->demand[WR_DRAM].value /
		       11027931160.0 - 1) < 1e-9);
	ck_assert_str_eq(pandia_params(w2)->demand[WR_DRAM].status,
			 pp->demand[WR_DRAM].status);
	ck_assert_str_eq(w2->counters, "perf");
	free(text);
	workload_free(w2);
	ck_assert_int_eq(run.n_counters, 9);
	ck_assert_str_eq(run.counter_names[0],
			 "perf::PERF_COUNT_HW_INSTRUCTIONS");
	ck_assert_int_eq(res.n_counters, 0);
	ck_assert_ptr_null(res.note);
	counters_result_release(&res);
	for (i = 0; i < run.n_counters; i++)
		free(run.counter_names[i]);
	free(run.counter_names);
	free(run.counter_values);
	workload_free(w);
}
END_TEST

/* what perf could not measure is named in the note */
START_TEST(test_fill_missing)
{
	struct counters_result res;
	struct pandia_error err;

	counters_result_init(&res);
	load("generic-partial", &res.reading);
	ck_assert_int_eq(counters_result_fill(&res, NULL, "run1", &err), 0);
	ck_assert_msg(strstr(res.note, "; not measured: L1; L3; dram"), "%s",
		      res.note);
	ck_assert_int_eq(res.n_counters, 5);	/* 4 counted + seconds */
	ck_assert(!res.demand[WR_DRAM].known);
	counters_result_release(&res);
}
END_TEST

/* ---- encoding without the hardware --------------------------------- */

/*
 * Every event pandia uses on these PMU models must encode.  The PMUs
 * are the models of the tables in counters.c, Intel and AMD.
 */
static const struct {
	int line;
	const char *pmu;
	int min_events;		/* at least this many (role, event) */
} pmu_rows[] = {
	{ __LINE__, "snb", 10 },
	{ __LINE__, "ivb", 10 },
	{ __LINE__, "hsw", 10 },
	{ __LINE__, "hsw_ep", 10 },
	{ __LINE__, "bdw", 10 },
	{ __LINE__, "skl", 10 },
	{ __LINE__, "skx", 10 },
	{ __LINE__, "icl", 10 },
	{ __LINE__, "icx", 10 },
	{ __LINE__, "spr", 10 },
	{ __LINE__, "amd64_fam17h_zen1", 11 },
	{ __LINE__, "amd64_fam17h_zen2", 15 },
	{ __LINE__, "amd64_fam19h_zen3", 13 },
	{ __LINE__, "amd64_fam19h_zen4", 13 },
	{ __LINE__, "perf", 6 },
};

START_TEST(test_encode_all)
{
	struct counters_encoding *enc;
	struct pandia_error err;
	int n, i, roles[CR_COUNT] = { 0 };

	ck_assert_msg(counters_encode(pmu_rows[_i].pmu, false, &enc, &n,
				      &err) == 0, "line %d: %s",
		      pmu_rows[_i].line, err.text);
	ck_assert_msg(n >= pmu_rows[_i].min_events, "line %d: %d events",
		      pmu_rows[_i].line, n);
	for (i = 0; i < n; i++) {
		ck_assert_msg(!enc[i].error, "line %d: %s: %s",
			      pmu_rows[_i].line, enc[i].event, enc[i].error);
		ck_assert_msg(enc[i].exclude_kernel, "line %d: %s counts "
			      "kernel mode", pmu_rows[_i].line,
			      enc[i].event);
		roles[enc[i].role]++;
	}
	/* every role but l2_misses has a generic fallback at least */
	for (i = 0; i < CR_COUNT; i++)
		if (i != CR_L2_MISSES)
			ck_assert_msg(roles[i] > 0, "line %d: no event for "
				      "%s", pmu_rows[_i].line,
				      counters_role_name(i));
	counters_encodings_free(enc, n);
}
END_TEST

/*
 * Encodings checked against the vendors' documentation: perf type 4
 * (PERF_TYPE_RAW) with config umask << 8 | event code; generic ones as
 * the kernel's PERF_TYPE_HARDWARE / HW_CACHE / SOFTWARE numbers.
 */
static const struct {
	int line;
	const char *pmu;
	const char *event;
	unsigned type;
	unsigned long long config;
} code_rows[] = {
	/* Intel SDM vol. 3B, Haswell: L1D.REPLACEMENT 51H/01H */
	{ __LINE__, "hsw", "hsw::L1D:REPLACEMENT", 4, 0x0151 },
	/* MEM_UOPS_RETIRED.ALL_LOADS D0H/81H, ALL_STORES D0H/82H */
	{ __LINE__, "hsw", "hsw::MEM_UOPS_RETIRED:ALL_LOADS", 4, 0x81d0 },
	{ __LINE__, "hsw", "hsw::MEM_UOPS_RETIRED:ALL_STORES", 4, 0x82d0 },
	/* L2_LINES_IN.ALL F1H/07H */
	{ __LINE__, "hsw", "hsw::L2_LINES_IN:ALL", 4, 0x07f1 },
	/* LONGEST_LAT_CACHE.MISS 2EH/41H (architectural) */
	{ __LINE__, "hsw", "hsw::LONGEST_LAT_CACHE:MISS", 4, 0x412e },
	{ __LINE__, "skl", "skl::MEM_INST_RETIRED:ALL_LOADS", 4, 0x81d0 },
	/* Ice Lake: L2_LINES_IN.ALL F1H/1FH */
	{ __LINE__, "icl", "icl::L2_LINES_IN:ALL", 4, 0x1ff1 },
	/* AMD PPR family 19h: LsDispatch 029H, loads umask 01H */
	{ __LINE__, "amd64_fam19h_zen3",
	  "amd64_fam19h_zen3::LS_DISPATCH:LD_DISPATCH", 4, 0x0129 },
	/* LsAnyFillsFromSys 044H, all sources 5FH */
	{ __LINE__, "amd64_fam19h_zen3",
	  "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:"
	  "INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT",
	  4, 0x5f44 },
	/* L2CacheReqStat 064H, LsRdBlkC 08H */
	{ __LINE__, "amd64_fam19h_zen3",
	  "amd64_fam19h_zen3::CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:"
	  "LS_RD_BLK_C", 4, 0x0864 },
	/* L2PfMissL2L3 072H, L2 hardware prefetcher */
	{ __LINE__, "amd64_fam19h_zen3",
	  "amd64_fam19h_zen3::L2_PREFETCH_MISS_L3:L2_HW_PREFETCHER", 4,
	  0x1f72 },
	/* family 17h: L2PfHitL3 071H */
	{ __LINE__, "amd64_fam17h_zen2",
	  "amd64_fam17h_zen2::L2_PREFETCH_HIT_L3:ANY", 4, 0x1f71 },
	{ __LINE__, "perf", "perf::PERF_COUNT_HW_INSTRUCTIONS", 0, 1 },
	{ __LINE__, "perf", "perf::PERF_COUNT_HW_CPU_CYCLES", 0, 0 },
	{ __LINE__, "perf", "perf::PERF_COUNT_SW_TASK_CLOCK", 1, 1 },
	/* HW_CACHE: id | op << 8 | result << 16; L1D 0, LL 2 */
	{ __LINE__, "perf", "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS", 3,
	  0x10000 },
	{ __LINE__, "perf", "perf::PERF_COUNT_HW_CACHE_LL:READ:MISS", 3,
	  0x10002 },
};

START_TEST(test_encode_codes)
{
	struct counters_encoding *enc;
	struct pandia_error err;
	int n, i, line = code_rows[_i].line;

	ck_assert_msg(counters_encode(code_rows[_i].pmu, false, &enc, &n,
				      &err) == 0, "line %d: %s", line,
		      err.text);
	for (i = 0; i < n; i++)
		if (!strcmp(enc[i].event, code_rows[_i].event))
			break;
	ck_assert_msg(i < n, "line %d: %s not used", line,
		      code_rows[_i].event);
	ck_assert_msg(enc[i].type == code_rows[_i].type &&
		      enc[i].config == code_rows[_i].config,
		      "line %d: %s: type %u config %#llx", line,
		      enc[i].event, enc[i].type, enc[i].config);
	counters_encodings_free(enc, n);
}
END_TEST

START_TEST(test_encode_kernel_and_errors)
{
	struct counters_encoding *enc;
	struct pandia_error err;
	const char *host;
	int n, i;

	ck_assert_int_eq(counters_encode("hsw", true, &enc, &n, &err), 0);
	for (i = 0; i < n; i++)
		ck_assert_msg(!enc[i].exclude_kernel, "%s", enc[i].event);
	counters_encodings_free(enc, n);

	ck_assert_int_eq(counters_encode("no_such_pmu", false, &enc, &n,
					 &err), -1);
	ck_assert(strstr(err.text, "libpfm4 knows no PMU 'no_such_pmu'"));

	/* this host's PMU is found and its events encode, PMU or not */
	host = counters_host_pmu(&err);
	ck_assert_msg(host != NULL, "%s", err.text);
	fprintf(stderr, "check_counters: this host's PMU: %s\n", host);
	ck_assert_int_eq(counters_encode(NULL, false, &enc, &n, &err), 0);
	ck_assert(n >= 6);
	counters_encodings_free(enc, n);
}
END_TEST

/* The profiler's alternative cut off a reason, and nothing else. */
static const struct {
	const char *in, *out;
} advice_rows[] = {
	{ "no PMU is exposed; enable a virtual PMU (QEMU/KVM: -cpu "
	  "host,pmu=on) or use --counters probe, which needs no PMU",
	  "no PMU is exposed; enable a virtual PMU (QEMU/KVM: -cpu "
	  "host,pmu=on)" },
	{ "perf_event_paranoid is 3; lower it, or use --counters probe",
	  "perf_event_paranoid is 3; lower it" },
	{ "seccomp forbids perf_event_open; use --counters probe\nmore",
	  "seccomp forbids perf_event_open" },
	{ "nothing to cut, or\nsecond line",
	  "nothing to cut, or\nsecond line" },
	{ "", "" },
};

START_TEST(test_drop_probe_advice)
{
	char *why = xstrdup(advice_rows[_i].in);

	counters_drop_probe_advice(why);
	ck_assert_str_eq(why, advice_rows[_i].out);
	free(why);
}
END_TEST

static Suite *counters_suite(void)
{
	Suite *s = suite_create("counters");
	TCase *tc = tcase_create("counters");

	/* before libpfm4 starts (in each forked test) */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_mode, 0, (int)ARRAY_SIZE(mode_rows));
	tcase_add_loop_test(tc, test_replay, 0,
			    (int)ARRAY_SIZE(replay_rows));
	tcase_add_test(tc, test_roles);
	tcase_add_test(tc, test_fallback);
	tcase_add_test(tc, test_machine_levels);
	tcase_add_test(tc, test_round_trip);
	tcase_add_loop_test(tc, test_bad_recording, 0,
			    (int)ARRAY_SIZE(bad_rows));
	tcase_add_loop_test(tc, test_host, 0, (int)ARRAY_SIZE(host_rows));
	tcase_add_test(tc, test_this_host);
	tcase_add_test(tc, test_no_perf_cases);
	tcase_add_test(tc, test_count_inherit);
	tcase_add_test(tc, test_count_only_command);
	tcase_add_test(tc, test_apply);
	tcase_add_test(tc, test_fill_missing);
	tcase_add_loop_test(tc, test_encode_all, 0,
			    (int)ARRAY_SIZE(pmu_rows));
	tcase_add_loop_test(tc, test_encode_codes, 0,
			    (int)ARRAY_SIZE(code_rows));
	tcase_add_test(tc, test_encode_kernel_and_errors);
	tcase_add_loop_test(tc, test_drop_probe_advice, 0,
			    (int)ARRAY_SIZE(advice_rows));
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { counters_suite, NULL };
