/*
 * cmd.h - the pandia subcommands and what they share.
 *
 * One file per subcommand exports cmd_NAME() and usage_NAME[].  The
 * dispatcher (common/main.c) handles "pandia help NAME" and
 * "pandia NAME --help" (both print usage_NAME to stdout).
 *
 * Exit status: 0 success, 1 failure, 2 usage error.
 */
#ifndef PANDIA_CMD_H
#define PANDIA_CMD_H

#include <stdbool.h>

int cmd_machine(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_validate(int argc, char **argv);

extern const char usage_machine[];
extern const char usage_run[];
extern const char usage_profile[];
extern const char usage_predict[];
extern const char usage_validate[];

/*
 * Print "pandia CMD: MESSAGE" and "see 'pandia CMD --help'" to stderr
 * and exit with status 2.
 */
void usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

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

/* Where pandia's own files are: the directory of the running binary. */
const char *pandia_exe_dir(void);

#endif
