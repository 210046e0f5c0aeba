/*
 * compute.c - compute-bound and perfectly parallel.
 *
 * A fixed total of --work units (one unit is 10^6 iterations of four
 * multiply-xorshift chains held in registers) is split evenly between
 * the threads, which never synchronise until the end.  No memory
 * traffic: p is 1 up to the thread start and join, the only demand is
 * the core's integer multiplier.  Two threads on two cores take half
 * the time of one; two threads time-sharing one PU take as long as one.
 */
#include "workloads/common.h"

static long long work = 600;

static const struct wl_opt opts[] = {
	{ "work", WL_OPT_INT, &work, "UNITS",
	  "total work, 10^6 iterations each" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"compute",
	"Compute-bound, perfectly parallel: a fixed amount of register-only\n"
	"arithmetic split evenly between the threads.",
	"Expected: p = 1, no memory traffic, speedup = number of cores used;\n"
	"threads sharing a PU share its time.\n",
	opts,
};

struct state {
	uint64_t iters;
	struct {
		uint64_t v;
	} __attribute__((aligned(WL_CACHE_LINE))) result[WL_MAX_THREADS];
};

static void body(struct wl_team *t, int id)
{
	struct state *s = t->arg;
	uint64_t lo, hi;

	wl_split(s->iters, t->n, id, &lo, &hi);
	wl_team_start(t, id);
	s->result[id].v = wl_compute(hi - lo, lo);
	wl_team_stop(t, id);
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct state *s;
	uint64_t sum = 0;
	double sec;
	int i;

	wl_parse(argc, argv, &prog, &c);
	if (work < 1)
		wl_usage_error("--work must be at least 1");
	s = wl_alloc(sizeof(*s), 0);
	s->iters = (uint64_t)(work * c.scale * WL_UNIT);
	if (s->iters < (uint64_t)c.threads)
		s->iters = c.threads;
	wl_print_header(&c);
	sec = wl_team_run(c.threads, c.cpus, body, s, c.verbose);
	for (i = 0; i < c.threads; i++)
		sum ^= s->result[i].v;
	printf("iterations: %llu\n", (unsigned long long)s->iters);
	printf("checksum: %016llx\n", (unsigned long long)sum);
	printf("rate: %.1f Miter/s\n", s->iters / sec / 1e6);
	free(s);
	return wl_finish(sec);
}
