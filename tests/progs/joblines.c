/*
 * joblines.c - print the lines that pin a job's ranks
 * (builtin/predict_job.c) for any number of ranks, which pandia
 * predict does not ask for yet, so that a test can run them.
 *
 *   joblines ORDER LIST...
 *
 * ORDER: the machine's PUs in hwloc's logical order ("0,1"); each LIST
 * a rank's threads' OS PUs ("1,0").  Prints "srun LINE", "ompi LINE",
 * "mapby LINE" (or "mapby -" and why) and "mpich LINE".
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtin/predict_job.h"
#include "common/cpulist.h"
#include "common/error.h"
#include "common/util.h"

static int *parse(const char *text, int *n)
{
	struct pandia_error err = { 0 };
	int *v = NULL;

	if (cpulist_parse(text, &v, n, &err) < 0) {
		fprintf(stderr, "joblines: bad list '%s'\n", text);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const char *const name[JOB_LINES] = {
		"srun", "ompi", "mapby", "mpich"
	};
	struct job_rank *r;
	struct job_lines j;
	int *order, n_order, i, l, ranks = argc - 2;

	if (argc < 3) {
		fprintf(stderr, "usage: joblines ORDER LIST...\n");
		return 2;
	}
	order = parse(argv[1], &n_order);
	r = xcalloc((size_t)ranks, sizeof(*r));
	for (i = 0; i < ranks; i++)
		r[i].os = parse(argv[i + 2], &r[i].n);
	job_lines(ranks, r, order, n_order, "\"$SA\" --omp --hold 0", &j);
	for (l = 0; l < JOB_LINES; l++)
		printf("%s %s\n", name[l], j.line[l] ? j.line[l] :
		       "-");
	if (!j.line[JOB_OMPI_MAPBY])
		printf("# %s\n", j.mapby_why);
	job_lines_release(&j);
	for (i = 0; i < ranks; i++)
		free((int *)r[i].os);
	free(r);
	free(order);
	return 0;
}
