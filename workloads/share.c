/*
 * share.c - communication-heavy sharing: every thread does atomic
 * increments on a small array of counters that all threads share.
 *
 * A fixed total of --updates updates is split evenly between the
 * threads; between two updates a thread does --local iterations of
 * private arithmetic.  The counters fill --lines cache lines, so every
 * update needs the line in the updating core's cache in exclusive
 * state: threads on different cores pass the line back and forth
 * (slower across sockets than within one), while threads time-sharing
 * one PU never do.  Adding cores makes it slower, not faster, until
 * --local is large enough to hide the transfers.
 */
#include <stdatomic.h>

#include "workloads/common.h"

#define WORDS_PER_LINE (WL_CACHE_LINE / sizeof(uint64_t))

static long long updates = 250000000;
static long long local = 2;
static long long lines = 1;

static const struct wl_opt opts[] = {
	{ "updates", WL_OPT_INT, &updates, "N",
	  "total shared updates, split between threads" },
	{ "local", WL_OPT_INT, &local, "N",
	  "private iterations between two updates" },
	{ "lines", WL_OPT_INT, &lines, "N",
	  "cache lines of shared counters" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"share",
	"Communication-heavy sharing: all threads do atomic increments on\n"
	"a few shared cache lines of counters.",
	"Expected: no DRAM traffic, dominated by cache-line transfers between\n"
	"cores: more cores make it slower (speedup below 1), threads on one\n"
	"PU or core are cheapest, threads on different sockets cost most.\n",
	opts,
};

struct state {
	uint64_t updates;
	uint64_t local;
	uint64_t words;
	_Atomic uint64_t *counters;
	struct {
		uint64_t v;
	} __attribute__((aligned(WL_CACHE_LINE))) result[WL_MAX_THREADS];
};

static void body(struct wl_team *t, int id)
{
	struct state *s = t->arg;
	uint64_t lo, hi, i, acc = 0, w = s->words;
	_Atomic uint64_t *ctr = s->counters;

	wl_split(s->updates, t->n, id, &lo, &hi);
	wl_team_start(t, id);
	for (i = lo; i < hi; i++) {
		if (s->local)
			acc ^= wl_compute(s->local, i);
		/* consecutive updates stride over the lines: i * 9 */
		atomic_fetch_add_explicit(&ctr[(i * (WORDS_PER_LINE + 1)) % w],
					  1, memory_order_relaxed);
	}
	wl_team_stop(t, id);
	s->result[id].v = acc;
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct state *s;
	uint64_t total = 0, i;
	double sec;

	wl_parse(argc, argv, &prog, &c);
	if (updates < 1 || local < 0 || lines < 1 || lines > 1 << 20)
		wl_usage_error("--updates and --lines must be at least 1, "
			       "--local at least 0");
	s = wl_alloc(sizeof(*s), 0);
	memset(s, 0, sizeof(*s));
	s->updates = (uint64_t)(updates * c.scale + 0.5);
	if (s->updates < 1)
		s->updates = 1;
	s->local = local;
	s->words = lines * WORDS_PER_LINE;
	s->counters = wl_alloc(s->words * sizeof(*s->counters), 0);
	for (i = 0; i < s->words; i++)
		atomic_init(&s->counters[i], 0);
	wl_print_header(&c);
	sec = wl_team_run(c.threads, c.cpus, body, s, c.verbose);
	for (i = 0; i < s->words; i++)
		total += atomic_load(&s->counters[i]);
	printf("updates: %llu\n", (unsigned long long)s->updates);
	printf("shared lines: %lld\n", lines);
	printf("local iterations: %lld\n", local);
	printf("check: %s\n", total == s->updates ? "ok" : "WRONG");
	printf("rate: %.1f M updates/s\n", s->updates / sec / 1e6);
	if (total != s->updates)
		wl_die("counters sum to %llu, expected %llu",
		       (unsigned long long)total,
		       (unsigned long long)s->updates);
	free((void *)s->counters);
	free(s);
	return wl_finish(sec);
}
