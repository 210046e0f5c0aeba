/*
 * countdemand.c - the perf counter backend end to end, for
 * tests/cli/counters-perf.sh: run 1's demands of a command, as
 * 'pandia profile' gets them.
 *
 *   countdemand [-o FILE] auto|perf|probe CMD [ARG...]
 *
 * Runs CMD once on PU 0 (whole process pinned) through
 * counters_demands(), writes the raw counts as a recording
 * (pandia-counters/1, docs/counters.md) to FILE with -o, and prints,
 * one a line:
 *   backend perf
 *   demand RESOURCE VALUE|null [STATUS]
 *   cpu_use X
 *   counter NAME VALUE
 *   note TEXT
 * Exit status: 0 measured; 3 perf unavailable (auto, probe), with
 * "unavailable: WHY" on stdout; 1 error, "countdemand: ERROR" on
 * stderr; 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/workload.h"
#include "profiler/counters.h"
#include "profiler/run.h"

static const int cpu0[] = { 0 };

int main(int argc, char **argv)
{
	enum counters_mode mode;
	struct counters_result res;
	struct pandia_error err;
	struct run_opts o;
	const char *save = NULL;
	int rc, r, i, ret = 1;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		save = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fputs("usage: countdemand [-o FILE] auto|perf|probe CMD "
		      "[ARG...]\n", stderr);
		return 2;
	}
	if (counters_mode_parse(argv[1], &mode, &err) < 0) {
		perr_print(&err, stderr);
		return 2;
	}
	run_opts_init(&o);
	o.cpus = cpu0;
	o.n_cpus = 1;
	o.pin = RUN_PIN_SET;
	o.timeout = 120;
	counters_result_init(&res);
	rc = counters_demands(mode, NULL, &o, argv + 2, "run1", &res, &err);
	if (rc < 0) {
		fprintf(stderr, "countdemand: %s\n", err.text);
		if (res.run.stderr_tail && *res.run.stderr_tail)
			fprintf(stderr, "%s", res.run.stderr_tail);
		goto out;
	}
	if (rc == COUNTERS_UNAVAILABLE) {
		printf("unavailable: %s\n", res.why);
		ret = 3;
		goto out;
	}
	if (save && counters_reading_save(&res.reading, save, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	printf("backend %s\n", res.backend);
	for (r = 0; r < WR_COUNT; r++) {
		const struct wl_param *p = &res.demand[r];

		if (!res.listed[r])
			continue;
		if (p->known)
			printf("demand %s %.6g", wl_resource_name(r),
			       p->value);
		else
			printf("demand %s null", wl_resource_name(r));
		printf("%s%s\n", p->status ? " " : "",
		       p->status ? p->status : "");
	}
	printf("cpu_use %.3f\n", res.cpu_use);
	for (i = 0; i < res.n_counters; i++)
		printf("counter %s %.6g\n", res.counter_names[i],
		       res.counter_values[i]);
	printf("note %s\n", res.note);
	ret = 0;
out:
	counters_result_release(&res);
	return ret;
}
