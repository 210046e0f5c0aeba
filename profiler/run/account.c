/*
 * account.c - the per-thread accounting of a run: the pinning
 * library's report, /proc sampled while the command runs (threads'
 * CPU time, run-queue wait, affinity; pages' NUMA placement), each
 * thread's time completed after it, and the roles: workers told from
 * helpers (run_classify), helpers named by role (run_helper_roles).
 */
#include "profiler/run/internal.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/cpulist.h"
#include "common/strbuf.h"
#include "common/util.h"

static bool within(const char *text, const int *v, int n, bool exact);

const char *const run_block_names[RUN_BLOCK_KINDS] = {
	"mutex", "condition", "barrier", "join", "semaphore", "other",
};

static void thread_init(struct run_thread *t, int pid, int tid)
{
	int k;

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->index = -1;
	t->local = -1;
	t->cpu = -1;
	t->start = t->end = t->cpu_time = t->runqueue_wait = NAN;
	for (k = 0; k < RUN_BLOCK_KINDS; k++)
		t->blocked[k] = 0;
	t->first_seen = t->last_seen = NAN;
}

static struct run_thread *thread_of(struct run_result *r, int pid, int tid)
{
	int i;

	for (i = r->n_threads - 1; i >= 0; i--)
		if (r->threads[i].tid == tid)
			return &r->threads[i];
	r->threads = xrealloc(r->threads,
			      sizeof(*r->threads) * (size_t)(r->n_threads + 1));
	thread_init(&r->threads[r->n_threads], pid, tid);
	return &r->threads[r->n_threads++];
}

void add_pid(struct ctx *c, int pid)
{
	int i;

	for (i = 0; i < c->acct.n_pids; i++)
		if (c->acct.pids[i] == pid)
			return;
	c->acct.pids = xrealloc(c->acct.pids, sizeof(*c->acct.pids) *
				(size_t)(c->acct.n_pids + 1));
	c->acct.pids[c->acct.n_pids++] = pid;
}

static void set_str(char **dst, const char *v)
{
	if (*dst && !strcmp(*dst, v))
		return;
	free(*dst);
	*dst = xstrdup(v);
}

/* the report's waits are run's kinds before "other", in their order */
_Static_assert((int)PIN_BLOCK_KINDS == (int)RUN_BLOCK_OTHER &&
	       PIN_BLOCK_KINDS == 5,
	       "an \"end\" line's waits are read as five run_block kinds");

/* an "affinity" line of the report, applied once every thread is known */
struct aff_line {
	int tid;
	char *list;
};

/*
 * Read the shim's report (profiler/shim/protocol.h says its lines): the
 * threads, their places and their accounting, and the processes that
 * loaded it.  With FINAL, also the counts and the affinities the
 * program set.
 */
static void read_report(struct ctx *c, bool final)
{
	struct run_result *r = c->r;
	struct aff_line *aff = NULL;
	struct execs ex = { NULL, NULL, 0 };
	int procs = 0, created = 0, n_aff = 0, n_spawned = 0, i;
	pid_t *procs_seen = NULL;
	char *line = xmalloc(PIN_LINE_MAX);
	FILE *f;

	if (!c->pin.report_path)
		goto out;
	f = fopen(c->pin.report_path, "re");
	if (!f)
		goto out;
	for (i = 0; i < r->n_threads; i++)
		r->threads[i].starts_now = 0;
	while (fgets(line, PIN_LINE_MAX, f)) {
		char allowed[4096], routine[256], flags[16];
		long long tns, cpu_ns, runq_ns, b[PIN_BLOCK_KINDS];
		int pid, tid, index, local, cpu, pos = 0;
		struct run_thread *t;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "start %d %d %d %d %d %lld %15s %4095s "
			   "%255s %n", &pid, &tid, &index, &local, &cpu,
			   &tns, flags, allowed, routine, &pos) == 9 && pos) {
			add_pid(c, pid);
			t = thread_of(r, pid, tid);
			t->index = index;
			t->local = local;
			t->cpu = cpu;
			if (isnan(t->start))
				t->start = (double)tns * 1e-9 - c->t0;
			t->wrapped = strstr(flags, PIN_FLAG_WRAPPED) != NULL;
			/* a start line not read before (the process exec'd,
			   and pinned itself anew) makes the samples from
			   before it stale */
			if (++t->starts_now > t->starts) {
				t->starts = t->starts_now;
				t->seen = false;
			}
			if (!t->seen)
				set_str(&t->allowed, allowed);
			set_str(&t->routine, routine);
			set_str(&t->program, line + pos);
			if (strstr(flags, PIN_FLAG_MAIN)) {
				exec_seen(&ex, pid, NULL);
				if (!in_list(procs_seen, procs, pid)) {
					procs_seen = xrealloc(procs_seen,
						sizeof(pid_t) *
						(size_t)(procs + 1));
					procs_seen[procs++] = pid;
				}
			} else {
				created++;
			}
		} else if (sscanf(line, "end %d %d %lld %lld %lld %lld %lld "
				  "%lld %lld %lld", &pid, &tid, &tns, &cpu_ns,
				  &runq_ns, &b[0], &b[1], &b[2], &b[3],
				  &b[4]) == 10) {
			t = thread_of(r, pid, tid);
			t->ended = true;
			t->end = (double)tns * 1e-9 - c->t0;
			t->cpu_time = cpu_ns < 0 ? NAN : (double)cpu_ns * 1e-9;
			t->runqueue_wait = runq_ns < 0 ? NAN :
					   (double)runq_ns * 1e-9;
			for (i = 0; i < PIN_BLOCK_KINDS; i++)
				t->blocked[i] = (double)b[i] * 1e-9;
		} else if (sscanf(line, "exec %d %255s", &pid,
				  routine) == 2) {
			exec_seen(&ex, pid, routine);
		} else if (sscanf(line, "spawned %d", &pid) == 1) {
			n_spawned++;
		} else if (final && sscanf(line, "affinity %d %d %4095s",
					   &pid, &tid, allowed) == 3) {
			aff = xrealloc(aff, sizeof(*aff) * (size_t)(n_aff + 1));
			aff[n_aff].tid = tid;
			aff[n_aff++].list = xstrdup(allowed);
		}
	}
	fclose(f);
	for (i = 0; i < n_aff; i++) {
		struct run_thread *t = NULL;
		int j;

		for (j = 0; j < r->n_threads; j++)
			if (r->threads[j].tid == aff[i].tid)
				t = &r->threads[j];
		if (!t) {	/* a thread the library does not know */
			c->acct.aff_unknown++;
			continue;
		}
		if (t->cpu >= 0 ? !within(aff[i].list, &t->cpu, 1, true) :
		    !within(aff[i].list, c->o->cpus, c->o->n_cpus, false))
			t->overridden = true;
	}
	c->acct.exec_pending = ex.n;
	/* a spawn since the last reading: look for the child a while */
	if (n_spawned > c->acct.spawns_seen)
		c->acct.scan_until = now_seconds() + SCAN_AFTER_SPAWN;
	c->acct.spawns_seen = n_spawned;
	if (final) {
		r->processes = procs;
		r->threads_created = procs ? created : -1;
		execs_apply(c, &ex);
	}
out:
	free(ex.pid);
	free(ex.name);
	for (i = 0; i < n_aff; i++)
		free(aff[i].list);
	free(aff);
	free(procs_seen);
	free(line);
}

/* "123 45 6": CPU time and run-queue wait of a task, ns */
static bool read_schedstat(const char *path, double *cpu, double *runq)
{
	unsigned long long a, b;
	bool ok = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	if (fscanf(f, "%llu %llu", &a, &b) == 2) {
		*cpu = (double)a * 1e-9;
		*runq = (double)b * 1e-9;
		ok = true;
	}
	fclose(f);
	return ok;
}

/*
 * Where the pages of the processes we know are: /proc/PID/numa_maps of
 * each, after a line "# pid N", kept in r->numa_maps when any could be
 * read (a process that has just exited leaves the last reading).
 */
static void sample_numa_maps(struct ctx *c)
{
	struct strbuf sb = STRBUF_INIT;
	struct pandia_error e;
	int i;

	for (i = 0; i < c->acct.n_pids; i++) {
		char path[64], *text;

		snprintf(path, sizeof(path), "/proc/%d/numa_maps",
			 c->acct.pids[i]);
		text = read_file(path, NULL, &e);
		if (!text)
			continue;
		if (*text)
			strbuf_printf(&sb, "# pid %d\n%s", c->acct.pids[i],
				      text);
		free(text);
	}
	if (sb.len) {
		free(c->r->numa_maps);
		c->r->numa_maps = sb.s;
	} else {
		free(sb.s);
	}
}

/* The file a template wrote to {numa_maps}, emptied for the next run. */
void read_numa_file(struct ctx *c)
{
	struct pandia_error e;
	char *text;
	int fd;

	if (!c->acct.numa_path)
		return;
	text = read_file(c->acct.numa_path, NULL, &e);
	if (text && *text) {
		free(c->r->numa_maps);
		c->r->numa_maps = text;
		text = NULL;
	}
	free(text);
	fd = open(c->acct.numa_path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
}

void each_task(struct ctx *c, void (*fn)(struct ctx *c, const char *dir,
					 int pid, int tid, void *data),
	       void *data)
{
	int i;

	for (i = 0; i < c->acct.n_pids; i++) {
		char dir[64];
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "/proc/%d/task", c->acct.pids[i]);
		d = opendir(dir);
		if (!d)
			continue;
		while ((e = readdir(d)))
			if (isdigit((unsigned char)e->d_name[0]))
				fn(c, dir, c->acct.pids[i], atoi(e->d_name),
				   data);
		closedir(d);
	}
}

/* one thread's CPU time, run-queue wait and Cpus_allowed_list */
static void sample_task(struct ctx *c, const char *dir, int pid, int tid,
			void *data)
{
	double *now = data, cpu, runq;
	char spath[320], line[4096];
	struct run_thread *t = thread_of(c->r, pid, tid);
	FILE *f;

	snprintf(spath, sizeof(spath), "%s/%d/schedstat", dir, tid);
	if (!t->ended && read_schedstat(spath, &cpu, &runq)) {
		t->cpu_time = cpu;
		t->runqueue_wait = runq;
	}
	if (isnan(t->first_seen))
		t->first_seen = *now;
	t->last_seen = *now;
	snprintf(spath, sizeof(spath), "%s/%d/status", dir, tid);
	f = fopen(spath, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, "Cpus_allowed_list:", 18))
			continue;
		v = line + 18;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		set_str(&t->allowed, v);
		t->seen = true;
		break;
	}
	fclose(f);
}

/*
 * Every thread of the processes we know: its Cpus_allowed_list and,
 * until the library reports its end, its CPU time and run-queue wait.
 */
void sample_threads(struct ctx *c)
{
	double now = now_seconds() - c->t0;

	read_report(c, false);
	add_descendants(c, now + c->t0);
	if (c->o->numa_maps)
		sample_numa_maps(c);
	each_task(c, sample_task, &now);
	check_reported(c);
}

static int cmp_thread(const void *a, const void *b)
{
	const struct run_thread *x = a, *y = b;
	unsigned xi = (unsigned)x->index, yi = (unsigned)y->index;

	if (xi != yi)
		return (xi > yi) - (xi < yi);	/* -1 last */
	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * Whether the cpulist TEXT holds only PUs of v[0..n-1] and, when
 * EXACT, all of them.
 */
static bool within(const char *text, const int *v, int n, bool exact)
{
	int *a = NULL, na = 0, i, j;
	bool same = true;

	if (!text || cpulist_parse(text, &a, &na, NULL) < 0)
		return false;
	same = na > 0;
	for (i = 0; i < na && same; i++) {
		same = false;
		for (j = 0; j < n; j++)
			same |= a[i] == v[j];
	}
	for (j = 0; j < n && same && exact; j++) {
		same = false;
		for (i = 0; i < na; i++)
			same |= a[i] == v[j];
	}
	free(a);
	return same;
}

/* interval of thread t, unknown ends open */
static double t_start(const struct run_thread *t)
{
	return isfinite(t->start) ? t->start : -INFINITY;
}

static double t_end(const struct run_thread *t)
{
	return isfinite(t->end) ? t->end : INFINITY;
}

/* most of the threads t[v[0..n-1]] alive at once */
static int most_at_once(const struct run_thread *t, const int *v, int n)
{
	int most = 0, i, j;

	for (i = 0; i < n; i++) {
		double x = t_start(&t[v[i]]);
		int k = 0;

		for (j = 0; j < n; j++)
			k += t_start(&t[v[j]]) <= x && x < t_end(&t[v[j]]);
		if (k > most)
			most = k;
	}
	return most;
}

/*
 * What a thread asked of the CPUs: its CPU time and its run-queue wait
 * (runnable, waiting for a CPU) where known.  A worker that other
 * tenants kept off its PU has little CPU time but asked for as much as
 * the others; a helper that sleeps asks for little.
 */
static double demand(const struct run_thread *t)
{
	return t->cpu_time +
	       (isfinite(t->runqueue_wait) ? t->runqueue_wait : 0);
}

static const struct run_thread *cmp_base;

static int cmp_busier(const void *a, const void *b)
{
	const struct run_thread *x = &cmp_base[*(const int *)a];
	const struct run_thread *y = &cmp_base[*(const int *)b];

	if (demand(x) != demand(y))
		return demand(x) < demand(y) ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

/*
 * The start routine of the team: the routine, "main" aside, with at
 * least N_PUS busy threads (a quarter of MOST or more), the most CPU
 * time among such; NULL when none has.
 */
static const char *team_routine(const struct run_thread *t,
				const int *order, int k, int n_pus,
				double most)
{
	const char *best = NULL;
	double best_time = 0;
	int i, j;

	for (i = 0; i < k; i++) {
		const char *r = t[order[i]].routine;
		double sum = 0;
		int busy = 0;

		if (!r || !strcmp(r, "main"))
			continue;
		for (j = 0; j < k; j++) {
			const struct run_thread *y = &t[order[j]];

			if (y->routine && !strcmp(y->routine, r) &&
			    demand(y) >= RUN_WORKER_SHARE * most) {
				busy++;
				sum += demand(y);
			}
		}
		if (busy >= n_pus && sum > best_time) {
			best = r;
			best_time = sum;
		}
	}
	return best;
}

/* the team's threads first in ORDER[0..k-1], each part as it was */
static void team_first(const struct run_thread *t, int *order, int k,
		       const char *team)
{
	int *v = xcalloc((size_t)k + 1, sizeof(int));
	int i, m = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < k; i++) {
			const char *r = t[order[i]].routine;
			bool in = r && !strcmp(r, team);

			if (in == (pass == 0))
				v[m++] = order[i];
		}
	memcpy(order, v, sizeof(int) * (size_t)k);
	free(v);
}

int run_classify(struct run_thread *t, int n, int n_pus, double wall)
{
	const char *team;
	int *order = xcalloc((size_t)n + 1, sizeof(int));
	int *chosen = xcalloc((size_t)n + 1, sizeof(int));
	double most = 0, sum = 0;
	int i, k = 0, m = 0;
	bool busy = false;

	for (i = 0; i < n; i++) {
		double life = isfinite(t[i].start) && isfinite(t[i].end) ?
			      t[i].end - t[i].start : wall, d;

		t[i].worker = false;
		if (!isfinite(t[i].cpu_time))
			continue;
		order[k++] = i;
		d = demand(&t[i]);
		if (d > most)
			most = d;
		/* busy: on a CPU or waiting for one for a tenth of its
		   life, a millisecond */
		busy |= d >= RUN_BUSY_SHARE * life && d >= RUN_BUSY_MIN;
	}
	if (!busy) {
		/* nothing to tell them apart by */
		for (i = 0; i < n; i++)
			t[i].worker = true;
		m = n;
		goto out;
	}
	cmp_base = t;
	qsort(order, (size_t)k, sizeof(int), cmp_busier);
	team = team_routine(t, order, k, n_pus, most);
	if (team)
		team_first(t, order, k, team);
	for (i = 0; i < k; i++) {
		struct run_thread *x = &t[order[i]];
		bool fits, same = false;
		int j;

		if (demand(x) < RUN_WORKER_SHARE * most)
			continue;
		chosen[m] = order[i];
		/* the concurrency check is quadratic: not for thousands */
		fits = m + 1 <= n_pus || n > 2000 ||
		       most_at_once(t, chosen, m + 1) <= n_pus;
		for (j = 0; j < m && !fits && !same; j++)
			same = x->routine && t[chosen[j]].routine &&
			       !strcmp(x->routine, t[chosen[j]].routine);
		if (!fits && !(same && demand(x) >= 0.5 * sum / m))
			continue;
		x->worker = true;
		sum += demand(x);
		m++;
	}
out:
	free(order);
	free(chosen);
	return m;
}

/* "PROGRAM/LOCAL" of t (new string), NULL when it has no role key */
static char *role_key(const struct run_thread *t)
{
	if (t->index < 0 || t->local < 0 || !t->program)
		return NULL;
	return xasprintf("%s/%d", t->program, t->local);
}

char *run_helper_roles(const struct run_thread *t, int n)
{
	char *out = xstrdup("\n"), *key, *line, *res;
	int i, j;

	for (i = 0; i < n; i++) {
		bool worker = false;

		if (t[i].worker || !(key = role_key(&t[i])))
			continue;
		for (j = 0; j < n && !worker; j++) {
			char *k2 = t[j].worker ? role_key(&t[j]) : NULL;

			worker = k2 && !strcmp(k2, key);
			free(k2);
		}
		line = xasprintf("\n%s\n", key);
		if (!worker && !strstr(out, line)) {
			char *t2 = xasprintf("%s%s\n", out, key);

			free(out);
			out = t2;
		}
		free(line);
		free(key);
	}
	res = xstrdup(out + 1);
	free(out);
	return res;
}

/* whether the role key of t is one of the helpers (a "\n"-list) */
static bool is_helper(const char *helpers, const struct run_thread *t)
{
	char *key = role_key(t), *nl;
	bool found = false;

	if (!key || !helpers)
		goto out;
	nl = xasprintf("\n%s\n", key);
	found = strstr(helpers, nl + 1) == helpers || strstr(helpers, nl);
	free(nl);
out:
	free(key);
	return found;
}

/*
 * The accounting of thread t complete: times for a thread whose end
 * the library did not see (killed, or not loaded) from /proc's last
 * sample, and the off-CPU time not in a known wait as "other".  The
 * waits are timed from the call to its return, so they hold the
 * run-queue wait after the wake-up, which schedstat counts as
 * runqueue_wait too: when their sum is more than the thread's time
 * off the CPU and out of the run queue, they are scaled down to it.
 */
static void finish_thread(struct ctx *c, struct run_thread *t)
{
	double wall, known = 0, avail;
	int k;

	if (t->tid == c->cmd_pid)	/* there since the fork */
		t->start = 0;
	if (!isfinite(t->start))
		t->start = isfinite(t->first_seen) ? t->first_seen : 0;
	if (!t->ended)
		t->end = isfinite(t->last_seen) ? t->last_seen :
			 c->t1 - c->t0;
	if (t->end < t->start)
		t->end = t->start;
	wall = t->end - t->start;
	for (k = 0; k < RUN_BLOCK_OTHER; k++)
		known += t->blocked[k];
	if (!isfinite(t->cpu_time) || !isfinite(t->runqueue_wait)) {
		t->blocked[RUN_BLOCK_OTHER] = NAN;
		return;
	}
	avail = wall - t->cpu_time - t->runqueue_wait;
	if (avail < 0)
		avail = 0;
	if (known > avail) {
		for (k = 0; k < RUN_BLOCK_OTHER; k++)
			t->blocked[k] *= avail / known;
		t->blocked[RUN_BLOCK_OTHER] = 0;
		t->overlap = known - avail;
	} else {
		t->blocked[RUN_BLOCK_OTHER] = avail - known;
	}
}

/* after a run: complete the accounting, order, classify, count */
void judge_threads(struct ctx *c)
{
	const struct run_opts *o = c->o;
	struct run_result *r = c->r;
	int *w, n_w = 0, i;
	bool roles;

	read_report(c, true);
	for (i = 0; i < r->n_threads; i++)
		finish_thread(c, &r->threads[i]);
	if (r->n_threads > 1)
		qsort(r->threads, (size_t)r->n_threads, sizeof(*r->threads),
		      cmp_thread);
	r->workers = run_classify(r->threads, r->n_threads, o->n_cpus,
				  c->t1 - c->t0);
	/* on one PU every thread runs there whatever its role, and
	   time sharing tells no role from another: no role changes */
	roles = c->pin.pinned_helpers && !run_one_pu(o->cpus, o->n_cpus);
	w = xcalloc((size_t)r->n_threads + 1, sizeof(int));
	r->misplaced = r->wrapped = r->role_changes = 0;
	r->overridden = c->acct.aff_unknown;
	r->unpinned = c->acct.n_bare;
	r->unpinned_narrow = 0;
	memcpy(r->unpinned_name, c->acct.bare_name,
	       sizeof(r->unpinned_name));
	for (i = 0; i < r->n_threads; i++) {
		const struct run_thread *t = &r->threads[i];
		bool ok;

		if (t->worker)
			w[n_w++] = i;
		r->wrapped += t->wrapped;
		r->overridden += t->overridden;
		if (roles && t->index >= 0 &&
		    t->worker == is_helper(r->helpers, t))
			r->role_changes++;
		if (o->pin == RUN_PIN_NONE || t->overridden)
			continue;
		/* a program without the library: did it get the set? */
		if (in_list(c->acct.bare, c->acct.n_bare, t->pid) && t->seen &&
		    !within(t->allowed, o->cpus, o->n_cpus, true))
			r->unpinned_narrow++;
		if (t->cpu >= 0)
			ok = within(t->allowed, &t->cpu, 1, true);
		else	/* floating: anywhere in the set */
			ok = within(t->allowed, o->cpus, o->n_cpus, false);
		r->misplaced += !ok;
	}
	r->most_workers = r->n_threads > 2000 ? n_w :
			  most_at_once(r->threads, w, n_w);
	free(w);
}
