/*
 * exec.c - run one command at one placement, timed (run.h): the
 * results, one run from the start of its command to its end, and
 * run_execute() around them.
 */
#include "profiler/run/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cgroup.h"
#include "common/cpulist.h"
#include "common/elfdeps.h"
#include "common/util.h"

/* ------------------------------------------------------------------ */
/* results                                                             */

void run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->repetitions = 1;
	o->warmup = true;
	o->pin = RUN_PIN_WORKERS;
	o->n_skip = -1;
	o->output_fd = -1;
	o->size = NAN;
}

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	r->warmup_time = NAN;
	r->threads_created = -1;
	r->failed_run = -1;
	r->exit_status = -1;
}

static void free_threads(struct run_result *r)
{
	int i;

	for (i = 0; i < r->n_threads; i++) {
		free(r->threads[i].allowed);
		free(r->threads[i].program);
		free(r->threads[i].routine);
	}
	free(r->threads);
	r->threads = NULL;
	r->n_threads = 0;
}

void run_result_release(struct run_result *r)
{
	int i;

	if (!r)
		return;
	free(r->command);
	free(r->times);
	for (i = 0; i < r->n_stress; i++) {
		free(r->stress[i].spec);
		free(r->stress[i].kind);
		free(r->stress[i].rates);
		free(r->stress[i].alone);
		free(r->stress[i].after);
	}
	free(r->stress);
	free_threads(r);
	free(r->helpers);
	free(r->stderr_tail);
	free(r->numa_maps);
	free(r->no_namespace);
	run_map_free(r->map);
	run_result_init(r);
}

void run_stats(const double *v, int n, struct run_result *r)
{
	double sum = 0, ss = 0;
	int i;

	r->median = r->min = r->max = r->mean = r->cv = r->spread = 0;
	if (n < 1)
		return;
	r->min = r->max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < r->min)
			r->min = v[i];
		if (v[i] > r->max)
			r->max = v[i];
	}
	r->mean = sum / n;
	r->median = median_of(v, n);
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (v[i] - r->mean) * (v[i] - r->mean);
	if (r->mean > 0)
		r->cv = sqrt(ss / (n - 1)) / r->mean;
	if (r->median > 0)
		r->spread = (r->max - r->min) / r->median;
}

/* ------------------------------------------------------------------ */
/* one run                                                             */

static void terminate(struct ctx *c, double *kill_at)
{
	if (c->pid > 0 && *kill_at == 0) {
		kill(-c->pid, SIGTERM);
		kill(c->pid, SIGTERM);
		*kill_at = now_seconds() + GRACE_SECONDS;
	}
}

/*
 * What the command's process does after the fork: its CPUs, standard
 * streams and memory policy, then exec.  A failure is written to EX_W,
 * as a negative errno for the policy, a positive one for exec.
 */
void __attribute__((noreturn))
exec_command(struct ctx *c, const cpu_set_t *set, int out_w, int err_w,
	     int ex_w)
{
	int e;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (c->local && c->o->pin != RUN_PIN_NONE)
		sched_setaffinity(0, sizeof(*set), set);
	if (isatty(0)) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
	dup2(out_w, 1);
	dup2(err_w, 2);
	/* a failed policy is told apart by its sign */
	if (apply_mempolicy(c->o->mem) < 0) {
		e = -errno;
		while (write(ex_w, &e, sizeof(e)) < 0 && errno == EINTR)
			;
		_exit(127);
	}
	execvpe(c->argv[0], c->argv, c->envp);
	e = errno;
	while (write(ex_w, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* fork and exec the command; 0 or -1 with err */
static int start_command(struct ctx *c)
{
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 }, ex[2] = { -1, -1 };
	int ret = -1, e = 0, k;
	cpu_set_t set;
	pid_t cmd;
	ssize_t n;

	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
	    pipe2(ex, O_CLOEXEC) < 0) {
		perr_errno(c->err, "cannot create pipes");
		goto out_close;
	}
	CPU_ZERO(&set);
	for (k = 0; k < c->o->n_cpus; k++)
		CPU_SET(c->o->cpus[k], &set);
	if (c->pin.report_path) {
		int fd = open(c->pin.report_path,
			      O_WRONLY | O_TRUNC | O_CLOEXEC);

		if (fd >= 0)
			close(fd);
		/* the shim sizes it again, zeroed: a fresh counter */
		fd = open(c->pin.shared_path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}
	signal_stressors(c, SIGUSR1);
	fflush(NULL);
	c->t0 = now_seconds();
	if (fork_command(c, &set, ex, out[1], errp[1], &cmd) < 0) {
		c->pid = 0;
		perr_errno(c->err, "cannot start '%s'", c->argv[0]);
		goto out_close;
	}
	c->cmd_pid = cmd > 0 ? cmd : c->pid;
	close(ex[1]);
	ex[1] = -1;
	do
		n = read(ex[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n == sizeof(e) && e < 0) {
		char pol[96];

		errno = -e;
		perr_errno(c->err, "cannot set the memory policy %s for '%s'",
			   run_mempolicy_text(c->o->mem, pol, sizeof(pol)),
			   c->argv[0]);
		reap_failed(c);
		goto out_close;
	}
	if (n == sizeof(e)) {
		errno = e;
		perr_errno(c->err, "cannot run '%s'", c->argv[0]);
		reap_failed(c);
		goto out_close;
	}
	for (k = 0; k < 2; k++) {
		int *p = k ? errp : out;

		close(p[1]);
		p[1] = -1;
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		c->capture.fd[k] = p[0];
		p[0] = -1;
	}
	add_pid(c, c->cmd_pid);
	ret = 0;
out_close:
	for (k = 0; k < 2; k++) {
		if (out[k] >= 0)
			close(out[k]);
		if (errp[k] >= 0)
			close(errp[k]);
		if (ex[k] >= 0)
			close(ex[k]);
	}
	return ret;
}

/*
 * If the command has exited: note the time, count and kill what it
 * left behind (its group, then orphans that left the group), and reap
 * it.  It is reaped last, so that its process group cannot be reused
 * before it is killed.
 */
static bool command_exited(struct ctx *c)
{
	siginfo_t si = { 0 };
	struct ns_msg m;
	int st, left;

	if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0
	    || si.si_pid != c->pid)
		return false;
	c->t1 = now_seconds();
	if (stop_corun(c) < 0)
		c->co.failed = true;
	left = count_leftovers(c);
	kill(-c->pid, SIGKILL);
	waitpid(c->pid, &st, 0);
	c->status = st;
	if (ns_result(c, &m)) {
		/* the command's end, not its init's */
		c->t1 = m.t1;
		c->status = m.status;
		left += m.left;
	}
	if (left > c->r->leftovers)
		c->r->leftovers = left;
	c->pid = 0;
	sweep(c);
	return true;
}

/*
 * Wait for the command, reading its output, sampling its threads,
 * enforcing the timeout and watching pandia's signals.
 */
static void wait_command(struct ctx *c)
{
	double deadline = c->o->timeout > 0 ? c->t0 + c->o->timeout : 0;
	double kill_at = 0, drain_end = 0;
	int k;

	c->acct.sample_step = 0.002;
	c->acct.next_sample = c->t0 + c->acct.sample_step;
	map_start(c);
	for (;;) {
		struct pollfd pf[3];
		double now = now_seconds(), wake = now + 1;
		int n = 0;

		if (c->pid > 0 && command_exited(c))
			drain_end = c->t1 + DRAIN_SECONDS;
		if (c->pid == 0) {
			if (c->capture.fd[0] < 0 && c->capture.fd[1] < 0)
				break;
			if (now >= drain_end)
				break;
			wake = drain_end;
		}
		if (read_signals(c))
			terminate(c, &kill_at);
		if (deadline && now >= deadline && c->pid > 0 &&
		    !c->r->timed_out) {
			c->r->timed_out = true;
			terminate(c, &kill_at);
		}
		if (kill_at && now >= kill_at && c->pid > 0) {
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
			kill_at = now + 1;	/* again if it lingers */
		}
		if (c->local && c->pid > 0 && now >= c->acct.next_sample) {
			sample_threads(c);
			if (c->acct.sample_step < SAMPLE_MAX)
				c->acct.sample_step *= 2;
			c->acct.next_sample = now + c->acct.sample_step;
		}
		if (c->r->map && c->pid > 0 && now >= c->acct.next_map) {
			sample_map(c);
			c->acct.next_map = now + c->acct.map_step;
		}
		if (c->pid > 0) {
			if (deadline && !c->r->timed_out && deadline < wake)
				wake = deadline;
			if (kill_at && kill_at < wake)
				wake = kill_at;
			if (c->local && c->acct.next_sample < wake)
				wake = c->acct.next_sample;
			if (c->r->map && c->acct.next_map < wake)
				wake = c->acct.next_map;
		}
		pf[n].fd = c->sig.sfd;
		pf[n++].events = POLLIN;
		for (k = 0; k < 2; k++) {
			if (c->capture.fd[k] < 0)
				continue;
			pf[n].fd = c->capture.fd[k];
			pf[n++].events = POLLIN;
		}
		k = (int)((wake - now) * 1000) + 1;
		if (poll(pf, (nfds_t)n, k < 0 ? 0 : k) < 0 && errno != EINTR)
			break;
		for (k = 0; k < 2; k++)
			if (c->capture.fd[k] >= 0)
				read_output(c, k);
	}
	for (k = 0; k < 2; k++) {
		if (c->capture.fd[k] >= 0) {
			close(c->capture.fd[k]);
			c->capture.fd[k] = -1;
		}
	}
}

/* describe how the run ended into err; 0 when it succeeded */
static int judge_status(struct ctx *c, double *secs)
{
	struct run_result *r = c->r;
	char which[64];

	if (c->run)
		snprintf(which, sizeof(which), "run %d of %d", c->run,
			 c->o->repetitions);
	else if (c->o->warmup)
		snprintf(which, sizeof(which), "the warm-up run");
	else
		snprintf(which, sizeof(which), "the run that finds the "
			 "workers");
	r->exit_status = -1;
	r->term_signal = 0;
	if (WIFEXITED(c->status))
		r->exit_status = WEXITSTATUS(c->status);
	else if (WIFSIGNALED(c->status))
		r->term_signal = WTERMSIG(c->status);
	if (r->interrupted)
		return perr_set(c->err, "interrupted by signal %d (%s); "
				"stopped: %s", r->interrupted,
				strsignal(r->interrupted), r->command);
	if (r->timed_out)
		return perr_set(c->err, "%s timed out after %g s: %s",
				which, c->o->timeout, r->command);
	if (r->term_signal)
		return perr_set(c->err, "%s was killed by signal %d (%s): %s",
				which, r->term_signal,
				strsignal(r->term_signal), r->command);
	if (r->exit_status != 0)
		return perr_set(c->err, "%s exited with status %d: %s",
				which, r->exit_status, r->command);
	if (c->capture.rx && !c->capture.have_time)
		return perr_set(c->err, "%s: no line of the output matched "
				"--time-from '%s': %s", which,
				c->o->time_from, r->command);
	*secs = c->capture.rx ? c->capture.out_time : c->t1 - c->t0;
	return 0;
}

/* run RUN: 0, -1 when it failed, 1 when it must be made again */
static int one_run(struct ctx *c, int run)
{
	struct run_result *r = c->r;
	int slot = run - 1, ret = -1, k, i;
	double secs = 0;

	c->run = run;
	c->capture.have_time = false;
	c->capture.tail_len = 0;
	c->acct.n_pids = 0;
	c->acct.n_bare = 0;
	c->acct.n_checked = 0;
	c->acct.exec_pending = 0;
	c->acct.spawns_seen = 0;
	c->acct.scan_until = 0;
	c->acct.next_scan = 0;
	c->acct.bare_name[0] = '\0';
	c->capture.fd[0] = c->capture.fd[1] = -1;
	for (k = 0; k < 2; k++)
		c->capture.lb[k].len = 0;
	free_threads(r);
	if (c->stress.tmpl_rates)
		for (i = 0; i < c->stress.n; i++)
			c->stress.tmpl_rates[i] = c->stress.tmpl_alone[i] =
				c->stress.tmpl_after[i] = NAN;
	c->acct.aff_unknown = 0;
	c->capture.hide = c->pin.discover && run == 0 && !c->o->warmup;
	set_pin_env(c);

	if (c->local && c->stress.n) {
		if (start_stressors(c) < 0 ||
		    wait_stressors(c, MSG_READY, READY_SECONDS) < 0 ||
		    (c->o->stress_alone > 0 && stressors_alone(c) < 0)) {
			stop_stressors(c, false, -1);
			r->failed_run = run;
			goto out;
		}
	}
	if (c->co.argv && start_corun(c) < 0) {
		stop_stressors(c, false, -1);
		r->failed_run = run;
		goto out;
	}
	c->co.failed = false;
	if (start_command(c) < 0) {
		stop_corun(c);
		stop_stressors(c, false, -1);
		r->failed_run = run;
		goto out;
	}
	wait_command(c);
	if (c->co.pid > 0 && stop_corun(c) < 0)
		c->co.failed = true;
	sweep(c);
	read_numa_file(c);
	if (c->local && c->stress.procs && c->o->stress_alone > 0 &&
	    !r->interrupted) {
		/* their rate alone again: a host that drifted shows */
		signal_stressors(c, SIGUSR2);
		(void)stressors_alone(c);	/* a signal: r->interrupted */
	}
	if (stop_stressors(c, !r->interrupted, slot) < 0 &&
	    !r->interrupted) {
		r->failed_run = run;
		goto out;
	}
	if (c->local) {
		judge_threads(c);
		map_finish(c);
	}
	set_tail(c);
	if (c->co.failed) {
		r->failed_run = run;
		goto out;
	}
	if (judge_status(c, &secs) < 0) {
		r->failed_run = run;
		goto out;
	}
	if (c->pin.discover) {
		/* the run that tells workers from helpers */
		c->pin.discover = false;
		free(r->helpers);
		r->helpers = r->threads_created < 0 ? NULL :
			     run_helper_roles(r->threads, r->n_threads);
		if (run == 0 && !c->o->warmup) {
			ret = 0;	/* made for that alone */
			goto out;
		}
	}
	if (c->pin.pinned_helpers && r->role_changes && !c->pin.relearned &&
	    r->threads_created >= 0) {
		/* pinned by roles this run did not have: learn them
		   again from it and make the run again, once */
		c->pin.relearned = true;
		free(r->helpers);
		r->helpers = run_helper_roles(r->threads, r->n_threads);
		/* with --show-output, why the run's output comes again */
		if (c->o->output_fd >= 0 && !c->capture.hide)
			(void)write_all(c->o->output_fd, RUN_AGAIN_LINE "\n",
					strlen(RUN_AGAIN_LINE "\n"));
		ret = 1;
		goto out;
	}
	if (c->stress.tmpl_rates && slot >= 0)
		for (i = 0; i < c->stress.n; i++) {
			r->stress[i].rates[slot] = c->stress.tmpl_rates[i];
			r->stress[i].alone[slot] = c->stress.tmpl_alone[i];
			r->stress[i].after[slot] = c->stress.tmpl_after[i];
		}
	if (run == 0)
		r->warmup_time = secs;
	else
		r->times[r->n_times++] = secs;
	if (c->o->on_run)
		c->o->on_run(r, run, secs, c->o->data);
	ret = 0;
out:
	return ret;
}

/* ------------------------------------------------------------------ */
/* setting up                                                          */

/* every listed PU must be one this process may run on (its cgroup
   cpuset and affinity), or the error names the PUs it may */
int check_pus(const int *v, int n, const char *what,
	      struct pandia_error *err)
{
	return cgroup_check_pus(v, n, what, err);
}

bool run_one_pu(const int *cpus, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (cpus[i] != cpus[0])
			return false;
	return true;
}

/* what run_execute() is asked, checked before anything starts */
/* Linux's limit on one argument's length (MAX_ARG_STRLEN: 32 pages) */
#define ARG_STRLEN_MAX 131072

/*
 * Whether a runner template's command line can be built and executed:
 * its quotes close (else its placeholders' quoting cannot be told), and
 * the line, one argument of sh -c with the whole command in it, is not
 * longer than the kernel takes; said up front.
 */
static int check_line(const struct run_opts *o, char *const *argv,
		      bool local, struct pandia_error *err)
{
	struct shell_vars v = { .cpus = "0", .threads = 1,
				.stress_cpus = "none", .stress_kind = "none",
				.size = "0", .numa_maps = "/tmp/x" };
	const char *why = NULL;
	char *joined, *line;
	size_t n;
	int ret = 0;

	/* a local command's words came to pandia as its own: they fit */
	if (local)
		return 0;
	joined = shell_join(argv);
	v.cmd = joined;
	line = shell_subst_template(o->runner, &v, &why);
	n = line ? strlen(line) + (strstr(o->runner, "{cmd}") ? 0 :
				   strlen(joined) + 1) : 0;
	if (!line)
		ret = perr_set(err, "--runner template '%s': %s: pandia "
			       "cannot tell how its placeholders are "
			       "quoted", o->runner, why);
	else if (n >= ARG_STRLEN_MAX)
		ret = perr_set(err, "the runner's command line is %zu bytes "
			       "with the command in it: Linux takes at most %d "
			       "in one argument (sh -c LINE)", n,
			       ARG_STRLEN_MAX - 1);
	free(line);
	free(joined);
	return ret;
}

static int check_request(const struct run_opts *o, char *const *argv,
			 bool local, struct pandia_error *err)
{
	if (check_line(o, argv, local, err) < 0)
		return -1;
	if (o->n_cpus < 1 || !o->cpus)
		return perr_set(err, "no PU list given");
	if (o->repetitions < (o->warmup ? 0 : 1))
		return perr_set(err, "the number of repetitions must be at "
				"least 1");
	if (local && (!argv || !argv[0]))
		return perr_set(err, "no command given");
	if (o->corun_argv && (!local || !o->corun_argv[0] ||
			      o->n_corun_cpus < 1 || !o->corun_cpus))
		return perr_set(err, "a co-running command needs a command, "
				"its PUs and no runner template");
	return 0;
}

/*
 * Pinning thread by thread: whether the command is static, the shim
 * into *SHIM (new string) and its files.  0 or -1 with err.
 */
static int set_up_pinning(struct ctx *c, const char *cmd, char **shim)
{
	const struct run_opts *o = c->o;

	c->pin.static_exe = elf_is_static(cmd);
	c->r->static_exe = c->pin.static_exe;
	*shim = o->shim_path ? realpath(o->shim_path, NULL) :
		run_find_shim(NULL);
	c->pin.shim = *shim;
	if (!*shim)
		return perr_set(c->err, "cannot find libpandia-pin.so%s%s; "
				"set %s to its path or use --pin set",
				o->shim_path ? " at " : "",
				o->shim_path ? o->shim_path : "",
				RUN_PIN_LIB_ENV);
	return make_report_file(c);
}

/*
 * The runs, the warm-up (or the run that finds the workers) first,
 * with pandia's signals watched, and their statistics.  0 or -1 with
 * err.
 */
static int run_all(struct ctx *c)
{
	const struct run_opts *o = c->o;
	struct run_result *r = c->r;
	int run, i;

	if (o->pin == RUN_PIN_WORKERS && o->helpers && o->n_skip < 0)
		r->helpers = xstrdup(o->helpers);
	/* the first run finds the workers, every thread on the set;
	   not on one PU, where every thread runs whatever its role */
	c->pin.discover = c->pin.env_skip >= 0 &&
			  o->pin == RUN_PIN_WORKERS && o->n_skip < 0 &&
			  !o->helpers && !c->pin.static_exe &&
			  !run_one_pu(o->cpus, o->n_cpus);
	if (setup_signals(c) < 0)
		return -1;
	/* a signal caught since the last run: this one does not start */
	if (r->interrupted) {
		restore_signals(c);
		return perr_set(c->err, "interrupted by %s",
				strsignal(r->interrupted));
	}
	for (run = o->warmup || c->pin.discover ? 0 : 1;
	     run <= o->repetitions; run++) {
		int again = one_run(c, run);

		if (again < 0)
			break;
		run -= again;
	}
	restore_signals(c);
	if (run <= o->repetitions)
		return -1;
	if (r->interrupted)
		return perr_set(c->err, "interrupted by %s",
				strsignal(r->interrupted));
	run_stats(r->times, r->n_times, r);
	for (i = 0; i < r->n_stress; i++) {
		struct run_stress_result *sr = &r->stress[i];

		sr->median = median_known(sr->rates, r->n_times);
		sr->alone_median = median_known(sr->alone, r->n_times);
		sr->after_median = median_known(sr->after, r->n_times);
	}
	return 0;
}

int run_execute(const struct run_opts *o, char *const *argv,
		struct run_result *r, struct pandia_error *err)
{
	struct ctx c = { .o = o, .r = r, .err = err, .sig.sfd = -1,
			 .capture.fd = { -1, -1 }, .co.pipe = -1,
			 .ns.fd = -1 };
	char *cpus = NULL, *shim = NULL;
	int ret = -1, k;

	perr_clear(err);
	c.local = !o->runner;
	if (check_request(o, argv, c.local, err) < 0)
		return -1;
	cpus = cpulist_format(o->cpus, o->n_cpus);
	if (c.local && o->pin != RUN_PIN_NONE &&
	    check_pus(o->cpus, o->n_cpus, "the placement", err) < 0)
		goto out_free;
	if (plan_stressors(&c) < 0)
		goto out_stress;
	if (c.local && (o->pin == RUN_PIN_WORKERS ||
			o->pin == RUN_PIN_THREADS) &&
	    set_up_pinning(&c, argv[0], &shim) < 0)
		goto out_shim;
	if (o->time_from) {
		c.capture.rx = run_regex_new(o->time_from, err);
		if (!c.capture.rx)
			goto out_report;
	}
	if (!c.local && o->numa_maps && make_temp(&c, &c.acct.numa_path) < 0)
		goto out_report;
	build_argv(&c, argv, cpus);
	build_env(&c, cpus, shim);
	if (o->corun_argv) {
		if (o->pin != RUN_PIN_NONE &&
		    check_pus(o->corun_cpus, o->n_corun_cpus,
			      "the co-running command", err) < 0)
			goto out_argv;
		if (build_corun(&c, shim) < 0)
			goto out_argv;
	}
	if (!c.local && c.stress.n) {
		c.stress.tmpl_rates = xcalloc((size_t)c.stress.n,
					      sizeof(double));
		c.stress.tmpl_alone = xcalloc((size_t)c.stress.n,
					      sizeof(double));
		c.stress.tmpl_after = xcalloc((size_t)c.stress.n,
					      sizeof(double));
	}
	for (k = 0; k < 2; k++)
		c.capture.lb[k].buf = xmalloc(LINE_MAX_BYTES + 1);
	r->times = xcalloc((size_t)o->repetitions, sizeof(double));
	if (run_all(&c) < 0)
		goto out_argv;
	ret = 0;
out_argv:
	free(c.sig.before);
	free(c.acct.pids);
	free(c.acct.bare);
	free(c.acct.checked);
	free(c.stress.tmpl_rates);
	free(c.stress.tmpl_alone);
	free(c.stress.tmpl_after);
	for (k = 0; k < 2; k++)
		free(c.capture.lb[k].buf);
	free_strv(c.argv);
	free_strv(c.envp);
	free_strv(c.co.argv);
	free_strv(c.co.envp);
	free(c.co.command);
	if (c.co.shared_path)
		unlink(c.co.shared_path);
	free(c.co.shared_path);
	run_regex_free(c.capture.rx);
out_report:
	if (c.pin.report_path)
		unlink(c.pin.report_path);
	if (c.pin.shared_path)
		unlink(c.pin.shared_path);
	free(c.pin.report_path);
	free(c.pin.shared_path);
	if (c.acct.numa_path)
		unlink(c.acct.numa_path);
	free(c.acct.numa_path);
out_shim:
	free(shim);
out_stress:
	free(c.stress.pus);
out_free:
	free(cpus);
	return ret;
}
