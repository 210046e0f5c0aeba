/*
 * timeparse.c - a number with an optional time unit (timeparse.h).
 */
#include "common/timeparse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

bool time_value_at(const char *p, double *value, bool *seconds)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
	};
	bool unit = false;
	char *end;
	double v;
	size_t i, n;

	if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' &&
	    *p != '+')
		return false;
	errno = 0;
	v = strtod(p, &end);
	if (end == p || errno || !isfinite(v))
		return false;
	while (*end == ' ')
		end++;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		n = strlen(units[i].unit);
		if (!strncmp(end, units[i].unit, n) &&
		    !isalpha((unsigned char)end[n])) {
			v *= units[i].scale;
			unit = true;
			break;
		}
	}
	if (seconds)
		*seconds = unit;
	*value = v;
	return true;
}
