/*
 * threadsof.c - the accounting of 'pandia run --json' as lines, for
 * the shell tests:
 *
 *   threadsof FILE
 *
 * prints one line per element of threads[]:
 *   INDEX PID TID CPU START END CPU_TIME RUNQ MUTEX COND BARRIER JOIN
 *   SEM OTHER WORKER OVERLAP
 * (OVERLAP from placement.threads[], in the same order: what the
 * timed waits held beyond the thread's time off the CPU)
 * with -1 for a null index or cpu, "nan" for a null time and WORKER 1
 * or 0.  Exit status 1 when FILE is not such a result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "profiler/run.h"

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long integer(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

int main(int argc, char **argv)
{
	json_error_t e;
	json_t *root, *a, *t, *pl;
	size_t i;
	int k;

	if (argc != 2) {
		fprintf(stderr, "usage: threadsof FILE\n");
		return 2;
	}
	root = json_load_file(argv[1], 0, &e);
	if (!root) {
		fprintf(stderr, "threadsof: %s:%d: %s\n", argv[1], e.line,
			e.text);
		return 1;
	}
	a = json_object_get(root, "threads");
	if (!json_is_array(a)) {
		fprintf(stderr, "threadsof: %s: no threads[]\n", argv[1]);
		return 1;
	}
	pl = json_object_get(json_object_get(root, "placement"), "threads");
	json_array_foreach(a, i, t) {
		json_t *b = json_object_get(t, "blocked");

		printf("%lld %lld %lld %lld %.6f %.6f %.6f %.6f",
		       integer(t, "index"), integer(t, "pid"),
		       integer(t, "tid"), integer(t, "cpu"), num(t, "start"),
		       num(t, "end"), num(t, "cpu_time"),
		       num(t, "runqueue_wait"));
		for (k = 0; k < RUN_BLOCK_KINDS; k++)
			printf(" %.6f", num(b, run_block_names[k]));
		printf(" %d %.6f\n", json_is_true(json_object_get(t, "worker")),
		       num(json_array_get(pl, i), "overlap"));
	}
	json_decref(root);
	return 0;
}
