/*
 * check_run.c - the runner's library API (profiler/run.h): stressor
 * specs, placeholders, --time-from, statistics, and run_execute() on
 * small commands.
 */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "profiler/run.h"
#include "tests/lib/testkit.h"

/* ---- stressor specs ---------------------------------------------- */

static const struct {
	int line;
	const char *in;
	int kind;		/* -1: refused */
	int level;
	const char *pus;	/* or part of the error */
} stress_rows[] = {
	{ __LINE__, "cpu@1", STRESS_CPU, -1, "1" },
	{ __LINE__, "cpu@0,0,1", STRESS_CPU, -1, "0,0,1" },
	{ __LINE__, "bw:L2@1", STRESS_LOAD, LVL_L2, "1" },
	{ __LINE__, "bw:dram@0-2", STRESS_LOAD, LVL_DRAM, "0,1,2" },
	{ __LINE__, "bw:DRAM@0", STRESS_LOAD, LVL_DRAM, "0" },
	{ __LINE__, "bw:L3:rw@0", STRESS_LOAD_STORE, LVL_L3, "0" },
	{ __LINE__, "cpu", -1, 0, "expected KIND@LIST" },
	{ __LINE__, "@1", -1, 0, "expected KIND@LIST" },
	{ __LINE__, "gpu@1", -1, 0, "kind 'gpu'" },
	{ __LINE__, "bw:L5@1", -1, 0, "level 'L5'" },
	{ __LINE__, "bw:interconnect@1", -1, 0, "level 'interconnect'" },
	{ __LINE__, "bw:L1:wr@1", -1, 0, "':wr' is not ':rw'" },
	{ __LINE__, "cpu@", -1, 0, "empty PU list" },
	{ __LINE__, "cpu@1;2", -1, 0, "unexpected ';'" },
};

START_TEST(test_stressor_parse)
{
	struct pandia_error err;
	struct run_stressor s;
	char *list;

	if (stress_rows[_i].kind < 0) {
		ck_assert_msg(run_stressor_parse(stress_rows[_i].in, &s,
						 &err) == -1,
			      "line %d accepted", stress_rows[_i].line);
		ck_assert_msg(strstr(err.text, stress_rows[_i].pus),
			      "line %d: %s", stress_rows[_i].line, err.text);
		return;
	}
	ck_assert_msg(run_stressor_parse(stress_rows[_i].in, &s, &err) == 0,
		      "line %d: %s", stress_rows[_i].line, err.text);
	ck_assert_int_eq(s.kind, stress_rows[_i].kind);
	ck_assert_int_eq(s.level, stress_rows[_i].level);
	list = xasprintf("%d", s.pus[0]);
	for (int i = 1; i < s.n_pus; i++) {
		char *t = xasprintf("%s,%d", list, s.pus[i]);

		free(list);
		list = t;
	}
	ck_assert_str_eq(list, stress_rows[_i].pus);
	ck_assert_str_eq(s.spec, stress_rows[_i].in);
	free(list);
	run_stressor_release(&s);
}
END_TEST

/* ---- placeholders and quoting ------------------------------------ */

static const struct {
	int line;
	const char *in, *out;
} subst_rows[] = {
	{ __LINE__, "--threads={threads}", "--threads=3" },
	{ __LINE__, "{cpus}", "1,0,1" },
	{ __LINE__, "{cpus}{cpus}", "1,0,11,0,1" },
	{ __LINE__, "s={stress_cpus} k={stress_kind}", "s=0 k=cpu" },
	{ __LINE__, "awk '{print $1}'", "awk '{print $1}'" },
	{ __LINE__, "{", "{" },
	{ __LINE__, "{threads", "{threads" },
	{ __LINE__, "{cmd}", "{cmd}" },		/* no command: left */
	{ __LINE__, "-n {size} -t {threads}", "-n 2500 -t 3" },
	{ __LINE__, "--maps {numa_maps}", "--maps /tmp/m" },
	{ __LINE__, "", "" },
};

START_TEST(test_subst)
{
	struct run_vars v = { "1,0,1", 3, "0", "cpu", NULL, "2500", "/tmp/m" };
	char *s = run_subst(subst_rows[_i].in, &v);

	ck_assert_msg(!strcmp(s, subst_rows[_i].out), "line %d: '%s'",
		      subst_rows[_i].line, s);
	free(s);
	/* no size: {size} is left as it is */
	v.size = NULL;
	s = run_subst("{size}", &v);
	ck_assert_str_eq(s, "{size}");
	free(s);
}
END_TEST

/*
 * A template's {cmd} escaped for the quoting it lands in: the command
 * 'a' '$(x)' (two words, the second to stay literal).
 */
static const struct {
	int line;
	const char *tmpl, *out;
} template_rows[] = {
	{ __LINE__, "{cmd}", "'a' '$(x)'" },
	{ __LINE__, "sh -c '{cmd}'", "sh -c ''\\''a'\\'' '\\''$(x)'\\'''" },
	{ __LINE__, "sh -c \"{cmd}\"", "sh -c \"'a' '\\$(x)'\"" },
	{ __LINE__, "sh -c 'eval \"{cmd}\"'",
	  "sh -c 'eval \"'\\''a'\\'' '\\''\\$(x)'\\''\"'" },
	{ __LINE__, "x \\'{cmd}", "x \\''a' '$(x)'" },	/* \' is literal */
};

START_TEST(test_subst_template)
{
	struct run_vars v = { "1", 1, "none", "none", "'a' '$(x)'", NULL,
			      NULL };
	const char *why = NULL;
	char *s = shell_subst_template(template_rows[_i].tmpl, &v, &why);

	ck_assert_msg(s && !strcmp(s, template_rows[_i].out),
		      "line %d: '%s'", template_rows[_i].line, s);
	free(s);
	ck_assert_ptr_null(shell_subst_template("sh -c \"{cmd}", &v, &why));
	ck_assert_str_eq(why, "a double quote is not closed");
}
END_TEST

/* Text that looks like a placeholder and names none, or none (NULL). */
static const struct {
	int line;
	const char *in, *found;
} unknown_rows[] = {
	{ __LINE__, "taskset -c {cpu} {cmd}", "{cpu}" },
	{ __LINE__, "run -t {thread}", "{thread}" },
	{ __LINE__, "{cpus}{threads}{stress_cpus}{stress_kind}", NULL },
	{ __LINE__, "{cmd} {size} {numa_maps}", NULL },
	{ __LINE__, "echo ${HOME} ${cpu}", NULL },	/* the shell's */
	{ __LINE__, "{a,b} { x; } {} {A} {1}", NULL },
	{ __LINE__, "{cpus {cpus}x {numa_map}", "{numa_map}" },
	{ __LINE__, "awk '{print}'", "{print}" },
	{ __LINE__, "", NULL },
};

START_TEST(test_unknown_placeholder)
{
	size_t n = 0;
	const char *p = shell_unknown_placeholder(unknown_rows[_i].in, &n);

	if (!unknown_rows[_i].found) {
		ck_assert_msg(!p, "line %d: found '%s'", unknown_rows[_i].line,
			      p);
		return;
	}
	ck_assert_msg(p && n == strlen(unknown_rows[_i].found) &&
		      !strncmp(p, unknown_rows[_i].found, n),
		      "line %d: '%s'", unknown_rows[_i].line, p ? p : "none");
}
END_TEST

START_TEST(test_quote)
{
	static const char *const rows[][2] = {
		{ "plain", "plain" },
		{ "./a.out", "./a.out" },
		{ "two words", "'two words'" },
		{ "it's", "'it'\\''s'" },
		{ "", "''" },
		{ "$HOME", "'$HOME'" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *q = run_shell_quote(rows[i][0]);

		ck_assert_str_eq(q, rows[i][1]);
		free(q);
	}
}
END_TEST

/* ---- --time-from ------------------------------------------------- */

static const struct {
	int line;
	const char *re, *text;
	double want;		/* NAN: no match */
} time_rows[] = {
	{ __LINE__, "time:", "time: 1.5", 1.5 },
	{ __LINE__, "time:", "time:2", 2 },
	{ __LINE__, "time", "time = 0.5 s", 0.5 },
	{ __LINE__, "took", "took 250 ms", 0.25 },
	{ __LINE__, "took", "took 250us", 250e-6 },
	{ __LINE__, "took", "took 7 ns", 7e-9 },
	{ __LINE__, "took", "took 3 seconds", 3 },
	{ __LINE__, "took", "took 3 minutes", 3 },	/* unknown unit */
	{ __LINE__, "t=([0-9.]+)ms", "x t=12.5ms y", 0.0125 },
	{ __LINE__, "t=([0-9.]+)", "t=12.5 y", 12.5 },
	{ __LINE__, "elapsed ([0-9.e+-]+)", "elapsed 1e-3", 1e-3 },
	{ __LINE__, "time:", "no time here", NAN },
	{ __LINE__, "time:", "time: none", NAN },
	{ __LINE__, "^time:", " time: 1", NAN },
};

START_TEST(test_time_from)
{
	struct pandia_error err;
	struct run_regex *rx = run_regex_new(time_rows[_i].re, &err);
	double v = -1;
	bool ok;

	ck_assert_msg(rx != NULL, "line %d: %s", time_rows[_i].line,
		      err.text);
	ok = run_regex_time(rx, time_rows[_i].text, &v);
	if (isnan(time_rows[_i].want))
		ck_assert_msg(!ok, "line %d matched: %g", time_rows[_i].line,
			      v);
	else
		ck_assert_msg(ok && fabs(v - time_rows[_i].want) <
			      1e-12 + 1e-9 * time_rows[_i].want,
			      "line %d: %d %g", time_rows[_i].line, ok, v);
	run_regex_free(rx);
}
END_TEST

START_TEST(test_bad_regex)
{
	struct pandia_error err;

	ck_assert_ptr_null(run_regex_new("(", &err));
	ck_assert(strstr(err.text, "bad regular expression '('"));
}
END_TEST

/* ---- statistics -------------------------------------------------- */

START_TEST(test_stats)
{
	const double v[] = { 1.0, 1.2, 1.1, 1.0 };
	struct run_result r;

	run_result_init(&r);
	run_stats(v, 4, &r);
	ck_assert_double_eq_tol(r.median, 1.05, 1e-12);
	ck_assert_double_eq_tol(r.min, 1.0, 1e-12);
	ck_assert_double_eq_tol(r.max, 1.2, 1e-12);
	ck_assert_double_eq_tol(r.mean, 1.075, 1e-12);
	/* sample sd of 1, 1.2, 1.1, 1 is sqrt(0.0275 / 3) */
	ck_assert_double_eq_tol(r.cv, sqrt(0.0275 / 3) / 1.075, 1e-12);
	ck_assert_double_eq_tol(r.spread, 0.2 / 1.05, 1e-12);
	run_stats(v, 1, &r);
	ck_assert_double_eq(r.cv, 0);
	ck_assert_double_eq(r.spread, 0);
	ck_assert_double_eq(r.median, 1.0);
}
END_TEST

/* ---- run_execute ------------------------------------------------- */

static const int cpu0[] = { 0 };
static int runs_seen;

static void count_runs(const struct run_result *r, int run, double secs,
		       void *data)
{
	runs_seen++;
}

START_TEST(test_run_ok)
{
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	o.repetitions = 3;
	o.on_run = count_runs;
	runs_seen = 0;
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("true", NULL, NULL), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_int_eq(r.n_times, 3);
	ck_assert_int_eq(runs_seen, 4);
	ck_assert(!isnan(r.warmup_time));
	ck_assert(r.median > 0 && r.median < 1);
	ck_assert_int_eq(r.failed_run, -1);
	ck_assert_str_eq(r.command, "true");
	run_result_release(&r);
}
END_TEST

/*
 * A signal that comes between two runs is kept, not fatal: the next
 * run does not start and reports it; a second one ends the process.
 */
START_TEST(test_run_caught_between)
{
	char mark[] = "/tmp/pandia-caught.XXXXXX";
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	int fd = mkstemp(mark), st;
	pid_t pid;

	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(mark);
	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	o.warmup = false;
	o.repetitions = 1;
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("true", NULL, NULL), &r,
				  &err) == 0, "%s", err.text);
	run_result_release(&r);
	ck_assert_int_eq(run_caught_signal(), 0);
	raise(SIGINT);
	ck_assert_int_eq(run_caught_signal(), SIGINT);
	run_result_init(&r);
	ck_assert_int_eq(run_execute(&o, tk_argv("touch", mark, NULL), &r,
				     &err), -1);
	ck_assert_int_eq(r.interrupted, SIGINT);
	ck_assert_msg(strstr(err.text, "interrupted"), "%s", err.text);
	ck_assert_msg(access(mark, F_OK) < 0, "the run started");
	run_result_release(&r);
	/* the second one is not kept */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		raise(SIGINT);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
}
END_TEST

START_TEST(test_run_exit_status)
{
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	run_result_init(&r);
	ck_assert_int_eq(run_execute(&o, tk_argv("sh", "-c",
		"echo out; echo err1 >&2; echo err2 >&2; exit 3"), &r,
		&err), -1);
	ck_assert_int_eq(r.exit_status, 3);
	ck_assert_int_eq(r.failed_run, 0);
	ck_assert_int_eq(r.term_signal, 0);
	ck_assert_str_eq(r.stderr_tail, "err1\nerr2");
	ck_assert_msg(strstr(err.text, "warm-up run exited with status 3"),
		      "%s", err.text);
	run_result_release(&r);
}
END_TEST

START_TEST(test_run_timeout)
{
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	double t0;

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	o.warmup = false;
	o.timeout = 0.3;
	run_result_init(&r);
	t0 = now_seconds();
	ck_assert_int_eq(run_execute(&o, tk_argv("sleep", "30", NULL), &r,
				     &err), -1);
	ck_assert(now_seconds() - t0 < 2);
	ck_assert(r.timed_out);
	ck_assert_int_eq(r.failed_run, 1);
	ck_assert_msg(strstr(err.text, "timed out after 0.3 s"), "%s",
		      err.text);
	run_result_release(&r);
}
END_TEST

START_TEST(test_run_env_time_from)
{
	const char *const env[] = { "PANDIA_CHECK=0.125", NULL };
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	o.repetitions = 2;
	o.env = env;
	o.time_from = "time: ([0-9.]+)";
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("sh", "-c",
		"echo time: $PANDIA_CHECK; test $PANDIA_THREADS = 1"), &r,
		&err) == 0, "%s", err.text);
	ck_assert_double_eq(r.median, 0.125);
	ck_assert_double_eq(r.times[1], 0.125);
	run_result_release(&r);
}
END_TEST

START_TEST(test_run_template)
{
	const int cpus[] = { 1, 0 };
	struct run_stressor s;
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	json_t *j;

	ck_assert_int_eq(run_stressor_parse("bw:L2@0,1", &s, &err), 0);
	run_opts_init(&o);
	o.cpus = cpus;
	o.n_cpus = 2;
	o.stress = &s;
	o.n_stress = 1;
	o.warmup = false;
	o.runner = "echo time: 2 pandia-stress: 1 {threads}e9 {cpus}";
	o.time_from = "time:";
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("./never", "run", NULL), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_str_eq(r.command,
			 "echo time: 2 pandia-stress: 1 2e9 1,0 ./never run");
	ck_assert_double_eq(r.median, 2);
	ck_assert_int_eq(r.n_stress, 2);
	ck_assert(isnan(r.stress[0].median));
	ck_assert_int_eq(r.n_threads, 0);
	run_result_release(&r);

	/* the stressor line, alone, gives stressor 1 its rate */
	o.runner = "echo pandia-stress: 1 {threads}e9";
	o.time_from = NULL;
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv(NULL, NULL, NULL), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_double_eq(r.stress[1].median, 2e9);
	ck_assert_str_eq(r.stress[1].unit, "bytes/s");
	j = run_result_to_json(&o, &r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "schema")),
			 "pandia-run/1");
	ck_assert_int_eq(json_array_size(json_object_get(j, "times")), 1);
	ck_assert_int_eq(json_integer_value(json_array_get(
		json_object_get(j, "cpus"), 0)), 1);
	ck_assert(json_is_real(json_object_get(j, "median")));
	json_decref(j);
	run_result_release(&r);

	/* and its rate with the command not running, when it says so */
	o.runner = "echo pandia-stress: 1 2e9; echo pandia-stress-alone: 1 5e9";
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv(NULL, NULL, NULL), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_double_eq(r.stress[1].median, 2e9);
	ck_assert_double_eq(r.stress[1].alone_median, 5e9);
	ck_assert(isnan(r.stress[0].alone_median));
	run_result_release(&r);
	run_stressor_release(&s);
}
END_TEST

/* ---- workers and helpers ------------------------------------------ */

/*
 * Threads as "CPU START END ROUTINE" separated by ';' (CPU "-" for not
 * known, CPU+WAIT with the run-queue wait, ROUTINE "-" for none); WANT
 * one character per thread, 1 for a worker.
 */
static const struct {
	int line;
	int n_pus;
	double wall;
	const char *threads;
	const char *want;
} classify_rows[] = {
	/* zstd -T2: main and two I/O threads beside the two compressors */
	{ __LINE__, 2, 0.09, "0.040 0 0.09 main; 0.003 0 0.08 pool;"
	  "0.011 0 0.08 pool; 0.056 0 0.08 pool; 0.045 0 0.08 pool",
	  "00011" },
	/* the same, main busier than a compressor in this run */
	{ __LINE__, 2, 0.09, "0.050 0 0.09 main; 0.003 0 0.08 pool;"
	  "0.011 0 0.08 pool; 0.056 0 0.08 pool; 0.045 0 0.08 pool",
	  "00011" },
	/* the same, compressors uneven, an I/O thread busy for a while */
	{ __LINE__, 2, 0.09, "0.020 0 0.09 main; 0.001 0 0.08 pool;"
	  "0.018 0 0.08 pool; 0.028 0 0.08 pool; 0.068 0 0.08 pool",
	  "00011" },
	/* xz -T2: main reads and writes */
	{ __LINE__, 2, 0.21, "0.011 0 0.21 main; 0.205 0 0.21 w;"
	  "0.162 0 0.21 w", "011" },
	/* nothing busy (threads that sleep): every thread a worker */
	{ __LINE__, 2, 0.3, "0.0002 0 0.3 main; 0.0001 0 0.3 a;"
	  "0.0001 0 0.3 a", "111" },
	/* a team of two per phase: all eight workers, main waits */
	{ __LINE__, 2, 0.25, "0.001 0 0.25 main; 0.06 0 0.06 b; 0.06 0 0.06 b;"
	  "0.06 0.06 0.12 b; 0.06 0.06 0.12 b; 0.06 0.12 0.18 b;"
	  "0.06 0.12 0.18 b; 0.06 0.18 0.24 b; 0.06 0.18 0.24 b",
	  "011111111" },
	/* four alike, two PUs: all workers (the list wraps around) */
	{ __LINE__, 2, 1, "0.5 0 1 f; 0.45 0 1 f; 0.5 0 1 f; 0.48 0 1 f",
	  "1111" },
	/* four busy of different roles, two PUs: the two busiest */
	{ __LINE__, 2, 1, "0.4 0 1 a; 0.5 0 1 b; 0.45 0 1 c; 0.3 0 1 d",
	  "0110" },
	/* OpenMP: main works with the team */
	{ __LINE__, 2, 0.1, "0.1 0 0.1 main; 0.1 0 0.1 gomp", "11" },
	/* a thread under a quarter of the busiest: a helper */
	{ __LINE__, 4, 1, "0.9 0 1 main; 0.2 0 1 log", "10" },
	/* no CPU time known (static binary, no schedstat): all workers */
	{ __LINE__, 2, 1, "- 0 1 -; - 0 1 -", "11" },
	/* CPU+WAIT: a worker kept off its PU by another tenant waited in
	   the run queue for what it did not get: still a worker */
	{ __LINE__, 2, 1, "0.05 0 1 main; 0.9+0.05 0 1 w; 0.2+0.75 0 1 w",
	  "011" },
	/* the same beside a helper busier than its CPU time */
	{ __LINE__, 2, 1, "0.3 0 1 log; 0.9 0 1 a; 0.2+0.7 0 1 b", "011" },
	/* a helper that waited a little is still a helper */
	{ __LINE__, 4, 1, "0.9 0 1 main; 0.1+0.05 0 1 log", "10" },
	/* threads asleep but for their wait: nothing busy, all workers */
	{ __LINE__, 2, 1, "0.0002+0.0001 0 1 main; 0.0001+0.0002 0 1 a",
	  "11" },
};

START_TEST(test_classify)
{
	struct run_thread t[16];
	char *dup = xstrdup(classify_rows[_i].threads), *save, *tok;
	char got[17];
	int n = 0, i, m;

	for (tok = strtok_r(dup, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save)) {
		char cpu[32], routine[32];

		memset(&t[n], 0, sizeof(t[n]));
		ck_assert(sscanf(tok, "%31s %lf %lf %31s", cpu, &t[n].start,
				 &t[n].end, routine) == 4);
		t[n].cpu_time = strcmp(cpu, "-") ? atof(cpu) : NAN;
		t[n].runqueue_wait = strchr(cpu, '+') ?
				     atof(strchr(cpu, '+') + 1) : NAN;
		t[n].routine = strcmp(routine, "-") ? xstrdup(routine) : NULL;
		t[n].index = n;
		n++;
	}
	m = run_classify(t, n, classify_rows[_i].n_pus,
			 classify_rows[_i].wall);
	for (i = 0; i < n; i++) {
		got[i] = t[i].worker ? '1' : '0';
		free(t[i].routine);
	}
	got[n] = '\0';
	ck_assert_msg(!strcmp(got, classify_rows[_i].want),
		      "line %d: workers %s, want %s", classify_rows[_i].line,
		      got, classify_rows[_i].want);
	for (i = 0; i < n; i++)
		m -= got[i] == '1';
	ck_assert_msg(m == 0, "line %d: the count returned is off by %d",
		      classify_rows[_i].line, m);
	free(dup);
}
END_TEST

START_TEST(test_helper_roles)
{
	struct run_thread t[5];
	char *h;
	int i;

	memset(t, 0, sizeof(t));
	for (i = 0; i < 5; i++)
		t[i].index = i;
	/* sh (a helper), two zstd processes: main helper, thread 1 a
	   worker in one and a helper in the other, thread 2 a helper */
	t[0].program = "dash";
	t[0].local = 0;
	t[1].program = "zstd";
	t[1].local = 0;
	t[2].program = "zstd";
	t[2].local = 1;
	t[2].worker = true;
	t[3].program = "zstd";
	t[3].local = 1;
	t[4].program = "zstd";
	t[4].local = 0;
	h = run_helper_roles(t, 5);
	ck_assert_str_eq(h, "dash/0\nzstd/0\n");
	free(h);
	/* a thread the library did not see has no role */
	t[0].index = -1;
	t[1].worker = t[4].worker = true;
	h = run_helper_roles(t, 5);
	ck_assert_str_eq(h, "");
	free(h);
}
END_TEST

/* libpandia-pin.so of this build (B/tests/..): a new string */
static char *test_shim(void)
{
	char exe[PATH_MAX], *dir, *shim;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert(n > 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';	/* B/tests */
	dir = xasprintf("%s/..", exe);
	shim = run_find_shim(dir);
	ck_assert_msg(shim != NULL, "no libpandia-pin.so in %s", dir);
	free(dir);
	return shim;
}

/* The first PUs, up to MAX, this process may use, into V; how many. */
static int first_pus(int *v, int max)
{
	cpu_set_t set;
	int pu, n = 0;

	ck_assert(sched_getaffinity(0, sizeof(set), &set) == 0);
	for (pu = 0; pu < CPU_SETSIZE && n < max; pu++)
		if (CPU_ISSET(pu, &set))
			v[n++] = pu;
	ck_assert(n > 0);
	return n;
}

/* the shim pins the main thread: needs libpandia-pin.so, built by make */
START_TEST(test_run_shim)
{
	char *shim, want[16];
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	int pu;

	shim = test_shim();
	first_pus(&pu, 1);
	snprintf(want, sizeof(want), "%d", pu);
	run_opts_init(&o);
	o.cpus = &pu;
	o.n_cpus = 1;
	o.warmup = false;
	o.shim_path = shim;
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("sleep", "0.05", NULL), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_int_eq(r.processes, 1);
	ck_assert_int_eq(r.threads_created, 0);
	ck_assert_int_eq(r.n_threads, 1);
	ck_assert_str_eq(r.threads[0].allowed, want);
	ck_assert_int_eq(r.threads[0].cpu, pu);
	ck_assert_int_eq(r.misplaced, 0);
	run_result_release(&r);
	free(shim);
}
END_TEST

/* how many times the command of test_run_roles_one_pu started */
static long starts(const char *file)
{
	struct stat st;

	ck_assert(stat(file, &st) == 0);
	return (long)st.st_size / 2;	/* "x\n" each */
}

/*
 * Roles given by a run with more threads (the profile's warm-up) that
 * this run's threads contradict: on several PUs the run is made again
 * with its own roles, once; on one PU, where every thread runs
 * whatever its role, it is not (a profile's run 1 and its probe runs
 * were made twice).
 */
START_TEST(test_run_roles_one_pu)
{
	char *shim, *roles, *log, *busy;
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	int pus[2], n;
	long before;

	shim = test_shim();
	log = tk_tmpfile("roles", "");
	busy = xasprintf("echo x >>%s; i=0; while [ $i -lt 40000 ]; do "
			 "i=$((i+1)); done", log);
	n = first_pus(pus, 2);
	run_opts_init(&o);
	o.cpus = pus;
	o.n_cpus = 1;
	o.warmup = false;
	o.shim_path = shim;
	/* the busy shell's main thread, named as the runner names it */
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("sh", "-c", busy), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_int_eq(r.n_threads, 1);
	ck_assert(r.threads[0].worker && r.threads[0].program);
	roles = xasprintf("%s/0\n", r.threads[0].program);
	run_result_release(&r);

	/* given as a helper: one PU, one start, no role changed */
	o.helpers = roles;
	before = starts(log);
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("sh", "-c", busy), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_int_eq(r.role_changes, 0);
	ck_assert_int_eq(starts(log) - before, 1);
	run_result_release(&r);

	/* two PUs: the role changed, the run is made again */
	if (n == 2) {
		o.n_cpus = 2;
		before = starts(log);
		run_result_init(&r);
		ck_assert_msg(run_execute(&o, tk_argv("sh", "-c", busy), &r,
					  &err) == 0, "%s", err.text);
		ck_assert_int_eq(starts(log) - before, 2);
		run_result_release(&r);
	}
	unlink(log);
	free(log);
	free(busy);
	free(roles);
	free(shim);
}
END_TEST

/* Children of this process now (zombies too), into *out. */
static int list_children_count(pid_t **out)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	*out = NULL;
	while (d && (e = readdir(d))) {
		char path[300], buf[512], *p;
		int ppid;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    sscanf(p + 1, " %*c %d", &ppid) == 1 &&
		    ppid == getpid()) {
			*out = realloc(*out, sizeof(pid_t) * (size_t)(n + 1));
			(*out)[n++] = atoi(e->d_name);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * A co-running command runs all along: started again each time it ends
 * while the command runs, stopped with it; one that fails fails the run.
 */
START_TEST(test_run_corun)
{
	char *co_ok[] = { "sh", "-c", "sleep 0.05", NULL };
	char *co_bad[] = { "sh", "-c", "exit 4", NULL };
	char *co_none[] = { "pandia-no-such-command", NULL };
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;
	pid_t *kids;
	int n;

	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	o.warmup = false;
	o.corun_argv = co_ok;
	o.corun_cpus = cpu0;
	o.n_corun_cpus = 1;
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("sleep", "0.5", NULL), &r,
				  &err) == 0, "%s", err.text);
	ck_assert_msg(r.corun_restarts >= 3, "restarts %d", r.corun_restarts);
	ck_assert_int_eq(r.leftovers, 0);
	run_result_release(&r);
	/* nothing of it is left */
	n = list_children_count(&kids);
	ck_assert_int_eq(n, 0);
	free(kids);

	o.corun_argv = co_bad;
	run_result_init(&r);
	ck_assert_int_eq(run_execute(&o, tk_argv("sleep", "0.3", NULL), &r,
				     &err), -1);
	ck_assert_msg(strstr(err.text, "the co-running command failed "
			     "(status 4): sh -c 'exit 4'"), "%s", err.text);
	run_result_release(&r);

	o.corun_argv = co_none;
	run_result_init(&r);
	ck_assert_int_eq(run_execute(&o, tk_argv("sleep", "0.3", NULL), &r,
				     &err), -1);
	ck_assert_msg(strstr(err.text, "cannot run the co-running command "
			     "'pandia-no-such-command'"), "%s", err.text);
	run_result_release(&r);
}
END_TEST

/*
 * A pinned co-running command has a shared-state file of its own: the
 * command's is emptied before each of its runs while the co-runner,
 * which goes on, has it mapped (it died of SIGBUS now and then).
 */
START_TEST(test_run_corun_own_state)
{
	char *shim, *tmp, *co_file, *cmd_file;
	char *co_sh, *cmd_sh, *co_state, *cmd_state;
	char *co_argv[] = { "sh", "-c", NULL, NULL };
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;

	shim = test_shim();
	tmp = tk_tmpdir("corun-state");
	co_file = xasprintf("%s/co", tmp);
	cmd_file = xasprintf("%s/cmd", tmp);
	/*
	 * the co-runner is killed when the command ends, maybe between
	 * the shell's truncating its file and writing it: it writes
	 * another and renames it
	 */
	co_sh = xasprintf("echo \"$" RUN_PIN_SHARED_ENV "\" >%s.$$ && "
			  "mv -f %s.$$ %s; sleep 0.05", co_file, co_file,
			  co_file);
	cmd_sh = xasprintf("echo \"$" RUN_PIN_SHARED_ENV "\" >%s; sleep 0.3",
			   cmd_file);
	co_argv[2] = co_sh;
	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.warmup = false;
	o.repetitions = 2;
	o.shim_path = shim;
	o.corun_argv = co_argv;
	o.corun_cpus = cpu0;
	o.n_corun_cpus = 1;
	run_result_init(&r);
	ck_assert_msg(run_execute(&o, tk_argv("sh", "-c", cmd_sh), &r,
				  &err) == 0, "%s", err.text);
	run_result_release(&r);
	co_state = read_file(co_file, NULL, &err);
	cmd_state = read_file(cmd_file, NULL, &err);
	ck_assert(co_state && cmd_state);
	ck_assert_msg(strlen(co_state) > 1 && strlen(cmd_state) > 1,
		      "no shared state: '%s' '%s'", co_state, cmd_state);
	ck_assert_msg(strcmp(co_state, cmd_state) != 0,
		      "the co-runner shares the command's state %s",
		      cmd_state);
	free(co_state);
	free(cmd_state);
	free(co_sh);
	free(cmd_sh);
	free(co_file);
	free(cmd_file);
	tk_tmpdir_remove(tmp);
	free(shim);
}
END_TEST

START_TEST(test_run_refused)
{
	const int far[] = { 0, 4095 };
	struct pandia_error err;
	struct run_result r;
	struct run_opts o;

	run_opts_init(&o);
	o.cpus = far;
	o.n_cpus = 2;
	run_result_init(&r);
	ck_assert_int_eq(run_execute(&o, tk_argv("true", NULL, NULL), &r,
				     &err), -1);
	ck_assert(strstr(err.text, "PU 4095 of the placement"));
	o.n_cpus = 1;
	o.pin = RUN_PIN_NONE;
	ck_assert_int_eq(run_execute(&o, tk_argv("/nonexistent/x", NULL,
						 NULL), &r, &err), -1);
	ck_assert_msg(strstr(err.text, "cannot run '/nonexistent/x'"), "%s",
		      err.text);
	ck_assert_int_eq(run_execute(&o, tk_argv(NULL, NULL, NULL), &r,
				     &err), -1);
	ck_assert(strstr(err.text, "no command"));
	run_result_release(&r);
}
END_TEST

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_stressor_parse, 0,
			    (int)ARRAY_SIZE(stress_rows));
	tcase_add_loop_test(tc, test_subst, 0, (int)ARRAY_SIZE(subst_rows));
	tcase_add_loop_test(tc, test_subst_template, 0,
			    ARRAY_SIZE(template_rows));
	tcase_add_loop_test(tc, test_unknown_placeholder, 0,
			    ARRAY_SIZE(unknown_rows));
	tcase_add_test(tc, test_quote);
	tcase_add_loop_test(tc, test_time_from, 0,
			    (int)ARRAY_SIZE(time_rows));
	tcase_add_test(tc, test_bad_regex);
	tcase_add_test(tc, test_stats);
	tcase_add_test(tc, test_run_ok);
	tcase_add_test(tc, test_run_caught_between);
	tcase_add_test(tc, test_run_exit_status);
	tcase_add_test(tc, test_run_timeout);
	tcase_add_test(tc, test_run_env_time_from);
	tcase_add_test(tc, test_run_template);
	tcase_add_loop_test(tc, test_classify, 0,
			    (int)ARRAY_SIZE(classify_rows));
	tcase_add_test(tc, test_helper_roles);
	tcase_add_test(tc, test_run_shim);
	tcase_add_test(tc, test_run_roles_one_pu);
	tcase_add_test(tc, test_run_refused);
	tcase_add_test(tc, test_run_corun);
	tcase_add_test(tc, test_run_corun_own_state);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { run_suite, NULL };
