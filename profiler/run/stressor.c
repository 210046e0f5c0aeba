/*
 * stressor.c - the co-run stressors: their specs (run.h), their plan
 * (one per PU, sizes chosen), and the processes that run them, pinned,
 * reporting their work over a pipe around the command's window.
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
#include <strings.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cpulist.h"
#include "common/topology.h"
#include "common/util.h"

int run_stressor_parse(const char *text, struct run_stressor *s,
		       struct pandia_error *err)
{
	const char *at = strrchr(text, '@');
	char *kind = NULL, *p;
	int ret = -1, l;

	memset(s, 0, sizeof(*s));
	s->level = -1;
	if (!at || at == text)
		return perr_set(err, "bad stressor '%s': expected KIND@LIST, "
				"as in cpu@1 or bw:L2@0,1", text);
	kind = xasprintf("%.*s", (int)(at - text), text);
	if (!strcmp(kind, "cpu")) {
		s->kind = STRESS_CPU;
	} else if (!strncmp(kind, "bw:", 3)) {
		s->kind = STRESS_LOAD;
		p = strchr(kind + 3, ':');
		if (p) {
			if (strcmp(p, ":rw")) {
				perr_set(err, "bad stressor '%s': '%s' is not "
					 "':rw'", text, p);
				goto out_free_kind;
			}
			*p = '\0';
			s->kind = STRESS_LOAD_STORE;
		}
		for (l = LVL_L1; l <= LVL_DRAM; l++)
			if (!strcasecmp(kind + 3, level_name(l)))
				s->level = l;
		if (s->level < 0) {
			perr_set(err, "bad stressor '%s': level '%s' is not "
				 "one of L1, L2, L3, dram", text, kind + 3);
			goto out_free_kind;
		}
	} else {
		perr_set(err, "bad stressor '%s': kind '%s' is not 'cpu' or "
			 "'bw:LEVEL'", text, kind);
		goto out_free_kind;
	}
	if (cpulist_parse(at + 1, &s->pus, &s->n_pus, err) < 0) {
		char why[sizeof(err->text)];

		snprintf(why, sizeof(why), "%s", err->text);
		perr_set(err, "bad stressor '%s': %s", text, why);
		goto out_free_kind;
	}
	s->spec = xstrdup(text);
	ret = 0;
out_free_kind:
	free(kind);
	return ret;
}

void run_stressor_release(struct run_stressor *s)
{
	if (!s)
		return;
	free(s->spec);
	free(s->pus);
	memset(s, 0, sizeof(*s));
}

const char *run_stressor_kind_name(const struct run_stressor *s,
				   char *buf, size_t size)
{
	if (s->kind == STRESS_CPU)
		snprintf(buf, size, "cpu");
	else
		snprintf(buf, size, "bw:%s%s", level_name(s->level),
			 s->kind == STRESS_LOAD_STORE ? ":rw" : "");
	return buf;
}

static volatile sig_atomic_t st_stop, st_marks, st_ends, st_quit;

static void st_on_mark(int sig)
{
	st_marks++;
	st_stop = 1;
}

static void st_on_end(int sig)
{
	st_ends++;
	st_stop = 1;
}

static void st_on_quit(int sig)
{
	st_quit = 1;
	st_stop = 1;
}

static void st_send(int fd, const struct st_msg *m)
{
	while (write(fd, m, sizeof(*m)) < 0 && errno == EINTR)
		;
}

/*
 * The body of a stressor process: pin, allocate, say ready, run until
 * SIGTERM; SIGUSR1 marks the start of the window whose work counts
 * (the command's start), SIGUSR2 its end (the command's end, when they
 * run alone after it too: that work is the after_ one).  Does not
 * return.
 */
static void stressor_main(int fd, enum stress_kind kind, int pu,
			  size_t bytes, pid_t parent)
{
	struct st_msg m = { .type = MSG_READY };
	struct pandia_error err;
	struct stress_buf buf = { 0 };
	struct sigaction sa = { 0 };
	double total = 0, mark_work = 0, end_work = 0, mark_t, end_t = 0,
	       ready_t, t;
	sig_atomic_t seen = 0, ended = 0;
	cpu_set_t set;
	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	sa.sa_handler = st_on_mark;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = st_on_end;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = st_on_quit;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	CPU_ZERO(&set);
	CPU_SET(pu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		m.type = MSG_ERROR;
		snprintf(m.text, sizeof(m.text), "cannot pin to PU %d: %s",
			 pu, strerror(errno));
		goto out_send;
	}
	if (kind != STRESS_CPU &&
	    stress_buf_alloc(&buf, bytes, -1, &err) < 0) {
		m.type = MSG_ERROR;
		snprintf(m.text, sizeof(m.text), "%s", err.text);
		goto out_send;
	}
	st_send(fd, &m);
	mark_t = ready_t = now_seconds();
	for (;;) {
		total += stress_run_until(kind, &buf, &st_stop);
		st_stop = 0;
		if (st_marks != seen) {
			mark_t = now_seconds();
			if (!seen) {	/* alone until the command started */
				m.alone_work = total;
				m.alone_seconds = mark_t - ready_t;
			}
			seen = st_marks;
			mark_work = total;
		}
		if (st_ends != ended && seen) {
			/* the command ended: its window closes here */
			end_t = now_seconds();
			ended = st_ends;
			end_work = total;
			m.work = total - mark_work;
			m.seconds = end_t - mark_t;
		}
		if (st_quit)
			break;
	}
	t = now_seconds();
	m.type = MSG_DONE;
	if (ended) {
		m.after_work = total - end_work;
		m.after_seconds = t - end_t;
	} else {
		m.work = total - mark_work;
		m.seconds = t - mark_t;
	}
out_send:
	st_send(fd, &m);
	_exit(m.type == MSG_DONE ? 0 : 1);
}

int start_stressors(struct ctx *c)
{
	pid_t self = getpid();
	int i, p[2];

	c->stress.pgid = 0;
	c->stress.procs = xcalloc((size_t)c->stress.n,
				  sizeof(*c->stress.procs));
	for (i = 0; i < c->stress.n; i++) {
		struct stressor_proc *s = &c->stress.procs[i];
		const struct run_stress_result *sr = &c->r->stress[i];

		s->fd = -1;
		s->pu = sr->pu;
		s->bytes = sr->working_set;
		s->kind = !strcmp(sr->kind, "cpu") ? STRESS_CPU :
			  strstr(sr->kind, ":rw") ? STRESS_LOAD_STORE :
			  STRESS_LOAD;
		if (pipe2(p, O_CLOEXEC) < 0)
			return perr_errno(c->err, "cannot start stressor "
					  "'%s'", sr->spec);
		fflush(NULL);
		s->pid = fork();
		if (s->pid < 0) {
			close(p[0]);
			close(p[1]);
			return perr_errno(c->err, "cannot start stressor "
					  "'%s'", sr->spec);
		}
		if (!s->pid) {
			close(p[0]);
			setpgid(0, c->stress.pgid);
			child_signals(c);
			stressor_main(p[1], s->kind, s->pu, s->bytes, self);
		}
		close(p[1]);
		s->fd = p[0];
		if (!c->stress.pgid)
			c->stress.pgid = s->pid;
		setpgid(s->pid, c->stress.pgid);
	}
	return 0;
}

/* read what stressor s has to say; false on EOF */
static bool read_stressor(struct stressor_proc *s)
{
	ssize_t n = read(s->fd, (char *)&s->msg + s->got,
			 sizeof(s->msg) - s->got);

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN);
	s->got += (size_t)n;
	if (s->got == sizeof(s->msg)) {
		s->state = s->msg.type;
		s->got = 0;
	}
	return true;
}

/*
 * Wait until every stressor has reached state WANT (or failed), with
 * pandia's signals watched.  Returns 0 or -1 with err.
 */
int wait_stressors(struct ctx *c, int want, double limit)
{
	struct pollfd *pf = xcalloc((size_t)c->stress.n + 1, sizeof(*pf));
	double end = now_seconds() + limit;
	int ret = -1, i;

	for (;;) {
		int n = 0, left = 0, wait_ms;

		pf[n].fd = c->sig.sfd;
		pf[n++].events = POLLIN;
		for (i = 0; i < c->stress.n; i++) {
			struct stressor_proc *s = &c->stress.procs[i];

			if (s->state == MSG_ERROR) {
				perr_set(c->err, "stressor '%s' on PU %d "
					 "failed: %s", c->r->stress[i].spec,
					 s->pu, s->msg.text);
				goto out;
			}
			if (s->state == want || s->fd < 0)
				continue;
			left++;
			pf[n].fd = s->fd;
			pf[n++].events = POLLIN;
		}
		if (!left)
			break;
		if (read_signals(c)) {
			perr_set(c->err, "interrupted by signal %d",
				 c->r->interrupted);
			goto out;
		}
		wait_ms = (int)((end - now_seconds()) * 1000);
		if (wait_ms <= 0) {
			perr_set(c->err, "stressors did not %s within %g s",
				 want == MSG_READY ? "start" : "stop", limit);
			goto out;
		}
		if (poll(pf, (nfds_t)n, wait_ms) < 0 && errno != EINTR) {
			perr_errno(c->err, "poll");
			goto out;
		}
		for (i = 0; i < c->stress.n; i++) {
			struct stressor_proc *s = &c->stress.procs[i];

			if (s->fd < 0 || s->state == want)
				continue;
			if (!read_stressor(s)) {
				close(s->fd);
				s->fd = -1;
				perr_set(c->err, "stressor '%s' on PU %d "
					 "ended unexpectedly",
					 c->r->stress[i].spec, s->pu);
				goto out;
			}
		}
	}
	ret = 0;
out:
	free(pf);
	return ret;
}

/*
 * Let the stressors run alone for o->stress_alone seconds, before the
 * command starts and again after it ended, pandia's signals watched.
 * 0 or -1 with err.
 */
int stressors_alone(struct ctx *c)
{
	struct pollfd pf = { .fd = c->sig.sfd, .events = POLLIN };
	double end = now_seconds() + c->o->stress_alone;
	int ms;

	while ((ms = (int)((end - now_seconds()) * 1000)) > 0) {
		if (poll(&pf, 1, ms) < 0 && errno != EINTR)
			return perr_errno(c->err, "poll");
		if (read_signals(c))
			return perr_set(c->err, "interrupted by signal %d",
					c->r->interrupted);
	}
	return 0;
}

void signal_stressors(struct ctx *c, int sig)
{
	int i;

	for (i = 0; c->stress.procs && i < c->stress.n; i++)
		if (!c->stress.procs[i].reaped && c->stress.procs[i].pid > 0)
			kill(c->stress.procs[i].pid, sig);
}

/*
 * Stop the stressors, record what each did during the command when
 * RECORD, and reap them all.  Returns 0 or -1 with err.
 */
int stop_stressors(struct ctx *c, bool record, int slot)
{
	int ret = 0, i;

	if (!c->stress.procs)
		return 0;
	if (record) {
		signal_stressors(c, SIGTERM);
		ret = wait_stressors(c, MSG_DONE, STOP_SECONDS);
	}
	if (c->stress.pgid > 0)
		kill(-c->stress.pgid, SIGKILL);
	for (i = 0; i < c->stress.n; i++) {
		struct stressor_proc *s = &c->stress.procs[i];
		struct run_stress_result *sr = &c->r->stress[i];

		if (s->pid > 0 && !s->reaped) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, NULL, 0);
			s->reaped = true;
		}
		if (s->fd >= 0)
			close(s->fd);
		if (ret < 0 || !record || slot < 0 || s->state != MSG_DONE)
			continue;
		if (s->msg.seconds > 0)
			sr->rates[slot] = s->msg.work / s->msg.seconds;
		if (c->o->stress_alone > 0 && s->msg.alone_seconds > 0)
			sr->alone[slot] = s->msg.alone_work /
					  s->msg.alone_seconds;
		if (c->o->stress_alone > 0 && s->msg.after_seconds > 0)
			sr->after[slot] = s->msg.after_work /
					  s->msg.after_seconds;
	}
	free(c->stress.procs);
	c->stress.procs = NULL;
	c->stress.pgid = 0;
	return ret;
}

size_t run_stressor_working_set(const struct pandia_machine *m,
				const struct run_stressor *s)
{
	size_t ws, cap;

	if (s->kind == STRESS_CPU)
		return 0;
	ws = stress_working_set(m, s->level, s->n_pus);
	if (s->level != LVL_DRAM)
		return ws;
	/*
	 * The measuring rule (100 x LLC in all) would allocate gigabytes
	 * per run; for a co-runner a linear sweep over 4 x LLC misses just
	 * as surely: 4 x what one core reaches of it (stress_llc_reach():
	 * of a PVM guest's 508 MiB L3 a vCPU, less than the 127 MiB array
	 * its description read at DRAM's rate).
	 */
	cap = (size_t)(4 * stress_llc_reach(m));
	if (cap < DRAM_MIN_BYTES)
		cap = DRAM_MIN_BYTES;
	return ws > cap ? cap : ws;
}

/* flatten the stressors into r->stress, one per PU, sizes chosen */
int plan_stressors(struct ctx *c)
{
	const struct run_opts *o = c->o;
	struct run_result *r = c->r;
	struct pandia_machine *own = NULL;
	const struct pandia_machine *m = o->machine;
	int i, j, n = 0, ret = -1;
	char kind[64];

	for (i = 0; i < o->n_stress; i++)
		n += o->stress[i].n_pus;
	r->stress = xcalloc((size_t)n ? (size_t)n : 1, sizeof(*r->stress));
	c->stress.pus = xcalloc((size_t)n ? (size_t)n : 1, sizeof(int));
	for (i = 0; i < o->n_stress; i++) {
		const struct run_stressor *s = &o->stress[i];
		size_t ws = 0;

		if (c->local && s->kind != STRESS_CPU) {
			if (!m) {
				own = machine_new();
				if (topology_load(own, NULL, c->err) < 0)
					goto out;
				m = own;
			}
			ws = run_stressor_working_set(m, s);
			if (!ws) {
				perr_set(c->err, "stressor '%s': this machine "
					 "has no %s", s->spec,
					 level_name(s->level));
				goto out;
			}
		}
		if (c->local &&
		    check_pus(s->pus, s->n_pus, s->spec, c->err) < 0)
			goto out;
		for (j = 0; j < s->n_pus; j++) {
			struct run_stress_result *sr = &r->stress[r->n_stress];
			int k;

			sr->spec = xstrdup(s->spec);
			sr->kind = xstrdup(run_stressor_kind_name(s, kind,
							sizeof(kind)));
			sr->pu = s->pus[j];
			sr->unit = s->kind == STRESS_CPU ? "ops/s" : "bytes/s";
			sr->working_set = ws;
			sr->rates = xmalloc(sizeof(double) *
					    (size_t)o->repetitions);
			sr->alone = xmalloc(sizeof(double) *
					    (size_t)o->repetitions);
			sr->after = xmalloc(sizeof(double) *
					    (size_t)o->repetitions);
			for (k = 0; k < o->repetitions; k++)
				sr->rates[k] = sr->alone[k] = sr->after[k] =
					NAN;
			sr->median = sr->alone_median = sr->after_median = NAN;
			c->stress.pus[r->n_stress++] = s->pus[j];
		}
	}
	c->stress.n = r->n_stress;
	ret = 0;
out:
	machine_free(own);
	return ret;
}
