/*
 * cmd_validate.c - pandia validate (not built yet: see the issue tracker).
 */
#include <stdio.h>

#include "common/cmd.h"

const char usage_validate[] =
"usage: pandia validate ...\n"
"\n"
"pandia validate is not available in this version.\n";

int cmd_validate(int argc, char **argv)
{
	fputs("pandia: 'validate' is not available in this version\n", stderr);
	return 1;
}
