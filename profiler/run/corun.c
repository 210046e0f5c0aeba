/*
 * corun.c - the co-running command: a loop process, pinned to its own
 * PUs, that runs it again and again while the command runs, counting
 * its restarts; its argv and environment are built as the command's.
 */
#include "profiler/run/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cpulist.h"

int start_corun(struct ctx *c)
{
	int p[2], k;
	cpu_set_t set;

	if (pipe2(p, O_CLOEXEC) < 0)
		return perr_errno(c->err, "cannot create a pipe");
	CPU_ZERO(&set);
	for (k = 0; k < c->o->n_corun_cpus; k++)
		CPU_SET(c->o->corun_cpus[k], &set);
	fflush(NULL);
	c->co.pid = fork();
	if (c->co.pid < 0) {
		c->co.pid = 0;
		close(p[0]);
		close(p[1]);
		return perr_errno(c->err, "cannot start '%s'",
				  c->co.argv[0]);
	}
	if (!c->co.pid) {
		int fd = open("/dev/null", O_RDWR), st, restarts = 0;

		setpgid(0, 0);
		child_signals(c);
		/* with pandia, the command and its children go too */
		orphan_guard(c, false);
		if (c->o->pin != RUN_PIN_NONE)
			sched_setaffinity(0, sizeof(set), &set);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		for (;; restarts++) {
			pid_t k2;

			if (restarts && write(p[1], "+", 1) < 0)
				_exit(125);
			k2 = fork();
			if (k2 < 0)
				_exit(126);
			if (!k2) {
				execvpe(c->co.argv[0], c->co.argv, c->co.envp);
				_exit(127);
			}
			while (waitpid(k2, &st, 0) < 0 && errno == EINTR)
				;
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				_exit(WIFEXITED(st) ? WEXITSTATUS(st) :
				      128 + WTERMSIG(st));
		}
	}
	close(p[1]);
	setpgid(c->co.pid, c->co.pid);
	c->co.pgid = c->co.pid;
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	c->co.pipe = p[0];
	c->r->corun_restarts = 0;
	return 0;
}

/*
 * Stop the co-run loop and what it runs.  0, or -1 with err when it
 * ended by itself: the co-running command failed.
 */
int stop_corun(struct ctx *c)
{
	char buf[256];
	ssize_t n;
	int st = 0;

	if (c->co.pid <= 0)
		return 0;
	kill(-c->co.pid, SIGKILL);
	while (waitpid(c->co.pid, &st, 0) < 0 && errno == EINTR)
		;
	c->co.pid = 0;
	while ((n = read(c->co.pipe, buf, sizeof(buf))) > 0)
		c->r->corun_restarts += (int)n;
	close(c->co.pipe);
	c->co.pipe = -1;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return perr_set(c->err, "cannot run the co-running command "
				"'%s'", c->co.argv[0]);
	return perr_set(c->err, "the co-running command %s (status %d): %s",
			WIFEXITED(st) ? "failed" : "was killed",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
			c->co.command);
}

int build_corun(struct ctx *c, const char *shim)
{
	struct run_opts bo = *c->o;
	struct run_result br;
	struct ctx b = *c;
	char *cpus;

	if (c->pin.shared_path && make_temp(c, &c->co.shared_path) < 0)
		return -1;
	bo.cpus = c->o->corun_cpus;
	bo.n_cpus = c->o->n_corun_cpus;
	bo.stress = NULL;
	bo.n_stress = 0;
	run_result_init(&br);
	b.o = &bo;
	b.r = &br;
	b.stress.n = 0;
	b.pin.report_path = (char *)"/dev/null";
	b.pin.shared_path = c->co.shared_path;
	cpus = cpulist_format(bo.cpus, bo.n_cpus);
	build_argv(&b, c->o->corun_argv, cpus);
	build_env(&b, cpus, shim);
	c->co.argv = b.argv;
	c->co.envp = b.envp;
	c->co.command = br.command;
	br.command = NULL;
	run_result_release(&br);
	free(cpus);
	return 0;
}
