/*
 * rng.h - the tests' one seeded generator: splitmix64 and Box-Muller
 * normal draws, the same stream on every machine.  The state is the
 * caller's (a uint64_t seeded with any value); nothing here is global.
 * And the noise of the simulated programs' runs, drawn from it.
 * Nothing here needs Check: the helper programs link it too.
 */
#ifndef TESTS_LIB_RNG_H
#define TESTS_LIB_RNG_H

#include <stdint.h>

/* The next 64 bits of the splitmix64 stream in *state. */
uint64_t tk_rng_next(uint64_t *state);

/* A uniform draw in (0, 1): 53 bits of one tk_rng_next(), centred. */
double tk_rng_unit(uint64_t *state);

/* A standard normal draw (Box-Muller): two tk_rng_unit() draws. */
double tk_rng_normal(uint64_t *state);

/*
 * Multiply *T by 1 + NOISE x N(0, 1) (leave it when NOISE is 0), N
 * drawn after one discarded draw from SEED mixed with the run number
 * kept in STATE_FILE (0 the first run, one more each run, the file
 * locked meanwhile) or, when STATE_FILE is NULL, with the pid and the
 * clock.  0, or -1 with *why "open" or "write" (what failed on
 * STATE_FILE) and errno set.
 */
int tk_noisy_time(double *t, double noise, uint64_t seed,
		  const char *state_file, const char **why);

#endif
