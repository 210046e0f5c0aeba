/*
 * profile_describe.c - the workload description from the runs: the
 * command and machine it was profiled on, every run as evidence, and
 * the memory policy (--memory, or what the pages of run 3 showed).
 */
#include "profiler/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/numamaps.h"
#include "profiler/profile_internal.h"

#ifndef PANDIA_VERSION
#define PANDIA_VERSION "unknown"
#endif

/* The median of the known of V's N rates as counter NAME, if any. */
static void add_known_rate(struct wl_run *wr, const char *name,
			   const double *v, int n)
{
	double m = v ? median_known(v, n) : NAN;

	if (isfinite(m))
		wl_run_add_counter(wr, name, m);
}

/* R as evidence in the description. */
static void record_run(const struct prun *R, struct wl_run *wr)
{
	int i;

	wr->id = xstrdup(R->id);
	wr->purpose = xstrdup(R->purpose);
	wr->n_cpus = R->n_cpus;
	wr->cpus = xmalloc(sizeof(int) * (size_t)R->n_cpus);
	memcpy(wr->cpus, R->cpus, sizeof(int) * (size_t)R->n_cpus);
	wr->n_stress = R->n_stress;
	wr->stress = xcalloc((size_t)R->n_stress + 1, sizeof(char *));
	for (i = 0; i < R->n_stress; i++)
		wr->stress[i] = xstrdup(R->spec[i]);
	wr->n_times = R->n_times;
	wr->times = xcalloc((size_t)R->n_times + 1, sizeof(double));
	if (R->n_times)
		memcpy(wr->times, R->times, sizeof(double) *
		       (size_t)R->n_times);
	wr->has_size = !isnan(R->size);
	wr->size = wr->has_size ? R->size : 0;
	if (R->count_cpu && R->cpu_wall > 0) {
		wl_run_add_counter(wr, "cpu_seconds", R->cpu);
		wl_run_add_counter(wr, "cpus_busy", R->cpu / R->cpu_wall);
		if (R->cpu_timed > 0)
			wl_run_add_counter(wr, "cpu_timed_seconds",
					   R->cpu_timed);
	}
	if (R->probe) {
		wl_run_add_counter(wr, "probe_bytes_per_s",
			    median_known(R->rates, R->n_times));
		add_known_rate(wr, "probe_alone_bytes_per_s", R->alone,
			       R->n_times);
		add_known_rate(wr, "probe_after_bytes_per_s", R->after,
			       R->n_times);
	}
	if (R->threads_created >= 0 && R->threads > 0) {
		/* the model's threads are the workers */
		wl_run_add_counter(wr, "threads_seen", R->threads);
		wl_run_add_counter(wr, "workers_at_once", R->most_workers);
	}
	if (R->redone)
		wl_run_add_counter(wr, "disturbed_repeated", R->redone);
	if (R->disturbed)
		wl_run_add_counter(wr, "disturbed_kept", R->disturbed);
}

void prof_identity(struct prof *P, struct pandia_workload *w)
{
	const struct pandia_machine *m = P->m;
	char *const *a;
	int i;

	for (a = P->o->argv; a && *a; a++)
		w->n_command++;
	w->command = xcalloc((size_t)w->n_command + 1, sizeof(char *));
	for (i = 0; i < w->n_command; i++)
		w->command[i] = xstrdup(P->o->argv[i]);
	w->host = m->host ? xstrdup(m->host) : NULL;
	w->cpu_model = m->cpu_model ? xstrdup(m->cpu_model) : NULL;
	w->n_pus = m->n_pus;
	w->pus = xmalloc(sizeof(int) * (size_t)(m->n_pus ? m->n_pus : 1));
	for (i = 0; i < m->n_pus; i++)
		w->pus[i] = m->pus[i].os_index;
	w->machine_file = P->o->machine_file ?
		xstrdup(P->o->machine_file) : NULL;
	w->has_memory = true;
	w->memory.kind = MEM_LOCAL;
	w->memory.node = -1;
	{
		char d[32];

		iso_date_now(d, sizeof(d));
		w->date = xstrdup(d);
	}
	w->version = xstrdup(PANDIA_VERSION);
}

/* What the model is told: record every run made so far in w->runs. */
void prof_sync_runs(struct prof *P, struct pandia_workload *w)
{
	int i;

	for (i = 0; i < w->n_runs; i++)
		wl_run_release(&w->runs[i]);
	free(w->runs);
	w->runs = xcalloc((size_t)P->n_runs + 1, sizeof(struct wl_run));
	w->n_runs = P->n_runs;
	for (i = 0; i < P->n_runs; i++)
		record_run(&P->runs[i], &w->runs[i]);
}

/* The model's policy for the runs' own policy (--membind ...). */
static bool policy_of_run(const struct run_mempolicy *mp,
			  struct pandia_mempolicy *out)
{
	int k, n = 0, node = -1;

	if (!mp || mp->mode == RUN_MEM_DEFAULT)
		return false;
	for (k = 0; k < RUN_MEM_WORDS * 64; k++)
		if (mp->mask[k / 64] & (1UL << (k % 64))) {
			n++;
			node = node < 0 ? k : node;
		}
	out->node = -1;
	if (mp->mode == RUN_MEM_LOCAL) {
		out->kind = MEM_LOCAL;
	} else if (mp->mode == RUN_MEM_INTERLEAVE && n > 1) {
		out->kind = MEM_INTERLEAVE;
	} else if (n == 1) {
		out->kind = MEM_NODE;
		out->node = node;
	} else {
		return false;
	}
	return true;
}

/*
 * The memory policy of the description: --memory, else what the pages
 * of run 3 showed (its last repetition's last reading), else the
 * runs' own policy, else local; memory_found keeps the evidence.
 */
void prof_set_memory(struct prof *P, struct pandia_workload *w)
{
	const struct prun *R = NULL;
	struct pandia_error e;
	struct nm_found nf;
	struct nm_map *maps = NULL;
	bool in_use[NM_MAX_NODES] = { false };
	const struct pandia_machine *m = P->m;
	json_t *o, *sh, *even = NULL;
	int i, j, n = 0;

	w->has_memory = true;
	if (P->o->has_memory) {
		w->memory = P->o->memory;
		return;
	}
	for (i = 0; i < P->n_runs; i++)
		if (P->runs[i].run == 3)
			R = &P->runs[i];
	if (!R || !R->numa_maps) {
		if (!policy_of_run(P->o->mem, &w->memory))
			w->memory = (struct pandia_mempolicy){ MEM_LOCAL, -1 };
		return;
	}
	/* the nodes of the sockets run 3 used */
	for (i = 0; i < R->n_cpus; i++) {
		int pu = machine_pu_index(m, R->cpus[i]), s;

		if (pu < 0)
			continue;
		s = m->cores[m->pus[pu].core].socket;
		for (j = 0; j < m->n_numa; j++)
			if (m->numa[j].socket == s &&
			    m->numa[j].os_index >= 0 &&
			    m->numa[j].os_index < NM_MAX_NODES)
				in_use[m->numa[j].os_index] = true;
	}
	if (numamaps_parse(R->numa_maps, &maps, &n, &e) < 0 ||
	    numamaps_classify(maps, n, in_use, &nf, &e) < 0) {
		prof_warn(P->res, "run 3: where the pages are is not known "
			  "(%s): the memory is taken as local", e.text);
		w->memory = (struct pandia_mempolicy){ MEM_LOCAL, -1 };
		free(maps);
		return;
	}
	free(maps);
	w->memory.node = -1;
	switch (nf.kind) {
	case NM_SPREAD:
		w->memory.kind = MEM_SPREAD;
		even = prof_even_pages(P);
		if (even)
			w->memory.kind = MEM_EVEN;
		break;
	case NM_INTERLEAVE:
		w->memory.kind = MEM_INTERLEAVE;
		break;
	case NM_NODE:
		w->memory.kind = MEM_NODE;
		w->memory.node = nf.node;
		break;
	default:
		w->memory.kind = MEM_LOCAL;
		break;
	}
	o = json_object();
	sh = json_object();
	json_object_set_new(o, "run", json_string(R->id));
	json_object_set_new(o, "bytes", json_real(nf.bytes));
	json_object_set_new(o, "policy", json_string(nf.mixed ? "mixed" :
						     nm_kind_name(nf.kind)));
	for (i = 0; i < NM_KINDS; i++) {
		char name[32];

		if (!(nf.share[i] > 0))
			continue;
		if (i == NM_NODE)
			snprintf(name, sizeof(name), "node:%d", nf.node);
		else
			snprintf(name, sizeof(name), "%s", nm_kind_name(i));
		json_object_set_new(sh, name, json_real(nf.share[i]));
	}
	json_object_set_new(o, "shares", sh);
	if (even)
		json_object_set_new(o, "even", even);
	json_object_set_new(o, "how", json_string(
		"anonymous pages of /proc/PID/numa_maps (or the runner "
		"template's {numa_maps}) during run 3, bytes per mapping: "
		"interleave policy, on one node, or spread over the nodes "
		"(first touch); one-node mappings on several nodes count "
		"as local; with first touch, a check run uneven over the "
		"sockets tells pages in proportion to the threads (spread) "
		"from pages evenly over the nodes in use (even)"));
	json_decref(w->memory_found);
	w->memory_found = o;
	if (nf.mixed)
		prof_warn(P->res, "run 3: the pages are mixed (the largest "
			  "share, %s, %.0f%%): the model uses it (memory_found "
			  "has the shares)", nm_kind_name(nf.kind),
			  100 * nf.share[nf.kind]);
}
