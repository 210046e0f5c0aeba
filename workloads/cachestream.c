/*
 * cachestream.c - cache-resident streaming: the triad a = b + s*c over
 * three small private arrays per thread, repeated many times.
 *
 * Each thread has its own arrays of --kib KiB in all (default 384 KiB,
 * inside a 512 KiB L2), touched first by itself; the fixed total of
 * --passes passes is split between the threads.  So the working set
 * per thread stays in the cache it was sized for and the time is set
 * by that cache's bandwidth per core: it scales with cores, and
 * threads sharing a core share its cache bandwidth and capacity (two
 * 384 KiB sets do not both fit in one 512 KiB L2).  Set --kib to a few
 * MiB to make it L3-resident instead.
 */
#include "workloads/common.h"

static long long kib = 384;
static long long passes = 250000;

static const struct wl_opt opts[] = {
	{ "kib", WL_OPT_INT, &kib, "KIB",
	  "working set per thread (3 arrays)" },
	{ "passes", WL_OPT_INT, &passes, "N",
	  "total passes, split between threads" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"cachestream",
	"Cache-resident streaming: the triad a = b + s*c over private arrays\n"
	"of --kib KiB per thread (L2-sized by default), repeated.",
	"Expected: p near 1, no DRAM traffic, demand on the per-core cache\n"
	"bandwidth (L2 by default); speedup = cores used, unless threads\n"
	"sharing a core overflow its cache.\n",
	opts,
};

struct slot {
	double sum;
	long long passes;
} __attribute__((aligned(WL_CACHE_LINE)));

struct state {
	uint64_t n;		/* elements per array per thread */
	long long passes;
	struct slot out[WL_MAX_THREADS];
};

static void body(struct wl_team *t, int id)
{
	struct state *st = t->arg;
	uint64_t lo, hi, i, n = st->n;
	double *a, *b, *c, sum = 0;
	long long k;

	wl_split(st->passes, t->n, id, &lo, &hi);
	/* offsets of 192 bytes keep a[i], b[i], c[i] off the same 4 KiB
	 * alias (which would stall loads behind stores) */
	a = wl_alloc((3 * n + 48) * sizeof(double), 4096);
	b = a + n + 24;
	c = b + n + 24;
	for (i = 0; i < n; i++) {
		a[i] = 0;
		b[i] = 1;
		c[i] = 2;
	}
	wl_team_start(t, id);
	for (k = lo; k < (long long)hi; k++) {
		wl_triad(a, b, c, 1.0 + (k & 1023), n);
		wl_clobber();
	}
	wl_team_stop(t, id);
	for (i = 0; i < n; i++)
		sum += a[i];
	st->out[id].sum = sum;
	st->out[id].passes = hi - lo;
	free(a);
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct state *st;
	double sec, bytes;
	int i, bad = 0;

	wl_parse(argc, argv, &prog, &c);
	if (kib < 3 || kib > (1LL << 24))
		wl_usage_error("--kib must be between 3 and 2^24");
	if (passes < 1)
		wl_usage_error("--passes must be at least 1");
	st = wl_alloc(sizeof(*st), 0);
	memset(st, 0, sizeof(*st));
	st->n = ((uint64_t)kib << 10) / 3 / sizeof(double);
	st->passes = (long long)(passes * c.scale + 0.5);
	if (st->passes < 1)
		st->passes = 1;
	wl_print_header(&c);
	sec = wl_team_run(c.threads, c.cpus, body, st, c.verbose);
	/* a thread's last pass k leaves a = 1 + 2 * (1 + (k & 1023)) */
	for (i = 0; i < c.threads; i++) {
		uint64_t lo, hi;
		double expect;

		wl_split(st->passes, c.threads, i, &lo, &hi);
		expect = hi > lo ? (1.0 + 2.0 * (1.0 + ((hi - 1) & 1023))) *
			 st->n : 0;
		if (st->out[i].sum != expect)
			bad = 1;
	}
	bytes = 24.0 * st->n * st->passes;
	printf("working set: %lld KiB per thread\n", kib);
	printf("passes: %lld\n", st->passes);
	printf("check: %s\n", bad ? "WRONG" : "ok");
	printf("bandwidth: %.2f GB/s (24 bytes per element)\n",
	       bytes / sec / 1e9);
	free(st);
	if (bad)
		wl_die("wrong result");
	return wl_finish(sec);
}
