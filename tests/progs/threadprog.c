/*
 * threadprog.c - a program whose threads do known things, for the
 * tests of the runner's pinning and accounting.
 *
 *   threadprog --spin MS                main thread busy for MS ms
 *   threadprog --threads N --work MS [--phases P] [--together]
 *                                       P phases (default 1): each
 *                                       creates N threads busy for MS
 *                                       ms of CPU and joins them; with
 *                                       --together each waits for all
 *                                       the phase's others before it
 *                                       ends (all alive until the last
 *                                       is done)
 *   threadprog --omp N --work MS        an OpenMP team of N, each busy
 *   threadprog --wait KIND --secs S     a created thread blocks S s in
 *                                       KIND: mutex, barrier, cond, sem
 *   threadprog --setaffinity CPU        main thread pins itself to CPU
 *   threadprog --many N                 N threads alive at once, each
 *                                       sleeping 20 ms
 *   threadprog --exit-early             exits 0.3 s in, 2 threads spinning
 *   threadprog --threads N --locks K [--outside W] [--cpus LIST]
 *                                       N threads each take one shared
 *                                       mutex K times (a mutex-heavy
 *                                       load), thread I pinned by
 *                                       itself to the I-th PU of LIST;
 *                                       prints "time: SECONDS"
 *
 * Busy threads print "phase P thread I cpus LIST" (OpenMP: "omp I cpus
 * LIST") with the PUs they were allowed on, read after their work.
 */
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/cpulist.h"
#include "common/util.h"

static double work_ms = 100;
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cmtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t barrier;
static sem_t sem;
static int cond_ready;
static const char *wait_kind;
static long n_locks;
static long n_outside;		/* work between two locks, iterations */
static int *pin_list, n_pin;
static volatile unsigned long counter;

/* the calling thread's affinity as a list (new string) */
static char *my_cpus(void)
{
	cpu_set_t set;
	int v[CPU_SETSIZE], n = 0, i;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return xstrdup("?");
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			v[n++] = i;
	return cpuset_format(v, n);
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* busy for MS milliseconds of this thread's CPU time */
static void spin(double ms)
{
	double end = thread_cpu() + ms * 1e-3;
	volatile unsigned long x = 1;

	while (thread_cpu() < end) {
		int i;

		for (i = 0; i < 10000; i++)
			x = x * 6364136223846793005UL + 1;
	}
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

struct job {
	int phase, index;
	char *cpus;
	pthread_barrier_t *together;	/* or NULL */
};

static void *busy_main(void *arg)
{
	struct job *j = arg;

	spin(work_ms);
	j->cpus = my_cpus();
	if (j->together)
		pthread_barrier_wait(j->together);
	return NULL;
}

static void *sleeper_main(void *arg)
{
	sleep_s(0.02);
	return NULL;
}

static void *forever_main(void *arg)
{
	for (;;)
		spin(10);
	return NULL;
}

static void *waiter_main(void *arg)
{
	if (!strcmp(wait_kind, "mutex")) {
		pthread_mutex_lock(&mtx);
		pthread_mutex_unlock(&mtx);
	} else if (!strcmp(wait_kind, "barrier")) {
		pthread_barrier_wait(&barrier);
	} else if (!strcmp(wait_kind, "cond")) {
		pthread_mutex_lock(&cmtx);
		while (!cond_ready)
			pthread_cond_wait(&cond, &cmtx);
		pthread_mutex_unlock(&cmtx);
	} else {
		sem_wait(&sem);
	}
	return NULL;
}

static void *locker_main(void *arg)
{
	long i, id = (long)arg;

	if (n_pin > 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(pin_list[id % n_pin], &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	for (i = 0; i < n_locks; i++) {
		volatile unsigned long w = 0;
		long k;

		for (k = 0; k < n_outside; k++)
			w += (unsigned long)k * 2654435761u;
		pthread_mutex_lock(&mtx);
		counter++;
		pthread_mutex_unlock(&mtx);
	}
	return NULL;
}

static int run_locks(int n)
{
	pthread_t *tids = xcalloc((size_t)n, sizeof(*tids));
	double t0 = now_seconds();
	long i;

	for (i = 0; i < n; i++)
		if (pthread_create(&tids[i], NULL, locker_main, (void *)i))
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	printf("time: %.6f\n", now_seconds() - t0);
	free(tids);
	return 0;
}

static int run_phases(int phases, int n, int together)
{
	pthread_t *tids = xcalloc((size_t)n, sizeof(*tids));
	struct job *jobs = xcalloc((size_t)n, sizeof(*jobs));
	pthread_barrier_t all;
	int p, i;

	if (together)
		pthread_barrier_init(&all, NULL, (unsigned)n);
	for (p = 0; p < phases; p++) {
		for (i = 0; i < n; i++) {
			jobs[i].phase = p;
			jobs[i].index = i;
			jobs[i].together = together ? &all : NULL;
			if (pthread_create(&tids[i], NULL, busy_main,
					   &jobs[i])) {
				fprintf(stderr, "threadprog: cannot create a "
					"thread\n");
				return 1;
			}
		}
		for (i = 0; i < n; i++) {
			pthread_join(tids[i], NULL);
			printf("phase %d thread %d cpus %s\n", p, i,
			       jobs[i].cpus);
			free(jobs[i].cpus);
		}
	}
	if (together)
		pthread_barrier_destroy(&all);
	free(tids);
	free(jobs);
	return 0;
}

static int run_wait(double secs)
{
	pthread_t t;

	pthread_barrier_init(&barrier, NULL, 2);
	sem_init(&sem, 0, 0);
	pthread_mutex_lock(&mtx);
	if (pthread_create(&t, NULL, waiter_main, NULL))
		return 1;
	sleep_s(secs);
	if (!strcmp(wait_kind, "mutex")) {
		pthread_mutex_unlock(&mtx);
	} else if (!strcmp(wait_kind, "barrier")) {
		pthread_mutex_unlock(&mtx);
		pthread_barrier_wait(&barrier);
	} else if (!strcmp(wait_kind, "cond")) {
		pthread_mutex_unlock(&mtx);
		pthread_mutex_lock(&cmtx);
		cond_ready = 1;
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&cmtx);
	} else {
		pthread_mutex_unlock(&mtx);
		sem_post(&sem);
	}
	pthread_join(t, NULL);
	return 0;
}

static int run_many(int n)
{
	pthread_t *tids = xcalloc((size_t)n, sizeof(*tids));
	int i, made = 0;

	for (i = 0; i < n; i++)
		made += !pthread_create(&tids[i], NULL, sleeper_main, NULL);
	for (i = 0; i < made; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	printf("created %d threads\n", made);
	return made == n ? 0 : 1;
}

static int run_omp(int n)
{
	char **lists = xcalloc((size_t)n, sizeof(*lists));
	int i;

#pragma omp parallel num_threads(n)
	{
		int t = omp_get_thread_num();

		spin(work_ms);
		if (t < n)
			lists[t] = my_cpus();
	}
	for (i = 0; i < n; i++) {
		printf("omp %d cpus %s\n", i, lists[i] ? lists[i] : "?");
		free(lists[i]);
	}
	free(lists);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: threadprog --spin MS | --threads N --work MS "
		"[--phases P] [--together] | --omp N --work MS | --wait KIND --secs S | "
		"--setaffinity CPU | --many N | --exit-early | --threads N "
		"--locks K [--outside W] [--cpus LIST]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int threads = 0, phases = 1, omp = 0, many = 0, i;
	double secs = 0.5, spin_ms = 0;
	int setaff = -1, early = 0, together = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--exit-early")) {
			early = 1;
			continue;
		}
		if (!strcmp(a, "--together")) {
			together = 1;
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--spin"))
			spin_ms = atof(v);
		else if (!strcmp(a, "--threads"))
			threads = atoi(v);
		else if (!strcmp(a, "--work"))
			work_ms = atof(v);
		else if (!strcmp(a, "--phases"))
			phases = atoi(v);
		else if (!strcmp(a, "--omp"))
			omp = atoi(v);
		else if (!strcmp(a, "--wait"))
			wait_kind = v;
		else if (!strcmp(a, "--secs"))
			secs = atof(v);
		else if (!strcmp(a, "--setaffinity"))
			setaff = atoi(v);
		else if (!strcmp(a, "--many"))
			many = atoi(v);
		else if (!strcmp(a, "--locks"))
			n_locks = atol(v);
		else if (!strcmp(a, "--outside"))
			n_outside = atol(v);
		else if (!strcmp(a, "--cpus")) {
			if (cpulist_parse(v, &pin_list, &n_pin, NULL) < 0)
				return usage();
		}
		else
			return usage();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setaff >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(setaff, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			perror("threadprog: sched_setaffinity");
			return 1;
		}
		char *cpus;

		spin(work_ms);
		cpus = my_cpus();
		printf("main cpus %s\n", cpus);
		free(cpus);
		return 0;
	}
	if (early) {
		pthread_t t;

		for (i = 0; i < 2; i++)
			if (pthread_create(&t, NULL, forever_main, NULL))
				return 1;
		/* long enough for each to have been on a CPU on a busy
		   host: a thread's run-queue wait is counted only once it
		   gets one (schedstat's run_delay), so one that never ran
		   looks idle */
		sleep_s(0.3);
		exit(0);
	}
	if (spin_ms > 0)
		spin(spin_ms);
	if (wait_kind)
		return run_wait(secs);
	if (many)
		return run_many(many);
	if (omp)
		return run_omp(omp);
	if (n_locks > 0)
		return run_locks(threads > 0 ? threads : 2);
	if (threads)
		return run_phases(phases, threads, together);
	return 0;
}
