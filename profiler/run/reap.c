/*
 * reap.c - the children of the runner and its signals: SIGINT, SIGTERM
 * and SIGHUP watched through a signalfd while a run goes on, pandia a
 * child subreaper, and the sweep that kills and reaps whatever a run
 * left behind (orphans reparented to pandia).
 */
#include "profiler/run/internal.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"

static const int watched_signals[3] = { SIGINT, SIGTERM, SIGHUP };

/*
 * Between two runs of one command the watched signals are caught, not
 * fatal: a Ctrl-C that falls between runs (or while a command prints a
 * run's progress) is kept and stops the next run_execute() before it
 * starts, so the command keeps what it measured.  A second one, or one
 * the command never asks about, ends the process as before.
 */
static volatile sig_atomic_t caught_signal;
static struct sigaction caught_old[3];
static bool catching[3];

static void on_caught(int sig)
{
	struct sigaction sa;

	if (caught_signal) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(sig, &sa, NULL);
		raise(sig);
		return;
	}
	caught_signal = sig;
}

static void catch_between_runs(const bool *watch)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_caught;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(watched_signals); i++)
		if (watch[i] && !catching[i]) {
			sigaction(watched_signals[i], &sa, &caught_old[i]);
			catching[i] = true;
		}
}

int run_caught_signal(void)
{
	return caught_signal;
}

/* process pending signals; true when pandia was asked to stop */
bool read_signals(struct ctx *c)
{
	struct signalfd_siginfo si;

	while (read(c->sig.sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGCHLD && !c->r->interrupted)
			c->r->interrupted = (int)si.ssi_signo;
	}
	return c->r->interrupted != 0;
}

/*
 * The processes whose parent is one of PARENTS[0..N-1] now, zombies
 * left out when RUNNING_ONLY: pids into *out (caller frees).
 */
int list_children_of(const pid_t *parents, int n_parents, pid_t **out,
		     bool running_only)
{
	pid_t *v = NULL;
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[64], buf[512], *p, state;
		int fd, ppid;
		ssize_t len;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 1, " %c %d", &state, &ppid) != 2)
			continue;
		if (!in_list(parents, n_parents, (pid_t)ppid) ||
		    (running_only && state == 'Z'))
			continue;
		v = xrealloc(v, sizeof(*v) * (size_t)(n + 1));
		v[n++] = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	*out = v;
	return n;
}

int list_children(pid_t self, pid_t **out, bool running_only)
{
	return list_children_of(&self, 1, out, running_only);
}

bool in_list(const pid_t *v, int n, pid_t x)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* whether x is one of this run's stressors still to be reaped */
static bool is_stressor(const struct ctx *c, pid_t x)
{
	int i;

	for (i = 0; c->stress.procs && i < c->stress.n; i++)
		if (c->stress.procs[i].pid == x && !c->stress.procs[i].reaped)
			return true;
	return false;
}

/*
 * Kill and reap every child of ours that the run left (orphans the
 * command left behind, reparented to us).  Returns how many were still
 * running.
 */
int sweep(struct ctx *c)
{
	int left = 0, iter, i, n;
	pid_t *kids;

	for (iter = 0; iter < 100; iter++) {
		int found = 0;

		n = list_children(getpid(), &kids, false);
		for (i = 0; i < n; i++) {
			pid_t pgid;

			if (in_list(c->sig.before, c->sig.n_before, kids[i]) ||
			    is_stressor(c, kids[i]) || kids[i] == c->pid)
				continue;
			found++;
			pgid = getpgid(kids[i]);
			if (pgid == kids[i])
				kill(-pgid, SIGKILL);
			if (!kill(kids[i], 0)) {
				int st;

				/* a zombie is not left running */
				if (waitpid(kids[i], &st, WNOHANG) == 0) {
					left++;
					kill(kids[i], SIGKILL);
					waitpid(kids[i], &st, 0);
				}
			}
		}
		free(kids);
		if (!found)
			break;
	}
	return left;
}

int setup_signals(struct ctx *c)
{
	struct sigaction sa = { 0 }, old;
	size_t i;

	sigemptyset(&c->sig.mask);
	sigaddset(&c->sig.mask, SIGCHLD);
	for (i = 0; i < ARRAY_SIZE(watched_signals); i++) {
		sigaction(watched_signals[i], NULL, &old);
		c->sig.watch[i] = old.sa_handler != SIG_IGN;
		if (c->sig.watch[i])
			sigaddset(&c->sig.mask, watched_signals[i]);
	}
	/* children are not reaped by the kernel while we wait for them */
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, &c->sig.old_chld);
	catch_between_runs(c->sig.watch);
	sigprocmask(SIG_BLOCK, &c->sig.mask, &c->sig.oldmask);
	if (caught_signal && !c->r->interrupted)
		c->r->interrupted = caught_signal;
	c->sig.sfd = signalfd(-1, &c->sig.mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (c->sig.sfd < 0) {
		perr_errno(c->err, "cannot watch signals (signalfd)");
		sigprocmask(SIG_SETMASK, &c->sig.oldmask, NULL);
		sigaction(SIGCHLD, &c->sig.old_chld, NULL);
		return -1;
	}
	if (prctl(PR_GET_CHILD_SUBREAPER, &c->sig.old_subreaper) < 0)
		c->sig.old_subreaper = 0;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	c->sig.n_before = list_children(getpid(), &c->sig.before, false);
	return 0;
}

void restore_signals(struct ctx *c)
{
	if (c->sig.sfd < 0)
		return;
	read_signals(c);
	prctl(PR_SET_CHILD_SUBREAPER, c->sig.old_subreaper);
	close(c->sig.sfd);
	c->sig.sfd = -1;
	sigprocmask(SIG_SETMASK, &c->sig.oldmask, NULL);
	sigaction(SIGCHLD, &c->sig.old_chld, NULL);
}

/* what a forked child does first: signals as the caller had them */
void child_signals(const struct ctx *c)
{
	struct sigaction sa = { 0 };
	size_t i;

	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
	for (i = 0; i < ARRAY_SIZE(watched_signals); i++)
		if (catching[i])
			sigaction(watched_signals[i], &caught_old[i], NULL);
	sigprocmask(SIG_SETMASK, &c->sig.oldmask, NULL);
}

/*
 * The guard of a process that must not outlive pandia and leave its
 * files (a namespace's init, the co-runner's supervisor): pandia's
 * death sends it ORPHAN_SIGNAL (PR_SET_PDEATHSIG), whose handler
 * removes the pinning library's files and kills what it runs, then
 * exits.  Only the kernel's signal (no sender) or a parent gone counts:
 * a command that signals its init is not taken for pandia's death.
 * The handler calls only what a signal handler may.
 */
#define ORPHAN_SIGNAL (SIGRTMIN + 3)

static const char *guard_files[4];
static pid_t guard_parent;	/* 0: an init, whose parent it cannot see */
static bool guard_all;		/* kill(-1): a namespace's init */

static void on_orphaned(int sig, siginfo_t *si, void *uc)
{
	size_t i;

	(void)sig;
	(void)uc;
	if (si && si->si_pid != 0 &&
	    (!guard_parent || getppid() == guard_parent))
		return;
	for (i = 0; i < sizeof(guard_files) / sizeof(guard_files[0]); i++)
		if (guard_files[i])
			unlink(guard_files[i]);
	kill(guard_all ? -1 : 0, SIGKILL);
	_exit(128 + SIGKILL);
}

void orphan_guard(const struct ctx *c, bool init)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	guard_files[0] = c->pin.report_path;
	guard_files[1] = c->pin.shared_path;
	guard_files[2] = c->co.shared_path;
	guard_files[3] = c->acct.numa_path;
	guard_parent = init ? 0 : getppid();
	guard_all = init;
	sa.sa_sigaction = on_orphaned;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	sigaction(ORPHAN_SIGNAL, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, ORPHAN_SIGNAL);
}

/* running children of ours that the run started, stressors aside */
int count_leftovers(const struct ctx *c)
{
	pid_t *kids;
	int n = list_children(getpid(), &kids, true), left = 0, i;

	for (i = 0; i < n; i++)
		left += !in_list(c->sig.before, c->sig.n_before, kids[i]) &&
			!is_stressor(c, kids[i]) && kids[i] != c->pid &&
			!(c->co.pgid > 0 && getpgid(kids[i]) == c->co.pgid);
	free(kids);
	return left;
}

void run_reraise(int sig)
{
	struct sigaction sa = { 0 };
	sigset_t set;

	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	fflush(NULL);
	raise(sig);
	_exit(128 + sig);
}
