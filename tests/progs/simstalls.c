/*
 * simstalls.c - a simulated workload whose lock and memory stalls grow
 * with the thread count, for 'pandia extrapolate' on machines we do
 * not have (tests/cli/extrapolate-sim.sh).  Nothing is run: the
 * program prints what a run at --threads N would report.  SIMULATION,
 * not a measurement.
 *
 * The model (every count in cycles, summed over the threads):
 *   work     W = 6e9, split evenly (no stall);
 *   memory   A = 3e7 accesses, each L0 / (1 - U n) cycles: L0 = 80 and
 *            U = 0.012, the memory controller's queue growing with the
 *            threads that share it (an M/M/1 wait);
 *            s_mem(n) = A L0 / (1 - U n)
 *   lock     K = 1e6 acquisitions of one lock; the critical section
 *            takes H0 (1 + C n) cycles (H0 = 400, C = 0.05: its data
 *            moves between more cores), and each acquisition waits for
 *            half of the other threads' sections on average;
 *            s_lock(n) = K H0 (1 + C n) (n - 1) / 2
 *   time     T(n) = (W + s_mem(n) + s_lock(n)) / n / F, F = 2e9 Hz.
 * The least T is at n = 28 (T(1) = 4.215 s, T(12) = 0.5135 s,
 * T(28) = 0.4031 s, T(48) = 0.4544 s).
 *
 * Output: one line per thread, "thread I: lock X cycles, memory Y
 * cycles" (the totals split unevenly: thread I gets a weight
 * 1 + 0.2 ((I mod 3) - 1), normalised), then "time: T".  With
 * --noise S, each total and the time are multiplied by 1 + S z, z a
 * standard normal drawn from --seed and the thread count (the same run
 * gives the same numbers).  --exact prints the noise-free totals and
 * time at N with full precision, for the tests' reference values.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/rng.h"

#define W	6e9
#define A	3e7
#define L0	80.0
#define U	0.012
#define K	1e6
#define H0	400.0
#define C	0.05
#define F	2e9

static const char usage[] =
"usage: simstalls --threads N [--noise SIGMA] [--seed S] [--exact]\n"
"Print what a simulated run at N threads reports: per thread its lock\n"
"and memory stall cycles, then 'time: SECONDS' (see the source).\n";

static uint64_t state;

/*
 * A standard normal (Box-Muller) from the kit's splitmix64.  Its two
 * uniforms are not tk_rng_normal()'s (u1 in (0, 1], u2 in [0, 1)):
 * kept so that a seed gives the stalls it always gave.
 */
static double gauss(void)
{
	double u1 = ((tk_rng_next(&state) >> 11) + 1.0) / 9007199254740993.0;
	double u2 = (tk_rng_next(&state) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "noise", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "exact", no_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	double noise = 0, mem, lock, t, wsum = 0, w;
	long seed = 1;
	int n = 0, c, i;
	int exact = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			n = atoi(optarg);
			break;
		case 'n':
			noise = atof(optarg);
			break;
		case 's':
			seed = atol(optarg);
			break;
		case 'e':
			exact = 1;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (n < 1 || n * U >= 1) {
		fprintf(stderr, "simstalls: --threads must be from 1 to %d\n",
			(int)ceil(1 / U) - 1);
		return 2;
	}
	mem = A * L0 / (1 - U * n);
	lock = K * H0 * (1 + C * n) * (n - 1) / 2;
	t = (W + mem + lock) / n / F;
	if (exact) {
		printf("%d %.10g %.10g %.10g\n", n, t, lock, mem);
		return 0;
	}
	state = (uint64_t)seed * 1000003u + (uint64_t)n;
	if (noise > 0) {
		lock *= 1 + noise * gauss();
		mem *= 1 + noise * gauss();
		t *= 1 + noise * gauss();
	}
	for (i = 0; i < n; i++)
		wsum += 1 + 0.2 * ((i % 3) - 1);
	for (i = 0; i < n; i++) {
		w = (1 + 0.2 * ((i % 3) - 1)) / wsum;
		printf("thread %d: lock %.10g cycles, memory %.10g cycles\n",
		       i, lock * w, mem * w);
	}
	printf("time: %.10g\n", t);
	return 0;
}
