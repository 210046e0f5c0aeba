/*
 * cmd_profile.c - pandia profile (not built yet: see the issue tracker).
 */
#include <stdio.h>

#include "common/cmd.h"

const char usage_profile[] =
"usage: pandia profile ...\n"
"\n"
"pandia profile is not available in this version.\n";

int cmd_profile(int argc, char **argv)
{
	fputs("pandia: 'profile' is not available in this version\n", stderr);
	return 1;
}
