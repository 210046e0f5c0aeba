/*
 * skewed.c - skewed work in phases, for the faithfulness tests of the
 * speedup stacks (tests/cli/explain-skewed.sh; the digest
 * seed-speedup-stacks.md, "Faithfulness tests").
 *
 *   skewed --threads T --shares N --work MS [--phases P] [--no-barrier]
 *
 * The work is N shares per phase, share j (0-based) (j + 1) x MS ms of
 * CPU time; thread i of T does the shares j with j % T == i, so that
 * with T = N thread i does (i + 1) x MS per phase, and with T = 1 one
 * thread does all of them (the single-thread run of the same work).
 * Between phases the threads meet at a blocking pthread barrier;
 * --no-barrier: each thread does its P phases straight through, and
 * the threads meet only when the main thread joins them.  The main
 * thread creates the T threads and joins them: it does no work.
 * Work is measured in the thread's own CPU time, so that time sharing
 * a PU does not change it.  Prints "time: SECONDS", the wall time from
 * the first thread's creation to the last join.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int n_threads = 1, n_shares = 1, n_phases = 10;
static double work_ms = 10;
static bool barrier_on = true;
static pthread_barrier_t barrier;

static double clock_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* busy for MS milliseconds of this thread's CPU time */
static void spin(double ms)
{
	double end = clock_of(CLOCK_THREAD_CPUTIME_ID) + ms * 1e-3;
	volatile unsigned long x = 1;

	while (clock_of(CLOCK_THREAD_CPUTIME_ID) < end) {
		int i;

		for (i = 0; i < 2000; i++)
			x = x * 6364136223846793005UL + 1;
	}
}

static void *worker(void *arg)
{
	int id = (int)(long)arg, ph, j;

	for (ph = 0; ph < n_phases; ph++) {
		for (j = id; j < n_shares; j += n_threads)
			spin((j + 1) * work_ms);
		if (barrier_on)
			pthread_barrier_wait(&barrier);
	}
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: skewed --threads T --shares N --work MS "
		"[--phases P] [--no-barrier]\n");
	return 2;
}

int main(int argc, char **argv)
{
	pthread_t *tid;
	double t0;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-barrier")) {
			barrier_on = false;
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--threads"))
			n_threads = atoi(v);
		else if (!strcmp(a, "--shares"))
			n_shares = atoi(v);
		else if (!strcmp(a, "--phases"))
			n_phases = atoi(v);
		else if (!strcmp(a, "--work"))
			work_ms = atof(v);
		else
			return usage();
	}
	if (n_threads < 1 || n_shares < 1 || n_phases < 1 || !(work_ms > 0))
		return usage();
	tid = calloc((size_t)n_threads, sizeof(*tid));
	if (!tid || (barrier_on && pthread_barrier_init(&barrier, NULL,
						       (unsigned)n_threads))) {
		fprintf(stderr, "skewed: out of memory\n");
		return 1;
	}
	t0 = clock_of(CLOCK_MONOTONIC);
	for (i = 0; i < n_threads; i++)
		if (pthread_create(&tid[i], NULL, worker, (void *)(long)i)) {
			fprintf(stderr, "skewed: cannot create thread %d\n", i);
			return 1;
		}
	for (i = 0; i < n_threads; i++)
		pthread_join(tid[i], NULL);
	printf("time: %.6f\n", clock_of(CLOCK_MONOTONIC) - t0);
	free(tid);
	return 0;
}
