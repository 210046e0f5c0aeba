/*
 * hostcheck.c - refuse to measure with another host's description.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/cmd.h"
#include "common/machine.h"
#include "common/topology.h"

int check_this_host(const struct pandia_machine *m, const char *file,
		    bool force, const char *doing, const char *hint)
{
	struct pandia_machine *h = machine_new();
	struct pandia_error err;
	char *why = NULL;
	int ret = -1;

	if (topology_load(h, NULL, &err) < 0) {
		fprintf(stderr, "pandia: warning: cannot read this host's "
			"topology to check '%s': %s\n", file, err.text);
		ret = 0;
		goto out;
	}
	if (machine_same_host(h, m, &why)) {
		ret = 0;
		goto out;
	}
	if (force) {
		fprintf(stderr, "pandia: warning: '%s' describes another "
			"machine (%s); %s here anyway (--force)\n", file, why,
			doing);
		ret = 0;
		goto out;
	}
	fprintf(stderr, "pandia: '%s' describes another machine: %s; make "
		"one here with 'pandia machine', or pass --force%s%s\n", file,
		why, hint ? " " : "", hint ? hint : "");
out:
	free(why);
	machine_free(h);
	return ret;
}
