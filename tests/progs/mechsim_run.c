/*
 * mechsim_run.c - where a simulated run's pages are and how its work
 * goes: the DRAM share of each thread on each node (and numa_maps
 * as the profiler reads it), the serial part, then the parallel part
 * event by event (tests/progs/mechsim.c has the rules).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "tests/lib/sim.h"
#include "tests/progs/mechsim.h"

/* ---- pages ------------------------------------------------------- */

void ms_place_pages(struct sim *s)
{
	const struct pandia_machine *m = s->m;
	const struct wl *w = s->w;
	int N = m->n_numa, i, k, nmem = 0, nuse = 0;
	double *tn = xcalloc((size_t)N + 1, sizeof(double));

	for (k = 0; k < N; k++)
		nmem += m->numa[k].memory > 0;
	if (!nmem)
		nmem = N;	/* no node says: all take pages */
	for (i = 0; i < s->n; i++)
		if (s->f[i].node >= 0)
			tn[s->f[i].node]++;
	for (k = 0; k < N; k++)
		nuse += tn[k] > 0;
	for (i = 0; i < s->n; i++) {
		double *sh = &s->share[i * N];

		for (k = 0; k < N; k++) {
			switch (w->mem) {
			case M_FIRST_TOUCH:
				/* in proportion to the threads, or (pages
				   even) evenly over the nodes in use */
				if (s->v->pages == P_EVEN)
					sh[k] = tn[k] > 0 ? 1.0 / nuse : 0;
				else
					sh[k] = tn[k] / s->n;
				break;
			case M_LOCAL:
				sh[k] = k == s->f[i].node;
				break;
			case M_INTERLEAVE:
				sh[k] = m->numa[k].memory > 0 || nmem == N ?
					1.0 / nmem : 0;
				break;
			case M_NODE:
				sh[k] = m->numa[k].os_index == w->mem_node;
				break;
			}
		}
	}
	free(tn);
}

/* The pages as /proc/PID/numa_maps shows them. */
void ms_write_numa_maps(const struct sim *s, const char *path)
{
	const struct pandia_machine *m = s->m;
	const struct wl *w = s->w;
	double pages = w->data_mib * 256;
	FILE *f = fopen(path, "w");
	int N = m->n_numa, i, k;

	if (!f)
		tk_die("cannot write '%s'", path);
	fprintf(f, "55d0c0a00000 default heap anon=33 dirty=33 N0=33 "
		"kernelpagesize_kB=4\n");
	fprintf(f, "7f10c0000000 default file=/usr/lib/libc.so.6 "
		"mapped=240 mapmax=18 N0=240 kernelpagesize_kB=4\n");
	switch (w->mem) {
	case M_LOCAL:
		for (i = 0; i < s->n; i++)
			fprintf(f, "7f%02x00000000 default anon=%.0f "
				"dirty=%.0f N%d=%.0f kernelpagesize_kB=4\n",
				0x20 + i % 0xd0, pages / s->n, pages / s->n,
				m->numa[s->f[i].node >= 0 ? s->f[i].node : 0]
				.os_index, pages / s->n);
		break;
	case M_INTERLEAVE:
		fprintf(f, "7f2000000000 interleave:0-%d anon=%.0f dirty=%.0f",
			N - 1, pages, pages);
		for (k = 0; k < N; k++)
			fprintf(f, " N%d=%.0f", m->numa[k].os_index, pages / N);
		fprintf(f, " kernelpagesize_kB=4\n");
		break;
	case M_NODE:
		fprintf(f, "7f2000000000 bind:%d anon=%.0f dirty=%.0f N%d=%.0f "
			"kernelpagesize_kB=4\n", w->mem_node, pages, pages,
			w->mem_node, pages);
		break;
	default:
		fprintf(f, "7f2000000000 default anon=%.0f dirty=%.0f", pages,
			pages);
		for (k = 0; k < N; k++)
			if (s->share[k] > 0)
				fprintf(f, " N%d=%.0f", m->numa[k].os_index,
					pages * s->share[k]);
		fprintf(f, " kernelpagesize_kB=4\n");
		break;
	}
	if (fclose(f) != 0)
		tk_die("cannot write '%s'", path);
}

/* ---- the run ----------------------------------------------------- */

/*
 * The time of the run, and each stressor's bandwidth averaged over it
 * (into RATE): the serial part on thread 0 alone, then the parallel
 * part event by event.
 */
double ms_run(struct sim *s, double *rate)
{
	const struct wl *w = s->w;
	int n = s->n, i, j, ns = s->nf - n;
	double T = 0, *left = xcalloc((size_t)n, sizeof(double));
	double pool, par = (1 - w->serial) * w->work;
	double *bw = xcalloc((size_t)ns + 1, sizeof(double));

	/* the serial part: thread 0, the others wait */
	for (i = 0; i < s->nf; i++)
		s->f[i].active = i == 0 || i >= n;
	if (w->serial > 0) {
		double r;

		ms_solve(s);
		r = ms_rate_of(&s->f[0], s->f[0].x);
		T = w->serial * w->work / r;
		for (j = 0; j < ns; j++)
			bw[j] += T * s->f[n + j].x * (s->f[n + j].level < 0 ?
				0 : s->m->links[s->f[n + j].level].per_core_bw);
	}
	/* the parallel part */
	for (i = 0; i < n; i++)
		left[i] = (1 - w->dynamic) * par / n;
	pool = w->dynamic * par;
	for (;;) {
		double dt = INFINITY, prate = 0;
		int busy = 0;

		for (i = 0; i < n; i++) {
			s->f[i].active = left[i] > 1e-12 || pool > 1e-12;
			busy += s->f[i].active;
		}
		if (!busy)
			break;
		ms_solve(s);
		for (i = 0; i < n; i++) {
			double r = ms_rate_of(&s->f[i], s->f[i].x);

			if (!s->f[i].active)
				continue;
			if (left[i] > 1e-12) {
				if (left[i] / r < dt)
					dt = left[i] / r;
			} else {
				prate += r;
			}
		}
		if (prate > 0 && pool / prate < dt)
			dt = pool / prate;
		if (!isfinite(dt))
			tk_die("no thread makes progress");
		for (i = 0; i < n; i++) {
			double r = ms_rate_of(&s->f[i], s->f[i].x);

			if (!s->f[i].active)
				continue;
			if (left[i] > 1e-12)
				left[i] -= r * dt;
			if (left[i] < 1e-9 * par)
				left[i] = 0;
		}
		pool -= prate * dt;
		if (pool < 1e-9 * par)
			pool = 0;
		for (j = 0; j < ns; j++)
			bw[j] += dt * s->f[n + j].x * (s->f[n + j].level < 0 ?
				0 : s->m->links[s->f[n + j].level].per_core_bw);
		T += dt;
	}
	for (j = 0; j < ns; j++)
		rate[j] = T > 0 ? bw[j] / T : 0;
	free(left);
	free(bw);
	return T;
}
