/*
 * timeparse.h - a number with an optional time unit, as a program
 * prints it ("12.5 ms", "3s", "0.25"): --time-from and the stall
 * categories read their values from output lines with it.
 */
#ifndef PANDIA_TIMEPARSE_H
#define PANDIA_TIMEPARSE_H

#include <stdbool.h>

/*
 * The number at P (a digit, '.', '-' or '+' first), and the unit
 * after it, blanks between allowed: ns, us, ms or s, scaled to
 * seconds.  Returns true and sets *value when P holds a finite
 * number; *seconds (when not NULL) says whether a unit followed.
 */
bool time_value_at(const char *p, double *value, bool *seconds);

#endif
