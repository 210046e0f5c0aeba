/*
 * namespace.c - the command's own PID namespace, and how the command's
 * process is started: under an init of pandia's in a namespace of its
 * own where the kernel allows (fork_command), else forked alone.
 */
#include "profiler/run/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/report.h"
#include "common/util.h"

/*
 * The command runs under an init of pandia's own: the first process of
 * a new PID namespace (clone(2) with CLONE_NEWPID, and CLONE_NEWUSER
 * where pandia is not root, with the user's own ids mapped to
 * themselves).  The init forks the command, reaps whatever is
 * reparented to it and, when the command exits, sends pandia the time,
 * the command's status and how many of its children still run, then
 * exits: the kernel kills whatever is left in the namespace.  The init
 * dies with pandia (PR_SET_PDEATHSIG), even of a SIGKILL, and takes
 * the namespace with it.  The command is not the first process itself:
 * that one ignores every signal it has no handler for, which would
 * change how the command behaves.
 *
 * Ids: /proc is the one of pandia's namespace, so the init and the
 * pinning library read their ids there (/proc/self, /proc/thread-self),
 * and every id pandia is told is one of its own namespace.
 *
 * PANDIA_PID_NAMESPACE=0 in the environment turns it off.
 */

/* the calling process's id where /proc belongs, or -1 */
static pid_t proc_self_pid(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return (pid_t)atoi(buf);
}

/*
 * fork(), with CLONE_FLAGS as well.  The child goes on from here, on a
 * copy of the stack, as after fork(); it must not rely on what glibc
 * caches of its thread (it only sets up, forks and waits).
 */
static pid_t clone_fork(unsigned long flags)
{
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL,
			      0L);
}

/* write TEXT to /proc/PID/NAME; 0 or -1 with errno */
static int write_proc(pid_t pid, const char *name, const char *text)
{
	char path[64];
	int fd, e = 0;
	size_t len = strlen(text);

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len)
		e = errno ? errno : EIO;
	close(fd);
	errno = e;
	return e ? -1 : 0;
}

/* the user's ids mapped to themselves in the init's user namespace */
static int map_ids(pid_t pid)
{
	char line[64];

	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned)getuid(),
		 (unsigned)getuid());
	if (write_proc(pid, "uid_map", line) < 0)
		return -1;
	if (write_proc(pid, "setgroups", "deny") < 0 && errno != ENOENT)
		return -1;
	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned)getgid(),
		 (unsigned)getgid());
	return write_proc(pid, "gid_map", line);
}

/* why a namespace could not be had: said once per pandia */
static void no_namespace(struct ctx *c, const char *what, int e)
{
	static bool told;

	c->ns.flags = -1;
	free(c->r->no_namespace);
	c->r->no_namespace = xasprintf("%s: %s", what, strerror(e));
	if (!told)
		report_warning("the command runs without a PID namespace of its "
			"own (%s): should pandia be killed by SIGKILL, "
			"processes the command started may outlive it",
			c->r->no_namespace);
	told = true;
}

/*
 * Whether the command can have a namespace: 0 not yet tried, -1 not,
 * else the clone flags.  Asked once per pandia run.
 */
static void ns_choose(struct ctx *c)
{
	const char *env = getenv("PANDIA_PID_NAMESPACE");

	c->ns.flags = CLONE_NEWPID;
	if (geteuid() != 0)
		c->ns.flags |= CLONE_NEWUSER;
	if (env && !strcmp(env, "0"))
		no_namespace(c, "PANDIA_PID_NAMESPACE=0", ECANCELED);
	else if (proc_self_pid() != getpid()) {
		no_namespace(c, "/proc is not this process's", ENOENT);
	}
}

/*
 * The namespace's init: starts the command (exec_command), waits for
 * it, reaping the orphans reparented to it, and tells pandia how it
 * ended on MSG_W.  GO_R says pandia is there (and has mapped the ids).
 */
static void __attribute__((noreturn))
ns_init(struct ctx *c, const cpu_set_t *set, int go_r, int msg_w,
	int out_w, int err_w, int ex_w)
{
	struct ns_msg m = { 0, 0, 0 };
	pid_t h, w, *kids;
	char go;
	int st, n;

	setpgid(0, 0);
	orphan_guard(c, true);
	/* pandia may have died before the line above: then no byte */
	while ((n = (int)read(go_r, &go, 1)) < 0 && errno == EINTR)
		;
	if (n != 1)
		_exit(127);
	close(go_r);
	h = fork();
	if (h == 0) {
		pid_t me = proc_self_pid();

		close(msg_w);
		while (write(ex_w, &me, sizeof(me)) < 0 && errno == EINTR)
			;
		exec_command(c, set, out_w, err_w, ex_w);
	}
	if (h < 0) {
		pid_t none = 0;

		while (write(ex_w, &none, sizeof(none)) < 0 && errno == EINTR)
			;
		_exit(127);
	}
	close(out_w);
	close(err_w);
	close(ex_w);
	for (;;) {
		w = waitpid(-1, &st, 0);
		if (w == h)
			break;
		if (w < 0 && errno != EINTR)
			_exit(127);
	}
	m.t1 = now_seconds();
	m.status = st;
	/* the orphans reparented to the init, as list_children counts */
	while (waitpid(-1, &st, WNOHANG) > 0)
		;
	m.left = list_children(proc_self_pid(), &kids, true);
	free(kids);
	while (write(msg_w, &m, sizeof(m)) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* the command's end as its init told it; false when it did not */
bool ns_result(struct ctx *c, struct ns_msg *m)
{
	ssize_t n;

	if (c->ns.fd < 0)
		return false;
	do
		n = read(c->ns.fd, m, sizeof(*m));
	while (n < 0 && errno == EINTR);
	close(c->ns.fd);
	c->ns.fd = -1;
	return n == (ssize_t)sizeof(*m);
}

/*
 * Start the command's process: its init in a namespace of its own
 * where it can (c->pid is the init, *CMD its first process, from EX),
 * else forked alone (*CMD is c->pid).  0, or -1 with errno.
 */
int fork_command(struct ctx *c, const cpu_set_t *set, int ex[2],
		 int out_w, int err_w, pid_t *cmd)
{
	int go[2] = { -1, -1 }, msg[2] = { -1, -1 }, e, k;
	pid_t pid;
	ssize_t n;

	*cmd = 0;
	if (c->ns.flags == 0)
		ns_choose(c);
	if (c->ns.flags > 0 && (pipe2(go, O_CLOEXEC) < 0 ||
				pipe2(msg, O_CLOEXEC) < 0))
		goto plain;
	if (c->ns.flags > 0) {
		pid = clone_fork((unsigned long)c->ns.flags);
		if (pid == 0) {
			close(go[1]);
			close(msg[0]);
			close(ex[0]);
			child_signals(c);
			ns_init(c, set, go[0], msg[1], out_w, err_w, ex[1]);
		}
		e = errno;
		close(go[0]);
		close(msg[1]);
		go[0] = msg[1] = -1;
		if (pid < 0) {
			no_namespace(c, "clone", e);
			goto plain;
		}
		if ((c->ns.flags & CLONE_NEWUSER) && map_ids(pid) < 0) {
			e = errno;
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			no_namespace(c, "cannot map the user's ids", e);
			goto plain;
		}
		setpgid(pid, pid);
		while (write(go[1], "g", 1) < 0 && errno == EINTR)
			;
		close(go[1]);
		c->pid = pid;
		c->ns.fd = msg[0];
		/* the command's id, or 0 when its fork failed */
		do
			n = read(ex[0], cmd, sizeof(*cmd));
		while (n < 0 && errno == EINTR);
		if (n != sizeof(*cmd) || *cmd <= 0)
			*cmd = 0;
		c->r->pid_namespace = true;
		return 0;
	}
plain:
	for (k = 0; k < 2; k++) {
		if (go[k] >= 0)
			close(go[k]);
		if (msg[k] >= 0)
			close(msg[k]);
	}
	c->r->pid_namespace = false;
	pid = fork();
	if (pid == 0) {
		close(ex[0]);
		setpgid(0, 0);
		child_signals(c);
		exec_command(c, set, out_w, err_w, ex[1]);
	}
	if (pid < 0)
		return -1;
	setpgid(pid, pid);
	c->pid = *cmd = pid;
	return 0;
}

/* the command failed to start: its process (or init) reaped */
void reap_failed(struct ctx *c)
{
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
	if (c->ns.fd >= 0) {
		close(c->ns.fd);
		c->ns.fd = -1;
	}
}
