/*
 * chase.c - dependent random loads: pointer chasing around one random
 * cycle through an array far larger than the last level cache.
 *
 * The array of --mib MiB holds 32-bit indexes forming a single cycle
 * that visits every entry in a pseudo-random order (entry pos(i) points
 * to pos(i+1), pos a bijection made of multiplications and shifts, so
 * no prefetcher can follow it and building it costs one pass of
 * scattered writes, not a shuffle).  Each load's address is the value
 * of the previous one, so a thread has one miss in flight: its speed
 * is the memory latency, and the bandwidth it uses is small.  The
 * fixed total of --steps loads is split between the threads, each
 * starting at its own point of the cycle.  It scales with cores until
 * the memory system runs out of outstanding-miss slots; threads sharing
 * a PU do not overlap their misses.
 */
#include "workloads/common.h"

static long long mib = 256;
static long long steps = 9000000;
static long long seed = 7;

static const struct wl_opt opts[] = {
	{ "mib", WL_OPT_INT, &mib, "MIB", "array size (a power of 2 is used)" },
	{ "steps", WL_OPT_INT, &steps, "N",
	  "total dependent loads, split between threads" },
	{ "seed", WL_OPT_INT, &seed, "N", "seed of the random cycle" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"chase",
	"Latency-bound: dependent random loads around one random cycle\n"
	"through an array of --mib MiB.",
	"Expected: p near 1, one cache miss in flight per thread, so the time\n"
	"is steps x memory latency / threads on separate cores; little\n"
	"bandwidth (64 bytes per step); threads sharing a PU gain nothing.\n",
	opts,
};

struct state {
	uint32_t *next;
	unsigned bits;
	uint64_t n;
	uint64_t steps;
	uint64_t k1, k2;	/* odd multipliers of pos() */
	struct {
		uint64_t end;
	} __attribute__((aligned(WL_CACHE_LINE))) result[WL_MAX_THREADS];
};

/* A bijection on [0, 2^bits): odd multiplications and xor-shifts. */
static inline uint64_t pos(const struct state *s, uint64_t i)
{
	uint64_t m = s->n - 1;
	unsigned h = (s->bits + 1) / 2;

	i = (i * s->k1) & m;
	i ^= i >> h;
	i = (i * s->k2) & m;
	i ^= i >> h;
	return i;
}

static void body(struct wl_team *t, int id)
{
	struct state *s = t->arg;
	uint64_t lo, hi, i, slo, shi, p;
	const uint32_t *next = s->next;

	/* build this thread's share of the cycle (scattered first touch) */
	wl_split(s->n, t->n, id, &lo, &hi);
	for (i = lo; i < hi; i++)
		s->next[pos(s, i)] = (uint32_t)pos(s, (i + 1) & (s->n - 1));
	wl_split(s->steps, t->n, id, &slo, &shi);
	/* thread id starts at cycle position id * n / threads */
	p = pos(s, lo);
	wl_team_start(t, id);
	for (i = slo; i < shi; i++)
		p = next[p];
	wl_team_stop(t, id);
	s->result[id].end = p;
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct state *s;
	double sec;
	int i, bad = 0;

	wl_parse(argc, argv, &prog, &c);
	if (mib < 1 || mib > 16384)
		wl_usage_error("--mib must be between 1 and 16384");
	if (steps < 1)
		wl_usage_error("--steps must be at least 1");
	s = wl_alloc(sizeof(*s), 0);
	memset(s, 0, sizeof(*s));
	s->bits = 1;
	while (((uint64_t)4 << (s->bits + 1)) <= ((uint64_t)mib << 20))
		s->bits++;
	s->n = (uint64_t)1 << s->bits;
	s->steps = (uint64_t)(steps * c.scale + 0.5);
	if (s->steps < 1)
		s->steps = 1;
	s->k1 = wl_mix64(seed) | 1;
	s->k2 = wl_mix64(seed + 1) | 1;
	s->next = wl_alloc(s->n * sizeof(*s->next), 2 << 20);
	wl_print_header(&c);
	sec = wl_team_run(c.threads, c.cpus, body, s, c.verbose);
	/* thread i must end (its steps) positions after its start */
	for (i = 0; i < c.threads; i++) {
		uint64_t lo, hi, slo, shi;

		wl_split(s->n, c.threads, i, &lo, &hi);
		wl_split(s->steps, c.threads, i, &slo, &shi);
		if (s->result[i].end != pos(s, (lo + shi - slo) & (s->n - 1)))
			bad = 1;
	}
	printf("array: %.0f MiB (%llu entries)\n", s->n * 4.0 / (1 << 20),
	       (unsigned long long)s->n);
	printf("steps: %llu\n", (unsigned long long)s->steps);
	printf("check: %s\n", bad ? "WRONG" : "ok");
	printf("latency: %.1f ns per step per thread\n",
	       sec * 1e9 * c.threads / s->steps);
	free(s->next);
	free(s);
	if (bad)
		wl_die("wrong result: the chase did not follow the cycle");
	return wl_finish(sec);
}
