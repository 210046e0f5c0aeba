/*
 * fixture.c - the objects many suites start from: a machine described
 * from a topology and assumptions, a short argv.
 */
#include <stddef.h>

#include "common/machine.h"
#include "common/topology.h"
#include "stress/assume.h"
#include "tests/lib/testkit.h"

struct pandia_machine *tk_machine(const char *topo, const char *assume)
{
	struct pandia_machine *m = machine_new();
	struct pandia_error err;

	ck_assert_msg(topology_load(m, topo, &err) == 0, "%s: %s",
		      topo ? topo : "this host", err.text);
	if (assume)
		ck_assert_msg(assume_apply(m, assume, &err) == 0, "%s",
			      err.text);
	return m;
}

char **tk_argv(const char *a, const char *b, const char *c)
{
	static char *v[4];

	v[0] = (char *)a;
	v[1] = (char *)b;
	v[2] = (char *)c;
	v[3] = NULL;
	return v;
}
