/*
 * recorded.c - the command a workload description recorded, for the
 * commands that re-run it without "-- CMD" (validate, explain).  A
 * description is data: it travels between people and machines, and
 * its command is run only when the user says so (--recorded), after
 * it is shown, quoted for the shell, as the runner will run it.
 */
#include "builtin.h"

#include <stdlib.h>

#include "common/shellword.h"
#include "common/util.h"
#include "common/workload.h"

char **recorded_command(const char *cmd, const struct pandia_workload *w,
			const char *path, bool recorded, bool dry, bool quiet)
{
	char **argv, *text;
	int i;

	if (!w->n_command)
		usage_error(cmd, "no command given, and '%s' records none: "
			    "pandia %s ... -- CMD [ARG...]", path, cmd);
	argv = xcalloc((size_t)w->n_command + 1, sizeof(char *));
	for (i = 0; i < w->n_command; i++)
		argv[i] = w->command[i];
	text = shell_join_n(w->command, w->n_command);
	if (dry) {
		if (!quiet)
			progress(cmd, "the command that '%s' records, which "
				 "it would run%s: %s", path, recorded ? "" :
				 " with --recorded", text);
	} else if (!recorded) {
		free(argv);
		usage_error(cmd, "'%s' records the command\n    %s\n"
			    "which is run only when asked: add --recorded "
			    "to run it, or give the command to run after "
			    "--", path, text);
	} else if (!quiet) {
		progress(cmd, "running the command that '%s' records "
			 "(--recorded): %s", path, text);
	}
	free(text);
	return argv;
}
