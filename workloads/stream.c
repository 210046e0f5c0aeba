/*
 * stream.c - DRAM-bandwidth-bound streaming: the STREAM triad
 * a[i] = b[i] + s * c[i] over three arrays far larger than the last
 * level cache.
 *
 * Each thread owns a contiguous slice of the three arrays (touched
 * first by that thread, so on a NUMA machine it lies on the thread's
 * node) and runs --passes triads over it with no synchronisation.  The
 * total bytes moved do not depend on the thread count.  Its time is
 * set by the DRAM bandwidth the threads get: it scales until DRAM is
 * saturated, then not at all.
 */
#include "workloads/common.h"

static long long mib = 64;
static long long passes = 200;

static const struct wl_opt opts[] = {
	{ "mib", WL_OPT_INT, &mib, "MIB", "size of each of the 3 arrays" },
	{ "passes", WL_OPT_INT, &passes, "N",
	  "triads over the arrays (the work)" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"stream",
	"DRAM-bandwidth-bound: the STREAM triad a = b + s*c over three arrays\n"
	"of --mib MiB each, every thread streaming its own slice.",
	"Expected: p near 1, demand = 32 bytes per element per pass (two\n"
	"reads, one write and its write-allocate read) at the DRAM; speedup\n"
	"stops where the threads saturate the memory bandwidth.\n",
	opts,
};

struct state {
	double *a, *b, *c;
	uint64_t n;
	long long passes;
	double last_s;
	double sum[WL_MAX_THREADS];
};

static void body(struct wl_team *t, int id)
{
	struct state *st = t->arg;
	uint64_t lo, hi, i;
	long long k;
	double sum = 0;

	wl_split(st->n, t->n, id, &lo, &hi);
	for (i = lo; i < hi; i++) {
		st->a[i] = 0;
		st->b[i] = 1;
		st->c[i] = 2;
	}
	wl_team_start(t, id);
	for (k = 0; k < st->passes; k++) {
		wl_triad(st->a + lo, st->b + lo, st->c + lo, 1.0 + k, hi - lo);
		wl_clobber();
	}
	wl_team_stop(t, id);
	for (i = lo; i < hi; i++)
		sum += st->a[i];
	st->sum[id] = sum;
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct state st;
	double sec, sum = 0, expect, bytes;
	size_t size;
	int i;

	wl_parse(argc, argv, &prog, &c);
	if (mib < 1 || mib > (1LL << 30))
		wl_usage_error("--mib must be between 1 and 2^30");
	if (passes < 1)
		wl_usage_error("--passes must be at least 1");
	memset(&st, 0, sizeof(st));
	st.passes = (long long)(passes * c.scale + 0.5);
	if (st.passes < 1)
		st.passes = 1;
	size = (size_t)mib << 20;
	st.n = size / sizeof(double);
	/* one block; offsets of 192 bytes keep a[i], b[i], c[i] off the
	 * same 4 KiB alias */
	st.a = wl_alloc(3 * size + 384, 2 << 20);
	st.b = st.a + st.n + 24;
	st.c = st.b + st.n + 24;
	st.last_s = 1.0 + (st.passes - 1);
	wl_print_header(&c);
	sec = wl_team_run(c.threads, c.cpus, body, &st, c.verbose);
	for (i = 0; i < c.threads; i++)
		sum += st.sum[i];
	expect = (1.0 + 2.0 * st.last_s) * st.n;
	bytes = 32.0 * st.n * st.passes;
	printf("arrays: 3 x %lld MiB\n", mib);
	printf("passes: %lld\n", st.passes);
	printf("check: %s\n", sum == expect ? "ok" : "WRONG");
	printf("bandwidth: %.2f GB/s (32 bytes per element)\n",
	       bytes / sec / 1e9);
	free(st.a);
	if (sum != expect)
		wl_die("wrong result: sum %g, expected %g", sum, expect);
	return wl_finish(sec);
}
