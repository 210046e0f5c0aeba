/*
 * defaults.c - what users get without pandia, in one place for
 * 'pandia predict' and 'pandia validate' (predictor/defaults.h).
 */
#include "predictor/defaults.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

int defaults_omp_places(const struct pandia_machine *m, int *places)
{
	char *done = xcalloc((size_t)m->n_cores + 1, 1);
	int n = 0, i, j;

	for (i = 0; i < m->n_pus; i++) {
		const struct pandia_core *c = &m->cores[m->pus[i].core];

		if (done[m->pus[i].core])
			continue;
		done[m->pus[i].core] = 1;
		for (j = 0; j < c->n_pus; j++)
			places[n++] = c->pus[j];
	}
	free(done);
	return n;
}

void defaults_omp_bind(const int *places, int p, int n, bool spread,
		       int *out)
{
	int i, pos, k, s, rest;

	if (n < 1 || p < 1)
		return;
	if (spread && n <= p) {
		s = p / n;
		rest = p % n;
		for (i = 0, pos = 0; i < n; i++) {
			out[i] = places[pos];
			pos += s + (i < rest);
		}
		return;
	}
	/* close, and spread beyond P threads: libgomp's team.c loop */
	s = n > p ? n / p : 1;
	rest = n > p ? n % p : 0;
	pos = 0;
	k = 1;
	out[0] = places[0];
	for (i = 1; i < n; i++) {
		if (k == s) {
			pos = (pos + 1) % p;
			k = 1;
			if (i == n - rest)
				s = 1;
		} else {
			k++;
		}
		out[i] = places[pos];
	}
}

void defaults_sweep_order(const struct pandia_machine *m, bool spread,
			  int *order)
{
	int n = 0, s, c, j, maxc = 0, maxp = 0;

	if (!spread) {
		for (s = 0; s < m->n_sockets; s++)
			for (c = 0; c < m->sockets[s].n_cores; c++) {
				const struct pandia_core *co =
					&m->cores[m->sockets[s].cores[c]];

				for (j = 0; j < co->n_pus; j++)
					order[n++] = co->pus[j];
			}
		return;
	}
	for (s = 0; s < m->n_sockets; s++) {
		if (m->sockets[s].n_cores > maxc)
			maxc = m->sockets[s].n_cores;
		for (c = 0; c < m->sockets[s].n_cores; c++)
			if (m->cores[m->sockets[s].cores[c]].n_pus > maxp)
				maxp = m->cores[m->sockets[s].cores[c]].n_pus;
	}
	for (j = 0; j < maxp; j++)
		for (c = 0; c < maxc; c++)
			for (s = 0; s < m->n_sockets; s++) {
				const struct pandia_core *co;

				if (c >= m->sockets[s].n_cores)
					continue;
				co = &m->cores[m->sockets[s].cores[c]];
				if (j < co->n_pus)
					order[n++] = co->pus[j];
			}
}

void defaults_placement(const struct pandia_machine *m,
			enum default_kind kind, int n, int *out)
{
	int P = m->n_pus, *places, i;

	if (n < 1)
		return;
	if (kind == DEF_UNPINNED && n == P) {
		/* every PU, one thread each: the OS's whole machine */
		for (i = 0; i < P; i++)
			out[i] = i;
		return;
	}
	places = xcalloc((size_t)P + 1, sizeof(int));
	defaults_omp_places(m, places);
	/* fewer threads unpinned: predicted where close would put them */
	defaults_omp_bind(places, P, n, kind == DEF_SPREAD, out);
	free(places);
}

const char *defaults_name(enum default_kind kind, int n, int n_pus,
			  char *buf, size_t size)
{
	const char *s = n == 1 ? "" : "s";

	switch (kind) {
	case DEF_UNPINNED:
		if (n == n_pus)
			snprintf(buf, size, "all PUs, unpinned (OS scheduler)");
		else
			snprintf(buf, size, "unpinned, %d thread%s", n, s);
		break;
	case DEF_CLOSE:
		if (n == n_pus)
			snprintf(buf, size, "OMP_PROC_BIND=close");
		else
			snprintf(buf, size, "OMP_PROC_BIND=close, %d thread%s",
				 n, s);
		break;
	default:
		if (n == n_pus)
			snprintf(buf, size, "OMP_PROC_BIND=spread");
		else
			snprintf(buf, size, "OMP_PROC_BIND=spread, %d "
				 "thread%s", n, s);
		break;
	}
	return buf;
}
