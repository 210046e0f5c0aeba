/*
 * balance.c - the same work under a static partition or a shared work
 * queue: the pair that separates Pandia's load-balancing factor l = 0
 * (lock-step) from l = 1 (dynamic).
 *
 * A fixed total of --work units of register-only arithmetic runs in
 * --phases phases with a barrier after each.  In a phase the work is
 * cut into --chunks equal chunks.  With --schedule static, thread i of
 * n does chunks [i*C/n, (i+1)*C/n) of every phase: a slow thread (one
 * time-sharing its PU) holds everyone up at the barrier.  With
 * --schedule dynamic, the threads take chunks one at a time from a
 * shared counter: a slow thread just takes fewer.
 *
 * At placement 0,0,1 on two cores, static needs 2/3 of the work done
 * by PU 0 per phase, dynamic lets both PUs work all the time: static
 * takes 4/3 of dynamic's time.  On dedicated cores both take the same.
 */
#include <stdatomic.h>

#include "workloads/common.h"

static long long work = 600;
static long long phases = 20;
static long long chunks = 1000;
static const char *schedule = "static";

static const struct wl_opt opts[] = {
	{ "schedule", WL_OPT_STRING, &schedule, "KIND",
	  "static (partition) or dynamic (work queue)" },
	{ "work", WL_OPT_INT, &work, "UNITS",
	  "total work, 10^6 iterations each" },
	{ "phases", WL_OPT_INT, &phases, "N",
	  "phases, a barrier after each" },
	{ "chunks", WL_OPT_INT, &chunks, "N", "chunks per phase" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"balance",
	"The same phased work under a static partition with a barrier per\n"
	"phase (--schedule static) or a shared queue of small chunks\n"
	"(--schedule dynamic).",
	"Expected: p near 1, no memory traffic; l = 0 for static, l = 1 for\n"
	"dynamic.  They differ only when threads run at different speeds,\n"
	"e.g. at 0,0,1 static takes about 4/3 of dynamic's time.\n",
	opts,
};

struct state {
	bool dynamic;
	long long phases;
	long long chunks;
	uint64_t chunk_iters;
	_Atomic long long *next;	/* per phase: next chunk to take */
	struct {
		uint64_t v;
		long long done;
	} __attribute__((aligned(WL_CACHE_LINE))) result[WL_MAX_THREADS];
};

static void body(struct wl_team *t, int id)
{
	struct state *s = t->arg;
	uint64_t acc = 0, lo, hi;
	long long k, j, base, done = 0;

	wl_split(s->chunks, t->n, id, &lo, &hi);
	wl_team_start(t, id);
	for (k = 0; k < s->phases; k++) {
		base = k * s->chunks;	/* chunk j's seed: base + j */
		if (s->dynamic) {
			while ((j = atomic_fetch_add_explicit(&s->next[k], 1,
					memory_order_relaxed)) < s->chunks) {
				acc ^= wl_compute(s->chunk_iters, base + j);
				done++;
			}
		} else {
			for (j = lo; j < (long long)hi; j++) {
				acc ^= wl_compute(s->chunk_iters, base + j);
				done++;
			}
		}
		wl_team_barrier(t);
	}
	wl_team_stop(t, id);
	s->result[id].v = acc;
	s->result[id].done = done;
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct state *s;
	uint64_t sum = 0;
	long long done = 0;
	double sec;
	int i;

	wl_parse(argc, argv, &prog, &c);
	if (work < 1 || phases < 1 || chunks < 1)
		wl_usage_error("--work, --phases and --chunks must be at "
			       "least 1");
	s = wl_alloc(sizeof(*s), 0);
	memset(s, 0, sizeof(*s));
	if (!strcmp(schedule, "dynamic"))
		s->dynamic = true;
	else if (strcmp(schedule, "static"))
		wl_usage_error("unknown schedule '%s' (static or dynamic)",
			       schedule);
	s->phases = phases;
	s->chunks = chunks;
	s->chunk_iters = (uint64_t)(work * c.scale * WL_UNIT /
				    (phases * chunks) + 0.5);
	if (!s->chunk_iters)
		s->chunk_iters = 1;
	s->next = wl_alloc(phases * sizeof(*s->next), 0);
	for (i = 0; i < phases; i++)
		atomic_init(&s->next[i], 0);
	wl_print_header(&c);
	sec = wl_team_run(c.threads, c.cpus, body, s, c.verbose);
	printf("schedule: %s\n", s->dynamic ? "dynamic" : "static");
	printf("phases: %lld\nchunks per phase: %lld\n", phases, chunks);
	printf("chunks done:");
	for (i = 0; i < c.threads; i++) {
		printf(" %lld", s->result[i].done);
		done += s->result[i].done;
		sum ^= s->result[i].v;
	}
	putchar('\n');
	printf("checksum: %016llx\n", (unsigned long long)sum);
	free((void *)s->next);
	free(s);
	if (done != phases * chunks)
		wl_die("%lld chunks done, expected %lld", done,
		       phases * chunks);
	return wl_finish(sec);
}
