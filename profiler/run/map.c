/*
 * map.c - where a run's threads ran (run.h, --map): samples of each
 * thread's PU and CPU time folded into its time on every PU, its share
 * there and its migrations, and the map as JSON.  Pure: the samples
 * are read from /proc by map_sample.c.
 */
#include "profiler/run/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

struct run_map *run_map_new(double period)
{
	struct run_map *m = xcalloc(1, sizeof(*m));

	m->period = period;
	return m;
}

void run_map_free(struct run_map *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->n_threads; i++)
		free(m->threads[i].pus);
	free(m->threads);
	free(m);
}

static struct run_map_thread *map_thread(struct run_map *m, int pid,
					 int tid)
{
	struct run_map_thread *t;
	int i;

	for (i = m->n_threads - 1; i >= 0; i--)
		if (m->threads[i].tid == tid && m->threads[i].pid == pid)
			return &m->threads[i];
	m->threads = xrealloc(m->threads, sizeof(*m->threads) *
			      (size_t)(m->n_threads + 1));
	t = &m->threads[m->n_threads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->index = -1;
	t->last_cpu = NAN;
	t->last_pu = -1;
	t->nr_migrations = -1;
	t->migrations = -1;
	t->kernel = true;	/* until a sample lacks the count */
	return t;
}

static void add_time(struct run_map_thread *t, int pu, double secs)
{
	int i;

	for (i = 0; i < t->n_pus && t->pus[i].pu != pu; i++)
		;
	if (i == t->n_pus) {
		t->pus = xrealloc(t->pus, sizeof(*t->pus) *
				  (size_t)(t->n_pus + 1));
		t->pus[i] = (struct run_map_pu){ .pu = pu };
		t->n_pus++;
	}
	t->pus[i].seconds += secs;
	t->seconds += secs;
}

void run_map_add(struct run_map *m, const struct run_map_sample *s)
{
	struct run_map_thread *t;
	double gained;

	if (s->pu < 0 || !isfinite(s->cpu))
		return;
	t = map_thread(m, s->pid, s->tid);
	gained = isnan(t->last_cpu) ? s->cpu : s->cpu - t->last_cpu;
	if (gained < 0)		/* a tid used again: a new thread */
		gained = s->cpu;
	add_time(t, s->pu, gained);
	if (t->last_pu >= 0 && t->last_pu != s->pu)
		t->changes++;
	t->last_pu = s->pu;
	t->last_cpu = s->cpu;
	if (s->migrations >= 0)
		t->nr_migrations = s->migrations;
	else
		t->kernel = false;
}

static int cmp_pu_time(const void *a, const void *b)
{
	const struct run_map_pu *x = a, *y = b;

	if (x->seconds != y->seconds)
		return x->seconds < y->seconds ? 1 : -1;
	return (x->pu > y->pu) - (x->pu < y->pu);
}

static int cmp_map_thread(const void *a, const void *b)
{
	const struct run_map_thread *x = a, *y = b;
	unsigned xi = (unsigned)x->index, yi = (unsigned)y->index;

	if (xi != yi)
		return (xi > yi) - (xi < yi);	/* -1 last */
	return (x->tid > y->tid) - (x->tid < y->tid);
}

void run_map_finish(struct run_map *m)
{
	int i, k;

	for (i = 0; i < m->n_threads; i++) {
		struct run_map_thread *t = &m->threads[i];

		if (t->n_pus > 1)
			qsort(t->pus, (size_t)t->n_pus, sizeof(*t->pus),
			      cmp_pu_time);
		for (k = 0; k < t->n_pus; k++)
			t->pus[k].share = t->seconds > 0 ?
				t->pus[k].seconds / t->seconds :
				1.0 / t->n_pus;
		t->kernel = t->kernel && t->nr_migrations >= 0;
		t->migrations = t->kernel ? t->nr_migrations : t->changes;
	}
	if (m->n_threads > 1)
		qsort(m->threads, (size_t)m->n_threads, sizeof(*m->threads),
		      cmp_map_thread);
}

const char *run_map_source(const struct run_map *m)
{
	int i, kernel = 0;

	for (i = 0; i < m->n_threads; i++)
		kernel += m->threads[i].kernel;
	if (!m->n_threads)
		return "none";
	if (kernel == m->n_threads)
		return "kernel";
	return kernel ? "mixed" : "samples";
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int run_map_pus(const struct run_map *m, int **pus)
{
	int *v = NULL, n = 0, i, k, j;

	for (i = 0; i < m->n_threads; i++)
		for (k = 0; k < m->threads[i].n_pus; k++) {
			int pu = m->threads[i].pus[k].pu;

			for (j = 0; j < n && v[j] != pu; j++)
				;
			if (j < n)
				continue;
			v = xrealloc(v, sizeof(int) * (size_t)(n + 1));
			v[n++] = pu;
		}
	if (n > 1)
		qsort(v, (size_t)n, sizeof(int), cmp_int);
	*pus = v;
	return n;
}

/* seconds of thread t on PU; 0 when it never ran there */
static double time_on(const struct run_map_thread *t, int pu)
{
	int k;

	for (k = 0; k < t->n_pus; k++)
		if (t->pus[k].pu == pu)
			return t->pus[k].seconds;
	return 0;
}

static const struct run_map *cmp_map;
static int cmp_pu;

static int cmp_on_pu(const void *a, const void *b)
{
	const struct run_map_thread *x = &cmp_map->threads[*(const int *)a];
	const struct run_map_thread *y = &cmp_map->threads[*(const int *)b];
	double tx = time_on(x, cmp_pu), ty = time_on(y, cmp_pu);

	if (tx != ty)
		return tx < ty ? 1 : -1;
	return (*(const int *)a > *(const int *)b) -
	       (*(const int *)a < *(const int *)b);
}

int run_map_on_pu(const struct run_map *m, int pu, int **idx,
		  double **secs)
{
	int *v = xcalloc((size_t)m->n_threads + 1, sizeof(int)), n = 0, i;

	for (i = 0; i < m->n_threads; i++) {
		const struct run_map_thread *t = &m->threads[i];
		int k;

		for (k = 0; k < t->n_pus && t->pus[k].pu != pu; k++)
			;
		if (k < t->n_pus)
			v[n++] = i;
	}
	cmp_map = m;
	cmp_pu = pu;
	if (n > 1)
		qsort(v, (size_t)n, sizeof(int), cmp_on_pu);
	if (secs) {
		*secs = xcalloc((size_t)n + 1, sizeof(double));
		for (i = 0; i < n; i++)
			(*secs)[i] = time_on(&m->threads[v[i]], pu);
	}
	*idx = v;
	return n;
}

static json_t *thread_json(const struct run_map_thread *t)
{
	json_t *o = json_object(), *a = json_array();
	int k;

	for (k = 0; k < t->n_pus; k++) {
		json_t *p = json_object();

		json_object_set_new(p, "pu", json_integer(t->pus[k].pu));
		json_object_set_new(p, "share", json_real(t->pus[k].share));
		json_object_set_new(p, "seconds",
				    json_real(t->pus[k].seconds));
		json_array_append_new(a, p);
	}
	json_object_set_new(o, "tid", json_integer(t->tid));
	json_object_set_new(o, "pid", json_integer(t->pid));
	json_object_set_new(o, "index", t->index < 0 ? json_null() :
			    json_integer(t->index));
	json_object_set_new(o, "role", json_string(t->worker ? "worker" :
						   "helper"));
	json_object_set_new(o, "seconds", json_real(t->seconds));
	json_object_set_new(o, "pus", a);
	json_object_set_new(o, "migrations", json_integer(t->migrations));
	json_object_set_new(o, "migrations_source",
			    json_string(t->kernel ? "kernel" : "samples"));
	return o;
}

static json_t *pu_json(const struct run_map *m, int pu)
{
	json_t *o = json_object(), *a = json_array();
	double *secs;
	int *idx, n, i;

	n = run_map_on_pu(m, pu, &idx, &secs);
	for (i = 0; i < n; i++) {
		const struct run_map_thread *t = &m->threads[idx[i]];
		json_t *x = json_object();

		json_object_set_new(x, "tid", json_integer(t->tid));
		json_object_set_new(x, "index", t->index < 0 ? json_null() :
				    json_integer(t->index));
		json_object_set_new(x, "seconds", json_real(secs[i]));
		json_object_set_new(x, "share", json_real(t->seconds > 0 ?
					secs[i] / t->seconds : 0));
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "pu", json_integer(pu));
	json_object_set_new(o, "threads", a);
	free(idx);
	free(secs);
	return o;
}

json_t *run_map_to_json(const struct run_map *m)
{
	json_t *o = json_object(), *th = json_array(), *pa = json_array();
	int *pus, n, i;

	for (i = 0; i < m->n_threads; i++)
		json_array_append_new(th, thread_json(&m->threads[i]));
	n = run_map_pus(m, &pus);
	for (i = 0; i < n; i++)
		json_array_append_new(pa, pu_json(m, pus[i]));
	free(pus);
	json_object_set_new(o, "period", json_real(m->period));
	json_object_set_new(o, "samples", json_integer(m->samples));
	json_object_set_new(o, "migrations_source",
			    json_string(run_map_source(m)));
	json_object_set_new(o, "threads", th);
	json_object_set_new(o, "pus", pa);
	return o;
}
