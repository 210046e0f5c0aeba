/*
 * stress-bw - run one pandia stress kernel the way 'pandia machine'
 * does, for the benchmarks: one pinned thread per PU of LIST, each on
 * its own SIZE-byte buffer.
 *
 *   stress-bw [--quick] [--wall] load|load_store|cpu SIZE LIST
 *
 * --wall: rates over the wall clock (as likwid-bench measures) rather
 * than the threads' CPU time (as 'pandia machine' does).
 *
 * Prints "best median spread" (bytes/s or ops/s, summed over threads)
 * on one line, and on stderr what disturbed the measurement, if
 * anything did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"
#include "stress/measure.h"

static int usage(void)
{
	fputs("usage: stress-bw [--quick] [--wall] load|load_store|cpu SIZE "
	      "LIST\n",
	      stderr);
	return 2;
}

int main(int argc, char **argv)
{
	struct stress_opts o = { .quick = false, .progress = false };
	struct pandia_measure ms;
	struct pandia_error err;
	enum stress_kind kind;
	int *pus = NULL, n, ret = 1;
	char *end;
	unsigned long long ws;

	while (argc > 1 && !strncmp(argv[1], "--", 2)) {
		if (!strcmp(argv[1], "--quick"))
			o.quick = true;
		else if (!strcmp(argv[1], "--wall"))
			o.wall_clock = true;
		else
			return usage();
		argc--;
		argv++;
	}
	if (argc != 4)
		return usage();
	if (!strcmp(argv[1], "load"))
		kind = STRESS_LOAD;
	else if (!strcmp(argv[1], "load_store"))
		kind = STRESS_LOAD_STORE;
	else if (!strcmp(argv[1], "cpu"))
		kind = STRESS_CPU;
	else
		return usage();
	ws = strtoull(argv[2], &end, 10);
	if (*end)
		return usage();
	if (cpulist_parse(argv[3], &pus, &n, &err) < 0) {
		perr_print(&err, stderr);
		return 2;
	}
	if (stress_measure_one(kind, pus, n, (size_t)ws, -1, &o, &ms,
			       &err) < 0) {
		perr_print(&err, stderr);
		goto out_free;
	}
	printf("%.6g %.6g %.4f\n", ms.best, ms.median, ms.spread);
	if (ms.note)
		fprintf(stderr, "stress-bw: %s\n", ms.note);
	measure_release(&ms);
	ret = 0;
out_free:
	free(pus);
	return ret;
}
