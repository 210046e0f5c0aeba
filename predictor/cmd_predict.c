/*
 * cmd_predict.c - pandia predict (not built yet: see the issue tracker).
 */
#include <stdio.h>

#include "common/cmd.h"

const char usage_predict[] =
"usage: pandia predict ...\n"
"\n"
"pandia predict is not available in this version.\n";

int cmd_predict(int argc, char **argv)
{
	fputs("pandia: 'predict' is not available in this version\n", stderr);
	return 1;
}
