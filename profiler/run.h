/*
 * run.h - run one command at one placement, timed: the runner behind
 * 'pandia run', the profiler and 'pandia validate'.
 *
 * A run of run_execute():
 *   1. starts the co-run stressors, each a child process pinned to its
 *      PU, and waits until each has its buffer allocated and touched;
 *   2. starts the command in a process group of its own, with
 *      {threads}, {cpus}, {stress_cpus}, {stress_kind} and {size}
 *      replaced in its arguments, OMP_NUM_THREADS and PANDIA_THREADS
 *      set, and its threads pinned and accounted by the LD_PRELOAD
 *      library libpandia-pin.so: the PUs of the list go to the worker
 *      threads in creation order, helpers run on the set of listed PUs
 *      (the first run, every thread on the set, tells which is which);
 *   3. times it (wall time, or the number its output shows), watches
 *      where its threads may run (Cpus_allowed_list in
 *      /proc/PID/task/TID/status) and their CPU time, and kills it
 *      when it outlives the timeout;
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
 * stays ignored.  Once run_execute() has been called, those signals
 * are also caught between runs: one that comes then makes the next
 * run_execute() fail at once with r->interrupted set, and a command
 * asks run_caught_signal() after its last run.  run_execute() reads
 * those signals and SIGCHLD with
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
#include "common/shellword.h"
#include "profiler/shim/protocol.h"
#include "stress/kernels.h"

/*
 * Environment variables shared with libpandia-pin.so: the protocol's
 * (profiler/shim/protocol.h), by run's names.
 */
#define RUN_PIN_CPUS_ENV	PIN_ENV_CPUS
#define RUN_PIN_SKIP_ENV	PIN_ENV_SKIP
#define RUN_PIN_HELPERS_ENV	PIN_ENV_HELPERS
#define RUN_PIN_FLOAT_ENV	PIN_ENV_FLOAT
#define RUN_PIN_SHARED_ENV	PIN_ENV_SHARED
#define RUN_PIN_REPORT_ENV	PIN_ENV_REPORT
#define RUN_PIN_LIB_ENV		"PANDIA_PIN_LIB"	/* override path */

/* With output_fd, after the output of a run that is made again. */
#define RUN_AGAIN_LINE \
	"pandia run: the threads' roles changed in this run: it is made again"

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
/*
 * The bytes each of s's stressors allocates and touches on machine m
 * before its run: stress_working_set() for its level, shared by its
 * PUs; for DRAM at most 4 x what one core reaches of the LLC
 * (stress_llc_reach()), at least 64 MiB.  0 for "cpu" and for a level
 * m does not have.
 */
size_t run_stressor_working_set(const struct pandia_machine *m,
				const struct run_stressor *s);
/* The kind part of a spec ("cpu", "bw:L2", "bw:dram:rw") into buf. */
const char *run_stressor_kind_name(const struct run_stressor *s,
				   char *buf, size_t size);

enum run_pin {
	RUN_PIN_WORKERS,	/* the PUs to the worker threads, in creation
				   order; helpers on the set (default) */
	RUN_PIN_THREADS,	/* the PUs to every thread in creation order */
	RUN_PIN_SET,		/* whole process on the set of listed PUs */
	RUN_PIN_NONE,		/* nothing pinned; {cpus} and env only */
};
/* The library pins, the default way (the name of earlier versions). */
#define RUN_PIN_SHIM RUN_PIN_WORKERS

/*
 * A memory policy for the command, as numactl sets one: set_mempolicy(2)
 * in the child before exec, so that the command, its threads and its
 * children allocate under it.  With a runner template it applies to
 * the template's shell and what it starts.
 */
enum run_mem {
	RUN_MEM_DEFAULT,	/* none set: the kernel's (first touch) */
	RUN_MEM_BIND,		/* --membind NODES */
	RUN_MEM_INTERLEAVE,	/* --interleave NODES */
	RUN_MEM_LOCAL,		/* --localalloc */
	RUN_MEM_PREFERRED,	/* --preferred NODE */
};

#define RUN_MEM_WORDS 16	/* nodes 0 to 1023 */

struct run_mempolicy {
	enum run_mem mode;
	char nodes[64];		/* as given ("0-1", "all"); "" local */
	unsigned long mask[RUN_MEM_WORDS];
};

/*
 * Parse NODES (libnuma's syntax: "0", "0-1,3", "all"; NULL for
 * RUN_MEM_LOCAL) for policy MODE into *mp.  The nodes must exist on
 * this host, and --preferred takes one.  Returns 0 or -1 with err.
 */
int run_mempolicy_parse(struct run_mempolicy *mp, enum run_mem mode,
			const char *nodes, struct pandia_error *err);
/* "--membind 0", "--interleave all", "--localalloc", "--preferred 1";
   "" for the default.  Written into buf, returned. */
const char *run_mempolicy_text(const struct run_mempolicy *mp, char *buf,
			       size_t size);

/* The four memory options' help text, for the commands' usage texts
   (their parser is in the commands' option tables). */
#define RUN_MEM_USAGE							\
"      --membind NODES     the command's memory only on NODES (libnuma's\n" \
"                          syntax: 0, 0-1, all), as numactl --membind\n" \
"      --interleave NODES  its pages interleaved over NODES ('all')\n"	\
"      --localalloc        its pages on the node of the allocating PU\n" \
"      --preferred NODE    its pages on NODE while it has room\n"

struct run_result;

/* What to run and how.  Every pointer is borrowed for the call. */
struct run_opts {
	const int *cpus;	/* the placement, one PU per thread */
	int n_cpus;
	const struct run_stressor *stress;
	int n_stress;
	int repetitions;	/* measured runs, >= 1; 0 with warmup: the
				   warm-up alone (its roles in helpers) */
	bool warmup;		/* one run first, not counted */
	/*
	 * Seconds the stressors run alone, after their set-up and before
	 * the command starts, and again after it ended, in every run:
	 * their rates alone then, in run_stress_result.alone and .after
	 * (no runner template).  0: none.
	 */
	double stress_alone;
	double timeout;		/* seconds per run; 0: none */
	const char *time_from;	/* POSIX extended regex or NULL: wall */
	const char *runner;	/* command template or NULL */
	enum run_pin pin;
	/*
	 * Creation indexes (0: the first process's main thread) that are
	 * helpers, run on the set: the PUs go to the other threads in
	 * creation order, as likwid-pin -s.  n_skip < 0: none given.
	 * Given, it replaces finding the workers.
	 */
	const int *skip;
	int n_skip;
	/*
	 * RUN_PIN_WORKERS: the helpers by role, as a previous result's
	 * r->helpers; NULL: the first run (the warm-up, or a run made
	 * for it) finds them, every thread on the set, unless the list
	 * names one PU (every thread runs there whatever its role).
	 */
	const char *helpers;
	const char *shim_path;	/* NULL: run_find_shim(NULL) */
	/*
	 * Machine whose cache sizes size the bw stressors' buffers; NULL:
	 * this host's topology is loaded when a bw stressor needs it.
	 */
	const struct pandia_machine *machine;
	const char *const *env;	/* extra NAME=VALUE, NULL-terminated */
	const struct run_mempolicy *mem;	/* NULL: the default */
	/*
	 * Read where the command's pages are: /proc/PID/numa_maps of its
	 * processes while it runs (the last reading of each run is kept),
	 * or, with a runner template, the file {numa_maps} names, which
	 * the template's program writes in that format.  r->numa_maps.
	 */
	bool numa_maps;
	/*
	 * Where the threads ran: sample every thread's PU and CPU time
	 * while the command runs (every RUN_MAP_PERIOD seconds or more,
	 * see profiler/run/map_sample.c) into r->map, the last run's.
	 * Not with a runner template.
	 */
	bool map;
	double size;		/* {size}: the input size; NAN (the
				   default): {size} is left as it is */
	int output_fd;		/* the command's output is copied here;
				   -1: kept only for --time-from and the
				   stderr tail; a run made again (its
				   threads' roles changed) is followed
				   there by RUN_AGAIN_LINE */
	/*
	 * A co-running command (two workloads at once; NULL: none),
	 * NULL-terminated, its {threads} and {cpus} replaced, pinned to
	 * corun_cpus as the command is to cpus.  Each run starts it just
	 * before the command, starts it again whenever it ends while the
	 * command runs (so that the command runs beside it all along),
	 * and stops it (its process group, killed) when the command
	 * ends; its output is discarded.  It failing (a status other
	 * than 0) fails the run.  Not with a runner template.
	 */
	char *const *corun_argv;
	const int *corun_cpus;
	int n_corun_cpus;
	/* Called after every run (warm-up is run 0).  May be NULL. */
	void (*on_run)(const struct run_result *r, int run, double seconds,
		       void *data);
	/*
	 * Called with every complete line of the command's output (stdout
	 * and stderr, without its newline; a line longer than the
	 * runner's line buffer is cut) as it comes, and the run it
	 * belongs to (warm-up is run 0).  May be NULL.
	 */
	void (*on_line)(const char *line, int run, void *data);
	void *data;		/* for on_run and on_line */
};

/* "workers", "threads", "set", "none" */
const char *run_pin_name(enum run_pin pin);

/*
 * Defaults: 1 repetition, warm-up, workers, n_skip -1, output_fd -1,
 * the rest 0.
 */
void run_opts_init(struct run_opts *o);

/* What one stressor did: one entry per PU of a struct run_stressor. */
struct run_stress_result {
	char *spec;		/* the stressor it belongs to (owned) */
	char *kind;		/* "cpu", "bw:L2", ... (owned) */
	int pu;
	const char *unit;	/* "ops/s" or "bytes/s" (static) */
	size_t working_set;	/* bytes; 0 for cpu */
	double *rates;		/* per measured run; NAN: not known */
	double *alone;		/* its rate alone before the command
				   (opts.stress_alone), per measured run;
				   NAN: not known */
	double *after;		/* and alone after it, as long */
	double alone_median;	/* of alone; NAN when none known */
	double after_median;	/* of after; NAN when none known */
	double median;		/* of rates; NAN when none known */
};

/* Where a thread's time went while it was blocked, by what it waited in. */
enum run_block {
	RUN_BLOCK_MUTEX,	/* pthread_mutex_lock */
	RUN_BLOCK_CONDITION,	/* pthread_cond_wait, _timedwait */
	RUN_BLOCK_BARRIER,	/* pthread_barrier_wait */
	RUN_BLOCK_JOIN,		/* pthread_join */
	RUN_BLOCK_SEMAPHORE,	/* sem_wait, sem_timedwait */
	RUN_BLOCK_OTHER,	/* the rest off the CPU: I/O, futex, sleep */
	RUN_BLOCK_KINDS
};

/* "mutex", "condition", "barrier", "join", "semaphore", "other" */
extern const char *const run_block_names[RUN_BLOCK_KINDS];

/*
 * A thread of the command, as the library placed and accounted it and
 * /proc showed it.  Times in seconds; NAN when not known.  For every
 * thread the library saw end, cpu_time + runqueue_wait + the sum of
 * blocked[] is end - start (see docs/running.md, "Accounting").
 */
struct run_thread {
	int pid;		/* the process it belongs to */
	int tid;
	int index;		/* creation order within the command, the
				   first process's main thread 0; -1 when
				   unknown (library not loaded) */
	int cpu;		/* the PU it was pinned to; -1: floating
				   (the set of listed PUs, or not pinned) */
	double start, end;	/* from the command's start */
	double cpu_time;	/* on a CPU */
	double runqueue_wait;	/* runnable, waiting for a CPU */
	double blocked[RUN_BLOCK_KINDS];
	bool worker;		/* a real share of the CPU time: see
				   run_classify() */

	int local;		/* 0: its process's main thread; 1..: the
				   threads that process created, in order */
	char *program;		/* the process's executable, base name
				   (owned; NULL unknown) */
	char *routine;		/* start routine, "MODULE+0xOFFSET", or
				   "main" (owned; NULL unknown) */
	char *allowed;		/* Cpus_allowed_list last seen (owned) */
	bool seen;		/* allowed comes from /proc, not only from
				   the library's own reading at its start */
	int starts;		/* the library's start lines for it read
				   (a process that execs has one more) */
	int starts_now;		/* those of the reading under way */
	bool ended;		/* the library saw it end; else the times
				   are /proc's last sample */
	bool wrapped;		/* more threads than PUs: the list was
				   used again from its start */
	bool overridden;	/* the program set its affinity itself, to
				   other PUs than pandia's */
	double overlap;		/* seconds the timed waits exceeded its
				   time off the CPU and out of the run
				   queue, taken off them (their run-queue
				   wait after a wake-up); 0 none */
	double first_seen, last_seen;	/* /proc samples, the runner's */
};

/* ---- where the threads ran (profiler/run/map.c) ------------------- */

/*
 * One reading of one thread: the PU /proc showed it on (stat's
 * "processor", the PU it ran on last) and its CPU time so far.
 */
struct run_map_sample {
	int pid, tid;
	int pu;
	double cpu;		/* seconds on a CPU since it started */
	long migrations;	/* the kernel's se.nr_migrations so far;
				   -1 when the kernel does not show it */
};

/* A thread's time on one PU. */
struct run_map_pu {
	int pu;			/* OS index */
	double seconds;
	double share;		/* of the thread's sampled CPU time, 0-1 */
};

struct run_map_thread {
	int pid, tid;
	int index;		/* creation order, as run_thread; -1 */
	bool worker;		/* its role, as run_thread */
	int n_pus;
	struct run_map_pu *pus;	/* after run_map_finish(): most first */
	double seconds;		/* CPU time attributed, all PUs */
	long migrations;	/* after run_map_finish() */
	bool kernel;		/* migrations are the kernel's count
				   (se.nr_migrations); else the changes
				   of PU seen between two samples */
	/* while sampling */
	double last_cpu;	/* NAN: not seen yet */
	int last_pu;
	int changes;
	long nr_migrations;	/* last seen; -1 unknown */
};

/*
 * The sampling period with --map: 20 ms, stretched to RUN_MAP_PER_THREAD
 * seconds a thread when the command has more threads, so that reading
 * /proc costs the same at any thread count (100 threads: 100 ms).
 */
#define RUN_MAP_PERIOD		0.02
#define RUN_MAP_PER_THREAD	0.001

struct run_map {
	double period;		/* seconds between samples, at least */
	int samples;		/* sampling rounds */
	int n_threads;
	struct run_map_thread *threads;
};

/* New empty map (run_map_free() frees it; NULL is a no-op). */
struct run_map *run_map_new(double period);
void run_map_free(struct run_map *m);

/*
 * Fold one sample in: the CPU time the thread gained since its last
 * sample goes to the PU seen now (its first sample's, all it had since
 * it started); a PU other than the last one seen counts a change.
 */
void run_map_add(struct run_map *m, const struct run_map_sample *s);

/*
 * After the last sample: each thread's PUs sorted, most time first,
 * their shares, its migrations (the kernel's count where every sample
 * of it had one, else the changes seen), and the threads in creation
 * order (index; -1 last), then by tid.
 */
void run_map_finish(struct run_map *m);

/* "kernel" when every thread's migrations are the kernel's, "samples"
   when none are, "mixed" otherwise; "none" without threads */
const char *run_map_source(const struct run_map *m);

/*
 * The PUs any thread ran on, ascending, into *pus (new array, caller
 * frees); returns how many.
 */
int run_map_pus(const struct run_map *m, int **pus);

/*
 * The threads that ran on PU, most time there first, as indexes into
 * m->threads into *idx (new array, caller frees) and, when SECS is not
 * NULL, their seconds there into *secs (new array); returns how many.
 */
int run_map_on_pu(const struct run_map *m, int pu, int **idx,
		  double **secs);

/* The map as JSON (new reference): the "map" object of pandia-run/1. */
json_t *run_map_to_json(const struct run_map *m);

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
	int workers;		/* worker threads of the last run */
	int most_workers;	/* most worker threads alive at once */
	int wrapped;		/* threads placed after wrap-around */
	int overridden;		/* threads whose affinity the program set */
	int role_changes;	/* threads whose role in the last run was
				   not the one found first */
	char *helpers;		/* RUN_PIN_WORKERS: the helpers by role,
				   one "PROGRAM/LOCAL" a line, as found by
				   the first run or given (owned; "" none,
				   NULL not found) */
	/*
	 * o->numa_maps: the last run's last reading, each process's after
	 * a line "# pid N" (owned; NULL when none could be read).
	 */
	char *numa_maps;
	bool static_exe;	/* the command is a statically linked
				   executable: LD_PRELOAD cannot act */
	int unpinned;		/* processes of the command (not itself)
				   that did not load the library where it
				   pins: static, or started without
				   LD_PRELOAD (last run) */
	char unpinned_name[64];	/* the first one's name, "" none */
	int unpinned_narrow;	/* their threads allowed on less than the
				   set (started where their starter was
				   pinned: a raw exec system call) */
	struct run_map *map;	/* o->map: where the last run's threads
				   ran (owned; NULL when not asked) */

	/* how the last run ended; set on failure */
	int failed_run;		/* 0 warm-up, 1..n, -1 none failed */
	int exit_status;	/* exit code; -1 when killed */
	int term_signal;	/* signal that killed it, 0 if none */
	bool timed_out;
	int interrupted;	/* signal pandia got, 0 if none */
	int leftovers;		/* processes one run left running after the
				   command exited (killed); most of any run */
	bool pid_namespace;	/* the command ran in a PID namespace of
				   its own: a SIGKILL of pandia ends it all */
	char *no_namespace;	/* why not, when it did not (owned) */
	int corun_restarts;	/* times the co-running command ended and
				   was started again, in the last run */
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
 * The signal caught between two run_execute() calls (see above), or
 * 0: a command that ran its last run asks it before it reports, and
 * stops as an interrupted run would.
 */
int run_caught_signal(void);

/*
 * Whether CPUS[0..N-1] name one PU, however many times: every thread
 * runs there whatever its role, so run_execute() finds no roles.
 */
bool run_one_pu(const int *cpus, int n);

/*
 * Tell the worker threads from the helpers in t[0..n-1], one run's
 * accounting (wall: the run's time) of a placement of N_PUS PUs, and
 * set t[i].worker.  A worker has a real share of the CPU demand (CPU
 * time and run-queue wait, where known: a worker another tenant kept
 * off its PU asked for its share all the same): at least
 * RUN_WORKER_SHARE of the busiest thread's.  Taken busiest first, the
 * members of a team first (a start routine other than "main" with
 * N_PUS busy threads or more: a pool sized by {threads}, whose feeding
 * main thread is a helper however busy it is in one run), workers fill
 * the placement: a thread that would make more workers alive at once
 * than N_PUS is a helper, unless it has the start routine of a worker
 * and at least half the workers' mean CPU demand (more workers than
 * PUs: the list wraps around).  When no thread was on a CPU or waiting
 * for one for RUN_BUSY_SHARE of its life (of WALL when its start or
 * end is not known) and at least RUN_BUSY_MIN seconds, or no CPU time
 * is known, every thread is a worker.  Returns the number of workers.
 */
#define RUN_WORKER_SHARE	0.25
#define RUN_BUSY_SHARE		0.1
#define RUN_BUSY_MIN		0.001
int run_classify(struct run_thread *t, int n, int n_pus, double wall);

/*
 * The helpers of t[0..n-1] (classified) by role: "PROGRAM/LOCAL" for
 * every helper whose program and local index no worker has, one a
 * line.  New string ("" when there is none).
 */
char *run_helper_roles(const struct run_thread *t, int n);

/*
 * The shim libpandia-pin.so: $PANDIA_PIN_LIB, else DIR/libpandia-pin.so,
 * else DIR/../lib/pandia/libpandia-pin.so (installed), with DIR the
 * given directory or, if NULL, that of the running executable.  New
 * string with an absolute path, or NULL when none exists.
 */
char *run_find_shim(const char *dir);

/*
 * The placeholders and the quoting are common/shellword.h's, the one
 * text that 'pandia predict' prints too; run's names for them.
 */
#define run_vars	shell_vars
#define run_subst	shell_subst
#define run_shell_quote	shell_quote

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
 * cpus (array of PU numbers), pin, times, median, min, max, mean, cv,
 * spread, stressors, threads (the accounting of the last run: one
 * object per thread with pid, tid, index, cpu, start, end, cpu_time,
 * runqueue_wait, blocked (by kind), worker), placement (what pinning
 * did: counts, helpers, every thread's affinity as seen), left_behind.
 */
json_t *run_result_to_json(const struct run_opts *o,
			   const struct run_result *r);

/* ---- helper programs (profiler/tool.c) ---------------------------- */

/*
 * The program NAME, or $ENV when that is set (a name or a path): an
 * absolute or relative path to an executable, found on PATH when NAME
 * has no '/'.  New string, or NULL when there is none.
 */
char *run_tool_find(const char *name, const char *env);

/*
 * Run the helper program NAME (found by run_tool_find(NAME, ENV)) with
 * ARGS (NULL-terminated, without argv[0]) in directory DIR (NULL: the
 * current one), standard input from /dev/null, and wait for it: gnuplot
 * drawing a figure.  Returns 0 when it exited with status 0; else -1
 * with err, and errno ENOENT when the program was not found.
 */
int run_tool(const char *name, const char *env, const char *dir,
	     char *const *args, struct pandia_error *err);

/*
 * "N process(es) of the command (NAME) did not load libpandia-pin.so
 * (...): its threads", the start of what run, validate and profile say
 * of run_result.unpinned (a new string).
 */
char *run_unpinned_text(int n, const char *name);

#endif
