/*
 * rng.h - the tests' one seeded generator: splitmix64 and Box-Muller
 * normal draws, the same stream on every machine.  The state is the
 * caller's (a uint64_t seeded with any value); nothing here is global.
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

#endif
