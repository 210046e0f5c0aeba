/*
 * tool.c - helper programs (gnuplot) run to completion: the one place
 * besides run_execute() where pandia starts a process (profiler/run.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/elfdeps.h"
#include "common/util.h"
#include "profiler/run.h"

char *run_tool_find(const char *name, const char *env)
{
	const char *over = env ? getenv(env) : NULL;
	char *f = elf_which(over && *over ? over : name);

	/* a path is taken as given: it must be a program */
	if (f && access(f, X_OK) != 0) {
		free(f);
		f = NULL;
	}
	return f;
}

int run_tool(const char *name, const char *env, const char *dir,
	     char *const *args, struct pandia_error *err)
{
	char *prog = run_tool_find(name, env);
	char **argv = NULL;
	int n = 0, i, status, ret = -1;
	pid_t pid;

	if (!prog) {
		errno = ENOENT;
		perr_set(err, "%s not found%s%s%s", name, env ? " (nor $" : "",
			 env ? env : "", env ? ")" : "");
		return -1;
	}
	while (args && args[n])
		n++;
	argv = xcalloc((size_t)n + 2, sizeof(char *));
	argv[0] = prog;
	for (i = 0; i < n; i++)
		argv[i + 1] = args[i];
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perr_errno(err, "cannot run %s", name);
		goto out;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0)
			dup2(fd, 0);
		if (dir && chdir(dir) < 0)
			_exit(126);
		execv(prog, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perr_errno(err, "cannot wait for %s", name);
			goto out;
		}
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		ret = 0;
	} else {
		errno = 0;
		perr_set(err, "%s failed (%s %d)", name,
			 WIFEXITED(status) ? "exit" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) :
			 WTERMSIG(status));
	}
out:
	free(argv);
	free(prog);
	return ret;
}
