/*
 * profile_pages.c - first-touched pages: in proportion to each
 * socket's threads (spread), or evenly over the nodes in use (even)?
 *
 * Run 3 puts as many threads on each of two sockets, so both rules put
 * half the pages on each node there.  A check run uneven over the
 * sockets (every core of one socket and one of another) tells them
 * apart: its pages show which share the loaded socket's node holds
 * (docs/profiling.md, "Where the memory is").
 */
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "profiler/numamaps.h"
#include "profiler/profile_internal.h"

/* A socket's node (OS index), or -1. */
static int socket_node(const struct pandia_machine *m, int s)
{
	int j;

	for (j = 0; j < m->n_numa; j++)
		if (m->numa[j].socket == s && m->numa[j].os_index >= 0 &&
		    m->numa[j].os_index < NM_MAX_NODES)
			return m->numa[j].os_index;
	return -1;
}

/*
 * Run R's threads per socket into T (n_sockets entries); the sockets
 * in use, or 0 when a PU is not on the machine.
 */
static int threads_per_socket(const struct pandia_machine *m,
			      const struct prun *R, int *t)
{
	int i, used = 0;

	for (i = 0; i < m->n_sockets; i++)
		t[i] = 0;
	for (i = 0; i < R->n_cpus; i++) {
		int pu = machine_pu_index(m, R->cpus[i]);

		if (pu < 0)
			return 0;
		t[m->cores[m->pus[pu].core].socket]++;
	}
	for (i = 0; i < m->n_sockets; i++)
		used += t[i] > 0;
	return used;
}

/*
 * The share of R's first-touched (anonymous, default-policy) bytes on
 * the node of socket S, among the nodes of the sockets in use; NAN
 * when the pages cannot be read or no node holds them.
 */
static double node_share(const struct pandia_machine *m,
			 const struct prun *R, const int *t, int s)
{
	struct pandia_error e;
	struct nm_map *maps = NULL;
	double on = 0, all = 0;
	int n = 0, i, k, node = socket_node(m, s);

	if (node < 0 || numamaps_parse(R->numa_maps, &maps, &n, &e) < 0)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!maps[i].anon || maps[i].policy != NM_POL_DEFAULT)
			continue;
		for (k = 0; k < m->n_sockets; k++) {
			int nk = socket_node(m, k);

			if (t[k] > 0 && nk >= 0)
				all += maps[i].on[nk];
		}
		on += maps[i].on[node];
	}
	free(maps);
	return all > 0 ? on / all : NAN;
}

json_t *prof_even_pages(const struct prof *P)
{
	const struct pandia_machine *m = P->m;
	int *t = calloc((size_t)m->n_sockets + 1, sizeof(int));
	json_t *o = NULL;
	int i, s;

	for (i = 0; t && i < P->n_runs && !o; i++) {
		const struct prun *R = &P->runs[i];
		double share, spread, even;
		int used, most = 0, least = 1 << 30;

		if (!R->optional || !R->numa_maps)
			continue;
		used = threads_per_socket(m, R, t);
		if (used < 2)
			continue;
		for (s = 0; s < m->n_sockets; s++) {
			if (t[s] > t[most])
				most = s;
			if (t[s] > 0 && t[s] < least)
				least = t[s];
		}
		/* uneven enough that the two rules differ clearly */
		if (t[most] < 2 * least)
			continue;
		share = node_share(m, R, t, most);
		if (isnan(share))
			continue;
		spread = (double)t[most] / R->n_cpus;
		even = 1.0 / used;
		if (fabs(share - even) >= fabs(share - spread))
			break;
		o = json_object();
		json_object_set_new(o, "run", json_string(R->id));
		json_object_set_new(o, "loaded_node_share", json_real(share));
		json_object_set_new(o, "by_threads", json_real(spread));
		json_object_set_new(o, "even", json_real(even));
	}
	free(t);
	return o;
}
