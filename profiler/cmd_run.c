/*
 * cmd_run.c - pandia run (not built yet: see the issue tracker).
 */
#include <stdio.h>

#include "common/cmd.h"

const char usage_run[] =
"usage: pandia run ...\n"
"\n"
"pandia run is not available in this version.\n";

int cmd_run(int argc, char **argv)
{
	fputs("pandia: 'run' is not available in this version\n", stderr);
	return 1;
}
