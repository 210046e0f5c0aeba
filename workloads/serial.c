/*
 * serial.c - a known serial fraction: Amdahl's p = 1 - F by
 * construction.
 *
 * The fixed total of --work units of register-only arithmetic runs in
 * --phases phases.  In each phase the threads first share the parallel
 * part, (1 - F) of the phase's work, evenly; they meet at a barrier;
 * then each takes one global lock in turn to do its share of the serial
 * part, F of the phase's work; and they meet at a barrier again.  The
 * lock makes the serial part genuinely serial (one thread at a time,
 * the others asleep) and the barriers keep it from overlapping the
 * parallel part, so on n cores the time is t1 * (F + (1 - F) / n) up
 * to the cost of 2 barriers and n lock hand-overs per phase.  The
 * serial part's work is spread over the threads, as in a program whose
 * threads update one shared structure under a lock.
 */
#include "workloads/common.h"

static long long work = 600;
static double serial = 0.25;
static long long phases = 20;

static const struct wl_opt opts[] = {
	{ "serial", WL_OPT_DOUBLE, &serial, "F",
	  "serial fraction of the work, 0 to 1" },
	{ "work", WL_OPT_INT, &work, "UNITS",
	  "total work, 10^6 iterations each" },
	{ "phases", WL_OPT_INT, &phases, "N",
	  "phases (each: parallel part, barrier, serial part, barrier)" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"serial",
	"A configurable serial fraction F: each phase's parallel part is\n"
	"split between the threads, its serial part is done under one lock.",
	"Expected: p = 1 - F exactly (Amdahl), no memory traffic; on n cores\n"
	"the time is t1 * (F + (1 - F) / n).\n",
	opts,
};

struct state {
	uint64_t par_iters;	/* per phase, all threads together */
	uint64_t ser_iters;
	long long phases;
	pthread_mutex_t lock;
	uint64_t shared;	/* updated under the lock */
	double serial_s;	/* time inside the lock, all threads */
	struct {
		uint64_t v;
	} __attribute__((aligned(WL_CACHE_LINE))) result[WL_MAX_THREADS];
};

static void body(struct wl_team *t, int id)
{
	struct state *s = t->arg;
	uint64_t plo, phi, slo, shi, acc = 0;
	long long k;

	wl_split(s->par_iters, t->n, id, &plo, &phi);
	wl_split(s->ser_iters, t->n, id, &slo, &shi);
	wl_team_start(t, id);
	for (k = 0; k < s->phases; k++) {
		acc ^= wl_compute(phi - plo, plo + k);
		wl_team_barrier(t);
		if (shi > slo) {
			double t0;

			pthread_mutex_lock(&s->lock);
			t0 = wl_now();
			s->shared ^= wl_compute(shi - slo, s->shared + slo);
			s->serial_s += wl_now() - t0;
			pthread_mutex_unlock(&s->lock);
		}
		wl_team_barrier(t);
	}
	wl_team_stop(t, id);
	s->result[id].v = acc;
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct state *s;
	double sec, total;
	int i;

	wl_parse(argc, argv, &prog, &c);
	if (!(serial >= 0 && serial <= 1))
		wl_usage_error("--serial must be between 0 and 1");
	if (work < 1 || phases < 1)
		wl_usage_error("--work and --phases must be at least 1");
	s = wl_alloc(sizeof(*s), 0);
	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->phases = phases;
	total = work * c.scale * WL_UNIT / phases;
	s->ser_iters = (uint64_t)(total * serial + 0.5);
	s->par_iters = (uint64_t)(total * (1 - serial) + 0.5);
	wl_print_header(&c);
	sec = wl_team_run(c.threads, c.cpus, body, s, c.verbose);
	for (i = 0; i < c.threads; i++)
		s->shared ^= s->result[i].v;
	printf("serial fraction: %g\n", serial);
	printf("phases: %lld\n", phases);
	printf("iterations: %llu parallel, %llu serial\n",
	       (unsigned long long)(s->par_iters * phases),
	       (unsigned long long)(s->ser_iters * phases));
	printf("amdahl speedup: %.4f\n",
	       1.0 / (serial + (1 - serial) / c.threads));
	printf("serial part: %.6f s\n", s->serial_s);
	printf("checksum: %016llx\n", (unsigned long long)s->shared);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return wl_finish(sec);
}
