/*
 * check_stalls.c - the stall categories of 'pandia extrapolate'
 * (profiler/stalls.h):
 *
 *   - --category specs: good ones split at '=' and the last ':', bad
 *     ones refused with the reason;
 *   - the value of a matching line: the group or the number after the
 *     match, counts and seconds (s, ms, us, ns);
 *   - the reducers, and min/max/avg of no value refused;
 *   - the PMU table: every event of every listed PMU encodes with
 *     libpfm4, without the hardware (LIBPFM_ENCODE_INACTIVE=1, as
 *     libpfm4's own tests do); a PMU not listed gets the generic event;
 *   - software categories: refused with a reason when the run
 *     has no accounting for the threads' waits, and sums them when
 *     it does.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

#include "common/util.h"
#include "profiler/stalls.h"
#include "tests/lib/testkit.h"

static const struct spec_row {
	int line;
	const char *spec;
	const char *name, *regex;	/* NULL: refused */
	enum stall_reducer reducer;
	const char *why;		/* part of the refusal */
} spec_rows[] = {
	{ __LINE__, "lock=lock wait: ([0-9.]+):sum", "lock",
	  "lock wait: ([0-9.]+)", STALL_SUM, NULL },
	{ __LINE__, "a_b-1=^x:max", "a_b-1", "^x", STALL_MAX, NULL },
	{ __LINE__, "m=t=([0-9]+):min", "m", "t=([0-9]+)", STALL_MIN, NULL },
	{ __LINE__, "v=a:b:avg", "v", "a:b", STALL_AVG, NULL },
	{ __LINE__, "x", NULL, NULL, 0, "NAME=REGEX:REDUCER" },
	{ __LINE__, "x:sum", NULL, NULL, 0, "NAME=REGEX:REDUCER" },
	{ __LINE__, "x=a:median", NULL, NULL, 0, "must be min, max, sum" },
	{ __LINE__, "x y=a:sum", NULL, NULL, 0, "letters, digits" },
	{ __LINE__, "=a:sum", NULL, NULL, 0, "letters, digits" },
	{ __LINE__, "x=:sum", NULL, NULL, 0, "is empty" },
	{ __LINE__, "x=a(:sum", NULL, NULL, 0, "bad regular expression" },
};

START_TEST(test_spec)
{
	const struct spec_row *row = &spec_rows[_i];
	struct pandia_error err;
	struct stall_user u;
	int rc = stall_user_parse(row->spec, &u, &err);

	if (!row->name) {
		ck_assert_msg(rc < 0, "line %d: '%s' accepted", row->line,
			      row->spec);
		ck_assert_msg(strstr(err.text, row->why), "line %d: '%s'",
			      row->line, err.text);
		return;
	}
	ck_assert_msg(rc == 0, "line %d: %s", row->line, err.text);
	ck_assert_str_eq(u.name, row->name);
	ck_assert_str_eq(u.regex, row->regex);
	ck_assert_int_eq(u.reducer, row->reducer);
	stall_user_release(&u);
}
END_TEST

static const struct match_row {
	int line;
	const char *spec, *text;
	bool match;
	double value;
	bool seconds;
} match_rows[] = {
	{ __LINE__, "a=lock ([0-9.e+]+):sum", "lock 1.5e9 cycles", true,
	  1.5e9, false },
	{ __LINE__, "a=lock:sum", "thread 3: lock: 42", true, 42, false },
	{ __LINE__, "a=lock:sum", "lock = 7 cycles", true, 7, false },
	{ __LINE__, "a=wait:sum", "wait 2 ms", true, 2e-3, true },
	{ __LINE__, "a=wait:sum", "wait 3us", true, 3e-6, true },
	{ __LINE__, "a=wait:sum", "wait 4 ns", true, 4e-9, true },
	{ __LINE__, "a=wait:sum", "wait 0.5 s", true, 0.5, true },
	{ __LINE__, "a=wait:sum", "wait 5 sec", true, 5, false },
	{ __LINE__, "a=wait:sum", "wait none", false, 0, false },
	{ __LINE__, "a=wait:sum", "no such line", false, 0, false },
	{ __LINE__, "a=(x)?y ([0-9]+):sum", "y 3", false, 0, false },
};

START_TEST(test_match)
{
	const struct match_row *row = &match_rows[_i];
	struct pandia_error err;
	struct stall_user u;
	double v = -1;
	bool secs = false, m;

	ck_assert_msg(stall_user_parse(row->spec, &u, &err) == 0, "%s",
		      err.text);
	m = stall_user_match(&u, row->text, &v, &secs);
	ck_assert_msg(m == row->match, "line %d: match %d", row->line, m);
	if (m) {
		ck_assert_msg(fabs(v - row->value) <= 1e-12 * fabs(row->value),
			      "line %d: %g", row->line, v);
		ck_assert_msg(secs == row->seconds, "line %d: seconds %d",
			      row->line, secs);
	}
	stall_user_release(&u);
}
END_TEST

START_TEST(test_reducers)
{
	static const double v[] = { 3, 1, 8 };
	struct stall_acc a;
	double r;
	size_t i;

	stall_acc_reset(&a);
	ck_assert(stall_acc_value(&a, STALL_SUM, &r) && r == 0);
	ck_assert(!stall_acc_value(&a, STALL_MIN, &r));
	ck_assert(!stall_acc_value(&a, STALL_MAX, &r));
	ck_assert(!stall_acc_value(&a, STALL_AVG, &r));
	for (i = 0; i < ARRAY_SIZE(v); i++)
		stall_acc_add(&a, v[i]);
	ck_assert(stall_acc_value(&a, STALL_SUM, &r) && r == 12);
	ck_assert(stall_acc_value(&a, STALL_MIN, &r) && r == 1);
	ck_assert(stall_acc_value(&a, STALL_MAX, &r) && r == 8);
	ck_assert(stall_acc_value(&a, STALL_AVG, &r) && r == 4);
	ck_assert_str_eq(stall_reducer_name(STALL_AVG), "avg");
}
END_TEST

/* every PMU of the table, and one that is not */
static const char *const pmus[] = {
	"snb", "ivb", "ivb_ep", "hsw", "hsw_ep", "bdw", "bdw_ep", "skl",
	"skx", "clx", "amd64_fam10h_barcelona", "amd64_fam10h_istanbul",
	"amd64_fam19h_zen3", "perf",
};

START_TEST(test_hw_encode)
{
	const struct stall_hw_event *ev;
	bool generic;
	int n, i, rc;

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	ck_assert_int_eq(pfm_initialize(), PFM_SUCCESS);
	ev = stalls_hw_events(pmus[_i], &n, &generic);
	ck_assert_int_ge(n, 1);
	ck_assert(generic == (!strcmp(pmus[_i], "amd64_fam19h_zen3") ||
			      !strcmp(pmus[_i], "perf")));
	if (!strcmp(pmus[_i], "hsw"))
		ck_assert_int_eq(n, 5);
	if (!strcmp(pmus[_i], "skl"))
		ck_assert_int_eq(n, 4);
	for (i = 0; i < n; i++) {
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		char *name = stalls_hw_event_name(pmus[_i], &ev[i]);

		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		arg.attr = &attr;
		arg.size = sizeof(arg);
		rc = pfm_get_os_event_encoding(name, PFM_PLM3,
					       PFM_OS_PERF_EVENT_EXT, &arg);
		ck_assert_msg(rc == PFM_SUCCESS, "%s: %s", name,
			      pfm_strerror(rc));
		ck_assert(strchr(ev[i].category, '.') == NULL);
		free(name);
	}
	pfm_terminate();
}
END_TEST

START_TEST(test_software)
{
	struct run_thread th[2];
	struct pandia_error err;
	struct run_result r;
	double out[STALL_SW_COUNT];
	int i;

	run_result_init(&r);
	ck_assert_int_eq(stalls_software(&r, 2e9, out, &err), -1);
	ck_assert(strstr(err.text, "runner template"));
	ck_assert_str_eq(stall_sw_name(STALL_SW_RUNQUEUE), "sw_runqueue");

	/* two threads' waits by kind, summed and turned into cycles */
	memset(th, 0, sizeof(th));
	for (i = 0; i < 2; i++) {
		th[i].blocked[RUN_BLOCK_MUTEX] = 0.1 * (i + 1);
		th[i].blocked[RUN_BLOCK_SEMAPHORE] = 0.01;
		th[i].blocked[RUN_BLOCK_BARRIER] = 0.2;
		th[i].blocked[RUN_BLOCK_CONDITION] = 0.05;
		th[i].blocked[RUN_BLOCK_JOIN] = 0.3 * i;
		th[i].blocked[RUN_BLOCK_OTHER] = 0.02;
		th[i].runqueue_wait = 0.5;
		th[i].cpu_time = 9;
	}
	r.threads = th;
	r.n_threads = 2;
	r.threads_created = -1;
	ck_assert_int_eq(stalls_software(&r, 2e9, out, &err), -1);
	ck_assert(strstr(err.text, "not accounted"));
	r.threads_created = 1;
	ck_assert_int_eq(stalls_software(&r, 2e9, out, &err), 0);
	ck_assert_double_eq_tol(out[STALL_SW_LOCK], 0.32 * 2e9, 1);
	ck_assert_double_eq_tol(out[STALL_SW_BARRIER], 0.4 * 2e9, 1);
	ck_assert_double_eq_tol(out[STALL_SW_COND], 0.1 * 2e9, 1);
	ck_assert_double_eq_tol(out[STALL_SW_RUNQUEUE], 1.0 * 2e9, 1);
	ck_assert_double_eq_tol(out[STALL_SW_BLOCKED], 0.34 * 2e9, 1);
	/* a process gone before its run-queue wait was read (NAN in the
	   accounting) adds nothing, and the sum stays a number */
	th[1].runqueue_wait = NAN;
	ck_assert_int_eq(stalls_software(&r, 2e9, out, &err), 0);
	ck_assert_double_eq_tol(out[STALL_SW_RUNQUEUE], 0.5 * 2e9, 1);
	ck_assert_int_eq(stalls_software(&r, 0, out, &err), -1);
	ck_assert(strstr(err.text, "frequency"));
}
END_TEST

START_TEST(test_host_frequency)
{
	const char *src = NULL;
	double hz = stalls_host_frequency(&src);

	/* where there is one, it is a clock and says where it came from */
	if (hz > 0) {
		ck_assert(hz > 1e7 && hz < 1e11);
		ck_assert(src != NULL);
	}
}
END_TEST

static Suite *stalls_suite(void)
{
	Suite *s = suite_create("stalls");
	TCase *tc = tcase_create("stalls");

	tcase_add_loop_test(tc, test_spec, 0, ARRAY_SIZE(spec_rows));
	tcase_add_loop_test(tc, test_match, 0, ARRAY_SIZE(match_rows));
	tcase_add_test(tc, test_reducers);
	tcase_add_loop_test(tc, test_hw_encode, 0, ARRAY_SIZE(pmus));
	tcase_add_test(tc, test_software);
	tcase_add_test(tc, test_host_frequency);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { stalls_suite, NULL };
