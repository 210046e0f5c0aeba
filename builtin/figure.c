/*
 * figure.c - a command's figure: DIR/NAME.gp written, and NAME.png
 * drawn from it by gnuplot when there is one.  One wording for a
 * missing gnuplot in every command that draws.
 */
#include <errno.h>
#include <stdlib.h>

#include "builtin.h"
#include "common/util.h"
#include "profiler/run.h"

int draw_figure(const char *dir, const char *name, const char *script)
{
	char *gp = xasprintf("%s.gp", name);
	char *gp_args[] = { gp, NULL };
	struct pandia_error err;
	int ret = -1;

	if (write_file_in(dir, gp, script, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	ret = 0;
	if (run_tool("gnuplot", "PANDIA_GNUPLOT", dir, gp_args, &err) < 0) {
		if (errno == ENOENT)
			warning("gnuplot not found: %s/%s.png not drawn "
				"('gnuplot %s' in %s draws it; "
				"scripts/install-deps installs gnuplot)", dir,
				name, gp, dir);
		else
			warning("%s: %s/%s.png not drawn", err.text, dir,
				name);
	}
out:
	free(gp);
	return ret;
}
