/*
 * sim.c - the simulated programs' way out and their placements.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/machine.h"
#include "tests/lib/sim.h"

void tk_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

int *tk_pus_of(const struct pandia_machine *m, const char *list, int *n)
{
	struct pandia_error err;
	int *v, i;

	*n = 0;
	if (!list || !*list || !strcmp(list, "none"))
		return NULL;
	if (cpulist_parse(list, &v, n, &err) < 0)
		tk_die("%s", err.text);
	for (i = 0; i < *n; i++) {
		int k = machine_pu_index(m, v[i]);

		if (k < 0)
			tk_die("PU %d is not in the machine description",
			       v[i]);
		v[i] = k;
	}
	return v;
}
