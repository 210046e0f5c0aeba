/*
 * run.h - run one command at one placement, timed: the runner behind
 * 'pandia run', the profiler and 'pandia validate'.
 *
 * A run of run_execute():
 *   1. starts the co-run stressors, each a child process pinned to its
 *      PU, and waits until each has its buffer allocated and touched;
 *   2. starts the command in a process group of its own, with
 *      {threads}, {cpus}, {stress_cpus} and {stress_kind} replaced in
 *      its arguments, OMP_NUM_THREADS and PANDIA_THREADS set, and each
 *      thread pinned by the LD_PRELOAD library libpandia-pin.so (main
 *      thread to the first PU of the list, each thread it creates to
 *      the next one, in creation order);
 *   3. times it (wall time, or the number its output shows), watches
 *      where its threads may run (Cpus_allowed_list in
 *      /proc/PID/task/TID/status), and kills it when it outlives the
 *      timeout;
 *   4. stops the stressors and records what each achieved while the
 *      command ran;
 *   5. leaves nothing behind: the command's process group is killed,
 *      and processes that left the group are found through
 *      PR_SET_CHILD_SUBREAPER and killed too.
 * That is repeated once for warm-up and then o->repetitions times.
 *
 * With a runner template (o->runner) the command line is the template
 * with its placeholders replaced, run by /bin/sh; nothing is pinned
 * and no stressor is started here: the template's program does both,
 * and may report each stressor's rate as a line "pandia-stress: I RATE"
 * (I counts the stressor PUs from 0, in {stress_cpus} order).
 *
 * SIGINT, SIGTERM and SIGHUP received during run_execute() stop the
 * run: everything is killed, run_execute() fails with r->interrupted
 * set to the signal, and the caller should exit as that signal would
 * have made it (run_reraise()).  A signal that was ignored on entry
 * stays ignored.  run_execute() reads those signals and SIGCHLD with
 * signalfd, blocked, so call it from a process whose other threads
 * block them too; it reaps only the children it started.
 */
#ifndef PANDIA_PROFILER_RUN_H
#define PANDIA_PROFILER_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/error.h"
#include "common/machine.h"
#include "stress/kernels.h"

/* Environment variables shared with libpandia-pin.so. */
#define RUN_PIN_CPUS_ENV	"PANDIA_PIN_CPUS"	/* "1,0,1" */
#define RUN_PIN_REPORT_ENV	"PANDIA_PIN_REPORT"	/* report file */
#define RUN_PIN_LIB_ENV		"PANDIA_PIN_LIB"	/* override path */

/* A co-run stressor as written: "cpu@0,1", "bw:L2@1", "bw:dram:rw@0". */
struct run_stressor {
	char *spec;		/* the text as given (owned) */
	enum stress_kind kind;
	int level;		/* enum pandia_level for bw, -1 for cpu */
	int *pus;		/* one stressor per entry (owned) */
	int n_pus;
};

/*
 * Parse TEXT into *s (released with run_stressor_release()).  KIND is
 * "cpu" (integer chains) or "bw:LEVEL" with LEVEL one of L1, L2, L3,
 * dram (reads), optionally followed by ":rw" (read-modify-write).
 * Returns 0 or -1 with err.
 */
int run_stressor_parse(const char *text, struct run_stressor *s,
		       struct pandia_error *err);
/* Release what s owns.  NULL is a no-op. */
void run_stressor_release(struct run_stressor *s);
/* The kind part of a spec ("cpu", "bw:L2", "bw:dram:rw") into buf. */
const char *run_stressor_kind_name(const struct run_stressor *s,
				   char *buf, size_t size);

enum run_pin {
	RUN_PIN_SHIM,		/* per thread, by libpandia-pin.so */
	RUN_PIN_SET,		/* whole process on the set of listed PUs */
	RUN_PIN_NONE,		/* nothing pinned; {cpus} and env only */
};

struct run_result;

/* What to run and how.  Every pointer is borrowed for the call. */
struct run_opts {
	const int *cpus;	/* the placement, one PU per thread */
	int n_cpus;
	const struct run_stressor *stress;
	int n_stress;
	int repetitions;	/* measured runs, >= 1 */
	bool warmup;		/* one run first, not counted */
	double timeout;		/* seconds per run; 0: none */
	const char *time_from;	/* POSIX extended regex or NULL: wall */
	const char *runner;	/* command template or NULL */
	enum run_pin pin;
	const char *shim_path;	/* NULL: run_find_shim(NULL) */
	/*
	 * Machine whose cache sizes size the bw stressors' buffers; NULL:
	 * this host's topology is loaded when a bw stressor needs it.
	 */
	const struct pandia_machine *machine;
	const char *const *env;	/* extra NAME=VALUE, NULL-terminated */
	int output_fd;		/* the command's output is copied here;
				   -1: kept only for --time-from and the
				   stderr tail */
	/* Called after every run (warm-up is run 0).  May be NULL. */
	void (*on_run)(const struct run_result *r, int run, double seconds,
		       void *data);
	void *data;
};

/* Defaults: 1 repetition, warm-up, shim, output_fd -1, the rest 0. */
void run_opts_init(struct run_opts *o);

/* What one stressor did: one entry per PU of a struct run_stressor. */
struct run_stress_result {
	char *spec;		/* the stressor it belongs to (owned) */
	char *kind;		/* "cpu", "bw:L2", ... (owned) */
	int pu;
	const char *unit;	/* "ops/s" or "bytes/s" (static) */
	size_t working_set;	/* bytes; 0 for cpu */
	double *rates;		/* per measured run; NAN: not known */
	double median;		/* of rates; NAN when none known */
};

/* A thread of the command, as the shim placed it and /proc showed it. */
struct run_thread {
	int pid;		/* the process it belongs to */
	int tid;
	int index;		/* position in the list: 0 for a process's
				   main thread, creation order after; -1
				   when unknown (shim not loaded) */
	int planned;		/* PU it should run on; -1: beyond the
				   list (the set of listed PUs), or none */
	char *allowed;		/* Cpus_allowed_list last seen (owned) */
	bool seen;		/* allowed comes from /proc, not only from
				   the shim's own reading at creation */
};

struct run_result {
	char *command;		/* the command line, for messages (owned) */
	int n_times;
	double *times;		/* every measured run, seconds */
	double warmup_time;	/* NAN when none */
	double median, min, max, mean;
	double cv;		/* sample standard deviation / mean */
	double spread;		/* (max - min) / median */
	int n_stress;
	struct run_stress_result *stress;

	/* threads of the last run (none with a runner template) */
	int n_threads;
	struct run_thread *threads;
	int threads_created;	/* pthread_create calls seen by the shim;
				   -1 when the shim was not loaded */
	int processes;		/* processes that loaded the shim */
	int misplaced;		/* threads not allowed where planned */

	/* how the last run ended; set on failure */
	int failed_run;		/* 0 warm-up, 1..n, -1 none failed */
	int exit_status;	/* exit code; -1 when killed */
	int term_signal;	/* signal that killed it, 0 if none */
	bool timed_out;
	int interrupted;	/* signal pandia got, 0 if none */
	int leftovers;		/* processes one run left running after the
				   command exited (killed); most of any run */
	char *stderr_tail;	/* last lines of its stderr (owned) */
};

void run_result_init(struct run_result *r);
/* Release what r owns and initialise it again.  NULL is a no-op. */
void run_result_release(struct run_result *r);

/*
 * Run ARGV (NULL-terminated; may be empty with a runner template) as o
 * says and fill r (initialised by the caller with run_result_init()).
 * Returns 0 when every run succeeded; -1 with err and the failure
 * fields of r set otherwise (a command that fails, times out or is
 * interrupted, a stressor that cannot start, a PU not available).
 */
int run_execute(const struct run_opts *o, char *const *argv,
		struct run_result *r, struct pandia_error *err);

/*
 * Exit as SIG would have made the process exit (after run_execute()
 * reported r->interrupted = SIG).  Does not return.
 */
void run_reraise(int sig) __attribute__((noreturn));

/*
 * The shim libpandia-pin.so: $PANDIA_PIN_LIB, else DIR/libpandia-pin.so,
 * else DIR/../lib/pandia/libpandia-pin.so (installed), with DIR the
 * given directory or, if NULL, that of the running executable.  New
 * string with an absolute path, or NULL when none exists.
 */
char *run_find_shim(const char *dir);

/* Values of the placeholders. */
struct run_vars {
	const char *cpus;	/* {cpus}: "1,0,1" */
	int threads;		/* {threads} */
	const char *stress_cpus;	/* {stress_cpus}: "0,1" or "none" */
	const char *stress_kind;	/* {stress_kind}: "cpu,bw:L2", "none" */
	const char *cmd;	/* {cmd}: the command, shell-quoted; NULL:
				   not replaced */
};

/*
 * S with each known placeholder replaced; anything else in braces
 * (an awk program, a shell brace group) is left as it is.  New string.
 */
char *run_subst(const char *s, const struct run_vars *v);

/* S quoted for /bin/sh where it needs it (new string). */
char *run_shell_quote(const char *s);

/*
 * --time-from: the number a POSIX extended REGEX finds in a line of
 * output: the first parenthesised group if the expression has one,
 * else the number that follows the match (after blanks, ':' or '=').
 * A unit right after the number (s, ms, us, ns) is honoured.
 * run_regex_time() returns true and sets *secs when LINE matches and
 * holds a number.
 */
struct run_regex;
struct run_regex *run_regex_new(const char *re, struct pandia_error *err);
void run_regex_free(struct run_regex *rx);
bool run_regex_time(const struct run_regex *rx, const char *line,
		    double *secs);

/*
 * Summary statistics of v[0..n-1] into r's median, min, max, mean, cv
 * and spread (cv and spread 0 for n < 2).
 */
void run_stats(const double *v, int n, struct run_result *r);

/*
 * The result as JSON (new reference): schema "pandia-run/1", command,
 * cpus (array of PU numbers), threads, times, median, min, max, mean,
 * cv, spread, stressors, placement (threads as seen), left_behind.
 */
json_t *run_result_to_json(const struct run_opts *o,
			   const struct run_result *r);

#endif
