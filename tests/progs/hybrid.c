/*
 * hybrid.c - a small MPI+OpenMP program with known behaviour, for
 * pandia predict --ranks (tests/cli/predict-ranks.sh,
 * scripts/validate-hybrid).  Every rank does the same work (the job
 * is weakly scaled: one rank alone is what pandia profiles), split over
 * its OpenMP threads: compute (a dependent floating-point chain per
 * thread) or stream (passes over an array of its own, first touched by
 * the threads that read it).  The ranks meet at a barrier before and
 * reduce their times after, and rank 0 prints the job's time, the
 * slowest rank's, as "time: S"; each rank says its threads and the
 * PUs it may run on.
 *
 * Built with mpicc where Debian's Open MPI is installed (the Makefile
 * leaves it out otherwise).  It also runs as a singleton, without
 * mpirun: one rank.
 *
 * usage: hybrid [--kind compute|stream] [--work N] [--mib M]
 */
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct args {
	int stream;		/* else compute */
	double work;		/* compute: 1e8 steps; stream: passes */
	long mib;		/* stream: the array of one rank */
};

static int parse(int argc, char **argv, struct args *a)
{
	int i;

	a->stream = 0;
	a->work = 4;
	a->mib = 64;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "compute") &&
			    strcmp(argv[i], "stream"))
				return -1;
			a->stream = !strcmp(argv[i], "stream");
		} else if (!strcmp(argv[i], "--work") && i + 1 < argc) {
			a->work = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--mib") && i + 1 < argc) {
			a->mib = atol(argv[++i]);
		} else {
			return -1;
		}
	}
	return a->work > 0 && a->mib > 0 ? 0 : -1;
}

/* The compute work: 1e8 x WORK dependent steps over the threads. */
static double compute(double work)
{
	long steps = (long)(work * 1e8), i;
	double sum = 0;

#pragma omp parallel for schedule(static) reduction(+:sum)
	for (i = 0; i < omp_get_num_threads(); i++) {
		long n = steps / omp_get_num_threads(), k;
		double x = 1.0 + 1e-9 * (double)i;

		for (k = 0; k < n; k++)
			x = x * 1.0000001 + 1e-7;
		sum += x;
	}
	return sum;
}

/* The stream work: WORK passes over MIB MiB, each thread its part. */
static double stream(double work, long mib)
{
	long n = mib * (1L << 20) / (long)sizeof(double), i;
	int passes = (int)work, p;
	double *v = malloc(sizeof(double) * (size_t)n), sum = 0;

	if (!v)
		return -1;
#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		v[i] = (double)(i & 7);
	for (p = 0; p < (passes > 0 ? passes : 1); p++) {
#pragma omp parallel for schedule(static) reduction(+:sum)
		for (i = 0; i < n; i++) {
			sum += v[i];
			v[i] = v[i] * 0.5 + 1.0;
		}
	}
	free(v);
	return sum;
}

/* The PUs this rank may run on, "0,1", into BUF. */
static void affinity(char *buf, size_t size)
{
	cpu_set_t set;
	size_t len = 0;
	int c;

	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	for (c = 0; c < CPU_SETSIZE && len + 12 < size; c++)
		if (CPU_ISSET(c, &set))
			len += (size_t)snprintf(buf + len, size - len, "%s%d",
						len ? "," : "", c);
}

int main(int argc, char **argv)
{
	struct args a;
	char cpus[256];
	int provided, rank, size, threads;
	double t0, t, tmax, r;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (parse(argc, argv, &a) < 0) {
		if (!rank)
			fprintf(stderr, "usage: hybrid [--kind compute|stream]"
				" [--work N] [--mib M]\n");
		MPI_Finalize();
		return 2;
	}
	threads = omp_get_max_threads();
	affinity(cpus, sizeof(cpus));
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	r = a.stream ? stream(a.work, a.mib) : compute(a.work);
	t = MPI_Wtime() - t0;
	MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	printf("rank %d of %d: %d thread%s on cpus %s, %.6f s (%g)\n",
	       rank, size, threads, threads == 1 ? "" : "s", cpus, t, r);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);
	if (!rank)
		printf("time: %.6f\n", tmax);
	MPI_Finalize();
	return r < 0;
}
