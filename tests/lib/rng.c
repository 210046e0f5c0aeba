/*
 * rng.c - splitmix64 and Box-Muller: the noise of the simulated runs
 * and of the Check suites.  Tests compare against numbers drawn from
 * these streams, so the arithmetic here must never change.
 */
#include <math.h>

#include "tests/lib/rng.h"

uint64_t tk_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double tk_rng_unit(uint64_t *state)
{
	return ((double)(tk_rng_next(state) >> 11) + 0.5) /
	       9007199254740992.0;
}

double tk_rng_normal(uint64_t *state)
{
	/* u first, then v: the order the recorded streams were drawn in */
	double u = tk_rng_unit(state), v = tk_rng_unit(state);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}
