/*
 * internal.h - what the pieces of the runner share (profiler/run/):
 * the state of one run_execute() (struct ctx, one sub-structure per
 * concern) and the functions one piece calls in another.  The public
 * API is profiler/run.h.
 *
 * Processes of one run:
 *   pandia ─┬─ stressor (pgid S) ... one per stressor PU, forked, pinned
 *           ├─ co-run loop (pgid L) ─ the co-running command, again and
 *           │                         again (run_opts.corun_argv)
 *           └─ command  (pgid C) ─ its children, grandchildren, ...
 * pandia is a child subreaper while it runs, so whatever the command
 * leaves behind becomes pandia's child when its parent exits, and is
 * found and killed after each run even if it left group C (reap.c).
 *
 * Where the kernel allows, group C lives in a PID namespace of its own
 * (namespace.c):
 *   pandia ── init (pid 1, pgid C) ── command (pid 2) ── ...
 * so that even a SIGKILL of pandia, which no subreaper outlives, ends
 * the whole tree.
 */
#ifndef PANDIA_PROFILER_RUN_INTERNAL_H
#define PANDIA_PROFILER_RUN_INTERNAL_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "profiler/run.h"

/* the runner's limits */
#define TAIL_BYTES	4096	/* stderr kept for the error message */
#define TAIL_LINES	20	/* lines of it shown */
#define LINE_MAX_BYTES	65536	/* longer output lines are cut */
#define GRACE_SECONDS	0.5	/* SIGTERM to SIGKILL */
#define READY_SECONDS	120.0	/* a stressor's buffer set-up */
#define STOP_SECONDS	5.0	/* a stressor's last report */
#define DRAIN_SECONDS	0.5	/* output after the command exited */
#define SAMPLE_MAX	0.2	/* /proc sampling interval, at most */
#define SCAN_STEP	1.0	/* where the library pins, the scan of all
				   of /proc for processes without it, at
				   least this far apart without an exec */
#define SCAN_AFTER_SPAWN 0.5	/* and at every sample for this long
				   after a spawn */
#define DRAM_MIN_BYTES	(64UL << 20)	/* a DRAM stressor's buffer */
#define PIN_LINE_MAX	(2 * PIN_LINE)	/* a line of the shim's report */

/* a stressor's state, and the type of its messages (stressor.c) */
enum { MSG_READY = 'r', MSG_DONE = 'd', MSG_ERROR = 'e' };

/* one message from a stressor: small enough to be written atomically */
struct st_msg {
	int type;
	double work;		/* during the marked window */
	double seconds;
	double alone_work;	/* from ready to the first mark */
	double alone_seconds;
	double after_work;	/* from the end mark to the stop */
	double after_seconds;
	char text[200];
};

/* one stressor process of a run */
struct stressor_proc {
	pid_t pid;
	int fd;			/* read end of its message pipe */
	int state;		/* 0 starting, MSG_READY, MSG_DONE, MSG_ERROR */
	bool reaped;
	struct st_msg msg;
	size_t got;		/* bytes of msg read */
	enum stress_kind kind;
	int pu;
	size_t bytes;
};

/* an output line being read (capture.c) */
struct linebuf {
	char *buf;
	size_t len;
};

/* signals and the subreaper, around the whole of run_execute() */
struct ctx_signals {
	int sfd;		/* signalfd of mask, or -1 */
	sigset_t mask, oldmask;
	bool watch[3];		/* SIGINT, SIGTERM, SIGHUP watched */
	struct sigaction old_chld;
	int old_subreaper;
	pid_t *before;		/* our children before we started */
	int n_before;
};

/* the stressors: planned once, started for each run */
struct ctx_stress {
	int *pus;		/* flattened stressors, one PU each */
	int n;
	struct stressor_proc *procs;	/* this run's, or NULL */
	pid_t pgid;
	double *tmpl_rates;	/* pandia-stress: lines of a template */
	double *tmpl_alone;	/* and its pandia-stress-alone: lines */
	double *tmpl_after;	/* and pandia-stress-after: lines */
};

/* the command's output */
struct ctx_capture {
	int fd[2];		/* its stdout and stderr, -1 once closed */
	struct linebuf lb[2];
	char tail[TAIL_BYTES];
	size_t tail_len;
	struct run_regex *rx;	/* --time-from, or NULL */
	bool have_time;
	double out_time;	/* from --time-from */
	bool hide;		/* a run made only to find the helpers */
};

/* the per-thread accounting: what is sampled and read */
struct ctx_acct {
	int *pids;		/* processes to sample */
	int n_pids;
	double next_sample, sample_step;
	double next_map, map_step;	/* --map's sampling (map_sample.c) */
	int aff_unknown;	/* affinities set for unknown threads */
	char *numa_path;	/* {numa_maps} of a template, or NULL */
	pid_t *bare;		/* processes found without the library
				   where it pins (this run) */
	int n_bare;
	pid_t *checked;		/* reported processes with a thread the
				   library did not report, looked at */
	int n_checked;
	int exec_pending;	/* exec lines no start followed, lately */
	int spawns_seen;	/* "spawned" lines read so far */
	double scan_until;	/* after one: scan until then (monotonic) */
	double next_scan;	/* where the library pins: the next scan
				   of /proc without one (monotonic s) */
	char bare_name[64];	/* the first one's name */
};

/* the command's own PID namespace */
struct ctx_ns {
	int flags;		/* clone flags of its namespace: 0 not
				   chosen yet, -1 none (see ns_choose) */
	int fd;			/* its init's message (struct ns_msg), or -1 */
};

/* what the namespace's init tells pandia when the command exits */
struct ns_msg {
	double t1;		/* when the command exited */
	int status;		/* its wait status */
	int left;		/* its children still running */
};

/* pinning: the shim's files and what it is told per run */
struct ctx_pin {
	char *report_path;	/* shim report file */
	char *shared_path;	/* shim shared state */
	const char *shim;	/* the library's real path (borrowed) */
	int env_skip, env_helpers, env_float;	/* their envp slots */
	bool static_exe;
	bool discover;		/* the first run finds the helpers */
	bool pinned_helpers;	/* this run pinned by r->helpers */
	bool relearned;		/* a run's roles replaced them once */
};

/* the co-running command */
struct ctx_corun {
	char **argv, **envp;
	char *command;
	pid_t pid;		/* its loop, 0 when stopped */
	bool failed;		/* it failed in this run (see err) */
	pid_t pgid;		/* the loop's group, kept after it */
	int pipe;		/* the loop's count of restarts */
	/*
	 * The pinning library's shared state of the co-running command:
	 * a file of its own, since the command's is emptied before each
	 * of its runs while the co-runner, which goes on, has it mapped
	 * (SIGBUS), and their threads are counted apart.  Or NULL.
	 */
	char *shared_path;
};

struct ctx {
	const struct run_opts *o;
	struct run_result *r;
	struct pandia_error *err;
	bool local;		/* no runner template */
	char **argv;		/* what is executed */
	char **envp;

	/* one run */
	int run;
	pid_t pid;		/* the command (or its init); 0 when reaped */
	pid_t cmd_pid;		/* the command, also once reaped */
	int status;
	double t0, t1;

	struct ctx_signals sig;
	struct ctx_stress stress;
	struct ctx_capture capture;
	struct ctx_acct acct;
	struct ctx_ns ns;
	struct ctx_pin pin;
	struct ctx_corun co;
};

/* ---- exec.c: one run ---------------------------------------------- */

/*
 * What the command's process does after the fork: its CPUs, standard
 * streams and memory policy, then exec.  A failure is written to EX_W,
 * as a negative errno for the policy, a positive one for exec.
 */
void __attribute__((noreturn))
exec_command(struct ctx *c, const cpu_set_t *set, int out_w, int err_w,
	     int ex_w);

/* every listed PU must be one this process may run on */
int check_pus(const int *v, int n, const char *what,
	      struct pandia_error *err);

/* ---- argv.c: the command's argv and environment ------------------- */

/* the variables and the argv to execute */
void build_argv(struct ctx *c, char *const *argv, const char *cpus);

/* the command's environment: ours, with the runner's variables */
void build_env(struct ctx *c, const char *cpus, const char *shim);

/* what the shim is told for this run: helpers, or every thread free */
void set_pin_env(struct ctx *c);

/* a new empty file in $TMPDIR into *path; 0 or -1 with err */
int make_temp(struct ctx *c, char **path);

/* the shim's report and shared-state files; 0 or -1 with err */
int make_report_file(struct ctx *c);

/* free a NULL-terminated array of strings and the strings */
void free_strv(char **v);

/* ---- mempolicy.c -------------------------------------------------- */

/* set_mempolicy(2) of policy mp (in the child); 0 or -1 with errno */
int apply_mempolicy(const struct run_mempolicy *mp);

/* ---- stressor.c --------------------------------------------------- */

/* flatten the stressors into r->stress, one per PU, sizes chosen */
int plan_stressors(struct ctx *c);

/* fork the stressors of c->stress, one per PU; 0 or -1 with err */
int start_stressors(struct ctx *c);

/*
 * Wait until every stressor has reached state WANT (or failed), with
 * pandia's signals watched.  Returns 0 or -1 with err.
 */
int wait_stressors(struct ctx *c, int want, double limit);

/*
 * Let the stressors run alone for o->stress_alone seconds, before the
 * command starts and again after it ended, pandia's signals watched.
 * 0 or -1 with err.
 */
int stressors_alone(struct ctx *c);

/* send SIG to every stressor not yet reaped */
void signal_stressors(struct ctx *c, int sig);

/*
 * Stop the stressors, record what each did during the command when
 * RECORD, and reap them all.  Returns 0 or -1 with err.
 */
int stop_stressors(struct ctx *c, bool record, int slot);

/* ---- reap.c: signals and children --------------------------------- */

/*
 * Watch pandia's signals through a signalfd and make pandia a child
 * subreaper, noting its children before the runs; 0 or -1 with err.
 * restore_signals() undoes it.
 */
int setup_signals(struct ctx *c);
void restore_signals(struct ctx *c);

/* process pending signals; true when pandia was asked to stop */
bool read_signals(struct ctx *c);

/* what a forked child does first: signals as the caller had them */
void child_signals(const struct ctx *c);
/*
 * In a child that must not outlive pandia: when pandia dies, remove
 * the pinning library's files of C and kill what the child runs (all
 * of its PID namespace when INIT, else its process group), then exit.
 */
void orphan_guard(const struct ctx *c, bool init);

/* SELF's child processes now: pids into *out (caller frees) */
int list_children(pid_t self, pid_t **out, bool running_only);
/* the same for any of PARENTS[0..N-1] */
int list_children_of(const pid_t *parents, int n_parents, pid_t **out,
		     bool running_only);

/* whether x is one of v[0..n-1] */
bool in_list(const pid_t *v, int n, pid_t x);

/*
 * Kill and reap every child of ours that the run left (orphans the
 * command left behind, reparented to us).  Returns how many were still
 * running.
 */
int sweep(struct ctx *c);

/* running children of ours that the run started, stressors aside */
int count_leftovers(const struct ctx *c);

/* ---- capture.c: the command's output ------------------------------ */

/* read what is there on output k; close it at EOF */
void read_output(struct ctx *c, int k);

/* the last lines of the command's stderr into r->stderr_tail */
void set_tail(struct ctx *c);

/* ---- account.c: threads and roles --------------------------------- */

/* PID among the processes sampled */
void add_pid(struct ctx *c, int pid);

/* FN(c, "/proc/PID/task", PID, TID, DATA) for every thread of the
   processes we know */
void each_task(struct ctx *c, void (*fn)(struct ctx *c, const char *dir,
					 int pid, int tid, void *data),
	       void *data);

/*
 * Every thread of the processes we know: its Cpus_allowed_list and,
 * until the library reports its end, its CPU time and run-queue wait.
 */
void sample_threads(struct ctx *c);

/* The file a template wrote to {numa_maps}, emptied for the next run. */
void read_numa_file(struct ctx *c);

/* after a run: complete the accounting, order, classify, count */
void judge_threads(struct ctx *c);

/* ---- procs.c: the processes the library does not report ---------- */

/* the processes whose last "exec" line no start of their main followed */
struct execs {
	pid_t *pid;
	char (*name)[64];
	int n;
};

/* the command's processes the library does not report, to the last
   generation, into the processes sampled (where it pins: while an
   exec it saw may have started a program without it, else once a
   second; NOW monotonic seconds) */
void add_descendants(struct ctx *c, double now);

/* a reported process with a thread the library did not report, looked
   at once: does it still run the library? */
void check_reported(struct ctx *c);

/* the report's "exec" line of process PID (NAME "-": it failed) or,
   NAME NULL, the start of its main thread, into X */
void exec_seen(struct execs *x, int pid, const char *name);

/* after the run: the processes X holds ran without the library */
void execs_apply(struct ctx *c, struct execs *x);

/* ---- map_sample.c: where the threads ran (--map) ------------------ */

/* a new r->map for this run, its first sample due (o->map alone) */
void map_start(struct ctx *c);

/* every thread of the processes we know: its PU and CPU time now */
void sample_map(struct ctx *c);

/* after judge_threads(): the roles into the map, and its totals */
void map_finish(struct ctx *c);

/* ---- namespace.c: how the command's process starts ---------------- */

/*
 * Start the command's process: its init in a namespace of its own
 * where it can (c->pid is the init, *CMD its first process, from EX),
 * else forked alone (*CMD is c->pid).  0, or -1 with errno.
 */
int fork_command(struct ctx *c, const cpu_set_t *set, int ex[2],
		 int out_w, int err_w, pid_t *cmd);

/* the command's end as its init told it; false when it did not */
bool ns_result(struct ctx *c, struct ns_msg *m);

/* the command failed to start: its process (or init) reaped */
void reap_failed(struct ctx *c);

/* ---- corun.c: the co-running command ------------------------------ */

/*
 * The co-running command's argv and environment, as the command's,
 * with a shared-state file of its own.  0, or -1 with err.
 */
int build_corun(struct ctx *c, const char *shim);

/* start its loop process; 0 or -1 with err */
int start_corun(struct ctx *c);

/*
 * Stop the co-run loop and what it runs.  0, or -1 with err when it
 * ended by itself: the co-running command failed.
 */
int stop_corun(struct ctx *c);

#endif
