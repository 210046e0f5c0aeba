/*
 * rank_fast.c - the Pandia model's fast path for a ranking (its
 * rank_fast, predictor/models.h): every canonical placement predicted
 * from the parameters in parallel, one model per worker thread, each
 * taking blocks of placements first come first served.  Each
 * prediction depends on its placement only, so the result does not
 * depend on the number of workers.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "predictor/pandia/pandia_internal.h"
#include "predictor/rank.h"

#define MAX_WORKERS 16

/* rank.c marks the placements another model predicts with it */
_Static_assert(BN_NONE == RANK_BN_NONE, "RANK_BN_NONE is BN_NONE");

/* Workers take blocks of this many placements, first come first served. */
#define BLOCK 2048

struct work {
	struct ranking *r;
	const struct model_params *prm;
	size_t *next;		/* the next block, shared */
	pthread_mutex_t *lock;
};

static bool take_block(struct work *w, size_t *from, size_t *to)
{
	size_t n = w->r->n;

	pthread_mutex_lock(w->lock);
	*from = *w->next;
	*w->next = *from + BLOCK < n ? *from + BLOCK : n;
	*to = *w->next;
	pthread_mutex_unlock(w->lock);
	return *from < *to;
}

static void *predict_range(void *arg)
{
	struct work *w = arg;
	struct ranking *r = w->r;
	struct model md;
	size_t i, from, to;

	model_init(&md, r->sp, w->prm);
	md.merge = true;
	while (take_block(w, &from, &to))
		for (i = from; i < to; i++) {
			struct rank_entry *e = &r->e[i];
			int t, c, s;

			model_time_canonical(&md, r->arena + e->st);
			space_usage(r->sp, r->arena + e->st, &t, &c, &s);
			e->time = md.time;
			e->tq = llround(log(md.time) * 1e6);
			e->speedup = md.speedup;
			e->threads = (uint16_t)t;
			e->cores = (uint16_t)c;
			e->sockets = (uint16_t)s;
			e->bott = (uint8_t)model_bottleneck_code(&md);
			e->iterations_capped = !md.converged;
		}
	model_release(&md);
	return NULL;
}

static int online_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	else
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
}

void pandia_rank_fast(struct ranking *r, const struct model_params *prm,
		      int workers)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_t tid[MAX_WORKERS];
	bool started[MAX_WORKERS];
	size_t next = 0;
	struct work w = { r, prm, &next, &lock };
	int i;

	if (workers < 1)
		workers = online_cpus();
	if (workers > MAX_WORKERS)
		workers = MAX_WORKERS;
	/* small rankings are not worth a thread */
	if ((size_t)workers > r->n / BLOCK + 1)
		workers = (int)(r->n / BLOCK + 1);
	r->workers = workers;
	for (i = 1; i < workers; i++)
		started[i] = pthread_create(&tid[i], NULL, predict_range,
					    &w) == 0;
	predict_range(&w);
	for (i = 1; i < workers; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&lock);
}
