/*
 * disturb - another tenant for the tests: keeps one PU busy in random
 * spells, about half the time.
 *
 *   disturb PU SECONDS [MIN MAX] [SEED]
 *
 * Pinned to PU, it alternates busy spells and idle ones, each lasting
 * a uniformly random time in [MIN, MAX] seconds (default 0.2 to 1),
 * for SECONDS in all (or until killed).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	double lo = 0.2, hi = 1, total, end, t;
	unsigned seed = 1;
	volatile unsigned long sink = 0;
	cpu_set_t set;
	int pu, busy = 1;

	if (argc < 3) {
		fprintf(stderr, "usage: disturb PU SECONDS [MIN MAX] "
			"[SEED]\n");
		return 2;
	}
	pu = atoi(argv[1]);
	total = atof(argv[2]);
	if (argc >= 5) {
		lo = atof(argv[3]);
		hi = atof(argv[4]);
	}
	if (argc >= 6)
		seed = (unsigned)atoi(argv[5]);
	CPU_ZERO(&set);
	CPU_SET(pu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("disturb: sched_setaffinity");
		return 1;
	}
	srand(seed);
	end = now() + total;
	while ((t = now()) < end) {
		double spell = lo + (hi - lo) * rand() / (double)RAND_MAX;
		double stop = t + spell < end ? t + spell : end;

		if (busy)
			while (now() < stop)
				sink += 1;
		else
			usleep((useconds_t)((stop - t) * 1e6));
		busy = !busy;
	}
	return 0;
}
