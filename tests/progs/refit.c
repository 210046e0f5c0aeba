/*
 * refit - fit kept workload descriptions again with this build's
 * Pandia model, from their own runs, on a machine description.
 *
 *   refit MACHINE.json OUTDIR WORKLOAD.json...
 *
 * Each WORKLOAD.json (a profile of the Pandia model, default options)
 * is loaded, its parameters solved again from the runs it recorded,
 * and written to OUTDIR under its own file name; one line per file on
 * stdout: the name, then p, l and b, each with its stated range.
 * scripts/calibrate --refit counts a kept calibration again with it:
 * what a change of the fit or of the ranges does to profiles already
 * made, without timing anything.  Exit 1 when any file failed (said on
 * stderr, file and why), 2 on bad usage.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/machine.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/params.h"

static void say_warning(void *arg, const char *msg)
{
	fprintf(stderr, "refit: %s: %s\n", (const char *)arg, msg);
}

/* Fit PATH again on M into OUTDIR; 0, or -1 said on stderr. */
static int refit_one(const struct pandia_machine *m, const char *outdir,
		     const char *path)
{
	struct pandia_error err;
	struct pandia_workload *w = workload_load(path, &err);
	struct model_env env = { .m = m, .warn = say_warning };
	const char *base = strrchr(path, '/');
	struct pandia_params *pp;
	char out[4096];
	int ret = -1;

	if (!w) {
		fprintf(stderr, "refit: %s:%d: %s\n", path, err.line,
			err.text);
		return -1;
	}
	env.warn_arg = (void *)path;
	base = base ? base + 1 : path;
	if (snprintf(out, sizeof(out), "%s/%s", outdir, base) >=
	    (int)sizeof(out))
		fprintf(stderr, "refit: %s: path too long\n", path);
	else if (model_pandia.fit(&env, w, &err) < 0)
		fprintf(stderr, "refit: %s: %s\n", path, err.text);
	else if (workload_save(w, out, &err) < 0)
		fprintf(stderr, "refit: %s: %s\n", out, err.text);
	else
		ret = 0;
	pp = pandia_params(w);
	if (ret == 0)
		printf("%s p %.4g +- %.3g l %.4g +- %.3g b %.4g +- %.3g\n",
		       base, pp->p.value, pp->p.uncertainty,
		       pp->l.known ? pp->l.value : NAN, pp->l.uncertainty,
		       pp->b.known ? pp->b.value : NAN, pp->b.uncertainty);
	workload_free(w);
	return ret;
}

int main(int argc, char **argv)
{
	struct pandia_error err;
	struct pandia_machine *m;
	int i, ret = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: refit MACHINE.json OUTDIR "
			"WORKLOAD.json...\n");
		return 2;
	}
	pandia_params_install();
	m = machine_load(argv[1], &err);
	if (!m) {
		fprintf(stderr, "refit: %s:%d: %s\n", argv[1], err.line,
			err.text);
		return 1;
	}
	for (i = 3; i < argc; i++)
		if (refit_one(m, argv[2], argv[i]) < 0)
			ret = 1;
	machine_free(m);
	return ret;
}
