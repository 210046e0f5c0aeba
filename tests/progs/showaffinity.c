/*
 * showaffinity.c - print where each thread is allowed to run, for the
 * runner's pinning tests.
 *
 *   showaffinity [--threads N] [--omp] [--hold MS]
 *
 * The main thread is thread 0; threads 1..N-1 are created one after
 * the other with pthread_create (or, with --omp, an OpenMP parallel
 * region of N threads).  Each reads its own affinity as it starts and
 * holds on for MS milliseconds (default 100) so that a watcher can see
 * it in /proc.  Prints one line per thread, in thread order:
 *   thread I cpus LIST      (or: omp I cpus LIST)
 * each line headed "rank R " when it runs as rank R of an MPI job (a
 * copy of its own under Open MPI's mpirun, OMPI_COMM_WORLD_RANK, or
 * MPICH's mpiexec, PMI_RANK), so that every rank's threads are seen.
 * N defaults to $PANDIA_THREADS, else 1.
 */
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cpulist.h"
#include "common/util.h"

static int hold_ms = 100;
static char **lists;

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

static void hold(void)
{
	struct timespec ts = { hold_ms / 1000, (hold_ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void *thread_main(void *arg)
{
	long i = (long)arg;

	lists[i] = my_cpus();
	hold();
	return NULL;
}

int main(int argc, char **argv)
{
	const char *env = getenv("PANDIA_THREADS");
	const char *rank = getenv("OMPI_COMM_WORLD_RANK");
	int n = env ? atoi(env) : 1, omp = 0, i;
	pthread_t *tids;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--hold") && i + 1 < argc)
			hold_ms = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--omp"))
			omp = 1;
		else {
			fprintf(stderr, "usage: showaffinity [--threads N] "
				"[--omp] [--hold MS]\n");
			return 2;
		}
	}
	if (n < 1)
		n = 1;
	lists = xcalloc((size_t)n, sizeof(*lists));
	if (omp) {
#pragma omp parallel num_threads(n)
		{
			int t = omp_get_thread_num();

			if (t < n)
				lists[t] = my_cpus();
			hold();
		}
	} else {
		lists[0] = my_cpus();
		tids = xcalloc((size_t)n, sizeof(*tids));
		for (i = 1; i < n; i++)
			if (pthread_create(&tids[i], NULL, thread_main,
					   (void *)(long)i)) {
				fprintf(stderr, "showaffinity: cannot create "
					"thread %d\n", i);
				return 1;
			}
		hold();
		for (i = 1; i < n; i++)
			pthread_join(tids[i], NULL);
		free(tids);
	}
	if (!rank)
		rank = getenv("PMI_RANK");
	for (i = 0; i < n; i++) {
		if (rank)
			printf("rank %s ", rank);
		printf("%s %d cpus %s\n", omp ? "omp" : "thread", i,
		       lists[i] ? lists[i] : "?");
		free(lists[i]);
	}
	free(lists);
	return 0;
}
