/*
 * builtin.h - the pandia subcommands and what they share.
 *
 * One file per subcommand in builtin/ exports cmd_NAME() and
 * usage_NAME[].  The dispatcher (pandia.c) handles "pandia help NAME" and
 * "pandia NAME --help" (both print usage_NAME to stdout).
 *
 * Exit status: 0 success, 1 failure, 2 usage error.
 */
#ifndef PANDIA_BUILTIN_H
#define PANDIA_BUILTIN_H

#include <stdbool.h>

#include <jansson.h>

int cmd_machine(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_extrapolate(int argc, char **argv);
int cmd_cpus(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_tune(int argc, char **argv);

extern const char usage_machine[];
extern const char usage_run[];
extern const char usage_profile[];
extern const char usage_predict[];
extern const char usage_validate[];
extern const char usage_extrapolate[];
extern const char usage_cpus[];
extern const char usage_explain[];
extern const char usage_tune[];

/* ---- talking to people (builtin/usage.c) -------------------------- */

#include "common/error.h"

/*
 * Install the routines through which library code reports
 * (common/report.h): warnings and progress on stderr as warning() and
 * progress() print them.  Called once by the dispatcher.
 */
void usage_install_report(void);

/*
 * Print "pandia CMD: MESSAGE" and "see 'pandia CMD --help'" to stderr
 * and exit with status 2.
 */
void usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* "pandia: fatal: MESSAGE" on stderr, then exit with status 1. */
void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* "pandia: error: MESSAGE" on stderr; returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "pandia: warning: MESSAGE" on stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a callback that says TEXT (ARG unused). */
void warning_text(void *arg, const char *text);
/* A library error as "pandia: FILE:LINE:COL: TEXT"; returns -1. */
int error_perr(const struct pandia_error *err);
/*
 * What a failed command last wrote on its stderr (the runner's
 * stderr_tail), the one way every command shows it: "pandia: the end
 * of its standard error:" and each line indented by "  | ".  Nothing
 * when TAIL is NULL or empty.
 */
void show_stderr_tail(const char *tail);
/*
 * DIR/NAME.gp holding SCRIPT, and DIR/NAME.png drawn from it by
 * gnuplot where there is one (a warning that says how to draw it
 * where not): 0, or -1 when the script could not be written (said).
 */
int draw_figure(const char *dir, const char *name, const char *script);
/*
 * Whether the note KEY (the same text each time it applies) is said in
 * full: the first time on this host, or always after said_verbose(true)
 * (-v) or where the record of what was said cannot be kept
 * (builtin/said.c).  Otherwise the caller says it in one line.
 */
bool said_in_full(const char *key);
void said_verbose(bool on);
/* The key of the note on why perf cannot count: one per host, whichever
   command says it first. */
#define SAID_NO_PERF "perf counters unavailable"

/*
 * The command that W (read from PATH) recorded, for CMD run without
 * "-- CMD" (builtin/recorded.c): a new array of W's words (borrowed).
 * It is shown quoted for the shell; without RECORDED (--recorded) it is
 * not run: a usage error (status 2) says how to run it, unless DRY
 * (-n), which only says what would run.  QUIET: nothing shown when it
 * runs.  No command recorded: a usage error.
 */
struct pandia_workload;
char **recorded_command(const char *cmd, const struct pandia_workload *w,
			const char *path, bool recorded, bool dry, bool quiet);
/* A progress line "pandia CMD: MESSAGE" on stderr. */
void progress(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * "round 2 of 3, " into BUF (returned), the start of a progress line
 * of a run made in ROUND (from 0) of ROUNDS; "" with one round.
 */
const char *round_text(int round, int rounds, char *buf, size_t size);

/*
 * Flush and close standard output, and turn a failure to write it (a
 * full disk) into exit status 1 with a message; returns STATUS
 * otherwise.  Called once by the dispatcher after every command.
 */
int finish_stdout(int status);

/* ROOT as json_to_text() writes it (common/jsonout.h), on stdout. */
void json_print(const json_t *root);

struct pandia_machine;

/*
 * Check that machine M (read from FILE) describes this host, for a
 * command that is about to measure here.  Returns 0 when it does,
 * when this host's topology cannot be read (a warning), or when FORCE
 * is set (a warning saying the command goes on DOING, e.g.
 * "profiling"); otherwise prints why it was refused, adding HINT when
 * not NULL, and returns -1.
 */
int check_this_host(const struct pandia_machine *m, const char *file,
		    bool force, const char *doing, const char *hint);

/*
 * For a command about to run THREADS threads here (WHAT: "the
 * placement's", "the machine's"): a warning when this process's
 * cgroups give it a CPU quota below THREADS PUs' time, which the
 * threads then share; and when the quota cannot be read.  check_this_host()
 * says it for the machine's PUs when the machine is this host.
 */
void warn_cpu_quota(int threads, const char *what);

/*
 * The machine description a command uses (common/machdir.h): ARG, a
 * file or a name looked up on the search path; without ARG, this
 * host's own description when there is one whose host and CPU model
 * match, said on stderr ("pandia CMD: using ..."; CMD NULL, for -q:
 * not said).  Returns it with
 * *path a new string; otherwise NULL after printing why (without ARG
 * only when REQUIRED: how to make one).
 */
struct pandia_machine *open_machine(const char *cmd, const char *arg,
				    bool required, char **path);

/* Where pandia's own files are: the directory of the running binary. */
const char *pandia_exe_dir(void);

#endif
