/*
 * measure_run.c - running one job: a pinned thread per PU, warmed up,
 * its repetitions started together, each thread timing itself and
 * logging its passes so that the rate counts only the time they all
 * ran together (concurrent_rate(); see measure.c).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "stress/measure_internal.h"

/* Seconds per step of the warm-up. */
#define WARM_SLICE	0.05
/* Nice value asked for by the measuring threads (if allowed). */
#define MEASURE_NICE	(-20)

struct run {
	const struct job *job;
	const struct timing *t;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;			/* 0 wait, 1 go, -1 abort */
	int failed;		/* under lock */
	struct pandia_error err;	/* the first failure */
	pthread_barrier_t bar;
};

/* One pass of a thread of a multi-thread job. */
struct pass_rec {
	double t0, t1;		/* monotonic clock */
	double work;
	bool clean;		/* on its PU the whole pass */
};

struct pass_log {
	int n, cap;
	struct pass_rec *p;
};

struct worker {
	struct run *run;
	int idx;
	double *cpu, *wall, *share;	/* per repetition */
	struct pass_log *log;	/* per repetition, with several threads */
};

void stress_reps_init(struct reps *r, int n)
{
	r->n = n;
	r->cpu = xcalloc(n, sizeof(double));
	r->wall = xcalloc(n, sizeof(double));
	r->share = xcalloc(n, sizeof(double));
}

void stress_reps_release(struct reps *r)
{
	free(r->cpu);
	free(r->wall);
	free(r->share);
	memset(r, 0, sizeof(*r));
}

static double thread_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_fail(struct run *r, const struct pandia_error *err)
{
	pthread_mutex_lock(&r->lock);
	if (!r->failed++)
		r->err = *err;
	pthread_mutex_unlock(&r->lock);
}

/* Pin the calling thread to PU and raise its priority if allowed. */
static int worker_place(int pu, struct pandia_error *err)
{
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(pu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc) {
		errno = rc;
		return perr_errno(err, "cannot pin a thread to PU %d", pu);
	}
	/*
	 * Other processes on our PUs steal time from the repetitions; a
	 * high priority (nice, not real time: the machine stays usable)
	 * helps against those of our own session.  Refused without
	 * CAP_SYS_NICE, which is fine; with autogroup scheduling other
	 * sessions get their fair share whatever we ask.
	 */
	setpriority(PRIO_PROCESS, (id_t)gettid(), MEASURE_NICE);
	return 0;
}

/*
 * Run the kernel untimed for at least TM's warm-up and until its rate
 * (over CPU time) stops rising, at most twice the warm-up: an idle core
 * can take a good part of a second to reach full speed on a virtual
 * machine.  BUSY seconds the thread already kept its PU busy (touching
 * its working set) count towards it (stress_warm_least()): the rising
 * rate, not the clock, says when the core is up to speed.
 */
static void warm_up(enum stress_kind kind, struct stress_buf *b,
		    const struct timing *tm, double busy)
{
	double start = now_seconds(), best = 0, rate, cpu, el, work, t;
	double warm = tm->warm_s, least = stress_warm_least(tm, busy);
	bool rising;

	do {
		cpu = thread_cpu_seconds();
		work = stress_run_for(kind, b, WARM_SLICE, &el);
		cpu = thread_cpu_seconds() - cpu;
		rate = work / (cpu > 0 && cpu <= el ? cpu : el);
		rising = rate > 1.02 * best;
		if (rate > best)
			best = rate;
		t = now_seconds() - start;
	} while (t < least || (rising && t < 2 * warm));
}

/*
 * One timed repetition of a multi-thread job: like stress_run_for(),
 * but every pass is logged with its times and whether the thread kept
 * its PU throughout (CPU time at least CLEAN_SHARE of the pass).
 */
static double run_logged(enum stress_kind kind, struct stress_buf *b,
			 double seconds, struct pass_log *log, double *el)
{
	double work = 0, start, t0, t1, c0, c1, w;
	size_t off = 0;

	start = now_seconds();
	do {
		c0 = thread_cpu_seconds();
		t0 = now_seconds();
		w = stress_pass(kind, b, &off);
		t1 = now_seconds();
		c1 = thread_cpu_seconds();
		if (log->n == log->cap) {
			log->cap = log->cap ? 2 * log->cap : 1024;
			log->p = xrealloc(log->p, log->cap * sizeof(*log->p));
		}
		log->p[log->n].t0 = t0;
		log->p[log->n].t1 = t1;
		log->p[log->n].work = w;
		log->p[log->n].clean = c1 - c0 >= CLEAN_SHARE * (t1 - t0);
		log->n++;
		work += w;
	} while (t1 - start < seconds);
	*el = t1 - start;
	return work;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	const struct job *j = r->job;
	struct stress_buf own = { NULL, 0, -1 }, buf = own;
	struct pandia_error err;
	double work, el, cpu, busy;
	int go, failed, i;

	pthread_mutex_lock(&r->lock);
	while (!r->go)
		pthread_cond_wait(&r->cond, &r->lock);
	go = r->go;
	pthread_mutex_unlock(&r->lock);
	if (go < 0)
		return NULL;

	busy = now_seconds();
	if (worker_place(j->pus[w->idx], &err) < 0)
		run_fail(r, &err);
	else if (stress_kind_is_core(j->kind))
		;
	else if (j->kept)
		stress_keep_buf(j, w->idx, &buf);
	else if (stress_buf_alloc(&own, j->ws, j->nodes ? j->nodes[w->idx] :
				  j->node, &err) < 0)
		run_fail(r, &err);
	else
		buf = own;
	busy = now_seconds() - busy;

	pthread_barrier_wait(&r->bar);
	pthread_mutex_lock(&r->lock);
	failed = r->failed;
	pthread_mutex_unlock(&r->lock);
	if (failed)
		goto out_release;

	warm_up(j->kind, &buf, r->t, busy);
	for (i = 0; i < r->t->reps; i++) {
		pthread_barrier_wait(&r->bar);
		cpu = thread_cpu_seconds();
		if (w->log)
			work = run_logged(j->kind, &buf, r->t->rep_s,
					  &w->log[i], &el);
		else
			work = stress_run_for(j->kind, &buf, r->t->rep_s,
					      &el);
		cpu = thread_cpu_seconds() - cpu;
		/* Clocks of different resolution: never more than wall. */
		if (cpu <= 0 || cpu > el)
			cpu = el;
		w->cpu[i] = work / cpu;
		w->wall[i] = work / el;
		w->share[i] = cpu / el;
	}
out_release:
	stress_buf_release(&own);
	return NULL;
}

/*
 * Whether [t0, t1] lies within the time thread LOG ran undisturbed:
 * inside a run of its clean passes, separated by no more than GAP_S
 * (the bookkeeping between two passes).
 */
#define GAP_S	20e-6

static bool covered(const struct pass_log *log, double t0, double t1)
{
	int lo = 0, hi = log->n - 1, mid, k;

	/* The last pass starting at or before t0. */
	if (!log->n || log->p[0].t0 > t0)
		return false;
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (log->p[mid].t0 <= t0)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (k = lo; k < log->n; k++) {
		if (!log->p[k].clean)
			return false;
		if (log->p[k].t1 >= t1)
			return true;
		if (k + 1 < log->n && log->p[k + 1].t0 - log->p[k].t1 > GAP_S)
			return false;
	}
	return false;
}

/*
 * The aggregate rate of repetition REP over the time all N threads ran
 * together: each thread's clean passes that lie within every other
 * thread's undisturbed time, work over time, summed over threads.
 * *share gets the smallest fraction of a thread's passes' time that
 * counted.
 */
static double concurrent_rate(const struct worker *w, int n, int rep,
			      double *share)
{
	double rate = 0, work, time, all;
	int i, k, q;
	bool ok;

	*share = 1;
	for (i = 0; i < n; i++) {
		const struct pass_log *log = &w[i].log[rep];

		work = time = all = 0;
		for (q = 0; q < log->n; q++) {
			const struct pass_rec *p = &log->p[q];

			all += p->t1 - p->t0;
			ok = p->clean;
			for (k = 0; ok && k < n; k++)
				if (k != i)
					ok = covered(&w[k].log[rep], p->t0,
						     p->t1);
			if (!ok)
				continue;
			work += p->work;
			time += p->t1 - p->t0;
		}
		if (all <= 0 || time <= 0) {
			*share = 0;
			return 0;
		}
		if (time / all < *share)
			*share = time / all;
		rate += work / time;
	}
	return rate;
}

/*
 * Run job J once with timing T: T->reps repetitions go into *out from
 * position OFF on.  For several threads, out->cpu is the rate over
 * the time they all ran together and out->share the fraction of the
 * time that was.  0 or -1 with err.
 */
int stress_run_job(const struct job *j, const struct timing *t,
		   struct reps *out, int off, struct pandia_error *err)
{
	struct run r;
	struct worker *w;
	pthread_t *tid;
	int i, k, made = 0, rc, ret = -1;
	double share;

	if (stress_keep_map(j, err) < 0)
		return -1;
	memset(&r, 0, sizeof(r));
	r.job = j;
	r.t = t;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	pthread_barrier_init(&r.bar, NULL, j->n);
	w = xcalloc(j->n, sizeof(*w));
	tid = xcalloc(j->n, sizeof(*tid));

	for (i = 0; i < j->n; i++) {
		w[i].run = &r;
		w[i].idx = i;
		w[i].cpu = xcalloc(t->reps, sizeof(double));
		w[i].wall = xcalloc(t->reps, sizeof(double));
		w[i].share = xcalloc(t->reps, sizeof(double));
		if (j->n > 1)
			w[i].log = xcalloc(t->reps, sizeof(*w[i].log));
	}
	for (i = 0; i < j->n; i++) {
		rc = pthread_create(&tid[i], NULL, worker_main, &w[i]);
		if (rc) {
			errno = rc;
			perr_errno(err, "cannot start a measuring thread");
			break;
		}
		made++;
	}
	/* Start them only when all exist: the barriers count on it. */
	pthread_mutex_lock(&r.lock);
	r.go = made == j->n ? 1 : -1;
	pthread_cond_broadcast(&r.cond);
	pthread_mutex_unlock(&r.lock);
	for (i = 0; i < made; i++)
		pthread_join(tid[i], NULL);
	if (made < j->n)
		goto out_free;
	if (r.failed) {
		*err = r.err;
		goto out_free;
	}
	for (k = 0; k < t->reps; k++) {
		out->cpu[off + k] = out->wall[off + k] = 0;
		out->share[off + k] = 1;
		for (i = 0; i < j->n; i++) {
			out->cpu[off + k] += w[i].cpu[k];
			out->wall[off + k] += w[i].wall[k];
			if (w[i].share[k] < out->share[off + k])
				out->share[off + k] = w[i].share[k];
		}
		if (j->n > 1) {
			out->cpu[off + k] = concurrent_rate(w, j->n, k,
							    &share);
			out->share[off + k] = share;
		}
	}
	ret = 0;
out_free:
	for (i = 0; i < j->n; i++) {
		free(w[i].cpu);
		free(w[i].wall);
		free(w[i].share);
		for (k = 0; w[i].log && k < t->reps; k++)
			free(w[i].log[k].p);
		free(w[i].log);
	}
	free(w);
	free(tid);
	pthread_barrier_destroy(&r.bar);
	pthread_cond_destroy(&r.cond);
	pthread_mutex_destroy(&r.lock);
	return ret;
}
